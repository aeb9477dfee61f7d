package cluster

import (
	"sort"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// PlacementVersion returns a counter that increases whenever a node is
// created, updated or deleted, or a pod bound to a node (before or after the
// write) is created, updated or removed. The scheduler retries an
// unschedulable pod only when it changed since the pod's last attempt.
func (c *Cluster) PlacementVersion() int64 { return c.placementGen }

// NodeVersion returns a counter that increases whenever a node is created,
// updated or deleted (and on nothing else). Components that scan every node
// skip the scan while it is unchanged.
func (c *Cluster) NodeVersion() int64 { return c.nodeGen }

// OwnerPodVersion returns a counter that increases whenever a pod whose
// controller ownerReference has this UID ("" = pods without a controller),
// before or after the write, is created, updated or removed (and on nothing
// else). A controller whose pods did not change may skip re-reading them.
func (c *Cluster) OwnerPodVersion(uid string) int64 { return c.ownerGen[uid] }

// NodePodVersion returns a counter that increases whenever a pod bound to
// the node ("" = unbound pods), before or after the write, is created,
// updated or removed (and on nothing else).
func (c *Cluster) NodePodVersion(node string) int64 { return c.nodePodGen[node] }

// RevisionVersion returns a counter that increases whenever a
// ControllerRevision is created, updated or removed (or such a write is
// attempted).
func (c *Cluster) RevisionVersion() int64 { return c.revisionGen }

// PodOwnerUIDs returns the controller UIDs that own at least one pod, sorted
// (the empty UID of pods without a controller is left out). The garbage
// collector uses it to find pods whose owner is gone without scanning pods.
func (c *Cluster) PodOwnerUIDs() []string { return cachedIndexKeys(&c.podOwnerUIDs, c.podsByOwner) }

// cachedIndexKeys returns a copy of *cache, first filling it with
// indexKeys(idx) when it is nil (stale).
func cachedIndexKeys(cache *[]string, idx map[string]map[string]*api.Pod) []string {
	if *cache == nil {
		*cache = indexKeys(idx)
	}
	return append([]string(nil), *cache...)
}

// indexKeys returns the non-empty keys of a pod index that still hold a
// pod, sorted (never nil).
func indexKeys(idx map[string]map[string]*api.Pod) []string {
	out := make([]string, 0, len(idx))
	for k, m := range idx {
		if k != "" && len(m) > 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// DefaultTerminationGracePeriodSeconds is the pod default (30 s).
const DefaultTerminationGracePeriodSeconds int64 = 30

// DeletePod deletes a pod as the API server does (pod strategy
// CheckGracefulDelete + BeforeDelete). gracePeriodSeconds nil means the
// pod's spec.terminationGracePeriodSeconds (default 30). A pod that is not
// bound to a node, or is already Succeeded/Failed, is deleted at once
// (grace 0); so is any pod with grace 0 and no finalizers. Otherwise the pod
// gets deletionTimestamp = now + grace and deletionGracePeriodSeconds, and
// the kubelet removes it when its containers have stopped. Deleting a pod
// that is already terminating (BeforeDelete) changes it only when
// gracePeriodSeconds is given and shorter than its
// deletionGracePeriodSeconds: the deadline then moves to the original start
// of the deletion plus the new period. Errors: NotFound.
func (c *Cluster) DeletePod(namespace, name string, gracePeriodSeconds *int64) error {
	p := c.Pod(namespace, name)
	if p == nil {
		return NotFound("pods", name)
	}
	grace := DefaultTerminationGracePeriodSeconds
	if p.Spec.TerminationGracePeriodSeconds != nil {
		grace = *p.Spec.TerminationGracePeriodSeconds
	}
	if gracePeriodSeconds != nil {
		grace = *gracePeriodSeconds
	}
	if grace < 0 {
		grace = 0
	}
	if p.Spec.NodeName == "" || p.IsTerminal() {
		grace = 0
	}
	if grace == 0 && len(p.Finalizers) == 0 {
		return c.RemovePod(namespace, name)
	}
	deadline := c.stamp().Add(time.Duration(grace) * time.Second) // a metav1.Time: whole seconds
	if p.DeletionTimestamp != nil {
		old := p.DeletionGracePeriodSeconds
		if old == nil || *old == 0 || gracePeriodSeconds == nil || grace >= *old {
			return nil
		}
		deadline = p.DeletionTimestamp.Add(time.Duration(grace-*old) * time.Second)
	}
	if p.DeletionTimestamp == nil && p.Generation > 0 {
		// the first graceful deletion bumps the generation
		// (k8s.io/apiserver registry/rest BeforeDelete; for grace 0 with
		// finalizers, the generic store's markAsDeleting does the same),
		// so the kubelet's next status reports the new observedGeneration
		p.Generation++
	}
	p.DeletionTimestamp = &deadline
	g := grace
	p.DeletionGracePeriodSeconds = &g
	return c.UpdatePod(p)
}

// PodNodeNames returns the node names that bound pods refer to, sorted
// (nodes that no longer exist included). The pod GC uses it to find pods
// bound to vanished nodes without scanning every pod.
func (c *Cluster) PodNodeNames() []string { return cachedIndexKeys(&c.podNodeNames, c.podsByNode) }
