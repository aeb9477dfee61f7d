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
)

// The stage: the node cards and pod chips animated by the engine's scene
// transitions (engine.Scene, engine.DiffScenes). Every change the engine
// computes between two drawn scenes becomes one job: a pod flying from
// its DaemonSet to its node, the scheduler's bind, the kubelet's pull
// (a progress bar over the virtual pull time), Running, Ready, a
// terminating pod fading through its grace period with a countdown, an
// evicted pod pushed off its node, a taint badge landing, a node joining,
// failing or being cordoned; each job shows its caption on the object.
//
// Jobs play one after another, stageStepMs of wall time each at 1× (less
// at higher speeds, more in slow motion), and virtual time holds while
// they play (app.frame asks holding), so a create, a bind and an eviction
// that happen at one virtual instant are still watched one by one.
// prefers-reduced-motion: no motion and no hold; every state and caption
// still shows.

// stageStepMs is the wall time one transition plays at 1×.
const stageStepMs = 520

// stageOneByOne is the largest batch of transitions played strictly one
// after another; a larger one (many nodes) is staggered over stageBatchMs.
const stageOneByOne = 16

// stageBatchMs is the wall time a large batch's starts are spread over.
const stageBatchMs = 1200

// stageMaxJobs is the largest batch that is animated; a larger one (a big
// paste) is drawn at once.
const stageMaxJobs = 240

// maxBudgetSlots is the most slots a budget strip draws (the count says
// how many more).
const maxBudgetSlots = 24

// captionMs is the least wall time a caption stays on its object.
const captionMs = 2600

type stage struct {
	v *view
	// prev is the scene last drawn, of the Simulation sim, up to the
	// decision seq.
	prev engine.Scene
	sim  *engine.Simulation
	seq  int64
	have bool

	jobs []stageJob
	// busyUntil is the wall time (performance.now() ms) the last queued
	// job ends: until then the clock holds.
	busyUntil float64
	reduced   bool

	// byKey is the view's chips by pod key (indexChips).
	byKey map[string]*podChip
	// tickedAt is the virtual time tick last drew (-1: draw at the next).
	tickedAt time.Duration
	// pods and nodes are the live marks of the scene, by pod key and node
	// name, updated as the clock moves (countdowns, pull progress).
	pods  map[string]*podMarks
	nodes map[string]*nodeMarks
	// budgets are the update budget strips, by DaemonSet key.
	budgets map[string]*budgetStrip

	// history is the open pod history popover (stage.showHistory).
	history js.Value
	// played counts the transitions animated since the page opened
	// (dsplay.stage().played, for tests).
	played int
	// enqueued counts the transitions queued since the page opened.
	enqueued int
	last     []engine.Transition
	// peek points at transitions that play outside the window (stagepeek.go).
	peek *stagePeek
	// tol is the taint ↔ toleration lines shown (stagetol.go).
	tol tolLines
	// jumping: the page skips to an end (a lesson step's "Skip to end"):
	// what changes meanwhile is drawn at once, nothing queues.
	jumping bool
}

type stageJob struct {
	tr engine.Transition
	at float64 // wall ms it starts
	d  float64 // its duration
	// find, when set, is the element the transition plays on (the compare
	// view's chips); nil: the main view's chips and cards.
	find func(engine.Transition) js.Value
}

type podMarks struct {
	p     engine.ScenePod
	total time.Duration // the countdown's length when first seen
	el    js.Value      // the chip
	count js.Value      // .pod-count
	bar   js.Value      // .pod-pull > i
	mark  js.Value      // .pod-mark: "outdated", "kept"
	// text, left and pull are what the count, the chip's --left and the
	// bar show, so a frame writes only what changed
	text, left, pull string
}

type nodeMarks struct {
	n    engine.SceneNode
	line js.Value // .node-count
	text string
}

type budgetStrip struct {
	el, label, slots js.Value
	key              string
}

func newStage(v *view) *stage {
	st := &stage{v: v, pods: map[string]*podMarks{}, nodes: map[string]*nodeMarks{}, budgets: map[string]*budgetStrip{}, byKey: map[string]*podChip{}, history: js.Undefined(), tickedAt: -1}
	if mq := global.Call("matchMedia", "(prefers-reduced-motion: reduce)"); mq.Truthy() {
		st.reduced = mq.Get("matches").Bool()
		// the setting may change while the page is open
		f := js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) > 0 {
				st.reduced = args[0].Get("matches").Bool()
			}
			return nil
		})
		v.a.funcs = append(v.a.funcs, f) // released at shutdown
		mq.Call("addEventListener", "change", f)
	}
	st.peek = newStagePeek(st)
	return st
}

// holding reports whether queued transitions are still playing, so
// virtual time should wait for them.
func (st *stage) holding() bool {
	return !st.reduced && (len(st.jobs) > 0 || nowMs() < st.busyUntil)
}

