package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// playLesson is a lesson whose steps use a watch that runs across steps'
// commands, an edit opened in one step and saved in the next, and decisions.
const playLesson = `# kind: lesson
# title: Play
# intro text
kubectl apply -f agent.yaml

## Watch
# The pods start.
kubectl get pods -w
advance 10s
stdout 'agent-\w{5}\s+1/1\s+Running'

## Edit
kubectl edit ds agent

## Save
# saves the editor opened in the previous step
editor replace 'image: busybox:1.36' 'image: busybox:1.37'
stdout 'daemonset.apps/agent edited'
wait rollout ds/agent
expect ds/agent image busybox:1.37
decisions --action=create
stdout 'agent-'
-- agent.yaml --
` + "" // files appended in init

var playLessonSrc = playLesson + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")

func TestPlayerLesson(t *testing.T) {
	sc, err := Parse("play.txtar", []byte(playLessonSrc))
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(sc.Options())
	p := NewPlayer(sc, rec)
	if p.Steps() != 4 {
		t.Fatalf("Steps = %d", p.Steps())
	}
	if r := p.PlayStep(1); r.OK() || !strings.Contains(r.Failures[0], "the next step is 0") || len(rec.Inputs()) != 0 {
		t.Fatalf("out of order: %+v, inputs %d", r, len(rec.Inputs()))
	}
	var all []Entry
	for i := range p.Steps() {
		r := p.PlayStep(i)
		if !r.OK() {
			t.Fatalf("step %d: %v\n%+v", i, r.Failures, r.Entries)
		}
		switch i {
		case 1:
			if r.Watch == nil {
				t.Errorf("step 1 leaves the watch running")
			}
			if e := r.Entries[1]; e.Command != "advance 10s" || !strings.Contains(e.Stdout, "Running") {
				t.Errorf("the watch's lines go under the advance: %+v", r.Entries)
			}
		case 2:
			if r.Edit == nil || r.Watch != nil {
				t.Errorf("step 2: edit %v, watch %v", r.Edit, r.Watch)
			}
		case 3:
			if r.Entries[0].Comment || r.Entries[0].Command != "editor replace 'image: busybox:1.36' 'image: busybox:1.37'" || r.Edit != nil {
				t.Errorf("step 3 entries: %+v", r.Entries)
			}
		}
		all = append(all, r.Entries...)
	}
	if r := p.PlayStep(4); r.OK() || !strings.Contains(r.Failures[0], "every step (4) was played") {
		t.Errorf("past the end: %+v", r)
	}
	// the Recorder holds everything: files, commands, the edit, the advances
	var kinds []string
	for _, in := range rec.Inputs() {
		kinds = append(kinds, string(in.Kind))
	}
	if got := strings.Join(kinds, " "); got != "file run run advance run edit advance run" && got != "file run run advance run edit advance" {
		t.Errorf("inputs: %s", got)
	}
	// the same state as Run's
	var buf strings.Builder
	if res := sc.Run(&buf); !res.OK() {
		t.Fatalf("Run: %v\n%s", res.Failures, buf.String())
	}
	runSim := engine.New(sc.Options())
	for k, v := range sc.Files {
		runSim.Files[k] = v
	}
	runner := newRunner(nil, sc, simTarget{runSim}, &strings.Builder{})
	runner.steps(sc.steps)
	runner.stopWatch()
	if a, b := stateOf(runSim), stateOf(rec.Live()); a != b {
		t.Errorf("Player and Run differ:\n%s\n---\n%s", a, b)
	}
	// the entries are the transcript's commands and outputs
	var text strings.Builder
	for _, e := range all {
		if e.Comment {
			continue
		}
		text.WriteString("$ " + e.Command + "\n" + e.Stdout + e.Stderr)
	}
	for _, want := range []string{"$ kubectl apply -f agent.yaml\ndaemonset.apps/agent created\n", "$ expect ds/agent image busybox:1.37\nok\n", "$ decisions --action=create\n+"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("entries lack %q:\n%s", want, text.String())
		}
	}
}

// stateOf is the cluster state compared between two runs.
func stateOf(sim *engine.Simulation) string {
	var b strings.Builder
	for _, c := range []string{"kubectl get pods -o wide", "kubectl get ds -o wide", "kubectl get nodes --show-labels", "kubectl get events", "kubectl get controllerrevisions"} {
		out := sim.Run(c)
		b.WriteString("$ " + c + "\n" + out.Stdout + out.Stderr)
	}
	b.WriteString("t=" + sim.Elapsed().String() + "\n")
	return b.String()
}

