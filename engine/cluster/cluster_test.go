package cluster

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

func nodeNames(ns []*api.Node) string {
	var b []string
	for _, n := range ns {
		b = append(b, n.Name)
	}
	return strings.Join(b, ",")
}

func podNames(ps []*api.Pod) string {
	var b []string
	for _, p := range ps {
		b = append(b, p.Name)
	}
	return strings.Join(b, ",")
}

// TestNodeListingStaysSorted covers the cached node listing through
// creates (before and after the cache is built), replacements and deletes.
func TestNodeListingStaysSorted(t *testing.T) {
	c := New(1)
	for _, n := range []string{"b", "d"} {
		if err := c.CreateNode(c.NewNode(n, 0, NodeOptions{})); err != nil {
			t.Fatal(err)
		}
	}
	if got := nodeNames(c.Nodes()); got != "b,d" {
		t.Fatalf("nodes = %s", got)
	}
	for _, n := range []string{"c", "a", "e"} {
		c.CreateNode(c.NewNode(n, 0, NodeOptions{}))
	}
	if got := nodeNames(c.Nodes()); got != "a,b,c,d,e" {
		t.Fatalf("after inserts nodes = %s", got)
	}
	repl := c.NewNode("c", 9, NodeOptions{Labels: map[string]string{"x": "y"}})
	if err := c.UpdateNode(repl); err != nil {
		t.Fatal(err)
	}
	if got := c.Nodes()[2]; got != repl {
		t.Fatalf("replacement not in listing: %+v", got.Labels)
	}
	c.DeleteNode("a")
	list := c.Nodes()
	if got := nodeNames(list); got != "b,c,d,e" {
		t.Fatalf("after delete nodes = %s", got)
	}
	list[0] = nil // callers own their copy
	if c.Nodes()[0] == nil {
		t.Fatal("Nodes returned the cache itself")
	}
	if err := c.CreateNode(c.NewNode("b", 0, NodeOptions{})); !IsAlreadyExists(err) {
		t.Fatalf("duplicate create: %v", err)
	}
	if err := c.UpdateNode(c.NewNode("zz", 0, NodeOptions{})); !IsNotFound(err) {
		t.Fatalf("update missing: %v", err)
	}
}

// TestNodeVersion: node writes move NodeVersion, pod writes do not (they
// move PlacementVersion only).
func TestNodeVersion(t *testing.T) {
	c := New(1)
	step := func(what string, write func(), moves bool) {
		t.Helper()
		before := c.NodeVersion()
		write()
		if moved := c.NodeVersion() != before; moved != moves {
			t.Errorf("%s: NodeVersion moved = %v, want %v", what, moved, moves)
		}
	}
	step("create node", func() { c.CreateNode(c.NewNode("a", 0, NodeOptions{})) }, true)
	step("update node", func() { c.UpdateNode(c.Node("a")) }, true)
	step("create bound pod", func() { c.CreatePod(newPod("p", "a", "")) }, false)
	step("update pod", func() { c.UpdatePod(c.Pod("default", "p")) }, false)
	step("delete node", func() { c.DeleteNode("a") }, true)
}

// TestDeleteTerminatingPod mirrors BeforeDelete on a pod already being
// deleted: only an explicit, shorter grace period changes it, and the new
// deadline counts from when the deletion started, not from now.
func TestDeleteTerminatingPod(t *testing.T) {
	c := New(1)
	c.CreatePod(newPod("p", "n1", ""))
	t0 := c.Now()
	if err := c.DeletePod("default", "p", nil); err != nil {
		t.Fatal(err)
	}
	p := c.Pod("default", "p")
	check := func(what string, deadline time.Duration, grace int64) {
		t.Helper()
		if !p.DeletionTimestamp.Equal(t0.Add(deadline)) || *p.DeletionGracePeriodSeconds != grace {
			t.Errorf("%s: deletionTimestamp +%s grace %d, want +%s grace %d", what, p.DeletionTimestamp.Sub(t0), *p.DeletionGracePeriodSeconds, deadline, grace)
		}
	}
	check("first delete", 30*time.Second, 30)
	c.SetNow(t0.Add(10 * time.Second))
	rv := c.ResourceVersion()
	longer, shorter := int64(60), int64(15)
	c.DeletePod("default", "p", nil)
	c.DeletePod("default", "p", &longer)
	if check("no shorter grace", 30*time.Second, 30); c.ResourceVersion() != rv {
		t.Errorf("a delete that changes nothing wrote")
	}
	c.DeletePod("default", "p", &shorter)
	check("grace 15 at +10s", 15*time.Second, 15)
}

