// Package engine is the façade of the DaemonSet playground: one Simulation
// holds the simulated cluster and its components, and is all that wasm/,
// cmd/ and site/ talk to.
//
// Data flow: YAML -> manifest.Decode -> objects + diagnostics -> store ->
// (loop until quiet or the clock reaches its target: node lifecycle, the
// DaemonSet controller, the scheduler, the kubelets, taint eviction, the
// pod GC, the garbage collector, in the order loop.go documents) ->
// Snapshot + Decisions. Same inputs and seed give the same results, byte
// for byte.
//
// Each component is the package named after the Kubernetes component it
// mirrors, and they meet only through the store (engine/cluster):
//
//	engine/cluster           kube-apiserver and its storage
//	engine/controller        pkg/controller/daemon (DaemonSet controller)
//	engine/nodelifecycle     pkg/controller/nodelifecycle
//	engine/tainteviction     pkg/controller/tainteviction
//	engine/podgc             pkg/controller/podgc
//	engine/garbagecollector  pkg/controller/garbagecollector
//	engine/scheduler         kube-scheduler (pkg/scheduler)
//	engine/kubelet           the kubelet (pkg/kubelet)
//	engine/kubectl           kubectl (k8s.io/kubectl)
//
// engine/api and engine/schema hold the object model and the API schema,
// engine/manifest decodes and validates YAML; imports_test.go pins which
// package may import which.
//
// The store is not exported: the shells read views (Snapshot, Scene,
// Summary, the small reads in facade.go) and act through the Simulation's
// or the Recorder's methods. Packages under engine/ that check the store
// itself (engine/scenario's expectations, tests) reach it through
// engine/internal/simstore, which Go's internal rule keeps from wasm/,
// site/ and cmd/.
package engine

import (
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
)

func init() {
	simstore.Register(func(sim any) *cluster.Cluster { return sim.(*Simulation).store })
}

// Options configure a new Simulation.
type Options struct {
	// Seed drives generated pod names and UIDs. 0 means 1.
	Seed int64
	// Empty starts with no nodes instead of the default cluster
	// (control-plane, node-1, node-2).
	Empty bool
	// StreamRolloutStatus: `kubectl rollout status` returns at once and
	// streams its progress through Output.Watch (kubectl.Env's field of
	// that name), for an interactive console; recorded replays do the same.
	StreamRolloutStatus bool
}

// Simulation is one simulated cluster. It is not safe for concurrent use.
type Simulation struct {
	// store is the API server and its store. Packages under engine/ reach
	// it through engine/internal/simstore; the shells read views.
	store *cluster.Cluster

	comps components
	// settledRV is the store's ResourceVersion when Settle last finished
	// (settled says whether it ever ran); see settleIfChanged.
	settledRV int64
	settled   bool
	// passes counts component passes (for tests of the loop).
	passes int
	// Files are named manifests that `kubectl apply -f NAME` can read
	// (scenario files, the browser editor's buffer).
	Files map[string]string
	// streamRollout is Options.StreamRolloutStatus.
	streamRollout bool
}

// New returns a Simulation at virtual time cluster.Epoch, with the default
// cluster unless o.Empty.
func New(o Options) *Simulation {
	seed := o.Seed
	if seed == 0 {
		seed = 1
	}
	s := &Simulation{store: cluster.New(seed), Files: map[string]string{}, streamRollout: o.StreamRolloutStatus}
	s.comps = newComponents(s.store)
	if !o.Empty {
		s.store.AddDefaultNodes()
	}
	s.Settle()
	return s
}

// Now returns the virtual time.
func (s *Simulation) Now() time.Time { return s.store.Now() }

// Elapsed returns the virtual time since cluster.Epoch.
func (s *Simulation) Elapsed() time.Duration { return s.store.Now().Sub(cluster.Epoch) }

// Decisions returns the decisions with Seq greater than after, oldest first.
func (s *Simulation) Decisions(after int64) []cluster.Decision { return s.store.Decisions(after) }

// NumEvents and NumDecisions return how many events and decisions the
// store holds (both bounded: the event TTL, the decision log's cap).
func (s *Simulation) NumEvents() int    { return s.store.NumEvents() }
func (s *Simulation) NumDecisions() int { return s.store.NumDecisions() }

// NextEventIn returns the virtual time until the next instant a component
// has asked to run (a pull ending, a grace period running out, a
// requeue), for stepping "to the next event"; ok is false when nothing is
// scheduled. Something may or may not change then.
func (s *Simulation) NextEventIn() (d time.Duration, ok bool) {
	t, ok := s.store.PeekWakeup()
	if !ok {
		return 0, false
	}
	return t.Sub(s.store.Now()), true
}
