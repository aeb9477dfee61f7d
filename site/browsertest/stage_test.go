package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// stageDS is a DaemonSet "agent" of busybox sleeping forever: as PID 1,
// sleep ignores SIGTERM, so a deleted pod stays Terminating for its whole
// grace period (grace seconds), long enough to watch its countdown.
func stageDS(strategy string, grace int) string {
	return rolloutDoc("agent", strategy, "busybox:1.36", fmt.Sprintf(`        command: ["sleep", "infinity"]
      terminationGracePeriodSeconds: %d
`, grace))
}

// stageReady opens a clean paused page with doc applied and every pod
// ready (the stage's queue played out).
func stageReady(t *testing.T, doc string) *page {
	t.Helper()
	p := open(t, "?paused")
	if msg := eval[string](p, `dsplay.reset()`); msg != "" {
		t.Fatal(msg)
	}
	if msg := eval[string](p, fmt.Sprintf(`dsplay.apply(%q)`, doc)); msg != "" {
		t.Fatalf("apply: %s", msg)
	}
	p.advance(20)
	p.waitJS(`!dsplay.stage().holding && document.querySelectorAll('#nodes .pod.phase-running[data-owner="agent"]').length === 2`, "two running agent pods, the stage idle")
	// a pod bound long ago is not drawn waiting for its bind (a newer batch
	// dropped the bind job while its create still played)
	if stale := eval[[]string](p, `[...document.querySelectorAll('#nodes .pod.st-unbound, #nodes .pod.st-wait')].map(c => c.dataset.pod + ": " + c.className)`); len(stale) > 0 {
		t.Errorf("the stage is idle but chips still wait for a create or bind: %v", stale)
	}
	return p
}

// podAnimations is a JS expression: how many animations run on pod chips.
const podAnimations = `document.getAnimations().filter(a => a.playState === "running" && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest(".pod")).length`

// chipMoves is a JS expression (a Promise): whether the chip matching sel
// is at different places in two frames 120 ms apart.
func chipMoves(sel string) string {
	return fmt.Sprintf(`new Promise(res => {
		const pos = () => { const e = document.querySelector(%q); if (!e) return "none"; const r = e.getBoundingClientRect(); return r.left.toFixed(1) + "," + r.top.toFixed(1) + "," + r.width.toFixed(1); };
		const a = pos();
		setTimeout(() => requestAnimationFrame(() => res(a !== "none" && pos() !== a)), 120);
	})`, sel)
}

// The stage, placement: a new DaemonSet's pods fly from its row to their
// nodes one after another (running animations, positions that change across
// frames), the scheduler's bind is its own transition, and virtual time
// waits while they play.
func TestStagePlacementAnimates(t *testing.T) {
	p := open(t, "?paused")
	eval[string](p, `dsplay.reset()`)
	p.waitJS(`!dsplay.stage().holding`, "the stage idle")
	eval[bool](p, `dsplay.play(), true`)
	if msg := eval[string](p, fmt.Sprintf(`dsplay.apply(%q)`, stageDS("{type: RollingUpdate}", 5))); msg != "" {
		t.Fatal(msg)
	}
	p.waitJS(podAnimations+` > 0`, "animations on the new pod chips")
	if !evalAwait[bool](p, chipMoves(`#nodes .pod[data-owner="agent"]:not(.st-wait)`)) {
		t.Error("a new pod chip did not move between two frames")
	}
	p.waitJS(`dsplay.stage().holding`, "the stage to hold the clock")
	t0 := eval[float64](p, `dsplay.elapsed()`)
	time.Sleep(150 * time.Millisecond)
	if t1 := eval[float64](p, `dsplay.elapsed()`); t1 != t0 && eval[bool](p, `dsplay.stage().holding`) {
		t.Errorf("virtual time moved from %gs to %gs while the stage held it", t0, t1)
	}
	kinds := eval[[]string](p, `dsplay.stage().last.map(t => t.kind + " " + (t.component || "") + " " + (t.func || ""))`)
	joined := strings.Join(kinds, "\n")
	for _, want := range []string{"pod-create daemonset-controller syncNodes", "pod-bind default-scheduler bind"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the stage's transitions lack %q:\n%s", want, joined)
		}
	}
	p.waitJS(`document.querySelectorAll('#nodes .pod.st-pulling[data-owner="agent"] .pod-pull > i').length > 0`, "a pull progress bar")
	p.shotNow("stage-placement")
	eval[bool](p, `dsplay.pause(), true`)
	p.advance(15)
	p.waitJS(`document.querySelectorAll('#nodes .pod.phase-running[data-owner="agent"]').length === 2`, "both pods running")
	p.checkConsole()
}

