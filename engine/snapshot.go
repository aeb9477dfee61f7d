package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/controller"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/kubelet"
)

// Snapshot is everything the browser UI draws, as plain data copied out of
// the store at one virtual instant. It holds no pointers into the store, so
// the UI can keep it while the simulation moves on.
//
// Taking one is linear in nodes + pods + nodes x DaemonSets (one
// nodeShouldRunDaemonPod verdict per pair); the UI takes one whenever the
// store's ResourceVersion changed since the last frame.
type Snapshot struct {
	// Elapsed is the virtual time since cluster.Epoch.
	Elapsed time.Duration
	// Nodes are sorted by name, each with the pods bound to it.
	Nodes []NodeView
	// Pending are pods not bound to any node (spec.nodeName empty), sorted
	// by namespace and name; a DaemonSet's pod names its Target node.
	Pending []PodView
	// DaemonSets are sorted by namespace and name.
	DaemonSets []DaemonSetView
}

// NodeView is one node card.
type NodeView struct {
	Name string
	// Status and Roles are kubectl get nodes' STATUS and ROLES columns
	// ("Ready", "Ready,SchedulingDisabled", "control-plane", "<none>").
	Status, Roles string
	// Taints are rendered as kubectl prints them: key=value:Effect.
	Taints []string
	// Labels are the node's labels as sorted "key=value" strings.
	Labels        []string
	Unschedulable bool
	// Ready is the Ready condition being True.
	Ready bool
	// Pods are the pods bound to the node, sorted by namespace and name.
	Pods []PodView
	// Daemons has one entry per DaemonSet (in Snapshot.DaemonSets order):
	// whether it should run here and why.
	Daemons []NodeDaemonView
}

// NodeDaemonView is the verdict of nodeShouldRunDaemonPod for one
// DaemonSet on one node, plus the DaemonSet's pods found on the node.
type NodeDaemonView struct {
	// DaemonSet is "namespace/name"; Name is the DaemonSet's name.
	DaemonSet, Name string
	// ShouldRun and ShouldContinueRunning are the controller's verdict
	// (controller.NodeShouldRunDaemonPod).
	ShouldRun, ShouldContinueRunning bool
	// Checks are every check with its result, in the controller's order.
	Checks []controller.Check
	// Pods counts this DaemonSet's pods bound to the node (terminating ones
	// included); Misscheduled is Pods > 0 && !ShouldRun (kubectl counts them
	// in NUMBER MISSCHEDULED).
	Pods         int
	Misscheduled bool
	// Reason is a one-line explanation when the DaemonSet should not run a
	// new pod here (ShouldRun false): the Detail of the failed check that
	// decided it (controller.Verdict.Reason), e.g. "taint
	// node-role.kubernetes.io/control-plane:NoSchedule is not tolerated:
	// ...". Empty when ShouldRun.
	Reason string
	// Refused is, when the DaemonSet should run a pod here and none exists
	// (bound or pending for this node) because the API server refuses the
	// DaemonSet's pod creates, the refusal (DaemonSetView.CreateRefused);
	// "" otherwise.
	Refused string
}

// PodView is one pod chip.
type PodView struct {
	Namespace, Name, UID string
	// Node is spec.nodeName ("" while unbound).
	Node string
	// Target is, for an unbound pod of a DaemonSet, the node its node-name
	// affinity pins it to (controller.GetTargetNodeName); "" otherwise.
	Target string
	// Owner is the name of the controlling DaemonSet ("" for a bare pod).
	Owner string
	// Phase is status.phase (Pending, Running, Succeeded, Failed, Unknown).
	Phase string
	// Status and Ready are kubectl get pods' STATUS and READY columns
	// ("ContainerCreating", "Running", "Terminating"; "0/1").
	Status, Ready string
	// Image is the first container's image.
	Image string
	// Terminating is true once deletionTimestamp is set.
	Terminating bool
	// Revision is the controller-revision-hash label ("" for bare pods).
	Revision string
	// RevisionNumber is the number of the owning DaemonSet's
	// ControllerRevision whose hash is Revision (the legend's revision,
	// DaemonSetView.Revisions); 0 for a bare pod, or when no revision of
	// the DaemonSet carries that hash any more.
	RevisionNumber int64
	// Unschedulable is the scheduler's reason a pod stays Pending: the
	// message of its PodScheduled=False condition (the FailedScheduling
	// text, "0/3 nodes are available: 1 Insufficient cpu, ..."); "" when
	// the condition is absent or not False.
	Unschedulable string
	// Reason and Message are status.reason and status.message (a Failed
	// pod's "OutOfmemory", an evicted pod's "Evicted"); usually "".
	Reason, Message string
	// Restarts is the RESTARTS column's count (container restarts, summed).
	Restarts int32
	// Stall explains why a pod that should run does not, in the kubelet's
	// words: the first waiting container's message (ErrImagePull's
	// registry error, "Back-off pulling image ...", "back-off 20s
	// restarting failed container=...", ErrImageNeverPull's), else for a
	// Running pod that is not Ready its Ready condition's message
	// ("containers with unready status: [web]"); "" otherwise.
	Stall string
	// NeverPulled is the image a container waits for in ErrImageNeverPull
	// (imagePullPolicy: Never and the image not on the node): what a
	// preload (Recorder.PreloadImage) would bring; "" otherwise.
	NeverPulled string
}

