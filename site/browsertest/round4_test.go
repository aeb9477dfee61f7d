package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// Tester round 4, item 5: the compare view of a large cluster (over 300
// nodes, as the main view) draws compact tiles, not node cards, in natural
// order (w-1, w-2, ... w-10); the build time of the view is logged (speed
// is kept out of pass/fail).
func TestCompareLargeClusterTiles(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1440, 900)
	if msg := eval[string](p, `dsplay.addNodes("w", 1000)`); msg != "" {
		t.Fatalf("addNodes: %s", msg)
	}
	p.advance(30)
	ms := eval[float64](p, `(function(){ const t0 = performance.now(); const msg = dsplay.compare(""); if (msg) throw new Error(msg); document.body.offsetHeight; return performance.now() - t0; })()`)
	t.Logf("compare view of 1,002 nodes: built and laid out in %.0f ms", ms)
	p.mu.Lock()
	for _, m := range p.console {
		if strings.Contains(m.Text, "compare: built") {
			t.Logf("page: %s", m.Text)
		}
	}
	p.mu.Unlock()
	for _, side := range []string{"RollingUpdate", "OnDelete"} {
		sel := fmt.Sprintf(`.cmp-side[data-side=%q]`, side)
		if n := eval[int](p, `document.querySelectorAll('`+sel+` .cmp-node').length`); n != 0 {
			t.Errorf("%s: %d node cards drawn at 1,002 nodes, want compact tiles", side, n)
		}
		if n := eval[int](p, `document.querySelectorAll('`+sel+` .tile').length`); n != 1002 {
			t.Errorf("%s: %d tiles, want 1002 (every node runs the DaemonSet)", side, n)
		}
		order := eval[[]string](p, `[...document.querySelectorAll('`+sel+` .tile')].slice(0, 14).map(e => e.dataset.node)`)
		want := "node-1 node-2 w-1 w-2 w-3 w-4 w-5 w-6 w-7 w-8 w-9 w-10 w-11 w-12"
		if got := strings.Join(order, " "); got != want {
			t.Errorf("%s: tiles in order %q, want %q", side, got, want)
		}
		if bad := eval[[]string](p, `[...document.querySelectorAll('`+sel+` .tile')].filter(e => !e.dataset.pod || !e.title.includes(e.dataset.node) || !/\brv\d/.test(e.className)).slice(0, 3).map(e => e.outerHTML)`); len(bad) > 0 {
			t.Errorf("%s: tiles without pod, title or revision colour: %v", side, bad)
		}
	}
	// a tile selects its pod: Delete pod acts on it
	name := eval[string](p, `(function(){ const c = document.querySelector('.cmp-side[data-side="OnDelete"] .tile[data-node="w-7"]'); c.click(); return c.dataset.pod; })()`)
	p.waitJS(`!document.querySelector('.cmp-side[data-side="OnDelete"] .cmp-act').hidden`, "the Delete pod button")
	if lbl := eval[string](p, `document.querySelector('.cmp-side[data-side="OnDelete"] .cmp-del').textContent`); lbl != "Delete pod "+name {
		t.Errorf("delete button %q, want Delete pod %s", lbl, name)
	}
	p.screenshot("compare-1000-tiles")
	eval[any](p, `dsplay.compareExit()`)
	p.checkConsole()
}

// Tester round 4, item 2: scrubbing back redraws the node cards from the
// sought step at once: right after seekStep (and a frame later) the cards
// hold exactly the bound pods dsplay.pods() returns, no later (r2) pod
// fading out above them.
func TestSeekRedrawsAtOnce(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.runKubectl("kubectl set image ds/fluentd-elasticsearch fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0")
	p.advance(60)
	p.frames(2)
	if n := eval[int](p, `document.querySelectorAll('#nodes .pod[data-rev="2"]').length`); n == 0 {
		t.Fatal("no r2 pod after the rollout")
	}
	change := eval[int](p, `dsplay.steps().findIndex(s => s.label.includes("set image"))`)
	if change < 1 {
		t.Fatalf("no set image step in %v", eval[any](p, `dsplay.steps().map(s => s.label)`))
	}
	const cmp = `(function(){
		const want = dsplay.pods().filter(p => p.node !== "").map(p => p.node + "/" + p.name).sort().join(" ");
		const got = [...document.querySelectorAll("#nodes .node .pod")].map(c => c.closest(".node").dataset.node + "/" + c.dataset.pod).sort().join(" ");
		return [got, want];
	})()`
	r := eval[[]string](p, fmt.Sprintf(`(function(){ const msg = dsplay.seekStep(%d); if (msg) throw new Error(msg); return %s; })()`, change-1, cmp))
	if r[0] != r[1] {
		t.Errorf("right after seekStep the cards show\n  %s\nwant dsplay.pods()\n  %s", r[0], r[1])
	}
	if eval[int](p, `document.querySelectorAll('#nodes .pod[data-rev="2"]').length`) != 0 {
		t.Error("an r2 chip is still on a card at a step before the set image")
	}
	p.frames(1)
	if r := eval[[]string](p, cmp); r[0] != r[1] {
		t.Errorf("a frame after seekStep the cards show\n  %s\nwant\n  %s", r[0], r[1])
	}
	p.checkConsole()
}

