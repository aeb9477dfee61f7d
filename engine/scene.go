package engine

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/controller"
	"github.com/dsplayground/dsplay/engine/nodelifecycle"
)

// Scene is what the stage draws at one virtual instant: the nodes with the
// pods on them in their lifecycle stage, each DaemonSet's update budget,
// and the marks a learner needs to see (taints, cordons, a stopped kubelet,
// countdowns, outdated revisions). It is plain data, computed by the engine
// so the shells only tween it; DiffScenes turns two scenes and the
// decisions between them into the transitions the stage animates.
type Scene struct {
	// Elapsed is the virtual time since cluster.Epoch.
	Elapsed time.Duration
	// Nodes are sorted by name, as Snapshot.Nodes.
	Nodes []SceneNode
	// Pending are the pods bound to no node, sorted by namespace and name.
	Pending []ScenePod
	// DaemonSets are sorted by namespace and name, as Snapshot.DaemonSets.
	DaemonSets []SceneDaemonSet
}

// SceneNode is one node on the stage.
type SceneNode struct {
	Name string
	// Ready is the Ready condition being True; Unknown its being Unknown
	// (the node lifecycle controller lost the kubelet).
	Ready, Unknown bool
	// Cordoned is spec.unschedulable.
	Cordoned bool
	// KubeletStopped: the node's kubelet no longer runs or posts status
	// (`node fail`): its node lease is no longer renewed. UnreachableIn is
	// then the virtual time left until the node lifecycle controller marks
	// it Ready=Unknown and taints it unreachable (last renewal +
	// node-monitor-grace-period, upstream pkg/controller/nodelifecycle
	// tryUpdateNodeHealth); 0 once it has.
	KubeletStopped bool
	UnreachableIn  time.Duration
	// UnreachableAt is the virtual time (since cluster.Epoch) UnreachableIn
	// runs out; 0 when it is 0.
	UnreachableAt time.Duration
	// Taints are the node's taints in spec order.
	Taints []SceneTaint
	// Pods are the pods bound to the node, sorted by namespace and name.
	Pods []ScenePod
}

// SceneTaint is one taint badge.
type SceneTaint struct {
	Key, Value, Effect string
	// Text is how kubectl prints it: key=value:Effect.
	Text string
}

// Pod lifecycle stages on the stage (ScenePod.Stage), in the order a pod
// normally goes through them.
const (
	StagePending     = "pending"     // not bound: waiting for the scheduler (or unschedulable)
	StageBound       = "bound"       // bound, the kubelet has not accepted it yet
	StagePulling     = "pulling"     // ContainerCreating, pulling images (Progress)
	StageCreating    = "creating"    // ContainerCreating (or Init:...), images present
	StageStalled     = "stalled"     // waiting with an error: ErrImagePull, CrashLoopBackOff, ...
	StageRunning     = "running"     // Running, not every container ready
	StageReady       = "ready"       // Running and Ready
	StageTerminating = "terminating" // deletionTimestamp set (Countdown: grace left)
	StageSucceeded   = "succeeded"
	StageFailed      = "failed"
)