func TestPlayerExercise(t *testing.T) {
	sc, err := Parse("x.txtar", []byte(exercise("expect ds/agent on all\n", "always ds/agent unavailable <= 1\n", "kubectl apply -f tolerant.yaml\nwait rollout ds/agent\n")))
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(sc.Options())
	p := NewPlayer(sc, rec)
	if r := p.Solve(); r.OK() || !strings.Contains(r.Failures[0], "play the setup before the solution") {
		t.Fatalf("Solve first: %+v", r)
	}
	if r := p.Setup(); !r.OK() || len(r.Entries) != 2 || r.Entries[0].Command != "kubectl apply -f agent.yaml" {
		t.Fatalf("Setup: %+v", r)
	}
	if r := p.Setup(); r.OK() {
		t.Fatalf("second Setup: %+v", r)
	}
	iv := sc.Invariants()
	if g := sc.CheckGoal(rec.Live()); g.OK {
		t.Fatalf("goal holds after the setup: %+v", g)
	}
	steps := len(rec.Steps())
	r := p.Solve()
	iv.Observe(rec.Live())
	if !r.OK() || len(iv.Violations()) != 0 {
		t.Fatalf("Solve: %+v %+v", r, iv.Violations())
	}
	if g := sc.CheckGoal(rec.Live()); !g.OK {
		t.Fatalf("goal after the solution: %+v", g.Failed())
	}
	if len(rec.Steps()) <= steps {
		t.Errorf("the solution is not on the timeline")
	}
	// a lesson has no solution
	sc2, _ := Parse("l.txtar", []byte(playLessonSrc))
	if r := NewPlayer(sc2, engine.NewRecorder(engine.Options{})).Solve(); r.OK() {
		t.Errorf("lesson Solve: %+v", r)
	}
}

func TestPlayerRefusesPodSucceed(t *testing.T) {
	sc, err := Parse("s.txtar", []byte("kubectl apply -f agent.yaml\nadvance 10s\npod succeed agent@node-1\n-- agent.yaml --\n"+enginetest.DaemonSetYAML("", "agent", "busybox:1.36")))
	if err != nil {
		t.Fatal(err)
	}
	r := NewPlayer(sc, engine.NewRecorder(engine.Options{})).PlayStep(0)
	if len(r.Failures) != 1 || !strings.Contains(r.Failures[0], "s.txtar:3: pod succeed is not available on the page's timeline") {
		t.Errorf("failures: %v", r.Failures)
	}
}

// TestPlayerMatchesRunOnExamples plays every lesson and exercise under
// examples/ on a Recorder and compares the final state with Run's.
func TestPlayerMatchesRunOnExamples(t *testing.T) {
	var files []string
	for _, dir := range []string{"lessons", "exercises"} {
		m, _ := filepath.Glob(filepath.Join("../../examples", dir, "*.txtar"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no lessons or exercises under ../../examples: the test has nothing to check")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := Parse(filepath.Base(file), data)
			if err != nil {
				t.Fatalf("malformed: %v", err)
			}
			runSim := engine.New(sc.Options())
			for k, v := range sc.Files {
				runSim.Files[k] = v
			}
			rn := newRunner(nil, sc, simTarget{runSim}, &strings.Builder{})
			rec := engine.NewRecorder(sc.Options())
			p := NewPlayer(sc, rec)
			if sc.Meta().Kind == KindExercise {
				rn.steps(p.section(secSetup))
				rn.steps(p.section(secSolution))
				p.Setup()
				p.Solve()
			} else {
				rn.steps(sc.steps)
				for i := range p.Steps() {
					p.PlayStep(i)
				}
			}
			rn.stopWatch()
			if a, b := stateOf(runSim), stateOf(rec.Live()); a != b {
				t.Errorf("Player and Run differ:\n%s\n---\n%s", a, b)
			}
		})
	}
}

// TestPlayerChecks: expect lines report in their entries, and always lines
// of a lesson are observed through later steps.
func TestPlayerChecks(t *testing.T) {
	src := "# kind: lesson\nkubectl apply -f agent.yaml\nwait rollout ds/agent\nalways ds/agent pods >= 2\n## Break it\nexpect ds/agent on all\nexpect ds/agent desired == 2\nkubectl delete ds agent\n-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	sc, err := Parse("c.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(sc, engine.NewRecorder(sc.Options()))
	if r := p.PlayStep(0); !r.OK() {
		t.Fatal(r.Failures)
	}
	r := p.PlayStep(1)
	want := []string{"c.txtar:6: ds/agent has no ready pod on control-plane (no pod)", "c.txtar:4: ds/agent does not exist, at t=8s"}
	if len(r.Failures) != 2 || r.Failures[0] != want[0] || !strings.HasPrefix(r.Failures[1], want[1]) {
		t.Errorf("failures %q, want %q", r.Failures, want)
	}
	e0, e1 := r.Entries[0], r.Entries[1]
	if e0.ExitCode != 1 || e0.Stderr != "ds/agent has no ready pod on control-plane (no pod)\n" || e1.ExitCode != 0 || e1.Stdout != "ok\n" {
		t.Errorf("entries %+v %+v", e0, e1)
	}
}
