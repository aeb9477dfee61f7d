//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"syscall/js"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// The postMessage API for a page that embeds the playground in an iframe
// (docs/embedding.md has the protocol and a parent-page snippet).
//
// Requests are objects {type, id, ...}: dsplay:apply {yaml},
// dsplay:run {command}, dsplay:step {seconds}, dsplay:reset, dsplay:play,
// dsplay:pause, dsplay:state, dsplay:hello. Each gets exactly one reply
// carrying its id: dsplay:applied {output} (apply), dsplay:result {stdout,
// stderr, exitCode} (run), dsplay:state {...} (step, reset, play, pause,
// state), dsplay:ready (hello), or dsplay:error {error, diagnostics?}.
// Events without an id: dsplay:ready once the page is interactive,
// dsplay:decisions {decisions} with the new controller decisions after a
// frame that made some, dsplay:resize {height} (embed mode).
//
// Origins: a message is taken only from the page's own origin, an origin
// named by `origin=` (comma-separated or repeated), or any origin when
// `origin=*` is given; others are ignored with a console warning. Replies go
// to the message's source with its (checked) origin as targetOrigin;
// events go to the parent window, once its origin is known and allowed
// (location.ancestorOrigins, document.referrer, or the first message
// taken), never to "*" unless `origin=*` allows it.
//
// Privacy: no reply or event carries anything from storage (the console's
// `history` run for a parent lists only this page's own commands:
// console.runRemote), and a framed page keeps its storage apart from the
// full site's, by the embedding origin (session.StoragePrefix; docs/
// embedding.md, "What a parent page may read").
//
// Boot: boot.js queues messages in window.__dsplayBoot.queue until Go sets
// __dsplayBoot.handler; without boot.js's object, Go listens itself.

// messageSource marks every message the page posts (field "source"); the
// page ignores messages so marked, so that a reply is never taken for a
// request (a window posting to itself, two playgrounds framing each other).
const messageSource = "dsplay-playground"

// maxDecisionBatch caps the decisions one dsplay:decisions event carries
// (the newest; "skipped" counts the rest).
const maxDecisionBatch = 500

// postMessenger is the page's end of the protocol.
type postMessenger struct {
	a *app
	// target is the parent's origin events are posted to ("" while
	// unknown; "*" only when origin=* allows it).
	target string
	// lastSeq is the last decision posted; rec the Recorder it belongs to
	// (a reset makes a new one, whose Seq starts over).
	lastSeq int64
	rec     any
	ready   bool
	// watching: embed mode reports the content's size (watchSize);
	// sentH, sentW are the last size posted (-1: none yet).
	watching     bool
	sentH, sentW int
	// sizeAt is when the content was last measured (performance.now ms).
	sizeAt float64
}

// pm is the page's postMessenger (set by initPostMessage).
var pm = &postMessenger{sentH: -1, sentW: -1}

// initPostMessage starts the API: once start has finished (a task later),
// it takes the queued messages, posts dsplay:ready, and handles messages
// as they come.
func (a *app) initPostMessage() {
	pm.a = a
	pm.rec = a.rec
	pm.lastSeq = a.rec.Live().LastDecisionSeq()
	handler := a.hook("postMessage handler", func(args []js.Value) any {
		if len(args) > 0 {
			pm.receive(args[0])
		}
		return nil
	})
	var later js.Func
	later = js.FuncOf(func(js.Value, []js.Value) any {
		defer later.Release()
		defer a.recoverAt("postMessage start")
		if a.stopped {
			return nil
		}
		pm.ready = true
		pm.target = pm.parentOrigin()
		if pm.target != "" {
			pm.post(readyEvent())
			pm.size()
		}
		boot := global.Get("__dsplayBoot")
		if boot.Truthy() && boot.Type() == js.TypeObject {
			boot.Set("handler", handler)
			a.removers = append(a.removers, func() { boot.Set("handler", js.Null()) })
			q := boot.Get("queue")
			if q.Truthy() {
				n := q.Get("length").Int()
				for i := 0; i < n; i++ {
					pm.receiveSafe(q.Index(i))
				}
				q.Set("length", 0)
			}
			return nil
		}
		global.Call("addEventListener", "message", handler)
		a.removers = append(a.removers, func() { global.Call("removeEventListener", "message", handler) })
		return nil
	})
	global.Call("setTimeout", later, 0)
}