// ScenePod is one pod on the stage.
type ScenePod struct {
	// Key is "namespace/name"; Name the pod's name.
	Key, Name string
	// Node is spec.nodeName ("" while pending); Target is a pending daemon
	// pod's node (its node-name affinity, controller.GetTargetNodeName).
	Node, Target string
	// DaemonSet is the controlling DaemonSet as "namespace/name" ("" for a
	// bare pod).
	DaemonSet string
	// Revision is the number of the DaemonSet's ControllerRevision the pod
	// was made from (its controller-revision-hash label), 0 if unknown;
	// Outdated: it is not the DaemonSet's update revision (an OnDelete
	// DaemonSet's pods after a template change, old pods mid-rollout).
	Revision int64
	Outdated bool
	// Stage is one of the Stage* constants.
	Stage string
	// Status is kubectl get pods' STATUS column.
	Status string
	// Available: Ready for the DaemonSet's minReadySeconds
	// (podutil.IsPodAvailable), what the update budget counts.
	Available bool
	// Progress is, while Stage is StagePulling, the fraction of the
	// simulated pull time gone by, in [0, 1).
	Progress float64
	// PullEnds is, while pulling, the virtual time (since cluster.Epoch)
	// the pull ends, so a shell can move the progress bar between scenes.
	PullEnds time.Duration
	// Countdown is the virtual time left: of the grace period while
	// terminating (deletionTimestamp - now), else of a NoExecute taint's
	// tolerationSeconds before the taint eviction controller evicts the pod
	// (taint timeAdded + tolerationSeconds - now, upstream
	// pkg/controller/tainteviction processPodOnNode); 0 when none runs.
	// CountdownOf names which: "grace period" or "tolerationSeconds".
	Countdown   time.Duration
	CountdownOf string
	// Ends is the virtual time (since cluster.Epoch) the countdown
	// reaches 0; 0 when none runs.
	Ends time.Duration
	// Taint is, for a pod on a node with a NoExecute taint it does not
	// tolerate (or tolerates only for tolerationSeconds), that taint in
	// kubectl's form: what evicts it. "" otherwise.
	Taint string
	// Kept: the pod runs on a node where its DaemonSet would not place a
	// new one now but lets it stay (nodeShouldRunDaemonPod: shouldRun
	// false, shouldContinueRunning true, e.g. a NoSchedule taint added
	// under it). Why says why, in the controller's words.
	Kept bool
	// Why is a short explanation of the pod's state: for a pending pod the
	// scheduler's FailedScheduling message, for a stalled one the kubelet's
	// waiting message, for a kept one the failed check; "" otherwise.
	Why string
	// Tolerations pairs each of its node's taints, in spec order, with the
	// pod toleration that tolerates it (nil for a pod on no node or on an
	// untainted one): what the stage draws as taint ↔ toleration lines.
	Tolerations []TaintMatch
}

// TaintMatch is how one of a node's taints meets a pod's tolerations, by
// the scheduler's and the taint eviction controller's rule: the first
// toleration that tolerates it (api.TolerationFor, component-helpers
// TolerationsTolerateTaint).
type TaintMatch struct {
	// Taint is the taint in kubectl's form (key=value:Effect); Effect its
	// effect.
	Taint, Effect string
	// Toleration is the tolerating toleration as kubectl describe prints
	// it (key[=value][:effect][ op=Exists][ for Ns]), "" when none does.
	Toleration string
	// Added: the toleration is not in the DaemonSet's template but one the
	// DaemonSet controller adds to every daemon pod
	// (AddOrUpdateDaemonPodTolerations, pkg/controller/daemon/util).
	Added bool
}

// SceneDaemonSet is a DaemonSet's update budget strip.
type SceneDaemonSet struct {
	// Key is "namespace/name"; Name the DaemonSet's name.
	Key, Name string
	// Strategy is spec.updateStrategy.type; UpdateRevision the number of
	// the update (current) revision.
	Strategy       string
	UpdateRevision int64
	// MaxUnavailable and MaxSurge are the rolling update's limits resolved
	// against the number of desired nodes (controller.UnavailableCount,
	// SurgeCount: upstream updatedDesiredNodeCounts); 0 under OnDelete.
	MaxUnavailable, MaxSurge int
	// Slots has one slot per node that should run the DaemonSet's pod
	// (nodeShouldRunDaemonPod's shouldRun), in node order.
	Slots []BudgetSlot
	// Unavailable counts the slots in SlotUnavailable: the part of
	// maxUnavailable in use.
	Unavailable int
}

// Budget slot states (BudgetSlot.State).
const (
	SlotAvailable   = "available"   // an available pod runs there
	SlotUnavailable = "unavailable" // no available pod: none yet, starting, or only a terminating one
	SlotSurge       = "surge"       // an old and a new pod at once (maxSurge in use)
)

// BudgetSlot is one desired node of a DaemonSet in its update budget.
type BudgetSlot struct {
	Node  string
	State string
	// Updated: a pod of the update revision that is not terminating runs
	// there.
	Updated bool
}

