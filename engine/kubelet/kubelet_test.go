package kubelet

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// world runs the components of this package in the loop's order.
type world struct {
	t  *testing.T
	c  *cluster.Cluster
	k  *Kubelets
	nl *NodeLifecycle
	te *TaintEviction
	pg *PodGC
	gc *GarbageCollector
}

func newWorld(t *testing.T, nodes ...string) *world {
	c := cluster.New(1)
	for i, n := range nodes {
		if err := c.CreateNode(c.NewNode(n, i, cluster.NodeOptions{})); err != nil {
			t.Fatal(err)
		}
	}
	k := New(c)
	return &world{t: t, c: c, k: k, nl: NewNodeLifecycle(c, k), te: NewTaintEviction(c), pg: NewPodGC(c), gc: NewGarbageCollector(c)}
}

func (w *world) settle() {
	for i := 0; i < 50; i++ {
		rv := w.c.ResourceVersion()
		w.nl.Sync()
		w.k.Sync()
		w.te.Sync()
		w.pg.Sync()
		w.gc.Sync()
		if w.c.ResourceVersion() == rv {
			return
		}
	}
	w.t.Fatal("no fixed point")
}

// advance moves virtual time by d, stopping at every wake-up.
func (w *world) advance(d time.Duration) {
	target := w.c.Now().Add(d)
	w.settle()
	for {
		t, ok := w.c.NextWakeup(target)
		if !ok {
			break
		}
		w.c.SetNow(t)
		w.settle()
	}
	w.c.SetNow(target)
	w.settle()
}

func (w *world) pod(name, node string, mut func(p *api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "app", Image: "nginx:1.27", ImagePullPolicy: "Never"}},
			TerminationGracePeriodSeconds: api.Int64Ptr(30)}}
	if mut != nil {
		mut(p)
	}
	if err := w.c.CreatePod(p); err != nil {
		w.t.Fatal(err)
	}
	return p
}

func events(c *cluster.Cluster, p *api.Pod) []string {
	var out []string
	for _, e := range c.EventsFor("Pod", p.UID) {
		s := e.Reason + " " + e.Message
		if e.InvolvedObject.FieldPath != "" {
			s = e.Reason + " " + e.InvolvedObject.FieldPath + ": " + e.Message
		}
		out = append(out, fmt.Sprintf("+%s %s", e.FirstTimestamp.Sub(cluster.Epoch), s))
	}
	return out
}

func TestPodStartsWithImagePresent(t *testing.T) {
	w := newWorld(t, "node-0", "node-1")
	p := w.pod("web", "node-1", nil)
	w.settle()
	if p.Status.Phase != api.PodPending || p.Status.ContainerStatuses[0].State.Waiting.Reason != "ContainerCreating" || p.Status.HostIP != "172.18.0.3" || p.Status.StartTime == nil {
		t.Fatalf("after admission: %+v", p.Status)
	}
	if p.Status.PodIP != "" {
		t.Errorf("pod IP before start: %q", p.Status.PodIP)
	}
	d := startDelay(hash32("default/web"), false)
	if d < time.Second || d > 4*time.Second || d%step != 0 {
		t.Fatalf("start delay %v outside 1-4s in 100ms steps", d)
	}
	w.advance(d - step)
	if p.Status.Phase != api.PodPending {
		t.Fatal("started early")
	}
	w.advance(step)
	if p.Status.Phase != api.PodRunning || !p.IsReady() || p.Status.PodIP != "10.244.1.2" {
		t.Fatalf("at start: phase %s ready %v ip %s", p.Status.Phase, p.IsReady(), p.Status.PodIP)
	}
	var types []string
	for _, c := range p.Status.Conditions {
		types = append(types, c.Type+"="+c.Status)
	}
	if strings.Join(types, " ") != "PodReadyToStartContainers=True Initialized=True Ready=True ContainersReady=True PodScheduled=True" {
		t.Errorf("conditions %v", types)
	}
	want := []string{
		"+0s Pulled spec.containers{app}: Container image \"nginx:1.27\" already present on machine and can be accessed by the pod",
		fmt.Sprintf("+%s Created spec.containers{app}: Container created", d),
		fmt.Sprintf("+%s Started spec.containers{app}: Container started", d),
	}
	if got := events(w.c, p); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// a second pod gets the next address
	p2 := w.pod("web2", "node-1", nil)
	w.advance(5 * time.Second)
	if p2.Status.PodIP != "10.244.1.3" {
		t.Errorf("second pod IP %q", p2.Status.PodIP)
	}
	rv := w.c.ResourceVersion()
	w.advance(time.Hour)
	if w.c.ResourceVersion() != rv {
		t.Error("kubelet writes while idle")
	}
}

