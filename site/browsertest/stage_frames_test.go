package browsertest

import (
	"fmt"
	"os"
	"sort"
	"testing"
)

// TestStageFrameGaps measures, in Chromium, the frame gaps while the stage
// plays a RollingUpdate at 100 nodes (node cards) and 1,000 (compact
// tiles), at 1×: the longest and the 95th percentile gap between
// animation frames, logged. A measurement, not a timed test: it runs with
// DSPLAY_STAGE_FRAMES=1 (go test ./site/browsertest -run StageFrameGaps -v).
func TestStageFrameGaps(t *testing.T) {
	if os.Getenv("DSPLAY_STAGE_FRAMES") == "" {
		t.Skip("a measurement: set DSPLAY_STAGE_FRAMES=1 to run it")
	}
	for _, n := range []int{100, 1000} {
		p := open(t, "?paused")
		eval[string](p, `dsplay.reset()`)
		if msg := eval[string](p, fmt.Sprintf(`dsplay.addNodes("w", %d)`, n)); msg != "" {
			t.Fatal(msg)
		}
		eval[string](p, fmt.Sprintf(`dsplay.apply(%q)`, stageDS("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 10%}}", 2)))
		p.advance(30)
		p.waitJS(`!dsplay.stage().holding`, "the stage idle")
		eval[bool](p, `dsplay.play(), true`)
		gaps := evalAwait[[]float64](p, `new Promise(res => {
			dsplay.run("kubectl set image ds/agent main=busybox:1.37");
			const gaps = []; let last = performance.now();
			const f = (ts) => { gaps.push(ts - last); last = ts; if (gaps.length < 600) requestAnimationFrame(f); else res(gaps); };
			requestAnimationFrame(f);
		})`)
		sort.Float64s(gaps)
		t.Logf("%d nodes: %d frames, p50 %.1f ms, p95 %.1f ms, max %.1f ms, %v transitions played", n, len(gaps), gaps[len(gaps)/2], gaps[len(gaps)*95/100], gaps[len(gaps)-1], eval[float64](p, `dsplay.stage().played`))
	}
}