// Scene returns the stage's picture of the simulation, built on snap, a
// Snapshot of s taken at the current virtual instant (the page already has
// one; Simulation.Snapshot() otherwise). Linear in nodes + pods.
func (s *Simulation) Scene(snap Snapshot) Scene {
	c := s.store
	now := c.Now()
	sc := Scene{Elapsed: snap.Elapsed}
	updateRev := make(map[string]int64, len(snap.DaemonSets))
	minReady := make(map[string]int32, len(snap.DaemonSets))
	for _, d := range snap.DaemonSets {
		updateRev[d.Namespace+"/"+d.Name] = d.UpdateRevision
		minReady[d.Namespace+"/"+d.Name] = d.MinReadySeconds
	}
	pod := func(v PodView, n *NodeView) ScenePod {
		p := ScenePod{Key: v.Namespace + "/" + v.Name, Name: v.Name, Node: v.Node, Target: v.Target, Revision: v.RevisionNumber, Status: v.Status}
		if v.Owner != "" {
			p.DaemonSet = v.Namespace + "/" + v.Owner
			p.Outdated = v.RevisionNumber != 0 && v.RevisionNumber != updateRev[p.DaemonSet]
		}
		obj := c.Pod(v.Namespace, v.Name)
		p.Stage = podStage(v)
		if obj != nil {
			p.Available = obj.IsAvailable(minReady[p.DaemonSet], now)
			switch {
			case obj.DeletionTimestamp != nil:
				if d := obj.DeletionTimestamp.Sub(now); d > 0 {
					p.Countdown, p.CountdownOf = d, "grace period"
				}
			case p.Stage == StagePulling || p.Stage == StageCreating:
				if f, end, ok := s.comps.kubelets.PullProgress(obj.UID, now); ok {
					p.Stage, p.Progress, p.PullEnds = StagePulling, f, end.Sub(cluster.Epoch)
				} else {
					p.Stage = StageCreating
				}
			}
			if n != nil {
				d, taint := tolerationCountdown(c.Node(n.Name), obj, now)
				p.Taint = taint
				if d > 0 && obj.DeletionTimestamp == nil {
					p.Countdown, p.CountdownOf = d, "tolerationSeconds"
				}
			}
		}
		if p.Countdown > 0 {
			p.Ends = snap.Elapsed + p.Countdown
		}
		switch {
		case p.Stage == StagePending:
			p.Why = v.Unschedulable
		case p.Stage == StageStalled:
			p.Why = v.Stall
		}
		if n != nil && obj != nil && len(n.Taints) > 0 {
			var ds *api.DaemonSet
			if v.Owner != "" {
				ds = c.DaemonSet(v.Namespace, v.Owner)
			}
			p.Tolerations = taintMatches(c.Node(n.Name), obj, ds)
		}
		if n != nil && p.DaemonSet != "" && p.Stage != StageTerminating {
			for _, d := range n.Daemons {
				if d.DaemonSet == p.DaemonSet && !d.ShouldRun && d.ShouldContinueRunning {
					p.Kept, p.Why = true, d.Reason
				}
			}
		}
		return p
	}
	sc.Nodes = make([]SceneNode, len(snap.Nodes))
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		sn := SceneNode{Name: n.Name, Ready: n.Ready, Cordoned: n.Unschedulable}
		obj := c.Node(n.Name)
		if obj != nil {
			if rc := obj.Condition(api.NodeReady); rc != nil && rc.Status == api.ConditionUnknown {
				sn.Unknown = true
			}
			for _, t := range obj.Spec.Taints {
				sn.Taints = append(sn.Taints, SceneTaint{Key: t.Key, Value: t.Value, Effect: t.Effect, Text: t.ToString()})
			}
		}
		// the kubelet's heartbeat is its node lease (store-held)
		if last, ended := c.NodeLeaseRenewalEnded(n.Name); ended {
			sn.KubeletStopped = true
			if d := last.Add(nodelifecycle.NodeMonitorGracePeriod).Sub(now); d > 0 && !sn.Unknown {
				sn.UnreachableIn, sn.UnreachableAt = d, snap.Elapsed+d
			}
		}
		sn.Pods = make([]ScenePod, len(n.Pods))
		for j, v := range n.Pods {
			sn.Pods[j] = pod(v, n)
		}
		sc.Nodes[i] = sn
	}
	for _, v := range snap.Pending {
		sc.Pending = append(sc.Pending, pod(v, nil))
	}
	sc.DaemonSets = make([]SceneDaemonSet, len(snap.DaemonSets))
	for k, d := range snap.DaemonSets {
		sd := SceneDaemonSet{Key: d.Namespace + "/" + d.Name, Name: d.Name, Strategy: d.Strategy, UpdateRevision: d.UpdateRevision}
		for i := range snap.Nodes {
			if k >= len(snap.Nodes[i].Daemons) || !snap.Nodes[i].Daemons[k].ShouldRun {
				continue
			}
			sd.Slots = append(sd.Slots, budgetSlot(sc.Nodes[i], sd.Key, d.UpdateRevision))
		}
		for _, sl := range sd.Slots {
			if sl.State == SlotUnavailable {
				sd.Unavailable++
			}
		}
		if ds := c.DaemonSet(d.Namespace, d.Name); ds != nil && d.Strategy == api.RollingUpdateDaemonSetStrategyType {
			sd.MaxUnavailable, _ = controller.UnavailableCount(ds, len(sd.Slots))
			sd.MaxSurge, _ = controller.SurgeCount(ds, len(sd.Slots))
		}
		sc.DaemonSets[k] = sd
	}
	return sc
}

