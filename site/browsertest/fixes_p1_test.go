package browsertest

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
)

// Helper P1 (page fixes after a newcomer's trial): each test names the
// item of the report it covers.

// P1 item 3: a lesson embed that starts does not take the focus from the
// tutorial around it, so the parent page does not scroll to the frame.
func TestP1EmbedLessonKeepsParentScroll(t *testing.T) {
	srv := serveHTML(t, func(*http.Request) string {
		return fmt.Sprintf(parentHTML, iframe(embedURL("paused&start=auto&lesson=03-taints-and-tolerations&origin=*"), 700, 420)+
			`<div class="spacer"></div><p id="reading">the reader is here</p><div class="spacer"></div>`, baseURL)
	})
	p := openParent(t, srv.URL)
	p.waitJS(`document.readyState === "complete"`, "the parent page")
	eval[bool](p, `(scrollTo(0, 2000), true)`)
	p.waitJS(`events(0, "dsplay:ready").length > 0`, "the embed to be ready")
	p.frames(10)
	if y := eval[float64](p, `scrollY`); y != 2000 {
		t.Errorf("the lesson embed scrolled the tutorial from 2000 to %g", y)
	}
	if f := eval[string](p, `document.activeElement.tagName`); f != "BODY" {
		t.Errorf("the tutorial's focus went to %s", f)
	}
}

// P1 item 4: dsplay:resize reports the height the content needs: more
// than the frame when a pane overflows, and a frame of that height shows
// the panes without overflow.
func TestP1EmbedResizeReportsOverflow(t *testing.T) {
	srv := serveHTML(t, func(*http.Request) string {
		return fmt.Sprintf(parentHTML, iframe(embedURL("paused&start=auto&origin="+url.QueryEscape("*")), 600, 400), baseURL)
	})
	p := openParent(t, srv.URL)
	p.waitJS(`events(0, "dsplay:ready").length > 0 && events(0, "dsplay:resize").length > 0`, "the embed to be ready and report its size")
	first := eval[float64](p, `events(0, "dsplay:resize").at(-1).height`)
	var nodes strings.Builder
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&nodes, "apiVersion: v1\nkind: Node\nmetadata:\n  name: extra-%d\n---\n", i)
	}
	eval[bool](p, fmt.Sprintf(`(send(0, {type: "dsplay:apply", id: "nodes", yaml: %q}), true)`, nodes.String()))
	replyOf[map[string]any](p, "nodes")
	eval[bool](p, `(send(0, {type: "dsplay:step", id: "step", seconds: 10}), true)`)
	replyOf[map[string]any](p, "step")
	// nine node cards need more than three did
	p.waitJS(fmt.Sprintf(`events(0, "dsplay:resize").at(-1).height > Math.max(%g, 500)`, first), "a dsplay:resize asking for more room for the new nodes")
	p.frames(30) // (measured at most every 0.3 s)
	h := eval[float64](p, `events(0, "dsplay:resize").at(-1).height`)
	eval[bool](p, fmt.Sprintf(`(document.querySelector("iframe").height = %g, true)`, h))
	p.waitJS(fmt.Sprintf(`events(0, "dsplay:resize").at(-1).height === %g && events(0, "dsplay:resize").at(-1).height > 400`, h), "the frame at the reported height to report it again")
	p.screenshot("p1-embed-resized")
	// the same embed in a window of that size: no pane hides anything
	q := open(t, "?embed&paused")
	if msg := eval[string](q, fmt.Sprintf(`dsplay.apply(%q)`, nodes.String())); msg != "" {
		t.Fatal(msg)
	}
	q.advance(10)
	q.viewport(600, int64(h))
	q.frames(3)
	over := eval[[]string](q, `(function(){
		const out = [];
		for (const e of document.querySelectorAll(".layout .pane, .layout .pane .nodes, .layout .pane .rollout")) {
			if (!e.offsetParent) continue;
			if (e.scrollHeight > e.clientHeight + 1) out.push(e.className + " " + e.scrollHeight + ">" + e.clientHeight);
		}
		return out;
	})()`)
	if len(over) > 0 {
		t.Errorf("at the reported height %g the panes still overflow: %v", h, over)
	}
}

