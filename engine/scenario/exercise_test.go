package scenario

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
)

// tolerant is agent with a toleration for the control-plane taint.
var tolerant = strings.Replace(enginetest.DaemonSetYAML("", "agent", "busybox:1.36"), "    spec:\n", "    spec:\n      tolerations:\n      - {key: node-role.kubernetes.io/control-plane, effect: NoSchedule}\n", 1)

// exercise builds an exercise: setup applies agent and waits; goal, always
// and solution as given.
func exercise(goal, always, solution string) string {
	s := "# title: Everywhere\n# kind: exercise\n# task: Run agent on every node.\nkubectl apply -f agent.yaml\nwait rollout ds/agent\n## goal\n" + goal
	if always != "" {
		s += "## always\n" + always
	}
	s += "## solution\n" + solution
	return s + "-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36") + "-- tolerant.yaml --\n" + tolerant
}

func TestRunExercise(t *testing.T) {
	const goal = "kubectl get ds agent\nstdout '^agent\\s+3\\s'\nexpect ds/agent on all\n"
	for _, tc := range []struct {
		name     string
		src      string
		failures []string // prefixes, in order
		out      []string // transcript substrings, in order
	}{
		{
			name: "solved",
			src:  exercise(goal, "always ds/agent unavailable <= 1\n", "kubectl apply -f tolerant.yaml\nwait rollout ds/agent\n"),
			out: []string{
				"# --- setup\n# title: Everywhere\n",
				"# --- goal (expected to fail at the start)\n$ kubectl get ds agent\n",
				`not yet: x.txtar:8: no match for "^agent\\s+3\\s" in stdout`,
				"$ expect ds/agent on all\nnot yet: x.txtar:9: ds/agent has no ready pod on control-plane (no pod)\n",
				"# --- always (checked after every command of the solution and every virtual second)\n$ always ds/agent unavailable <= 1\n",
				"# --- solution\n$ kubectl apply -f tolerant.yaml\n",
				"# --- goal\n$ kubectl get ds agent\n",
				"$ expect ds/agent on all\nok\n",
			},
		},
		{
			name:     "already solved at the start",
			src:      exercise("expect ds/agent on node-1\n", "", "kubectl get ds\n"),
			failures: []string{"x.txtar:6: exercise is already solved at the start"},
		},
		{
			name:     "goal not reached",
			src:      exercise(goal, "", "kubectl get ds\n"),
			failures: []string{"x.txtar:8: no match", "x.txtar:9: ds/agent has no ready pod on control-plane (no pod)"},
			out:      []string{"# --- goal\n", "FAIL: x.txtar:9: ds/agent has no ready pod on control-plane (no pod)\n"},
		},
		{
			// deleting every pod leaves both nodes without an available
			// pod until the new ones start
			name:     "solution breaks an invariant",
			src:      exercise(goal, "always ds/agent unavailable <= 1\nalways ds/agent pods <= 3\n", "kubectl delete pod -l app=agent\nkubectl apply -f tolerant.yaml\nwait rollout ds/agent\n"),
			failures: []string{"x.txtar:11: ds/agent: 2 nodes without an available pod (at most 1 allowed), at t="},
			out:      []string{"$ kubectl delete pod -l app=agent\n", "FAIL: x.txtar:11: ds/agent: 2 nodes without an available pod (at most 1 allowed), at t=", "$ kubectl apply -f tolerant.yaml\n", "# --- goal\n"},
		},
		{
			// node-1's and node-2's kubelets stop: their pods turn unready once the node
			// lifecycle controller notices, in the middle of the advance
			name:     "invariant broken inside an advance",
			src:      exercise(goal, "always ds/agent ready >= 2\n", "kubectl apply -f tolerant.yaml\nwait rollout ds/agent\nnode fail node-1\nnode fail node-2\nadvance 2m\nnode recover node-1\nnode recover node-2\nwait rollout ds/agent\n"),
			failures: []string{"x.txtar:11: ds/agent: 1 node runs a ready pod (want at least 2), at t="},
			out:      []string{"$ advance 2m\nFAIL: x.txtar:11: ds/agent: 1 node runs a ready pod (want at least 2), at t=", "$ node recover node-1\n"},
		},
		{
			// maxUnavailable 2 takes both pods down at once, inside the
			// wait of `kubectl rollout status`, which ends with all ready
			name:     "invariant broken inside kubectl rollout status",
			src:      exercise("expect ds/agent image busybox:1.37\n", "always ds/agent unavailable <= 1\n", "kubectl patch ds agent -p '{\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"maxUnavailable\":2}}}}'\nkubectl set image ds/agent agent=busybox:1.37\nkubectl rollout status ds/agent\nkubectl get ds agent\n"),
			failures: []string{"x.txtar:9: ds/agent: 2 nodes without an available pod (at most 1 allowed), at t="},
			out:      []string{"$ kubectl rollout status ds/agent\nWaiting for", "successfully rolled out\nFAIL: x.txtar:9: ds/agent: 2 nodes without an available pod", "$ kubectl get ds agent\n"},
		},
		{
			name: "kubectl rollout status within the rule",
			src:  exercise("expect ds/agent image busybox:1.37\n", "always ds/agent unavailable <= 1\n", "kubectl set image ds/agent agent=busybox:1.37\nkubectl rollout status ds/agent\n"),
			out:  []string{"successfully rolled out\n# --- goal\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Parse("x.txtar", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			var buf strings.Builder
			res := sc.Run(&buf)
			out := buf.String()
			if len(res.Failures) != len(tc.failures) {
				t.Fatalf("failures %q, want %q\n%s", res.Failures, tc.failures, out)
			}
			for i, f := range tc.failures {
				if !strings.HasPrefix(res.Failures[i], f) {
					t.Errorf("failure %d = %q, want prefix %q", i, res.Failures[i], f)
				}
			}
			rest := out
			for _, s := range tc.out {
				i := strings.Index(rest, s)
				if i < 0 {
					t.Fatalf("transcript lacks (in order) %q:\n%s", s, out)
				}
				rest = rest[i+len(s):]
			}
		})
	}
}

