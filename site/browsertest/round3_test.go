package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// activeID is a JS expression: the focused element's id, or for a node
// card "node:NAME", or its tag name.
const activeID = `(function(){ const e = document.activeElement; if (!e) return ""; if (e.dataset && e.dataset.node) return "node:" + e.dataset.node; return e.id || e.tagName; })()`

// keys sends key presses to the focused element.
func (p *page) keys(k string, opts ...chromedp.KeyOption) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(k, opts...)); err != nil {
		p.t.Fatal(err)
	}
}

// Item 1: Tab indents in the editor, Escape then Tab leaves it, and the
// editor says so; a node's panel takes the focus, has a label naming the
// node, and Escape closes it and gives the focus back to the node card.
func TestKeyboardLeavesEditorAndPanel(t *testing.T) {
	p := open(t, "?paused")
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.ID("yaml"), "a:\n"), chromedp.Focus(chromedp.ID("yaml")),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("yaml").setSelectionRange(3, 3)`)); err != nil {
		t.Fatal(err)
	}
	p.keys(kb.Tab)
	if got := eval[string](p, `document.getElementById("yaml").value`); got != "a:\n  " {
		t.Errorf("Tab in the editor made %q, want two spaces typed", got)
	}
	if got := eval[string](p, activeID); got != "yaml" {
		t.Errorf("after Tab the focus is on %s, want the editor", got)
	}
	// The hint is tied to the editor.
	hint := eval[string](p, `(function(){ const ids = (document.getElementById("yaml").getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
		return ids.map(id => (document.getElementById(id) || {textContent: ""}).textContent).join(" "); })()`)
	if !strings.Contains(hint, "Esc then Tab leaves the editor") {
		t.Errorf("the editor's description is %q, want it to say Esc then Tab leaves the editor", hint)
	}
	if !eval[bool](p, `(function(){ const e = document.getElementById("editor-keys"); return !!e && e.getBoundingClientRect().height > 0 && getComputedStyle(e).visibility !== "hidden"; })()`) {
		t.Errorf("the editor's key hint is not visible while the editor has the focus")
	}
	p.screenshot("r3-editor-keys")
	p.keys(kb.Escape + kb.Tab)
	if got := eval[string](p, activeID); got == "yaml" || got == "BODY" {
		t.Errorf("Escape then Tab left the focus on %s, want the next control", got)
	}
	if got := eval[string](p, `document.getElementById("yaml").value`); got != "a:\n  " {
		t.Errorf("Escape then Tab changed the text to %q", got)
	}
	// Back in the editor, Tab indents again.
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("yaml"))); err != nil {
		t.Fatal(err)
	}
	p.keys(kb.Escape + "x" + kb.Tab)
	if got := eval[string](p, activeID); got != "yaml" {
		t.Errorf("Escape, x, Tab moved the focus to %s: only Tab right after Escape leaves", got)
	}

	// The node panel: Enter on a card opens it and focuses into it.
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.CSS(`.node[data-node="node-1"]`))); err != nil {
		t.Fatal(err)
	}
	p.keys(kb.Enter)
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	if !eval[bool](p, `document.getElementById("panel").contains(document.activeElement)`) {
		t.Errorf("the open panel does not have the focus (it is on %s)", eval[string](p, activeID))
	}
	label := eval[string](p, `(function(){ const pn = document.getElementById("panel"); const l = pn.getAttribute("aria-label") || ""; const by = pn.getAttribute("aria-labelledby"); return l || (by ? document.getElementById(by).textContent : ""); })()`)
	if !strings.Contains(label, "node-1") || len(label) <= len("node-1") {
		t.Errorf("the panel's accessible label is %q, want a phrase naming node-1", label)
	}
	if role := eval[string](p, `document.getElementById("panel").getAttribute("role") || ""`); role != "dialog" {
		t.Errorf("the panel's role is %q, want dialog", role)
	}
	p.keys(kb.Escape)
	p.waitJS(`document.getElementById("panel").hidden`, "Escape to close the panel")
	if got := eval[string](p, activeID); got != "node:node-1" {
		t.Errorf("after Escape the focus is on %s, want node-1's card", got)
	}
	// The close button gives the focus back too.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-2"] .node-head`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	if got := eval[string](p, activeID); got != "panel-title" {
		t.Errorf("the open panel's focus is on %s, want its heading", got)
	}
	p.keys(kb.Tab)
	if got := eval[string](p, activeID); got != "panel-close" {
		t.Errorf("Tab from the panel's heading went to %s, want the close button", got)
	}
	p.keys(kb.Enter)
	p.waitJS(`document.getElementById("panel").hidden`, "Enter on the close button to close the panel")
	if got := eval[string](p, activeID); got != "node:node-2" {
		t.Errorf("after closing, the focus is on %s, want node-2's card", got)
	}
	// Escape in the editor with the panel open closes it but leaves the focus in the editor.
	eval[bool](p, `(function(){ document.querySelector('.node[data-node="node-1"]').click(); document.getElementById("yaml").focus(); return true; })()`)
	p.keys(kb.Escape)
	p.waitJS(`document.getElementById("panel").hidden`, "Escape to close the panel")
	if got := eval[string](p, activeID); got != "yaml" {
		t.Errorf("Escape in the editor moved the focus to %s", got)
	}
	p.checkConsole()
}

