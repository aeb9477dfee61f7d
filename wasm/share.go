//go:build js && wasm

package main

import (
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// Share links and scenario files: the formats, the replay and its limits
// are engine/session's (Export, Replay, DecodeFragment); this file holds
// what needs the browser: the Share panel, the share link's compression
// (CompressionStream("deflate-raw"), which keeps flate's compressor, 77 KB
// of wasm, out of the download) and the window.dsplay hooks.

// shareContextFor returns what the page has open for rec (nil: nothing
// recorded, as in the unit tests); afterReplay is called after a replay
// of a scenario with a context succeeded, with the Recorder replayed on.
// Both are set by shareHooks.
var (
	shareContextFor func(rec *engine.Recorder) *session.Context
	afterReplay     func(rec *engine.Recorder, c session.Context)
)

// exportScenario writes rec's inputs as a txtar scenario (session.Export,
// titled title; with markFailures the commands that failed are marked),
// with the page's context (shareContextFor).
func exportScenario(rec *engine.Recorder, title string, markFailures bool) []byte {
	var ctx *session.Context
	if shareContextFor != nil {
		ctx = shareContextFor(rec)
	}
	return session.Export(rec, session.ExportOptions{Title: title, MarkFailures: markFailures, Context: ctx})
}

// replayScenario replays a scenario on rec (a Recorder made with
// session.ScenarioOptions) within the page's limits (session.Replay) and,
// when it worked and the scenario records a context, hands the context
// to afterReplay.
func replayScenario(rec *engine.Recorder, name string, data []byte) error {
	return replayScenarioWithin(rec, name, data, session.ReplayWallBudget)
}

// replayScenarioWithin is replayScenario with a wall-time budget of its
// own (a saved session's restore: restoreBudget).
func replayScenarioWithin(rec *engine.Recorder, name string, data []byte, budget time.Duration) error {
	c, err := session.ReplayUntil(rec, name, data, time.Now().Add(budget))
	if err == nil && c != nil && afterReplay != nil {
		afterReplay(rec, *c)
	}
	return err
}

// compressRaw compresses data with the browser's
// CompressionStream("deflate-raw") (RFC 1951) and calls done with the
// result, or an error, once the stream has ended. The decoder is
// session.DecodeFragment's compress/flate (synchronous, so a link opens
// without waiting); compressing through the browser keeps flate's
// compressor (77 KB of wasm) out of the download.
func compressRaw(data []byte, done func([]byte, error)) {
	cs := global.Get("CompressionStream")
	if !cs.Truthy() {
		done(nil, errors.New("this browser cannot compress (no CompressionStream): download the scenario instead"))
		return
	}
	u8 := global.Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	stream := global.Get("Blob").New([]any{u8}).Call("stream").Call("pipeThrough", cs.New("deflate-raw"))
	promise := global.Get("Response").New(stream).Call("arrayBuffer")
	await(promise, func(buf js.Value) {
		out := global.Get("Uint8Array").New(buf)
		b := make([]byte, out.Get("length").Int())
		js.CopyBytesToGo(b, out)
		done(b, nil)
	}, func(err error) { done(nil, err) })
}

// await calls ok with a promise's value or fail with its rejection, in a
// later task; the two callbacks are released after the first call.
func await(promise js.Value, ok func(js.Value), fail func(error)) {
	var onOK, onFail js.Func
	release := func() { onOK.Release(); onFail.Release() }
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ok(v)
		return nil
	})
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		msg := "rejected"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		fail(errors.New(msg))
		return nil
	})
	promise.Call("then", onOK, onFail)
}

// encodeFragment calls done with the share fragment of a scenario
// (without "#s="): base64url without padding of its raw DEFLATE
// compression (session.DecodeFragment undoes it).
func encodeFragment(data []byte, done func(string, error)) {
	compressRaw(data, func(b []byte, err error) {
		if err != nil {
			done("", err)
			return
		}
		done(base64.RawURLEncoding.EncodeToString(b), nil)
	})
}

// The Share button and its panel (index.html's share region): the link,
// copied to the clipboard and shown in a text field (the fallback when the
// browser refuses the clipboard); over session.MaxShareFragment the link is not
// offered and "Download scenario (.txtar)" is.
type sharePanel struct {
	a                                 *app
	panel, msg, url, copyBtn, openBtn js.Value
	link                              string
}

