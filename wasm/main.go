//go:build js && wasm

// Command wasm is the DaemonSet Playground's browser UI (GOOS=js
// GOARCH=wasm): a YAML editor, the cluster drawn as node cards with pod
// chips, a kubectl box, virtual-time controls and the decision log, all over
// one engine.Simulation, acted on through an engine.Recorder so a timeline
// can show any earlier step (timeline.go); a compare view runs a template
// change under RollingUpdate and OnDelete side by side (compare.go).
//
// Rules it keeps (see the project's browser notes): one long-lived
// requestAnimationFrame callback that re-schedules itself; DOM writes batched
// into that frame; node cards and pod chips made through raw syscall/js;
// every js.Func released at shutdown; a recover at every JS callback, so a Go
// panic shows an error and the simulation and the last drawn state survive.
package main

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// maxAdvanceSeconds is the most virtual time one dsplay.advance moves
// (a day; dsplay:step's cap is an hour).
const maxAdvanceSeconds = 24 * 3600

// maxEditorBytes caps what Apply takes from the editor: the most
// manifest.Decode accepts (1 MiB; yaml.v3 decodes about 1 MB in 0.6 s in
// wasm, and a playground manifest is a few kilobytes).
const maxEditorBytes = engine.MaxManifestBytes

// maxFrameStep caps the wall time one frame may turn into virtual time, so a
// tab coming back from the background does not run minutes in one frame.
const maxFrameStep = 100 * time.Millisecond

// Bounds of the virtual time one frame may advance (see adapt).
const (
	minStep = 10 * time.Millisecond
	maxStep = time.Second
)

// frameBudgetMs is the wall time a frame's Advance should stay under.
const frameBudgetMs = 25

// manifestFile is the name the editor's text goes by (`kubectl apply -f manifest.yaml`).
const manifestFile = "manifest.yaml"

type job struct {
	run    func()
	queued int // frameNo when queued
}

type app struct {
	// rec records every action on the live Simulation (rec.Live()) for the
	// timeline; the page draws a.shown() (timeline.go).
	rec *engine.Recorder
	tl  *timeline
	cmp *compareView

	playing bool
	speed   float64
	// maxStep is the most virtual time one frame advances. It shrinks when
	// an Advance takes longer than frameBudgetMs (a large cluster with many
	// wake-ups), so frames stay short and the page responsive; the virtual
	// clock then runs slower than the chosen speed, and the page says so.
	maxStep time.Duration
	lagging bool
	lag     session.LagMeter // the measured rate of virtual time
	slowMs  float64          // dsplay.slowFramesForTest: wall ms each frame busy-waits
	// lastAdvance is the virtual time this frame advanced.
	lastAdvance time.Duration
	lastTS      float64 // timestamp of the previous animation frame, ms; <0 before the first
	frameFn     js.Func
	rafID       js.Value // the pending requestAnimationFrame request

	// jobs run in a later frame than the one that queued them, so the
	// browser paints the "busy" state first; at most one per frame.
	jobs    []job
	frameNo int

	// undo is what the Undo button of the last import's note brings back
	// (importexport.go); undoGen numbers the imports, so an older note's
	// button says it no longer applies.
	undo    *importUndo
	undoGen int

	// funcs are every js.Func this program made, released by shutdown.
	funcs    []js.Func
	removers []func()

	view *view
	ed   *editor
	kc   *console
	save *autosave // the session kept in the browser (autosave.go)

	stopped   bool
	lastPanic string

	stats stats
}

// stats are counters and timings for diagnosing slow pages
// (window.dsplay.stats()): Frames and Snapshots count since the start;
// AdvanceMs, SnapshotMs and DrawMs are the last Advance, snapshot and draw,
// MaxMs the longest frame so far, in milliseconds of wall time.
type stats struct {
	Frames, Snapshots                    int
	AdvanceMs, SnapshotMs, DrawMs, MaxMs float64
}

func nowMs() float64 { return global.Get("performance").Call("now").Float() }

