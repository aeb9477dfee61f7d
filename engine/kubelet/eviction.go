package kubelet

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// The eviction manager's evictions of running pods mirror
// pkg/kubelet/eviction/eviction_manager.go (managerImpl.start and
// synchronize). While a node reports MemoryPressure, DiskPressure or
// PIDPressure (set with the scenario command `node condition`: in a real
// cluster the manager itself sets them from its observations, and evicts in
// the same pass), each pass of the manager:
//   - picks the resource to reclaim (byEvictionPriority: memory first,
//     then disk, then pids) and records the node event Warning
//     EvictionThresholdMet "Attempting to reclaim <resource>";
//   - ranks the node's active pods (rankMemoryPressure,
//     rankDiskPressureFunc: pods whose usage exceeds their requests first,
//     then by priority, lowest first; rankPIDPressure: by priority). Usage
//     is not simulated, so a pod "exceeds its requests" when it has no
//     request for the resource (a BestEffort pod for memory, a pod without
//     an ephemeral-storage request for disk); ties keep name order;
//   - evicts the first pod it may (evictPod refuses critical pods,
//     kubelettypes.IsCriticalPod: priority >= 2000000000, that is the
//     system-node-critical and system-cluster-critical classes; static
//     and mirror pods are not simulated): Warning Evicted event with the
//     message "The node was low on resource: <resource>. ", the pod's
//     phase Failed, reason Evicted, that message, condition
//     DisruptionTarget True (TerminationByKubelet); its containers are
//     terminated (exit code 137) EvictionKillDelay later. At most one pod
//     per pass.
//
// After an eviction the manager waits for the pod to be cleaned up
// (waitForPodsCleanup, polling every second; the containers stop within
// immediateEvictionGracePeriodSeconds = 1 s), so the next pass comes
// EvictionCleanupWait later; a pass that evicts nothing sleeps
// monitoringInterval (EvictionMonitoringInterval). A daemon pod is evicted
// like any other; its DaemonSet then deletes the failed pod and creates a
// new one (FailedDaemonPod), which under memory pressure alone is admitted
// (daemon pods tolerate memory-pressure) and evicted again.
//
// The message upstream goes on with "Threshold quantity: Q, available: A. "
// and, for pods exceeding their requests, "Container C was using U, request
// is R, has larger consumption of <resource>. "; the simulation has no
// usage figures and stops after the first sentence.

// Eviction manager timing (eviction_manager.go: monitoringInterval;
// podCleanupPollFreq after immediateEvictionGracePeriodSeconds).
const (
	EvictionMonitoringInterval = 10 * time.Second
	EvictionCleanupWait        = 2 * time.Second
)

// pressureResources are the pressure conditions in the order the manager
// reclaims them, with the resource name its messages use
// (signalToResource: memory, ephemeral-storage, pids).
var pressureResources = [][2]string{
	{api.NodeMemoryPressure, "memory"},
	{api.NodeDiskPressure, "ephemeral-storage"},
	{api.NodePIDPressure, "pids"},
}

// evictionManagers is what the eviction managers of all kubelets remember.
type evictionManagers struct {
	// next is the next pass of each pressured node's manager, by name.
	next map[string]time.Time
	// pressured lists the nodes reporting a pressure condition as of
	// NodeVersion seen (seenOK false: never scanned).
	pressured []string
	seen      int64
	seenOK    bool
	// killing holds the evicted pods whose containers are being stopped,
	// with when they stop (pod key "namespace/name").
	killing map[string]time.Time
}

// EvictionKillDelay is how long an evicted pod's containers take to stop:
// immediateEvictionGracePeriodSeconds (1 s). Until then kubectl shows the
// pod READY 1/1, STATUS Evicted; then its containers are terminated and the
// STATUS is the last container's reason (Error), as on a real node
// (kubernetes/kubernetes#105358).
const EvictionKillDelay = time.Second

// evictUnderPressure runs the due passes of the eviction manager of every
// working kubelet whose node reports a pressure condition. The nodes are
// scanned only when a node changed, so an unpressured cluster costs a
// version check per Sync.
func (k *Kubelets) evictUnderPressure() {
	em := &k.evict
	k.stopEvicted()
	if v := k.c.NodeVersion(); !em.seenOK || v != em.seen {
		em.seen, em.seenOK = v, true
		em.pressured = em.pressured[:0]
		for _, n := range k.c.Nodes() {
			if pressureResource(n) != "" {
				em.pressured = append(em.pressured, n.Name)
			}
		}
		for name := range em.next {
			if n := k.c.Node(name); n == nil || pressureResource(n) == "" {
				delete(em.next, name)
			}
		}
	}
	if len(em.pressured) == 0 {
		return
	}
	if em.next == nil {
		em.next = map[string]time.Time{}
	}
	now := k.c.Now()
	for _, name := range em.pressured {
		n := k.c.Node(name)
		if n == nil || !k.Running(name) {
			delete(em.next, name)
			continue
		}
		resource := pressureResource(n)
		if resource == "" {
			continue
		}
		next, ok := em.next[name]
		if !ok {
			next = now // the pass that observes the pressure evicts at once
		}
		for !next.After(now) {
			if !k.evictOne(n, resource) {
				// Nothing to evict: the manager sleeps monitoringInterval
				// between passes; no wake-up is needed until a pod
				// appears (Sync runs again then), and the passes keep
				// their 10 s rhythm.
				next = next.Add((now.Sub(next)/EvictionMonitoringInterval + 1) * EvictionMonitoringInterval)
				break
			}
			next = next.Add(EvictionCleanupWait)
		}
		em.next[name] = next
		if k.hasEvictable(n) {
			k.c.WakeAt(next)
		}
	}
}

