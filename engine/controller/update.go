package controller

import (
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// SurgeCount mirrors util.SurgeCount: 0 unless the strategy is
// RollingUpdate with a maxSurge; otherwise maxSurge scaled against
// numberToSchedule (a percentage is rounded up). The error reports a
// maxSurge that is neither an integer nor a percentage.
func SurgeCount(ds *api.DaemonSet, numberToSchedule int) (int, error) {
	s := ds.Spec.UpdateStrategy
	if s.Type != api.RollingUpdateDaemonSetStrategyType || s.RollingUpdate == nil || s.RollingUpdate.MaxSurge == nil {
		return 0, nil
	}
	return s.RollingUpdate.MaxSurge.ScaledValue(numberToSchedule, true)
}

// UnavailableCount mirrors util.UnavailableCount: 0 unless the strategy is
// RollingUpdate; otherwise maxUnavailable scaled against numberToSchedule
// (a percentage is rounded up). A nil maxUnavailable is an error, as
// upstream (defaulting always sets it to 1).
func UnavailableCount(ds *api.DaemonSet, numberToSchedule int) (int, error) {
	s := ds.Spec.UpdateStrategy
	if s.Type != api.RollingUpdateDaemonSetStrategyType || s.RollingUpdate == nil {
		return 0, nil
	}
	return s.RollingUpdate.MaxUnavailable.ScaledValue(numberToSchedule, true)
}

// AllowsSurge mirrors util.AllowsSurge: the DaemonSet may run more than one
// pod on a node during an update (RollingUpdate with a maxSurge that scales
// to more than 0).
func AllowsSurge(ds *api.DaemonSet) bool {
	n, err := SurgeCount(ds, 1)
	return err == nil && n > 0
}

// updatedDesiredNodeCounts mirrors update.go updatedDesiredNodeCounts: it
// counts the nodes that should run the pod (desiredNumberScheduled), adds an
// empty entry to nodeToDaemonPods for each of them that has no pod, and
// scales maxSurge and maxUnavailable against that count. When the
// DaemonSet has desired nodes but both scale to 0, maxUnavailable becomes 1
// (upstream logs "DaemonSet is not configured for surge or unavailability,
// defaulting to accepting unavailability"). verdicts[i] is the verdict of
// nodes[i].
func updatedDesiredNodeCounts(ds *api.DaemonSet, nodes []*api.Node, verdicts []verdictCode, nodeToDaemonPods map[string][]*api.Pod) (maxSurge, maxUnavailable, desiredNumberScheduled int, err error) {
	for i, node := range nodes {
		if !verdicts[i].shouldRun {
			continue
		}
		desiredNumberScheduled++
		if _, exists := nodeToDaemonPods[node.Name]; !exists {
			nodeToDaemonPods[node.Name] = nil
		}
	}
	maxUnavailable, err = UnavailableCount(ds, desiredNumberScheduled)
	if err != nil {
		return -1, -1, -1, fmt.Errorf("invalid value for MaxUnavailable: %v", err)
	}
	maxSurge, err = SurgeCount(ds, desiredNumberScheduled)
	if err != nil {
		return -1, -1, -1, fmt.Errorf("invalid value for MaxSurge: %v", err)
	}
	if desiredNumberScheduled > 0 && maxUnavailable == 0 && maxSurge == 0 {
		maxUnavailable = 1
	}
	return maxSurge, maxUnavailable, desiredNumberScheduled, nil
}

// findUpdatedPods mirrors upstream findUpdatedPodsOnNode: the node's one
// updated pod and one old pod (IsPodUpdated against hash and the template
// generation gen, parsed once per sync), ignoring terminating pods; ok is
// false when there are several of either (manage prunes them first).
func findUpdatedPods(gen templateGeneration, podsOnNode []*api.Pod, hash string) (newPod, oldPod *api.Pod, ok bool) {
	for _, pod := range podsOnNode {
		if pod.DeletionTimestamp != nil {
			continue
		}
		if gen.isPodUpdated(pod, hash) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = pod
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = pod
		}
	}
	return newPod, oldPod, true
}

// rolloutNode is one entry of nodeToDaemonPods in the order rollingUpdate
// visits them.
type rolloutNode struct {
	name string
	pods []*api.Pod
	// node is nil when the pods target a node that no longer exists.
	node *api.Node
	v    verdictCode
}