// readyEvent is dsplay:ready: the page's version of the protocol, its
// mode and clock.
func readyEvent() map[string]any {
	return map[string]any{"type": "dsplay:ready", "protocol": 1, "embed": embedMode(), "readonly": embedReadonly(), "elapsed": pm.a.clockElapsed().Seconds()}
}

// receiveSafe handles one queued message with its own recover, so one bad
// message does not stop the rest of the queue.
func (p *postMessenger) receiveSafe(ev js.Value) {
	defer p.a.recoverAt("postMessage handler")
	p.receive(ev)
}

// allowed reports whether origin may talk to the page.
func allowed(origin string) bool {
	if emb.anyOrigin {
		return true
	}
	if origin == "" || origin == "null" {
		return false // file:// and sandboxed frames: only with origin=*
	}
	if origin == global.Get("location").Get("origin").String() {
		return true
	}
	for _, o := range emb.origins {
		if o == origin {
			return true
		}
	}
	return false
}

// replyOrigin is the targetOrigin of a reply to origin (an opaque origin
// can only be reached with "*", which allowed permits only under origin=*).
func replyOrigin(origin string) string {
	if origin == "null" || origin == "" {
		return "*"
	}
	return origin
}

// parentOrigin is the parent window's origin when it is known and allowed:
// from location.ancestorOrigins (Chromium, Safari) or document.referrer;
// "*" when unknown but origin=* allows any; else "".
func (p *postMessenger) parentOrigin() string {
	parent := global.Get("parent")
	if !parent.Truthy() || parent.Equal(global) {
		return ""
	}
	origin := embeddingOrigin()
	switch {
	case origin != "" && origin != "null" && allowed(origin):
		return origin
	case emb.anyOrigin:
		return "*"
	}
	return ""
}

// embeddingOrigin is the parent window's origin as the browser reports it:
// location.ancestorOrigins (Chromium, Safari), else document.referrer's
// origin; "" when unknown.
func embeddingOrigin() string {
	origin := ""
	if ao := global.Get("location").Get("ancestorOrigins"); ao.Truthy() && ao.Get("length").Int() > 0 {
		origin = ao.Index(0).String()
	} else if ref := document.Get("referrer").String(); ref != "" {
		if u := global.Get("URL"); u.Truthy() {
			func() {
				defer func() { recover() }() // a malformed referrer: unknown
				origin = u.New(ref).Get("origin").String()
			}()
		}
	}
	return origin
}

// post sends an event to the parent, if it is known and allowed.
func (p *postMessenger) post(msg map[string]any) {
	if !p.ready || p.target == "" {
		return
	}
	parent := global.Get("parent")
	if !parent.Truthy() || parent.Equal(global) {
		return
	}
	msg["source"] = messageSource
	parent.Call("postMessage", js.ValueOf(msg), p.target)
}

