package scheduler

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func q(s string) api.Quantity { return api.MustParseQuantity(s) }

func newCluster(t *testing.T, nodes ...string) *cluster.Cluster {
	c := cluster.New(1)
	for i, n := range nodes {
		if err := c.CreateNode(c.NewNode(n, i, cluster.NodeOptions{CPU: "1", Memory: "1Gi", Pods: "3"})); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func pinned(node string) *api.Affinity {
	return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{node}}}}}}}}
}

func addPod(t *testing.T, c *cluster.Cluster, name string, mut func(p *api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "img"}}}}
	if mut != nil {
		mut(p)
	}
	if err := c.CreatePod(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func requests(cpu, mem string) func(p *api.Pod) {
	return func(p *api.Pod) {
		rl := api.ResourceList{}
		if cpu != "" {
			rl["cpu"] = q(cpu)
		}
		if mem != "" {
			rl["memory"] = q(mem)
		}
		p.Spec.Containers[0].Resources.Requests = rl
	}
}

func TestBindDaemonPod(t *testing.T) {
	c := newCluster(t, "a", "b", "c")
	p := addPod(t, c, "ds-x", func(p *api.Pod) { p.Spec.Affinity = pinned("b") })
	New(c).Schedule()
	if p.Spec.NodeName != "b" {
		t.Fatalf("bound to %q", p.Spec.NodeName)
	}
	cond := p.Condition(api.PodScheduled)
	if cond == nil || cond.Status != api.ConditionTrue {
		t.Errorf("PodScheduled = %+v", cond)
	}
	evs := c.EventsFor("Pod", p.UID)
	if len(evs) != 1 || evs[0].Reason != "Scheduled" || evs[0].Message != "Successfully assigned default/ds-x to b" || evs[0].Source.Component != "default-scheduler" {
		t.Errorf("events = %+v", evs)
	}
}

func TestOtherSchedulerIgnored(t *testing.T) {
	c := newCluster(t, "a")
	p := addPod(t, c, "x", func(p *api.Pod) { p.Spec.SchedulerName = "my-scheduler" })
	New(c).Schedule()
	if p.Spec.NodeName != "" || len(p.Status.Conditions) != 0 {
		t.Errorf("pod touched: %+v", p)
	}
}

// §3.2-3.4: filter reasons and the FitError message.
func TestFitErrors(t *testing.T) {
	cases := []struct {
		name  string
		setup func(c *cluster.Cluster)
		pod   func(p *api.Pod)
		want  string
	}{
		{"daemon pod, node short of memory", func(c *cluster.Cluster) {
			addPod(t, c, "hog", func(p *api.Pod) { p.Spec.NodeName = "b"; requests("", "900Mi")(p) })
		}, func(p *api.Pod) { p.Spec.Affinity = pinned("b"); requests("", "200Mi")(p) },
			"0/3 nodes are available: 1 Insufficient memory, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."},
		// requests beyond the node's allocatable: preemption cannot help
		// (fitsRequest's Unresolvable)
		{"cpu and memory both short", nil, func(p *api.Pod) { p.Spec.Affinity = pinned("a"); requests("2", "2Gi")(p) },
			"0/3 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
		{"too many pods", func(c *cluster.Cluster) {
			for i := 0; i < 3; i++ {
				addPod(t, c, fmt.Sprintf("p%d", i), func(p *api.Pod) { p.Spec.NodeName = "c" })
			}
		}, func(p *api.Pod) { p.Spec.Affinity = pinned("c") },
			"0/3 nodes are available: 1 Too many pods, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."},
		{"terminal pods do not count", func(c *cluster.Cluster) {
			for i := 0; i < 3; i++ {
				addPod(t, c, fmt.Sprintf("p%d", i), func(p *api.Pod) { p.Spec.NodeName = "c"; p.Status.Phase = api.PodSucceeded })
			}
		}, func(p *api.Pod) { p.Spec.Affinity = pinned("c") }, ""},
		{"host port clash", func(c *cluster.Cluster) {
			addPod(t, c, "web", func(p *api.Pod) {
				p.Spec.NodeName = "a"
				p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
			})
		}, func(p *api.Pod) {
			p.Spec.Affinity = pinned("a")
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
		}, "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."},
		{"different host port is fine", func(c *cluster.Cluster) {
			addPod(t, c, "web", func(p *api.Pod) {
				p.Spec.NodeName = "a"
				p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080}}
			})
		}, func(p *api.Pod) {
			p.Spec.Affinity = pinned("a")
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8081}}
		}, ""},
		{"bare pod: taint, cordon, selector", func(c *cluster.Cluster) {
			a := c.Node("a")
			a.Spec.Taints = []api.Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}}
			c.Node("b").Spec.Unschedulable = true
		}, func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} },
			"0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
		{"NoExecute taint also filters", func(c *cluster.Cluster) {
			for _, n := range []string{"a", "b", "c"} {
				c.Node(n).Spec.Taints = []api.Taint{{Key: "k", Effect: "NoExecute"}}
			}
		}, nil, "0/3 nodes are available: 3 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
		{"PreferNoSchedule does not filter", func(c *cluster.Cluster) {
			for _, n := range []string{"a", "b", "c"} {
				c.Node(n).Spec.Taints = []api.Taint{{Key: "k", Effect: "PreferNoSchedule"}}
			}
		}, nil, ""},
		{"cordoned node tolerated", func(c *cluster.Cluster) { c.Node("a").Spec.Unschedulable = true }, func(p *api.Pod) {
			p.Spec.Affinity = pinned("a")
			p.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeUnschedulable, Operator: "Exists", Effect: "NoSchedule"}}
		}, ""},
		{"pinned to a missing node", nil, func(p *api.Pod) { p.Spec.Affinity = pinned("zz") },
			"0/3 nodes are available: 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
		{"init container request counts when larger", nil, func(p *api.Pod) {
			p.Spec.Affinity = pinned("a")
			p.Spec.InitContainers = []api.Container{{Name: "init", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": q("1500m")}}}}
		}, "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster(t, "a", "b", "c")
			if tc.setup != nil {
				tc.setup(c)
			}
			p := addPod(t, c, "pending", tc.pod)
			New(c).Schedule()
			cond := p.Condition(api.PodScheduled)
			if tc.want == "" {
				if p.Spec.NodeName == "" {
					t.Fatalf("not bound: %+v", cond)
				}
				return
			}
			if p.Spec.NodeName != "" {
				t.Fatalf("bound to %s", p.Spec.NodeName)
			}
			if cond == nil || cond.Status != api.ConditionFalse || cond.Reason != "Unschedulable" || cond.Message != tc.want {
				t.Errorf("PodScheduled = %+v\nwant message %s", cond, tc.want)
			}
			evs := c.EventsFor("Pod", p.UID)
			if len(evs) != 1 || evs[0].Type != "Warning" || evs[0].Reason != "FailedScheduling" || evs[0].Message != tc.want {
				t.Errorf("events = %+v", evs)
			}
		})
	}
}

