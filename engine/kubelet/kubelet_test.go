package kubelet

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// world runs the kubelets alone on a store, pass after pass. The tests of
// what the kubelets and the controllers do together (taints from
// conditions, registration events) use engine/internal/componenttest.
type world struct {
	t *testing.T
	c *cluster.Cluster
	k *Kubelets
}

func newWorld(t *testing.T, nodes ...string) *world {
	c := cluster.New(1)
	for i, n := range nodes {
		if err := c.CreateNode(c.NewNode(n, i, cluster.NodeOptions{})); err != nil {
			t.Fatal(err)
		}
	}
	k := New(c)
	k.Registry.Preload(testImages...)
	return &world{t: t, c: c, k: k}
}

// testImages are preloaded on the test worlds' nodes: the tests' pods use
// imagePullPolicy Never with them to start without a pull.
var testImages = []string{"nginx:1.27", "busybox:1.36", "busybox", "alpine:3.20", "example.com/agent:1"}

func (w *world) settle() {
	for i := 0; i < 50; i++ {
		rv := w.c.ResourceVersion()
		w.k.Sync()
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
			// the kubelet alone: no taint eviction controller deletes the pod
			w := &world{t: t, c: c, k: New(c)}
			w.k.Registry.Preload(testImages...)
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