// rolloutOrder yields nodeToDaemonPods deterministically: the nodes of the
// node list in name order, then the target nodes that no longer exist, in
// name order. (Upstream ranges over the map, so its order is random; the
// simulator must not depend on it and tests do not assert a victim.) It
// allocates only when pods target vanished nodes.
func rolloutOrder(nodes []*api.Node, verdicts []verdictCode, nodeToDaemonPods map[string][]*api.Pod) iter.Seq[rolloutNode] {
	return func(yield func(rolloutNode) bool) {
		seen := 0
		for i, n := range nodes {
			if pods, ok := nodeToDaemonPods[n.Name]; ok {
				seen++
				if !yield(rolloutNode{name: n.Name, pods: pods, node: n, v: verdicts[i]}) {
					return
				}
			}
		}
		if seen == len(nodeToDaemonPods) {
			return
		}
		for _, name := range vanishedNodes(nodes, nodeToDaemonPods) {
			if !yield(rolloutNode{name: name, pods: nodeToDaemonPods[name]}) {
				return
			}
		}
	}
}

// rollout holds what rollingUpdate needs to word its decisions.
type rollout struct {
	dsc       *DaemonSetsController
	ds        *api.DaemonSet
	now       time.Time
	revisions map[string]int64 // controller-revision-hash -> revision
	curRev    int64
	plan      *podPlan

	// for the "wait" decision: nodes with an old pod, and the nodes that
	// hold the rollout back (the first few names and how many)
	oldLeft     int
	blockers    []string
	numBlockers int
}

// block notes a node that holds the rollout back.
func (r *rollout) block(node string) {
	r.numBlockers++
	if len(r.blockers) < 3 {
		r.blockers = append(r.blockers, node)
	}
}

func (r *rollout) blockerList() string {
	s := strings.Join(r.blockers, ", ")
	if r.numBlockers > len(r.blockers) {
		s += fmt.Sprintf(" and %d more", r.numBlockers-len(r.blockers))
	}
	return s
}

// noteWait records a "wait" decision when the rollout cannot progress this
// sync, once per distinct reason (the loop runs the controller often, and
// a decision per pass would drown the log); progress forgets the reason.
func (dsc *DaemonSetsController) noteWait(ds *api.DaemonSet, waiting bool, reason func() string) {
	if !waiting {
		delete(dsc.lastWait, ds.UID)
		return
	}
	why := reason()
	if dsc.lastWait[ds.UID] == why {
		return
	}
	dsc.lastWait[ds.UID] = why
	dsc.decide(ds, "rollingUpdate", "", "", "wait", why)
}

// available reports whether pod is Available (Ready for minReadySeconds).
// A Ready pod still waiting out minReadySeconds asks the loop to wake the
// controller when it becomes available (upstream re-queues the DaemonSet
// minReadySeconds+1s after the pod turns Ready).
func (r *rollout) available(pod *api.Pod) bool {
	mrs := r.ds.Spec.MinReadySeconds
	if pod.IsAvailable(mrs, r.now) {
		return true
	}
	if t, ok := availableRequeue(pod, mrs); ok {
		r.dsc.c.WakeAt(t)
	}
	return false
}

// availableRequeue returns when to look again at a Ready pod that is not
// yet Available: minReadySeconds after it turned Ready, plus the second
// upstream adds when it re-queues the DaemonSet (minReadySeconds+1s). ok
// is false when the pod is not Ready or minReadySeconds is 0.
func availableRequeue(pod *api.Pod, minReadySeconds int32) (time.Time, bool) {
	c := pod.Condition(api.PodReady)
	if c == nil || c.Status != api.ConditionTrue || minReadySeconds <= 0 {
		return time.Time{}, false
	}
	return c.LastTransitionTime.Add(time.Duration(minReadySeconds)*time.Second + time.Second), true
}

// whyUnavailable says in words why pod is not Available.
func (r *rollout) whyUnavailable(pod *api.Pod) string {
	c := pod.Condition(api.PodReady)
	if c == nil || c.Status != api.ConditionTrue {
		return "not Ready"
	}
	mrs := r.ds.Spec.MinReadySeconds
	return fmt.Sprintf("Ready for %s of minReadySeconds=%d", r.now.Sub(c.LastTransitionTime).Truncate(time.Second), mrs)
}

// oldPod names an old pod by its revision, from its controller-revision-hash:
// "old revision 1 pod" (or "old pod" when no revision has that hash).
func (r *rollout) oldPod(pod *api.Pod) string {
	if n, ok := r.revisions[pod.Labels[api.ControllerRevisionHashLabelKey]]; ok {
		return fmt.Sprintf("old revision %d pod", n)
	}
	return "old pod"
}

func (r *rollout) newRev() string { return fmt.Sprintf("revision %d", r.curRev) }