// stepMs is one transition's wall time at the page's speed.
func (st *stage) stepMs() float64 {
	sp := st.v.a.speed
	if sp <= 0 {
		sp = 1
	}
	return min(max(stageStepMs/sp, 40), 2400)
}

// reset forgets the drawn scene: the next update draws without motion (a
// seek on the timeline, a new cluster, the compact view).
func (st *stage) reset() {
	st.have = false
	st.jobs = st.jobs[:0]
	st.busyUntil = 0
	// chips waiting for a job that will not play show at once
	for _, c := range st.v.chips {
		c.setStage(stripStage(c.stageCls, " st-wait", " st-unbound"))
	}
	for _, c := range jsArray(document.Call("querySelectorAll", "#nodes .caption, #rollout .caption")) {
		remove(c)
	}
}

// jump drops what is queued and draws what changes from now on at once,
// until on is false (a lesson step's Skip to end, while it plays on).
func (st *stage) jump(on bool) {
	st.jumping = on
	if on {
		st.reset()
	}
}

// update takes the scene of sim at snap (just drawn by the view) and
// queues the transitions from the previous one.
func (st *stage) update(sim *engine.Simulation, snap engine.Snapshot) {
	v := st.v
	if v.compact {
		st.reset()
		st.clearMarks()
		return
	}
	st.indexChips()
	sc := sim.Scene(snap)
	var trs []engine.Transition
	if st.have && st.sim == sim && !v.still && !st.jumping && sc.Elapsed >= st.prev.Elapsed {
		trs = engine.DiffScenes(st.prev, sc, sim.Decisions(st.seq))
	} else {
		st.reset()
	}
	st.prev, st.sim, st.seq, st.have = sc, sim, sim.LastDecisionSeq(), true
	st.mark(sc)
	st.drawBudgets(sc)
	st.redrawTolerations()
	if len(trs) > 0 {
		st.last = trs
		st.enqueue(trs)
	}
}

// enqueue schedules trs one after another from the end of the queue.
func (st *stage) enqueue(trs []engine.Transition) { st.enqueueOn(trs, nil) }

// enqueueOn is enqueue for transitions that play on the elements find
// returns (nil: the main view's).
func (st *stage) enqueueOn(trs []engine.Transition, find func(engine.Transition) js.Value) {
	if len(trs) == 0 {
		return
	}
	st.enqueued += len(trs)
	now := nowMs()
	start := max(now, st.busyUntil)
	if st.reduced || len(trs) > stageMaxJobs || st.v.a.speed >= 10 {
		for _, t := range trs {
			if find == nil {
				st.caption(t)
			} else if e := find(t); e.Truthy() {
				st.captionOn(e, t)
			}
		}
		return
	}
	// What a newer batch moves again is behind: its queued jobs go (a
	// waiting chip shows at once), so the stage never replays a stale
	// caption.
	touched := map[string]bool{}
	for _, t := range trs {
		touched[t.Object()] = true
	}
	keep := st.jobs[:0]
	for _, j := range st.jobs {
		if touched[j.tr.Object()] && (j.find == nil) == (find == nil) {
			if c := st.chip(j.tr.Pod); c != nil && j.find == nil && (j.tr.Kind == engine.TransPodCreate || j.tr.Kind == engine.TransPodBind) {
				c.setStage(stripStage(c.stageCls, " st-wait", " st-unbound"))
			}
			continue
		}
		keep = append(keep, j)
	}
	st.jobs = keep
	if len(st.jobs) > 0 {
		start = max(now, st.jobs[len(st.jobs)-1].at+st.jobs[len(st.jobs)-1].d)
	} else {
		start = now
	}
	// one by one; a large batch (many nodes) plays together, briefly, so
	// the clock keeps its speed
	d := st.stepMs()
	gap := d
	if len(trs) > stageOneByOne {
		gap = min(d, stageBatchMs/float64(len(trs)))
	}
	for i, t := range trs {
		if t.Kind == engine.TransPodCreate && find == nil {
			// hidden until its turn: it appears at its DaemonSet
			if c := st.chip(t.Pod); c != nil {
				c.setStage(c.stageCls + " st-wait")
			}
		}
		st.jobs = append(st.jobs, stageJob{tr: t, at: start + float64(i)*gap, d: d, find: find})
	}
	st.busyUntil = start + float64(len(trs)-1)*gap + d
}

// frame starts the jobs that are due (view.render moves the countdowns
// and pull bars; view.sweep drops the captions whose time is up).
func (st *stage) frame() {
	now := nowMs()
	st.peek.frame(now)
	n := 0
	for _, j := range st.jobs {
		if j.at > now {
			break
		}
		st.play(j)
		n++
	}
	if n > 0 {
		st.jobs = append(st.jobs[:0], st.jobs[n:]...)
	}
}

