// Package kubelet simulates the node agents of a cluster (upstream
// pkg/kubelet): one kubelet per node runs the pods bound to it (admission,
// image pulls, container start, probes, crash loops, graceful termination)
// on deterministic virtual delays, reports its node's conditions and
// events, renews its node's lease (cluster.CreateNodeLease, the heartbeat
// the node lifecycle controller reads), and runs the kubelet's eviction
// manager (eviction.go). The controllers of kube-controller-manager that act
// on what the kubelets report live in their own packages
// (engine/nodelifecycle, engine/tainteviction, engine/podgc,
// engine/garbagecollector) and meet the kubelets only through the store.
//
// Every future transition is queued with cluster.WakeAt, and the kubelets
// write only when something really changes.
package kubelet

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/scheduler"
)

// Kubelets are the simulated kubelets of every node. Create them with New.
type Kubelets struct {
	c *cluster.Cluster
	// Registry is the simulated image registry the kubelets pull from
	// (registry.go); open unless a scenario declares its content.
	Registry *Registry
	// down holds the nodes whose kubelet stopped, with the virtual time it stopped.
	down map[string]time.Time
	// timelines holds the planned start of each accepted pod, by UID.
	timelines map[string]*timeline
	// stopping holds when each terminating pod's containers have stopped,
	// by UID (see syncTerminatingPod).
	stopping map[string]time.Time
	// boundSeen holds when the kubelet first saw each bound pod it has
	// not admitted yet, by UID, at full precision (see admitAt).
	boundSeen map[string]time.Time
	// agents is what each node's kubelet remembers of its node, by name.
	agents map[string]*nodeAgent
	// announced lists the nodes whose kubelet announced itself (startup
	// events, a new Lease) on the previous Sync: they report NodeReady on
	// the next one, after the node lifecycle controller, which runs earlier
	// in every pass, has registered them (see syncNodes).
	announced []string
	// nodesSeen is the NodeVersion of the last scan over the nodes.
	nodesSeen   int64
	nodesSeenOK bool
	// lastIP is the last pod address handed out on each node (host-local
	// IPAM's last_reserved_ip), by node name.
	lastIP map[string]uint32 // node -> last address handed out
	// probers holds the readiness workers of running pods whose readiness
	// may still change, by UID (prober.go); overrides the probe results
	// forced by SetProbeResult, by UID.
	probers   map[string]*podProber
	overrides map[string]probeOverride
	// crashers holds the restart state of pods with a crashing container,
	// by UID (crash.go).
	crashers map[string]*crashLoop
	// evict is the state of the nodes' eviction managers (eviction.go).
	evict evictionManagers
	// mountWaits holds the pods whose volumes do not mount yet, by UID
	// (volumes.go).
	mountWaits map[string]*mountWait

	lastRV  int64
	lastNow time.Time
	synced  bool
	// settled holds, per node, cluster.NodePodVersion as of the last Sync
	// that found every pod on the node settled (see nodeSettled).
	settled map[string]int64
}

// timeline is the plan for one pod's start, fixed when the kubelet accepts it.
type timeline struct {
	accepted time.Time
	// pulls are the containers whose image is pulled, with when the pull ends.
	pulls   []pull
	started time.Time
	ready   time.Time
	pulled  bool // the Pulled events were recorded
	// blocked: EnsureImageExists failed for an app container (its image
	// is absent and its imagePullPolicy is Never, ErrImageNeverPull, or
	// its reference does not parse, InvalidImageName): the containers do
	// not start, and the pod worker tries again at nextSync
	// (startcheck.go).
	blocked bool
	// configBlocked: the images are there but some app container's
	// environment cannot be built (CreateContainerConfigError); the pod
	// worker tries again at nextSync.
	configBlocked bool
	nextSync      time.Time
	// pullFailed: some pull failed at least once, so the containers start
	// a moment after the last successful pull rather than as planned.
	pullFailed bool
	running    bool
	isReady    bool
	nodeName   string
	// initPending: the pod has init containers that have not all
	// completed (or started, for sidecars); the app containers' images are
	// pulled only once they have (planMainPulls).
	initPending bool
}

type pull struct {
	container, image string
	// init: the container is an init container (its events and status
	// are under spec.initContainers / status.initContainerStatuses).
	init bool
	// blocked: the pull cannot happen (an init container's
	// ErrImageNeverPull or InvalidImageName) until the pod worker's next
	// sync, nextSync, tries again.
	blocked bool
	done    time.Time
	took    time.Duration
	// A failed pull (registry.go): failed until the next attempt starts;
	// backoff and lastUpdate are the image back-off entry (10 s doubling up
	// to 300 s); nextSync is the pod worker's next sync of the pod; err is
	// the pull error.
	failed     bool
	backoff    time.Duration
	lastUpdate time.Time
	nextSync   time.Time
	err        string
}

// New returns the kubelets of the cluster c.
func New(c *cluster.Cluster) *Kubelets {
	return &Kubelets{c: c, Registry: NewRegistry(), down: map[string]time.Time{}, timelines: map[string]*timeline{}, stopping: map[string]time.Time{}, lastIP: map[string]uint32{}, agents: map[string]*nodeAgent{},
		probers: map[string]*podProber{}, overrides: map[string]probeOverride{}, crashers: map[string]*crashLoop{}}
}

// Stop makes the node's kubelet stop working, posting status and renewing
// its lease (a failed node): the store's lease keeps its last renewal, now
// (cluster.EndNodeLeaseRenewal), which is how the node lifecycle controller
// learns of it. It reports false when it was already stopped.
func (k *Kubelets) Stop(node string) bool {
	if _, ok := k.down[node]; ok {
		return false
	}
	k.down[node] = k.c.Now()
	k.c.EndNodeLeaseRenewal(node, k.c.Now())
	k.synced, k.nodesSeenOK = false, false
	return true
}

// Forget drops what is known about a node's kubelet and its lease (the node
// was removed; a node registered later under the same name starts with a
// working kubelet).
func (k *Kubelets) Forget(node string) {
	delete(k.down, node)
	k.c.DeleteNodeLease(node)
	delete(k.lastIP, node)
	delete(k.agents, node)
	k.synced, k.nodesSeenOK = false, false
}

// Running reports whether the node's kubelet is working.
func (k *Kubelets) Running(node string) bool { _, down := k.down[node]; return !down }

// StoppedSince returns when the node's kubelet stopped; ok is false when it runs.
func (k *Kubelets) StoppedSince(node string) (t time.Time, ok bool) {
	t, ok = k.down[node]
	return t, ok
}