// rectOf is a JS function source: an element's rounded top..bottom.
const rectJS = `const rect = (e) => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height}; };`

// P1 item 1: with an exercise panel open, a kubectl edit whose text no
// longer parses shows kubectl's error in the result line, inside the
// editor pane and the window (the editor gives way), at 1280x720, 1440x900
// and on a phone.
func TestP1EditResultVisibleWithPanel(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	p.openExerciseFromGallery("01-control-plane-too")
	p.advance(5)
	p.runKubectl("kubectl edit ds fluentd-elasticsearch")
	p.waitJS(`!document.getElementById("edit-bar").hidden`, "the edit bar")
	eval[bool](p, `(function(){ const ta = document.getElementById("yaml"); ta.value = ta.value.replace(/\n  template:/, '\n template:'); return true; })()`)
	eval[bool](p, `(document.getElementById("edit-apply").click(), true)`)
	p.waitJS(`document.getElementById("apply-result").textContent.includes("error")`, "kubectl edit's error in the result line")
	for _, v := range [][2]int64{{1280, 720}, {1440, 900}, {390, 844}} {
		p.viewport(v[0], v[1])
		p.frames(3)
		bad := eval[string](p, `(function(){ `+rectJS+`
			const r = document.getElementById("apply-result"), pane = document.querySelector(".editor-pane"), ed = document.querySelector(".editor");
			r.scrollIntoView({block: "nearest"});
			const a = rect(r), b = rect(pane), e = rect(ed), bar = rect(document.getElementById("edit-bar"));
			const out = [];
			if (a.height < 20) out.push("the result line is " + a.height + " px high");
			if (a.top < b.top || a.bottom > b.bottom + 0.5) out.push("the result line " + a.top + ".." + a.bottom + " is outside the editor pane " + b.top + ".." + b.bottom);
			if (a.top < 0 || a.bottom > innerHeight + 0.5) out.push("the result line " + a.top + ".." + a.bottom + " is outside the window " + innerHeight);
			if (e.height < 40) out.push("the editor is " + e.height + " px high");
			if (bar.height > 48) out.push("the edit bar is " + bar.height + " px high");
			return out.join("; ");
		})()`)
		if bad != "" {
			t.Errorf("%dx%d: %s", v[0], v[1], bad)
		}
		eval[bool](p, `(scrollTo(0, 0), true)`)
		p.screenshot(fmt.Sprintf("p1-edit-result-%dx%d", v[0], v[1]))
	}
}

// P1 item 2: the panel's status line starts empty when an item opens (no
// "Step 1 of 6" of the last lesson in an exercise), and never says Solved
// while an always-rule is broken.
func TestP1ExerciseStatusLine(t *testing.T) {
	p := open(t, "?paused")
	p.forgetProgress()
	p.viewport(1280, 720)
	p.click("#lessons-open")
	p.waitJS(`document.getElementById("lessons").open`, "the gallery")
	p.click(`#lessons-list button[data-open="03-taints-and-tolerations"]`)
	p.waitJS(`!document.getElementById("lesson").hidden`, "the lesson panel")
	p.click(`#lesson-nav button[data-act=next]`)
	p.waitJS(`document.getElementById("lesson-status").textContent.startsWith("Step 1 of")`, "the step's status line")
	p.openExerciseFromGallery("05-one-node-at-a-time")
	if s := eval[string](p, `document.getElementById("lesson-status").textContent`); s != "" {
		t.Errorf("the exercise opened with the status line %q", s)
	}
	p.runKubectl(`kubectl patch ds ds-demo -p '{"spec":{"updateStrategy":{"rollingUpdate":{"maxUnavailable":1}}}}'`)
	p.runKubectl("kubectl set image ds/ds-demo nginx=nginx:1.23.3")
	for i := 0; i < 12 && !eval[bool](p, `document.getElementById("lesson-status").textContent.startsWith("Solved")`); i++ {
		p.advance(10)
		eval[bool](p, `(document.querySelector('#lesson-nav [data-act="check"]').click(), true)`)
		p.frames(2)
	}
	p.waitJS(`document.getElementById("lesson-status").textContent.startsWith("Solved")`, "Solved in the status line")
	// break the rule: two nodes without a Ready pod
	p.runKubectl("kubectl delete pods -l name=app --wait=false")
	p.advance(40) // past the grace period: no node has a Ready pod for a while
	p.waitJS(`!!document.querySelector("#lesson-body .ex-violation")`, "the broken rule's banner")
	p.frames(3)
	if s := eval[string](p, `document.getElementById("lesson-status").textContent`); strings.HasPrefix(s, "Solved") {
		t.Errorf("the status line says %q beside the broken rule", s)
	}
	p.screenshot("p1-exercise-broken-rule")
}

