package controller

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// The fixtures follow pkg/controller/daemon/daemon_controller_test.go:
// DaemonSet labels L = {name: simple-daemon, type: production}, L2 =
// {name: simple-daemon, type: test}, node label "blue" = {color: blue, speed: fast}.
var (
	simpleDaemonSetLabel  = map[string]string{"name": "simple-daemon", "type": "production"}
	simpleDaemonSetLabel2 = map[string]string{"name": "simple-daemon", "type": "test"}
	simpleNodeLabel       = map[string]string{"color": "blue", "speed": "fast"}
)

type fixture struct {
	t   *testing.T
	c   *cluster.Cluster
	dsc *DaemonSetsController
}

func newFixture(t *testing.T) *fixture {
	c := cluster.New(1)
	return &fixture{t: t, c: c, dsc: NewDaemonSetsController(c)}
}

// addNodes adds n nodes named <prefix>-<i> from start with the labels.
func (f *fixture) addNodes(prefix string, start, n int, labels map[string]string) {
	for i := start; i < start+n; i++ {
		node := f.c.NewNode(fmt.Sprintf("%s-%d", prefix, i), i, cluster.NodeOptions{Labels: labels})
		if err := f.c.CreateNode(node); err != nil {
			f.t.Fatal(err)
		}
	}
}

func (f *fixture) node(name string) *api.Node { return f.c.Node(name) }

func newDaemonSet(name string) *api.DaemonSet {
	return &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default",
			Annotations: map[string]string{api.DeprecatedTemplateGenerationAnnotation: "1"}},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: copyMap(simpleDaemonSetLabel)},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: copyMap(simpleDaemonSetLabel)},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "foo", Image: "foo/bar"}},
					TerminationGracePeriodSeconds: api.Int64Ptr(30)},
			},
			UpdateStrategy: api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: api.FromInt(1), MaxSurge: api.FromInt(0)}},
		},
	}
}

func (f *fixture) createDS(ds *api.DaemonSet) *api.DaemonSet {
	if err := f.c.CreateDaemonSet(ds); err != nil {
		f.t.Fatal(err)
	}
	return ds
}

// addPods creates n pods with the labels on node, owned by ds when not nil,
// one virtual second apart. As upstream's newPod, a pod for a DaemonSet
// carries the controller-revision-hash of its current template unless the
// labels set one.
func (f *fixture) addPods(node string, labels map[string]string, ds *api.DaemonSet, n int) []*api.Pod {
	var out []*api.Pod
	for i := 0; i < n; i++ {
		f.c.SetNow(f.c.Now().Add(time.Second))
		p := &api.Pod{
			ObjectMeta: api.ObjectMeta{GenerateName: "pod-", Namespace: "default", Labels: copyMap(labels)},
			Spec:       api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "foo", Image: "foo/bar"}}},
		}
		if ds != nil {
			p.OwnerReferences = []api.OwnerReference{newControllerRef(ds)}
			if _, ok := p.Labels[api.ControllerRevisionHashLabelKey]; !ok {
				p.Labels[api.ControllerRevisionHashLabelKey] = ComputeHash(ds, ds.Status.CollisionCount)
			}
		}
		if err := f.c.CreatePod(p); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// syncAndCount runs one Sync and returns the creates, deletes and events
// other than SuccessfulCreate/SuccessfulDelete (as upstream's
// syncAndValidateDaemonSets counts them).
func (f *fixture) syncAndCount() (creates, deletes, events int) {
	seq := f.c.LastDecisionSeq()
	counts := map[*api.Event]int32{}
	for _, e := range f.c.Events() {
		counts[e] = e.Count
	}
	f.dsc.Invalidate()
	f.dsc.Sync()
	for _, d := range f.c.Decisions(seq) {
		if d.Component != cluster.ComponentDaemonSetController {
			continue
		}
		switch d.Action {
		case "create":
			if strings.HasPrefix(d.Object, "Pod/") {
				creates++
			}
		case "delete":
			if strings.HasPrefix(d.Object, "Pod/") {
				deletes++
			}
		}
	}
	for _, e := range f.c.Events() {
		if e.Reason == SuccessfulCreateReason || e.Reason == SuccessfulDeleteReason {
			continue
		}
		events += int(e.Count - counts[e])
	}
	return
}

func (f *fixture) expectSync(wantC, wantD, wantE int) {
	f.t.Helper()
	c, d, e := f.syncAndCount()
	if c != wantC || d != wantD || e != wantE {
		f.t.Errorf("sync: creates/deletes/events = %d/%d/%d, want %d/%d/%d", c, d, e, wantC, wantD, wantE)
	}
}

// podsByNode returns the live pods of ds per target node.
func (f *fixture) podsByNode(ds *api.DaemonSet) map[string]int {
	out := map[string]int{}
	for _, p := range f.c.PodsOwnedBy(ds.UID) {
		if p.DeletionTimestamp != nil {
			continue
		}
		n, _ := GetTargetNodeName(p)
		out[n]++
	}
	return out
}

// §6.1: every created pod is unbound with one matchFields term for its node.
func TestSimpleDaemonSetLaunchesPods(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 5, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(5, 0, 0)
	got := f.podsByNode(ds)
	for i := 0; i < 5; i++ {
		if got[fmt.Sprintf("node-%d", i)] != 1 {
			t.Errorf("pods per node = %v", got)
		}
	}
	for _, p := range f.c.PodsOwnedBy(ds.UID) {
		ns := api.RequiredNodeSelector(&p.Spec)
		if p.Spec.NodeName != "" || ns == nil || len(ns.NodeSelectorTerms) != 1 || len(ns.NodeSelectorTerms[0].MatchFields) != 1 {
			t.Errorf("pod %s spec = %+v", p.Name, p.Spec)
		}
	}
	f.expectSync(0, 0, 0)
}

