//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// Export and import (the share panel's Files section, and files dropped on
// the editor).
//
//   - Export scenario (.txtar): exportScenario, the whole session; opening
//     it with Import (or `dsplay run`) gives it back.
//   - Export objects (.yaml): the cluster's objects as they are now, ready
//     for `kubectl apply -f` on a fresh playground or a real cluster
//     (session.ObjectsYAML: what the API server sets is left out, and the
//     pods a DaemonSet owns, which its controller makes again).
//   - Import: a .txtar is replayed on a new cluster (the old one stays if
//     the replay fails: it is tried on a scratch cluster first); any other
//     file is YAML, put in the editor and applied once it is known to apply
//     (Simulation.TryApply). A failed import changes nothing, neither the
//     cluster nor the editor's text: its note names the file and line
//     and offers to open a YAML file in the editor (the text it replaces
//     is offered back, as an example's is). A successful one can be undone
//     (undoImport: the Undo button in its note).

// exportFileName is a download's name: dsplay-<what>-t<seconds>s.<ext>.
func exportFileName(a *app, what, ext string) string {
	return fmt.Sprintf("dsplay-%s-t%.0fs.%s", what, a.rec.Live().Elapsed().Seconds(), ext)
}

// download offers text as a file (a Blob URL on a temporary link).
func download(name, mime, text string) {
	blob := global.Get("Blob").New([]any{text}, map[string]any{"type": mime})
	url := global.Get("URL").Call("createObjectURL", blob)
	link := el("a", "")
	link.Set("href", url)
	link.Set("download", name)
	link.Set("hidden", true)
	document.Get("body").Call("appendChild", link)
	link.Call("click")
	remove(link)
	// The download has started from the URL; it may go once this task ends.
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		global.Get("URL").Call("revokeObjectURL", url)
		f.Release()
		return nil
	})
	global.Call("setTimeout", f, 1000)
}

// exportTxtar downloads the session as a scenario.
func (a *app) exportTxtar() {
	a.flushJobs()
	download(exportFileName(a, "scenario", "txtar"), "text/plain", string(exportScenario(a.rec, "", true)))
}

// exportYAML downloads the cluster's objects (see the comment at the top).
func (a *app) exportYAML() {
	a.flushJobs()
	download(exportFileName(a, "objects", "yaml"), "application/yaml", session.ObjectsYAML(a.rec.Live()))
}

// maxImportBytes caps an imported file (the editor's cap).
const maxImportBytes = maxEditorBytes

// importFile reads a File (from the picker or a drop) and imports it.
func (a *app) importFile(file js.Value) {
	name := file.Get("name").String()
	if size := file.Get("size").Int(); size > maxImportBytes {
		a.importFailed(name, fmt.Errorf("the file is %.1f MiB; the playground takes at most 1 MiB", float64(size)/(1<<20)))
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		defer a.recoverAt("import")
		a.importText(name, args[0].String())
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		a.importFailed(name, fmt.Errorf("%s", args[0].Call("toString").String()))
		return nil
	})
	file.Call("text").Call("then", ok, fail)
}

// importText imports a file's text: a scenario (.txtar, or text with a
// `-- name --` file marker) is replayed on a new cluster (the learner's is
// set aside, see adopt); anything else is YAML, applied from the editor
// (refused when it would take the cluster over session.MaxReplayNodes
// nodes, session.CheckApply). It
// returns "" or the error shown.
func (a *app) importText(name, text string) string {
	if session.IsScenario(name, text) {
		if err := a.loadScenario(name, []byte(text)); err != nil {
			a.importFailed(name, err)
			return err.Error()
		}
		return ""
	}
	// Count the Node documents before applying: thousands of nodes take
	// the page's thread for seconds (9,000 flow-style nodes: 13 s).
	if err := session.CheckApply(a.rec.Live(), text); err != nil {
		a.importFailed(name, err)
		return err.Error()
	}
	a.flushJobs()
	if err := a.rec.Live().TryApply(name, text); err != nil {
		a.importFailedYAML(name, text, err)
		return err.Error()
	}
	a.tl.leavePast()
	if a.kc.editing() {
		a.kc.finishEdit(true)
	}
	u := &importUndo{name: name, rec: a.rec, after: a.rec, n: len(a.rec.Inputs()), text: a.ed.ta.Get("value").String()}
	a.ed.setText(text)
	a.applyNow()
	if a.ed.lastError != "" {
		return a.ed.lastError
	}
	b := a.undoButton(u)
	appendAll(a.ed.result, textEl("span", "import-note", "Imported "+name+". "), b)
	n := textEl("div", "note import-note", "Imported "+name+" into the editor and applied it. ")
	n.Call("appendChild", a.undoButton(u))
	a.kc.push(n)
	return ""
}

