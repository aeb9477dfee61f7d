//go:build js && wasm

package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
)

// The compare view (#compare; the "Compare strategies" button, or ?compare):
// the live cluster (the Recorder's inputs as the comparison's Base), one
// DaemonSet and one template change (kubectl set image, prefilled with the
// next tag of the current image) run under RollingUpdate (the chosen
// maxUnavailable and maxSurge) and under OnDelete — or under RollingUpdate
// with maxSurge 0 and with maxSurge 1 — side by side, on one clock
// (engine.Comparison). The scrubber takes both sides back in time
// together (Comparison.Seek); Live, Play or +1 s return. While it is open the clock controls drive the
// comparison and the main cluster waits; Exit returns to it unchanged. Each
// side shows kubectl rollout status's numbers (engine.ProgressOf), its
// message, and the DaemonSet's pods per node coloured by revision (the
// classes of rollout.go). A pod chip is a button: it selects the pod, and
// "Delete pod" runs `kubectl delete pod NAME` on that side, so the learner
// sees the replacement come back from the current template.

// maxCompareNodes bounds the node cards drawn per side (the numbers count
// every node).
const maxCompareNodes = 60

type compareView struct {
	a  *app
	c  *engine.Comparison
	on bool

	root, layout, form, dsSel, ctrSel, image, mu, ms, errEl, clock, title js.Value
	mode, hint, scrub, scrubAt, liveBtn                                   js.Value
	// past: the sides show virtual time pastAt (pastSims), not live.
	past     bool
	pastAt   time.Duration
	pastSims [2]*engine.Simulation

	sides     [2]*compareSide
	lastClock string
	// ns and name are the DaemonSet compared.
	ns, name string
	// wasPlaying is whether the main clock played when the view opened.
	wasPlaying bool
}

type compareSide struct {
	side                                             engine.Side
	v                                                *compareView
	root, head, bar, upd, avl, nums, msg, nodes, out js.Value
	act, actName, del                                js.Value
	sn                                               *engine.Snapshotter
	snFor                                            *engine.Simulation
	lastRV                                           int64
	selected                                         string
	// cards and chips are the node cards and pod chips drawn (by node and
	// pod name), kept across redraws so the stage's animations play on
	// them; prev is the side's scene last drawn (of the Simulation snFor),
	// seq its last decision.
	cards map[string]js.Value
	chips map[string]js.Value
	prev  engine.Scene
	seq   int64
	have  bool
}

func newCompare(a *app) *compareView {
	v := &compareView{
		a:      a,
		root:   byID("compare"),
		layout: document.Call("querySelector", "main.layout"),
		form:   byID("cmp-form"),
		dsSel:  byID("cmp-ds"),
		ctrSel: byID("cmp-container"),
		image:  byID("cmp-image"),
		mu:     byID("cmp-mu"),
		ms:     byID("cmp-ms"),
		errEl:  byID("cmp-error"),
		clock:  byID("cmp-clock"),
		title:  byID("cmp-title"),

		mode:    byID("cmp-mode"),
		hint:    byID("cmp-hint"),
		scrub:   byID("cmp-scrub"),
		scrubAt: byID("cmp-scrub-at"),
		liveBtn: byID("cmp-live"),
	}
	if !v.ok() {
		return v
	}
	box := byID("cmp-sides")
	for i := range v.sides {
		v.sides[i] = newCompareSide(a, v, engine.Side(i))
		box.Call("appendChild", v.sides[i].root)
	}
	if b := byID("compare-open"); !b.IsNull() {
		a.listen(dom.WrapElement(b), "click", func(dom.Event) { v.open("") })
	}
	a.listen(dom.WrapElement(byID("cmp-exit")), "click", func(dom.Event) { v.exit() })
	a.listen(dom.WrapElement(v.form), "submit", func(ev dom.Event) {
		ev.PreventDefault()
		v.start()
	})
	a.listen(dom.WrapElement(v.dsSel), "change", func(dom.Event) {
		v.fillForm(v.dsSel.Get("value").String(), true)
	})
	a.listen(dom.WrapElement(v.ctrSel), "change", func(dom.Event) {
		v.fillForm(v.dsSel.Get("value").String(), false)
	})
	if v.mode.Truthy() {
		a.listen(dom.WrapElement(v.mode), "change", func(dom.Event) {
			v.showMode()
			v.start()
		})
	}
	if v.scrub.Truthy() {
		a.listen(dom.WrapElement(v.scrub), "input", func(dom.Event) {
			v.a.setPlaying(false)
			v.seek(time.Duration(v.scrub.Get("valueAsNumber").Float() * float64(time.Second)))
		})
		a.listen(dom.WrapElement(v.liveBtn), "click", func(dom.Event) { v.toLive() })
	}
	a.listen(dom.WrapElement(v.root), "keydown", func(ev dom.Event) {
		if ev.Underlying().Get("key").String() == "Escape" {
			for _, s := range v.sides {
				if s.selected != "" {
					s.choose("")
					return
				}
			}
		}
	})
	return v
}

