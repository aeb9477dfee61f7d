package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// sceneDS is the DaemonSet of the scene stories; strategy is spliced into
// its spec.
func sceneDS(strategy string) string {
	return `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds-demo}
spec:
  selector: {matchLabels: {app: ds-demo}}
` + strategy + `  template:
    metadata: {labels: {app: ds-demo}}
    spec:
      containers:
      - {name: c, image: "nginx:1.23"}
`
}

// sceneStory plays script on a fresh Simulation, one line at a time:
// "apply FILE", "run KUBECTL", "advance DURATION", "node-add NODE",
// "fail NODE", "delete POD-PREFIX@NODE", "budget". Virtual time moves in 500 ms frames, as the
// page's would; after every command and frame the scene is diffed with
// the previous one, and each transition printed.
func sceneStory(t *testing.T, manifests map[string]string, script string) string {
	t.Helper()
	s := New(Options{})
	var b strings.Builder
	prev := s.Scene(s.Snapshot())
	seq := s.store.LastDecisionSeq()
	diff := func() {
		next := s.Scene(s.Snapshot())
		for _, tr := range DiffScenes(prev, next, s.Decisions(seq)) {
			obj := tr.Pod
			if obj == "" {
				obj = tr.DaemonSet
			}
			if obj == "" {
				obj = "node/" + tr.Node
			} else if tr.Node != "" {
				obj += " @" + tr.Node
			}
			if tr.Taint != "" {
				obj += " " + tr.Taint
			}
			how := "-"
			if tr.Cause != nil {
				how = tr.Cause.Component + " " + tr.Cause.Func
			}
			fmt.Fprintf(&b, "%7s %-14s %-34s %-40s %s\n", "+"+next.Elapsed.String(), tr.Kind, obj, how, tr.Caption)
		}
		prev, seq = next, s.store.LastDecisionSeq()
	}
	for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
		verb, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		fmt.Fprintf(&b, "# %s\n", line)
		switch verb {
		case "apply":
			if _, err := s.Apply(arg, manifests[arg]); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
		case "run":
			if out := s.Run(arg); out.ExitCode != 0 {
				t.Fatalf("%s: exit %d: %s", line, out.ExitCode, out.Stderr)
			}
		case "advance":
			d, err := time.ParseDuration(arg)
			if err != nil {
				t.Fatal(err)
			}
			for end := s.Elapsed() + d; s.Elapsed() < end; {
				s.Advance(min(500*time.Millisecond, end-s.Elapsed()))
				diff()
			}
			continue
		case "node-add":
			if err := s.AddNode(arg, cluster.NodeOptions{}); err != nil {
				t.Fatal(err)
			}
		case "fail":
			if err := s.FailNode(arg); err != nil {
				t.Fatal(err)
			}
		case "delete":
			prefix, node, _ := strings.Cut(arg, "@")
			name := ""
			for _, n := range prev.Nodes {
				for _, p := range n.Pods {
					if n.Name == node && strings.HasPrefix(p.Name, prefix) && p.Stage != StageTerminating {
						name = p.Name
					}
				}
			}
			if name == "" {
				t.Fatalf("%s: no such pod", line)
			}
			s.Run("kubectl delete pod " + name + " --wait=false")
		case "budget":
			for _, d := range prev.DaemonSets {
				var slots []string
				for _, sl := range d.Slots {
					u := ""
					if sl.Updated {
						u = "+"
					}
					slots = append(slots, sl.Node+"="+sl.State+u)
				}
				fmt.Fprintf(&b, "  budget %s r%d maxUnavailable=%d maxSurge=%d unavailable=%d [%s]\n", d.Key, d.UpdateRevision, d.MaxUnavailable, d.MaxSurge, d.Unavailable, strings.Join(slots, " "))
			}
			for _, n := range prev.Nodes {
				var pods []string
				for _, p := range n.Pods {
					x := fmt.Sprintf("%s:%s:r%d", p.Name, p.Stage, p.Revision)
					if p.Outdated {
						x += ":outdated"
					}
					if p.Kept {
						x += ":kept"
					}
					if p.Countdown > 0 {
						x += fmt.Sprintf(":%s-left=%s", strings.ReplaceAll(p.CountdownOf, " ", "-"), p.Countdown)
					}
					pods = append(pods, x)
				}
				var taints []string
				for _, tn := range n.Taints {
					taints = append(taints, tn.Text)
				}
				fmt.Fprintf(&b, "  node %s ready=%v cordoned=%v taints=%v pods=%v\n", n.Name, n.Ready, n.Cordoned, taints, pods)
			}
			continue
		default:
			t.Fatalf("unknown line %q", line)
		}
		diff()
	}
	return b.String()
}

