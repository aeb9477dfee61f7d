package kubelet

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

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
			w := newWorld(t, "n")
			w.settle()
			rv := w.c.ResourceVersion()
			err := w.k.SetNodeCondition("n", tc.typ, tc.status)
			if tc.wantErrContain != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErrContain) {
					t.Fatalf("err = %v, want %q", err, tc.wantErrContain)
				}
				if w.c.ResourceVersion() != rv {
					t.Error("a refused condition changed the store")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			w.settle()
			n := w.c.Node("n")
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
			for _, e := range w.c.Events() {
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
			if err := w.k.SetNodeCondition("n", tc.typ, healthy); err != nil {
				t.Fatal(err)
			}
			w.settle()
			if len(n.Spec.Taints) != 0 {
				t.Errorf("taints after %s=%s: %v", tc.typ, healthy, n.Spec.Taints)
			}
		})
	}
	t.Run("failed node", func(t *testing.T) {
		w := newWorld(t, "n")
		w.k.Stop("n")
		if err := w.k.SetNodeCondition("n", "MemoryPressure", "True"); err == nil || !strings.Contains(err.Error(), "has failed") {
			t.Errorf("err = %v", err)
		}
		if err := w.k.SetNodeCondition("nope", "MemoryPressure", "True"); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("err = %v", err)
		}
	})
}

// TestEvictionAdmit mirrors the eviction manager's TestAdmit cases
// (pkg/kubelet/eviction/eviction_manager_test.go): which pods a node under
// pressure admits.
func TestEvictionAdmit(t *testing.T) {
	critical := int32(2000001000)
	burstable := func(p *api.Pod) {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("64Mi")}
	}
	tolerates := func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeMemoryPressure, Operator: "Exists", Effect: api.TaintEffectNoSchedule}}
	}
	cases := []struct {
		name  string
		conds []string
		mut   func(p *api.Pod)
		want  string
	}{
		{"no pressure", nil, nil, ""},
		{"memory pressure, best effort", []string{"MemoryPressure"}, nil, "The node had condition: [MemoryPressure]. "},
		{"memory pressure, burstable", []string{"MemoryPressure"}, burstable, ""},
		{"memory pressure, best effort tolerating it", []string{"MemoryPressure"}, tolerates, ""},
		{"disk pressure, burstable", []string{"DiskPressure"}, burstable, "The node had condition: [DiskPressure]. "},
		{"disk pressure, tolerating memory pressure", []string{"DiskPressure"}, tolerates, "The node had condition: [DiskPressure]. "},
		{"memory and PID pressure, burstable", []string{"MemoryPressure", "PIDPressure"}, burstable, "The node had condition: [MemoryPressure PIDPressure]. "},
		{"disk pressure, critical", []string{"DiskPressure"}, func(p *api.Pod) { p.Spec.Priority = &critical }, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "n")
			n := w.c.Node("n")
			for _, c := range tc.conds {
				n.Condition(c).Status = api.ConditionTrue
			}
			p := &api.Pod{Spec: api.PodSpec{NodeName: "n", Containers: []api.Container{{Name: "c", Image: "img"}}}}
			if tc.mut != nil {
				tc.mut(p)
			}
			reason, msg := evictionAdmit(n, p)
			if msg != tc.want || (tc.want != "") != (reason == ReasonEvicted) {
				t.Errorf("got %q %q, want %q", reason, msg, tc.want)
			}
		})
	}
	// Through the kubelet: a pod bound to a node under disk pressure is
	// rejected (phase Failed, reason Evicted, Warning event).
	w := newWorld(t, "n")
	w.settle()
	if err := w.k.SetNodeCondition("n", api.NodeDiskPressure, api.ConditionTrue); err != nil {
		t.Fatal(err)
	}
	p := w.pod("web", "n", nil)
	w.settle()
	if p.Status.Phase != api.PodFailed || p.Status.Reason != ReasonEvicted || p.Status.Message != "Pod was rejected: The node had condition: [DiskPressure]. " {
		t.Errorf("status = %s %s %q", p.Status.Phase, p.Status.Reason, p.Status.Message)
	}
	if evs := events(w.c, p); len(evs) == 0 || !strings.Contains(evs[len(evs)-1], "Evicted") {
		t.Errorf("events = %v", evs)
	}
}

