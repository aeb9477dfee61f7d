package podgc_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/componenttest"
	"github.com/dsplayground/dsplay/engine/nodelifecycle"
	"github.com/dsplayground/dsplay/engine/podgc"
)

// TestPodGCOrphaned mirrors gcOrphaned: the pods of a deleted node stay
// for the quarantine, then are marked Failed (DeletionByPodGC) and
// force-deleted; a node that comes back within the quarantine keeps them.
func TestPodGCOrphaned(t *testing.T) {
	w := componenttest.New(t, "node-0", "node-1")
	gone := w.Pod("on-gone-node", "node-1", nil)
	w.Advance(5 * time.Second)
	_ = w.C.DeleteNode("node-1")
	w.Settle()
	// gcOrphaned quarantine: the pod stays, Running as last reported, for 40s.
	w.Advance(podgc.Quarantine - 500*time.Millisecond)
	if w.C.Pod("default", "on-gone-node") == nil || gone.Status.Phase != api.PodRunning {
		t.Fatal("pod on a deleted node collected before the 40s quarantine")
	}
	w.Advance(500 * time.Millisecond)
	if w.C.Pod("default", "on-gone-node") != nil {
		t.Error("pod on a deleted node not collected after the quarantine")
	}
	if c := gone.Condition(api.DisruptionTarget); gone.Status.Phase != api.PodFailed || c == nil || c.Reason != "DeletionByPodGC" || c.Message != "PodGC: node no longer exists" {
		t.Errorf("collected pod status %+v", gone.Status)
	}
	var why []string
	for _, d := range w.C.Decisions(0) {
		if d.Func == "gcOrphaned" {
			why = append(why, d.Action+" "+d.Object+": "+d.Reason)
		}
	}
	wantWhy := []string{
		"quarantine Node/node-1: node node-1 no longer exists but 1 pod(s) are still bound to it: they are kept for the 40s quarantine (the node may come back) and deleted after",
		"delete Pod/default/on-gone-node: the pod is bound to node node-1, which has been gone for 40s (quarantine 40s): marked Failed (DeletionByPodGC) and force-deleted",
	}
	if strings.Join(why, "\n") != strings.Join(wantWhy, "\n") {
		t.Errorf("decisions:\n%s", strings.Join(why, "\n"))
	}
	// A node that comes back within the quarantine keeps its pods.
	w.Pod("back", "node-0", nil)
	w.Advance(5 * time.Second)
	_ = w.C.DeleteNode("node-0")
	w.Advance(10 * time.Second)
	_ = w.C.CreateNode(w.C.NewNode("node-0", 0, cluster.NodeOptions{}))
	w.Advance(time.Minute)
	if w.C.Pod("default", "back") == nil {
		t.Error("pod collected although its node came back within the quarantine")
	}
}

// TestPodGCTerminatingOutOfService mirrors the pod GC's gcTerminating (non-
// graceful node shutdown): pods left terminating on a node that is not
// Ready are force-deleted once the node carries the out-of-service taint;
// on a Ready node the kubelet finishes their termination itself.
func TestPodGCTerminatingOutOfService(t *testing.T) {
	w := componenttest.New(t, "down", "up")
	stuck := w.Pod("stuck", "down", nil)
	w.Pod("fine", "up", nil)
	w.Advance(10 * time.Second)
	w.K.Stop("down")
	w.Advance(nodelifecycle.NodeMonitorGracePeriod)
	grace := int64(30)
	if err := w.C.DeletePod("default", "stuck", &grace); err != nil {
		t.Fatal(err)
	}
	w.Advance(time.Minute)
	if w.C.Pod("default", "stuck") == nil {
		t.Fatal("pod removed although no kubelet confirmed the kill")
	}
	for _, name := range []string{"down", "up"} {
		n := w.C.Node(name)
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: api.TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute})
		_ = w.C.UpdateNode(n)
	}
	w.Settle()
	if w.C.Pod("default", "stuck") != nil {
		t.Error("terminating pod on an out-of-service node not force-deleted")
	}
	if stuck.Status.Phase != api.PodFailed {
		t.Errorf("phase %s, want Failed before the forced delete", stuck.Status.Phase)
	}
	// On the Ready node the taint evicts gracefully: the kubelet stops the pod.
	if p := w.C.Pod("default", "fine"); p == nil || p.DeletionTimestamp == nil {
		t.Errorf("pod on the Ready node: %+v", p)
	}
}
