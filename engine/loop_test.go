package engine

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/controller"
	"github.com/dsplayground/dsplay/engine/kubelet"
	"github.com/dsplayground/dsplay/engine/podgc"
)

// newTestDS builds a DaemonSet as the API server would store it after
// defaulting: selector/template labels app=<name>, one container with
// imagePullPolicy Never (image present), RollingUpdate, template generation 1.
func newTestDS(name string) *api.DaemonSet {
	labels := map[string]string{"app": name}
	return &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default",
			Annotations: map[string]string{api.DeprecatedTemplateGenerationAnnotation: "1"}},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec: api.PodSpec{
					Containers:                    []api.Container{{Name: name, Image: "registry.k8s.io/" + name + ":1.0", ImagePullPolicy: "Never"}},
					RestartPolicy:                 "Always",
					TerminationGracePeriodSeconds: api.Int64Ptr(30),
					SchedulerName:                 api.DefaultSchedulerName,
				},
			},
			UpdateStrategy:       api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType, RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: api.FromInt(1), MaxSurge: api.FromInt(0)}},
			RevisionHistoryLimit: api.Int32Ptr(10),
		},
	}
}

// createDS stores ds and settles. Its images are preloaded on every node
// first: the tests' DaemonSets use imagePullPolicy Never to start at once,
// as the seed tutorial's author did with images imported by hand.
func createDS(t testing.TB, s *Simulation, ds *api.DaemonSet) *api.DaemonSet {
	t.Helper()
	for _, c := range ds.Spec.Template.Spec.Containers {
		s.Registry().Preload(c.Image)
	}
	if err := s.store.CreateDaemonSet(ds); err != nil {
		t.Fatal(err)
	}
	s.Settle()
	return ds
}

// placement returns "node=phase" for every live pod of the DaemonSet, sorted.
func placement(s *Simulation, ds *api.DaemonSet) []string {
	var out []string
	for _, p := range s.store.PodsOwnedBy(ds.UID) {
		if p.DeletionTimestamp != nil {
			continue
		}
		node, _ := controller.GetTargetNodeName(p)
		out = append(out, node+"="+p.Status.Phase)
	}
	sort.Strings(out)
	return out
}