// P1 item 9: a goal's kubectl line and its stdout assertion are one check
// with a readable label; a failing one shows what the command printed.
func TestP1GoalChecksReadable(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	p.openExerciseFromGallery("07-ondelete-canary")
	eval[bool](p, `(document.querySelector('#lesson-nav [data-act="check"]').click(), true)`)
	p.frames(3)
	checks := eval[[]string](p, `[...document.querySelectorAll("#lesson-body .ex-checks:not(.ex-rules) li")].map(li => li.querySelector(".ex-mark").textContent + " " + li.querySelector(".ex-check").textContent + " | " + ((li.querySelector(".ex-detail") || {}).textContent || ""))`)
	want := "✗ kubectl get pods -l name=app --field-selector spec.nodeName=node-1 -o jsonpath='{.items[*].spec.containers[0].image}': output matches ^nginx:1.25$ | the output was \"nginx:1.23\""
	found := false
	for _, c := range checks {
		if strings.Contains(c, " stdout ") || strings.HasPrefix(c, "✓ stdout") || strings.HasPrefix(c, "✗ stdout") {
			t.Errorf("a raw assertion shows as a check: %s", c)
		}
		found = found || c == want
	}
	if !found || len(checks) != 4 {
		t.Errorf("the goal's checks:\n%s\nwant 4, among them\n%s", strings.Join(checks, "\n"), want)
	}
	p.screenshot("p1-goal-checks")
}

// P1 item 8: the default cluster's node cards show whole at 1280x720
// and 1440x900 without scrolling (not under the timeline strip), and on a
// phone the strip covers none.
func TestP1DefaultCardsVisible(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	for _, v := range [][2]int64{{1280, 720}, {1440, 900}, {390, 844}} {
		p.viewport(v[0], v[1])
		p.frames(3)
		bad := eval[[]string](p, `(function(){ `+rectJS+`
			document.querySelector(".cluster-pane").scrollTop = 0; document.getElementById("nodes").scrollTop = 0; scrollTo(0, 0);
			const phone = innerWidth <= 900, out = [];
			const tl = rect(document.getElementById("timeline")), pane = rect(document.querySelector(".cluster-pane")), area = rect(document.getElementById("nodes"));
			for (const c of document.querySelectorAll("#nodes .node")) {
				const r = rect(c), n = c.dataset.node;
				if (r.bottom > tl.top + 0.5 && r.top < tl.bottom) out.push(n + " " + r.top + ".." + r.bottom + " is under the timeline strip " + tl.top + ".." + tl.bottom);
				if (!phone && (r.bottom > pane.bottom + 0.5 || r.bottom > area.bottom + 0.5 || r.bottom > innerHeight)) out.push(n + " ends at " + r.bottom + ", below the pane " + pane.bottom + " / node area " + area.bottom);
			}
			return out;
		})()`)
		if len(bad) > 0 {
			t.Errorf("%dx%d: %s", v[0], v[1], strings.Join(bad, "; "))
		}
		p.screenshot(fmt.Sprintf("p1-default-cards-%dx%d", v[0], v[1]))
	}
}

