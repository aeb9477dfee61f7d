package kubelet

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

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
