package controller

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// Upstream unit and integration tests whose subject cannot be observed
// through kubectl (engine/conformance/doc.go lists them): each test is named
// after the upstream test it mirrors: DC is
// pkg/controller/daemon/daemon_controller_test.go, UP
// pkg/controller/daemon/update_test.go, IT test/integration/daemonset.

// IT TestLaunchWithHashCollision: a foreign ControllerRevision
// already holds the name the next template would get, with different data:
// status.collisionCount goes up by exactly one and the pods of the new
// template still appear, under the hash computed with the new count.
func TestLaunchWithHashCollision(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 2, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(2, 0, 0)
	f.markPodsReady(ds)

	ds.Spec.Template.Spec.Containers[0].Image = "foo/bar:2"
	ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] = "2"
	ds.Generation = 2
	next := ComputeHash(ds, nil)
	foreign := &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: "foo-" + next, Namespace: "default",
			Labels: map[string]string{"app": "someone-else", api.ControllerRevisionHashLabelKey: next}},
		Data:     `{"spec":{"template":{"$patch":"replace","spec":{"containers":[{"image":"other","name":"x"}]}}}}`,
		Revision: 1,
	}
	if err := f.c.CreateControllerRevision(foreign); err != nil {
		t.Fatal(err)
	}
	f.expectSync(0, 0, 0) // the collision stops this sync
	if ds.Status.CollisionCount == nil || *ds.Status.CollisionCount != 1 {
		t.Fatalf("collisionCount = %v, want 1", ds.Status.CollisionCount)
	}
	// Roll the update through: every pod ends with the new hash.
	for i := 0; i < 10; i++ {
		f.syncAndCount()
		f.markPodsReady(ds)
	}
	if *ds.Status.CollisionCount != 1 {
		t.Errorf("collisionCount = %d after the rollout, want 1", *ds.Status.CollisionCount)
	}
	want := ComputeHash(ds, ds.Status.CollisionCount)
	if want == next {
		t.Fatal("the hash with collisionCount 1 should differ")
	}
	pods := f.livePods(ds)
	if len(pods) != 2 {
		t.Fatalf("live pods = %d, want 2", len(pods))
	}
	for _, p := range pods {
		if p.Labels[api.ControllerRevisionHashLabelKey] != want {
			t.Errorf("pod %s hash %q, want %q", p.Name, p.Labels[api.ControllerRevisionHashLabelKey], want)
		}
	}
	if r := f.c.ControllerRevision("default", "foo-"+next); r == nil || r.Data != foreign.Data || r.ControllerRef() != nil {
		t.Errorf("the foreign revision must stay untouched: %+v", r)
	}
}

// IT TestDSCUpdatesPodLabelAfterDedupCurHistories: a second
// revision owned by the DaemonSet holds the same template under another
// hash and a higher revision number: the pods are relabelled with its hash
// and the lower duplicate is deleted; no pod is replaced.
func TestDSCUpdatesPodLabelAfterDedupCurHistories(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 2, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(2, 0, 0)
	f.markPodsReady(ds)
	revs := f.c.ControllerRevisions()
	if len(revs) != 1 {
		t.Fatalf("revisions = %d", len(revs))
	}
	orig := revs[0]
	dup := &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: "foo-dup", Namespace: "default",
			Labels:          map[string]string{"name": "simple-daemon", "type": "production", api.ControllerRevisionHashLabelKey: "dup"},
			OwnerReferences: []api.OwnerReference{newControllerRef(ds)}},
		Data:     orig.Data,
		Revision: orig.Revision + 1,
	}
	if err := f.c.CreateControllerRevision(dup); err != nil {
		t.Fatal(err)
	}
	before := f.readyPodNames(ds)
	f.expectSync(0, 0, 0)
	if f.c.ControllerRevision("default", orig.Name) != nil {
		t.Errorf("the lower duplicate %s should be deleted", orig.Name)
	}
	if f.c.ControllerRevision("default", "foo-dup") == nil {
		t.Fatal("the kept revision foo-dup is gone")
	}
	for _, p := range f.livePods(ds) {
		if p.Labels[api.ControllerRevisionHashLabelKey] != "dup" {
			t.Errorf("pod %s hash %q, want dup", p.Name, p.Labels[api.ControllerRevisionHashLabelKey])
		}
		if !before[p.Name] {
			t.Errorf("pod %s is new: dedup must not replace pods", p.Name)
		}
	}
	if ds.Status.UpdatedNumberScheduled != 2 {
		t.Errorf("updatedNumberScheduled = %d, want 2", ds.Status.UpdatedNumberScheduled)
	}
	f.expectSync(0, 0, 0) // stable afterwards
}

