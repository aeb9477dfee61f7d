package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

type exCheck struct {
	Text   string `json:"text"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

type exerciseState struct {
	ID            string    `json:"id"`
	Checked       bool      `json:"checked"`
	OK            bool      `json:"ok"`
	Solved        bool      `json:"solved"`
	EverSolved    bool      `json:"everSolved"`
	Checks        []exCheck `json:"checks"`
	Violations    []exCheck `json:"violations"`
	Hints         []string  `json:"hints"`
	HintsTotal    int       `json:"hintsTotal"`
	UsedSolution  bool      `json:"usedSolution"`
	SetupFailures string    `json:"setupFailures"`
	Busy          bool      `json:"busy"`
}

func (p *page) exerciseState() exerciseState {
	p.t.Helper()
	return eval[exerciseState](p, `dsplay.exerciseState()`)
}

// editorApply types yaml into the editor (as a paste) and presses Apply.
func (p *page) editorApply(yaml string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.ID("yaml"), yaml)); err != nil {
		p.t.Fatal(err)
	}
	eval[bool](p, `(document.getElementById("yaml").dispatchEvent(new Event("input")), true)`)
	p.click("#apply")
	p.waitJS(`!document.getElementById("apply-result").classList.contains("busy")`, "the apply")
	if got := eval[string](p, `document.getElementById("apply-result").className`); strings.Contains(got, "err") {
		p.t.Fatalf("apply failed: %s", eval[string](p, `document.getElementById("apply-result").textContent`))
	}
}

// forgetProgress removes the saved progress (the tests share one browser
// profile) and reloads the page.
func (p *page) forgetProgress() {
	p.t.Helper()
	eval[bool](p, `(localStorage.removeItem("dsplay.progress.v1"), true)`)
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		p.t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page to load again")
	p.instant()
}

// openExercise opens an exercise from the gallery (as a learner does).
func (p *page) openExerciseFromGallery(id string) {
	p.t.Helper()
	p.click("#lessons-open")
	p.waitJS(`document.getElementById("lessons").open`, "the gallery")
	p.click(fmt.Sprintf(`#exercises-list button[data-open=%q]`, id))
	p.waitJS(`!document.getElementById("lesson").hidden && document.getElementById("lesson").dataset.id === `+fmt.Sprintf("%q", id), "the exercise panel")
}

// panelChecks is what the panel shows of the goal: "✓ text" / "✗ text".
const panelChecks = `[...document.querySelectorAll("#lesson-body .ex-checks li")].map(li => (li.querySelector(".ex-mark") || {}).textContent + " " + (li.querySelector(".ex-check") || li).textContent).join("\n")`

