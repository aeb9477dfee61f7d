package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// benchmarkNewComparison measures NewComparison on an n-node base session
// (n AddNode inputs, the DaemonSet agent (RollingUpdate 10%) applied, two
// minutes for it to run) with the change `kubectl set image ds/agent
// agent=agent:2`. Sub-benchmarks: fork (Base replayed once, the Recorder
// deep-copied for the OnDelete side: what NewComparison does) and replay
// (Base replayed once per side: the fallback). Recording the base is not
// timed.
func benchmarkNewComparison(b *testing.B, n int) {
	r := NewRecorder(Options{Empty: true})
	for i := 0; i < n; i++ {
		if err := r.AddNode(fmt.Sprintf("node-%d", i+1), cluster.NodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := r.Apply("ds.yaml", rollingBenchDS); err != nil {
		b.Fatal(err)
	}
	r.Advance(2 * time.Minute)
	if p := ProgressOf(r.Live(), "default", "agent"); !p.Done || int(p.Desired) != n {
		b.Fatalf("base not running: %+v", p)
	}
	o := CompareOptions{Options: Options{Empty: true}, Base: r.Inputs(), Name: "agent", MaxUnavailable: "10%",
		Change: Input{Kind: InputRun, Line: "kubectl set image ds/agent agent=agent:2"}}
	for _, mode := range []struct {
		name        string
		replayTwice bool
	}{{"fork", false}, {"replay", true}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c, err := newComparison(o, mode.replayTwice)
				if err != nil {
					b.Fatal(err)
				}
				if p := c.Progress(SideOnDelete); int(p.Desired) != n {
					b.Fatalf("OnDelete side: %+v", p)
				}
			}
		})
	}
}

func BenchmarkNewComparison1000(b *testing.B) { benchmarkNewComparison(b, 1000) }