func main() {
	a := &app{speed: 1, lastTS: -1, playing: true, maxStep: maxStep}
	if err := a.start(); err != nil {
		showFatal("The playground could not start: "+err.Error(), "")
		return
	}
	select {} // keep the Go program (and its callbacks) alive
}

func (a *app) start() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
			global.Get("console").Call("error", string(debug.Stack()))
		}
	}()
	a.rec = engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	win := dom.GetWindow()
	doc := win.Document()

	a.view = newView(a)
	a.ed = newEditor(a, doc)
	a.kc = newConsole(a, doc)
	a.tl = newTimeline(a)
	a.cmp = newCompare(a)

	// time controls
	a.listen(doc.GetElementByID("play"), "click", func(dom.Event) { a.setPlaying(!a.playing) })
	a.listen(doc.GetElementByID("step"), "click", func(dom.Event) {
		a.setPlaying(false)
		a.advance(time.Second)
	})
	a.listen(doc.GetElementByID("speed"), "change", func(ev dom.Event) {
		if f, err := strconv.ParseFloat(ev.Target().Underlying().Get("value").String(), 64); err == nil && f > 0 {
			a.speed = f
			a.lag.Reset()
		}
	})
	// A background tab gets no animation frames: start the lag measurement
	// and the frame clock over when the page is hidden or shown, so the
	// pause is neither lag nor a jump of virtual time (lag.go).
	a.listen(doc, "visibilitychange", func(dom.Event) {
		a.lastTS = -1
		a.lag.Reset()
	})
	a.listen(doc.GetElementByID("panel-close"), "click", func(dom.Event) { a.view.openPanel("") })
	a.listen(win, "resize", func(dom.Event) {
		if a.view.panelNode != "" {
			a.view.placePanel()
		}
	})
	a.listen(win, "keydown", func(ev dom.Event) {
		if ev.Underlying().Get("key").String() == "Escape" {
			a.view.openPanel("")
		}
	})

	a.keepPaneOrder()
	a.exposeHooks()
	a.initStage()
	stepPace = !urlParam("instant")
	a.initLanguage() // before what draws the chrome's words (i18n.go)
	a.initLessons()  // lessons and exercises (lesson.go)
	a.initAutosave()
	a.initAbout()

	// What the URL asks for (embed mode, a share link, a lesson: embed.go);
	// otherwise the default example, applied: its pods appear over the
	// first virtual seconds.
	if !a.initEmbed() {
		a.ed.setText(exampleManifests[0].Text)
		a.applyNow()
	}
	a.setPlaying(!urlParam("paused"))
	a.view.render(true)
	if urlParam("compare") {
		a.cmp.open("")
	}
	a.view.still = false // what comes later fades in

	a.frameFn = js.FuncOf(a.frame)
	a.funcs = append(a.funcs, a.frameFn)
	a.rafID = global.Call("requestAnimationFrame", a.frameFn)

	byID("loading").Set("hidden", true)
	document.Get("documentElement").Get("dataset").Set("state", "ready")
	// Navigation to interactive, for load-time measurements (site tests).
	if perf := global.Get("performance"); perf.Truthy() && perf.Get("mark").Truthy() {
		perf.Call("mark", "dsplay-ready")
	}
	return nil
}