// taintMatches pairs node's taints with the pod's tolerations (nil when
// the node has none); ds, when not nil, is the pod's DaemonSet, whose
// template tells a toleration of its own from one its controller added.
func taintMatches(node *api.Node, pod *api.Pod, ds *api.DaemonSet) []TaintMatch {
	if node == nil || len(node.Spec.Taints) == 0 {
		return nil
	}
	out := make([]TaintMatch, len(node.Spec.Taints))
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		m := TaintMatch{Taint: t.ToString(), Effect: t.Effect}
		if j := api.TolerationFor(pod.Spec.Tolerations, t); j >= 0 {
			tol := &pod.Spec.Tolerations[j]
			m.Toleration = tol.String()
			if ref := pod.ControllerRef(); ds != nil && ref != nil && ref.UID == ds.UID {
				m.Added = true
				for k := range ds.Spec.Template.Spec.Tolerations {
					if ds.Spec.Template.Spec.Tolerations[k].MatchToleration(tol) {
						m.Added = false
						break
					}
				}
			}
		}
		out[i] = m
	}
	return out
}

// podStage maps a pod view to its Stage (StagePulling is refined by the
// kubelet's pull plan in Scene).
func podStage(v PodView) string {
	switch {
	case v.Terminating:
		return StageTerminating
	case v.Node == "":
		return StagePending
	case v.Phase == api.PodSucceeded:
		return StageSucceeded
	case v.Phase == api.PodFailed:
		return StageFailed
	case v.Phase == api.PodRunning:
		if v.Status != "Running" {
			return StageStalled // CrashLoopBackOff, Error, ... while Running
		}
		if r, total, ok := strings.Cut(v.Ready, "/"); ok && r == total {
			return StageReady
		}
		return StageRunning
	case v.Status == "Pending":
		return StageBound
	case v.Status == "ContainerCreating", v.Status == "PodInitializing", strings.HasPrefix(v.Status, "Init:") && !strings.Contains(v.Status, "Err") && !strings.Contains(v.Status, "BackOff"):
		return StagePulling
	}
	return StageStalled
}

// budgetSlot is the state of DaemonSet ds's slot on node n: the
// availability rollingUpdate counts (upstream pkg/controller/daemon
// update.go rollingUpdate: a node is unavailable when it has no available
// pod of the DaemonSet, old or new).
func budgetSlot(n SceneNode, ds string, updateRev int64) BudgetSlot {
	sl := BudgetSlot{Node: n.Name, State: SlotUnavailable}
	live := 0
	for _, p := range n.Pods {
		if p.DaemonSet != ds || p.Stage == StageTerminating {
			continue
		}
		live++
		if p.Revision == updateRev {
			sl.Updated = true
		}
		if p.Available {
			sl.State = SlotAvailable
		}
	}
	if live > 1 {
		sl.State = SlotSurge
	}
	return sl
}

