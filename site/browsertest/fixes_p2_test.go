package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// Helper P2 (a newcomer's trial, second round): each test names the item
// of the report it covers.

// p2PanelJS measures the lesson panel: the body's box and whether it
// scrolls, the nav's box, and the lowest visible text of the body.
const p2PanelJS = `(function(){ ` + rectJS + `
	const body = document.getElementById("lesson-body"), nav = document.getElementById("lesson-nav");
	const b = rect(body), n = rect(nav);
	return {bodyTop: b.top, bodyBottom: b.bottom, bodyH: b.height, navTop: n.top, navBottom: n.bottom,
		scrollH: body.scrollHeight, clientH: body.clientHeight, overflowY: getComputedStyle(body).overflowY, winH: innerHeight};
})()`

// P2 item 1: a lesson embed on a phone (358x420): the lesson text scrolls
// inside its box, which has room, and never runs under the buttons.
func TestP2LessonEmbedPhone(t *testing.T) {
	p := open(t, "?embed&paused&start=auto&panes=cluster,console&lesson=03-taints-and-tolerations")
	for _, v := range [][2]int64{{358, 420}, {390, 420}} {
		p.viewport(v[0], v[1])
		p.waitJS(`!document.getElementById("lesson").hidden`, "the lesson panel")
		p.frames(3)
		m := eval[map[string]any](p, p2PanelJS)
		p.screenshot(fmt.Sprintf("p2-lesson-embed-%dx%d", v[0], v[1]))
		num := func(k string) float64 { f, _ := m[k].(float64); return f }
		if num("bodyBottom") > num("navTop")+0.5 {
			t.Errorf("%dx%d: the lesson text (to %g) runs under the buttons (from %g): %v", v[0], v[1], num("bodyBottom"), num("navTop"), m)
		}
		if num("navBottom") > num("winH")+0.5 {
			t.Errorf("%dx%d: the buttons end at %g, below the frame %g", v[0], v[1], num("navBottom"), num("winH"))
		}
		if num("bodyH") < 72 {
			t.Errorf("%dx%d: the lesson text area is %g px high", v[0], v[1], num("bodyH"))
		}
		if num("scrollH") > num("clientH")+1 && m["overflowY"] != "auto" && m["overflowY"] != "scroll" {
			t.Errorf("%dx%d: %g px of text in a %g px box that does not scroll (overflow-y %v)", v[0], v[1], num("scrollH"), num("clientH"), m["overflowY"])
		}
	}
}

// P2 item 2: the same embed at 1264x420: the panel is a column of its own
// width and the cluster shows the three default nodes beside it.
func TestP2LessonEmbedWide(t *testing.T) {
	p := open(t, "?embed&paused&start=auto&panes=cluster,console&lesson=03-taints-and-tolerations")
	p.viewport(1264, 420)
	p.waitJS(`!document.getElementById("lesson").hidden && document.querySelectorAll(".node[data-node]").length === 3`, "the panel and three nodes")
	p.frames(3)
	p.screenshot("p2-lesson-embed-1264x420")
	bad := eval[string](p, `(function(){ `+rectJS+`
		const out = [], l = rect(document.getElementById("lesson")), c = rect(document.querySelector(".cluster-pane"));
		if (l.right - l.left > 400) out.push("the panel is " + (l.right - l.left) + " px wide");
		if (c.right - c.left < 500) out.push("the cluster pane is " + (c.right - c.left) + " px wide");
		for (const n of document.querySelectorAll(".node[data-node]")) {
			const r = rect(n);
			if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top > c.bottom - 40) out.push(n.dataset.node + " is not visible in the cluster pane");
		}
		return out.join("; ");
	})()`)
	if bad != "" {
		t.Error(bad)
	}
}

// P2 item 3: at 1280x720 the panel shows a typical step whole: lesson 03
// step 2's explanation and commands, exercise 05's task and goal checks,
// with no scrolling inside the panel; the node cards keep their room.
func TestP2PanelFitsLaptop(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	p.click("#lessons-open")
	p.waitJS(`document.getElementById("lessons").open`, "the gallery")
	p.click(`#lessons-list button[data-open="03-taints-and-tolerations"]`)
	p.waitJS(`!document.getElementById("lesson").hidden`, "the panel")
	for i := 0; i < 2; i++ {
		p.click(`#lesson-nav button[data-act=next]`)
		p.waitJS(`!dsplay.lessonState().busy`, "the step")
	}
	if s := p.lessonState(); s.Step != 2 {
		t.Fatalf("at step %d, want 2", s.Step)
	}
	check := func(what, last string) {
		p.frames(3)
		m := eval[map[string]any](p, p2PanelJS)
		num := func(k string) float64 { f, _ := m[k].(float64); return f }
		if num("scrollH") > num("clientH")+1 {
			t.Errorf("%s: the panel's text is %g px in a %g px box: it must be scrolled", what, num("scrollH"), num("clientH"))
		}
		vis := eval[bool](p, fmt.Sprintf(`(function(){ const e = [...document.querySelectorAll(%q)].at(-1); if (!e) return false; const r = e.getBoundingClientRect(), b = document.getElementById("lesson-body").getBoundingClientRect(); return r.height > 0 && r.bottom <= b.bottom + 1 && r.bottom <= innerHeight; })()`, last))
		if !vis {
			t.Errorf("%s: %s is not visible in the panel", what, last)
		}
		// the first row of cards (the layout tests check the rest)
		cards := eval[string](p, `(function(){ const c = document.querySelector(".cluster-pane").getBoundingClientRect(); return [...document.querySelectorAll(".node[data-node]")].slice(0, 2).filter(n => { const r = n.getBoundingClientRect(); return r.top < c.top || r.top + 60 > Math.min(c.bottom, innerHeight); }).map(n => n.dataset.node).join(" "); })()`)
		if cards != "" {
			t.Errorf("%s: node cards without room: %s", what, cards)
		}
	}
	check("lesson 03 step 2", "#lesson-body .lesson-cmds")
	p.screenshot("p2-lesson03-step2-1280x720")
	p.openExerciseFromGallery("05-one-node-at-a-time")
	check("exercise 05", "#lesson-body .ex-checks li")
	p.screenshot("p2-exercise05-1280x720")
}