// frame is the one animation-frame callback. It re-schedules itself first,
// so a panic below cannot stop the loop.
func (a *app) frame(_ js.Value, args []js.Value) any {
	if a.stopped {
		return nil
	}
	a.rafID = global.Call("requestAnimationFrame", a.frameFn)
	defer a.recoverAt("animation frame")
	t0 := nowMs()
	a.stats.Frames++
	defer func() {
		if d := nowMs() - t0; d > a.stats.MaxMs {
			a.stats.MaxMs = d
		}
	}()
	ts := 0.0
	if len(args) > 0 {
		ts = args[0].Float()
	}
	dt := time.Duration(0)
	if a.lastTS >= 0 && ts > a.lastTS {
		dt = time.Duration((ts - a.lastTS) * float64(time.Millisecond))
	}
	a.lastTS = ts
	if dt > maxFrameStep {
		dt = maxFrameStep
	}

	a.frameNo++
	// a queued Apply waits for a console command still running (the
	// Recorder refuses every action meanwhile)
	if len(a.jobs) > 0 && a.frameNo >= a.jobs[0].queued+2 && !a.kc.waiting {
		j := a.jobs[0]
		a.jobs = a.jobs[1:]
		j.run()
	} else if a.playing && dt > 0 && !a.view.stage.holding() {
		want := time.Duration(float64(dt) * a.speed)
		v := min(want, a.maxStep).Truncate(time.Millisecond)
		if v > 0 {
			t0 := nowMs()
			a.lastAdvance = v
			a.advanceBy(v)
			a.stats.AdvanceMs = nowMs() - t0
			a.adapt(a.stats.AdvanceMs)
		}
	}
	if a.slowMs > 0 {
		for t := nowMs(); nowMs()-t < a.slowMs; {
		}
	}
	switch {
	case a.playing && a.view.stage.holding():
		a.lag.Reset() // the stage holds the clock: not lag
	case a.playing:
		a.showLag(a.lag.Frame(ts, a.lastAdvance, a.speed))
	}
	a.lastAdvance = 0
	a.kc.pollWatch() // a kubectl get -w prints what changed
	a.ed.frame()
	a.view.render(false)
	a.view.stage.frame()
	a.tl.frame()
	a.cmp.frame()
	a.lessonsFrame() // an open exercise observes and checks (gallery.go, exercise.go)
	a.save.frame()   // the session kept in the browser (autosave.go)
	a.view.sweep()
	pm.frame() // postMessage: the new decisions, to an embedding page (postmessage.go)
	return nil
}

// adapt halves the per-frame virtual step after a slow Advance and lets it
// grow back after fast ones.
func (a *app) adapt(ms float64) {
	switch {
	case ms > frameBudgetMs && a.maxStep > minStep:
		a.maxStep = max(a.maxStep/2, minStep)
	case ms < frameBudgetMs/4 && a.maxStep < maxStep:
		a.maxStep = min(a.maxStep*2, maxStep)
	}
}

// showLag shows or hides the note that virtual time runs slower than asked.
func (a *app) showLag(on bool) {
	if on == a.lagging {
		return
	}
	a.lagging = on
	byID("lag").Set("hidden", !on)
}

// advance moves virtual time by d (after any queued apply) and draws the
// result at once.
func (a *app) advance(d time.Duration) {
	a.flushJobs()
	t0 := nowMs()
	a.advanceBy(d)
	a.stats.AdvanceMs = nowMs() - t0
	a.kc.pollWatch()
	a.view.render(false)
}

func (a *app) setPlaying(on bool) {
	a.playing = on
	b := byID("play")
	if on {
		b.Set("textContent", tr("clock.pause"))
	} else {
		b.Set("textContent", tr("clock.play"))
	}
	b.Call("setAttribute", "aria-pressed", strconv.FormatBool(on))
	a.lastTS = -1
	a.lag.Reset()
	if !on {
		a.showLag(false)
	}
}

// apply takes the editor's text now and queues its Apply for a later
// frame, showing a busy state first (decoding a large manifest takes a
// moment in wasm). Anything that reads or changes the cluster first runs
// the queued applies (flushJobs), so a console command, a step of virtual
// time or a window.dsplay call never overtakes an Apply clicked before it,
// even in a background tab where no frame comes.
func (a *app) apply() {
	if a.tl.blocked() {
		return
	}
	if a.kc.editing() {
		a.kc.finishEdit(false) // the editor holds a kubectl edit: save it
		return
	}
	text, ok := a.ed.text()
	if !ok {
		return
	}
	a.ed.showBusy()
	a.jobs = append(a.jobs, job{run: func() { a.applyText(text) }, queued: a.frameNo})
}

// flushJobs runs every queued job now, oldest first.
func (a *app) flushJobs() {
	for len(a.jobs) > 0 {
		j := a.jobs[0]
		a.jobs = a.jobs[1:]
		j.run()
	}
}

// applyNow applies the editor's text at once (after any queued apply).
func (a *app) applyNow() {
	a.flushJobs()
	if text, ok := a.ed.text(); ok {
		a.applyText(text)
	}
}