// TestSceneTransitionsGolden compares the stage's transitions for the
// stories a learner watches with testdata/scene/NAME.golden (-update
// rewrites them).
func TestSceneTransitionsGolden(t *testing.T) {
	manifests := map[string]string{
		"rolling.yaml":  sceneDS("  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}\n"),
		"surge.yaml":    sceneDS("  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 1}}\n"),
		"ondelete.yaml": sceneDS("  updateStrategy: {type: OnDelete}\n"),
		"tolerate.yaml": strings.Replace(sceneDS(""), "    spec:\n", "    spec:\n      tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 20}]\n", 1),
	}
	cases := []struct{ name, script string }{
		{"fill", `
apply rolling.yaml
advance 12s
budget
run kubectl cordon node-2
run kubectl uncordon node-2
node-add node-3
advance 10s
budget`},
		{"taint", `
apply rolling.yaml
advance 12s
run kubectl taint nodes node-1 k=v:NoSchedule
advance 1s
budget
run kubectl taint nodes node-1 k=v:NoSchedule-
run kubectl taint nodes node-2 k=v:NoExecute
advance 3s
budget
run kubectl taint nodes node-2 k=v:NoExecute-
advance 12s
budget`},
		{"toleration-seconds", `
apply tolerate.yaml
advance 12s
run kubectl taint nodes node-1 k=v:NoExecute
advance 5s
budget
advance 18s
budget`},
		{"rolling-maxunavailable", `
apply rolling.yaml
advance 12s
run kubectl set image ds/ds-demo c=nginx:1.24
budget
advance 1s
budget
advance 30s
budget`},
		{"rolling-maxsurge", `
apply surge.yaml
advance 12s
run kubectl set image ds/ds-demo c=nginx:1.24
advance 3s
budget
advance 30s
budget`},
		{"ondelete", `
apply ondelete.yaml
advance 12s
run kubectl set image ds/ds-demo c=nginx:1.24
advance 2s
budget
delete ds-demo@node-1
advance 15s
budget`},
		{"node-fail", `
apply rolling.yaml
advance 12s
fail node-2
advance 60s
budget`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := sceneStory(t, manifests, c.script)
			enginetest.Golden(t, filepath.Join("testdata", "scene", c.name+".golden"), got, updating())
		})
	}
}

// TestRunWatchedSteps: RunWatched calls its hook between the steps of a
// waiting delete, with the pod terminating there, and reaches Run's state.
func TestRunWatchedSteps(t *testing.T) {
	mk := func() *Recorder {
		r := NewRecorder(Options{})
		if _, err := r.Apply("a.yaml", strings.Replace(sceneDS(""), `image: "nginx:1.23"}`, `image: "busybox:1.36", command: [sleep, infinity]}`, 1)); err != nil {
			t.Fatal(err)
		}
		r.Advance(15 * time.Second)
		return r
	}
	a, b := mk(), mk()
	pod := a.Live().store.PodsOnNode("node-1")[0].Name
	steps, terminating := 0, 0
	refused := 0
	outA := a.RunWatched("kubectl delete pod "+pod, func() {
		steps++
		// a shell's other actions meanwhile are refused, recording nothing
		if _, err := a.Apply("x.yaml", sceneDS("")); errors.Is(err, ErrCommandRunning) {
			refused++
		}
		if out := a.Run("kubectl get pods"); out.ExitCode == 1 && strings.Contains(out.Stderr, "still running") {
			refused++
		}
		a.Advance(time.Minute)
		for _, n := range a.Live().Scene(a.Live().Snapshot()).Nodes {
			for _, p := range n.Pods {
				if p.Name == pod && p.Stage == StageTerminating && p.Countdown > 0 {
					terminating++
				}
			}
		}
	})
	outB := b.Run("kubectl delete pod " + pod)
	if steps < 10 || terminating < 10 {
		t.Errorf("the hook ran %d times, %d of them with the pod terminating; want the 30 s grace period stepped through", steps, terminating)
	}
	if outA.Stdout != outB.Stdout || a.Live().Elapsed() != b.Live().Elapsed() || len(a.Inputs()) != len(b.Inputs()) {
		t.Errorf("RunWatched: %q at %s with %d inputs; Run: %q at %s with %d inputs", outA.Stdout, a.Live().Elapsed(), len(a.Inputs()), outB.Stdout, b.Live().Elapsed(), len(b.Inputs()))
	}
	if a.waitStep != nil || a.running {
		t.Error("the hook outlived the command")
	}
	if refused != 2*steps {
		t.Errorf("%d of %d actions inside the hook were refused", refused, 2*steps)
	}
	if out := a.Run("kubectl get ds"); out.ExitCode != 0 {
		t.Errorf("after the command: %s", out.Stderr)
	}
}