func (v *compareView) ok() bool {
	return v != nil && !v.root.IsNull() && !v.form.IsNull() && !v.layout.IsNull()
}

// active reports whether the compare view is open.
func (v *compareView) active() bool { return v != nil && v.on }

func newCompareSide(a *app, v *compareView, s engine.Side) *compareSide {
	cs := &compareSide{side: s, v: v, lastRV: -1, cards: map[string]js.Value{}, chips: map[string]js.Value{}}
	cs.root = el("section", "cmp-side")
	cs.root.Get("dataset").Set("side", s.String())
	cs.root.Call("setAttribute", "aria-label", s.String()+" side")
	cs.head = el("div", "cmp-side-head")
	cs.bar = el("div", "cmp-bar")
	cs.bar.Call("setAttribute", "role", "progressbar")
	cs.bar.Call("setAttribute", "aria-label", s.String()+": pods updated")
	cs.bar.Call("setAttribute", "aria-valuemin", "0")
	cs.upd = el("span", "cmp-upd")
	cs.avl = el("span", "cmp-avl")
	appendAll(cs.bar, cs.upd, cs.avl)
	cs.nums = el("span", "cmp-nums")
	cs.msg = el("p", "cmp-msg")
	cs.act = el("div", "cmp-act")
	cs.act.Set("hidden", true)
	cs.actName = el("span", "cmp-act-name")
	cs.del = textEl("button", "primary cmp-del", "Delete pod")
	cs.del.Set("type", "button")
	cancel := textEl("button", "ctl", "Cancel")
	cancel.Set("type", "button")
	appendAll(cs.act, cs.actName, cs.del, cancel)
	cs.nodes = el("div", "cmp-nodes")
	cs.out = el("pre", "cmp-out")
	cs.out.Call("setAttribute", "aria-live", "polite")
	cs.out.Call("setAttribute", "aria-label", s.String()+" side: kubectl output")
	appendAll(cs.root, cs.head, appendAll(el("div", "cmp-row"), cs.bar, cs.nums), cs.msg, cs.act, cs.nodes, cs.out)

	a.listen(dom.WrapElement(cs.nodes), "click", func(ev dom.Event) {
		chip := ev.Underlying().Get("target").Call("closest", "[data-pod]")
		if chip.IsNull() {
			return
		}
		name := chip.Get("dataset").Get("pod").String()
		if name == cs.selected {
			cs.choose("")
		} else {
			cs.choose(name)
		}
	})
	a.listen(dom.WrapElement(cs.del), "click", func(dom.Event) { v.deletePod(cs) })
	a.listen(dom.WrapElement(cancel), "click", func(dom.Event) { cs.choose("") })
	return cs
}

// choose selects pod name on this side ("" clears) and offers to delete it
// (in the live comparison only).
func (cs *compareSide) choose(name string) {
	if cs.v.past {
		name = ""
	}
	cs.selected = name
	cs.lastRV = -1 // redraw the selection
	if name == "" {
		cs.act.Set("hidden", true)
		return
	}
	cs.actName.Set("textContent", "pod "+name+" ("+cs.label()+" side)")
	cs.del.Set("textContent", "Delete pod "+name)
	cs.del.Call("setAttribute", "aria-label", "Delete pod "+name+" on the "+cs.label()+" side")
	cs.act.Set("hidden", false)
	cs.del.Call("focus")
}

// label names the side as the comparison does (engine.Comparison.Label).
func (cs *compareSide) label() string {
	if cs.v.c == nil {
		return cs.side.String()
	}
	return cs.v.c.Label(cs.side)
}

// surge reports whether the form compares maxSurge 0 with maxSurge 1.
func (v *compareView) surge() bool {
	return v.mode.Truthy() && v.mode.Get("value").String() == "surge"
}

// showMode fits the form and the hint to the comparison chosen.
func (v *compareView) showMode() {
	v.form.Get("classList").Call("toggle", "surge", v.surge())
	if !v.hint.Truthy() {
		return
	}
	if v.surge() {
		v.hint.Set("innerHTML", "The same cluster and the same <code>kubectl set image</code>, under RollingUpdate twice: maxSurge 0 stops a pod, then starts its replacement; maxSurge 1 starts the replacement beside the old pod, then stops it. One clock (Play, +1 s).")
	} else {
		v.hint.Set("innerHTML", "The same cluster and the same <code>kubectl set image</code>, under RollingUpdate and under OnDelete, on one clock (Play, +1 s). Select a pod to delete it on its side.")
	}
}