// TestCheckGoalReadOnly checks that CheckGoal reports the goal and leaves
// the simulation as it was: objects, clock, decision log, files.
func TestCheckGoalReadOnly(t *testing.T) {
	sc, err := Parse("x.txtar", []byte(exercise("kubectl get ds agent -o wide\nstdout '^agent\\s+2\\s'\n! kubectl get pod nope\nkubectl describe ds agent\nkubectl rollout status ds/agent\nexpect ds/agent on node-1 node-2\n! expect ds/agent on all\n", "", "kubectl get ds\n")))
	if err != nil {
		t.Fatal(err)
	}
	sim := engine.New(engine.Options{})
	sim.Files["agent.yaml"] = sc.Files["agent.yaml"]
	sim.Run("kubectl apply -f agent.yaml")
	sim.Advance(2 * 1e9) // pods still starting: a rollout in progress
	before := fingerprint(sim)
	g := sc.CheckGoal(sim)
	if after := fingerprint(sim); after != before {
		t.Fatalf("CheckGoal changed the simulation:\n%s\n---\n%s", before, after)
	}
	if g.OK || len(g.Checks) != 7 {
		t.Fatalf("goal = %+v", g)
	}
	var failed []int
	for _, c := range g.Failed() {
		failed = append(failed, c.Line)
	}
	if fmt.Sprint(failed) != "[12]" {
		t.Errorf("failed checks at lines %v, want [12] (agent not ready yet on node-1, node-2)\n%+v", failed, g.Checks)
	}
	if e := g.Entries[3]; !strings.Contains(e.Stdout, `Waiting for daemon set "agent" rollout to finish`) || e.Command != "kubectl rollout status ds/agent" {
		t.Errorf("rollout status entry: %+v", e)
	}
	sim.Advance(60 * 1e9)
	if g := sc.CheckGoal(sim); !g.OK {
		t.Errorf("goal after the rollout: %+v", g.Failed())
	}
	// the goal's kubectl output is what the console shows
	if got, want := g.Entries[0].Stdout, sim.Run("kubectl get ds agent -o wide").Stdout; got == "" || !strings.HasPrefix(want, "NAME") {
		t.Errorf("get output %q vs %q", got, want)
	}
}

