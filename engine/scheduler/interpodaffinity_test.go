package scheduler

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// zonedCluster has nodes n1 (zone=a), n2 (zone=a), n3 (zone=b) and n4 (no
// zone label), each 1 CPU, 1Gi and 10 pods, and a namespace "other"
// labelled team=x.
func zonedCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	c := cluster.New(1)
	zones := []string{"a", "a", "b", ""}
	for i, z := range zones {
		o := cluster.NodeOptions{CPU: "1", Memory: "1Gi", Pods: "10"}
		if z != "" {
			o.Labels = map[string]string{"zone": z}
		}
		name := []string{"n1", "n2", "n3", "n4"}[i]
		if err := c.CreateNode(c.NewNode(name, i, o)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "other", Labels: map[string]string{"team": "x"}}}); err != nil {
		t.Fatal(err)
	}
	return c
}

func labels(kv ...string) func(p *api.Pod) {
	return func(p *api.Pod) {
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		for i := 0; i+1 < len(kv); i += 2 {
			p.Labels[kv[i]] = kv[i+1]
		}
	}
}

func inNamespace(ns string) func(p *api.Pod) { return func(p *api.Pod) { p.Namespace = ns } }

func pinnedTo(node string) func(p *api.Pod) {
	return func(p *api.Pod) { p.Spec.Affinity = pinned(node) }
}

// term is a required PodAffinityTerm selecting app=<app> over topologyKey key.
func term(app, key string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}, TopologyKey: key}
}

func withAffinity(terms ...api.PodAffinityTerm) func(p *api.Pod) {
	return func(p *api.Pod) {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &api.Affinity{}
		}
		p.Spec.Affinity.PodAffinity = &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}
	}
}

func withAntiAffinity(terms ...api.PodAffinityTerm) func(p *api.Pod) {
	return func(p *api.Pod) {
		if p.Spec.Affinity == nil {
			p.Spec.Affinity = &api.Affinity{}
		}
		p.Spec.Affinity.PodAntiAffinity = &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}
	}
}

type existingPod struct {
	name string
	mut  func(p *api.Pod)
}

// runCase creates the existing pods (bound, mut applied), then the
// incoming pod "in", runs one scheduling pass and returns the incoming pod.
func runCase(t *testing.T, c *cluster.Cluster, existing []existingPod, in func(p *api.Pod)) *api.Pod {
	t.Helper()
	for _, e := range existing {
		addPod(t, c, e.name, e.mut)
	}
	p := addPod(t, c, "in", in)
	New(c).Schedule()
	return p
}

// checkPlacement fails t unless p is bound to wantNode ("" for still
// pending) and, when wantMsg is not empty, its PodScheduled message is
// wantMsg.
func checkPlacement(t *testing.T, p *api.Pod, wantNode, wantMsg string) {
	t.Helper()
	if p.Spec.NodeName != wantNode {
		t.Errorf("bound to %q, want %q (message %q)", p.Spec.NodeName, wantNode, scheduledMessage(p))
	}
	if wantMsg != "" {
		if got := scheduledMessage(p); got != wantMsg {
			t.Errorf("message\n got %q\nwant %q", got, wantMsg)
		}
	}
}

// scheduledMessage is the message of p's PodScheduled condition, "" when
// it has none.
func scheduledMessage(p *api.Pod) string {
	if c := p.Condition(api.PodScheduled); c != nil {
		return c.Message
	}
	return ""
}

