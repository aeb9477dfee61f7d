//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"github.com/dsplayground/dsplay/engine/session"
)

// Exercises. Opening one starts a new cluster (the learner's own is put
// aside, see lesson.go) and runs its setup section through a Player on
// the page's Recorder; the panel shows the task. The learner works with
// the editor and the console. The attempt's state is a session.Exercise.
// The goal is checked on the cluster without changing it
// (session.Exercise.Check)
// when the Check button is pressed and by itself after each action
// (debounced: checkDelayMs after the last one) and, while virtual time
// runs, at most once per recheckMs; each check shows ✓ or ✗ with its
// message. The `always` invariants are observed after every frame's
// advance and every action: a violation is shown and fails the attempt
// until Restart. Hints show one at a time; "Show the solution" asks first,
// then shows the solution's commands and files with a button that runs
// them. Solved (by the learner's own actions) and the hints used are kept
// in localStorage (gallery.go).

const (
	// checkDelayMs is how long after the learner's last action the goal
	// is checked by itself (wall time).
	checkDelayMs = 400
	// recheckMs is the least wall time between two checks while only
	// virtual time moves (pods becoming ready may reach the goal).
	recheckMs = 1000
)

// exerciseRun is the open exercise: the attempt (session.Exercise; Shared
// when opened from a share link, attachExercise: a goal reached there is
// not recorded as solved in this browser's progress) and what the panel
// and the frame keep.
type exerciseRun struct {
	*session.Exercise

	// confirm: the "show the solution?" question is shown; solution: the
	// solution is shown.
	confirm, solution bool

	// what the frame saw last (see lessonsFrame)
	inputs  int
	rv      int64
	at      time.Duration
	dueAt   float64 // wall ms of the next automatic check (0: none)
	checkAt float64 // wall ms of the last check
	// drawnKey is key() when the panel was drawn; outcomeKey what the
	// outcome box showed (a new outcome scrolls the panel to it).
	drawnKey, outcomeKey string
}

// openExercise opens exercise id: a new cluster with its setup run and the
// task shown.
func (a *app) openExercise(id string) error {
	u := lessons
	if u == nil {
		return fmt.Errorf("this page has no lessons panel")
	}
	if u.busy {
		return fmt.Errorf("a step is still playing")
	}
	it := u.course.Find(id, session.KindExercise)
	if it == nil {
		return fmt.Errorf("no exercise %q", id)
	}
	if err := it.Parse(); err != nil {
		return err
	}
	if err := u.begin(it); err != nil {
		return err
	}
	u.startExercise(it)
	u.showPane()
	u.drawExercise()
	focusPanel(u.title) // not embedded before the reader works there (goalcheck.go)
	return nil
}

// attachExercise opens exercise id on the page's cluster as it is: a
// share link's replay (shareContext), which already holds the setup and
// the learner's actions, so the setup is not run again. The goal is
// checked at once; the invariants are observed from now on.
func (a *app) attachExercise(id string) error {
	u := lessons
	if u == nil {
		return fmt.Errorf("this page has no lessons panel")
	}
	if u.busy {
		return fmt.Errorf("a step is still playing")
	}
	it := u.course.Find(id, session.KindExercise)
	if it == nil {
		return fmt.Errorf("no exercise %q", id)
	}
	if err := it.Parse(); err != nil {
		return err
	}
	u.closeRun()
	u.clearStatus()
	u.cur, u.rec = it, a.rec
	// hints seen before stay shown; no Player: the solution plays through
	// Item.LinesPlayer
	x := &exerciseRun{Exercise: session.NewExercise(it, u.prog)}
	x.Shared = true
	x.Invariants.Observe(a.rec.Live())
	u.ex = x
	u.seen(x)
	u.check()
	u.showPane()
	u.drawExercise()
	return nil
}

// startExercise runs the setup on the (new) cluster and starts observing.
func (u *lessonsUI) startExercise(it *session.Item) {
	a := u.a
	// hints seen before stay shown: they cannot be unseen
	x := &exerciseRun{Exercise: session.NewExercise(it, u.prog)}
	x.Player = it.NewPlayer(a.rec)
	res := x.Player.Setup()
	u.echoEntries(res)
	x.SetupFailures = res.Failures
	u.showFile(it, it.Steps()[0].Commands)
	x.Invariants.Observe(a.rec.Live())
	u.ex = x
	u.seen(x)
	u.check()
	a.view.render(false)
}