// The stage, RollingUpdate: the budget strip shows the slot maxUnavailable
// spends while the old pod terminates through its grace period, with a
// countdown, a caption naming rollingUpdate, and revisions on every pod.
func TestStageRollingUpdateBudget(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}", 20))
	if !eval[bool](p, `document.querySelectorAll('#rollout .budget .slot.available').length === 2`) {
		t.Errorf("budget before the update: %s", eval[string](p, `(document.querySelector('#rollout .budget')||{}).outerHTML||"none"`))
	}
	p.runKubectl("kubectl set image ds/agent main=busybox:1.37")
	p.waitJS(`document.querySelectorAll('#rollout .budget .slot.unavailable').length === 1`, "an unavailable slot in the budget strip")
	if got := eval[string](p, `document.querySelector('#rollout .budget-label').textContent + " | " + document.querySelector('#rollout .budget').title`); !strings.Contains(got, "1 unavailable · maxUnavailable 1 | update budget: maxUnavailable 1, 1 in use") {
		t.Errorf("budget label %q, want 1 unavailable · maxUnavailable 1", got)
	}
	p.waitJS(`[...document.querySelectorAll('#nodes .pod.phase-terminating .pod-count')].some(e => /Terminating · \d+s of grace left/.test(e.textContent))`, "a terminating pod's countdown")
	p.waitJS(`[...document.querySelectorAll('#nodes .caption')].some(c => /deleted by rollingUpdate · old revision 1 pod, 1 of maxUnavailable=1 used/.test(c.textContent))`, "the rollingUpdate caption on the pod")
	before := eval[string](p, `document.querySelector('#nodes .pod.phase-terminating .pod-count').textContent`)
	p.shotNow("stage-rolling-terminating")
	p.advance(3)
	after := eval[string](p, `(document.querySelector('#nodes .pod.phase-terminating .pod-count')||{}).textContent||""`)
	if before == after {
		t.Errorf("the countdown did not move with virtual time: %q then %q", before, after)
	}
	if op := eval[float64](p, `+getComputedStyle(document.querySelector('#nodes .pod.phase-terminating .pod-name')).opacity`); op > 0.95 {
		t.Errorf("a terminating pod 3 s into its grace period has opacity %g: it should fade", op)
	}
	// the chip's content fades, not the chip: its countdown and caption stay readable
	p.waitJS(`+getComputedStyle(document.querySelector('#nodes .pod.phase-terminating')).opacity === 1`, "the terminating chip itself at full opacity (its content fades, its countdown and caption stay readable)")
	if !eval[bool](p, `[...document.querySelectorAll('#nodes .pod[data-owner="agent"]')].every(c => /^r\d$/.test(c.querySelector('.rev-tag').textContent))`) {
		t.Error("a pod chip has no revision tag")
	}
	p.checkConsole()
}

// The stage, NoExecute: the pod is pushed off its node (a transform that
// changes while it plays) with the caption naming the taint; the taint's
// badge lands on the node with its effect.
func TestStageNoExecuteEvicts(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 8))
	p.runKubectl("kubectl taint nodes node-1 dedicated=infra:NoExecute")
	p.waitJS(`!!document.querySelector('.node[data-node="node-1"] .taint.eff-NoExecute')`, "the NoExecute badge on node-1")
	p.waitJS(`!!document.querySelector('.node[data-node="node-1"] .pod.st-evicted')`, "the evicted pod marked on node-1")
	moving := evalAwait[bool](p, chipMoves(`.node[data-node="node-1"] .pod.st-evicted`))
	anims := eval[int](p, `document.getAnimations().filter(a => a.playState === "running" && a.effect.target.closest('.node[data-node="node-1"] .pod')).length`)
	if !moving && anims == 0 {
		t.Error("the evicted pod neither moved nor ran an animation")
	}
	p.waitJS(`[...document.querySelectorAll('.node[data-node="node-1"] .caption')].some(c => c.textContent === "evicted: taint dedicated=infra:NoExecute is not tolerated")`, "the eviction caption")
	p.shotNow("stage-noexecute")
	p.runKubectl("kubectl taint nodes node-1 dedicated=infra:NoExecute-")
	p.advance(15)
	p.waitJS(`document.querySelectorAll('.node[data-node="node-1"] .pod.phase-running[data-owner="agent"]').length === 1`, "the pod back on node-1 once the taint is gone")
	p.checkConsole()
}

