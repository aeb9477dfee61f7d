// Package kubelet simulates the node agents and the node-side controllers
// of a cluster: one kubelet per node runs the pods bound to it (image pulls,
// container start, readiness, graceful termination) on deterministic virtual
// delays; the node lifecycle controller marks silent nodes Unknown and keeps
// the condition taints; the taint eviction controller deletes pods that do
// not tolerate NoExecute taints; the pod GC removes pods bound to vanished
// nodes; the garbage collector deletes objects whose owner is gone.
//
// Every future transition is queued with cluster.WakeAt, and every
// component writes only when something really changes.
package kubelet

import (
	"fmt"
	"hash/fnv"
	"net/netip"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Kubelets are the simulated kubelets of every node. Create them with New.
type Kubelets struct {
	c *cluster.Cluster
	// down holds the nodes whose kubelet stopped, with the virtual time it stopped.
	down map[string]time.Time
	// timelines holds the planned start of each accepted pod, by UID.
	timelines map[string]*timeline
	// stopping holds the time each terminating pod is removed, by UID.
	stopping map[string]time.Time

	lastRV  int64
	lastNow time.Time
	synced  bool
}

// timeline is the plan for one pod's start, fixed when the kubelet accepts it.
type timeline struct {
	accepted time.Time
	// pulls are the containers whose image is pulled, with when the pull ends.
	pulls    []pull
	started  time.Time
	ready    time.Time
	pulled   bool // the Pulled events were recorded
	running  bool
	isReady  bool
	nodeName string
}

type pull struct {
	container, image string
	done             time.Time
	took             time.Duration
}

// New returns the kubelets of the cluster c.
func New(c *cluster.Cluster) *Kubelets {
	return &Kubelets{c: c, down: map[string]time.Time{}, timelines: map[string]*timeline{}, stopping: map[string]time.Time{}}
}

// Stop makes the node's kubelet stop working and posting status (a failed
// node). It reports false when it was already stopped.
func (k *Kubelets) Stop(node string) bool {
	if _, ok := k.down[node]; ok {
		return false
	}
	k.down[node] = k.c.Now()
	k.c.WakeAt(k.c.Now().Add(NodeMonitorGracePeriod))
	k.synced = false
	return true
}

// Forget drops what is known about a node's kubelet (the node was removed;
// a node registered later under the same name starts with a working kubelet).
func (k *Kubelets) Forget(node string) {
	delete(k.down, node)
	k.synced = false
}

// Running reports whether the node's kubelet is working.
func (k *Kubelets) Running(node string) bool { _, down := k.down[node]; return !down }

// StoppedSince returns when the node's kubelet stopped; ok is false when it runs.
func (k *Kubelets) StoppedSince(node string) (t time.Time, ok bool) {
	t, ok = k.down[node]
	return t, ok
}

// Start restarts a stopped kubelet: it posts a fresh node status at once
// (Ready=True "kubelet is posting ready status", no pressure). It reports
// false when the kubelet was running.
func (k *Kubelets) Start(node string) bool {
	if _, ok := k.down[node]; !ok {
		return false
	}
	delete(k.down, node)
	k.synced = false
	n := k.c.Node(node)
	if n == nil {
		return true
	}
	now := k.c.Now()
	want := map[string][3]string{
		api.NodeMemoryPressure: {api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
		api.NodeDiskPressure:   {api.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
		api.NodePIDPressure:    {api.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
		api.NodeReady:          {api.ConditionTrue, "KubeletReady", "kubelet is posting ready status"},
	}
	for _, t := range []string{api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure, api.NodeReady} {
		w := want[t]
		cond := n.Condition(t)
		if cond == nil {
			n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: t})
			cond = &n.Status.Conditions[len(n.Status.Conditions)-1]
		}
		if cond.Status != w[0] {
			cond.LastTransitionTime = now
		}
		cond.Status, cond.Reason, cond.Message, cond.LastHeartbeatTime = w[0], w[1], w[2], now
	}
	_ = k.c.UpdateNode(n)
	k.c.Record("Node", &n.ObjectMeta, "", api.EventTypeNormal, "NodeReady", fmt.Sprintf("Node %s status is now: NodeReady", node), cluster.ComponentKubelet, node)
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
	// NodeMonitorGracePeriod is how long a silent kubelet goes unnoticed
	// before its node turns Ready=Unknown (kube-controller-manager default since v1.32).
	NodeMonitorGracePeriod = 50 * time.Second
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
	img := c.Image
	if i := strings.LastIndex(img, "@"); i >= 0 {
		return "IfNotPresent"
	}
	slash := strings.LastIndex(img, "/")
	colon := strings.LastIndex(img, ":")
	if colon <= slash || img[colon+1:] == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

func nodeHasImage(n *api.Node, image string) bool {
	for _, im := range n.Status.Images {
		for _, name := range im.Names {
			if name == image {
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
	k.synced, k.lastRV, k.lastNow = true, c.ResourceVersion(), c.Now()
	for _, name := range c.PodNodeNames() {
		n := c.Node(name)
		if n == nil || !k.Running(name) {
			continue
		}
		for _, p := range c.PodsOnNode(name) {
			k.syncPod(n, p)
		}
	}
	k.forget()
}

// forget drops plans of pods that are gone or finished.
func (k *Kubelets) forget() {
	for uid, t := range k.timelines {
		if t.running && t.isReady {
			delete(k.timelines, uid)
		}
	}
	if len(k.stopping) > 0 && len(k.stopping)*4 > k.c.PodCount()+16 {
		alive := map[string]bool{}
		for _, p := range k.c.Pods() {
			alive[p.UID] = true
		}
		for uid := range k.stopping {
			if !alive[uid] {
				delete(k.stopping, uid)
			}
		}
	}
}

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
		return
	}
	t := k.timelines[p.UID]
	if p.Status.StartTime == nil {
		// The kubelet learns of a bound pod through its watch, and its pod
		// worker posts the first status (ContainerCreating) a moment later;
		// until then `kubectl get pods` shows the bound pod as Pending.
		if c := p.Condition(api.PodScheduled); c != nil && c.Status == api.ConditionTrue {
			if at := c.LastTransitionTime.Add(AdmitDelay); k.c.Now().Before(at) {
				k.c.WakeAt(at)
				return
			}
		}
		t = k.admit(n, p)
	} else if t == nil {
		if p.IsReady() {
			return // running and ready: nothing left to do
		}
		t = k.replan(n, p)
	}
	k.advance(n, p, t)
}

// admit mirrors HandlePodAdditions + the first SyncPod: the pod is
// accepted, its status shows ContainerCreating, and image pulls start.
func (k *Kubelets) admit(n *api.Node, p *api.Pod) *timeline {
	now := k.c.Now()
	h := hash32(p.Namespace + "/" + p.Name)
	t := &timeline{accepted: now, nodeName: n.Name}
	latest := now
	for i, c := range p.Spec.Containers {
		pol := pullPolicy(&c)
		present := nodeHasImage(n, c.Image)
		fp := fmt.Sprintf("spec.containers{%s}", c.Name)
		switch {
		case pol == "Never" || (pol == "IfNotPresent" && present):
			k.event(p, n, fp, api.EventTypeNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", c.Image))
		default:
			d := pullDelay(h+uint32(i)*7919, present)
			t.pulls = append(t.pulls, pull{container: c.Name, image: c.Image, done: now.Add(d), took: d})
			latest = maxTime(latest, now.Add(d))
			k.event(p, n, fp, api.EventTypeNormal, "Pulling", fmt.Sprintf("Pulling image %q", c.Image))
		}
	}
	t.started = latest.Add(startDelay(h, len(t.pulls) > 0))
	t.ready = t.started.Add(readinessDelay(&p.Spec))
	k.timelines[p.UID] = t

	st := &p.Status
	st.StartTime = &now
	st.HostIP = internalIP(n)
	if st.QOSClass == "" {
		st.QOSClass = api.GetPodQOS(&p.Spec)
	}
	setPodCondition(p, PodReadyToStartContainers, api.ConditionTrue, "", "", now)
	setPodCondition(p, api.PodInitialized, api.ConditionTrue, "", "", now)
	unready := fmt.Sprintf("containers with unready status: [%s]", containerNames(p))
	setPodCondition(p, api.PodReady, api.ConditionFalse, "ContainersNotReady", unready, now)
	setPodCondition(p, api.ContainersReady, api.ConditionFalse, "ContainersNotReady", unready, now)
	setPodCondition(p, api.PodScheduled, api.ConditionTrue, "", "", now)
	sortPodConditions(p)
	st.ContainerStatuses = nil
	for _, c := range p.Spec.Containers {
		st.ContainerStatuses = append(st.ContainerStatuses, api.ContainerStatus{
			Name: c.Name, Image: c.Image, Started: api.BoolPtr(false),
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}},
		})
	}
	_ = k.c.UpdatePod(p)
	how := "images already present"
	if len(t.pulls) > 0 {
		how = fmt.Sprintf("pulling %d image(s)", len(t.pulls))
	}
	k.decide(p, "SyncPod", "start", fmt.Sprintf("the kubelet on %s accepted the pod: ContainerCreating, %s; containers start at +%s", n.Name, how, t.started.Sub(now)))
	k.c.WakeAt(t.started)
	k.c.WakeAt(t.ready)
	for _, pl := range t.pulls {
		k.c.WakeAt(pl.done)
	}
	return t
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
	if !t.pulled {
		all := true
		for i := range t.pulls {
			pl := &t.pulls[i]
			if pl.done.After(now) {
				all = false
				continue
			}
			if pl.container == "" {
				continue // recorded
			}
			size := imageSize(pl.image)
			k.event(p, n, fmt.Sprintf("spec.containers{%s}", pl.container), api.EventTypeNormal, "Pulled",
				fmt.Sprintf("Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.", pl.image, pl.took, pl.took, size))
			if !nodeHasImage(n, pl.image) {
				n.Status.Images = append(n.Status.Images, api.ContainerImage{Names: []string{pl.image}, SizeBytes: size})
				_ = k.c.UpdateNode(n)
			}
			pl.container = ""
		}
		t.pulled = all
	}
	if !t.running && t.pulled && !t.started.After(now) {
		t.running = true
		changed = true
		started := t.started
		p.Status.Phase = api.PodRunning
		if p.Status.PodIP == "" {
			p.Status.PodIP = k.allocateIP(n, p)
		}
		for i := range p.Status.ContainerStatuses {
			cs := &p.Status.ContainerStatuses[i]
			cs.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: started}}
			cs.Started = api.BoolPtr(true)
			cs.ContainerID = fmt.Sprintf("containerd://%08x%08x", hash32(string(p.UID)+cs.Name), hash32(cs.Name+string(p.UID)))
			cs.ImageID = "sha256:" + fmt.Sprintf("%08x", hash32(cs.Image)) + strings.Repeat("0", 56)
			fp := fmt.Sprintf("spec.containers{%s}", cs.Name)
			k.event(p, n, fp, api.EventTypeNormal, "Created", "Container created")
			k.event(p, n, fp, api.EventTypeNormal, "Started", "Container started")
		}
		k.decide(p, "SyncPod", "running", "containers started: the pod is Running")
	}
	if t.running && !t.isReady && !t.ready.After(now) {
		t.isReady = true
		changed = true
		for i := range p.Status.ContainerStatuses {
			p.Status.ContainerStatuses[i].Ready = true
		}
		setPodCondition(p, api.ContainersReady, api.ConditionTrue, "", "", now)
		setPodCondition(p, api.PodReady, api.ConditionTrue, "", "", now)
		k.decide(p, "SyncPod", "ready", "all containers are ready: the pod is Ready")
	}
	if changed {
		_ = k.c.UpdatePod(p)
	}
}

// syncTerminatingPod mirrors the kubelet's graceful termination: Killing
// events for started containers and readiness dropped at once, then the pod
// object is removed when its containers have stopped (1-2 s, at most the
// grace period). Pods with finalizers stay until the finalizers are gone.
func (k *Kubelets) syncTerminatingPod(n *api.Node, p *api.Pod) {
	now := k.c.Now()
	at, ok := k.stopping[p.UID]
	if !ok {
		grace := int64(30)
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		at = now.Add(stopDelay(hash32(p.Namespace+"/"+p.Name), grace))
		if p.DeletionTimestamp.Before(at) {
			at = *p.DeletionTimestamp
		}
		k.stopping[p.UID] = at
		delete(k.timelines, p.UID)
		for _, cs := range p.Status.ContainerStatuses {
			if cs.State.Running != nil {
				k.event(p, n, fmt.Sprintf("spec.containers{%s}", cs.Name), api.EventTypeNormal, "Killing", fmt.Sprintf("Stopping container %s", cs.Name))
			}
		}
		if p.IsReady() {
			setPodCondition(p, api.PodReady, api.ConditionFalse, "", "", now)
			setPodCondition(p, api.ContainersReady, api.ConditionFalse, "", "", now)
			for i := range p.Status.ContainerStatuses {
				p.Status.ContainerStatuses[i].Ready = false
			}
			_ = k.c.UpdatePod(p)
		}
		k.c.WakeAt(at)
	}
	if at.After(now) || len(p.Finalizers) > 0 {
		return
	}
	delete(k.stopping, p.UID)
	if err := k.c.RemovePod(p.Namespace, p.Name); err == nil {
		k.decide(p, "SyncTerminatingPod", "remove", "the containers stopped, so the terminating pod is removed")
	}
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func containerNames(p *api.Pod) string {
	var names []string
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
// the lowest free address of the node's podCIDR from .2 up.
func (k *Kubelets) allocateIP(n *api.Node, p *api.Pod) string {
	if p.Spec.HostNetwork {
		return internalIP(n)
	}
	prefix, err := netip.ParsePrefix(n.Spec.PodCIDR)
	if err != nil {
		return ""
	}
	used := map[string]bool{}
	for _, q := range k.c.PodsOnNode(n.Name) {
		if q.Status.PodIP != "" && !q.Spec.HostNetwork {
			used[q.Status.PodIP] = true
		}
	}
	a := prefix.Masked().Addr().Next()
	for a = a.Next(); prefix.Contains(a); a = a.Next() {
		if !used[a.String()] {
			return a.String()
		}
	}
	return ""
}

// PodReadyToStartContainers is the pod condition the kubelet sets once the
// sandbox is ready (core/v1, v1.29+).
const PodReadyToStartContainers = "PodReadyToStartContainers"

var conditionOrder = map[string]int{PodReadyToStartContainers: 0, api.PodInitialized: 1, api.PodReady: 2, api.ContainersReady: 3, api.PodScheduled: 4}

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

// setPodCondition sets a pod condition, moving lastTransitionTime only when
// the status changes.
func setPodCondition(p *api.Pod, typ, status, reason, msg string, now time.Time) {
	if c := p.Condition(typ); c != nil {
		if c.Status != status {
			c.LastTransitionTime = now
		}
		c.Status, c.Reason, c.Message = status, reason, msg
		return
	}
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: typ, Status: status, Reason: reason, Message: msg, LastTransitionTime: now})
}
