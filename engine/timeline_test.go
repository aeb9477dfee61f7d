package engine

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// tlDS is a DaemonSet for the timeline tests: RollingUpdate with the given
// maxUnavailable, maxSurge and image, or OnDelete when maxUnavailable < 0.
func tlDS(maxUnavailable, maxSurge int, image string) string {
	if maxUnavailable < 0 {
		return fmt.Sprintf(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  updateStrategy: {type: OnDelete}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: "%s"}]
`, image)
	}
	return fmt.Sprintf(rollingDS, maxUnavailable, maxSurge, image)
}

// stateOf is everything the determinism tests compare: the pod, DaemonSet
// and event tables, the node table, and the whole decision log.
func stateOf(s *Simulation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "elapsed %s\n", s.Elapsed())
	for _, l := range []string{"kubectl get pods -o wide -A", "kubectl get ds -o wide", "kubectl get events -A", "kubectl get nodes -o wide", "kubectl get controllerrevisions"} {
		o := s.Run(l)
		fmt.Fprintf(&b, "$ %s\n%s%s", l, o.Stdout, o.Stderr)
	}
	for _, d := range s.Decisions(0) {
		fmt.Fprintf(&b, "%d %s %s %s %s %s %s: %s\n", d.Seq, d.Time.Sub(cluster.Epoch), d.Component, d.Func, d.Action, d.Object, d.Node, d.Reason)
	}
	return b.String()
}

// tlScript is a recorded session: every learner action kind the timeline
// records, with time passing in small and large steps. sample is called at
// the end of instants: right before time passes, and at the end.
func tlScript(t *testing.T, r *Recorder, sample func()) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	adv := func(d time.Duration) {
		sample()
		r.Advance(d)
	}
	must(r.AddNode("node-3", cluster.NodeOptions{Labels: map[string]string{"disk": "ssd"}}))
	if _, err := r.Apply("ds.yaml", tlDS(1, 0, "nginx:1.23")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ { // many small steps (frames), merged into one input
		adv(2500 * time.Millisecond)
	}
	adv(20 * time.Second)
	r.SetFile("ds.yaml", tlDS(1, 0, "nginx:1.23.3"))
	if o := r.Run("kubectl apply -f ds.yaml"); o.ExitCode != 0 {
		t.Fatalf("apply: %s", o.Stderr)
	}
	for i := 0; i < 8; i++ {
		adv(time.Second)
	}
	r.Run("kubectl get pods")    // read-only: recorded, no step
	r.Run("kubectl get pods -w") // a watch: nothing the checkpoints may not copy
	must(r.FailNode("node-2"))
	adv(70 * time.Second)
	must(r.SetNodeCondition("node-3", "DiskPressure", "True"))
	adv(5 * time.Second)
	must(r.SetNodeCondition("node-3", "DiskPressure", "False"))
	must(r.RecoverNode("node-2"))
	adv(10 * time.Second)
	// a blocking command: delete waits for the pod to go (virtual time passes)
	p := r.Live().store.PodsOnNode("node-1")
	if len(p) == 0 {
		t.Fatal("no pod on node-1")
	}
	if o := r.Run("kubectl delete pod " + p[0].Name); o.ExitCode != 0 {
		t.Fatalf("delete: %s", o.Stderr)
	}
	r.RegistryLack("nginx:1.25")
	if o := r.Run("kubectl set image ds/web nginx=nginx:1.25"); o.ExitCode != 0 {
		t.Fatalf("set image: %s", o.Stderr)
	}
	adv(45 * time.Second)
	o := r.Run("kubectl edit ds web")
	if o.Edit == nil {
		t.Fatalf("edit did not open: %s", o.Stderr)
	}
	if o := r.FinishEdit(o.Edit, strings.Replace(o.Edit.Text, "image: nginx:1.25", "image: nginx:1.24", 1)); o.ExitCode != 0 {
		t.Fatalf("edit: %s", o.Stderr)
	}
	if img := r.Live().store.DaemonSet("default", "web").Spec.Template.Spec.Containers[0].Image; img != "nginx:1.24" {
		t.Fatalf("the edit left image %s", img)
	}
	adv(30 * time.Second)
	ps := r.Live().store.PodsOnNode("node-3")
	if len(ps) > 0 {
		must(r.FailPod(ps[0].Namespace, ps[0].Name))
	}
	must(r.RemoveNode("node-1"))
	adv(40 * time.Second)
	sample()
}

// TestTimelineReplayIsIdentical records a session, keeps the pod, event,
// DaemonSet and node tables and the decision log at several instants, then
// seeks to each (in shuffled order, so both forward moves of the cursor and
// replays from the start happen) and requires byte-identical output; with
// checkpoints, seeks restart from deep copies of the live simulation, so
// any state the copy missed or shared shows as a difference.
func TestTimelineReplayIsIdentical(t *testing.T) {
	for _, tc := range []struct {
		seed     int64
		ckpts    int // SetCheckpoints(ckpts, 20s); 0 = replay only
		restores bool
	}{
		{seed: 1}, {seed: 42}, {seed: 1, ckpts: 3, restores: true}, {seed: 7, ckpts: 100, restores: true},
	} {
		t.Run(fmt.Sprintf("seed%d-ckpts%d", tc.seed, tc.ckpts), func(t *testing.T) {
			r := NewRecorder(Options{Seed: tc.seed})
			if tc.ckpts > 0 {
				r.SetCheckpoints(tc.ckpts, 20*time.Second)
			}
			type sample struct {
				at    time.Duration
				state string
			}
			var samples []sample
			tlScript(t, r, func() {
				samples = append(samples, sample{r.Live().Elapsed(), stateOf(r.Live())})
			})
			if r.CheckpointErr != nil {
				t.Fatal(r.CheckpointErr)
			}
			if n := len(r.Inputs()); n > 40 {
				t.Errorf("%d inputs: consecutive Advances were not merged", n)
			}
			cks := r.Checkpoints()
			if len(cks) > tc.ckpts || (tc.ckpts > 0 && len(cks) < 2) {
				t.Errorf("%d checkpoints held, max %d: %v", len(cks), tc.ckpts, cks)
			}
			for i := 1; i < len(cks); i++ {
				if cks[i] <= cks[i-1] {
					t.Errorf("checkpoints not spread: %v", cks)
				}
			}
			order := rand.New(rand.NewSource(tc.seed)).Perm(len(samples))
			for _, i := range order {
				sm := samples[i]
				s, err := r.Seek(sm.at)
				if err != nil {
					t.Fatal(err)
				}
				if got := stateOf(s); got != sm.state {
					t.Fatalf("seek %s: state differs from the live run:\n%s", sm.at, firstDiff(sm.state, got))
				}
			}
			if tc.restores != (r.Restores > 0) {
				t.Errorf("Restores = %d with %d checkpoints", r.Restores, tc.ckpts)
			}
			if r.Replays+r.Restores < 2 {
				t.Errorf("Replays = %d, Restores = %d: backward seeks should have restarted", r.Replays, r.Restores)
			}
			// the end of the timeline is the live state
			s, err := r.Seek(r.Live().Elapsed())
			if err != nil {
				t.Fatal(err)
			}
			if a, b := stateOf(r.Live()), stateOf(s); a != b {
				t.Fatalf("seek to the end differs from live:\n%s", firstDiff(a, b))
			}
		})
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, a, b)
		}
	}
	return "(equal)"
}

// TestTimelineSteps checks the step index: steps are in time order, every
// input that changed the cluster has a labelled step, time-passing steps
// carry the decisions made at their instant, and SeekStep lands at the
// step's time with the step's decisions the newest in the log.
func TestTimelineSteps(t *testing.T) {
	r := NewRecorder(Options{})
	tlScript(t, r, func() {})
	steps := r.Steps()
	if len(steps) < 20 {
		t.Fatalf("only %d steps", len(steps))
	}
	labels := map[string]bool{}
	for i, st := range steps {
		if i > 0 && st.At < steps[i-1].At {
			t.Errorf("step %d at %s before step %d at %s", i, st.At, i-1, steps[i-1].At)
		}
		if st.Label == "" {
			t.Errorf("step %d has no label", i)
		}
		labels[st.Label] = true
		if st.Input < 0 && st.NumDecisions == 0 {
			t.Errorf("time step %d without decisions", i)
		}
		if len(st.Decisions) > MaxStepDecisions || len(st.Decisions) > st.NumDecisions {
			t.Errorf("step %d keeps %d decisions of %d", i, len(st.Decisions), st.NumDecisions)
		}
		for _, d := range st.Decisions {
			if st.Input < 0 && d.Time.Sub(cluster.Epoch) != st.At {
				t.Errorf("step %d at %s holds a decision at %s", i, st.At, d.Time.Sub(cluster.Epoch))
			}
		}
	}
	for _, want := range []string{"node add node-3", "kubectl apply -f ds.yaml", "node fail node-2", "kubectl set image ds/web nginx=nginx:1.25", "save the kubectl edit buffer", "node remove node-1"} {
		if !labels[want] {
			t.Errorf("no step labelled %q", want)
		}
	}
	if labels["kubectl get pods"] {
		t.Error("a read-only command made a step")
	}
	// a time step of the rollout says what the controller did
	found := false
	for _, st := range steps {
		if st.Input < 0 && strings.HasPrefix(st.Label, "daemonset-controller ") && strings.Contains(st.Label, "Pod/default/web-") {
			found = true
		}
	}
	if !found {
		t.Error("no time step labelled with a daemonset-controller pod decision")
	}
	for _, i := range []int{len(steps) - 1, 0, len(steps) / 2, len(steps)/2 + 1, 3} {
		st := steps[i]
		s, err := r.SeekStep(i)
		if err != nil {
			t.Fatal(err)
		}
		if st.Input < 0 && s.Elapsed() != st.At {
			t.Errorf("step %d: seek reached %s, want %s", i, s.Elapsed(), st.At)
		}
		ds, err := r.StepDecisions(i)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != st.NumDecisions {
			t.Errorf("step %d: %d decisions, want %d", i, len(ds), st.NumDecisions)
		}
		if len(ds) > 0 && ds[len(ds)-1].Seq != s.store.LastDecisionSeq() {
			t.Errorf("step %d: its last decision %d is not the newest at the step (%d)", i, ds[len(ds)-1].Seq, s.store.LastDecisionSeq())
		}
		if got := r.StepAt(st.At); got < i || steps[got].At != st.At {
			t.Errorf("StepAt(%s) = %d, want >= %d", st.At, got, i)
		}
	}
}

// TestTimelineErrors covers the range errors.
func TestTimelineErrors(t *testing.T) {
	r := NewRecorder(Options{})
	r.Advance(10 * time.Second)
	for _, at := range []time.Duration{-time.Second, 11 * time.Second} {
		if _, err := r.Seek(at); !errors.Is(err, ErrSeekRange) {
			t.Errorf("Seek(%s) error = %v, want ErrSeekRange", at, err)
		}
	}
	if _, err := r.SeekStep(len(r.Steps())); !errors.Is(err, ErrSeekRange) {
		t.Errorf("SeekStep past the end: %v", err)
	}
	if _, err := r.StepDecisions(-1); !errors.Is(err, ErrSeekRange) {
		t.Errorf("StepDecisions(-1): %v", err)
	}
	other := New(Options{})
	o := other.Run("kubectl edit node node-1")
	if o.Edit == nil {
		t.Fatalf("edit did not open: %s", o.Stderr)
	}
	if out := r.FinishEdit(o.Edit, o.Edit.Text); out.ExitCode != 1 {
		t.Errorf("foreign edit session accepted: %+v", out)
	}
}

// TestTimelineCursorTampering: a write to the Simulation Seek returned
// makes the next Seek replay instead of trusting the cursor.
func TestTimelineCursorTampering(t *testing.T) {
	r := NewRecorder(Options{})
	if _, err := r.Apply("ds.yaml", tlDS(1, 0, "nginx:1")); err != nil {
		t.Fatal(err)
	}
	r.Advance(30 * time.Second)
	s, _ := r.Seek(10 * time.Second)
	want := stateOf(func() *Simulation { s, _ := r.Seek(30 * time.Second); return s }())
	s, _ = r.Seek(10 * time.Second)
	s.Run("kubectl delete ds web --wait=false")
	got, err := r.Seek(30 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if g := stateOf(got); g != want {
		t.Fatalf("a tampered cursor leaked into the timeline:\n%s", firstDiff(want, g))
	}
}

// TestTimelineBranch rewinds to the middle of the rollout and acts again:
// the future is forgotten, the live state is the past one, and recording
// (and seeking) goes on from there.
func TestTimelineBranch(t *testing.T) {
	r := NewRecorder(Options{})
	if _, err := r.Apply("ds.yaml", tlDS(1, 0, "nginx:1")); err != nil {
		t.Fatal(err)
	}
	r.Advance(30 * time.Second)
	if _, err := r.Apply("ds.yaml", tlDS(1, 0, "nginx:2")); err != nil {
		t.Fatal(err)
	}
	r.Advance(5 * time.Second)
	mid := stateOf(r.Live())
	r.Advance(60 * time.Second)
	if err := r.Branch(35 * time.Second); err != nil {
		t.Fatal(err)
	}
	if r.Live().Elapsed() != 35*time.Second {
		t.Fatalf("live at %s after Branch(35s)", r.Live().Elapsed())
	}
	if got := stateOf(r.Live()); got != mid {
		t.Fatalf("branched state differs:\n%s", firstDiff(mid, got))
	}
	for _, st := range r.Steps() {
		if st.At > 35*time.Second {
			t.Fatalf("step at %s kept after Branch(35s)", st.At)
		}
	}
	if err := r.FailNode("node-1"); err != nil {
		t.Fatal(err)
	}
	r.Advance(10 * time.Second)
	want := stateOf(r.Live())
	s, err := r.Seek(45 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if got := stateOf(s); got != want {
		t.Fatalf("seek after branch differs:\n%s", firstDiff(want, got))
	}
}

// TestPlayback: a playback of a recorded session, stepped in pieces of at
// most a second, passes through the recorded steps on one Simulation and
// ends in the live state, byte for byte; the live Simulation is untouched.
func TestPlayback(t *testing.T) {
	r := NewRecorder(Options{})
	if _, err := r.Apply("ds.yaml", sceneDS("  updateStrategy: {type: RollingUpdate}\n")); err != nil {
		t.Fatal(err)
	}
	r.Advance(12 * time.Second)
	r.Run("kubectl set image ds/ds-demo c=nginx:1.23.3")
	r.Advance(2500 * time.Millisecond)
	r.Run("kubectl delete pod -l app=ds-demo")
	r.Advance(20 * time.Second)
	live := r.Live()
	want := compareState(r, live)
	pb := r.Playback()
	sim := pb.Sim()
	steps, waits := 0, 0
	for !pb.Done() {
		if _, ok := pb.Next(); !ok {
			t.Fatal("Next: none before Done")
		}
		before := sim.Elapsed()
		idx, _ := pb.Step(time.Second, func() { waits++ })
		if idx < 0 || pb.Sim() != sim {
			t.Fatalf("step %d: input %d, a new Simulation", steps, idx)
		}
		if r.Inputs()[idx].Kind == InputAdvance && sim.Elapsed()-before > time.Second {
			t.Fatalf("an Advance piece of %s, want at most 1s", sim.Elapsed()-before)
		}
		steps++
	}
	if got := compareState(r, sim); got != want {
		t.Errorf("the playback ended in another state:\n%s\nwant (live)\n%s", got, want)
	}
	if sim.Elapsed() != live.Elapsed() || r.Live() != live {
		t.Errorf("playback at %s, live at %s", sim.Elapsed(), live.Elapsed())
	}
	if steps < 30 {
		t.Errorf("%d steps: the Advances were not played in pieces", steps)
	}
	if waits == 0 {
		t.Error("the delete's wait was not reported step by step")
	}
	if idx, _ := pb.Step(0, nil); idx != -1 {
		t.Errorf("Step after Done = %d, want -1", idx)
	}
}