func TestPlacementTable(t *testing.T) {
	blueSelector := func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = copyMap(simpleNodeLabel) }
	cases := []struct {
		name  string
		setup func(f *fixture)
		ds    func(ds *api.DaemonSet)
		wantC int
	}{
		{"no nodes", func(f *fixture) {}, nil, 0},
		{"one node", func(f *fixture) { f.addNodes("node", 0, 1, nil) }, nil, 1},
		{"Ready=False without taints still launches (§6.3)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			n := f.node("node-0")
			n.Condition(api.NodeReady).Status = api.ConditionFalse
		}, nil, 1},
		{"NetworkUnavailable condition without taint launches (§6.7)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			n := f.node("node-0")
			n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: api.NodeNetworkUnavailable, Status: api.ConditionTrue})
		}, nil, 1},
		{"insufficient capacity is ignored (§6.4)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Status.Allocatable = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("100M"), api.ResourceCPU: api.MustParseQuantity("200m"), api.ResourcePods: api.MustParseQuantity("100")}
		}, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("175M")}
		}, 1},
		{"host port conflict is ignored (§6.8)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			p := f.addPods("node-0", map[string]string{"app": "x"}, nil, 1)[0]
			p.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: 6662}}
		}, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{HostPort: 6662}}
		}, 1},
		{"nodeSelector: 3 of 7 nodes blue (§6.9)", func(f *fixture) {
			f.addNodes("node", 0, 4, nil)
			f.addNodes("node", 4, 3, simpleNodeLabel)
		}, blueSelector, 3},
		{"nodeSelector matching no node", func(f *fixture) { f.addNodes("node", 0, 4, nil) }, blueSelector, 0},
		{"nodeName node-0 (§6.10)", func(f *fixture) { f.addNodes("node", 0, 5, nil) }, func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeName = "node-0" }, 1},
		{"nodeName absent node", func(f *fixture) { f.addNodes("node", 0, 5, nil) }, func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeName = "node-10" }, 0},
		{"nodeName and matching selector", func(f *fixture) {
			f.addNodes("node", 0, 4, nil)
			f.addNodes("node", 4, 3, simpleNodeLabel)
		}, func(ds *api.DaemonSet) { blueSelector(ds); ds.Spec.Template.Spec.NodeName = "node-6" }, 1},
		{"nodeName and inconsistent selector", func(f *fixture) {
			f.addNodes("node", 0, 4, nil)
			f.addNodes("node", 4, 3, simpleNodeLabel)
		}, func(ds *api.DaemonSet) { blueSelector(ds); ds.Spec.Template.Spec.NodeName = "node-0" }, 0},
		{"affinity color In [blue] (§6.11)", func(f *fixture) {
			f.addNodes("node", 0, 4, nil)
			f.addNodes("node", 4, 3, simpleNodeLabel)
		}, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "color", Operator: "In", Values: []string{"blue"}}}}}}}}
		}, 3},
		{"two ORed terms (§6.12)", func(f *fixture) {
			f.addNodes("node", 0, 6, nil)
			f.node("node-2").Labels["zone"] = "test"
			f.node("node-3").Labels["zone"] = "test"
		}, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{
					{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "In", Values: []string{"test"}}}},
					{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"node-1"}}}},
				}}}}
		}, 3},
		{"NoSchedule taint, intolerant (§6.14)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: "dedicated", Value: "user1", Effect: api.TaintEffectNoSchedule}}
		}, nil, 0},
		{"NoSchedule taint, tolerated", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: "dedicated", Value: "user1", Effect: api.TaintEffectNoSchedule}}
		}, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: "Equal", Value: "user1", Effect: api.TaintEffectNoSchedule}}
		}, 1},
		{"tolerations on an untainted node", func(f *fixture) { f.addNodes("node", 0, 1, nil) }, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: "Exists"}}
		}, 1},
		{"PreferNoSchedule taint is ignored", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: "soft", Effect: api.TaintEffectPreferNoSchedule}}
		}, nil, 1},
		{"not-ready NoExecute only (§6.17)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}}
		}, nil, 1},
		{"unreachable NoExecute only (§6.17)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}}
		}, nil, 1},
		{"not-ready NoSchedule is not auto-tolerated", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}}
		}, nil, 0},
		{"pressure taints (§6.18)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: api.TaintNodeDiskPressure, Effect: "NoSchedule"}, {Key: api.TaintNodeMemoryPressure, Effect: "NoSchedule"}, {Key: api.TaintNodePIDPressure, Effect: "NoSchedule"}}
		}, nil, 1},
		{"cordoned node (§6.13, §3.3)", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			n := f.node("node-0")
			n.Spec.Unschedulable = true
			n.Spec.Taints = []api.Taint{{Key: api.TaintNodeUnschedulable, Effect: "NoSchedule"}}
		}, nil, 1},
		{"network-unavailable without hostNetwork", func(f *fixture) {
			f.addNodes("node", 0, 1, nil)
			f.node("node-0").Spec.Taints = []api.Taint{{Key: api.TaintNodeNetworkUnavailable, Effect: "NoSchedule"}}
		}, nil, 0},
		{"hostNetwork DS on unschedulable and network-unavailable nodes (§6.20)", func(f *fixture) {
			f.addNodes("node", 0, 2, nil)
			a := f.node("node-0")
			a.Spec.Unschedulable = true
			a.Spec.Taints = []api.Taint{{Key: api.TaintNodeUnschedulable, Effect: "NoSchedule"}}
			b := f.node("node-1")
			b.Spec.Taints = []api.Taint{{Key: api.TaintNodeNetworkUnavailable, Effect: "NoSchedule"}}
		}, func(ds *api.DaemonSet) { ds.Spec.Template.Spec.HostNetwork = true }, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.setup(f)
			ds := newDaemonSet("foo")
			if tc.ds != nil {
				tc.ds(ds)
			}
			f.createDS(ds)
			f.expectSync(tc.wantC, 0, 0)
		})
	}
}