// The stage and the DaemonSet table: the table's counts follow the
// picture. While the stage plays an eviction the table still shows the
// counts from before it; once the stage is idle they are the new ones.
func TestStageTableFollowsStage(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 8))
	desired := `document.querySelector('#ds-rows tr[data-ds="agent"] td:nth-child(2)').textContent`
	if got := eval[string](p, desired); got != "2" {
		t.Fatalf("DESIRED before the taint: %q, want 2", got)
	}
	samples := evalAwait[[]string](p, `new Promise(res => {
		dsplay.run("kubectl taint nodes node-1 dedicated=infra:NoExecute");
		const out = []; let idle = 0;
		const f = () => {
			const h = dsplay.stage().holding;
			out.push((h ? "holding " : "idle ") + `+desired+`);
			idle = h ? 0 : idle + 1;
			if (out.length < 600 && (idle < 5 || out.length < 10)) requestAnimationFrame(f); else res(out);
		};
		requestAnimationFrame(f);
	})`)
	held := 0
	for _, s := range samples {
		if s == "holding 1" {
			t.Fatalf("the table showed the new DESIRED while the stage still played the eviction: %v", samples)
		}
		if s == "holding 2" {
			held++
		}
	}
	if held == 0 {
		t.Errorf("the stage never held while the eviction played: %v", samples)
	}
	if last := samples[len(samples)-1]; last != "idle 1" {
		t.Errorf("once the stage is idle the table shows %q, want DESIRED 1 (samples %v)", last, samples)
	}
	p.checkConsole()
}

// The stage, taint ↔ toleration lines: hovering a pod on a tainted node
// draws a line from each taint badge to the pod — solid when a toleration
// tolerates it, dashed when none does — and lists the pairs on the chip.
func TestStageTolerationLines(t *testing.T) {
	doc := strings.Replace(stageDS("{type: RollingUpdate}", 5), "      containers:\n", "      tolerations:\n      - {key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule}\n      containers:\n", 1)
	p := open(t, "?paused")
	eval[string](p, `dsplay.reset()`)
	if msg := eval[string](p, fmt.Sprintf(`dsplay.apply(%q)`, doc)); msg != "" {
		t.Fatal(msg)
	}
	p.advance(20)
	p.waitJS(`!dsplay.stage().holding && document.querySelectorAll('#nodes .pod.phase-running[data-owner="agent"]').length === 3`, "three running agent pods")
	hover := func(node string) {
		t.Helper()
		eval[bool](p, fmt.Sprintf(`document.querySelector('.node[data-node=%q] .pod[data-owner="agent"]').dispatchEvent(new MouseEvent("mouseover", {bubbles: true})), true`, node))
	}
	hover("control-plane")
	p.waitJS(`document.querySelectorAll('.node[data-node="control-plane"] svg.tol-lines path.tol-ok').length === 1`, "a solid line from the control-plane taint to its pod")
	if got := eval[string](p, `document.querySelector('.node[data-node="control-plane"] .tol-box').textContent`); !strings.Contains(got, "✓ node-role.kubernetes.io/control-plane:NoSchedule tolerated by node-role.kubernetes.io/control-plane:NoSchedule op=Exists") {
		t.Errorf("control-plane pod's tolerations %q", got)
	}
	p.shotNow("stage-toleration-lines")
	p.runKubectl("kubectl taint nodes node-1 team=a:NoSchedule")
	p.waitJS(`!dsplay.stage().holding`, "the stage idle")
	hover("node-1")
	p.waitJS(`document.querySelectorAll('.node[data-node="node-1"] svg.tol-lines path.tol-no').length === 1`, "a dashed line from node-1's untolerated taint to its kept pod")
	if n := eval[int](p, `document.querySelectorAll('svg.tol-lines').length`); n != 1 {
		t.Errorf("%d line overlays drawn: the previous pod's lines stayed", n)
	}
	if got := eval[string](p, `document.querySelector('.node[data-node="node-1"] .tol-box').textContent`); !strings.Contains(got, "✗ team=a:NoSchedule not tolerated: no new pod is placed here; a running one stays") {
		t.Errorf("node-1 pod's tolerations %q", got)
	}
	eval[bool](p, `document.getElementById("nodes").dispatchEvent(new MouseEvent("mouseleave")), true`)
	p.waitJS(`!document.querySelector('svg.tol-lines') && !document.querySelector('.taint.tol-no, .taint.tol-ok')`, "the lines gone with the pointer")

	// From the keyboard: a pod chip takes the focus (Tab reaches it), shows
	// its lines while focused, and Enter opens its history as a click does.
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.CSS(`.node[data-node="control-plane"] .pod[data-owner="agent"]`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.activeElement.matches('.pod[data-owner="agent"]') && document.querySelectorAll('.node[data-node="control-plane"] svg.tol-lines path.tol-ok').length === 1`, "the focused pod's toleration line")
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!!document.querySelector('.pod-history')`, "Enter on the focused pod to open its history")
	p.checkConsole()
}

