//go:build js && wasm

package main

import (
	"fmt"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
	"github.com/dsplayground/dsplay/examples"
)

// Lessons and exercises on the page. The "Lessons" button in the top bar
// opens the gallery (#lessons, a modal <dialog>): the lessons, then the
// exercises, in course order (the scenarios' `# order:`), each with its
// summary and, for an exercise, the learner's progress (solved, hints
// used; localStorage "dsplay.progress.v1", gallery.go). Opening one puts
// the learner's own cluster aside (the gallery and the panel offer to
// restore it: an undo rather than a question) and starts a new cluster
// (resetCluster); the panel #lesson goes at the top of the left column
// (on one column: first).
//
// A lesson (engine/session's Lesson: the scenario's steps) plays step by
// step: Next runs the next step's commands through a Player on the page's
// Recorder, so they land on the timeline and in the console (with their
// output) as if typed, and the step's explanation shows beside the
// cluster. Back shows the previous step by replaying the lesson up to it
// on a new cluster (deterministic: the same seed gives the same names).
// Restart starts the lesson over; Close hides the panel, the cluster stays.
// A failed assertion of a step (the lesson is wrong) is shown in red.
//
// An exercise: see exercise.go.

// lessons is the page's lessons UI (one page, one program).
var lessons *lessonsUI

type lessonsUI struct {
	a *app

	// course is the lessons and exercises (session.Item: an item that
	// does not parse shows its error in the gallery).
	course session.Course

	prog   session.Progress
	stored bool // the last save worked
	// noStorage: a save failed (the panel says the progress cannot be kept).
	noStorage bool

	openBtn, dialog, lessonList, exerciseList, restoreBox js.Value
	pane, kindEl, title, body, status, nav, closeBtn      js.Value

	// aside is the learner's own cluster, put aside when a lesson, an
	// exercise, a share link or an imported scenario opened over it
	// (restoreStash brings it back), with the editor's text then. Only
	// the learner's own is kept: what is opened over it never takes its
	// place (session.Aside).
	aside session.Aside
	// rec is the Recorder made for the open lesson or exercise: while
	// a.rec is it, the cluster is the lesson's.
	rec *engine.Recorder

	cur    *session.Item
	lesson *session.Lesson
	ex     *exerciseRun

	// busy is set while a step plays (in a goroutine that yields to the
	// browser); the controls are disabled meanwhile.
	busy bool
	// paced is set while a step plays in slow motion (nextStep, a
	// solution); skip once the learner asked to skip to its end.
	paced, skip bool
	// resetting is set while the lessons UI itself resets the cluster
	// (its reset hook must then not close the panel).
	resetting bool
}

// initLessonsUI reads the course, builds the gallery and wires the panel.
func initLessonsUI(a *app) {
	u := &lessonsUI{
		a:            a,
		dialog:       byID("lessons"),
		lessonList:   byID("lessons-list"),
		exerciseList: byID("exercises-list"),
		restoreBox:   byID("lessons-restore"),
		pane:         byID("lesson"),
		kindEl:       byID("lesson-kind"),
		title:        byID("lesson-title"),
		body:         byID("lesson-body"),
		status:       byID("lesson-status"),
		nav:          byID("lesson-nav"),
		closeBtn:     byID("lesson-close"),
	}
	if u.dialog.IsNull() || u.pane.IsNull() || u.lessonList.IsNull() {
		return // an index.html without the lessons region
	}
	lessons = u
	u.prog = loadProgress()
	u.load()

	// The "Lessons" button goes in the top bar, after the title.
	u.openBtn = textEl("button", "ctl lessons-open", tr("lessons.open"))
	u.openBtn.Set("id", "lessons-open")
	u.openBtn.Set("type", "button")
	u.openBtn.Set("title", tr("lessons.title"))
	u.openBtn.Get("dataset").Set("i18n", "lessons.open") // a language switch redraws it
	u.openBtn.Call("setAttribute", "data-i18n-title", "lessons.title")
	u.openBtn.Call("setAttribute", "aria-haspopup", "dialog")
	u.openBtn.Call("setAttribute", "aria-controls", "lessons")
	if h1 := document.Call("querySelector", ".topbar h1"); !h1.IsNull() {
		h1.Call("after", u.openBtn)
	}
	a.listen(dom.WrapElement(u.openBtn), "click", func(dom.Event) { u.openGallery() })
	a.listen(dom.WrapElement(byID("lessons-close")), "click", func(dom.Event) { u.closeGallery() })
	// A click on the backdrop (outside the dialog's box) closes it.
	a.listen(dom.WrapElement(u.dialog), "click", func(ev dom.Event) {
		e := ev.Underlying()
		if !e.Get("target").Equal(u.dialog) {
			return
		}
		r := u.dialog.Call("getBoundingClientRect")
		x, y := e.Get("clientX").Float(), e.Get("clientY").Float()
		if x < r.Get("left").Float() || x > r.Get("right").Float() || y < r.Get("top").Float() || y > r.Get("bottom").Float() {
			u.closeGallery()
		}
	})
	// Escape closes the dialog by itself (the browser gives the focus back).
	a.listen(dom.WrapElement(u.dialog), "close", func(dom.Event) {
		u.openBtn.Call("setAttribute", "aria-expanded", "false")
	})
	// One delegated listener for the items and the restore button.
	a.listen(dom.WrapElement(u.dialog), "click", func(ev dom.Event) {
		t := ev.Target().Underlying()
		if b := t.Call("closest", "button[data-open]"); !b.IsNull() {
			u.closeGallery()
			u.openItem(b.Get("dataset").Get("open").String(), b.Get("dataset").Get("kind").String())
			return
		}
		if !t.Call("closest", "button.restore-own").IsNull() {
			u.closeGallery()
			u.restoreStash()
		}
	})
	a.listen(dom.WrapElement(u.closeBtn), "click", func(dom.Event) { u.close() })
	a.listen(dom.WrapElement(u.nav), "click", func(ev dom.Event) {
		b := ev.Target().Underlying().Call("closest", "button[data-act]")
		if b.IsNull() || b.Get("disabled").Bool() {
			return
		}
		u.act(b)
	})
	a.listen(dom.WrapElement(u.body), "click", func(ev dom.Event) {
		b := ev.Target().Underlying().Call("closest", "button[data-act]")
		if b.IsNull() || b.Get("disabled").Bool() {
			return
		}
		u.act(b)
	})
	resetHooks = append(resetHooks, u.onReset)
	u.hooks()
}