// UP TestControlledHistories: an orphan revision in the
// DaemonSet's namespace whose labels match the selector is adopted; one in
// another namespace is not; one whose labels do not match is not.
func TestControlledHistories(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	mk := func(name, ns string, labels map[string]string) *api.ControllerRevision {
		r := &api.ControllerRevision{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
			Data: `{"spec":{"template":{"$patch":"replace"}}}`, Revision: 1}
		if err := f.c.CreateControllerRevision(r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	same := mk("orphan-same-ns", "default", copyMap(simpleDaemonSetLabel))
	other := mk("orphan-other-ns", "other", copyMap(simpleDaemonSetLabel))
	foreign := mk("orphan-other-labels", "default", copyMap(simpleDaemonSetLabel2))
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(1, 0, 0)
	if ref := same.ControllerRef(); ref == nil || ref.UID != ds.UID {
		t.Errorf("the orphan revision in the namespace should be adopted: %+v", same.OwnerReferences)
	}
	if other.ControllerRef() != nil {
		t.Errorf("a revision in another namespace must not be adopted: %+v", other.OwnerReferences)
	}
	if foreign.ControllerRef() != nil {
		t.Errorf("a revision whose labels do not match must not be adopted: %+v", foreign.OwnerReferences)
	}
}

// DC TestAddPodOrphan / TestUpdatePodOrphanSameLabels: upstream
// an orphan matching two DaemonSets enqueues both. Here every DaemonSet is
// synced on every change, so what is checked is the outcome: the first
// DaemonSet to sync (name order) adopts the orphan and creates nothing on
// its node; the second cannot claim it and runs its own pod there. An
// orphan that does not match either is left alone by both.
func TestAddPodOrphan(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	orphan := f.addPods("node-0", simpleDaemonSetLabel, nil, 1)[0]
	stranger := f.addPods("node-0", map[string]string{"app": "unrelated"}, nil, 1)[0]
	a := newDaemonSet("a")
	a.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
	b := newDaemonSet("b")
	b.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
	f.createDS(a)
	f.createDS(b)
	f.expectSync(1, 0, 0) // b's pod only
	if ref := orphan.ControllerRef(); ref == nil || ref.UID != a.UID {
		t.Errorf("orphan owner = %+v, want a", orphan.OwnerReferences)
	}
	if stranger.ControllerRef() != nil {
		t.Errorf("an orphan with other labels must stay an orphan: %+v", stranger.OwnerReferences)
	}
	if got := f.podsByNode(a)["node-0"]; got != 1 {
		t.Errorf("a has %d pods on node-0, want 1 (the adopted one)", got)
	}
	if got := f.podsByNode(b)["node-0"]; got != 1 {
		t.Errorf("b has %d pods on node-0, want 1 (its own)", got)
	}
	f.expectSync(0, 0, 0) // unchanged labels: nothing more happens
}

// DC TestUpdatePodChangeControllerRef: a pod whose controller
// reference moves from one DaemonSet to another is the new owner's pod: the
// old owner creates a replacement on the node, the new owner, now with two
// pods there, deletes the younger (its own).
func TestUpdatePodChangeControllerRef(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	a := f.createDS(newDaemonSet("a"))
	b := newDaemonSet("b")
	b.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"name": "simple-daemon"}}
	b.Spec.Template.Labels = map[string]string{"name": "simple-daemon"}
	f.createDS(b)
	f.expectSync(2, 0, 0)
	moved := f.livePods(a)[0]
	moved.OwnerReferences = []api.OwnerReference{newControllerRef(b)}
	if err := f.c.UpdatePod(moved); err != nil {
		t.Fatal(err)
	}
	f.expectSync(1, 1, 0)
	if ref := moved.ControllerRef(); ref == nil || ref.UID != b.UID || moved.DeletionTimestamp != nil {
		t.Errorf("the moved pod (older) should stay, owned by b: %+v deleted=%v", moved.OwnerReferences, moved.DeletionTimestamp)
	}
	if len(f.livePods(a)) != 1 || len(f.livePods(b)) != 1 {
		t.Errorf("live pods a=%d b=%d, want 1 each", len(f.livePods(a)), len(f.livePods(b)))
	}
}