// The stage, NoSchedule under a running pod: it stays, marked kept.
func TestStageNoScheduleKeeps(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 8))
	p.runKubectl("kubectl taint nodes node-2 k=v:NoSchedule")
	p.waitJS(`(document.querySelector('.node[data-node="node-2"] .pod.st-kept .pod-mark')||{}).textContent === "kept"`, "the kept mark on node-2's pod")
	if !eval[bool](p, `!!document.querySelector('.node[data-node="node-2"] .taint.eff-NoSchedule')`) {
		t.Error("no NoSchedule badge on node-2")
	}
	p.checkConsole()
}

// The stage, OnDelete: after a template change every pod wears "outdated"
// and nothing moves; a deleted pod's replacement comes with the new
// revision.
func TestStageOnDeleteOutdated(t *testing.T) {
	p := stageReady(t, stageDS("{type: OnDelete}", 2))
	p.runKubectl("kubectl set image ds/agent main=busybox:1.37")
	p.waitJS(`[...document.querySelectorAll('#nodes .pod[data-owner="agent"] .pod-mark')].filter(m => m.textContent === "outdated").length === 2`, "both pods marked outdated")
	p.advance(5)
	if n := eval[int](p, `document.querySelectorAll('#nodes .pod.phase-terminating').length`); n != 0 {
		t.Errorf("OnDelete replaced %d pod(s) by itself", n)
	}
	name := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod[data-owner="agent"]').dataset.pod`)
	p.runKubectl("kubectl delete pod " + name + " --wait=false")
	p.advance(15)
	p.waitJS(`(function(){ const c = document.querySelector('.node[data-node="node-1"] .pod.phase-running[data-owner="agent"]'); return c && c.dataset.rev === "2" && c.querySelector('.pod-mark').textContent === ""; })()`, "the replacement on node-1 at revision 2, not outdated")
	p.checkConsole()
}

// The stage: clicking a decision lights up its pod and node; clicking a
// pod shows its own history.
func TestStageDecisionHighlightsPod(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 2))
	pod := eval[string](p, `(function(){ const li = [...document.querySelectorAll('#log li[data-obj^="Pod/"]')].find(l => l.dataset.node === "node-2"); li.click(); return li.dataset.obj; })()`)
	p.waitJS(`!!document.querySelector('.node[data-node="node-2"].hl') && !!document.querySelector('.node[data-node="node-2"] .pod.hl')`, "the decision's node and pod highlighted ("+pod+")")
	eval[bool](p, `document.querySelector('.node[data-node="node-2"] .pod').click(), true`)
	p.waitJS(`!!document.querySelector('.pod-history') && /created by|syncNodes/.test(document.querySelector('.pod-history').textContent) && /bind/.test(document.querySelector('.pod-history').textContent)`, "the pod's history")
	p.checkConsole()
}

