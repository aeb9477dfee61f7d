package browsertest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// entryJS is a JS expression: the last console .entry whose command is cmd.
func entryJS(cmd string) string {
	return fmt.Sprintf(`[...document.querySelectorAll("#kout > .entry")].filter(e => e.querySelector(".block > .cmd").textContent === %q).pop()`, "$ "+cmd+"\n")
}

// Issue 1: `kubectl rollout status` returns at once in the page and
// streams its lines as the clock runs, like a terminal, ending with the
// rolled-out line; Ctrl+C stops a running one.
func TestRolloutStatusStreamsInConsole(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1", "fluentd Running on node-1")
	setImage := "kubectl set image ds/" + fluentd + " " + fluentd + "=quay.io/fluentd_elasticsearch/fluentd:v2.6.0"
	p.runKubectl(setImage)
	before := eval[float64](p, "dsplay.elapsed()")
	const status = "kubectl rollout status ds/" + fluentd
	p.runKubectl(status)
	if after := eval[float64](p, "dsplay.elapsed()"); after != before {
		t.Errorf("rollout status moved virtual time from %g to %g s", before, after)
	}
	blockText := entryJS(status) + `.querySelector(".block").textContent`
	first := eval[string](p, blockText)
	if !strings.HasPrefix(first, "$ "+status+"\nWaiting for daemon set \""+fluentd+"\" rollout to finish: ") || strings.Count(first, "\n") != 2 {
		t.Fatalf("rollout status printed at once:\n%s", first)
	}
	if !eval[bool](p, entryJS(status)+`.querySelector(".block").classList.contains("watching")`) {
		t.Errorf("the rollout status block is not marked as watching")
	}
	for i := 0; i < 180 && eval[bool](p, `document.querySelector("#kout .block.watching") !== null`); i++ {
		p.advance(1)
	}
	got := eval[string](p, blockText)
	if !strings.HasSuffix(got, "daemon set \""+fluentd+"\" successfully rolled out\n") {
		t.Fatalf("after the rollout the block reads:\n%s", got)
	}
	if eval[bool](p, `document.querySelector("#kout .block.watching") !== null`) {
		t.Errorf("the block still watches after the rolled-out line")
	}
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")[1:]
	if len(lines) < 3 {
		t.Errorf("only %d status lines:\n%s", len(lines), got)
	}
	for _, l := range lines {
		if !regexp.MustCompile(`^(Waiting for daemon set "` + fluentd + `" rollout to finish: \d+ (out of|of) \d+ .*\.\.\.|Waiting for daemon set spec update to be observed\.\.\.|daemon set "` + fluentd + `" successfully rolled out)$`).MatchString(l) {
			t.Errorf("not a line kubectl prints: %q", l)
		}
	}
	// Ctrl+C stops a running one; the next rollout goes on without it.
	p.runKubectl(strings.Replace(setImage, "v2.6.0", "v2.7.0", 1))
	p.runKubectl(status)
	p.waitJS(`document.querySelector("#kout .block.watching") !== null`, "the second rollout status to watch")
	p.key("c", chromedp.ModifierCtrl)
	p.waitJS(`document.querySelector("#kout .block.watching") === null`, "Ctrl+C to stop the rollout status")
	stopped := eval[string](p, blockText)
	if !strings.HasSuffix(stopped, "^C\n") {
		t.Errorf("after Ctrl+C the block ends %q", stopped[max(0, len(stopped)-60):])
	}
	p.advance(60)
	if now := eval[string](p, blockText); now != stopped {
		t.Errorf("the stopped rollout status printed more:\n%s", strings.TrimPrefix(now, stopped))
	}
	// --watch=false prints one line and does not watch.
	p.runKubectl(status + " --watch=false")
	if eval[bool](p, `document.querySelector("#kout .block.watching") !== null`) {
		t.Errorf("rollout status --watch=false watches")
	}
	p.checkConsole()
}