// restartExercise starts the open exercise over on a new cluster.
func (u *lessonsUI) restartExercise() {
	x := u.ex
	if x == nil {
		return
	}
	if err := u.reset(x.Item); err != nil {
		u.say(err.Error())
		return
	}
	u.startExercise(x.Item)
	u.drawExercise()
	u.say("Started over: the setup ran again on a new cluster.")
}

// seen records what the cluster looks like now (after the lessons UI
// itself changed it), so the frame does not take it for an action.
func (u *lessonsUI) seen(x *exerciseRun) {
	sim := u.a.rec.Live()
	x.inputs = len(u.a.rec.Inputs())
	x.rv = sim.ResourceVersion()
	x.at = sim.Elapsed()
}

// frame observes the open exercise once per animation frame: the
// invariants after time moved or the cluster changed, and the automatic
// check (see checkDelayMs, recheckMs).
func (u *lessonsUI) frame() {
	x := u.ex
	a := u.a
	if x == nil || u.busy || a.tl.past || a.cmp.active() {
		return
	}
	if a.rec != u.rec {
		// "Continue from here" made a new Recorder of this cluster's
		// timeline: the exercise goes on with it (its Player, bound to the
		// old one, is not used again: see runSolution).
		u.rec = a.rec
		x.Player = nil
	}
	sim := a.rec.Live()
	n, rv, at := len(a.rec.Inputs()), sim.ResourceVersion(), sim.Elapsed()
	now := nowMs()
	// Only a write to the cluster can change what the goal and the rules
	// read (node heartbeats are derived at display time, not stored), so
	// a settled cluster is not re-checked while the clock runs.
	changed := rv != x.rv
	if changed {
		x.catchUp(a, at)
		if x.Observe(sim) {
			u.dropSolvedStatus()
			u.redrawExercise()
		}
	}
	switch {
	case n != x.inputs:
		x.dueAt = now + checkDelayMs
	case changed && x.dueAt == 0:
		// at most one check per recheckMs, but a change is always checked
		// (a settled cluster makes no later change to trigger it)
		x.dueAt = max(now, x.checkAt+recheckMs)
	}
	x.inputs, x.rv, x.at = n, rv, at
	if x.dueAt > 0 && now >= x.dueAt {
		u.check()
		u.redrawExercise()
	}
}

// catchUp observes the invariants at every virtual second between the
// last observation and now (session.CatchUpTimes: when more than a second
// passed since, the +1 s button, dsplay.advance, a kubectl command that
// waited; not for large clusters and long jumps): the Recorder's replay
// cursor (Recorder.Seek) shows those moments, so a rule broken only for a
// while in between is not missed.
func (x *exerciseRun) catchUp(a *app, now time.Duration) {
	for _, t := range session.CatchUpTimes(x.at, now, len(a.view.snap.Nodes)) {
		if s, err := a.rec.Seek(t); err == nil {
			x.Invariants.Observe(s)
		}
	}
}

// check runs the goal on a copy of the cluster and records the outcome.
func (u *lessonsUI) check() {
	x := u.ex
	if x == nil {
		return
	}
	a := u.a
	x.dueAt = 0
	x.checkAt = nowMs()
	if x.Check(a.rec.Live()) { // one check per assertion (session.MergeGoalChecks)
		// The panel shows the outcome (drawExercise): the status line only
		// tells screen readers.
		if x.Counts() {
			u.prog.Exercise(x.Item.ID).Solved = true
			u.save()
		}
		u.announce(x.SolvedText())
	}
	u.dropSolvedStatus()
}

// exerciseAct runs an exercise control.
func (u *lessonsUI) exerciseAct(what string) {
	x := u.ex
	if x == nil {
		return
	}
	switch what {
	case "check":
		u.check()
		u.drawExercise()
		if !x.Solved {
			u.say(x.Summary())
		}
	case "hint":
		u.showHint()
	case "solution":
		x.confirm = true
		u.drawExercise()
		if b := u.body.Call("querySelector", "button[data-act=solution-yes]"); !b.IsNull() {
			b.Call("focus")
		}
	case "solution-no":
		x.confirm = false
		u.drawExercise()
		if b := u.body.Call("querySelector", "button[data-act=solution]"); !b.IsNull() {
			b.Call("focus")
		}
	case "solution-yes":
		x.confirm, x.solution = false, true
		u.prog.Exercise(x.Item.ID).Solution = true
		u.save()
		u.drawExercise()
		if h := u.body.Call("querySelector", ".ex-solution h4"); !h.IsNull() {
			h.Set("tabIndex", -1)
			h.Call("focus")
		}
	case "solution-run":
		u.runSolution()
	}
}

