package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// cardsClipped is a JS expression: for every node card, scrolled into view
// in the node area (and the page and the cluster pane, which may scroll
// too), what is not fully visible: the card outside the node area or the
// window, a pod chip outside its card, a chip's name cut so that its
// random suffix (.mid-t) does not show. [] when all is visible.
const cardsClipped = `(function(){
	const box = document.getElementById("nodes");
	const out = [];
	for (const card of box.querySelectorAll(".node")) {
		card.scrollIntoView({block: "nearest", inline: "nearest"});
		const b = box.getBoundingClientRect(), c = card.getBoundingClientRect();
		const name = card.dataset.node;
		if (c.top < b.top - 1 || c.bottom > b.bottom + 1 || c.top < 0 || c.bottom > innerHeight + 1)
			out.push(name + ": card " + Math.round(c.top) + ".." + Math.round(c.bottom) + " not inside the node area " + Math.round(b.top) + ".." + Math.round(b.bottom) + " and the window " + innerHeight);
		for (const chip of card.querySelectorAll(".pod:not(.gone)")) {
			const p = chip.getBoundingClientRect();
			if (p.top < c.top - 0.5 || p.bottom > c.bottom + 0.5 || p.left < c.left - 0.5 || p.right > c.right + 0.5)
				out.push(name + ": chip " + chip.dataset.pod + " outside its card");
			const tail = chip.querySelector(".pod-name .mid-t"), nm = chip.querySelector(".pod-name");
			if (!tail) { out.push(name + ": chip " + chip.dataset.pod + " has no suffix span"); continue; }
			const t = tail.getBoundingClientRect(), n = nm.getBoundingClientRect();
			const rg = document.createRange(); rg.selectNodeContents(tail);
			const text = rg.getBoundingClientRect();
			if (t.width < 1 || t.right > n.right + 0.5 || text.right > n.right + 0.5 || text.width > t.width + 1)
				out.push(name + ": chip " + chip.dataset.pod + " hides its suffix " + tail.textContent);
			// the visible text ends with the whole 5-character random suffix
			if (!/^-[a-z0-9]{5}$/.test(tail.textContent) || !chip.dataset.pod.endsWith(tail.textContent))
				out.push(name + ": chip " + chip.dataset.pod + " keeps the tail " + JSON.stringify(tail.textContent) + ", not its 5-character suffix");
			// the image keeps its name:tag whole (a pair of surge chips hides the image)
			const img = chip.querySelector(".pod-image");
			if (img && img.offsetParent) {
				const it = img.querySelector(".mid-t"), ir = document.createRange(); ir.selectNodeContents(it);
				if (ir.getBoundingClientRect().right > img.getBoundingClientRect().right + 0.5)
					out.push(name + ": chip " + chip.dataset.pod + " cuts its image's " + it.textContent);
			}
		}
	}
	return out;
})()`

// nodeAreaHeight is a JS expression: the node area's height and the least
// it should have, its cards' height capped at 300 px (minus a pixel for
// rounding).
const nodeAreaHeight = `(function(){ const n = document.getElementById("nodes"); return [n.clientHeight, Math.min(n.scrollHeight, 300) - 1]; })()`

