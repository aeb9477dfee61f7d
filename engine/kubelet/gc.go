package kubelet

import (
	"fmt"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// PodGC mirrors the pod garbage collector's gcOrphaned
// (pkg/controller/podgc): pods bound to a node that no longer exists are
// force-deleted. (Upstream waits for a 40 s quarantine and a 20 s period;
// the simulation removes them at once.)
type PodGC struct{ c *cluster.Cluster }

// NewPodGC returns the pod GC.
func NewPodGC(c *cluster.Cluster) *PodGC { return &PodGC{c: c} }

// Sync removes the pods bound to vanished nodes.
func (g *PodGC) Sync() {
	c := g.c
	for _, name := range c.PodNodeNames() {
		if c.Node(name) != nil {
			continue
		}
		for _, p := range c.PodsOnNode(name) {
			if err := c.RemovePod(p.Namespace, p.Name); err == nil {
				c.Decide(cluster.Decision{Component: "pod-garbage-collector", Func: "gcOrphaned", Object: podObject(p), Node: name,
					Action: "delete", Reason: fmt.Sprintf("the pod is bound to node %s, which no longer exists", name)})
			}
		}
	}
}

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

func hasFinalizer(m *api.ObjectMeta, f string) bool {
	for _, x := range m.Finalizers {
		if x == f {
			return true
		}
	}
	return false
}

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
	owners := map[string]*api.DaemonSet{}
	for _, ds := range c.DaemonSets() {
		owners[ds.UID] = ds
	}
	// DaemonSets being deleted with a propagation finalizer.
	for _, ds := range c.DaemonSets() {
		if ds.DeletionTimestamp == nil {
			continue
		}
		switch {
		case hasFinalizer(&ds.ObjectMeta, FinalizerOrphanDependents):
			for _, p := range c.PodsOwnedBy(ds.UID) {
				stripOwner(&p.ObjectMeta, ds.UID)
				_ = c.UpdatePod(p)
				g.decide(podObject(p), p.Spec.NodeName, "orphan", fmt.Sprintf("DaemonSet %s is deleted with --cascade=orphan: the pod keeps running without an owner", ds.Name))
			}
			for _, r := range c.ControllerRevisions() {
				if ref := r.ControllerRef(); ref != nil && ref.UID == ds.UID {
					stripOwner(&r.ObjectMeta, ds.UID)
					_ = c.UpdateControllerRevision(r)
				}
			}
			removeFinalizer(&ds.ObjectMeta, FinalizerOrphanDependents)
			_ = c.UpdateDaemonSet(ds)
		case hasFinalizer(&ds.ObjectMeta, FinalizerDeleteDependents):
			pods := c.PodsOwnedBy(ds.UID)
			revs := 0
			for _, r := range c.ControllerRevisions() {
				if ref := r.ControllerRef(); ref != nil && ref.UID == ds.UID {
					revs++
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
			_ = revs
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

func stripOwner(m *api.ObjectMeta, uid string) {
	out := m.OwnerReferences[:0]
	for _, r := range m.OwnerReferences {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		out = nil
	}
	m.OwnerReferences = out
}