// Issue 6, Browser: an exercise solved by the learner's own actions. The
// task shows, the goal starts failing (✗ with its messages), the learner
// labels node-3 in the console and applies a manifest from the editor;
// the goal is checked by itself after the actions and turns ✓, the panel
// says solved; the progress survives a reload and the gallery shows it.
func TestExerciseSolvedByTheLearner(t *testing.T) {
	p := open(t, "?paused")
	p.forgetProgress()
	const id = "03-ssd-nodes"
	p.openExerciseFromGallery(id)
	if got := eval[string](p, activeDesc); got != "#lesson-title" {
		t.Errorf("focus after opening: %s", got)
	}
	if got := eval[string](p, `document.querySelector("#lesson-body .ex-task").textContent`); !strings.Contains(got, "node-3") {
		t.Errorf("task: %q", got)
	}
	if got := eval[string](p, `document.getElementById("yaml").value`); !strings.Contains(got, "name: ssd-monitor") {
		t.Errorf("the editor does not hold the exercise's manifest:\n%s", got)
	}
	st := p.exerciseState()
	if !st.Checked || st.OK || st.Solved || len(st.Checks) < 3 || st.SetupFailures != "" {
		t.Fatalf("at the start: %+v", st)
	}
	failing := 0
	for _, c := range st.Checks {
		if !c.OK {
			failing++
			if c.Detail == "" {
				t.Errorf("failing check %q has no message", c.Text)
			}
		}
	}
	if failing == 0 {
		t.Errorf("no check fails at the start: %+v", st.Checks)
	}
	if got := eval[string](p, panelChecks); !strings.Contains(got, "✗") {
		t.Errorf("the panel shows no failing check:\n%s", got)
	}

	// the learner's work: a label in the console, a manifest in the editor
	p.runKubectl("kubectl label nodes node-3 disktype=ssd")
	p.editorApply(`apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ssd-monitor
spec:
  selector:
    matchLabels:
      app: ssd-monitor
  template:
    metadata:
      labels:
        app: ssd-monitor
    spec:
      nodeSelector:
        disktype: ssd
      containers:
      - name: agent
        image: busybox:1.36
        command: ["sleep", "infinity"]
`)
	// The rolling update replaces busybox `sleep` pods one node at a time;
	// each ignores SIGTERM and is Terminating for its 30 s grace period.
	for i := 0; i < 240 && !p.exerciseState().Solved; i++ {
		eval[bool](p, `(document.getElementById("step").click(), true)`) // +1 s
		p.frames(2)
	}
	// the automatic check (no Check button pressed)
	p.waitJS(`dsplay.exerciseState().solved`, "the goal to hold")
	st = p.exerciseState()
	for _, c := range st.Checks {
		if !c.OK {
			t.Errorf("check %q still fails: %s", c.Text, c.Detail)
		}
	}
	p.waitJS(`!!document.querySelector("#lesson-body .ex-solved")`, "the panel to say solved")
	if got := eval[string](p, panelChecks); strings.Contains(got, "✗") {
		t.Errorf("the panel still shows a failing check:\n%s", got)
	}
	if !eval[bool](p, fmt.Sprintf(`dsplay.progress().exercises[%q].solved === true`, id)) {
		t.Errorf("progress: %v", eval[any](p, `dsplay.progress()`))
	}
	p.screenshot("exercise-solved")
	p.checkConsole()

	// a reload keeps the progress; the gallery shows it
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page to load again")
	p.instant()
	if !eval[bool](p, fmt.Sprintf(`dsplay.progress().exercises[%q].solved === true`, id)) {
		t.Errorf("progress after a reload: %v", eval[any](p, `dsplay.progress()`))
	}
	p.click("#lessons-open")
	p.waitJS(`document.getElementById("lessons").open`, "the gallery")
	if got := eval[string](p, fmt.Sprintf(`document.querySelector('#exercises-list button[data-open=%q] .li-progress').textContent`, id)); !strings.Contains(got, "✓ solved") {
		t.Errorf("gallery progress after a reload: %q", got)
	}
	p.checkConsole()
}