// Tester round 4, item 6: viewing the past pauses the clock; Back to live
// and leaving the compare view give the learner's play state back.
func TestPlayStateSurvivesPastAndCompare(t *testing.T) {
	p := open(t, "?paused")
	playing := func() bool {
		return eval[string](p, `document.getElementById("play").getAttribute("aria-pressed")`) == "true"
	}
	eval[bool](p, `(function(){ const s = document.getElementById("speed"); s.value = "10"; s.dispatchEvent(new Event("change")); dsplay.play(); return true; })()`)
	p.waitJS(`dsplay.elapsed() > 3`, "the clock to play")
	if msg := eval[string](p, `dsplay.seekStep(1)`); msg != "" {
		t.Fatal(msg)
	}
	if playing() {
		t.Error("the clock plays while the past is shown")
	}
	eval[any](p, `dsplay.live()`)
	if !playing() {
		t.Error("Back to live left the clock paused; it played before")
	}
	// the bar's Back to live button too
	eval[string](p, `dsplay.seekStep(1)`)
	eval[bool](p, `(document.getElementById("tl-back").click(), true)`)
	if !playing() {
		t.Error("the Back to live button left the clock paused")
	}
	if msg := eval[string](p, `dsplay.compare("")`); msg != "" {
		t.Fatal(msg)
	}
	eval[any](p, `dsplay.pause()`) // paused inside the comparison
	eval[any](p, `dsplay.compareExit()`)
	if !playing() {
		t.Error("leaving the compare view left the clock paused; it played before")
	}
	// paused before: stays paused after the past and the comparison
	eval[any](p, `dsplay.pause()`)
	eval[string](p, `dsplay.seekStep(1)`)
	eval[any](p, `dsplay.live()`)
	eval[string](p, `dsplay.compare("")`)
	eval[any](p, `dsplay.play()`)
	eval[any](p, `dsplay.compareExit()`)
	if playing() {
		t.Error("the clock plays after the past and the comparison; it was paused")
	}
	if sp := eval[string](p, `document.getElementById("speed").value`); sp != "10" {
		t.Errorf("speed %q after, want 10", sp)
	}
	p.checkConsole()
}

// Tester round 4, item 7: frames of 1.7 s at 10x (a large cluster's stalls)
// show the lag note: a long frame is lag, not a background tab.
func TestLongFramesShowLag(t *testing.T) {
	p := open(t, "?paused")
	eval[bool](p, `(function(){ const s = document.getElementById("speed"); s.value = "10"; s.dispatchEvent(new Event("change")); dsplay.play(); return true; })()`)
	p.waitJS(`dsplay.elapsed() > 2 && !dsplay.lagging()`, "the clock to play without lag")
	eval[any](p, `dsplay.slowFramesForTest(1700)`)
	p.waitJS(`dsplay.lagging() && !document.getElementById("lag").hidden`, "the lag note with 1.7 s frames")
	eval[any](p, `dsplay.slowFramesForTest(0)`)
	p.waitJS(`!dsplay.lagging()`, "the lag note to go once frames are fast")
	// a hidden-and-shown page starts the measurement over (no note from the pause)
	eval[bool](p, `(document.dispatchEvent(new Event("visibilitychange")), true)`)
	p.frames(3)
	if eval[bool](p, `dsplay.lagging()`) {
		t.Error("lag note after a visibility change")
	}
	eval[any](p, `dsplay.pause()`)
	p.checkConsole()
}