func newPod(name, node, owner string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{NodeName: node}}
	if owner != "" {
		p.OwnerReferences = []api.OwnerReference{{Kind: "DaemonSet", Name: "ds", UID: owner, Controller: api.BoolPtr(true)}}
	}
	return p
}

// TestPodIndexes covers the node and owner indexes and their cached
// listings as pods are created, rebound, re-owned, replaced and removed.
func TestPodIndexes(t *testing.T) {
	c := New(1)
	for _, p := range []*api.Pod{newPod("p3", "n1", "u1"), newPod("p1", "n1", "u1"), newPod("p2", "", "u2")} {
		if err := c.CreatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	check("all", podNames(c.Pods()), "p1,p2,p3")
	check("on n1", podNames(c.PodsOnNode("n1")), "p1,p3")
	check("unbound", podNames(c.PodsOnNode("")), "p2")
	check("owned u1", podNames(c.PodsOwnedBy("u1")), "p1,p3")
	keys := func() string {
		return strings.Join(c.PodNodeNames(), ",") + " / " + strings.Join(c.PodOwnerUIDs(), ",")
	}
	check("node names / owner UIDs", keys(), "n1 / u1,u2")

	p2 := c.Pod("default", "p2")
	p2.Spec.NodeName = "n1" // the scheduler binds it
	c.UpdatePod(p2)
	check("on n1 after bind", podNames(c.PodsOnNode("n1")), "p1,p2,p3")
	check("unbound after bind", podNames(c.PodsOnNode("")), "")
	p2.Spec.NodeName = "n2" // rebound (as a test can): a new node name
	c.UpdatePod(p2)
	check("node names after rebind", keys(), "n1,n2 / u1,u2")
	p2.OwnerReferences = nil
	c.UpdatePod(p2)
	check("owner UIDs after release", keys(), "n1,n2 / u1")
	p2.Spec.NodeName = "n1"
	p2.OwnerReferences = []api.OwnerReference{{Kind: "DaemonSet", Name: "ds", UID: "u2", Controller: api.BoolPtr(true)}}
	c.UpdatePod(p2)
	check("back on n1, owned by u2", keys(), "n1 / u1,u2")

	p1 := c.Pod("default", "p1")
	p1.OwnerReferences = nil // released
	c.UpdatePod(p1)
	check("owned u1 after release", podNames(c.PodsOwnedBy("u1")), "p3")
	check("orphans", podNames(c.PodsOwnedBy("")), "p1")

	repl := newPod("p3", "n1", "u1") // a new object for the same pod
	repl.Namespace = "default"
	c.UpdatePod(repl)
	if got := c.PodsOnNode("n1")[2]; got != repl {
		t.Error("listing kept the replaced pod object")
	}

	c.RemovePod("default", "p3")
	check("all after remove", podNames(c.Pods()), "p1,p2")
	check("owned u1 after remove", podNames(c.PodsOwnedBy("u1")), "")
	check("owner UIDs after remove", keys(), "n1 / u2")
	if err := c.RemovePod("default", "p3"); !IsNotFound(err) {
		t.Errorf("second remove: %v", err)
	}
}

// TestCreatePodDefaults: generated names use Kubernetes' alphabet, the
// DefaultTolerationSeconds admission adds the 300 s tolerations, and a pod
// that already tolerates not-ready/unreachable is left alone.
func TestCreatePodDefaults(t *testing.T) {
	c := New(7)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "fluentd-"}}
	if err := c.CreatePod(p); err != nil {
		t.Fatal(err)
	}
	suffix, ok := strings.CutPrefix(p.Name, "fluentd-")
	if !ok || len(suffix) != 5 || strings.Trim(suffix, nameAlphabet) != "" {
		t.Fatalf("generated name %q", p.Name)
	}
	if p.Namespace != "default" || p.Status.Phase != api.PodPending || p.UID == "" {
		t.Fatalf("defaults: %+v", p.ObjectMeta)
	}
	var got []string
	for _, tol := range p.Spec.Tolerations {
		got = append(got, fmt.Sprintf("%s:%s:%s:%d", tol.Key, tol.Operator, tol.Effect, *tol.TolerationSeconds))
	}
	want := "node.kubernetes.io/not-ready:Exists:NoExecute:300,node.kubernetes.io/unreachable:Exists:NoExecute:300"
	if strings.Join(got, ",") != want {
		t.Fatalf("tolerations = %v", got)
	}
	daemon := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "d"}, Spec: api.PodSpec{Tolerations: []api.Toleration{
		{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
		{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
	}}}
	c.CreatePod(daemon)
	if len(daemon.Spec.Tolerations) != 2 {
		t.Fatalf("daemon pod tolerations changed: %+v", daemon.Spec.Tolerations)
	}
	if err := c.CreatePod(&api.Pod{}); err == nil || !strings.Contains(err.Error(), "name or generateName is required") {
		t.Fatalf("nameless pod: %v", err)
	}
}

