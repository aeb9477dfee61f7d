package garbagecollector_test

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/internal/componenttest"
)

// TestGarbageCollector: the dependents of a deleted owner are deleted
// (background cascade), an orphaning delete leaves them ownerless, a
// foreground delete removes the DaemonSet after its pods
// (attemptToDeleteItem, orphanDependents, processDeletingDependentsItem).
func TestGarbageCollector(t *testing.T) {
	w := componenttest.New(t, "node-0")
	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds", Namespace: "default"}}
	_ = w.C.CreateDaemonSet(ds)
	own := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", UID: ds.UID, Controller: api.BoolPtr(true)}}
	w.Pod("child", "node-0", func(p *api.Pod) { p.OwnerReferences = own })
	_ = w.C.CreateControllerRevision(&api.ControllerRevision{ObjectMeta: api.ObjectMeta{Name: "ds-1", Namespace: "default", OwnerReferences: own}})
	w.Advance(5 * time.Second)
	if w.C.Pod("default", "child") == nil {
		t.Fatal("child collected while its owner exists")
	}
	_ = w.C.RemoveDaemonSet("default", "ds")
	w.Advance(10 * time.Second)
	if w.C.Pod("default", "child") != nil || len(w.C.ControllerRevisions()) != 0 {
		t.Error("dependents of a deleted owner remain")
	}

	// orphan propagation
	ds2 := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds2", Namespace: "default", Finalizers: []string{api.FinalizerOrphanDependents}}}
	_ = w.C.CreateDaemonSet(ds2)
	own2 := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds2", UID: ds2.UID, Controller: api.BoolPtr(true)}}
	kept := w.Pod("kept", "node-0", func(p *api.Pod) { p.OwnerReferences = own2 })
	w.Advance(5 * time.Second)
	now := w.C.Now()
	ds2.DeletionTimestamp = &now
	_ = w.C.UpdateDaemonSet(ds2)
	w.Advance(5 * time.Second)
	if w.C.DaemonSet("default", "ds2") != nil || w.C.Pod("default", "kept") == nil || kept.ControllerRef() != nil {
		t.Error("orphan cascade wrong")
	}

	// foreground propagation: the DaemonSet goes after its pods
	ds3 := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "ds3", Namespace: "default", Finalizers: []string{api.FinalizerDeleteDependents}}}
	_ = w.C.CreateDaemonSet(ds3)
	own3 := []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds3", UID: ds3.UID, Controller: api.BoolPtr(true)}}
	w.Pod("fg", "node-0", func(p *api.Pod) { p.OwnerReferences = own3 })
	w.Advance(5 * time.Second)
	now = w.C.Now()
	ds3.DeletionTimestamp = &now
	_ = w.C.UpdateDaemonSet(ds3)
	w.Settle()
	if w.C.DaemonSet("default", "ds3") == nil || w.C.Pod("default", "fg").DeletionTimestamp == nil {
		t.Fatal("foreground: DaemonSet should wait for its terminating pod")
	}
	w.Advance(5 * time.Second)
	if w.C.DaemonSet("default", "ds3") != nil || w.C.Pod("default", "fg") != nil {
		t.Error("foreground deletion did not finish")
	}
}
