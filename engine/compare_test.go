package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// compareBase records a session on the default cluster plus three worker
// nodes: the DaemonSet web (RollingUpdate 1/0) at nginx:1.23, running.
func compareBase(t *testing.T) []Input {
	t.Helper()
	r := NewRecorder(Options{})
	for _, n := range []string{"node-3", "node-4", "node-5"} {
		if err := r.AddNode(n, cluster.NodeOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Apply("ds.yaml", tlDS(1, 0, "nginx:1.23")); err != nil {
		t.Fatal(err)
	}
	r.Advance(time.Minute)
	if p := ProgressOf(r.Live(), "default", "web"); !p.Done || p.Desired != 5 {
		t.Fatalf("base not running: %+v", p)
	}
	return r.Inputs()
}

// podImages returns node -> image of the DaemonSet's live (not
// terminating) pods.
func podImages(s *Simulation) map[string]string {
	out := map[string]string{}
	for _, p := range s.store.Pods() {
		if p.DeletionTimestamp == nil && p.Spec.NodeName != "" && strings.HasPrefix(p.Name, "web-") {
			out[p.Spec.NodeName] = p.Spec.Containers[0].Image
		}
	}
	return out
}

// TestComparison: after `kubectl set image`, the RollingUpdate side
// replaces every pod within the time the budget allows, never having more
// than maxUnavailable nodes without an available pod, while the OnDelete
// side keeps every old pod; deleting a pod on the OnDelete side brings it
// back with the new template, on that side only, with the clocks together.
func TestComparison(t *testing.T) {
	base := compareBase(t)
	for _, tc := range []struct {
		maxUnavailable, maxSurge string
		budget                   int           // nodes allowed without an available pod
		within                   time.Duration // the rollout must finish within
		atLeast                  time.Duration // and cannot be faster than
	}{
		// one node at a time: 5 rounds of stop + start (~8 s each)
		{"1", "", 1, time.Minute, 30 * time.Second},
		// all at once: one round
		{"100%", "", 5, 15 * time.Second, 0},
		// surge: the new pod starts beside the old one, one node at a time
		{"", "1", 0, 2 * time.Minute, 20 * time.Second},
	} {
		t.Run(tc.maxUnavailable+"/"+tc.maxSurge, func(t *testing.T) {
			c, err := NewComparison(CompareOptions{
				Base: base, Name: "web", MaxUnavailable: tc.maxUnavailable, MaxSurge: tc.maxSurge,
				Change: Input{Kind: InputRun, Line: "kubectl set image ds/web nginx=nginx:1.23.3"},
			})
			if err != nil {
				t.Fatal(err)
			}
			roll, od := c.Side(SideRollingUpdate).Live(), c.Side(SideOnDelete).Live()
			if g := roll.store.DaemonSet("default", "web").Spec.UpdateStrategy; g.Type != api.RollingUpdateDaemonSetStrategyType {
				t.Fatalf("rolling side strategy %+v", g)
			}
			if g := od.store.DaemonSet("default", "web").Spec.UpdateStrategy.Type; g != api.OnDeleteDaemonSetStrategyType {
				t.Fatalf("OnDelete side strategy %s", g)
			}
			ds := roll.store.DaemonSet("default", "web")
			nodes := []string{"node-1", "node-2", "node-3", "node-4", "node-5"}
			budget := tc.budget
			for c.Elapsed()-c.ChangeAt < tc.within && !c.Progress(SideRollingUpdate).Done {
				c.Advance(500 * time.Millisecond)
				if roll.Elapsed() != od.Elapsed() {
					t.Fatalf("clocks apart: %s vs %s", roll.Elapsed(), od.Elapsed())
				}
				if gaps := nodesWithoutAvailablePod(roll, ds, nodes); len(gaps) > budget {
					t.Fatalf("at %s, %d nodes without an available pod: %v", roll.Elapsed(), len(gaps), gaps)
				}
			}
			if took := c.Elapsed() - c.ChangeAt; took < tc.atLeast {
				t.Errorf("rolled out in %s, faster than %s: pods were not replaced one at a time", took, tc.atLeast)
			}
			if p := c.Progress(SideRollingUpdate); !p.Done || p.Updated != 5 {
				t.Fatalf("rolling side not done %s after the change: %+v", c.Elapsed()-c.ChangeAt, p)
			}
			for n, img := range podImages(roll) {
				if img != "nginx:1.23.3" {
					t.Errorf("rolling side: %s runs %s", n, img)
				}
			}
			c.Advance(time.Minute)
			if p := c.Progress(SideOnDelete); p.Updated != 0 || p.Done {
				t.Errorf("OnDelete side updated pods: %+v", p)
			}
			old := podImages(od)
			if len(old) != 5 {
				t.Fatalf("OnDelete side has %d pods", len(old))
			}
			for n, img := range old {
				if img != "nginx:1.23" {
					t.Errorf("OnDelete side: %s runs %s", n, img)
				}
			}
			// delete the OnDelete side's pod on node-2: it comes back updated
			var victim string
			for _, p := range od.store.PodsOnNode("node-2") {
				victim = p.Name
			}
			before := podImages(roll)
			if o := c.Run(SideOnDelete, "kubectl delete pod "+victim); o.ExitCode != 0 {
				t.Fatalf("delete: %s", o.Stderr)
			}
			if roll.Elapsed() != od.Elapsed() {
				t.Fatalf("clocks apart after a waiting delete: %s vs %s", roll.Elapsed(), od.Elapsed())
			}
			c.Advance(30 * time.Second)
			now := podImages(od)
			for _, n := range nodes {
				want := "nginx:1.23"
				if n == "node-2" {
					want = "nginx:1.23.3"
				}
				if now[n] != want {
					t.Errorf("OnDelete side after deleting %s: %s runs %q, want %q", victim, n, now[n], want)
				}
			}
			if p := c.Progress(SideOnDelete); p.Updated != 1 {
				t.Errorf("OnDelete side progress %+v, want 1 updated", p)
			}
			if after := podImages(roll); len(after) != len(before) {
				t.Errorf("the delete touched the rolling side: %v -> %v", before, after)
			}
			// both timelines can go back to the change
			r0, o0, err := c.Seek(c.ChangeAt)
			if err != nil {
				t.Fatal(err)
			}
			if r0.Elapsed() != c.ChangeAt || o0.Elapsed() != c.ChangeAt {
				t.Errorf("seek to the change: %s / %s", r0.Elapsed(), o0.Elapsed())
			}
		})
	}
}

// TestComparisonErrors covers NewComparison's refusals.
func TestComparisonErrors(t *testing.T) {
	base := compareBase(t)
	setImage := Input{Kind: InputRun, Line: "kubectl set image ds/web nginx=nginx:2"}
	for _, tc := range []struct {
		name string
		o    CompareOptions
		want string
	}{
		{"no daemonset", CompareOptions{Base: base, Name: "nope", Change: setImage}, "does not exist"},
		{"bad maxUnavailable", CompareOptions{Base: base, Name: "web", MaxUnavailable: "x", Change: setImage}, `maxUnavailable "x"`},
		{"invalid strategy", CompareOptions{Base: base, Name: "web", MaxUnavailable: "0", MaxSurge: "0", Change: setImage}, "setting the strategy"},
		{"change fails", CompareOptions{Base: base, Name: "web", Change: Input{Kind: InputRun, Line: "kubectl set image ds/web nope=nginx:2"}}, "the change"},
		{"change sets the strategy", CompareOptions{Base: base, Name: "web", Change: Input{Kind: InputApply, Name: "ds.yaml", Text: tlDS(-1, 0, "nginx:2")}}, "leave the strategy out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewComparison(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestComparisonBaseWithEdit: a base session that saved a `kubectl edit`
// replays on both sides (the FinishEdit input refers to the session by the
// index of the input that opened it).
func TestComparisonBaseWithEdit(t *testing.T) {
	r := NewRecorder(Options{})
	if _, err := r.Apply("ds.yaml", tlDS(1, 0, "nginx:1.23")); err != nil {
		t.Fatal(err)
	}
	r.Advance(2500 * time.Millisecond)
	r.Advance(2500 * time.Millisecond) // merged with the previous one
	o := r.Run("kubectl edit ds web")
	if o.Edit == nil {
		t.Fatalf("edit did not open: %s", o.Stderr)
	}
	if o := r.FinishEdit(o.Edit, strings.Replace(o.Edit.Text, "image: nginx:1.23", "image: nginx:1.22", 1)); o.ExitCode != 0 {
		t.Fatalf("edit: %s", o.Stderr)
	}
	r.Advance(time.Minute)
	c, err := NewComparison(CompareOptions{Base: r.Inputs(), Name: "web",
		Change: Input{Kind: InputRun, Line: "kubectl set image ds/web nginx=nginx:1.23.3"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []Side{SideRollingUpdate, SideOnDelete} {
		s, err := c.Side(side).Seek(c.ChangeAt - time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for n, img := range podImages(s) {
			if img != "nginx:1.22" {
				t.Errorf("%s side before the change: %s runs %s, want the edited nginx:1.22", side, n, img)
			}
		}
	}
}

// compareState is what TestComparisonForkMatchesReplay compares for one
// side: the input log, the steps and stateOf (pods -o wide -A, events,
// decisions, ...) of s.
func compareState(r *Recorder, s *Simulation) string {
	var b strings.Builder
	for _, in := range r.Inputs() {
		fmt.Fprintf(&b, "input %+v\n", in)
	}
	for _, st := range r.Steps() {
		fmt.Fprintf(&b, "step %s %d %q %d %d %+v\n", st.At, st.Input, st.Label, st.NumDecisions, st.FirstSeq, st.pos)
	}
	b.WriteString(stateOf(s))
	return b.String()
}

// TestComparisonForkMatchesReplay: NewComparison replays Base once and
// forks the Recorder for the OnDelete side; both sides must be
// byte-identical (input log, steps, pods -o wide -A, events, decisions) to
// the sides of the replay-twice path at several times, through an action on
// one side, and when seeking back on either side. A base that leaves an
// editor session open cannot be forked and falls back to the replay.
func TestComparisonForkMatchesReplay(t *testing.T) {
	base := compareBase(t)
	open := NewRecorder(Options{})
	for _, in := range base {
		open.Do(in)
	}
	if o := open.Run("kubectl edit ds web"); o.Edit == nil {
		t.Fatalf("edit did not open: %s", o.Stderr)
	}
	for _, tc := range []struct {
		name   string
		base   []Input
		mu, ms string
		forked bool
	}{
		{"one at a time", base, "1", "", true},
		{"surge", base, "", "1", true},
		{"editor left open", open.Inputs(), "100%", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := CompareOptions{Base: tc.base, Name: "web", MaxUnavailable: tc.mu, MaxSurge: tc.ms,
				Change: Input{Kind: InputRun, Line: "kubectl set image ds/web nginx=nginx:1.23.3"}}
			fork, err := newComparison(o, false)
			if err != nil {
				t.Fatal(err)
			}
			replay, err := newComparison(o, true)
			if err != nil {
				t.Fatal(err)
			}
			// the fork shares the first side's (immutable) step decisions;
			// a replay makes its own
			d0, d1 := fork.Side(SideRollingUpdate).Steps()[0].Decisions, fork.Side(SideOnDelete).Steps()[0].Decisions
			if shared := &d0[0] == &d1[0]; shared != tc.forked {
				t.Fatalf("OnDelete side forked: %v, want %v", shared, tc.forked)
			}
			check := func(when string) {
				t.Helper()
				for _, s := range []Side{SideRollingUpdate, SideOnDelete} {
					want := compareState(replay.Side(s), replay.Side(s).Live())
					if got := compareState(fork.Side(s), fork.Side(s).Live()); got != want {
						t.Fatalf("%s, %s side differs from the replay:\n%s", when, s, firstDiff(want, got))
					}
				}
			}
			check("after NewComparison")
			for i, d := range []time.Duration{time.Second, 7 * time.Second, 20 * time.Second} {
				fork.Advance(d)
				replay.Advance(d)
				check(fmt.Sprintf("advance %d", i))
			}
			victim := ""
			for _, p := range fork.Side(SideOnDelete).Live().store.Pods() {
				if strings.HasPrefix(p.Name, "web-") {
					victim = p.Name
					break
				}
			}
			for _, c := range []*Comparison{fork, replay} {
				if out := c.Run(SideOnDelete, "kubectl delete pod "+victim); out.ExitCode != 0 {
					t.Fatalf("delete: %s", out.Stderr)
				}
				c.Advance(30 * time.Second)
			}
			check("after deleting " + victim + " on the OnDelete side")
			for _, at := range []time.Duration{fork.ChangeAt - time.Second, fork.ChangeAt + 5*time.Second, fork.ChangeAt, fork.Elapsed() - 10*time.Second} {
				for _, s := range []Side{SideRollingUpdate, SideOnDelete} {
					want, err := replay.Side(s).Seek(at)
					if err != nil {
						t.Fatal(err)
					}
					ws := stateOf(want)
					got, err := fork.Side(s).Seek(at)
					if err != nil {
						t.Fatal(err)
					}
					if g := stateOf(got); g != ws {
						t.Fatalf("%s side seek to %s differs from the replay:\n%s", s, at, firstDiff(ws, g))
					}
					if got.Elapsed() > at || got.Elapsed() < at-time.Minute {
						t.Fatalf("%s side seek to %s at %s", s, at, got.Elapsed())
					}
				}
			}
			check("after seeking")
		})
	}
}

// TestRecorderFork: a fork and its origin given the same actions stay
// byte-identical, writes to one never reach the other, both seek through
// the whole log, and a session still open refuses the fork.
func TestRecorderFork(t *testing.T) {
	r := NewRecorder(Options{})
	tlScript(t, r, func() {})
	f, err := r.fork()
	if err != nil {
		t.Fatal(err)
	}
	before := compareState(r, r.Live())
	if got := compareState(f, f.Live()); got != before {
		t.Fatalf("fork differs:\n%s", firstDiff(before, got))
	}
	f.Run("kubectl set image ds/web nginx=nginx:9")
	f.Advance(time.Minute)
	if got := compareState(r, r.Live()); got != before {
		t.Fatalf("the fork's actions reached the origin:\n%s", firstDiff(before, got))
	}
	g, err := r.fork()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []*Recorder{r, g} {
		x.Run("kubectl cordon node-2")
		x.Advance(45 * time.Second)
	}
	if a, b := compareState(r, r.Live()), compareState(g, g.Live()); a != b {
		t.Fatalf("origin and fork diverged:\n%s", firstDiff(a, b))
	}
	for _, at := range []time.Duration{0, r.Live().Elapsed() / 3, r.Live().Elapsed() - time.Second} {
		a, err := r.Seek(at)
		if err != nil {
			t.Fatal(err)
		}
		as := stateOf(a)
		b, err := g.Seek(at)
		if err != nil {
			t.Fatal(err)
		}
		if bs := stateOf(b); as != bs {
			t.Fatalf("seek to %s: %s", at, firstDiff(as, bs))
		}
	}
	if o := r.Run("kubectl edit ds web"); o.Edit == nil {
		t.Fatalf("edit did not open: %s", o.Stderr)
	}
	if _, err := r.fork(); err == nil || !strings.Contains(err.Error(), "still open") {
		t.Fatalf("fork with an open editor session: %v", err)
	}
}

// TestComparisonSurge: the maxSurge comparison runs RollingUpdate on both
// sides — maxSurge 0 leaves a node without an available pod while it
// replaces it, maxSurge 1 never does — and names the sides by the setting
// that differs.
func TestComparisonSurge(t *testing.T) {
	c, err := NewComparison(CompareOptions{
		Base: compareBase(t), Name: "web", Strategies: SurgeStrategies,
		Change: Input{Kind: InputRun, Line: "kubectl set image ds/web nginx=nginx:1.23.3"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if l, r := c.Label(SideRollingUpdate), c.Label(SideOnDelete); l != "maxSurge 0" || r != "maxSurge 1" {
		t.Errorf("labels %q, %q; want maxSurge 0, maxSurge 1", l, r)
	}
	nodes := []string{"node-1", "node-2", "node-3", "node-4", "node-5"}
	var gaps [2]int
	for c.Elapsed()-c.ChangeAt < 3*time.Minute && !(c.Progress(SideRollingUpdate).Done && c.Progress(SideOnDelete).Done) {
		c.Advance(500 * time.Millisecond)
		for s := range 2 {
			sim := c.Side(Side(s)).Live()
			ds := sim.store.DaemonSet("default", "web")
			if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType {
				t.Fatalf("side %d strategy %s", s, ds.Spec.UpdateStrategy.Type)
			}
			gaps[s] = max(gaps[s], len(nodesWithoutAvailablePod(sim, ds, nodes)))
		}
	}
	if !c.Progress(SideRollingUpdate).Done || !c.Progress(SideOnDelete).Done {
		t.Fatalf("not rolled out within 3 minutes: %+v, %+v", c.Progress(SideRollingUpdate), c.Progress(SideOnDelete))
	}
	if gaps[0] != 1 || gaps[1] != 0 {
		t.Errorf("most nodes without an available pod at once: maxSurge 0 %d (want 1), maxSurge 1 %d (want 0)", gaps[0], gaps[1])
	}
	if _, err := NewComparison(CompareOptions{Base: compareBase(t), Name: "web", Strategies: [2]Strategy{{Type: "Recreate"}, {Type: "OnDelete"}}, Change: Input{Kind: InputRun, Line: "kubectl set image ds/web nginx=nginx:1.23.3"}}); err == nil || !strings.Contains(err.Error(), `strategy "Recreate"`) {
		t.Errorf("a Recreate side: err %v", err)
	}
}