// Start restarts a stopped kubelet: it renews its lease again and posts a
// fresh node status at once (Ready=True "kubelet is posting ready status",
// no pressure). It reports false when the kubelet was running.
func (k *Kubelets) Start(node string) bool {
	if _, ok := k.down[node]; !ok {
		return false
	}
	delete(k.down, node)
	k.c.RenewNodeLease(node)
	k.synced, k.nodesSeenOK = false, false
	n := k.c.Node(node)
	if n == nil {
		return true
	}
	now := k.c.Stamp() // condition times are stored: whole seconds
	for _, w := range cluster.HealthyNodeConditions() {
		cond := n.Condition(w.Type)
		if cond == nil {
			n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: w.Type})
			cond = &n.Status.Conditions[len(n.Status.Conditions)-1]
		}
		if cond.Status != w.Status {
			cond.LastTransitionTime = now
		}
		cond.Status, cond.Reason, cond.Message, cond.LastHeartbeatTime = w.Status, w.Reason, w.Message, now
	}
	_ = k.c.UpdateNode(n)
	// A restarted kubelet announces itself as at registration
	// (Kubelet.Run, initialNode / setNodeStatus), then reports the
	// condition change (setters.ReadyCondition).
	// (A kubelet that never announced itself does so on the next Sync.)
	if a := k.agent(n); a.started {
		k.recordStartup(n)
		k.recordNodeStatusEvent(n, "NodeReady")
	}
	k.c.Decide(cluster.Decision{Component: cluster.ComponentKubelet, Func: "syncNodeStatus", Object: "Node/" + node, Node: node,
		Action: "ready", Reason: "the kubelet is back and posts Ready=True"})
	return true
}

// Invalidate makes the next Sync run even if nothing changed.
func (k *Kubelets) Invalidate() { k.synced = false }

// hash32 is FNV-32a of s: the source of every per-pod delay, so runs repeat.
func hash32(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

// Delays of the simulated kubelet. Every delay is a multiple of 500 ms so
// that many pods share wake-up instants: each instant costs a pass over the
// cluster, and on a 5,000-node cluster 100 ms steps made ~75 instants per
// minute against ~20 now (see BenchmarkFillAndRun in engine/).
const (
	step = 500 * time.Millisecond
	// AdmitDelay is the time between a pod's binding and the kubelet's first
	// status for it (pod Pending → ContainerCreating).
	AdmitDelay = 500 * time.Millisecond
)

// startDelay is how long creating and starting the containers takes once
// the images are present: 1.0-4.0 s, or 0.5-1.5 s after a pull.
func startDelay(h uint32, pulled bool) time.Duration {
	if pulled {
		return 500*time.Millisecond + time.Duration((h>>16)%3)*step
	}
	return time.Second + time.Duration(h%7)*step
}

// pullDelay is how long pulling an image takes: 2.0-8.0 s, or 0.5-1.0 s
// when imagePullPolicy Always finds it present.
func pullDelay(h uint32, present bool) time.Duration {
	if present {
		return 500*time.Millisecond + time.Duration((h>>8)%2)*step
	}
	return 2*time.Second + time.Duration((h>>8)%13)*step
}

// stopDelay is how long stopping the containers takes: 1.0-2.0 s, capped by
// the grace period.
func stopDelay(h uint32, grace int64) time.Duration {
	d := time.Second + time.Duration((h>>4)%3)*step
	if g := time.Duration(grace) * time.Second; g < d {
		return g
	}
	return d
}

// readinessDelay is the time from container start to Ready: the readiness
// probe's initialDelaySeconds (the first probe then succeeds), 0 without probe.
func readinessDelay(spec *api.PodSpec) time.Duration {
	var d time.Duration
	for _, c := range spec.Containers {
		if c.ReadinessProbe != nil {
			d = max(d, time.Duration(c.ReadinessProbe.InitialDelaySeconds)*time.Second)
		}
	}
	return d
}

// pullPolicy mirrors the API default: Always for :latest or untagged
// images, IfNotPresent otherwise.
func pullPolicy(c *api.Container) string {
	if c.ImagePullPolicy != "" {
		return c.ImagePullPolicy
	}
	return api.DefaultPullPolicy(c.Image)
}

// nodeHasImage reports whether the node's image list (status.images)
// holds the image, references compared normalized (nginx:1.23 is
// docker.io/library/nginx:1.23).
func nodeHasImage(n *api.Node, image string) bool {
	want := NormalizeImage(image)
	for _, im := range n.Status.Images {
		for _, name := range im.Names {
			if name == image || NormalizeImage(name) == want {
				return true
			}
		}
	}
	return false
}

// imageSize is a plausible, deterministic size for an image in bytes.
func imageSize(image string) int64 {
	return 20_000_000 + int64(hash32(image)%180_000_000)
}

// Sync runs every live kubelet once: pods bound to its node are accepted,
// started, made ready, or stopped and removed when their time has come.
// It does nothing when neither the store nor the clock changed since the
// previous Sync.
func (k *Kubelets) Sync() {
	c := k.c
	if k.synced && c.ResourceVersion() == k.lastRV && c.Now().Equal(k.lastNow) {
		return
	}
	if !k.synced || k.settled == nil {
		// a forced Sync (Invalidate, a kubelet stopped or started) looks
		// at every pod again
		k.settled = map[string]int64{}
	}
	k.synced, k.lastRV, k.lastNow = true, c.ResourceVersion(), c.Now()
	k.syncNodes()
	if len(k.announced) > 0 {
		// the next Sync reports NodeReady for them, whatever else changes
		k.synced = false
	}
	k.evictUnderPressure()
	// Nodes whose pods are all settled and unchanged are skipped: syncPod
	// would return at once for each of them (see nodeSettled). Pods with a
	// prober or a crash loop may change with time alone, so while any exist
	// every node is looked at.
	skip := len(k.probers) == 0 && len(k.crashers) == 0
	for _, name := range c.PodNodeNames() {
		v := c.NodePodVersion(name)
		if sv, ok := k.settled[name]; skip && ok && sv == v {
			continue
		}
		n := c.Node(name)
		if n == nil || !k.Running(name) {
			continue
		}
		pods := c.PodsOnNodeShared(name)
		for _, p := range podsInAdmissionOrder(pods) {
			k.syncPod(n, p)
		}
		if c.NodePodVersion(name) == v && k.nodeSettled(pods) {
			k.settled[name] = v
		} else {
			delete(k.settled, name)
		}
	}
	k.forget()
}

// nodeSettled reports whether syncPod has nothing left to do for any of
// pods, whatever the time: each is running (started, not terminal, not
// being deleted), Ready, and has no start-up timeline, prober or crash
// loop. syncPod returns at once for such a pod, so until one of the node's
// pods is written (cluster.NodePodVersion) the kubelet may skip the node.
func (k *Kubelets) nodeSettled(pods []*api.Pod) bool {
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.IsTerminal() || p.Status.StartTime == nil || !p.IsReady() ||
			k.timelines[p.UID] != nil || k.probers[p.UID] != nil || k.crashers[p.UID] != nil {
			return false
		}
	}
	return true
}