// importUndo is what an import's Undo brings back: the cluster and the
// editor's text from before it.
type importUndo struct {
	gen  int
	name string
	// rec is the cluster before the import; after the one it left (a
	// YAML file: rec itself, whose inputs from the n-th on are the
	// import's; a scenario: the replayed Recorder that replaced rec).
	rec, after *engine.Recorder
	n          int
	text       string // the editor's text before the import
}

// undoButton makes u the import Undo undoes (an older import's button then
// says it no longer applies) and returns a new Undo button for it.
func (a *app) undoButton(u *importUndo) js.Value {
	if a.undo != u {
		a.undoGen++
		u.gen = a.undoGen
		a.undo = u
	}
	b := textEl("button", "ctl undo-import", "Undo")
	b.Set("type", "button")
	b.Set("title", "Go back to the cluster and the editor's text from before "+u.name+" was imported")
	gen := u.gen
	a.listen(dom.WrapElement(b), "click", func(dom.Event) { a.undoImport(gen) })
	return b
}

// undoImport undoes the import numbered gen, while its cluster is still the
// page's: a YAML file's inputs are dropped from the timeline (Truncate), a
// scenario's cluster gives way to the one it replaced (which comes out of
// the set-aside when the import had put it there); the editor gets its text
// back. It returns "" or why not (also said in the console).
func (a *app) undoImport(gen int) string {
	u := a.undo
	why := ""
	switch {
	case u == nil || u.gen != gen:
		why = "That import can no longer be undone: another import or its Undo came since."
	case a.rec != u.after:
		why = "That import can no longer be undone: the cluster was replaced since (a reset, a lesson, a link or another import)."
	case u.rec == u.after && len(a.rec.Inputs()) < u.n:
		why = "That import can no longer be undone: the timeline was rewound past it."
	case a.kc.waiting:
		why = "That import cannot be undone while a kubectl command still runs."
	case lessons != nil && lessons.busy:
		why = "That import cannot be undone while a lesson step plays."
	}
	if why != "" {
		a.kc.note(why + "\n")
		return why
	}
	a.undo = nil
	a.flushJobs()
	a.tl.leavePast()
	if u.rec == u.after {
		if a.cmp.active() {
			a.cmp.exit()
		}
		a.kc.stopWatch()
		a.kc.dropEdit()
		if err := a.rec.Truncate(u.n); err != nil {
			a.kc.note("Could not undo the import: " + err.Error() + "\n")
			return err.Error()
		}
		a.kc.markTimeline(-1)
		a.kc.dropAfterNote(u.n, undoneNote)
		t := a.tl
		live := a.rec.Live()
		t.liveFor, t.liveSn = live, live.NewSnapshotter()
		t.cursorFor, t.cursorSn = nil, nil
		a.view.sn = t.liveSn
		if t.ok() {
			t.redrawView()
			t.draw(true)
		} else {
			a.view.render(true)
		}
	} else if l := lessons; l != nil && l.aside.Held() == u.rec {
		l.restoreStash()
	} else {
		a.installRecorder(u.rec)
	}
	a.ed.setText(u.text)
	msg := "Undid the import of " + u.name + ": the cluster and the editor are as they were before it."
	a.ed.setResult("", msg)
	a.kc.note(msg + "\n")
	return ""
}

// undoneNote marks the console entries of an undone import.
const undoneNote = "undone: the import was undone"

// importFailedYAML shows why a YAML file does not apply (importFailed), the
// editor and the cluster unchanged, and offers to open the file in the
// editor to fix it (the text it replaces is offered back).
func (a *app) importFailedYAML(name, text string, err error) {
	a.importFailed(name, err)
	b := textEl("button", "ctl import-open", "Open "+name+" in the editor")
	b.Set("type", "button")
	b.Set("title", "Put the file in the editor (your text is offered back) and show where it fails")
	appendAll(a.ed.result, document.Call("createTextNode", " "), b)
	a.listen(dom.WrapElement(b), "click", func(dom.Event) {
		if a.kc.editing() {
			a.kc.finishEdit(true)
		}
		a.ed.openText(text, err)
	})
}