func TestDeterministicNames(t *testing.T) {
	a, b := New(3), New(3)
	for i := 0; i < 5; i++ {
		if x, y := a.GenerateName("ds-"), b.GenerateName("ds-"); x != y {
			t.Fatalf("same seed, different names %s %s", x, y)
		}
	}
	if got := New(3).GenerateName(strings.Repeat("x", 70)); len(got) != 63 {
		t.Fatalf("long base: %d chars", len(got))
	}
}

func TestWakeups(t *testing.T) {
	c := New(1)
	t0 := c.Now()
	c.WakeAt(t0) // not after now: ignored
	c.WakeAt(t0.Add(3 * time.Second))
	c.WakeAt(t0.Add(1 * time.Second))
	c.WakeAt(t0.Add(1 * time.Second))
	c.WakeAt(t0.Add(10 * time.Second))
	if got, ok := c.NextWakeup(t0.Add(5 * time.Second)); !ok || got != t0.Add(time.Second) {
		t.Fatalf("first wake-up %v %v", got, ok)
	}
	c.SetNow(t0.Add(time.Second))
	if got, ok := c.NextWakeup(t0.Add(5 * time.Second)); !ok || got != t0.Add(3*time.Second) {
		t.Fatalf("second wake-up %v %v (duplicates must collapse)", got, ok)
	}
	c.SetNow(t0.Add(3 * time.Second))
	if _, ok := c.NextWakeup(t0.Add(5 * time.Second)); ok {
		t.Fatal("wake-up beyond the limit returned")
	}
	if c.PendingWakeups() != 1 {
		t.Fatalf("pending = %d", c.PendingWakeups())
	}
	c.SetNow(t0) // backwards: ignored
	if c.Now() != t0.Add(3*time.Second) {
		t.Fatal("clock moved backwards")
	}
}

func TestEventAggregation(t *testing.T) {
	c := New(1)
	meta := &api.ObjectMeta{Name: "fluentd", Namespace: "default", UID: "u"}
	c.Record("DaemonSet", meta, "", api.EventTypeNormal, "SuccessfulCreate", "Created pod: a", ComponentDaemonSetController, "")
	c.SetNow(c.Now().Add(time.Minute))
	c.Record("DaemonSet", meta, "", api.EventTypeNormal, "SuccessfulCreate", "Created pod: a", ComponentDaemonSetController, "")
	c.Record("DaemonSet", meta, "", api.EventTypeNormal, "SuccessfulCreate", "Created pod: b", ComponentDaemonSetController, "")
	evs := c.EventsFor("DaemonSet", "u")
	if len(evs) != 2 {
		t.Fatalf("%d events", len(evs))
	}
	if e := evs[0]; e.Count != 2 || e.LastTimestamp.Sub(e.FirstTimestamp) != time.Minute || e.InvolvedObject.APIVersion != "apps/v1" {
		t.Fatalf("aggregated event %+v", e)
	}
}