// §6.13 TestNodeShouldRunDaemonPod and the taint matrix of §1.4.
func TestNodeShouldRunDaemonPod(t *testing.T) {
	node := func() *api.Node {
		return &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-0", Labels: copyMap(simpleDaemonSetLabel)},
			Status: api.NodeStatus{Allocatable: api.ResourceList{"cpu": api.MustParseQuantity("100m"), "memory": api.MustParseQuantity("100M")}}}
	}
	cases := []struct {
		name               string
		node               func(*api.Node)
		ds                 func(*api.DaemonSet)
		shouldRun, cont    bool
		failedCheck, words string
	}{
		{"fits", nil, nil, true, true, "", ""},
		{"requests exceed the node", nil, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{"memory": api.MustParseQuantity("200M")}
		}, true, true, "", ""},
		{"template nodeName other", nil, func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeName = "other-node" }, false, false,
			"nodeName", "the pod template pins spec.nodeName to other-node, not node-0"},
		{"nodeSelector L2", nil, func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = copyMap(simpleDaemonSetLabel2) }, false, false,
			"nodeSelector", "the node's label type=production does not match nodeSelector type=test"},
		{"nodeSelector missing label", nil, func(ds *api.DaemonSet) { ds.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"} }, false, false,
			"nodeSelector", "the node has no label disk (nodeSelector wants disk=ssd)"},
		{"affinity type In [test]", nil, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "type", Operator: "In", Values: []string{"test"}}}}}}}}
		}, false, false, "nodeAffinity", "the required node affinity term does not match: type In [test]: the node's label is type=production"},
		{"affinity type In [production]", nil, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "type", Operator: "In", Values: []string{"production"}}}}}}}}
		}, true, true, "", ""},
		{"affinity with a parse error", nil, func(ds *api.DaemonSet) {
			ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "type", Operator: "Gt", Values: []string{"x"}}}}}}}}
		}, false, false, "nodeAffinity", "this term cannot be parsed"},
		{"unschedulable node", func(n *api.Node) { n.Spec.Unschedulable = true }, nil, true, true, "", ""},
		{"NoSchedule taint", func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}} }, nil, false, true,
			"taint k=v:NoSchedule", "taint k=v:NoSchedule is not tolerated"},
		{"NoExecute taint", func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "k", Effect: "NoExecute"}} }, nil, false, false,
			"taint k:NoExecute", "taint k:NoExecute is not tolerated"},
		{"PreferNoSchedule taint", func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "k", Effect: "PreferNoSchedule"}} }, nil, true, true, "", ""},
		{"NoExecute tolerated with seconds counts as tolerated", func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "k", Effect: "NoExecute"}} },
			func(ds *api.DaemonSet) {
				ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(10)}}
			}, true, true, "", ""},
		{"control-plane", func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: api.LabelControlPlane, Effect: "NoSchedule"}} }, nil, false, true,
			"taint node-role.kubernetes.io/control-plane:NoSchedule", "taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated"},
		{"control-plane tolerated", func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: api.LabelControlPlane, Effect: "NoSchedule"}} },
			func(ds *api.DaemonSet) {
				ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: api.LabelControlPlane, Operator: "Exists", Effect: "NoSchedule"}}
			}, true, true, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := node()
			if tc.node != nil {
				tc.node(n)
			}
			ds := newDaemonSet("foo")
			if tc.ds != nil {
				tc.ds(ds)
			}
			v := NodeShouldRunDaemonPod(n, ds)
			if v.ShouldRun != tc.shouldRun || v.ShouldContinueRunning != tc.cont {
				t.Errorf("verdict = (%v, %v), want (%v, %v); checks %+v", v.ShouldRun, v.ShouldContinueRunning, tc.shouldRun, tc.cont, v.Checks)
			}
			// the fast path agrees
			code := newPodPlan(ds).eval(n)
			if code.shouldRun != v.ShouldRun || code.shouldContinue != v.ShouldContinueRunning {
				t.Errorf("eval = %+v disagrees with the explained verdict", code)
			}
			var failed *Check
			for i := range v.Checks {
				if !v.Checks[i].Passed {
					failed = &v.Checks[i]
					break
				}
			}
			if tc.failedCheck == "" {
				if failed != nil {
					t.Errorf("unexpected failed check %+v", failed)
				}
				return
			}
			if failed == nil || failed.Name != tc.failedCheck || !strings.Contains(failed.Detail, tc.words) {
				t.Errorf("first failed check = %+v, want %s containing %q", failed, tc.failedCheck, tc.words)
			}
		})
	}
}

func TestVerdictChecksAreComplete(t *testing.T) {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{"zone": "a"}},
		Spec: api.NodeSpec{Taints: []api.Taint{{Key: api.TaintNodeUnschedulable, Effect: "NoSchedule"}, {Key: "gpu", Value: "true", Effect: "NoSchedule"}}}}
	ds := newDaemonSet("foo")
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"zone": "a"}
	ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "In", Values: []string{"b"}}}},
			{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "Exists"}}},
		}}}}
	v := NodeShouldRunDaemonPod(n, ds)
	var got []string
	for _, c := range v.Checks {
		got = append(got, fmt.Sprintf("%s %v: %s", c.Name, c.Passed, c.Detail))
	}
	want := []string{
		"nodeName true: the pod template sets no spec.nodeName, so any node may run the pod",
		"nodeSelector true: the node has every label the nodeSelector asks for: zone=a",
		"nodeAffinity true: 1 of 2 required terms match (terms are ORed: one is enough)",
		"nodeAffinity term[0] false: zone In [b]: the node's label is zone=a",
		"nodeAffinity term[1] true: the node matches every requirement: zone Exists",
		`taint node.kubernetes.io/unschedulable:NoSchedule true: taint node.kubernetes.io/unschedulable:NoSchedule is tolerated by the toleration "node.kubernetes.io/unschedulable:NoSchedule op=Exists" that the DaemonSet controller adds to every daemon pod`,
		"taint gpu=true:NoSchedule false: taint gpu=true:NoSchedule is not tolerated: no new daemon pod is placed here (a pod already running may stay)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("checks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v.ShouldRun || !v.ShouldContinueRunning {
		t.Errorf("verdict %v %v", v.ShouldRun, v.ShouldContinueRunning)
	}
	if v.Reason() != "taint gpu=true:NoSchedule is not tolerated: no new daemon pod is placed here (a pod already running may stay)" {
		t.Errorf("Reason = %q", v.Reason())
	}
}