// applyText applies text as the file manifest.yaml: on success the report
// goes under the editor and into the kubectl box; on failure each
// diagnostic is listed with line:column and its line marked, and the store
// is untouched.
func (a *app) applyText(text string) {
	a.rec.SetFile(manifestFile, text)
	rep, err := a.rec.Apply(manifestFile, text)
	if err != nil {
		if ds, ok := engine.ManifestDiagnostics(err); ok {
			a.ed.showDiagnostics(text, ds)
		} else {
			a.ed.showError(err.Error())
		}
		if rep != nil {
			// kubectl applies the documents it can: say which, above the
			// failed ones' problems; the console shows the whole transcript
			a.ed.showApplied(rep)
			a.kc.echoChunks("kubectl apply -f "+manifestFile, rep.Output)
		} else {
			a.kc.echo("kubectl apply -f "+manifestFile, "", err.Error())
		}
		a.view.render(false)
		return
	}
	a.ed.showReport(rep)
	a.kc.echoChunks("kubectl apply -f "+manifestFile, rep.Output)
	a.view.render(false)
}

// listen adds an event listener through dom/v2 with a recover around it.
func (a *app) listen(t dom.EventTarget, typ string, f func(dom.Event)) {
	name := typ + " handler"
	fn := t.AddEventListener(typ, false, func(ev dom.Event) {
		defer a.recoverAt(name)
		f(ev)
	})
	// RemoveEventListener releases fn too.
	a.removers = append(a.removers, func() { t.RemoveEventListener(typ, false, fn) })
}

// hook makes a JS function with a recover around it; the value it returns
// on a panic is undefined.
func (a *app) hook(name string, f func(args []js.Value) any) js.Func {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) (ret any) {
		defer a.recoverAt(name)
		return f(args)
	})
	a.funcs = append(a.funcs, fn)
	return fn
}

// recoverAt turns a panic in a JS callback into an error banner. The
// simulation object, the editor and the last drawn state stay; the clock
// pauses so a panic in the simulation does not repeat every frame.
func (a *app) recoverAt(where string) {
	r := recover()
	if r == nil {
		return
	}
	stack := string(debug.Stack())
	msg := fmt.Sprintf("Internal error in the %s: %v", where, r)
	global.Get("console").Call("error", msg+"\n"+stack)
	if a.playing {
		a.setPlaying(false)
		msg += "\nVirtual time is paused; the cluster keeps its last good state. Press Play to go on."
	}
	if msg != a.lastPanic {
		a.lastPanic = msg
		showFatal(msg, stack)
	}
}

// showFatal shows msg (and a collapsible stack) in the banner at the top.
func showFatal(msg, stack string) {
	b := byID("fatal")
	clear(b)
	b.Call("appendChild", document.Call("createTextNode", msg))
	if stack != "" {
		d := el("details", "")
		appendAll(d, textEl("summary", "", "Go stack"), textEl("pre", "", stack))
		b.Call("appendChild", d)
	}
	b.Set("hidden", false)
	byID("loading").Set("hidden", true)
}

// shutdown stops the animation loop, removes every listener and releases
// every js.Func (window.dsplay.shutdown, for tests and embedding pages).
func (a *app) shutdown() {
	a.stopped = true
	// The pending frame must not call the released callback.
	global.Call("cancelAnimationFrame", a.rafID)
	for _, r := range a.removers {
		r()
	}
	a.removers = nil
	// Releasing the running callback (dsplay.shutdown) is safe: syscall/js
	// looked it up before calling it.
	for _, f := range a.funcs {
		f.Release()
	}
	a.funcs = nil
	global.Set("dsplay", js.Undefined())
}

// urlParam reports whether the page's URL has the query parameter name
// (with any value, or none: "?paused", "?paused=1").
func urlParam(name string) bool {
	q := global.Get("URLSearchParams").New(global.Get("location").Get("search"))
	return q.Call("has", name).Bool()
}