func TestDecisionLogIsBounded(t *testing.T) {
	c := New(1)
	c.maxDecisions = 10
	for i := 0; i < 25; i++ {
		c.Decide(Decision{Action: fmt.Sprint(i)})
	}
	if len(c.decisions) > 10 {
		t.Fatalf("kept %d decisions", len(c.decisions))
	}
	all := c.Decisions(0)
	if last := all[len(all)-1]; last.Seq != 25 || last.Action != "24" {
		t.Fatalf("newest decision %+v", last)
	}
	if got := c.Decisions(23); len(got) != 2 {
		t.Fatalf("Decisions(23) = %d", len(got))
	}
}

func TestDefaultNodes(t *testing.T) {
	c := New(1)
	c.AddDefaultNodes()
	ns := c.Nodes()
	if nodeNames(ns) != "control-plane,node-1,node-2" {
		t.Fatalf("nodes %s", nodeNames(ns))
	}
	cp := ns[0]
	if _, ok := cp.Labels[api.LabelControlPlane]; !ok || len(cp.Spec.Taints) != 1 || cp.Spec.Taints[0].Key != api.LabelControlPlane || cp.Spec.Taints[0].Effect != api.TaintEffectNoSchedule {
		t.Fatalf("control-plane: %v %v", cp.Labels, cp.Spec.Taints)
	}
	for _, n := range ns {
		for _, k := range []string{api.LabelHostname, api.LabelOS, api.LabelArch, api.LabelOSBeta, api.LabelArchBeta} {
			if _, ok := n.Labels[k]; !ok {
				t.Errorf("%s lacks label %s", n.Name, k)
			}
		}
		if n.Labels[api.LabelHostname] != n.Name || n.Condition(api.NodeReady).Status != api.ConditionTrue {
			t.Errorf("%s: hostname label or Ready condition wrong", n.Name)
		}
	}
	if len(ns[1].Spec.Taints) != 0 {
		t.Errorf("node-1 tainted: %v", ns[1].Spec.Taints)
	}
}

// TestEventCorrelator covers client-go's aggregation, spam filter and the
// API server's TTL, which keep events bounded.
func TestEventCorrelator(t *testing.T) {
	meta := &api.ObjectMeta{Name: "fluentd", Namespace: "default", UID: "u"}
	rec := func(c *Cluster, msg string) {
		c.Record("DaemonSet", meta, "", api.EventTypeNormal, "SuccessfulCreate", msg, ComponentDaemonSetController, "")
	}
	t.Run("similar events are combined after ten", func(t *testing.T) {
		c := New(1)
		for i := 0; i < 15; i++ {
			rec(c, fmt.Sprintf("Created pod: p%d", i))
		}
		evs := c.EventsFor("DaemonSet", "u")
		if len(evs) != 10 {
			t.Fatalf("%d events, want 9 distinct + 1 combined", len(evs))
		}
		last := evs[len(evs)-1]
		if last.Message != "(combined from similar events): Created pod: p14" || last.Count != 6 {
			t.Fatalf("combined event: count %d message %q", last.Count, last.Message)
		}
	})
	t.Run("spam filter allows a burst of 25 then one per 5 minutes", func(t *testing.T) {
		c := New(1)
		for i := 0; i < 40; i++ {
			rec(c, "Created pod: same")
		}
		if e := c.EventsFor("DaemonSet", "u")[0]; e.Count != EventSpamBurst {
			t.Fatalf("count after burst = %d", e.Count)
		}
		c.SetNow(c.Now().Add(EventSpamRefill))
		rec(c, "Created pod: same")
		rec(c, "Created pod: same")
		if e := c.EventsFor("DaemonSet", "u")[0]; e.Count != EventSpamBurst+1 {
			t.Fatalf("count after refill = %d", e.Count)
		}
	})
	t.Run("events expire an hour after their last update", func(t *testing.T) {
		c := New(1)
		rec(c, "Created pod: a")
		c.SetNow(c.Now().Add(30 * time.Minute))
		rec(c, "Created pod: b")
		c.SetNow(c.Now().Add(40 * time.Minute))
		evs := c.Events()
		if len(evs) != 1 || evs[0].Message != "Created pod: b" {
			t.Fatalf("events after 70m: %d", len(evs))
		}
		rec(c, "Created pod: c") // sweeps the store
		if len(c.events) != 2 || len(c.eventIdx) != 2 {
			t.Fatalf("expired event still stored: %d events, %d keys", len(c.events), len(c.eventIdx))
		}
	})
	t.Run("memory stays bounded under churn", func(t *testing.T) {
		c := New(1)
		for i := 0; i < 20000; i++ {
			c.SetNow(c.Now().Add(3 * time.Second))
			m := &api.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default", UID: fmt.Sprint(i)}
			c.Record("Pod", m, "", api.EventTypeNormal, "TaintManagerEviction", "Marking for deletion Pod default/"+m.Name, ComponentTaintEviction, "")
			rec(c, "Created pod: "+m.Name)
		}
		if n := len(c.events); n > 1300 {
			t.Fatalf("%d events kept after 16h of churn", n)
		}
		if len(c.eventAgg) > 400 || len(c.eventSpam) > 3000 {
			t.Fatalf("caches grew: agg %d spam %d", len(c.eventAgg), len(c.eventSpam))
		}
	})
}

