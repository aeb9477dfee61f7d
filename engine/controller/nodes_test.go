package controller

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// DC TestAddNode, TestUpdateNode, TestShouldIgnoreNodeUpdate and the
// syncNodeUpdate rule (kubernetes#130514, #132477): which DaemonSets a node
// event enqueues. Upstream checks the work queue's length after running the
// node update queue's worker; here both DaemonSets are quiet (their last
// sync was a no-op, so the next Sync skips them) and the test checks which
// of them the node event handlers (observeNodes) make the next Sync run.
// "blue" selects color=blue nodes; "any" has no selector. Before the
// change every daemon pod is bound (spec.nodeName set, as the scheduler
// does): blue-0, blue-1 run a pod of each, plain-0 one of "any".
func TestNodeEventHandlers(t *testing.T) {
	taint := func(t *testing.T, f *fixture, node string, tn api.Taint) {
		n := f.node(node)
		n.Spec.Taints = append(n.Spec.Taints, tn)
		writeNode(t, f, n)
	}
	cases := []struct {
		name   string
		change func(t *testing.T, f *fixture)
		want   []string
	}{
		{"addNode: a blue node (shouldRun, no pod bound)", func(t *testing.T, f *fixture) {
			f.addNodes("blue", 2, 1, map[string]string{"color": "blue"})
		}, []string{"any", "blue"}},
		{"addNode: a node without the label", func(t *testing.T, f *fixture) {
			f.addNodes("plain", 1, 1, nil)
		}, []string{"any"}},
		{"addNode: a blue node with an untolerated NoSchedule taint (shouldRun false)", func(t *testing.T, f *fixture) {
			n := f.c.NewNode("blue-2", 2, cluster.NodeOptions{Labels: map[string]string{"color": "blue"},
				Taints: []api.Taint{{Key: "dedicated", Value: "infra", Effect: api.TaintEffectNoSchedule}}})
			if err := f.c.CreateNode(n); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"no DeleteFunc: a node with daemon pods deleted", func(t *testing.T, f *fixture) {
			if err := f.c.DeleteNode("blue-0"); err != nil {
				t.Fatal(err)
			}
		}, nil},
		// The old pod is still bound to plain-0 (the pod GC has not removed
		// it yet), so syncNodeUpdate finds "any" scheduled there.
		{"deleted and created again under the same name, its pod still bound: addNode enqueues nothing", func(t *testing.T, f *fixture) {
			if err := f.c.DeleteNode("plain-0"); err != nil {
				t.Fatal(err)
			}
			f.addNodes("plain", 0, 1, nil)
		}, nil},
		{"updateNode: conditions only (the set of True types changes)", func(t *testing.T, f *fixture) {
			n := f.node("blue-0")
			n.Condition(api.NodeReady).Status = api.ConditionFalse
			n.Condition(api.NodeMemoryPressure).Status = api.ConditionTrue
			writeNode(t, f, n)
		}, nil},
		{"updateNode: allocatable and spec.unschedulable", func(t *testing.T, f *fixture) {
			n := f.node("blue-0")
			n.Status.Allocatable = api.ResourceList{api.ResourcePods: api.MustParseQuantity("1")}
			n.Spec.Unschedulable = true
			writeNode(t, f, n)
		}, nil},
		{"updateNode: a label no DaemonSet selects", func(t *testing.T, f *fixture) {
			n := f.node("plain-0")
			n.Labels["disk"] = "ssd"
			writeNode(t, f, n)
		}, nil},
		{"updateNode: the selected label added (shouldRun, no pod bound)", func(t *testing.T, f *fixture) {
			n := f.node("plain-0")
			n.Labels["color"] = "blue"
			writeNode(t, f, n)
		}, []string{"blue"}},
		{"updateNode: the selected label removed (!shouldContinueRunning, pod bound)", func(t *testing.T, f *fixture) {
			n := f.node("blue-1")
			delete(n.Labels, "color")
			writeNode(t, f, n)
		}, []string{"blue"}},
		// v1.33+: shouldRun turns false but the pods may continue running
		// and no status counts misscheduled nodes yet: nothing is enqueued
		// (up to v1.32 updateNode enqueued both).
		{"syncNodeUpdate: an untolerated NoSchedule taint under running pods", func(t *testing.T, f *fixture) {
			taint(t, f, "blue-0", api.Taint{Key: "dedicated", Effect: api.TaintEffectNoSchedule})
		}, nil},
		{"syncNodeUpdate: an untolerated NoExecute taint (!shouldContinueRunning, pods bound)", func(t *testing.T, f *fixture) {
			taint(t, f, "blue-0", api.Taint{Key: "dedicated", Effect: api.TaintEffectNoExecute})
		}, []string{"any", "blue"}},
		// #132477: a pod bound to the node while the status reports
		// misscheduled nodes enqueues its DaemonSet on any queued update, so
		// the taint's removal is seen.
		{"syncNodeUpdate: the NoSchedule taint removed while the status counts the node misscheduled", func(t *testing.T, f *fixture) {
			taint(t, f, "blue-0", api.Taint{Key: "dedicated", Effect: api.TaintEffectNoSchedule})
			f.dsc.Invalidate() // something else (a pod change) syncs both
			settle(t, f)
			for _, ds := range f.c.DaemonSets() {
				if ds.Status.NumberMisscheduled != 1 {
					t.Fatalf("%s: numberMisscheduled = %d, want 1", ds.Name, ds.Status.NumberMisscheduled)
				}
			}
			n := f.node("blue-0")
			n.Spec.Taints = nil
			writeNode(t, f, n)
		}, []string{"any", "blue"}},
		{"syncNodeUpdate: a label no DaemonSet selects, on a node where the pod is not bound yet", func(t *testing.T, f *fixture) {
			for _, p := range f.c.PodsOnNode("plain-0") {
				p.Spec.NodeName = ""
				if err := f.c.UpdatePod(p); err != nil {
					t.Fatal(err)
				}
			}
			settle(t, f)
			n := f.node("plain-0")
			n.Labels["disk"] = "ssd"
			writeNode(t, f, n)
		}, []string{"any"}},
		{"updateNode: a taint the daemon tolerations cover (unschedulable:NoSchedule)", func(t *testing.T, f *fixture) {
			taint(t, f, "blue-0", api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintEffectNoSchedule})
		}, nil},
		{"updateNode: a PreferNoSchedule taint", func(t *testing.T, f *fixture) {
			taint(t, f, "plain-0", api.Taint{Key: "k", Effect: api.TaintEffectPreferNoSchedule})
		}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.addNodes("blue", 0, 2, map[string]string{"color": "blue"})
			f.addNodes("plain", 0, 1, nil)
			blue := newDaemonSet("blue")
			blue.Spec.Template.Spec.NodeSelector = map[string]string{"color": "blue"}
			any := newDaemonSet("any")
			any.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "any"}}
			any.Spec.Template.Labels = map[string]string{"app": "any"}
			f.createDS(blue)
			f.createDS(any)
			f.dsc.Sync()
			bindPods(t, f, blue, any)
			settle(t, f)
			tc.change(t, f)
			f.dsc.observeNodes(f.c.DaemonSets(), f.c.NodesShared())
			var got []string
			for _, ds := range []*api.DaemonSet{any, blue} {
				if _, ok := f.dsc.quiet[ds.UID]; !ok {
					got = append(got, ds.Name)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("enqueued %v, want %v", got, tc.want)
			}
		})
	}
}

