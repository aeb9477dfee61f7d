// Package controller is the simulated DaemonSet controller of
// kube-controller-manager (pkg/controller/daemon): for every DaemonSet it
// claims pods, decides per node whether a daemon pod should run there
// (NodeShouldRunDaemonPod), creates and deletes pods (manage, syncNodes),
// records ControllerRevisions, and writes the status.
//
// Differences from upstream, all because the simulated API calls are
// synchronous: there are no informer caches and no work queue; Sync runs
// syncDaemonSet for every DaemonSet in namespace/name order on every pass
// of the simulation loop, which covers every enqueue upstream makes (pod,
// node, ControllerRevision and DaemonSet events) at the same virtual
// instant. Three caches stand in for what the informers save upstream: a
// DaemonSet whose last sync was a no-op is not synced again until the
// store's change counters for its pods, the orphans, its revisions or the
// object itself move, or a node event enqueues it by upstream's rules
// (syncDaemonSet: no event, no sync; nodes.go: addNode, updateNode, and no
// handler for a deleted node); NodeShouldRunDaemonPod answers are kept
// until a node or the template's placement fields change (cachedVerdicts);
// and the pods of a
// sync are grouped by node in storage reused from sync to sync
// (getNodesToDaemonPods).
//
// Expectations (controller.ControllerExpectations, set by syncNodes and
// lowered by the informer's add/delete handlers) are modelled as observed
// at once: every create and delete is in the store before the next line of
// the sync runs, exactly as the fakePodControl of the upstream unit tests
// (pkg/controller/daemon/daemon_controller_test.go) calls CreationObserved
// and DeletionObserved inside CreatePods and DeletePod. So the expectations
// upstream checks before manage and before rollingUpdate are always
// satisfied, rollingUpdate runs right after manage in every sync of a
// RollingUpdate DaemonSet (update.go), and the sync-by-sync create/delete
// counts of the upstream tests (pkg/controller/daemon/daemon_controller_test.go,
// update_test.go) come out the same. The
// parts of the mechanism a learner could see remain: failed creates lower
// nothing but stop the slow start and requeue the DaemonSet with the work
// queue's backoff (syncNodes), and the 5-minute expectation timeout never
// matters because nothing is ever left unobserved.
package controller

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Upstream constants (pkg/controller/daemon and kube-controller-manager).
const (
	// BurstReplicas caps creates and deletes per sync (daemon_controller.go).
	BurstReplicas = 250
	// SlowStartInitialBatchSize is the first create batch; batches double.
	SlowStartInitialBatchSize = 1
	// FailedPodsBackoffInitial and FailedPodsBackoffMax bound the delay
	// before another failed pod on the same node is deleted.
	FailedPodsBackoffInitial = time.Second
	FailedPodsBackoffMax     = 15 * time.Minute
	// SyncErrorBackoffInitial and SyncErrorBackoffMax bound the requeue
	// delay of a DaemonSet whose sync failed (a refused pod create): the
	// work queue's DefaultControllerRateLimiter, 5 ms doubling to 1000 s.
	SyncErrorBackoffInitial = 5 * time.Millisecond
	SyncErrorBackoffMax     = 1000 * time.Second
)

// Event reasons of the DaemonSet controller.
const (
	SelectingAllReason       = "SelectingAll"
	FailedDaemonPodReason    = "FailedDaemonPod"
	SucceededDaemonPodReason = "SucceededDaemonPod"
	SuccessfulCreateReason   = "SuccessfulCreate"
	SuccessfulDeleteReason   = "SuccessfulDelete"
)