// The stage: "Next event" moves virtual time to the next change, not by a
// fixed second.
func TestStageNextEvent(t *testing.T) {
	p := open(t, "?paused")
	eval[string](p, `dsplay.reset()`)
	eval[string](p, fmt.Sprintf(`dsplay.apply(%q)`, stageDS("{type: RollingUpdate}", 2)))
	moved := eval[float64](p, `dsplay.nextEvent()`)
	if moved <= 0 || moved > 5 {
		t.Errorf("next event moved %gs, want a pull-start moment within 5 s", moved)
	}
	p.checkConsole()
}

// The stage in a lesson: a step takes visible wall time (slow motion), its
// pods animate while it plays, "Skip to end" is offered, and "Replay this
// step" plays it again.
func TestStageLessonSlowMotion(t *testing.T) {
	p := open(t, "?paused")
	eval[bool](p, `dsplay.pace(true)`)
	id := eval[string](p, `dsplay.lessons().find(l => /rolling|RollingUpdate/i.test(l.id + l.title)).id`)
	if msg := eval[string](p, fmt.Sprintf(`dsplay.openLesson(%q)`, id)); msg != "" {
		t.Fatal(msg)
	}
	p.waitJS(`dsplay.lessonState() && !dsplay.lessonState().busy`, "the lesson open")
	steps := eval[int](p, `dsplay.lessonState().steps`)
	// 5×: slow motion still, and a shorter test
	eval[bool](p, `(function(){ const s = document.getElementById("speed"); s.value = "5"; s.dispatchEvent(new Event("change")); return true; })()`)
	sawAnim, sawSkip := false, false
	var longest time.Duration
	for i := 1; i < steps && i <= 3; i++ {
		start := time.Now()
		if msg := eval[string](p, `dsplay.nextStep()`); msg != "" {
			t.Fatalf("step %d: %s", i, msg)
		}
		deadline := time.Now().Add(90 * time.Second)
		for eval[bool](p, `dsplay.lessonState().busy`) && time.Now().Before(deadline) {
			sawAnim = sawAnim || eval[int](p, podAnimations) > 0
			sawSkip = sawSkip || eval[bool](p, `!!document.querySelector('button[data-act="skip"]')`)
			time.Sleep(40 * time.Millisecond)
		}
		longest = max(longest, time.Since(start))
	}
	t.Logf("longest step: %s", longest.Round(time.Millisecond))
	if longest < 1500*time.Millisecond {
		t.Errorf("the longest lesson step took %s of wall time: it jumped to its end", longest)
	}
	if !sawAnim {
		t.Error("no pod animation ran while the steps played")
	}
	if !sawSkip {
		t.Error(`no "Skip to end" button while a step played`)
	}
	step := eval[int](p, `dsplay.lessonState().step`)
	if !eval[bool](p, `!!document.querySelector('button[data-act="replay"]')`) {
		t.Fatal(`no "Replay this step" button`)
	}
	eval[bool](p, `document.querySelector('button[data-act="replay"]').click(), true`)
	p.waitJS(`dsplay.lessonState().busy`, "the replay to start")
	time.Sleep(600 * time.Millisecond)
	p.shotNow("stage-lesson-replay")
	eval[bool](p, `(document.querySelector('button[data-act="skip"]')||{click(){}}).click(), true`)
	p.waitJS(`!dsplay.lessonState().busy`, "the replay to end")
	// Skip to end shows the end: nothing stale is left to play
	if q := eval[float64](p, `dsplay.stage().queued`); q != 0 {
		t.Errorf("%v transitions still queued right after Skip to end", q)
	}
	if got := eval[int](p, `dsplay.lessonState().step`); got != step {
		t.Errorf("after the replay the lesson shows step %d, want %d", got, step)
	}
	if f := eval[[]string](p, `dsplay.lessonState().failures || []`); len(f) > 0 {
		t.Errorf("the replayed step failed: %v", f)
	}
	p.checkConsole()
}