// Issue 1 at scale: on a 1,000-node cluster rollout status returns at
// once (the frame loop streams it); the wall time is logged.
func TestRolloutStatusLargeClusterReturns(t *testing.T) {
	p := open(t, "?paused")
	if msg := eval[string](p, `dsplay.addNodes("w", 1000)`); msg != "" {
		t.Fatalf("addNodes: %s", msg)
	}
	p.advance(20)
	eval[map[string]any](p, fmt.Sprintf(`dsplay.run("kubectl set image ds/%s %s=quay.io/fluentd_elasticsearch/fluentd:v2.6.0")`, fluentd, fluentd))
	before := eval[float64](p, "dsplay.elapsed()")
	start := time.Now()
	out := eval[map[string]any](p, fmt.Sprintf(`dsplay.run("kubectl rollout status ds/%s")`, fluentd))
	wall := time.Since(start)
	t.Logf("rollout status at 1,002 nodes: %v wall, stdout %q", wall, out["stdout"])
	if after := eval[float64](p, "dsplay.elapsed()"); after != before {
		t.Errorf("rollout status moved virtual time from %g to %g s", before, after)
	}
	if s, _ := out["stdout"].(string); strings.Count(s, "\n") != 1 || !strings.HasPrefix(s, "Waiting for daemon set") {
		t.Errorf("rollout status printed %q, want its first line only", s)
	}
	p.advance(5)
	if n := eval[int](p, `document.querySelector("#kout .block.watching").textContent.split("\n").length`); n < 3 {
		t.Errorf("after 5 s the rollout status block has %d lines", n)
	}
	p.checkConsole()
}

// Issue 2: the note "slower than chosen speed" shows when virtual time
// runs slower than the chosen speed over the last second (here: frames
// that take 150 ms, whose wall step is clamped to 100 ms), and goes away
// when it keeps up again.
func TestLagNoteShowsWhenSlow(t *testing.T) {
	p := open(t, "")
	// a small cluster at 1x keeps up (once the start-up frames are past)
	p.waitJS(`dsplay.elapsed() > 1.5 && !dsplay.lagging() && document.getElementById("lag").hidden`, "no lag note on a small cluster at 1x")
	eval[any](p, "dsplay.slowFramesForTest(150)")
	p.waitJS(`dsplay.lagging() && !document.getElementById("lag").hidden`, "the lag note with 150 ms frames")
	p.screenshot("dsplay-lag-note")
	eval[any](p, "dsplay.slowFramesForTest(0)")
	p.waitJS(`!dsplay.lagging() && document.getElementById("lag").hidden`, "the lag note to go once frames are fast")
	// Pausing hides it at once.
	eval[any](p, "dsplay.slowFramesForTest(150)")
	p.waitJS(`dsplay.lagging()`, "the lag note again")
	eval[any](p, "dsplay.pause()")
	if !eval[bool](p, `document.getElementById("lag").hidden`) {
		t.Errorf("the lag note shows while paused")
	}
	eval[any](p, "dsplay.slowFramesForTest(0)")
	p.checkConsole()
}

