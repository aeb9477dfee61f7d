package nodelifecycle_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/componenttest"
	"github.com/dsplayground/dsplay/engine/nodelifecycle"
)

// TestNodeLifecycle: a node whose kubelet stopped turns Unknown after the
// grace period (tryUpdateNodeHealth), with the unreachable taints; a
// restarted kubelet clears them; conditions and cordon map to taints
// (doNoScheduleTaintingPass, doNoExecuteTaintingPass).
func TestNodeLifecycle(t *testing.T) {
	w := componenttest.New(t, "node-0")
	w.K.Stop("node-0")
	w.Advance(49 * time.Second)
	if w.C.Node("node-0").Condition(api.NodeReady).Status != api.ConditionTrue {
		t.Fatal("Unknown too early")
	}
	w.Advance(time.Second)
	n := w.C.Node("node-0")
	for _, typ := range []string{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure} {
		c := n.Condition(typ)
		if c.Status != api.ConditionUnknown || c.Reason != "NodeStatusUnknown" || c.Message != "Kubelet stopped posting node status." {
			t.Errorf("%s = %+v", typ, c)
		}
	}
	var ts []string
	for _, t := range n.Spec.Taints {
		ts = append(ts, t.ToString())
	}
	if strings.Join(ts, ",") != "node.kubernetes.io/unreachable:NoSchedule,node.kubernetes.io/unreachable:NoExecute" {
		t.Errorf("taints %v", ts)
	}
	w.K.Start("node-0")
	w.Settle()
	if len(n.Spec.Taints) != 0 || n.Condition(api.NodeReady).Status != api.ConditionTrue {
		t.Errorf("after recovery: %+v %+v", n.Spec.Taints, n.Condition(api.NodeReady))
	}
	// the restarted kubelet posts every condition afresh, in its own words
	for _, want := range cluster.HealthyNodeConditions() {
		c := n.Condition(want.Type)
		if c.Status != want.Status || c.Reason != want.Reason || c.Message != want.Message || c.LastHeartbeatTime.IsZero() {
			t.Errorf("after recovery %s = %+v", want.Type, c)
		}
	}
	// conditions and cordon map to taints
	for _, tc := range []struct {
		mut  func(n *api.Node)
		want string
	}{
		{func(n *api.Node) { n.Condition(api.NodeReady).Status = api.ConditionFalse }, "node.kubernetes.io/not-ready:NoSchedule,node.kubernetes.io/not-ready:NoExecute"},
		{func(n *api.Node) { n.Condition(api.NodeMemoryPressure).Status = api.ConditionTrue }, "node.kubernetes.io/memory-pressure:NoSchedule"},
		{func(n *api.Node) { n.Condition(api.NodeDiskPressure).Status = api.ConditionTrue }, "node.kubernetes.io/disk-pressure:NoSchedule"},
		{func(n *api.Node) { n.Spec.Unschedulable = true }, "node.kubernetes.io/unschedulable:NoSchedule"},
		{func(n *api.Node) { n.Spec.Taints = []api.Taint{{Key: "user", Effect: "NoSchedule"}} }, "user:NoSchedule"},
	} {
		w := componenttest.New(t, "n")
		n := w.C.Node("n")
		tc.mut(n)
		_ = w.C.UpdateNode(n)
		w.Settle()
		var ts []string
		for _, t := range n.Spec.Taints {
			ts = append(ts, t.ToString())
		}
		if strings.Join(ts, ",") != tc.want {
			t.Errorf("taints %v, want %s", ts, tc.want)
		}
	}
}

// TestLeaseIsTheHeartbeat: the controller learns of a silent kubelet from
// the store alone. With no kubelet running, a lease whose renewals ended
// turns the node Unknown NodeMonitorGracePeriod after its last renewal,
// and a new lease registers its node once (RegisteredNode).
func TestLeaseIsTheHeartbeat(t *testing.T) {
	c := cluster.New(1)
	if err := c.CreateNode(c.NewNode("n", 0, cluster.NodeOptions{})); err != nil {
		t.Fatal(err)
	}
	nl := nodelifecycle.New(c)
	registered := func() int {
		k := 0
		for _, e := range c.Events() {
			if e.Reason == "RegisteredNode" {
				k++
			}
		}
		return k
	}
	nl.Sync()
	if registered() != 0 {
		t.Fatal("registered a node no kubelet announced")
	}
	c.CreateNodeLease("n", c.Node("n").UID)
	nl.Sync()
	nl.Sync()
	if registered() != 1 {
		t.Fatalf("RegisteredNode events = %d, want 1", registered())
	}
	last := c.Now()
	c.EndNodeLeaseRenewal("n", last)
	nl.Sync() // asks to wake at the deadline
	at, ok := c.NextWakeup(last.Add(time.Hour))
	if !ok || !at.Equal(last.Add(nodelifecycle.NodeMonitorGracePeriod)) {
		t.Fatalf("wake-up %v %v, want the grace period's end", at, ok)
	}
	c.SetNow(at.Add(-time.Second))
	nl.Sync()
	if st := c.Node("n").Condition(api.NodeReady).Status; st != api.ConditionTrue {
		t.Fatalf("Ready=%s before the grace period ended", st)
	}
	c.SetNow(at)
	nl.Sync()
	n := c.Node("n")
	if st := n.Condition(api.NodeReady).Status; st != api.ConditionUnknown {
		t.Fatalf("Ready=%s after the grace period, want Unknown", st)
	}
	if got := componenttest.Taints(n); got != "node.kubernetes.io/unreachable:NoSchedule,node.kubernetes.io/unreachable:NoExecute" {
		t.Errorf("taints %s", got)
	}
}