func TestImagePull(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("a", "node-0", func(p *api.Pod) { p.Spec.Containers[0].ImagePullPolicy = "" })
	w.settle()
	evs := events(w.c, p)
	if len(evs) != 1 || evs[0] != "+0s Pulling spec.containers{app}: Pulling image \"nginx:1.27\"" {
		t.Fatalf("events = %v", evs)
	}
	w.advance(15 * time.Second)
	evs = events(w.c, p)
	if len(evs) != 4 || !strings.Contains(evs[1], "Pulled spec.containers{app}: Successfully pulled image \"nginx:1.27\" in ") || !strings.Contains(evs[1], "Image size: ") {
		t.Fatalf("events = %v", evs)
	}
	if p.Status.Phase != api.PodRunning {
		t.Fatal("not running")
	}
	if n := w.c.Node("node-0"); len(n.Status.Images) != 1 || n.Status.Images[0].Names[0] != "nginx:1.27" {
		t.Errorf("node images = %+v", n.Status.Images)
	}
	// IfNotPresent (tagged image): no pull the second time
	p2 := w.pod("b", "node-0", func(p *api.Pod) { p.Spec.Containers[0].ImagePullPolicy = "" })
	w.settle()
	if evs := events(w.c, p2); len(evs) != 1 || !strings.Contains(evs[0], "already present") {
		t.Errorf("second pod events = %v", evs)
	}
	// :latest means Always: pulled again, quickly
	p3 := w.pod("c", "node-0", func(p *api.Pod) { p.Spec.Containers[0].ImagePullPolicy = ""; p.Spec.Containers[0].Image = "nginx" })
	w.settle()
	if evs := events(w.c, p3); len(evs) != 1 || !strings.Contains(evs[0], "Pulling image \"nginx\"") {
		t.Errorf("untagged image events = %v", evs)
	}
	for _, tc := range []struct{ image, want string }{
		{"nginx", "Always"}, {"nginx:latest", "Always"}, {"nginx:1.27", "IfNotPresent"},
		{"localhost:5000/app", "Always"}, {"localhost:5000/app:v1", "IfNotPresent"}, {"app@sha256:abc", "IfNotPresent"},
	} {
		if got := pullPolicy(&api.Container{Image: tc.image}); got != tc.want {
			t.Errorf("pullPolicy(%s) = %s, want %s", tc.image, got, tc.want)
		}
	}
}

func TestReadinessProbeDelaysReady(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("a", "node-0", func(p *api.Pod) {
		p.Spec.Containers[0].ReadinessProbe = &api.Probe{InitialDelaySeconds: 10}
	})
	w.advance(5 * time.Second)
	if p.Status.Phase != api.PodRunning || p.IsReady() {
		t.Fatalf("phase %s ready %v", p.Status.Phase, p.IsReady())
	}
	w.advance(10 * time.Second)
	if !p.IsReady() {
		t.Fatal("not ready after the probe delay")
	}
}

func TestGracefulDeletion(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("a", "node-0", nil)
	w.advance(5 * time.Second)
	if err := w.c.DeletePod("default", "a", nil); err != nil {
		t.Fatal(err)
	}
	w.settle()
	if p.IsReady() {
		t.Error("still ready while terminating")
	}
	evs := events(w.c, p)
	if last := evs[len(evs)-1]; !strings.HasSuffix(last, "Killing spec.containers{app}: Stopping container app") {
		t.Errorf("last event %q", last)
	}
	d := stopDelay(hash32("default/a"), 30)
	if d < time.Second || d > 2*time.Second {
		t.Fatalf("stop delay %v", d)
	}
	w.advance(d - step)
	if w.c.Pod("default", "a") == nil {
		t.Fatal("removed early")
	}
	w.advance(step)
	if w.c.Pod("default", "a") != nil {
		t.Fatal("not removed after the stop delay")
	}
	// grace period shorter than the stop delay wins
	if got := stopDelay(hash32("x"), 0); got != 0 {
		t.Errorf("grace 0 -> %v", got)
	}
	// finalizers keep the object
	q := w.pod("b", "node-0", func(p *api.Pod) { p.Finalizers = []string{"example.com/keep"} })
	w.advance(5 * time.Second)
	_ = w.c.DeletePod("default", "b", nil)
	w.advance(time.Minute)
	if w.c.Pod("default", "b") == nil || q.DeletionTimestamp == nil {
		t.Error("pod with a finalizer removed")
	}
	// an unbound pod is removed at once by the API
	w.pod("c", "", nil)
	_ = w.c.DeletePod("default", "c", nil)
	if w.c.Pod("default", "c") != nil {
		t.Error("unbound pod not removed at once")
	}
}