// §6.15/16: NoSchedule keeps a running intolerant pod; NoExecute deletes it.
func TestTaintsOnRunningPods(t *testing.T) {
	for _, tc := range []struct {
		effect string
		wantD  int
	}{{api.TaintEffectNoSchedule, 0}, {api.TaintEffectNoExecute, 1}} {
		f := newFixture(t)
		f.addNodes("node", 0, 1, nil)
		ds := f.createDS(newDaemonSet("foo"))
		f.addPods("node-0", simpleDaemonSetLabel, ds, 1)
		f.node("node-0").Spec.Taints = []api.Taint{{Key: "k", Effect: tc.effect}}
		f.expectSync(0, tc.wantD, 0)
		wantMis := int32(1)
		if tc.wantD == 1 {
			wantMis = 1 // the terminating pod still counts until it is gone
		}
		if ds.Status.NumberMisscheduled != wantMis || ds.Status.DesiredNumberScheduled != 0 {
			t.Errorf("%s: status %+v", tc.effect, ds.Status)
		}
	}
}

// §6.21: DealsWithExistingPods (and with surge).
func TestDealsWithExistingPods(t *testing.T) {
	for _, surge := range []bool{false, true} {
		f := newFixture(t)
		f.addNodes("node", 0, 5, nil)
		ds := newDaemonSet("foo")
		if surge {
			ds.Spec.UpdateStrategy.RollingUpdate = &api.RollingUpdateDaemonSet{MaxUnavailable: api.FromInt(0), MaxSurge: api.FromInt(1)}
		}
		f.createDS(ds)
		f.addPods("node-1", simpleDaemonSetLabel, ds, 1)
		f.addPods("node-2", simpleDaemonSetLabel, ds, 2)
		f.addPods("node-3", simpleDaemonSetLabel, ds, 5)
		f.addPods("node-4", simpleDaemonSetLabel2, ds, 2)
		f.expectSync(2, 5, 0)
		for _, p := range f.c.Pods() {
			if p.Labels["type"] == "test" && p.ControllerRef() != nil {
				t.Errorf("L2 pod %s not released", p.Name)
			}
		}
	}
}

// §6.22: nodeSelector=blue with L and L2 pods spread over plain and blue nodes.
func TestSelectorDaemonDeletesUnselectedPods(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 5, nil)
	f.addNodes("node", 5, 5, simpleNodeLabel)
	ds := newDaemonSet("foo")
	ds.Spec.Template.Spec.NodeSelector = copyMap(simpleNodeLabel)
	f.createDS(ds)
	f.addPods("node-0", simpleDaemonSetLabel2, ds, 2)
	f.addPods("node-1", simpleDaemonSetLabel, ds, 3)
	f.addPods("node-1", simpleDaemonSetLabel2, ds, 1)
	f.addPods("node-4", simpleDaemonSetLabel, ds, 1)
	f.expectSync(5, 4, 0)
}

// §6.23
func TestSelectorDaemonDealsWithExistingPods(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 5, nil)
	f.addNodes("node", 5, 5, simpleNodeLabel)
	ds := newDaemonSet("foo")
	ds.Spec.Template.Spec.NodeSelector = copyMap(simpleNodeLabel)
	f.createDS(ds)
	f.addPods("node-0", simpleDaemonSetLabel, ds, 1)
	f.addPods("node-1", simpleDaemonSetLabel, ds, 3)
	f.addPods("node-1", simpleDaemonSetLabel2, ds, 2)
	f.addPods("node-2", simpleDaemonSetLabel, ds, 4)
	f.addPods("node-6", simpleDaemonSetLabel, ds, 13)
	f.addPods("node-7", simpleDaemonSetLabel2, ds, 4)
	f.addPods("node-9", simpleDaemonSetLabel, ds, 1)
	f.addPods("node-9", simpleDaemonSetLabel2, ds, 1)
	f.expectSync(3, 20, 0)
}

// §6.24: the survivor of excess pods is the bound pod with the oldest
// creationTimestamp, then the smaller name.
func TestPodByCreationTimestampAndPhase(t *testing.T) {
	t0 := cluster.Epoch
	mk := func(name, node string, age int) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, CreationTimestamp: t0.Add(time.Duration(age) * time.Second)}, Spec: api.PodSpec{NodeName: node}}
	}
	pods := []*api.Pod{mk("unbound-old", "", 0), mk("b", "n", 5), mk("a", "n", 5), mk("c", "n", 1)}
	podByCreationTimestampAndPhase(pods)
	var got []string
	for _, p := range pods {
		got = append(got, p.Name)
	}
	if strings.Join(got, ",") != "c,a,b,unbound-old" {
		t.Errorf("order = %v", got)
	}
}

// §6.25: the only pod is terminating: nothing until it is gone.
func TestDaemonSetRespectsTermination(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := f.createDS(newDaemonSet("foo"))
	p := f.addPods("node-0", simpleDaemonSetLabel, ds, 1)[0]
	now := f.c.Now().Add(30 * time.Second)
	p.DeletionTimestamp = &now
	f.expectSync(0, 0, 0)
	_ = f.c.RemovePod(p.Namespace, p.Name)
	f.expectSync(1, 0, 0)
}

// §6.26: only the unbound pod pinned to a vanished node is deleted.
func TestDeleteUnscheduledPodForNotExistingNode(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.addPods("node-0", simpleDaemonSetLabel, ds, 1)
	f.addPods("node-1", simpleDaemonSetLabel, ds, 1)
	unbound := f.addPods("", simpleDaemonSetLabel, ds, 1)[0]
	unbound.Spec.Affinity = ReplaceDaemonSetPodNodeNameNodeAffinity(nil, "node-2")
	f.expectSync(0, 1, 0)
	if f.c.Pod("default", unbound.Name) != nil {
		t.Error("unbound pod for node-2 not deleted")
	}
}