// receive handles one MessageEvent.
func (p *postMessenger) receive(ev js.Value) {
	data := ev.Get("data")
	if data.Type() != js.TypeObject || data.IsNull() {
		return
	}
	typ := data.Get("type")
	if typ.Type() != js.TypeString || !strings.HasPrefix(typ.String(), "dsplay:") {
		return // not ours (other scripts use postMessage too)
	}
	if data.Get("source").Equal(js.ValueOf(messageSource)) {
		return // a playground's reply or event (ours, or another playground's): not a request
	}
	origin := ev.Get("origin").String()
	if !allowed(origin) {
		msg := fmt.Sprintf("DaemonSet Playground: ignored %s from origin %s (not allowed: add origin=%s to the iframe's URL)", typ.String(), origin, origin)
		if len(emb.badOrigins) > 0 {
			msg += fmt.Sprintf("; origin= values that are not origins, ignored: %s", strings.Join(emb.badOrigins, ", "))
		}
		global.Get("console").Call("warn", msg)
		return
	}
	src := ev.Get("source")
	if src.Truthy() && src.Equal(global.Get("parent")) && !src.Equal(global) && p.target == "" {
		p.target = replyOrigin(origin) // the parent spoke first: events go there too
		p.size()
	}
	var id any
	if v := data.Get("id"); !v.IsUndefined() {
		id = jsToGo(v)
	}
	reply := func(msg map[string]any) {
		if id != nil {
			msg["id"] = id
		}
		msg["source"] = messageSource
		if !src.Truthy() || src.IsNull() {
			return
		}
		src.Call("postMessage", js.ValueOf(msg), replyOrigin(origin))
	}
	defer func() {
		if r := recover(); r != nil {
			reply(map[string]any{"type": "dsplay:error", "error": fmt.Sprintf("internal error: %v", r)})
			global.Get("console").Call("error", string(debug.Stack()))
			panic(r) // the hook's recover shows the banner
		}
	}()
	reply(p.handle(typ.String(), data))
	p.frame() // decisions the request made, at once
}

// jsToGo converts a request id (string, number or boolean) to a Go value
// js.ValueOf takes back; other ids become their string form.
func jsToGo(v js.Value) any {
	switch v.Type() {
	case js.TypeString:
		return v.String()
	case js.TypeNumber:
		return v.Float()
	case js.TypeBoolean:
		return v.Bool()
	case js.TypeNull:
		return nil
	}
	return v.Call("toString").String()
}

// errReply is a dsplay:error reply.
func errReply(err error) map[string]any {
	return map[string]any{"type": "dsplay:error", "error": err.Error()}
}

// handle performs one request and returns its reply.
func (p *postMessenger) handle(typ string, data js.Value) map[string]any {
	a := p.a
	str := func(k string) (string, bool) {
		v := data.Get(k)
		if v.Type() != js.TypeString {
			return "", false
		}
		return v.String(), true
	}
	switch typ {
	case "dsplay:hello":
		return readyEvent()
	case "dsplay:apply":
		y, ok := str("yaml")
		if !ok {
			return errReply(errors.New("dsplay:apply wants {yaml: string}"))
		}
		return a.applyFromParent(y)
	case "dsplay:run":
		line, ok := str("command")
		if !ok {
			return errReply(errors.New("dsplay:run wants {command: string}"))
		}
		a.tl.leavePast()
		out := a.kc.runRemote(line)
		return map[string]any{"type": "dsplay:result", "stdout": out.Stdout, "stderr": out.Stderr, "exitCode": out.ExitCode}
	case "dsplay:step":
		secs := 1.0
		if v := data.Get("seconds"); !v.IsUndefined() {
			if v.Type() != js.TypeNumber || !session.StepSecondsOK(v.Float()) {
				return errReply(fmt.Errorf("dsplay:step wants {seconds: a number from %g to %d}", session.MinStepSeconds, session.MaxStepSeconds))
			}
			secs = v.Float()
		}
		a.advance(time.Duration(secs * float64(time.Second)))
		return p.state()
	case "dsplay:reset":
		if err := a.restart(); err != nil {
			return errReply(err)
		}
		return p.state()
	case "dsplay:play":
		a.tl.leavePast()
		a.setPlaying(true)
		return p.state()
	case "dsplay:pause":
		a.setPlaying(false)
		return p.state()
	case "dsplay:state":
		return p.state()
	}
	return errReply(fmt.Errorf("unknown message type %q (known: dsplay:apply, run, step, reset, play, pause, state, hello)", typ))
}