// DaemonSetsController mirrors upstream DaemonSetsController on the
// simulated store. Create it with NewDaemonSetsController.
type DaemonSetsController struct {
	c *cluster.Cluster
	// BurstReplicas caps creates and deletes per sync (default 250).
	BurstReplicas int

	failedPodsBackoff *Backoff
	// syncErrorBackoff delays the next create attempt of a DaemonSet (by
	// UID) after a refused create, as the work queue's rate limiter does.
	syncErrorBackoff *Backoff

	// lastVerdict remembers the verdict last reported per DaemonSet and
	// node, so that a "skip" decision is recorded when it changes, not on
	// every pass.
	lastVerdict map[verdictKey]verdictCode
	// selectingAll remembers the one-time skip decisions already made per
	// DaemonSet: an empty selector or a selector that misses the template
	// (keyed uid/generation), a DaemonSet being deleted (uid/deleting).
	selectingAll map[string]bool
	// lastWait is the last "wait" decision of rollingUpdate per DaemonSet
	// UID, so that a stalled rollout is explained once, not every pass.
	lastWait map[string]string
	// known are the DaemonSet UIDs of the previous Sync, to forget the
	// verdicts of deleted DaemonSets.
	known map[string]bool
	// lastRV and lastNow let Sync skip work when nothing changed.
	lastRV  int64
	lastNow time.Time
	synced  bool

	// verdicts caches, per DaemonSet UID, the NodeShouldRunDaemonPod
	// answers of the last sync (see cachedVerdicts).
	verdicts map[string]*verdictCache
	// Scratch storage reused by every sync (the controller runs on one
	// goroutine and keeps nothing of it between syncs; it is emptied at the
	// end of each Sync): the claimed pods, the node -> pods grouping built
	// over them, and a per-node buffer of running pods.
	claimBuf   []*api.Pod
	nodePods   map[string][]*api.Pod
	runningBuf []*api.Pod

	// quiet holds, per DaemonSet UID, the inputs of its last sync when that
	// sync wrote nothing, tried no create or delete and depended on no
	// clock (see syncDaemonSet); attempted and timeSensitive are set during
	// a sync.
	quiet                    map[string]syncInputs
	attempted, timeSensitive bool

	// seenNodes are the nodes as the node event handlers last saw them
	// (trimmed copies, see nodes.go), as of cluster.NodeVersion
	// seenNodeVersion; nodesObserved is false until the first Sync.
	seenNodes       map[string]*api.Node
	seenNodeVersion int64
	nodesObserved   bool
}

// syncInputs fingerprints what syncDaemonSet reads from the store and
// from the controller's settings, except the nodes: the DaemonSet object,
// the pods it controls, the orphans it may adopt and the ControllerRevisions
// (each by the store's change counter), and burstReplicas. Node changes
// re-sync a DaemonSet only through the node event handlers (nodes.go:
// addNode, updateNode, syncNodeUpdate; a deleted node enqueues nothing), as
// upstream.
type syncInputs struct {
	ds                   *api.DaemonSet
	dsRV                 string
	owned, orphans, revs int64
	burst                int
}

type verdictKey struct{ ds, node string }

// NewDaemonSetsController returns a controller working on c.
func NewDaemonSetsController(c *cluster.Cluster) *DaemonSetsController {
	return &DaemonSetsController{
		c:                 c,
		BurstReplicas:     BurstReplicas,
		failedPodsBackoff: NewBackoff(FailedPodsBackoffInitial, FailedPodsBackoffMax),
		syncErrorBackoff:  NewBackoff(SyncErrorBackoffInitial, SyncErrorBackoffMax),
		lastVerdict:       map[verdictKey]verdictCode{},
		selectingAll:      map[string]bool{},
		lastWait:          map[string]string{},
		known:             map[string]bool{},
		verdicts:          map[string]*verdictCache{},
		quiet:             map[string]syncInputs{},
	}
}

// Sync runs syncDaemonSet for every DaemonSet, in namespace/name order. When
// neither the store nor the clock changed since the previous Sync it does
// nothing (the result would be the same).
func (dsc *DaemonSetsController) Sync() {
	c := dsc.c
	if dsc.synced && c.ResourceVersion() == dsc.lastRV && c.Now().Equal(dsc.lastNow) {
		return
	}
	// Remember the version before our own writes: they are events the
	// controller must observe on the next pass (a deleted pod frees its node).
	dsc.synced, dsc.lastRV, dsc.lastNow = true, c.ResourceVersion(), c.Now()
	dss := c.DaemonSets()
	dsc.forgetDeleted(dss)
	nodes := c.NodesShared()
	dsc.observeNodes(dss, nodes)
	if len(dss) > 0 {
		for _, ds := range dss {
			dsc.syncDaemonSet(ds, nodes)
		}
	}
	// Keep nothing of the scratch storage between syncs (a timeline
	// checkpoint copies the controller; these would only weigh it down).
	clear(dsc.claimBuf)
	dsc.claimBuf = dsc.claimBuf[:0]
	clear(dsc.nodePods)
	clear(dsc.runningBuf)
	dsc.runningBuf = dsc.runningBuf[:0]
}

// forgetDeleted drops what the controller remembers per DaemonSet (last
// verdicts, wait reasons, selector warnings, sync-error backoff) for the
// DaemonSets that are gone.
func (dsc *DaemonSetsController) forgetDeleted(dss []*api.DaemonSet) {
	now := make(map[string]bool, len(dss))
	for _, ds := range dss {
		now[ds.UID] = true
	}
	var gone []string
	for uid := range dsc.known {
		if !now[uid] {
			gone = append(gone, uid)
		}
	}
	dsc.known = now
	if len(gone) == 0 {
		return
	}
	for _, uid := range gone {
		delete(dsc.lastWait, uid)
		delete(dsc.verdicts, uid)
		delete(dsc.quiet, uid)
		dsc.syncErrorBackoff.Reset(uid)
	}
	for k := range dsc.lastVerdict {
		if !now[k.ds] {
			delete(dsc.lastVerdict, k)
		}
	}
	for k := range dsc.selectingAll {
		if uid, _, _ := strings.Cut(k, "/"); !now[uid] {
			delete(dsc.selectingAll, k)
		}
	}
}