// TestPodCIDR: small clusters get kind's 10.244.N.0/24; thousands of nodes
// still get valid, distinct subnets.
func TestPodCIDR(t *testing.T) {
	if got := PodCIDR(0); got != "10.244.0.0/24" {
		t.Errorf("PodCIDR(0) = %s", got)
	}
	if got := PodCIDR(255); got != "10.244.255.0/24" {
		t.Errorf("PodCIDR(255) = %s", got)
	}
	seen := map[string]bool{}
	for i := 0; i < 8192; i++ {
		c := PodCIDR(i)
		var a, b int
		if _, err := fmt.Sscanf(c, "10.%d.%d.0/24", &a, &b); err != nil || a < 224 || a > 255 || b > 255 || seen[c] {
			t.Fatalf("PodCIDR(%d) = %s: invalid or repeated", i, c)
		}
		seen[c] = true
	}
}

// TestNodeOptionsValidate: what a registering kubelet's Node would be
// refused for, each with its field.
func TestNodeOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    NodeOptions
		want string // "" = valid
	}{
		{"node-1", NodeOptions{}, ""},
		{"w-1", NodeOptions{CPU: "500m", Memory: "8Gi", Pods: "20", Labels: map[string]string{"disk": "ssd", "example.com/gpu": ""}, Taints: []api.Taint{{Key: "gpu", Value: "true", Effect: "NoSchedule"}}}, ""},
		{"node-1", NodeOptions{CPU: "abc"}, `status.capacity.cpu: Invalid value: "abc": quantities must match`},
		{"node-1", NodeOptions{Memory: "4 GB"}, `status.capacity.memory: Invalid value: "4 GB"`},
		{"Node_1", NodeOptions{}, `metadata.name: Invalid value: "Node_1"`},
		{"", NodeOptions{}, `metadata.name: Invalid value: ""`},
		{"node-1", NodeOptions{Labels: map[string]string{"bad key": "x"}}, `metadata.labels: Invalid value: "bad key"`},
		{"node-1", NodeOptions{Taints: []api.Taint{{Key: "k", Effect: "Sometimes"}}}, `spec.taints[0].effect: Unsupported value: "Sometimes"`},
	} {
		err := tc.o.Validate(tc.name)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q %+v: %v", tc.name, tc.o, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q %+v: error %v, want %q", tc.name, tc.o, err, tc.want)
		}
	}
}
