package engine

import (
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// components are the simulated control plane and node agents, run in a
// fixed order on every pass.
type components struct {
	c *cluster.Cluster
}

func newComponents(c *cluster.Cluster) components { return components{c: c} }

// pass runs every component once.
func (k components) pass() {}

// maxPasses bounds the passes at one instant; a real fixed point is reached
// in a handful.
const maxPasses = 100

// Settle runs the components at the current virtual time until a pass
// changes nothing (or maxPasses passes ran).
func (s *Simulation) Settle() {
	for i := 0; i < maxPasses; i++ {
		rv := s.Cluster.ResourceVersion()
		s.comps.pass()
		if s.Cluster.ResourceVersion() == rv {
			return
		}
	}
}

// Advance moves virtual time forward by d, stopping at every wake-up a
// component asked for on the way and settling there.
func (s *Simulation) Advance(d time.Duration) {
	target := s.Cluster.Now().Add(d)
	s.Settle()
	for {
		t, ok := s.Cluster.NextWakeup(target)
		if !ok {
			break
		}
		s.Cluster.SetNow(t)
		s.Settle()
	}
	s.Cluster.SetNow(target)
	s.Settle()
}
