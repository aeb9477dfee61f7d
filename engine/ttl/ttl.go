// Package ttl is kube-controller-manager's TTL controller (upstream
// pkg/controller/ttl/ttl_controller.go): it keeps on every node the
// node.alpha.kubernetes.io/ttl annotation, the number of seconds a kubelet
// may cache the Secrets and ConfigMaps its pods use, chosen from the size
// of the cluster. It meets the nodes only through the store.
package ttl

import (
	"math"
	"strconv"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// AnnotationKey is the annotation the controller sets
// (core/v1 ObjectTTLAnnotationKey).
const AnnotationKey = "node.alpha.kubernetes.io/ttl"

// boundary is one step of cluster size (ttlBoundaries): while the step
// holds, every node's annotation says ttlSeconds; the controller moves up
// a step when the node count passes sizeMax and down one when it falls
// below sizeMin (the steps overlap, so a count near a limit does not
// flap).
type boundary struct{ sizeMin, sizeMax, ttlSeconds int }

var boundaries = []boundary{
	{sizeMin: 0, sizeMax: 100, ttlSeconds: 0},
	{sizeMin: 90, sizeMax: 500, ttlSeconds: 15},
	{sizeMin: 450, sizeMax: 1000, ttlSeconds: 30},
	{sizeMin: 900, sizeMax: 2000, ttlSeconds: 60},
	{sizeMin: 1800, sizeMax: math.MaxInt32, ttlSeconds: 300},
}

// Controller mirrors the TTL controller (upstream Controller): its node
// count and boundary step, kept as addNode and deleteNode keep them, and
// the annotation written on every node that lacks the desired value
// (updateNodeIfNeeded, a strategic merge patch of the annotation).
type Controller struct {
	c *cluster.Cluster
	// step is the boundary the cluster's size is in (boundaryStep).
	step int
	// seen is the store's NodeVersion after the last pass (seenOK: one
	// ran): while it holds, no node was added, removed or changed, so
	// Sync has nothing to do.
	seen   int64
	seenOK bool
}

// New returns the TTL controller of the cluster c (NewTTLController).
func New(c *cluster.Cluster) *Controller { return &Controller{c: c} }

// DesiredTTLSeconds is the TTL the controller wants on every node now
// (getDesiredTTLSeconds).
func (tc *Controller) DesiredTTLSeconds() int { return boundaries[tc.step].ttlSeconds }

// Sync moves the boundary step to the cluster's node count, one step at a
// time as addNode and deleteNode do with every node event, then annotates
// every node whose annotation is missing or says another value
// (updateNodeIfNeeded; the informer's update events requeue every node
// that changes, so a node that lost the annotation gets it back).
func (tc *Controller) Sync() {
	if tc.seenOK && tc.c.NodeVersion() == tc.seen {
		return
	}
	count := tc.c.NodeCount()
	for count > boundaries[tc.step].sizeMax && tc.step < len(boundaries)-1 {
		tc.step++
	}
	for count < boundaries[tc.step].sizeMin && tc.step > 0 {
		tc.step--
	}
	want := strconv.Itoa(tc.DesiredTTLSeconds())
	for _, n := range tc.c.Nodes() {
		if v, ok := n.Annotations[AnnotationKey]; ok && v == want {
			continue
		}
		// getIntFromAnnotation: a value that does not parse counts as
		// missing; either way the patch sets the desired one
		setAnnotation(n, want)
		_ = tc.c.UpdateNode(n)
	}
	tc.seen, tc.seenOK = tc.c.NodeVersion(), true
}

// setAnnotation is setIntAnnotation.
func setAnnotation(n *api.Node, v string) {
	if n.Annotations == nil {
		n.Annotations = map[string]string{}
	}
	n.Annotations[AnnotationKey] = v
}