func TestStoppedKubeletDoesNothing(t *testing.T) {
	w := newWorld(t, "node-0")
	w.k.Stop("node-0")
	p := w.pod("a", "node-0", nil)
	w.advance(30 * time.Second)
	if p.Status.StartTime != nil {
		t.Fatal("a stopped kubelet admitted a pod")
	}
	w.k.Start("node-0")
	w.advance(10 * time.Second)
	if p.Status.Phase != api.PodRunning {
		t.Error("not started after the kubelet came back")
	}
}

// §3.5: Unknown after the grace period, with the unreachable taints.
func TestNodeLifecycle(t *testing.T) {
	w := newWorld(t, "node-0")
	w.k.Stop("node-0")
	w.advance(49 * time.Second)
	if w.c.Node("node-0").Condition(api.NodeReady).Status != api.ConditionTrue {
		t.Fatal("Unknown too early")
	}
	w.advance(time.Second)
	n := w.c.Node("node-0")
	for _, typ := range []string{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure} {
		c := n.Condition(typ)
		if c.Status != api.ConditionUnknown || c.Reason != "NodeStatusUnknown" || c.Message != "Kubelet stopped posting node status." {
			t.Errorf("%s = %+v", typ, c)
		}
	}
	var ts []string
	for _, t := range n.Spec.Taints {
		ts = append(ts, t.ToString())
	}
	if strings.Join(ts, ",") != "node.kubernetes.io/unreachable:NoSchedule,node.kubernetes.io/unreachable:NoExecute" {
		t.Errorf("taints %v", ts)
	}
	w.k.Start("node-0")
	w.settle()
	if len(n.Spec.Taints) != 0 || n.Condition(api.NodeReady).Status != api.ConditionTrue {
		t.Errorf("after recovery: %+v %+v", n.Spec.Taints, n.Condition(api.NodeReady))
	}
	// conditions and cordon map to taints
	for _, tc := range []struct {
		mut  func(n *api.Node)
		want string
	}{
		{func(n *api.Node) { n.Condition(api.NodeReady).Status = api.ConditionFalse }, "node.kubernetes.io/not-ready:NoSchedule,node.kubernetes.io/not-ready:NoExecute"},
		{func(n *api.Node) { n.Condition(api.NodeMemoryPressure).Status = api.ConditionTrue }, "node.kubernetes.io/memory-pressure:NoSchedule"},
		{func(n *api.Node) { n.Condition(api.NodeDiskPressure).Status = api.ConditionTrue }, "node.kubernetes.io/disk-pressure:NoSchedule"},
		{func(n *api.Node) { n.Spec.Unschedulable = true }, "node.kubernetes.io/unschedulable:NoSchedule"},
		{func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "user", Effect: "NoSchedule"}} }, "user:NoSchedule"},
	} {
		w := newWorld(t, "n")
		n := w.c.Node("n")
		tc.mut(n)
		_ = w.c.UpdateNode(n)
		w.settle()
		var ts []string
		for _, t := range n.Spec.Taints {
			ts = append(ts, t.ToString())
		}
		if strings.Join(ts, ",") != tc.want {
			t.Errorf("taints %v, want %s", ts, tc.want)
		}
	}
}

// §3.5: NoExecute eviction.
func TestTaintEviction(t *testing.T) {
	w := newWorld(t, "node-0")
	intolerant := w.pod("intolerant", "node-0", nil)
	timed := w.pod("timed", "node-0", func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(60)}}
	})
	forever := w.pod("forever", "node-0", func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute"}}
	})
	w.advance(5 * time.Second)
	n := w.c.Node("node-0")
	n.Spec.Taints = []api.Taint{{Key: "k", Effect: "NoExecute"}}
	_ = w.c.UpdateNode(n)
	w.settle()
	if intolerant.DeletionTimestamp == nil {
		t.Fatal("intolerant pod not evicted at once")
	}
	c := intolerant.Condition("DisruptionTarget")
	if c == nil || c.Reason != "DeletionByTaintManager" || c.Message != "Taint manager: deleting due to NoExecute taint" {
		t.Errorf("condition %+v", c)
	}
	evs := events(w.c, intolerant)
	found := false
	for _, e := range evs {
		if strings.HasSuffix(e, "TaintManagerEviction Marking for deletion Pod default/intolerant") {
			found = true
		}
	}
	if !found {
		t.Errorf("events %v", evs)
	}
	w.advance(59 * time.Second)
	if timed.DeletionTimestamp != nil {
		t.Fatal("evicted before tolerationSeconds")
	}
	w.advance(time.Second)
	if timed.DeletionTimestamp == nil {
		t.Fatal("not evicted after tolerationSeconds")
	}
	w.advance(time.Hour)
	if forever.DeletionTimestamp != nil {
		t.Fatal("pod tolerating forever evicted")
	}
	// cancellation
	w2 := newWorld(t, "node-0")
	p := w2.pod("timed", "node-0", func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(60)}}
	})
	n = w2.c.Node("node-0")
	n.Spec.Taints = []api.Taint{{Key: "k", Effect: "NoExecute"}}
	_ = w2.c.UpdateNode(n)
	w2.advance(30 * time.Second)
	n.Spec.Taints = nil
	_ = w2.c.UpdateNode(n)
	w2.advance(time.Minute)
	if p.DeletionTimestamp != nil {
		t.Fatal("evicted although the taint went away")
	}
	evs = events(w2.c, p)
	if last := evs[len(evs)-1]; !strings.HasSuffix(last, "TaintManagerEviction Cancelling deletion of Pod default/timed") {
		t.Errorf("last event %q", last)
	}
}