// seek shows both sides at virtual time at (clamped to the comparison's
// span); at the live time it returns to live.
func (v *compareView) seek(at time.Duration) {
	if v.c == nil {
		return
	}
	at = min(max(at, v.c.ChangeAt), v.c.Elapsed())
	if at >= v.c.Elapsed() {
		v.toLive()
		return
	}
	r, o, err := v.c.Seek(at)
	if err != nil {
		v.showError(err.Error())
		return
	}
	v.past, v.pastAt, v.pastSims = true, at, [2]*engine.Simulation{r, o}
	for _, s := range v.sides {
		s.choose("")
	}
	v.root.Get("classList").Call("add", "past")
	v.liveBtn.Set("disabled", false)
	v.drawAll()
}

// toLive leaves the past: both sides show the live comparison again.
func (v *compareView) toLive() {
	if !v.past {
		return
	}
	v.past, v.pastSims = false, [2]*engine.Simulation{}
	v.root.Get("classList").Call("remove", "past")
	v.liveBtn.Set("disabled", true)
	for _, s := range v.sides {
		s.lastRV = -1
	}
	v.drawAll()
}

// shown is side s's Simulation as drawn: the past one while scrubbing.
func (v *compareView) shown(s engine.Side) *engine.Simulation {
	if v.past && v.pastSims[s] != nil {
		return v.pastSims[s]
	}
	return v.c.Side(s).Live()
}

// open shows the compare view for DaemonSet key ("namespace/name"; "" =
// the first) with the form's defaults, and starts the comparison.
func (v *compareView) open(key string) string {
	if !v.ok() {
		return "the page has no compare view"
	}
	v.a.flushJobs()
	if v.a.tl.ok() && v.a.tl.past {
		v.a.tl.toLive()
	}
	v.a.kc.stopWatch()
	if !v.on {
		v.wasPlaying = v.a.playing // exit gives the main cluster this play state back
	}
	dss := v.a.rec.Live().Summary().DaemonSets
	clear(v.dsSel)
	for _, ds := range dss {
		k := ds.Namespace + "/" + ds.Name
		o := textEl("option", "", k)
		o.Set("value", k)
		v.dsSel.Call("appendChild", o)
		if key == "" {
			key = k
		}
	}
	v.on = true
	v.layout.Set("hidden", true)
	v.root.Set("hidden", false)
	document.Get("documentElement").Get("classList").Call("add", "comparing")
	if b := byID("compare-open"); !b.IsNull() {
		b.Call("setAttribute", "aria-expanded", "true")
	}
	v.lastClock = ""
	if key == "" {
		v.showError("No DaemonSet to compare: apply one first (Exit, then Apply a DaemonSet manifest).")
		v.c = nil
		v.drawAll()
		v.title.Call("focus")
		return "no DaemonSet"
	}
	v.dsSel.Set("value", key)
	v.fillForm(key, true)
	msg := v.start()
	v.title.Call("focus")
	return msg
}

// fillForm prefills the form for DaemonSet key: its containers, the next
// tag of the chosen container's image, and (when newDS) its current
// maxUnavailable and maxSurge (1 and 0 when it is not RollingUpdate).
func (v *compareView) fillForm(key string, newDS bool) {
	ns, name, _ := strings.Cut(key, "/")
	spec, ok := v.a.rec.Live().DaemonSetSpec(ns, name)
	if !ok {
		return
	}
	ctrs := spec.Containers
	if newDS {
		clear(v.ctrSel)
		for _, c := range ctrs {
			o := textEl("option", "", c.Name)
			o.Set("value", c.Name)
			v.ctrSel.Call("appendChild", o)
		}
		mu, ms := "1", "0"
		if spec.MaxUnavailable != "" {
			mu = spec.MaxUnavailable
		}
		if spec.MaxSurge != "" {
			ms = spec.MaxSurge
		}
		v.mu.Set("value", mu)
		v.ms.Set("value", ms)
	}
	ctr := v.ctrSel.Get("value").String()
	for _, c := range ctrs {
		if c.Name == ctr {
			v.image.Set("value", nextTag(c.Image))
		}
	}
}

