package kubelet

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// NodeLifecycle mirrors the node lifecycle controller
// (pkg/controller/nodelifecycle): a node whose kubelet has been silent for
// NodeMonitorGracePeriod gets its conditions set to Unknown
// (NodeStatusUnknown, "Kubelet stopped posting node status."), and every
// node carries exactly the taints its conditions and spec.unschedulable
// call for (doNoScheduleTaintingPass, doNoExecuteTaintingPass).
type NodeLifecycle struct {
	c *cluster.Cluster
	k *Kubelets
	// nodesSeen is the NodeVersion after the last pass over the nodes
	// (nodesSeenOK: one ran). While it holds and every kubelet is working,
	// no condition or taint can be due, so Sync skips the pass.
	nodesSeen   int64
	nodesSeenOK bool
}

// NewNodeLifecycle returns the controller; it learns which kubelets are
// silent from k.
func NewNodeLifecycle(c *cluster.Cluster, k *Kubelets) *NodeLifecycle {
	return &NodeLifecycle{c: c, k: k}
}

// lifecycleTaintKeys are the taint keys the controller owns.
var lifecycleTaintKeys = map[string]bool{
	api.TaintNodeNotReady: true, api.TaintNodeUnreachable: true, api.TaintNodeUnschedulable: true,
	api.TaintNodeMemoryPressure: true, api.TaintNodeDiskPressure: true, api.TaintNodePIDPressure: true,
	api.TaintNodeNetworkUnavailable: true,
}

