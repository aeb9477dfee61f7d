package browsertest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// measureLarge adds nodes to reach total, lets the default DaemonSet roll
// out on them, and returns the page's own figures (dsplay.stats) over a
// few steps of virtual time: the most a snapshot and a draw took; the wall
// time of adding the nodes and drawing them with the browser's layout
// (addMs); and the longest gap between animation frames while the clock
// plays (gapMs: Go work, style, layout and paint).
func measureLarge(p *page, total int) (snapMs, drawMs, addMs, gapMs float64) {
	p.t.Helper()
	r := eval[[]any](p, fmt.Sprintf(`(function(){ const t0 = performance.now(); const msg = dsplay.addNodes("w", %d); document.body.offsetHeight; return [msg, performance.now() - t0]; })()`, total-3))
	if r[0].(string) != "" {
		p.t.Fatalf("addNodes: %s", r[0])
	}
	addMs = r[1].(float64)
	for i := 0; i < 12; i++ {
		st := eval[map[string]float64](p, `(function(){ dsplay.advance(1); document.body.offsetHeight; return dsplay.stats(); })()`)
		snapMs = max(snapMs, st["snapshotMs"])
		drawMs = max(drawMs, st["drawMs"])
	}
	// Play: a DaemonSet update rolls over every node; record the longest
	// gap between animation frames.
	eval[string](p, `dsplay.run("kubectl rollout restart ds/fluentd-elasticsearch").stderr`)
	eval[bool](p, `(function(){ window.__gaps = []; let last = 0; const f = (ts) => { if (last) __gaps.push(ts - last); last = ts; if (__gaps.length < 40) requestAnimationFrame(f); }; requestAnimationFrame(f); dsplay.play(); return true; })()`)
	p.waitJS(`__gaps.length >= 40`, "40 frames")
	eval[bool](p, `(function(){ dsplay.pause(); return true; })()`)
	gapMs = eval[float64](p, `Math.max(...__gaps)`)
	p.t.Logf("gaps %v; Go stats %v", eval[[]float64](p, `__gaps.map(Math.round)`), eval[map[string]float64](p, `dsplay.stats()`))
	return
}

// Item 7: a large cluster is drawn as compact tiles, with a summary and a
// search box that opens one node's panel. The timings are logged (the
// project keeps speed out of pass/fail tests).
func TestLargeClusterTiles(t *testing.T) {
	sizes := []int{500, 2000, 5000}
	if s := os.Getenv("DSPLAY_LARGE"); s != "" {
		sizes = nil
		for _, f := range strings.Split(s, ",") {
			n, _ := strconv.Atoi(f)
			sizes = append(sizes, n)
		}
	}
	for _, total := range sizes {
		t.Run(strconv.Itoa(total), func(t *testing.T) {
			p := open(t, "?paused")
			p.viewport(1440, 900)
			snapMs, drawMs, addMs, gapMs := measureLarge(p, total)
			t.Logf("%d nodes: snapshotMs max %.1f, drawMs max %.1f; adding and first layout %.0f ms; longest frame gap while rolling out %.0f ms", total, snapMs, drawMs, addMs, gapMs)
			if n := eval[int](p, `document.querySelectorAll("#nodes .tile").length`); n != total {
				t.Errorf("%d tiles, want %d", n, total)
			}
			if n := eval[int](p, `document.querySelectorAll("#nodes .node").length`); n != 0 {
				t.Errorf("%d full node cards drawn at %d nodes", n, total)
			}
			sum := eval[string](p, `document.getElementById("node-summary").textContent`)
			if !strings.Contains(sum, strconv.Itoa(total)+" nodes") {
				t.Errorf("summary %q does not count %d nodes", sum, total)
			}
			// The search box finds a node and Enter opens its panel.
			eval[bool](p, `(function(){ const f = document.getElementById("node-filter"); f.value = "w-17"; f.dispatchEvent(new Event("input")); f.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter"})); return true; })()`)
			p.waitJS(`!document.getElementById("panel").hidden && document.getElementById("panel-title").textContent === "w-17"`, "the panel of w-17")
			if total == 5000 {
				p.screenshot("r2-5000-tiles")
			}
			p.checkConsole()
		})
	}
}