// §6.27: grouping and adoption.
func TestGetNodesToDaemonPods(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 2, nil)
	ds := f.createDS(newDaemonSet("foo"))
	ds2 := f.createDS(newDaemonSet("bar"))
	owned := f.addPods("node-0", simpleDaemonSetLabel, ds, 1)[0]
	orphan := f.addPods("node-1", simpleDaemonSetLabel, nil, 1)[0]
	f.addPods("node-0", simpleDaemonSetLabel2, nil, 1)
	f.addPods("node-1", simpleDaemonSetLabel, ds2, 1)
	termDeleted := f.addPods("node-1", simpleDaemonSetLabel, ds, 1)[0]
	termDeleted.Status.Phase = api.PodFailed
	now := f.c.Now()
	termDeleted.DeletionTimestamp = &now
	sel, _ := api.LabelSelectorAsSelector(ds.Spec.Selector)
	got := f.dsc.getNodesToDaemonPods(ds, sel, false)
	if len(got["node-0"]) != 1 || got["node-0"][0] != owned || len(got["node-1"]) != 1 || got["node-1"][0] != orphan {
		t.Errorf("map = %v", got)
	}
	if r := orphan.ControllerRef(); r == nil || r.UID != ds.UID {
		t.Error("orphan not adopted")
	}
	withTerm := f.dsc.getNodesToDaemonPods(ds, sel, true)
	if len(withTerm["node-1"]) != 2 {
		t.Errorf("includeDeletedTerminal map = %v", withTerm)
	}
}

// §6.28: SelectingAll.
func TestEmptySelectorDoesNothing(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := newDaemonSet("foo")
	ds.Spec.Selector = &api.LabelSelector{}
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"foo": "bar"}
	f.createDS(ds)
	f.addPods("node-0", map[string]string{"app": "x"}, nil, 1)
	f.expectSync(0, 0, 1)
	f.expectSync(0, 0, 0) // warned once per generation, so the loop settles
}

// §6.29: a DaemonSet being deleted is left alone.
func TestDontDoAnythingIfBeingDeleted(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := newDaemonSet("foo")
	now := f.c.Now()
	ds.DeletionTimestamp = &now
	f.createDS(ds)
	f.addPods("node-0", simpleDaemonSetLabel, nil, 1)
	seq := f.c.LastDecisionSeq()
	f.expectSync(0, 0, 0)
	if ds.Status.DesiredNumberScheduled != 0 || len(f.c.ControllerRevisions()) != 0 {
		t.Error("a deleting DaemonSet was synced")
	}
	f.expectSync(0, 0, 0)
	var skips int
	for _, d := range f.c.Decisions(seq) {
		if d.Func == "syncDaemonSet" && d.Action == "skip" && strings.Contains(d.Reason, "being deleted") {
			skips++
		}
	}
	if skips != 1 {
		t.Errorf("want one syncDaemonSet skip decision for the deleting DaemonSet, got %d", skips)
	}
}

// §6.32: (failed, normal) pods on one node -> (creates, deletes, events).
func TestDaemonKillFailedPods(t *testing.T) {
	for _, tc := range []struct{ failed, normal, c, d, e int }{
		{0, 1, 0, 0, 0}, {0, 0, 1, 0, 0}, {1, 0, 0, 1, 1}, {1, 3, 0, 3, 1},
	} {
		t.Run(fmt.Sprintf("%d failed %d normal", tc.failed, tc.normal), func(t *testing.T) {
			f := newFixture(t)
			f.addNodes("node", 0, 1, nil)
			ds := f.createDS(newDaemonSet("foo"))
			for _, p := range f.addPods("node-0", simpleDaemonSetLabel, ds, tc.failed) {
				p.Status.Phase = api.PodFailed
			}
			f.addPods("node-0", simpleDaemonSetLabel, ds, tc.normal)
			f.expectSync(tc.c, tc.d, tc.e)
		})
	}
}

// §6.33 and the 1s -> 15m backoff.
func TestDaemonKillFailedPodsBackoff(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := f.createDS(newDaemonSet("foo"))
	fail := func() { // a failed pod appears on node-0 at the current time
		labels := copyMap(simpleDaemonSetLabel)
		labels[api.ControllerRevisionHashLabelKey] = ComputeHash(ds, nil) // an updated pod
		p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "pod-", Namespace: "default", Labels: labels,
			OwnerReferences: []api.OwnerReference{newControllerRef(ds)}},
			Spec: api.PodSpec{NodeName: "node-0"}, Status: api.PodStatus{Phase: api.PodFailed}}
		if err := f.c.CreatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	tick := func(d time.Duration) { f.c.SetNow(f.c.Now().Add(d)) }
	// The backoff key includes status.observedGeneration (upstream
	// failedPodsBackoffKey); start from a DaemonSet already observed.
	ds.Status.ObservedGeneration = 1
	fail()
	f.expectSync(0, 1, 1) // deleted at once; backoff 1s starts
	fail()
	f.expectSync(0, 0, 0) // within the backoff: kept
	tick(time.Second)
	f.expectSync(0, 1, 1) // backoff over: deleted; backoff now 2s
	fail()
	tick(time.Second)
	f.expectSync(0, 0, 0)
	tick(time.Second)
	f.expectSync(0, 1, 1)
	f.expectSync(1, 0, 0) // the node is empty: a new pod

	b := NewBackoff(time.Second, 15*time.Minute)
	now := cluster.Epoch
	var delays []time.Duration
	for i := 0; i < 12; i++ {
		b.Next("k", now)
		delays = append(delays, b.Get("k"))
	}
	if delays[0] != time.Second || delays[1] != 2*time.Second || delays[10] != 15*time.Minute || delays[11] != 15*time.Minute {
		t.Errorf("delays = %v", delays)
	}
	b.Next("k", now.Add(31*time.Minute)) // expired after 2*max: starts over
	if b.Get("k") != time.Second {
		t.Errorf("after expiry = %v", b.Get("k"))
	}
}

