package session

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
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
	it := parsed(t, "", testExercise)
	if got, want := it.SolutionLines(), []string{"kubectl apply -f fixed.yaml", "kubectl rollout status ds/b", "stdout 'rolled out'"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SolutionLines = %q, want %q", got, want)
	}
	cmds := it.SolutionCommands()
	if want := []string{"kubectl apply -f fixed.yaml", "kubectl rollout status ds/b"}; !reflect.DeepEqual(cmds, want) {
		t.Errorf("SolutionCommands = %q, want %q", cmds, want)
	}
	if got := it.SolutionFiles(cmds); !reflect.DeepEqual(got, []string{"fixed.yaml"}) {
		t.Errorf("SolutionFiles = %q", got)
	}
	if got := it.AppliedFile(it.Steps()[0].Commands); got != "b.yaml" {
		t.Errorf("AppliedFile(setup) = %q, want b.yaml (the last applied)", got)
	}
	if got := it.AppliedFile([]string{"kubectl get -f b.yaml", "kubectl apply -f missing.yaml"}); got != "" {
		t.Errorf("AppliedFile of no apply of a known file = %q", got)
	}
	if got := parsed(t, KindLesson, "# title: L\nkubectl get nodes\n").SolutionLines(); got != nil {
		t.Errorf("a lesson's SolutionLines = %q", got)
	}
}

// The -f arguments are read as kubectl reads them (its command-line
// parser, then the flag's forms).
func TestFileArgs(t *testing.T) {
	for line, want := range map[string][]string{
		"kubectl apply -f a.yaml":                   {"a.yaml"},
		"! kubectl apply --filename=b.yaml":         {"b.yaml"},
		"kubectl apply --filename b.yaml -f=c.yaml": {"b.yaml", "c.yaml"},
		"kubectl apply -fa.yaml":                    {"a.yaml"},
		"kubectl apply -f a.yaml,b.yaml":            {"a.yaml", "b.yaml"},
		"kubectl apply -f 'a b.yaml'":               {"a b.yaml"},
		"kubectl delete ds x --force":               nil,
		"kubectl apply -f":                          nil,
		"kubectl apply -f a.yaml | cat":             nil, // not a command line kubectl takes
		"kubectl apply -- -f a.yaml":                nil,
	} {
		if got := fileArgs(line); !reflect.DeepEqual(got, want) {
			t.Errorf("fileArgs(%q) = %q, want %q", line, got, want)
		}
	}
}

// LinesPlayer plays lines on a Recorder with the scenario's files, as the
// page does after "Continue from here" (the exercise's own Player is
// bound to the old Recorder). The Recorder streams `rollout status`, as
// the page's does: the solution's `kubectl rollout status` still waits for
// the rollout and prints its last line, as the CLI does.
func TestLinesPlayerRunsTheSolution(t *testing.T) {
	it := parsed(t, "", testExercise)
	o := it.Options()
	o.StreamRolloutStatus = true
	rec := engine.NewRecorder(o)
	if res := it.NewPlayer(rec).Setup(); !res.OK() {
		t.Fatalf("setup: %v", res.Failures)
	}
	if g := it.CheckGoal(rec.Live()); g.OK {
		t.Fatal("the goal holds before the solution")
	}
	p, err := it.LinesPlayer(it.SolutionLines(), rec)
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
	if g := it.CheckGoal(rec.Live()); !g.OK {
		t.Errorf("the goal after the solution: %+v", g.Failed())
	}
	if _, err := it.LinesPlayer([]string{"nonsense command"}, rec); err == nil {
		t.Error("a malformed line was accepted")
	}
}