// Invalidate makes the next Sync run even if nothing changed (benchmarks,
// and callers that changed state outside the store).
func (dsc *DaemonSetsController) Invalidate() {
	dsc.synced = false
	clear(dsc.quiet)
}

func dsObject(ds *api.DaemonSet) string { return "DaemonSet/" + ds.Namespace + "/" + ds.Name }
func podObject(p *api.Pod) string       { return "Pod/" + p.Namespace + "/" + p.Name }

func (dsc *DaemonSetsController) decide(ds *api.DaemonSet, fn, object, node, action, reason string) {
	if object == "" {
		object = dsObject(ds)
	}
	dsc.c.Decide(cluster.Decision{Component: cluster.ComponentDaemonSetController, Func: fn, Object: object, Node: node, Action: action, Reason: reason})
}

func (dsc *DaemonSetsController) event(ds *api.DaemonSet, eventType, reason, message string) {
	dsc.c.Record("DaemonSet", &ds.ObjectMeta, "", eventType, reason, message, cluster.ComponentDaemonSetController, "")
}

// syncDaemonSet runs one sync of ds (doSync), unless the previous sync of
// ds was quiet and nothing it reads has changed since.
//
// Upstream syncs a DaemonSet whenever an informer event concerns it (its
// pods, its revisions, the DaemonSet itself, and the node events
// syncNodeUpdate enqueues it for) and when a requeue it asked for comes due.
// A sync that wrote nothing, attempted no create or delete and consulted no
// clock (no Ready pod waiting out minReadySeconds, no failed pod and its
// backoff, no pending create backoff: no wake-up asked for) is a fixed
// point: running it again on the same pods, revisions and DaemonSet does
// the same nothing (every decision it notes is deduplicated), so it is
// skipped while the store's
// change counters for those inputs stay the same and no node event
// enqueued it (observeNodes drops the quiet entry). This stands in for the
// informer: no event, no sync. In particular a deleted node enqueues
// nothing (nodes.go): a quiet DaemonSet keeps its status until the pod GC
// deletes its pod on that node.
func (dsc *DaemonSetsController) syncDaemonSet(ds *api.DaemonSet, nodes []*api.Node) {
	c := dsc.c
	in := syncInputs{ds: ds, dsRV: ds.ResourceVersion, owned: c.OwnerPodVersion(ds.UID), orphans: c.OwnerPodVersion(""),
		revs: c.RevisionVersion(), burst: dsc.BurstReplicas}
	if q, ok := dsc.quiet[ds.UID]; ok && q == in {
		return
	}
	delete(dsc.quiet, ds.UID)
	rv := c.ResourceVersion()
	// minReadySeconds makes a sync depend on the clock only while a Ready
	// pod is not yet Available; requeueReadyPods then asks for a wake-up at
	// the moment it becomes so and keeps the sync from being quiet. Once
	// every Ready pod is Available the answer no longer moves with time.
	dsc.attempted, dsc.timeSensitive = false, false
	wakes := c.PendingWakeups()
	dsc.doSync(ds, nodes)
	if ds.Spec.MinReadySeconds > 0 {
		dsc.requeueReadyPods(ds)
	}
	if c.ResourceVersion() == rv && !dsc.attempted && !dsc.timeSensitive && c.PendingWakeups() == wakes && !dsc.syncErrorBackoff.has(ds.UID) {
		dsc.quiet[ds.UID] = in
	}
}

// requeueReadyPods stands in for the enqueueDaemonSetAfter of upstream
// updatePod: a pod of a DaemonSet with minReadySeconds that turned Ready
// requeues it minReadySeconds+1s later, when the pod has become Available.
// Every live pod of ds still short of that moment asks for a wake-up then,
// and the sync is not quiet (its outcome moves with the clock).
func (dsc *DaemonSetsController) requeueReadyPods(ds *api.DaemonSet) {
	now := dsc.c.Now()
	for _, p := range dsc.c.PodsOwnedByShared(ds.UID) {
		if p.DeletionTimestamp != nil {
			continue
		}
		if t, ok := availableRequeue(p, ds.Spec.MinReadySeconds); ok && t.After(now) {
			dsc.c.WakeAt(t)
			dsc.timeSensitive = true
		}
	}
}