// notFit says why the node no longer fits the DaemonSet.
func (r *rollout) notFit(n rolloutNode) string {
	if n.node == nil {
		return fmt.Sprintf("node %s no longer exists", n.name)
	}
	return r.plan.explain(n.node).Reason()
}

// rollingUpdate mirrors upstream pkg/controller/daemon/update.go
// rollingUpdate: within the
// limits of the update strategy, delete old pods (maxSurge == 0: manage
// creates the replacement on a later sync, once the old pod is gone) or
// create updated pods beside old ones and delete the old pod once the new
// one is Available (maxSurge > 0). Creates and deletes go through syncNodes
// and are recorded as decisions of Func "rollingUpdate".
//
// nodeToDaemonPods must be current (read after manage's writes); it gains
// empty entries for desired nodes without pods.
func (dsc *DaemonSetsController) rollingUpdate(ds *api.DaemonSet, nodes []*api.Node, verdicts []verdictCode, nodeToDaemonPods map[string][]*api.Pod, hash string, plan *podPlan, cur *api.ControllerRevision, old []*api.ControllerRevision) {
	maxSurge, maxUnavailable, desiredNumberScheduled, err := updatedDesiredNodeCounts(ds, nodes, verdicts, nodeToDaemonPods)
	if err != nil {
		// Upstream returns the error and the DaemonSet is re-queued; the
		// API server's validation makes this unreachable for applied objects.
		return
	}
	r := &rollout{dsc: dsc, ds: ds, now: dsc.c.Now(), plan: plan, curRev: cur.Revision,
		revisions: make(map[string]int64, len(old)+1)}
	for _, h := range old {
		r.revisions[h.Labels[api.ControllerRevisionHashLabelKey]] = h.Revision
	}
	r.revisions[hash] = cur.Revision
	order := rolloutOrder(nodes, verdicts, nodeToDaemonPods)
	gen := newTemplateGeneration(GetTemplateGeneration(ds))
	const fn = "rollingUpdate"

	if maxSurge == 0 {
		// Delete just enough old pods to stay within maxUnavailable; manage
		// creates their replacements. Nodes without a pod, with an old and a
		// new pod, or whose new pod is not available count as unavailable.
		var numUnavailable int
		var allowedReplacementPods, candidatePodsToDelete []podToDelete
		for n := range order {
			newPod, oldPod, ok := findUpdatedPods(gen, n.pods, hash)
			if !ok {
				// several pods: manage prunes them; count the node unavailable
				numUnavailable++
				r.block(n.name)
				continue
			}
			if oldPod != nil {
				r.oldLeft++
			}
			switch {
			case oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
				numUnavailable++
				r.block(n.name)
			case newPod != nil:
				if !r.available(newPod) {
					numUnavailable++
					r.block(n.name)
				}
			default:
				switch {
				case !r.available(oldPod):
					allowedReplacementPods = append(allowedReplacementPods, podToDelete{oldPod, n.name, fn, fmt.Sprintf(
						"the %s is not available (%s), so it is replaced at once without counting against maxUnavailable=%d; the %s pod is created once it has gone",
						r.oldPod(oldPod), r.whyUnavailable(oldPod), maxUnavailable, r.newRev())})
					numUnavailable++
				case numUnavailable >= maxUnavailable:
					// no room for more candidates
				default:
					candidatePodsToDelete = append(candidatePodsToDelete, podToDelete{oldPod, n.name, fn, r.oldPod(oldPod)})
				}
			}
		}
		remaining := max(0, min(maxUnavailable-numUnavailable, len(candidatePodsToDelete)))
		for i := range candidatePodsToDelete[:remaining] {
			d := &candidatePodsToDelete[i]
			d.reason = fmt.Sprintf("%s, %d of maxUnavailable=%d used; the %s pod is created once it has gone",
				d.reason, numUnavailable+i+1, maxUnavailable, r.newRev())
		}
		toDelete := append(allowedReplacementPods, candidatePodsToDelete[:remaining]...)
		dsc.noteWait(ds, len(toDelete) == 0 && r.oldLeft > 0, func() string {
			return fmt.Sprintf("the rolling update waits: %d old pod(s) left, but %d node(s) are already without an available pod (%s) and maxUnavailable=%d",
				r.oldLeft, numUnavailable, r.blockerList(), maxUnavailable)
		})
		dsc.syncNodes(ds, toDelete, nil, hash)
		return
	}

	// Surge: create an updated pod beside every unavailable old pod, and
	// beside up to maxSurge available old ones; delete an old pod once the
	// updated pod next to it is available.
	var oldPodsToDelete, shouldNotRunPodsToDelete []podToDelete
	var allowedNewNodes, candidateNewNodes []podToCreate
	var numSurge, numAvailable int
	for n := range order {
		newPod, oldPod, ok := findUpdatedPods(gen, n.pods, hash)
		if !ok {
			// several pods: manage prunes them; count the node as surging
			numSurge++
			r.block(n.name)
			continue
		}
		if oldPod != nil {
			r.oldLeft++
		}
		// availability of every node, including those being sunset
		if oldPod != nil {
			if r.available(oldPod) {
				numAvailable++
			}
		} else if newPod != nil && r.available(newPod) {
			numAvailable++
		}
		switch {
		case oldPod == nil:
			// manage creates a pod if the node has none
		case newPod == nil:
			if n.node == nil {
				// Upstream fails to get the node, returns an error and does
				// nothing this sync; the pod GC removes such pods soon.
				return
			}
			if !r.available(oldPod) {
				if !n.v.shouldRun {
					oldPodsToDelete = append(oldPodsToDelete, podToDelete{oldPod, n.name, fn, fmt.Sprintf(
						"the %s is not available (%s) and the node no longer fits the DaemonSet: %s", r.oldPod(oldPod), r.whyUnavailable(oldPod), r.notFit(n))})
					continue
				}
				allowedNewNodes = append(allowedNewNodes, podToCreate{n.name, fn, fmt.Sprintf(
					"the %s on this node is not available (%s), so a %s pod is created beside it at once, without counting against maxSurge=%d",
					r.oldPod(oldPod), r.whyUnavailable(oldPod), r.newRev(), maxSurge)})
				continue
			}
			if !n.v.shouldRun {
				shouldNotRunPodsToDelete = append(shouldNotRunPodsToDelete, podToDelete{oldPod, n.name, fn, fmt.Sprintf(
					"the node no longer fits the DaemonSet (%s); with maxSurge the %s goes only while more pods are available than desired", r.notFit(n), r.oldPod(oldPod))})
				continue
			}
			if numSurge >= maxSurge {
				continue
			}
			candidateNewNodes = append(candidateNewNodes, podToCreate{n.name, fn, r.oldPod(oldPod)})
		default:
			// already surged onto this node
			if !r.available(newPod) {
				numSurge++
				r.block(n.name)
				continue
			}
			oldPodsToDelete = append(oldPodsToDelete, podToDelete{oldPod, n.name, fn, fmt.Sprintf(
				"the %s pod %s next to it is available, so the %s goes", r.newRev(), newPod.Name, r.oldPod(oldPod))})
		}
	}
	remainingSurge := max(0, min(maxSurge-numSurge, len(candidateNewNodes)))

	// With maxSurge the owner expects full availability: when the scheduling
	// constraints move, a pod on a node that no longer fits goes only while
	// more pods are available than desired.
	deletable := max(0, min(numAvailable-desiredNumberScheduled, len(shouldNotRunPodsToDelete)))
	for i := range shouldNotRunPodsToDelete[:deletable] {
		d := shouldNotRunPodsToDelete[i]
		d.reason += fmt.Sprintf(" (%d available, %d desired)", numAvailable, desiredNumberScheduled)
		oldPodsToDelete = append(oldPodsToDelete, d)
	}
	for i := range candidateNewNodes[:remainingSurge] {
		c := &candidateNewNodes[i]
		c.reason = fmt.Sprintf("surge: a %s pod is created beside the available %s, %d of maxSurge=%d used; the old pod goes once the new one is available",
			r.newRev(), c.reason, numSurge+i+1, maxSurge)
	}
	toCreate := append(allowedNewNodes, candidateNewNodes[:remainingSurge]...)
	dsc.noteWait(ds, len(oldPodsToDelete) == 0 && len(toCreate) == 0 && r.oldLeft > 0, func() string {
		why := fmt.Sprintf("the rolling update waits: %d old pod(s) left", r.oldLeft)
		if r.numBlockers > 0 {
			why += fmt.Sprintf(", %d updated pod(s) not available yet (%s) and maxSurge=%d", numSurge, r.blockerList(), maxSurge)
		}
		if held := len(shouldNotRunPodsToDelete) - deletable; held > 0 {
			why += fmt.Sprintf(", %d on nodes that no longer fit stay until more pods are available (%d) than desired (%d)", held, numAvailable, desiredNumberScheduled)
		}
		return why
	})
	dsc.syncNodes(ds, oldPodsToDelete, toCreate, hash)
}
