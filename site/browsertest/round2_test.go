package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// viewport resizes the tab's layout viewport.
func (p *page) viewport(w, h int64) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(w, h)); err != nil {
		p.t.Fatal(err)
	}
	// two frames for the layout and the Go frame to follow
	p.frames(2)
}

// colorScheme emulates the prefers-color-scheme media feature ("light" or
// "dark") on the tab; it fails the test on a DevTools error.
func (p *page) colorScheme(scheme string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})); err != nil {
		p.t.Fatal(err)
	}
}

// frames waits for n animation frames.
func (p *page) frames(n int) {
	p.t.Helper()
	expr := fmt.Sprintf(`new Promise(r => { let n = 0; const f = () => (++n < %d ? requestAnimationFrame(f) : r(true)); requestAnimationFrame(f); })`, n)
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("waiting for %d frames: %v", n, err)
	}
}

// apply puts yaml in the editor and applies it; it fails the test on an error.
func (p *page) apply(yaml string) {
	p.t.Helper()
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", yaml)); msg != "" {
		p.t.Fatalf("apply: %s", msg)
	}
}

// nodeDocs returns Node manifests named prefix-1 ... prefix-n.
func nodeDocs(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: %s-%d\n", prefix, i)
	}
	return b.String()
}

// dsDoc returns a DaemonSet manifest that runs busybox everywhere untainted.
func dsDoc(namespace, name, extra string) string {
	return fmt.Sprintf(`---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: %[2]s
  namespace: %[1]s
spec:
  selector:
    matchLabels:
      app: %[2]s
  template:
    metadata:
      labels:
        app: %[2]s
    spec:
      containers:
      - name: main
        image: busybox:1.36
        command: ["sleep", "infinity"]
%[3]s`, namespace, name, extra)
}

// rect is a JS expression: el's bounding box as [top, bottom, left, right, height].
func rect(sel string) string {
	return fmt.Sprintf(`(function(){ const r = document.querySelector(%q).getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right, r.height]; })()`, sel)
}

// Item 1: the DaemonSet table stays visible on a laptop screen when the
// cluster pane overflows (4 DaemonSets, 6 nodes); the node cards scroll.
func TestTableVisibleOnLaptop(t *testing.T) {
	p := open(t, "?paused")
	var docs strings.Builder
	for _, n := range []string{"alpha", "beta", "gamma"} {
		docs.WriteString(dsDoc("default", n, ""))
	}
	docs.WriteString(nodeDocs("worker", 3))
	p.apply(docs.String())
	p.advance(10)
	for _, vp := range [][2]int64{{1280, 720}, {1366, 768}, {1440, 900}} {
		p.viewport(vp[0], vp[1])
		h := eval[float64](p, `document.querySelector(".table-wrap").offsetHeight`)
		rows := eval[int](p, `document.querySelectorAll("#ds-rows tr[data-ds]").length`)
		if rows != 4 {
			t.Fatalf("%d DaemonSet rows, want 4", rows)
		}
		// every row lies inside the cluster pane and the window
		bad := eval[[]string](p, `(function(){
			const pane = document.querySelector(".cluster-pane").getBoundingClientRect();
			const wrap = document.querySelector(".table-wrap").getBoundingClientRect();
			const out = [];
			for (const tr of document.querySelectorAll("#ds-rows tr")) {
				const r = tr.getBoundingClientRect();
				if (r.height === 0 || r.top < wrap.top - 0.5 || r.bottom > wrap.bottom + 0.5 || r.bottom > pane.bottom || r.bottom > innerHeight)
					out.push(tr.dataset.ds + " " + r.top + ".." + r.bottom);
			}
			return out;
		})()`)
		if h < 60 || len(bad) > 0 {
			t.Errorf("%dx%d: .table-wrap is %gpx high; rows not visible: %v", vp[0], vp[1], h, bad)
		}
		// the node cards scroll inside the pane instead
		if sc := eval[bool](p, `(function(){ const n = document.getElementById("nodes"); return n.scrollHeight > n.clientHeight + 1 && getComputedStyle(n).overflowY === "auto"; })()`); vp[1] < 800 && !sc {
			t.Errorf("%dx%d: the node cards do not scroll in their own box", vp[0], vp[1])
		}
	}
	p.viewport(1280, 720)
	p.screenshot("r2-laptop-1280x720")
	p.checkConsole()
}