// DaemonSetView is one row of the DaemonSet table, with kubectl get ds's
// counts (status as the controller last wrote it).
type DaemonSetView struct {
	Namespace, Name                                            string
	Desired, Current, Ready, UpToDate, Available, Misscheduled int32
	// NodeSelector is the NODE SELECTOR column ("<none>" when empty).
	NodeSelector string
	// Images are the template's container images.
	Images []string
	// Strategy is spec.updateStrategy.type.
	Strategy string
	// MaxUnavailable and MaxSurge are spec.updateStrategy.rollingUpdate's
	// values as written ("1", "10%"; "" when unset or not RollingUpdate);
	// MinReadySeconds is spec.minReadySeconds (seconds).
	MaxUnavailable, MaxSurge string
	MinReadySeconds          int32
	// Revisions are the ControllerRevisions the DaemonSet controls (in its
	// namespace, by controllerRef), by number, oldest first, as kubectl
	// rollout history lists them.
	Revisions []RevisionView
	// UpdateRevision is the number of the current (update) revision, the
	// highest: upstream constructHistory (pkg/controller/daemon/update.go)
	// gives the revision matching the template max+1 on every sync, so once
	// the controller has seen the template, the highest revision is its
	// revision. 0 before any revision exists.
	UpdateRevision int64
	// RolloutMessage is kubectl rollout status's line (without --watch,
	// kubectl.DaemonSetRolloutStatus, without the trailing newline):
	// "Waiting for daemon set \"x\" rollout to finish: 2 out of 5 new pods
	// have been updated...", "... 4 of 5 updated pods are available...",
	// "daemon set \"x\" successfully rolled out", "Waiting for daemon set
	// spec update to be observed..."; for OnDelete kubectl's error,
	// "error: rollout status is only available for RollingUpdate strategy
	// type". RolloutDone is true once rolled out (and for OnDelete).
	RolloutMessage string
	RolloutDone    bool
	// StatusLags: the status (numberMisscheduled, as the controller last
	// wrote it) counts fewer misscheduled pods than the nodes' current
	// verdicts show. That happens after a NoSchedule taint under a running
	// daemon pod: nodeShouldRunDaemonPod now says shouldRun=false,
	// shouldContinueRunning=true, but syncNodeUpdate (upstream
	// pkg/controller/daemon/daemon_controller.go, since v1.33) enqueues the
	// DaemonSet only when a pod must be created or deleted on the node, or
	// when it already counts misscheduled pods, so the status is
	// recomputed (updateDaemonSetStatus) only at the DaemonSet's next sync.
	StatusLags bool
	// CreateRefused is, while a node that should run the DaemonSet's pod
	// has none, the API server's refusal of the controller's last pod
	// create, in its words (the newest FailedCreate event's message without
	// "Error creating: ", e.g. `pods "x-" is forbidden: error looking up
	// service account default/nosuch: serviceaccount "nosuch" not found`)
	// when no pod create succeeded since; "" otherwise. The controller
	// retries with the work queue's back-off (syncDaemonSet returns the
	// error, processNextWorkItem requeues rate-limited).
	CreateRefused string
	// NeverPulled are the images the DaemonSet's pods wait for in
	// ErrImageNeverPull (PodView.NeverPulled), sorted; nil when none.
	NeverPulled []string
}

