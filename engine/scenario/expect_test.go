package scenario

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
)

// expectCluster is a cluster with something for every check: agent running
// on node-1 and node-2 (not control-plane), node-3 tainted gpu=true:NoSchedule
// added after it (so agent has no pod there), web (OnDelete, nginx) whose
// template was changed to nginx:1.25 without its pods being replaced, stuck
// (image cannot be pulled: nothing available), and a bare pod solo on node-1.
func expectCluster(t testing.TB) *engine.Simulation {
	t.Helper()
	sim := engine.New(engine.Options{})
	sim.Registry().Lack("ghcr.io/nope/stuck:1")
	for _, m := range []struct{ name, text string }{
		{"agent.yaml", enginetest.DaemonSetYAML("", "agent", "busybox:1.36")},
		{"web.yaml", strings.Replace(enginetest.DaemonSetYAML("", "web", "nginx:1.24"), "spec:\n  selector", "spec:\n  updateStrategy: {type: OnDelete}\n  selector", 1)},
		{"stuck.yaml", enginetest.DaemonSetYAML("", "stuck", "ghcr.io/nope/stuck:1")},
		{"big.yaml", strings.Replace(enginetest.DaemonSetYAML("", "big", "nginx:1.24"), "        image: nginx:1.24\n", "        image: nginx:1.24\n        resources: {requests: {cpu: \"3\"}}\n", 1)},
		{"solo.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  nodeName: node-1\n  containers:\n  - name: c\n    image: nginx:1.24\n"},
	} {
		if _, err := sim.Apply(m.name, m.text); err != nil {
			t.Fatal(err)
		}
	}
	sim.Advance(30 * time.Second)
	if out := sim.Run("kubectl set image ds/web web=nginx:1.25"); out.ExitCode != 0 {
		t.Fatal(out.Stderr)
	}
	if err := sim.AddNode("node-3", cluster.NodeOptions{Taints: []api.Taint{{Key: "gpu", Value: "true", Effect: api.TaintEffectNoSchedule}}}); err != nil {
		t.Fatal(err)
	}
	sim.Advance(30 * time.Second)
	return sim
}

func TestExpectChecks(t *testing.T) {
	sim := expectCluster(t)
	for _, tc := range []struct {
		check string
		ok    bool
		want  string // substring of the message
	}{
		{"ds/agent desired == 2", true, "ds/agent: 2 nodes should run a pod"},
		{"ds/agent desired == 3", false, "2 nodes should run a pod (want exactly 3)"},
		{"ds/agent current >= 2", true, "2 nodes that should run a pod run one"},
		{"ds/agent ready > 2", false, "2 nodes run a ready pod (want more than 2)"},
		{"ds/agent available != 2", false, "(want any number but 2)"},
		{"ds/agent updated < 3", true, "2 nodes run an updated pod"},
		{"ds/agent unavailable <= 0", true, "0 nodes without an available pod"},
		{"ds/stuck unavailable <= 1", false, "ds/stuck: 2 nodes without an available pod (at most 1 allowed)"},
		{"ds/stuck ready == 0", true, "0 nodes run a ready pod"},
		{"ds/agent misscheduled == 0", true, "0 nodes run a pod but should not"},
		{"ds/agent pods == 2", true, "2 pods"},
		{"ds/agent pods == 1", false, "2 pods (want exactly 1)"},
		{"ds/web updated == 0", true, "0 nodes run an updated pod"},
		{"ds/agent on node-1 node-2", true, "runs a ready pod on node-1, node-2"},
		{"ds/agent on all", false, "no ready pod on control-plane (no pod), node-3 (no pod)"},
		{"ds/agent on node-9", false, "node-9 (no such node)"},
		{"ds/stuck on node-1", false, "node-1 (stuck-"},
		{"ds/agent not-on control-plane node-3", true, "runs no pod on control-plane, node-3"},
		{"ds/agent not-on node-2", false, "ds/agent still runs agent-"},
		{"ds/agent image busybox:1.36", true, "all its pods run busybox:1.36"},
		{"ds/agent image agent=busybox:1.36", true, "run busybox:1.36"},
		{"ds/agent image other=busybox:1.36", false, "pod template does not run other=busybox:1.36"},
		{"ds/web image nginx:1.25", false, "not every pod runs nginx:1.25 yet: web-"},
		{"ds/web image nginx:1.24", false, "pod template does not run nginx:1.24 (it runs nginx:1.25)"},
		{"ds/agent rolled-out", true, `daemon set "agent" successfully rolled out`},
		{"ds/stuck rolled-out", false, `is not rolled out: Waiting for daemon set "stuck" rollout to finish: 0 of 2 updated pods are available...`},
		{"ds/web rolled-out", false, "rollout status is only available for RollingUpdate strategy type (its update strategy is OnDelete)"},
		{"ds/agent exists", true, "ds/agent exists"},
		// big's pods do not fit: Pending, not bound, but for their nodes
		{"ds/big pods == 2", true, "ds/big: 2 pods"},
		{"ds/big not-on node-1", false, "ds/big still runs big-"},
		{"ds/big not-on node-1", false, " for node-1 (Pending)"},
		{"ds/big on node-2", false, "ds/big has no ready pod on node-2 (big-"},
		{"ds/nope exists", false, "ds/nope does not exist"},
		{"ds/nope desired == 0", false, "ds/nope does not exist"},
		{"ds/default/agent pods == 2", true, "ds/agent: 2 pods"},
		{"ds/kube-system/agent exists", false, "ds/kube-system/agent does not exist"},
		{"pod/solo on node-1", true, "pod/solo is on node-1"},
		{"pod/solo on node-2", false, "pod/solo is on node-1, not node-2"},
		{"pod/solo phase Running", true, "pod/solo is Running"},
		{"pod/solo phase running", true, "pod/solo is Running"},
		{"pod/solo phase Pending", false, "pod/solo is Running, not Pending"},
		{"pod/solo exists", true, "pod/solo exists"},
		{"pod/nope exists", false, "pod/nope does not exist"},
		{"node/node-3 taint gpu=true:NoSchedule", true, "node/node-3 has the taint gpu=true:NoSchedule"},
		{"node/node-3 taint gpu:NoSchedule", false, "has no taint gpu:NoSchedule (it has gpu=true:NoSchedule)"},
		{"node/control-plane taint node-role.kubernetes.io/control-plane:NoSchedule", true, "has the taint"},
		{"node/node-1 taint a:NoExecute", false, "node/node-1 has no taint a:NoExecute (it has no taints)"},
		{"node/node-1 exists", true, "node/node-1 exists"},
		{"node/node-9 exists", false, "node/node-9 does not exist"},
	} {
		t.Run(tc.check, func(t *testing.T) {
			e, err := parseExpectation(tc.check)
			if err != nil {
				t.Fatal(err)
			}
			ok, msg := e.eval(simstore.Cluster(sim))
			if ok != tc.ok || !strings.Contains(msg, tc.want) {
				t.Errorf("eval(%q) = %v, %q; want %v and %q", tc.check, ok, msg, tc.ok, tc.want)
			}
		})
	}
}