// An attempt: checked, solved by the solution (which does not count),
// broken by a rule.
func TestExerciseAttempt(t *testing.T) {
	it := parsed(t, "", testExercise)
	p := ParseProgress(`{"exercises":{"t":{"hints":5}}}`)
	x := NewExercise(it, p)
	if x.Hints != 2 {
		t.Errorf("hints seen before: %d, want 2 (all)", x.Hints)
	}
	x = NewExercise(it, ParseProgress(""))
	if h := x.NextHint(p); h != "one" || x.Hints != 1 || p.Exercises["t"].Hints != 5 {
		t.Errorf("NextHint = %q, hints %d, stored %d", h, x.Hints, p.Exercises["t"].Hints)
	}
	q := ParseProgress("")
	if h := x.NextHint(q); h != "two" || q.Exercises["t"].Hints != 2 {
		t.Errorf("NextHint = %q, stored %+v", h, q.Exercises["t"])
	}
	if h := x.NextHint(q); h != "" || x.Hints != 2 {
		t.Errorf("NextHint past the last = %q (%d)", h, x.Hints)
	}

	rec := engine.NewRecorder(it.Options())
	x.Player = it.NewPlayer(rec)
	x.SetupFailures = x.Player.Setup().Failures
	x.Observe(rec.Live())
	before := x.Key()
	if x.Check(rec.Live()) || x.Solved || !x.Checked || x.Summary() != "0 of 1 checks hold." {
		t.Errorf("before the solution: solved %v, %q", x.Solved, x.Summary())
	}
	if x.Key() == before {
		t.Error("the key did not change with the check")
	}
	x.UsedSolution = true
	if res := x.Player.Solve(); !res.OK() {
		t.Fatalf("solution: %v", res.Failures)
	}
	if !x.Check(rec.Live()) || x.Counts() || x.Check(rec.Live()) {
		t.Errorf("after the solution: solved %v, counts %v", x.Solved, x.Counts())
	}
	if !strings.Contains(x.SolvedText(), "with the solution's commands") || x.Summary() != "1 of 1 checks hold." {
		t.Errorf("%q / %q", x.SolvedText(), x.Summary())
	}
	for _, tc := range []struct {
		used, shared bool
		want         string
	}{
		{false, false, "Solved ✓ — every check of the goal holds."},
		{false, true, "The goal holds in this shared cluster ✓."},
		{true, true, "The goal holds — with the solution's commands. Restart and try it yourself?"},
	} {
		y := &Exercise{UsedSolution: tc.used, Shared: tc.shared}
		if got := y.SolvedText(); got != tc.want || y.Counts() != (!tc.used && !tc.shared) {
			t.Errorf("%+v: %q, counts %v", tc, got, y.Counts())
		}
	}
}

// A rule broken unsolves the attempt and fails it.
func TestExerciseRuleBroken(t *testing.T) {
	it := parsed(t, "", `# kind: exercise
kubectl apply -f ds.yaml
wait rollout ds/x

## goal
expect ds/x on all

## always
always ds/x unavailable <= 0

## solution
kubectl get ds
-- ds.yaml --
`+dsX)
	rec := engine.NewRecorder(it.Options())
	x := NewExercise(it, ParseProgress(""))
	x.Player = it.NewPlayer(rec)
	if res := x.Player.Setup(); !res.OK() {
		t.Fatalf("setup: %v", res.Failures)
	}
	if x.Observe(rec.Live()) {
		t.Error("a rule broke at once")
	}
	x.Solved = true
	rec.Run("kubectl delete pod -l app=x --wait=false")
	rec.Advance(2 * time.Second)
	if !x.Observe(rec.Live()) || x.Solved || len(x.Violations) != 1 || x.Observe(rec.Live()) {
		t.Errorf("after the pods went: %+v", x.Violations)
	}
	if x.Check(rec.Live()); x.Solved || !strings.Contains(x.Summary(), "A rule that must always hold was broken") {
		t.Errorf("checked: solved %v, %q", x.Solved, x.Summary())
	}
}

func TestCatchUpTimes(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		last, now time.Duration
		nodes     int
		want      []time.Duration
	}{
		{0, s, 3, nil},
		{0, 4 * s, 3, []time.Duration{s, 2 * s, 3 * s}},
		{10 * s, 12500 * time.Millisecond, 3, []time.Duration{11 * s, 12 * s}},
		{0, 4 * s, CatchUpNodes + 1, nil},
		{0, CatchUpMax + s, 3, nil},
	} {
		if got := CatchUpTimes(tc.last, tc.now, tc.nodes); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("CatchUpTimes(%s, %s, %d) = %v, want %v", tc.last, tc.now, tc.nodes, got, tc.want)
		}
	}
}