// Sync runs monitorNodeHealth and the tainting passes over every node,
// unless no node changed since the last pass and no kubelet is silent.
func (nl *NodeLifecycle) Sync() {
	nl.registerNodes()
	if len(nl.k.down) == 0 && nl.nodesSeenOK && nl.c.NodeVersion() == nl.nodesSeen {
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
// It handles the nodes whose kubelet has announced itself, as a real
// kubelet starts before it registers its node; their kubelets then report
// NodeReady.
func (nl *NodeLifecycle) registerNodes() {
	k := nl.k
	for _, name := range k.awaitRegister {
		n := nl.c.Node(name)
		if a := k.agents[name]; n == nil || a == nil || a.uid != n.UID {
			continue
		}
		nl.c.RecordNodeEvent(&n.ObjectMeta, api.EventTypeNormal, "RegisteredNode",
			fmt.Sprintf("Node %s event: Registered Node %s in Controller", n.Name, n.Name), cluster.ComponentNodeLifecycle, "")
		k.awaitReady = append(k.awaitReady, name)
		k.synced = false
	}
	k.awaitRegister = k.awaitRegister[:0]
}

// monitorNodeHealth mirrors tryUpdateNodeHealth for a silent kubelet.
func (nl *NodeLifecycle) monitorNodeHealth(n *api.Node) {
	since, down := nl.k.StoppedSince(n.Name)
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
	for _, ck := range [][2]string{{api.NodeMemoryPressure, api.TaintNodeMemoryPressure}, {api.NodeDiskPressure, api.TaintNodeDiskPressure},
		{api.NodePIDPressure, api.TaintNodePIDPressure}, {api.NodeNetworkUnavailable, api.TaintNodeNetworkUnavailable}} {
		if c := n.Condition(ck[0]); c != nil && c.Status == api.ConditionTrue {
			add(ck[1], api.TaintEffectNoSchedule)
		}
	}
	if n.Spec.Unschedulable {
		add(api.TaintNodeUnschedulable, api.TaintEffectNoSchedule)
	}
	return out
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

// conditionWording is what a node reports for a condition type and status:
// reason, message and the kubelet's node event (setters.MemoryPressureCondition,
// DiskPressureCondition, PIDPressureCondition, ReadyCondition), or, for
// NetworkUnavailable, the route controller's reason and message
// (pkg/controller/route: NoRouteCreated / RouteCreated), which records no event.
var conditionWording = map[string]map[string][3]string{
	api.NodeMemoryPressure: {
		api.ConditionTrue:  {"KubeletHasInsufficientMemory", "kubelet has insufficient memory available", "NodeHasInsufficientMemory"},
		api.ConditionFalse: {"KubeletHasSufficientMemory", "kubelet has sufficient memory available", "NodeHasSufficientMemory"},
	},
	api.NodeDiskPressure: {
		api.ConditionTrue:  {"KubeletHasDiskPressure", "kubelet has disk pressure", "NodeHasDiskPressure"},
		api.ConditionFalse: {"KubeletHasNoDiskPressure", "kubelet has no disk pressure", "NodeHasNoDiskPressure"},
	},
	api.NodePIDPressure: {
		api.ConditionTrue:  {"KubeletHasInsufficientPID", "kubelet has insufficient PID available", "NodeHasInsufficientPID"},
		api.ConditionFalse: {"KubeletHasSufficientPID", "kubelet has sufficient PID available", "NodeHasSufficientPID"},
	},
	api.NodeReady: {
		api.ConditionTrue: {"KubeletReady", "kubelet is posting ready status", "NodeReady"},
		api.ConditionFalse: {"KubeletNotReady", "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized",
			"NodeNotReady"},
	},
	api.NodeNetworkUnavailable: {
		api.ConditionTrue:  {"NoRouteCreated", "Node created without a route", ""},
		api.ConditionFalse: {"RouteCreated", "RouteController created a route", ""},
	},
}

// NodeConditionTypes lists the condition types SetNodeCondition accepts.
var NodeConditionTypes = []string{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure, api.NodeNetworkUnavailable}

// SetNodeCondition makes the node report condition typ with status "True"
// or "False", as its kubelet's status setters would on a node running out
// of memory, disk or PIDs, or whose runtime network is not ready (Ready
// False); NetworkUnavailable as the route controller or CNI sets it. The
// condition gets the upstream reason and message, its lastTransitionTime
// moves when the status changes, and the kubelet records its node event
// (NodeHasInsufficientMemory, NodeNotReady, ...). The node lifecycle
// controller then adds or removes the taints the condition calls for
// (TaintNodesByCondition: memory-pressure, disk-pressure, pid-pressure,
// network-unavailable NoSchedule; not-ready NoSchedule and NoExecute).
// Ready=Unknown is what a silent kubelet leads to: use Stop. Errors: no
// such node, an unknown type or status, or a stopped kubelet (it posts
// nothing). A restarted kubelet (Start) reports a healthy node again.
func (k *Kubelets) SetNodeCondition(node, typ, status string) error {
	n := k.c.Node(node)
	if n == nil {
		return cluster.NotFound("nodes", node)
	}
	w, ok := conditionWording[typ]
	if !ok {
		return fmt.Errorf("unknown node condition %q: want one of %s", typ, strings.Join(NodeConditionTypes, ", "))
	}
	words, ok := w[status]
	if !ok {
		if typ == api.NodeReady && status == api.ConditionUnknown {
			return fmt.Errorf("Ready=Unknown is set by the node lifecycle controller when a kubelet goes silent: use `node fail %s`", node)
		}
		return fmt.Errorf("node condition %s: status %q must be True or False", typ, status)
	}
	if !k.Running(node) {
		return fmt.Errorf("node %q has failed: its kubelet posts no status (node recover %s first)", node, node)
	}
	now := k.c.Stamp() // stored condition times: whole seconds
	cond := n.Condition(typ)
	if cond == nil {
		n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: typ})
		cond = &n.Status.Conditions[len(n.Status.Conditions)-1]
	}
	changed := cond.Status != status
	if changed {
		cond.LastTransitionTime = now
	}
	cond.Status, cond.Reason, cond.Message, cond.LastHeartbeatTime = status, words[0], words[1], now
	if err := k.c.UpdateNode(n); err != nil {
		return err
	}
	if changed && words[2] != "" {
		k.recordNodeStatusEvent(n, words[2])
	}
	k.c.Decide(cluster.Decision{Component: cluster.ComponentKubelet, Func: "setNodeStatus", Object: "Node/" + node, Node: node,
		Action: "condition", Reason: fmt.Sprintf("the node reports %s=%s (%s: %s)", typ, status, words[0], words[1])})
	return nil
}

// ReasonEvicted is the reason of a pod the eviction manager refuses or
// evicts (pkg/kubelet/eviction Reason).
const ReasonEvicted = "Evicted"

// systemCriticalPriority is scheduling.SystemCriticalPriority: pods at or
// above it are critical (kubelettypes.IsCriticalPod; static and mirror
// pods, also critical upstream, are not simulated).
const systemCriticalPriority int32 = 2000000000

// evictionAdmit mirrors the eviction manager's Admit
// (pkg/kubelet/eviction/eviction_manager.go), the first of the kubelet's
// pod admit handlers: on a node reporting MemoryPressure, DiskPressure or
// PIDPressure, a pod that is not critical is refused with reason Evicted and
// "The node had condition: [<types>]. " (nodeConditionMessageFmt), except
// under memory pressure alone, which admits pods that are not BestEffort
// and BestEffort pods tolerating node.kubernetes.io/memory-pressure:NoSchedule
// (as daemon pods do). The result is empty when the pod is admitted. The
// eviction manager's evictions of running pods under pressure are not
// simulated: the condition says nothing of which pod uses what.
func evictionAdmit(n *api.Node, p *api.Pod) (reason, msg string) {
	var conds []string
	for _, t := range []string{api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure} {
		if c := n.Condition(t); c != nil && c.Status == api.ConditionTrue {
			conds = append(conds, t)
		}
	}
	if len(conds) == 0 || (p.Spec.Priority != nil && *p.Spec.Priority >= systemCriticalPriority) {
		return "", ""
	}
	if len(conds) == 1 && conds[0] == api.NodeMemoryPressure {
		if api.GetPodQOS(&p.Spec) != api.PodQOSBestEffort {
			return "", ""
		}
		if api.TolerationsTolerateTaint(p.Spec.Tolerations, &api.Taint{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}) {
			return "", ""
		}
	}
	return ReasonEvicted, fmt.Sprintf("The node had condition: [%s]. ", strings.Join(conds, " "))
}
