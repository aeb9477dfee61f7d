package scheduler

import "github.com/dsplayground/dsplay/engine/api"

// podFilterState is the CycleState of the pod being scheduled: the
// PreFilter results of PodTopologySpread (nil: skipped) and
// InterPodAffinity, computed on the first filter call that reaches them
// (neither PreFilter can reject a pod, so computing them lazily changes no
// outcome).
type podFilterState struct {
	pod      *api.Pod
	spread   *spreadState
	affinity *interPodAffinityState
}

// preFilter returns p's PreFilter state, computing it from the cycle's
// node infos on first use within p's scheduling attempt.
func (cy *cycle) preFilter(p *api.Pod) *podFilterState {
	if cy.ps != nil && cy.ps.pod == p {
		return cy.ps
	}
	cy.ps = &podFilterState{pod: p, spread: cy.podTopologySpreadPreFilter(p), affinity: cy.interPodAffinityPreFilter(p)}
	return cy.ps
}

// dynamicFilter mirrors RunFilterPluginsWithNominatedPods for the filter
// plugins whose verdict depends on the pods of a node, in the default
// profile's order: NodePorts, NodeResourcesFit, PodTopologySpread,
// InterPodAffinity. ni is the node as the caller sees it (possibly with
// pods removed, as SelectVictimsOnNode does). The plugins run first with
// the pods nominated to the node of priority at least p's added
// (addGENominatedPods); if that passes and pods were added, they run again
// without them, so that a nominated pod cannot be what satisfies p's pod
// affinity.
func (cy *cycle) dynamicFilter(p *api.Pod, ni *nodeInfo, cpu, mem int64, ports []hostPort) nodeStatus {
	withNominated := cy.withNominated(ni, p)
	st := cy.runDynamicFilters(p, withNominated, cpu, mem, ports)
	if st.reasons != nil || withNominated == ni {
		return st
	}
	return cy.runDynamicFilters(p, ni, cpu, mem, ports)
}

// runDynamicFilters runs the plugins of dynamicFilter once on ni. The
// PreFilter states were computed from the cycle's node info of ni's node;
// the pods ni holds beyond it, or lacks, are added to or removed from a
// copy of the states first (the AddPod / RemovePod PreFilter extensions).
func (cy *cycle) runDynamicFilters(p *api.Pod, ni *nodeInfo, cpu, mem int64, ports []hostPort) nodeStatus {
	if st := fitFilter(ni, cpu, mem, ports); st.reasons != nil {
		return st
	}
	ps := cy.preFilter(p)
	spread, affinity := ps.spread, ps.affinity
	if spread == nil && affinity.skip {
		return nodeStatus{}
	}
	if base := cy.info(ni.node); base != ni {
		added, removed := podDelta(base, ni)
		if len(added)+len(removed) > 0 {
			if spread != nil {
				spread = spread.clone()
				for _, q := range added {
					spread.update(q, ni.node, 1)
				}
				for _, q := range removed {
					spread.update(q, ni.node, -1)
				}
			}
			if !affinity.skip {
				affinity = affinity.clone()
				for _, q := range added {
					affinity.update(q, ni.node, 1)
				}
				for _, q := range removed {
					affinity.update(q, ni.node, -1)
				}
			}
		}
	}
	if st := spread.filter(ni.node); st.reasons != nil {
		return st
	}
	return affinity.filter(ni.node)
}

// podDelta returns the pods ni holds that base does not (added) and those
// base holds that ni does not (removed), by UID, in their node-info order.
func podDelta(base, ni *nodeInfo) (added, removed []*api.Pod) {
	in := make(map[string]bool, len(ni.pods))
	for _, q := range ni.pods {
		in[q.UID] = true
	}
	was := make(map[string]bool, len(base.pods))
	for _, q := range base.pods {
		was[q.UID] = true
		if !in[q.UID] {
			removed = append(removed, q)
		}
	}
	for _, q := range ni.pods {
		if !was[q.UID] {
			added = append(added, q)
		}
	}
	return added, removed
}