// The stage, a delete typed in the console: the command waits as kubectl
// does, and meanwhile the pod is visibly Terminating with its countdown;
// then the replacement arrives.
func TestStageConsoleDeletePlays(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 6))
	eval[bool](p, `dsplay.pace(true)`)
	name := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod[data-owner="agent"]').dataset.pod`)
	start := time.Now()
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("kubectl")), chromedp.SendKeys(chromedp.ID("kubectl"), "kubectl delete pod "+name+"\n")); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!!document.querySelector('#kout .block.waiting')`, "the delete waiting in the console")
	p.waitJS(`[...document.querySelectorAll('.node[data-node="node-1"] .pod.phase-terminating .pod-count')].some(e => /Terminating · \d+s of grace left/.test(e.textContent))`, "the deleted pod Terminating with its countdown while the delete waits")
	p.shotNow("stage-console-delete")
	// typed while it waits: queued, run when it returns (type-ahead)
	if err := chromedp.Do(p.ctx, chromedp.SendKeys(chromedp.ID("kubectl"), "kubectl get ds agent\n")); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`[...document.querySelectorAll('#kout .note')].some(n => n.textContent.startsWith("queued: kubectl get ds agent"))`, "the typed-ahead command queued")
	p.waitJS(`!document.querySelector('#kout .block.waiting')`, "the delete to return")
	p.waitJS(`[...document.querySelectorAll('#kout .block')].some(b => b.textContent.includes("$ kubectl get ds agent") || b.querySelector('.cmd') && b.querySelector('.cmd').textContent.includes("kubectl get ds agent"))`, "the queued command run after the delete")
	if d := time.Since(start); d < 2*time.Second {
		t.Errorf("the delete of a pod with a 6 s grace period returned after %s of wall time: its wait did not play", d)
	}
	if out := eval[string](p, `document.getElementById("kout").textContent`); !strings.Contains(out, `pod "`+name+`" deleted`) {
		t.Errorf("no delete output in %q", out)
	}
	p.advance(15)
	p.waitJS(`document.querySelectorAll('.node[data-node="node-1"] .pod.phase-running[data-owner="agent"]').length === 1`, "the replacement running on node-1")
	p.checkConsole()
}

// The stage on a phone: a delete typed in the console (below the
// cluster) plays where the learner cannot see it, so a peek at the
// window's edge says what happens; a tap brings the pod into view.
func TestStagePeekOffScreen(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 6))
	p.viewport(390, 844)
	name := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod[data-owner="agent"]').dataset.pod`)
	eval[bool](p, `document.getElementById("kubectl").scrollIntoView({block: "end"}), true`)
	chip := fmt.Sprintf(`document.querySelector('.pod[data-pod=%q]')`, name)
	if eval[bool](p, `(r => r.bottom > 0 && r.top < innerHeight)(`+chip+`.getBoundingClientRect())`) {
		t.Fatal("the pod chip is in the window with the console scrolled into view: the test needs it off-screen")
	}
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("kubectl")), chromedp.SendKeys(chromedp.ID("kubectl"), "kubectl delete pod "+name+" --wait=false\n")); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("stage-peek").hidden && /▲ deleted/.test(document.getElementById("stage-peek").textContent)`, "the peek pointing up at the deleted pod")
	p.shotNow("stage-peek-phone")
	eval[bool](p, `document.getElementById("stage-peek").click(), true`)
	p.waitJS(`(r => r.bottom > 0 && r.top < innerHeight)(`+chip+`.getBoundingClientRect())`, "the deleted pod scrolled into view")
	p.waitJS(`document.getElementById("stage-peek").hidden`, "the peek gone after the tap")
	p.checkConsole()
}

// The stage, side by side: in the compare view the RollingUpdate side's
// pods animate (kept elements, running animations, captions naming
// rollingUpdate) on the one clock, while the OnDelete side's stay.
func TestStageCompareAnimates(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}", 3))
	if msg := eval[string](p, `dsplay.compare("default/agent")`); msg != "" {
		t.Fatal(msg)
	}
	p.waitJS(`document.querySelectorAll('.cmp-side[data-side="RollingUpdate"] .cmp-pod').length === 2`, "the RollingUpdate side's pods")
	eval[bool](p, `dsplay.play(), true`)
	p.waitJS(`document.getAnimations().some(a => a.playState === "running" && a.effect && a.effect.target && a.effect.target.closest && a.effect.target.closest('.cmp-side[data-side="RollingUpdate"] .cmp-pod'))`, "an animation on a RollingUpdate-side pod")
	p.waitJS(`[...document.querySelectorAll('.cmp-side[data-side="RollingUpdate"] .caption')].some(c => /rollingUpdate/.test(c.textContent))`, "a rollingUpdate caption on the RollingUpdate side")
	p.shotNow("stage-compare")
	if n := eval[int](p, `document.querySelectorAll('.cmp-side[data-side="OnDelete"] .cmp-pod.phase-terminating').length`); n != 0 {
		t.Errorf("the OnDelete side terminates %d pod(s) by itself", n)
	}
	eval[bool](p, `(dsplay.compareExit(), true)`)
	p.checkConsole()
}

// Side by side, maxSurge 0 against maxSurge 1: both sides run
// RollingUpdate; on the maxSurge 1 side the new pod appears beside the old
// one on its node, on the maxSurge 0 side the old one goes first. The
// scrubber takes both sides back in time together; Live returns.
func TestStageCompareSurgeScrubs(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}", 3))
	if msg := eval[string](p, `dsplay.compare("default/agent")`); msg != "" {
		t.Fatal(msg)
	}
	eval[bool](p, `(m => (m.value = "surge", m.dispatchEvent(new Event("change")), true))(document.getElementById("cmp-mode"))`)
	p.waitJS(`(s => s && s.labels.join() === "maxSurge 0,maxSurge 1")(dsplay.compareState())`, "the sides named by their maxSurge")
	heads := eval[[]string](p, `[...document.querySelectorAll('.cmp-side-head')].map(h => h.textContent)`)
	if len(heads) != 2 || !strings.Contains(heads[0], "maxSurge 0 — stops a pod, then starts its replacement") || !strings.Contains(heads[1], "maxSurge 1 — starts the replacement beside the old pod, then stops it") {
		t.Errorf("side heads %q", heads)
	}
	// the surge side: at some point a node holds its old and its new pod
	pair := `[...document.querySelectorAll('.cmp-side[data-side="OnDelete"] .cmp-node')].some(c => c.querySelectorAll('.cmp-pod').length === 2)`
	sawPair := false
	for i := 0; i < 24 && !sawPair; i++ {
		p.advance(0.5)
		p.frames(2)
		sawPair = eval[bool](p, pair)
	}
	if !sawPair {
		t.Errorf("the maxSurge 1 side never showed a node with its old and new pod side by side:\n%s", eval[string](p, `document.getElementById("cmp-sides").innerText`))
	}
	p.shotNow("stage-compare-surge")
	p.advance(5) // so there is a past to go back to
	p.frames(2)
	// the slider spans the comparison: from the change to live
	lo := eval[float64](p, `+document.getElementById("cmp-scrub").min`)
	if el := eval[float64](p, `dsplay.compareState().elapsed`); lo <= 0 || lo >= el {
		t.Errorf("the slider starts at %gs; the comparison runs from its change to %gs", lo, el)
	}
	eval[bool](p, fmt.Sprintf(`(r => (r.value = "%g", r.dispatchEvent(new Event("input")), true))(document.getElementById("cmp-scrub"))`, lo+1))
	p.waitJS(fmt.Sprintf(`(s => s.past && Math.abs(s.at - %g) < 0.01)(dsplay.compareState())`, lo+1), "both sides 1 s after the change")
	if got, want := eval[string](p, `document.getElementById("cmp-scrub-at").textContent`), fmt.Sprintf("%.1f s (past)", lo+1); got != want {
		t.Errorf("scrubber label %q, want %q", got, want)
	}
	if n := eval[int](p, `document.querySelectorAll('.cmp-side[data-side="OnDelete"] .cmp-pod').length`); n == 0 {
		t.Error("no pods drawn in the past")
	}
	eval[bool](p, `document.getElementById("cmp-live").click(), true`)
	p.waitJS(`!dsplay.compareState().past && document.getElementById("cmp-scrub-at").textContent === "live"`, "back to live")
	eval[bool](p, `(dsplay.compareExit(), true)`)
	p.checkConsole()
}

// The stage: a node that leaves fades out where it was, saying so, and is
// no longer a node card meanwhile.
func TestStageNodeLeaves(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 2))
	p.runKubectl("kubectl delete node node-2")
	p.waitJS(`!document.querySelector('.node[data-node="node-2"]')`, "node-2's card gone")
	if !eval[bool](p, `[...document.querySelectorAll('#nodes .node-ghost .caption')].some(c => c.textContent === "left the cluster")`) {
		t.Error("no fading ghost of node-2 saying it left")
	}
	p.waitJS(`!document.querySelector('#nodes .node-ghost')`, "the ghost to go")
	p.checkConsole()
}
