// Package cluster is the simulated API server's store: nodes, pods,
// DaemonSets, ControllerRevisions and events, with resourceVersions, UIDs,
// generated names, indexes by node and by owner, the virtual clock and its
// wake-up queue, and the log of controller decisions.
//
// Everything is deterministic: the clock only moves when told to, names and
// UIDs come from a seeded generator, and every listing is sorted.
package cluster

import (
	"cmp"
	"container/heap"
	"encoding/hex"
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// Epoch is virtual time zero: the creation time of the default cluster.
var Epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Cluster is the store. It is not safe for concurrent use: the simulation
// runs every component on one goroutine.
type Cluster struct {
	now  time.Time
	rv   int64
	rand *rand.Rand

	nodes       map[string]*api.Node
	pods        map[string]*api.Pod // key: namespace/name
	daemonSets  map[string]*api.DaemonSet
	revisions   map[string]*api.ControllerRevision
	namespaces  map[string]*api.Namespace     // see namespaces.go (nil until first use)
	config      *configObjects                // ServiceAccounts, ConfigMaps, Secrets: see configobjects.go (nil until first use)
	generic     map[string]*api.GenericObject // every other served kind, stored as written: generic.go
	events      []*api.Event
	eventIdx    map[string]*api.Event       // logger key -> event
	eventKeys   map[*api.Event]string       // event -> its logger key
	eventAgg    map[string]*aggregateRecord // aggregate key -> messages seen
	eventSpam   map[string]*spamRecord      // source+object -> token bucket
	eventSeq    int64
	eventsSwept time.Time

	podsByNode  map[string]map[string]*api.Pod // spec.nodeName ("" = unbound) -> key -> pod
	podsByOwner map[string]map[string]*api.Pod // controller UID ("" = no controller) -> key -> pod
	podIndex    map[string]podIndexEntry

	// Sorted listings are cached: a reconcile pass lists every node and the
	// pods of every owner, and sorting them anew on every pass dominated the
	// profile. nodeList is nil when stale; podLists holds the sorted pods of
	// one index bucket ("all", "n:<node>", "o:<owner uid>") until its
	// membership changes.
	nodeList []*api.Node
	podLists map[string][]*api.Pod
	// ownerEdits holds, per owner UID whose sorted listing ("o:<uid>") is
	// cached, the pods whose membership changed since it was built (true:
	// now a member; false: no longer). The next read applies them to the
	// listing instead of sorting every pod of the owner again: a rollout
	// over 5,000 nodes changes a few hundred pods of one owner between two
	// reads.
	ownerEdits map[string]map[*api.Pod]bool
	// podNodeNames and podOwnerUIDs cache PodNodeNames and PodOwnerUIDs
	// (nil when stale): the kubelets, the pod GC and the garbage collector
	// ask for them on every pass.
	podNodeNames, podOwnerUIDs []string

	wakeups wakeHeap

	// leaseFeed lists the node leases in the order the kubelets created
	// them; leaseEnds holds, per node whose kubelet stopped renewing its
	// lease, the last renewal (see leases.go).
	leaseFeed []NodeLease
	leaseEnds map[string]time.Time

	decisions    []Decision
	maxDecisions int
	decisionSeq  int64

	// placementGen counts changes to nodes and to bound pods (see
	// PlacementVersion); nodeGen changes to nodes only (see NodeVersion).
	placementGen int64
	nodeGen      int64
	// ownerGen counts, per controller UID ("" = pods without one), the
	// writes to pods that have (before or after the write) that controller
	// (see OwnerPodVersion); revisionGen the writes to ControllerRevisions.
	ownerGen    map[string]int64
	revisionGen int64
	// nodePodGen counts, per node name ("" = unbound), the writes to pods
	// bound to it before or after the write (see NodePodVersion).
	nodePodGen map[string]int64
}

type podIndexEntry struct{ node, owner string }

// New returns an empty store at virtual time Epoch whose generated names and
// UIDs come from seed.
func New(seed int64) *Cluster {
	return &Cluster{
		now:          Epoch,
		rand:         rand.New(rand.NewSource(seed)),
		nodes:        map[string]*api.Node{},
		pods:         map[string]*api.Pod{},
		daemonSets:   map[string]*api.DaemonSet{},
		revisions:    map[string]*api.ControllerRevision{},
		eventIdx:     map[string]*api.Event{},
		eventKeys:    map[*api.Event]string{},
		eventAgg:     map[string]*aggregateRecord{},
		eventSpam:    map[string]*spamRecord{},
		podsByNode:   map[string]map[string]*api.Pod{},
		podsByOwner:  map[string]map[string]*api.Pod{},
		podIndex:     map[string]podIndexEntry{},
		podLists:     map[string][]*api.Pod{},
		maxDecisions: 20000,
	}
}

// Now returns the virtual time.
func (c *Cluster) Now() time.Time { return c.now }

// stamp is the current virtual time as the API server stores a
// metav1.Time: whole seconds (metav1.Time marshals as RFC3339, so every
// creationTimestamp, deletionTimestamp, event and condition time a client
// reads back is truncated to the second). Stamping truncated keeps AGE and
// LAST SEEN consistent with the timestamps printed and sorted on.
func (c *Cluster) stamp() time.Time { return MetaTime(c.now) }

// Stamp returns the current virtual time as it is written into an API
// object: truncated to whole seconds. Every component (kubelet, scheduler,
// node lifecycle, taint manager, pod GC, DaemonSet controller) uses it for a
// time it stores in an object — pod and node condition
// lastTransitionTime / lastProbeTime / lastHeartbeatTime, status.startTime,
// container state startedAt / finishedAt, taint timeAdded — because
// metav1.Time serializes as RFC3339 without fractions, so the API server
// keeps only the second, and kubectl's ages ("RESTARTS 1 (9s ago)",
// describe's "Started:") are computed from those stored seconds. Stamping
// truncated keeps what the tables print consistent with -o yaml. Timers,
// wake-ups and back-off clocks must keep using Now (full precision).
func (c *Cluster) Stamp() time.Time { return c.stamp() }

// MetaTime truncates t to whole seconds, as metav1.Time stores it (see
// Stamp); for a past or planned event time (a container's exit at its
// virtual instant) written into an API object.
func MetaTime(t time.Time) time.Time { return t.Truncate(time.Second) }

// SetNow moves the virtual clock to t. Moving backwards is ignored.
func (c *Cluster) SetNow(t time.Time) {
	if t.After(c.now) {
		c.now = t
	}
}

// ResourceVersion returns the store's change counter. It increases on every
// write, so a component loop is quiescent when a full pass leaves it unchanged.
func (c *Cluster) ResourceVersion() int64 { return c.rv }

func (c *Cluster) bump(m *api.ObjectMeta) {
	c.rv++
	m.ResourceVersion = strconv.FormatInt(c.rv, 10)
}

// Key returns "namespace/name".
func Key(namespace, name string) string { return namespace + "/" + name }

// NewUID returns a deterministic UID in the 8-4-4-4-12 hex form of real UIDs.
func (c *Cluster) NewUID() string {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(c.rand.Intn(256))
	}
	// the "%x-%x-%x-%x-%x" of b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]
	out := make([]byte, 36)
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:36], b[10:16])
	return string(out)
}