// nodeAgent is what one kubelet remembers of its node.
type nodeAgent struct {
	uid string
	// started: the startup events were recorded; ready: NodeReady too.
	started, ready bool
	// lastUnschedulable mirrors Kubelet.lastNodeUnschedulable.
	lastUnschedulable bool
}

// nodeRef is the reference the kubelet's events carry: Kind Node, and the
// node's name as UID (kubelet.go: nodeRef := &v1.ObjectReference{Kind:
// "Node", Name: nodeName, UID: types.UID(nodeName)}), which is why
// `kubectl describe node` searches events under both the name and the UID.
func nodeRef(n *api.Node) *api.ObjectMeta {
	return &api.ObjectMeta{Name: n.Name, UID: n.Name}
}

// recordNodeStatusEvent mirrors Kubelet.recordNodeStatusEvent: Normal
// <event> "Node <name> status is now: <event>".
func (k *Kubelets) recordNodeStatusEvent(n *api.Node, event string) {
	k.c.RecordNodeEvent(nodeRef(n), api.EventTypeNormal, event, "Node "+n.Name+" status is now: "+event, cluster.ComponentKubelet, n.Name)
}

// recordStartup records what a starting kubelet reports about its node:
// Starting "Starting kubelet." (Kubelet.Run / BirthCry), the condition
// events the node status setters emit on their first report
// (setters.MemoryPressureCondition, DiskPressureCondition,
// PIDPressureCondition: NodeHasSufficientMemory, NodeHasNoDiskPressure,
// NodeHasSufficientPID) and NodeAllocatableEnforced "Updated Node
// Allocatable limit across pods" (the container manager's node allocatable
// enforcement).
func (k *Kubelets) recordStartup(n *api.Node) {
	k.c.RecordNodeEvent(nodeRef(n), api.EventTypeNormal, "Starting", "Starting kubelet.", cluster.ComponentKubelet, n.Name)
	for _, ev := range [][2]string{{api.NodeMemoryPressure, "NodeHasSufficientMemory"}, {api.NodeDiskPressure, "NodeHasNoDiskPressure"}, {api.NodePIDPressure, "NodeHasSufficientPID"}} {
		if c := n.Condition(ev[0]); c == nil || c.Status != api.ConditionTrue {
			k.recordNodeStatusEvent(n, ev[1])
		}
	}
	k.c.RecordNodeEvent(nodeRef(n), api.EventTypeNormal, "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods", cluster.ComponentKubelet, n.Name)
}

// agent returns the kubelet's memory of node n, starting afresh when the
// node object was replaced (a new UID).
func (k *Kubelets) agent(n *api.Node) *nodeAgent {
	a := k.agents[n.Name]
	if a == nil || a.uid != n.UID {
		a = &nodeAgent{uid: n.UID}
		k.agents[n.Name] = a
	}
	return a
}

// syncNodes records the node events of every working kubelet: the startup
// events once per node, with the node's Lease (cluster.CreateNodeLease);
// NodeReady on the next Sync, by when the node lifecycle controller, earlier
// in the next pass, has registered the node from its new Lease (so describe
// node lists them in a real cluster's order: Starting, NodeHas...,
// NodeAllocatableEnforced, RegisteredNode, NodeReady); and
// NodeNotSchedulable / NodeSchedulable when
// spec.unschedulable changes (Kubelet.recordNodeSchedulableEvent, whose
// memory starts at false, so a schedulable node records nothing). The scan
// over the nodes runs only when a node changed since the last one
// (NodeVersion) or a kubelet stopped or started, so pod churn and idle
// passes cost nothing here.
func (k *Kubelets) syncNodes() {
	for _, name := range k.announced {
		n := k.c.Node(name)
		a := k.agents[name]
		if n == nil || a == nil || a.uid != n.UID || a.ready || !k.Running(name) {
			continue
		}
		a.ready = true
		if c := n.Condition(api.NodeReady); c != nil && c.Status == api.ConditionTrue {
			k.recordNodeStatusEvent(n, "NodeReady")
		}
	}
	k.announced = k.announced[:0]
	if v := k.c.NodeVersion(); v != k.nodesSeen || !k.nodesSeenOK {
		k.nodesSeen, k.nodesSeenOK = v, true
	} else {
		return
	}
	for _, n := range k.c.Nodes() {
		if !k.Running(n.Name) {
			continue
		}
		a := k.agent(n)
		if !a.started {
			a.started = true
			k.recordStartup(n)
			k.c.CreateNodeLease(n.Name, n.UID)
			k.announced = append(k.announced, n.Name)
		}
		if a.lastUnschedulable != n.Spec.Unschedulable {
			a.lastUnschedulable = n.Spec.Unschedulable
			if n.Spec.Unschedulable {
				k.recordNodeStatusEvent(n, "NodeNotSchedulable")
			} else {
				k.recordNodeStatusEvent(n, "NodeSchedulable")
			}
		}
	}
}

// admitAt is when the pod worker posts the first status of pod p, bound at
// bound (its PodScheduled lastTransitionTime): AdmitDelay after the
// binding. The stored time holds the binding only to the second
// (Cluster.Stamp), so the kubelet measures the delay from the instant it
// first saw the binding, unless the stored second already shows the
// binding older than AdmitDelay (a pod bound while the kubelet was down).
func (k *Kubelets) admitAt(p *api.Pod, bound time.Time) time.Time {
	now := k.c.Now()
	if !now.Before(bound.Add(time.Second + AdmitDelay)) {
		return bound
	}
	seen, ok := k.boundSeen[p.UID]
	if !ok {
		if k.boundSeen == nil {
			k.boundSeen = map[string]time.Time{}
		}
		seen = now
		k.boundSeen[p.UID] = seen
	}
	return seen.Add(AdmitDelay)
}

