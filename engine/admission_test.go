package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// TestDaemonSetNodeNameOnFullNode: a DaemonSet whose template sets
// spec.nodeName bypasses the scheduler; the kubelet rejects each pod at
// admission (OutOfmemory), and the DaemonSet controller deletes the failed
// pod and makes a new one, throttled by the FailedDaemonPod backoff (1s,
// doubling) — the loop a real cluster shows.
func TestDaemonSetNodeNameOnFullNode(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("hog")
	ds.Spec.Template.Spec.NodeName = "node-1"
	ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("8Gi")}
	createDS(t, s, ds)

	p := podOn(s, ds, "node-1")
	if p == nil || p.Status.Phase != api.PodFailed || p.Status.Reason != "OutOfmemory" {
		t.Fatalf("first pod %+v", p)
	}
	if want := "Pod was rejected: Node didn't have enough resource: memory, requested: 8589934592, used: 0, capacity: 4294967296"; p.Status.Message != want {
		t.Errorf("message %q\nwant %q", p.Status.Message, want)
	}
	out := s.Run("kubectl get pods")
	if !strings.Contains(out.Stdout, "0/1     OutOfmemory") {
		t.Errorf("kubectl get pods:\n%s", out.Stdout)
	}

	s.Advance(40 * time.Second)
	var deletes []string
	for _, d := range s.Decisions(0) {
		if d.Component == cluster.ComponentDaemonSetController && d.Action == "delete" {
			deletes = append(deletes, "+"+d.Time.Sub(cluster.Epoch).String())
		}
	}
	// Deleted at once, then after 1s, 2s, 4s, 8s, 16s of backoff.
	eq(t, "failed-pod deletions", strings.Join(deletes, " "), "+0s +1s +3s +7s +15s +31s")
	failed := 0
	for _, e := range s.store.EventsFor("DaemonSet", ds.UID) {
		if e.Reason == "FailedDaemonPod" && e.Type == api.EventTypeWarning && strings.HasSuffix(e.Message, " on node node-1, will try to kill it") {
			failed++
		}
	}
	eq(t, "FailedDaemonPod events (one per pod name)", failed, 6)
	rejected := 0
	for _, e := range s.store.Events() {
		if e.Reason == "OutOfmemory" && e.Source.Component == cluster.ComponentKubelet && e.Type == api.EventTypeWarning {
			rejected++
		}
	}
	eq(t, "kubelet OutOfmemory events (one per pod)", rejected, 7)
}

// TestFailedSchedulingRepeats: a daemon pod that does not fit its node is
// retried every 5 minutes; kubectl describe shows the aggregated event.
func TestFailedSchedulingRepeats(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("big")
	ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustParseQuantity("3")}
	createDS(t, s, ds)
	s.Advance(12 * time.Minute)
	p := podOn(s, ds, "node-1")
	out := s.Run("kubectl describe pod " + p.Name)
	if !strings.Contains(out.Stdout, "Warning  FailedScheduling  2m (x3 over 12m)  default-scheduler  0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].") {
		t.Errorf("describe pod:\n%s", out.Stdout)
	}
}

// TestTerminatingPodStaysReady: while its containers stop, a deleted pod
// shows READY 1/1 and STATUS Terminating.
func TestTerminatingPodStaysReady(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("web"))
	s.Advance(10 * time.Second)
	p := podOn(s, ds, "node-1")
	if err := s.store.DeletePod(p.Namespace, p.Name, nil); err != nil {
		t.Fatal(err)
	}
	s.Settle()
	out := s.Run("kubectl get pods " + p.Name)
	if !strings.Contains(out.Stdout, p.Name+"   1/1     Terminating") {
		t.Errorf("kubectl get pods:\n%s", out.Stdout)
	}
}