// loadScenario replays a scenario on a new cluster: on a scratch Recorder
// first, within replayScenario's limits (wall-clock budget, node cap).
// When that fails the page keeps its cluster and the error (file:line,
// the input, or the limit and where it stopped) is returned; when it
// works the scratch Recorder becomes the page's cluster (adopt), replayed
// once.
func (a *app) loadScenario(name string, data []byte) error {
	o := session.ScenarioOptions(name, data)
	o.StreamRolloutStatus = true // as resetCluster makes the page's
	scratch := engine.NewRecorder(o)
	setCheckpoints(scratch)
	start := time.Now()
	if err := replayScenario(scratch, name, data); err != nil {
		return err
	}
	u := &importUndo{name: name, rec: a.rec, after: scratch, text: a.ed.ta.Get("value").String()}
	a.tl.leavePast()
	if err := a.adopt(scratch, name); err != nil {
		return err
	}
	a.showReplayed(name, a.undoButton(u))
	a.madeByNote(data)
	global.Get("console").Call("info", fmt.Sprintf("DaemonSet Playground: replayed %s in %v", name, time.Since(start).Round(time.Millisecond)))
	return nil
}

// errImportCancelled: the learner declined to replace their cluster.
var errImportCancelled = errors.New("cancelled: your cluster was kept")

// adopt makes rec (a replayed scratch Recorder) the page's cluster, as
// resetCluster would a new one (installRecorder, then resetHooks: a lesson
// or exercise shown ends). The learner's own cluster is not lost: it is
// set aside as opening a lesson sets it aside (lessonsUI.setAside; a
// cluster opened over one already set aside is not kept in its place),
// and the console offers "Restore my cluster" (lessonsUI.restoreStash; the
// lessons gallery and panel offer it too). A page without the lessons UI
// asks first (window.confirm) instead.
func (a *app) adopt(rec *engine.Recorder, name string) error {
	if a.view == nil || a.tl == nil || a.kc == nil || a.ed == nil {
		return errNoPage
	}
	var stashed *engine.Recorder
	fresh := false
	if u := lessons; u != nil {
		fresh = u.setAside()
		stashed = u.aside.Held()
	} else if (*lessonsUI)(nil).hasWork(a.rec) && !global.Call("confirm", fmt.Sprintf("Open %s? It replaces your cluster (t = %s).", name, formatElapsed(a.rec.Live().Elapsed()))).Bool() {
		return errImportCancelled
	}
	a.installRecorder(rec)
	for _, h := range resetHooks {
		h(a)
	}
	if stashed != nil {
		a.offerRestore(stashed, name, fresh)
	}
	return nil
}

// offerRestore says in the console that the learner's cluster is set
// aside (fresh: now, to open name), with a "Restore my cluster" button.
func (a *app) offerRestore(stashed *engine.Recorder, name string, fresh bool) {
	msg := fmt.Sprintf("Your own cluster (t = %s) was set aside to open %s. ", formatElapsed(stashed.Live().Elapsed()), name)
	if !fresh {
		msg = fmt.Sprintf("Your own cluster (t = %s) is still set aside: %s replaced the cluster opened over it. ", formatElapsed(stashed.Live().Elapsed()), name)
	}
	a.restoreNote(stashed, msg)
}

// restoreNote says msg in the console with a "Restore my cluster" button
// that brings back stashed while it is the one set aside.
func (a *app) restoreNote(stashed *engine.Recorder, msg string) {
	n := el("div", "note restore-note")
	n.Call("appendChild", document.Call("createTextNode", msg))
	b := textEl("button", "ctl restore-own", "Restore my cluster")
	b.Set("type", "button")
	b.Set("id", "import-restore")
	n.Call("appendChild", b)
	a.kc.push(n)
	a.listen(dom.WrapElement(b), "click", func(dom.Event) {
		b.Set("disabled", true)
		if lessons == nil || lessons.aside.Held() != stashed {
			a.kc.note("That cluster is no longer set aside (it was restored, or another cluster was set aside since).\n")
			return
		}
		lessons.restoreStash()
	})
}

// showReplayed shows what a replay left on the page: the views redrawn,
// the editor with the file manifest.yaml's last text (the editor's text
// when the session was exported), a console note (with the buttons given:
// an import's Undo).
func (a *app) showReplayed(name string, buttons ...js.Value) {
	a.showReplayedSaying(fmt.Sprintf("Replayed %s: %s, now at t=%s.", name, plural(len(a.rec.Inputs()), "action"), formatElapsed(a.rec.Live().Elapsed())), buttons...)
}