// load lists the lessons and exercises (examples.Lessons, Exercises) in
// file-name order without parsing them: parsing all of them takes about
// 0.4 s in wasm, so a background goroutine parses them after the page
// started (a little at a time, yielding to the browser in between), and
// whatever needs one first parses it then (openLesson, the gallery).
func (u *lessonsUI) load() {
	read := func(files []examples.File, kind string) []*session.Item {
		var out []*session.Item
		for _, f := range files {
			out = append(out, session.NewItem(f.ID, f.Name, f.Data, kind))
		}
		return out
	}
	u.course.Lessons = read(examples.Lessons(), session.KindLesson)
	u.course.Exercises = read(examples.Exercises(), session.KindExercise)
	a := u.a
	go func() {
		defer a.recoverAt("lessons (parsing)")
		for _, it := range u.course.All() {
			time.Sleep(parsePauseMs * time.Millisecond)
			it.Parse()
		}
	}()
}

// parsePauseMs is the pause between two background parses.
const parsePauseMs = 40

// openGallery fills and opens the gallery.
func (u *lessonsUI) openGallery() {
	u.drawGallery()
	if !u.dialog.Get("open").Bool() {
		u.dialog.Call("showModal")
	}
	u.openBtn.Call("setAttribute", "aria-expanded", "true")
	// The focus goes to the item open now, else the first one not done.
	if b := u.dialog.Call("querySelector", "button[data-open].current, li:not(.done) button[data-open]"); !b.IsNull() {
		b.Call("focus")
	}
}

func (u *lessonsUI) closeGallery() {
	if u.dialog.Get("open").Bool() {
		u.dialog.Call("close")
	}
	u.openBtn.Call("setAttribute", "aria-expanded", "false")
}

// drawGallery lists the lessons and the exercises with their progress.
func (u *lessonsUI) drawGallery() {
	u.course.Ordered()
	draw := func(list js.Value, items []*session.Item) {
		clear(list)
		for i, it := range items {
			li := el("li", "lesson-li")
			b := el("button", "lesson-item")
			b.Set("type", "button")
			b.Get("dataset").Set("open", it.ID)
			b.Get("dataset").Set("kind", it.Meta().Kind)
			if u.cur == it {
				b.Get("classList").Call("add", "current")
				b.Call("setAttribute", "aria-current", "true")
			}
			num := textEl("span", "li-num", strconv.Itoa(i+1))
			num.Call("setAttribute", "aria-hidden", "true")
			title := textEl("span", "li-title", it.Title())
			appendAll(b, num, title)
			sum := it.Meta().Summary
			if it.Err() != nil {
				sum = "This file does not parse: " + it.Err().Error()
				b.Set("disabled", true)
			}
			if sum != "" {
				b.Call("appendChild", textEl("span", "li-summary", sum))
			}
			if st := u.prog.Text(it); st != "" {
				p := textEl("span", "li-progress", st)
				b.Call("appendChild", p)
				if u.prog.Done(it) {
					li.Get("classList").Call("add", "done")
				}
			}
			li.Call("appendChild", b)
			list.Call("appendChild", li)
		}
		if len(items) == 0 {
			list.Call("appendChild", textEl("li", "lesson-none", "None yet."))
		}
	}
	draw(u.lessonList, u.course.Lessons)
	draw(u.exerciseList, u.course.Exercises)
	clear(u.restoreBox)
	u.restoreBox.Set("hidden", u.aside.Held() == nil)
	if u.aside.Held() != nil {
		b := textEl("button", "ctl restore-own", "Restore my cluster")
		b.Set("type", "button")
		appendAll(u.restoreBox, textEl("span", "", u.stashText()+" "), b)
	}
}

// stashText describes the cluster put aside.
func (u *lessonsUI) stashText() string {
	own := u.aside.Held()
	if own == nil {
		return ""
	}
	n := session.Actions(own.Inputs())
	return fmt.Sprintf("Your own cluster (t = %s, %s) was put aside when a lesson, an exercise, a share link or an imported scenario opened.", formatElapsed(own.Live().Elapsed()), plural(n, "action"))
}

// save stores the progress; once a save fails the panel notes that the
// progress lasts as long as the page (storageNote).
func (u *lessonsUI) save() {
	u.stored = saveProgress(u.prog)
	u.noStorage = u.noStorage || !u.stored
}

