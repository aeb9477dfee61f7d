package engine

import (
	"strings"
	"testing"
	"time"
)

// TestSetNodeCondition: the façade makes a node report a condition and
// settles, so the node lifecycle controller's taint is there on return
// (§3.5, §3.6). NetworkUnavailable keeps the running pod; the taint alone
// syncs no DaemonSet (syncNodeUpdate, §1.2: the pod may continue running),
// so the status keeps counting node-1 as desired until something else syncs
// the DaemonSet (here an edit of it), which then counts the pod
// misscheduled; clearing the condition re-syncs it, since its status
// reports a misscheduled node where it has a pod (#132477). Bad input is
// refused and changes nothing.
func TestSetNodeCondition(t *testing.T) {
	s := New(Options{})
	ds := createDS(t, s, newTestDS("agent"))
	s.Advance(10 * time.Second)
	if err := s.SetNodeCondition("node-1", "NetworkUnavailable", "True"); err != nil {
		t.Fatal(err)
	}
	var taints []string
	for _, tn := range s.store.Node("node-1").Spec.Taints {
		taints = append(taints, tn.ToString())
	}
	eq(t, "taints", strings.Join(taints, ","), "node.kubernetes.io/network-unavailable:NoSchedule")
	eq(t, "placement", placement(s, ds), []string{"node-1=Running", "node-2=Running"})
	eq(t, "desired/misscheduled (not re-synced)", []int32{ds.Status.DesiredNumberScheduled, ds.Status.NumberMisscheduled}, []int32{2, 0})
	d := s.store.DaemonSet(ds.Namespace, ds.Name)
	d.Annotations = map[string]string{"touched": "1"} // a metadata-only edit: enqueued by updateDaemonset
	if err := s.store.UpdateDaemonSet(d); err != nil {
		t.Fatal(err)
	}
	s.Advance(time.Second)
	eq(t, "desired/misscheduled", []int32{ds.Status.DesiredNumberScheduled, ds.Status.NumberMisscheduled}, []int32{1, 1})
	if err := s.SetNodeCondition("node-1", "NetworkUnavailable", "False"); err != nil {
		t.Fatal(err)
	}
	eq(t, "taints after", len(s.store.Node("node-1").Spec.Taints), 0)
	eq(t, "desired/misscheduled after", []int32{ds.Status.DesiredNumberScheduled, ds.Status.NumberMisscheduled}, []int32{2, 0})

	rv := s.store.ResourceVersion()
	for _, bad := range [][3]string{{"node-9", "MemoryPressure", "True"}, {"node-1", "Ready", "Unknown"}, {"node-1", "Sleepy", "True"}} {
		if err := s.SetNodeCondition(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	eq(t, "resourceVersion after refusals", s.store.ResourceVersion(), rv)
}