// Item 3: a long apply report scrolls inside the editor pane and never
// covers the Decisions pane.
func TestLongApplyResultScrolls(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	p.apply(nodeDocs("n", 50))
	if n := eval[int](p, `document.querySelectorAll("#apply-result li").length`); n != 50 {
		t.Fatalf("%d lines in the apply report, want 50", n)
	}
	check := func(what string) {
		t.Helper()
		r := eval[[]float64](p, `(function(){
			const res = document.getElementById("apply-result"), ed = document.querySelector(".editor-pane"), log = document.querySelector(".log-pane");
			const a = res.getBoundingClientRect(), e = ed.getBoundingClientRect(), l = log.getBoundingClientRect();
			const ov = getComputedStyle(res).overflowY;
			const clipped = ov === "auto" || ov === "scroll" ? 1 : 0;
			return [a.bottom, e.bottom, l.top, res.scrollHeight, res.clientHeight, document.getElementById("yaml").getBoundingClientRect().height, clipped];
		})()`)
		t.Logf("%s: %v", what, r)
		if r[0] > r[1]+0.5 || r[1] > r[2]+0.5 {
			t.Errorf("%s: apply-result ends at %g, its pane at %g, the Decisions pane starts at %g", what, r[0], r[1], r[2])
		}
		if r[6] != 1 {
			t.Errorf("%s: apply-result's overflow is visible: its lines spill over the Decisions pane", what)
		}
		if r[3] <= r[4] {
			t.Errorf("%s: apply-result does not scroll (scrollHeight %g, clientHeight %g)", what, r[3], r[4])
		}
		if r[5] < 150 {
			t.Errorf("%s: the editor shrank to %gpx", what, r[5])
		}
	}
	check("50 created lines")
	// Many errors: one per line, each a bad image pull policy.
	var b strings.Builder
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: Bad_%d\n", i)
	}
	eval[string](p, fmt.Sprintf("dsplay.apply(%q)", b.String()))
	if n := eval[int](p, `document.querySelectorAll("#apply-result.err li").length`); n < 3 {
		t.Fatalf("%d errors listed, want 12", n)
	}
	check("12 errors")
	p.checkConsole()
}

// Item 4: with the node panel open the clock controls stay clickable.
func TestPanelLeavesClockControls(t *testing.T) {
	p := open(t, "?paused")
	for _, vp := range [][2]int64{{1280, 720}, {400, 800}} {
		p.viewport(vp[0], vp[1])
		if eval[bool](p, `document.getElementById("panel").hidden`) {
			if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-1"]`))); err != nil {
				t.Fatal(err)
			}
		}
		p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
		covered := eval[[]string](p, `["play", "step", "speed"].filter(id => {
			const e = document.getElementById(id), r = e.getBoundingClientRect();
			const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return !hit || !(hit === e || e.contains(hit));
		})`)
		if len(covered) > 0 {
			t.Errorf("%dx%d: with the panel open, %v cannot be clicked", vp[0], vp[1], covered)
			continue
		}
		t0 := eval[float64](p, `dsplay.elapsed()`)
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("step"))); err != nil {
			t.Fatal(err)
		}
		if t1 := eval[float64](p, `dsplay.elapsed()`); t1-t0 < 0.999 {
			t.Errorf("%dx%d: +1 s with the panel open moved time by %g", vp[0], vp[1], t1-t0)
		}
		if eval[bool](p, `document.getElementById("panel").hidden`) {
			t.Errorf("%dx%d: clicking +1 s closed the panel", vp[0], vp[1])
		}
	}
	p.viewport(1280, 720)
	p.screenshot("r2-panel-1280x720")
	p.checkConsole()
}

