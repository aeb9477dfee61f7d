package controller

import (
	"maps"

	"github.com/dsplayground/dsplay/engine/api"
)

// Node events: which DaemonSets a node change enqueues.
//
// Upstream (pkg/controller/daemon/daemon_controller.go, Kubernetes 1.33 and
// later; the playground shows 1.37) registers two handlers on the node
// informer and no DeleteFunc, and both only put the node's name on a node
// update queue (kubernetes#130514, v1.33):
//
//   - addNode queues every new node;
//   - updateNode queues the node unless shouldIgnoreNodeUpdate(old, cur):
//     its labels and taints are semantically equal (kubernetes#121669,
//     v1.29; conditions, allocatable, spec.unschedulable and heartbeats do
//     not matter);
//   - syncNodeUpdate, the queue's worker, reads the node as it is then and
//     enqueues a DaemonSet when NodeShouldRunDaemonPod says
//     (shouldRun and no daemon pod of it is bound to the node) or
//     (!shouldContinueRunning and one is) or (one is and the DaemonSet's
//     status currently reports numberMisscheduled > 0) — the last case
//     since kubernetes#132477 (v1.34, cherry-picked to 1.33), so that a
//     taint removed under a misscheduled pod is seen;
//   - a deleted node enqueues nothing. A DaemonSet learns that the node is
//     gone only at its next sync for another reason, typically when the pod
//     garbage collector (pkg/controller/podgc gcOrphaned, after its
//     quarantine) marks the daemon pod bound to the vanished node Failed
//     and deletes it: updatePod/deletePod enqueue the DaemonSet, whose
//     status then drops the node. Until then `kubectl get ds` keeps the
//     old counts.
//
// What a learner sees (upstream pkg/controller/daemon/daemon_controller.go
// updateNode and shouldIgnoreNodeUpdate; nodeShouldRunDaemonPod's
// shouldContinueRunning): a NoSchedule taint the
// DaemonSet does not tolerate, added to a node where its pod runs, leaves
// shouldContinueRunning true and a pod bound there, so no DaemonSet is
// enqueued unless it already counts misscheduled nodes: `kubectl get ds`
// keeps DESIRED (and `kubectl describe ds` its "Number of Nodes
// Misscheduled") as they were until something else syncs the DaemonSet (a
// pod change, an edit of the DaemonSet). Up to v1.32 updateNode enqueued every DaemonSet whose
// (shouldRun, shouldContinueRunning) changed, and the status moved at once.
//
// The simulation has no informer: observeNodes compares the node list with
// the nodes as the controller last saw them (seenNodes) at the start of
// every Sync in which cluster.NodeVersion moved, and "enqueues" a DaemonSet
// by dropping its quiet entry (syncDaemonSet then runs it). Changes to one
// node between two controller passes reach it as one net change, as the
// node update queue deduplicates names; a change undone within one pass is
// not seen at all, where upstream would still run syncNodeUpdate on the
// node and find what it finds for an unchanged node (rarely visible: it
// re-syncs only a DaemonSet that needs a pod there, which is not quiet
// anyway, or one whose status already counts misscheduled nodes, which
// may then be refreshed). seenNodes keeps, per
// node, only what shouldIgnoreNodeUpdate compares (labels, taints), with
// name, UID and resourceVersion: a trimmed copy, since the store's nodes
// are updated in place and a full copy would double the nodes every
// timeline checkpoint holds.

// observeNodes runs the node event handlers for the node changes since the
// previous call: addNode for new nodes (a node deleted and created again
// under the same name is a new node: a new UID), updateNode for nodes whose
// resourceVersion moved, nothing for deleted ones; each node they queue is
// then handled by syncNodeUpdate. nodes is the current node list (sorted
// by name), dss every DaemonSet.
func (dsc *DaemonSetsController) observeNodes(dss []*api.DaemonSet, nodes []*api.Node) {
	nv := dsc.c.NodeVersion()
	if dsc.nodesObserved && nv == dsc.seenNodeVersion {
		return
	}
	dsc.nodesObserved, dsc.seenNodeVersion = true, nv
	if dsc.seenNodes == nil {
		dsc.seenNodes = make(map[string]*api.Node, len(nodes))
	}
	var plans []*podPlan // built on the first node that is queued
	for _, n := range nodes {
		old := dsc.seenNodes[n.Name]
		var queued bool
		switch {
		case old == nil || old.UID != n.UID:
			queued = addNode()
		case old.ResourceVersion != n.ResourceVersion:
			queued = updateNode(old, n)
		default:
			continue
		}
		dsc.seenNodes[n.Name] = trimNode(n)
		if !queued || len(dss) == 0 {
			continue
		}
		if plans == nil {
			plans = make([]*podPlan, len(dss))
			for i, ds := range dss {
				plans[i] = newPodPlan(ds)
			}
		}
		dsc.syncNodeUpdate(dss, plans, n)
	}
	if len(dsc.seenNodes) != len(nodes) {
		// Deleted nodes: upstream has no DeleteFunc on the node informer,
		// so no DaemonSet is enqueued; only the remembered copy goes.
		for name := range dsc.seenNodes {
			if dsc.c.Node(name) == nil {
				delete(dsc.seenNodes, name)
			}
		}
	}
}

