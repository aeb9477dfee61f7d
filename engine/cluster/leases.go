package cluster

import "time"

// Node leases: the kubelets' heartbeats as the store holds them. In a
// cluster each kubelet's node lease controller creates a Lease named after
// its node in kube-node-lease (owned by the Node) and renews its
// spec.renewTime every 10 s (upstream pkg/kubelet/nodelease and
// k8s.io/component-helpers/apimachinery/lease controller.go); the node
// lifecycle controller reads it (upstream
// pkg/controller/nodelifecycle/node_lifecycle_controller.go
// tryUpdateNodeHealth): a node whose Lease and status have not been renewed
// for node-monitor-grace-period turns Ready=Unknown. Here the kubelet and the
// node lifecycle controller meet through these records and nothing else.
//
// The store does not write a renewal every 10 s per node (500 writes a
// second on a 5,000-node cluster): a lease counts as renewed continuously
// until its kubelet stops, and then holds the instant of its last renewal.
// Leases are not versioned API objects here: writing one bumps no
// resourceVersion and kubectl does not list them; kubectl derives the
// renewTime it shows (kubectl/nodeheartbeat.go) from the same records.

// NodeLease is the creation of one node's Lease: the node's name (the
// Lease's name) and the UID of the Node object the kubelet created it for
// (the Lease's ownerReference).
type NodeLease struct {
	Node, HolderUID string
}

// CreateNodeLease records that node's kubelet has started and created its
// Lease for the Node object with UID holderUID (the kubelet announcing
// itself). The lease is renewed from then on until EndNodeLeaseRenewal.
func (c *Cluster) CreateNodeLease(node, holderUID string) {
	c.leaseFeed = append(c.leaseFeed, NodeLease{Node: node, HolderUID: holderUID})
}

// NodeLeasesSince returns the leases created since cursor (0: every one),
// oldest first, and the cursor to pass next time: a change feed for the
// node lifecycle controller's first sight of a node.
func (c *Cluster) NodeLeasesSince(cursor int) (leases []NodeLease, next int) {
	if cursor >= len(c.leaseFeed) {
		return nil, len(c.leaseFeed)
	}
	return c.leaseFeed[cursor:], len(c.leaseFeed)
}

// EndNodeLeaseRenewal records that node's kubelet stopped renewing its
// lease, the last renewal being at last (the kubelet stopped).
func (c *Cluster) EndNodeLeaseRenewal(node string, last time.Time) {
	if c.leaseEnds == nil {
		c.leaseEnds = map[string]time.Time{}
	}
	c.leaseEnds[node] = last
}

// RenewNodeLease records that node's kubelet renews its lease again (a
// restarted kubelet).
func (c *Cluster) RenewNodeLease(node string) { delete(c.leaseEnds, node) }

// DeleteNodeLease drops what the store holds of node's lease renewals (the
// node was removed, and its Lease with it: a node registered later under
// the same name starts with a lease being renewed).
func (c *Cluster) DeleteNodeLease(node string) { delete(c.leaseEnds, node) }

// NodeLeaseRenewalEnded reports when node's lease was last renewed, and
// whether its renewals have ended; while they go on (ended false) the lease
// counts as renewed now.
func (c *Cluster) NodeLeaseRenewalEnded(node string) (last time.Time, ended bool) {
	last, ended = c.leaseEnds[node]
	return last, ended
}

// EndedNodeLeases returns how many leases are no longer renewed: while it
// is 0 no node can turn Unknown.
func (c *Cluster) EndedNodeLeases() int { return len(c.leaseEnds) }