// showHint reveals the next hint; it returns it ("" when none is left).
func (u *lessonsUI) showHint() string {
	x := u.ex
	if x == nil {
		return ""
	}
	before := u.prog.Exercise(x.Item.ID).Hints
	h := x.NextHint(u.prog)
	if h == "" {
		return ""
	}
	if u.prog.Exercise(x.Item.ID).Hints != before {
		u.save()
	}
	u.drawExercise()
	// the new hint is read out; the focus stays on the button (or goes to
	// the hint when the button is gone)
	if b := u.body.Call("querySelector", "button[data-act=hint]"); !b.IsNull() {
		b.Call("focus")
	} else if h := u.body.Call("querySelector", ".ex-hints li:last-child"); !h.IsNull() {
		h.Set("tabIndex", -1)
		h.Call("focus")
	}
	return h
}

// runSolution plays the solution's commands on the learner's cluster.
func (u *lessonsUI) runSolution() {
	x := u.ex
	if x == nil {
		return
	}
	x.UsedSolution = true
	u.a.tl.leavePast()
	u.play("Running the solution…", func() {
		u.paced = true
		defer func() { u.paced = false }()
		rec := u.a.rec
		alive := func() bool { return u.ex == x && u.a.rec == rec }
		var res session.StepResult
		if x.Player != nil && u.rec == u.a.rec {
			untick := u.ticking(x.Player, alive)
			res = x.Player.Solve()
			untick()
		} else {
			p, err := x.Item.LinesPlayer(x.Item.SolutionLines(), u.a.rec)
			if err != nil {
				u.say(err.Error())
				return
			}
			untick := u.ticking(p, alive)
			res = p.PlayStep(0)
			untick()
		}
		if u.ex != x {
			return
		}
		u.echoEntries(res)
		u.check()
		u.drawExercise()
		if len(res.Failures) > 0 {
			u.say("The solution's own checks failed: " + strings.Join(res.Failures, "; "))
		}
	})
}

// showFile puts the manifest lines applied last in the editor, so the
// learner can change it and apply it again (`kubectl apply -f
// manifest.yaml` applies the editor's text).
func (u *lessonsUI) showFile(it *session.Item, lines []string) {
	name := it.AppliedFile(lines)
	if name == "" || u.a.kc.editing() {
		return
	}
	u.a.ed.setText(it.FileText(name))
	u.a.ed.mark(nil)
	u.a.ed.setResult("", "The editor holds "+name+", as applied: change it and press Apply.")
}

// redrawExercise draws the panel again when what it shows of the checks
// changed (the automatic checks run every second while time passes: the
// panel, and what screen readers read of it, stays as it is meanwhile).
func (u *lessonsUI) redrawExercise() {
	if x := u.ex; x != nil && x.drawnKey != x.Key() {
		u.drawExercise()
	}
}