const dsA = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ds-a
spec:
  selector:
    matchLabels:
      app: ds-a
  template:
    metadata:
      labels:
        app: ds-a
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sleep", "infinity"]
`

// Item 2: Apply takes the editor's text when it is clicked and lands before
// any later console command, even in a script that runs in one go.
func TestApplyRunsBeforeConsoleCommands(t *testing.T) {
	p := open(t, "?paused")
	out := eval[string](p, fmt.Sprintf(`(function(){
		const ta = document.getElementById("yaml");
		ta.value = %q;
		document.getElementById("apply").click();
		ta.value = %q; // edited after the click: not what was applied
		return dsplay.run("kubectl get ds").stdout;
	})()`, dsA, strings.Replace(dsA, "ds-a", "ds-b", -1)))
	if !strings.Contains(out, "ds-a") || strings.Contains(out, "ds-b") {
		t.Errorf("kubectl get ds right after clicking Apply printed\n%s\nwant ds-a (the text at click time) and no ds-b", out)
	}
	p.frames(4)
	if got := eval[string](p, `document.getElementById("apply-result").textContent`); !strings.Contains(got, "daemonset.apps/ds-a created") {
		t.Errorf("apply result %q, want daemonset.apps/ds-a created", got)
	}
	cmds := eval[[]string](p, `[...document.querySelectorAll("#kout .block .cmd")].map(e => e.textContent.trim()).slice(1)`) // after the page's own first apply
	if strings.Join(cmds, " | ") != "$ kubectl apply -f manifest.yaml | $ kubectl get ds" {
		t.Errorf("the console shows %q, want the apply before kubectl get ds", cmds)
	}
	if n := eval[int](p, `dsplay.pods().filter(p => p.owner === "ds-b").length`); n != 0 {
		t.Errorf("%d ds-b pods: the text edited after the click was applied", n)
	}
	// Apply, then +1 s at once: the apply comes first.
	eval[bool](p, fmt.Sprintf(`(function(){ document.getElementById("yaml").value = %q; document.getElementById("apply").click(); document.getElementById("step").click(); return true; })()`, strings.Replace(dsA, "ds-a", "ds-c", -1)))
	if n := eval[int](p, `dsplay.pods().filter(p => p.owner === "ds-c").length`); n == 0 {
		t.Errorf("Apply then +1 s: no ds-c pods right after, the apply did not run first")
	}
	p.checkConsole()
}

// Item 3: a tab-indented manifest offers "Replace tabs with spaces" (only
// leading tabs, two spaces each) when that helps, and a long list of line
// numbers is cut short.
func TestTabIndentRepair(t *testing.T) {
	p := open(t, "?paused")
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: Node\nmetadata:\n\tname: tabbed\n\tannotations:\n\t\tnote: \"a\tb\"\n\tlabels:\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "\t\tk%d: v%d\n", i, i)
	}
	tabbed := b.String()
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", tabbed)); msg == "" {
		t.Fatal("a tab-indented manifest applied")
	}
	text := eval[string](p, `document.getElementById("apply-result").textContent`)
	if strings.Contains(text, "20, 21, 22, 23") || !regexp.MustCompile(`and \d+ more`).MatchString(text) {
		t.Errorf("the error lists every tab line:\n%s\nwant the first few and \"and N more\"", text)
	}
	btn := `[...document.querySelectorAll("#apply-result button")].find(b => b.textContent === "Replace tabs with spaces")`
	if !eval[bool](p, `!!`+btn) {
		t.Fatalf("no Replace tabs with spaces button:\n%s", text)
	}
	p.screenshot("r3-tabs")
	eval[bool](p, `(function(){ `+btn+`.click(); return true; })()`)
	want := strings.NewReplacer("\n\t\t", "\n    ", "\n\t", "\n  ").Replace(tabbed)
	if got := eval[string](p, `document.getElementById("yaml").value`); got != want {
		t.Errorf("after Replace tabs with spaces the editor holds\n%q\nwant\n%q", got, want)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("apply"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("apply-result").textContent.includes("node/tabbed created")`, "the repaired manifest to apply")

	// No offer when replacing the tabs does not reduce the problems.
	msg := eval[string](p, `dsplay.apply("apiVersion: v1\nkind: Node\nmetadata:\n\tname: n1\n\tlabels: {a: [}\n")`)
	if msg == "" {
		t.Fatal("a broken manifest applied")
	}
	if eval[bool](p, `!!`+btn) {
		t.Errorf("Replace tabs with spaces offered though the result does not decode better:\n%s", msg)
	}
	p.checkConsole()
}