// TestInterPodAffinityFilter mirrors the cases of
// pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go
// (TestRequiredAffinitySingleNode, TestRequiredAffinityMultipleNodes) on
// the simulated cluster: the node the incoming pod binds to, or the
// FailedScheduling message.
func TestInterPodAffinityFilter(t *testing.T) {
	const host = api.LabelHostname
	tests := []struct {
		name     string
		existing []existingPod
		in       func(p *api.Pod)
		wantNode string
		wantMsg  string
	}{
		{
			name:     "anti-affinity against a pod on the daemon pod's node",
			existing: []existingPod{{"db", all(labels("app", "db"), on("n1"))}},
			in:       all(labels("app", "agent"), pinnedTo("n1"), withAntiAffinity(term("db", host))),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
		},
		{
			name:     "anti-affinity against a pod on another node",
			existing: []existingPod{{"db", all(labels("app", "db"), on("n2"))}},
			in:       all(labels("app", "agent"), pinnedTo("n1"), withAntiAffinity(term("db", host))),
			wantNode: "n1",
		},
		{
			name:     "zone anti-affinity keeps the whole zone; a node without the key passes",
			existing: []existingPod{{"db", all(labels("app", "db"), on("n1"))}},
			in:       all(labels("app", "web"), withAntiAffinity(term("db", "zone"))),
			wantNode: "n3",
		},
		{
			name:     "zone anti-affinity on a node without the zone label",
			existing: []existingPod{{"db", all(labels("app", "db"), on("n1"))}},
			in:       all(labels("app", "web"), pinnedTo("n4"), withAntiAffinity(term("db", "zone"))),
			wantNode: "n4",
		},
		{
			name:     "affinity satisfied by a pod elsewhere in the zone",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"))}},
			in:       all(labels("app", "web"), pinnedTo("n2"), withAffinity(term("cache", "zone"))),
			wantNode: "n2",
		},
		{
			name:     "affinity not satisfied in another zone: unresolvable",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"))}},
			in:       all(labels("app", "web"), pinnedTo("n3"), withAffinity(term("cache", "zone"))),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:     "affinity needs the topology label on the node",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"))}},
			in:       all(labels("app", "web"), pinnedTo("n4"), withAffinity(term("cache", "zone"))),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:     "affinity: all terms must be matched by the same pod",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"))}, {"db", all(labels("app", "db"), on("n1"))}},
			in:       all(labels("app", "web"), pinnedTo("n1"), withAffinity(term("cache", "zone"), term("db", "zone"))),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:     "affinity looks in the pod's own namespace only",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"), inNamespace("other"))}},
			in:       all(labels("app", "web"), withAffinity(term("cache", "zone"))),
			wantMsg:  "0/4 nodes are available: 4 node(s) didn't match pod affinity rules. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:     "affinity with namespaces lists the other namespace",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"), inNamespace("other"))}},
			in: all(labels("app", "web"), pinnedTo("n2"), withAffinity(func() api.PodAffinityTerm {
				t := term("cache", "zone")
				t.Namespaces = []string{"other"}
				return t
			}())),
			wantNode: "n2",
		},
		{
			name:     "affinity with a namespaceSelector",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"), inNamespace("other"))}},
			in: all(labels("app", "web"), pinnedTo("n2"), withAffinity(func() api.PodAffinityTerm {
				t := term("cache", "zone")
				t.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{"team": "x"}}
				return t
			}())),
			wantNode: "n2",
		},
		{
			name:     "affinity with a namespaceSelector matching no namespace",
			existing: []existingPod{{"cache", all(labels("app", "cache"), on("n1"), inNamespace("other"))}},
			in: all(labels("app", "web"), pinnedTo("n2"), withAffinity(func() api.PodAffinityTerm {
				t := term("cache", "zone")
				t.NamespaceSelector = &api.LabelSelector{MatchLabels: map[string]string{"team": "y"}}
				return t
			}())),
			wantMsg: "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:     "first pod of a self-affine group goes where the topology label is",
			in:       all(labels("app", "grp"), pinnedTo("n3"), withAffinity(term("grp", "zone"))),
			wantNode: "n3",
		},
		{
			name:    "first pod of a self-affine group still needs the topology label",
			in:      all(labels("app", "grp"), pinnedTo("n4"), withAffinity(term("grp", "zone"))),
			wantMsg: "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:    "the exception needs the pod to match its own terms",
			in:      all(labels("app", "web"), pinnedTo("n3"), withAffinity(term("grp", "zone"))),
			wantMsg: "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:     "once a group member exists, the others follow its zone",
			existing: []existingPod{{"grp-1", all(labels("app", "grp"), on("n3"))}},
			in:       all(labels("app", "grp"), pinnedTo("n1"), withAffinity(term("grp", "zone"))),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
		{
			name:     "existing pod's anti-affinity keeps the incoming pod off its node",
			existing: []existingPod{{"loner", all(labels("app", "loner"), on("n2"), withAntiAffinity(term("web", host)))}},
			in:       all(labels("app", "web"), pinnedTo("n2")),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
		},
		{
			name:     "existing pod's zone anti-affinity covers its zone",
			existing: []existingPod{{"loner", all(labels("app", "loner"), on("n1"), withAntiAffinity(term("web", "zone")))}},
			in:       all(labels("app", "web")),
			wantNode: "n3",
		},
		{
			name:     "existing pod's anti-affinity in another namespace does not apply",
			existing: []existingPod{{"loner", all(labels("app", "loner"), on("n2"), inNamespace("other"), withAntiAffinity(term("web", host)))}},
			in:       all(labels("app", "web"), pinnedTo("n2")),
			wantNode: "n2",
		},
		{
			name:     "existing pod's anti-affinity does not apply to pods it does not select",
			existing: []existingPod{{"loner", all(labels("app", "loner"), on("n2"), withAntiAffinity(term("web", host)))}},
			in:       all(labels("app", "other"), pinnedTo("n2")),
			wantNode: "n2",
		},
		{
			name: "matchLabelKeys narrows affinity to pods sharing the label value",
			existing: []existingPod{
				{"v1", all(labels("app", "web", "ver", "1"), on("n1"))},
				{"v2", all(labels("app", "web", "ver", "2"), on("n3"))},
			},
			in: all(labels("app", "x", "ver", "2"), withAffinity(func() api.PodAffinityTerm {
				t := term("web", "zone")
				t.MatchLabelKeys = []string{"ver"}
				return t
			}())),
			wantNode: "n3",
		},
		{
			name:     "mismatchLabelKeys keeps pods of other tenants apart",
			existing: []existingPod{{"a", all(labels("tenant", "a"), on("n1"))}},
			in: all(labels("tenant", "b"), withAntiAffinity(api.PodAffinityTerm{
				LabelSelector:     &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "tenant", Operator: api.SelectorOpExists}}},
				TopologyKey:       host,
				MismatchLabelKeys: []string{"tenant"},
			})),
			wantNode: "n2",
		},
		{
			name:     "preferred terms do not filter",
			existing: []existingPod{{"db", all(labels("app", "db"), on("n1"))}},
			in: all(labels("app", "agent"), pinnedTo("n1"), func(p *api.Pod) {
				p.Spec.Affinity.PodAntiAffinity = &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: term("db", host)}}}
			}),
			wantNode: "n1",
		},
		{
			name:     "a nil labelSelector selects nothing",
			existing: []existingPod{{"db", all(labels("app", "db"), on("n1"))}},
			in:       all(labels("app", "agent"), pinnedTo("n1"), withAntiAffinity(api.PodAffinityTerm{TopologyKey: host})),
			wantNode: "n1",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := zonedCluster(t)
			p := runCase(t, c, tc.existing, tc.in)
			checkPlacement(t, p, tc.wantNode, tc.wantMsg)
		})
	}
}

