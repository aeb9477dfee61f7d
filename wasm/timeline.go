//go:build js && wasm

package main

import (
	"fmt"
	"strconv"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// The timeline (#timeline, under the cluster view): every learner action
// goes through the app's engine.Recorder, so the page can show any earlier
// step. A slider walks the recorder's steps (position len(steps) is "live");
// arrow keys step, Home/End go to the first step and to live (the range
// input's own keys). While a past step is shown, the cluster view, node
// panel, rollout view and decision log draw the Recorder's read-only cursor
// (Recorder.SeekStep), the bar #tl-past offers "Back to live" and "Continue
// from here" (a branch: the past becomes live, the recorded future is
// dropped), and the controls that would change the cluster are disabled.

// maxTimelineMarks bounds the marks drawn on the strip (learner actions).
const maxTimelineMarks = 200

// timelineRedrawMs is the least wall time between two redraws of the
// strip's marks while steps keep coming (playing).
const timelineRedrawMs = 250

// Checkpoints of the live cluster the Recorder keeps, so that scrubbing
// back replays from the nearest one instead of from the start. A copy
// costs about 20-25 KB per node (21-24 MB at 1,000 nodes) and takes up to
// a few hundred milliseconds in wasm, so the copies held add up to at most
// timelineCheckpointNodes nodes (about 60-75 MB): 8 copies of a small
// cluster, 3 at 1,000 nodes, none above 3,000 (seeks replay instead).
const (
	timelineCheckpoints     = 8
	timelineCheckpointEvery = 30 * time.Second
	timelineCheckpointNodes = 3000
)

// setCheckpoints gives r the page's checkpoint policy.
func setCheckpoints(r *engine.Recorder) {
	r.SetCheckpoints(timelineCheckpoints, timelineCheckpointEvery)
	r.SetCheckpointNodeBudget(timelineCheckpointNodes)
}

// pastDisabled are the controls that change the cluster, disabled while a
// past step is shown.
var pastDisabled = []string{"play", "step", "apply", "kubectl", "compare-open", "edit-apply"}

type timeline struct {
	a *app

	// past is true while a past step is shown: idx is its index in
	// rec.Steps(), sim the Recorder's cursor at that step.
	past bool
	idx  int
	sim  *engine.Simulation

	// Snapshotters: of the live Simulation, and of the cursor (a backward
	// seek replays into a new cursor Simulation, so cursorFor tells which).
	liveSn    *engine.Snapshotter
	liveFor   *engine.Simulation
	cursorSn  *engine.Snapshotter
	cursorFor *engine.Simulation

	root, rng, label, list, marks, prev, next, liveBtn js.Value
	bar, barText, backBtn, branchBtn                   js.Value

	nSteps    int
	marksMs   float64
	marksN    int
	shownKey  string
	disabled  map[string]bool
	lastValue int
	// want is the slider position to show at the next frame (-1: none).
	want int
	// wasPlaying is whether the clock played when the past was first shown.
	wasPlaying bool
	// watching is the playback shown (watch.go), nil when none; watchBtn
	// starts one.
	watching *watchRun
	watchBtn js.Value
	// watchShown is the past bar's text last written while watching.
	watchShown string
}

func newTimeline(a *app) *timeline {
	t := &timeline{
		a:         a,
		root:      byID("timeline"),
		rng:       byID("tl-range"),
		label:     byID("tl-label"),
		list:      byID("tl-decisions"),
		marks:     byID("tl-marks"),
		prev:      byID("tl-prev"),
		next:      byID("tl-next"),
		liveBtn:   byID("tl-live"),
		bar:       byID("tl-past"),
		barText:   byID("tl-past-text"),
		backBtn:   byID("tl-back"),
		branchBtn: byID("tl-branch"),
		liveFor:   a.rec.Live(),
		lastValue: -1,
		want:      -1,
	}
	if t.root.IsNull() || t.rng.IsNull() || t.bar.IsNull() {
		return t // an older index.html: no timeline
	}
	setCheckpoints(a.rec)
	t.liveSn = a.view.sn
	// Dragging fires many input events and a seek replays the cluster (up
	// to a second or two at 1,000 nodes in wasm): the frame seeks once, to
	// the latest position.
	a.listen(dom.WrapElement(t.rng), "input", func(dom.Event) { t.want = t.rng.Get("valueAsNumber").Int() })
	a.listen(dom.WrapElement(t.prev), "click", func(dom.Event) { t.goTo(t.position() - 1) })
	a.listen(dom.WrapElement(t.next), "click", func(dom.Event) { t.goTo(t.position() + 1) })
	a.listen(dom.WrapElement(t.liveBtn), "click", func(dom.Event) { t.toLive() })
	a.listen(dom.WrapElement(t.backBtn), "click", func(dom.Event) { t.toLive(); t.rng.Call("focus") })
	a.listen(dom.WrapElement(t.branchBtn), "click", func(dom.Event) {
		if err := t.branch(); err != nil {
			t.barText.Set("textContent", "Could not continue from here: "+err.Error())
		}
	})
	t.initWatch()
	// A click on a strip mark shows that step.
	a.listen(dom.WrapElement(t.marks), "click", func(ev dom.Event) {
		m := ev.Underlying().Get("target").Call("closest", "[data-step]")
		if !m.IsNull() {
			if i, err := strconv.Atoi(m.Get("dataset").Get("step").String()); err == nil {
				t.goTo(i)
			}
		}
	})
	return t
}

func (t *timeline) ok() bool {
	return t != nil && !t.root.IsNull() && !t.rng.IsNull() && !t.bar.IsNull()
}

// shown is the Simulation the page draws: the past step's cursor, else live.
func (a *app) shown() *engine.Simulation {
	if a.tl != nil && a.tl.past && a.tl.sim != nil {
		return a.tl.sim
	}
	return a.rec.Live()
}

// position is the slider position: the step shown, or len(steps) for live.
func (t *timeline) position() int {
	if t.past {
		return t.idx
	}
	return len(t.a.rec.Steps())
}

// goTo shows step i (i >= len(steps) is live; i < 0 the first step).
func (t *timeline) goTo(i int) {
	t.a.flushJobs()
	t.stopWatch()
	steps := t.a.rec.Steps()
	if i >= len(steps) {
		t.toLive()
		return
	}
	if i < 0 {
		i = 0
	}
	sim, err := t.a.rec.SeekStep(i)
	if err != nil {
		t.label.Set("textContent", err.Error())
		return
	}
	if !t.past {
		// Viewing the past pauses the clock; Back to live (toLive) and
		// Continue from here (branch) give back the play state of now.
		t.wasPlaying = t.a.playing
		t.a.setPlaying(false)
		if t.a.view.sn != t.cursorSn {
			t.liveSn = t.a.view.sn
		}
	}
	t.past, t.idx, t.sim = true, i, sim
	if sim != t.cursorFor {
		t.cursorFor, t.cursorSn = sim, sim.NewSnapshotter()
	}
	t.a.view.sn = t.cursorSn
	t.redrawView()
	t.a.kc.markTimeline(session.KeptInputs(t.a.rec, i))
	t.setPastUI(true)
	t.draw(true)
}

// toLive shows the live cluster again (nothing is lost: the live
// Simulation went on being the same).
func (t *timeline) toLive() {
	t.stopWatch()
	if !t.past {
		return
	}
	t.past, t.sim = false, nil
	live := t.a.rec.Live()
	if live != t.liveFor || t.liveSn == nil {
		t.liveFor, t.liveSn = live, live.NewSnapshotter()
	}
	t.a.view.sn = t.liveSn
	t.redrawView()
	t.a.kc.markTimeline(-1)
	t.setPastUI(false)
	t.draw(true)
	t.a.setPlaying(t.wasPlaying)
}

// branch makes the shown past step live: the recorded future is dropped.
// The watch and the kubectl edit of the dropped future end.
func (t *timeline) branch() error {
	if !t.past || t.watching != nil {
		return nil
	}
	rec := t.a.rec
	steps := rec.Steps()
	i := t.idx
	at := steps[i].At
	keep := session.KeptInputs(rec, i)
	if rec.StepAt(at) == i {
		// Branch(at) reaches exactly this step: no later step shares its time.
		if err := rec.Branch(at); err != nil {
			return err
		}
	} else {
		// Several steps at one virtual instant (actions given while the
		// clock was paused): Branch takes a time, so replay the inputs up
		// to this step into a new Recorder instead.
		nr, err := session.ReplayToStep(rec, i, setCheckpoints)
		if err != nil {
			return err
		}
		t.a.rec = nr
	}
	t.a.kc.stopWatch()
	t.a.kc.dropEdit()
	t.a.kc.markTimeline(-1)
	t.a.kc.dropAfter(keep)
	t.past, t.sim = false, nil
	live := t.a.rec.Live()
	if live == t.cursorFor && t.cursorSn != nil {
		t.liveSn = t.cursorSn // the cursor became live: its snapshotter goes on
	} else {
		t.liveSn = live.NewSnapshotter()
	}
	t.liveFor = live
	t.cursorFor, t.cursorSn = nil, nil
	t.a.view.sn = t.liveSn
	t.redrawView()
	t.setPastUI(false)
	t.draw(true)
	t.a.setPlaying(t.wasPlaying)
	return nil
}

// redrawView makes the cluster view draw the shown Simulation from
// scratch, at once: snapshot, clock and decision log; chips of pods the
// shown step does not have go now (no fade-out), new ones appear without
// the fade-in, so the cards never mix two steps' pods.
func (t *timeline) redrawView() {
	v := t.a.view
	v.lastRV = -1
	v.lastClock = ""
	v.lastDecision = 0
	clear(v.log)
	v.logEntries = 0
	still := v.still
	v.still = true
	v.render(true)
	v.still = still
	v.dropLeaving()
}

// setPastUI shows or hides the "viewing the past" bar and disables the
// controls that would change the cluster.
func (t *timeline) setPastUI(on bool) {
	t.bar.Set("hidden", !on)
	document.Get("documentElement").Get("classList").Call("toggle", "tl-viewing-past", on)
	if t.disabled == nil {
		t.disabled = map[string]bool{}
	}
	for _, id := range pastDisabled {
		e := byID(id)
		if e.IsNull() {
			continue
		}
		if on {
			if !e.Get("disabled").Bool() {
				t.disabled[id] = true
				e.Set("disabled", true)
			}
		} else if t.disabled[id] {
			delete(t.disabled, id)
			e.Set("disabled", false)
		}
	}
	// a playback (watch.go) is ended by skipping to its end, not branched
	watching := on && t.watching != nil
	t.branchBtn.Set("hidden", watching)
	if watching {
		t.backBtn.Set("textContent", "Skip to the end")
		t.bar.Call("setAttribute", "aria-label", "Watching from the start")
	} else {
		t.backBtn.Set("textContent", "Back to live")
		t.bar.Call("setAttribute", "aria-label", "Viewing the past")
	}
	if t.watchBtn.Truthy() {
		t.watchBtn.Set("disabled", watching)
	}
}

// blocked reports whether an action must wait because a past step is
// shown; it then says so in the bar (the learner chooses: back to live,
// or continue from here).
func (t *timeline) blocked() bool {
	if !t.ok() || !t.past {
		return false
	}
	if t.watching != nil {
		t.barText.Set("textContent", t.pastText())
		t.backBtn.Call("focus")
		return true
	}
	t.barText.Set("textContent", t.pastText()+" To change the cluster, go back to live or continue from here.")
	t.branchBtn.Call("focus")
	return true
}

// leavePast returns to live before an action made through window.dsplay
// (scripts act on the live cluster).
func (t *timeline) leavePast() {
	if t.ok() && t.past {
		t.toLive()
	}
}

func (t *timeline) pastText() string {
	if t.watching != nil {
		return t.watchText()
	}
	steps := t.a.rec.Steps()
	if t.idx >= len(steps) {
		return ""
	}
	return fmt.Sprintf("Viewing the past: t = %s, step %d of %d (live is at t = %s).", formatElapsed(steps[t.idx].At), t.idx+1, len(steps), formatElapsed(t.a.rec.Live().Elapsed()))
}

// frame keeps the slider's range and the label current (once per frame).
func (t *timeline) frame() {
	if !t.ok() {
		return
	}
	if i := t.want; i >= 0 {
		t.want = -1
		t.goTo(i)
		return
	}
	t.draw(false)
	if t.watching != nil {
		if txt := t.watchText(); txt != t.watchShown {
			t.watchShown = txt
			t.barText.Set("textContent", txt)
		}
	}
}

// draw updates the slider, the label, the decisions list and the marks.
func (t *timeline) draw(force bool) {
	steps := t.a.rec.Steps()
	n := len(steps)
	if n != t.nSteps || force {
		t.nSteps = n
		t.rng.Set("max", n)
	}
	pos := t.position()
	if t.want < 0 && (pos != t.lastValue || force) {
		t.lastValue = pos
		t.rng.Set("value", pos)
	}
	key := fmt.Sprintf("%v/%d/%d", t.past, pos, n)
	if key != t.shownKey || force {
		t.shownKey = key
		t.prev.Set("disabled", pos <= 0)
		t.next.Set("disabled", !t.past)
		t.liveBtn.Set("disabled", !t.past)
		t.liveBtn.Call("setAttribute", "aria-pressed", strconv.FormatBool(!t.past))
		var text, valueText string
		var st *engine.Step
		if t.past {
			st = &steps[t.idx]
			text = fmt.Sprintf("step %d of %d · t = %s · %s", t.idx+1, n, formatElapsed(st.At), st.Label)
			valueText = text
			t.barText.Set("textContent", t.pastText())
		} else {
			text = fmt.Sprintf("live · %s", plural(n, "step"))
			if n > 0 {
				st = &steps[n-1]
				text += fmt.Sprintf(" · last: t = %s · %s", formatElapsed(st.At), st.Label)
			}
			valueText = "live"
		}
		t.label.Set("textContent", text)
		t.rng.Call("setAttribute", "aria-valuetext", valueText)
		t.drawDecisions(st)
		t.root.Get("dataset").Set("past", strconv.FormatBool(t.past))
		t.root.Get("dataset").Set("steps", n)
	}
	if now := nowMs(); force || (n != t.marksN && now-t.marksMs >= timelineRedrawMs) {
		t.marksMs, t.marksN = now, n
		t.drawMarks(steps)
	}
}

// drawDecisions lists the decisions of step st (the first
// engine.MaxStepDecisions of them, and how many more).
func (t *timeline) drawDecisions(st *engine.Step) {
	clear(t.list)
	if st == nil {
		return
	}
	for _, d := range st.Decisions {
		li := el("li", "")
		what := fmt.Sprintf("%s %s %s", d.Component, d.Action, shortObject(d.Object))
		if d.Node != "" {
			what += " on " + d.Node
		}
		appendAll(li, textEl("span", "tl-what", what))
		if d.Reason != "" {
			li.Call("appendChild", textEl("span", "tl-why", d.Reason))
		}
		if d.Func != "" {
			li.Set("title", "upstream function: "+d.Func)
		}
		t.list.Call("appendChild", li)
	}
	if more := st.NumDecisions - len(st.Decisions); more > 0 {
		t.list.Call("appendChild", textEl("li", "tl-more", fmt.Sprintf("… and %d more (see the Decisions log)", more)))
	}
	if st.NumDecisions == 0 && st.Input >= 0 {
		t.list.Call("appendChild", textEl("li", "tl-more", "no controller decision: the action itself changed the cluster"))
	}
}

// drawMarks draws one mark per learner action on the strip, at its
// slider position (the newest maxTimelineMarks).
func (t *timeline) drawMarks(steps []engine.Step) {
	clear(t.marks)
	n := len(steps)
	if n == 0 {
		return
	}
	var idx []int
	for i := n - 1; i >= 0 && len(idx) < maxTimelineMarks; i-- {
		if steps[i].Input >= 0 {
			idx = append(idx, i)
		}
	}
	frag := document.Call("createDocumentFragment")
	for _, i := range idx {
		m := el("span", "tl-mark")
		m.Get("dataset").Set("step", i)
		m.Get("style").Set("left", strconv.FormatFloat(100*float64(i)/float64(n), 'f', 3, 64)+"%")
		m.Set("title", fmt.Sprintf("t = %s · %s", formatElapsed(steps[i].At), steps[i].Label))
		if t.past && i == t.idx {
			m.Get("classList").Call("add", "on")
		}
		frag.Call("appendChild", m)
	}
	t.marks.Call("appendChild", frag)
}

// stepsJS is dsplay.steps(): every step as {at, label, input, decisions}.
func (t *timeline) stepsJS() any {
	steps := t.a.rec.Steps()
	out := make([]any, 0, len(steps))
	for _, st := range steps {
		var ds []any
		for _, d := range st.Decisions {
			ds = append(ds, d.Component+" "+d.Action+" "+d.Object+": "+d.Reason)
		}
		out = append(out, map[string]any{"at": st.At.Seconds(), "label": st.Label, "input": st.Input, "numDecisions": st.NumDecisions, "decisions": ds})
	}
	return out
}

// timelineHooks adds the timeline's calls to window.dsplay (see
// site/README.md).
func (t *timeline) hooks(o js.Value) {
	a := t.a
	o.Set("steps", a.hook("dsplay.steps", func([]js.Value) any { a.flushJobs(); return t.stepsJS() }))
	o.Set("watch", a.hook("dsplay.watch", func([]js.Value) any { return t.startWatch() }))
	o.Set("watchState", a.hook("dsplay.watchState", func([]js.Value) any {
		st := map[string]any{"watching": t.watching != nil, "live": a.rec.Live().Elapsed().Seconds()}
		if t.watching != nil {
			st["at"] = t.sim.Elapsed().Seconds()
		}
		return st
	}))
	o.Set("seekStep", a.hook("dsplay.seekStep", func(args []js.Value) any {
		if len(args) == 0 || !t.ok() {
			return "usage: dsplay.seekStep(index)"
		}
		i, err := intArg(args, 0, "dsplay.seekStep(index)", 0, len(a.rec.Steps()))
		if err != nil {
			return fmt.Sprintf("%v: outside the timeline (0 to %d; %d is live)", err, len(a.rec.Steps()), len(a.rec.Steps()))
		}
		t.goTo(i)
		return ""
	}))
	o.Set("live", a.hook("dsplay.live", func([]js.Value) any { t.leavePast(); return nil }))
	o.Set("branch", a.hook("dsplay.branch", func([]js.Value) any {
		if err := t.branch(); err != nil {
			return err.Error()
		}
		return ""
	}))
	o.Set("viewing", a.hook("dsplay.viewing", func([]js.Value) any {
		at := a.shown().Elapsed().Seconds()
		cpErr := ""
		if a.rec.CheckpointErr != nil {
			cpErr = a.rec.CheckpointErr.Error()
		}
		return map[string]any{"past": t.past, "step": t.position(), "at": at, "live": a.rec.Live().Elapsed().Seconds(),
			"checkpoints": len(a.rec.Checkpoints()), "checkpointErr": cpErr}
	}))
}

// addNodesYAML is the manifest dsplay.addNodes applies: n Node objects
// prefix-1 ... prefix-n (session.NodesManifest), one recorded input.
func addNodesYAML(prefix string, n int) string { return session.NodesManifest(prefix, n) }

// dropEdit closes a kubectl edit without saving anything: after a branch
// its session belongs to a dropped future. The editor gets its manifest
// back.
func (c *console) dropEdit() {
	e := c.edit
	if e == nil {
		return
	}
	c.edit = nil
	byID("edit-bar").Set("hidden", true)
	byID("editor").Get("classList").Call("remove", "editing")
	c.a.ed.setText(e.saved)
}

// advanceBy moves virtual time on by d: the comparison's while the compare
// view is open, else the live cluster's (first leaving a past step shown,
// as when a script advances time).
func (a *app) advanceBy(d time.Duration) {
	if a.cmp.active() {
		a.cmp.advance(d)
		return
	}
	a.tl.leavePast()
	a.rec.Advance(d)
}

// clockElapsed is the virtual time the clock shows: the comparison's while
// the compare view is open, else the shown Simulation's (a past step's
// while the timeline shows one).
func (a *app) clockElapsed() time.Duration {
	if a.cmp.active() && a.cmp.c != nil {
		return a.cmp.c.Elapsed()
	}
	return a.shown().Elapsed()
}
