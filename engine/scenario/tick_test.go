package scenario

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// exampleFiles are every lesson and exercise under examples/.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"lessons", "exercises"} {
		m, _ := filepath.Glob(filepath.Join("../../examples", dir, "*.txtar"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no lessons or exercises under ../../examples: the test has nothing to check")
	}
	return files
}

func parseFile(t *testing.T, file string) *Scenario {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Parse(filepath.Base(file), data)
	if err != nil {
		t.Fatalf("malformed: %v", err)
	}
	return sc
}

// TestTickedRunMatchesRun: a run with an OnTick hook (advances and waits in
// one-second steps, the hook after each and after every command) writes
// the same transcript, byte for byte, as Run, for every example lesson and
// exercise; and the hook does run.
func TestTickedRunMatchesRun(t *testing.T) {
	for _, file := range exampleFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc := parseFile(t, file)
			var want strings.Builder
			sc.Run(&want)

			sim := engine.New(sc.options())
			for k, v := range sc.Files {
				sim.Files[k] = v
			}
			var got strings.Builder
			r := newRunner(nil, sc, simTarget{sim}, &got)
			ticks := 0
			r.onTick = func() bool { ticks++; return true }
			if sc.meta.Kind == KindExercise {
				r.exercise()
			} else {
				r.steps(sc.steps)
			}
			r.stopWatch()
			r.lw.startLine()
			if got.String() != want.String() {
				t.Errorf("ticked transcript differs from Run's:\n%s\n--- Run:\n%s", got.String(), want.String())
			}
			if ticks == 0 {
				t.Errorf("the hook never ran")
			}
		})
	}
}

// playAll plays sc on a new Recorder made with o (a lesson step by step,
// an exercise's setup then solution), writing the executor's transcript to
// the returned builder. The entries' Inputs are cleared: a streaming
// Recorder logs a `kubectl rollout status` as its Run and the Advances it
// waited, a blocking one as one Run (TestPlayerEntryInputs covers them).
func playAll(sc *Scenario, o engine.Options, onTick func(time.Duration) bool) (*engine.Recorder, string, []StepResult) {
	rec := engine.NewRecorder(o)
	p := NewPlayer(sc, rec)
	p.OnTick = onTick
	var tr strings.Builder
	p.r.lw.w = &tr
	var res []StepResult
	if sc.meta.Kind == KindExercise {
		res = append(res, p.Setup(), p.Solve())
	} else {
		for i := range p.Steps() {
			res = append(res, p.PlayStep(i))
		}
	}
	for _, r := range res {
		r.Watch.Stop()
		r.Watch = nil
		r.Edit = nil
		for j := range r.Entries {
			r.Entries[j].Inputs = nil
		}
	}
	p.r.stopWatch()
	p.r.lw.startLine()
	return rec, tr.String(), res
}

// dropComments removes the comment and heading lines of a transcript (the
// Player leaves a lesson step's explanation out).
func dropComments(s string) string {
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// TestPlayerTickedOnStreamingRecorder: every example lesson and exercise
// played with OnTick on the page's streaming Recorder gives the same
// transcript, entries, failures, state and inputs' effect as on a
// blocking Recorder without a hook; a lesson's transcript is Run's
// (without the comment lines). The streamed `kubectl rollout status`
// blocks as the command does.
func TestPlayerTickedOnStreamingRecorder(t *testing.T) {
	for _, file := range exampleFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc := parseFile(t, file)
			o := sc.Options()
			recA, trA, resA := playAll(sc, o, nil)
			o.StreamRolloutStatus = true
			ticks := 0
			var last time.Duration
			recB, trB, resB := playAll(sc, o, func(d time.Duration) bool {
				if d < 0 {
					t.Errorf("elapsed %s", d)
				}
				last = max(last, d)
				ticks++
				return true
			})
			if trA != trB {
				t.Errorf("transcripts differ:\n%s\n--- streaming, ticked:\n%s", trA, trB)
			}
			if !reflect.DeepEqual(resA, resB) {
				t.Errorf("step results differ:\n%+v\n--- streaming, ticked:\n%+v", resA, resB)
			}
			for i, r := range resB {
				if !r.OK() {
					t.Errorf("step %d: %v", i, r.Failures)
				}
			}
			if a, b := stateOf(recA.Live()), stateOf(recB.Live()); a != b {
				t.Errorf("states differ:\n%s\n---\n%s", a, b)
			}
			if ticks == 0 || last == 0 {
				t.Errorf("OnTick ran %d times, the longest elapsed %s", ticks, last)
			}
			// the streaming Recorder replays to the same state (its inputs
			// are the command, then the advances it waited)
			if _, err := recB.Seek(0); err != nil {
				t.Fatal(err)
			}
			end, err := recB.Seek(recB.Live().Elapsed())
			if err != nil {
				t.Fatal(err)
			}
			if a, b := stateOf(recA.Live()), stateOf(end); a != b {
				t.Errorf("after a seek, states differ:\n%s\n---\n%s", a, b)
			}
			if sc.meta.Kind != KindExercise {
				var run strings.Builder
				sc.Run(&run)
				if a, b := dropComments(run.String()), dropComments(trB); a != b {
					t.Errorf("lesson transcript differs from Run's:\n%s\n--- player:\n%s", a, b)
				}
			}
		})
	}
}