// TestAffinityPreemption: anti-affinity (the incoming pod's and existing
// pods') is resolvable by preemption: a higher-priority pod preempts the
// lower-priority pod its anti-affinity or that pod's anti-affinity
// objects to (SelectVictimsOnNode runs InterPodAffinity with the pod
// removed); pod affinity is not (UnschedulableAndUnresolvable).
func TestAffinityPreemption(t *testing.T) {
	const host = api.LabelHostname
	tests := []struct {
		name      string
		existing  []existingPod
		in        func(p *api.Pod)
		victim    string
		nominated string
		wantMsg   string
	}{
		{
			name:      "incoming anti-affinity",
			existing:  []existingPod{{"db", all(labels("app", "db"), on("n1"))}},
			in:        all(labels("app", "agent"), pinnedTo("n1"), class("system-node-critical"), withAntiAffinity(term("db", host))),
			victim:    "db",
			nominated: "n1",
		},
		{
			name:      "existing pod's anti-affinity",
			existing:  []existingPod{{"loner", all(labels("app", "loner"), on("n2"), withAntiAffinity(term("agent", host)))}},
			in:        all(labels("app", "agent"), pinnedTo("n2"), class("system-node-critical")),
			victim:    "loner",
			nominated: "n2",
		},
		{
			name:     "equal priority: no victims",
			existing: []existingPod{{"db", all(labels("app", "db"), on("n1"), class("system-node-critical"))}},
			in:       all(labels("app", "agent"), pinnedTo("n1"), class("system-node-critical"), withAntiAffinity(term("db", host))),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
		},
		{
			name: "removing the low-priority pods does not help: the high-priority one stays",
			existing: []existingPod{
				{"db", all(labels("app", "db"), on("n1"), class("system-node-critical"))},
				{"batch", all(labels("app", "batch"), on("n1"))},
			},
			in:      all(labels("app", "agent"), pinnedTo("n1"), class("system-cluster-critical"), withAntiAffinity(term("db", host))),
			wantMsg: "0/4 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 3 Preemption is not helpful for scheduling.",
		},
		{
			name:     "affinity is not resolvable by preemption",
			existing: []existingPod{{"batch", all(labels("app", "batch"), on("n3"))}},
			in:       all(labels("app", "agent"), pinnedTo("n3"), class("system-node-critical"), withAffinity(term("cache", "zone"))),
			wantMsg:  "0/4 nodes are available: 1 node(s) didn't match pod affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := zonedCluster(t)
			p := runCase(t, c, tc.existing, tc.in)
			if p.Spec.NodeName != "" {
				t.Fatalf("bound to %q", p.Spec.NodeName)
			}
			if p.Status.NominatedNodeName != tc.nominated {
				t.Errorf("nominated %q, want %q (message %q)", p.Status.NominatedNodeName, tc.nominated, scheduledMessage(p))
			}
			for _, e := range tc.existing {
				q := c.Pod(api.DefaultNamespace, e.name)
				if deleted := q.DeletionTimestamp != nil; deleted != (e.name == tc.victim) {
					t.Errorf("pod %s deleted = %v", e.name, deleted)
				}
			}
			if tc.wantMsg != "" {
				if got := scheduledMessage(p); got != tc.wantMsg {
					t.Errorf("message\n got %q\nwant %q", got, tc.wantMsg)
				}
			}
		})
	}
}