func podOn(s *Simulation, ds *api.DaemonSet, node string) *api.Pod {
	for _, p := range s.store.PodsOwnedBy(ds.UID) {
		if n, _ := controller.GetTargetNodeName(p); n == node && p.DeletionTimestamp == nil {
			return p
		}
	}
	return nil
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestDefaultClusterDaemonSetRunsOnWorkers(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	eq(t, "placement after settle", placement(s, ds), []string{"node-1=Pending", "node-2=Pending"})
	s.Advance(10 * time.Second)
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	st := ds.Status
	eq(t, "status", []int32{st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.NumberAvailable, st.UpdatedNumberScheduled, st.NumberMisscheduled, st.NumberUnavailable},
		[]int32{2, 2, 2, 2, 2, 0, 0})
	eq(t, "observedGeneration", st.ObservedGeneration, 1)

	// control-plane skipped, with the reason
	var cp *NodeExplanation
	for _, e := range s.Explain("control-plane") {
		if e.DaemonSet == "fluentd" {
			e := e
			cp = &e
		}
	}
	if cp == nil || cp.Verdict.ShouldRun || !cp.Verdict.ShouldContinueRunning || cp.HasPod {
		t.Fatalf("control-plane explanation = %+v", cp)
	}
	if want := "taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated"; !strings.Contains(cp.Verdict.Reason(), want) {
		t.Errorf("reason %q lacks %q", cp.Verdict.Reason(), want)
	}
	ex := s.Explain("node-1")
	if len(ex) != 1 || !ex[0].HasPod || ex[0].PodName != podOn(s, ds, "node-1").Name || !ex[0].Verdict.ShouldRun || ex[0].Namespace != "default" {
		t.Errorf("node-1 explanation = %+v", ex)
	}
	if s.Explain("nope") != nil {
		t.Error("explanation for a missing node")
	}
	found := false
	for _, d := range s.Decisions(0) {
		if d.Action == "skip" && d.Node == "control-plane" && d.Func == "NodeShouldRunDaemonPod" {
			found = true
		}
	}
	if !found {
		t.Error("no skip decision for control-plane")
	}

	// the created pod's contents (§1.9)
	p := podOn(s, ds, "node-1")
	if !strings.HasPrefix(p.Name, "fluentd-") || len(p.Name) != len("fluentd-")+5 || p.GenerateName != "fluentd-" {
		t.Errorf("pod name %q generateName %q", p.Name, p.GenerateName)
	}
	rev := s.store.ControllerRevisions()
	if len(rev) != 1 || rev[0].Revision != 1 {
		t.Fatalf("revisions = %v", rev)
	}
	hash := rev[0].Labels[api.ControllerRevisionHashLabelKey]
	eq(t, "revision name", rev[0].Name, "fluentd-"+hash)
	eq(t, "pod hash label", p.Labels[api.ControllerRevisionHashLabelKey], hash)
	eq(t, "pod generation label", p.Labels[api.DaemonSetTemplateGenerationKey], "1")
	ref := p.ControllerRef()
	if ref == nil || ref.UID != ds.UID || ref.Kind != "DaemonSet" || ref.APIVersion != "apps/v1" || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
		t.Errorf("ownerRef = %+v", p.OwnerReferences)
	}
	var tols []string
	for _, tl := range p.Spec.Tolerations {
		tols = append(tols, tl.String())
	}
	eq(t, "tolerations", tols, []string{
		"node.kubernetes.io/not-ready:NoExecute op=Exists", "node.kubernetes.io/unreachable:NoExecute op=Exists",
		"node.kubernetes.io/disk-pressure:NoSchedule op=Exists", "node.kubernetes.io/memory-pressure:NoSchedule op=Exists",
		"node.kubernetes.io/pid-pressure:NoSchedule op=Exists", "node.kubernetes.io/unschedulable:NoSchedule op=Exists"})
	ns := api.RequiredNodeSelector(&p.Spec)
	if ns == nil || len(ns.NodeSelectorTerms) != 1 || api.TermString(&ns.NodeSelectorTerms[0]) != "metadata.name In [node-1]" {
		t.Errorf("affinity = %+v", ns)
	}
	if p.Status.PodIP == "" || !strings.HasPrefix(p.Status.PodIP, "10.244.1.") || p.Status.HostIP != "172.18.0.3" {
		t.Errorf("pod IP %q host IP %q", p.Status.PodIP, p.Status.HostIP)
	}

	// events
	var reasons []string
	for _, e := range s.store.EventsFor("DaemonSet", ds.UID) {
		reasons = append(reasons, e.Reason+": "+e.Message)
	}
	if len(reasons) != 2 || !strings.HasPrefix(reasons[0], "SuccessfulCreate: Created pod: fluentd-") {
		t.Errorf("DaemonSet events = %v", reasons)
	}
	var podEvents []string
	for _, e := range s.store.EventsFor("Pod", p.UID) {
		podEvents = append(podEvents, e.Reason+" "+e.InvolvedObject.FieldPath+" "+e.Message)
	}
	eq(t, "pod events", strings.Join(podEvents, "\n"), strings.Join([]string{
		"Scheduled  Successfully assigned default/" + p.Name + " to node-1",
		"Pulled spec.containers{fluentd} Container image \"registry.k8s.io/fluentd:1.0\" already present on machine and can be accessed by the pod",
		"Created spec.containers{fluentd} Container created",
		"Started spec.containers{fluentd} Container started",
	}, "\n"))
}

func TestStatusGoesThroughPhases(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("agent"))
	p := podOn(s, ds, "node-1")
	eq(t, "bound", p.Spec.NodeName, "node-1")
	// Bound but not yet seen by the kubelet: kubectl shows Pending.
	if len(p.Status.ContainerStatuses) != 0 || p.Status.Phase != api.PodPending {
		t.Fatalf("status right after bind = %+v", p.Status)
	}
	s.Advance(kubelet.AdmitDelay)
	cs := p.Status.ContainerStatuses
	if len(cs) != 1 || cs[0].State.Waiting == nil || cs[0].State.Waiting.Reason != "ContainerCreating" {
		t.Fatalf("container status after bind = %+v", cs)
	}
	eq(t, "ready before start", ds.Status.NumberReady, 0)
	eq(t, "current before start", ds.Status.CurrentNumberScheduled, 2)
	s.Advance(5 * time.Second)
	eq(t, "ready", ds.Status.NumberReady, 2)
}