// RevisionView is one ControllerRevision of a DaemonSet, one line of the
// page's revision legend.
type RevisionView struct {
	// Name is the ControllerRevision's name (DaemonSet name + "-" + Hash);
	// Number its revision; Hash its controller-revision-hash label.
	Name   string
	Number int64
	Hash   string
	// Images are the container images of the template stored in the
	// revision's data, in order (init containers not included).
	Images []string
	// ChangeCause is the kubernetes.io/change-cause annotation ("" if none).
	ChangeCause string
	// Pods counts the DaemonSet's pods (bound or not) labelled with Hash
	// that are not terminating.
	Pods int
	// Current marks the update revision (DaemonSetView.UpdateRevision).
	Current bool
}

// Snapshot returns what the UI draws at the current virtual time.
func (s *Simulation) Snapshot() Snapshot {
	return (&Snapshotter{sim: s}).take(false)
}

// Snapshotter takes snapshots of one Simulation again and again, reusing
// the NodeView of every node whose own object, bound pods and DaemonSets'
// scheduling fields did not change since the previous one (compared by
// ResourceVersion). Its snapshots equal Simulation.Snapshot's; they share
// the unchanged NodeViews (and their slices) with earlier snapshots, so
// callers must not modify them. A large cluster where a few nodes change
// per frame then costs a pass over the nodes' keys instead of rebuilding
// every view (5,000 nodes: about 17 ms native, 85 ms in wasm, for a full
// rebuild).
type Snapshotter struct {
	sim *Simulation
	// dsKey fingerprints the DaemonSets' identities, order and the template
	// fields nodeShouldRunDaemonPod reads; a change drops every cached view.
	dsKey string
	nodes map[string]cachedNode
	// images caches the container images decoded from each revision's
	// data, by revision UID (revisions' data never changes).
	images map[string][]string
	// Reused and Built count the views of the last snapshot.
	Reused, Built int
}

type cachedNode struct {
	key  uint64
	view NodeView
}

// NewSnapshotter returns a Snapshotter for s.
func (s *Simulation) NewSnapshotter() *Snapshotter {
	return &Snapshotter{sim: s, nodes: map[string]cachedNode{}, images: map[string][]string{}}
}

// Snapshot returns what the UI draws at the current virtual time.
func (sn *Snapshotter) Snapshot() Snapshot { return sn.take(true) }