// showReplayedSaying is showReplayed with the console's note msg.
func (a *app) showReplayedSaying(msg string, buttons ...js.Value) {
	if text, ok := a.rec.Live().Files[manifestFile]; ok {
		a.ed.setText(text)
	}
	watch := a.tl.ok() && len(a.rec.Inputs()) > 0
	if watch || len(buttons) > 0 {
		n := textEl("div", "note watch-note", msg+" ")
		if watch {
			n.Call("appendChild", a.watchButton())
		}
		for _, b := range buttons {
			appendAll(n, document.Call("createTextNode", " "), b)
		}
		a.kc.push(n)
	} else {
		a.kc.note(msg + "\n")
	}
	a.tl.redrawView()
	a.tl.draw(true)
	a.view.render(true)
}

// replayInto replays a scenario on the page's (new) cluster, within
// replayScenario's limits, and shows what it left (showReplayed): a share
// link in the URL at load, and Reset after it.
func (a *app) replayInto(name string, data []byte) error {
	if err := replayScenario(a.rec, name, data); err != nil {
		return err
	}
	a.showReplayed(name)
	a.madeByNote(data)
	return nil
}

// madeByNote says in the console when a replayed scenario was written by
// another build or release of the playground (session.MadeByNote).
func (a *app) madeByNote(data []byte) {
	if msg := session.MadeByNote(data, session.Build()); msg != "" {
		a.kc.note(msg + "\n")
	}
}

// importFailed shows an import's error under the editor and in the
// console: a replay stopped by a limit "could not be replayed", other
// errors "could not import".
func (a *app) importFailed(name string, err error) {
	msg := fmt.Sprintf("Could not import %s: %v. The cluster and the editor are unchanged.", name, err)
	var stop *session.StopError
	if errors.As(err, &stop) {
		what := "The file " + name
		if strings.HasPrefix(name, "the ") {
			what = "T" + name[1:]
		}
		msg = fmt.Sprintf("%s could not be replayed: %v. Your cluster is unchanged.", what, err)
	}
	if errors.Is(err, errImportCancelled) {
		msg = fmt.Sprintf("Did not open %s: your cluster was kept.", name)
	}
	a.ed.showError(msg)
	a.kc.note(msg + "\n")
}

// initImportExport wires the share panel's Files section and dropping a
// file on the editor (not in read-only mode).
func (a *app) initImportExport() {
	if b := byID("export-yaml"); !b.IsNull() {
		a.listen(dom.WrapElement(b), "click", func(dom.Event) { a.exportYAML() })
	}
	if in := byID("import-file"); !in.IsNull() {
		a.listen(dom.WrapElement(in), "change", func(dom.Event) {
			files := in.Get("files")
			if files.Truthy() && files.Get("length").Int() > 0 {
				a.importFile(files.Index(0))
			}
			in.Set("value", "")
		})
	}
	ed := byID("editor")
	if ed.IsNull() || embedReadonly() {
		return
	}
	hasFiles := func(ev dom.Event) bool {
		dt := ev.Underlying().Get("dataTransfer")
		if !dt.Truthy() {
			return false
		}
		types := dt.Get("types")
		for i, n := 0, types.Get("length").Int(); i < n; i++ {
			if types.Index(i).String() == "Files" {
				return true
			}
		}
		return false
	}
	w := dom.WrapElement(ed)
	a.listen(w, "dragover", func(ev dom.Event) {
		if hasFiles(ev) {
			ev.PreventDefault()
			ed.Get("classList").Call("add", "drop-target")
		}
	})
	a.listen(w, "dragleave", func(dom.Event) { ed.Get("classList").Call("remove", "drop-target") })
	a.listen(w, "drop", func(ev dom.Event) {
		ed.Get("classList").Call("remove", "drop-target")
		files := ev.Underlying().Get("dataTransfer").Get("files")
		if !files.Truthy() || files.Get("length").Int() == 0 {
			return // dropped text: the textarea takes it
		}
		ev.PreventDefault()
		a.importFile(files.Index(0))
	})
	// A new share link pasted into this tab's address bar changes only the
	// fragment: load it.
	a.listen(dom.GetWindow(), "hashchange", func(dom.Event) {
		hash := global.Get("location").Get("hash").String()
		if !hasFragment(hash) {
			return
		}
		frag, _ := session.FragmentParam(hash, "s")
		data, err := session.DecodeFragment(frag)
		if err == nil {
			err = a.loadScenario("share link", data)
		}
		if err != nil {
			a.importFailed("the share link", err)
		}
	})
}
