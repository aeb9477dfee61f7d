//go:build js && wasm

package main

import (
	"errors"

	"github.com/dsplayground/dsplay/engine"
)

// resetNote is the console's note after a reset: the log of the old
// cluster's commands is cleared (its entries named inputs of the old
// Recorder, which the timeline's marks would misread).
const resetNote = "The cluster was reset: a new cluster, virtual time back at 0.\n"

// resetHooks run at the end of every resetCluster (the lesson player and
// the exercises close or restart what they showed; lesson.go registers
// them). A hook must not call resetCluster.
var resetHooks []func(a *app)

// resetCluster starts the page over on a new cluster: a new Recorder with
// the page's settings (o, with StreamRolloutStatus forced on as start()
// sets it, and the timeline's checkpoint policy), every view redrawn from
// it, the timeline back at live with no step, the compare view closed, a
// running `kubectl get -w` or `rollout status` stopped, an open
// `kubectl edit` dropped unsaved, queued Applies dropped, the node panel
// closed and the console log cleared. No example is applied and the
// editor keeps its text (its marks and result line are cleared): the
// caller loads what it wants. The play state is kept.
//
// Used by the lesson player and exercises (lesson.go, exercise.go), and by
// the embed API's reset, share links and import (embed.go, C2).
// The error is non-nil only when the page has no cluster view to draw on.
func (a *app) resetCluster(o engine.Options) error {
	if a.view == nil || a.tl == nil || a.kc == nil || a.ed == nil {
		return errNoPage
	}
	o.StreamRolloutStatus = true
	a.resetTo(o)
	return nil
}

// resetTo is resetCluster with o as given (the lesson player makes its
// Recorder without StreamRolloutStatus: see lesson.go).
func (a *app) resetTo(o engine.Options) {
	rec := engine.NewRecorder(o)
	setCheckpoints(rec)
	a.installRecorder(rec)
	a.kc.note(resetNote)
	for _, h := range resetHooks {
		h(a)
	}
}

// installRecorder makes rec the page's cluster (a new one, or one put
// aside earlier: the lessons' "Restore my cluster"), as resetCluster
// describes: what belonged to the old cluster ends and every view
// redraws from rec. The console log is cleared.
func (a *app) installRecorder(rec *engine.Recorder) {
	// What belongs to the old cluster ends first: the compare view (its
	// Base is the old Recorder's inputs), a past step shown, the console's
	// watch and edit, Applies still queued.
	if a.cmp.active() {
		a.cmp.exit()
	}
	a.jobs = nil
	a.kc.stopWatch()
	a.kc.dropEdit()
	a.view.openPanel("")

	a.rec = rec

	// The timeline: no past shown, snapshotters of the new live cluster.
	t := a.tl
	wasPast := t.past
	t.past, t.sim, t.idx = false, nil, 0
	t.cursorFor, t.cursorSn = nil, nil
	live := rec.Live()
	t.liveFor, t.liveSn = live, live.NewSnapshotter()
	t.want = -1
	a.view.sn = t.liveSn
	if t.ok() {
		if wasPast {
			t.setPastUI(false)
			a.setPlaying(t.wasPlaying)
		}
		t.lastValue = -1
	}

	// The cluster view: the rollout blocks of the old DaemonSets go; the
	// rest redraws from scratch (cards and chips of the old cluster go at
	// once, no fade).
	if v := a.view; !v.rolloutBox.IsNull() {
		for id, b := range v.rollouts {
			remove(b.el)
			delete(v.rollouts, id)
		}
		v.clearRevisionKey()
		v.dsKey = ""
	}
	if t.ok() {
		t.redrawView()
		t.draw(true)
	} else {
		a.view.lastRV, a.view.lastClock, a.view.lastDecision = -1, "", 0
		clear(a.view.log)
		a.view.logEntries = 0
		a.view.render(true)
	}

	// The console: the old cluster's log goes, the history stays.
	a.kc.clearScreen()

	// The editor keeps its text; the old Apply's result and marks go.
	a.ed.mark(nil)
	a.ed.setResult("", "")
	a.ed.lastError = ""

	a.maxStep = maxStep
	a.lag.Reset()
	a.showLag(false)
	a.lastTS = -1
}

// errNoPage is resetCluster's error on a page without the views it draws.
var errNoPage = errors.New("the page has no cluster view")