// Issue item 2: at 1280x720 (and 1440x900, a phone, dark) every node card
// of the default cluster can be seen whole in the node area (scrolling it,
// or the pane, if needed), the node area keeps a useful height, and no pod
// chip is clipped; also during a rolling update with surge (two chips side
// by side) and with three DaemonSets.
func TestNodeCardsGetRoom(t *testing.T) {
	p := open(t, "?paused")
	// Tester round 4: at 1440x900 (three cards in a row) the chips of the
	// first seconds (ContainerCreating, the widest status) keep the name's
	// suffix and the image's name:tag.
	p.advance(3)
	for _, w := range []int64{1440, 1280, 1100} {
		p.viewport(w, 900)
		if bad := eval[[]string](p, cardsClipped); len(bad) > 0 {
			t.Errorf("%dx900 at t=3s: %s", w, strings.Join(bad, "\n"))
		}
	}
	p.advance(7)
	for _, tc := range []struct {
		w, h   int64
		scheme string
	}{{1280, 720, "light"}, {1440, 900, "light"}, {1280, 720, "dark"}, {390, 844, "light"}} {
		p.colorScheme(tc.scheme)
		p.viewport(tc.w, tc.h)
		if bad := eval[[]string](p, cardsClipped); len(bad) > 0 {
			t.Errorf("%dx%d %s: %s", tc.w, tc.h, tc.scheme, strings.Join(bad, "\n"))
		}
		if tc.w > 900 {
			if h := eval[[]float64](p, nodeAreaHeight); h[0] < h[1] {
				t.Errorf("%dx%d: the node area is %g px high, want at least %g (its cards' height, up to 300)", tc.w, tc.h, h[0], h[1])
			}
		}
		eval[bool](p, `(function(){ document.querySelector(".cluster-pane").scrollTop = 0; document.getElementById("nodes").scrollTop = 0; scrollTo(0, 0); return true; })()`)
		p.screenshot(fmt.Sprintf("layout-default-%s-%dx%d", tc.scheme, tc.w, tc.h))
	}
	p.colorScheme("light")
	p.viewport(1280, 720)
	// a rolling update with surge: old and new chip side by side
	p.runKubectl(`kubectl patch ds fluentd-elasticsearch -p '{"spec":{"updateStrategy":{"rollingUpdate":{"maxSurge":1,"maxUnavailable":0}}}}'`)
	p.runKubectl("kubectl set image ds/fluentd-elasticsearch fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0")
	p.advance(1.5)
	p.waitJS(`document.querySelectorAll(".pods.surge").length > 0`, "two pods of the DaemonSet side by side")
	if bad := eval[[]string](p, cardsClipped); len(bad) > 0 {
		t.Errorf("1280x720 during a surge: %s", strings.Join(bad, "\n"))
	}
	if open := eval[bool](p, `document.querySelector('#rollout .ro-ds[data-ds="fluentd-elasticsearch"] details').open`); !open {
		t.Error("the rollout block is folded while the rollout runs")
	}
	eval[bool](p, `(function(){ document.querySelector(".cluster-pane").scrollTop = 0; scrollTo(0, 0); return true; })()`)
	p.screenshot("layout-surge-1280x720")
	p.advance(60)
	p.waitJS(`!document.querySelector('#rollout .ro-ds[data-ds="fluentd-elasticsearch"] details').open`, "the rolled-out block to fold to one line")
	// three DaemonSets
	p.apply(dsDoc("default", "alpha", "") + dsDoc("default", "beta", ""))
	p.advance(10)
	if h := eval[[]float64](p, nodeAreaHeight); h[0] < h[1] || h[0] < 290 {
		t.Errorf("1280x720, three DaemonSets: the node area is %g px high, want at least %g (its cards' height, up to 300)", h[0], h[1])
	}
	if bad := eval[[]string](p, cardsClipped); len(bad) > 0 {
		t.Errorf("1280x720, three DaemonSets: %s", strings.Join(bad, "\n"))
	}
	eval[bool](p, `(function(){ document.querySelector(".cluster-pane").scrollTop = 0; document.getElementById("nodes").scrollTop = 0; scrollTo(0, 0); return true; })()`)
	p.screenshot("layout-three-ds-1280x720")
	// the timeline strip is one line until it has the focus
	one := eval[[]float64](p, `(function(){ const l = document.getElementById("tl-label"), h = document.querySelector(".tl-head"); return [l.getBoundingClientRect().height, l.getBoundingClientRect().top - h.getBoundingClientRect().top, document.getElementById("tl-decisions").getBoundingClientRect().height]; })()`)
	if one[0] > 20 || one[1] > 10 || one[2] != 0 {
		t.Errorf("the timeline strip is not one line: label %gpx high, %gpx below the controls; decisions %gpx", one[0], one[1], one[2])
	}
	eval[bool](p, `(function(){ document.getElementById("tl-range").focus(); return true; })()`)
	p.frames(2)
	if h := eval[float64](p, `document.getElementById("tl-decisions").getBoundingClientRect().height`); h == 0 {
		t.Error("with the focus on the slider, the step's decisions do not show")
	}
	p.checkConsole()
}