// Tester round 4, item 4: the result box under the editor shows every line
// of a failed kubectl edit (the per-field reason too) in a short window.
func TestEditErrorResultReadable(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1440, 757)
	p.advance(10)
	p.runKubectl("kubectl edit ds " + fluentd)
	p.waitJS(`!document.getElementById("edit-bar").hidden`, "the edit bar")
	eval[bool](p, `(function(){ const ta = document.getElementById("yaml"); ta.value = ta.value.replace(/terminationGracePeriodSeconds:/, 'terminationGracePeriodSecond:'); return true; })()`)
	eval[bool](p, `(document.getElementById("edit-apply").click(), true)`)
	p.waitJS(`document.getElementById("yaml").value.includes("was not valid")`, "the editor to reopen with the errors")
	p.frames(2)
	res := eval[string](p, `document.getElementById("apply-result").innerText`)
	if !strings.Contains(res, "terminationGracePeriodSecond") {
		t.Fatalf("the result does not name the field: %q", res)
	}
	// every line is inside the box's visible area (or the box, grown to its
	// cap, scrolls to it)
	hidden := eval[[]string](p, `(function(){
		const box = document.getElementById("apply-result"), b = box.getBoundingClientRect(), out = [];
		// it may scroll only once it is as high as it may grow (the lesser
		// of 40% of the pane and 260 px)
		const cap = Math.min(0.4 * box.parentElement.clientHeight, 260);
		const scrolls = box.scrollHeight > box.clientHeight + 1 && getComputedStyle(box).overflowY === "auto" && b.height >= cap - 2;
		const w = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
		for (let n; (n = w.nextNode()); ) {
			if (!n.textContent.trim()) continue;
			const r = document.createRange(); r.selectNodeContents(n);
			for (const q of r.getClientRects()) {
				const inside = q.top >= b.top - 0.5 && q.bottom <= b.bottom + 0.5;
				if (!inside && !scrolls) out.push(n.textContent.trim());
			}
		}
		if (b.bottom > innerHeight + 0.5) out.push("the box ends below the window at " + b.bottom);
		return out;
	})()`)
	if len(hidden) > 0 {
		t.Errorf("lines of the result that cannot be read: %q", hidden)
	}
	if h := eval[float64](p, `document.getElementById("apply-result").clientHeight`); h < 50 {
		t.Errorf("the result box is %g px high", h)
	}
	p.screenshot("edit-error-result-1440x757")
	eval[bool](p, `(document.getElementById("edit-cancel").click(), true)`)
	p.checkConsole()
}

// tlVisible is a JS expression: what of the timeline strip cannot be seen
// without scrolling (the cluster pane scrolled to its top): its slider, and
// while the past is shown its label and decisions; [] when all shows.
const tlVisible = `(function(){
	const pane = document.querySelector(".cluster-pane"); pane.scrollTop = 0; scrollTo(0, 0);
	const pb = pane.getBoundingClientRect(), out = [];
	const ids = ["tl-range", "tl-prev", "tl-live"];
	if (document.getElementById("timeline").dataset.past === "true") ids.push("tl-label", "tl-decisions");
	for (const id of ids) {
		const e = document.getElementById(id), r = e.getBoundingClientRect();
		if (r.height === 0) { out.push(id + " has no height"); continue; }
		if (r.top < pb.top - 0.5 || r.bottom > pb.bottom + 0.5 || r.bottom > innerHeight + 0.5)
			out.push(id + " at " + Math.round(r.top) + ".." + Math.round(r.bottom) + " outside the pane " + Math.round(pb.top) + ".." + Math.round(pb.bottom) + " or the window " + innerHeight);
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
		if (!hit || !document.getElementById("timeline").contains(hit))
			out.push(id + " is covered by " + (hit ? hit.className || hit.tagName : "nothing"));
	}
	return out;
})()`

// Tester round 4, item 3: the timeline's slider row can always be seen
// without scrolling the cluster pane, with one or two DaemonSets, and when
// the past is shown its label and decisions show too.
func TestTimelineAlwaysVisible(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	check := func(what string) {
		t.Helper()
		for _, vp := range [][2]int64{{1440, 757}, {1440, 900}, {1280, 720}} {
			p.viewport(vp[0], vp[1])
			if bad := eval[[]string](p, tlVisible); len(bad) > 0 {
				t.Errorf("%s at %dx%d: %s", what, vp[0], vp[1], strings.Join(bad, "; "))
			}
		}
	}
	check("one DaemonSet")
	p.apply(dsDoc("default", "alpha", ""))
	p.runKubectl("kubectl set image ds/fluentd-elasticsearch fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0")
	p.advance(2)
	check("two DaemonSets during a rollout")
	if msg := eval[string](p, `dsplay.seekStep(3)`); msg != "" {
		t.Fatal(msg)
	}
	p.frames(2)
	check("the past shown")
	p.viewport(1440, 900)
	p.screenshot("timeline-past-1440x900")
	eval[any](p, `dsplay.live()`)
	p.checkConsole()
}