// doSync mirrors upstream syncDaemonSet
// (pkg/controller/daemon/daemon_controller.go): refuse the empty selector
// (SelectingAll), skip a DaemonSet being deleted, construct
// history, manage pods, roll out a new template (RollingUpdate only), clean
// up history, and update the status.
func (dsc *DaemonSetsController) doSync(ds *api.DaemonSet, nodes []*api.Node) {
	if api.IsEmptyLabelSelector(ds.Spec.Selector) {
		key := fmt.Sprintf("%s/%d", ds.UID, ds.Generation)
		if !dsc.selectingAll[key] {
			dsc.selectingAll[key] = true
			dsc.event(ds, api.EventTypeWarning, SelectingAllReason, "This daemon set is selecting all pods. A non-empty selector is required.")
			dsc.decide(ds, "syncDaemonSet", "", "", "skip", "the selector is empty ({}), which would select every pod: the controller does nothing")
		}
		return
	}
	if ds.DeletionTimestamp != nil {
		// Upstream returns before touching pods or status; say so once.
		key := ds.UID + "/deleting"
		if !dsc.selectingAll[key] {
			dsc.selectingAll[key] = true
			dsc.decide(ds, "syncDaemonSet", "", "", "skip", "the DaemonSet is being deleted (deletionTimestamp is set): the controller creates and deletes no pods and leaves its status as it is; the garbage collector removes its pods")
		}
		return
	}
	sel, err := api.LabelSelectorAsSelector(ds.Spec.Selector)
	if err != nil {
		return
	}
	if !sel.Matches(ds.Spec.Template.Labels) {
		// The API server refuses such a DaemonSet ("selector does not match
		// template labels"); one stored anyway would create pods it can never
		// claim, forever. Do nothing and say so once.
		key := fmt.Sprintf("%s/%d/template", ds.UID, ds.Generation)
		if !dsc.selectingAll[key] {
			dsc.selectingAll[key] = true
			dsc.decide(ds, "syncDaemonSet", "", "", "skip", "the selector does not match the pod template's labels, so the controller could never own its pods: it does nothing")
		}
		return
	}
	cur, old, err := dsc.constructHistory(ds, sel)
	if err != nil {
		return
	}
	hash := cur.Labels[api.ControllerRevisionHashLabelKey]
	plan := newPodPlan(ds)
	verdicts, noted := dsc.cachedVerdicts(ds, plan, nodes)

	// One read serves the whole sync unless a write happens in between:
	// with the store unchanged, the re-reads upstream makes (rollingUpdate,
	// and the status of the next sync) return the same pods.
	allPods := dsc.getNodesToDaemonPods(ds, sel, true)
	readRV := dsc.c.ResourceVersion()
	nodeToDaemonPods := withoutDeletedTerminal(allPods)
	deleted := dsc.manage(ds, nodes, verdicts, !noted, nodeToDaemonPods, hash, plan)
	dsc.verdicts[ds.UID].noted = true

	// updateDaemonSet: rollingUpdate after manage, only for RollingUpdate
	// (OnDelete: old pods are replaced only when something else deletes
	// them; manage then creates the new pod from the current template).
	// Upstream also requires satisfied expectations, which they always are
	// here (see the package comment).
	if ds.Spec.UpdateStrategy.Type == api.RollingUpdateDaemonSetStrategyType {
		if deleted && dsc.c.ResourceVersion() != readRV {
			// Upstream rollingUpdate re-reads the pods and so sees manage's
			// deletes. Pods manage just created need no re-read: they are
			// updated and not yet available, which rollingUpdate treats
			// exactly like a node without a pod.
			allPods = dsc.getNodesToDaemonPods(ds, sel, true)
			readRV = dsc.c.ResourceVersion()
			nodeToDaemonPods = withoutDeletedTerminal(allPods)
		}
		dsc.rollingUpdate(ds, nodes, verdicts, nodeToDaemonPods, hash, plan, cur, old)
	}

	// Re-read after manage, as the next sync (or status update) would see
	// it; nothing written since the last read means the same pods. (The
	// empty entries rollingUpdate may have added count as no pod.)
	if dsc.c.ResourceVersion() != readRV {
		allPods = dsc.getNodesToDaemonPods(ds, sel, true)
	}
	dsc.cleanupHistory(ds, old, allPods)
	dsc.updateDaemonSetStatus(ds, nodes, verdicts, withoutDeletedTerminal(allPods), hash)
}