// forget drops plans of pods that are gone or finished.
func (k *Kubelets) forget() {
	for uid, t := range k.timelines {
		if t.running && t.isReady {
			delete(k.timelines, uid)
		}
	}
	if held := len(k.stopping) + len(k.probers) + len(k.overrides) + len(k.crashers) + len(k.boundSeen); held > 0 && held*4 > k.c.PodCount()+16 {
		alive := map[string]bool{}
		for _, p := range k.c.Pods() {
			alive[p.UID] = true
		}
		for uid := range k.boundSeen {
			if !alive[uid] {
				delete(k.boundSeen, uid)
			}
		}
		for uid := range k.stopping {
			if !alive[uid] {
				delete(k.stopping, uid)
			}
		}
		for uid := range k.probers {
			if !alive[uid] {
				delete(k.probers, uid)
			}
		}
		for uid := range k.overrides {
			if !alive[uid] {
				delete(k.overrides, uid)
			}
		}
		for uid := range k.crashers {
			if !alive[uid] {
				delete(k.crashers, uid)
			}
		}
	}
}

// containerFieldPath is the field path of a container's events
// (kubecontainer.GenerateContainerRef): "spec.containers{<name>}".
func containerFieldPath(name string) string { return "spec.containers{" + name + "}" }

func podObject(p *api.Pod) string { return "Pod/" + p.Namespace + "/" + p.Name }

func (k *Kubelets) event(p *api.Pod, n *api.Node, fieldPath, eventType, reason, msg string) {
	k.c.Record("Pod", &p.ObjectMeta, fieldPath, eventType, reason, msg, cluster.ComponentKubelet, n.Name)
}

func (k *Kubelets) decide(p *api.Pod, fn, action, reason string) {
	k.c.Decide(cluster.Decision{Component: cluster.ComponentKubelet, Func: fn, Object: podObject(p), Node: p.Spec.NodeName, Action: action, Reason: reason})
}

// syncPod mirrors the kubelet's SyncPod / SyncTerminatingPod for one pod.
func (k *Kubelets) syncPod(n *api.Node, p *api.Pod) {
	if p.DeletionTimestamp != nil {
		k.syncTerminatingPod(n, p)
		return
	}
	if p.IsTerminal() {
		delete(k.timelines, p.UID)
		delete(k.probers, p.UID)
		delete(k.overrides, p.UID)
		delete(k.crashers, p.UID)
		return
	}
	if p.Status.StartTime != nil && p.Status.ObservedGeneration != p.Generation {
		// the spec changed (updatePodGeneration bumped the generation):
		// the pod worker's sync of the update posts a status with the
		// generation it saw (status_manager SetPodStatus)
		_ = k.writeStatus(p)
	}
	t := k.timelines[p.UID]
	if p.Status.StartTime == nil {
		// The kubelet learns of a bound pod through its watch, and its pod
		// worker posts the first status (ContainerCreating) a moment later;
		// until then `kubectl get pods` shows the bound pod as Pending.
		if c := p.Condition(api.PodScheduled); c != nil && c.Status == api.ConditionTrue {
			if at := k.admitAt(p, c.LastTransitionTime); k.c.Now().Before(at) {
				k.c.WakeAt(at)
				return
			}
		}
		if !k.canAdmitPod(n, p) || k.volumesPending(n, p) { // volumes.go
			return
		}
		t = k.admit(n, p)
	} else if t == nil {
		if k.crashers[p.UID] != nil {
			k.crash(n, p)
			return
		}
		if k.probers[p.UID] != nil {
			k.probe(n, p)
			return
		}
		if p.IsReady() {
			// running and ready: nothing left to do. Sync skips whole nodes
			// of such pods (nodeSettled): time-driven work added for a
			// running, ready pod must make nodeSettled return false for it.
			return
		}
		t = k.replan(n, p)
	}
	k.advance(n, p, t)
	k.crash(n, p)
	k.probe(n, p)
}

// podsInAdmissionOrder returns pods unchanged unless some are waiting for
// admission; then it returns a sorted copy, by creationTimestamp (then
// name), as HandlePodAdditions admits new pods oldest first
// (sort.Sort(sliceutils.PodsByCreationTime)). pods itself (the store's
// shared listing) is never modified.
func podsInAdmissionOrder(pods []*api.Pod) []*api.Pod {
	waiting := 0
	for _, p := range pods {
		if p.Status.StartTime == nil && p.DeletionTimestamp == nil && !p.IsTerminal() {
			waiting++
		}
	}
	if waiting == 0 || len(pods) < 2 {
		return pods
	}
	pods = append([]*api.Pod(nil), pods...)
	sort.SliceStable(pods, func(i, j int) bool {
		if !pods[i].CreationTimestamp.Equal(pods[j].CreationTimestamp) {
			return pods[i].CreationTimestamp.Before(pods[j].CreationTimestamp)
		}
		return pods[i].Namespace+"/"+pods[i].Name < pods[j].Namespace+"/"+pods[j].Name
	})
	return pods
}

// Reasons the kubelet gives a pod it rejects for lack of a resource
// (pkg/kubelet/lifecycle/predicate.go: OutOfCPU, OutOfMemory, OutOfPods;
// any other resource gets "OutOf<name>").
const (
	ReasonOutOfCPU    = "OutOfcpu"
	ReasonOutOfMemory = "OutOfmemory"
	ReasonOutOfPods   = "OutOfpods"
)

// ErrReasonTaintNotMatch is the predicate description of a pod the kubelet
// rejects for an untolerated NoExecute taint (tainttoleration.ErrReasonNotMatch,
// used by lifecycle.generalFilter).
const ErrReasonTaintNotMatch = "node(s) had taints that the pod didn't tolerate"