// DC TestUpdateNode / TestShouldIgnoreNodeUpdate: upstream a
// node update enqueues only the DaemonSets whose (shouldRun,
// shouldContinueRunning) for the node changed, after shouldIgnoreNodeUpdate
// dropped updates of conditions (same True types) and resourceVersion; the
// enqueue decisions are checked in TestNodeEventHandlers (nodes_test.go).
// Here the outcome of a forced sync is checked: a change of allocatable or
// of conditions alone changes nothing (no create, delete or status write); a
// label change that makes the node match creates the pod.
func TestShouldIgnoreNodeUpdate(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := newDaemonSet("foo")
	ds.Spec.Template.Spec.NodeSelector = copyMap(simpleNodeLabel)
	f.createDS(ds)
	f.expectSync(0, 0, 0)
	rv := ds.ResourceVersion
	n := f.node("node-0")
	n.Status.Allocatable = api.ResourceList{api.ResourcePods: api.MustParseQuantity("1")}
	n.Condition(api.NodeReady).Status = api.ConditionFalse
	if err := f.c.UpdateNode(n); err != nil {
		t.Fatal(err)
	}
	f.expectSync(0, 0, 0)
	if ds.ResourceVersion != rv {
		t.Errorf("status written after an allocatable/condition change: rv %s -> %s", rv, ds.ResourceVersion)
	}
	for k, v := range simpleNodeLabel {
		n.Labels[k] = v
	}
	if err := f.c.UpdateNode(n); err != nil {
		t.Fatal(err)
	}
	f.expectSync(1, 0, 0)
}

// DC TestStoreDaemonSetStatus: upstream retries a failed
// UpdateStatus once after a GET. The simulated store never refuses a write,
// so the retry path does not exist; what remains observable is when the
// status is written: only when one of the seven numbers changes or
// observedGeneration lags metadata.generation.
func TestStoreDaemonSetStatus(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 2, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(2, 0, 0)
	rv := ds.ResourceVersion
	f.expectSync(0, 0, 0)
	if ds.ResourceVersion != rv {
		t.Errorf("an unchanged status was written again: rv %s -> %s", rv, ds.ResourceVersion)
	}
	f.markPodsReady(ds)
	f.expectSync(0, 0, 0)
	if ds.ResourceVersion == rv || ds.Status.NumberReady != 2 {
		t.Errorf("a changed status must be written: rv %s, status %+v", ds.ResourceVersion, ds.Status)
	}
	rv = ds.ResourceVersion
	ds.Generation = 2 // spec change without a template change
	f.expectSync(0, 0, 0)
	if ds.ResourceVersion == rv || ds.Status.ObservedGeneration != 2 {
		t.Errorf("observedGeneration must catch up: rv %s, status %+v", ds.ResourceVersion, ds.Status)
	}
}

// DC TestDaemonKillFailedPodsBackoff, the requeue: a failed pod found
// within the backoff requeues the DaemonSet after the current delay counted
// from that sync (enqueueDaemonSetAfter), not from the backoff's last update.
func TestFailedPodBackoffRequeue(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 1, nil)
	ds := f.createDS(newDaemonSet("foo"))
	ds.Status.ObservedGeneration = 1
	failed := func() {
		labels := copyMap(simpleDaemonSetLabel)
		labels[api.ControllerRevisionHashLabelKey] = ComputeHash(ds, nil) // an updated pod
		p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "pod-", Namespace: "default", Labels: labels,
			OwnerReferences: []api.OwnerReference{newControllerRef(ds)}},
			Spec: api.PodSpec{NodeName: "node-0"}, Status: api.PodStatus{Phase: api.PodFailed}}
		if err := f.c.CreatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	t0 := f.c.Now()
	failed()
	f.expectSync(0, 1, 1) // deleted; backoff 1s from t0
	for {                 // drop what the first sync queued
		if _, ok := f.c.NextWakeup(t0.Add(time.Hour)); !ok {
			break
		}
	}
	f.c.SetNow(t0.Add(500 * time.Millisecond))
	failed()
	f.expectSync(0, 0, 0) // within the backoff
	got, ok := f.c.NextWakeup(t0.Add(time.Hour))
	if want := t0.Add(1500 * time.Millisecond); !ok || !got.Equal(want) {
		t.Errorf("requeue at %v (ok %v), want %v (the sync's time plus the 1s delay)", got.Sub(t0), ok, want.Sub(t0))
	}
}
