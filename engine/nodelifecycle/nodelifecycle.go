// Package nodelifecycle is kube-controller-manager's node lifecycle
// controller (upstream pkg/controller/nodelifecycle,
// node_lifecycle_controller.go): it registers the nodes whose kubelet has
// started, turns a node whose kubelet stopped renewing its lease Ready=Unknown
// after NodeMonitorGracePeriod (marking its pods not ready), and keeps on
// every node exactly the taints its conditions and spec.unschedulable call
// for. It meets the kubelets only through the store: the node leases
// (cluster.NodeLeasesSince, cluster.NodeLeaseRenewalEnded), the Node
// objects' conditions and the pods.
package nodelifecycle

import (
	"fmt"
	"sort"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// NodeMonitorGracePeriod is how long a node's lease may go unrenewed before
// the node turns Ready=Unknown (kube-controller-manager
// --node-monitor-grace-period, 50 s by default since v1.32).
const NodeMonitorGracePeriod = 50 * time.Second

// NodeLifecycle mirrors the node lifecycle controller
// (upstream pkg/controller/nodelifecycle/node_lifecycle_controller.go
// Controller): a node whose lease has not been renewed for
// NodeMonitorGracePeriod gets its conditions set to Unknown
// (NodeStatusUnknown, "Kubelet stopped posting node status.";
// tryUpdateNodeHealth), and every node carries exactly the taints its
// conditions and spec.unschedulable call for (doNoScheduleTaintingPass,
// doNoExecuteTaintingPass).
type NodeLifecycle struct {
	c *cluster.Cluster
	// leaseCursor is how far the controller has read the store's feed of
	// new node leases (cluster.NodeLeasesSince).
	leaseCursor int
	// nodesSeen is the NodeVersion after the last pass over the nodes
	// (nodesSeenOK: one ran). While it holds and every lease is being
	// renewed, no condition or taint can be due, so Sync skips the pass.
	nodesSeen   int64
	nodesSeenOK bool
	// known are the registered nodes, by name, with their UIDs
	// (knownNodeSet); knownSeen is the NodeVersion they were last
	// compared with the store at.
	known     map[string]string
	knownSeen int64
}

// New returns the node lifecycle controller of the cluster c (upstream
// NewNodeLifecycleController).
func New(c *cluster.Cluster) *NodeLifecycle {
	return &NodeLifecycle{c: c}
}

// lifecycleTaintKeys are the taint keys the controller owns.
var lifecycleTaintKeys = map[string]bool{
	api.TaintNodeNotReady: true, api.TaintNodeUnreachable: true, api.TaintNodeUnschedulable: true,
	api.TaintNodeMemoryPressure: true, api.TaintNodeDiskPressure: true, api.TaintNodePIDPressure: true,
	api.TaintNodeNetworkUnavailable: true,
}

// Sync mirrors one round of monitorNodeHealth and the tainting passes
// (upstream Controller.monitorNodeHealth, doNoScheduleTaintingPass,
// doNoExecuteTaintingPass) over every node, unless no node changed since the
// last pass and every lease is being renewed.
func (nl *NodeLifecycle) Sync() {
	nl.registerNodes()
	nl.removeNodes()
	if nl.c.EndedNodeLeases() == 0 && nl.nodesSeenOK && nl.c.NodeVersion() == nl.nodesSeen {
		return
	}
	for _, n := range nl.c.Nodes() {
		nl.monitorNodeHealth(n)
		nl.reconcileTaints(n)
	}
	nl.nodesSeen, nl.nodesSeenOK = nl.c.NodeVersion(), true
}

// registerNodes mirrors the node lifecycle controller's first sight of a
// node (monitorNodeHealth, newly added nodes): Normal RegisteredNode
// "Node <name> event: Registered Node <name> in Controller"
// (nodeutil.RecordNodeEvent, whose reference carries the node's real UID).
// It handles the nodes whose kubelet has created their Lease since the
// last pass (cluster.NodeLeasesSince), as a real kubelet starts before it
// registers its node, and only while the Node is the one the lease was
// created for.
func (nl *NodeLifecycle) registerNodes() {
	leases, next := nl.c.NodeLeasesSince(nl.leaseCursor)
	nl.leaseCursor = next
	for _, l := range leases {
		n := nl.c.Node(l.Node)
		if n == nil || n.UID != l.HolderUID {
			continue
		}
		nl.c.RecordNodeEvent(&n.ObjectMeta, api.EventTypeNormal, "RegisteredNode",
			fmt.Sprintf("Node %s event: Registered Node %s in Controller", n.Name, n.Name), cluster.ComponentNodeLifecycle, "")
		if nl.known == nil {
			nl.known = map[string]string{}
		}
		nl.known[n.Name] = n.UID
	}
}

// removeNodes mirrors the controller's sight of a node gone from its
// informer's list (monitorNodeHealth, deleted nodes from classifyNodes):
// Normal RemovingNode "Node <name> event: Removing Node <name> from
// Controller" (controllerutil.RecordNodeEvent, with the deleted node's
// UID), and the node leaves knownNodeSet. Nodes are compared with the store
// only when some node changed.
func (nl *NodeLifecycle) removeNodes() {
	if len(nl.known) == 0 || nl.c.NodeVersion() == nl.knownSeen {
		return
	}
	nl.knownSeen = nl.c.NodeVersion()
	var gone []string
	for name, uid := range nl.known {
		if n := nl.c.Node(name); n == nil || n.UID != uid {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		meta := api.ObjectMeta{Name: name, UID: nl.known[name]}
		delete(nl.known, name)
		nl.c.RecordNodeEvent(&meta, api.EventTypeNormal, "RemovingNode",
			fmt.Sprintf("Node %s event: Removing Node %s from Controller", name, name), cluster.ComponentNodeLifecycle, "")
	}
}

// monitorNodeHealth mirrors tryUpdateNodeHealth for a node whose lease is
// no longer renewed (cluster.NodeLeaseRenewalEnded): once
// NodeMonitorGracePeriod has passed since the last renewal, every
// condition the kubelet posts turns Unknown and the node's pods are marked
// not ready; until then the controller asks to wake at the deadline.
func (nl *NodeLifecycle) monitorNodeHealth(n *api.Node) {
	since, down := nl.c.NodeLeaseRenewalEnded(n.Name)
	if !down {
		return
	}
	now := nl.c.Now()
	deadline := since.Add(NodeMonitorGracePeriod)
	if now.Before(deadline) {
		nl.c.WakeAt(deadline)
		return
	}
	if c := n.Condition(api.NodeReady); c != nil && c.Status == api.ConditionUnknown {
		return
	}
	for _, t := range []string{api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure, api.NodeReady} {
		c := n.Condition(t)
		if c == nil {
			n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: t, LastHeartbeatTime: cluster.MetaTime(since)})
			c = &n.Status.Conditions[len(n.Status.Conditions)-1]
		}
		c.Status, c.Reason, c.Message, c.LastTransitionTime = api.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.", nl.c.Stamp()
	}
	_ = nl.c.UpdateNode(n)
	nl.c.Record("Node", &n.ObjectMeta, "", api.EventTypeNormal, "NodeNotReady", fmt.Sprintf("Node %s status is now: NodeNotReady", n.Name), cluster.ComponentNodeLifecycle, "")
	nl.markPodsNotReady(n)
	nl.c.Decide(cluster.Decision{Component: cluster.ComponentNodeLifecycle, Func: "tryUpdateNodeHealth", Object: "Node/" + n.Name, Node: n.Name,
		Action: "unknown", Reason: fmt.Sprintf("the kubelet has not posted status for %s (node-monitor-grace-period): Ready=Unknown", NodeMonitorGracePeriod)})
}