// applyFromParent applies yaml as the editor's Apply does (the editor shows
// it, the console echoes it): dsplay:applied with kubectl's output, or
// dsplay:error with the diagnostics (line, column, field, message); the
// cluster is unchanged on an error.
func (a *app) applyFromParent(yaml string) map[string]any {
	a.tl.leavePast()
	if len(yaml) > maxEditorBytes {
		return errReply(fmt.Errorf("the manifest is %d bytes; the playground accepts at most %d", len(yaml), maxEditorBytes))
	}
	if a.kc.editing() {
		a.kc.finishEdit(true) // a kubectl edit open in the editor ends unsaved
	}
	n := len(a.rec.Inputs())
	a.ed.setText(yaml)
	a.applyNow()
	if a.ed.lastError == "" && len(a.rec.Inputs()) > n {
		return map[string]any{"type": "dsplay:applied", "output": lastApplyLines(a)}
	}
	r := errReply(errors.New(a.ed.lastError))
	if err := engine.CheckManifest(manifestFile, yaml); err != nil {
		if diags, ok := engine.ManifestDiagnostics(err); ok {
			var ds []any
			for _, d := range diags {
				ds = append(ds, map[string]any{"line": d.Line, "column": d.Column, "field": d.Field, "message": d.Message})
			}
			r["diagnostics"] = ds
		}
	}
	return r
}

