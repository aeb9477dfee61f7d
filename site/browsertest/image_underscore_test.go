package browsertest

import (
	"strings"
	"testing"
)

// underscoresCut is a JS expression: every text with an underscore in the
// pod chips and the DaemonSet table whose underscore's ink (measured on a
// canvas in the text's font) falls below the bottom of a box that clips
// it while the text's own box is inside that box (a chip scrolled partly
// out of view does not count).
const underscoresCut = `(function(){
	const ctx = document.createElement("canvas").getContext("2d");
	const out = [];
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const host = n.parentElement;
		if (!n.textContent.includes("_") || !host.closest(".pod, #ds-rows") || !host.getClientRects().length) continue;
		const cs = getComputedStyle(host);
		ctx.font = cs.fontStyle + " " + cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily;
		const m = ctx.measureText("_");
		const rg = document.createRange(); rg.selectNodeContents(n);
		const r = rg.getClientRects()[0];
		if (!r) continue;
		// the range's box is the font's ascent and descent around the baseline
		const baseline = r.bottom - m.fontBoundingBoxDescent;
		const ink = baseline + m.actualBoundingBoxDescent;
		for (let e = host; e && e !== document.body; e = e.parentElement) {
			const s = getComputedStyle(e);
			if (s.overflowY === "visible" && s.overflowX === "visible") continue;
			const b = e.getBoundingClientRect();
			// the text's box inside the clip, its ink below it (not a box scrolled partly out of view)
			if (r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5 && ink > b.bottom + 0.25) {
				out.push(JSON.stringify(n.textContent) + " in " + host.className + ": the underscore ends at " + ink.toFixed(1) + ", below " + (e.className || e.id || e.tagName) + "'s bottom " + b.bottom.toFixed(1));
				break;
			}
			if (e.matches(".pod, #ds-rows")) break;
		}
	}
	return out;
})()`

// An image name with underscores keeps them whole in the pod chips and
// the DaemonSet table.
func TestImageUnderscoresShow(t *testing.T) {
	p := open(t, "?paused")
	p.apply(strings.Replace(dsDoc("default", "under", ""), "busybox:1.36", "registry.k8s.io/my_image:v1", 1))
	p.advance(10)
	p.waitJS(`document.querySelectorAll('.pod:not(.gone)[data-owner="under"]').length === 2`, "the pods of under")
	for _, v := range [][2]int64{{1280, 720}, {1440, 900}, {390, 844}} {
		p.viewport(v[0], v[1])
		p.frames(2)
		if bad := eval[[]string](p, underscoresCut); len(bad) > 0 {
			t.Errorf("%dx%d: %s", v[0], v[1], strings.Join(bad, "\n"))
		}
	}
	p.viewport(1280, 720)
	p.screenshot("image-underscores")
	p.checkConsole()
}
