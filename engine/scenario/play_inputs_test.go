package scenario

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// Each entry of a played step names exactly the Recorder inputs its line
// made (Entry.Inputs), so the page ties console lines to timeline inputs
// without guessing.
func TestPlayerEntryInputs(t *testing.T) {
	ds := enginetest.DaemonSetYAML("", "x", "nginx:1.25")
	for _, tc := range []struct {
		name   string
		script string
		stream bool // the Recorder streams `kubectl rollout status`
		noFile bool // the scenario has no file (the Player writes none)
		// before are inputs made on the Recorder before the step
		before func(*engine.Recorder)
		// want is, per entry, "command => label, label" (the labels of
		// the inputs it names)
		want []string
	}{
		{
			name: "kubectl, node add range, assertion, advance",
			script: `kubectl apply -f ds.yaml
stdout created
# a comment between commands
node add worker-{1..3} --label a=b
advance 5s
kubectl get ds x
stdout '^x '
`,
			want: []string{
				"kubectl apply -f ds.yaml => kubectl apply -f ds.yaml",
				"# a comment between commands =>",
				"node add worker-{1..3} --label a=b => node add worker-1, node add worker-2, node add worker-3",
				"advance 5s => advance 5s",
				"kubectl get ds x => kubectl get ds x",
			},
		},
		{
			name: "merged advances, a wait, decisions and expect make none of their own",
			script: `kubectl apply -f ds.yaml
advance 5s
wait rollout ds/x
decisions --action=create
expect ds/x image nginx:1.25
node remove node-2
advance 1s
advance 2s
`,
			want: []string{
				"kubectl apply -f ds.yaml => kubectl apply -f ds.yaml",
				"advance 5s => advance *",
				"wait rollout ds/x => advance *",
				"decisions --action=create =>",
				"expect ds/x image nginx:1.25 =>",
				"node remove node-2 => node remove node-2",
				"advance 1s => advance 3s",
				"advance 2s => advance 3s",
			},
		},
		{
			name:   "an advance merged into the input before the step",
			script: "advance 2s\nnode add n9\n",
			noFile: true,
			before: func(r *engine.Recorder) { r.Advance(3 * time.Second) },
			want: []string{
				"advance 2s => advance 5s",
				"node add n9 => node add n9",
			},
		},
		{
			name:   "rollout status waits through advances on a streaming Recorder",
			script: "kubectl apply -f ds.yaml\nkubectl rollout status ds/x\nnode fail node-1\n",
			stream: true,
			want: []string{
				"kubectl apply -f ds.yaml => kubectl apply -f ds.yaml",
				"kubectl rollout status ds/x => kubectl rollout status ds/x, advance *",
				"node fail node-1 => node fail node-1",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "# title: t\n" + tc.script
			if !tc.noFile {
				src += "-- ds.yaml --\n" + ds
			}
			sc, err := Parse("t.txtar", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			o := sc.Options()
			o.StreamRolloutStatus = tc.stream
			rec := engine.NewRecorder(o)
			if tc.before != nil {
				tc.before(rec)
			}
			from := len(rec.Inputs())
			res := NewPlayer(sc, rec).PlayStep(0)
			if !res.OK() {
				t.Fatalf("step: %v", res.Failures)
			}
			ins := rec.Inputs()
			var got []string
			seen := map[int]bool{}
			for i, e := range res.Entries {
				var labels []string
				for _, k := range e.Inputs {
					if k < 0 || k >= len(ins) {
						t.Fatalf("%q names input %d of %d", e.Command, k, len(ins))
					}
					l := ins[k].Label()
					if strings.HasPrefix(l, "advance ") && i < len(tc.want) && strings.HasSuffix(tc.want[i], "advance *") {
						l = "advance *"
					}
					labels = append(labels, l)
					seen[k] = true
				}
				got = append(got, strings.TrimSpace(e.Command+" => "+strings.Join(labels, ", ")))
			}
			for i, w := range tc.want {
				tc.want[i] = strings.TrimSpace(w)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("entries' inputs:\n%q\nwant\n%q", got, tc.want)
			}
			// every input the step made is some entry's, but the files
			// written before the first line
			for k := from; k < len(ins); k++ {
				if !seen[k] && ins[k].Kind != engine.InputSetFile {
					t.Errorf("input %d (%s) is no entry's", k, ins[k].Label())
				}
			}
		})
	}
}

// Scenario.Run's and CheckGoal's entries name no inputs (no Recorder).
func TestRunEntriesHaveNoInputs(t *testing.T) {
	sc, err := Parse("t.txtar", []byte("# kind: exercise\nkubectl get nodes\n\n## goal\nkubectl get nodes\nstdout node-1\n\n## solution\nkubectl get nodes\n"))
	if err != nil {
		t.Fatal(err)
	}
	g := sc.CheckGoal(engine.New(sc.Options()))
	for _, e := range g.Entries {
		if e.Inputs != nil {
			t.Errorf("goal entry %q names inputs %v", e.Command, e.Inputs)
		}
	}
}
