// Package garbagecollector is kube-controller-manager's garbage collector
// (upstream pkg/controller/garbagecollector) for the simulated kinds: it
// deletes the pods and ControllerRevisions whose controller owner is gone
// and carries out the orphan and foreground deletion propagation of a
// DaemonSet being deleted. It reads only the store.
package garbagecollector

import (
	"fmt"
	"slices"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// GarbageCollector mirrors the garbage collector (upstream
// pkg/controller/garbagecollector/garbagecollector.go GarbageCollector)
// for the simulated kinds: pods and ControllerRevisions whose controller
// owner no longer exists are deleted (background cascade); a DaemonSet being
// deleted with the foregroundDeletion finalizer loses its dependents first
// and then goes; with the orphan finalizer its dependents lose their
// ownerReference and it goes at once.
type GarbageCollector struct{ c *cluster.Cluster }

// New returns the garbage collector of the cluster c (upstream
// NewGarbageCollector).
func New(c *cluster.Cluster) *GarbageCollector { return &GarbageCollector{c: c} }

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

// Sync runs one garbage collection pass: what upstream's
// attemptToDeleteItem and processDeletingDependentsItem /
// orphanDependents do for every dependent and owner that changed.
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
		case slices.Contains(ds.Finalizers, api.FinalizerOrphanDependents):
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
			removeFinalizer(&ds.ObjectMeta, api.FinalizerOrphanDependents)
			_ = c.UpdateDaemonSet(ds)
		case slices.Contains(ds.Finalizers, api.FinalizerDeleteDependents):
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
			removeFinalizer(&ds.ObjectMeta, api.FinalizerDeleteDependents)
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

func podObject(p *api.Pod) string { return "Pod/" + p.Namespace + "/" + p.Name }