// start builds the comparison from the form; "" or the error shown.
func (v *compareView) start() string {
	key := v.dsSel.Get("value").String()
	ns, name, _ := strings.Cut(key, "/")
	ctr := strings.TrimSpace(v.ctrSel.Get("value").String())
	img := strings.TrimSpace(v.image.Get("value").String())
	if name == "" || ctr == "" || img == "" {
		return v.showError("Choose a DaemonSet, a container and the new image.")
	}
	rec := v.a.rec
	t0 := nowMs()
	var strategies [2]engine.Strategy
	if v.surge() {
		strategies = engine.SurgeStrategies
	}
	v.past, v.pastSims = false, [2]*engine.Simulation{}
	v.root.Get("classList").Call("remove", "past")
	if v.liveBtn.Truthy() {
		v.liveBtn.Set("disabled", true)
	}
	c, err := engine.NewComparison(engine.CompareOptions{
		Strategies:     strategies,
		Options:        rec.Options(),
		Base:           rec.Inputs(),
		Namespace:      ns,
		Name:           name,
		MaxUnavailable: strings.TrimSpace(v.mu.Get("value").String()),
		MaxSurge:       strings.TrimSpace(v.ms.Get("value").String()),
		Change:         engine.Input{Kind: engine.InputRun, Line: fmt.Sprintf("kubectl set image daemonset/%s %s=%s -n %s", name, ctr, img, ns)},
	})
	if err != nil {
		v.c = nil
		v.drawAll()
		return v.showError(err.Error())
	}
	global.Get("console").Call("debug", fmt.Sprintf("compare: built both sides in %.0f ms", nowMs()-t0))
	v.c, v.ns, v.name = c, ns, name
	v.errEl.Set("hidden", true)
	for _, s := range v.sides {
		s.selected, s.lastRV, s.sn, s.snFor = "", -1, nil, nil
		s.act.Set("hidden", true)
		s.out.Set("textContent", "")
		s.root.Call("setAttribute", "aria-label", s.label()+" side")
		s.bar.Call("setAttribute", "aria-label", s.label()+": pods updated")
		s.out.Call("setAttribute", "aria-label", s.label()+" side: kubectl output")
	}
	v.root.Get("dataset").Set("ds", key)
	v.drawAll()
	return ""
}

func (v *compareView) showError(msg string) string {
	v.errEl.Set("textContent", msg)
	v.errEl.Set("hidden", false)
	return msg
}

// exit closes the compare view; the main cluster is as it was.
func (v *compareView) exit() {
	if !v.on {
		return
	}
	v.on = false
	v.c = nil
	v.root.Set("hidden", true)
	v.layout.Set("hidden", false)
	document.Get("documentElement").Get("classList").Call("remove", "comparing")
	b := byID("compare-open")
	if !b.IsNull() {
		b.Call("setAttribute", "aria-expanded", "false")
	}
	v.a.view.lastClock = "" // the clock shows the main cluster again
	v.a.view.render(true)
	v.a.setPlaying(v.wasPlaying)
	if !b.IsNull() {
		b.Call("focus")
	}
}

// advance moves both sides on by d (from live: it leaves the past).
func (v *compareView) advance(d time.Duration) {
	if v.c != nil && d > 0 {
		v.toLive()
		v.c.Advance(d)
	}
}

// deletePod runs `kubectl delete pod NAME` on cs's side (it waits for the
// pod to go, as kubectl does; the other side is advanced to the same time).
func (v *compareView) deletePod(cs *compareSide) {
	if v.c == nil || cs.selected == "" || v.past {
		return
	}
	line := fmt.Sprintf("kubectl delete pod %s -n %s", cs.selected, v.ns)
	out := v.c.Run(cs.side, line)
	text := "$ " + line + "\n" + out.Stdout + out.Stderr
	cs.out.Set("textContent", text)
	cs.choose("")
	v.drawAll()
}

// frame draws the comparison (once per animation frame while open).
func (v *compareView) frame() {
	if !v.on {
		return
	}
	v.drawAll()
}

func (v *compareView) drawAll() {
	el := time.Duration(0)
	if v.c != nil {
		el = v.c.Elapsed()
	}
	v.drawScrub(el)
	if v.past {
		el = v.pastAt
	}
	c := formatElapsed(el)
	if c != v.lastClock {
		v.lastClock = c
		v.clock.Set("textContent", c)
	}
	// The top bar's clock shows the comparison's time while it is open
	// (the main view's render puts the main cluster's back; exit redraws it).
	if v.a.view.lastClock != c {
		v.a.view.lastClock = c
		v.a.view.clock.Set("textContent", c)
	}
	for _, s := range v.sides {
		v.drawSide(s)
	}
}