// tolerationCountdown looks at pod p's NoExecute taints on node n, as the
// taint eviction controller does (upstream pkg/controller/tainteviction
// processPodOnNode, getMinTolerationTime): taint is the first NoExecute
// taint the pod does not tolerate at all (it is evicted at once), else the
// one whose tolerationSeconds runs out first; left is the time until that
// runs out (taint timeAdded + the smallest matching tolerationSeconds),
// 0 when none is due. Both are zero when every NoExecute taint is
// tolerated forever.
func tolerationCountdown(n *api.Node, p *api.Pod, now time.Time) (left time.Duration, taint string) {
	if n == nil {
		return 0, ""
	}
	var due time.Time
	for i := range n.Spec.Taints {
		t := &n.Spec.Taints[i]
		if t.Effect != api.TaintEffectNoExecute {
			continue
		}
		secs, found := int64(-1), false
		for _, tol := range p.Spec.Tolerations {
			if !tol.ToleratesTaint(t) {
				continue
			}
			found = true
			if tol.TolerationSeconds == nil {
				continue
			}
			if s := max(*tol.TolerationSeconds, 0); secs < 0 || s < secs {
				secs = s
			}
		}
		if !found {
			return 0, t.ToString()
		}
		if secs < 0 || t.TimeAdded == nil {
			continue
		}
		if at := t.TimeAdded.Add(time.Duration(secs) * time.Second); due.IsZero() || at.Before(due) {
			due, taint = at, t.ToString()
		}
	}
	if due.After(now) {
		left = due.Sub(now)
	}
	return left, taint
}

// Transition kinds (Transition.Kind).
const (
	TransPodCreate    = "pod-create"    // a pod appears (the controller created it)
	TransPodBind      = "pod-bind"      // the scheduler bound it to Node
	TransPodPull      = "pod-pull"      // the kubelet accepted it and pulls images
	TransPodPulled    = "pod-pulled"    // images present: the kubelet creates the containers
	TransPodStart     = "pod-start"     // containers created or started (Running)
	TransPodReady     = "pod-ready"     // Ready
	TransPodStall     = "pod-stall"     // stuck: ErrImagePull, CrashLoopBackOff, ...
	TransPodTerminate = "pod-terminate" // deleted: terminating through its grace period
	TransPodEvict     = "pod-evict"     // deleted by an eviction (taint, drain, pressure)
	TransPodGone      = "pod-gone"      // removed from the store
	TransPodKept      = "pod-kept"      // would not be placed now, but stays
	TransPodUnkept    = "pod-unkept"    // its node accepts new daemon pods again
	TransPodOutdated  = "pod-outdated"  // its revision is no longer the update revision
	TransPodFinish    = "pod-finish"    // Succeeded or Failed
	TransNodeJoin     = "node-join"
	TransNodeLeave    = "node-leave"
	TransNodeFail     = "node-fail"    // the kubelet stopped
	TransNodeUnknown  = "node-unknown" // Ready=Unknown: node lifecycle gave up on it
	TransNodeRecover  = "node-recover" // the kubelet is back
	TransNodeReady    = "node-ready"   // Ready=True again (or for the first time)
	TransNodeCordon   = "node-cordon"
	TransNodeUncordon = "node-uncordon"
	TransTaintAdd     = "taint-add"
	TransTaintRemove  = "taint-remove"
	TransRevision     = "ds-revision" // a DaemonSet's update revision changed
)

// Transition is one change the stage animates between two scenes.
type Transition struct {
	// Kind is one of the Trans* constants.
	Kind string
	// Pod is the pod's "namespace/name", Node the node concerned,
	// DaemonSet the DaemonSet's "namespace/name" (each "" when not
	// concerned); Taint a taint's kubectl form for taint transitions.
	Pod, Node, DaemonSet, Taint string
	// From and To are the pod's stages (pod transitions) or revisions
	// ("r1", "r2") before and after.
	From, To string
	// Caption is the short line the stage shows on the object.
	Caption string
	// Cause is the decision that caused the change (component, upstream
	// function, reason), nil when no decision in the window names it.
	Cause *cluster.Decision
}