// canAdmitPod mirrors Kubelet.canAdmitPod with the eviction manager's admit
// handler first (evictionAdmit: pressure conditions refuse non-critical
// pods, reason Evicted), then the predicate admit handler
// (predicateAdmitHandler.Admit, lifecycle.generalFilter): the pod is checked
// against the node as the scheduler would (scheduler.AdmissionCheck:
// resources against allocatable minus the requests of the pods already
// admitted here, node affinity, host ports), then for untolerated NoExecute
// taints. A pod the scheduler placed passes; one bound by spec.nodeName in
// its manifest or DaemonSet template may not. On failure the first reason
// wins and the pod is rejected (Kubelet.rejectPod): a Warning event with the
// reason, and status phase Failed, reason OutOfcpu / OutOfmemory /
// OutOfpods or the predicate name (NodeAffinity, NodePorts,
// TaintToleration), message "Pod was rejected: <message>".
func (k *Kubelets) canAdmitPod(n *api.Node, p *api.Pod) bool {
	var others []*api.Pod
	for _, q := range k.c.PodsOnNode(n.Name) {
		if q != p && q.Status.StartTime != nil && !q.IsTerminal() {
			others = append(others, q)
		}
	}
	var reason, msg string
	results := scheduler.AdmissionCheck(p, n, others)
	if reason, msg = evictionAdmit(n, p); reason != "" {
		// the eviction manager's admit handler runs first
	} else if len(results) > 0 {
		r := results[0]
		if ir := r.InsufficientResource; ir != nil {
			switch ir.ResourceName {
			case api.ResourceCPU:
				reason = ReasonOutOfCPU
			case api.ResourceMemory:
				reason = ReasonOutOfMemory
			case api.ResourcePods:
				reason = ReasonOutOfPods
			default:
				reason = "OutOf" + ir.ResourceName
			}
			// InsufficientResourceError.Error
			msg = fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d", ir.ResourceName, ir.Requested, ir.Used, ir.Capacity)
		} else {
			// PredicateFailureError.Error
			reason, msg = r.Name, fmt.Sprintf("Predicate %s failed: %s", r.Name, r.Reason)
		}
	} else if _, bad := api.FindMatchingUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, func(t *api.Taint) bool { return t.Effect == api.TaintEffectNoExecute }); bad {
		// generalFilter: the kubelet only cares about NoExecute taints, and
		// words them with tainttoleration.ErrReasonNotMatch, not the
		// scheduler Filter's "node(s) had untolerated taint(s)".
		reason, msg = scheduler.PluginTaintToleration, fmt.Sprintf("Predicate %s failed: %s", scheduler.PluginTaintToleration, ErrReasonTaintNotMatch)
	} else {
		return true
	}
	k.event(p, n, "", api.EventTypeWarning, reason, msg)
	p.Status.Phase = api.PodFailed
	p.Status.Reason = reason
	p.Status.Message = "Pod was rejected: " + msg
	if p.Status.QOSClass == "" {
		p.Status.QOSClass = api.GetPodQOS(&p.Spec)
	}
	_ = k.writeStatus(p)
	k.decide(p, "canAdmitPod", "reject", fmt.Sprintf("the kubelet on %s rejected the pod at admission (%s): %s", n.Name, reason, msg))
	return false
}

// admit mirrors HandlePodAdditions + the first SyncPod: the pod is
// accepted and its status shows ContainerCreating (PodInitializing with
// init containers). Without init containers the app containers' images are
// pulled at once (planMainPulls); with init containers the first init
// container starts (pulling its own image, initialized) once the sandbox
// is up, and the app containers' images are pulled only after
// initialisation (kuberuntime_manager.go computePodActions / SyncPod: the
// app containers are started — and startContainer pulls their images —
// only once the init containers are done).
func (k *Kubelets) admit(n *api.Node, p *api.Pod) *timeline {
	now := k.c.Now()
	h := hash32(p.Namespace + "/" + p.Name)
	t := &timeline{accepted: now, nodeName: n.Name}
	k.timelines[p.UID] = t
	delete(k.boundSeen, p.UID)

	st := &p.Status
	stamp := k.c.Stamp() // stored times are whole seconds (Cluster.Stamp)
	st.StartTime = &stamp
	setCreatingStatus(n, p, api.ConditionTrue, now)
	p.SetCondition(api.PodScheduled, api.ConditionTrue, "", "", stamp)
	k.setContainersCreating(p, now)
	var how string
	if len(p.Spec.InitContainers) > 0 {
		// The sandbox is created, then the first init container starts.
		t.initPending, t.pulled = true, true
		t.started = now.Add(startDelay(h, false))
		t.ready = t.started
		how = "init containers first"
		k.c.WakeAt(t.started)
	} else {
		how = k.planMainPulls(n, p, t, now)
	}
	_ = k.writeStatus(p)
	k.decide(p, "SyncPod", "start", fmt.Sprintf("the kubelet on %s accepted the pod: ContainerCreating, %s; containers start at +%s", n.Name, how, t.started.Sub(now)))
	return t
}