func (sn *Snapshotter) take(cache bool) Snapshot {
	s := sn.sim
	c := s.store
	snap := Snapshot{Elapsed: s.Elapsed()}

	dss := c.DaemonSets()
	snap.DaemonSets = make([]DaemonSetView, len(dss))
	dsIndex := make(map[string]int, len(dss)) // DaemonSet UID -> index
	var dsKey strings.Builder
	for i, ds := range dss {
		dsIndex[ds.UID] = i
		v := DaemonSetView{
			Namespace:    ds.Namespace,
			Name:         ds.Name,
			Desired:      ds.Status.DesiredNumberScheduled,
			Current:      ds.Status.CurrentNumberScheduled,
			Ready:        ds.Status.NumberReady,
			UpToDate:     ds.Status.UpdatedNumberScheduled,
			Available:    ds.Status.NumberAvailable,
			Misscheduled: ds.Status.NumberMisscheduled,
			NodeSelector: nodeSelectorColumn(ds.Spec.Template.Spec.NodeSelector),
			Strategy:     ds.Spec.UpdateStrategy.Type,

			MinReadySeconds: ds.Spec.MinReadySeconds,
		}
		if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil && v.Strategy == api.RollingUpdateDaemonSetStrategyType {
			if ru.MaxUnavailable != nil {
				v.MaxUnavailable = ru.MaxUnavailable.String()
			}
			if ru.MaxSurge != nil {
				v.MaxSurge = ru.MaxSurge.String()
			}
		}
		msg, done, err := kubectl.DaemonSetRolloutStatus(ds)
		if err != nil {
			msg = "error: " + err.Error()
		}
		v.RolloutMessage, v.RolloutDone = strings.TrimSuffix(msg, "\n"), done
		for _, ct := range ds.Spec.Template.Spec.Containers {
			v.Images = append(v.Images, ct.Image)
		}
		snap.DaemonSets[i] = v
		if cache {
			ts := ds.Spec.Template.Spec
			b, _ := json.Marshal(struct {
				NodeName     string
				NodeSelector map[string]string
				Affinity     *api.Affinity
				Tolerations  []api.Toleration
			}{ts.NodeName, ts.NodeSelector, ts.Affinity, ts.Tolerations})
			dsKey.WriteString(ds.Namespace + "/" + ds.Name + "/" + ds.UID + "\x00")
			dsKey.Write(b)
			dsKey.WriteByte(0)
		}
	}
	revNumbers := sn.revisions(&snap, dsIndex, dss, &dsKey, cache)
	if cache && dsKey.String() != sn.dsKey {
		sn.dsKey = dsKey.String()
		clear(sn.nodes)
	}

	nodes := c.Nodes()
	snap.Nodes = make([]NodeView, len(nodes))
	counts := make([]int, len(dss)) // per-node pod count of each DaemonSet, reused
	sn.Reused, sn.Built = 0, 0
	var seen map[string]bool
	if cache {
		seen = make(map[string]bool, len(nodes))
	}
	for i, n := range nodes {
		pods := c.PodsOnNode(n.Name)
		var key uint64
		if cache {
			key = nodeKey(n, pods)
			seen[n.Name] = true
			if cn, ok := sn.nodes[n.Name]; ok && cn.key == key {
				snap.Nodes[i] = cn.view
				sn.Reused++
				continue
			}
		}
		sn.Built++
		nv := NodeView{
			Name:          n.Name,
			Status:        kubectl.NodeStatusColumn(n),
			Roles:         kubectl.NodeRolesColumn(n),
			Unschedulable: n.Spec.Unschedulable,
			Labels:        sortedLabels(n.Labels),
		}
		if rc := n.Condition(api.NodeReady); rc != nil && rc.Status == api.ConditionTrue {
			nv.Ready = true
		}
		for _, t := range n.Spec.Taints {
			nv.Taints = append(nv.Taints, kubectl.TaintString(t))
		}
		for j := range counts {
			counts[j] = 0
		}
		nv.Pods = make([]PodView, len(pods))
		for j, p := range pods {
			nv.Pods[j] = podView(p)
			if ref := p.ControllerRef(); ref != nil && ref.Kind == "DaemonSet" {
				if k, ok := dsIndex[ref.UID]; ok {
					counts[k]++
				}
				nv.Pods[j].RevisionNumber = revNumbers[revKey{ref.UID, nv.Pods[j].Revision}]
			}
		}
		nv.Daemons = make([]NodeDaemonView, len(dss))
		for k, ds := range dss {
			v := controller.NodeShouldRunDaemonPod(n, ds)
			d := NodeDaemonView{
				DaemonSet:             ds.Namespace + "/" + ds.Name,
				Name:                  ds.Name,
				ShouldRun:             v.ShouldRun,
				ShouldContinueRunning: v.ShouldContinueRunning,
				Checks:                v.Checks,
				Pods:                  counts[k],
			}
			d.Misscheduled = d.Pods > 0 && !v.ShouldRun
			if !v.ShouldRun {
				d.Reason = v.Reason()
			}
			nv.Daemons[k] = d
		}
		snap.Nodes[i] = nv
		if cache {
			sn.nodes[n.Name] = cachedNode{key: key, view: nv}
		}
	}
	if cache && len(sn.nodes) > len(seen) {
		for name := range sn.nodes {
			if !seen[name] {
				delete(sn.nodes, name)
			}
		}
	}

	for _, p := range c.PodsOnNode("") {
		v := podView(p)
		if v.Owner != "" {
			if t, err := controller.GetTargetNodeName(p); err == nil {
				v.Target = t
			}
		}
		if ref := p.ControllerRef(); ref != nil && ref.Kind == "DaemonSet" {
			v.RevisionNumber = revNumbers[revKey{ref.UID, v.Revision}]
		}
		snap.Pending = append(snap.Pending, v)
	}
	countRevisionPods(&snap)
	markStatusLags(&snap)
	markCreateRefused(c, dss, &snap)
	markNeverPulled(&snap)
	return snap
}

