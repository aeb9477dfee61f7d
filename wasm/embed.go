//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// Embed mode and the URL's starting state (docs/embedding.md).
//
// `?embed`, or `<html data-mode="embed">` (embed.html), hides the chrome:
// the top bar keeps the clock controls only, the gallery, Share, the
// example menu and the compare view go, and the panes named by `panes=`
// (editor, cluster, console, timeline, decisions; default cluster,console)
// fill the iframe, which gets no page scrollbars: each pane scrolls inside.
// The content height is posted to the parent as {type:"dsplay:resize",
// height} whenever it changes (postmessage.go).
//
// In any mode the URL may preload a starting state: a share fragment
// (#s=...), `lesson=ID`, `exercise=ID`, `example=FILE` or `yaml=TEXT`
// (URL-encoded), in that order of precedence; `example=none` or an empty
// `yaml=` start on a clean cluster (the default nodes, nothing applied). `readonly` leaves no way to
// change the cluster from the page (no Apply, no kubectl input, no node
// actions; the clock still plays and a parent page may still drive it
// through postMessage); `reset` adds a Reset button that restores the
// preloaded state; `paused` starts the clock paused (main.go).

// embedState is what the URL asked for (read once, by initEmbed).
type embedState struct {
	embed    bool // embed mode
	readonly bool
	reset    bool
	panes    []string
	// origins are the origins allowed to talk to the page through
	// postMessage besides its own (origin=, comma-separated or repeated);
	// anyOrigin is an explicit "*".
	origins   []string
	anyOrigin bool
	// badOrigins are origin= values that are no origin (normalizeOrigin).
	badOrigins []string
	// preload loads the starting state again on a fresh cluster (Reset,
	// dsplay:reset); nil when the page started on the default example.
	preload func() error
	// preloadOpts are the engine.Options of the starting state.
	preloadOpts engine.Options
	// what names the starting state ("share link", "lesson 01-...", ...).
	what string
}

// emb is the page's embedState (set by initEmbed, before anything reads it).
var emb = &embedState{}

// embedMode reports whether the page runs embedded (?embed, embed.html).
func embedMode() bool { return emb.embed }

// embedReadonly reports whether the page is read-only (?readonly).
func embedReadonly() bool { return emb.readonly }

// urlQuery returns the page's query parameters (a URLSearchParams).
func urlQuery() js.Value {
	return global.Get("URLSearchParams").New(global.Get("location").Get("search"))
}

