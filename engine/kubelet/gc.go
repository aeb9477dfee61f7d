package kubelet

import (
	"fmt"
	"slices"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// PodGC mirrors the pod garbage collector's gcOrphaned
// (pkg/controller/podgc/gc_controller.go): a node name that bound pods
// refer to but that no longer exists is put in quarantine
// (nodeQueue.AddAfter(node, quarantineTime)); once PodGCQuarantine has
// passed and the node is still missing (discoverDeletedNodes), its pods are
// marked Failed with the DisruptionTarget condition (DeletionByPodGC,
// "PodGC: node no longer exists") and force-deleted
// (markFailedAndDeletePodWithCondition). Until then the pods stay listed
// with the status their kubelet last reported. Upstream runs gc every 20 s
// (gcCheckPeriod), so it notices a vanished node up to 20 s late; the
// simulation notices it on the next pass.
type PodGC struct {
	c *cluster.Cluster
	// missing holds, per vanished node name, when the GC first saw it missing.
	missing map[string]time.Time
	// outOfService caches the not-Ready nodes tainted
	// node.kubernetes.io/out-of-service, as of NodeVersion oosVersion
	// (oosOK: computed once), so a quiet cluster is not rescanned.
	outOfService []string
	oosVersion   int64
	oosOK        bool
}

// TaintNodeOutOfService is the taint an administrator puts on a node that
// is shut down for good (core/v1 TaintNodeOutOfService, non-graceful node
// shutdown): pods stuck terminating there are force-deleted by the pod GC.
const TaintNodeOutOfService = "node.kubernetes.io/out-of-service"

// PodGCQuarantine is how long a vanished node's pods are kept before the pod
// GC deletes them (podgc quarantineTime, 40 s).
const PodGCQuarantine = 40 * time.Second

// NewPodGC returns the pod GC.
func NewPodGC(c *cluster.Cluster) *PodGC { return &PodGC{c: c, missing: map[string]time.Time{}} }

// Sync runs gcTerminating, then quarantines newly vanished nodes and
// deletes the pods bound to nodes whose quarantine is over (gcOrphaned). It
// writes only when it deletes.
func (g *PodGC) Sync() {
	g.gcTerminating()
	c := g.c
	now := c.Now()
	seen := map[string]bool{}
	for _, name := range c.PodNodeNames() {
		if c.Node(name) != nil {
			continue
		}
		seen[name] = true
		since, ok := g.missing[name]
		if !ok {
			// gcOrphaned: add newly found unknown nodes to quarantine.
			since = now
			g.missing[name] = now
			c.WakeAt(now.Add(PodGCQuarantine))
			c.Decide(cluster.Decision{Component: ComponentPodGC, Func: "gcOrphaned", Object: "Node/" + name, Node: name,
				Action: "quarantine", Reason: fmt.Sprintf("node %s no longer exists but %d pod(s) are still bound to it: they are kept for the %s quarantine (the node may come back) and deleted after", name, len(c.PodsOnNode(name)), PodGCQuarantine)})
		}
		if now.Before(since.Add(PodGCQuarantine)) {
			continue
		}
		// discoverDeletedNodes: still missing after the quarantine.
		for _, p := range c.PodsOnNode(name) {
			if !p.IsTerminal() {
				p.Status.Phase = api.PodFailed
				p.SetCondition(DisruptionTarget, api.ConditionTrue, "DeletionByPodGC", "PodGC: node no longer exists", c.Stamp())
				_ = c.UpdatePod(p)
			}
			if err := c.RemovePod(p.Namespace, p.Name); err == nil {
				c.Decide(cluster.Decision{Component: ComponentPodGC, Func: "gcOrphaned", Object: podObject(p), Node: name,
					Action: "delete", Reason: fmt.Sprintf("the pod is bound to node %s, which has been gone for %s (quarantine %s): marked Failed (DeletionByPodGC) and force-deleted", name, now.Sub(since), PodGCQuarantine)})
			}
		}
	}
	// Forget nodes that came back or have no pods left.
	for name := range g.missing {
		if !seen[name] {
			delete(g.missing, name)
		}
	}
}

// gcTerminating mirrors the pod GC's gcTerminating: a terminating pod on a
// node that is not Ready and carries the node.kubernetes.io/out-of-service
// taint (any effect) is marked Failed and force-deleted
// (markFailedAndDeletePod, no condition): no kubelet is left to finish its
// termination. Upstream runs every 20 s (gcCheckPeriod); the simulation acts
// on the next pass.
func (g *PodGC) gcTerminating() {
	c := g.c
	if v := c.NodeVersion(); !g.oosOK || v != g.oosVersion {
		g.outOfService, g.oosVersion, g.oosOK = g.outOfService[:0], v, true
		for _, n := range c.Nodes() {
			ready := n.Condition(api.NodeReady)
			if ready != nil && ready.Status == api.ConditionTrue {
				continue
			}
			for _, t := range n.Spec.Taints {
				if t.Key == TaintNodeOutOfService {
					g.outOfService = append(g.outOfService, n.Name)
					break
				}
			}
		}
	}
	for _, name := range g.outOfService {
		for _, p := range c.PodsOnNode(name) {
			if p.DeletionTimestamp == nil {
				continue
			}
			if !p.IsTerminal() {
				p.Status.Phase = api.PodFailed
				_ = c.UpdatePod(p)
			}
			if err := c.RemovePod(p.Namespace, p.Name); err == nil {
				c.Decide(cluster.Decision{Component: ComponentPodGC, Func: "gcTerminating", Object: podObject(p), Node: name,
					Action: "delete", Reason: fmt.Sprintf("the pod is terminating on node %s, which is not Ready and is tainted %s: marked Failed and force-deleted", name, TaintNodeOutOfService)})
			}
		}
	}
}

// ComponentPodGC is the pod GC's decision component name.
const ComponentPodGC = "pod-garbage-collector"

// DisruptionTarget is the pod condition set on pods about to be deleted by
// a controller (core/v1 DisruptionTarget).
const DisruptionTarget = "DisruptionTarget"

// Deletion propagation finalizers (metav1.FinalizerOrphanDependents, FinalizerDeleteDependents).
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// GarbageCollector mirrors the garbage collector (pkg/controller/garbagecollector)
// for the simulated kinds: pods and ControllerRevisions whose controller
// owner no longer exists are deleted (background cascade); a DaemonSet being
// deleted with the foregroundDeletion finalizer loses its dependents first
// and then goes; with the orphan finalizer its dependents lose their
// ownerReference and it goes at once.
type GarbageCollector struct{ c *cluster.Cluster }

// NewGarbageCollector returns the garbage collector.
func NewGarbageCollector(c *cluster.Cluster) *GarbageCollector { return &GarbageCollector{c: c} }

func removeFinalizer(m *api.ObjectMeta, f string) {
	out := m.Finalizers[:0]
	for _, x := range m.Finalizers {
		if x != f {
			out = append(out, x)
		}
	}
	if len(out) == 0 {
		out = nil
	}
	m.Finalizers = out
}

func (g *GarbageCollector) decide(object, node, action, reason string) {
	g.c.Decide(cluster.Decision{Component: cluster.ComponentGarbageCollector, Func: "attemptToDeleteItem", Object: object, Node: node, Action: action, Reason: reason})
}

// Sync runs one garbage collection pass.
func (g *GarbageCollector) Sync() {
	c := g.c
	dss := c.DaemonSets()
	owners := make(map[string]*api.DaemonSet, len(dss))
	for _, ds := range dss {
		owners[ds.UID] = ds
	}
	// DaemonSets being deleted with a propagation finalizer.
	for _, ds := range dss {
		if ds.DeletionTimestamp == nil {
			continue
		}
		switch {
		case slices.Contains(ds.Finalizers, FinalizerOrphanDependents):
			for _, p := range c.PodsOwnedBy(ds.UID) {
				p.RemoveOwnerReference(ds.UID)
				_ = c.UpdatePod(p)
				g.decide(podObject(p), p.Spec.NodeName, "orphan", fmt.Sprintf("DaemonSet %s is deleted with --cascade=orphan: the pod keeps running without an owner", ds.Name))
			}
			for _, r := range c.ControllerRevisions() {
				if ref := r.ControllerRef(); ref != nil && ref.UID == ds.UID {
					r.RemoveOwnerReference(ds.UID)
					_ = c.UpdateControllerRevision(r)
				}
			}
			removeFinalizer(&ds.ObjectMeta, FinalizerOrphanDependents)
			_ = c.UpdateDaemonSet(ds)
		case slices.Contains(ds.Finalizers, FinalizerDeleteDependents):
			pods := c.PodsOwnedBy(ds.UID)
			for _, r := range c.ControllerRevisions() {
				if ref := r.ControllerRef(); ref != nil && ref.UID == ds.UID {
					_ = c.RemoveControllerRevision(r.Namespace, r.Name)
				}
			}
			for _, p := range pods {
				if p.DeletionTimestamp == nil {
					if err := c.DeletePod(p.Namespace, p.Name, nil); err == nil {
						g.decide(podObject(p), p.Spec.NodeName, "delete", fmt.Sprintf("DaemonSet %s is deleted in the foreground: its pods go first", ds.Name))
					}
				}
			}
			if len(c.PodsOwnedBy(ds.UID)) > 0 {
				continue
			}
			removeFinalizer(&ds.ObjectMeta, FinalizerDeleteDependents)
			_ = c.UpdateDaemonSet(ds)
		}
		if len(ds.Finalizers) == 0 {
			if err := c.RemoveDaemonSet(ds.Namespace, ds.Name); err == nil {
				delete(owners, ds.UID)
				g.decide(dsObject(ds), "", "delete", "every dependent is handled, so the DaemonSet is removed")
			}
		}
	}
	// Dependents whose controller is gone (background cascade).
	for _, uid := range c.PodOwnerUIDs() {
		if _, ok := owners[uid]; ok {
			continue
		}
		for _, p := range c.PodsOwnedBy(uid) {
			if p.DeletionTimestamp != nil {
				continue
			}
			ref := p.ControllerRef()
			if err := c.DeletePod(p.Namespace, p.Name, nil); err == nil {
				g.decide(podObject(p), p.Spec.NodeName, "delete", fmt.Sprintf("its owner %s %s no longer exists (background cascading deletion)", ref.Kind, ref.Name))
			}
		}
	}
	for _, r := range c.ControllerRevisions() {
		ref := r.ControllerRef()
		if ref == nil {
			continue
		}
		if _, ok := owners[ref.UID]; ok {
			continue
		}
		if err := c.RemoveControllerRevision(r.Namespace, r.Name); err == nil {
			g.decide("ControllerRevision/"+r.Namespace+"/"+r.Name, "", "delete", fmt.Sprintf("its owner %s %s no longer exists", ref.Kind, ref.Name))
		}
	}
}

func dsObject(ds *api.DaemonSet) string { return "DaemonSet/" + ds.Namespace + "/" + ds.Name }