// markNeverPulled sets DaemonSetView.NeverPulled from its pods'
// PodView.NeverPulled.
func markNeverPulled(snap *Snapshot) {
	var by map[string][]string // "namespace/name" -> images
	for i := range snap.Nodes {
		for _, p := range snap.Nodes[i].Pods {
			if p.NeverPulled == "" || p.Owner == "" {
				continue
			}
			if by == nil {
				by = map[string][]string{}
			}
			k := p.Namespace + "/" + p.Owner
			if !slices.Contains(by[k], p.NeverPulled) {
				by[k] = append(by[k], p.NeverPulled)
			}
		}
	}
	if by == nil {
		return
	}
	for i := range snap.DaemonSets {
		d := &snap.DaemonSets[i]
		if imgs := by[d.Namespace+"/"+d.Name]; imgs != nil {
			slices.Sort(imgs)
			d.NeverPulled = imgs
		}
	}
}

// markCreateRefused sets DaemonSetView.CreateRefused and the Refused of
// each node verdict that wants a pod it lacks. The events are read only for
// a DaemonSet that lacks a pod somewhere, so a settled cluster pays nothing.
// Node views may be shared with the Snapshotter's cache: a node whose
// verdict changes gets its own copy of Daemons.
func markCreateRefused(c *cluster.Cluster, dss []*api.DaemonSet, snap *Snapshot) {
	if len(dss) == 0 {
		return
	}
	var pendingFor map[string]bool // "namespace/ds\x00node" of pending daemon pods
	for _, p := range snap.Pending {
		if p.Owner != "" && p.Target != "" {
			if pendingFor == nil {
				pendingFor = map[string]bool{}
			}
			pendingFor[p.Namespace+"/"+p.Owner+"\x00"+p.Target] = true
		}
	}
	lacks := func(d NodeDaemonView, node string) bool {
		return d.ShouldRun && d.Pods == 0 && !pendingFor[d.DaemonSet+"\x00"+node]
	}
	refused := make([]string, len(dss))
	some := false
	for k, ds := range dss {
		for _, n := range snap.Nodes {
			if k < len(n.Daemons) && lacks(n.Daemons[k], n.Name) {
				refused[k] = lastCreateRefusal(c, ds)
				break
			}
		}
		snap.DaemonSets[k].CreateRefused = refused[k]
		some = some || refused[k] != ""
	}
	if !some {
		return
	}
	for i := range snap.Nodes {
		n := &snap.Nodes[i]
		copied := false
		for k := range n.Daemons {
			if k >= len(refused) || refused[k] == "" || !lacks(n.Daemons[k], n.Name) {
				continue
			}
			if !copied {
				n.Daemons = slices.Clone(n.Daemons)
				copied = true
			}
			n.Daemons[k].Refused = refused[k]
		}
	}
}

// lastCreateRefusal is the message of ds's newest FailedCreate event
// without "Error creating: " when it is newer than its newest
// SuccessfulCreate (the DaemonSet controller's events, syncNodes), else "".
func lastCreateRefusal(c *cluster.Cluster, ds *api.DaemonSet) string {
	failed := c.LastEvent("DaemonSet", ds.UID, "FailedCreate")
	if failed == nil {
		return ""
	}
	created := c.LastEvent("DaemonSet", ds.UID, controller.SuccessfulCreateReason)
	if created != nil && created.LastTimestamp.After(failed.LastTimestamp) {
		return ""
	}
	msg := strings.TrimPrefix(failed.Message, "(combined from similar events): ")
	return strings.TrimPrefix(msg, "Error creating: ")
}

// markStatusLags sets each DaemonSetView's StatusLags from the nodes'
// verdicts.
func markStatusLags(snap *Snapshot) {
	verdicts := make([]int32, len(snap.DaemonSets))
	for _, n := range snap.Nodes {
		for k, d := range n.Daemons {
			if d.Misscheduled && k < len(verdicts) {
				verdicts[k]++
			}
		}
	}
	for k := range snap.DaemonSets {
		snap.DaemonSets[k].StatusLags = verdicts[k] > snap.DaemonSets[k].Misscheduled
	}
}

// revKey names a revision by its DaemonSet's UID and its hash.
type revKey struct{ ds, hash string }