// initShare wires the Share button (not in embed mode).
func (a *app) initShare() {
	s := &sharePanel{a: a, panel: byID("share-panel"), msg: byID("share-msg"), url: byID("share-url"), copyBtn: byID("share-copy"), openBtn: byID("share")}
	if s.panel.IsNull() || s.openBtn.IsNull() {
		return // an index.html without the share region
	}
	a.listen(dom.WrapElement(s.openBtn), "click", func(dom.Event) {
		if !s.panel.Get("hidden").Bool() {
			s.close()
			return
		}
		s.open()
	})
	if b := byID("share-close"); !b.IsNull() {
		a.listen(dom.WrapElement(b), "click", func(dom.Event) { s.close() })
	}
	a.listen(dom.WrapElement(s.copyBtn), "click", func(dom.Event) { s.copy() })
	if b := byID("share-watch"); !b.IsNull() {
		a.listen(dom.WrapElement(b), "change", func(dom.Event) { s.open() })
	}
	if b := byID("share-download"); !b.IsNull() {
		a.listen(dom.WrapElement(b), "click", func(dom.Event) { a.exportTxtar() })
	}
	a.listen(dom.WrapElement(s.panel), "keydown", func(ev dom.Event) {
		if ev.Underlying().Get("key").String() == "Escape" {
			s.close()
			s.openBtn.Call("focus")
		}
	})
}

// shareHooks adds window.dsplay.shareLink, exportScenario and importText
// (in every mode).
func (a *app) shareHooks() {
	shareContextFor = func(rec *engine.Recorder) *session.Context {
		if rec != a.rec || a.ed == nil {
			return nil
		}
		return a.currentShareContext()
	}
	afterReplay = func(rec *engine.Recorder, c session.Context) {
		// later: the replayed Recorder becomes the page's cluster (and its
		// reset hooks close any panel, showReplayed sets the editor) after
		// the replay returns. A microtask runs once the Go code running now
		// returns to the browser, before any other task (a test's or the
		// learner's) sees the page.
		var f js.Func
		f = js.FuncOf(func(js.Value, []js.Value) any {
			f.Release()
			defer a.recoverAt("share link context")
			if a.rec == rec {
				a.applyShareContext(c)
			}
			return nil
		})
		if global.Get("queueMicrotask").Truthy() {
			global.Call("queueMicrotask", f)
		} else {
			global.Call("setTimeout", f, 0)
		}
	}
	o := global.Get("dsplay")
	if o.Truthy() {
		// dsplay.shareLink() -> Promise of {url, fragmentBytes, scenarioBytes, tooLong}
		o.Set("shareLink", a.hook("dsplay.shareLink", func([]js.Value) any {
			var resolve, reject js.Value
			var exec js.Func
			exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
				resolve, reject = args[0], args[1]
				return nil
			})
			p := global.Get("Promise").New(exec)
			exec.Release()
			a.shareLink(func(link string, frag, n int, err error) {
				if err != nil {
					reject.Invoke(err.Error())
					return
				}
				resolve.Invoke(map[string]any{"url": link, "fragmentBytes": frag, "scenarioBytes": n, "tooLong": frag > session.MaxShareFragment})
			})
			return p
		}))
		// dsplay.exportScenario() -> the session as a txtar scenario
		o.Set("exportScenario", a.hook("dsplay.exportScenario", func([]js.Value) any {
			a.flushJobs()
			return string(exportScenario(a.rec, "", true))
		}))
		// dsplay.importText(name, text) -> "" or the error (as a file dropped on the editor)
		o.Set("importText", a.hook("dsplay.importText", func(args []js.Value) any {
			if len(args) < 2 {
				return "usage: dsplay.importText(name, text)"
			}
			return a.importText(args[0].String(), args[1].String())
		}))
	}
}

// currentShareContext is what the page has open: the exercise or lesson
// shown on its cluster (a lesson with the step shown) and the editor's text.
func (a *app) currentShareContext() *session.Context {
	c := &session.Context{EditorText: a.ed.ta.Get("value").String()}
	if u := lessons; u != nil && u.cur != nil && u.rec == a.rec {
		switch {
		case u.ex != nil:
			c.Exercise = u.ex.Item.ID
		case u.lesson != nil:
			c.Lesson, c.Step = u.lesson.Item.ID, u.lesson.Shown
		}
	}
	return c
}

// applyShareContext opens what a share link's context names on the
// replayed cluster (attachExercise, attachLesson) and gives the editor its
// text back; what cannot be opened is said in the console.
func (a *app) applyShareContext(c session.Context) {
	var err error
	switch {
	case c.Exercise != "":
		err = a.attachExercise(c.Exercise)
	case c.Lesson != "":
		err = a.attachLesson(c.Lesson, c.Step)
	}
	if err != nil {
		a.kc.note(fmt.Sprintf("The link was made with %s open, which this page cannot open: %v.\n", cmp.Or(c.Exercise, c.Lesson), err))
	}
	if c.Editor != "" {
		a.ed.setText(c.EditorText)
	}
}