// queued reports whether a transition of kind on pod waits in the queue.
func (st *stage) queued(kind, pod string) bool {
	for _, j := range st.jobs {
		if j.find == nil && j.tr.Kind == kind && j.tr.Pod == pod {
			return true
		}
	}
	return false
}

// chip is the pod chip of key ("namespace/name"), nil if none is drawn.
func (st *stage) chip(key string) *podChip { return st.byKey[key] }

// indexChips maps the view's chips by pod key (after each redraw).
func (st *stage) indexChips() {
	st.byKey = make(map[string]*podChip, len(st.v.chips))
	for _, c := range st.v.chips {
		st.byKey[c.key] = c
	}
}

// play runs one transition's animation and caption.
func (st *stage) play(j stageJob) {
	t := j.tr
	st.played++
	d := j.d * 0.95
	if j.find != nil {
		if e := j.find(t); e.Truthy() && e.Get("isConnected").Bool() {
			animatePod(e, t.Kind, d)
			st.captionOn(e, t)
		}
		return
	}
	// what plays comes into the node box's view
	if c := st.chip(t.Pod); t.Pod != "" && c != nil {
		reveal(st.v.nodesBox, c.el)
	} else if card := st.v.cards[t.Node]; t.Pod == "" && card != nil {
		reveal(st.v.nodesBox, card.root)
	}
	switch t.Kind {
	case engine.TransPodCreate:
		c := st.chip(t.Pod)
		if c == nil {
			break
		}
		cls := strings.ReplaceAll(c.stageCls, " st-wait", "")
		if st.queued(engine.TransPodBind, t.Pod) {
			cls += " st-unbound" // until the scheduler's bind plays
		}
		c.setStage(cls)
		from := st.dsAnchor(t.DaemonSet)
		if from.Truthy() {
			flyFrom(c.el, from, d)
		} else {
			animate(c.el, []any{map[string]any{"opacity": 0, "transform": "scale(0.4)"}, map[string]any{"opacity": 1, "transform": "none"}}, d)
		}
	case engine.TransPodBind:
		if c := st.chip(t.Pod); c != nil {
			c.setStage(strings.ReplaceAll(strings.ReplaceAll(c.stageCls, " st-unbound", ""), " st-wait", ""))
			animate(c.el, bindKeys, d)
		}
	case engine.TransPodPull, engine.TransPodPulled, engine.TransPodStart, engine.TransPodReady, engine.TransPodStall, engine.TransPodFinish, engine.TransPodKept, engine.TransPodUnkept, engine.TransPodOutdated:
		if c := st.chip(t.Pod); c != nil {
			animate(c.el, []any{map[string]any{"transform": "none"}, map[string]any{"transform": "scale(1.045)", "offset": 0.35}, map[string]any{"transform": "none"}}, d)
		}
	case engine.TransPodTerminate:
		if c := st.chip(t.Pod); c != nil {
			animate(c.el, deleteKeys, d)
		}
	case engine.TransPodEvict:
		if c := st.chip(t.Pod); c != nil {
			c.setStage(c.stageCls + " st-evicted")
			animate(c.el, []any{map[string]any{"transform": "none"}, map[string]any{"transform": "translateX(26px) rotate(2deg)", "offset": 0.6}, map[string]any{"transform": "translateX(14px)"}}, d)
		}
	case engine.TransNodeJoin:
		if c := st.v.cards[t.Node]; c != nil {
			animate(c.root, []any{map[string]any{"opacity": 0, "transform": "translateY(-18px) scale(0.96)"}, map[string]any{"opacity": 1, "transform": "none"}}, d)
		}
	case engine.TransTaintAdd:
		if c := st.v.cards[t.Node]; c != nil {
			if b := taintBadge(c, t.Taint); b.Truthy() {
				animate(b, []any{map[string]any{"transform": "translateY(-14px) scale(1.6)", "opacity": 0}, map[string]any{"transform": "scale(1.15)", "opacity": 1, "offset": 0.6}, map[string]any{"transform": "none"}}, d)
			}
		}
	case engine.TransNodeFail, engine.TransNodeUnknown, engine.TransNodeRecover, engine.TransNodeReady, engine.TransNodeCordon, engine.TransNodeUncordon, engine.TransTaintRemove:
		if c := st.v.cards[t.Node]; c != nil {
			animate(c.root, []any{map[string]any{"transform": "none"}, map[string]any{"transform": "scale(1.015)", "offset": 0.4}, map[string]any{"transform": "none"}}, d)
		}
	case engine.TransRevision:
		if b := st.v.rollouts[t.DaemonSet]; b != nil {
			animate(b.el, []any{map[string]any{"opacity": 0.35}, map[string]any{"opacity": 1}}, d*2)
		}
	}
	st.caption(t)
}