// revisions fills each DaemonSetView's Revisions and UpdateRevision from
// the ControllerRevisions the DaemonSets control, and returns the revision
// number of each (DaemonSet UID, hash). With cache, it appends each
// revision's identity and number to dsKey (a renumbered revision, as
// rollout undo makes, must redraw the pods that carry it) and decodes each
// revision's images once.
func (sn *Snapshotter) revisions(snap *Snapshot, dsIndex map[string]int, dss []*api.DaemonSet, dsKey *strings.Builder, cache bool) map[revKey]int64 {
	numbers := map[revKey]int64{}
	var seen map[string]bool // revision UIDs, to prune the images cache
	if cache {
		seen = make(map[string]bool, len(sn.images))
	}
	for _, r := range sn.sim.store.ControllerRevisions() {
		ref := r.ControllerRef()
		if ref == nil {
			continue
		}
		k, ok := dsIndex[ref.UID]
		if !ok || dss[k].Namespace != r.Namespace {
			continue
		}
		hash := r.Labels[api.ControllerRevisionHashLabelKey]
		images, ok := sn.images[r.UID]
		if !ok {
			images = revisionImages(r.Data)
			if cache {
				sn.images[r.UID] = images
			}
		}
		if cache {
			seen[r.UID] = true
		}
		v := &snap.DaemonSets[k]
		v.Revisions = append(v.Revisions, RevisionView{
			Name: r.Name, Number: r.Revision, Hash: hash, Images: images,
			ChangeCause: r.Annotations[api.ChangeCauseAnnotation],
		})
		v.UpdateRevision = max(v.UpdateRevision, r.Revision)
		numbers[revKey{ref.UID, hash}] = r.Revision
		if cache {
			fmt.Fprintf(dsKey, "r%s/%d/%s\x00", ref.UID, r.Revision, hash)
		}
	}
	for i := range snap.DaemonSets {
		v := &snap.DaemonSets[i]
		sort.SliceStable(v.Revisions, func(a, b int) bool { return v.Revisions[a].Number < v.Revisions[b].Number })
		for j := range v.Revisions {
			v.Revisions[j].Current = v.Revisions[j].Number == v.UpdateRevision
		}
	}
	if cache && len(sn.images) > len(seen) {
		for uid := range sn.images {
			if !seen[uid] {
				delete(sn.images, uid)
			}
		}
	}
	return numbers
}

// countRevisionPods sets each RevisionView's Pods from the snapshot's pods
// (one pass; terminating pods are not counted).
func countRevisionPods(snap *Snapshot) {
	type podKey struct{ ns, owner, hash string }
	slot := map[podKey]*RevisionView{}
	for i := range snap.DaemonSets {
		d := &snap.DaemonSets[i]
		for j := range d.Revisions {
			slot[podKey{d.Namespace, d.Name, d.Revisions[j].Hash}] = &d.Revisions[j]
		}
	}
	if len(slot) == 0 {
		return
	}
	count := func(pods []PodView) {
		for i := range pods {
			p := &pods[i]
			if p.Owner == "" || p.Terminating || p.RevisionNumber == 0 {
				continue
			}
			if r := slot[podKey{p.Namespace, p.Owner, p.Revision}]; r != nil {
				r.Pods++
			}
		}
	}
	for i := range snap.Nodes {
		count(snap.Nodes[i].Pods)
	}
	count(snap.Pending)
}