// drawExercise shows the task, the checks, the hints and the solution.
func (u *lessonsUI) drawExercise() {
	x := u.ex
	if x == nil {
		return
	}
	x.drawnKey = x.Key()
	focusedAct := ""
	if f := document.Get("activeElement"); !f.IsNull() && u.pane.Call("contains", f).Bool() {
		if v := f.Get("dataset").Get("act"); v.Truthy() {
			focusedAct = v.String()
		}
	}
	clear(u.body)
	clear(u.nav)
	m := x.Item.Meta()

	u.body.Call("appendChild", textEl("h3", "lesson-step-title", "Your task"))
	task := el("div", "lesson-text ex-task")
	t := m.Task
	if t == "" {
		t = m.Summary
	}
	renderMarkdown(task, t)
	u.body.Call("appendChild", task)
	u.body.Call("appendChild", textEl("p", "lesson-hint", "Use the editor (Apply) and the kubectl console. The goal is checked by itself after each action, or press Check."))

	if len(x.SetupFailures) > 0 {
		box := el("div", "lesson-fail")
		box.Call("setAttribute", "role", "alert")
		box.Call("appendChild", textEl("strong", "", "The exercise's setup failed — the exercise does not match the simulator; please report it:"))
		ul := el("ul", "")
		for _, f := range x.SetupFailures {
			ul.Call("appendChild", textEl("li", "", f))
		}
		u.body.Call("appendChild", box)
		box.Call("appendChild", ul)
	}

	// the goal's checks
	u.body.Call("appendChild", textEl("h4", "", "Goal"))
	ul := el("ul", "ex-checks")
	ul.Call("setAttribute", "aria-label", "The goal's checks")
	for _, c := range x.Goal.Checks {
		ul.Call("appendChild", checkItem(c, "holds", "fails"))
	}
	if !x.Checked {
		ul.Call("appendChild", textEl("li", "ex-none", "not checked yet"))
	}
	u.body.Call("appendChild", ul)

	// the always rules, as observed so far
	if rules := x.Invariants.Checks(); len(rules) > 0 {
		u.body.Call("appendChild", textEl("h4", "", "All the time"))
		rl := el("ul", "ex-checks ex-rules")
		rl.Call("setAttribute", "aria-label", "Rules that must hold all the time")
		for _, c := range rules {
			rl.Call("appendChild", checkItem(c, "holds so far", "broken"))
		}
		u.body.Call("appendChild", rl)
	}

	// the outcome goes first, where it is seen
	var outcome []js.Value
	if len(x.Violations) > 0 {
		box := el("div", "lesson-fail ex-violation")
		box.Call("setAttribute", "role", "alert")
		box.Call("appendChild", textEl("strong", "", "A rule that must hold all the time was broken, so this attempt cannot pass. Press Restart to try again."))
		vl := el("ul", "")
		for _, v := range x.Violations {
			li := el("li", "")
			appendAll(li, textEl("code", "ex-check", v.Text), document.Call("createTextNode", " "), textEl("span", "ex-detail", v.Detail))
			vl.Call("appendChild", li)
		}
		box.Call("appendChild", vl)
		outcome = append(outcome, box)
	}
	if x.Solved {
		box := textEl("p", "ex-solved", x.SolvedText())
		if next := u.course.NextExercise(x.Item); next != nil && !embedMode() {
			b := navButton("open", "Next exercise →", "primary ex-next")
			b.Get("dataset").Set("open", next.ID)
			b.Get("dataset").Set("kind", session.KindExercise)
			b.Set("title", next.Title())
			appendAll(box, document.Call("createTextNode", " "), b)
		}
		outcome = append(outcome, box)
	} else if p := u.prog.Exercises[x.Item.ID]; p != nil && p.Solved {
		outcome = append(outcome, textEl("p", "lesson-hint", "You solved this exercise before."))
	}
	for i := len(outcome) - 1; i >= 0; i-- {
		u.body.Call("prepend", outcome[i])
	}
	if k := fmt.Sprintf("%v %d", x.Solved, len(x.Violations)); k != x.outcomeKey {
		x.outcomeKey = k
		u.body.Set("scrollTop", 0)
	}

	// hints
	if n := len(m.Hints); n > 0 {
		u.body.Call("appendChild", textEl("h4", "", "Hints"))
		if x.Hints > 0 {
			ol := el("ol", "ex-hints")
			for _, h := range m.Hints[:x.Hints] {
				li := el("li", "")
				renderMarkdown(li, h)
				ol.Call("appendChild", li)
			}
			u.body.Call("appendChild", ol)
		}
		if x.Hints < n {
			u.body.Call("appendChild", navButton("hint", fmt.Sprintf("Show a hint (%d of %d)", x.Hints+1, n), "ctl"))
		}
	}

	// solution
	cmds := x.Item.SolutionCommands()
	if len(cmds) > 0 {
		box := el("div", "ex-solution")
		switch {
		case x.solution:
			box.Call("appendChild", textEl("h4", "", "Solution"))
			box.Call("appendChild", commandsBox(cmds))
			for _, f := range x.Item.SolutionFiles(cmds) {
				d := el("details", "ex-file")
				appendAll(d, textEl("summary", "", f), textEl("pre", "", x.Item.FileText(f)))
				box.Call("appendChild", d)
			}
			run := navButton("solution-run", "Run the solution", "ctl")
			run.Set("title", "Run these commands on your cluster (the exercise then counts as shown, not solved)")
			box.Call("appendChild", run)
		case x.confirm:
			box.Call("appendChild", textEl("p", "", "Show the solution? Trying the hints first teaches more; the gallery will say the solution was shown."))
			appendAll(box, navButton("solution-yes", "Show the solution", "ctl"), navButton("solution-no", "Not yet", "ctl"))
		default:
			box.Call("appendChild", navButton("solution", "Show the solution…", "ctl"))
		}
		u.body.Call("appendChild", box)
	}

	u.storageNote()
	appendAll(u.nav, navButton("check", "Check", "primary"), navButton("restart", "Restart", "ctl"))
	u.galleryButton()
	if u.aside.Held() != nil {
		r := navButton("restore", "Restore my cluster", "ctl")
		r.Set("title", u.stashText())
		u.nav.Call("appendChild", r)
	}
	u.pane.Get("dataset").Set("solved", x.Solved)
	if focusedAct != "" {
		if b := u.pane.Call("querySelector", "button[data-act="+focusedAct+"]"); !b.IsNull() {
			b.Call("focus")
		}
	}
}