// planPull mirrors imageManager.EnsureImageExists for container c (an init
// container when init) starting now: a reference that does not parse
// (applyDefaultImageTag) records Warning InspectFailed and returns
// InvalidImageName; an image present and not to be pulled records Normal
// Pulled "Container image ... already present on machine"; imagePullPolicy
// Never with the image absent — neither pulled on this node (status.images)
// nor preloaded (Registry.Preloaded) — records ErrImageNeverPull; either
// failure also records kuberuntime startContainer's Warning Failed
// "Error: <reason>" and returns the reason and the container's waiting
// message. Otherwise Pulling is recorded and the pull planned (it fails,
// registry.go, when the registry lacks the image). h seeds the pull's
// duration.
func (k *Kubelets) planPull(n *api.Node, p *api.Pod, c *api.Container, init bool, h uint32) (pl *pull, reason, msg string) {
	now := k.c.Now()
	fp := containerFieldPath(c.Name)
	if init {
		fp = initFieldPath(c.Name)
	}
	if msg := invalidImageMessage(c.Image); msg != "" {
		k.event(p, n, fp, api.EventTypeWarning, "InspectFailed", msg)
		k.event(p, n, fp, api.EventTypeWarning, "Failed", "Error: "+ReasonInvalidImageName)
		return nil, ReasonInvalidImageName, msg
	}
	pol := pullPolicy(c)
	present := nodeHasImage(n, c.Image)
	switch {
	case present && pol != "Always", pol == "Never" && k.Registry.Preloaded(c.Image):
		k.event(p, n, fp, api.EventTypeNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", c.Image))
		return nil, "", ""
	case pol == "Never":
		// shouldPullImage is false and the image is absent; kuberuntime
		// startContainer then records "Error: ErrImageNeverPull".
		msg := fmt.Sprintf("Container image %q is not present with pull policy of Never", c.Image)
		k.event(p, n, fp, api.EventTypeWarning, "ErrImageNeverPull", msg)
		k.event(p, n, fp, api.EventTypeWarning, "Failed", "Error: "+ReasonErrImageNeverPull)
		return nil, ReasonErrImageNeverPull, msg
	}
	d := pullDelay(h, present)
	if !k.Registry.Exists(c.Image) {
		d = pullDelay(h, true) // resolving the reference fails fast
	}
	k.event(p, n, fp, api.EventTypeNormal, "Pulling", fmt.Sprintf("Pulling image %q", c.Image))
	k.c.WakeAt(now.Add(d))
	return &pull{container: c.Name, image: c.Image, init: init, done: now.Add(d), took: d}, "", ""
}

// planMainPulls plans, from now, the image pulls of the app containers of
// pod p (planPull for each, in order) and their start: right after the
// last pull, or now when nothing is pulled after initialisation. When an
// image check fails (ErrImageNeverPull, InvalidImageName) the containers
// do not start and the pod worker calls it again at its next sync
// (retryBlocked). It returns how the plan reads in the decision log.
func (k *Kubelets) planMainPulls(n *api.Node, p *api.Pod, t *timeline, now time.Time) string {
	h := hash32(p.Namespace + "/" + p.Name)
	latest := now
	t.pulls, t.blocked = nil, false
	var reasons []string
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		pl, reason, msg := k.planPull(n, p, c, false, h+uint32(i)*7919)
		cs := containerStatus(p, c.Name)
		switch {
		case reason != "":
			if !t.blocked {
				t.nextSync = now.Add(podWorkerResync(p, c.Name))
			}
			t.blocked = true
			reasons = append(reasons, reason)
			if cs != nil {
				cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason, Message: msg}}
			}
			continue
		case pl != nil:
			t.pulls = append(t.pulls, *pl)
			latest = maxTime(latest, pl.done)
		}
		if cs != nil && cs.State.Waiting != nil && blockReason(cs.State.Waiting.Reason) {
			// an earlier sync's failure is over: creating again
			cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}}
		}
	}
	if t.blocked {
		k.c.WakeAt(t.nextSync)
	}
	t.pulled = len(t.pulls) == 0 && !t.blocked
	if len(p.Spec.InitContainers) > 0 && len(t.pulls) == 0 {
		t.started = now // the sync that saw the init containers done starts them
	} else {
		t.started = latest.Add(startDelay(h, len(t.pulls) > 0))
	}
	t.ready = t.started.Add(readinessDelay(&p.Spec))
	k.c.WakeAt(t.started)
	k.c.WakeAt(t.ready)
	switch {
	case t.blocked:
		return fmt.Sprintf("%s: the containers cannot start; the pod worker tries again in %s", blockedWords(reasons, n.Name), t.nextSync.Sub(now))
	case len(t.pulls) > 0:
		return fmt.Sprintf("pulling %d image(s)", len(t.pulls))
	}
	return "images already present"
}

// stepPull advances one planned pull to now: its failure (pullFailed) and
// back-off (pullBackOff), or its success (Normal Pulled "Successfully
// pulled image ..." and the image added to the node's status.images). ok
// reports that the image is there; changed that the pod status changed.
func (k *Kubelets) stepPull(n *api.Node, p *api.Pod, pl *pull, now time.Time) (ok, changed bool) {
	if pl.container == "" {
		return true, false // recorded
	}
	if pl.failed {
		return false, k.pullBackOff(n, p, pl, now)
	}
	if pl.done.After(now) {
		return false, false
	}
	if !k.Registry.Exists(pl.image) {
		k.pullFailed(n, p, pl)
		return false, true
	}
	size := imageSize(pl.image)
	k.event(p, n, pl.fieldPath(), api.EventTypeNormal, "Pulled",
		fmt.Sprintf("Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.", pl.image, pl.took, pl.took, size))
	if !nodeHasImage(n, pl.image) {
		n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: []string{pl.image}, SizeBytes: size})
		_ = k.c.UpdateNode(n)
	}
	pl.container = ""
	return true, false
}

// replan rebuilds a lost plan (after a kubelet restart): containers start
// a short delay from now, images counted as present.
func (k *Kubelets) replan(n *api.Node, p *api.Pod) *timeline {
	now := k.c.Now()
	h := hash32(p.Namespace + "/" + p.Name)
	t := &timeline{accepted: now, nodeName: n.Name, pulled: true}
	t.running = p.Status.Phase == api.PodRunning
	if t.running {
		t.started = now
	} else {
		t.started = now.Add(startDelay(h, false))
	}
	t.ready = t.started.Add(readinessDelay(&p.Spec))
	k.timelines[p.UID] = t
	k.c.WakeAt(t.started)
	k.c.WakeAt(t.ready)
	return t
}

// advance applies the transitions of the pod's plan that are due.
func (k *Kubelets) advance(n *api.Node, p *api.Pod, t *timeline) {
	now := k.c.Now()
	changed := false
	if t.initPending && k.initialized(n, p, t) {
		// Initialisation is over: the app containers' images are
		// pulled now (startContainer for each).
		t.initPending = false
		k.decide(p, "SyncPod", "pull", "the init containers are done: "+k.planMainPulls(n, p, t, now))
		changed = true
	}
	if t.blocked && !t.initPending {
		changed = k.retryBlocked(n, p, t, now) || changed
	}
	if !t.pulled {
		all := !t.blocked
		for i := range t.pulls {
			pl := &t.pulls[i]
			ok, ch := k.stepPull(n, p, pl, now)
			changed = changed || ch
			if pl.failed {
				t.pullFailed = true
			}
			if !ok {
				all = false
			}
		}
		t.pulled = all
		if all && t.pullFailed {
			// The last pull succeeded after failures: start from now.
			t.started = maxTime(t.started, now.Add(startDelay(hash32(p.Namespace+"/"+p.Name), true)))
			k.c.WakeAt(t.started)
		}
	}
	if !t.running && !t.initPending && t.pulled && !t.started.After(now) && k.initialized(n, p, t) && k.configured(n, p, t, now) {
		t.running = true
		changed = true
		started := t.started
		p.Status.Phase = api.PodRunning
		if p.Status.PodIP == "" {
			p.Status.PodIP = k.allocateIP(n, p)
		}
		for i := range p.Status.ContainerStatuses {
			cs := &p.Status.ContainerStatuses[i]
			cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: cluster.MetaTime(started)}}
			cs.Started = api.BoolPtr(true)
			setRuntimeStatus(p, containerNamed(p, cs.Name), cs)
			fp := containerFieldPath(cs.Name)
			k.event(p, n, fp, api.EventTypeNormal, "Created", "Container created")
			k.event(p, n, fp, api.EventTypeNormal, "Started", "Container started")
		}
		k.decide(p, "SyncPod", "running", "containers started: the pod is Running")
		if cl := k.crashingContainers(p, started); cl != nil {
			// A container exits, or a liveness / startup probe kills
			// it, and it restarts under back-off (crash.go); the others
			// are ready as planContainer says, the pod is not.
			k.crashers[p.UID] = cl
			t.isReady = true
			for i := range p.Status.ContainerStatuses {
				if i < len(cl.cs) {
					p.Status.ContainerStatuses[i].Ready = cl.cs[i].readyNow()
					p.Status.ContainerStatuses[i].Started = api.BoolPtr(cl.cs[i].startedNow())
				}
			}
		} else if k.needsProber(p) {
			// Readiness is the prober's from now on (prober.go).
			k.probers[p.UID] = k.newProber(p, false)
			t.isReady = true
		}
	}
	if t.running && !t.isReady && !t.ready.After(now) {
		t.isReady = true
		changed = true
		for i := range p.Status.ContainerStatuses {
			p.Status.ContainerStatuses[i].Ready = true
		}
		p.SetCondition(api.ContainersReady, api.ConditionTrue, "", "", cluster.MetaTime(now))
		p.SetCondition(api.PodReady, api.ConditionTrue, "", "", cluster.MetaTime(now))
		k.decide(p, "SyncPod", "ready", "all containers are ready: the pod is Ready")
	}
	if changed {
		_ = k.writeStatus(p)
	}
}