// nameAlphabet is the alphabet of apimachinery's rand.String: no vowels, no 0, 1, 3.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// RandomSuffix returns n characters drawn from Kubernetes' name alphabet
// (k8s.io/apimachinery/pkg/util/rand.String).
func (c *Cluster) RandomSuffix(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = nameAlphabet[c.rand.Intn(len(nameAlphabet))]
	}
	return string(b)
}

// GenerateName mirrors names.SimpleNameGenerator: base truncated to 58
// characters plus five random characters.
func (c *Cluster) GenerateName(base string) string {
	if len(base) > 58 {
		base = base[:58]
	}
	return base + c.RandomSuffix(5)
}

// ---- wake-ups ----

type wakeHeap []time.Time

func (h wakeHeap) Len() int           { return len(h) }
func (h wakeHeap) Less(i, j int) bool { return h[i].Before(h[j]) }
func (h wakeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *wakeHeap) Push(x any)        { *h = append(*h, x.(time.Time)) }
func (h *wakeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// WakeAt asks the simulation loop to run the components again at virtual time
// t. Times not after now are ignored (the loop is already running).
func (c *Cluster) WakeAt(t time.Time) {
	if !t.After(c.now) {
		return
	}
	heap.Push(&c.wakeups, t)
}

// NextWakeup pops and returns the earliest wake-up after now and not after
// limit; ok is false when there is none.
func (c *Cluster) NextWakeup(limit time.Time) (t time.Time, ok bool) {
	for c.wakeups.Len() > 0 {
		t = c.wakeups[0]
		if !t.After(c.now) {
			heap.Pop(&c.wakeups)
			continue
		}
		if t.After(limit) {
			return time.Time{}, false
		}
		heap.Pop(&c.wakeups)
		// drop duplicates of the same instant
		for c.wakeups.Len() > 0 && !c.wakeups[0].After(t) {
			heap.Pop(&c.wakeups)
		}
		return t, true
	}
	return time.Time{}, false
}

// PeekWakeup returns the earliest wake-up after now without taking it off
// the queue; ok is false when none is queued.
func (c *Cluster) PeekWakeup() (t time.Time, ok bool) {
	for _, w := range c.wakeups {
		if w.After(c.now) && (!ok || w.Before(t)) {
			t, ok = w, true
		}
	}
	return t, ok
}

// PendingWakeups returns how many wake-ups are queued (for tests and the UI).
func (c *Cluster) PendingWakeups() int { return c.wakeups.Len() }

// ---- nodes ----

// Node returns the node or nil.
func (c *Cluster) Node(name string) *api.Node { return c.nodes[name] }

// Nodes returns all nodes sorted by name, in a new slice the caller may keep.
func (c *Cluster) Nodes() []*api.Node {
	if c.nodeList == nil {
		c.nodeList = make([]*api.Node, 0, len(c.nodes))
		for _, n := range c.nodes {
			c.nodeList = append(c.nodeList, n)
		}
		sort.Slice(c.nodeList, func(i, j int) bool { return c.nodeList[i].Name < c.nodeList[j].Name })
	}
	return append([]*api.Node(nil), c.nodeList...)
}

// NodesShared is Nodes without the copy: the store's cached listing sorted
// by name, for callers that scan every node on every pass. The caller must
// not modify the slice, and must not keep it past the next node write
// (creating a node may insert into it in place).
func (c *Cluster) NodesShared() []*api.Node {
	if c.nodeList == nil {
		c.Nodes()
	}
	return c.nodeList
}

// NodeCount returns the number of nodes.
func (c *Cluster) NodeCount() int { return len(c.nodes) }

// CreateNode stores a new node, filling UID, resourceVersion and
// creationTimestamp. It fails with an AlreadyExists error if the name is taken.
func (c *Cluster) CreateNode(n *api.Node) error {
	if _, ok := c.nodes[n.Name]; ok {
		return AlreadyExists("nodes", n.Name)
	}
	n.APIVersion, n.Kind = "v1", "Node"
	n.Namespace = ""
	if n.UID == "" {
		n.UID = c.NewUID()
	}
	if n.CreationTimestamp.IsZero() {
		n.CreationTimestamp = c.stamp()
	}
	c.bump(&n.ObjectMeta)
	c.nodes[n.Name] = n
	if c.nodeList != nil { // keep the cached listing sorted: insert in place
		i := sort.Search(len(c.nodeList), func(i int) bool { return c.nodeList[i].Name >= n.Name })
		c.nodeList = append(c.nodeList, nil)
		copy(c.nodeList[i+1:], c.nodeList[i:])
		c.nodeList[i] = n
	}
	c.placementGen++
	c.nodeGen++
	return nil
}

// UpdateNode records a change to a stored node (the caller mutated it or
// passes a replacement with the same name).
func (c *Cluster) UpdateNode(n *api.Node) error {
	if _, ok := c.nodes[n.Name]; !ok {
		return NotFound("nodes", n.Name)
	}
	c.bump(&n.ObjectMeta)
	if c.nodes[n.Name] != n && c.nodeList != nil {
		i := sort.Search(len(c.nodeList), func(i int) bool { return c.nodeList[i].Name >= n.Name })
		c.nodeList[i] = n
	}
	c.nodes[n.Name] = n
	c.placementGen++
	c.nodeGen++
	return nil
}

// DeleteNode removes a node. Pods bound to it stay until the pod GC removes them.
func (c *Cluster) DeleteNode(name string) error {
	if _, ok := c.nodes[name]; !ok {
		return NotFound("nodes", name)
	}
	delete(c.nodes, name)
	c.nodeList = nil
	c.rv++
	c.placementGen++
	c.nodeGen++
	return nil
}

// ---- pods ----

// Pod returns the pod or nil.
func (c *Cluster) Pod(namespace, name string) *api.Pod { return c.pods[Key(namespace, name)] }

// Pods returns all pods sorted by namespace then name.
func (c *Cluster) Pods() []*api.Pod { return c.podList("all", c.pods) }

// PodCount returns the number of pods.
func (c *Cluster) PodCount() int { return len(c.pods) }

// PodsOnNode returns the pods whose spec.nodeName is node ("" = unbound), sorted.
func (c *Cluster) PodsOnNode(node string) []*api.Pod {
	return c.podList("n:"+node, c.podsByNode[node])
}

// PodsOwnedBy returns the pods whose controller ownerReference has this UID
// ("" = pods with no controller), sorted.
func (c *Cluster) PodsOwnedBy(uid string) []*api.Pod {
	return append([]*api.Pod(nil), c.ownerList(uid)...)
}

// PodsOnNodeShared is PodsOnNode without the copy, on the same terms as
// PodsOwnedByShared: read-only, and unchanged by later writes.
func (c *Cluster) PodsOnNodeShared(node string) []*api.Pod {
	// the key is built inline so that a hit allocates nothing
	l, ok := c.podLists["n:"+node]
	if !ok {
		l = sortedPods(c.podsByNode[node])
		c.podLists["n:"+node] = l
	}
	return l
}

// PodsOwnedByShared is PodsOwnedBy without the copy: it returns the store's
// cached sorted listing itself, for callers that scan it on every pass (the
// DaemonSet controller). The caller must not modify the slice. A later pod
// write does not change it (the store replaces a stale listing, never edits
// it), so it stays a valid snapshot of the moment it was taken.
func (c *Cluster) PodsOwnedByShared(uid string) []*api.Pod {
	// the key is built inline so that a hit allocates nothing
	return c.ownerList(uid)
}

// ownerList returns the cached sorted listing of the owner's pods, applying
// the pending ownerEdits or building it when there is none.
func (c *Cluster) ownerList(uid string) []*api.Pod {
	l, ok := c.podLists["o:"+uid]
	if ok {
		if ed := c.ownerEdits[uid]; len(ed) > 0 {
			l = applyPodEdits(l, ed)
			c.podLists["o:"+uid] = l
			delete(c.ownerEdits, uid)
		}
		return l
	}
	delete(c.ownerEdits, uid)
	l = sortedPods(c.podsByOwner[uid])
	c.podLists["o:"+uid] = l
	return l
}

// editOwnerList notes that p joined (member) or left the owner's pods, for
// a cached listing; without one there is nothing to keep up to date.
func (c *Cluster) editOwnerList(uid string, p *api.Pod, member bool) {
	l, ok := c.podLists["o:"+uid]
	if !ok {
		return
	}
	if c.ownerEdits == nil {
		c.ownerEdits = map[string]map[*api.Pod]bool{}
	}
	ed := c.ownerEdits[uid]
	if ed == nil {
		ed = map[*api.Pod]bool{}
		c.ownerEdits[uid] = ed
	}
	ed[p] = member
	if len(ed) > len(l)/2+16 {
		// as cheap to sort again
		delete(c.podLists, "o:"+uid)
		delete(c.ownerEdits, uid)
	}
}

// applyPodEdits returns a new listing sorted by namespace/name: l without
// the pods of ed, plus those of ed that are members. l is not modified.
func applyPodEdits(l []*api.Pod, ed map[*api.Pod]bool) []*api.Pod {
	kept := make([]*api.Pod, 0, len(l)+len(ed))
	for _, p := range l {
		if _, touched := ed[p]; !touched {
			kept = append(kept, p)
		}
	}
	var add []*api.Pod
	for p, member := range ed {
		if member {
			add = append(add, p)
		}
	}
	if len(add) == 0 {
		return kept
	}
	slices.SortFunc(add, comparePods)
	out := make([]*api.Pod, 0, len(kept)+len(add))
	prev := 0
	for _, a := range add {
		pos, _ := slices.BinarySearchFunc(kept, a, comparePods)
		out = append(out, kept[prev:pos]...)
		out = append(out, a)
		prev = pos
	}
	return append(out, kept[prev:]...)
}

// podList returns a copy of the cached sorted listing of one index bucket,
// building it from m when stale.
func (c *Cluster) podList(bucket string, m map[string]*api.Pod) []*api.Pod {
	l, ok := c.podLists[bucket]
	if !ok {
		l = sortedPods(m)
		c.podLists[bucket] = l
	}
	return append([]*api.Pod(nil), l...)
}

func sortedPods(m map[string]*api.Pod) []*api.Pod {
	out := make([]*api.Pod, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	slices.SortFunc(out, comparePods)
	return out
}

// editIndexKeys keeps a cached sorted key listing (PodNodeNames,
// PodOwnerUIDs; nil when stale) up to date in place when the bucket k turns
// non-empty (add) or empty. The empty key is never listed. The listing is
// only ever handed out as a copy, so editing it in place is safe.
func editIndexKeys(keys []string, cache *[]string, k string, add bool) {
	if keys == nil || k == "" {
		return
	}
	i, found := slices.BinarySearch(keys, k)
	switch {
	case add && !found:
		*cache = slices.Insert(keys, i, k)
	case !add && found:
		*cache = slices.Delete(keys, i, i+1)
	}
}

// comparePods orders pods by namespace, then name.
func comparePods(a, b *api.Pod) int {
	if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

func ownerUID(p *api.Pod) string {
	if r := p.ControllerRef(); r != nil {
		return r.UID
	}
	return ""
}

func (c *Cluster) index(key string, p *api.Pod) {
	old, had := c.podIndex[key]
	if (had && old.node != "") || (p != nil && p.Spec.NodeName != "") {
		c.placementGen++
	}
	var e podIndexEntry
	if p != nil {
		e = podIndexEntry{node: p.Spec.NodeName, owner: ownerUID(p)}
	}
	if c.ownerGen == nil {
		c.ownerGen = map[string]int64{}
	}
	if c.nodePodGen == nil {
		c.nodePodGen = map[string]int64{}
	}
	if had {
		c.ownerGen[old.owner]++
		c.nodePodGen[old.node]++
	}
	if p != nil && (!had || e.owner != old.owner) {
		c.ownerGen[e.owner]++
	}
	if p != nil && (!had || e.node != old.node) {
		c.nodePodGen[e.node]++
	}
	// Invalidate the cached listings whose membership or members change
	// (PodNodeNames and PodOwnerUIDs only when a bucket turns empty or
	// non-empty: see keysChanged below).
	nodeMove := !had || p == nil || old.node != e.node
	ownerMove := !had || p == nil || old.owner != e.owner
	if !had || p == nil || old != e || c.podsByNode[old.node][key] != p {
		delete(c.podLists, "all")
		var oldPod *api.Pod
		if had {
			oldPod = c.podsByOwner[old.owner][key]
			delete(c.podLists, "n:"+old.node)
		}
		if p != nil {
			delete(c.podLists, "n:"+e.node)
		}
		if !(had && p != nil && old.owner == e.owner && oldPod == p) {
			if had {
				c.editOwnerList(old.owner, oldPod, false)
			}
			if p != nil {
				c.editOwnerList(e.owner, p, true)
			}
		}
	}
	if had {
		delete(c.podsByNode[old.node], key)
		delete(c.podsByOwner[old.owner], key)
	}
	// a bucket the pod left that is now empty drops out of the key listings
	if had && nodeMove && len(c.podsByNode[old.node]) == 0 {
		editIndexKeys(c.podNodeNames, &c.podNodeNames, old.node, false)
	}
	if had && ownerMove && len(c.podsByOwner[old.owner]) == 0 {
		editIndexKeys(c.podOwnerUIDs, &c.podOwnerUIDs, old.owner, false)
	}
	if p == nil {
		delete(c.podIndex, key)
		return
	}
	// a bucket the pod joins that was empty enters them
	if nodeMove && len(c.podsByNode[e.node]) == 0 {
		editIndexKeys(c.podNodeNames, &c.podNodeNames, e.node, true)
	}
	if ownerMove && len(c.podsByOwner[e.owner]) == 0 {
		editIndexKeys(c.podOwnerUIDs, &c.podOwnerUIDs, e.owner, true)
	}
	c.podIndex[key] = e
	if c.podsByNode[e.node] == nil {
		c.podsByNode[e.node] = map[string]*api.Pod{}
	}
	c.podsByNode[e.node][key] = p
	if c.podsByOwner[e.owner] == nil {
		c.podsByOwner[e.owner] = map[string]*api.Pod{}
	}
	c.podsByOwner[e.owner][key] = p
}

// CreatePod stores a new pod. An empty name with generateName set gets a
// generated name; namespace defaults to "default". The pod admission
// plugins run first: Priority (AdmitPodPriority), DefaultTolerationSeconds
// and ServiceAccount (CheckServiceAccount, AdmitServiceAccount). Errors:
// Forbidden from CheckServiceAccount or AdmitPodPriority, AlreadyExists, or Invalid when neither name nor
// generateName is set.
func (c *Cluster) CreatePod(p *api.Pod) error {
	if p.Namespace == "" {
		p.Namespace = api.DefaultNamespace
	}
	if p.Name == "" && p.GenerateName == "" {
		return fmt.Errorf("Pod \"\" is invalid: metadata.name: Required value: name or generateName is required")
	}
	// The ServiceAccount and Priority admission plugins (in that order) run
	// before the name is generated: a refused generateName pod is named by
	// its prefix (`pods "fluentd-" is forbidden: ...`), and a refused pod
	// changes nothing.
	if err := c.CheckServiceAccount(p.Namespace, cmp.Or(p.Name, p.GenerateName), p.Spec.ServiceAccountName); err != nil {
		return err
	}
	if err := c.AdmitPodPriority(p); err != nil {
		return err
	}
	if p.Name == "" {
		for {
			name := c.GenerateName(p.GenerateName)
			if _, taken := c.pods[Key(p.Namespace, name)]; !taken {
				p.Name = name
				break
			}
		}
	}
	key := Key(p.Namespace, p.Name)
	if _, ok := c.pods[key]; ok {
		return AlreadyExists("pods", p.Name)
	}
	p.APIVersion, p.Kind = "v1", "Pod"
	// The DefaultTolerationSeconds admission plugin: every pod that does not
	// already tolerate them gets not-ready and unreachable NoExecute
	// tolerations for 300 s (plugin/pkg/admission/defaulttolerationseconds).
	api.AddDefaultTolerationSeconds(&p.Spec)
	c.AdmitServiceAccount(p)
	if p.UID == "" {
		p.UID = c.NewUID()
	}
	p.CreationTimestamp = c.stamp()
	// podStrategy.PrepareForCreate (pkg/registry/core/pod/strategy.go):
	// every pod starts at generation 1
	p.Generation = 1
	if p.Status.Phase == "" {
		p.Status.Phase = api.PodPending
	}
	c.bump(&p.ObjectMeta)
	c.pods[key] = p
	c.index(key, p)
	return nil
}

// UpdatePod records a change to a stored pod (re-indexing node and owner).
func (c *Cluster) UpdatePod(p *api.Pod) error {
	key := Key(p.Namespace, p.Name)
	if _, ok := c.pods[key]; !ok {
		return NotFound("pods", p.Name)
	}
	c.bump(&p.ObjectMeta)
	c.pods[key] = p
	c.index(key, p)
	return nil
}

// RemovePod deletes the pod object from the store at once (the end of
// graceful termination, or a forced delete).
func (c *Cluster) RemovePod(namespace, name string) error {
	key := Key(namespace, name)
	if _, ok := c.pods[key]; !ok {
		return NotFound("pods", name)
	}
	delete(c.pods, key)
	c.index(key, nil)
	c.rv++
	c.finalizeNamespace(namespace)
	return nil
}

// ---- namespaced objects other than pods ----

// metaObject is an API object whose metadata the generic store helpers
// below can reach.
type metaObject interface {
	comparable
	GetObjectMeta() *api.ObjectMeta
}

// sortedObjects returns the values of m sorted by namespace then name.
func sortedObjects[T metaObject](m map[string]T) []T {
	out := make([]T, 0, len(m))
	for _, o := range m {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].GetObjectMeta(), out[j].GetObjectMeta()
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

// createIn stores a new object in m (namespace defaulted, UID, creation
// time and resourceVersion filled). Errors: AlreadyExists for resource.
func createIn[T metaObject](c *Cluster, m map[string]T, o T, resource string) error {
	meta := o.GetObjectMeta()
	if meta.Namespace == "" {
		meta.Namespace = api.DefaultNamespace
	}
	key := Key(meta.Namespace, meta.Name)
	if _, ok := m[key]; ok {
		return AlreadyExists(resource, meta.Name)
	}
	if meta.UID == "" {
		meta.UID = c.NewUID()
	}
	meta.CreationTimestamp = c.stamp()
	c.bump(meta)
	m[key] = o
	return nil
}

// updateIn records a change to an object stored in m. Errors: NotFound.
func updateIn[T metaObject](c *Cluster, m map[string]T, o T, resource string) error {
	meta := o.GetObjectMeta()
	key := Key(meta.Namespace, meta.Name)
	if _, ok := m[key]; !ok {
		return NotFound(resource, meta.Name)
	}
	c.bump(meta)
	m[key] = o
	return nil
}

// removeFrom deletes an object from m at once. Errors: NotFound.
func removeFrom[T metaObject](c *Cluster, m map[string]T, namespace, name, resource string) error {
	key := Key(namespace, name)
	if _, ok := m[key]; !ok {
		return NotFound(resource, name)
	}
	delete(m, key)
	c.rv++
	c.finalizeNamespace(namespace)
	return nil
}

// ---- daemonsets ----

// DaemonSet returns the DaemonSet or nil.
func (c *Cluster) DaemonSet(namespace, name string) *api.DaemonSet {
	return c.daemonSets[Key(namespace, name)]
}

// DaemonSets returns all DaemonSets sorted by namespace then name.
func (c *Cluster) DaemonSets() []*api.DaemonSet { return sortedObjects(c.daemonSets) }

// CreateDaemonSet stores a new DaemonSet with generation 1.
func (c *Cluster) CreateDaemonSet(d *api.DaemonSet) error {
	d.APIVersion, d.Kind = "apps/v1", "DaemonSet"
	d.Generation = 1
	return createIn(c, c.daemonSets, d, "daemonsets.apps")
}

// UpdateDaemonSet records a change to a stored DaemonSet. Generation handling
// (PrepareForUpdate) is the caller's.
func (c *Cluster) UpdateDaemonSet(d *api.DaemonSet) error {
	return updateIn(c, c.daemonSets, d, "daemonsets.apps")
}

// RemoveDaemonSet deletes the DaemonSet object at once.
func (c *Cluster) RemoveDaemonSet(namespace, name string) error {
	return removeFrom(c, c.daemonSets, namespace, name, "daemonsets.apps")
}

// ---- controller revisions ----

// ControllerRevision returns the revision or nil.
func (c *Cluster) ControllerRevision(namespace, name string) *api.ControllerRevision {
	return c.revisions[Key(namespace, name)]
}

// ControllerRevisions returns all revisions sorted by namespace then name.
func (c *Cluster) ControllerRevisions() []*api.ControllerRevision {
	return sortedObjects(c.revisions)
}

// CreateControllerRevision stores a new revision.
func (c *Cluster) CreateControllerRevision(r *api.ControllerRevision) error {
	r.APIVersion, r.Kind = "apps/v1", "ControllerRevision"
	c.revisionGen++
	return createIn(c, c.revisions, r, "controllerrevisions.apps")
}

// UpdateControllerRevision records a change to a stored revision.
func (c *Cluster) UpdateControllerRevision(r *api.ControllerRevision) error {
	c.revisionGen++
	return updateIn(c, c.revisions, r, "controllerrevisions.apps")
}

// RemoveControllerRevision deletes a revision.
func (c *Cluster) RemoveControllerRevision(namespace, name string) error {
	c.revisionGen++
	return removeFrom(c, c.revisions, namespace, name, "controllerrevisions.apps")
}