// checkItem is one check as a list item: ✓ or ✗ (named ok or bad for
// screen readers), the line as written and its message.
func checkItem(c session.Check, ok, bad string) js.Value {
	li := el("li", "")
	mark, state := "✗", bad
	if c.OK {
		mark, state = "✓", ok
		li.Get("classList").Call("add", "ok")
	} else {
		li.Get("classList").Call("add", "bad")
	}
	li.Get("dataset").Set("ok", c.OK)
	m := textEl("span", "ex-mark", mark)
	m.Call("setAttribute", "role", "img")
	m.Call("setAttribute", "aria-label", state)
	appendAll(li, m, textEl("code", "ex-check", c.Text))
	if c.Detail != "" {
		li.Call("appendChild", textEl("span", "ex-detail", c.Detail))
	}
	return li
}

// exerciseStateJS is dsplay.exerciseState().
func (u *lessonsUI) exerciseStateJS() any {
	x := u.ex
	if x == nil {
		return nil
	}
	checks := []any{}
	for _, c := range x.Goal.Checks {
		checks = append(checks, map[string]any{"line": c.Line, "text": c.Text, "ok": c.OK, "detail": c.Detail})
	}
	viol := []any{}
	for _, c := range x.Violations {
		viol = append(viol, map[string]any{"line": c.Line, "text": c.Text, "ok": c.OK, "detail": c.Detail})
	}
	everSolved := false
	if p := u.prog.Exercises[x.Item.ID]; p != nil {
		everSolved = p.Solved
	}
	hints := []any{}
	for _, h := range x.Item.Meta().Hints[:x.Hints] {
		hints = append(hints, h)
	}
	return map[string]any{"id": x.Item.ID, "title": x.Item.Title(), "task": x.Item.Meta().Task,
		"checked": x.Checked, "ok": x.Goal.OK, "solved": x.Solved, "everSolved": everSolved,
		"checks": checks, "violations": viol, "hints": hints, "hintsTotal": len(x.Item.Meta().Hints),
		"solutionShown": x.solution, "usedSolution": x.UsedSolution, "setupFailures": strings.Join(x.SetupFailures, "\n"),
		"busy": u.busy}
}

// exerciseHooks adds the exercises' calls to window.dsplay.
func (u *lessonsUI) exerciseHooks(o js.Value) {
	a := u.a
	o.Set("openExercise", a.hook("dsplay.openExercise", func(args []js.Value) any {
		if len(args) == 0 {
			return "usage: dsplay.openExercise(id)"
		}
		if err := a.openExercise(args[0].String()); err != nil {
			return err.Error()
		}
		return ""
	}))
	o.Set("exerciseState", a.hook("dsplay.exerciseState", func([]js.Value) any { return u.exerciseStateJS() }))
	o.Set("checkExercise", a.hook("dsplay.checkExercise", func([]js.Value) any {
		if u.ex == nil {
			return nil
		}
		a.flushJobs()
		u.check()
		u.drawExercise()
		return u.exerciseStateJS()
	}))
	o.Set("showHint", a.hook("dsplay.showHint", func([]js.Value) any { return u.showHint() }))
}
