package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// webImages is a JS expression: the sorted "image rREV" of DaemonSet web's
// pods drawn in the cluster view (terminating ones left out).
const webImages = `[...document.querySelectorAll('#nodes .pod:not(.gone)[data-owner="web"]')].filter(c => !c.classList.contains("phase-terminating")).map(c => c.querySelector(".pod-image").textContent + " r" + c.dataset.rev).sort().join(" ")`

type tlStep struct {
	At    float64 `json:"at"`
	Label string  `json:"label"`
	Input int     `json:"input"`
	N     int     `json:"numDecisions"`
}

// stepIndex returns the index of the first step whose label contains s.
func stepIndex(p *page, s string) (int, []tlStep) {
	p.t.Helper()
	steps := eval[[]tlStep](p, `dsplay.steps()`)
	for i, st := range steps {
		if strings.Contains(st.Label, s) {
			return i, steps
		}
	}
	p.t.Fatalf("no timeline step labelled %q in %+v", s, steps)
	return -1, nil
}

// Issue 4, Browser: the timeline. Apply a DaemonSet, change its image, let
// the rollout finish; scrub back with the keyboard to the step before the
// change: the cluster view shows the old image and revision, the "viewing
// the past" bar shows, and the controls that change the cluster are
// disabled. Back to live shows the new image again; Continue from here
// (branch) makes the past live and drops the future, and the learner can
// act from there.
func TestTimelineScrubAndBranch(t *testing.T) {
	p := open(t, "?paused")
	p.apply(rolloutDoc("web", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}", "nginx:1.25", ""))
	p.advance(20)
	if r := eval[map[string]any](p, `dsplay.run("kubectl set image ds/web main=nginx:1.26")`); r["exitCode"].(float64) != 0 {
		t.Fatalf("set image: %v", r)
	}
	p.advance(90)
	p.frames(1)
	if got := eval[string](p, webImages); got != "nginx:1.26 r2 nginx:1.26 r2" {
		t.Fatalf("live after the rollout: %q\n%s", got, p.describe())
	}
	// The recorder keeps checkpoints of the live cluster (scrubbing back
	// restarts from the nearest), and copying the cluster works in wasm.
	if v := eval[map[string]any](p, `dsplay.viewing()`); v["checkpointErr"] != "" || v["checkpoints"].(float64) < 1 {
		t.Errorf("checkpoints after 110 s: %v", v)
	}
	change, steps := stepIndex(p, "set image ds/web")
	if change < 2 {
		t.Fatalf("the change is step %d: %+v", change, steps)
	}
	// Every step is labelled; the rollout's steps name the controller's decisions.
	rolled := false
	for _, st := range steps[change+1:] {
		if st.Label == "" {
			t.Errorf("unlabelled step %+v", st)
		}
		if st.Input < 0 && strings.HasPrefix(st.Label, "daemonset-controller ") {
			rolled = true
		}
	}
	if !rolled {
		t.Errorf("no step after the change names a daemonset-controller decision: %+v", steps[change+1:])
	}
	if got := eval[int](p, `+document.getElementById("tl-range").max`); got != len(steps) {
		t.Errorf("slider max %d, want %d steps (+ live)", got, len(steps))
	}

	// Keyboard: Home shows the first step, arrows step to the one before the change.
	if err := focus(p, "tl-range"); err != nil {
		t.Fatal(err)
	}
	p.keys(kb.Home)
	p.waitJS(`document.getElementById("timeline").dataset.past === "true" && document.getElementById("tl-range").value === "0"`, "Home to show the first step")
	for i := 0; i < change-1; i++ {
		p.keys(kb.ArrowRight)
	}
	p.waitJS(fmt.Sprintf(`document.getElementById("tl-range").value === "%d"`, change-1), "the arrow keys to reach the step before the change")
	p.frames(1)
	if got := eval[string](p, webImages); got != "nginx:1.25 r1 nginx:1.25 r1" {
		t.Errorf("before the change the page shows %q, want the old image and revision\n%s", got, p.describe())
	}
	if eval[bool](p, `document.getElementById("tl-past").hidden`) {
		t.Error("the viewing-the-past bar is hidden")
	}
	bar := eval[string](p, `document.getElementById("tl-past").textContent`)
	if !strings.Contains(bar, "Viewing the past") || !strings.Contains(bar, "Back to live") || !strings.Contains(bar, "Continue from here") {
		t.Errorf("bar %q", bar)
	}
	for _, id := range []string{"kubectl", "apply", "play", "step"} {
		if !eval[bool](p, fmt.Sprintf(`document.getElementById(%q).disabled`, id)) {
			t.Errorf("#%s is enabled while viewing the past", id)
		}
	}
	label := eval[string](p, `document.getElementById("tl-label").textContent`)
	if !strings.Contains(label, fmt.Sprintf("step %d of %d", change, len(steps))) || !strings.Contains(label, steps[change-1].Label) {
		t.Errorf("label %q, want step %d's %q", label, change, steps[change-1].Label)
	}
	clock := eval[string](p, `document.getElementById("clock").textContent`)
	if want := fmt.Sprintf("%.1f s", steps[change-1].At); clock != want {
		t.Errorf("clock %q while viewing step %d, want %q", clock, change-1, want)
	}
	// The decision log shows the past too: its newest entry is no later
	// than the step (the times are under a minute here: "12.3 s", as the clock).
	newest := eval[string](p, `document.querySelector("#log li .t").textContent`)
	var sec float64
	if _, err := fmt.Sscanf(newest, "%g s", &sec); err != nil || sec > steps[change-1].At {
		t.Errorf("while viewing t=%v s the decision log's newest entry is at %q", steps[change-1].At, newest)
	}
	// A step of the rollout lists its decisions.
	p.keys(kb.ArrowRight)
	p.keys(kb.ArrowRight)
	p.waitJS(`document.querySelectorAll("#tl-decisions li").length > 0`, "a rollout step's decisions in the list")
	p.screenshot("timeline-past")

	// End is live: the new image again, the bar goes.
	p.keys(kb.End)
	p.waitJS(`document.getElementById("timeline").dataset.past === "false" && document.getElementById("tl-past").hidden`, "End to go back to live")
	p.frames(1)
	if got := eval[string](p, webImages); got != "nginx:1.26 r2 nginx:1.26 r2" {
		t.Errorf("back to live: %q", got)
	}
	if eval[bool](p, `document.getElementById("kubectl").disabled`) {
		t.Error("kubectl stays disabled after going back to live")
	}
	// The Back to live button too.
	if msg := eval[string](p, fmt.Sprintf(`dsplay.seekStep(%d)`, change-1)); msg != "" {
		t.Fatal(msg)
	}
	eval[bool](p, `(document.getElementById("tl-back").click(), true)`)
	p.waitJS(`dsplay.viewing().past === false`, "Back to live")

	// Continue from here: the step before the change becomes live.
	if msg := eval[string](p, fmt.Sprintf(`dsplay.seekStep(%d)`, change-1)); msg != "" {
		t.Fatal(msg)
	}
	eval[bool](p, `(document.getElementById("tl-branch").click(), true)`)
	p.waitJS(`dsplay.viewing().past === false && document.getElementById("tl-past").hidden`, "the branch")
	if n := eval[int](p, `dsplay.steps().length`); n != change {
		t.Errorf("after the branch %d steps, want %d (the future dropped)", n, change)
	}
	if got := eval[float64](p, `dsplay.elapsed()`); got != steps[change-1].At {
		t.Errorf("after the branch the clock is at %v s, want %v", got, steps[change-1].At)
	}
	p.frames(1)
	if got := eval[string](p, webImages); got != "nginx:1.25 r1 nginx:1.25 r1" {
		t.Errorf("after the branch: %q", got)
	}
	p.runKubectl("kubectl set image ds/web main=nginx:1.27")
	if _, stderr := p.lastOutput(); stderr != "" {
		t.Fatalf("set image after the branch: %s", stderr)
	}
	p.advance(90)
	p.frames(1)
	if got := eval[string](p, webImages); got != "nginx:1.27 r2 nginx:1.27 r2" {
		t.Errorf("a new future after the branch: %q", got)
	}
	p.checkConsole()
}

// Branching at a step that shares its virtual time with later actions
// (given while paused) keeps exactly the actions up to that step.
func TestTimelineBranchAtSameInstant(t *testing.T) {
	p := open(t, "?paused")
	p.apply(rolloutDoc("web", "{type: RollingUpdate}", "nginx:1.25", ""))
	eval[map[string]any](p, `dsplay.run("kubectl label ds/web tier=a")`)
	eval[map[string]any](p, `dsplay.run("kubectl label ds/web team=b")`)
	i, steps := stepIndex(p, "tier=a")
	if steps[i].At != steps[len(steps)-1].At {
		t.Fatalf("the steps are not at one instant: %+v", steps)
	}
	if msg := eval[string](p, fmt.Sprintf(`(dsplay.seekStep(%d), dsplay.branch())`, i)); msg != "" {
		t.Fatal(msg)
	}
	r := eval[map[string]any](p, `dsplay.run("kubectl get ds web --show-labels --no-headers")`)
	out, _ := r["stdout"].(string)
	if !strings.Contains(out, "tier=a") || strings.Contains(out, "team=b") {
		t.Errorf("after branching at the first label: %q", out)
	}
	p.checkConsole()
}

// focus puts the keyboard focus on the element with this id.
func focus(p *page, id string) error {
	if !eval[bool](p, fmt.Sprintf(`(function(){ const e = document.getElementById(%q); e.focus(); return document.activeElement === e; })()`, id)) {
		return fmt.Errorf("#%s cannot take the focus", id)
	}
	return nil
}

// The timeline and the past bar on a phone in the dark scheme: nothing
// overflows the width, the bar's text contrasts with its background, and
// the slider keeps a usable size.
func TestTimelinePhoneDark(t *testing.T) {
	p := open(t, "?paused")
	p.colorScheme("dark")
	p.viewport(390, 844)
	p.advance(15)
	if msg := eval[string](p, `dsplay.seekStep(1)`); msg != "" {
		t.Fatal(msg)
	}
	p.frames(2)
	if w := eval[float64](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %v px wide on a 390 px phone while viewing the past", w)
	}
	if w := eval[float64](p, `document.getElementById("tl-range").getBoundingClientRect().width`); w < 120 {
		t.Errorf("the timeline slider is %v px wide on a phone", w)
	}
	colours := eval[[]string](p, `(function(){ const b = getComputedStyle(document.getElementById("tl-past")); return [b.color, b.backgroundColor]; })()`)
	if colours[0] == colours[1] || colours[1] == "rgb(255, 244, 214)" {
		t.Errorf("past bar colours in the dark scheme: text %s on %s", colours[0], colours[1])
	}
	p.screenshot("timeline-phone-dark")
	p.checkConsole()
}
