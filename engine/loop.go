package engine

import (
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/controller"
	"github.com/dsplayground/dsplay/engine/garbagecollector"
	"github.com/dsplayground/dsplay/engine/kubelet"
	"github.com/dsplayground/dsplay/engine/nodelifecycle"
	"github.com/dsplayground/dsplay/engine/podgc"
	"github.com/dsplayground/dsplay/engine/scheduler"
	"github.com/dsplayground/dsplay/engine/tainteviction"
	"github.com/dsplayground/dsplay/engine/ttl"
)

// components are the simulated control plane and node agents. They never
// call one another: each reads the store and writes to it, as the
// components of a cluster meet only through the API server, and each
// writes only when something really changes. Every pass runs them once, in
// this fixed order:
//
//  1. node lifecycle (nodelifecycle): registers the nodes whose kubelet
//     created a lease since the last pass, turns the nodes whose lease is no
//     longer renewed Unknown after the grace period, and keeps the
//     condition taints;
//  2. the TTL controller (ttl): keeps every node's
//     node.alpha.kubernetes.io/ttl annotation at the cluster size's TTL;
//  3. the DaemonSet controller (controller): creates and deletes daemon
//     pods for the nodes and taints it sees;
//  4. the scheduler (scheduler): binds the pending pods;
//  5. the kubelets (kubelet): run the bound pods, post node status, and
//     create and renew their nodes' leases;
//  6. taint eviction (tainteviction): deletes the pods that do not tolerate
//     their node's NoExecute taints;
//  7. the pod GC (podgc): deletes the pods of vanished and out-of-service
//     nodes;
//  8. the garbage collector (garbagecollector): deletes dependents whose
//     owner is gone.
//
// Results depend on this order only through the store: for instance a
// kubelet's NodeReady event follows node lifecycle's RegisteredNode because
// node lifecycle, running first in the pass after the kubelet created the
// lease, records it before the kubelet's next Sync.
type components struct {
	nodeLifecycle *nodelifecycle.NodeLifecycle
	ttl           *ttl.Controller
	daemonSets    *controller.DaemonSetsController
	scheduler     *scheduler.Scheduler
	kubelets      *kubelet.Kubelets
	taintEviction *tainteviction.TaintEviction
	podGC         *podgc.PodGC
	gc            *garbagecollector.GarbageCollector
}

func newComponents(c *cluster.Cluster) components {
	return components{
		nodeLifecycle: nodelifecycle.New(c),
		ttl:           ttl.New(c),
		daemonSets:    controller.NewDaemonSetsController(c),
		scheduler:     scheduler.New(c),
		kubelets:      kubelet.New(c),
		taintEviction: tainteviction.New(c),
		podGC:         podgc.New(c),
		gc:            garbagecollector.New(c),
	}
}

// pass runs every component once, in the order documented on components.
func (k components) pass() {
	k.nodeLifecycle.Sync()
	k.ttl.Sync()
	k.daemonSets.Sync()
	k.scheduler.Schedule()
	k.kubelets.Sync()
	k.taintEviction.Sync()
	k.podGC.Sync()
	k.gc.Sync()
}

// maxPasses bounds the passes at one instant; a real fixed point is reached
// in a handful (a DaemonSet over more than 250 nodes needs one pass per 250
// pods, as burstReplicas caps the creates per sync).
const maxPasses = 100

// Settle runs the components at the current virtual time until a pass
// changes nothing (or maxPasses passes ran).
func (s *Simulation) Settle() {
	for i := 0; i < maxPasses; i++ {
		rv := s.store.ResourceVersion()
		s.passes++
		s.comps.pass()
		if s.store.ResourceVersion() == rv {
			break
		}
	}
	s.settledRV, s.settled = s.store.ResourceVersion(), true
}

// settleIfChanged settles unless nothing was written since the last
// Settle. Every component asks for a wake-up (cluster.WakeAt) for anything
// it will do because time passed — a container starting, a backoff ending,
// a toleration running out — so between wake-ups, with no write, a pass
// would change nothing: skipping it keeps a quiet 5,000-node cluster cheap
// while the clock runs.
func (s *Simulation) settleIfChanged() {
	if s.settled && s.store.ResourceVersion() == s.settledRV {
		return
	}
	s.Settle()
}

// Advance moves virtual time forward by d, stopping at every wake-up a
// component asked for on the way and settling there.
func (s *Simulation) Advance(d time.Duration) {
	target := s.store.Now().Add(d)
	s.settleIfChanged()
	for {
		t, ok := s.store.NextWakeup(target)
		if !ok {
			break
		}
		s.store.SetNow(t)
		s.Settle()
	}
	s.store.SetNow(target)
	s.settleIfChanged()
}