// getNodesToDaemonPods mirrors upstream getNodesToDaemonPods: the pods
// claimed by the DaemonSet (ClaimPods over the pods it controls and the
// orphans of its namespace) grouped by target node (GetTargetNodeName).
// Unless includeDeletedTerminal, terminal pods with a deletionTimestamp are
// left out.
//
// Unlike upstream, which builds a new map from the informer cache on every
// sync, the result lives in storage the controller reuses (dsc.nodePods and
// dsc.claimBuf): it is valid until the next call, and the per-node slices
// of one pod share one array (their capacity is capped, so appending to one
// copies it). Callers must not keep it past the sync.
func (dsc *DaemonSetsController) getNodesToDaemonPods(ds *api.DaemonSet, sel api.Selector, includeDeletedTerminal bool) map[string][]*api.Pod {
	if dsc.nodePods == nil {
		dsc.nodePods = map[string][]*api.Pod{}
	}
	out := dsc.nodePods
	clear(out)
	claimed := dsc.claimPods(ds, sel)
	for i, p := range claimed {
		if !includeDeletedTerminal && p.DeletionTimestamp != nil && p.IsTerminal() {
			continue
		}
		node, err := GetTargetNodeName(p)
		if err != nil {
			continue
		}
		if pods, ok := out[node]; ok {
			out[node] = append(pods, p)
		} else {
			out[node] = claimed[i : i+1 : i+1]
		}
	}
	return out
}

// withoutDeletedTerminal returns m without the terminal pods that have a
// deletionTimestamp (nodes left with no pod drop out): m itself when it
// holds none, which is the common case, else a new map.
func withoutDeletedTerminal(m map[string][]*api.Pod) map[string][]*api.Pod {
	found := false
	for _, pods := range m {
		for _, p := range pods {
			if p.DeletionTimestamp != nil && p.IsTerminal() {
				found = true
				break
			}
		}
		if found {
			break
		}
	}
	if !found {
		return m
	}
	out := make(map[string][]*api.Pod, len(m))
	for node, pods := range m {
		var kept []*api.Pod
		for _, p := range pods {
			if !(p.DeletionTimestamp != nil && p.IsTerminal()) {
				kept = append(kept, p)
			}
		}
		if len(kept) > 0 {
			out[node] = kept
		}
	}
	return out
}

// claimPods mirrors ControllerRefManager.ClaimPods for a DaemonSet: pods it
// controls stay claimed while their labels match the selector and are
// released (controller ownerReference removed) when they stop matching;
// orphans of its namespace whose labels match and that are not being
// deleted are adopted (ownerReference added). Pods controlled by others are
// ignored. Uses the store's owner index: linear in the pods involved. The
// result is dsc.claimBuf, valid until the next call.
func (dsc *DaemonSetsController) claimPods(ds *api.DaemonSet, sel api.Selector) []*api.Pod {
	c := dsc.c
	claimed := dsc.claimBuf[:0]
	defer func() { dsc.claimBuf = claimed }()
	for _, p := range c.PodsOwnedByShared(ds.UID) {
		if sel.Matches(p.Labels) {
			claimed = append(claimed, p)
			continue
		}
		p.RemoveOwnerReference(ds.UID)
		if err := c.UpdatePod(p); err == nil {
			dsc.decide(ds, "ClaimPods", podObject(p), p.Spec.NodeName, "release",
				"the pod's labels no longer match the DaemonSet's selector, so the controller releases it (it keeps running as an orphan)")
		}
	}
	for _, p := range c.PodsOwnedByShared("") {
		if p.Namespace != ds.Namespace || p.DeletionTimestamp != nil || !sel.Matches(p.Labels) {
			continue
		}
		p.OwnerReferences = append(p.OwnerReferences, newControllerRef(ds))
		if err := c.UpdatePod(p); err == nil {
			dsc.decide(ds, "ClaimPods", podObject(p), p.Spec.NodeName, "adopt",
				"an orphan pod whose labels match the DaemonSet's selector is adopted")
			claimed = append(claimed, p)
		}
	}
	return claimed
}

// manage mirrors upstream manage: podsShouldBeOnNode for every node, plus
// getUnscheduledPodsWithoutNode, then syncNodes. verdicts[i] is the
// verdict of nodes[i]. It reports whether it deleted (or tried to delete)
// any pod.
//
// noteVerdicts is false when every verdict is the one the previous sync
// already noted (noteVerdict would record nothing).
func (dsc *DaemonSetsController) manage(ds *api.DaemonSet, nodes []*api.Node, verdicts []verdictCode, noteVerdicts bool, nodeToDaemonPods map[string][]*api.Pod, hash string, plan *podPlan) (deleted bool) {
	var nodesNeedingDaemonPods []podToCreate
	var podsToDelete []podToDelete
	for i, node := range nodes {
		if noteVerdicts {
			dsc.noteVerdict(ds, node, plan, verdicts[i])
		}
		need, del := dsc.podsShouldBeOnNode(ds, node, verdicts[i], nodeToDaemonPods, hash, plan)
		if need {
			nodesNeedingDaemonPods = append(nodesNeedingDaemonPods, podToCreate{node: node.Name})
		}
		podsToDelete = append(podsToDelete, del...)
	}
	podsToDelete = append(podsToDelete, getUnscheduledPodsWithoutNode(nodes, nodeToDaemonPods)...)
	dsc.syncNodes(ds, podsToDelete, nodesNeedingDaemonPods, hash)
	return len(podsToDelete) > 0
}