// storageNote adds, once a save failed, a note that the progress lasts as
// long as the page.
func (u *lessonsUI) storageNote() {
	if u.noStorage {
		u.body.Call("appendChild", textEl("p", "lesson-hint lesson-nostore", "This browser does not let the page keep your progress: it lasts as long as the page."))
	}
}

// begin starts a new cluster for it: the learner's own cluster is put
// aside first (setAside).
func (u *lessonsUI) begin(it *session.Item) error {
	u.setAside()
	u.closeRun()
	u.clearStatus() // the last item's status is not this one's (goalcheck.go)
	if err := u.reset(it); err != nil {
		return err
	}
	u.cur = it
	return nil
}

// reset starts a new cluster for it (resetCluster) with the scenario's
// options. Its `kubectl rollout status` streams, as the page's own does
// (the learner's status prints as the rollout goes, and an exercise's
// frame observes the `always` rules meanwhile); the Player gives the
// scenario's own `kubectl rollout status` lines the blocking command's
// output and exit code (engine/scenario: it waits in one-second steps).
func (u *lessonsUI) reset(it *session.Item) error {
	u.resetting = true
	err := u.a.resetCluster(it.Options())
	u.resetting = false
	if err != nil {
		return err
	}
	u.rec = u.a.rec
	return nil
}

// setAside puts the cluster shown aside before something is opened over it,
// when it is the learner's own (session.Aside.Open: none is set aside yet,
// it is not a lesson's or an exercise's, it holds any action of theirs). It
// reports whether it did.
func (u *lessonsUI) setAside() bool {
	a := u.a
	example := ""
	if len(exampleManifests) > 0 {
		example = exampleManifests[0].Text
	}
	return u.aside.Open(a.rec, a.ed.ta.Get("value").String(), u.rec == a.rec, manifestFile, example)
}

// hasWork reports whether rec holds any action of the learner's: time
// passing is none, and neither is the example the page applies at load
// (the file manifest.yaml set and applied with its text).
func (u *lessonsUI) hasWork(rec *engine.Recorder) bool {
	example := ""
	if len(exampleManifests) > 0 {
		example = exampleManifests[0].Text
	}
	return session.HasWork(rec.Inputs(), manifestFile, example)
}

// restoreStash brings back the learner's own cluster: the lesson's
// cluster is dropped and the panel closes.
func (u *lessonsUI) restoreStash() {
	st, text := u.aside.Restore()
	if st == nil {
		return
	}
	a := u.a
	u.close()
	a.installRecorder(st)
	a.ed.setText(text)
	a.kc.note("Your own cluster is back, as it was when it was put aside (its console output is not).\n")
	u.rec = nil
}

// onReset runs after every resetCluster: a reset from elsewhere (the embed
// API, a share link) ends the lesson or exercise shown.
func (u *lessonsUI) onReset(a *app) {
	if u.resetting {
		return
	}
	u.close()
	u.rec = nil
}

// showPane shows the panel for the open item, at the top of the left
// column (first on one column).
func (u *lessonsUI) showPane() {
	left := document.Call("querySelector", ".col-left")
	if !left.IsNull() && !u.pane.Get("parentElement").Equal(left) {
		left.Call("prepend", u.pane)
	}
	u.pane.Set("hidden", false)
	document.Get("documentElement").Get("classList").Call("add", "lesson-open")
	kind := "Lesson"
	if u.cur.Exercise() {
		kind = "Exercise"
	}
	u.kindEl.Set("textContent", kind)
	u.title.Set("textContent", u.cur.Title())
	u.pane.Get("dataset").Set("kind", u.cur.Meta().Kind)
	u.pane.Get("dataset").Set("id", u.cur.ID)
}

// close hides the panel; the cluster stays as it is.
func (u *lessonsUI) close() {
	if u.cur == nil {
		return
	}
	hadFocus := u.pane.Call("contains", document.Get("activeElement")).Bool()
	u.closeRun()
	u.cur = nil
	u.pane.Set("hidden", true)
	document.Get("documentElement").Get("classList").Call("remove", "lesson-open")
	clear(u.body)
	clear(u.nav)
	u.status.Set("textContent", "")
	if hadFocus && !u.openBtn.IsUndefined() {
		u.openBtn.Call("focus")
	}
}

// closeRun ends the lesson or exercise state (not the panel).
func (u *lessonsUI) closeRun() {
	u.lesson = nil
	u.ex = nil
}

// say puts a message in the panel's live status line (or the console when
// the panel is closed).
func (u *lessonsUI) say(msg string) {
	if u.cur == nil {
		u.a.kc.note(msg + "\n")
		return
	}
	u.status.Get("classList").Call("remove", "sr-only")
	u.status.Set("textContent", msg)
}

// announce tells screen readers what the panel now shows (the status
// line, visually hidden: the panel shows it already).
func (u *lessonsUI) announce(msg string) {
	u.status.Get("classList").Call("add", "sr-only")
	u.status.Set("textContent", msg)
}

// act runs a panel button's action (its data-act).
func (u *lessonsUI) act(b js.Value) {
	if b.Get("dataset").Get("act").String() == "skip" {
		u.skip = true // the step plays on at full speed
		if u.busy {
			u.a.view.stage.jump(true) // and the stage shows its end, not what was queued
		}
		return
	}
	if u.busy {
		return
	}
	switch what := b.Get("dataset").Get("act").String(); what {
	case "replay":
		u.replayStep()
	case "open":
		u.openItem(b.Get("dataset").Get("open").String(), b.Get("dataset").Get("kind").String())
	case "next":
		u.nextStep()
	case "back":
		u.prevStep()
	case "restart":
		u.restart()
	case "close":
		u.close()
	case "restore":
		u.restoreStash()
	case "gallery":
		u.openGallery()
	default:
		u.exerciseAct(what)
	}
}

