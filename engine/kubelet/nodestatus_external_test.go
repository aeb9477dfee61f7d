package kubelet_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/componenttest"
)

// The tests here watch the kubelets together with the controllers that act
// on what they post (engine/internal/componenttest): registration events,
// taints from reported conditions.

// TestNodeEvents checks the events a real cluster shows in describe node:
// the kubelet's startup events (involvedObject UID = the node's name), the
// node controller's RegisteredNode (the node's real UID), NodeReady, and
// NodeNotSchedulable / NodeSchedulable on cordon and uncordon.
func TestNodeEvents(t *testing.T) {
	w := componenttest.New(t, "node-0")
	n := w.C.Node("node-0")
	w.Settle()
	n.Spec.Unschedulable = true
	_ = w.C.UpdateNode(n)
	w.Advance(time.Second)
	n.Spec.Unschedulable = false
	_ = w.C.UpdateNode(n)
	w.Advance(time.Second)
	var got []string
	for _, e := range w.C.Events() {
		if e.InvolvedObject.Kind != "Node" {
			continue
		}
		uid := "name"
		if e.InvolvedObject.UID == n.UID {
			uid = "uid"
		}
		got = append(got, fmt.Sprintf("+%s %s %s %s(%s) [%s] %s", e.FirstTimestamp.Sub(cluster.Epoch), e.Type, e.Reason, e.Source.Component, e.Source.Host, uid, e.Message))
	}
	want := []string{
		"+0s Normal Starting kubelet(node-0) [name] Starting kubelet.",
		"+0s Normal NodeHasSufficientMemory kubelet(node-0) [name] Node node-0 status is now: NodeHasSufficientMemory",
		"+0s Normal NodeHasNoDiskPressure kubelet(node-0) [name] Node node-0 status is now: NodeHasNoDiskPressure",
		"+0s Normal NodeHasSufficientPID kubelet(node-0) [name] Node node-0 status is now: NodeHasSufficientPID",
		"+0s Normal NodeAllocatableEnforced kubelet(node-0) [name] Updated Node Allocatable limit across pods",
		"+0s Normal RegisteredNode node-controller() [uid] Node node-0 event: Registered Node node-0 in Controller",
		"+0s Normal NodeReady kubelet(node-0) [name] Node node-0 status is now: NodeReady",
		"+0s Normal NodeNotSchedulable kubelet(node-0) [name] Node node-0 status is now: NodeNotSchedulable",
		"+1s Normal NodeSchedulable kubelet(node-0) [name] Node node-0 status is now: NodeSchedulable",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("node events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	rv := w.C.ResourceVersion()
	w.Advance(time.Hour - 2*time.Second)
	if w.C.ResourceVersion() != rv {
		t.Error("node events re-recorded while nothing changed")
	}
	// A node registered again under the same name (new UID) starts afresh.
	_ = w.C.DeleteNode("node-0")
	w.K.Forget("node-0")
	_ = w.C.CreateNode(w.C.NewNode("node-0", 0, cluster.NodeOptions{}))
	w.Settle()
	starts := 0
	for _, e := range w.C.Events() {
		if e.Reason == "Starting" && e.InvolvedObject.Name == "node-0" && e.LastTimestamp.Equal(w.C.Now()) {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("the re-registered node recorded %d Starting events now, want 1", starts)
	}
}

// TestSetNodeCondition: a reported condition carries the kubelet's (or the
// route controller's) reason and message, records the kubelet's node event
// on a change, and the node lifecycle controller taints the node to match
// (TaintNodesByCondition); bad input is refused without a change.
func TestSetNodeCondition(t *testing.T) {
	cases := []struct {
		typ, status    string
		reason, event  string
		taints         string
		wantErrContain string
	}{
		{typ: "MemoryPressure", status: "True", reason: "KubeletHasInsufficientMemory", event: "NodeHasInsufficientMemory", taints: "node.kubernetes.io/memory-pressure:NoSchedule"},
		{typ: "DiskPressure", status: "True", reason: "KubeletHasDiskPressure", event: "NodeHasDiskPressure", taints: "node.kubernetes.io/disk-pressure:NoSchedule"},
		{typ: "PIDPressure", status: "True", reason: "KubeletHasInsufficientPID", event: "NodeHasInsufficientPID", taints: "node.kubernetes.io/pid-pressure:NoSchedule"},
		{typ: "NetworkUnavailable", status: "True", reason: "NoRouteCreated", taints: "node.kubernetes.io/network-unavailable:NoSchedule"},
		{typ: "Ready", status: "False", reason: "KubeletNotReady", event: "NodeNotReady", taints: "node.kubernetes.io/not-ready:NoSchedule,node.kubernetes.io/not-ready:NoExecute"},
		{typ: "MemoryPressure", status: "False", reason: "KubeletHasSufficientMemory"},
		{typ: "Ready", status: "Unknown", wantErrContain: "node fail n"},
		{typ: "Ready", status: "maybe", wantErrContain: `status "maybe" must be True or False`},
		{typ: "Hungry", status: "True", wantErrContain: `unknown node condition "Hungry"`},
	}
	for _, tc := range cases {
		t.Run(tc.typ+"="+tc.status, func(t *testing.T) {
			w := componenttest.New(t, "n")
			w.Settle()
			rv := w.C.ResourceVersion()
			err := w.K.SetNodeCondition("n", tc.typ, tc.status)
			if tc.wantErrContain != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErrContain) {
					t.Fatalf("err = %v, want %q", err, tc.wantErrContain)
				}
				if w.C.ResourceVersion() != rv {
					t.Error("a refused condition changed the store")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w.Settle()
			n := w.C.Node("n")
			c := n.Condition(tc.typ)
			if c == nil || c.Status != tc.status || c.Reason != tc.reason {
				t.Errorf("condition = %+v", c)
			}
			var ts []string
			for _, t := range n.Spec.Taints {
				ts = append(ts, t.ToString())
			}
			if strings.Join(ts, ",") != tc.taints {
				t.Errorf("taints = %v, want %s", ts, tc.taints)
			}
			found := tc.event == ""
			for _, e := range w.C.Events() {
				if e.Reason == tc.event && e.Message == "Node n status is now: "+tc.event && e.Source.Component == "kubelet" {
					found = true
				}
			}
			if !found {
				t.Errorf("no %s event", tc.event)
			}
			// Back to the healthy status: taints go.
			healthy := api.ConditionFalse
			if tc.typ == api.NodeReady {
				healthy = api.ConditionTrue
			}
			if err := w.K.SetNodeCondition("n", tc.typ, healthy); err != nil {
				t.Fatal(err)
			}
			w.Settle()
			if len(n.Spec.Taints) != 0 {
				t.Errorf("taints after %s=%s: %v", tc.typ, healthy, n.Spec.Taints)
			}
		})
	}
	t.Run("failed node", func(t *testing.T) {
		w := componenttest.New(t, "n")
		w.K.Stop("n")
		if err := w.K.SetNodeCondition("n", "MemoryPressure", "True"); err == nil || !strings.Contains(err.Error(), "has failed") {
			t.Errorf("err = %v", err)
		}
		if err := w.K.SetNodeCondition("nope", "MemoryPressure", "True"); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("err = %v", err)
		}
	})
}