// P1 item 5: a misspelled pane name shows in a banner over the panes
// (the console pane may be hidden) and in the browser console.
func TestP1EmbedUnknownPaneIsVisible(t *testing.T) {
	p := open(t, "?embed&paused&panes=cluster,consol")
	p.waitJS(`!!document.getElementById("embed-warning")`, "the warning banner")
	b := eval[[]float64](p, `(function(){ const b = document.getElementById("embed-warning").getBoundingClientRect(); return [b.top, b.bottom, b.height]; })()`)
	if b[2] < 10 || b[0] < 0 || b[1] > eval[float64](p, `innerHeight`) {
		t.Errorf("the warning banner is not in view: %v", b)
	}
	if txt := eval[string](p, `document.getElementById("embed-warning").textContent`); !strings.Contains(txt, "unknown pane consol") {
		t.Errorf("the banner says %q", txt)
	}
	if eval[bool](p, `document.querySelector(".kubectl-pane").offsetParent !== null`) {
		t.Error("the misspelled console pane shows")
	}
	found := false
	p.mu.Lock()
	for _, m := range p.console {
		if strings.Contains(m.Text, "unknown pane consol") {
			found = true
		}
	}
	p.mu.Unlock()
	if !found {
		t.Error("no browser console message names the unknown pane")
	}
	p.screenshot("p1-embed-unknown-pane")
}

// P1 item 12: a fresh embed (a lesson, an exercise) does not greet the
// reader with "The cluster was reset".
func TestP1FreshEmbedNoResetNote(t *testing.T) {
	for _, q := range []string{"lesson=01-one-pod-per-node", "exercise=03-ssd-nodes"} {
		p := open(t, "?embed&paused&panes=cluster,console&"+q)
		p.waitJS(`!document.getElementById("lesson").hidden`, "the panel")
		if txt := eval[string](p, `document.getElementById("kout").textContent`); strings.Contains(txt, "was reset") {
			t.Errorf("%s: the console starts with %q", q, txt)
		}
		// a reset the reader asks for still says so
		eval[bool](p, `(dsplay.reset(), true)`)
		p.waitJS(`document.getElementById("kout").textContent.includes("was reset")`, "the reset note after a reset")
	}
}

// P1 item 11: docs/embedding.md's parent page, served as written (with
// PLAYGROUND set), starts on a clean cluster: its output names the
// snippet's DaemonSet only, not the fluentd example.
func TestP1EmbeddingDocSnippet(t *testing.T) {
	doc, err := os.ReadFile("../../docs/embedding.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, "### A parent page")
	if i < 0 {
		t.Fatal("no parent page section")
	}
	s = s[i:]
	a := strings.Index(s, "```html\n")
	e := strings.Index(s[a+8:], "```")
	snippet := strings.Replace(s[a+8:a+8+e], `"https://playground.example"`, fmt.Sprintf("%q", baseURL), 1)
	if !strings.Contains(snippet, baseURL) {
		t.Fatal("the snippet has no PLAYGROUND constant")
	}
	srv := serveHTML(t, func(*http.Request) string { return "<!doctype html><html><body>" + snippet + "</body></html>" })
	p := openParent(t, srv.URL)
	p.waitJS(`document.readyState === "complete"`, "the parent page")
	p.frames(5)
	eval[bool](p, `(document.getElementById("demo").click(), true)`)
	p.waitJS(`/agent-/.test(document.getElementById("out").textContent)`, "the snippet's output")
	out := eval[string](p, `document.getElementById("out").textContent`)
	if strings.Contains(out, "fluentd") || strings.Count(out, "agent-") != 2 {
		t.Errorf("the snippet's output:\n%s", out)
	}
}