// galleryButton adds "All lessons" to the panel's controls (not in embed
// mode: an embedding page shows one lesson, without the gallery).
func (u *lessonsUI) galleryButton() {
	if !embedMode() {
		u.nav.Call("appendChild", navButton("gallery", "All lessons", "ctl"))
	}
}

// navButton makes a button of the panel's controls.
func navButton(act, text, cls string) js.Value {
	b := textEl("button", cls, text)
	b.Set("type", "button")
	b.Get("dataset").Set("act", act)
	return b
}

// renderMarkdown appends text (markdown-lite: paragraphs, `code`,
// *emphasis*, **strong**, "- " items) to parent as <p>, <ul><li>, <code>,
// <em> and <strong> elements (text only: no HTML is parsed).
func renderMarkdown(parent js.Value, text string) {
	var ul js.Value
	for _, b := range session.ParseMarkdown(text) {
		var e js.Value
		if b.Item {
			if ul.IsUndefined() {
				ul = el("ul", "md-list")
				parent.Call("appendChild", ul)
			}
			e = el("li", "")
			ul.Call("appendChild", e)
		} else {
			ul = js.Undefined()
			e = el("p", "")
			parent.Call("appendChild", e)
		}
		for _, s := range b.Spans {
			switch {
			case s.Code:
				e.Call("appendChild", textEl("code", "", s.Text))
			case s.Strong:
				e.Call("appendChild", textEl("strong", "", s.Text))
			case s.Em:
				e.Call("appendChild", textEl("em", "", s.Text))
			default:
				e.Call("appendChild", document.Call("createTextNode", s.Text))
			}
		}
	}
}

// commandsBox shows a step's commands (assertions left out) as a terminal
// would show them typed; playground commands that are not kubectl
// (advance, wait, node add, ...) show as comments (session.CommandLines).
func commandsBox(cmds []string) js.Value {
	lines := session.CommandLines(cmds)
	if len(lines) == 0 {
		return js.Undefined()
	}
	pre := textEl("pre", "lesson-cmds", strings.Join(lines, "\n"))
	pre.Call("setAttribute", "aria-label", "The step's commands")
	return pre
}

// echoEntries shows what a Player ran in the console, as if typed: each
// command with its output (playground commands as "# ..." lines); the
// author's comments between them are notes, not commands (consecutive
// lines make one note). Each entry is tied to the input its command made
// (session.EntryInputs, from the Player's record), for the timeline's
// marks. A watch the step left running (`kubectl get -w`, or `kubectl
// rollout status`, which streams on the page) goes on under its command's
// block.
func (u *lessonsUI) echoEntries(res session.StepResult) {
	ins := u.a.rec.Inputs()
	idx := session.EntryInputs(res.Entries)
	var lastRun, note js.Value
	for i, e := range res.Entries {
		if e.Comment {
			text := strings.TrimPrefix(strings.TrimLeft(strings.TrimSpace(e.Command), "#"), " ")
			if note.IsUndefined() {
				note = textEl("div", "note lesson-note", text+"\n")
				u.a.kc.push(note)
			} else {
				note.Set("textContent", note.Get("textContent").String()+text+"\n")
			}
			continue
		}
		note = js.Undefined()
		b := u.echoEntry(e)
		item := b.Get("parentElement")
		if item.IsNull() || !item.Get("classList").Call("contains", "entry").Bool() {
			continue
		}
		ds := item.Get("dataset")
		if k := idx[i]; k >= 0 && k < len(ins) {
			ds.Set("input", k)
			ds.Set("at", ins[k].At.Seconds())
		} else {
			item.Call("removeAttribute", "data-input")
			item.Call("removeAttribute", "data-at")
		}
		if !e.Comment && session.IsKubectl(e.Command) {
			lastRun = b
		}
	}
	if res.Watch != nil {
		if lastRun.IsUndefined() {
			res.Watch.Stop()
		} else {
			u.a.kc.startWatch(res.Watch, lastRun)
		}
	}
}

// echoEntry shows one command entry; it returns its block.
func (u *lessonsUI) echoEntry(e session.Entry) js.Value {
	c := u.a.kc
	cmd := strings.TrimSpace(e.Command)
	if !session.IsKubectl(cmd) {
		cmd = "# " + cmd
	}
	var chunks []engine.Chunk
	if e.Stdout != "" {
		chunks = append(chunks, engine.Chunk{Text: e.Stdout})
	}
	if e.Stderr != "" {
		chunks = append(chunks, engine.Chunk{Stderr: true, Text: e.Stderr})
	}
	return c.echoChunks(cmd, chunks)
}

// play runs work in a goroutine that yields to the browser first (so the
// busy state paints) and may yield again while it works (a Player's
// OnTick set by ticking); the controls are disabled and the clock paused
// meanwhile, then given back.
func (u *lessonsUI) play(label string, work func()) {
	if u.busy {
		return
	}
	a := u.a
	u.busy = true
	u.skip = false
	wasPlaying := a.playing
	a.setPlaying(false)
	u.setBusy(true, label)
	go func() {
		defer func() {
			u.busy = false
			u.setBusy(false, "")
			a.view.render(false)
			a.view.stage.jump(false)
			if wasPlaying && !a.tl.past {
				a.setPlaying(true)
			}
		}()
		defer a.recoverAt("lesson player")
		time.Sleep(16 * time.Millisecond)
		work()
	}()
}