// caption shows t's caption on its object for a while.
func (st *stage) caption(t engine.Transition) {
	var host js.Value
	if t.Pod != "" {
		if c := st.chip(t.Pod); c != nil {
			host = c.el
		}
	} else if t.Node != "" {
		if c := st.v.cards[t.Node]; c != nil {
			host = c.root
		}
	} else if b := st.v.rollouts[t.DaemonSet]; b != nil {
		host = b.el
	}
	if host.Truthy() {
		st.captionOn(host, t)
		st.peek.played(host, t.Caption)
	}
}

// captionOn shows t's caption in host (the newest caption of an object
// replaces the one before) for a while.
func (st *stage) captionOn(host js.Value, t engine.Transition) {
	if t.Caption == "" {
		return
	}
	if old := host.Call("querySelector", ":scope > .caption"); old.Truthy() {
		remove(old)
	}
	text := t.Caption
	title := text
	if t.Cause != nil {
		title += "\n" + t.Cause.Component + " " + t.Cause.Func + ": " + t.Cause.Reason
	}
	c := textEl("span", "caption cap-"+t.Kind, text)
	c.Set("title", title)
	c.Call("setAttribute", "role", "status")
	host.Call("appendChild", c)
	ms := max(captionMs, st.stepMs()*4)
	c.Get("style").Call("setProperty", "--cap-ms", strconv.Itoa(int(ms))+"ms")
	st.v.leaving = append(st.v.leaving, leavingChip{el: c, deadline: nowMs() + ms})
}

// Keyframes of the stage's motions: transforms and opacity only, which the
// browser composites without layout or paint.
var (
	// bindKeys: the scheduler's bind lands the pod (a small settle).
	bindKeys = []any{map[string]any{"transform": "translateY(-6px) scale(1.06)"}, map[string]any{"transform": "translateY(1px) scale(0.99)", "offset": 0.6}, map[string]any{"transform": "none"}}
	// deleteKeys: a pod deleted gives a start (its content then fades
	// through its grace, by CSS, leaving its countdown and caption legible).
	deleteKeys = []any{map[string]any{"transform": "none"}, map[string]any{"transform": "scale(0.93)", "offset": 0.45}, map[string]any{"transform": "scale(0.97)"}}
)

// animatePod plays transition kind on a pod element that has no flight
// (the compare view's chips): it pops in, is bound, fades, is pushed off,
// or pulses.
func animatePod(e js.Value, kind string, ms float64) {
	switch kind {
	case engine.TransPodCreate:
		animate(e, []any{map[string]any{"opacity": 0, "transform": "scale(0.4)"}, map[string]any{"opacity": 1, "transform": "none"}}, ms)
	case engine.TransPodBind:
		animate(e, bindKeys, ms)
	case engine.TransPodTerminate:
		animate(e, deleteKeys, ms)
	case engine.TransPodEvict:
		animate(e, []any{map[string]any{"transform": "none"}, map[string]any{"transform": "translateX(26px) rotate(2deg)", "offset": 0.6}, map[string]any{"transform": "none"}}, ms)
	default:
		animate(e, []any{map[string]any{"transform": "none"}, map[string]any{"transform": "scale(1.045)", "offset": 0.35}, map[string]any{"transform": "none"}}, ms)
	}
}

// dsAnchor is the element a new pod of DaemonSet key leaves from: its row
// in the DaemonSet table.
func (st *stage) dsAnchor(key string) js.Value {
	for _, row := range jsArray(st.v.dsRows.Get("children")) {
		if k := row.Get("dataset").Get("dsKey"); k.Truthy() && k.String() == key {
			return row
		}
	}
	return js.Undefined()
}