func TestRetryOnlyAfterPlacementChange(t *testing.T) {
	c := newCluster(t, "a")
	s := New(c)
	p := addPod(t, c, "big", requests("", "2Gi"))
	s.Schedule()
	rv := c.ResourceVersion()
	s.Schedule()
	s.Schedule()
	if c.ResourceVersion() != rv {
		t.Fatal("an unschedulable pod was retried without a change")
	}
	// an unrelated change that frees nothing: retried, same message, no write
	n := c.Node("a")
	n.Labels["x"] = "y"
	_ = c.UpdateNode(n)
	rv = c.ResourceVersion()
	s.Schedule()
	if c.ResourceVersion() != rv {
		t.Error("same failure rewritten")
	}
	// a bigger node joins
	_ = c.CreateNode(c.NewNode("big", 5, cluster.NodeOptions{Memory: "8Gi"}))
	s.Schedule()
	if p.Spec.NodeName != "big" {
		t.Errorf("not bound after a node joined: %q", p.Spec.NodeName)
	}
}

func TestBarePodPlacement(t *testing.T) {
	c := newCluster(t, "a", "b", "c")
	addPod(t, c, "load", func(p *api.Pod) { p.Spec.NodeName = "a"; requests("500m", "")(p) })
	c.Node("b").Spec.Taints = []api.Taint{{Key: "k", Effect: "PreferNoSchedule"}}
	p := addPod(t, c, "bare", requests("100m", ""))
	New(c).Schedule()
	if p.Spec.NodeName != "c" {
		t.Errorf("bare pod went to %q, want c (a is loaded, b has a PreferNoSchedule taint)", p.Spec.NodeName)
	}
	// pods in the queue: higher priority first
	c2 := newCluster(t, "a")
	lo := addPod(t, c2, "lo", requests("600m", ""))
	hi := addPod(t, c2, "hi", func(p *api.Pod) { requests("600m", "")(p); p.Spec.PriorityClassName = "system-cluster-critical" })
	New(c2).Schedule()
	if hi.Spec.NodeName != "a" || lo.Spec.NodeName != "" {
		t.Errorf("hi=%q lo=%q", hi.Spec.NodeName, lo.Spec.NodeName)
	}
	if !strings.Contains(lo.Condition(api.PodScheduled).Message, "1 Insufficient cpu") {
		t.Errorf("lo message = %q", lo.Condition(api.PodScheduled).Message)
	}
}