// stepYieldMs is about the wall time a step plays between two yields to
// the browser (ticking): with the frame's drawing it keeps a frame near
// 16 ms.
const stepYieldMs = 10

// ticking makes p yield to the browser while it plays, from u.play's
// goroutine (never from a JS callback: waiting there would deadlock):
// after every command and virtual second (Player.OnTick), once about
// stepYieldMs of wall time went by, it waits for the next animation frame
// (yieldFrame), in which the frame loop draws the cluster as it is then
// (the clock, the pods) and the browser answers input. The step stops
// (a failure, see Player.OnTick) when alive turns false meanwhile (the
// lesson closed, the cluster reset). A console watch (`kubectl get -w` of
// an earlier step) is held back from the frame loop meanwhile: the Player
// polls it into the step's entries, as the transcript has it. The
// returned func removes the hook and gives the watch back (the next
// frame's poll ends it if the step stopped it).
func (u *lessonsUI) ticking(p *session.Player, alive func() bool) func() {
	kc := u.a.kc
	held := kc.watch
	kc.watch = nil
	last := nowMs() // the start of the current chunk of work
	chunk := func() { stepChunkMaxMs = max(stepChunkMaxMs, nowMs()-last) }
	pace := u.a.view.stage.newPacer()
	label, shown := u.status.Get("textContent").String(), ""
	if stepYield {
		p.OnTick = func(el time.Duration) bool {
			if u.pacing() {
				// slow motion (stage.go pacer); the status line names the
				// command playing (the console shows the step's lines when
				// it ends)
				if cmd := p.Running(); cmd != shown && cmd != "" {
					shown = cmd
					u.say(label + " $ " + cmd)
				}
				chunk()
				pace.step(el, func() bool { return alive() && u.pacing() })
				last = nowMs()
				return alive()
			}
			if nowMs()-last < stepBudgetMs {
				return true
			}
			chunk()
			yieldFrame()
			last = nowMs()
			return alive()
		}
	}
	return func() {
		chunk()
		p.OnTick = nil
		if kc.watch == nil {
			kc.watch = held
		}
	}
}

// pacing reports whether played steps go at a watchable pace (slow
// motion): unless the learner pressed "Skip to end" during this step, the
// page was opened with ?instant, or reduced motion is asked for.
func (u *lessonsUI) pacing() bool {
	return stepPace && u.paced && !u.skip && !u.a.view.stage.reduced
}

// stepPace is false with ?instant (or dsplay.paceForTest(false)): lesson
// steps, exercise solutions play as fast as they can, yielding only to
// draw.
var stepPace = true

// stepYield is false when a test measures steps played in one call
// (dsplay.stepYieldForTest(false)): no OnTick, the page blocked for the
// whole step, as before the Player had the hook. stepChunkMaxMs is the
// longest wall time (ms) a step played without yielding since
// dsplay.stepYieldForTest last returned it.
// stepBudgetMs is the wall time between yields (stepYieldMs; a test may
// set it lower to see more frames while a short step plays).
var (
	stepYield      = true
	stepChunkMaxMs float64
	stepBudgetMs   = float64(stepYieldMs)
)

// yieldFrame blocks the calling goroutine (not a JS callback) until the
// next animation frame, or 50 ms when no frame comes (a background tab,
// a headless browser drawing rarely); meanwhile the Go program is idle and the browser runs its event
// loop.
func yieldFrame() {
	ch := make(chan struct{})
	var raf, to js.Func
	var rafID, toID js.Value
	done := false
	finish := func(js.Value, []js.Value) any {
		if !done {
			done = true
			global.Call("cancelAnimationFrame", rafID)
			global.Call("clearTimeout", toID)
			raf.Release()
			to.Release()
			close(ch)
		}
		return nil
	}
	raf, to = js.FuncOf(finish), js.FuncOf(finish)
	rafID = global.Call("requestAnimationFrame", raf)
	toID = global.Call("setTimeout", to, 50)
	<-ch
}

// setBusy disables the panel's controls and the inputs that would change
// the cluster while a step plays, and says what plays.
func (u *lessonsUI) setBusy(on bool, label string) {
	u.pane.Get("dataset").Set("busy", strconv.FormatBool(on))
	u.pane.Call("setAttribute", "aria-busy", strconv.FormatBool(on))
	btns := u.pane.Call("querySelectorAll", "button[data-act]")
	for i := 0; i < btns.Length(); i++ {
		b := btns.Index(i)
		if on {
			if !b.Get("disabled").Bool() {
				b.Set("disabled", true)
				b.Get("dataset").Set("busyOff", "1")
			}
		} else if b.Get("dataset").Get("busyOff").Truthy() {
			b.Set("disabled", false)
			b.Call("removeAttribute", "data-busy-off")
		}
	}
	for _, id := range []string{"kubectl", "apply", "play", "step", "next-event"} {
		if e := byID(id); !e.IsNull() && !u.a.tl.past {
			e.Set("disabled", on)
		}
	}
	if skip := u.pane.Call("querySelector", `button[data-act="skip"]`); skip.Truthy() {
		remove(skip)
	}
	if on {
		u.say(label)
		if stepPace {
			sk := navButton("skip", "Skip to end", "ctl")
			sk.Set("title", "Play the rest of this step at once")
			u.nav.Call("appendChild", sk)
		}
	}
}

// ---- the lesson player ----

