package kubectl

import (
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Kubelet timing defaults mirrored by the node heartbeat derivation
// (pkg/kubelet/apis/config/v1beta1 defaults, component-helpers lease).
const (
	// leaseRenewInterval is how often the kubelet's node lease controller
	// renews its Lease in kube-node-lease: 25% of nodeLeaseDurationSeconds
	// (40 s), i.e. 10 s (pkg/kubelet/kubelet.go NewMainKubelet,
	// renewIntervalFraction 0.25; lease controller.sync).
	leaseRenewInterval = 10 * time.Second
	// nodeStatusReportFrequency is how long the kubelet goes without
	// posting an unchanged node status (kubelet_node_status.go
	// tryUpdateNodeStatus: a status is posted when it changed or when
	// isUpdateStatusPeriodExpired, every nodeStatusUpdateFrequency = 10 s
	// tick). 300 s is a multiple of the 10 s tick, so the posts of an
	// unchanged status fall exactly 5 min apart.
	nodeStatusReportFrequency = 5 * time.Minute
)

// nodeHeartbeat is what a learner reads of a node's kubelet heartbeats at
// a virtual instant: the Lease's renewTime and the conditions'
// lastHeartbeatTime, derived rather than stored (the store is written
// only when the kubelet posts a change, never every 10 s per node, which
// would cost 500 writes a second on a 5,000-node cluster).
type nodeHeartbeat struct {
	// renew is the Lease spec.renewTime; zero when unknown.
	renew time.Time
	// status is every condition's lastHeartbeatTime (the kubelet's
	// condition setters stamp all of them on each post); zero: keep the
	// stored times.
	status time.Time
}

// deriveNodeHeartbeat mirrors the kubelet's two heartbeats for node n at
// the store's current time, as the rule below states. base is the last
// status post the store holds (the latest lastHeartbeatTime of n's
// conditions: registration, a condition change, a kubelet restart).
// While the kubelet runs, until end = now:
//   - the node lease controller renews the Lease every 10 s
//     (leaseRenewInterval): renewTime = base + ⌊(end-base)/10s⌋·10s;
//   - tryUpdateNodeStatus posts an unchanged status every 5 min
//     (nodeStatusReportFrequency), stamping every condition's
//     lastHeartbeatTime (setters.go ReadyCondition, MemoryPressureCondition,
//     ... currentTime): lastHeartbeatTime = base + ⌊(end-base)/5min⌋·5min.
//
// When the kubelet stopped (`node fail`, stopped reports when; or a Ready
// condition left Unknown by the node lifecycle controller when stopped is
// nil), end is the failure instant: both times freeze at the last renewal
// and the last post before it. Times are truncated to the second, as the
// API server's metav1.Time (and describe's RFC 1123) shows them. The
// Lease's phase is anchored at base, since the playground keeps no Lease
// object.
func deriveNodeHeartbeat(c *cluster.Cluster, n *api.Node, stopped func(node string) (time.Time, bool)) nodeHeartbeat {
	var base time.Time
	for _, cond := range n.Status.Conditions {
		if cond.LastHeartbeatTime.After(base) {
			base = cond.LastHeartbeatTime
		}
	}
	if base.IsZero() {
		return nodeHeartbeat{}
	}
	end := c.Now()
	if stopped != nil {
		if at, ok := stopped(n.Name); ok {
			end = at
		}
	} else if rc := n.Condition(api.NodeReady); rc != nil && rc.Status == api.ConditionUnknown {
		end = base
	}
	if end.Before(base) {
		end = base
	}
	step := func(d time.Duration) time.Time {
		return base.Add(end.Sub(base) / d * d).Truncate(time.Second)
	}
	return nodeHeartbeat{renew: step(leaseRenewInterval), status: step(nodeStatusReportFrequency)}
}

// withHeartbeat returns a copy of n whose conditions carry the derived
// lastHeartbeatTime (n itself, the stored object, is not changed).
func withHeartbeat(n *api.Node, hb nodeHeartbeat) *api.Node {
	if hb.status.IsZero() {
		return n
	}
	cp := *n
	cp.Status.Conditions = append([]api.NodeCondition(nil), n.Status.Conditions...)
	for i := range cp.Status.Conditions {
		if cp.Status.Conditions[i].LastHeartbeatTime.Before(hb.status) {
			cp.Status.Conditions[i].LastHeartbeatTime = hb.status
		}
	}
	return &cp
}

// outputView is what kubectl shows of a stored object read at the current
// virtual time: a Node with its derived heartbeats (deriveNodeHeartbeat),
// any other object as it is.
func (inv *invocation) outputView(obj any) any {
	if n, ok := obj.(*api.Node); ok && inv.env != nil && inv.env.Cluster != nil {
		return withHeartbeat(n, deriveNodeHeartbeat(inv.env.Cluster, n, inv.env.KubeletStoppedSince))
	}
	return obj
}

// nodeIdentity is the part of status.nodeInfo a kubelet reads from its
// machine (NodeSystemInfo machineID from /etc/machine-id, systemUUID from
// the DMI product UUID, bootID from /proc/sys/kernel/random/boot_id): 32
// hex digits and two UUIDs, stable per node, derived from the node's UID
// (itself drawn from the cluster's seeded generator) so that no extra
// random number shifts the names generated after it.
func nodeIdentity(n *api.Node) (machineID, systemUUID, bootID string) {
	return hexID(n.UID), uuidFrom(hexID(n.UID + "/system")), uuidFrom(hexID(n.UID + "/boot"))
}