// shareLink builds the page's share link and calls done with the URL,
// the fragment's length (after "#s=") and the scenario's length, in bytes.
func (a *app) shareLink(done func(link string, fragBytes, scenarioBytes int, err error)) {
	a.flushJobs()
	a.linkOf(exportScenario(a.rec, "", false), done)
}

// linkOf is shareLink for the scenario sc (Applies still queued are not
// run first: the live address, autosave.go, follows what is done).
func (a *app) linkOf(sc []byte, done func(link string, fragBytes, scenarioBytes int, err error)) {
	loc := global.Get("location")
	base := loc.Get("origin").String() + loc.Get("pathname").String()
	if base == "null" || strings.HasPrefix(loc.Get("protocol").String(), "file") {
		base = strings.SplitN(loc.Get("href").String(), "#", 2)[0]
	}
	watch := ""
	if b := byID("share-watch"); b.Truthy() && b.Get("checked").Bool() {
		watch = "&watch=1" // whoever opens it watches it play (watch.go)
	}
	encodeFragment(sc, func(frag string, err error) {
		done(base+"#s="+frag+watch, len(frag), len(sc), err)
	})
}

// open builds the link and shows the panel; a link that fits is copied.
func (s *sharePanel) open() {
	s.panel.Set("hidden", false)
	s.openBtn.Call("setAttribute", "aria-expanded", "true")
	s.msg.Set("className", "share-msg")
	s.msg.Set("textContent", "Making the link…")
	s.a.shareLink(func(link string, frag, _ int, err error) {
		defer s.a.recoverAt("share link")
		switch {
		case err != nil:
			s.tooLong(err.Error() + ".")
		case frag > session.MaxShareFragment:
			s.tooLong(fmt.Sprintf("This cluster's history is too long for a link (%.1f KB; links stay under %d KB so chat and mail keep them whole). Download the scenario and share the file: Import opens it.", float64(frag)/1000, session.MaxShareFragment/1000))
		default:
			s.link = link
			s.url.Set("hidden", false)
			s.copyBtn.Set("hidden", false)
			s.url.Set("value", link)
			s.msg.Set("textContent", "")
			s.copy()
		}
	})
}

// tooLong shows msg instead of a link, and puts the focus on the download.
func (s *sharePanel) tooLong(msg string) {
	s.link = ""
	s.url.Set("value", "")
	s.url.Set("hidden", true)
	s.copyBtn.Set("hidden", true)
	s.msg.Set("className", "share-msg warn")
	s.msg.Set("textContent", msg)
	byID("share-download").Call("focus")
}

// close hides the panel.
func (s *sharePanel) close() {
	s.panel.Set("hidden", true)
	s.openBtn.Call("setAttribute", "aria-expanded", "false")
}

// copy copies the link: the text field's selection through execCommand,
// else the asynchronous clipboard API; the field stays selected either way,
// so Ctrl/⌘ + C works where both are refused.
func (s *sharePanel) copy() {
	if s.link == "" {
		return
	}
	s.url.Call("focus")
	s.url.Call("select")
	if document.Call("execCommand", "copy").Truthy() {
		s.copied(true)
		return
	}
	cb := global.Get("navigator").Get("clipboard")
	if !cb.Truthy() {
		s.copied(false)
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(js.Value, []js.Value) any { defer release(); s.copied(true); return nil })
	fail = js.FuncOf(func(js.Value, []js.Value) any { defer release(); s.copied(false); return nil })
	cb.Call("writeText", s.link).Call("then", ok, fail)
}

// copied says whether the link is on the clipboard.
func (s *sharePanel) copied(ok bool) {
	msg := "Link copied. Whoever opens it sees this cluster: same pods, clock and timeline."
	if !ok {
		msg = "The browser did not let the page copy: the link is selected below, press Ctrl/⌘ + C."
	}
	if strings.HasPrefix(global.Get("location").Get("protocol").String(), "file") {
		// the one-file bundle: the link names this file on this computer
		msg += " This page is a file on this computer, so the link opens only here (this file, this browser): to hand your work to someone else, Download scenario below and send the file (Import opens it)."
		s.msg.Set("className", "share-msg warn")
	}
	s.msg.Set("textContent", msg)
}