// openLesson opens lesson id (its file's ID, e.g. "01-one-pod-per-node"):
// a new cluster, the lesson's setup played, its introduction shown.
func (a *app) openLesson(id string) error {
	u := lessons
	if u == nil {
		return fmt.Errorf("this page has no lessons panel")
	}
	if u.busy {
		return fmt.Errorf("a step is still playing")
	}
	it := u.course.Find(id, session.KindLesson)
	if it == nil {
		return fmt.Errorf("no lesson %q", id)
	}
	if err := it.Parse(); err != nil {
		return err
	}
	if err := u.begin(it); err != nil {
		return err
	}
	l := session.NewLesson(it)
	l.Player = it.NewPlayer(a.rec)
	u.lesson = l
	u.showPane()
	res := l.Player.PlayStep(0)
	u.echoEntries(res)
	u.showFile(it, l.Steps[0].Commands)
	l.After = len(a.rec.Inputs())
	if len(res.Failures) > 0 {
		l.Failures[0] = res.Failures
	}
	a.view.render(false)
	u.drawLesson()
	focusPanel(u.title) // not embedded before the reader works there (goalcheck.go)
	return nil
}

// attachLesson opens lesson id at step on the page's cluster as it is (a
// share link's replay, which already holds the steps played): nothing is
// played; Next plays the following step's lines on it (Item.LinesPlayer), Back
// replays the lesson on a new cluster.
func (a *app) attachLesson(id string, step int) error {
	u := lessons
	if u == nil {
		return fmt.Errorf("this page has no lessons panel")
	}
	if u.busy {
		return fmt.Errorf("a step is still playing")
	}
	it := u.course.Find(id, session.KindLesson)
	if it == nil {
		return fmt.Errorf("no lesson %q", id)
	}
	if err := it.Parse(); err != nil {
		return err
	}
	u.closeRun()
	u.clearStatus()
	u.cur, u.rec = it, a.rec
	l := session.NewLesson(it)
	l.Shown = max(0, min(step, len(l.Steps)))
	l.After = len(a.rec.Inputs())
	u.lesson = l
	u.showPane()
	u.drawLesson()
	return nil
}

// nextStep plays the next step (or shows the end after the last).
func (u *lessonsUI) nextStep() {
	l := u.lesson
	if l == nil || u.busy || l.Shown > l.LastStep() {
		return
	}
	if l.Shown == l.LastStep() {
		l.Shown++
		u.markLesson(l)
		u.drawLesson()
		return
	}
	u.a.tl.leavePast() // the step plays on the live cluster: show it
	i := l.Shown + 1
	u.play(fmt.Sprintf("Playing step %d of %d: %s…", i, l.LastStep(), l.Steps[i].Title), func() { u.playStep(l, i) })
}

// replayStep plays the step shown again, in slow motion: the lesson is
// replayed at once up to the step before, then the step plays.
func (u *lessonsUI) replayStep() {
	l := u.lesson
	if l == nil || u.busy || l.Shown < 1 || l.Shown > l.LastStep() {
		return
	}
	i := l.Shown
	u.a.tl.leavePast()
	u.play(fmt.Sprintf("Replaying step %d of %d: %s…", i, l.LastStep(), l.Steps[i].Title), func() {
		if !u.replayWork(l, i-1) {
			return
		}
		u.playStep(l, i)
	})
}

// playStep plays step i of lesson l in slow motion (from u.play's
// goroutine) and shows it.
func (u *lessonsUI) playStep(l *session.Lesson, i int) {
	st := l.Steps[i]
	u.paced = true
	defer func() { u.paced = false }()
	if u.pacing() {
		// the step's text shows while it plays, so the learner reads what
		// they watch (the controls stay disabled)
		label := u.status.Get("textContent").String()
		l.Shown = i
		u.drawLesson()
		u.setBusy(true, label)
	}
	player, first := l.Player, i
	if u.a.rec != u.rec || player == nil {
		// "Continue from here" made a new Recorder of this cluster's
		// timeline: the lesson goes on with it, playing the step's
		// lines through a Player of their own.
		u.rec = u.a.rec
		p, err := l.Item.LinesPlayer(st.Commands, u.a.rec)
		if err != nil {
			u.say(err.Error())
			return
		}
		player, first, l.Player = p, 0, nil
	}
	// the learner acted, or rewound the timeline ("Continue from here")
	ins := u.a.rec.Inputs()
	touched := l.Player == nil || len(ins) < l.After || session.LearnerActed(ins, l.After)
	rec := u.a.rec
	untick := u.ticking(player, func() bool { return u.lesson == l && u.a.rec == rec })
	res := player.PlayStep(first)
	untick()
	if u.lesson != l {
		return // closed meanwhile
	}
	u.echoEntries(res)
	u.showFile(l.Item, st.Commands)
	l.After = len(u.a.rec.Inputs())
	if len(res.Failures) > 0 {
		l.Failures[i] = res.Failures
		l.Touched[i] = touched
	}
	l.Shown = i
	u.markLesson(l)
	u.drawLesson()
}

// prevStep shows the step before: the lesson replays up to it on a new
// cluster (the same seed: the same names and times).
func (u *lessonsUI) prevStep() {
	l := u.lesson
	if l == nil || u.busy || l.Shown == 0 {
		return
	}
	target := min(l.Shown-1, l.LastStep())
	u.a.tl.leavePast()
	u.replayTo(target)
}