func TestDeletedPodIsRecreatedWithNewName(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	s.Advance(10 * time.Second)
	old := podOn(s, ds, "node-1")
	if err := s.store.DeletePod(old.Namespace, old.Name, nil); err != nil {
		t.Fatal(err)
	}
	s.Settle()
	if got := s.store.Pod("default", old.Name); got == nil || got.DeletionTimestamp == nil {
		t.Fatalf("deleted pod should be terminating, got %+v", got)
	}
	s.Advance(10 * time.Second)
	if s.store.Pod("default", old.Name) != nil {
		t.Error("old pod still there")
	}
	nw := podOn(s, ds, "node-1")
	if nw == nil || nw.Name == old.Name || nw.Status.Phase != api.PodRunning {
		t.Fatalf("new pod = %+v", nw)
	}
}

func taintNode(t *testing.T, s *Simulation, node string, taint api.Taint) {
	t.Helper()
	n := s.store.Node(node)
	n.Spec.Taints = append(n.Spec.Taints, taint)
	if err := s.store.UpdateNode(n); err != nil {
		t.Fatal(err)
	}
	s.Settle()
}

func TestNoScheduleTaintKeepsPodButNoRecreate(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	s.Advance(10 * time.Second)
	taintNode(t, s, "node-1", api.Taint{Key: "key", Value: "value", Effect: api.TaintEffectNoSchedule})
	s.Advance(10 * time.Second)
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	// The taint makes shouldRun false but the pod may continue running and
	// is bound there: syncNodeUpdate (v1.33+) enqueues nothing, so the
	// status still counts node-1 as desired and nothing as misscheduled.
	eq(t, "misscheduled (not re-synced)", ds.Status.NumberMisscheduled, 0)
	eq(t, "desired (not re-synced)", ds.Status.DesiredNumberScheduled, 2)
	p := podOn(s, ds, "node-1")
	_ = s.store.DeletePod(p.Namespace, p.Name, nil)
	s.Advance(30 * time.Second)
	// The pod deletion syncs the DaemonSet: no pod is created on node-1,
	// which leaves DESIRED.
	eq(t, "placement after delete", placement(s, ds), []string{"node-2=Running"})
	eq(t, "misscheduled after delete", ds.Status.NumberMisscheduled, 0)
	eq(t, "desired after delete", ds.Status.DesiredNumberScheduled, 1)
}