// P2 item 4: every console block is at least as tall as its copy button,
// so the buttons of one-line blocks never overlap.
func TestP2ConsoleCopyButtonsApart(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	for _, l := range []string{"# one", "# two", "kubectl label node node-1 p2=yes", "kubectl get pods -l nothing=here", "kubectl label node node-1 p2-", "clear-not-a-command"} {
		p.runKubectl(l)
	}
	bad := eval[string](p, `(function(){
		const bs = [...document.querySelectorAll("#kout .entry .copy")].map(b => b.getBoundingClientRect());
		const out = [];
		for (let i = 1; i < bs.length; i++) if (bs[i].top < bs[i-1].bottom - 0.5) out.push("buttons " + (i-1) + " and " + i + " overlap: " + bs[i-1].bottom + " > " + bs[i].top);
		for (const e of document.querySelectorAll("#kout .entry")) { const b = e.querySelector(".copy"); if (b && e.getBoundingClientRect().height < b.getBoundingClientRect().height - 0.5) out.push("an entry of " + e.getBoundingClientRect().height + " px under a " + b.getBoundingClientRect().height + " px button"); }
		return bs.length < 6 ? "only " + bs.length + " copy buttons" : out.join("; ");
	})()`)
	if bad != "" {
		t.Error(bad)
	}
}

// P2 item 5: after a NoSchedule taint under a running daemon pod, the node
// card says the pod would not run there now but is kept, and that the
// DaemonSet's status counts it at its next sync (the table still says 0);
// once a sync counts it, the card says misscheduled.
func TestP2KeptPodCardLine(t *testing.T) {
	p := open(t, "?paused")
	p.advance(15)
	p.runKubectl("kubectl taint nodes node-1 maintenance=soon:NoSchedule")
	p.advance(5)
	misschedCell := `document.querySelector('#ds-rows tr[data-ds="fluentd-elasticsearch"] td:last-child').textContent`
	if got := eval[string](p, misschedCell); got != "0" {
		t.Fatalf("misscheduled = %s before a sync, want 0", got)
	}
	line := `[...document.querySelectorAll('.node[data-node="node-1"] .why li')].map(l => l.textContent).join("\n")`
	p.waitJS(`document.querySelector('.node[data-node="node-1"] .why li.missched') !== null`, "node-1's line")
	got := eval[string](p, line)
	for _, want := range []string{"fluentd-elasticsearch would not run here now (taint maintenance=soon:NoSchedule is not tolerated)", "the pod is kept (NoSchedule)", "status counts it at its next sync"} {
		if !strings.Contains(got, want) {
			t.Errorf("node-1's card says %q, want it to say %q", got, want)
		}
	}
	p.screenshot("p2-kept-line")
	// a NoExecute taint elsewhere syncs the DaemonSet: the status counts it
	p.runKubectl("kubectl taint nodes node-2 dedicated=db:NoExecute")
	p.advance(5)
	p.waitJS(misschedCell+` === "1"`, "misscheduled = 1 after a sync")
	p.frames(2)
	got = eval[string](p, line)
	if !strings.Contains(got, "fluentd-elasticsearch pod misscheduled: taint maintenance=soon:NoSchedule is not tolerated") || strings.Contains(got, "next sync") {
		t.Errorf("after the sync node-1's card says %q", got)
	}
}

// P2 item 6: exercise 08's hints lead from the history to the good
// revision: --revision=N to read one, --to-revision=N to go back to it.
func TestP2Exercise08Hints(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	p.forgetProgress()
	p.openExerciseFromGallery("08-undo-broken-rollout")
	for eval[bool](p, `!!document.querySelector("#lesson-body button[data-act=hint]")`) {
		p.click("#lesson-body button[data-act=hint]")
	}
	hints := eval[string](p, `[...document.querySelectorAll("#lesson-body .ex-hints li")].map(l => l.textContent).join("\n")`)
	for _, want := range []string{"kubectl rollout history ds/ds-demo --revision=N", "kubectl rollout undo ds/ds-demo --to-revision=N"} {
		if !strings.Contains(hints, want) {
			t.Errorf("the hints do not mention %q:\n%s", want, hints)
		}
	}
	if i, j := strings.Index(hints, "kubectl get pods"), strings.Index(hints, "--to-revision"); i < 0 || j < i {
		t.Errorf("the hints do not go from gentle to explicit:\n%s", hints)
	}
}