// drawScrub sets the scrubber's span to the comparison's (0 to live) and
// its knob to the time shown.
func (v *compareView) drawScrub(live time.Duration) {
	if !v.scrub.Truthy() {
		return
	}
	// from the change (before it both sides are the learner's cluster)
	// to live
	from := time.Duration(0)
	if v.c != nil {
		from = v.c.ChangeAt
	}
	if lo := strconv.FormatFloat(from.Seconds(), 'f', 1, 64); v.scrub.Get("min").String() != lo {
		v.scrub.Set("min", lo)
	}
	max := strconv.FormatFloat(live.Seconds(), 'f', 1, 64)
	if v.scrub.Get("max").String() != max {
		v.scrub.Set("max", max)
	}
	at, label := live, "live"
	if v.past {
		at, label = v.pastAt, formatElapsed(v.pastAt)+" (past)"
	}
	if val := strconv.FormatFloat(at.Seconds(), 'f', 1, 64); v.scrub.Get("value").String() != val && !document.Get("activeElement").Equal(v.scrub) {
		v.scrub.Set("value", val)
	}
	if v.scrubAt.Get("textContent").String() != label {
		v.scrubAt.Set("textContent", label)
	}
	if off := v.c == nil; v.scrub.Get("disabled").Bool() != off {
		v.scrub.Set("disabled", off)
	}
}

// drawSide redraws one side when its store changed.
func (v *compareView) drawSide(cs *compareSide) {
	if v.c == nil {
		clear(cs.nodes)
		cs.head.Set("textContent", cs.label())
		cs.msg.Set("textContent", "")
		cs.nums.Set("textContent", "")
		cs.lastRV = -1
		return
	}
	sim := v.shown(cs.side)
	rv := sim.ResourceVersion()
	if rv == cs.lastRV && sim == cs.snFor {
		return
	}
	cs.lastRV = rv
	if cs.snFor != sim {
		// a new comparison: start the side's drawing over
		cs.snFor, cs.sn = sim, sim.NewSnapshotter()
		cs.forgetCards()
		clear(cs.nodes)
	}
	snap := cs.sn.Snapshot()
	var d *engine.DaemonSetView
	for i := range snap.DaemonSets {
		if snap.DaemonSets[i].Namespace == v.ns && snap.DaemonSets[i].Name == v.name {
			d = &snap.DaemonSets[i]
		}
	}
	pr := engine.ProgressOf(sim, v.ns, v.name)
	head := cs.label()
	if d != nil {
		head = d.Strategy
	}
	if d != nil && d.Strategy == "RollingUpdate" {
		head += fmt.Sprintf(" · maxUnavailable %s · maxSurge %s", orDash(d.MaxUnavailable), orDash(d.MaxSurge))
		if v.c.Strategies[0].Type == v.c.Strategies[1].Type {
			if ms := v.c.Strategies[cs.side].MaxSurge; ms == "" || strings.Trim(ms, "0%") == "" {
				head += " — stops a pod, then starts its replacement"
			} else {
				head += " — starts the replacement beside the old pod, then stops it"
			}
		}
	}
	if d != nil && d.Strategy != "RollingUpdate" {
		head += " · pods change only when you delete them"
	}
	cs.head.Set("textContent", head)
	pct := func(n int32) string {
		if pr.Desired <= 0 {
			return "0%"
		}
		return strconv.FormatFloat(100*float64(min(n, pr.Desired))/float64(pr.Desired), 'f', 2, 64) + "%"
	}
	cs.upd.Get("style").Set("width", pct(pr.Updated))
	cs.avl.Get("style").Set("width", pct(pr.Available))
	cls := "cmp-upd"
	if d != nil {
		cls += " " + revClass(d.UpdateRevision)
	}
	cs.upd.Set("className", cls)
	cs.bar.Call("setAttribute", "aria-valuemax", strconv.Itoa(int(pr.Desired)))
	cs.bar.Call("setAttribute", "aria-valuenow", strconv.Itoa(int(pr.Updated)))
	cs.bar.Call("setAttribute", "aria-valuetext", fmt.Sprintf("%d of %d pods updated, %d available", pr.Updated, pr.Desired, pr.Available))
	ds := cs.root.Get("dataset")
	ds.Set("desired", pr.Desired)
	ds.Set("updated", pr.Updated)
	ds.Set("available", pr.Available)
	ds.Set("done", strconv.FormatBool(pr.Done))
	cs.nums.Set("textContent", fmt.Sprintf("updated %d/%d · available %d/%d", pr.Updated, pr.Desired, pr.Available, pr.Desired))
	msg := ""
	if d != nil {
		msg = d.RolloutMessage
		if d.Strategy != "RollingUpdate" {
			msg = fmt.Sprintf("%d of %d pods on the new revision. kubectl rollout status says: %s", pr.Updated, pr.Desired, d.RolloutMessage)
		}
	}
	cs.msg.Set("textContent", msg)
	cs.msg.Get("classList").Call("toggle", "done", pr.Done && d != nil && d.Strategy == "RollingUpdate")

	updRev := int64(0)
	if d != nil {
		updRev = d.UpdateRevision
	}
	if !compactSide(snap) {
		v.drawCards(cs, sim, snap, updRev)
		return
	}
	cs.forgetCards()
	// Above tileThreshold nodes, as the main view, each node is a compact
	// tile (render.go tileState, coloured by revision).
	if nodesCls := "cmp-nodes nodes compact"; nodesCls != cs.nodes.Get("className").String() {
		cs.nodes.Set("className", nodesCls)
	}
	frag := document.Call("createDocumentFragment")
	shown := 0
	for _, sn := range v.sideNodes(snap) {
		shown++
		frag.Call("appendChild", v.tile(cs, sn.node, sn.pods, sn.pinned, updRev))
	}
	if shown == 0 {
		frag.Call("appendChild", textEl("p", "hint", "No pod of this DaemonSet on any node."))
	}
	clear(cs.nodes)
	cs.nodes.Call("appendChild", frag)
}

