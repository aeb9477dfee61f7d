package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// TestCheckpointNodeBudget: the node counts summed over the held
// checkpoints never exceed the budget; a cluster bigger than the budget
// takes no checkpoint (seeks replay); seeking still gives the recorded
// state; and max 1 holds one checkpoint (thinning always frees one).
func TestCheckpointNodeBudget(t *testing.T) {
	for _, tc := range []struct {
		max, budget, nodes int
		wantSome           bool
	}{
		{max: 8, budget: 20, nodes: 6, wantSome: true},   // 3 default + 3 added: 3 copies fit
		{max: 8, budget: 2, nodes: 6, wantSome: false},   // over budget from the start: none
		{max: 1, budget: 0, nodes: 3, wantSome: true},    // no budget, one copy
		{max: 8, budget: 100, nodes: 40, wantSome: true}, // 43 nodes: two copies
	} {
		t.Run(fmt.Sprintf("max%d-budget%d-nodes%d", tc.max, tc.budget, tc.nodes), func(t *testing.T) {
			r := NewRecorder(Options{Seed: 1})
			r.SetCheckpoints(tc.max, 10*time.Second)
			r.SetCheckpointNodeBudget(tc.budget)
			for i := 0; i < tc.nodes-3; i++ {
				if err := r.AddNode(fmt.Sprintf("extra-%d", i), cluster.NodeOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			var at []time.Duration
			var states []string
			for i := 0; i < 12; i++ {
				r.Advance(10 * time.Second)
				at = append(at, r.Live().Elapsed())
				states = append(states, r.Live().Run("kubectl get nodes").Stdout)
				if held := r.heldNodes(); tc.budget > 0 && held > tc.budget {
					t.Fatalf("after %v: %d nodes held in %d checkpoints, budget %d", r.Live().Elapsed(), held, len(r.ckpts), tc.budget)
				}
				if len(r.ckpts) > tc.max {
					t.Fatalf("%d checkpoints held, max %d", len(r.ckpts), tc.max)
				}
			}
			if got := len(r.Checkpoints()) > 0; got != tc.wantSome {
				t.Fatalf("checkpoints %v, want some: %v", r.Checkpoints(), tc.wantSome)
			}
			for i := len(at) - 1; i >= 0; i -= 3 {
				sim, err := r.Seek(at[i])
				if err != nil {
					t.Fatal(err)
				}
				if got := sim.Run("kubectl get nodes").Stdout; got != states[i] {
					t.Fatalf("seek %v:\n%s\nwant\n%s", at[i], got, states[i])
				}
			}
		})
	}
}