// TestExpectCommand runs expect and ! expect lines as script commands.
func TestExpectCommand(t *testing.T) {
	src := "kubectl apply -f agent.yaml\nwait rollout ds/agent\nexpect ds/agent desired == 2\n! expect ds/agent desired == 3\n" +
		"expect ds/agent on all\n! expect ds/agent on node-1\n-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	sc, err := Parse("e.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	res := sc.Run(&buf)
	want := []string{
		"e.txtar:5: ds/agent has no ready pod on control-plane (no pod)",
		"e.txtar:6: ds/agent runs a ready pod on node-1, but it should not",
	}
	if strings.Join(res.Failures, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s\ntranscript:\n%s", strings.Join(res.Failures, "\n"), strings.Join(want, "\n"), buf.String())
	}
	if !strings.Contains(buf.String(), "$ expect ds/agent desired == 2\nok\n$ expect ds/agent desired == 3\nok\n") {
		t.Errorf("transcript:\n%s", buf.String())
	}
}

func TestParseExpectationErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"expect ds/agent", "want ds/NAME MEASURE OP N"},
		{"expect agent desired == 2", `subject "agent": want ds/NAME`},
		{"expect svc/agent exists", `unknown kind "svc"`},
		{"expect ds/agent desired = 2", `bad operator "="`},
		{"expect ds/agent desired == two", `"two" is not a count`},
		{"expect ds/agent desired == -1", `"-1" is not a count`},
		{"expect ds/agent desired ==", "wants 2 argument(s)"},
		{"expect ds/agent happiness >= 2", `unknown check "happiness" for a DaemonSet`},
		{"expect ds/agent on", "wants node names"},
		{"expect ds/agent not-on all", "say `pods == 0` instead"},
		{"expect ds/agent image", "wants 1 argument(s)"},
		{"expect ds/agent rolled-out now", "wants 0 argument(s)"},
		{"expect pod/x phase", "wants 1 argument(s)"},
		{"expect pod/x desired == 1", `unknown check "desired" for pod/NAME`},
		{"expect node/n taint gpu", "want KEY[=VALUE]:EFFECT"},
		{"expect node/n taint gpu:Sometimes", "want KEY[=VALUE]:EFFECT"},
		{"always ds/agent frob", `always: unknown check "frob"`},
		{"! always ds/agent exists", "always cannot be negated"},
	} {
		_, err := Parse("x.txtar", []byte("kubectl get ds\n"+tc.line+"\n"))
		var me *MalformedError
		if !errors.As(err, &me) || me.Line != 2 || !strings.Contains(me.Msg, tc.want) {
			t.Errorf("%q: got %v, want line 2 with %q", tc.line, err, tc.want)
		}
	}
}