// Issue 6, Browser: an exercise failed. A wrong attempt (a toleration of
// the wrong taint) leaves a check ✗ with its message after Check; a hint
// shows one at a time. Then an exercise with an `always` rule: changing the
// image without limiting maxUnavailable takes two nodes' pods down at once,
// the violation shows (with its time) and the attempt cannot pass even
// once the rollout is done, until Restart.
func TestExerciseFailedWithHint(t *testing.T) {
	p := open(t, "?paused")
	p.forgetProgress()
	p.openExerciseFromGallery("01-control-plane-too")
	text := eval[string](p, `document.getElementById("yaml").value`)
	if !strings.Contains(text, "name: fluentd-elasticsearch") {
		t.Fatalf("the editor does not hold the exercise's manifest:\n%s", text)
	}
	wrong := strings.Replace(text, "    spec:\n      containers:", "    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/master\n        operator: Exists\n        effect: NoSchedule\n      containers:", 1)
	if wrong == text {
		t.Fatalf("could not add a toleration to:\n%s", text)
	}
	p.editorApply(wrong)
	p.advance(30)
	p.click(`#lesson-nav button[data-act=check]`)
	st := p.exerciseState()
	if st.Solved || st.OK {
		t.Fatalf("the wrong attempt passes: %+v", st)
	}
	var failed []exCheck
	for _, c := range st.Checks {
		if !c.OK {
			failed = append(failed, c)
		}
	}
	if len(failed) == 0 || !strings.Contains(failed[0].Detail, "control-plane") {
		t.Errorf("failing checks %+v, want one naming control-plane", failed)
	}
	if got := eval[string](p, `[...document.querySelectorAll("#lesson-body .ex-checks li.bad .ex-detail")].map(e => e.textContent).join("\n")`); !strings.Contains(got, "control-plane") {
		t.Errorf("the panel's failing messages: %q", got)
	}
	if got := eval[string](p, `document.getElementById("lesson-status").textContent`); !strings.Contains(got, "checks hold") {
		t.Errorf("status after Check: %q", got)
	}
	// hints, one at a time
	if got := eval[string](p, `document.querySelector("#lesson-body button[data-act=hint]").textContent`); got != fmt.Sprintf("Show a hint (1 of %d)", st.HintsTotal) {
		t.Errorf("hint button %q", got)
	}
	p.click(`#lesson-body button[data-act=hint]`)
	st = p.exerciseState()
	if len(st.Hints) != 1 {
		t.Fatalf("hints shown: %v", st.Hints)
	}
	if got := eval[string](p, `document.querySelector("#lesson-body .ex-hints").textContent`); !strings.Contains(got, "describe node control-plane") {
		t.Errorf("the first hint shows %q", got)
	}
	if got := eval[string](p, `document.querySelector("#lesson-body button[data-act=hint]").textContent`); got != fmt.Sprintf("Show a hint (2 of %d)", st.HintsTotal) {
		t.Errorf("hint button after one: %q", got)
	}
	if got := eval[string](p, activeDesc); !strings.Contains(got, "[hint]") {
		t.Errorf("focus after a hint: %s", got)
	}
	if !eval[bool](p, `dsplay.progress().exercises["01-control-plane-too"].hints === 1 && !dsplay.progress().exercises["01-control-plane-too"].solved`) {
		t.Errorf("progress: %v", eval[any](p, `dsplay.progress()`))
	}
	// the solution asks first
	p.click(`#lesson-body button[data-act=solution]`)
	if !eval[bool](p, `!!document.querySelector("#lesson-body button[data-act=solution-yes]") && !document.querySelector("#lesson-body .ex-solution pre")`) {
		t.Error("Show the solution did not ask first")
	}
	p.click(`#lesson-body button[data-act=solution-no]`)

	// the always rule
	p.openExerciseFromGallery("05-one-node-at-a-time")
	if st := p.exerciseState(); len(st.Violations) != 0 || st.Solved {
		t.Fatalf("at the start: %+v", st)
	}
	p.runKubectl("kubectl set image ds/ds-demo nginx=nginx:1.23.3")
	for i := 0; i < 90 && !p.exerciseState().OK; i++ {
		eval[bool](p, `(document.getElementById("step").click(), true)`) // +1 s
		p.frames(1)
	}
	p.frames(2)
	p.click(`#lesson-nav button[data-act=check]`)
	st = p.exerciseState()
	if !st.OK {
		t.Errorf("the rollout did not finish: %+v", st)
	}
	if st.Solved || len(st.Violations) != 1 {
		t.Fatalf("after the rollout: solved %v, violations %+v", st.Solved, st.Violations)
	}
	v := st.Violations[0]
	if !strings.Contains(v.Text, "unavailable <= 1") || !strings.Contains(v.Detail, "at t=") {
		t.Errorf("violation %+v", v)
	}
	if got := eval[string](p, `document.querySelector("#lesson-body .ex-violation").textContent`); !strings.Contains(got, "Restart") || !strings.Contains(got, v.Detail) {
		t.Errorf("the panel's violation: %q", got)
	}
	if eval[bool](p, `!!document.querySelector("#lesson-body .ex-solved")`) {
		t.Error("the panel says solved despite the violation")
	}
	p.click(`#lesson-body button[data-act=hint]`)
	if got := eval[string](p, `document.querySelector("#lesson-body .ex-hints li").textContent`); !strings.Contains(got, "updateStrategy") {
		t.Errorf("hint: %q", got)
	}
	p.screenshot("exercise-violation")
	// Restart: a new attempt, no violation
	p.click(`#lesson-nav button[data-act=restart]`)
	p.frames(2)
	if st := p.exerciseState(); len(st.Violations) != 0 || st.Solved || st.OK {
		t.Errorf("after Restart: %+v", st)
	}
	if eval[bool](p, `!!document.querySelector("#lesson-body .ex-violation")`) {
		t.Error("the violation survived Restart")
	}
	p.checkConsole()
}