// wantedTaints mirrors nodeConditionToTaintKeyStatusMap and the NoExecute
// pass: Ready False -> not-ready, Unknown -> unreachable (NoSchedule and
// NoExecute); pressure and network conditions True -> NoSchedule taints;
// spec.unschedulable -> unschedulable:NoSchedule.
func wantedTaints(n *api.Node) []api.Taint {
	var out []api.Taint
	add := func(key, effect string) { out = append(out, api.Taint{Key: key, Effect: effect}) }
	if c := n.Condition(api.NodeReady); c != nil {
		switch c.Status {
		case api.ConditionFalse:
			add(api.TaintNodeNotReady, api.TaintEffectNoSchedule)
			add(api.TaintNodeNotReady, api.TaintEffectNoExecute)
		case api.ConditionUnknown:
			add(api.TaintNodeUnreachable, api.TaintEffectNoSchedule)
			add(api.TaintNodeUnreachable, api.TaintEffectNoExecute)
		}
	}
	for _, ck := range conditionTaints {
		if c := n.Condition(ck.condition); c != nil && c.Status == api.ConditionTrue {
			add(ck.taintKey, api.TaintEffectNoSchedule)
		}
	}
	if n.Spec.Unschedulable {
		add(api.TaintNodeUnschedulable, api.TaintEffectNoSchedule)
	}
	return out
}