// sideNode is a node of a side with the compared DaemonSet's pods on it:
// first the pinned ones not bound yet (pinned of them), then the bound.
type sideNode struct {
	node   *engine.NodeView
	pods   []engine.PodView
	pinned int
}

// sideNodes lists the nodes of snap that have a pod of the compared
// DaemonSet, in natural order (w-1, w-2, ... w-10).
func (v *compareView) sideNodes(snap engine.Snapshot) []sideNode {
	pinned := map[string][]engine.PodView{}
	for _, p := range snap.Pending {
		if p.Target != "" && p.Owner == v.name && p.Namespace == v.ns {
			pinned[p.Target] = append(pinned[p.Target], p)
		}
	}
	order := make([]int, len(snap.Nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return naturalCompare(snap.Nodes[a].Name, snap.Nodes[b].Name) })
	var out []sideNode
	for _, i := range order {
		n := &snap.Nodes[i]
		pods := pinned[n.Name]
		for _, p := range n.Pods {
			if p.Owner == v.name && p.Namespace == v.ns {
				pods = append(pods, p)
			}
		}
		if len(pods) > 0 {
			out = append(out, sideNode{node: n, pods: pods, pinned: len(pinned[n.Name])})
		}
	}
	return out
}

// compactSide: above tileThreshold nodes a side draws tiles, as the main
// view.
func compactSide(snap engine.Snapshot) bool { return len(snap.Nodes) > tileThreshold }

// forgetCards drops the kept cards and chips (the side draws tiles, or
// starts over).
func (cs *compareSide) forgetCards() {
	cs.cards, cs.chips, cs.have = map[string]js.Value{}, map[string]js.Value{}, false
}

// drawCards draws the side's nodes as cards with the compared DaemonSet's
// pods, keeping each card and chip element across redraws, and plays the
// scene's transitions on them through the page's stage (created pods pop
// in, deleted ones fade, evicted ones are pushed off, with captions), so
// both sides animate on their one clock.
func (v *compareView) drawCards(cs *compareSide, sim *engine.Simulation, snap engine.Snapshot, updRev int64) {
	if cs.nodes.Get("className").String() != "cmp-nodes" {
		cs.nodes.Set("className", "cmp-nodes")
	}
	seenCards, seenChips := map[string]bool{}, map[string]bool{}
	var prev js.Value
	place := func(parent, e js.Value) {
		// e goes right after prev in parent (first when prev is unset)
		want := parent.Get("firstElementChild")
		if prev.Truthy() {
			want = prev.Get("nextElementSibling")
		}
		if !want.Equal(e) {
			if prev.Truthy() {
				prev.Call("after", e)
			} else {
				parent.Call("prepend", e)
			}
		}
		prev = e
	}
	shown, more := 0, false
	for _, sn := range v.sideNodes(snap) {
		n, pods := sn.node, sn.pods
		if shown == maxCompareNodes {
			more = true
			break
		}
		shown++
		card := cs.cards[n.Name]
		if !card.Truthy() {
			card = el("div", "cmp-node")
			card.Get("dataset").Set("node", n.Name)
			card.Call("appendChild", textEl("span", "cmp-node-name", n.Name))
			cs.cards[n.Name] = card
		}
		seenCards[n.Name] = true
		place(cs.nodes, card)
		cardPrev := card.Get("firstElementChild") // the name
		for _, p := range pods {
			fresh := v.chip(cs, p, updRev)
			c := cs.chips[p.Name]
			if !c.Truthy() {
				c = fresh
				c.Get("dataset").Set("text", c.Get("textContent"))
				cs.chips[p.Name] = c
			} else {
				updateChip(c, fresh)
			}
			seenChips[p.Name] = true
			if !cardPrev.Get("nextElementSibling").Equal(c) {
				cardPrev.Call("after", c)
			}
			cardPrev = c
		}
	}
	for name, c := range cs.chips {
		if !seenChips[name] {
			// it fades, no longer one of the side's pods
			c.Get("classList").Call("remove", "cmp-pod")
			c.Get("classList").Call("add", "gone")
			c.Call("removeAttribute", "data-pod")
			v.a.view.leaving = append(v.a.view.leaving, leavingChip{el: c, deadline: nowMs() + leaveMillis})
			delete(cs.chips, name)
		}
	}
	for name, card := range cs.cards {
		if !seenCards[name] {
			remove(card)
			delete(cs.cards, name)
		}
	}
	for _, e := range jsArray(cs.nodes.Call("querySelectorAll", ":scope > p.hint")) {
		remove(e)
	}
	if shown == 0 {
		cs.nodes.Call("appendChild", textEl("p", "hint", "No pod of this DaemonSet on any node."))
	} else if more {
		cs.nodes.Call("appendChild", textEl("p", "hint", "… more nodes (the numbers above count them all)"))
	}
	sc := sim.Scene(snap)
	if cs.have {
		var trs []engine.Transition
		for _, t := range engine.DiffScenes(cs.prev, sc, sim.Decisions(cs.seq)) {
			if t.Pod != "" && t.DaemonSet == v.ns+"/"+v.name {
				trs = append(trs, t)
			}
		}
		v.a.view.stage.enqueueOn(trs, func(t engine.Transition) js.Value {
			_, name, _ := strings.Cut(t.Pod, "/")
			return cs.chips[name]
		})
	}
	cs.prev, cs.seq, cs.have = sc, sim.LastDecisionSeq(), true
}

