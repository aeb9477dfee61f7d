package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// underTimeline is a JS expression: every node card, the legend and the
// "Not scheduled" row whose visible part (its box cut by the boxes that
// clip it) overlaps the timeline strip; [] when nothing is covered. Each
// is checked scrolled into view and at the top of every scroller.
const underTimeline = `(function(){
	const tl = document.getElementById("timeline").getBoundingClientRect(), out = [];
	const shown = (e) => {
		const r = e.getBoundingClientRect();
		let top = r.top, bottom = r.bottom, left = r.left, right = r.right;
		for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
			const s = getComputedStyle(a);
			if (s.overflowX === "visible" && s.overflowY === "visible") continue;
			const b = a.getBoundingClientRect();
			top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom); left = Math.max(left, b.left); right = Math.min(right, b.right);
		}
		return {top, bottom, left, right};
	};
	const items = [...document.querySelectorAll("#nodes .node"), document.querySelector(".legend"), document.getElementById("pending")].filter(e => e && e.getClientRects().length);
	const check = (when) => {
		for (const e of items) {
			const v = shown(e);
			if (v.bottom - v.top < 1 || v.right - v.left < 1) continue;
			if (v.top < tl.bottom - 0.5 && v.bottom > tl.top + 0.5 && v.left < tl.right && v.right > tl.left)
				out.push((e.dataset.node || e.id || e.className) + " " + Math.round(v.top) + ".." + Math.round(v.bottom) + " under the timeline " + Math.round(tl.top) + ".." + Math.round(tl.bottom) + " (" + when + ")");
		}
	};
	for (const s of document.querySelectorAll(".cluster-pane, .cluster-body, #nodes")) s.scrollTop = 0;
	check("scrolled to the top");
	for (const e of items) { e.scrollIntoView({block: "nearest"}); check((e.dataset.node || e.id || e.className) + " scrolled into view"); }
	for (const s of document.querySelectorAll(".cluster-pane, .cluster-body, #nodes")) s.scrollTop = 0;
	return out;
})()`

const pendingPod = `---
apiVersion: v1
kind: Pod
metadata:
  name: nowhere
spec:
  nodeSelector:
    disk: none-has-it
  containers:
  - name: main
    image: busybox:1.36
    command: ["sleep", "infinity"]
`

// The timeline strip covers no node card, the legend or the "Not
// scheduled" row: at 1280x720 with the default cluster, at 1440x900 with
// two DaemonSets (and a pending pod); the timeline stays in view. On a
// phone the cluster comes before the editor.
func TestTimelineCoversNothing(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	check := func(w, h int64, what string) {
		t.Helper()
		p.viewport(w, h)
		p.frames(2)
		if bad := eval[[]string](p, underTimeline); len(bad) > 0 {
			t.Errorf("%dx%d, %s: %s", w, h, what, strings.Join(bad, "; "))
		}
		if bad := eval[[]string](p, tlVisible); len(bad) > 0 {
			t.Errorf("%dx%d, %s: the timeline: %s", w, h, what, strings.Join(bad, "; "))
		}
		p.screenshot(fmt.Sprintf("timeline-covers-nothing-%dx%d-%s", w, h, strings.ReplaceAll(what, " ", "-")))
	}
	check(1280, 720, "default")
	check(1440, 900, "default")
	p.apply(dsDoc("default", "alpha", "") + pendingPod)
	p.advance(10)
	p.waitJS(`!document.getElementById("pending").hidden`, "the Not scheduled row")
	check(1440, 900, "two DaemonSets")
	check(1280, 720, "two DaemonSets")

	p.viewport(390, 844)
	p.frames(2)
	order := eval[[]float64](p, `(function(){ scrollTo(0, 0); return [document.querySelector(".cluster-pane").getBoundingClientRect().top, document.querySelector(".editor-pane").getBoundingClientRect().top, innerHeight]; })()`)
	if order[0] > order[1] || order[0] > order[2]/2 {
		t.Errorf("390x844: the cluster starts at %g px, the editor at %g: the cluster should come first, on the first screen", order[0], order[1])
	}
	p.checkConsole()
}