// Issue 3: while the timeline shows the past, the console's blocks of
// later commands are dimmed and say "not yet run at this point"; after
// "Continue from here" the dropped commands' blocks are struck through
// with "dropped: the timeline was rewound".
func TestConsoleFollowsTimeline(t *testing.T) {
	p := open(t, "?paused")
	p.advance(5)
	const a, b, c = "kubectl label nodes node-1 first=a", "kubectl label nodes node-2 second=b", "kubectl get nodes"
	p.runKubectl(a)
	p.advance(5)
	p.runKubectl(b)
	p.runKubectl(c)
	stepOf := eval[int](p, fmt.Sprintf(`dsplay.steps().findIndex(s => s.label.includes(%q))`, "first=a"))
	if stepOf < 0 {
		t.Fatalf("no step for %s: %v", a, eval[any](p, "dsplay.steps().map(s => s.label)"))
	}
	state := func(cmd string) string {
		return eval[string](p, fmt.Sprintf(`(function(){ const e = %s; if (!e) return "missing";
			const n = e.querySelector(".entry-note");
			return (e.classList.contains("future") ? "future" : e.classList.contains("dropped") ? "dropped" : "current") + (n ? " | " + n.textContent : ""); })()`, entryJS(cmd)))
	}
	check := func(when string, want map[string]string) {
		t.Helper()
		for cmd, w := range want {
			if got := state(cmd); got != w {
				t.Errorf("%s: the block of %q is %q, want %q", when, cmd, got, w)
			}
		}
	}
	if msg := eval[string](p, fmt.Sprintf("dsplay.seekStep(%d)", stepOf)); msg != "" {
		t.Fatal(msg)
	}
	future := "future | not yet run at this point"
	check("viewing the step of the first label", map[string]string{a: "current", b: future, c: future})
	p.screenshot("dsplay-console-past")
	eval[any](p, "dsplay.live()")
	check("back to live", map[string]string{a: "current", b: "current", c: "current"})

	eval[string](p, fmt.Sprintf("dsplay.seekStep(%d)", stepOf))
	if msg := eval[string](p, "dsplay.branch()"); msg != "" {
		t.Fatal(msg)
	}
	dropped := "dropped | dropped: the timeline was rewound"
	check("after continuing from there", map[string]string{a: "current", b: dropped, c: dropped})
	if got := eval[string](p, `getComputedStyle(`+entryJS(b)+`.querySelector(".block")).textDecorationLine`); got != "line-through" {
		t.Errorf("a dropped block is drawn with text-decoration %q", got)
	}
	// A command after the branch is current; viewing the past again marks
	// it, and leaves the dropped ones dropped.
	const d = "kubectl label nodes node-2 third=d"
	p.advance(2)
	p.runKubectl(d)
	check("after a new command", map[string]string{a: "current", b: dropped, d: "current"})
	eval[string](p, fmt.Sprintf("dsplay.seekStep(%d)", stepOf))
	check("viewing the past after the branch", map[string]string{a: "current", b: dropped, c: dropped, d: future})
	// The note is outside the block: copying a block copies kubectl's text only.
	if txt := eval[string](p, entryJS(b)+`.querySelector(".block").textContent`); strings.Contains(txt, "dropped") {
		t.Errorf("the block's text holds the note: %q", txt)
	}
	eval[any](p, "dsplay.live()")
	p.checkConsole()
}

