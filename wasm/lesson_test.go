//go:build js && wasm

package main

import (
	"reflect"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// A step played through the Player on a Recorder: every entry is tied to
// the input its command made, as the Recorder logged them.
func TestEntryInputsFromARecorder(t *testing.T) {
	sc, err := scenario.Parse("t.txtar", []byte(`# title: t
kubectl apply -f ds.yaml
stdout created
# a comment between commands
advance 5s
wait rollout ds/x
kubectl get ds
decisions
node add node-3
kubectl label nodes node-3 a=b
advance 1s
advance 2s
-- ds.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: x}
spec:
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec:
      containers: [{name: c, image: nginx:1.25}]
`))
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(engine.Options{})
	rec.Run("kubectl get nodes") // an input before the step
	from := len(rec.Inputs())
	res := scenario.NewPlayer(sc, rec).PlayStep(0)
	if !res.OK() {
		t.Fatalf("step: %v", res.Failures)
	}
	ins := rec.Inputs()
	got := entryInputs(res.Entries, ins, from)
	var cmds []string
	for i, e := range res.Entries {
		if e.Comment {
			if got[i] != -1 {
				t.Errorf("comment %q tied to input %d", e.Command, got[i])
			}
			continue
		}
		k := got[i]
		if k < from || k >= len(ins) {
			t.Errorf("%q tied to input %d (step's inputs: %d..%d)", e.Command, k, from, len(ins)-1)
			continue
		}
		cmds = append(cmds, e.Command+" => "+ins[k].Label())
	}
	want := []string{
		"kubectl apply -f ds.yaml => kubectl apply -f ds.yaml",
		"advance 5s => advance " + ins[got[2]].D.String(), // merged with the wait's
		"wait rollout ds/x => advance " + ins[got[2]].D.String(),
		"kubectl get ds => kubectl get ds",
		"decisions => kubectl get ds",
		"node add node-3 => node add node-3",
		"kubectl label nodes node-3 a=b => kubectl label nodes node-3 a=b",
		"advance 1s => advance 3s",
		"advance 2s => advance 3s",
	}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("entries tied to inputs:\n%q\nwant\n%q", cmds, want)
	}
	if d := ins[got[2]].D; d < 5*time.Second {
		t.Errorf("the merged advance is %s", d)
	}
}

func TestEntryKind(t *testing.T) {
	for cmd, want := range map[string]engine.InputKind{
		"kubectl get pods":            engine.InputRun,
		"advance 30s":                 engine.InputAdvance,
		"wait rollout ds/x":           engine.InputAdvance,
		"editor unchanged":            engine.InputFinishEdit,
		"node add n --label a=b":      engine.InputAddNode,
		"node fail n":                 engine.InputFailNode,
		"node condition n Ready=True": engine.InputNodeCondition,
		"pod unready x":               engine.InputPodReadiness,
		"registry lacks nginx:9":      engine.InputRegistryLack,
		"decisions --func=F":          "",
		"expect ds/x on all":          "",
		"":                            "",
	} {
		if got := entryKind(cmd); got != want {
			t.Errorf("entryKind(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestLearnerActed(t *testing.T) {
	ins := []engine.Input{{Kind: engine.InputRun}, {Kind: engine.InputAdvance}, {Kind: engine.InputApply}}
	for _, tc := range []struct {
		from int
		want bool
	}{{0, true}, {1, true}, {2, true}, {3, false}, {9, false}} {
		if got := learnerActed(ins, tc.from); got != tc.want {
			t.Errorf("learnerActed(from %d) = %v", tc.from, got)
		}
	}
	if learnerActed(ins[:2], 1) {
		t.Error("time passing counted as an action")
	}
}

func TestIsAssertion(t *testing.T) {
	for line, want := range map[string]bool{
		"stdout 'x'":         true,
		"! stdout x":         true,
		"stderr NotFound":    true,
		"! stderr x":         true,
		"stdout -count=2 x":  true,
		"kubectl get pods":   false,
		"expect ds/x on all": false,
		"stdoutx":            false,
	} {
		if got := isAssertion(line); got != want {
			t.Errorf("isAssertion(%q) = %v", line, got)
		}
	}
}