func TestSucceededPodIsDeleted(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := f.createDS(newDaemonSet("foo"))
	p := f.addPods("node-0", simpleDaemonSetLabel, ds, 1)[0]
	p.Status.Phase = api.PodSucceeded
	f.expectSync(0, 1, 1)
	evs := f.c.EventsFor("DaemonSet", ds.UID)
	var msgs []string
	for _, e := range evs {
		msgs = append(msgs, e.Reason+": "+e.Message)
	}
	want := fmt.Sprintf("SucceededDaemonPod: Found succeeded daemon pod default/%s on node node-0, will try to delete it", p.Name)
	if len(msgs) == 0 || msgs[0] != want {
		t.Errorf("events = %v", msgs)
	}
	f.expectSync(1, 0, 0)
}

// §1.8: burstReplicas caps creates per sync; slow-start batches 1, 2, 4, ...
func TestBurstReplicasAndSlowStart(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 300, nil)
	ds := f.createDS(newDaemonSet("foo"))
	seq := f.c.LastDecisionSeq()
	f.expectSync(250, 0, 0)
	batches := map[string]int{}
	for _, d := range f.c.Decisions(seq) {
		if d.Action == "create" && strings.HasPrefix(d.Object, "Pod/") {
			i := strings.Index(d.Reason, "slow-start batch ")
			batches[strings.TrimSuffix(strings.Fields(d.Reason[i+len("slow-start batch "):])[0], ":")]++
		}
	}
	// 1+2+4+8+16+32+64+123 = 250
	want := map[string]int{"1": 1, "2": 2, "3": 4, "4": 8, "5": 16, "6": 32, "7": 64, "8": 123}
	if fmt.Sprint(batches) != fmt.Sprint(want) {
		t.Errorf("batches = %v, want %v", batches, want)
	}
	if ds.Status.DesiredNumberScheduled != 300 || ds.Status.CurrentNumberScheduled != 250 {
		t.Errorf("status = %+v", ds.Status)
	}
	f.expectSync(50, 0, 0)
	f.expectSync(0, 0, 0)
}

// §1.10 and §6.36: status counts; written only on change.
func TestStatus(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 5, nil)
	f.node("node-4").Spec.Taints = []api.Taint{{Key: "k", Effect: "NoSchedule"}}
	ds := newDaemonSet("foo")
	ds.Spec.MinReadySeconds = 10
	f.createDS(ds)
	f.addPods("node-4", simpleDaemonSetLabel, ds, 1) // misscheduled
	f.expectSync(4, 0, 0)
	st := ds.Status
	if st.DesiredNumberScheduled != 4 || st.CurrentNumberScheduled != 4 || st.NumberReady != 0 || st.NumberMisscheduled != 1 ||
		st.NumberUnavailable != 4 || st.UpdatedNumberScheduled != 4 || st.ObservedGeneration != 1 {
		t.Fatalf("status after first sync = %+v", st)
	}
	// two pods become Ready
	for _, n := range []string{"node-0", "node-1"} {
		p := f.c.PodsOwnedBy(ds.UID)
		for _, q := range p {
			if tn, _ := GetTargetNodeName(q); tn == n {
				q.Spec.NodeName = n
				q.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: f.c.Now()}}
				_ = f.c.UpdatePod(q)
			}
		}
	}
	f.expectSync(0, 0, 0)
	if ds.Status.NumberReady != 2 || ds.Status.NumberAvailable != 0 {
		t.Errorf("ready/available = %d/%d, want 2/0 (minReadySeconds 10)", ds.Status.NumberReady, ds.Status.NumberAvailable)
	}
	f.c.SetNow(f.c.Now().Add(11 * time.Second))
	f.expectSync(0, 0, 0)
	if ds.Status.NumberAvailable != 2 || ds.Status.NumberUnavailable != 2 {
		t.Errorf("available/unavailable = %d/%d, want 2/2", ds.Status.NumberAvailable, ds.Status.NumberUnavailable)
	}
	rv := ds.ResourceVersion
	f.expectSync(0, 0, 0)
	if ds.ResourceVersion != rv {
		t.Error("status rewritten without a change")
	}
}

// §1.9: the created pod keeps preferred affinity, replaces required terms,
// replaces a user toleration that matches a default one, adds
// network-unavailable for hostNetwork.
func TestCreatedPodTemplate(t *testing.T) {
	ds := newDaemonSet("foo")
	ds.Spec.Template.Spec.HostNetwork = true
	ds.Spec.Template.Spec.Tolerations = []api.Toleration{
		{Key: "user", Operator: "Exists"},
		{Key: api.TaintNodeUnreachable, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(60)},
	}
	ds.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution:  &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "a", Operator: "Exists"}}}}},
		PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 1, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "b", Operator: "Exists"}}}}},
	}}
	gen := int64(3)
	tmpl := CreatePodTemplate(&ds.Spec.Template, &gen, "abc")
	p := newDaemonPod(ds, &tmpl, "node-7")
	var tols []string
	for _, t := range p.Spec.Tolerations {
		tols = append(tols, t.String())
	}
	want := []string{"op=Exists", "node.kubernetes.io/unreachable:NoExecute op=Exists", "node.kubernetes.io/not-ready:NoExecute op=Exists",
		"node.kubernetes.io/disk-pressure:NoSchedule op=Exists", "node.kubernetes.io/memory-pressure:NoSchedule op=Exists",
		"node.kubernetes.io/pid-pressure:NoSchedule op=Exists", "node.kubernetes.io/unschedulable:NoSchedule op=Exists",
		"node.kubernetes.io/network-unavailable:NoSchedule op=Exists"}
	want[0] = "user op=Exists"
	if strings.Join(tols, "|") != strings.Join(want, "|") {
		t.Errorf("tolerations:\n%v\nwant\n%v", tols, want)
	}
	na := p.Spec.Affinity.NodeAffinity
	if got := api.TermString(&na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0]); got != "metadata.name In [node-7]" || len(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms) != 1 {
		t.Errorf("required = %s", got)
	}
	if len(na.PreferredDuringSchedulingIgnoredDuringExecution) != 1 {
		t.Error("preferred terms lost")
	}
	if p.Labels["pod-template-generation"] != "3" || p.Labels["controller-revision-hash"] != "abc" || p.GenerateName != "foo-" {
		t.Errorf("meta = %+v", p.ObjectMeta)
	}
	// the template itself is untouched
	if len(ds.Spec.Template.Spec.Tolerations) != 2 || api.TermString(&ds.Spec.Template.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0]) != "a Exists" {
		t.Error("template modified")
	}
	if n, err := GetTargetNodeName(p); err != nil || n != "node-7" {
		t.Errorf("GetTargetNodeName = %q, %v", n, err)
	}
}