func TestNoExecuteTaintRemovesPod(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	s.Advance(10 * time.Second)
	taintNode(t, s, "node-1", api.Taint{Key: "key", Value: "value", Effect: api.TaintEffectNoExecute})
	s.Advance(10 * time.Second)
	eq(t, "placement", placement(s, ds), []string{"node-2=Running"})
	var deletes int
	for _, d := range s.Decisions(0) {
		if d.Action == "delete" && d.Node == "node-1" && d.Component == cluster.ComponentDaemonSetController {
			deletes++
		}
	}
	eq(t, "controller deletes on node-1", deletes, 1)
	// removing the taint brings it back
	n := s.store.Node("node-1")
	n.Spec.Taints = nil
	_ = s.store.UpdateNode(n)
	s.Advance(10 * time.Second)
	eq(t, "placement after untaint", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
}

func TestLabelChangeBreakingNodeSelectorRemovesPod(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("ssd-agent")
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	for _, n := range []string{"node-1", "node-2"} {
		node := s.store.Node(n)
		node.Labels["disk"] = "ssd"
		_ = s.store.UpdateNode(node)
	}
	createDS(t, s, ds)
	s.Advance(10 * time.Second)
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	node := s.store.Node("node-2")
	node.Labels["disk"] = "hdd"
	_ = s.store.UpdateNode(node)
	s.Advance(10 * time.Second)
	eq(t, "placement after relabel", placement(s, ds), []string{"node-1=Running"})
	eq(t, "desired", ds.Status.DesiredNumberScheduled, 1)
}

func TestNodeAddAndRemove(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	if err := s.AddNode("node-3", cluster.NodeOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Advance(10 * time.Second)
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running", "node-3=Running"})
	p3 := podOn(s, ds, "node-3")
	if !strings.HasPrefix(p3.Status.PodIP, "10.244.3.") {
		t.Errorf("node-3 pod IP %q", p3.Status.PodIP)
	}
	if err := s.AddNode("node-3", cluster.NodeOptions{}); !cluster.IsAlreadyExists(err) {
		t.Errorf("second AddNode error = %v", err)
	}
	if err := s.RemoveNode("node-3"); err != nil {
		t.Fatal(err)
	}
	// The pod GC keeps the pods of a vanished node for its 40s quarantine
	// (gcOrphaned), still Running as last reported.
	s.Advance(podgc.Quarantine - time.Second)
	eq(t, "placement during the pod GC quarantine", placement(s, ds), []string{"node-1=Running", "node-2=Running", "node-3=Running"})
	s.Advance(time.Second)
	eq(t, "placement after remove", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	eq(t, "desired", ds.Status.DesiredNumberScheduled, 2)
	eq(t, "current", ds.Status.CurrentNumberScheduled, 2)
	if err := s.RemoveNode("node-3"); !cluster.IsNotFound(err) {
		t.Errorf("second RemoveNode error = %v", err)
	}
	// a failed node removed and added again comes back healthy
	_ = s.FailNode("node-2")
	_ = s.RemoveNode("node-2")
	_ = s.AddNode("node-2", cluster.NodeOptions{})
	s.Advance(2 * time.Minute)
	eq(t, "placement after re-adding node-2", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	eq(t, "node-2 Ready", s.store.Node("node-2").Condition(api.NodeReady).Status, api.ConditionTrue)
}

func TestFailedPodIsReplaced(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	s.Advance(10 * time.Second)
	old := podOn(s, ds, "node-2")
	if err := s.FailPod("default", old.Name); err != nil {
		t.Fatal(err)
	}
	if s.store.Pod("default", old.Name) != nil {
		t.Error("failed pod not deleted")
	}
	s.Advance(10 * time.Second)
	nw := podOn(s, ds, "node-2")
	if nw == nil || nw.Name == old.Name || nw.Status.Phase != api.PodRunning {
		t.Fatalf("replacement = %+v", nw)
	}
	var msgs []string
	for _, e := range s.store.EventsFor("DaemonSet", ds.UID) {
		if e.Reason == controller.FailedDaemonPodReason {
			msgs = append(msgs, e.Message)
		}
	}
	eq(t, "FailedDaemonPod events", msgs, []string{fmt.Sprintf("Found failed daemon pod default/%s on node node-2, will try to kill it", old.Name)})

	// Failures further apart than the backoff are handled at once; a failure
	// within it (1s, doubling per failure on the node) waits for it to end.
	s.Advance(200 * time.Second)
	p2 := podOn(s, ds, "node-2")
	_ = s.FailPod("default", p2.Name) // backoff now 2s from here
	if s.store.Pod("default", p2.Name) != nil {
		t.Fatal("second failed pod after the backoff elapsed should be deleted at once")
	}
	p3 := podOn(s, ds, "node-2") // the replacement, created in the same settle
	if p3 == nil {
		t.Fatal("no replacement for the second failure")
	}
	_ = s.FailPod("default", p3.Name)
	if s.store.Pod("default", p3.Name) == nil {
		t.Fatal("a failure within the 2s backoff should wait")
	}
	s.Advance(1 * time.Second)
	if s.store.Pod("default", p3.Name) == nil {
		t.Fatal("deleted before the backoff ended")
	}
	s.Advance(1 * time.Second)
	if s.store.Pod("default", p3.Name) != nil {
		t.Error("third failed pod still there after the backoff")
	}
	s.Advance(10 * time.Second)
	eq(t, "placement at the end", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
}

func TestOrphanAdopted(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("fluentd")
	// The orphan carries no controller-revision-hash, so once adopted it is
	// an old pod, which RollingUpdate would replace (see
	// TestAdoptedOrphanIsRolledOut); OnDelete keeps it.
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
	s.Registry().Preload("x:1")
	orphan := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "stray", Namespace: "default", Labels: map[string]string{"app": "fluentd"}},
		Spec:       api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Image: "x:1", ImagePullPolicy: "Never"}}},
	}
	if err := s.store.CreatePod(orphan); err != nil {
		t.Fatal(err)
	}
	other := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "unrelated", Namespace: "default", Labels: map[string]string{"app": "other"}},
		Spec:       api.PodSpec{NodeName: "node-2", Containers: []api.Container{{Name: "c", Image: "x:1", ImagePullPolicy: "Never"}}},
	}
	_ = s.store.CreatePod(other)
	createDS(t, s, ds)
	s.Advance(10 * time.Second)
	if r := orphan.ControllerRef(); r == nil || r.UID != ds.UID {
		t.Fatalf("orphan not adopted: %+v", orphan.OwnerReferences)
	}
	if other.ControllerRef() != nil {
		t.Error("unrelated pod adopted")
	}
	eq(t, "pod on node-1", podOn(s, ds, "node-1").Name, "stray")
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	// labels stop matching -> released
	orphan.Labels["app"] = "gone"
	_ = s.store.UpdatePod(orphan)
	s.Advance(10 * time.Second)
	if orphan.ControllerRef() != nil {
		t.Error("pod not released")
	}
	if p := podOn(s, ds, "node-1"); p == nil || p.Name == "stray" {
		t.Errorf("no replacement on node-1: %v", p)
	}
}