// TestTaintEvictionKeepsScheduledWork mirrors processPodOnNode's handling
// of an eviction already scheduled: a later taint tolerated for less time
// does not bring it forward (the existing timed work is kept), and a taint
// the pod does not tolerate cancels it (with the "Cancelling deletion"
// event) before the immediate eviction.
func TestTaintEvictionKeepsScheduledWork(t *testing.T) {
	tols := func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{
			{Key: "slow", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(300)},
			{Key: "fast", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(60)},
		}
	}
	taint := func(w *world, keys ...string) {
		n := w.c.Node("n")
		n.Spec.Taints = nil
		for _, k := range keys {
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: k, Effect: api.TaintEffectNoExecute})
		}
		_ = w.c.UpdateNode(n)
	}
	w := newWorld(t, "n")
	p := w.pod("p", "n", tols)
	w.advance(5 * time.Second)
	taint(w, "slow")
	w.advance(10 * time.Second)
	taint(w, "slow", "fast")
	w.advance(2 * time.Minute)
	if p.DeletionTimestamp != nil {
		t.Fatal("the shorter toleration brought the scheduled eviction forward")
	}
	w.advance(170 * time.Second) // 300 s after the first taint
	if p.DeletionTimestamp == nil {
		t.Fatal("not evicted 300 s after the first taint")
	}

	w = newWorld(t, "n")
	p = w.pod("p", "n", tols)
	w.advance(5 * time.Second)
	taint(w, "slow")
	w.advance(10 * time.Second)
	taint(w, "slow", "other")
	w.settle()
	if p.DeletionTimestamp == nil {
		t.Fatal("untolerated taint did not evict at once")
	}
	evs := events(w.c, p)
	var te []string
	for _, e := range evs {
		if strings.Contains(e, "TaintManagerEviction") {
			te = append(te, e[strings.Index(e, "TaintManagerEviction"):])
		}
	}
	want := []string{"TaintManagerEviction Cancelling deletion of Pod default/p", "TaintManagerEviction Marking for deletion Pod default/p"}
	if strings.Join(te, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", te, want)
	}
}

// TestPodGCTerminatingOutOfService mirrors the pod GC's gcTerminating (non-
// graceful node shutdown): pods left terminating on a node that is not
// Ready are force-deleted once the node carries the out-of-service taint;
// on a Ready node the kubelet finishes their termination itself.
func TestPodGCTerminatingOutOfService(t *testing.T) {
	w := newWorld(t, "down", "up")
	stuck := w.pod("stuck", "down", nil)
	w.pod("fine", "up", nil)
	w.advance(10 * time.Second)
	w.k.Stop("down")
	w.advance(NodeMonitorGracePeriod)
	grace := int64(30)
	if err := w.c.DeletePod("default", "stuck", &grace); err != nil {
		t.Fatal(err)
	}
	w.advance(time.Minute)
	if w.c.Pod("default", "stuck") == nil {
		t.Fatal("pod removed although no kubelet confirmed the kill")
	}
	for _, name := range []string{"down", "up"} {
		n := w.c.Node(name)
		n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: TaintNodeOutOfService, Value: "nodeshutdown", Effect: api.TaintEffectNoExecute})
		_ = w.c.UpdateNode(n)
	}
	w.settle()
	if w.c.Pod("default", "stuck") != nil {
		t.Error("terminating pod on an out-of-service node not force-deleted")
	}
	if stuck.Status.Phase != api.PodFailed {
		t.Errorf("phase %s, want Failed before the forced delete", stuck.Status.Phase)
	}
	// On the Ready node the taint evicts gracefully: the kubelet stops the pod.
	if p := w.c.Pod("default", "fine"); p == nil || p.DeletionTimestamp == nil {
		t.Errorf("pod on the Ready node: %+v", p)
	}
}