// updateChip gives chip c what fresh (the same pod, drawn anew) shows,
// keeping the element (and any animation on it).
func updateChip(c, fresh js.Value) {
	if c.Get("className").String() != fresh.Get("className").String() {
		c.Set("className", fresh.Get("className"))
	}
	// the content only when the pod's own changed (a caption stays); the
	// nodes move over (an HTML copy would be inline style, which the CSP
	// refuses)
	if h := fresh.Get("textContent").String(); c.Get("dataset").Get("text").String() != h {
		var cap js.Value
		if old := c.Call("querySelector", ":scope > .caption"); old.Truthy() {
			cap = old
		}
		kids := jsArray(fresh.Get("childNodes"))
		args := make([]any, len(kids))
		for i, k := range kids {
			args[i] = k
		}
		c.Call("replaceChildren", args...)
		if cap.Truthy() {
			c.Call("appendChild", cap)
		}
		c.Get("dataset").Set("text", h)
	}
	for _, a := range []string{"title", "aria-label", "aria-pressed"} {
		c.Call("setAttribute", a, fresh.Call("getAttribute", a))
	}
	cd, fd := c.Get("dataset"), fresh.Get("dataset")
	for _, k := range []string{"pod", "rev", "image", "status", "old"} {
		cd.Set(k, fd.Get(k))
	}
}

// tile is node n drawn as a compact tile for its pods of the compared
// DaemonSet (pods, the first pinned of them not bound yet): the main
// view's tileState over those pods and the DaemonSet's verdict, its
// revision's colour (round while a pod is outdated), and data-pod, the pod
// a click selects (an outdated one first, for Delete pod).
func (v *compareView) tile(cs *compareSide, n *engine.NodeView, pods []engine.PodView, pinned int, updRev int64) js.Value {
	nv := *n
	nv.Pods = pods[pinned:]
	nv.Daemons = nil
	for _, d := range n.Daemons {
		if d.DaemonSet == v.ns+"/"+v.name {
			nv.Daemons = append(nv.Daemons, d)
		}
	}
	st, title := tileState(&nv, pinned)
	cls := "tile t-" + tileNames[st]
	pick := pods[0]
	var rev int64
	old := false
	for _, p := range pods {
		if p.Terminating || p.RevisionNumber == 0 {
			continue
		}
		if p.RevisionNumber != updRev {
			if !old || p.RevisionNumber < rev {
				rev, old, pick = p.RevisionNumber, true, p
			}
		} else if !old {
			rev, pick = p.RevisionNumber, p
		}
	}
	if rev == 0 { // only terminating pods: theirs
		for _, p := range pods {
			if p.RevisionNumber > 0 {
				rev, old, pick = p.RevisionNumber, p.RevisionNumber != updRev, p
				break
			}
		}
	}
	if rev > 0 {
		cls += " " + revClass(rev)
		state := "current"
		if old {
			cls += " rv-old"
			state = "outdated"
		}
		title = strings.Replace(title, "\n(click for every check)", fmt.Sprintf(" · revision %d (%s)", rev, state), 1)
	} else {
		title = strings.Replace(title, "\n(click for every check)", "", 1)
	}
	if pick.Name == cs.selected {
		cls += " selected"
	}
	t := el("div", cls)
	dsx := t.Get("dataset")
	dsx.Set("node", n.Name)
	dsx.Set("pod", pick.Name)
	dsx.Set("rev", strconv.FormatInt(rev, 10))
	t.Set("title", title+"\npod "+pick.Name+" (click to delete it)")
	return t
}