// Item 4: on a phone the panes run Cluster, Manifest, kubectl, Decisions
// (the stage first), and the DaemonSet table fits without sideways
// scrolling.
func TestPhoneLayout(t *testing.T) {
	p := open(t, "?paused")
	p.apply(dsDoc("default", "node-exporter-prometheus", ""))
	p.advance(10)
	order := `(function(){ return [...document.querySelectorAll(".layout > .col > .pane")].map(e => [e.querySelector("h2").textContent, e.getBoundingClientRect().top]).sort((a, b) => a[1] - b[1]).map(e => e[0]); })()`
	for _, vp := range [][2]int64{{390, 844}, {320, 700}, {700, 900}, {960, 800}, {1100, 800}} {
		p.viewport(vp[0], vp[1])
		if got := eval[[]string](p, order); vp[0] <= 700 && strings.Join(got, ",") != "Cluster,Manifest,kubectl,Decisions" {
			t.Errorf("%dx%d: the panes run %v, want Cluster, Manifest, kubectl, Decisions", vp[0], vp[1], got)
		}
		wrap := eval[[]float64](p, `(function(){ const w = document.querySelector(".table-wrap"); return [w.scrollWidth, w.clientWidth, document.documentElement.scrollWidth, innerWidth]; })()`)
		if wrap[0] > wrap[1]+0.5 || wrap[2] > wrap[3]+0.5 {
			t.Errorf("%dx%d: the DaemonSet table needs sideways scrolling (scrollWidth %g, width %g; page %g in %g)", vp[0], vp[1], wrap[0], wrap[1], wrap[2], wrap[3])
		}
		// every count is inside the table's box
		if bad := eval[[]string](p, `(function(){ const w = document.querySelector(".table-wrap").getBoundingClientRect();
			return [...document.querySelectorAll("#ds-table th, #ds-rows td")].filter(c => c.getBoundingClientRect().right > w.right + 0.5).map(c => c.textContent); })()`); len(bad) > 0 {
			t.Errorf("%dx%d: table cells past the right edge: %q", vp[0], vp[1], bad)
		}
	}
	p.viewport(390, 844)
	heads := eval[[]string](p, `[...document.querySelectorAll("#ds-table th")].slice(1).map(th => th.innerText.trim() + "=" + th.title.split(/[ :]/)[0])`)
	if strings.Join(heads, " ") != "des=DESIRED cur=CURRENT rdy=READY upd=UP-TO-DATE avl=AVAILABLE mis=MISSCHEDULED" {
		t.Errorf("at 390px the table headers read %q, want abbreviations with titles", heads)
	}
	p.screenshot("r3-phone-390")
	p.viewport(1440, 900)
	if got := eval[[]string](p, order); strings.Join(got, ",") != "Manifest,Cluster,Decisions,kubectl" && strings.Join(got, ",") != "Cluster,Manifest,Decisions,kubectl" {
		t.Logf("1440x900 panes by top: %v", got)
	}
	heads = eval[[]string](p, `[...document.querySelectorAll("#ds-table th")].slice(1).map(th => th.innerText.trim())`)
	if strings.Join(heads, " ") != "desired current ready up-to-date available misscheduled" {
		t.Errorf("at 1440px the table headers read %q, want the full words", heads)
	}
	p.checkConsole()
}