func TestGetMinTolerationTime(t *testing.T) {
	s := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		tols []api.Toleration
		want time.Duration
	}{
		{nil, 0},
		{[]api.Toleration{{}}, -1},
		{[]api.Toleration{{TolerationSeconds: s(30)}, {TolerationSeconds: s(10)}, {}}, 10 * time.Second},
		{[]api.Toleration{{TolerationSeconds: s(-5)}}, 0},
	} {
		if got := getMinTolerationTime(tc.tols); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.tols, got, tc.want)
		}
	}
}

func TestPodGCAndGarbageCollector(t *testing.T) {
	w := newWorld(t, "node-0", "node-1")
	w.pod("on-gone-node", "node-1", nil)
	w.advance(5 * time.Second)
	_ = w.c.DeleteNode("node-1")
	w.settle()
	if w.c.Pod("default", "on-gone-node") != nil {
		t.Error("pod on a deleted node not collected")
	}

	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds", Namespace: "default"}}
	_ = w.c.CreateDaemonSet(ds)
	own := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", UID: ds.UID, Controller: api.BoolPtr(true)}}
	w.pod("child", "node-0", func(p *api.Pod) { p.OwnerReferences = own })
	_ = w.c.CreateControllerRevision(&api.ControllerRevision{ObjectMeta: api.ObjectMeta{Name: "ds-1", Namespace: "default", OwnerReferences: own}})
	w.advance(5 * time.Second)
	if w.c.Pod("default", "child") == nil {
		t.Fatal("child collected while its owner exists")
	}
	_ = w.c.RemoveDaemonSet("default", "ds")
	w.advance(10 * time.Second)
	if w.c.Pod("default", "child") != nil || len(w.c.ControllerRevisions()) != 0 {
		t.Error("dependents of a deleted owner remain")
	}

	// orphan propagation
	ds2 := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds2", Namespace: "default", Finalizers: []string{FinalizerOrphanDependents}}}
	_ = w.c.CreateDaemonSet(ds2)
	own2 := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds2", UID: ds2.UID, Controller: api.BoolPtr(true)}}
	kept := w.pod("kept", "node-0", func(p *api.Pod) { p.OwnerReferences = own2 })
	w.advance(5 * time.Second)
	now := w.c.Now()
	ds2.DeletionTimestamp = &now
	_ = w.c.UpdateDaemonSet(ds2)
	w.advance(5 * time.Second)
	if w.c.DaemonSet("default", "ds2") != nil || w.c.Pod("default", "kept") == nil || kept.ControllerRef() != nil {
		t.Error("orphan cascade wrong")
	}

	// foreground propagation: the DaemonSet goes after its pods
	ds3 := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds3", Namespace: "default", Finalizers: []string{FinalizerDeleteDependents}}}
	_ = w.c.CreateDaemonSet(ds3)
	own3 := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds3", UID: ds3.UID, Controller: api.BoolPtr(true)}}
	w.pod("fg", "node-0", func(p *api.Pod) { p.OwnerReferences = own3 })
	w.advance(5 * time.Second)
	now = w.c.Now()
	ds3.DeletionTimestamp = &now
	_ = w.c.UpdateDaemonSet(ds3)
	w.settle()
	if w.c.DaemonSet("default", "ds3") == nil || w.c.Pod("default", "fg").DeletionTimestamp == nil {
		t.Fatal("foreground: DaemonSet should wait for its terminating pod")
	}
	w.advance(5 * time.Second)
	if w.c.DaemonSet("default", "ds3") != nil || w.c.Pod("default", "fg") != nil {
		t.Error("foreground deletion did not finish")
	}
}