// replayTo starts the lesson's cluster over and plays its steps 0..target.
func (u *lessonsUI) replayTo(target int) {
	l := u.lesson
	u.play(fmt.Sprintf("Replaying the lesson up to step %d…", target), func() {
		if u.replayWork(l, target) {
			u.drawLesson()
		}
	})
}

// replayWork starts lesson l's cluster over and plays its steps
// 0..target at once (from u.play's goroutine); false when it was closed
// or reset meanwhile.
func (u *lessonsUI) replayWork(l *session.Lesson, target int) bool {
	a := u.a
	if err := u.reset(l.Item); err != nil {
		u.say(err.Error())
		return false
	}
	l.Player = l.Item.NewPlayer(a.rec)
	l.Failures, l.Touched = map[int][]string{}, map[int]bool{}
	rec := a.rec
	alive := func() bool { return u.lesson == l && u.a.rec == rec }
	for i := 0; i <= target; i++ {
		if !alive() {
			return false // closed or reset meanwhile
		}
		untick := u.ticking(l.Player, alive)
		res := l.Player.PlayStep(i)
		untick()
		u.echoEntries(res)
		u.showFile(l.Item, l.Steps[i].Commands)
		if len(res.Failures) > 0 {
			l.Failures[i] = res.Failures
		}
		a.view.render(false)
	}
	l.After = len(a.rec.Inputs())
	l.Shown = target
	return true
}

// restart starts the open lesson or exercise over.
func (u *lessonsUI) restart() {
	switch {
	case u.lesson != nil:
		u.replayTo(0)
	case u.ex != nil:
		u.restartExercise()
	}
}

// markLesson saves how far the lesson went.
func (u *lessonsUI) markLesson(l *session.Lesson) {
	l.Mark(u.prog)
	u.save()
}

// drawLesson shows the lesson's introduction, the step shown or its end.
func (u *lessonsUI) drawLesson() {
	l := u.lesson
	clear(u.body)
	clear(u.nav)
	n := l.LastStep()
	prog := el("p", "lesson-progress")
	bar := el("progress", "lesson-bar")
	bar.Set("max", max(n, 1))
	bar.Set("value", min(l.Shown, n))
	bar.Call("setAttribute", "aria-hidden", "true")
	var head js.Value
	switch {
	case l.Shown == 0:
		prog.Set("textContent", fmt.Sprintf("%s · introduction", plural(n, "step")))
		head = textEl("h3", "lesson-step-title", "Introduction")
		appendAll(u.body, prog, bar, head)
		if s := l.Item.Meta().Summary; s != "" {
			renderMarkdown(u.body, s)
		}
		if len(l.Steps) > 0 {
			if t := strings.TrimSpace(l.Steps[0].Text); t != "" {
				renderMarkdown(u.body, t)
			}
		}
		u.body.Call("appendChild", textEl("p", "lesson-hint", "Next plays the first step: its commands run in the kubectl console and on the timeline, and the cluster shows what they do."))
	case l.Shown > n:
		prog.Set("textContent", fmt.Sprintf("%s · finished", plural(n, "step")))
		bar.Set("value", n)
		head = textEl("h3", "lesson-step-title lesson-done", "Lesson finished ✓")
		appendAll(u.body, prog, bar, head)
		msg := "You played every step. The cluster is yours now: try your own commands in the console, or scrub the timeline back to any step."
		if l.AnyFailure() {
			msg = "Every step played, but some of the lesson's own checks failed (marked above): the lesson may be out of date."
		}
		u.body.Call("appendChild", textEl("p", "", msg))
		if next := u.course.Next(l.Item); next != nil && !embedMode() {
			p := el("p", "")
			appendAll(p, document.Call("createTextNode", "Next in the course: "))
			b := navButton("open", next.Title(), "ctl lesson-next-item")
			b.Get("dataset").Set("open", next.ID)
			b.Get("dataset").Set("kind", next.Meta().Kind)
			p.Call("appendChild", b)
			u.body.Call("appendChild", p)
		}
	default:
		st := l.Steps[l.Shown]
		prog.Set("textContent", fmt.Sprintf("Step %d of %d", l.Shown, n))
		head = textEl("h3", "lesson-step-title", st.Title)
		appendAll(u.body, prog, bar, head)
		if t := strings.TrimSpace(st.Text); t != "" {
			box := el("div", "lesson-text")
			renderMarkdown(box, t)
			u.body.Call("appendChild", box)
		}
		if c := commandsBox(st.Commands); !c.IsUndefined() {
			u.body.Call("appendChild", textEl("p", "lesson-label", "Ran in the console:"))
			u.body.Call("appendChild", c)
		}
	}
	for i := 0; i <= min(l.Shown, n); i++ {
		if fs := l.Failures[i]; len(fs) > 0 && (i == l.Shown || l.Shown > n) {
			box := el("div", "lesson-fail")
			box.Call("setAttribute", "role", "alert")
			what := "This step's check failed — the lesson does not match the simulator; please report it:"
			switch {
			case i == 0:
				what = "The lesson's setup failed — the lesson does not match the simulator; please report it:"
			case l.Touched[i]:
				what = "This step's check failed — you changed the cluster since the lesson's previous step (Back or Restart replays the lesson without your changes):"
			}
			box.Call("appendChild", textEl("strong", "", what))
			ul := el("ul", "")
			for _, f := range fs {
				ul.Call("appendChild", textEl("li", "", f))
			}
			box.Call("appendChild", ul)
			u.body.Call("appendChild", box)
		}
	}
	u.storageNote()
	// controls
	back := navButton("back", "Back", "ctl")
	back.Set("disabled", l.Shown == 0)
	nextText := "Next"
	switch {
	case l.Shown == 0:
		nextText = "Start"
	case l.Shown == n:
		nextText = "Finish"
	}
	next := navButton("next", nextText, "primary")
	next.Set("disabled", l.Shown > n)
	if l.Shown > n {
		next = navButton("restart", "Play again", "primary")
	}
	appendAll(u.nav, back, next)
	if l.Shown >= 1 && l.Shown <= n {
		r := navButton("replay", "Replay this step", "ctl")
		r.Set("title", "Play this step again, in slow motion")
		u.nav.Call("appendChild", r)
	}
	u.nav.Call("appendChild", navButton("restart", "Restart", "ctl"))
	u.galleryButton()
	if u.aside.Held() != nil {
		r := navButton("restore", "Restore my cluster", "ctl")
		r.Set("title", u.stashText())
		u.nav.Call("appendChild", r)
	}
	switch {
	case l.Shown == 0:
		u.announce(fmt.Sprintf("Lesson %s: introduction.", l.Item.Title()))
	case l.Shown > n:
		u.announce("Lesson finished.")
	default:
		u.announce(session.Sentence(fmt.Sprintf("Step %d of %d: %s", l.Shown, n, l.Steps[l.Shown].Title)))
	}
	// The focus stays on Next (the same place) while stepping through;
	// at the end it goes to the heading.
	if l.Shown > n {
		head.Set("tabIndex", -1)
		focusPanel(head)
	} else if u.pane.Call("contains", document.Get("activeElement")).Bool() || document.Get("activeElement").Equal(document.Get("body")) {
		focusPanel(next)
	}
}