// Item 5: a long unbreakable name in the decision log wraps instead of
// being cut off on the right.
func TestDecisionLogWraps(t *testing.T) {
	p := open(t, "?paused")
	p.apply(dsDoc("default", "a-daemonset-with-a-very-long-name-that-goes-on-and-on-and-on", ""))
	p.advance(10)
	for _, vp := range [][2]int64{{1440, 900}, {390, 844}} {
		p.viewport(vp[0], vp[1])
		bad := eval[[]string](p, `(function(){ const log = document.getElementById("log"); const r = log.getBoundingClientRect();
			const out = [];
			if (log.scrollWidth > log.clientWidth + 0.5) out.push("log scrollWidth " + log.scrollWidth + " > " + log.clientWidth);
			for (const s of log.querySelectorAll("li span")) { const b = s.getBoundingClientRect(); if (b.right > r.right + 0.5) out.push(s.textContent.slice(0, 60)); }
			return out; })()`)
		if len(bad) > 0 {
			t.Errorf("%dx%d: decision log text cut off on the right: %q", vp[0], vp[1], bad[:min(len(bad), 5)])
		}
	}
	p.viewport(1440, 900)
	p.screenshot("r3-log-wraps")
	p.checkConsole()
}

// Item 6: the first frame's node cards and pod chips are drawn without the
// fade-in (so the pods' Pending phase shows from the start); a node that
// joins later fades in.
func TestFirstFrameWithoutFade(t *testing.T) {
	p := open(t, "?paused")
	anims := eval[[]string](p, `[...document.querySelectorAll("#nodes .node, #nodes .pod")].map(e => (e.dataset.node || e.dataset.pod) + ":" + getComputedStyle(e).animationName)`)
	for _, a := range anims {
		if !strings.HasSuffix(a, ":none") {
			t.Errorf("first frame: %s fades in", a)
		}
	}
	if st := eval[[]string](p, `[...document.querySelectorAll("#nodes .pod")].map(c => c.dataset.status)`); strings.Join(st, ",") != "Pending,Pending" {
		t.Errorf("at t=0 the pod chips show %v, want Pending, Pending", st)
	}
	p.runKubectl("kubectl apply -f manifest.yaml") // nothing new
	p.apply(nodeDocs("late", 1))
	if a := eval[string](p, `getComputedStyle(document.querySelector('.node[data-node="late-1"]')).animationName`); a != "card-in" {
		t.Errorf("a node that joins later has animation %q, want card-in", a)
	}
	p.advance(1)
	if a := eval[string](p, `getComputedStyle(document.querySelector('.node[data-node="late-1"] .pod')).animationName`); a != "pod-in" {
		t.Errorf("a pod that appears later has animation %q, want pod-in", a)
	}
	p.checkConsole()
}

// Item 7: the window.dsplay doc comment in wasm/main.go names every hook and
// the fields of pods() as the page has them, and the URL parameters are
// documented there and in site/README.md.
func TestDsplayDocMatches(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "wasm", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatalf("site/README.md: %v", err)
	}
	p := open(t, "?paused")
	hooks := eval[[]string](p, `Object.keys(dsplay).sort()`)
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^//\s+dsplay\.(\w+)\(`).FindAllStringSubmatch(string(src), -1) {
		documented = append(documented, m[1])
	}
	sort.Strings(documented)
	if strings.Join(documented, ",") != strings.Join(hooks, ",") {
		t.Errorf("wasm/main.go documents the hooks %v; window.dsplay has %v", documented, hooks)
	}
	m := regexp.MustCompile(`(?m)^//\s+dsplay\.pods\(\) -> \[\{([^}]*)\}\]`).FindStringSubmatch(string(src))
	if m == nil {
		t.Fatal("wasm/main.go does not document dsplay.pods() -> [{...}]")
	}
	var fields []string
	for _, f := range strings.Split(m[1], ",") {
		fields = append(fields, strings.TrimSpace(f))
	}
	sort.Strings(fields)
	keys := eval[[]string](p, `Object.keys(dsplay.pods()[0]).sort()`)
	if strings.Join(fields, ",") != strings.Join(keys, ",") {
		t.Errorf("wasm/main.go documents pods() fields %v; the objects have %v", fields, keys)
	}
	for _, param := range []string{"?paused"} {
		if !strings.Contains(string(src), param) {
			t.Errorf("wasm/main.go does not document the URL parameter %s", param)
		}
		if !regexp.MustCompile("(?s)## URL parameters.*`" + regexp.QuoteMeta(param) + "`").Match(readme) {
			t.Errorf("site/README.md has no URL parameters section naming `%s`", param)
		}
	}
	for _, h := range hooks {
		if !strings.Contains(string(readme), "dsplay."+h) {
			t.Errorf("site/README.md does not mention dsplay.%s", h)
		}
	}
	p.checkConsole()
}