// TestSnapshotStatusLags: a NoSchedule taint under a running daemon pod
// makes the node's verdict misscheduled while the DaemonSet's status, not
// re-synced (syncNodeUpdate enqueues no sync for it), still counts 0.
func TestSnapshotStatusLags(t *testing.T) {
	s := New(Options{})
	if _, err := s.Apply("ds.yaml", sceneDS("")); err != nil {
		t.Fatal(err)
	}
	s.Advance(15 * time.Second)
	if d := s.Snapshot().DaemonSets[0]; d.StatusLags {
		t.Fatalf("status lags before any taint: %+v", d)
	}
	if out := s.Run("kubectl taint nodes node-1 k=v:NoSchedule"); out.ExitCode != 0 {
		t.Fatal(out.Stderr)
	}
	s.Advance(time.Second)
	d := s.Snapshot().DaemonSets[0]
	if !d.StatusLags || d.Misscheduled != 0 {
		t.Errorf("after a NoSchedule taint under the pod: StatusLags %v, numberMisscheduled %d; want true, 0", d.StatusLags, d.Misscheduled)
	}
}

// TestTransitionObject: a pod's transitions share one object whatever
// node they name (a create names its target, often none; a bind its node),
// so the stage can drop a pod's stale jobs together.
func TestTransitionObject(t *testing.T) {
	for _, tc := range []struct {
		tr   Transition
		want string
	}{
		{Transition{Kind: TransPodCreate, Pod: "default/a", DaemonSet: "default/ds"}, "pod/default/a"},
		{Transition{Kind: TransPodBind, Pod: "default/a", Node: "node-1", DaemonSet: "default/ds"}, "pod/default/a"},
		{Transition{Kind: TransTaintAdd, Node: "node-1", Taint: "k=v:NoExecute"}, "node/node-1"},
		{Transition{Kind: TransRevision, DaemonSet: "default/ds"}, "daemonset/default/ds"},
	} {
		if got := tc.tr.Object(); got != tc.want {
			t.Errorf("%s: Object() = %q, want %q", tc.tr.Kind, got, tc.want)
		}
	}
}

// TestSceneTolerations: each pod on a tainted node pairs the node's
// taints with the toleration that tolerates each (the template's own, or
// one the DaemonSet controller added), or with none.
func TestSceneTolerations(t *testing.T) {
	s := New(Options{})
	ds := strings.Replace(sceneDS("  updateStrategy: {type: RollingUpdate}\n"), "      containers:\n", "      tolerations:\n      - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}\n      containers:\n", 1)
	if _, err := s.Apply("ds.yaml", ds); err != nil {
		t.Fatal(err)
	}
	s.Advance(10 * time.Second)
	if out := s.Run("kubectl taint nodes node-1 team=a:NoSchedule"); out.ExitCode != 0 {
		t.Fatal(out.Stderr)
	}
	if out := s.Run("kubectl cordon node-2"); out.ExitCode != 0 {
		t.Fatal(out.Stderr)
	}
	s.Advance(time.Second)
	got := map[string][]TaintMatch{}
	for _, n := range s.Scene(s.Snapshot()).Nodes {
		for _, p := range n.Pods {
			got[n.Name] = p.Tolerations
		}
	}
	want := map[string][]TaintMatch{
		"control-plane": {{Taint: "node-role.kubernetes.io/control-plane:NoSchedule", Effect: "NoSchedule", Toleration: "node-role.kubernetes.io/control-plane:NoSchedule op=Exists"}},
		"node-1":        {{Taint: "team=a:NoSchedule", Effect: "NoSchedule"}},
		"node-2":        {{Taint: "node.kubernetes.io/unschedulable:NoSchedule", Effect: "NoSchedule", Toleration: "node.kubernetes.io/unschedulable:NoSchedule op=Exists", Added: true}},
	}
	for node, w := range want {
		if fmt.Sprint(got[node]) != fmt.Sprint(w) {
			t.Errorf("%s: tolerations %+v, want %+v", node, got[node], w)
		}
	}
}