// Issue item 3: pod names are cut in the middle, keeping the random suffix,
// images keep their name and tag; the whole text is the chip's text (copy)
// and in its title, in the cluster view and the compare view.
func TestMiddleTruncation(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	p.advance(10)
	got := eval[[]string](p, `[...document.querySelectorAll("#nodes .pod:not(.gone)")].map(c => {
		const n = c.querySelector(".pod-name"), i = c.querySelector(".pod-image");
		return [n.textContent === c.dataset.pod, n.querySelector(".mid-t").textContent, i.querySelector(".mid-t").textContent,
			c.title.includes(c.dataset.pod) && c.title.includes(i.textContent), n.scrollWidth > n.clientWidth || n.querySelector(".mid-h").scrollWidth > n.querySelector(".mid-h").clientWidth].join(" ");
	})`)
	if len(got) == 0 {
		t.Fatal("no pod chips")
	}
	imgCut := eval[[]string](p, `[...document.querySelectorAll("#nodes .pod:not(.gone) .pod-image")].filter(i => {
		const t = i.querySelector(".mid-t"); if (!t) return true;
		const rg = document.createRange(); rg.selectNodeContents(t);
		return rg.getBoundingClientRect().right > i.getBoundingClientRect().right + 0.5;
	}).map(i => i.textContent)`)
	if len(imgCut) > 0 {
		t.Errorf("images whose name:tag is cut: %v", imgCut)
	}
	for _, g := range got {
		f := strings.Fields(g)
		if f[0] != "true" || !strings.HasPrefix(f[1], "-") || len(f[1]) != 6 || f[2] != "fluentd:v2.5.2" || f[3] != "true" {
			t.Errorf("chip [whole name, name tail, image tail, title, cut]: %s", g)
		}
	}
	// cut: the chip is narrow, the head ends in an ellipsis and the tail shows
	if cut := eval[bool](p, `[...document.querySelectorAll("#nodes .pod:not(.gone) .pod-image")].some(i => i.querySelector(".mid-h").scrollWidth > i.querySelector(".mid-h").clientWidth)`); !cut {
		t.Log("no image was long enough to be cut at 1280x720")
	}
	if msg := eval[string](p, `dsplay.compare("")`); msg != "" {
		t.Fatal(msg)
	}
	p.waitJS(`document.querySelectorAll(".cmp-pod").length > 0`, "the compare view's pods")
	bad := eval[[]string](p, `[...document.querySelectorAll(".cmp-pod")].filter(b => {
		const n = b.querySelector(".pod-name"), tail = n.querySelector(".mid-t");
		const fits = (e) => { const rg = document.createRange(); rg.selectNodeContents(e.querySelector(".mid-t")); return rg.getBoundingClientRect().right <= e.getBoundingClientRect().right + 0.5; };
		const img = b.querySelector(".pod-image");
		return n.textContent !== b.dataset.pod || !tail || !fits(n) || !b.title.includes(b.dataset.pod) || !img.querySelector(".mid-t").textContent.includes(":") || !fits(img);
	}).map(b => b.dataset.pod)`)
	if len(bad) > 0 {
		t.Errorf("compare view chips without their suffix, tag or title: %v", bad)
	}
	p.screenshot("mid-truncation-compare")
	p.checkConsole()
}

// Issue item 4: the legend's revision key shows only revisions that
// exist: r1 alone at first; r2 with a hollow r1 while old pods remain.
func TestRevisionKeyShowsExistingRevisions(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	key := `[...document.querySelectorAll("#legend-rev .rev-tag")].map(e => e.textContent + (e.classList.contains("old") ? "(old)" : "")).join(" ")`
	if k := eval[string](p, key); k != "r1" {
		t.Errorf("with one revision the legend's key shows %q, want r1", k)
	}
	p.runKubectl("kubectl set image ds/fluentd-elasticsearch fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0")
	p.advance(0.5)
	if k := eval[string](p, key); k != "r2 r1(old)" {
		t.Errorf("during the rollout the legend's key shows %q, want r2 r1(old)", k)
	}
	p.advance(120)
	p.waitJS(`document.querySelectorAll("#legend-rev .rev-tag.old").length === 0`, "the key to drop r1 once no pod runs it")
	p.checkConsole()
}

// Issue items 5 and 6: a long command line never runs under its copy
// button, and at 1280x720 the editor's key hint is not cut.
func TestCopyButtonAndEditorHint(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1280, 720)
	p.advance(5)
	p.runKubectl("kubectl set image ds/fluentd-elasticsearch fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0 --record=false")
	over := eval[[]string](p, `(function(){
		const out = [];
		for (const e of document.querySelectorAll("#kout .entry")) {
			const btn = e.querySelector(".copy").getBoundingClientRect();
			const cmd = e.querySelector(".cmd");
			const r = document.createRange(); r.selectNodeContents(cmd);
			for (const q of r.getClientRects())
				if (q.width > 0 && q.right > btn.left && q.left < btn.right && q.bottom > btn.top && q.top < btn.bottom) out.push(cmd.textContent);
		}
		return out;
	})()`)
	if len(over) > 0 {
		t.Errorf("the copy button covers the command lines %q", over)
	}
	if cut := eval[bool](p, `(function(){ const h = document.querySelector(".editor-pane .pane-head .hint"); return h.scrollWidth > h.clientWidth + 0.5; })()`); cut {
		t.Errorf("at 1280x720 the editor's hint is cut: %q", eval[string](p, `document.querySelector(".editor-pane .pane-head .hint").textContent`))
	}
	p.screenshot("copy-button-1280x720")
	p.checkConsole()
}