// addNode mirrors upstream addNode (v1.33+): every new node is put on the
// node update queue; it reports whether the node was queued (always).
func addNode() bool { return true }

// updateNode mirrors upstream updateNode (v1.33+): the node is put on the
// node update queue unless shouldIgnoreNodeUpdate; it reports whether it
// was queued.
func updateNode(old, cur *api.Node) bool { return !shouldIgnoreNodeUpdate(old, cur) }

// shouldIgnoreNodeUpdate mirrors upstream shouldIgnoreNodeUpdate (v1.29+):
// an update that leaves the node's labels and taints as they were (compared
// as apiequality.Semantic.DeepEqual does: nil and empty alike, TimeAdded by
// value) is ignored; conditions, allocatable, spec.unschedulable and
// heartbeats do not matter.
func shouldIgnoreNodeUpdate(old, cur *api.Node) bool {
	return maps.Equal(old.Labels, cur.Labels) && taintsEqual(old.Spec.Taints, cur.Spec.Taints)
}

// syncNodeUpdate mirrors upstream syncNodeUpdate (v1.33+, with the
// misscheduled case of v1.34), the worker of the node update queue: for the
// node as it is now, every DaemonSet is enqueued that should run a pod there
// and has none bound to it, that has a pod bound there which may not
// continue running, or that has a pod bound there while its status reports
// misscheduled nodes. "Bound" is what the pod informer's node-name index
// holds: pods whose spec.nodeName is the node (a pod the scheduler has not
// bound yet is not there), of any phase, controlled by the DaemonSet.
// plans[i] is the pod plan of dss[i].
func (dsc *DaemonSetsController) syncNodeUpdate(dss []*api.DaemonSet, plans []*podPlan, node *api.Node) {
	podsOnNode := dsc.c.PodsOnNodeShared(node.Name)
	for i, ds := range dss {
		v := plans[i].eval(node)
		scheduled := false
		for _, p := range podsOnNode {
			if ref := p.ControllerRef(); ref != nil && ref.UID == ds.UID {
				scheduled = true
				break
			}
		}
		if (v.shouldRun && !scheduled) || (!v.shouldContinue && scheduled) || (scheduled && ds.Status.NumberMisscheduled > 0) {
			dsc.enqueue(ds)
		}
	}
}

// enqueue stands in for upstream enqueueDaemonSet: the next Sync runs ds
// even if its last sync was quiet and nothing it reads from pods, revisions
// or the DaemonSet itself changed.
func (dsc *DaemonSetsController) enqueue(ds *api.DaemonSet) { delete(dsc.quiet, ds.UID) }

// trimNode copies the parts of a node the node event handlers compare:
// name, UID, resourceVersion, labels and taints.
func trimNode(n *api.Node) *api.Node {
	t := &api.Node{}
	t.Name, t.UID, t.ResourceVersion = n.Name, n.UID, n.ResourceVersion
	t.Labels = maps.Clone(n.Labels)
	if len(n.Spec.Taints) > 0 {
		t.Spec.Taints = make([]api.Taint, len(n.Spec.Taints))
		for i, tn := range n.Spec.Taints {
			if tn.TimeAdded != nil {
				at := *tn.TimeAdded
				tn.TimeAdded = &at
			}
			t.Spec.Taints[i] = tn
		}
	}
	return t
}

// taintsEqual compares two taint lists in order, TimeAdded by value.
func taintsEqual(a, b []api.Taint) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Key != y.Key || x.Value != y.Value || x.Effect != y.Effect {
			return false
		}
		if (x.TimeAdded == nil) != (y.TimeAdded == nil) || (x.TimeAdded != nil && !x.TimeAdded.Equal(*y.TimeAdded)) {
			return false
		}
	}
	return true
}
