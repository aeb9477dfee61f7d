package scheduler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func class(name string) func(p *api.Pod) {
	return func(p *api.Pod) { p.Spec.PriorityClassName = name }
}

// neverPreemptAnnotation marks a case whose pending pod gets
// preemptionPolicy Never once admitted.
const neverPreemptAnnotation = "test.dsplay/never-preempt"

func neverPreempt(p *api.Pod) { p.Annotations = map[string]string{neverPreemptAnnotation: "true"} }

func all(fs ...func(p *api.Pod)) func(p *api.Pod) {
	return func(p *api.Pod) {
		for _, f := range fs {
			if f != nil {
				f(p)
			}
		}
	}
}

func on(node string) func(p *api.Pod) { return func(p *api.Pod) { p.Spec.NodeName = node } }

// TestPreemption mirrors the DefaultPreemption cases of
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
// (TestPostFilter, TestSelectBestCandidate) on the simulated cluster: which
// pods are preempted, where the preemptor is nominated, and the
// FailedScheduling message when preemption cannot help.
func TestPreemption(t *testing.T) {
	cases := []struct {
		name      string
		nodes     []string
		setup     func(c *cluster.Cluster)
		pod       func(p *api.Pod)
		victims   []string // preempted pods, sorted
		nominated string
		msg       string
	}{
		{"system-node-critical daemon pod preempts a bare pod", []string{"a", "b", "c"}, func(c *cluster.Cluster) {
			addPod(t, c, "web", all(on("a"), requests("800m", "")))
		}, all(func(p *api.Pod) { p.Spec.Affinity = pinned("a") }, class("system-node-critical"), requests("500m", "")),
			[]string{"web"}, "a",
			"0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."},
		{"victims are minimal: the higher-priority pod is reprieved first", []string{"a"}, func(c *cluster.Cluster) {
			addPod(t, c, "x-critical", all(on("a"), requests("400m", ""), class("system-cluster-critical")))
			addPod(t, c, "y", all(on("a"), requests("400m", "")))
			addPod(t, c, "z", all(on("a"), requests("50m", "")))
		}, all(class("system-node-critical"), requests("500m", "")),
			[]string{"y"}, "a", "0/1 nodes are available: 1 Insufficient cpu, 1 Too many pods."},
		{"the node whose highest victim priority is lowest wins", []string{"a", "b"}, func(c *cluster.Cluster) {
			addPod(t, c, "on-a", all(on("a"), requests("800m", ""), class("system-cluster-critical")))
			addPod(t, c, "on-b", all(on("b"), requests("800m", "")))
		}, all(class("system-node-critical"), requests("500m", "")),
			[]string{"on-b"}, "b", "0/2 nodes are available: 2 Insufficient cpu."},
		{"fewer victims of equal priority win", []string{"a", "b"}, func(c *cluster.Cluster) {
			addPod(t, c, "a1", all(on("a"), requests("450m", "")))
			addPod(t, c, "a2", all(on("a"), requests("450m", "")))
			addPod(t, c, "b1", all(on("b"), requests("900m", "")))
		}, all(class("system-node-critical"), requests("900m", "")),
			[]string{"b1"}, "b", "0/2 nodes are available: 2 Insufficient cpu."},
		{"host port held by a lower-priority pod", []string{"a"}, func(c *cluster.Cluster) {
			addPod(t, c, "web", all(on("a"), func(p *api.Pod) { p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 80}} }))
		}, all(class("system-node-critical"), func(p *api.Pod) {
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 9100, HostPort: 80}}
		}),
			[]string{"web"}, "a", "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports."},
		{"equal priority: no victims", []string{"a"}, func(c *cluster.Cluster) {
			addPod(t, c, "web", all(on("a"), requests("800m", "")))
		}, requests("500m", ""), nil, "",
			"0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{"removing every lower-priority pod is not enough", []string{"a", "b"}, func(c *cluster.Cluster) {
			// the equal-priority pod stays: without the other it still does not fit
			addPod(t, c, "keep", all(on("a"), requests("700m", ""), class("system-node-critical")))
			addPod(t, c, "web", all(on("a"), requests("200m", "")))
			c.Node("b").Spec.Taints = []api.Taint{{Key: "k", Effect: "NoSchedule"}}
		}, all(class("system-node-critical"), requests("500m", "")), nil, "",
			"0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 1 Insufficient cpu, 1 Preemption is not helpful for scheduling."},
		{"preemptionPolicy Never", []string{"a"}, func(c *cluster.Cluster) {
			addPod(t, c, "web", all(on("a"), requests("800m", "")))
		}, all(class("system-node-critical"), requests("500m", ""), neverPreempt), nil, "",
			"0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never."},
		{"too many pods: one victim frees a slot", []string{"a"}, func(c *cluster.Cluster) {
			for i := 0; i < 3; i++ {
				addPod(t, c, fmt.Sprintf("p%d", i), on("a"))
			}
		}, class("system-node-critical"), []string{"p2"}, "a", "0/1 nodes are available: 1 Too many pods."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster(t, tc.nodes...)
			if tc.setup != nil {
				tc.setup(c)
			}
			p := addPod(t, c, "pending", tc.pod)
			if p.Annotations[neverPreemptAnnotation] == "true" {
				// Only a PriorityClass with preemptionPolicy: Never gives a
				// pod that policy (the Priority admission plugin refuses it
				// in the spec), and the playground has only the built-in
				// classes: set it on the admitted pod.
				never := PreemptNever
				p.Spec.PreemptionPolicy = &never
			}
			New(c).Schedule()
			if p.Spec.NodeName != "" {
				t.Fatalf("bound to %s", p.Spec.NodeName)
			}
			var victims []string
			for _, q := range c.Pods() {
				if q.DeletionTimestamp == nil {
					continue
				}
				victims = append(victims, q.Name)
				dt := q.Condition(ConditionDisruptionTarget)
				if dt == nil || dt.Reason != ReasonPreemptionByScheduler || dt.Message != "default-scheduler: preempting to accommodate a higher priority pod" {
					t.Errorf("%s: DisruptionTarget = %+v", q.Name, dt)
				}
				evs := c.EventsFor("Pod", q.UID)
				want := fmt.Sprintf("Preempted by pod %s on node %s", p.UID, tc.nominated)
				if len(evs) != 1 || evs[0].Reason != "Preempted" || evs[0].Message != want || evs[0].Source.Component != "default-scheduler" {
					t.Errorf("%s: events = %+v, want Preempted %q", q.Name, evs, want)
				}
			}
			if strings.Join(victims, ",") != strings.Join(tc.victims, ",") {
				t.Errorf("victims = %v, want %v", victims, tc.victims)
			}
			if p.Status.NominatedNodeName != tc.nominated {
				t.Errorf("nominatedNodeName = %q, want %q", p.Status.NominatedNodeName, tc.nominated)
			}
			evs := c.EventsFor("Pod", p.UID)
			if len(evs) != 1 || evs[0].Reason != "FailedScheduling" || evs[0].Message != tc.msg {
				t.Errorf("preemptor events = %+v\nwant FailedScheduling %q", evs, tc.msg)
			}
		})
	}
}

