package engine

import (
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/controller"
)

// NodeExplanation is why one DaemonSet has or lacks a pod on a node: the
// checks of NodeShouldRunDaemonPod and the pod, if any.
type NodeExplanation struct {
	DaemonSet, Namespace string
	Verdict              controller.Verdict
	// HasPod is true when a pod of the DaemonSet targets the node (bound to
	// it, or pending with the node-name affinity); PodName is the one the
	// status counts (controller.PodLess: bound first, then the oldest).
	HasPod  bool
	PodName string
}

// Explain returns, for every DaemonSet in namespace/name order, the verdict
// of NodeShouldRunDaemonPod on the named node and the pod it has there. It
// returns nil when the node does not exist.
func (s *Simulation) Explain(node string) []NodeExplanation {
	c := s.store
	n := c.Node(node)
	if n == nil {
		return nil
	}
	var out []NodeExplanation
	for _, ds := range c.DaemonSets() {
		e := NodeExplanation{DaemonSet: ds.Name, Namespace: ds.Namespace, Verdict: controller.NodeShouldRunDaemonPod(n, ds)}
		var best *api.Pod
		for _, p := range c.PodsOwnedBy(ds.UID) {
			if p.DeletionTimestamp != nil && p.IsTerminal() {
				continue
			}
			if t, err := controller.GetTargetNodeName(p); err != nil || t != node {
				continue
			}
			if best == nil || controller.PodLess(p, best) {
				best = p
			}
		}
		if best != nil {
			e.HasPod, e.PodName = true, best.Name
		}
		out = append(out, e)
	}
	return out
}