// exposeHooks sets window.dsplay: a small API for tests and tutorials that
// drive virtual time explicitly (site/README.md describes it for users).
// Every call that reads or changes the cluster first runs an Apply still
// queued from the Apply button or Ctrl/⌘ + Enter.
//
//	dsplay.pause()                   stop virtual time (the Pause button)
//	dsplay.play()                    start it again at the chosen speed
//	dsplay.advance(seconds) -> seconds of virtual time since the start, after moving it by seconds (0 to 86400) and redrawing; or the error
//	dsplay.apply(yaml) -> string     put yaml in the editor and apply it; "" or the error text
//	dsplay.run(line) -> {stdout, stderr, exitCode}   one kubectl command, echoed in the kubectl box
//	dsplay.elapsed() -> seconds of virtual time since the start (of the step shown
//	                                 while the timeline shows the past, of the comparison while
//	                                 the compare view is open: what the clock shows)
//	dsplay.pods() -> [{name, node, phase, owner, terminating}]
//	                                 every pod: node "" when not bound, phase is
//	                                 status.phase ("Pending", "Running", ...), owner the
//	                                 controlling DaemonSet's name or ""
//	dsplay.stats() -> {frames, snapshots, advanceMs, snapshotMs, drawMs, maxFrameMs}
//	                                 counts since the start; the last Advance, snapshot and
//	                                 draw, and the longest frame, in ms of wall time
//	dsplay.memory() -> {goHeapBytes, goSysBytes, wasmBytes, inputs, steps, stepsThinned, checkpoints, events, decisions, domNodes, callbacks}
//	                                 after a garbage collection: the Go heap's live bytes and what the
//	                                 runtime holds from the system, the WebAssembly memory's size, and
//	                                 the counts of what a long session accumulates (soak tests)
//	dsplay.addNodes(prefix, n) -> "" or the error: add n worker nodes prefix-1 ... prefix-n (at most 5,000 nodes in all)
//	dsplay.failNode(name) -> "" or the error: stop the node's kubelet (the node panel's
//	                                 Fail node; Ready turns Unknown after the 50 s grace period)
//	dsplay.recoverNode(name) -> "" or the error: start a failed node's kubelet again
//	dsplay.setCondition(name, type, status) -> "" or the error: the node's kubelet reports
//	                                 condition type (MemoryPressure, DiskPressure, PIDPressure,
//	                                 Ready, NetworkUnavailable) as status ("True" or "False")
//	dsplay.steps() -> [{at, label, input, numDecisions, decisions}]
//	                                 the timeline's steps (timeline.go): virtual seconds, what
//	                                 happened, the input's index (-1 = time passing), the first
//	                                 decisions as "COMPONENT ACTION OBJECT: REASON"
//	dsplay.seekStep(i) -> "" or the error: show step i (the number of steps = live)
//	dsplay.watch() -> "" or why not: play the session again from an empty cluster (watch.go)
//	dsplay.watchState() -> {watching, at, live}: the playback's and the live cluster's virtual seconds
//	dsplay.live()                    show the live cluster again
//	dsplay.branch() -> "" or the error: continue from the step shown (the future is dropped)
//	dsplay.viewing() -> {past, step, at, live, checkpoints, checkpointErr}: what the page shows (seconds)
//	dsplay.compare(key) -> "" or the error: open the compare view on DaemonSet key
//	                                 ("namespace/name"; none = the first), with the form's defaults
//	dsplay.compareState() -> {elapsed, rollingUpdate, onDelete} or null: each side's
//	                                 {desired, updated, available, done} (engine.ProgressOf)
//	dsplay.compareExit()             close the compare view
//	dsplay.lagging() -> bool         whether the "slower than chosen speed" note shows
//	dsplay.slowFramesForTest(ms)     make every frame busy-wait ms of wall time (0: off; tests the note)
//	dsplay.panicForTest()            panic inside a callback (tests the recover)
//	dsplay.shutdown()                stop and release every Go callback; window.dsplay goes away
//	dsplay.shareLink() -> Promise of {url, fragmentBytes, scenarioBytes, tooLong} (share.go)
//	dsplay.exportScenario() -> the session as a txtar scenario (share.go)
//	dsplay.importText(name, text) -> "" or the error: import a file's text (importexport.go)
//	dsplay.reset() -> "" or the error: a new cluster, nothing applied (reset.go)
//	dsplay.lessons() -> [{id, title, kind, summary, done}]: the gallery in course order (lesson.go)
//	dsplay.openLesson(id) -> "" or the error: open a lesson on a new cluster (its setup played)
//	dsplay.lessonState() -> {id, step, steps, stepTitle, finished, busy, failures} or null
//	dsplay.nextStep() -> "" or why not: Next (plays after returning: poll lessonState().busy)
//	dsplay.prevStep() -> "" or why not: Back (the lesson replayed up to the step before)
//	dsplay.closeLesson()             close the lesson or exercise panel (the cluster stays)
//	dsplay.openExercise(id) -> "" or the error: open an exercise (exercise.go)
//	dsplay.exerciseState() -> {checks, violations, solved, hints, ...} or null
//	dsplay.checkExercise() -> exerciseState() after checking the goal now
//	dsplay.showHint() -> the next hint, or "" when none is left
//	dsplay.progress() -> {exercises: {ID: {solved, hints, solution}}, lessons: {ID: {done, step}}} (gallery.go)
//	dsplay.nextEvent() -> seconds moved: advance to the next moment something changes (stage.go)
//	dsplay.stage() -> {played, queued, jobs, holding, reduced, last: [{kind, pod, node, caption, component, func}]}
//	                                 the stage's transitions: how many played, how many wait
//	dsplay.pace(on) -> on: lesson steps and solutions in slow motion (the default) or at once
//	dsplay.stepYieldForTest(on, budgetMs) -> ms: lesson steps yield to the browser (true) or play in one call; the longest run without yielding since the last call
//
// URL parameters the page reads (in its query string):
//
//	?paused   start with virtual time paused (tests and tutorials; Play starts it)
//	?instant  lesson steps and exercise solutions play at once, not in slow motion
//	?compare  open the compare view (RollingUpdate | OnDelete) on the first DaemonSet
func (a *app) exposeHooks() {
	o := js.Global().Get("Object").New()
	o.Set("pause", a.hook("dsplay.pause", func([]js.Value) any { a.setPlaying(false); return nil }))
	o.Set("play", a.hook("dsplay.play", func([]js.Value) any { a.setPlaying(true); return nil }))
	o.Set("advance", a.hook("dsplay.advance", func(args []js.Value) any {
		if len(args) > 0 {
			s, err := numberArg(args, 0, "dsplay.advance(seconds)", 0, maxAdvanceSeconds)
			if err != nil {
				return err.Error()
			}
			a.advance(time.Duration(s * float64(time.Second)))
		}
		return a.clockElapsed().Seconds()
	}))
	o.Set("apply", a.hook("dsplay.apply", func(args []js.Value) any {
		a.tl.leavePast() // scripts act on the live cluster
		if len(args) > 0 {
			a.ed.setText(args[0].String())
		}
		a.applyNow()
		return a.ed.lastError
	}))
	o.Set("run", a.hook("dsplay.run", func(args []js.Value) any {
		a.tl.leavePast()
		line := ""
		if len(args) > 0 {
			line = args[0].String()
		}
		out := a.kc.run(line)
		return map[string]any{"stdout": out.Stdout, "stderr": out.Stderr, "exitCode": out.ExitCode}
	}))
	o.Set("slowFramesForTest", a.hook("dsplay.slowFramesForTest", func(args []js.Value) any {
		a.slowMs = 0
		if len(args) > 0 {
			a.slowMs = args[0].Float()
		}
		return nil
	}))
	o.Set("lagging", a.hook("dsplay.lagging", func([]js.Value) any { return a.lagging }))
	o.Set("elapsed", a.hook("dsplay.elapsed", func([]js.Value) any { return a.clockElapsed().Seconds() }))
	o.Set("pods", a.hook("dsplay.pods", func([]js.Value) any {
		a.flushJobs()
		var out []any
		for _, p := range a.shown().Summary().Pods {
			out = append(out, map[string]any{"name": p.Name, "node": p.Node, "phase": p.Phase, "owner": p.Owner, "terminating": p.Terminating})
		}
		return out
	}))
	o.Set("stats", a.hook("dsplay.stats", func([]js.Value) any {
		st := a.stats
		return map[string]any{"frames": st.Frames, "snapshots": st.Snapshots, "advanceMs": st.AdvanceMs,
			"snapshotMs": st.SnapshotMs, "drawMs": st.DrawMs, "maxFrameMs": st.MaxMs}
	}))
	o.Set("memory", a.hook("dsplay.memory", func([]js.Value) any { return a.memory() }))
	o.Set("addNodes", a.hook("dsplay.addNodes", func(args []js.Value) any {
		// dsplay.addNodes(prefix, n): n more worker nodes prefix-1 ... prefix-n
		// (for trying large clusters without a long manifest), then redraw.
		if len(args) < 2 {
			return "usage: dsplay.addNodes(prefix, n)"
		}
		// One recorded Apply of n Node manifests (they join as kubelets
		// registering), then one Settle: AddNode per node would settle the
		// cluster n times, and a write straight into the store would not
		// be on the timeline.
		a.flushJobs()
		a.tl.leavePast()
		room := session.MaxReplayNodes - a.rec.Live().NodeCount()
		n, err := intArg(args, 1, "dsplay.addNodes(prefix, n): n", 1, max(room, 1))
		if err != nil {
			return err.Error() + fmt.Sprintf(" (the playground runs at most %d nodes; the cluster has %d)", session.MaxReplayNodes, a.rec.Live().NodeCount())
		}
		prefix := args[0].String()
		if _, err := a.rec.Apply(prefix+"-nodes.yaml", addNodesYAML(prefix, n)); err != nil {
			return err.Error()
		}
		a.view.render(false)
		return ""
	}))
	// Node actions (nodeactions.go): recorded, echoed in the console.
	nodeHook := func(name string, want int, f func(args []string) string) {
		o.Set(name, a.hook("dsplay."+name, func(args []js.Value) any {
			if len(args) < want {
				return fmt.Sprintf("usage: dsplay.%s: %d arguments", name, want)
			}
			a.tl.leavePast()
			s := make([]string, want)
			for i := range s {
				s[i] = args[i].String()
			}
			return f(s)
		}))
	}
	nodeHook("failNode", 1, func(s []string) string { return a.failNode(s[0]) })
	nodeHook("recoverNode", 1, func(s []string) string { return a.recoverNode(s[0]) })
	nodeHook("setCondition", 3, func(s []string) string { return a.setNodeCondition(s[0], s[1], s[2]) })
	o.Set("panicForTest", a.hook("dsplay.panicForTest", func([]js.Value) any { panic("test panic from dsplay.panicForTest") }))
	o.Set("shutdown", a.hook("dsplay.shutdown", func([]js.Value) any { a.shutdown(); return nil }))
	a.tl.hooks(o)
	a.cmp.hooks(o)
	global.Set("dsplay", o)
}

// oneColumn is the media query of style.css's one-column layout.
const oneColumn = "(max-width: 900px)"

// keepPaneOrder keeps the DOM order of the panes the same as the order they
// are seen in, so keyboard focus moves down the page as it reads. On one
// column the panes show as Manifest, Cluster, kubectl, Decisions, so the
// Decisions pane moves after the kubectl pane; on two columns it goes back
// under the editor.
func (a *app) keepPaneOrder() {
	mq := global.Call("matchMedia", oneColumn)
	logPane := document.Call("querySelector", ".log-pane")
	left := document.Call("querySelector", ".col-left")
	right := document.Call("querySelector", ".col-right")
	if mq.IsUndefined() || logPane.IsNull() || left.IsNull() || right.IsNull() {
		return
	}
	place := func() {
		if mq.Get("matches").Bool() {
			right.Call("appendChild", logPane) // after the kubectl pane
		} else {
			left.Call("appendChild", logPane) // under the editor
		}
	}
	place()
	fn := a.hook("layout change", func([]js.Value) any { place(); return nil })
	mq.Call("addEventListener", "change", fn)
	a.removers = append(a.removers, func() { mq.Call("removeEventListener", "change", fn) })
}