// An adopted orphan without the current controller-revision-hash (or
// pod-template-generation) is an old pod: RollingUpdate replaces it (§1.11).
func TestAdoptedOrphanIsRolledOut(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("fluentd")
	orphan := &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: "stray", Namespace: "default", Labels: map[string]string{"app": "fluentd"}},
		Spec:       api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Image: "x:1", ImagePullPolicy: "Never"}}},
	}
	if err := s.store.CreatePod(orphan); err != nil {
		t.Fatal(err)
	}
	createDS(t, s, ds)
	s.Advance(time.Minute)
	if p := podOn(s, ds, "node-1"); p == nil || p.Name == "stray" {
		t.Errorf("pod on node-1 = %v, want a replacement", p)
	}
	if s.store.Pod("default", "stray") != nil {
		t.Error("the adopted old pod is still there")
	}
	eq(t, "updated", ds.Status.UpdatedNumberScheduled, int32(2))
}

func TestExcessPodsKeepOldest(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	s.Advance(10 * time.Second)
	first := podOn(s, ds, "node-1")
	for _, name := range []string{"fluentd-aaaaa", "fluentd-zzzzz"} {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": "fluentd"}},
			Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Image: "x", ImagePullPolicy: "Never"}}}}
		_ = s.store.CreatePod(p)
	}
	s.Advance(10 * time.Second)
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	eq(t, "survivor", podOn(s, ds, "node-1").Name, first.Name)
}

func TestSelectingAllDoesNothing(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("all")
	ds.Spec.Selector = &api.LabelSelector{}
	createDS(t, s, ds)
	s.Advance(5 * time.Second)
	eq(t, "pods", s.store.PodCount(), 0)
	evs := s.store.EventsFor("DaemonSet", ds.UID)
	if len(evs) != 1 || evs[0].Reason != "SelectingAll" || evs[0].Count != 1 ||
		evs[0].Message != "This daemon set is selecting all pods. A non-empty selector is required." {
		t.Errorf("events = %+v", evs)
	}
}

func TestDeleteDaemonSetCascades(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	s.Advance(10 * time.Second)
	_ = s.store.RemoveDaemonSet("default", "fluentd")
	s.Settle()
	s.Advance(10 * time.Second)
	eq(t, "pods", s.store.PodCount(), 0)
	eq(t, "revisions", len(s.store.ControllerRevisions()), 0)
	_ = ds
}

