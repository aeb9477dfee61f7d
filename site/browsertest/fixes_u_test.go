package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// Helper U: with a lesson or an exercise open in the wide layout, a small
// cluster (the default three nodes, exercise 05's four) shows all its node
// cards whole without scrolling, as the page without a lesson does
// (TestP1DefaultCardsVisible).

// uCardsHidden is a JS expression: with the cluster pane, the node area
// and the page scrolled to the top, every node card that is not whole
// inside the node area, the cluster pane and the window, or that runs
// under the timeline strip; [] when all show.
const uCardsHidden = `(function(){ ` + rectJS + `
	document.querySelector(".cluster-pane").scrollTop = 0; document.getElementById("nodes").scrollTop = 0; scrollTo(0, 0);
	const out = [];
	const tl = rect(document.getElementById("timeline")), pane = rect(document.querySelector(".cluster-pane")), area = rect(document.getElementById("nodes"));
	for (const c of document.querySelectorAll("#nodes .node")) {
		const r = rect(c), n = c.dataset.node;
		if (r.bottom > tl.top + 0.5 && r.top < tl.bottom) out.push(n + " " + r.top + ".." + r.bottom + " is under the timeline strip " + tl.top + ".." + tl.bottom);
		if (r.top < area.top - 0.5 || r.bottom > area.bottom + 0.5 || r.bottom > pane.bottom + 0.5 || r.bottom > innerHeight) out.push(n + " " + r.top + ".." + r.bottom + " is not whole in the node area " + area.top + ".." + area.bottom + " / pane " + pane.top + ".." + pane.bottom);
	}
	return out;
})()`

func TestUSmallClusterCardsWithPanel(t *testing.T) {
	for _, tc := range []struct {
		query string
		nodes int
		steps int
	}{
		{"lesson=03-taints-and-tolerations", 3, 2},
		{"exercise=05-one-node-at-a-time", 4, 0},
	} {
		p := open(t, "?paused&"+tc.query)
		p.viewport(1280, 720)
		p.waitJS(`!document.getElementById("lesson").hidden`, "the panel")
		for i := 0; i < tc.steps; i++ {
			p.click(`#lesson-nav button[data-act=next]`)
			p.waitJS(`!dsplay.lessonState().busy`, "the step")
		}
		p.waitJS(fmt.Sprintf(`document.querySelectorAll("#nodes .node[data-node]").length === %d`, tc.nodes), "the node cards")
		name := strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(tc.query, "lesson="), "exercise="), "-", 2)[0]
		for _, v := range [][2]int64{{1440, 900}} { // 1280x720: the console keeps the room (style.css)
			p.viewport(v[0], v[1])
			p.frames(3)
			if bad := eval[[]string](p, uCardsHidden); len(bad) > 0 {
				t.Errorf("%s at %dx%d: %s", tc.query, v[0], v[1], strings.Join(bad, "; "))
			}
			p.screenshot(fmt.Sprintf("u-%s-%s-%dx%d", strings.SplitN(tc.query, "=", 2)[0], name, v[0], v[1]))
		}
		// a phone keeps its one-column layout (the page scrolls)
		p.viewport(390, 844)
		p.frames(3)
		p.screenshot(fmt.Sprintf("u-%s-%s-390x844", strings.SplitN(tc.query, "=", 2)[0], name))
	}
}
