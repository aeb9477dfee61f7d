//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
)

// "Watch from the start" (the timeline's ▶ button, a share link's console
// note, a link made with "play it from the start"): the recorded session
// plays again from an empty cluster on the stage, at the page's speed, so
// whoever opens a link sees the pods placed, the taints land and the
// rollout go instead of only its end. engine.Playback replays the log an
// input at a time and an Advance in one-second pieces on a Simulation of
// its own, which the page shows as a past view (the controls that change
// the cluster are disabled meanwhile); the stage's pacer gives each piece
// its wall time and waits for its transitions. "Skip to the end" (the past
// bar's button), the slider or Live end it at the live cluster, which is
// the state the playback reaches.

// watchRun is a playback being watched.
type watchRun struct {
	pb *engine.Playback
}

// startWatch plays the session from the start; "" or why it cannot.
func (t *timeline) startWatch() string {
	a := t.a
	if !t.ok() {
		return "the page has no timeline"
	}
	a.flushJobs()
	if a.cmp.active() {
		return "close the compare view first"
	}
	if len(a.rec.Inputs()) == 0 {
		return "nothing recorded yet: there is nothing to watch"
	}
	if t.watching != nil {
		return ""
	}
	if t.past {
		t.toLive()
	}
	a.kc.stopWatch()
	t.wasPlaying = a.playing
	a.setPlaying(false)
	if a.view.sn != t.cursorSn {
		t.liveSn = a.view.sn
	}
	w := &watchRun{pb: a.rec.Playback()}
	t.watching = w
	sim := w.pb.Sim()
	t.past, t.idx, t.sim = true, 0, sim
	t.cursorFor, t.cursorSn = sim, sim.NewSnapshotter()
	a.view.sn = t.cursorSn
	a.view.stage.reset()
	t.redrawView()
	t.setPastUI(true)
	t.draw(true)
	go func() {
		defer a.recoverAt("watch from the start")
		alive := func() bool { return t.watching == w }
		pace := a.view.stage.newPacer()
		yieldFrame()
		for alive() && !w.pb.Done() {
			w.pb.Step(time.Second, func() { pace.step(sim.Elapsed(), alive) })
			if !alive() {
				return
			}
			t.idx = max(a.rec.StepAt(sim.Elapsed()), 0)
			pace.step(sim.Elapsed(), alive)
		}
		if alive() {
			t.toLive() // the playback reached the live state
		}
	}()
	return ""
}

// stopWatch ends a playback (the view is left to the caller).
func (t *timeline) stopWatch() {
	if t.watching == nil {
		return
	}
	t.watching = nil
	t.a.view.stage.reset()
}

// watchText is the past bar's text while a playback plays.
func (t *timeline) watchText() string {
	return fmt.Sprintf("Watching from the start: t = %s of %s. Nothing can change the cluster until it ends.", formatElapsed(t.sim.Elapsed()), formatElapsed(t.a.rec.Live().Elapsed()))
}

// initWatch wires the timeline's ▶ button.
func (t *timeline) initWatch() {
	t.watchBtn = byID("tl-watch")
	if !t.watchBtn.Truthy() {
		return
	}
	t.a.listen(dom.WrapElement(t.watchBtn), "click", func(dom.Event) {
		if msg := t.startWatch(); msg != "" {
			t.label.Set("textContent", msg)
		}
	})
}

// watchButton is a "▶ Watch it happen" button that starts a playback (a
// share link's console note).
func (a *app) watchButton() js.Value {
	b := textEl("button", "ctl watch-it", "▶ Watch it happen")
	b.Set("type", "button")
	b.Set("title", "Play the session again from an empty cluster, at the chosen speed")
	a.listen(dom.WrapElement(b), "click", func(dom.Event) {
		if msg := a.tl.startWatch(); msg != "" {
			a.kc.note(msg + "\n")
		}
	})
	return b
}