func TestFailNodeUnreachable(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	bare := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare", Namespace: "default"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "x:1", ImagePullPolicy: "Never"}},
			NodeSelector: map[string]string{api.LabelHostname: "node-1"}}}
	api.AddDefaultTolerationSeconds(&bare.Spec)
	_ = s.store.CreatePod(bare)
	s.Advance(10 * time.Second)
	eq(t, "bare bound", bare.Spec.NodeName, "node-1")
	if err := s.FailNode("node-1"); err != nil {
		t.Fatal(err)
	}
	s.Advance(49 * time.Second)
	if c := s.store.Node("node-1").Condition(api.NodeReady); c.Status != api.ConditionTrue {
		t.Fatalf("Ready too early: %+v", c)
	}
	s.Advance(2 * time.Second)
	n := s.store.Node("node-1")
	c := n.Condition(api.NodeReady)
	eq(t, "Ready", c.Status+"/"+c.Reason+"/"+c.Message, "Unknown/NodeStatusUnknown/Kubelet stopped posting node status.")
	var taints []string
	for _, t := range n.Spec.Taints {
		taints = append(taints, t.ToString())
	}
	eq(t, "taints", taints, []string{"node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute"})
	eq(t, "daemon pod stays", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	if p := podOn(s, ds, "node-1"); p.IsReady() {
		t.Error("pod on an unreachable node still Ready")
	}
	eq(t, "misscheduled", ds.Status.NumberMisscheduled, 1)
	s.Advance(297 * time.Second)
	if bare.DeletionTimestamp != nil {
		t.Fatal("bare pod evicted before 300s")
	}
	s.Advance(5 * time.Second)
	if bare.DeletionTimestamp == nil {
		t.Fatal("bare pod not evicted after 300s")
	}
	// the kubelet is down, so the pod stays Terminating
	if s.store.Pod("default", "bare") == nil {
		t.Error("pod removed although its kubelet is down")
	}
	if err := s.RecoverNode("node-1"); err != nil {
		t.Fatal(err)
	}
	s.Advance(10 * time.Second)
	eq(t, "taints after recover", len(s.store.Node("node-1").Spec.Taints), 0)
	if p := podOn(s, ds, "node-1"); !p.IsReady() {
		t.Error("pod not Ready again after recovery")
	}
	eq(t, "misscheduled after recover", ds.Status.NumberMisscheduled, 0)
	if s.store.Pod("default", "bare") != nil {
		t.Error("terminating bare pod not removed after recovery")
	}
}

func TestInsufficientResourcesStaysPending(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("big")
	ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("5Gi")}
	createDS(t, s, ds)
	s.Advance(30 * time.Second)
	eq(t, "placement", placement(s, ds), []string{"node-1=Pending", "node-2=Pending"})
	eq(t, "current", ds.Status.CurrentNumberScheduled, 2)
	eq(t, "ready", ds.Status.NumberReady, 0)
	p := podOn(s, ds, "node-1")
	c := p.Condition(api.PodScheduled)
	want := "0/3 nodes are available: 1 Insufficient memory, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	if c == nil || c.Status != api.ConditionFalse || c.Reason != "Unschedulable" || c.Message != want {
		t.Fatalf("PodScheduled = %+v", c)
	}
	evs := s.store.EventsFor("Pod", p.UID)
	if len(evs) != 1 || evs[0].Reason != "FailedScheduling" || evs[0].Message != want {
		t.Errorf("events = %+v", evs)
	}
	// a bigger node added: the pending pods stay pinned; a new pod lands there
	_ = s.AddNode("node-3", cluster.NodeOptions{Memory: "8Gi"})
	s.Advance(10 * time.Second)
	eq(t, "placement with node-3", placement(s, ds), []string{"node-1=Pending", "node-2=Pending", "node-3=Running"})
	eq(t, "ready", ds.Status.NumberReady, 1)
}

// TestDeterminism runs the same story twice and compares pod names and decisions.
func TestDeterminism(t *testing.T) {
	run := func() string {
		s := New(Options{Seed: 42})
		ds := createDS(t, s, newTestDS("fluentd"))
		_ = s.AddNode("node-3", cluster.NodeOptions{})
		s.Advance(10 * time.Second)
		p := podOn(s, ds, "node-1")
		_ = s.store.DeletePod("default", p.Name, nil)
		taintNode(t, s, "node-2", api.Taint{Key: "k", Effect: api.TaintEffectNoExecute})
		s.Advance(30 * time.Second)
		var b strings.Builder
		for _, p := range s.store.Pods() {
			fmt.Fprintln(&b, p.Name, p.Spec.NodeName, p.Status.Phase, p.Status.PodIP)
		}
		for _, d := range s.Decisions(0) {
			fmt.Fprintln(&b, d.Seq, d.Time.Sub(cluster.Epoch), d.Component, d.Func, d.Object, d.Node, d.Action, d.Reason)
		}
		return b.String()
	}
	a, b := run(), run()
	if a != b {
		t.Errorf("two runs differ:\n%s\n---\n%s", a, b)
	}
}