// bindPods does what the scheduler does: sets spec.nodeName of every live
// pod of dss to its target node.
func bindPods(t *testing.T, f *fixture, dss ...*api.DaemonSet) {
	t.Helper()
	for _, ds := range dss {
		for _, p := range f.livePods(ds) {
			node, err := GetTargetNodeName(p)
			if err != nil {
				t.Fatal(err)
			}
			p.Spec.NodeName = node
			if err := f.c.UpdatePod(p); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// settle syncs until every DaemonSet is quiet (fails after a few passes).
func settle(t *testing.T, f *fixture) {
	t.Helper()
	for i := 0; i < 5; i++ {
		f.dsc.Sync()
		quiet := true
		for _, ds := range f.c.DaemonSets() {
			if _, ok := f.dsc.quiet[ds.UID]; !ok {
				quiet = false
			}
		}
		if quiet {
			return
		}
	}
	t.Fatal("the DaemonSets are not quiet after 5 syncs")
}

func writeNode(t *testing.T, f *fixture, n *api.Node) {
	t.Helper()
	if err := f.c.UpdateNode(n); err != nil {
		t.Fatal(err)
	}
}

// No DeleteFunc on the node informer: deleting a node whose daemon pod is
// Running syncs no DaemonSet, so the status keeps counting the node; the
// DaemonSet learns it is gone when the pod GC marks that pod Failed and
// deletes it (gcOrphaned after its quarantine), which enqueues it
// (updatePod, deletePod).
// With minReadySeconds the same holds once every pod is Available.
func TestDeleteNodeDoesNotEnqueue(t *testing.T) {
	for _, mrs := range []int32{0, 10} {
		t.Run(fmt.Sprintf("minReadySeconds=%d", mrs), func(t *testing.T) { testDeleteNodeDoesNotEnqueue(t, mrs) })
	}
}

func testDeleteNodeDoesNotEnqueue(t *testing.T, minReadySeconds int32) {
	f := newFixture(t)
	f.addNodes("node", 0, 3, nil)
	ds := newDaemonSet("foo")
	ds.Spec.MinReadySeconds = minReadySeconds
	f.createDS(ds)
	f.dsc.Sync()
	for _, p := range f.livePods(ds) { // what the scheduler does
		node, err := GetTargetNodeName(p)
		if err != nil {
			t.Fatal(err)
		}
		p.Spec.NodeName = node
		if err := f.c.UpdatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	f.markPodsReady(ds)
	f.dsc.Sync()
	f.c.SetNow(f.c.Now().Add(time.Duration(minReadySeconds+1) * time.Second))
	for i := 0; i < 3; i++ {
		f.dsc.Sync()
	}
	if st := ds.Status; st.DesiredNumberScheduled != 3 || st.NumberReady != 3 || st.NumberAvailable != 3 {
		t.Fatalf("before: desired/ready/available = %d/%d/%d, want 3/3/3", st.DesiredNumberScheduled, st.NumberReady, st.NumberAvailable)
	}
	rv := ds.ResourceVersion
	if err := f.c.DeleteNode("node-1"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		f.c.SetNow(f.c.Now().Add(time.Second))
		f.dsc.Sync()
	}
	if st := ds.Status; st.DesiredNumberScheduled != 3 || st.CurrentNumberScheduled != 3 || st.NumberReady != 3 || ds.ResourceVersion != rv {
		t.Fatalf("after the node delete: desired/current/ready = %d/%d/%d (rv %s -> %s), want 3/3/3 and no status write: a deleted node enqueues no DaemonSet",
			st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, rv, ds.ResourceVersion)
	}

	// What the pod GC does after the quarantine (podgc.PodGC).
	pods := f.c.PodsOnNode("node-1")
	if len(pods) != 1 {
		t.Fatalf("pods on node-1 = %d, want 1", len(pods))
	}
	p := pods[0]
	p.Status.Phase = api.PodFailed
	if err := f.c.UpdatePod(p); err != nil {
		t.Fatal(err)
	}
	if err := f.c.RemovePod(p.Namespace, p.Name); err != nil {
		t.Fatal(err)
	}
	f.dsc.Sync()
	if st := ds.Status; st.DesiredNumberScheduled != 2 || st.CurrentNumberScheduled != 2 || st.NumberReady != 2 || st.NumberMisscheduled != 0 {
		t.Errorf("after the pod GC: desired/current/ready/misscheduled = %d/%d/%d/%d, want 2/2/2/0",
			st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.NumberMisscheduled)
	}
	if got := f.podsByNode(ds); len(got) != 2 || got["node-1"] != 0 {
		t.Errorf("pods per node = %v, want node-0 and node-2 only", got)
	}
}