// naturalCompare orders names as a person would: runs of digits by their
// value, so "w-2" comes before "w-10"; otherwise byte by byte.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			i, j := digits(a), digits(b)
			x, y := strings.TrimLeft(a[:i], "0"), strings.TrimLeft(b[:j], "0")
			if len(x) != len(y) {
				return len(x) - len(y)
			}
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
			a, b = a[i:], b[j:]
			continue
		}
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		a, b = a[1:], b[1:]
	}
	return len(a) - len(b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits is the length of the run of digits s starts with.
func digits(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// chip is one pod as a button coloured by phase and revision.
func (v *compareView) chip(cs *compareSide, p engine.PodView, updRev int64) js.Value {
	b := el("button", "")
	b.Set("type", "button")
	cls := "pod still cmp-pod phase-" + phaseClass(p)
	old := p.RevisionNumber != updRev
	tag := "r?"
	if p.RevisionNumber > 0 {
		tag = "r" + strconv.FormatInt(p.RevisionNumber, 10)
		cls += " has-rev " + revClass(p.RevisionNumber)
	}
	if old {
		cls += " rev-old"
	}
	if p.Name == cs.selected {
		cls += " selected"
	}
	b.Set("className", cls)
	dsx := b.Get("dataset")
	dsx.Set("pod", p.Name)
	dsx.Set("rev", strconv.FormatInt(p.RevisionNumber, 10))
	dsx.Set("image", p.Image)
	dsx.Set("status", p.Status)
	dsx.Set("old", strconv.FormatBool(old))
	rt := textEl("span", "rev-tag "+revClass(p.RevisionNumber), tag)
	if old {
		rt.Get("classList").Call("add", "old")
	}
	appendAll(b, midText("pod-name", p.Name, podNameTail(p.Name)), rt, textEl("span", "pod-status", p.Status+" · "+p.Ready), midText("pod-image", p.Image, imageTail(p.Image)))
	state := "current revision"
	if old {
		state = "outdated revision"
	}
	b.Call("setAttribute", "aria-label", fmt.Sprintf("pod %s, %s, image %s, revision %d (%s): select to delete it", p.Name, p.Status, p.Image, p.RevisionNumber, state))
	b.Call("setAttribute", "aria-pressed", strconv.FormatBool(p.Name == cs.selected))
	b.Set("title", fmt.Sprintf("%s\n%s\nimage %s\nrevision %d (%s)", p.Name, p.Status, p.Image, p.RevisionNumber, state))
	return b
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// nextTag suggests the image after ref: the last number in its tag plus
// one ("nginx:1.23.3" -> "nginx:1.23.4", "fluentd:v2.5.2" -> "fluentd:v2.5.3"),
// a tag without a number gets "-2", no tag (or a digest) ":2".
func nextTag(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		return ref[:i] + ":2"
	}
	slash := strings.LastIndex(ref, "/")
	colon := strings.LastIndex(ref, ":")
	if colon <= slash {
		return ref + ":2"
	}
	tag := ref[colon+1:]
	end := len(tag)
	for end > 0 && (tag[end-1] < '0' || tag[end-1] > '9') {
		end--
	}
	if end == 0 {
		return ref + "-2"
	}
	start := end
	for start > 0 && tag[start-1] >= '0' && tag[start-1] <= '9' {
		start--
	}
	n, err := strconv.Atoi(tag[start:end])
	if err != nil {
		return ref + "-2"
	}
	return ref[:colon+1] + tag[:start] + strconv.Itoa(n+1) + tag[end:]
}

// compareHooks adds the compare view's calls to window.dsplay.
func (v *compareView) hooks(o js.Value) {
	a := v.a
	o.Set("compare", a.hook("dsplay.compare", func(args []js.Value) any {
		key := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			key = args[0].String()
		}
		return v.open(key)
	}))
	o.Set("compareExit", a.hook("dsplay.compareExit", func([]js.Value) any { v.exit(); return nil }))
	o.Set("compareState", a.hook("dsplay.compareState", func([]js.Value) any {
		if v.c == nil {
			return nil
		}
		side := func(s engine.Side) any {
			p := v.c.Progress(s)
			return map[string]any{"desired": p.Desired, "updated": p.Updated, "available": p.Available, "done": p.Done}
		}
		st := map[string]any{"elapsed": v.c.Elapsed().Seconds(), "rollingUpdate": side(engine.SideRollingUpdate), "onDelete": side(engine.SideOnDelete),
			"labels": []any{v.c.Label(engine.SideRollingUpdate), v.c.Label(engine.SideOnDelete)}, "past": v.past}
		if v.past {
			st["at"] = v.pastAt.Seconds()
		}
		return st
	}))
}
