//go:build js && wasm

package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/scenario"
)

const testExercise = `# title: T
# kind: exercise
# task: do it
# hint: one
# hint: two
kubectl apply -f a.yaml
kubectl apply --filename=b.yaml

## goal
expect ds/b on all

## solution
kubectl apply -f fixed.yaml
kubectl rollout status ds/b
stdout 'rolled out'
-- a.yaml --
apiVersion: v1
kind: Namespace
metadata: {name: a}
-- b.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: b}
spec:
  selector: {matchLabels: {app: b}}
  template:
    metadata: {labels: {app: b}}
    spec:
      containers: [{name: c, image: nginx:1.25}]
-- fixed.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: b}
spec:
  selector: {matchLabels: {app: b}}
  template:
    metadata: {labels: {app: b}}
    spec:
      tolerations: [{key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}]
      containers: [{name: c, image: nginx:1.25}]
`

func TestSolutionAndFiles(t *testing.T) {
	sc, err := scenario.Parse("t.txtar", []byte(testExercise))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := solutionLines(sc), []string{"kubectl apply -f fixed.yaml", "kubectl rollout status ds/b", "stdout 'rolled out'"}; !reflect.DeepEqual(got, want) {
		t.Errorf("solutionLines = %q, want %q", got, want)
	}
	cmds := solutionCommands(sc)
	if want := []string{"kubectl apply -f fixed.yaml", "kubectl rollout status ds/b"}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("solutionCommands = %q, want %q", cmds, want)
	}
	if got := solutionFiles(sc, cmds); !reflect.DeepEqual(got, []string{"fixed.yaml"}) {
		t.Errorf("solutionFiles = %q", got)
	}
	if got := appliedFile(sc, sc.Lesson()[0].Commands); got != "b.yaml" {
		t.Errorf("appliedFile(setup) = %q, want b.yaml (the last applied)", got)
	}
	if got := appliedFile(sc, []string{"kubectl get -f b.yaml", "kubectl apply -f missing.yaml"}); got != "" {
		t.Errorf("appliedFile of no apply of a known file = %q", got)
	}
}

// linesPlayer plays lines on a Recorder with the scenario's files, as the
// page does after "Continue from here" (the exercise's own Player is
// bound to the old Recorder). The Recorder streams `rollout status`, as
// the page's does: the solution's `kubectl rollout status` still waits for
// the rollout and prints its last line, as the CLI does.
func TestLinesPlayerRunsTheSolution(t *testing.T) {
	sc, err := scenario.Parse("t.txtar", []byte(testExercise))
	if err != nil {
		t.Fatal(err)
	}
	o := sc.Options()
	o.StreamRolloutStatus = true
	rec := engine.NewRecorder(o)
	if res := scenario.NewPlayer(sc, rec).Setup(); !res.OK() {
		t.Fatalf("setup: %v", res.Failures)
	}
	if g := sc.CheckGoal(rec.Live()); g.OK {
		t.Fatal("the goal holds before the solution")
	}
	p, err := linesPlayer(sc, solutionLines(sc), rec)
	if err != nil {
		t.Fatal(err)
	}
	res := p.PlayStep(0)
	if !res.OK() {
		t.Fatalf("solution: %v", res.Failures)
	}
	if e := res.Entries[len(res.Entries)-1]; e.Command != "kubectl rollout status ds/b" || !strings.HasSuffix(e.Stdout, "daemon set \"b\" successfully rolled out\n") || res.Watch != nil {
		t.Errorf("rollout status on the streaming Recorder: %+v (watch %v)", e, res.Watch)
	}
	if g := sc.CheckGoal(rec.Live()); !g.OK {
		t.Errorf("the goal after the solution: %+v", g.Failed())
	}
	if _, err := linesPlayer(sc, []string{"nonsense command"}, rec); err == nil {
		t.Error("a malformed line was accepted")
	}
}
