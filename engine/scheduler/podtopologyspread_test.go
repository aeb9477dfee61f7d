package scheduler

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// spreadCluster has nodes n1 (zone=a), n2 (zone=b) and n3 (no zone label),
// each 1 CPU, 1Gi and 10 pods; tainted lists nodes that get an untolerated
// NoSchedule taint.
func spreadCluster(t *testing.T, tainted ...string) *cluster.Cluster {
	t.Helper()
	c := cluster.New(1)
	for i, z := range []string{"a", "b", ""} {
		name := []string{"n1", "n2", "n3"}[i]
		o := cluster.NodeOptions{CPU: "1", Memory: "1Gi", Pods: "10"}
		if z != "" {
			o.Labels = map[string]string{"zone": z}
		}
		for _, n := range tainted {
			if n == name {
				o.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
			}
		}
		if err := c.CreateNode(c.NewNode(name, i, o)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "other"}}); err != nil {
		t.Fatal(err)
	}
	return c
}

// spread adds a topology spread constraint over zone selecting app=web;
// mut adjusts it.
func spread(mut func(c *api.TopologySpreadConstraint)) func(p *api.Pod) {
	return func(p *api.Pod) {
		c := api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}
		if mut != nil {
			mut(&c)
		}
		p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
	}
}

func web(name, node string, more ...func(p *api.Pod)) existingPod {
	return existingPod{name, all(append([]func(p *api.Pod){labels("app", "web"), on(node)}, more...)...)}
}

func strp(s string) *string { return &s }