func TestGetTargetNodeName(t *testing.T) {
	meta := api.ObjectMeta{Namespace: "default", Name: "p"}
	cases := []struct {
		pod     api.Pod
		want    string
		wantErr string // util.GetTargetNodeName's wording
	}{
		{api.Pod{ObjectMeta: meta, Spec: api.PodSpec{NodeName: "n1"}}, "n1", ""},
		{api.Pod{ObjectMeta: meta, Spec: api.PodSpec{Affinity: ReplaceDaemonSetPodNodeNameNodeAffinity(nil, "n2")}}, "n2", ""},
		{api.Pod{ObjectMeta: meta}, "", "no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod default/p"},
		{api.Pod{ObjectMeta: meta, Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"a", "b"}}}}}}}}}},
			"", "the matchFields value of 'metadata.name' is not unique for pod default/p"},
		{api.Pod{ObjectMeta: meta, Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{}}}}},
			"", "no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod default/p"},
		{api.Pod{ObjectMeta: meta, Spec: api.PodSpec{Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
			NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: "Exists"}}}}}}}}},
			"", "no node name found for pod default/p"},
	}
	for i, tc := range cases {
		got, err := GetTargetNodeName(&tc.pod)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if got != tc.want || gotErr != tc.wantErr {
			t.Errorf("case %d: %q, %q; want %q, %q", i, got, gotErr, tc.want, tc.wantErr)
		}
	}
}

// §2.6: revisions: name <ds>-<hash>, hash alphabet, numbering, reuse on rollback.
func TestControllerRevisions(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := newDaemonSet("foo")
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType} // pods stay
	f.createDS(ds)
	f.expectSync(1, 0, 0)
	revs := f.c.ControllerRevisions()
	if len(revs) != 1 || revs[0].Revision != 1 {
		t.Fatalf("revisions = %+v", revs)
	}
	h1 := revs[0].Labels[api.ControllerRevisionHashLabelKey]
	if revs[0].Name != "foo-"+h1 || strings.Trim(h1, "456789bcdf") != "" || len(h1) == 0 || len(h1) > 10 {
		t.Errorf("revision name %q hash %q", revs[0].Name, h1)
	}
	if revs[0].Labels["name"] != "simple-daemon" || revs[0].Annotations[api.DeprecatedTemplateGenerationAnnotation] != "1" {
		t.Errorf("revision meta = %+v", revs[0].ObjectMeta)
	}
	if !strings.Contains(revs[0].Data, `"$patch":"replace"`) || !strings.HasPrefix(revs[0].Data, `{"spec":{"template":`) {
		t.Errorf("data = %s", revs[0].Data)
	}
	// template change: revision 2; pods of revision 1 are not "updated"
	ds.Spec.Template.Spec.Containers[0].Image = "foo/bar:2"
	ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] = "2"
	ds.Generation = 2
	f.expectSync(0, 0, 0)
	revs = f.c.ControllerRevisions()
	if len(revs) != 2 {
		t.Fatalf("revisions = %d", len(revs))
	}
	if ds.Status.UpdatedNumberScheduled != 0 || ds.Status.ObservedGeneration != 2 {
		t.Errorf("status = %+v", ds.Status)
	}
	// rolling back to the first template reuses revision 1 renumbered 3
	ds.Spec.Template.Spec.Containers[0].Image = "foo/bar"
	ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] = "3"
	f.expectSync(0, 0, 0)
	if r := f.c.ControllerRevision("default", "foo-"+h1); r == nil || r.Revision != 3 || len(f.c.ControllerRevisions()) != 2 {
		t.Errorf("rollback revision = %+v", r)
	}
	if ds.Status.UpdatedNumberScheduled != 1 {
		t.Errorf("pod with hash %s should count as updated again: %+v", h1, ds.Status)
	}
}

func TestCleanupHistory(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := newDaemonSet("foo")
	ds.Spec.RevisionHistoryLimit = api.Int32Ptr(1)
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType} // the pod keeps revision 1
	f.createDS(ds)
	f.expectSync(1, 0, 0) // revision 1, carried by the pod
	for i := 2; i <= 4; i++ {
		ds.Spec.Template.Spec.Containers[0].Image = fmt.Sprintf("foo/bar:%d", i)
		f.expectSync(0, 0, 0)
	}
	var got []int64
	for _, r := range f.c.ControllerRevisions() {
		got = append(got, r.Revision)
	}
	// current 4; old 1 (a pod carries its hash), 2, 3: 3-1 = 2 to delete,
	// lowest first, skipping 1 -> 2 and 3 go.
	if fmt.Sprint(sortInts(got)) != "[1 4]" {
		t.Errorf("revisions = %v", got)
	}
}

func sortInts(v []int64) []int64 {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
	return v
}

func TestIsPodUpdated(t *testing.T) {
	gen := int64(2)
	for _, tc := range []struct {
		labels map[string]string
		gen    *int64
		want   bool
	}{
		{map[string]string{"controller-revision-hash": "h"}, nil, true},
		{map[string]string{"controller-revision-hash": "x"}, nil, false},
		{map[string]string{"controller-revision-hash": "x", "pod-template-generation": "2"}, &gen, true},
		{map[string]string{"pod-template-generation": "1"}, &gen, false},
	} {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Labels: tc.labels}}
		if got := IsPodUpdated(p, "h", tc.gen); got != tc.want {
			t.Errorf("%v: %v", tc.labels, got)
		}
	}
}

func TestSafeEncodeString(t *testing.T) {
	if got := SafeEncodeString("0123456789"); got != "456789bcdf" {
		t.Errorf("got %q", got)
	}
	a := ComputeHash(newDaemonSet("a"), nil)
	b := ComputeHash(newDaemonSet("b"), nil) // name is not part of the template
	c := ComputeHash(newDaemonSet("a"), api.Int32Ptr(1))
	if a != b || a == c {
		t.Errorf("hashes %s %s %s", a, b, c)
	}
}