// Object is the object t plays on, as the stage keys it: "pod/"+Pod for
// a pod transition (whatever its node), else "node/"+Node, else
// "daemonset/"+DaemonSet.
func (t Transition) Object() string {
	switch {
	case t.Pod != "":
		return "pod/" + t.Pod
	case t.Node != "":
		return "node/" + t.Node
	default:
		return "daemonset/" + t.DaemonSet
	}
}

// DiffScenes returns the transitions from prev to next, given the
// decisions made between them (Simulation.Decisions after prev's last
// decision), in causal order: by the Seq of their causing decision, then
// those without one in scene order. Deterministic.
func DiffScenes(prev, next Scene, decisions []cluster.Decision) []Transition {
	byObj := map[string][]int{}
	for i, d := range decisions {
		k := strings.ToLower(d.Object)
		byObj[k] = append(byObj[k], i)
	}
	// cause returns the first decision about object among actions.
	cause := func(object string, actions ...string) *cluster.Decision {
		for _, i := range byObj[strings.ToLower(object)] {
			for _, a := range actions {
				if decisions[i].Action == a {
					return &decisions[i]
				}
			}
		}
		return nil
	}
	var out []Transition
	add := func(t Transition) { out = append(out, t) }

	// a new update revision: first, it makes the outdated marks
	revCause := map[string]*cluster.Decision{}
	prevRev := map[string]int64{}
	for _, d := range prev.DaemonSets {
		prevRev[d.Key] = d.UpdateRevision
	}
	for _, d := range next.DaemonSets {
		if r, ok := prevRev[d.Key]; ok && r != 0 && r != d.UpdateRevision {
			var c *cluster.Decision
			for i := range decisions {
				if o := strings.ToLower(decisions[i].Object); decisions[i].Action == "create" && strings.HasPrefix(o, "controllerrevision/"+d.Key+"-") {
					c = &decisions[i]
					break
				}
			}
			revCause[d.Key] = c
			add(Transition{Kind: TransRevision, DaemonSet: d.Key, From: rev(r), To: rev(d.UpdateRevision), Caption: fmt.Sprintf("template changed: revision %s, %s", rev(d.UpdateRevision), strategyNote(d.Strategy)), Cause: c})
		}
	}

	prevPods, nextPods := scenePods(prev), scenePods(next)
	for _, p := range sortedPodKeys(nextPods) {
		np := nextPods[p]
		obj := "pod/" + p
		op, had := prevPods[p]
		if !had {
			c := cause(obj, "create")
			add(Transition{Kind: TransPodCreate, Pod: p, Node: np.Target, DaemonSet: np.DaemonSet, To: StagePending, Caption: captionCreate(np, c), Cause: c})
			op = ScenePod{Key: p, Stage: StagePending, DaemonSet: np.DaemonSet, Revision: np.Revision}
		}
		if op.Node == "" && np.Node != "" {
			c := cause(obj, "bind")
			add(Transition{Kind: TransPodBind, Pod: p, Node: np.Node, DaemonSet: np.DaemonSet, From: StagePending, To: StageBound, Caption: "bound to " + np.Node + " by default-scheduler", Cause: c})
			if op.Stage == StagePending {
				op.Stage = StageBound
			}
		}
		if op.Stage != np.Stage {
			if t, ok := stageTransition(op, np, cause(obj, stageActions(np.Stage)...)); ok {
				if np.Stage == StageTerminating {
					if ev := cause(obj, "evict"); ev != nil {
						t.Kind = TransPodEvict
						switch {
						case np.Taint != "" && op.CountdownOf == "tolerationSeconds":
							t.Caption = "evicted: its tolerationSeconds for " + np.Taint + " ran out"
						case np.Taint != "":
							t.Caption = "evicted: taint " + np.Taint + " is not tolerated"
						default:
							t.Caption = "evicted · " + shortCause(ev.Reason)
						}
						if t.Cause == nil {
							t.Cause = ev
						}
					}
				}
				add(t)
			}
		}
		if !op.Kept && np.Kept && had {
			add(Transition{Kind: TransPodKept, Pod: p, Node: np.Node, DaemonSet: np.DaemonSet, Caption: "kept, would not be placed now: " + firstClause(np.Why), Cause: cause("daemonset/"+np.DaemonSet, "skip")})
		}
		if op.Kept && !np.Kept && had && np.Stage != StageTerminating {
			add(Transition{Kind: TransPodUnkept, Pod: p, Node: np.Node, DaemonSet: np.DaemonSet, Caption: "the node accepts this DaemonSet's pods again"})
		}
		if had && !op.Outdated && np.Outdated && np.Stage != StageTerminating {
			add(Transition{Kind: TransPodOutdated, Pod: p, Node: np.Node, DaemonSet: np.DaemonSet, From: rev(op.Revision), To: rev(np.Revision), Caption: fmt.Sprintf("outdated: runs %s, the template is newer", rev(np.Revision)), Cause: revCause[np.DaemonSet]})
		}
	}
	for _, p := range sortedPodKeys(prevPods) {
		if _, ok := nextPods[p]; ok {
			continue
		}
		op := prevPods[p]
		c := cause("pod/"+p, "remove", "delete")
		cap := "gone"
		if c != nil {
			cap = "gone: " + shortCause(c.Reason)
		}
		add(Transition{Kind: TransPodGone, Pod: p, Node: op.Node, DaemonSet: op.DaemonSet, From: op.Stage, Caption: cap, Cause: c})
	}

	prevNodes := make(map[string]*SceneNode, len(prev.Nodes))
	for i := range prev.Nodes {
		prevNodes[prev.Nodes[i].Name] = &prev.Nodes[i]
	}
	nextNames := make(map[string]bool, len(next.Nodes))
	for i := range next.Nodes {
		nn := &next.Nodes[i]
		nextNames[nn.Name] = true
		obj := "node/" + nn.Name
		on := prevNodes[nn.Name]
		if on == nil {
			add(Transition{Kind: TransNodeJoin, Node: nn.Name, Caption: "joined the cluster", Cause: cause(obj, "register", "create")})
			on = &SceneNode{Name: nn.Name, Ready: nn.Ready}
		}
		switch {
		case !on.KubeletStopped && nn.KubeletStopped:
			add(Transition{Kind: TransNodeFail, Node: nn.Name, Caption: "kubelet stopped: no more heartbeats", Cause: cause(obj, "fail")})
		case on.KubeletStopped && !nn.KubeletStopped:
			add(Transition{Kind: TransNodeRecover, Node: nn.Name, Caption: "kubelet is back", Cause: cause(obj, "recover", "ready")})
		}
		if !on.Unknown && nn.Unknown {
			add(Transition{Kind: TransNodeUnknown, Node: nn.Name, Caption: "Ready=Unknown: node-monitor-grace-period passed", Cause: cause(obj, "unknown")})
		}
		if !on.Ready && nn.Ready && prevNodes[nn.Name] != nil {
			add(Transition{Kind: TransNodeReady, Node: nn.Name, Caption: "Ready", Cause: cause(obj, "ready")})
		}
		if !on.Cordoned && nn.Cordoned {
			add(Transition{Kind: TransNodeCordon, Node: nn.Name, Caption: "cordoned: SchedulingDisabled", Cause: cause(obj, "cordon", "drain", "patch", "edit")})
		}
		if on.Cordoned && !nn.Cordoned {
			add(Transition{Kind: TransNodeUncordon, Node: nn.Name, Caption: "uncordoned", Cause: cause(obj, "uncordon", "patch", "edit")})
		}
		had := map[string]bool{}
		for _, t := range on.Taints {
			had[t.Text] = true
		}
		has := map[string]bool{}
		for _, t := range nn.Taints {
			has[t.Text] = true
			if !had[t.Text] {
				add(Transition{Kind: TransTaintAdd, Node: nn.Name, Taint: t.Text, Caption: "tainted " + t.Text, Cause: cause(obj, "taint")})
			}
		}
		for _, t := range on.Taints {
			if !has[t.Text] {
				add(Transition{Kind: TransTaintRemove, Node: nn.Name, Taint: t.Text, Caption: "taint " + t.Text + " removed", Cause: cause(obj, "taint", "untaint")})
			}
		}
	}
	for _, on := range prev.Nodes {
		if !nextNames[on.Name] {
			add(Transition{Kind: TransNodeLeave, Node: on.Name, Caption: "left the cluster", Cause: cause("node/"+on.Name, "remove", "delete")})
		}
	}
	// causal order: by the causing decision, the rest after in scene order
	sort.SliceStable(out, func(i, j int) bool {
		return seqOf(out[i]) < seqOf(out[j])
	})
	return out
}