// TestSettleReachesFixedPoint checks that a settled simulation stays put.
func TestSettleReachesFixedPoint(t *testing.T) {
	s := New(Options{})
	createDS(t, s, newTestDS("fluentd"))
	s.Advance(time.Minute)
	rv := s.store.ResourceVersion()
	s.Settle()
	s.Advance(time.Hour)
	eq(t, "resourceVersion after an idle hour", s.store.ResourceVersion(), rv)
}

// bigCluster returns a simulation with n worker nodes (plus nothing else).
func bigCluster(b testing.TB, n int) *Simulation {
	s := New(Options{Empty: true})
	c := s.store
	for i := 0; i < n; i++ {
		if err := c.CreateNode(c.NewNode(fmt.Sprintf("node-%d", i+1), i, cluster.NodeOptions{})); err != nil {
			b.Fatal(err)
		}
	}
	s.Settle()
	return s
}

// benchmarkSteady measures one full reconcile pass (every component, the
// controller and kubelets forced to resync) over n nodes whose DaemonSet
// pods are all Running.
func benchmarkSteady(b *testing.B, n int) {
	s := bigCluster(b, n)
	ds := createDS(b, s, newTestDS("fluentd"))
	s.Advance(30 * time.Second)
	if ds.Status.NumberReady != int32(n) {
		b.Fatalf("ready = %d, want %d", ds.Status.NumberReady, n)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.comps.daemonSets.Invalidate()
		s.comps.kubelets.Invalidate()
		s.comps.pass()
	}
}

// benchmarkFill measures creating a DaemonSet on n empty nodes and settling
// until every pod is bound and accepted by its kubelet.
func benchmarkFill(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := bigCluster(b, n)
		b.StartTimer()
		ds := createDS(b, s, newTestDS("fluentd"))
		if ds.Status.CurrentNumberScheduled != int32(n) {
			b.Fatalf("current = %d, want %d", ds.Status.CurrentNumberScheduled, n)
		}
	}
}

func BenchmarkReconcile100(b *testing.B)      { benchmarkSteady(b, 100) }
func BenchmarkReconcile1000(b *testing.B)     { benchmarkSteady(b, 1000) }
func BenchmarkReconcile5000(b *testing.B)     { benchmarkSteady(b, 5000) }
func BenchmarkReconcileFill100(b *testing.B)  { benchmarkFill(b, 100) }
func BenchmarkReconcileFill1000(b *testing.B) { benchmarkFill(b, 1000) }
func BenchmarkReconcileFill5000(b *testing.B) { benchmarkFill(b, 5000) }

// The -update flag may be declared by another test file of this package;
// declare it only if nobody did.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestDecisionLogGolden tells one story on the default cluster and compares
// the decision log (what every component did and why) with
// testdata/decisions.golden. Run with -update to rewrite it.
func TestDecisionLogGolden(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	s.Advance(10 * time.Second)
	p := podOn(s, ds, "node-1")
	_ = s.store.DeletePod(p.Namespace, p.Name, nil)
	s.Advance(10 * time.Second)
	taintNode(t, s, "node-1", api.Taint{Key: "dedicated", Value: "infra", Effect: api.TaintEffectNoSchedule})
	taintNode(t, s, "node-2", api.Taint{Key: "maintenance", Effect: api.TaintEffectNoExecute})
	s.Advance(10 * time.Second)
	_ = s.AddNode("node-3", cluster.NodeOptions{Labels: map[string]string{"disk": "ssd"}})
	s.Advance(10 * time.Second)
	_ = s.FailPod("default", podOn(s, ds, "node-3").Name)
	s.Advance(10 * time.Second)
	_ = s.FailNode("node-3")
	s.Advance(time.Minute)
	_ = s.RecoverNode("node-3")
	s.Advance(10 * time.Second)

	var b strings.Builder
	for _, d := range s.Decisions(0) {
		fmt.Fprintf(&b, "%7s %-26s %-30s %-12s %-38s %s: %s\n", "+"+d.Time.Sub(cluster.Epoch).String(), d.Component, d.Func, d.Action, d.Object, d.Node, d.Reason)
	}
	fmt.Fprintln(&b, "--- pods")
	for _, p := range s.store.Pods() {
		fmt.Fprintf(&b, "%s %s %s %s ready=%v\n", p.Name, p.Spec.NodeName, p.Status.Phase, p.Status.PodIP, p.IsReady())
	}
	st := ds.Status
	fmt.Fprintf(&b, "--- status desired=%d current=%d ready=%d available=%d updated=%d misscheduled=%d unavailable=%d\n",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.NumberAvailable, st.UpdatedNumberScheduled, st.NumberMisscheduled, st.NumberUnavailable)
	golden := filepath.Join("testdata", "decisions.golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestDecisionLogGolden -update)", err)
	}
	if b.String() != string(want) {
		t.Errorf("decision log differs from %s (rerun with -update if intended):\n%s", golden, b.String())
	}
}