// podToDelete is a pod syncNodes deletes, with the reason and the upstream
// function that chose it.
type podToDelete struct {
	pod    *api.Pod
	node   string
	fn     string
	reason string
}

// podToCreate is a node syncNodes creates a pod for, with the upstream
// function that chose it and why. An empty fn means manage ("syncNodes",
// the node has no pod).
type podToCreate struct {
	node   string
	fn     string
	reason string
}

// podsShouldBeOnNode mirrors upstream podsShouldBeOnNode
// (pkg/controller/daemon/daemon_controller.go): whether the
// node needs a daemon pod, and which of its pods to delete (failed pods, with
// a per-node backoff; succeeded pods; all but the oldest of several running
// pods; every pod when the node must not keep one).
func (dsc *DaemonSetsController) podsShouldBeOnNode(ds *api.DaemonSet, node *api.Node, v verdictCode, nodeToDaemonPods map[string][]*api.Pod, hash string, plan *podPlan) (needsPod bool, toDelete []podToDelete) {
	daemonPods, exists := nodeToDaemonPods[node.Name]
	const fn = "podsShouldBeOnNode"

	switch {
	case v.shouldRun && !exists:
		return true, nil
	case v.shouldContinue:
		// running lives in a buffer reused node after node: only the pods
		// it holds outlive this call (in toDelete), never the slice
		running := dsc.runningBuf[:0]
		defer func() { dsc.runningBuf = running[:0] }()
		now := dsc.c.Now()
		for _, pod := range daemonPods {
			if pod.DeletionTimestamp != nil {
				continue
			}
			switch pod.Status.Phase {
			case api.PodFailed:
				dsc.timeSensitive = true // the backoff reads the clock
				key := fmt.Sprintf("%s/%d/%s", ds.UID, ds.Status.ObservedGeneration, node.Name)
				if dsc.failedPodsBackoff.IsInBackOffSinceUpdate(key, now) {
					// enqueueDaemonSetAfter(ds, the current delay): counted
					// from now, not from the backoff's last update (any
					// other change to the DaemonSet's pods syncs it sooner)
					dsc.c.WakeAt(now.Add(dsc.failedPodsBackoff.Get(key)))
					continue
				}
				dsc.failedPodsBackoff.Next(key, now)
				dsc.event(ds, api.EventTypeWarning, FailedDaemonPodReason,
					fmt.Sprintf("Found failed daemon pod %s/%s on node %s, will try to kill it", pod.Namespace, pod.Name, node.Name))
				toDelete = append(toDelete, podToDelete{pod, node.Name, fn, fmt.Sprintf(
					"the pod failed; it is deleted and replaced (another failed pod on this node waits %s, doubling up to 15m)", dsc.failedPodsBackoff.Get(key))})
			case api.PodSucceeded:
				dsc.event(ds, api.EventTypeNormal, SucceededDaemonPodReason,
					fmt.Sprintf("Found succeeded daemon pod %s/%s on node %s, will try to delete it", pod.Namespace, pod.Name, node.Name))
				toDelete = append(toDelete, podToDelete{pod, node.Name, fn, "the pod succeeded (exited 0); a daemon pod should keep running, so it is deleted and replaced"})
			default:
				running = append(running, pod)
			}
		}
		if !AllowsSurge(ds) {
			if len(running) <= 1 {
				return false, toDelete
			}
			podByCreationTimestampAndPhase(running)
			for _, p := range running[1:] {
				toDelete = append(toDelete, podToDelete{p, node.Name, fn, fmt.Sprintf(
					"more than one daemon pod on the node: the oldest bound one (%s) is kept", running[0].Name)})
			}
			return false, toDelete
		}
		// maxSurge > 0
		if len(running) <= 1 {
			return len(running) == 0 && v.shouldRun, toDelete
		}
		podByCreationTimestampAndPhase(running)
		var oldestNew, oldestOld *api.Pod
		for _, p := range running {
			if p.Labels[api.ControllerRevisionHashLabelKey] == hash {
				if oldestNew == nil {
					oldestNew = p
					continue
				}
			} else if oldestOld == nil {
				oldestOld = p
				continue
			}
			toDelete = append(toDelete, podToDelete{p, node.Name, fn, "more than one daemon pod of the same revision on the node: the oldest is kept"})
		}
		if oldestNew != nil && oldestOld != nil {
			switch {
			case !oldestOld.IsReady():
				toDelete = append(toDelete, podToDelete{oldestOld, node.Name, fn, "an updated pod exists and the old pod is not ready"})
			case oldestNew.IsAvailable(ds.Spec.MinReadySeconds, dsc.c.Now()):
				toDelete = append(toDelete, podToDelete{oldestOld, node.Name, fn, "the updated pod is available, so the old one goes"})
			}
		}
		return false, toDelete
	case !v.shouldContinue && exists:
		reason := plan.explain(node).Reason()
		for _, p := range daemonPods {
			if p.DeletionTimestamp != nil {
				continue
			}
			toDelete = append(toDelete, podToDelete{p, node.Name, fn, "the node must not keep this daemon pod: " + reason})
		}
	}
	return false, toDelete
}