// TestPreemptorBindsOnceVictimsAreGone: while the victim terminates the
// preemptor waits (no new attempt, no event); once the victim is removed it
// binds to its nominated node, and lower-priority pods do not take the room.
func TestPreemptorBindsOnceVictimsAreGone(t *testing.T) {
	c := newCluster(t, "a")
	s := New(c)
	victim := addPod(t, c, "web", all(on("a"), requests("800m", "")))
	p := addPod(t, c, "agent", all(class("system-node-critical"), requests("500m", "")))
	s.Schedule()
	if victim.DeletionTimestamp == nil || p.Status.NominatedNodeName != "a" {
		t.Fatalf("no preemption: victim %v nominated %q", victim.DeletionTimestamp, p.Status.NominatedNodeName)
	}
	// A low-priority pod arriving meanwhile must not take the freed room.
	late := addPod(t, c, "late", requests("600m", ""))
	s.Schedule()
	if n := len(c.EventsFor("Pod", p.UID)); n != 1 {
		t.Errorf("preemptor retried while its victim terminates: %d events", n)
	}
	if err := c.RemovePod(victim.Namespace, victim.Name); err != nil {
		t.Fatal(err)
	}
	s.Schedule()
	if p.Spec.NodeName != "a" || p.Status.NominatedNodeName != "" {
		t.Errorf("preemptor: node %q nominated %q", p.Spec.NodeName, p.Status.NominatedNodeName)
	}
	if late.Spec.NodeName != "" {
		t.Errorf("late low-priority pod took the room on %s", late.Spec.NodeName)
	}
}

// TestNominatedPodsHoldTheirRoom mirrors RunFilterPluginsWithNominatedPods
// (addGENominatedPods): a pod nominated to a node counts there for pods of
// lower or equal priority, not for itself and not for pods of higher
// priority.
func TestNominatedPodsHoldTheirRoom(t *testing.T) {
	c := newCluster(t, "a")
	nominated := addPod(t, c, "nominated", all(class("system-cluster-critical"), requests("600m", "")))
	nominated.Status.NominatedNodeName = "a"
	low := addPod(t, c, "low", requests("600m", ""))
	same := addPod(t, c, "same", all(class("system-cluster-critical"), requests("600m", "")))
	high := addPod(t, c, "high", all(class("system-node-critical"), requests("600m", "")))
	s := New(c)
	cy := &cycle{s: s, nodes: c.Nodes(), infos: map[string]*nodeInfo{}, nominated: map[string][]*api.Pod{"a": {nominated}}}
	for _, tc := range []struct {
		p    *api.Pod
		fits bool
	}{{nominated, true}, {low, false}, {same, false}, {high, true}} {
		cpu, mem := PodRequests(&tc.p.Spec)
		st := s.filter(cy, tc.p, c.Node("a"), api.GetRequiredNodeAffinity(&tc.p.Spec), cpu, mem, nil)
		if (st.reasons == nil) != tc.fits {
			t.Errorf("%s: reasons %v, want fits=%v", tc.p.Name, st.reasons, tc.fits)
		}
	}
}

// TestPreemptorRetriedWhileVictimsTerminate: the periodic flush retries a
// preemptor whose victim is still terminating (a long grace period), and
// PodEligibleToPreemptOthers refuses to preempt again.
func TestPreemptorRetriedWhileVictimsTerminate(t *testing.T) {
	c := newCluster(t, "a")
	s := New(c)
	addPod(t, c, "web", all(on("a"), requests("800m", ""), func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Int64Ptr(3600) }))
	p := addPod(t, c, "agent", all(class("system-node-critical"), requests("500m", "")))
	s.Schedule()
	c.SetNow(c.Now().Add(PodMaxInUnschedulablePodsDuration))
	s.Schedule()
	evs := c.EventsFor("Pod", p.UID)
	want := "0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node."
	if len(evs) != 2 || evs[1].Message != want {
		var msgs []string
		for _, e := range evs {
			msgs = append(msgs, e.Message)
		}
		t.Errorf("events %q\nwant second %q", msgs, want)
	}
	if p.Status.NominatedNodeName != "a" {
		t.Errorf("nomination lost: %q", p.Status.NominatedNodeName)
	}
}
