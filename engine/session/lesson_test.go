package session

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
)

const dsX = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: x}
spec:
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec:
      containers: [{name: c, image: nginx:1.25}]
`

// parsed returns the item of a scenario's text, parsed.
func parsed(t *testing.T, kind, src string) *Item {
	t.Helper()
	it := NewItem("t", "t.txtar", []byte(src), kind)
	if err := it.Parse(); err != nil {
		t.Fatal(err)
	}
	return it
}

// A step played through the Player on a Recorder: every entry is tied to
// the input its command made, as the Recorder logged them.
func TestEntryInputsFromARecorder(t *testing.T) {
	it := parsed(t, KindLesson, `# title: t
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
`+dsX)
	rec := engine.NewRecorder(engine.Options{})
	rec.Run("kubectl get nodes") // an input before the step
	from := len(rec.Inputs())
	res := it.NewPlayer(rec).PlayStep(0)
	if !res.OK() {
		t.Fatalf("step: %v", res.Failures)
	}
	ins := rec.Inputs()
	got := EntryInputs(res.Entries)
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

// EntryInputs reads the entries' Inputs: the first of a line's inputs,
// the latest before for a line that made none, -1 for comments and
// before any input.
func TestEntryInputs(t *testing.T) {
	es := []Entry{
		{Command: "decisions"},
		{Command: "# note", Comment: true},
		{Command: "node add w{1..3}", Inputs: []int{4, 5, 6}},
		{Command: "expect ds/x on all"},
		{Command: "kubectl rollout status ds/x", Inputs: []int{7, 8}},
		{Command: "decisions"},
		{Command: "advance 1s", Inputs: []int{8}},
	}
	if got, want := EntryInputs(es), []int{-1, -1, 4, 6, 7, 8, 8}; !reflect.DeepEqual(got, want) {
		t.Errorf("EntryInputs = %v, want %v", got, want)
	}
}

// Each kind of scenario line makes the Recorder input of its kind (the
// cases of the page's former entryKind); lines that make none have no
// Inputs.
func TestEntryInputKinds(t *testing.T) {
	for _, tc := range []struct {
		setup, line string
		want        engine.InputKind // "" for none
	}{
		{"", "kubectl get pods", engine.InputRun},
		{"", "advance 30s", engine.InputAdvance},
		{"kubectl apply -f ds.yaml", "wait rollout ds/x", engine.InputAdvance},
		{"kubectl apply -f ds.yaml\nkubectl edit ds x", "editor unchanged", engine.InputFinishEdit},
		{"", "node add n --label a=b", engine.InputAddNode},
		{"", "node remove node-2", engine.InputRemoveNode},
		{"", "node fail node-1", engine.InputFailNode},
		{"node fail node-1", "node recover node-1", engine.InputRecoverNode},
		{"", "node condition node-1 MemoryPressure=True", engine.InputNodeCondition},
		{"kubectl apply -f ds.yaml\nwait rollout ds/x", "pod fail x@node-1", engine.InputFailPod},
		{"kubectl apply -f ds.yaml\nwait rollout ds/x", "pod unready x@node-1", engine.InputPodReadiness},
		{"", "registry has nginx:9", engine.InputRegistryHave},
		{"", "registry lacks nginx:9", engine.InputRegistryLack},
		{"", "registry preloaded nginx:1.25", engine.InputRegistryPreload},
		{"", "decisions --func=F", ""},
		{"kubectl apply -f ds.yaml", "expect ds/x image nginx:1.25", ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			it := parsed(t, KindLesson, "# title: t\n"+tc.setup+"\n\n## step\n"+tc.line+"\n-- ds.yaml --\n"+dsX)
			rec := engine.NewRecorder(it.Options())
			p := it.NewPlayer(rec)
			if res := p.PlayStep(0); !res.OK() {
				t.Fatalf("setup: %v", res.Failures)
			}
			res := p.PlayStep(1)
			if !res.OK() || len(res.Entries) != 1 {
				t.Fatalf("step: %v %+v", res.Failures, res.Entries)
			}
			var kinds []engine.InputKind
			for _, k := range res.Entries[0].Inputs {
				kinds = append(kinds, rec.Inputs()[k].Kind)
			}
			var want []engine.InputKind
			if tc.want != "" {
				want = []engine.InputKind{tc.want}
			}
			if !reflect.DeepEqual(kinds, want) {
				t.Errorf("%q made inputs %q, want %q", tc.line, kinds, want)
			}
		})
	}
}

func TestLearnerActed(t *testing.T) {
	ins := []engine.Input{{Kind: engine.InputRun}, {Kind: engine.InputAdvance}, {Kind: engine.InputApply}}
	for _, tc := range []struct {
		from int
		want bool
	}{{0, true}, {1, true}, {2, true}, {3, false}, {9, false}} {
		if got := LearnerActed(ins, tc.from); got != tc.want {
			t.Errorf("LearnerActed(from %d) = %v", tc.from, got)
		}
	}
	if LearnerActed(ins[:2], 1) {
		t.Error("time passing counted as an action")
	}
	if n := Actions(ins); n != 2 {
		t.Errorf("Actions = %d, want 2", n)
	}
}

func TestHasWork(t *testing.T) {
	const text = "kind: DaemonSet\n"
	for _, tc := range []struct {
		name string
		ins  []engine.Input
		want bool
	}{
		{"nothing", nil, false},
		{"time passing", []engine.Input{{Kind: engine.InputAdvance}}, false},
		{"the example loaded", []engine.Input{{Kind: engine.InputSetFile, Name: "manifest.yaml", Text: text}, {Kind: engine.InputApply, Name: "manifest.yaml", Text: text}, {Kind: engine.InputAdvance}}, false},
		{"the manifest edited", []engine.Input{{Kind: engine.InputSetFile, Name: "manifest.yaml", Text: "x"}}, true},
		{"a command", []engine.Input{{Kind: engine.InputAdvance}, {Kind: engine.InputRun, Line: "get pods"}}, true},
	} {
		if got := HasWork(tc.ins, "manifest.yaml", text); got != tc.want {
			t.Errorf("%s: HasWork = %v", tc.name, got)
		}
	}
	if !HasWork([]engine.Input{{Kind: engine.InputApply, Name: "manifest.yaml", Text: text}}, "manifest.yaml", "") {
		t.Error("with no example, an apply is the learner's")
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
		if got := IsAssertion(line); got != want {
			t.Errorf("IsAssertion(%q) = %v", line, got)
		}
	}
}

func TestIsKubectl(t *testing.T) {
	for line, want := range map[string]bool{
		"kubectl get pods":   true,
		"! kubectl get ds x": true,
		" kubectl":           true,
		"kubectlx":           false,
		"advance 1s":         false,
	} {
		if got := IsKubectl(line); got != want {
			t.Errorf("IsKubectl(%q) = %v", line, got)
		}
	}
}

func TestCommandLines(t *testing.T) {
	got := CommandLines([]string{"kubectl apply -f a.yaml", "stdout created", "", "# note", "! kubectl get ds nope", "advance 5s"})
	want := []string{"$ kubectl apply -f a.yaml", "$ kubectl get ds nope", "# advance 5s"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CommandLines = %q, want %q", got, want)
	}
	if got := CommandLines([]string{"stdout x", "# c"}); got != nil {
		t.Errorf("CommandLines of no command = %q", got)
	}
}

// The lesson's state: step titles, failures in step order, the progress
// marked.
func TestLessonState(t *testing.T) {
	it := parsed(t, KindLesson, "# kind: lesson\n# title: L\nkubectl get nodes\n\n## One\nkubectl get ds\n\n## Two?\nadvance 1s\n")
	l := NewLesson(it)
	p := ParseProgress("")
	if l.LastStep() != 2 || l.StepTitle() != "Introduction" || l.Finished() {
		t.Fatalf("new lesson: last %d, title %q", l.LastStep(), l.StepTitle())
	}
	l.Failures[2] = []string{"b"}
	l.Failures[0] = []string{"a"}
	if !l.AnyFailure() || !reflect.DeepEqual(l.AllFailures(), []string{"a", "b"}) {
		t.Errorf("failures: %v", l.AllFailures())
	}
	l.Shown = 2
	l.Mark(p)
	if l.StepTitle() != "Two?" || *p.Lessons["t"] != (LessonProgress{Step: 2}) {
		t.Errorf("at step 2: %q %+v", l.StepTitle(), *p.Lessons["t"])
	}
	l.Shown = 1
	l.Mark(p)
	if p.Lessons["t"].Step != 2 {
		t.Errorf("Back lowered the step reached: %+v", *p.Lessons["t"])
	}
	l.Shown = 3
	l.Mark(p)
	if !l.Finished() || l.StepTitle() != "" || *p.Lessons["t"] != (LessonProgress{Done: true, Step: 2}) {
		t.Errorf("at the end: %q %+v", l.StepTitle(), *p.Lessons["t"])
	}
	if got := Sentence("Step 2 of 2: " + it.Steps()[2].Title); !strings.HasSuffix(got, "Two?") {
		t.Errorf("announced %q", got)
	}
}