// mark writes the scene's lasting marks on the chips and cards: outdated
// and kept badges, countdown and pull elements, a stopped kubelet, a
// cordon.
func (st *stage) mark(sc engine.Scene) {
	v := st.v
	seen := map[string]bool{}
	markPod := func(p engine.ScenePod) {
		c := st.chip(p.Key)
		if c == nil {
			return
		}
		seen[p.Key] = true
		m := st.pods[p.Key]
		if m == nil || m.count.IsUndefined() || !m.count.Get("parentNode").Equal(c.el) {
			m = &podMarks{el: c.el, count: el("span", "pod-count"), bar: el("i", ""), mark: el("span", "pod-mark")}
			pull := el("span", "pod-pull")
			pull.Call("appendChild", m.bar)
			appendAll(c.el, m.mark, pull, m.count)
			st.pods[p.Key] = m
		}
		if p.Countdown > 0 && (m.p.Ends != p.Ends || m.total == 0) {
			if m.p.CountdownOf != p.CountdownOf || m.total == 0 {
				m.total = p.Countdown
			}
		}
		if p.Countdown == 0 {
			m.total = 0
		}
		m.p = p
		mark := ""
		switch {
		case p.Kept:
			mark = "kept"
		case p.Outdated && p.Stage != engine.StageTerminating:
			mark = "outdated"
		}
		if m.mark.Get("textContent").String() != mark {
			m.mark.Set("textContent", mark)
			if mark == "kept" {
				m.mark.Set("title", "kept, would not be placed now: "+p.Why)
			} else {
				m.mark.Set("title", "runs an older revision than the DaemonSet's template")
			}
		}
		cls := stripStage(c.stageCls, " st-outdated", " st-kept", " st-pulling", " st-countdown")
		if p.Outdated {
			cls += " st-outdated"
		}
		if p.Kept {
			cls += " st-kept"
		}
		if p.Stage == engine.StagePulling {
			cls += " st-pulling"
		}
		if p.Countdown > 0 {
			cls += " st-countdown"
		}
		if p.Stage != engine.StageTerminating {
			cls = stripStage(cls, " st-evicted")
		}
		c.setStage(cls)
	}
	for _, n := range sc.Nodes {
		for _, p := range n.Pods {
			markPod(p)
		}
		c := v.cards[n.Name]
		if c == nil {
			continue
		}
		nm := st.nodes[n.Name]
		if nm == nil || !nm.line.Get("parentNode").Equal(c.root) {
			nm = &nodeMarks{line: el("p", "node-count")}
			c.root.Call("appendChild", nm.line)
			st.nodes[n.Name] = nm
		}
		nm.n = n
		cls := ""
		if n.KubeletStopped {
			cls += " st-kubelet-down"
		}
		if n.Unknown {
			cls += " st-unknown"
		}
		if n.Cordoned {
			cls += " st-cordoned"
		}
		c.setStage(cls)
	}
	for _, p := range sc.Pending {
		markPod(p)
	}
	for k := range st.pods {
		if !seen[k] {
			delete(st.pods, k)
		}
	}
	for k := range st.nodes {
		if v.cards[k] == nil {
			delete(st.nodes, k)
		}
	}
	st.tickedAt = -1
	st.tick(sc.Elapsed)
}

// tick moves the countdowns and the pull bars to virtual time now; it
// writes nothing while the clock stands still.
func (st *stage) tick(now time.Duration) {
	if now == st.tickedAt {
		return
	}
	st.tickedAt = now
	for _, m := range st.pods {
		p := m.p
		text := ""
		left := 1.0
		switch {
		case p.Ends > 0 && p.Ends > now:
			rem := p.Ends - now
			secs := int((rem + time.Second - 1) / time.Second)
			if p.CountdownOf == "grace period" {
				text = fmt.Sprintf("Terminating · %ds of grace left", secs)
			} else {
				text = fmt.Sprintf("evicted in %ds (tolerationSeconds)", secs)
			}
			if m.total > 0 {
				left = min(float64(rem)/float64(m.total), 1)
			}
		case p.Stage == engine.StageTerminating:
			text = "Terminating · stopping"
			left = 0
		}
		if text != m.text {
			m.text = text
			m.count.Set("textContent", text)
		}
		if l := strconv.FormatFloat(left, 'f', 2, 64); l != m.left {
			m.left = l
			m.el.Get("style").Call("setProperty", "--left", l)
		}
		if p.Stage == engine.StagePulling {
			f := p.Progress
			if p.PullEnds > st.prev.Elapsed && now > st.prev.Elapsed {
				// between scenes: interpolate toward the pull's end
				f += (1 - f) * float64(now-st.prev.Elapsed) / float64(p.PullEnds-st.prev.Elapsed)
			}
			if x := "scaleX(" + strconv.FormatFloat(min(f, 1), 'f', 2, 64) + ")"; x != m.pull {
				m.pull = x
				m.bar.Get("style").Set("transform", x)
			}
		}
	}
	for _, nm := range st.nodes {
		n := nm.n
		text := ""
		switch {
		case n.KubeletStopped && n.UnreachableAt > now:
			text = fmt.Sprintf("kubelet stopped · no heartbeat · Ready=Unknown and unreachable taints in %ds", int((n.UnreachableAt-now+time.Second-1)/time.Second))
		case n.KubeletStopped:
			text = "kubelet stopped · Ready=Unknown · tainted unreachable"
		case n.Cordoned:
			text = "cordoned: no new pods are scheduled here (DaemonSet pods tolerate it)"
		}
		if text != nm.text {
			nm.text = text
			nm.line.Set("textContent", text)
		}
	}
}