// conditionTaints are the node conditions that, while True, make the
// controller taint the node NoSchedule, with the taint's key, in the
// order the taints are added (upstream nodeConditionToTaintKeyStatusMap,
// pkg/controller/nodelifecycle/node_lifecycle_controller.go, for the
// conditions the kubelet reports: MemoryPressure, DiskPressure,
// PIDPressure, NetworkUnavailable).
var conditionTaints = []struct{ condition, taintKey string }{
	{api.NodeMemoryPressure, api.TaintNodeMemoryPressure},
	{api.NodeDiskPressure, api.TaintNodeDiskPressure},
	{api.NodePIDPressure, api.TaintNodePIDPressure},
	{api.NodeNetworkUnavailable, api.TaintNodeNetworkUnavailable},
}

// ConditionTaintKey returns the key of the NoSchedule taint the
// controller adds while node condition typ is True
// ("node.kubernetes.io/memory-pressure" for MemoryPressure), "" when typ
// adds none (Ready's taints depend on its status: not-ready, unreachable).
func ConditionTaintKey(typ string) string {
	for _, ck := range conditionTaints {
		if ck.condition == typ {
			return ck.taintKey
		}
	}
	return ""
}

// reconcileTaints adds missing lifecycle taints (timeAdded now) and removes
// lifecycle taints no condition calls for; other taints are left alone.
func (nl *NodeLifecycle) reconcileTaints(n *api.Node) {
	want := wantedTaints(n)
	has := func(ts []api.Taint, t *api.Taint) bool {
		for i := range ts {
			if ts[i].MatchTaint(t) {
				return true
			}
		}
		return false
	}
	var kept []api.Taint
	var removed, added []string
	for i := range n.Spec.Taints {
		t := &n.Spec.Taints[i]
		if lifecycleTaintKeys[t.Key] && !has(want, t) {
			removed = append(removed, t.ToString())
			continue
		}
		kept = append(kept, *t)
	}
	now := nl.c.Stamp()
	for i := range want {
		t := want[i]
		if !has(kept, &t) {
			tm := now // a metav1.Time: whole seconds
			t.TimeAdded = &tm
			kept = append(kept, t)
			added = append(added, t.ToString())
		}
	}
	if len(removed) == 0 && len(added) == 0 {
		return
	}
	n.Spec.Taints = kept
	_ = nl.c.UpdateNode(n)
	if len(added) > 0 {
		nl.c.Decide(cluster.Decision{Component: cluster.ComponentNodeLifecycle, Func: "doNoScheduleTaintingPass", Object: "Node/" + n.Name, Node: n.Name,
			Action: "taint", Reason: fmt.Sprintf("added %v to match the node's conditions", added)})
	}
	if len(removed) > 0 {
		nl.c.Decide(cluster.Decision{Component: cluster.ComponentNodeLifecycle, Func: "doNoScheduleTaintingPass", Object: "Node/" + n.Name, Node: n.Name,
			Action: "untaint", Reason: fmt.Sprintf("removed %v: the condition behind it cleared", removed)})
	}
}

// markPodsNotReady mirrors controllerutil.MarkPodsNotReady: the pods of a
// node that stopped reporting get Ready=False (the kubelet is not there to
// say otherwise) and a NodeNotReady warning.
func (nl *NodeLifecycle) markPodsNotReady(n *api.Node) {
	now := nl.c.Stamp() // a stored condition time: whole seconds
	for _, p := range nl.c.PodsOnNode(n.Name) {
		c := p.Condition(api.PodReady)
		if c == nil || c.Status == api.ConditionFalse {
			continue
		}
		c.Status, c.LastTransitionTime = api.ConditionFalse, now
		_ = nl.c.UpdatePod(p)
		nl.c.Record("Pod", &p.ObjectMeta, "", api.EventTypeWarning, "NodeNotReady", "Node is not ready", cluster.ComponentNodeLifecycle, "")
	}
}