// The Apply button prints what a typed `kubectl apply -f manifest.yaml`
// prints, kubectl's warnings included: an object created with
// `kubectl create` has no last-applied-configuration annotation.
func TestApplyButtonShowsKubectlWarnings(t *testing.T) {
	p := open(t, "?paused")
	p.frames(2)
	eval[bool](p, `(function(){ dsplay.run("kubectl delete ds fluentd-elasticsearch"); dsplay.run("kubectl create -f manifest.yaml"); return true; })()`)
	eval[bool](p, `(function(){ document.getElementById("apply").click(); return true; })()`)
	p.frames(4)
	const warning = "Warning: resource daemonsets/fluentd-elasticsearch is missing the kubectl.kubernetes.io/last-applied-configuration annotation"
	stderr := eval[string](p, `[...document.querySelectorAll("#kout .block")].pop().querySelector(".stderr")?.textContent || ""`)
	if !strings.Contains(stderr, warning) {
		t.Errorf("the console's last block has stderr %q, want kubectl's warning", stderr)
	}
	if got := eval[string](p, `document.getElementById("apply-result").textContent`); !strings.Contains(got, warning) || !strings.Contains(got, "daemonset.apps/fluentd-elasticsearch configured") {
		t.Errorf("apply result %q, want the warning and the configured line", got)
	}
	p.checkConsole()
}

// On one column the panes' DOM order follows the order they are seen in,
// so Tab moves down the page (Manifest, Cluster, kubectl, Decisions); back
// on two columns the Decisions pane returns under the editor. Whatever the
// keyboard scrolls to stays clear of the sticky top bar.
func TestPaneFocusOrderFollowsLayout(t *testing.T) {
	p := open(t, "?paused")
	domOrder := `[...document.querySelectorAll(".layout .pane")].map(e => e.querySelector("h2").textContent).join(",")`
	p.viewport(390, 844)
	p.frames(2)
	if got := eval[string](p, domOrder); got != "Manifest,Cluster,kubectl,Decisions" {
		t.Errorf("390 px: DOM order %s, want Manifest,Cluster,kubectl,Decisions", got)
	}
	// Tabbing from the last control of the Manifest pane lands in the Cluster pane.
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("yaml"))); err != nil {
		t.Fatal(err)
	}
	p.keys(kb.Escape + kb.Tab)
	for i := 0; i < 6 && !eval[bool](p, `!!document.activeElement.closest(".cluster-pane, .log-pane")`); i++ {
		p.keys(kb.Tab)
	}
	if got := eval[string](p, `document.activeElement.closest(".pane")?.querySelector("h2")?.textContent || ""`); got != "Cluster" {
		t.Errorf("after the editor the focus went to the %q pane, want Cluster", got)
	}
	top := eval[[]float64](p, `[document.activeElement.getBoundingClientRect().top, document.querySelector(".topbar").getBoundingClientRect().bottom]`)
	if top[0] < top[1]-0.5 {
		t.Errorf("the focused element (top %g) is under the top bar (bottom %g)", top[0], top[1])
	}
	p.viewport(1440, 900)
	p.frames(2)
	if got := eval[string](p, domOrder); got != "Manifest,Decisions,Cluster,kubectl" {
		t.Errorf("1440 px: DOM order %s, want the Decisions pane back under the editor", got)
	}
	p.checkConsole()
}
