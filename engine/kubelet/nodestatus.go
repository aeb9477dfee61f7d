package kubelet

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

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