// Item 5: a pod the scheduler cannot place says why on its chip and in the
// node panel.
func TestPendingPodShowsSchedulerReason(t *testing.T) {
	p := open(t, "?paused")
	p.apply(dsDoc("default", "hungry", `        resources:
          requests:
            cpu: "64"
`))
	p.advance(10)
	p.waitJS(podsOn("node-1", "hungry", "Pending")+" === 1", "hungry Pending on node-1")
	title := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod[data-owner="hungry"]').title`)
	if !strings.Contains(title, "0/3 nodes are available") || !strings.Contains(title, "Insufficient cpu") {
		t.Errorf("the pending chip's title is %q, want the FailedScheduling message", title)
	}
	if got := eval[string](p, `(document.querySelector('.node[data-node="node-1"] .pod[data-owner="hungry"] .pod-why') || {textContent: ""}).textContent`); !strings.Contains(got, "Insufficient cpu") {
		t.Errorf("the pending chip shows %q, want a short reason naming Insufficient cpu", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-1"] .node-head`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	body := eval[string](p, `document.getElementById("panel-body").textContent`)
	if !strings.Contains(body, "is Pending: 0/3 nodes are available: ") || !strings.Contains(body, "Insufficient cpu") {
		t.Errorf("the node panel does not say why the pod is Pending:\n%s", body)
	}
	p.screenshot("r2-pending-reason")
	p.checkConsole()
}

// Item 6: two DaemonSets with one name in two namespaces are told apart.
func TestSameNameInTwoNamespaces(t *testing.T) {
	p := open(t, "?paused")
	p.runKubectl("kubectl create namespace monitoring")
	p.apply(dsDoc("default", "agent", "") + dsDoc("monitoring", "agent", `      nodeSelector:
        disk: ssd
`))
	p.advance(10)
	why := eval[[]string](p, `[...document.querySelectorAll('.node[data-node="node-1"] .why li')].map(l => l.textContent)`)
	if len(why) != 1 || !strings.Contains(why[0], "monitoring/agent") {
		t.Errorf("node-1's reasons %q, want one naming monitoring/agent", why)
	}
	rows := eval[[]string](p, `[...document.querySelectorAll("#ds-rows tr[data-ds]")].map(tr => tr.firstChild.firstChild.textContent)`)
	if strings.Join(rows, ",") != "default/agent,default/fluentd-elasticsearch,monitoring/agent" {
		t.Errorf("table rows %v, want default/agent, monitoring/agent", rows)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-1"] .node-head`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	heads := eval[[]string](p, `[...document.querySelectorAll("#panel .verdict h4")].map(h => h.textContent)`)
	if strings.Join(heads, ",") != "default/agent,default/fluentd-elasticsearch,monitoring/agent" {
		t.Errorf("panel verdicts %v, want default/agent, monitoring/agent", heads)
	}
	chip := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod[data-owner="agent"]').title`)
	if !strings.Contains(chip, "DaemonSet default/agent") {
		t.Errorf("chip title %q does not name default/agent", chip)
	}
	p.checkConsole()
}

// Item 2: a flattened line's repair is shown preformatted and can be used.
func TestFlattenedLineFix(t *testing.T) {
	p := open(t, "?paused")
	msg := eval[string](p, `dsplay.apply("apiVersion: v1\nkind: Node\nmetadata:name: n1\n")`)
	if msg == "" {
		t.Fatal("a flattened manifest applied without error")
	}
	fix := eval[[]string](p, `(function(){ const f = document.querySelector("#apply-result .fix pre"); const s = getComputedStyle(f); return [f.textContent, s.whiteSpace, s.fontFamily]; })()`)
	if !strings.Contains(fix[0], "metadata:\n  name: n1") || fix[1] != "pre-wrap" || !strings.Contains(fix[2], "mono") {
		t.Errorf("the fix is %q shown with white-space %s, font %s", fix[0], fix[1], fix[2])
	}
	// the fix is drawn on several lines
	if h := eval[float64](p, `document.querySelector("#apply-result .fix pre, #apply-result .fix").getBoundingClientRect().height`); h < 30 {
		t.Errorf("the fix is %gpx high: on one line?", h)
	}
	p.screenshot("r2-flattened-fix")
	if !eval[bool](p, `document.querySelector("#apply-result button.use-fix") !== null`) {
		t.Fatalf("no Use this fix button")
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`#apply-result button.use-fix`))); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](p, `document.getElementById("yaml").value`); got != "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n" {
		t.Errorf("after Use this fix the editor holds %q", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("apply"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("apply-result").textContent.includes("node/n1 created")`, "the repaired manifest to apply")
	p.checkConsole()
}

// Item 8: narrow windows keep the header inside; an empty cluster says how
// to add a node; one pod is "1 pod"; diagnostics come in line order.
func TestNarrowAndEmpty(t *testing.T) {
	p := open(t, "?paused")
	for _, w := range []int64{400, 320} {
		p.viewport(w, 800)
		over := eval[[]string](p, `[...document.querySelectorAll(".topbar *")].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5).map(e => e.id || e.className || e.tagName)`)
		if len(over) > 0 || eval[bool](p, `document.documentElement.scrollWidth > innerWidth`) {
			t.Errorf("at %dpx the header overflows: %v (scrollWidth %d)", w, over, eval[int](p, `document.documentElement.scrollWidth`))
		}
	}
	p.viewport(400, 800)
	// In the one-column layout every node card lies inside the cluster pane,
	// above the legend.
	if bad := eval[[]string](p, `(function(){
		const legend = document.querySelector(".cluster-pane .legend").getBoundingClientRect();
		return [...document.querySelectorAll(".node")].filter(n => n.getBoundingClientRect().bottom > legend.top + 0.5).map(n => n.dataset.node);
	})()`); len(bad) > 0 {
		t.Errorf("at 400px the node cards %v run under the legend (the cluster pane clips them)", bad)
	}
	p.screenshot("r2-narrow-400")
	p.viewport(1280, 720)
	p.advance(10)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-1"] .node-head`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	if facts := eval[string](p, `document.querySelector("#panel .facts p").textContent`); !strings.Contains(facts, "1 pod") || strings.Contains(facts, "1 pods") {
		t.Errorf("panel facts %q, want 1 pod", facts)
	}
	eval[chromedp.Void](p, `document.getElementById("panel-close").click()`)
	for _, n := range []string{"control-plane", "node-1", "node-2"} {
		p.runKubectl("kubectl delete node " + n)
	}
	p.waitJS(`document.querySelectorAll(".node").length === 0`, "every node card gone")
	msg := eval[string](p, `(document.querySelector("#nodes .empty") || {textContent: ""}).textContent`)
	if !strings.Contains(msg, "No nodes") || !strings.Contains(msg, "kind: Node") {
		t.Errorf("an empty cluster shows %q, want how to add a node", msg)
	}
	// diagnostics in line order
	eval[string](p, `dsplay.apply("apiVersion: v1\nkind: Node\nmetadata:\n  name: B_1\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: a\n\tlabels: {}\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: C_3\n")`)
	lines := eval[[]string](p, `[...document.querySelectorAll("#apply-result li[data-line]")].map(li => li.dataset.line)`)
	for i := 1; i < len(lines); i++ {
		var a, b int
		fmt.Sscan(lines[i-1], &a)
		fmt.Sscan(lines[i], &b)
		if a > b {
			t.Errorf("diagnostics not in line order: %v", lines)
			break
		}
	}
	p.checkConsole()
}

// Item 9: the console prints stdout and stderr in the order kubectl wrote
// them (a warning before the result), stderr in its own colour.
func TestConsoleKeepsOutputOrder(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.runKubectl("kubectl apply -f manifest.yaml")
	eval[string](p, `dsplay.apply(document.getElementById("yaml").value.replace("fluentd:v2.5.2", "fluentd:v2.6.0"))`)
	p.runKubectl("kubectl rollout undo ds/fluentd-elasticsearch")
	parts := eval[[]string](p, `[...[...document.querySelectorAll("#kout .block")].pop().children].map(e => e.className + ":" + e.textContent)`)
	if len(parts) != 3 || !strings.HasPrefix(parts[1], "stderr:Warning:") || !strings.HasPrefix(parts[2], "stdout:daemonset.apps/fluentd-elasticsearch rolled back") {
		t.Errorf("rollout undo printed %q, want the command, the warning (stderr), then the result (stdout)", parts)
	}
	p.checkConsole()
}