// The skip decisions are recorded when a verdict changes, not every sync.
func TestSkipDecisionsOnlyOnChange(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 2, nil)
	f.node("node-1").Spec.Taints = []api.Taint{{Key: "k", Effect: "NoSchedule"}}
	f.createDS(newDaemonSet("foo"))
	count := func() int {
		n := 0
		for _, d := range f.c.Decisions(0) {
			if d.Action == "skip" {
				n++
				if d.Node != "node-1" || d.Func != "NodeShouldRunDaemonPod" || !strings.Contains(d.Reason, "taint k:NoSchedule is not tolerated") {
					t.Errorf("decision %+v", d)
				}
			}
		}
		return n
	}
	f.expectSync(1, 0, 0)
	f.expectSync(0, 0, 0)
	if count() != 1 {
		t.Errorf("skip decisions = %d, want 1", count())
	}
}

// A selector that misses the template labels (refused by the API server)
// must not make the controller create pods it cannot claim.
func TestSelectorNotMatchingTemplateDoesNothing(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 2, nil)
	ds := newDaemonSet("foo")
	ds.Spec.Template.Labels = map[string]string{"other": "x"}
	f.createDS(ds)
	f.expectSync(0, 0, 0)
	f.expectSync(0, 0, 0)
	if f.c.PodCount() != 0 {
		t.Error("pods created")
	}
}

func TestForgetDeletedDaemonSets(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 3, nil)
	f.createDS(newDaemonSet("foo"))
	all := newDaemonSet("all")
	all.Spec.Selector = &api.LabelSelector{}
	f.createDS(all)
	f.expectSync(3, 0, 1) // SelectingAll
	if len(f.dsc.lastVerdict) != 3 || len(f.dsc.selectingAll) != 1 {
		t.Fatalf("verdicts = %d, selectingAll = %d", len(f.dsc.lastVerdict), len(f.dsc.selectingAll))
	}
	_ = f.c.RemoveDaemonSet("default", "foo")
	_ = f.c.RemoveDaemonSet("default", "all")
	f.expectSync(0, 0, 0)
	if len(f.dsc.lastVerdict) != 0 || len(f.dsc.selectingAll) != 0 {
		t.Errorf("state of deleted DaemonSets kept: verdicts %d, selectingAll %d", len(f.dsc.lastVerdict), len(f.dsc.selectingAll))
	}
}

// §6.46: with maxSurge, a node holding a new (not ready) pod and two old
// Ready pods keeps the oldest old pod and the new one; nodes without pods
// get creates. With the oldest old pod not Ready, it goes too.
func TestSurgePrunesOldPods(t *testing.T) {
	for _, tc := range []struct {
		oldestReady bool
		wantD       int
	}{{true, 1}, {false, 2}} {
		f := newFixture(t)
		f.addNodes("node", 0, 4, nil)
		ds := newDaemonSet("foo")
		ds.Spec.UpdateStrategy.RollingUpdate = &api.RollingUpdateDaemonSet{MaxUnavailable: api.FromInt(0), MaxSurge: api.FromInt(1)}
		f.createDS(ds)
		f.expectSync(4, 0, 0)
		// remove node-0's pod and put the mixed set there
		for _, p := range f.c.PodsOwnedBy(ds.UID) {
			if n, _ := GetTargetNodeName(p); n == "node-0" {
				_ = f.c.RemovePod(p.Namespace, p.Name)
			}
		}
		hash := f.c.ControllerRevisions()[0].Labels[api.ControllerRevisionHashLabelKey]
		old := map[string]string{"name": "simple-daemon", "type": "production", api.ControllerRevisionHashLabelKey: "old"}
		o1 := f.addPods("node-0", old, ds, 1)[0]
		o2 := f.addPods("node-0", old, ds, 1)[0]
		nw := f.addPods("node-0", map[string]string{"name": "simple-daemon", "type": "production", api.ControllerRevisionHashLabelKey: hash}, ds, 1)[0]
		ready := []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
		if tc.oldestReady {
			o1.Status.Conditions = ready
		}
		o2.Status.Conditions = ready
		f.expectSync(0, tc.wantD, 0)
		if f.c.Pod("default", o2.Name).DeletionTimestamp == nil || f.c.Pod("default", nw.Name).DeletionTimestamp != nil {
			t.Errorf("oldestReady=%v: wrong pods deleted", tc.oldestReady)
		}
		if (f.c.Pod("default", o1.Name).DeletionTimestamp != nil) == tc.oldestReady {
			t.Errorf("oldestReady=%v: oldest old pod handled wrong", tc.oldestReady)
		}
	}
}

// TestStatusQueuesAvailableWakeup: with minReadySeconds, a Ready pod that
// is not yet Available makes the status update ask for a wake-up
// minReadySeconds+1s after it turned Ready (upstream's re-queue), even
// for an OnDelete DaemonSet, whose rollingUpdate never runs.
func TestStatusQueuesAvailableWakeup(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := newDaemonSet("foo")
	ds.Spec.MinReadySeconds = 10
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
	f.createDS(ds)
	p := f.addPods("node-0", simpleDaemonSetLabel, ds, 1)[0]
	readyAt := f.c.Now()
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: readyAt}}
	_ = f.c.UpdatePod(p)
	for { // drop the wake-ups queued so far
		if _, ok := f.c.NextWakeup(readyAt.Add(time.Hour)); !ok {
			break
		}
	}
	f.expectSync(0, 0, 0)
	if ds.Status.NumberReady != 1 || ds.Status.NumberAvailable != 0 {
		t.Fatalf("ready/available = %d/%d, want 1/0", ds.Status.NumberReady, ds.Status.NumberAvailable)
	}
	if w, ok := f.c.NextWakeup(readyAt.Add(time.Hour)); !ok || !w.Equal(readyAt.Add(11*time.Second)) {
		t.Errorf("wake-up = %v %v, want %v", w, ok, readyAt.Add(11*time.Second))
	}
}