// revisionImages returns the container images of the pod template stored
// in a ControllerRevision's data ({"spec":{"template":{...}}}, upstream
// getPatch); nil when the data does not decode.
func revisionImages(data string) []string {
	var d struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Image string `json:"image"`
					} `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	if json.Unmarshal([]byte(data), &d) != nil {
		return nil
	}
	out := make([]string, 0, len(d.Spec.Template.Spec.Containers))
	for _, c := range d.Spec.Template.Spec.Containers {
		out = append(out, c.Image)
	}
	return out
}

// nodeKey hashes (FNV-1a, 64 bit) what a NodeView is built from besides
// the DaemonSets: the node's name and ResourceVersion, and the UID and
// ResourceVersion of each pod bound to it, in order.
func nodeKey(n *api.Node, pods []*api.Pod) uint64 {
	h := uint64(14695981039346656037)
	add := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= 0xff
		h *= 1099511628211
	}
	add(n.Name)
	add(n.ResourceVersion)
	for _, p := range pods {
		add(p.UID)
		add(p.ResourceVersion)
	}
	return h
}

func podView(p *api.Pod) PodView {
	v := PodView{
		Namespace:   p.Namespace,
		Name:        p.Name,
		UID:         p.UID,
		Node:        p.Spec.NodeName,
		Phase:       p.Status.Phase,
		Status:      kubectl.PodStatusColumn(p),
		Ready:       kubectl.PodReadyColumn(p),
		Terminating: p.DeletionTimestamp != nil,
		Revision:    p.Labels[api.ControllerRevisionHashLabelKey],
		Reason:      p.Status.Reason,
		Message:     p.Status.Message,
	}
	if c := p.Condition(api.PodScheduled); c != nil && c.Status == api.ConditionFalse {
		v.Unschedulable = c.Message
		if v.Unschedulable == "" {
			v.Unschedulable = c.Reason
		}
	}
	if ref := p.ControllerRef(); ref != nil && ref.Kind == "DaemonSet" {
		v.Owner = ref.Name
	}
	if len(p.Spec.Containers) > 0 {
		v.Image = p.Spec.Containers[0].Image
	}
	for _, cs := range p.Status.InitContainerStatuses {
		if w := cs.State.Waiting; w != nil && w.Message != "" && v.Stall == "" {
			v.Stall = stallWords(p, cs, w)
		}
		if w := cs.State.Waiting; w != nil && w.Reason == kubelet.ReasonErrImageNeverPull && v.NeverPulled == "" {
			v.NeverPulled = cs.Image
		}
	}
	for _, cs := range p.Status.ContainerStatuses {
		v.Restarts += cs.RestartCount
		if w := cs.State.Waiting; w != nil && w.Message != "" && v.Stall == "" {
			v.Stall = stallWords(p, cs, w)
		}
		if w := cs.State.Waiting; w != nil && w.Reason == kubelet.ReasonErrImageNeverPull && v.NeverPulled == "" {
			v.NeverPulled = cs.Image
		}
	}
	if c := p.Condition(api.PodReady); v.Stall == "" && p.Status.Phase == api.PodRunning && p.DeletionTimestamp == nil && c != nil && c.Status == api.ConditionFalse {
		v.Stall = c.Message
	}
	return v
}

// stallWords is PodView.Stall for container status cs of pod p waiting
// with w: the kubelet's message, except for ErrImageNeverPull, whose
// message ("Container image ... is not present with pull policy of
// Never") does not say what to do about it.
func stallWords(p *api.Pod, cs api.ContainerStatus, w *api.ContainerStateWaiting) string {
	if w.Reason == kubelet.ReasonErrImageNeverPull {
		return fmt.Sprintf("the image %s is not on %s and imagePullPolicy is Never: pull it once, or preload it", cs.Image, p.Spec.NodeName)
	}
	return w.Message
}

func sortedLabels(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// nodeSelectorColumn renders a node selector as kubectl get ds's NODE
// SELECTOR column: sorted k=v pairs joined by commas, "<none>" when empty
// (labels.SelectorFromSet(...).String()).
func nodeSelectorColumn(sel map[string]string) string {
	if len(sel) == 0 {
		return "<none>"
	}
	return strings.Join(sortedLabels(sel), ",")
}

// RolloutSummary is the rollout in a few words (the page's folded rollout
// block): RollingUpdate's numbers, or
// "rolled out · 3/3" (done) once rollout status would say so. OnDelete is
// never "rolled out": kubectl rollout status refuses it (engine's
// RolloutDone is true for it, there being nothing to wait for), and its
// pods change only when deleted, so it says how many run the current
// template, "OnDelete · 1/3 updated", done only when all of them do.
func (d DaemonSetView) RolloutSummary() (state string, done bool) {
	if d.Strategy != "RollingUpdate" {
		return fmt.Sprintf("%s · %d/%d updated", d.Strategy, d.UpToDate, d.Desired), d.UpToDate >= d.Desired
	}
	if d.RolloutDone {
		return fmt.Sprintf("rolled out · %d/%d", d.UpToDate, d.Desired), true
	}
	return fmt.Sprintf("updated %d/%d · available %d/%d", d.UpToDate, d.Desired, d.Available, d.Desired), false
}
