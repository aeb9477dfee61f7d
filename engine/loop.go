package engine

import (
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/controller"
	"github.com/dsplayground/dsplay/engine/kubelet"
	"github.com/dsplayground/dsplay/engine/scheduler"
)

// components are the simulated control plane and node agents, run in a
// fixed order on every pass: node lifecycle, DaemonSet controller,
// scheduler, kubelets, taint eviction, pod GC, garbage collector. Each
// writes to the store only when something really changes.
type components struct {
	nodeLifecycle *kubelet.NodeLifecycle
	daemonSets    *controller.DaemonSetsController
	scheduler     *scheduler.Scheduler
	kubelets      *kubelet.Kubelets
	taintEviction *kubelet.TaintEviction
	podGC         *kubelet.PodGC
	gc            *kubelet.GarbageCollector
}

func newComponents(c *cluster.Cluster) components {
	k := kubelet.New(c)
	return components{
		nodeLifecycle: kubelet.NewNodeLifecycle(c, k),
		daemonSets:    controller.NewDaemonSetsController(c),
		scheduler:     scheduler.New(c),
		kubelets:      k,
		taintEviction: kubelet.NewTaintEviction(c),
		podGC:         kubelet.NewPodGC(c),
		gc:            kubelet.NewGarbageCollector(c),
	}
}

// pass runs every component once.
func (k components) pass() {
	k.nodeLifecycle.Sync()
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
		rv := s.Cluster.ResourceVersion()
		s.passes++
		s.comps.pass()
		if s.Cluster.ResourceVersion() == rv {
			break
		}
	}
	s.settledRV, s.settled = s.Cluster.ResourceVersion(), true
}

// settleIfChanged settles unless nothing was written since the last
// Settle. Every component asks for a wake-up (cluster.WakeAt) for anything
// it will do because time passed — a container starting, a backoff ending,
// a toleration running out — so between wake-ups, with no write, a pass
// would change nothing: skipping it keeps a quiet 5,000-node cluster cheap
// while the clock runs.
func (s *Simulation) settleIfChanged() {
	if s.settled && s.Cluster.ResourceVersion() == s.settledRV {
		return
	}
	s.Settle()
}

// Advance moves virtual time forward by d, stopping at every wake-up a
// component asked for on the way and settling there.
func (s *Simulation) Advance(d time.Duration) {
	target := s.Cluster.Now().Add(d)
	s.settleIfChanged()
	for {
		t, ok := s.Cluster.NextWakeup(target)
		if !ok {
			break
		}
		s.Cluster.SetNow(t)
		s.Settle()
	}
	s.Cluster.SetNow(target)
	s.settleIfChanged()
}