// drawBudgets keeps one update budget strip per RollingUpdate DaemonSet in
// its rollout block: a slot per desired node, available, unavailable
// (maxUnavailable being spent) or surge.
func (st *stage) drawBudgets(sc engine.Scene) {
	seen := map[string]bool{}
	for _, d := range sc.DaemonSets {
		b := st.v.rollouts[d.Key]
		if b == nil {
			continue
		}
		seen[d.Key] = true
		s := st.budgets[d.Key]
		if s == nil {
			s = &budgetStrip{el: el("div", "budget"), label: el("span", "budget-label"), slots: el("span", "budget-slots")}
			appendAll(s.el, s.label, s.slots)
			st.budgets[d.Key] = s
		}
		// in the block's summary line, which stays when it folds
		host := b.el.Call("querySelector", "summary.ro-head")
		if host.IsNull() {
			host = b.el
		}
		if !s.el.Get("parentNode").Equal(host) {
			host.Call("appendChild", s.el)
		}
		var k strings.Builder
		fmt.Fprintf(&k, "%s %d %d %d|", d.Strategy, d.MaxUnavailable, d.MaxSurge, d.UpdateRevision)
		for _, sl := range d.Slots {
			fmt.Fprintf(&k, "%s %s %t|", sl.Node, sl.State, sl.Updated)
		}
		if k.String() == s.key {
			continue
		}
		s.key = k.String()
		label, title := "", ""
		switch {
		case d.Strategy != "RollingUpdate":
			label = "no budget"
			title = fmt.Sprintf("%s: the controller replaces no pod; %d node(s) should run one", d.Strategy, len(d.Slots))
		default:
			label = fmt.Sprintf("%d unavailable · maxUnavailable %d", d.Unavailable, d.MaxUnavailable)
			title = fmt.Sprintf("update budget: maxUnavailable %d, %d in use (nodes without an available pod)", d.MaxUnavailable, d.Unavailable)
			if d.MaxSurge > 0 {
				surges := 0
				for _, sl := range d.Slots {
					if sl.State == engine.SlotSurge {
						surges++
					}
				}
				label += fmt.Sprintf(" · %d surging · maxSurge %d", surges, d.MaxSurge)
				title += fmt.Sprintf("; maxSurge %d, %d in use (nodes with an old and a new pod)", d.MaxSurge, surges)
			}
		}
		s.el.Set("title", title)
		steady := d.Unavailable == 0
		for _, sl := range d.Slots {
			steady = steady && sl.State == engine.SlotAvailable && sl.Updated
		}
		s.el.Get("classList").Call("toggle", "steady", steady)
		s.label.Set("textContent", label)
		clear(s.slots)
		for i, sl := range d.Slots {
			if i == maxBudgetSlots {
				s.slots.Call("appendChild", textEl("span", "slot-more", fmt.Sprintf("+%d", len(d.Slots)-i)))
				break
			}
			cls := "slot " + sl.State
			if sl.Updated {
				cls += " updated " + revClass(d.UpdateRevision)
			}
			e := el("i", cls)
			e.Get("dataset").Set("node", sl.Node)
			e.Get("dataset").Set("state", sl.State)
			what := map[string]string{engine.SlotAvailable: "an available pod", engine.SlotUnavailable: "no available pod (counts against maxUnavailable)", engine.SlotSurge: "an old and a new pod at once (maxSurge)"}[sl.State]
			if sl.Updated {
				what += ", updated"
			}
			e.Set("title", sl.Node+": "+what)
			s.slots.Call("appendChild", e)
		}
	}
	for k, s := range st.budgets {
		if !seen[k] {
			remove(s.el)
			delete(st.budgets, k)
		}
	}
}

// clearMarks drops the marks (the compact view draws tiles instead).
func (st *stage) clearMarks() {
	st.pods = map[string]*podMarks{}
	st.nodes = map[string]*nodeMarks{}
}

// stripStage removes the given classes from a stage class string.
func stripStage(cls string, drop ...string) string {
	for _, d := range drop {
		cls = strings.ReplaceAll(cls, d, "")
	}
	return cls
}

// animate runs keyframes on e for ms milliseconds (the Web Animations
// API), unless the learner asked for reduced motion.
func animate(e js.Value, keyframes []any, ms float64) {
	if ms <= 0 || !e.Get("animate").Truthy() {
		return
	}
	e.Call("animate", js.ValueOf(keyframes), js.ValueOf(map[string]any{"duration": ms, "easing": "cubic-bezier(.2,.7,.2,1)"}))
}

// flyFrom animates e from where from is to where e is (a FLIP move).
func flyFrom(e, from js.Value, ms float64) {
	a, b := from.Call("getBoundingClientRect"), e.Call("getBoundingClientRect")
	dx := a.Get("left").Float() + 24 - b.Get("left").Float()
	dy := a.Get("top").Float() + a.Get("height").Float()/2 - b.Get("top").Float() - b.Get("height").Float()/2
	px := func(x, y, s float64) string {
		return fmt.Sprintf("translate(%.1fpx, %.1fpx) scale(%.2f)", x, y, s)
	}
	animate(e, []any{
		map[string]any{"transform": px(dx, dy, 0.55), "opacity": 0.2},
		map[string]any{"transform": px(dx*0.45, dy*0.45-18, 0.85), "opacity": 1, "offset": 0.55},
		map[string]any{"transform": "none", "opacity": 1},
	}, ms)
}

