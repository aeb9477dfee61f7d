package kubelet

import (
	"testing"
	"time"
)

// TestSettledNodeSkippedUntilItsPodsChange: once every pod on a node runs
// Ready with nothing pending, Sync skips the node (settled), and a write to
// one of its pods (here a graceful delete) makes the kubelet look at it
// again, while the other node stays skipped.
func TestSettledNodeSkippedUntilItsPodsChange(t *testing.T) {
	w := newWorld(t, "node-0", "node-1")
	a := w.pod("a", "node-0", nil)
	b := w.pod("b", "node-1", nil)
	w.advance(10 * time.Second)
	if !a.IsReady() || !b.IsReady() {
		t.Fatal("pods not ready after 10s")
	}
	for _, n := range []string{"node-0", "node-1"} {
		if _, ok := w.k.settled[n]; !ok {
			t.Fatalf("%s not settled: the skip is never taken", n)
		}
	}
	if err := w.c.DeletePod("default", "a", nil); err != nil {
		t.Fatal(err)
	}
	w.advance(time.Minute)
	if w.c.Pod("default", "a") != nil {
		t.Fatal("the deleted pod on a settled node was never stopped and removed")
	}
	if _, ok := w.k.settled["node-1"]; !ok {
		t.Error("node-1, untouched, is no longer settled")
	}
	if !b.IsReady() {
		t.Error("b is no longer ready")
	}
}