// TestPodTopologySpreadFilter mirrors the cases of
// pkg/scheduler/framework/plugins/podtopologyspread/filtering_test.go
// (TestSingleConstraint, TestMultipleConstraints, TestPreFilterState) on
// the simulated cluster.
func TestPodTopologySpreadFilter(t *testing.T) {
	terminating := func(p *api.Pod) { now := time.Unix(0, 0); p.DeletionTimestamp = &now }
	tests := []struct {
		name     string
		tainted  []string
		existing []existingPod
		in       func(p *api.Pod)
		wantNode string
		wantMsg  string
	}{
		{
			name:    "node without the topology key: unresolvable",
			in:      all(labels("app", "web"), pinnedTo("n3"), spread(nil)),
			wantMsg: "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
		},
		{
			name:     "ScheduleAnyway never filters",
			in:       all(labels("app", "web"), pinnedTo("n3"), spread(func(c *api.TopologySpreadConstraint) { c.WhenUnsatisfiable = api.ScheduleAnyway })),
			wantNode: "n3",
		},
		{
			name:     "skew: the emptier zone",
			existing: []existingPod{web("w1", "n1")},
			in:       all(labels("app", "web"), spread(nil)),
			wantNode: "n2",
		},
		{
			name:     "skew within maxSkew",
			existing: []existingPod{web("w1", "n1"), web("w2", "n1"), web("w3", "n2")},
			in:       all(labels("app", "web"), spread(nil)),
			wantNode: "n2",
		},
		{
			name:     "maxSkew 2 allows the fuller zone",
			existing: []existingPod{web("w1", "n1")},
			in: all(labels("app", "web"), pinnedTo("n1"), spread(func(c *api.TopologySpreadConstraint) {
				c.MaxSkew = 2
				c.NodeAffinityPolicy = strp(api.NodeInclusionPolicyIgnore)
			})),
			wantNode: "n1",
		},
		{
			name:     "nodeAffinityPolicy Honor: a pinned pod's own node is the only domain",
			existing: []existingPod{web("w1", "n1"), web("w2", "n1")},
			in:       all(labels("app", "web"), pinnedTo("n1"), spread(nil)),
			wantNode: "n1",
		},
		{
			name:     "nodeAffinityPolicy Ignore: every zone counts",
			existing: []existingPod{web("w1", "n1"), web("w2", "n1")},
			in:       all(labels("app", "web"), pinnedTo("n1"), spread(func(c *api.TopologySpreadConstraint) { c.NodeAffinityPolicy = strp(api.NodeInclusionPolicyIgnore) })),
			wantMsg:  "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
		},
		{
			name:     "minDomains above the number of zones: the minimum is 0",
			existing: []existingPod{web("w1", "n1"), web("w2", "n2")},
			in:       all(labels("app", "web"), spread(func(c *api.TopologySpreadConstraint) { c.MinDomains = api.Int32Ptr(3) })),
			wantMsg:  "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
		},
		{
			name:     "minDomains met: the real minimum",
			existing: []existingPod{web("w1", "n1"), web("w2", "n2")},
			in:       all(labels("app", "web"), spread(func(c *api.TopologySpreadConstraint) { c.MinDomains = api.Int32Ptr(2) })),
			wantNode: "n1",
		},
		{
			name:     "nodeTaintsPolicy Ignore: a tainted node's zone counts",
			tainted:  []string{"n2"},
			existing: []existingPod{web("w1", "n1")},
			in:       all(labels("app", "web"), spread(nil)),
			wantMsg:  "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints, 1 node(s) didn't match pod topology spread constraints (missing required label), 1 node(s) had untolerated taint(s). preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
		},
		{
			name:     "nodeTaintsPolicy Honor: a tainted node's zone does not count",
			tainted:  []string{"n2"},
			existing: []existingPod{web("w1", "n1")},
			in:       all(labels("app", "web"), spread(func(c *api.TopologySpreadConstraint) { c.NodeTaintsPolicy = strp(api.NodeInclusionPolicyHonor) })),
			wantNode: "n1",
		},
		{
			name:     "terminating pods do not count",
			existing: []existingPod{web("w1", "n1", terminating), web("w2", "n1", terminating)},
			in:       all(labels("app", "web"), spread(nil)),
			wantNode: "n1",
		},
		{
			name:     "pods of other namespaces do not count",
			existing: []existingPod{web("w1", "n1", inNamespace("other")), web("w2", "n1", inNamespace("other"))},
			in:       all(labels("app", "web"), pinnedTo("n1"), spread(func(c *api.TopologySpreadConstraint) { c.NodeAffinityPolicy = strp(api.NodeInclusionPolicyIgnore) })),
			wantNode: "n1",
		},
		{
			name:     "a pod not matching its own selector adds nothing",
			existing: []existingPod{web("w1", "n1")},
			in:       all(labels("app", "other"), pinnedTo("n1"), spread(func(c *api.TopologySpreadConstraint) { c.NodeAffinityPolicy = strp(api.NodeInclusionPolicyIgnore) })),
			wantNode: "n1",
		},
		{
			name:     "matchLabelKeys counts only pods with the same value",
			existing: []existingPod{web("w1", "n1", labels("rev", "1")), web("w2", "n1", labels("rev", "1"))},
			in: all(labels("app", "web", "rev", "2"), pinnedTo("n1"), spread(func(c *api.TopologySpreadConstraint) {
				c.NodeAffinityPolicy = strp(api.NodeInclusionPolicyIgnore)
				c.MatchLabelKeys = []string{"rev"}
			})),
			wantNode: "n1",
		},
		{
			name:     "every DoNotSchedule constraint must hold",
			existing: []existingPod{web("w1", "n1")},
			in: all(labels("app", "web"), pinnedTo("n1"), spread(func(c *api.TopologySpreadConstraint) {
				c.NodeAffinityPolicy = strp(api.NodeInclusionPolicyIgnore)
				c.MaxSkew = 5
			}),
				spread(func(c *api.TopologySpreadConstraint) { c.TopologyKey = "rack" })),
			wantMsg: "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := spreadCluster(t, tc.tainted...)
			p := runCase(t, c, tc.existing, tc.in)
			checkPlacement(t, p, tc.wantNode, tc.wantMsg)
		})
	}
}

// TestSpreadPreemption: a skew violation is resolvable by preemption —
// a higher-priority pod preempts a lower-priority matching pod in the
// crowded zone when that brings the skew within maxSkew.
func TestSpreadPreemption(t *testing.T) {
	c := spreadCluster(t)
	ignore := func(c *api.TopologySpreadConstraint) { c.NodeAffinityPolicy = strp(api.NodeInclusionPolicyIgnore) }
	p := runCase(t, c, []existingPod{web("w1", "n1")}, all(labels("app", "web"), pinnedTo("n1"), class("system-node-critical"), spread(ignore)))
	if p.Status.NominatedNodeName != "n1" {
		t.Fatalf("nominated %q (message %q)", p.Status.NominatedNodeName, scheduledMessage(p))
	}
	if w1 := c.Pod(api.DefaultNamespace, "w1"); w1.DeletionTimestamp == nil {
		t.Errorf("w1 not preempted")
	}
}

// TestCriticalPaths mirrors podtopologyspread TestCriticalPaths: the
// minimum is always in [0].
func TestCriticalPaths(t *testing.T) {
	p := newCriticalPaths()
	for _, u := range []struct {
		v string
		n int
	}{{"a", 3}, {"b", 1}, {"c", 2}, {"b", 4}, {"a", 0}} {
		p.update(u.v, u.n)
	}
	if p[0].value != "a" || p[0].num != 0 {
		t.Errorf("paths = %+v", *p)
	}
}