// reveal scrolls box (a scrolling container) so that e, inside it, is in
// view, smoothly; nothing when it already is or box does not scroll.
func reveal(box, e js.Value) {
	if box.Get("scrollHeight").Float() <= box.Get("clientHeight").Float()+1 {
		return
	}
	b, r := box.Call("getBoundingClientRect"), e.Call("getBoundingClientRect")
	var dy float64
	switch {
	case r.Get("bottom").Float() > b.Get("bottom").Float():
		dy = min(r.Get("bottom").Float()-b.Get("bottom").Float()+8, r.Get("top").Float()-b.Get("top").Float()-8)
	case r.Get("top").Float() < b.Get("top").Float():
		dy = r.Get("top").Float() - b.Get("top").Float() - 8
	default:
		return
	}
	box.Call("scrollBy", map[string]any{"top": dy, "behavior": "smooth"})
}

// taintBadge is the card's badge of taint text.
func taintBadge(c *nodeCard, text string) js.Value {
	for _, b := range jsArray(c.taints.Get("children")) {
		if b.Get("dataset").Get("taint").String() == text {
			return b
		}
	}
	return js.Undefined()
}

// jsArray lists an HTMLCollection or NodeList.
func jsArray(list js.Value) []js.Value {
	n := list.Get("length").Int()
	out := make([]js.Value, n)
	for i := range n {
		out[i] = list.Index(i)
	}
	return out
}

// maxEventHops bounds how many scheduled wake-ups "Next event" passes
// through looking for one that changes something.
const maxEventHops = 200

// initStage wires the "Next event" button, clicks on decisions (the
// decision's pod and node light up) and on pod chips (the pod's own
// history), and the stage's hooks.
func (a *app) initStage() {
	st := a.view.stage
	if b := byID("next-event"); b.Truthy() {
		a.listen(dom.WrapElement(b), "click", func(dom.Event) {
			a.setPlaying(false)
			a.nextEvent()
		})
	}
	a.listen(dom.WrapElement(a.view.log), "click", func(ev dom.Event) {
		li := ev.Underlying().Get("target").Call("closest", "li[data-obj]")
		if li.IsNull() {
			return
		}
		ds := li.Get("dataset")
		st.highlight(ds.Get("obj").String(), ds.Get("node").String())
	})
	// a chip's click also opens its node's panel (view's toggle)
	a.listen(dom.WrapElement(a.view.nodesBox), "click", func(ev dom.Event) {
		chip := ev.Underlying().Get("target").Call("closest", ".pod[data-pod-key]")
		if chip.IsNull() {
			return
		}
		st.showHistory(chip.Get("dataset").Get("podKey").String(), chip)
	})
	st.initTolerations(a)
	a.listen(dom.WrapElement(document), "click", func(ev dom.Event) {
		if st.history.Truthy() && ev.Underlying().Get("target").Call("closest", ".pod-history, .pod[data-pod-key]").IsNull() {
			st.closeHistory()
		}
	})
	hooks := global.Get("dsplay")
	hooks.Set("nextEvent", a.hook("dsplay.nextEvent", func([]js.Value) any { return a.nextEvent().Seconds() }))
	hooks.Set("stage", a.hook("dsplay.stage", func([]js.Value) any {
		last := make([]any, 0, len(st.last))
		for _, t := range st.last {
			m := map[string]any{"kind": t.Kind, "pod": t.Pod, "node": t.Node, "caption": t.Caption}
			if t.Cause != nil {
				m["component"], m["func"] = t.Cause.Component, t.Cause.Func
			}
			last = append(last, m)
		}
		// holding: the stage plays, or the DaemonSet table still waits for
		// the frame that draws what it played (drawDaemonSetsHeld)
		jobs := make([]any, 0, len(st.jobs))
		for _, j := range st.jobs {
			jobs = append(jobs, j.tr.Kind+" "+j.tr.Pod+" "+j.tr.Node)
		}
		return map[string]any{"played": st.played, "queued": len(st.jobs), "jobs": jobs, "holding": st.holding() || st.v.dsHeld, "reduced": st.reduced, "last": last}
	}))
}

// nextEvent advances virtual time to the next scheduled instant at which
// the store changes (passing through wake-ups that change nothing, at
// most maxEventHops, and never past 10 minutes), and returns how far it
// moved. With nothing scheduled it moves nothing and says the cluster is
// settled.
func (a *app) nextEvent() time.Duration {
	a.flushJobs()
	if a.cmp.active() {
		a.advance(time.Second)
		return time.Second
	}
	a.tl.leavePast()
	sim := a.rec.Live()
	rv := sim.ResourceVersion()
	var moved time.Duration
	for range maxEventHops {
		d, ok := sim.NextEventIn()
		if !ok {
			break
		}
		d = max(d.Round(time.Millisecond), time.Millisecond)
		if moved+d > 10*time.Minute {
			break
		}
		a.advanceBy(d)
		moved += d
		if sim = a.rec.Live(); sim.ResourceVersion() != rv {
			break
		}
	}
	if moved == 0 {
		a.kc.note("Next event: nothing is scheduled; the cluster stays as it is until something changes it.\n")
	}
	a.kc.pollWatch()
	a.view.render(false)
	return moved
}