// pressureResource is the resource the node's eviction manager reclaims
// first, or "" when the node reports no pressure.
func pressureResource(n *api.Node) string {
	for _, pr := range pressureResources {
		if c := n.Condition(pr[0]); c != nil && c.Status == api.ConditionTrue {
			return pr[1]
		}
	}
	return ""
}

// evictionCandidates are the node's active pods, ranked for eviction of
// resource, critical pods left out.
func (k *Kubelets) evictionCandidates(n *api.Node, resource string) []*api.Pod {
	var pods []*api.Pod
	for _, p := range k.c.PodsOnNode(n.Name) {
		if p.DeletionTimestamp != nil || p.IsTerminal() || p.Status.StartTime == nil {
			continue
		}
		if p.Spec.Priority != nil && *p.Spec.Priority >= systemCriticalPriority {
			continue // evictPod: "cannot evict a critical pod"
		}
		pods = append(pods, p)
	}
	exceeds := func(p *api.Pod) bool {
		switch resource {
		case "memory":
			return api.GetPodQOS(&p.Spec) == api.PodQOSBestEffort
		case "ephemeral-storage":
			for _, c := range p.Spec.Containers {
				if _, ok := c.Resources.Requests["ephemeral-storage"]; ok {
					return false
				}
			}
			return true
		}
		return false
	}
	sort.SliceStable(pods, func(i, j int) bool {
		a, b := pods[i], pods[j]
		if ea, eb := exceeds(a), exceeds(b); ea != eb {
			return ea
		}
		if pa, pb := api.PodPriority(a), api.PodPriority(b); pa != pb {
			return pa < pb
		}
		return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
	})
	return pods
}

// hasEvictable reports whether some pod of the node could be evicted.
func (k *Kubelets) hasEvictable(n *api.Node) bool {
	return len(k.evictionCandidates(n, "pids")) > 0
}

// evictOne is one pass of synchronize: it evicts the first ranked pod and
// reports whether it evicted one.
func (k *Kubelets) evictOne(n *api.Node, resource string) bool {
	pods := k.evictionCandidates(n, resource)
	if len(pods) == 0 {
		return false
	}
	k.c.RecordNodeEvent(nodeRef(n), api.EventTypeWarning, "EvictionThresholdMet", "Attempting to reclaim "+resource, cluster.ComponentKubelet, n.Name)
	p := pods[0]
	now := k.c.Now()
	msg := fmt.Sprintf("The node was low on resource: %s. ", resource)
	k.event(p, n, "", api.EventTypeWarning, ReasonEvicted, msg)
	p.Status.Phase = api.PodFailed
	p.Status.Reason = ReasonEvicted
	p.Status.Message = msg
	p.SetCondition(api.DisruptionTarget, api.ConditionTrue, "TerminationByKubelet", msg, cluster.MetaTime(now))
	// killPodFunc: the containers are stopped (sidecars after the app
	// containers, which the simulation does not time apart).
	for _, cs := range p.Status.ContainerStatuses {
		if cs.State.Running != nil {
			k.event(p, n, containerFieldPath(cs.Name), api.EventTypeNormal, "Killing", fmt.Sprintf("Stopping container %s", cs.Name))
		}
	}
	for _, cs := range p.Status.InitContainerStatuses {
		if cs.State.Running != nil {
			k.event(p, n, initFieldPath(cs.Name), api.EventTypeNormal, "Killing", fmt.Sprintf("Stopping container %s", cs.Name))
		}
	}
	sortPodConditions(p)
	_ = k.writeStatus(p)
	if k.evict.killing == nil {
		k.evict.killing = map[string]time.Time{}
	}
	k.evict.killing[p.Namespace+"/"+p.Name] = now.Add(EvictionKillDelay)
	k.c.WakeAt(now.Add(EvictionKillDelay))
	k.decide(p, "synchronize", "evict", fmt.Sprintf("the node %s is low on %s: the eviction manager evicted the pod (the first of %d ranked: requests exceeded, then lowest priority)", n.Name, resource, len(pods)))
	return true
}

// stopEvicted terminates the containers of the evicted pods whose kill is
// due (exit code 137: killed), leaving them not ready.
func (k *Kubelets) stopEvicted() {
	if len(k.evict.killing) == 0 {
		return
	}
	now := k.c.Now()
	keys := make([]string, 0, len(k.evict.killing))
	for key, at := range k.evict.killing {
		if !at.After(now) {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	for _, key := range keys {
		at := k.evict.killing[key]
		delete(k.evict.killing, key)
		ns, name, _ := strings.Cut(key, "/")
		p := k.c.Pod(ns, name)
		if p == nil {
			continue // deleted meanwhile (the DaemonSet removes failed pods)
		}
		for _, list := range [][]api.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses} {
			for i := range list {
				cs := &list[i]
				if r := cs.State.Running; r != nil {
					cs.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: r.StartedAt, FinishedAt: cluster.MetaTime(at), ContainerID: cs.ContainerID}}
				}
				cs.Ready = false
				cs.Started = api.BoolPtr(false)
			}
		}
		k.writeConditions(p, now)
		_ = k.writeStatus(p)
	}
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