func seqOf(t Transition) int64 {
	if t.Cause == nil {
		return 1<<63 - 1
	}
	return t.Cause.Seq
}

func rev(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("r%d", n)
}

func strategyNote(strategy string) string {
	if strategy == api.OnDeleteDaemonSetStrategyType {
		return "OnDelete: pods change only when deleted"
	}
	return "RollingUpdate: pods are replaced within the budget"
}

// stageActions are the decision actions that move a pod into stage.
func stageActions(stage string) []string {
	switch stage {
	case StagePulling, StageCreating:
		return []string{"start"}
	case StageRunning:
		return []string{"running", "start"}
	case StageReady:
		return []string{"ready", "running"}
	case StageTerminating:
		return []string{"delete", "evict"}
	case StageStalled:
		return []string{"pull-failed", "crash", "never-pull", "start"}
	case StageSucceeded, StageFailed:
		return []string{"complete", "fail", "evict"}
	}
	return nil
}

// stageTransition is the transition of a pod from op's stage to np's.
func stageTransition(op, np ScenePod, c *cluster.Decision) (Transition, bool) {
	t := Transition{Pod: np.Key, Node: np.Node, DaemonSet: np.DaemonSet, From: op.Stage, To: np.Stage, Cause: c}
	switch np.Stage {
	case StagePulling:
		t.Kind, t.Caption = TransPodPull, "kubelet pulls the image"
	case StageCreating:
		t.Kind, t.Caption = TransPodPulled, "kubelet creates the containers"
		if op.Stage == StagePulling {
			t.Caption = "image pulled · " + t.Caption
		}
	case StageRunning:
		t.Kind, t.Caption = TransPodStart, "containers started: Running, not Ready yet"
	case StageReady:
		t.Kind, t.Caption = TransPodReady, "Running and Ready"
	case StageStalled:
		t.Kind, t.Caption = TransPodStall, np.Status+": "+shortCause(np.Why)
	case StageTerminating:
		t.Kind, t.Caption = TransPodTerminate, "Terminating"
		switch {
		case c != nil && c.Component == cluster.ComponentUser:
			// the reason is "LINE: what happened"
			_, what, _ := strings.Cut(c.Reason, ": ")
			t.Caption = "deleted by kubectl · " + shortCause(what)
		case c != nil:
			t.Caption = "deleted by " + c.Func + " · " + shortCause(c.Reason)
		}
	case StageSucceeded, StageFailed:
		t.Kind, t.Caption = TransPodFinish, np.Status
	default:
		return t, false
	}
	t.Caption = strings.TrimSuffix(t.Caption, ": ")
	return t, true
}