// syncTerminatingPod mirrors the kubelet's graceful termination
// (podWorkers.UpdatePod with a deletion, SyncTerminatingPod, then
// SyncTerminatedPod): Killing events for started containers, then the pod
// object is removed when its containers have stopped. While the containers
// are being stopped they keep their status: the kubelet reports container
// readiness from the prober (generateAPIPodStatus /
// statusManager.SetContainerReadiness), which goes on probing during
// termination, so a terminating pod stays Ready — kubectl shows READY 1/1,
// STATUS Terminating, and EndpointSlices count it "serving". Readiness
// drops only once the containers have stopped (visible only when
// finalizers keep the pod object).
//
// How long the containers take (podStopAt) follows
// pkg/kubelet/pod_workers.go calculateEffectiveGracePeriod and
// pkg/kubelet/kuberuntime/kuberuntime_container.go killContainer: the
// grace period is the pod's deletionGracePeriodSeconds (the API server set
// it from DeleteOptions.gracePeriodSeconds — `kubectl delete
// --grace-period` — or spec.terminationGracePeriodSeconds, default 30;
// a taint-manager deletion uses the latter), at least 1 s, passed to
// killContainer as the override; the runtime sends each container its stop
// signal (SIGTERM unless the image sets STOPSIGNAL), and SIGKILLs what is
// still running when the grace period ends. A process that handles the
// signal (nginx, redis, most servers) exits within a second or two
// (stopDelay); one known to ignore it as PID 1 (ignoresStopSignal: sleep,
// tail -f, a shell — busybox or alpine running `sleep infinity`) runs
// until the SIGKILL, so the pod shows Terminating for the whole grace
// period. A shorter grace period given to a pod already terminating
// (cluster.DeletePod moves deletionTimestamp) does not bring the SIGKILL
// forward: the kubelet's first kill (StopContainer with the first period)
// runs to its end (kubernetes/kubernetes#83916, still open).
// (Node-pressure evictions kill with their own 1 s override: eviction.go.)
func (k *Kubelets) syncTerminatingPod(n *api.Node, p *api.Pod) {
	now := k.c.Now()
	at, ok := k.stopping[p.UID]
	if !ok {
		at = k.podStopAt(p, now)
		k.stopping[p.UID] = at
		delete(k.timelines, p.UID)
		delete(k.probers, p.UID)
		delete(k.overrides, p.UID)
		delete(k.crashers, p.UID)
		for _, cs := range p.Status.ContainerStatuses {
			if cs.State.Running != nil {
				k.event(p, n, containerFieldPath(cs.Name), api.EventTypeNormal, "Killing", fmt.Sprintf("Stopping container %s", cs.Name))
			}
		}
		if p.Status.ObservedGeneration != p.Generation {
			// the deletion bumped the generation: SyncTerminatingPod's
			// status (status_manager SetPodStatus, forced for a pod with
			// a deletionTimestamp) reports the generation it saw
			_ = k.writeStatus(p)
		}
		k.c.WakeAt(at)
	}
	if at.After(now) {
		return
	}
	if len(p.Finalizers) > 0 {
		// The containers have stopped but finalizers keep the object:
		// readiness is gone (SyncTerminatedPod's final status).
		if p.IsReady() {
			p.SetCondition(api.PodReady, api.ConditionFalse, "", "", cluster.MetaTime(now))
			p.SetCondition(api.ContainersReady, api.ConditionFalse, "", "", cluster.MetaTime(now))
			for i := range p.Status.ContainerStatuses {
				p.Status.ContainerStatuses[i].Ready = false
			}
			_ = k.writeStatus(p)
		}
		return
	}
	delete(k.stopping, p.UID)
	if err := k.c.RemovePod(p.Namespace, p.Name); err == nil {
		k.decide(p, "SyncTerminatingPod", "remove", "the containers stopped, so the terminating pod is removed")
	}
}

// deletionGrace is the grace period of a terminating pod: its
// deletionGracePeriodSeconds, else the default 30 s.
func deletionGrace(p *api.Pod) int64 {
	if p.DeletionGracePeriodSeconds != nil {
		return *p.DeletionGracePeriodSeconds
	}
	return cluster.DefaultTerminationGracePeriodSeconds
}