// highlight lights up the pod or node a decision names ("Kind/ns/name"
// or "Kind/name") and its node, and scrolls them into view.
func (st *stage) highlight(obj, node string) {
	for _, e := range jsArray(document.Call("querySelectorAll", ".hl")) {
		e.Get("classList").Call("remove", "hl")
	}
	kind, rest, _ := strings.Cut(obj, "/")
	var first js.Value
	light := func(e js.Value) {
		e.Get("classList").Call("add", "hl")
		if !first.Truthy() {
			first = e
		}
	}
	switch strings.ToLower(kind) {
	case "pod":
		if c := st.chip(rest); c != nil {
			light(c.el)
		}
	case "node":
		node = rest
	}
	if c := st.v.cards[node]; c != nil && node != "" {
		light(c.root)
	}
	if first.Truthy() {
		first.Call("scrollIntoView", map[string]any{"block": "nearest", "behavior": "smooth"})
		e := first
		var f js.Func
		f = js.FuncOf(func(js.Value, []js.Value) any {
			e.Get("classList").Call("remove", "hl")
			f.Release()
			return nil
		})
		global.Call("setTimeout", f, 2600)
	}
}

// showHistory opens, beside chip, the pod's own story: every decision
// about it, oldest first (created by, bound by, started, deleted, why).
func (st *stage) showHistory(key string, chip js.Value) {
	st.closeHistory()
	sim := st.v.a.shown()
	box := el("div", "pod-history")
	box.Call("setAttribute", "role", "dialog")
	box.Call("setAttribute", "aria-label", "history of pod "+key)
	box.Call("appendChild", textEl("h4", "", "pod/"+key))
	list := el("ol", "")
	n := 0
	for _, d := range sim.Decisions(0) {
		if !strings.EqualFold(d.Object, "pod/"+key) {
			continue
		}
		n++
		li := el("li", "")
		appendAll(li, textEl("span", "t", formatLogTime(engine.DecisionAt(d))),
			textEl("strong", "", d.Component+" "+d.Action),
			document.Call("createTextNode", " — "+d.Reason+" ("+d.Func+")"))
		list.Call("appendChild", li)
	}
	if n == 0 {
		list.Call("appendChild", textEl("li", "", "no decision about this pod is kept"))
	}
	box.Call("appendChild", list)
	document.Get("body").Call("appendChild", box)
	r := chip.Call("getBoundingClientRect")
	vw, vh := global.Get("innerWidth").Float(), global.Get("innerHeight").Float()
	left := min(r.Get("left").Float(), vw-min(520, vw*0.94)-8)
	top := r.Get("bottom").Float() + 6
	if top > vh*0.6 {
		top = max(8, r.Get("top").Float()-box.Get("offsetHeight").Float()-6)
	}
	box.Get("style").Set("left", strconv.FormatFloat(max(left, 4), 'f', 0, 64)+"px")
	box.Get("style").Set("top", strconv.FormatFloat(top, 'f', 0, 64)+"px")
	st.history = box
}

func (st *stage) closeHistory() {
	if st.history.Truthy() {
		remove(st.history)
	}
	st.history = js.Undefined()
}

// pacer plays steps of virtual time that a goroutine takes (a lesson step,
// a solution, a waiting kubectl command) at a watchable pace: after each,
// the frame loop draws the cluster and the stage plays what changed, and
// a virtual second takes 1 s of wall time at 1× (a quarter of it when
// nothing changed).
type pacer struct {
	st         *stage
	lastEl     time.Duration
	lastQueued int
	started    bool
}

func (st *stage) newPacer() *pacer { return &pacer{st: st} }

// step blocks the calling goroutine (never a JS callback) for one step
// reached at virtual time el of its run, until on() turns false or the
// step has had its time.
func (pc *pacer) step(el time.Duration, on func() bool) {
	st := pc.st
	yieldFrame()
	minMs := 0.0
	if pc.started && el != pc.lastEl {
		minMs = 1000 / max(st.v.a.speed, 0.1)
		if st.enqueued == pc.lastQueued {
			minMs /= 4
		}
	}
	pc.started, pc.lastEl, pc.lastQueued = true, el, st.enqueued
	for t0 := nowMs(); on() && (st.holding() || nowMs()-t0 < minMs); {
		yieldFrame()
	}
}