// openItem opens a lesson or an exercise (kind "exercise"), saying why
// when it cannot.
func (u *lessonsUI) openItem(id, kind string) {
	var err error
	if kind == session.KindExercise {
		err = u.a.openExercise(id)
	} else {
		err = u.a.openLesson(id)
	}
	if err != nil {
		u.say("Could not open " + id + ": " + err.Error())
	}
}

// lessonStateJS is dsplay.lessonState().
func (u *lessonsUI) lessonStateJS() any {
	l := u.lesson
	if l == nil {
		return nil
	}
	var fails []any
	for _, f := range l.AllFailures() {
		fails = append(fails, f)
	}
	return map[string]any{"id": l.Item.ID, "title": l.Item.Title(), "step": l.Shown, "steps": l.LastStep(),
		"stepTitle": l.StepTitle(), "finished": l.Finished(), "busy": u.busy, "failures": fails}
}

// hooks adds the lessons' calls to window.dsplay (site/README.md).
func (u *lessonsUI) hooks() {
	o := global.Get("dsplay")
	if !o.Truthy() {
		return
	}
	a := u.a
	errString := func(err error) any {
		if err != nil {
			return err.Error()
		}
		return ""
	}
	o.Set("lessons", a.hook("dsplay.lessons", func([]js.Value) any {
		u.course.Ordered()
		var out []any
		for _, it := range u.course.All() {
			m := map[string]any{"id": it.ID, "title": it.Title(), "kind": it.Meta().Kind, "summary": it.Meta().Summary,
				"done": u.prog.Done(it)}
			if it.Err() != nil {
				m["error"] = it.Err().Error()
			}
			out = append(out, m)
		}
		return out
	}))
	o.Set("openLesson", a.hook("dsplay.openLesson", func(args []js.Value) any {
		if len(args) == 0 {
			return "usage: dsplay.openLesson(id)"
		}
		return errString(a.openLesson(args[0].String()))
	}))
	o.Set("lessonState", a.hook("dsplay.lessonState", func([]js.Value) any { return u.lessonStateJS() }))
	o.Set("nextStep", a.hook("dsplay.nextStep", func([]js.Value) any {
		switch {
		case u.busy:
			return "a step is still playing"
		case u.lesson == nil:
			return "no lesson is open"
		}
		u.nextStep()
		return ""
	}))
	o.Set("prevStep", a.hook("dsplay.prevStep", func([]js.Value) any {
		if u.lesson == nil || u.busy {
			return "no lesson is open, or a step is still playing"
		}
		u.prevStep()
		return ""
	}))
	// stepYieldForTest(on, budgetMs): steps yield to the browser while
	// they play (true, the default) or play in one call; budgetMs (default
	// stepYieldMs) is the work between yields. Returns the longest time
	// (ms) a step ran without yielding since the previous call.
	// pace(on): lesson steps and solutions play in slow motion (true, the
	// default; ?instant starts with false) or as fast as they can.
	o.Set("pace", a.hook("dsplay.pace", func(args []js.Value) any {
		stepPace = len(args) == 0 || args[0].Truthy()
		return stepPace
	}))
	o.Set("stepYieldForTest", a.hook("dsplay.stepYieldForTest", func(args []js.Value) any {
		stepYield = len(args) == 0 || args[0].Truthy()
		stepBudgetMs = stepYieldMs
		if len(args) > 1 && args[1].Type() == js.TypeNumber {
			stepBudgetMs = args[1].Float()
		}
		ms := stepChunkMaxMs
		stepChunkMaxMs = 0
		return ms
	}))
	o.Set("closeLesson", a.hook("dsplay.closeLesson", func([]js.Value) any { u.close(); return nil }))
	o.Set("progress", a.hook("dsplay.progress", func([]js.Value) any {
		return global.Get("JSON").Call("parse", u.prog.String())
	}))
	u.exerciseHooks(o)
}