// TestAffinityAcrossOneCycle: pods bound earlier in the same scheduling
// pass count for the ones after them (the scheduler's cache assumes a
// bound pod at once).
func TestAffinityAcrossOneCycle(t *testing.T) {
	c := zonedCluster(t)
	const host = api.LabelHostname
	// Both pending, pinned to n1; "a" is older and binds first.
	a := addPod(t, c, "a", all(labels("app", "solo"), pinnedTo("n1"), withAntiAffinity(term("solo", host))))
	c.SetNow(c.Now().Add(time.Second))
	b := addPod(t, c, "b", all(labels("app", "solo"), pinnedTo("n1"), withAntiAffinity(term("solo", host))))
	New(c).Schedule()
	if a.Spec.NodeName != "n1" || b.Spec.NodeName != "" {
		t.Fatalf("a on %q, b on %q", a.Spec.NodeName, b.Spec.NodeName)
	}
	want := "0/4 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling."
	if got := scheduledMessage(b); got != want {
		t.Errorf("message\n got %q\nwant %q", got, want)
	}
}

// TestNominatedPodsInAffinity mirrors RunFilterPluginsWithNominatedPods:
// a pod nominated to the node with at least the incoming pod's priority
// counts for anti-affinity (AddPod), but cannot be what satisfies pod
// affinity (the second pass runs without it).
func TestNominatedPodsInAffinity(t *testing.T) {
	const host = api.LabelHostname
	tests := []struct {
		name string
		in   func(p *api.Pod)
		want []string // nil: passes
	}{
		{"anti-affinity sees the nominated pod", all(labels("app", "web"), withAntiAffinity(term("nom", host))), []string{ErrReasonAntiAffinityRulesNotMatch}},
		{"affinity cannot rest on the nominated pod", all(labels("app", "web"), withAffinity(term("nom", host))), []string{ErrReasonAffinityRulesNotMatch}},
		{"unrelated pod passes", all(labels("app", "web")), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := zonedCluster(t)
			nom := addPod(t, c, "nom", labels("app", "nom"))
			nom.Status.NominatedNodeName = "n1"
			p := addPod(t, c, "in", tc.in)
			cy := &cycle{s: New(c), nodes: c.Nodes(), infos: map[string]*nodeInfo{}, nominated: map[string][]*api.Pod{"n1": {nom}}}
			st := cy.dynamicFilter(p, cy.info(c.Node("n1")), 0, 0, nil)
			if len(st.reasons) != len(tc.want) || (len(tc.want) > 0 && st.reasons[0] != tc.want[0]) {
				t.Errorf("reasons %v, want %v", st.reasons, tc.want)
			}
		})
	}
}