// noteVerdict records a "skip" decision when a node's verdict for the
// DaemonSet changes to not-eligible.
func (dsc *DaemonSetsController) noteVerdict(ds *api.DaemonSet, node *api.Node, plan *podPlan, v verdictCode) {
	k := verdictKey{ds.UID, node.Name}
	if old, ok := dsc.lastVerdict[k]; ok && old == v {
		return
	}
	dsc.lastVerdict[k] = v
	if v.shouldRun {
		return
	}
	reason := plan.explain(node).Reason()
	if v.shouldContinue {
		reason += " (shouldRun=false, shouldContinueRunning=true)"
	} else {
		reason += " (shouldRun=false, shouldContinueRunning=false)"
	}
	dsc.decide(ds, "NodeShouldRunDaemonPod", "", node.Name, "skip", reason)
}

// getUnscheduledPodsWithoutNode mirrors the upstream function: pods that
// target a node which no longer exists and are not bound (the pod GC would
// never remove them).
func getUnscheduledPodsWithoutNode(nodes []*api.Node, nodeToDaemonPods map[string][]*api.Pod) []podToDelete {
	var out []podToDelete
	for _, node := range vanishedNodes(nodes, nodeToDaemonPods) {
		for _, p := range nodeToDaemonPods[node] {
			if p.Spec.NodeName == "" {
				out = append(out, podToDelete{p, node, "getUnscheduledPodsWithoutNode",
					fmt.Sprintf("the pod is pinned to node %s, which no longer exists, and was never bound", node)})
			}
		}
	}
	return out
}

// vanishedNodes returns, in name order, the target nodes of
// nodeToDaemonPods that are not in nodes (deleted nodes pods still point
// at). It allocates only when there are some: this runs on every sync.
func vanishedNodes(nodes []*api.Node, nodeToDaemonPods map[string][]*api.Pod) []string {
	seen := 0
	for _, n := range nodes {
		if _, ok := nodeToDaemonPods[n.Name]; ok {
			seen++
		}
	}
	if seen == len(nodeToDaemonPods) {
		return nil
	}
	known := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		known[n.Name] = true
	}
	var gone []string
	for name := range nodeToDaemonPods {
		if !known[name] {
			gone = append(gone, name)
		}
	}
	slices.Sort(gone)
	return gone
}