// queryValues returns every value of parameter name, each split at commas,
// trimmed, without empty ones.
func queryValues(q js.Value, name string) []string {
	all := q.Call("getAll", name)
	var out []string
	for i, n := 0, all.Get("length").Int(); i < n; i++ {
		for _, v := range strings.Split(all.Index(i).String(), ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// normalizeOrigin is an origin= value as the browser serializes origins
// (MessageEvent.origin): new URL(o).origin, so the scheme and host are
// lower-case and a default port goes (HTTP://LOCALHOST:80/ ->
// http://localhost). ok is false for a value that is no URL or has an
// opaque origin ("example.com", "localhost:8742", "file:///x").
func normalizeOrigin(o string) (origin string, ok bool) {
	defer func() {
		if recover() != nil { // new URL threw: not a URL
			origin, ok = "", false
		}
	}()
	u := global.Get("URL").New(strings.TrimSpace(o))
	origin = u.Get("origin").String()
	if origin == "" || origin == "null" {
		return "", false
	}
	return origin, true
}

// initEmbed reads what the URL asks for (embed mode, a share link, a lesson
// or exercise, a manifest) and loads it; it reports whether it loaded a
// starting state of its own (false: start has the default example applied).
// Called once from start, after initLessons.
func (a *app) initEmbed() bool {
	q := urlQuery()
	root := document.Get("documentElement")
	ds := root.Get("dataset")
	e := emb
	e.embed = q.Call("has", "embed").Bool() || ds.Get("mode").String() == "embed"
	e.readonly = q.Call("has", "readonly").Bool()
	e.reset = q.Call("has", "reset").Bool()
	for _, o := range queryValues(q, "origin") {
		if o == "*" {
			e.anyOrigin = true
		} else if n, ok := normalizeOrigin(o); ok {
			e.origins = append(e.origins, n)
		} else {
			e.badOrigins = append(e.badOrigins, o)
		}
	}
	var unknown []string
	if e.embed {
		ds.Set("mode", "embed")
		e.panes, unknown = session.ParsePanes(queryValues(q, "panes"))
		ds.Set("panes", strings.Join(e.panes, " "))
	}
	if e.readonly {
		ds.Set("readonly", "")
		a.makeReadonly()
	}
	a.shareHooks()
	if !e.embed {
		a.initShare()
	}
	a.initImportExport()
	a.initPostMessage()

	loaded := a.preloadFromURL(q)
	// A fresh page is no reset: the note a lesson's or a seeded cluster's
	// resetCluster left in the console goes.
	dropResetNotes()
	if e.reset {
		a.addResetButton()
	}
	if e.embed {
		a.watchSize()
	}
	if len(e.badOrigins) > 0 {
		a.embedWarning(fmt.Sprintf("Embed: origin= %s is not an origin (scheme://host[:port], e.g. https://example.com); ignored.", strings.Join(e.badOrigins, ", ")))
	}
	if len(unknown) > 0 {
		a.embedWarning(fmt.Sprintf("Embed: unknown pane %s in panes= (known: editor, cluster, console, timeline, decisions).", strings.Join(unknown, ", ")))
	}
	return loaded
}

// dropResetNotes removes the console's "The cluster was reset" notes
// (resetNote): at load the cluster is new, not reset.
func dropResetNotes() {
	out := byID("kout")
	if out.IsNull() {
		return
	}
	notes := out.Call("querySelectorAll", ".note")
	for i, n := 0, notes.Get("length").Int(); i < n; i++ {
		if e := notes.Index(i); e.Get("textContent").String() == resetNote {
			e.Call("remove")
		}
	}
}

// embedWarning shows a mistake in the embed's URL where its author sees
// it: a banner over the panes (#embed-warning; the console pane may be
// hidden), the console log, and the browser console.
func (a *app) embedWarning(msg string) {
	b := byID("embed-warning")
	if b.IsNull() {
		b = el("div", "banner embed-warning")
		b.Set("id", "embed-warning")
		b.Call("setAttribute", "role", "status")
		if l := document.Call("querySelector", ".layout"); !l.IsNull() {
			l.Get("parentNode").Call("insertBefore", b, l)
		} else {
			document.Get("body").Call("prepend", b)
		}
	}
	b.Set("textContent", msg)
	a.kc.note(msg + "\n")
	global.Get("console").Call("warn", "DaemonSet Playground: "+msg)
}

// preloadFromURL loads the starting state the URL names and remembers how,
// for Reset. It reports whether the URL named one; on an error it says so
// in the console and the result line, and the page starts on a clean
// cluster (not on the default example).
func (a *app) preloadFromURL(q js.Value) bool {
	e := emb
	if a.restoreAtLoad() {
		return true // the saved session (autosave.go)
	}
	var load func() error
	hash := global.Get("location").Get("hash").String()
	switch {
	case hasFragment(hash):
		frag, _ := session.FragmentParam(hash, "s")
		data, err := session.DecodeFragment(frag)
		if err != nil {
			// a clean cluster and the error, rather than the default
			// example the learner did not ask for
			a.preloadFailed("share link", err)
			return true
		}
		e.what, e.preloadOpts = "share link", session.ScenarioOptions("shared scenario", data)
		load = func() error {
			if err := a.replayInto("shared scenario", data); err != nil {
				return err
			}
			if v, _ := session.FragmentParam(hash, "watch"); v == "1" {
				// made with "play it from the start": the playback starts
				// once the page is up
				var f js.Func
				f = js.FuncOf(func(js.Value, []js.Value) any {
					f.Release()
					a.tl.startWatch()
					return nil
				})
				global.Call("setTimeout", f, 0)
			}
			return nil
		}
	case q.Call("has", "lesson").Bool():
		id := q.Call("get", "lesson").String()
		e.what = "lesson " + id
		load = func() error { return a.openLesson(id) }
	case q.Call("has", "exercise").Bool():
		id := q.Call("get", "exercise").String()
		e.what = "exercise " + id
		load = func() error { return a.openExercise(id) }
	case q.Call("has", "example").Bool() && isNoExample(q.Call("get", "example").String()),
		q.Call("has", "yaml").Bool() && strings.TrimSpace(q.Call("get", "yaml").String()) == "":
		// example=none, or an empty yaml=: a clean cluster, nothing applied
		// (a parent page that applies its own manifests starts from it)
		e.what = "empty cluster"
		load = func() error { a.ed.setText(""); return nil }
	case q.Call("has", "example").Bool():
		name := q.Call("get", "example").String()
		text, err := exampleText(name)
		if err != nil {
			a.preloadFailed("example", err)
			return true // the error on a clean cluster, not another example
		}
		e.what = "example " + name
		load = func() error { return a.applyStart(text) }
	case q.Call("has", "yaml").Bool():
		text := q.Call("get", "yaml").String() // URLSearchParams decoded it
		e.what = "manifest from the URL"
		load = func() error { return a.applyStart(text) }
	default:
		return false
	}
	if e.preloadOpts != (engine.Options{}) {
		// the starting state needs another cluster (cluster empty, a seed)
		if err := a.resetCluster(e.preloadOpts); err != nil {
			a.preloadFailed(e.what, err)
			return false
		}
	}
	if err := load(); err != nil {
		if e.what == "share link" {
			// a partial replay is not the shared state: start clean
			a.resetCluster(engine.Options{})
		}
		a.preloadFailed(e.what, err)
		return true
	}
	e.preload = load
	return true
}

// hasFragment reports whether a location.hash holds a share fragment.
func hasFragment(hash string) bool {
	v, ok := session.FragmentParam(hash, "s")
	return ok && v != ""
}

// preloadFailed says, in the console and under the editor, that the
// starting state could not be loaded.
func (a *app) preloadFailed(what string, err error) {
	msg := fmt.Sprintf("Could not load the %s: %v", what, err)
	if a.ed.lastError == "" {
		// (a manifest's own diagnostics, with their lines marked, stay)
		a.ed.showError(msg)
	}
	if emb.embed {
		// the editor and the console may be hidden (panes=): the banner
		// over the panes shows it in any case
		a.embedWarning(msg)
		return
	}
	a.kc.note(msg + "\n")
	global.Get("console").Call("warn", msg)
}

// applyStart puts text in the editor and applies it: a starting state
// from example= or yaml=. A manifest that does not apply is an error
// (shown with line:column under the editor by applyText).
func (a *app) applyStart(text string) error {
	a.ed.setText(text)
	a.applyNow()
	if a.ed.lastError != "" {
		return errors.New(a.ed.lastError)
	}
	return nil
}

// isNoExample reports whether an example= value asks for no example
// ("none", or empty).
func isNoExample(name string) bool {
	name = strings.TrimSpace(name)
	return name == "" || strings.EqualFold(name, "none")
}

// exampleText finds an example manifest by its file name (with or without
// .yaml).
func exampleText(name string) (string, error) {
	var names []string
	for _, m := range exampleManifests {
		if m.File == name || strings.TrimSuffix(m.File, ".yaml") == name {
			return m.Text, nil
		}
		names = append(names, m.File)
	}
	return "", fmt.Errorf("no example %q (there are %s)", name, strings.Join(names, ", "))
}

// restart puts the page back to its starting state: a new cluster and the
// preloaded state loaded again (or the default example).
func (a *app) restart() error {
	e := emb
	if err := a.resetCluster(e.preloadOpts); err != nil {
		return err
	}
	if e.preload == nil {
		a.ed.setText(exampleManifests[0].Text)
		a.applyNow()
		return nil
	}
	err := e.preload()
	a.view.render(false)
	return err
}

// addResetButton adds Reset to the clock controls (`reset`).
func (a *app) addResetButton() {
	bar := document.Call("querySelector", ".clock-controls")
	if bar.IsNull() {
		return
	}
	b := textEl("button", "ctl", "Reset")
	b.Set("id", "embed-reset")
	b.Set("type", "button")
	b.Set("title", "Start again from the beginning")
	bar.Call("appendChild", b)
	a.listen(dom.WrapElement(b), "click", func(dom.Event) {
		if err := a.restart(); err != nil {
			a.preloadFailed(emb.what, err)
		}
	})
}

// readonlyControls are hidden or disabled in read-only mode.
var readonlyControls = []string{"apply", "kubectl", "edit-apply", "compare-open", "examples", "tl-branch"}

// makeReadonly leaves no way to change the cluster from the page: the
// editor is read-only, Apply, the example menu, the kubectl input and the
// compare view are gone, the node panel shows no actions (style.css), and
// Ctrl/⌘ + Enter in the editor does nothing.
func (a *app) makeReadonly() {
	for _, id := range readonlyControls {
		if e := byID(id); !e.IsNull() {
			e.Set("disabled", true)
			e.Set("hidden", true)
		}
	}
	if ta := byID("yaml"); !ta.IsNull() {
		ta.Set("readOnly", true)
	}
	if kl := document.Call("querySelector", ".kline"); !kl.IsNull() {
		kl.Set("hidden", true)
	}
	// The editor's own keydown listener applies on Ctrl/⌘ + Enter: stop
	// the event on its way down (capture, on the document).
	fn := a.hook("read-only guard", func(args []js.Value) any {
		ev := args[0]
		t := ev.Get("target")
		if t.Get("id").String() == "yaml" && ev.Get("key").String() == "Enter" && (ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()) {
			ev.Call("stopPropagation")
			ev.Call("preventDefault")
		}
		return nil
	})
	document.Call("addEventListener", "keydown", fn, true)
	a.removers = append(a.removers, func() { document.Call("removeEventListener", "keydown", fn, true) })
}

// watchSize posts the content's size to the parent whenever it changes
// (ResizeObserver on the body and the layout; see postMessenger.size).
func (a *app) watchSize() {
	ro := global.Get("ResizeObserver")
	if ro.IsUndefined() {
		return
	}
	pm.watching = true
	fn := a.hook("resize observer", func([]js.Value) any { pm.size(); return nil })
	obs := ro.New(fn)
	obs.Call("observe", document.Get("body"))
	if l := document.Call("querySelector", ".layout"); !l.IsNull() {
		obs.Call("observe", l)
	}
	a.removers = append(a.removers, func() { obs.Call("disconnect") })
}