// rolloutScenario rolls agent to a new image; status lines as written.
func rolloutScenario(status string) string {
	return "kubectl apply -f agent.yaml\nwait rollout ds/agent\nkubectl set image ds/agent agent=busybox:1.37\n" + status +
		"-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36") +
		"-- stuck.yaml --\n" + strings.Replace(enginetest.DaemonSetYAML("", "agent", "busybox:1.36"), "busybox:1.36", "busybox:nope", 1)
}

// TestRolloutStatusOnStreamingRecorder: on a Recorder that streams
// `rollout status`, the Player's command waits as the blocking one does:
// the same stdout, stderr, exit code and virtual time as Run, for a
// rollout that finishes, one that hits --timeout (also a fractional one),
// and one stuck without --timeout (the playground's bound and note).
func TestRolloutStatusOnStreamingRecorder(t *testing.T) {
	for _, tc := range []struct {
		name, lines string
		exit        int
		stderr      string
	}{
		{"done", "kubectl rollout status ds/agent\nstdout 'successfully rolled out'\n", 0, ""},
		{"namespace flag", "kubectl rollout status -n default daemonset agent --timeout 5m\nstdout 'successfully rolled out'\n", 0, ""},
		{"timeout", "! kubectl rollout status ds/agent --timeout=2500ms\nstderr '^error: timed out waiting for the condition\\n$'\n", 1, "error: timed out waiting for the condition\n"},
		{"stuck", "registry lacks busybox:nope\nkubectl apply -f stuck.yaml\n! kubectl rollout status ds/agent\nstderr 'has not moved for 10m0s'\n", 1, "note: the playground stopped watching: the rollout has not moved for 10m0s of virtual time (kubectl would keep waiting; use --timeout to choose)\nerror: timed out waiting for the condition\n"},
		// a --timeout beyond kubectl.MaxCommandWait: both forms stop at
		// the cap with its note
		{"stuck beyond the cap", "registry lacks busybox:nope\nkubectl apply -f stuck.yaml\n! kubectl rollout status ds/agent --timeout=100000h\nstderr 'stops waiting after 1h'\n", 1, "note: the playground stops waiting after 1h of virtual time; a real kubectl would keep waiting until --timeout\nerror: timed out waiting for the condition\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := rolloutScenario(tc.lines)
			if strings.HasPrefix(tc.name, "stuck") {
				src = strings.Replace(src, "kubectl set image ds/agent agent=busybox:1.37\n", "", 1)
			}
			sc, err := Parse("r.txtar", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var run strings.Builder
			if res := sc.Run(&run); !res.OK() {
				t.Fatalf("Run: %v\n%s", res.Failures, run.String())
			}
			rec, tr, res := playAll(sc, engine.Options{StreamRolloutStatus: true}, nil)
			if !res[0].OK() {
				t.Fatalf("Player: %v\n%s", res[0].Failures, tr)
			}
			if tr != run.String() {
				t.Errorf("transcript:\n%s\n--- Run:\n%s", tr, run.String())
			}
			var e *Entry
			for i := range res[0].Entries {
				if strings.Contains(res[0].Entries[i].Command, "rollout status") {
					e = &res[0].Entries[i]
				}
			}
			if e == nil || e.ExitCode != tc.exit || e.Stderr != tc.stderr {
				t.Errorf("entry %+v, want exit %d stderr %q", e, tc.exit, tc.stderr)
			}
			if tc.exit == 0 && (e == nil || !strings.HasSuffix(e.Stdout, "daemon set \"agent\" successfully rolled out\n") || !strings.HasPrefix(e.Stdout, "Waiting for daemon set")) {
				t.Errorf("stdout %q", e.Stdout)
			}
			if res[0].Watch != nil {
				t.Errorf("the status stream is left running")
			}
			// the virtual time the command waited is on the timeline
			sim := engine.New(sc.Options())
			for k, v := range sc.Files {
				sim.Files[k] = v
			}
			newRunner(nil, sc, simTarget{sim}, &strings.Builder{}).steps(sc.steps)
			if a, b := stateOf(sim), stateOf(rec.Live()); a != b {
				t.Errorf("states differ:\n%s\n---\n%s", a, b)
			}
		})
	}
}

