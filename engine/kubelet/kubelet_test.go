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
		// event times are metav1.Time: whole seconds (cluster.stamp)
		fmt.Sprintf("+%s Created spec.containers{app}: Container created", d.Truncate(time.Second)),
		fmt.Sprintf("+%s Started spec.containers{app}: Container started", d.Truncate(time.Second)),
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
	// Containers keep running, and stay ready, until they have stopped:
	// kubectl shows READY 1/1 STATUS Terminating.
	if !p.IsReady() || !p.Status.ContainerStatuses[0].Ready || p.Status.ContainerStatuses[0].State.Running == nil {
		t.Error("not ready while its containers are still stopping")
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
	if !p.IsReady() {
		t.Error("readiness dropped before the containers stopped")
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
	if q.IsReady() {
		t.Error("a pod kept by a finalizer is still ready after its containers stopped")
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
	// the restarted kubelet posts every condition afresh, in its own words
	for _, want := range cluster.HealthyNodeConditions() {
		c := n.Condition(want.Type)
		if c.Status != want.Status || c.Reason != want.Reason || c.Message != want.Message || c.LastHeartbeatTime.IsZero() {
			t.Errorf("after recovery %s = %+v", want.Type, c)
		}
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
	gone := w.pod("on-gone-node", "node-1", nil)
	w.advance(5 * time.Second)
	_ = w.c.DeleteNode("node-1")
	w.settle()
	// gcOrphaned quarantine: the pod stays, Running as last reported, for 40s.
	w.advance(PodGCQuarantine - step)
	if w.c.Pod("default", "on-gone-node") == nil || gone.Status.Phase != api.PodRunning {
		t.Fatal("pod on a deleted node collected before the 40s quarantine")
	}
	w.advance(step)
	if w.c.Pod("default", "on-gone-node") != nil {
		t.Error("pod on a deleted node not collected after the quarantine")
	}
	if c := gone.Condition(DisruptionTarget); gone.Status.Phase != api.PodFailed || c == nil || c.Reason != "DeletionByPodGC" || c.Message != "PodGC: node no longer exists" {
		t.Errorf("collected pod status %+v", gone.Status)
	}
	var why []string
	for _, d := range w.c.Decisions(0) {
		if d.Func == "gcOrphaned" {
			why = append(why, d.Action+" "+d.Object+": "+d.Reason)
		}
	}
	wantWhy := []string{
		"quarantine Node/node-1: node node-1 no longer exists but 1 pod(s) are still bound to it: they are kept for the 40s quarantine (the node may come back) and deleted after",
		"delete Pod/default/on-gone-node: the pod is bound to node node-1, which has been gone for 40s (quarantine 40s): marked Failed (DeletionByPodGC) and force-deleted",
	}
	if strings.Join(why, "\n") != strings.Join(wantWhy, "\n") {
		t.Errorf("decisions:\n%s", strings.Join(why, "\n"))
	}
	// A node that comes back within the quarantine keeps its pods.
	w.pod("back", "node-0", nil)
	w.advance(5 * time.Second)
	_ = w.c.DeleteNode("node-0")
	w.advance(10 * time.Second)
	_ = w.c.CreateNode(w.c.NewNode("node-0", 0, cluster.NodeOptions{}))
	w.advance(time.Minute)
	if w.c.Pod("default", "back") == nil {
		t.Error("pod collected although its node came back within the quarantine")
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

// TestAllocateIPRotates checks host-local's rotation: the next address after
// the last one handed out, wrapping to .2, skipping addresses in use.
func TestAllocateIPRotates(t *testing.T) {
	w := newWorld(t, "node-0")
	n := w.c.Node("node-0")
	n.Spec.PodCIDR = "10.244.9.0/29" // usable .2 - .6 (.7 is the broadcast)
	_ = w.c.UpdateNode(n)
	var got []string
	for i := 0; i < 7; i++ {
		p := w.pod(fmt.Sprintf("p%d", i), "node-0", nil)
		w.advance(10 * time.Second)
		got = append(got, p.Status.PodIP)
		if i == 1 || i == 4 {
			// free an address behind the cursor: it is reused only after the wrap
			if err := w.c.RemovePod("default", fmt.Sprintf("p%d", i-1)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// p0 .2, p1 .3 (p0 freed), p2 .4, p3 .5, p4 .6 (p3 freed), p5 wraps to .2,
	// p6 skips .3 and .4 (in use) and takes .5.
	want := "10.244.9.2 10.244.9.3 10.244.9.4 10.244.9.5 10.244.9.6 10.244.9.2 10.244.9.5"
	if strings.Join(got, " ") != want {
		t.Errorf("IPs %v\nwant %s", got, want)
	}
	// A pod recreated on the node gets a new address, not the freed one.
	for _, name := range []string{"p4", "p6"} {
		if err := w.c.RemovePod("default", name); err != nil {
			t.Fatal(err)
		}
	}
	p := w.pod("p6", "node-0", nil)
	w.advance(10 * time.Second)
	if p.Status.PodIP != "10.244.9.6" {
		t.Errorf("recreated pod IP %s, want 10.244.9.6 (the next after its old .5)", p.Status.PodIP)
	}
}

// TestKubeletAdmission checks predicateAdmitHandler.Admit for pods bound by
// spec.nodeName (never seen by the scheduler): each case creates the
// pods in order on a small node; the last one is judged.
func TestKubeletAdmission(t *testing.T) {
	res := func(cpu, mem string) func(p *api.Pod) {
		return func(p *api.Pod) {
			r := api.ResourceList{}
			if cpu != "" {
				r[api.ResourceCPU] = api.MustParseQuantity(cpu)
			}
			if mem != "" {
				r[api.ResourceMemory] = api.MustParseQuantity(mem)
			}
			p.Spec.Containers[0].Resources.Requests = r
		}
	}
	port := func(n int32) func(p *api.Pod) {
		return func(p *api.Pod) {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: n}}
		}
	}
	tests := []struct {
		name          string
		first         []func(p *api.Pod) // pods admitted before, in order
		last          func(p *api.Pod)
		reason, event string
	}{
		{name: "fits", first: []func(*api.Pod){res("500m", "50Mi")}, last: res("500m", "50Mi")},
		{name: "memory", last: res("", "1Gi"), reason: "OutOfmemory",
			event: "Node didn't have enough resource: memory, requested: 1073741824, used: 0, capacity: 104857600"},
		{name: "memory used by admitted pods", first: []func(*api.Pod){res("", "60Mi")}, last: res("", "60Mi"), reason: "OutOfmemory",
			event: "Node didn't have enough resource: memory, requested: 62914560, used: 62914560, capacity: 104857600"},
		{name: "cpu before memory", last: res("2", "1Gi"), reason: "OutOfcpu",
			event: "Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000"},
		{name: "pods", first: []func(*api.Pod){nil, nil}, last: nil, reason: "OutOfpods",
			event: "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2"},
		{name: "host port", first: []func(*api.Pod){port(8080)}, last: port(8080), reason: "NodePorts",
			event: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports"},
		{name: "other host port", first: []func(*api.Pod){port(8080)}, last: port(8081)},
		{name: "untolerated NoExecute taint", last: func(p *api.Pod) {}, reason: "TaintToleration",
			event: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cluster.New(1)
			n := c.NewNode("small", 0, cluster.NodeOptions{CPU: "1", Memory: "100Mi", Pods: "2"})
			if tt.name == "untolerated NoExecute taint" {
				n.Spec.Taints = []api.Taint{{Key: "maintenance", Effect: api.TaintEffectNoExecute}}
			}
			if err := c.CreateNode(n); err != nil {
				t.Fatal(err)
			}
			k := New(c)
			w := &world{t: t, c: c, k: k, nl: NewNodeLifecycle(c, k), te: NewTaintEviction(c), pg: NewPodGC(c), gc: NewGarbageCollector(c)}
			if tt.name == "untolerated NoExecute taint" {
				w.te = NewTaintEviction(cluster.New(2)) // keep the eviction controller out of the way
			}
			for i, mut := range tt.first {
				w.pod(fmt.Sprintf("first-%d", i), "small", mut)
				w.advance(time.Second)
			}
			p := w.pod("last", "small", tt.last)
			w.advance(10 * time.Second)
			if tt.reason == "" {
				if p.Status.Phase != api.PodRunning {
					t.Fatalf("phase %s reason %s: %s", p.Status.Phase, p.Status.Reason, p.Status.Message)
				}
				return
			}
			if p.Status.Phase != api.PodFailed || p.Status.Reason != tt.reason || p.Status.Message != "Pod was rejected: "+tt.event {
				t.Errorf("status phase=%s reason=%s message=%q", p.Status.Phase, p.Status.Reason, p.Status.Message)
			}
			if p.Status.StartTime != nil || p.Status.PodIP != "" || len(p.Status.ContainerStatuses) != 0 {
				t.Errorf("a rejected pod was started: %+v", p.Status)
			}
			if got, want := strings.Join(events(c, p), "\n"), tt.reason+" "+tt.event; !strings.HasSuffix(got, want) {
				t.Errorf("events:\n%s\nwant the Warning %s", got, want)
			}
			var warn *api.Event
			for _, e := range c.EventsFor("Pod", p.UID) {
				if e.Reason == tt.reason {
					warn = e
				}
			}
			if warn == nil || warn.Type != api.EventTypeWarning || warn.Source.Component != cluster.ComponentKubelet || warn.Source.Host != "small" {
				t.Errorf("rejection event %+v", warn)
			}
			rv := c.ResourceVersion()
			w.advance(time.Minute)
			if c.ResourceVersion() != rv {
				t.Error("the kubelet writes again about a rejected pod")
			}
		})
	}
}

// TestNodeEvents checks the events a real cluster shows in describe node:
// the kubelet's startup events (involvedObject UID = the node's name), the
// node controller's RegisteredNode (the node's real UID), NodeReady, and
// NodeNotSchedulable / NodeSchedulable on cordon and uncordon.
func TestNodeEvents(t *testing.T) {
	w := newWorld(t, "node-0")
	n := w.c.Node("node-0")
	w.settle()
	n.Spec.Unschedulable = true
	_ = w.c.UpdateNode(n)
	w.advance(time.Second)
	n.Spec.Unschedulable = false
	_ = w.c.UpdateNode(n)
	w.advance(time.Second)
	var got []string
	for _, e := range w.c.Events() {
		if e.InvolvedObject.Kind != "Node" {
			continue
		}
		uid := "name"
		if e.InvolvedObject.UID == n.UID {
			uid = "uid"
		}
		got = append(got, fmt.Sprintf("+%s %s %s %s(%s) [%s] %s", e.FirstTimestamp.Sub(cluster.Epoch), e.Type, e.Reason, e.Source.Component, e.Source.Host, uid, e.Message))
	}
	want := []string{
		"+0s Normal Starting kubelet(node-0) [name] Starting kubelet.",
		"+0s Normal NodeHasSufficientMemory kubelet(node-0) [name] Node node-0 status is now: NodeHasSufficientMemory",
		"+0s Normal NodeHasNoDiskPressure kubelet(node-0) [name] Node node-0 status is now: NodeHasNoDiskPressure",
		"+0s Normal NodeHasSufficientPID kubelet(node-0) [name] Node node-0 status is now: NodeHasSufficientPID",
		"+0s Normal NodeAllocatableEnforced kubelet(node-0) [name] Updated Node Allocatable limit across pods",
		"+0s Normal RegisteredNode node-controller() [uid] Node node-0 event: Registered Node node-0 in Controller",
		"+0s Normal NodeReady kubelet(node-0) [name] Node node-0 status is now: NodeReady",
		"+0s Normal NodeNotSchedulable kubelet(node-0) [name] Node node-0 status is now: NodeNotSchedulable",
		"+1s Normal NodeSchedulable kubelet(node-0) [name] Node node-0 status is now: NodeSchedulable",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("node events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rv := w.c.ResourceVersion()
	w.advance(time.Hour - 2*time.Second)
	if w.c.ResourceVersion() != rv {
		t.Error("node events re-recorded while nothing changed")
	}
	// A node registered again under the same name (new UID) starts afresh.
	_ = w.c.DeleteNode("node-0")
	w.k.Forget("node-0")
	_ = w.c.CreateNode(w.c.NewNode("node-0", 0, cluster.NodeOptions{}))
	w.settle()
	starts := 0
	for _, e := range w.c.Events() {
		if e.Reason == "Starting" && e.InvolvedObject.Name == "node-0" && e.LastTimestamp.Equal(w.c.Now()) {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("the re-registered node recorded %d Starting events now, want 1", starts)
	}
}