// Every exercise on the page: its setup runs without a failure, the goal
// fails at the start, and the solution's button (after its question)
// shows the solution and runs it: the goal then holds once the clock has
// run, with no `always` rule broken; the gallery says "solution shown",
// not solved.
func TestExercisesAllSolvedByTheirSolution(t *testing.T) {
	p := open(t, "?paused")
	p.forgetProgress()
	n := 0
	for _, it := range eval[[]lessonItem](p, `dsplay.lessons()`) {
		if it.Kind != "exercise" {
			continue
		}
		n++
		if msg := eval[string](p, fmt.Sprintf(`dsplay.openExercise(%q)`, it.ID)); msg != "" {
			t.Errorf("%s: %s", it.ID, msg)
			continue
		}
		st := p.exerciseState()
		if st.SetupFailures != "" || st.OK || !st.Checked {
			t.Errorf("%s at the start: %+v", it.ID, st)
			continue
		}
		p.click(`#lesson-body button[data-act=solution]`)
		p.click(`#lesson-body button[data-act=solution-yes]`)
		if !eval[bool](p, `!!document.querySelector("#lesson-body .ex-solution pre.lesson-cmds")`) {
			t.Errorf("%s: the solution's commands are not shown", it.ID)
		}
		p.click(`#lesson-body button[data-act=solution-run]`)
		p.waitJS(`!dsplay.exerciseState().busy`, it.ID+": the solution to run")
		for i := 0; i < 60 && !p.exerciseState().OK; i++ {
			p.advance(3)
			p.frames(1)
		}
		p.frames(2)
		st = eval[exerciseState](p, `dsplay.checkExercise()`)
		if !st.OK || len(st.Violations) > 0 || !st.UsedSolution {
			t.Errorf("%s after its solution: %+v\n%s", it.ID, st, p.describe())
		}
		if st.EverSolved {
			t.Errorf("%s counts as solved by the learner after the solution's button", it.ID)
		}
		if !eval[bool](p, fmt.Sprintf(`dsplay.progress().exercises[%q].solution === true`, it.ID)) {
			t.Errorf("%s: progress does not say the solution was shown", it.ID)
		}
	}
	if n < 10 {
		t.Errorf("%d exercises, want at least 10", n)
	}
	p.checkConsole()
}

// Progress in localStorage: a corrupt value starts empty (the page works),
// and storage that refuses writes keeps the progress for the page with a
// note that it cannot be kept.
func TestExerciseProgressCorruptOrBlocked(t *testing.T) {
	p := open(t, "?paused")
	eval[bool](p, `(localStorage.setItem("dsplay.progress.v1", '{"exercises": [oops'), true)`)
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page to load again")
	p.instant()
	if got := eval[string](p, `JSON.stringify(dsplay.progress())`); got != `{"exercises":{},"lessons":{}}` {
		t.Errorf("progress from a corrupt value: %s", got)
	}
	if msg := eval[string](p, `dsplay.openExercise("03-ssd-nodes")`); msg != "" {
		t.Fatal(msg)
	}
	if h := eval[string](p, `dsplay.showHint()`); h == "" {
		t.Fatal("no hint")
	}
	if got := eval[float64](p, `JSON.parse(localStorage.getItem("dsplay.progress.v1")).exercises["03-ssd-nodes"].hints`); got != 1 {
		t.Errorf("stored hints %v, want 1", got)
	}
	if eval[bool](p, `!!document.querySelector("#lesson-body .lesson-nostore")`) {
		t.Error("the note about storage shows while storage works")
	}
	eval[bool](p, `(Storage.prototype.setItem = function() { throw new DOMException("blocked", "SecurityError"); }, true)`)
	if h := eval[string](p, `dsplay.showHint()`); h == "" {
		t.Fatal("no second hint")
	}
	if got := eval[int](p, `dsplay.exerciseState().hints.length`); got != 2 {
		t.Errorf("%d hints shown, want 2", got)
	}
	if !eval[bool](p, `dsplay.progress().exercises["03-ssd-nodes"].hints === 2`) {
		t.Errorf("the page's progress: %v", eval[any](p, `dsplay.progress()`))
	}
	if !eval[bool](p, `!!document.querySelector("#lesson-body .lesson-nostore")`) {
		t.Error("no note that the progress cannot be kept")
	}
	if eval[bool](p, `!document.getElementById("fatal").hidden`) {
		t.Errorf("error banner: %s", eval[string](p, `document.getElementById("fatal").textContent`))
	}
	p.checkConsole()
}