// Issue item 1: the node panel's buttons fail, recover, cordon, pressure
// and delete a node through the recorder (each a timeline step), echoed in
// the console; window.dsplay's failNode, recoverNode, setCondition do the
// same.
func TestNodePanelActions(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1440, 900)
	p.advance(10)
	click := func(sel string) {
		t.Helper()
		if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
		p.frames(2)
	}
	steps := func() int { return eval[int](p, `dsplay.steps().length`) }
	click(`.node[data-node="node-1"] .node-head`)
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	if h := eval[string](p, `document.querySelector("#panel .na-help").textContent`); !strings.Contains(h, "kubelet") || !strings.Contains(h, "Fail node") {
		t.Errorf("the panel's help says %q", h)
	}
	n := steps()
	click(`#panel [data-act="fail"]`)
	if steps() <= n {
		t.Error("Fail node added no timeline step")
	}
	if c := eval[string](p, `[...document.querySelectorAll("#kout .cmd")].pop().textContent`); !strings.Contains(c, "# fail node node-1") {
		t.Errorf("the console's last command is %q", c)
	}
	p.waitJS(`!!document.querySelector('#panel [data-act="recover"]')`, "Recover in place of Fail node")
	p.advance(60)
	p.runKubectl("kubectl get node node-1")
	if out, _ := p.lastOutput(); !strings.Contains(out, "NotReady") {
		t.Errorf("60 s after Fail node: %q", out)
	}
	click(`.node[data-node="node-1"] .node-head`) // the console took the focus: open again
	if eval[bool](p, `document.getElementById("panel").hidden`) {
		click(`.node[data-node="node-1"] .node-head`)
	}
	click(`#panel [data-act="recover"]`)
	p.advance(2)
	p.runKubectl("kubectl get node node-1")
	if out, _ := p.lastOutput(); !strings.Contains(out, " Ready ") {
		t.Errorf("after Recover: %q", out)
	}
	if eval[bool](p, `document.getElementById("panel").hidden`) {
		click(`.node[data-node="node-1"] .node-head`)
	}
	click(`#panel [data-act="cordon"]`)
	if c := eval[string](p, `[...document.querySelectorAll("#kout .block")].pop().textContent`); !strings.Contains(c, "$ kubectl cordon node-1") || !strings.Contains(c, "node/node-1 cordoned") {
		t.Errorf("Cordon printed %q", c)
	}
	p.waitJS(`!!document.querySelector('#panel [data-act="uncordon"]')`, "Uncordon in place of Cordon")
	click(`#panel [data-act="cond"][data-type="MemoryPressure"]`)
	p.waitJS(`document.querySelector('#panel [data-type="MemoryPressure"]').getAttribute("aria-pressed") === "true"`, "the MemoryPressure toggle on")
	p.runKubectl("kubectl get node node-1 -o jsonpath={.spec.taints[*].key}")
	if out, _ := p.lastOutput(); !strings.Contains(out, "node.kubernetes.io/memory-pressure") {
		t.Errorf("MemoryPressure on: taints %q", out)
	}
	p.screenshot("node-panel-actions")
	// the hooks
	if msg := eval[string](p, `dsplay.setCondition("node-2", "DiskPressure", "True")`); msg != "" {
		t.Errorf("setCondition: %s", msg)
	}
	if msg := eval[string](p, `dsplay.failNode("nope")`); !strings.Contains(msg, "not found") {
		t.Errorf("failNode of an unknown node returned %q", msg)
	}
	n = steps()
	if msg := eval[string](p, `dsplay.failNode("node-2")`); msg != "" {
		t.Errorf("failNode: %s", msg)
	}
	if msg := eval[string](p, `dsplay.recoverNode("node-2")`); msg != "" {
		t.Errorf("recoverNode: %s", msg)
	}
	if steps() < n+2 {
		t.Errorf("failNode and recoverNode added %d steps, want 2", steps()-n)
	}
	// Delete node
	if eval[bool](p, `document.getElementById("panel").hidden`) {
		click(`.node[data-node="node-1"] .node-head`)
	}
	click(`#panel [data-act="delete"]`)
	p.waitJS(`!document.querySelector('.node[data-node="node-1"]')`, "node-1's card to go")
	if c := eval[string](p, `[...document.querySelectorAll("#kout .block")].pop().textContent`); !strings.Contains(c, "kubectl delete node node-1") {
		t.Errorf("Delete node printed %q", c)
	}
	p.checkConsole()
}
