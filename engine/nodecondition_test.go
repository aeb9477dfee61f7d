package engine

import (
	"strings"
	"testing"
	"time"
)

// TestSetNodeCondition: the façade makes a node report a condition and
// settles, so the node lifecycle controller's taint is there on return and
// the DaemonSet status follows (§3.5, §3.6): NetworkUnavailable keeps the
// running pod but counts it misscheduled; clearing the condition undoes it.
// Bad input is refused and changes nothing.
func TestSetNodeCondition(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("agent"))
	s.Advance(10 * time.Second)
	if err := s.SetNodeCondition("node-1", "NetworkUnavailable", "True"); err != nil {
		t.Fatal(err)
	}
	var taints []string
	for _, tn := range s.Cluster.Node("node-1").Spec.Taints {
		taints = append(taints, tn.ToString())
	}
	eq(t, "taints", strings.Join(taints, ","), "node.kubernetes.io/network-unavailable:NoSchedule")
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	eq(t, "desired/misscheduled", []int32{ds.Status.DesiredNumberScheduled, ds.Status.NumberMisscheduled}, []int32{1, 1})
	if err := s.SetNodeCondition("node-1", "NetworkUnavailable", "False"); err != nil {
		t.Fatal(err)
	}
	eq(t, "taints after", len(s.Cluster.Node("node-1").Spec.Taints), 0)
	eq(t, "desired/misscheduled after", []int32{ds.Status.DesiredNumberScheduled, ds.Status.NumberMisscheduled}, []int32{2, 0})

	rv := s.Cluster.ResourceVersion()
	for _, bad := range [][3]string{{"node-9", "MemoryPressure", "True"}, {"node-1", "Ready", "Unknown"}, {"node-1", "Sleepy", "True"}} {
		if err := s.SetNodeCondition(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	eq(t, "resourceVersion after refusals", s.Cluster.ResourceVersion(), rv)
}