func captionCreate(p ScenePod, c *cluster.Decision) string {
	if c == nil {
		return "created"
	}
	s := "created by " + c.Func
	if p.Node == "" && p.Why != "" {
		s += " · Pending: " + p.Why
	}
	return s
}

// firstClause is s up to its first ": " or "; ".
func firstClause(s string) string {
	for _, sep := range []string{": ", "; "} {
		if i := strings.Index(s, sep); i > 0 {
			s = s[:i]
		}
	}
	return shortCause(s)
}

// shortCause is the part of a decision's reason a caption shows: its first
// clause, at most 90 characters.
func shortCause(reason string) string {
	s := reason
	if i := strings.Index(s, "; "); i > 0 {
		s = s[:i]
	}
	if len(s) > 90 {
		cut := strings.LastIndexByte(s[:90], ' ')
		if cut < 40 {
			cut = 90
		}
		s = s[:cut] + "…"
	}
	return s
}

func scenePods(sc Scene) map[string]ScenePod {
	m := make(map[string]ScenePod, len(sc.Pending))
	for _, n := range sc.Nodes {
		for _, p := range n.Pods {
			m[p.Key] = p
		}
	}
	for _, p := range sc.Pending {
		m[p.Key] = p
	}
	return m
}

func sortedPodKeys(m map[string]ScenePod) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