func TestPodRequests(t *testing.T) {
	spec := api.PodSpec{
		Containers: []api.Container{
			{Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": q("100m"), "memory": q("64Mi")}}},
			{Resources: api.ResourceRequirements{Limits: api.ResourceList{"cpu": q("200m")}}},
		},
		InitContainers: []api.Container{{Resources: api.ResourceRequirements{Requests: api.ResourceList{"memory": q("1Gi")}}}},
	}
	cpu, mem := PodRequests(&spec)
	if cpu != 300 || mem != q("1Gi").Milli {
		t.Errorf("cpu=%d mem=%d", cpu, mem)
	}
}

// TestUnschedulableRetriedEveryFiveMinutes: with nothing changing, a pod that
// does not fit is retried PodMaxInUnschedulablePodsDuration after each
// attempt (flushUnschedulablePodsLeftover); each retry bumps the one
// FailedScheduling event's count, and nothing is written between retries
// or twice at one instant.
func TestUnschedulableRetriedEveryFiveMinutes(t *testing.T) {
	c := newCluster(t, "a")
	p := addPod(t, c, "big", requests("4", ""))
	s := New(c)
	settle := func() {
		for i := 0; i < 10; i++ {
			rv := c.ResourceVersion()
			s.Schedule()
			if c.ResourceVersion() == rv {
				return
			}
		}
		t.Fatal("no fixed point")
	}
	settle()
	var wakes []string
	end := cluster.Epoch.Add(12 * time.Minute)
	for {
		at, ok := c.NextWakeup(end)
		if !ok {
			break
		}
		c.SetNow(at)
		rv := c.ResourceVersion()
		settle()
		if c.ResourceVersion() != rv {
			wakes = append(wakes, at.Sub(cluster.Epoch).String())
		}
	}
	eq := func(what string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	eq("retries that wrote", strings.Join(wakes, " "), "5m0s 10m0s")
	evs := c.EventsFor("Pod", p.UID)
	if len(evs) != 1 {
		t.Fatalf("events %+v", evs)
	}
	e := evs[0]
	eq("FailedScheduling count", e.Count, 3)
	eq("first seen", e.FirstTimestamp.Sub(cluster.Epoch), 0*time.Minute)
	eq("last seen", e.LastTimestamp.Sub(cluster.Epoch), 10*time.Minute)
	eq("message", e.Message, "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
	// The condition is written once: its lastProbeTime stays at the first attempt.
	eq("PodScheduled lastProbeTime", p.Condition(api.PodScheduled).LastProbeTime.Sub(cluster.Epoch), time.Duration(0))
}