// fingerprint is what a write to the simulation would change.
func fingerprint(sim *engine.Simulation) string {
	return fmt.Sprintf("rv=%d seq=%d now=%s files=%d wake=%d\n%s", simstore.Cluster(sim).ResourceVersion(), simstore.Cluster(sim).LastDecisionSeq(), sim.Elapsed(), len(sim.Files), simstore.Cluster(sim).PendingWakeups(),
		sim.Run("kubectl get pods -o wide").Stdout)
}

func TestInvariantsObserve(t *testing.T) {
	sc, err := Parse("x.txtar", []byte(exercise("expect ds/agent on all\n", "always ds/agent unavailable <= 0\nalways ds/agent pods <= 3\n", "kubectl get ds\n")))
	if err != nil {
		t.Fatal(err)
	}
	iv := sc.Invariants()
	if iv.Len() != 2 {
		t.Fatalf("Len = %d", iv.Len())
	}
	sim := engine.New(engine.Options{})
	sim.Apply("agent.yaml", sc.Files["agent.yaml"])
	sim.Advance(30 * 1e9)
	iv.Observe(sim)
	if v := iv.Violations(); len(v) != 0 {
		t.Fatalf("violations on a rolled-out DaemonSet: %+v", v)
	}
	// busybox's sleep ignores SIGTERM: with the default 30 s grace period the
	// pods would stay Terminating (and available) until t=60s.
	sim.Run("kubectl delete pod -l app=agent --wait=false --grace-period=1")
	sim.Advance(1e9)
	iv.Observe(sim)
	sim.Advance(60 * 1e9)
	iv.Observe(sim) // healed: the first violation stays
	v := iv.Violations()
	if len(v) != 1 || v[0].Line != 9 || v[0].At != 31*1e9 || !strings.HasSuffix(v[0].Detail, "(at most 0 allowed), at t=31s") || v[0].OK {
		t.Fatalf("violations = %+v", v)
	}
	if cs := iv.Checks(); len(cs) != 2 || cs[0].OK || !cs[1].OK {
		t.Errorf("Checks = %+v", cs)
	}
}

// BenchmarkCheckGoal measures CheckGoal (no copy: it reads the live
// simulation) on a 3-node and a 1,000-node cluster.
func BenchmarkCheckGoal(b *testing.B) {
	src := exercise("kubectl get ds agent\nstdout '^agent\\s'\nexpect ds/agent on all\nexpect ds/agent unavailable <= 1\nexpect ds/agent rolled-out\n", "", "kubectl get ds\n")
	sc, err := Parse("x.txtar", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{3, 1000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			sim := engine.New(engine.Options{})
			for i := 3; i < n; i++ {
				sim.AddNode(fmt.Sprintf("worker-%d", i), clusterNodeOptions())
			}
			sim.Apply("agent.yaml", tolerant)
			sim.Advance(60 * 1e9)
			if g := sc.CheckGoal(sim); !g.OK {
				b.Fatalf("goal: %+v", g.Failed())
			}
			b.ResetTimer()
			for b.Loop() {
				sc.CheckGoal(sim)
			}
		})
	}
}

func clusterNodeOptions() cluster.NodeOptions { return cluster.NodeOptions{} }

// TestExerciseTranscriptGolden pins the exercise transcript format (the
// /api and dsplay run show it): testdata/exercise-tolerate.txtar against
// testdata/golden/exercise-tolerate.txt (-update rewrites it).
func TestExerciseTranscriptGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/exercise-tolerate.txtar")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Parse("exercise-tolerate.txtar", data)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if res := sc.Run(&buf); !res.OK() {
		t.Fatalf("failures: %v\n%s", res.Failures, buf.String())
	}
	golden := "testdata/golden/exercise-tolerate.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(buf.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if buf.String() != string(want) {
		t.Errorf("transcript differs from %s:\n%s", golden, lineDiff(string(want), buf.String()))
	}
}