// Issue 4: an invalid kubectl edit reopens the editor at its top with
// kubectl's reasons, marks the line of the field they name, and the result
// under the editor says what went wrong (not an earlier apply's answer).
func TestEditErrorMarksLine(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	if got := eval[string](p, `document.getElementById("apply-result").textContent`); !strings.Contains(got, "created") {
		t.Fatalf("the result area before the edit says %q", got)
	}
	p.runKubectl("kubectl edit ds " + fluentd)
	p.waitJS(`!document.getElementById("edit-bar").hidden`, "the edit bar")
	if got := eval[string](p, `document.getElementById("apply-result").textContent`); strings.Contains(got, "created") {
		t.Errorf("during the edit the result area still says %q", got)
	}
	eval[bool](p, `(function(){ const ta = document.getElementById("yaml"); ta.value = ta.value.replace(/image: \S+/, 'image: ""'); ta.scrollTop = 400; return true; })()`)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("edit-apply"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("yaml").value.includes("was not valid")`, "the editor to reopen with the errors")
	text := eval[string](p, `document.getElementById("yaml").value`)
	want := 0
	for i, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), `image: ""`) {
			want = i + 1
		}
	}
	if want == 0 {
		t.Fatalf("the reopened text has no empty image:\n%s", text)
	}
	if got := eval[[]string](p, `[...document.querySelectorAll("#marks .mark")].map(m => m.dataset.line)`); len(got) != 1 || got[0] != fmt.Sprint(want) {
		t.Errorf("marked lines %v, want [%d] (the empty image)", got, want)
	}
	if top := eval[float64](p, `document.getElementById("yaml").scrollTop`); top != 0 {
		t.Errorf("the reopened editor is scrolled to %g, want the top", top)
	}
	res := eval[string](p, `document.getElementById("apply-result").textContent`)
	if strings.Contains(res, "created") || !strings.Contains(res, "is invalid") || !strings.Contains(res, "spec.template.spec.containers[0].image") {
		t.Errorf("the result area says %q", res)
	}
	if li := eval[string](p, `(document.querySelector("#apply-result li[data-line]") || {}).dataset?.line || ""`); li != fmt.Sprint(want) {
		t.Errorf("the diagnostic names line %q, want %d", li, want)
	}
	if _, errOut := p.lastOutput(); !strings.Contains(errOut, "is invalid") {
		t.Errorf("the console shows stderr %q", errOut)
	}
	p.screenshot("dsplay-edit-error-marked")
	// Clicking the message selects the marked line.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`#apply-result li[data-line]`))); err != nil {
		t.Fatal(err)
	}
	if sel := eval[string](p, `(function(){ const ta = document.getElementById("yaml"); return ta.value.slice(ta.selectionStart, ta.selectionEnd); })()`); !strings.HasSuffix(strings.TrimSpace(sel), `image: ""`) {
		t.Errorf("clicking the message selected %q", sel)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("edit-cancel"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("edit-bar").hidden`, "the edit bar to close")
	res = eval[string](p, `document.getElementById("apply-result").textContent`)
	if !strings.Contains(res, "Edit cancelled") || eval[int](p, `document.querySelectorAll("#marks .mark").length`) != 0 {
		t.Errorf("after cancelling: result %q, %d marks", res, eval[int](p, `document.querySelectorAll("#marks .mark").length`))
	}
	p.checkConsole()
}

// Issue 6: loading an example over text the learner typed offers
// "Restore previous text", which puts it back.
func TestExampleOffersRestore(t *testing.T) {
	p := open(t, "?paused")
	p.frames(2)
	const mine = "# my own work\napiVersion: v1\nkind: Node\nmetadata:\n  name: mine\n"
	eval[bool](p, fmt.Sprintf(`(function(){ const ta = document.getElementById("yaml"); ta.value = %q; ta.dispatchEvent(new Event("input")); return true; })()`, mine))
	load := func(i int) {
		eval[bool](p, fmt.Sprintf(`(function(){ const s = document.getElementById("examples"); s.value = "%d"; s.dispatchEvent(new Event("change")); return true; })()`, i))
	}
	load(1)
	if got := eval[string](p, `document.getElementById("yaml").value`); got == mine {
		t.Fatalf("the example did not load")
	}
	if !eval[bool](p, `document.querySelector("#apply-result button.restore-text") !== null`) {
		t.Fatalf("no Restore button after loading over typed text: %q", eval[string](p, `document.getElementById("apply-result").textContent`))
	}
	p.screenshot("dsplay-example-restore")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`#apply-result button.restore-text`))); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](p, `document.getElementById("yaml").value`); got != mine {
		t.Errorf("after Restore the editor holds %q", got)
	}
	if eval[bool](p, `document.querySelector("#apply-result button.restore-text") !== null`) {
		t.Errorf("the Restore button stays after restoring")
	}
	// Loading the example shown already offers nothing to restore.
	load(1)
	load(1)
	if eval[bool](p, `document.querySelector("#apply-result button.restore-text") !== null`) {
		t.Errorf("Restore offered after reloading the same example")
	}
	p.checkConsole()
}

// Issue 7: the decision log writes times as the clock does.
func TestDecisionLogTimeMatchesClock(t *testing.T) {
	p := open(t, "?paused")
	p.advance(70)
	p.runKubectl("kubectl label nodes node-1 late=yes")
	p.runKubectl("kubectl delete pod -l name=" + fluentd + " --wait=false")
	p.advance(2)
	p.frames(2)
	clock := eval[string](p, `document.getElementById("clock").textContent`)
	times := eval[[]string](p, `[...document.querySelectorAll("#log li .t")].map(e => e.textContent)`)
	if len(times) == 0 {
		t.Fatal("no decision log entries")
	}
	re := regexp.MustCompile(`^(\d+\.\d s|\d+m \d\d\.\ds|\d+h \d\dm \d\d\.\ds)$`)
	if !re.MatchString(clock) {
		t.Fatalf("the clock reads %q", clock)
	}
	for _, s := range times {
		if !re.MatchString(s) {
			t.Errorf("decision log time %q is not in the clock's format (%q)", s, clock)
		}
	}
	if !strings.Contains(strings.Join(times, " "), "m ") {
		t.Errorf("no decision after a minute: %v", times)
	}
}