// lastApplyLines is the text of the result line under the editor after a
// successful Apply (kubectl's "daemonset.apps/x created" lines).
func lastApplyLines(a *app) string {
	items := a.ed.result.Call("querySelectorAll", "li")
	var lines []string
	for i, n := 0, items.Get("length").Int(); i < n; i++ {
		lines = append(lines, items.Index(i).Get("textContent").String())
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// state is the dsplay:state reply: the clock, whether it plays, and what
// the page shows: pods, nodes and DaemonSets.
func (p *postMessenger) state() map[string]any {
	a := p.a
	a.flushJobs()
	sum := a.shown().Summary()
	pods := []any{}
	for _, pod := range sum.Pods {
		pods = append(pods, map[string]any{"name": pod.Name, "namespace": pod.Namespace, "node": pod.Node, "phase": pod.Phase,
			"ready": pod.Ready, "owner": pod.Owner, "terminating": pod.Terminating})
	}
	nodes := []any{}
	for _, n := range sum.Nodes {
		taints := []any{}
		for _, t := range n.Taints {
			taints = append(taints, t)
		}
		nodes = append(nodes, map[string]any{"name": n.Name, "ready": n.Ready, "unschedulable": n.Unschedulable, "taints": taints})
	}
	dss := []any{}
	for _, d := range sum.DaemonSets {
		dss = append(dss, map[string]any{"name": d.Name, "namespace": d.Namespace, "desired": d.Desired, "current": d.Current,
			"ready": d.Ready, "updated": d.UpToDate, "available": d.Available, "misscheduled": d.Misscheduled})
	}
	return map[string]any{"type": "dsplay:state", "elapsed": a.clockElapsed().Seconds(), "playing": a.playing,
		"steps": len(a.rec.Steps()), "pods": pods, "nodes": nodes, "daemonSets": dss}
}

// size posts {type: "dsplay:resize", height, width} when the content's
// size changed since the last post (the first time the parent is known,
// always), in CSS pixels: the frame's own size when everything fits,
// more when a pane overflows (contentSize). Only in embed mode.
func (p *postMessenger) size() {
	if !p.watching || !p.ready || p.target == "" {
		return
	}
	p.sizeAt = nowMs()
	h, w := contentSize()
	if h == p.sentH && w == p.sentW {
		return
	}
	p.sentH, p.sentW = h, w
	p.post(map[string]any{"type": "dsplay:resize", "height": h, "width": w})
}

// sizeEveryMs is how often the animation frame measures the content: a
// pane's content grows (pods, nodes, a lesson's next step) without the
// document's size changing, so no ResizeObserver sees it.
const sizeEveryMs = 300

// paneScrollers are the boxes inside a pane that scroll a part of its
// content the frame should grow to show (the logs, kubectl's and the
// decisions', grow without end and keep scrolling: they are not counted).
const paneScrollers = ".lesson-body, .nodes, .table-wrap, .rollout, .pending"

// contentSize is the height the embed's content needs and its width. The
// embed lays its panes out in the frame (each pane scrolls inside, the
// document never overflows), so the document's scrollHeight is the frame's
// height: to it is added what the panes hide, their own overflow and their
// scrolling parts' (paneScrollers). Side by side (from 760 px wide) the
// panes are as high as the frame: the largest overflow is added. Stacked,
// the panes share the frame's height by their flex-grow weights (basis 0,
// style.css), so the frame must grow until the pane that needs the most
// for its weight gets it: with R the height shared out now (without
// padding and borders), a pane of weight g among G that needs n gets
// n <= g/G·R' when R' = max(R, n·G/g); the height needed is h + R' − R.
func contentSize() (h, w int) {
	root := document.Get("documentElement")
	h, w = root.Get("scrollHeight").Int(), root.Get("scrollWidth").Int()
	layout := document.Call("querySelector", ".layout")
	if layout.IsNull() {
		return h, w
	}
	row := global.Call("getComputedStyle", layout).Get("flexDirection").String() == "row"
	type paneNeed struct{ grow, cur, need float64 }
	var ps []paneNeed
	extra, shared, weights := 0, 0.0, 0.0
	panes := layout.Call("querySelectorAll", ".pane")
	for i, n := 0, panes.Get("length").Int(); i < n; i++ {
		pane := panes.Index(i)
		if pane.Get("offsetParent").IsNull() { // not shown
			continue
		}
		over := max(0, pane.Get("scrollHeight").Int()-pane.Get("clientHeight").Int())
		inner := pane.Call("querySelectorAll", paneScrollers)
		for j, m := 0, inner.Get("length").Int(); j < m; j++ {
			e := inner.Index(j)
			over += max(0, e.Get("scrollHeight").Int()-e.Get("clientHeight").Int())
		}
		if row {
			extra = max(extra, over)
			continue
		}
		cs := global.Call("getComputedStyle", pane)
		px := func(prop string) float64 { return global.Call("parseFloat", cs.Call("getPropertyValue", prop)).Float() }
		g := px("flex-grow")
		if g <= 0 || cs.Get("flexBasis").String() == "auto" {
			extra += over // a pane of its own height (the timeline alone) grows by its overflow
			continue
		}
		pb := px("padding-top") + px("padding-bottom") + px("border-top-width") + px("border-bottom-width")
		cur := pane.Get("offsetHeight").Float() - pb
		ps = append(ps, paneNeed{g, cur, cur + float64(over)})
		shared += cur
		weights += g
	}
	if !row {
		need := shared
		for _, p := range ps {
			need = max(need, p.need*weights/p.grow)
		}
		extra += int(need - shared + 0.999)
	}
	return h + extra, w
}

// frame posts the decisions made since the last post (called once per
// animation frame and after each request).
func (p *postMessenger) frame() {
	a := p.a
	if a == nil || !p.ready || p.target == "" {
		return
	}
	if p.watching && nowMs()-p.sizeAt >= sizeEveryMs {
		p.size()
	}
	if p.rec != any(a.rec) {
		p.rec, p.lastSeq = a.rec, 0 // a reset: the new cluster's decisions start over
	}
	live := a.rec.Live()
	if live.LastDecisionSeq() <= p.lastSeq {
		return
	}
	ds := live.Decisions(p.lastSeq)
	p.lastSeq = ds[len(ds)-1].Seq
	skipped := 0
	if len(ds) > maxDecisionBatch {
		skipped = len(ds) - maxDecisionBatch
		ds = ds[skipped:]
	}
	out := make([]any, 0, len(ds))
	for _, d := range ds {
		out = append(out, map[string]any{"seq": d.Seq, "at": engine.DecisionAt(d).Seconds(),
			"component": d.Component, "func": d.Func, "action": d.Action, "object": d.Object, "node": d.Node, "reason": d.Reason})
	}
	msg := map[string]any{"type": "dsplay:decisions", "decisions": out}
	if skipped > 0 {
		msg["skipped"] = skipped
	}
	p.post(msg)
}