// podStopAt is when the containers of pod p, whose deletion the kubelet
// sees at now, have all stopped (see syncTerminatingPod): at the end of the
// grace period when a running container ignores its stop signal, else
// after stopDelay (1-2 s); never after deletionTimestamp while that is
// still ahead. The grace period is a duration handed to the runtime, not a
// deadline: a kubelet that was down when the pod was deleted gives it the
// whole period again once it is back. A pod with no running container (still ContainerCreating, or every
// container waiting in back-off) stops after stopDelay too: the sandbox is
// torn down.
func (k *Kubelets) podStopAt(p *api.Pod, now time.Time) time.Time {
	grace := max(deletionGrace(p), 1) // calculateEffectiveGracePeriod: "always supply a grace period of 1"
	at := now.Add(stopDelay(hash32(p.Namespace+"/"+p.Name), grace))
	for _, init := range []bool{false, true} {
		list, specs := p.Status.ContainerStatuses, p.Spec.Containers
		if init {
			list, specs = p.Status.InitContainerStatuses, p.Spec.InitContainers
		}
		for i := range list {
			if list[i].State.Running != nil && i < len(specs) && ignoresStopSignal(&specs[i]) {
				at = now.Add(time.Duration(grace) * time.Second)
			}
		}
	}
	if dl := p.DeletionTimestamp; dl != nil && dl.Before(at) && dl.After(now) {
		at = *dl
	}
	return at
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// containerNames lists the containers whose readiness makes the pod's
// (GenerateContainersReadyCondition): the sidecars (restartable init
// containers) first, then the app containers.
func containerNames(p *api.Pod) string {
	var names []string
	for _, c := range p.Spec.InitContainers {
		if isSidecar(&c) {
			names = append(names, c.Name)
		}
	}
	for _, c := range p.Spec.Containers {
		names = append(names, c.Name)
	}
	return strings.Join(names, " ")
}

func internalIP(n *api.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == "InternalIP" {
			return a.Address
		}
	}
	return ""
}

// allocateIP returns the pod's IP: the host IP for hostNetwork pods, else
// an address of the node's podCIDR handed out as the host-local IPAM plugin
// does (plugins/ipam/host-local, RangeIter: start after the last reserved
// IP of the range, wrap around to the first usable one .2, skip addresses
// in use). A pod recreated on the same node therefore gets a new address
// (.2, .3, .4 ...) rather than the one just freed. The last reserved
// address lives in the kubelet (host-local keeps it on the node's disk).
func (k *Kubelets) allocateIP(n *api.Node, p *api.Pod) string {
	if p.Spec.HostNetwork {
		return internalIP(n)
	}
	base, size, ok := parseCIDR4(n.Spec.PodCIDR)
	if !ok || size < 4 {
		return ""
	}
	used := map[uint32]bool{}
	for _, q := range k.c.PodsOnNode(n.Name) {
		if q.Status.PodIP != "" && !q.Spec.HostNetwork {
			if a, ok := parseIPv4(q.Status.PodIP); ok {
				used[a] = true
			}
		}
	}
	// .0 is the network, .1 the bridge gateway, and the range ends before
	// the broadcast address.
	first, last := base+2, base+size-2
	start := first
	if prev, ok := k.lastIP[n.Name]; ok && prev >= first && prev < last {
		start = prev + 1
	}
	for a := start; ; {
		if !used[a] {
			k.lastIP[n.Name] = a
			return formatIPv4(a)
		}
		if a++; a > last {
			a = first
		}
		if a == start {
			return "" // the range is exhausted
		}
	}
}

// parseIPv4 reads a dotted-quad IPv4 address. (net/netip would do, but it
// pulls weak and unique into the browser build for four lines of parsing.)
func parseIPv4(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return 0, false
	}
	var a uint32
	for _, part := range parts {
		v, err := strconv.ParseUint(part, 10, 8)
		if err != nil {
			return 0, false
		}
		a = a<<8 | uint32(v)
	}
	return a, true
}

func formatIPv4(a uint32) string {
	return fmt.Sprintf("%d.%d.%d.%d", a>>24, a>>16&0xff, a>>8&0xff, a&0xff)
}

// parseCIDR4 reads an IPv4 CIDR such as 10.244.1.0/24 into its masked base
// address and its number of addresses.
func parseCIDR4(s string) (base, size uint32, ok bool) {
	addr, bits, found := strings.Cut(s, "/")
	if !found {
		return 0, 0, false
	}
	a, ok := parseIPv4(addr)
	n, err := strconv.Atoi(bits)
	if !ok || err != nil || n < 1 || n > 30 {
		return 0, 0, false
	}
	size = 1 << (32 - n)
	return a &^ (size - 1), size, true
}

// PodReadyToStartContainers is the pod condition the kubelet sets once the
// sandbox is ready (core/v1, v1.29+).
const PodReadyToStartContainers = "PodReadyToStartContainers"

var conditionOrder = map[string]int{PodReadyToStartContainers: 0, api.PodInitialized: 1, api.PodReady: 2, api.ContainersReady: 3, api.PodScheduled: 4}

// setContainersCreating puts p's conditions in the kubelet's order and
// reports every container not started, waiting in ContainerCreating, and
// the init containers as admitInitContainers does (initcontainers.go): the
// container statuses generateAPIPodStatus posts before the pod's sandbox
// has started any container.
func (k *Kubelets) setContainersCreating(p *api.Pod, now time.Time) {
	sortPodConditions(p)
	st := &p.Status
	st.ContainerStatuses = nil
	for _, c := range p.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, api.ContainerStatus{
			Name: c.Name, Image: c.Image, Started: api.BoolPtr(false),
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}},
		})
	}
	k.admitInitContainers(p, now)
}

// setCreatingStatus writes what the pod worker's generateAPIPodStatus
// reports for pod p on node n while its containers are being created:
// hostIP, the QOS class (when not yet set), PodReadyToStartContainers with
// status sandbox (api.ConditionTrue once the sandbox exists, False while
// volumes are still being mounted), Initialized True, and Ready and
// ContainersReady False (ContainersNotReady, "containers with unready
// status: [a b]"). The caller sorts the conditions (sortPodConditions).
func setCreatingStatus(n *api.Node, p *api.Pod, sandbox string, now time.Time) {
	st := &p.Status
	st.HostIP = internalIP(n)
	if st.QOSClass == "" {
		st.QOSClass = api.GetPodQOS(&p.Spec)
	}
	p.SetCondition(PodReadyToStartContainers, sandbox, "", "", cluster.MetaTime(now))
	p.SetCondition(api.PodInitialized, api.ConditionTrue, "", "", cluster.MetaTime(now))
	unready := fmt.Sprintf("containers with unready status: [%s]", containerNames(p))
	p.SetCondition(api.PodReady, api.ConditionFalse, "ContainersNotReady", unready, cluster.MetaTime(now))
	p.SetCondition(api.ContainersReady, api.ConditionFalse, "ContainersNotReady", unready, cluster.MetaTime(now))
}

// sortPodConditions puts the conditions in the order the kubelet reports them.
func sortPodConditions(p *api.Pod) {
	cs := p.Status.Conditions
	rank := func(t string) int {
		if r, ok := conditionOrder[t]; ok {
			return r
		}
		return 5
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && rank(cs[j].Type) < rank(cs[j-1].Type); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}