// syncNodes mirrors upstream syncNodes: at most BurstReplicas creates and
// deletes per sync; creates in slow-start batches of 1, 2, 4, ...; each
// create is the CreatePodTemplate pod pinned by ReplaceDaemonSetPodNodeNameNodeAffinity.
func (dsc *DaemonSetsController) syncNodes(ds *api.DaemonSet, podsToDelete []podToDelete, nodesNeedingDaemonPods []podToCreate, hash string) {
	c := dsc.c
	createDiff := min(len(nodesNeedingDaemonPods), dsc.BurstReplicas)
	deleteDiff := min(len(podsToDelete), dsc.BurstReplicas)
	if createDiff > 0 || deleteDiff > 0 {
		dsc.attempted = true
	}

	// A DaemonSet whose last creates were refused waits for its requeue.
	if createDiff > 0 && dsc.syncErrorBackoff.IsInBackOffSinceUpdate(ds.UID, c.Now()) {
		c.WakeAt(dsc.syncErrorBackoff.until(ds.UID))
		createDiff = 0
	}
	if createDiff > 0 {
		template := CreatePodTemplate(&ds.Spec.Template, GetTemplateGeneration(ds), hash)
		batch := 0
		batchSize := min(createDiff, SlowStartInitialBatchSize)
		failed := false
		for pos := 0; createDiff > pos && !failed; batchSize, pos = min(2*batchSize, createDiff-(pos+batchSize)), pos+batchSize {
			batch++
			for i := pos; i < pos+batchSize; i++ {
				want := nodesNeedingDaemonPods[i]
				nodeName := want.node
				pod := newDaemonPod(ds, &template, nodeName)
				if err := c.CreatePod(pod); err != nil {
					// slowStartBatch stops after a batch with an error; the
					// sync fails and the DaemonSet is requeued rate-limited
					dsc.event(ds, api.EventTypeWarning, "FailedCreate", "Error creating: "+err.Error())
					if !failed {
						failed = true
						dsc.syncErrorBackoff.Next(ds.UID, c.Now())
						c.WakeAt(dsc.syncErrorBackoff.until(ds.UID))
						dsc.decide(ds, "syncNodes", "", nodeName, "skip", fmt.Sprintf(
							"the API server refused the pod (%v); the DaemonSet is retried after %s, doubling up to 1000s", err, dsc.syncErrorBackoff.Get(ds.UID)))
					}
					continue
				}
				dsc.event(ds, api.EventTypeNormal, SuccessfulCreateReason, "Created pod: "+pod.Name)
				fn, reason := want.fn, want.reason
				if fn == "" {
					fn = "syncNodes"
					reason = fmt.Sprintf("node %s should run a daemon pod and has none (slow-start batch %d: %d pod(s))", nodeName, batch, batchSize)
				}
				if len(nodesNeedingDaemonPods) > createDiff {
					reason += fmt.Sprintf("; %d more nodes wait for the next sync (burstReplicas %d)", len(nodesNeedingDaemonPods)-createDiff, dsc.BurstReplicas)
				}
				dsc.decide(ds, fn, podObject(pod), nodeName, "create", reason)
			}
		}
		if !failed {
			dsc.syncErrorBackoff.Reset(ds.UID)
		}
	}
	for i := 0; i < deleteDiff; i++ {
		d := podsToDelete[i]
		if err := c.DeletePod(d.pod.Namespace, d.pod.Name, nil); err != nil {
			if !cluster.IsNotFound(err) {
				dsc.event(ds, api.EventTypeWarning, "FailedDelete", "Error deleting: "+err.Error())
			}
			continue
		}
		dsc.event(ds, api.EventTypeNormal, SuccessfulDeleteReason, "Deleted pod: "+d.pod.Name)
		dsc.decide(ds, d.fn, podObject(d.pod), d.node, "delete", d.reason)
	}
}

// updateDaemonSetStatus mirrors upstream updateDaemonSetStatus and
// storeDaemonSetStatus (pkg/controller/daemon/daemon_controller.go): per
// node, desired if shouldRun; current, ready, available and updated from
// the oldest pod when it should run; misscheduled when it should not but
// has a pod. The status is written only
// when a number or observedGeneration changes. With minReadySeconds, a
// wake-up is queued for when a ready pod becomes available.
func (dsc *DaemonSetsController) updateDaemonSetStatus(ds *api.DaemonSet, nodes []*api.Node, verdicts []verdictCode, nodeToDaemonPods map[string][]*api.Pod, hash string) {
	now := dsc.c.Now()
	gen := newTemplateGeneration(GetTemplateGeneration(ds))
	var desired, current, ready, available, updated, misscheduled int32
	var nextAvailable time.Time
	for i, node := range nodes {
		v := verdicts[i]
		pods := nodeToDaemonPods[node.Name]
		if !v.shouldRun {
			if len(pods) > 0 {
				misscheduled++
			}
			continue
		}
		desired++
		if len(pods) == 0 {
			continue
		}
		current++
		podByCreationTimestampAndPhase(pods)
		pod := pods[0]
		if pod.IsReady() {
			ready++
			if pod.IsAvailable(ds.Spec.MinReadySeconds, now) {
				available++
			} else if t, ok := availableRequeue(pod, ds.Spec.MinReadySeconds); ok && (nextAvailable.IsZero() || t.Before(nextAvailable)) {
				nextAvailable = t
			}
		}
		if gen.isPodUpdated(pod, hash) {
			updated++
		}
	}
	if !nextAvailable.IsZero() {
		dsc.c.WakeAt(nextAvailable)
	}
	st := ds.Status
	st.DesiredNumberScheduled = desired
	st.CurrentNumberScheduled = current
	st.NumberReady = ready
	st.NumberAvailable = available
	st.UpdatedNumberScheduled = updated
	st.NumberMisscheduled = misscheduled
	st.NumberUnavailable = desired - available
	st.ObservedGeneration = ds.Generation
	old := ds.Status
	if old.DesiredNumberScheduled == st.DesiredNumberScheduled && old.CurrentNumberScheduled == st.CurrentNumberScheduled &&
		old.NumberReady == st.NumberReady && old.NumberAvailable == st.NumberAvailable &&
		old.UpdatedNumberScheduled == st.UpdatedNumberScheduled && old.NumberMisscheduled == st.NumberMisscheduled &&
		old.NumberUnavailable == st.NumberUnavailable && old.ObservedGeneration >= ds.Generation {
		return
	}
	ds.Status = st
	_ = dsc.c.UpdateDaemonSet(ds)
}
