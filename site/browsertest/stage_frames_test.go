package browsertest

import (
	"fmt"
	"sort"
	"testing"
)

// BenchmarkStageFrames measures, in headless Chromium, the gaps between
// animation frames (wall milliseconds) while the stage plays a
// RollingUpdate (maxUnavailable 10%) at 1×: at 100 nodes (node cards) and
// at 1,000 (compact tiles). Each iteration is one rollout's first 600
// frames; the metrics are the median, 95th percentile and longest gap of
// the last iteration, and the transitions the stage animated. A benchmark,
// not a timed test: `make bench-stage` (targets: p95 under 16.7 ms at 100
// nodes, longest under 33 ms at 1,000 compact).
func BenchmarkStageFrames(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			p := open(b, "?paused")
			var gaps []float64
			var played float64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				eval[string](p, `dsplay.reset()`)
				if msg := eval[string](p, fmt.Sprintf(`dsplay.addNodes("w", %d)`, n)); msg != "" {
					b.Fatal(msg)
				}
				eval[string](p, fmt.Sprintf(`dsplay.apply(%q)`, stageDS("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 10%}}", 2)))
				p.advance(30)
				p.waitJS(`!dsplay.stage().holding`, "the stage idle")
				eval[bool](p, `dsplay.play(), true`)
				played0 := eval[float64](p, `dsplay.stage().played`)
				b.StartTimer()
				gaps = evalAwait[[]float64](p, `new Promise(res => {
					dsplay.run("kubectl set image ds/agent main=busybox:1.37");
					const gaps = []; let last = performance.now();
					const f = (ts) => { gaps.push(ts - last); last = ts; if (gaps.length < 600) requestAnimationFrame(f); else res(gaps); };
					requestAnimationFrame(f);
				})`)
				b.StopTimer()
				played = eval[float64](p, `dsplay.stage().played`) - played0
				eval[bool](p, `dsplay.pause(), true`)
			}
			sort.Float64s(gaps)
			b.ReportMetric(gaps[len(gaps)/2], "p50-ms")
			b.ReportMetric(gaps[len(gaps)*95/100], "p95-ms")
			b.ReportMetric(gaps[len(gaps)-1], "max-ms")
			b.ReportMetric(played, "transitions")
		})
	}
}