// TestPlayerOnTickStops: OnTick returning false stops the step inside its
// wait, with a failure naming the line; the next step still plays.
func TestPlayerOnTickStops(t *testing.T) {
	src := "# kind: lesson\nkubectl apply -f agent.yaml\n## Wait\nadvance 1m\nkubectl get ds agent\n## Next\nkubectl get ds agent\nstdout agent\n-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	sc, err := Parse("s.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(sc.Options())
	p := NewPlayer(sc, rec)
	if r := p.PlayStep(0); !r.OK() {
		t.Fatal(r.Failures)
	}
	var seen []time.Duration
	p.OnTick = func(d time.Duration) bool {
		seen = append(seen, d)
		return d < 5*time.Second
	}
	r := p.PlayStep(1)
	if len(r.Failures) != 1 || r.Failures[0] != "s.txtar:4: stopped: the player's OnTick asked to stop" {
		t.Errorf("failures %q", r.Failures)
	}
	if len(r.Entries) != 1 {
		t.Errorf("the step went on after the stop: %+v", r.Entries)
	}
	if got := rec.Live().Elapsed(); got != 5*time.Second {
		t.Errorf("stopped at t=%s, want 5s", got)
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 4 * time.Second, 5 * time.Second}; !reflect.DeepEqual(seen, want) {
		t.Errorf("OnTick saw %v, want %v", seen, want)
	}
	// a hook stopping after a command stops before the next one
	p.OnTick = func(time.Duration) bool { return false }
	r = p.PlayStep(2)
	if len(r.Failures) != 1 || r.Failures[0] != "s.txtar:7: stopped: the player's OnTick asked to stop" || len(r.Entries) != 1 || r.Entries[0].Stdout == "" {
		t.Errorf("step 2: %+v", r)
	}
}

// TestRolloutStatusOnStreamingRecorderObserves: an `always` rule broken
// only while a streamed `kubectl rollout status` waits is caught at the
// same virtual time as in Run (where the blocking command observes at each
// of its seconds).
func TestRolloutStatusOnStreamingRecorderObserves(t *testing.T) {
	src := "# kind: lesson\nkubectl apply -f agent.yaml\nwait rollout ds/agent\nalways ds/agent unavailable == 0\n## Roll\nkubectl set image ds/agent agent=busybox:1.37\nkubectl rollout status ds/agent\nstdout 'successfully rolled out'\n" +
		"-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	sc, err := Parse("o.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var run strings.Builder
	want := sc.Run(&run).Failures
	if len(want) != 1 || !strings.Contains(want[0], "o.txtar:4: ") {
		t.Fatalf("Run's failures: %q\n%s", want, run.String())
	}
	_, tr, res := playAll(sc, engine.Options{StreamRolloutStatus: true}, nil)
	if got := res[1].Failures; !reflect.DeepEqual(got, want) {
		t.Errorf("Player's failures %q, want Run's %q\n%s", got, want, tr)
	}
}

// TestPlayerRunning: inside OnTick, Running names the command whose
// virtual time passes.
func TestPlayerRunning(t *testing.T) {
	sc, err := Parse("r.txtar", []byte("kubectl get nodes\nadvance 3s\n"))
	if err != nil {
		t.Fatal(err)
	}
	rec := engine.NewRecorder(sc.Options())
	p := NewPlayer(sc, rec)
	seen := map[string]bool{}
	p.OnTick = func(time.Duration) bool { seen[p.Running()] = true; return true }
	if res := p.PlayStep(0); len(res.Failures) > 0 {
		t.Fatal(res.Failures)
	}
	if !seen["advance 3s"] || !seen["kubectl get nodes"] {
		t.Errorf("Running during the ticks: %v", seen)
	}
}