// TestQuietClusterCostsNoPass: once settled, advancing the clock runs no
// component pass until a wake-up is due or something is written; then the
// components run again.
func TestQuietClusterCostsNoPass(t *testing.T) {
	s := New(Options{})
	createDS(t, s, newTestDS("agent"))
	s.Advance(time.Minute)
	if s.store.PendingWakeups() != 0 {
		t.Fatalf("%d wake-ups still queued after a minute", s.store.PendingWakeups())
	}
	before := s.passes
	s.Advance(10 * time.Minute)
	if s.passes != before {
		t.Fatalf("a quiet cluster ran %d passes in 10 minutes", s.passes-before)
	}
	// A write wakes the loop: the deleted pod is replaced.
	p := podOn(s, s.store.DaemonSet("default", "agent"), "node-1")
	if err := s.store.DeletePod(p.Namespace, p.Name, nil); err != nil {
		t.Fatal(err)
	}
	s.Advance(30 * time.Second)
	if s.passes == before {
		t.Fatal("no pass ran after a write")
	}
	if np := podOn(s, s.store.DaemonSet("default", "agent"), "node-1"); np == nil || np.Name == p.Name || np.Status.Phase != api.PodRunning {
		t.Fatalf("pod not replaced: %+v", np)
	}
}

// TestExplainNamesTheCountedPod: with two pods of a DaemonSet on one node,
// Explain names the one the status counts (bound before unbound, then
// oldest, then by name), not merely the oldest or first by name.
func TestExplainNamesTheCountedPod(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("fluentd"))
	bound := podOn(s, ds, "node-1")
	if bound == nil || bound.Spec.NodeName != "node-1" {
		t.Fatalf("no bound pod on node-1: %+v", bound)
	}
	// Same creation instant, smaller name, not bound (another scheduler).
	extra := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "a-unbound", Namespace: "default", Labels: map[string]string{"app": "fluentd"},
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: api.BoolPtr(true)}}},
		Spec: api.PodSpec{SchedulerName: "other", Containers: bound.Spec.Containers,
			Affinity: controller.ReplaceDaemonSetPodNodeNameNodeAffinity(nil, "node-1")}}
	if err := s.store.CreatePod(extra); err != nil {
		t.Fatal(err)
	}
	if !extra.CreationTimestamp.Equal(bound.CreationTimestamp) {
		t.Fatalf("creation times differ: %v %v", extra.CreationTimestamp, bound.CreationTimestamp)
	}
	ex := s.Explain("node-1")
	if len(ex) != 1 || !ex[0].HasPod || ex[0].PodName != bound.Name {
		t.Errorf("node-1 explanation = %+v, want pod %s", ex, bound.Name)
	}
}

// TestPodIPsBeyond256Nodes: node subnets stay valid past the 256th node, so
// every daemon pod of a large cluster gets an address.
func TestPodIPsBeyond256Nodes(t *testing.T) {
	s := bigCluster(t, 300)
	ds := createDS(t, s, newTestDS("agent"))
	s.Advance(time.Minute)
	if ds.Status.NumberReady != 300 {
		t.Fatalf("ready %d of 300", ds.Status.NumberReady)
	}
	for _, p := range s.store.Pods() {
		if p.Status.PodIP == "" {
			t.Fatalf("pod %s on %s has no IP (node CIDR %s)", p.Name, p.Spec.NodeName, s.store.Node(p.Spec.NodeName).Spec.PodCIDR)
		}
	}
}
