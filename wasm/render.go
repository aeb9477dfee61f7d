//go:build js && wasm

package main

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"syscall/js"
	"time"
	"unicode/utf8"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// maxLogEntries bounds the decision log on screen.
const maxLogEntries = 300

// tileThreshold is the node count above which the cluster is drawn as
// compact tiles (one small square per node) instead of node cards.
const tileThreshold = 300

// compactRedrawMs is the least wall time between two redraws of a compact
// (large) cluster: the simulation may change every frame, the picture need
// not, and each redraw walks every node.
const compactRedrawMs = 200

// nodeLeaveMs is how long a removed node's card fades (style.css
// .node-ghost).
const nodeLeaveMs = 1400

// leaveMillis is how long a removed pod chip fades before it is detached
// (matches the .pod transition in style.css).
const leaveMillis = 500

// view draws snapshots: it keeps one DOM element per node card and pod chip
// and writes only what changed, once per frame.
type view struct {
	a  *app
	sn *engine.Snapshotter

	clock, nodesBox, pendingBox, pendingPods, dsRows, log js.Value
	panel, panelTitle, panelBody, panelClose              js.Value
	// opener had the focus when the panel opened (the node card, or the
	// tile view's search box); closing the panel gives it back.
	opener js.Value

	// rolloutBox holds one block per DaemonSet (rollout.go); updateRev
	// maps "namespace/name" to the DaemonSet's update revision.
	rolloutBox js.Value
	// revKeyShown is what the legend's revision key shows (rollout.go
	// drawRevisionKey), so it is rebuilt only when that changes.
	revKeyShown string
	rollouts    map[string]*rolloutBlock
	updateRev   map[string]int64

	cards   map[string]*nodeCard
	order   []string
	chips   map[string]*podChip
	leaving []leavingChip

	snap         engine.Snapshot
	lastRV       int64
	lastClock    string
	lastDecision int64
	logEntries   int
	dsKey        string
	// dsNames is the DaemonSets ("namespace/name|...") the table shows;
	// dsHeld: the table waits for the stage to play the transitions of
	// the snapshot it would show (drawDaemonSetsHeld).
	dsNames   string
	dsHeld    bool
	panelNode string
	// multiNS is true when the DaemonSets live in more than one namespace:
	// then every DaemonSet is named namespace/name (see dsLabel).
	multiNS bool
	// statusLags holds the DaemonSets ("namespace/name") whose status
	// counts fewer misscheduled pods than the node verdicts show
	// (engine.DaemonSetView.StatusLags).
	statusLags map[string]bool
	// emptyNodes is the note shown in place of the node cards when the
	// cluster has no node.
	emptyNodes js.Value

	// compact is true while the cluster is drawn as tiles (more than
	// tileThreshold nodes); tiles are keyed by node name.
	compact            bool
	tiles              map[string]*nodeTile
	tileOrder          []string
	tools, summary     js.Value
	filterInput        js.Value
	filter, summaryKey string
	lastDrawMs         float64

	// stage animates the transitions between the scenes drawn (stage.go).
	stage *stage

	// still is true while the page draws its first frame: node cards and
	// pod chips made then appear without the fade-in (class "still"), so
	// the first pods' Pending phase shows from the start. Later ones fade in.
	still bool
}

// nodeTile is one node drawn as a small square coloured by the state of
// its daemon pods (see tileState).
type nodeTile struct {
	el         js.Value
	cls, title string
	seen       bool
}

type nodeCard struct {
	root, name, status, roles, taints, pods, why js.Value
	cls, statusKey, rolesKey, taintKey, whyKey   string
	stageCls                                     string // the stage's classes (stage.go), after cls
	seen                                         bool
	surge                                        bool // the pods box has a pair of one DaemonSet's pods
	still                                        bool // drawn in the first frame: no fade-in
}

type podChip struct {
	el, name, status, image, why   js.Value
	rev                            js.Value // the revision tag ("r2"), rollout.go
	revKey                         string
	parent                         string // node name, "" for the not-scheduled area
	cls, statusText, title, whyKey string
	// key is "namespace/name"; stageCls the stage's classes (stage.go),
	// written after cls.
	key, stageCls string
	seen          bool
	still         bool // drawn in the first frame: no fade-in
}

// leavingChip is an element detached by sweep at its deadline: a chip
// fading out, a stage caption (stage.go).
type leavingChip struct {
	el       js.Value
	deadline float64 // performance.now() ms
}

func newView(a *app) *view {
	v := &view{
		a:           a,
		clock:       byID("clock"),
		nodesBox:    byID("nodes"),
		pendingBox:  byID("pending"),
		pendingPods: byID("pending-pods"),
		dsRows:      byID("ds-rows"),
		rolloutBox:  byID("rollout"),
		log:         byID("log"),
		panel:       byID("panel"),
		panelTitle:  byID("panel-title"),
		panelBody:   byID("panel-body"),
		panelClose:  byID("panel-close"),
		opener:      js.Undefined(),
		sn:          a.rec.Live().NewSnapshotter(),
		tools:       byID("node-tools"),
		summary:     byID("node-summary"),
		filterInput: byID("node-filter"),
		tiles:       map[string]*nodeTile{},
		cards:       map[string]*nodeCard{},
		chips:       map[string]*podChip{},
		lastRV:      -1,
		still:       true,
	}
	v.stage = newStage(v)
	// Delegated listeners for every node card: click, or Enter/Space when focused.
	toggle := func(ev dom.Event) {
		card := ev.Underlying().Get("target").Call("closest", "[data-node]")
		if card.IsNull() {
			return
		}
		name := card.Get("dataset").Get("node").String()
		onChip := !ev.Underlying().Get("target").Call("closest", ".pod").IsNull()
		if name == v.panelNode && !onChip {
			v.openPanel("")
		} else {
			v.openPanel(name)
		}
	}
	// The node panel's action buttons (nodeactions.go), delegated: the
	// panel body is rebuilt on every change.
	a.listen(dom.WrapElement(v.panelBody), "click", func(ev dom.Event) {
		b := ev.Underlying().Get("target").Call("closest", "button[data-act]")
		if b.IsNull() || b.Get("disabled").Bool() || v.panelNode == "" {
			return
		}
		ds := b.Get("dataset")
		str := func(k string) string {
			if x := ds.Get(k); !x.IsUndefined() {
				return x.String()
			}
			return ""
		}
		a.runNodeAction(v.panelNode, str("act"), str("type"), str("status"))
	})
	nodes := dom.WrapElement(v.nodesBox)
	a.listen(nodes, "click", toggle)
	a.listen(nodes, "keydown", func(ev dom.Event) {
		if k := ev.Underlying().Get("key").String(); k == "Enter" || k == " " {
			ev.PreventDefault()
			// a focused pod chip acts as clicked: its history, its
			// toleration lines pinned and its node's panel (stage.go)
			if chip := ev.Underlying().Get("target"); chip.Get("classList").Call("contains", "pod").Bool() {
				chip.Call("click")
				return
			}
			toggle(ev)
		}
	})
	// The tile view's search box: typing dims the other tiles, Enter opens
	// the first match (an exact name first), Escape clears it.
	filter := dom.WrapElement(v.filterInput)
	a.listen(filter, "input", func(dom.Event) {
		v.filter = strings.TrimSpace(v.filterInput.Get("value").String())
		v.drawTiles()
	})
	a.listen(filter, "keydown", func(ev dom.Event) {
		switch ev.Underlying().Get("key").String() {
		case "Enter":
			ev.PreventDefault()
			if name := v.findNode(v.filter); name != "" {
				v.openPanel(name)
			}
		case "Escape":
			v.filterInput.Set("value", "")
			v.filter = ""
			v.drawTiles()
		}
	})
	return v
}

// findNode returns the node named q, else the first whose name contains q.
func (v *view) findNode(q string) string {
	if q == "" {
		return ""
	}
	first := ""
	for _, n := range v.snap.Nodes {
		if n.Name == q {
			return n.Name
		}
		if first == "" && strings.Contains(n.Name, q) {
			first = n.Name
		}
	}
	return first
}

// render draws the clock, and everything else when the store changed since
// the last frame (or force).
func (v *view) render(force bool) {
	sim := v.a.shown()
	if c := formatElapsed(sim.Elapsed()); c != v.lastClock {
		v.lastClock = c
		v.clock.Set("textContent", c)
	}
	if v.stage.have && v.stage.sim == sim {
		v.stage.tick(sim.Elapsed()) // countdowns and pull bars follow the clock
	}
	rv := sim.ResourceVersion()
	if (rv != v.lastRV || force) && (force || !v.compact || nowMs()-v.lastDrawMs >= compactRedrawMs) {
		v.lastRV = rv
		t0 := nowMs()
		v.lastDrawMs = t0
		v.snap = v.sn.Snapshot()
		t1 := nowMs()
		v.multiNS = false
		for _, d := range v.snap.DaemonSets {
			if d.Namespace != v.snap.DaemonSets[0].Namespace {
				v.multiNS = true
			}
		}
		v.statusLags = nil
		for _, d := range v.snap.DaemonSets {
			if d.StatusLags {
				if v.statusLags == nil {
					v.statusLags = map[string]bool{}
				}
				v.statusLags[d.Namespace+"/"+d.Name] = true
			}
		}
		v.updateRevisions()
		v.drawRollouts()
		v.drawNodes()
		v.stage.update(sim, v.snap)
		v.dsHeld = true
		v.drawDaemonSetsHeld(force)
		if v.panelNode != "" {
			v.drawPanel()
		}
		st := &v.a.stats
		st.Snapshots++
		st.SnapshotMs, st.DrawMs = t1-t0, nowMs()-t1
	} else if v.dsHeld {
		v.drawDaemonSetsHeld(false)
	}
	if sim.LastDecisionSeq() != v.lastDecision {
		v.drawDecisions()
	}
}

// formatElapsed renders virtual time as "12.3 s" or "2m 03.4s"
// (session.FormatElapsed: the clock, the log and the exports agree).
func formatElapsed(d time.Duration) string { return session.FormatElapsed(d) }

// formatLogTime renders a decision's virtual time as the clock does
// (formatElapsed: "12.3 s", "2m 03.4s"), so the log and the clock agree.
func formatLogTime(d time.Duration) string { return formatElapsed(d) }

// drawDaemonSetsHeld draws the DaemonSet table once the stage has played
// what changed (its counts then follow the picture rather than run ahead
// of pods still flying to their nodes), at once when forced, when the
// stage is idle or when the table would show other DaemonSets (a new
// DaemonSet's pods fly from its row).
func (v *view) drawDaemonSetsHeld(force bool) {
	if !force && v.stage.holding() && v.dsNames != "" {
		var b strings.Builder
		for _, d := range v.snap.DaemonSets {
			b.WriteString(d.Namespace + "/" + d.Name + "|")
		}
		if b.String() == v.dsNames {
			return
		}
	}
	v.dsHeld = false
	v.drawDaemonSets()
}

func (v *view) drawDaemonSets() {
	var b strings.Builder
	var names strings.Builder
	for _, d := range v.snap.DaemonSets {
		names.WriteString(d.Namespace + "/" + d.Name + "|")
	}
	v.dsNames = names.String()
	for _, d := range v.snap.DaemonSets {
		fmt.Fprintf(&b, "%s/%s %d %d %d %d %d %d %s %s|", d.Namespace, d.Name, d.Desired, d.Current, d.Ready, d.UpToDate, d.Available, d.Misscheduled, strings.Join(d.Images, ","), d.CreateRefused+"\x00"+strings.Join(d.NeverPulled, ","))
	}
	key := b.String()
	if v.multiNS {
		key += "\x00multi"
	}
	if key == v.dsKey && v.dsKey != "" {
		return
	}
	v.dsKey = key
	clear(v.dsRows)
	if len(v.snap.DaemonSets) == 0 {
		tr := el("tr", "none")
		td := textEl("td", "", "No DaemonSets yet: apply one from the editor.")
		td.Set("colSpan", 7)
		v.dsRows.Call("appendChild", appendAll(tr, td))
		return
	}
	for _, d := range v.snap.DaemonSets {
		tr := el("tr", "")
		tr.Get("dataset").Set("ds", d.Name)
		name := el("td", "")
		label := v.dsLabel(d.Namespace, d.Name)
		tr.Get("dataset").Set("dsKey", d.Namespace+"/"+d.Name)
		appendAll(name, document.Call("createTextNode", label), textEl("span", "img", strings.Join(d.Images, ", ")))
		name.Set("title", label+"\nimages: "+strings.Join(d.Images, ", ")+"\nnode selector: "+d.NodeSelector+"\nupdate strategy: "+d.Strategy)
		tr.Call("appendChild", name)
		for _, n := range []int32{d.Desired, d.Current, d.Ready, d.UpToDate, d.Available} {
			tr.Call("appendChild", textEl("td", "", strconv.Itoa(int(n))))
		}
		ms := textEl("td", "", strconv.Itoa(int(d.Misscheduled)))
		if d.Misscheduled > 0 {
			ms.Set("className", "bad")
		}
		tr.Call("appendChild", ms)
		v.dsRows.Call("appendChild", tr)
		if d.CreateRefused != "" {
			// The controller's FailedCreate, which describe ds shows: the
			// reason CURRENT stays below DESIRED.
			note := el("tr", "refused")
			note.Get("dataset").Set("dsKey", d.Namespace+"/"+d.Name)
			td := textEl("td", "", "⊘ the API server refuses its pods: "+refusalCause(d.CreateRefused))
			td.Set("colSpan", 7)
			td.Set("title", "FailedCreate (kubectl describe ds "+d.Name+"): "+d.CreateRefused+"\nThe DaemonSet controller retries with back-off; fix the cause and its next retry creates the pods.")
			v.dsRows.Call("appendChild", appendAll(note, td))
		}
		for _, img := range d.NeverPulled {
			// ErrImageNeverPull: the image is on none of the nodes its pods
			// wait on, and Never never pulls it
			note := el("tr", "never-pulled")
			note.Get("dataset").Set("dsKey", d.Namespace+"/"+d.Name)
			td := textEl("td", "", "its pods wait for "+img+", which their nodes do not have (imagePullPolicy: Never never pulls it) ")
			td.Set("colSpan", 7)
			td.Call("appendChild", v.preloadButton(img))
			v.dsRows.Call("appendChild", appendAll(note, td))
		}
	}
}

func (v *view) drawNodes() {
	if compact := len(v.snap.Nodes) > tileThreshold; compact != v.compact {
		v.setCompact(compact)
	}
	for _, c := range v.cards {
		c.seen = false
	}
	for _, c := range v.chips {
		c.seen = false
	}
	if v.compact {
		v.drawTiles()
	} else {
		v.drawCards()
	}
	// A daemon pod not bound yet is drawn on the node it is pinned to (in
	// the tile view, its tile's colour counts it).
	loose := 0
	for _, p := range v.snap.Pending {
		if p.Target != "" && v.compact && v.tiles[p.Target] != nil {
			continue
		}
		if c := v.cards[p.Target]; p.Target != "" && c != nil {
			v.placeChip(p, p.Target, c.pods, false)
		} else {
			v.placeChip(p, "", v.pendingPods, false)
			loose++
		}
	}
	v.pendingBox.Set("hidden", loose == 0)
	v.showEmpty(len(v.snap.Nodes) == 0)

	// Chips whose pod is gone fade out, then are detached by sweep (drawn
	// still, as in a timeline seek, they go at once).
	now := nowMs()
	for k, c := range v.chips {
		if !c.seen {
			if v.still {
				remove(c.el)
			} else {
				c.el.Get("classList").Call("add", "gone")
				v.leaving = append(v.leaving, leavingChip{el: c.el, deadline: now + leaveMillis})
			}
			delete(v.chips, k)
		}
	}
}

// dropLeaving detaches every fading chip now.
func (v *view) dropLeaving() {
	for _, l := range v.leaving {
		remove(l.el)
	}
	v.leaving = v.leaving[:0]
}

// setCompact switches between node cards and tiles.
func (v *view) setCompact(on bool) {
	v.compact = on
	if on {
		for name, c := range v.cards {
			remove(c.root)
			delete(v.cards, name)
		}
		v.order = v.order[:0]
		for k, c := range v.chips {
			if c.parent != "" { // on a card, gone with it
				delete(v.chips, k)
			}
		}
		v.nodesBox.Set("className", "nodes compact")
	} else {
		for name, t := range v.tiles {
			remove(t.el)
			delete(v.tiles, name)
		}
		v.tileOrder = v.tileOrder[:0]
		v.summaryKey = ""
		v.nodesBox.Set("className", "nodes")
	}
	v.tools.Set("hidden", !on)
}

// drawCards draws every node as a card with its pod chips.
func (v *view) drawCards() {
	orderChanged := len(v.order) != len(v.snap.Nodes)
	for i, n := range v.snap.Nodes {
		if !orderChanged && v.order[i] != n.Name {
			orderChanged = true
		}
		c := v.cards[n.Name]
		if c == nil {
			c = newNodeCard(n.Name)
			c.still = v.still
			v.cards[n.Name] = c
			orderChanged = true
		}
		c.seen = true
		c.update(v, n, n.Name == v.panelNode)
		// A DaemonSet with two pods on the node (a surge pod beside the
		// old one, or a new pod beside the terminating one): its chips sit
		// side by side.
		var pairs map[string]int
		for _, p := range n.Pods {
			if p.Owner != "" {
				if pairs == nil {
					pairs = map[string]int{}
				}
				pairs[p.Namespace+"/"+p.Owner]++
			}
		}
		surge := false
		for _, p := range n.Pods {
			pair := p.Owner != "" && pairs[p.Namespace+"/"+p.Owner] > 1
			surge = surge || pair
			v.placeChip(p, n.Name, c.pods, pair)
		}
		if surge != c.surge {
			c.surge = surge
			c.pods.Get("classList").Call("toggle", "surge", surge)
		}
	}
	for name, c := range v.cards {
		if !c.seen {
			if v.still || v.stage.reduced {
				remove(c.root)
			} else {
				// a node that leaves fades out where it was (a ghost: no
				// longer a node card for anything that looks for one)
				c.root.Set("className", "node-ghost")
				c.root.Call("removeAttribute", "data-node")
				c.root.Call("removeAttribute", "tabindex")
				c.root.Call("appendChild", textEl("span", "caption cap-node-leave", "left the cluster"))
				v.leaving = append(v.leaving, leavingChip{el: c.root, deadline: nowMs() + nodeLeaveMs})
			}
			delete(v.cards, name)
			if name == v.panelNode {
				v.openPanel("")
			}
		}
	}
	if orderChanged {
		v.order = v.order[:0]
		for _, n := range v.snap.Nodes {
			v.order = append(v.order, n.Name)
			v.nodesBox.Call("appendChild", v.cards[n.Name].root)
		}
	}
}

// showEmpty shows or removes the note that says how to add a node.
func (v *view) showEmpty(on bool) {
	if on == !v.emptyNodes.IsUndefined() {
		return
	}
	if !on {
		remove(v.emptyNodes)
		v.emptyNodes = js.Undefined()
		return
	}
	e := el("div", "empty")
	appendAll(e,
		textEl("p", "", "No nodes: the DaemonSets have nowhere to run. Add a node by applying a Node manifest from the editor (or kubectl apply -f manifest.yaml), for example:"),
		textEl("pre", "", "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n  labels:\n    kubernetes.io/os: linux"))
	v.emptyNodes = e
	v.nodesBox.Call("appendChild", e)
}

// Tile states, most urgent first; the tile view groups tiles in this order
// (CSS order), so problems come first.
const (
	tileFailed = iota
	tilePending
	tileNotReady
	tileMissing
	tileMisscheduled
	tileCreating
	tileTerminating
	tileRunning
	tileIdle
	tileStates
)

var tileNames = [tileStates]string{"failed", "pending", "notready", "missing", "missched", "creating", "terminating", "running", "idle"}

// tilePodWords name the pod states a tile's tooltip counts (kubectl's STATUS
// words); "" for the states that are not a pod's.
var tilePodWords = [tileStates]string{tileFailed: "Failed", tilePending: "Pending", tileCreating: "ContainerCreating", tileTerminating: "Terminating", tileRunning: "Running"}

var tileWords = [tileStates]string{"with a Failed pod", "with a Pending pod", "NotReady", "missing a daemon pod", "with a misscheduled pod", "creating", "terminating", "running every daemon pod", "with no daemon pod to run"}

// tileState sums up a node for its tile: the most urgent state among its
// pods (pinned is the number of its daemon pods not bound yet) and its
// DaemonSets' verdicts, and a line for the tooltip.
func tileState(n *engine.NodeView, pinned int) (int, string) {
	var pods [tileStates]int
	for _, p := range n.Pods {
		switch phaseClass(p) {
		case "failed":
			pods[tileFailed]++
		case "pending":
			pods[tilePending]++
		case "creating":
			pods[tileCreating]++
		case "terminating":
			pods[tileTerminating]++
		default:
			pods[tileRunning]++
		}
	}
	pods[tilePending] += pinned
	missing, missched := 0, 0
	refused := ""
	for _, d := range n.Daemons {
		if d.ShouldRun && d.Pods == 0 {
			missing++
		}
		if d.Refused != "" && refused == "" {
			refused = d.Name + ": the API server refuses its pod (" + refusalCause(d.Refused) + ")"
		}
		if d.Misscheduled {
			missched++
		}
	}
	missing -= pinned
	st := tileIdle
	switch {
	case pods[tileFailed] > 0:
		st = tileFailed
	case pods[tilePending] > 0:
		st = tilePending
	case !n.Ready:
		st = tileNotReady
	case missing > 0:
		st = tileMissing
	case missched > 0:
		st = tileMisscheduled
	case pods[tileCreating] > 0:
		st = tileCreating
	case pods[tileTerminating] > 0:
		st = tileTerminating
	case pods[tileRunning] > 0:
		st = tileRunning
	}
	var b strings.Builder
	b.WriteString(n.Name + " · " + n.Status)
	for i, k := range pods {
		if k > 0 {
			fmt.Fprintf(&b, " · %d %s", k, tilePodWords[i])
		}
	}
	if missing > 0 {
		fmt.Fprintf(&b, " · %d DaemonSet(s) without a pod", missing)
	}
	if missched > 0 {
		fmt.Fprintf(&b, " · %d misscheduled", missched)
	}
	if refused != "" {
		b.WriteString("\n" + refused)
	}
	b.WriteString("\n(click for every check)")
	return st, b.String()
}

// drawTiles draws the large-cluster view: one tile per node, a summary
// line counting nodes per state, and the search box's dimming. Only tiles
// whose class or tooltip changed are written.
func (v *view) drawTiles() {
	if !v.compact {
		return
	}
	pinned := map[string]int{}
	for _, p := range v.snap.Pending {
		if p.Target != "" {
			pinned[p.Target]++
		}
	}
	for _, t := range v.tiles {
		t.seen = false
	}
	var counts [tileStates]int
	revs := map[tileRev]int{} // tiles per revision shown (rollout.go)
	added := false
	// New tiles are written as one HTML string and parsed by the browser
	// in one go (then fetched by index): creating each through el and
	// setting its dataset, class and title took 6 Go->JS calls per tile,
	// tens of milliseconds for the 1,000 tiles of dsplay.addNodes("w", 1000).
	var fresh []*nodeTile
	var freshHTML strings.Builder
	for i := range v.snap.Nodes {
		n := &v.snap.Nodes[i]
		t := v.tiles[n.Name]
		isNew := t == nil
		if isNew {
			t = &nodeTile{}
			v.tiles[n.Name] = t
			added = true
		}
		t.seen = true
		st, title := tileState(n, pinned[n.Name])
		counts[st]++
		cls := "tile t-" + tileNames[st]
		if rev, old, words := v.tileRevision(n); rev > 0 {
			cls += " " + revClass(rev)
			if old {
				cls += " rv-old"
			}
			revs[tileRev{rev, old}]++
			title = strings.Replace(title, "\n(click", words+"\n(click", 1)
		}
		if n.Name == v.panelNode {
			cls += " selected"
		}
		if v.filter != "" && !strings.Contains(n.Name, v.filter) {
			cls += " dim"
		}
		if isNew {
			t.cls, t.title = cls, title
			fresh = append(fresh, t)
			fmt.Fprintf(&freshHTML, `<div class="%s" title="%s" data-node="%s"></div>`,
				html.EscapeString(cls), html.EscapeString(title), html.EscapeString(n.Name))
			continue
		}
		if cls != t.cls {
			t.cls = cls
			t.el.Set("className", cls)
		}
		if title != t.title {
			t.title = title
			t.el.Set("title", title)
		}
	}
	if len(fresh) > 0 {
		tpl := document.Call("createElement", "template")
		tpl.Set("innerHTML", freshHTML.String())
		kids := tpl.Get("content").Get("children")
		for i, t := range fresh {
			t.el = kids.Index(i)
		}
	}
	removed := false
	for name, t := range v.tiles {
		if !t.seen {
			remove(t.el)
			delete(v.tiles, name)
			removed = true
			if name == v.panelNode {
				v.openPanel("")
			}
		}
	}
	if added || removed {
		// Re-append in name order, once, through a fragment.
		v.tileOrder = v.tileOrder[:0]
		frag := document.Call("createDocumentFragment")
		for _, n := range v.snap.Nodes {
			v.tileOrder = append(v.tileOrder, n.Name)
			frag.Call("appendChild", v.tiles[n.Name].el)
		}
		v.nodesBox.Call("appendChild", frag)
	}

	var key strings.Builder
	fmt.Fprintf(&key, "%d", len(v.snap.Nodes))
	for i, k := range counts {
		fmt.Fprintf(&key, ",%d:%d", i, k)
	}
	revKeys := sortedTileRevs(revs)
	for _, r := range revKeys {
		fmt.Fprintf(&key, ",r%d/%v:%d", r.n, r.old, revs[r])
	}
	if key.String() == v.summaryKey {
		return
	}
	v.summaryKey = key.String()
	clear(v.summary)
	v.summary.Call("appendChild", textEl("strong", "", plural(len(v.snap.Nodes), "node")))
	for i, k := range counts {
		if k == 0 {
			continue
		}
		s := el("span", "sum")
		appendAll(s, el("i", "tile t-"+tileNames[i]), document.Call("createTextNode", fmt.Sprintf("%d %s", k, tileWords[i])))
		v.summary.Call("appendChild", s)
	}
	v.summaryRevisions(revKeys, revs)
}

// sweep detaches faded chips whose time is up.
func (v *view) sweep() {
	if len(v.leaving) == 0 {
		return
	}
	now := nowMs()
	keep := v.leaving[:0]
	for _, l := range v.leaving {
		if now >= l.deadline {
			remove(l.el)
		} else {
			keep = append(keep, l)
		}
	}
	v.leaving = keep
}

func newNodeCard(name string) *nodeCard {
	c := &nodeCard{
		root:   el("div", "node"),
		name:   textEl("span", "node-name", name),
		status: el("span", "badge"),
		roles:  el("span", "roles"),
		taints: el("div", "taints"),
		pods:   el("div", "pods"),
		why:    el("ul", "why"),
	}
	c.root.Get("dataset").Set("node", name)
	c.root.Call("setAttribute", "tabindex", "0")
	c.root.Call("setAttribute", "role", "button")
	c.root.Call("setAttribute", "aria-label", "node "+name+": show the checks")
	head := appendAll(el("div", "node-head"), c.name, c.status, c.roles)
	appendAll(c.root, head, c.taints, c.pods, c.why)
	return c
}

func (c *nodeCard) update(v *view, n engine.NodeView, selected bool) {
	cls := "node"
	if c.still {
		cls += " still"
	}
	if !n.Ready {
		cls += " notready"
	}
	if selected {
		cls += " selected"
	}
	if cls != c.cls {
		c.cls = cls
		c.root.Set("className", cls+c.stageCls)
	}
	if n.Status != c.statusKey {
		c.statusKey = n.Status
		c.status.Set("textContent", n.Status)
		bc := "badge ready"
		switch {
		case !strings.HasPrefix(n.Status, "Ready"):
			bc = "badge notready"
		case n.Unschedulable:
			bc = "badge cordoned"
		}
		c.status.Set("className", bc)
	}
	if n.Roles != c.rolesKey {
		c.rolesKey = n.Roles
		if n.Roles == "<none>" {
			c.roles.Set("textContent", "")
		} else {
			c.roles.Set("textContent", n.Roles)
		}
	}
	if tk := strings.Join(n.Taints, "\x00"); tk != c.taintKey {
		c.taintKey = tk
		clear(c.taints)
		for _, t := range n.Taints {
			s := textEl("span", "taint", t)
			if i := strings.LastIndexByte(t, ':'); i >= 0 {
				s.Set("className", "taint eff-"+t[i+1:])
			}
			s.Set("title", "taint "+t)
			s.Get("dataset").Set("taint", t)
			c.taints.Call("appendChild", s)
		}
	}
	// Why this node lacks (or should not have) a DaemonSet's pod.
	var b strings.Builder
	for _, d := range n.Daemons {
		switch {
		case d.Misscheduled:
			fmt.Fprintf(&b, "m\x01%s\x01%s\x01%t\x01%t\x00", v.dsLabel(dsNamespace(d), d.Name), d.Reason, d.ShouldContinueRunning, v.statusLags[d.DaemonSet])
		case d.Reason != "" && d.Pods == 0:
			fmt.Fprintf(&b, "n\x01%s\x01%s\x00", v.dsLabel(dsNamespace(d), d.Name), d.Reason)
		case d.Refused != "":
			fmt.Fprintf(&b, "r\x01%s\x01%s\x00", v.dsLabel(dsNamespace(d), d.Name), d.Refused)
		}
	}
	if wk := b.String(); wk != c.whyKey {
		c.whyKey = wk
		clear(c.why)
		// DaemonSets kept off the node for the same reason share one line
		// ("no alpha, beta pod: taint ... is not tolerated"): a card stays
		// short with several DaemonSets (the node panel lists each).
		// data-ds then names them space-separated.
		type whyLine struct {
			missched, kept, refused bool
			reason                  string
			labels, names, keys     []string
		}
		var lines []*whyLine
		for _, d := range n.Daemons {
			missched := d.Misscheduled
			// refused: the node should run the pod, but the API server
			// refuses the DaemonSet's creates (engine.NodeDaemonView.Refused).
			refused := !missched && d.Refused != ""
			reason := d.Reason
			if refused {
				reason = d.Refused
			}
			if !missched && !refused && (d.Reason == "" || d.Pods != 0) {
				continue
			}
			// kept: a pod the controller keeps (shouldContinueRunning) that
			// the DaemonSet's status does not count yet.
			kept := missched && d.ShouldContinueRunning && v.statusLags[d.DaemonSet]
			var w *whyLine
			for _, l := range lines {
				if l.missched == missched && l.kept == kept && l.refused == refused && l.reason == reason {
					w = l
				}
			}
			if w == nil {
				w = &whyLine{missched: missched, kept: kept, refused: refused, reason: reason}
				lines = append(lines, w)
			}
			w.labels = append(w.labels, v.dsLabel(dsNamespace(d), d.Name))
			w.names = append(w.names, d.Name)
			w.keys = append(w.keys, d.DaemonSet)
		}
		for _, w := range lines {
			label := strings.Join(w.labels, ", ")
			var li js.Value
			switch {
			case w.kept:
				li = el("li", "missched kept")
				li.Set("textContent", keptLine(label, w.reason))
			case w.missched:
				li = el("li", "missched")
				li.Set("textContent", label+" pod misscheduled: "+shortReason(w.reason))
			case w.refused:
				li = el("li", "refused")
				li.Set("textContent", "no "+label+" pod: the API server refuses it ("+refusalCause(w.reason)+")")
			default:
				li = el("li", "")
				li.Set("textContent", "no "+label+" pod: "+shortReason(w.reason))
			}
			li.Get("dataset").Set("ds", strings.Join(w.names, " "))
			li.Get("dataset").Set("dsKey", strings.Join(w.keys, " "))
			if w.refused {
				li.Set("title", "kubectl describe ds shows FailedCreate: "+w.reason+"\nThe DaemonSet controller retries with back-off (5 ms doubling up to 1000 s); fix the cause and its next retry creates the pod.")
			} else {
				li.Set("title", w.reason+"\n(click the node for every check)")
			}
			c.why.Call("appendChild", li)
		}
	}
}

// setStage sets the stage's classes of the card (stage.go).
func (c *nodeCard) setStage(cls string) {
	if cls != c.stageCls {
		c.stageCls = cls
		c.root.Set("className", c.cls+cls)
	}
}

// setStage sets the stage's classes of the chip (stage.go).
func (c *podChip) setStage(cls string) {
	if cls != c.stageCls {
		c.stageCls = cls
		c.el.Set("className", c.cls+cls)
	}
}

// keptLine is a node card's line for a daemon pod the controller would not
// place on the node now but keeps (shouldContinueRunning), while the
// DaemonSet's status does not count it as misscheduled yet: both are true,
// the card is the verdict now, the status the one of the last sync.
func keptLine(label, reason string) string {
	why := shortReason(reason)
	kept := "the pod is kept"
	if strings.Contains(why, ":NoSchedule") {
		kept = "the pod is kept (NoSchedule)"
	}
	return label + " would not run here now (" + why + "); " + kept +
		" — the DaemonSet's status counts it at its next sync"
}

// dsLabel names a DaemonSet as the learner should read it: namespace/name
// when the DaemonSets span several namespaces or this one is not in
// "default", else just its name.
func (v *view) dsLabel(namespace, name string) string {
	if v.multiNS || namespace != "default" {
		return namespace + "/" + name
	}
	return name
}

// dsNamespace is the namespace part of d.DaemonSet ("namespace/name").
func dsNamespace(d engine.NodeDaemonView) string {
	ns, _, _ := strings.Cut(d.DaemonSet, "/")
	return ns
}

// refusalCause is the last clause of an API server refusal: `pods "x-" is
// forbidden: error looking up service account default/sa: serviceaccount
// "sa" not found` gives `serviceaccount "sa" not found`.
func refusalCause(s string) string {
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		return s[i+2:]
	}
	return s
}

// shortReason keeps a check's detail up to its first ": " ("taint
// key:NoSchedule is not tolerated"); the panel and the tooltip show all of it.
func shortReason(s string) string {
	if i := strings.Index(s, ": "); i > 0 {
		return s[:i]
	}
	return s
}

// placeChip creates or updates the chip of pod p and makes sure it sits in
// parent (the node's pod list, or the not-scheduled area).
//
// Its revision tag and colour (rollout.go) say which revision of its
// DaemonSet the pod runs; pair puts it beside another pod of the same
// DaemonSet on the node.
func (v *view) placeChip(p engine.PodView, node string, parent js.Value, pair bool) {
	key := p.UID
	if key == "" {
		key = p.Namespace + "/" + p.Name
	}
	c := v.chips[key]
	if c == nil {
		c = &podChip{
			el:     el("div", ""),
			name:   midText("pod-name", p.Name, podNameTail(p.Name)),
			status: el("span", "pod-status"),
			image:  midText("pod-image", p.Image, imageTail(p.Image)),
			why:    el("span", "pod-why"),
			parent: "\x00", // not placed yet
			still:  v.still,
		}
		c.key = p.Namespace + "/" + p.Name
		c.el.Get("dataset").Set("pod", p.Name)
		c.el.Get("dataset").Set("podKey", c.key)
		c.el.Get("dataset").Set("owner", p.Owner)
		c.el.Call("setAttribute", "tabindex", "0")
		c.el.Call("setAttribute", "aria-label", "pod "+p.Name+" (Enter shows its history)")
		c.rev = el("span", "rev-tag")
		appendAll(c.el, c.name, c.rev, c.status, c.image, c.why)
		v.chips[key] = c
	}
	c.seen = true
	cls := "pod phase-" + phaseClass(p)
	if c.still {
		cls += " still"
	}
	tag, old := v.podRevision(p)
	if tag != "" {
		cls += " has-rev " + revClass(p.RevisionNumber)
		if old {
			cls += " rev-old"
		}
	}
	if pair {
		cls += " pair"
	}
	if p.Stall != "" {
		cls += " stalled"
	}
	if rk := tag + strconv.FormatBool(old); rk != c.revKey {
		c.revKey = rk
		c.rev.Set("textContent", tag)
		rc := "rev-tag " + revClass(p.RevisionNumber)
		if old {
			rc += " old"
		}
		c.rev.Set("className", rc)
		c.el.Get("dataset").Set("rev", strconv.FormatInt(p.RevisionNumber, 10))
	}
	if cls != c.cls {
		c.cls = cls
		c.el.Set("className", cls+c.stageCls)
	}
	st := p.Status + " · " + p.Ready
	if st != c.statusText {
		c.statusText = st
		c.status.Set("textContent", st)
		c.el.Get("dataset").Set("status", p.Status)
	}
	title := fmt.Sprintf("%s/%s\n%s\nimage %s", p.Namespace, p.Name, p.Status, p.Image)
	why := podWhy(p)
	if why != "" {
		title += "\n" + why
	}
	if p.Owner != "" {
		title += "\nowned by DaemonSet " + v.dsLabel(p.Namespace, p.Owner)
	}
	if p.Revision != "" {
		title += fmt.Sprintf("\nrevision %d (controller-revision-hash %s)", p.RevisionNumber, p.Revision)
		if old {
			title += fmt.Sprintf(": outdated, the current revision is %d", v.updateRev[p.Namespace+"/"+p.Owner])
		}
	}
	if title != c.title {
		c.title = title
		c.el.Set("title", title)
	}
	if short := shortPodWhy(p); short != c.whyKey {
		c.whyKey = short
		c.why.Set("textContent", short)
	}
	if c.parent != node {
		c.parent = node
		parent.Call("appendChild", c.el)
	}
}

// midText makes a span of class cls (plus "mid") that shows text cut in
// the middle when it does not fit: the head (text less its last tail
// bytes) ends in an ellipsis, the tail stays whole, so "fluentd-el…-x7k2p"
// keeps the random suffix that tells pods apart and an image keeps its
// name and tag. Its textContent is still the whole text (selection and
// copy take all of it); the caller puts the whole text in a title.
func midText(cls, text string, tail int) js.Value {
	e := el("span", cls+" mid")
	cut := len(text) - tail
	if tail <= 0 || cut <= 0 {
		e.Call("appendChild", textEl("span", "mid-h", text))
		return e
	}
	// --tail: the tail's width, for CSS that keeps room for it (style.css
	// .pod-image)
	e.Get("style").Call("setProperty", "--tail", strconv.Itoa(utf8.RuneCountInString(text[cut:]))+"ch")
	return appendAll(e, textEl("span", "mid-h", text[:cut]), textEl("span", "mid-t", text[cut:]))
}

// podNameTail is how many bytes at the end of a pod name midText keeps:
// the last "-" segment with its dash (a DaemonSet pod's random suffix,
// "-x7k2p"), 0 when the name has no dash.
func podNameTail(name string) int {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		return len(name) - i
	}
	return 0
}

// imageTail is how many bytes at the end of an image reference midText
// keeps: its last path segment with the tag or digest ("fluentd:v2.5.3"
// of "quay.io/fluentd_elasticsearch/fluentd:v2.5.3"), or for a reference
// without a path its ":tag".
func imageTail(ref string) int {
	if i := strings.LastIndexByte(ref, '/'); i >= 0 {
		return len(ref) - i - 1
	}
	if i := strings.LastIndexByte(ref, ':'); i > 0 {
		return len(ref) - i
	}
	return 0
}

// podWhy says why a pod is stuck or failed: the scheduler's FailedScheduling
// message for a pod it cannot place, status.reason and status.message for
// a Failed pod, the kubelet's words for a stalled one (PodView.Stall:
// ImagePullBackOff, CrashLoopBackOff, ErrImageNeverPull, not Ready);
// "" otherwise.
func podWhy(p engine.PodView) string {
	switch {
	case p.Unschedulable != "" && p.Node == "":
		return p.Unschedulable
	case p.Stall != "" && !p.Terminating:
		return p.Stall
	case p.Reason != "" && p.Message != "":
		return p.Reason + ": " + p.Message
	default:
		return p.Reason
	}
}

// shortPodWhy is podWhy for the chip itself: the FailedScheduling message
// without its "preemption: ..." sentence.
func shortPodWhy(p engine.PodView) string {
	if p.Unschedulable != "" && p.Node == "" {
		s := p.Unschedulable
		// The PostFilter sentence: "no new claims to deallocate, preemption: ..."
		// (DynamicResources, then DefaultPreemption), or "preemption: ..." alone.
		for _, marker := range []string{" no new claims to deallocate, ", " preemption: "} {
			if i := strings.Index(s, marker); i > 0 {
				s = s[:i]
			}
		}
		return strings.TrimSuffix(s, ".")
	}
	if p.Stall != "" && !p.Terminating {
		return shortStall(p.Stall)
	}
	return p.Reason
}

// shortStall keeps a stall message short enough for a chip: at most 90
// characters, cut at a word (the title and the node panel show all of it).
func shortStall(s string) string {
	if len(s) <= 90 {
		return s
	}
	cut := strings.LastIndex(s[:90], " ")
	if cut < 40 {
		cut = 90
	}
	return s[:cut] + "…"
}

// plural renders "1 pod", "2 pods".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// phaseClass maps kubectl's STATUS column to a chip colour.
func phaseClass(p engine.PodView) string {
	s := p.Status
	switch {
	case p.Terminating || s == "Terminating":
		return "terminating"
	case s == "Running":
		return "running"
	case s == "ContainerCreating" || s == "PodInitializing" || strings.HasPrefix(s, "Init:"):
		return "creating"
	case s == "Pending":
		return "pending"
	case s == "Completed" || s == "Succeeded":
		return "terminating"
	default:
		return "failed"
	}
}

func (v *view) drawDecisions() {
	sim := v.a.shown()
	ds := sim.Decisions(v.lastDecision)
	if len(ds) == 0 {
		v.lastDecision = sim.LastDecisionSeq()
		return
	}
	v.lastDecision = ds[len(ds)-1].Seq
	if len(ds) > maxLogEntries {
		ds = ds[len(ds)-maxLogEntries:]
	}
	// The rows are built as one HTML string (every text escaped) and parsed
	// by the browser in one go: creating them element by element took about
	// 7 Go->JS calls per row, 40 ms for the 300 rows a large cluster's first
	// frame adds (dsplay.addNodes("w", 1000)).
	var b strings.Builder
	for i := len(ds) - 1; i >= 0; i-- { // newest first
		d := ds[i]
		t := engine.DecisionAt(d)
		b.WriteString(`<li data-obj="`)
		b.WriteString(html.EscapeString(d.Object))
		b.WriteString(`" data-node="`)
		b.WriteString(html.EscapeString(d.Node))
		b.WriteString(`" title="click: show this pod or node on the cluster"><span class="t">`)
		b.WriteString(html.EscapeString(formatLogTime(t)))
		b.WriteString(`</span><span><span class="who">`)
		b.WriteString(html.EscapeString(d.Component))
		b.WriteString(`</span><span class="act">`)
		b.WriteString(html.EscapeString(d.Action))
		b.WriteString(`</span><span class="obj">`)
		b.WriteString(html.EscapeString(shortObject(d.Object)))
		b.WriteString(`</span>`)
		if d.Node != "" {
			b.WriteString(html.EscapeString(" on " + d.Node))
		}
		b.WriteString(`</span>`)
		if d.Reason != "" || d.Func != "" {
			r := d.Reason
			if d.Func != "" {
				if r != "" {
					r += " "
				}
				r += "(" + d.Func + ")"
			}
			b.WriteString(`<span class="reason">`)
			b.WriteString(html.EscapeString(r))
			b.WriteString(`</span>`)
		}
		b.WriteString(`</li>`)
	}
	tpl := document.Call("createElement", "template")
	tpl.Set("innerHTML", b.String())
	frag := tpl.Get("content")
	v.log.Call("insertBefore", frag, v.log.Get("firstChild"))
	v.logEntries += len(ds)
	v.logEntries = trimChildren(v.log, "lastChild", v.logEntries, maxLogEntries)
}

// shortObject drops the default namespace from "<kind>/<namespace>/<name>".
func shortObject(o string) string {
	parts := strings.Split(o, "/")
	if len(parts) == 3 && parts[1] == "default" {
		return strings.ToLower(parts[0]) + "/" + parts[2]
	}
	if len(parts) >= 1 {
		parts[0] = strings.ToLower(parts[0])
	}
	return strings.Join(parts, "/")
}

// openPanel shows the checks of node name ("" closes the panel). Opening
// moves the focus to the panel's heading (so screen readers read it and
// Tab goes on to the close button) and names the panel after the node; closing gives the focus
// back to the node's card (or to what had it before, such as the tile
// view's search box) when the focus was in the panel or nowhere.
func (v *view) openPanel(name string) {
	prev := v.panelNode
	if c := v.cards[v.panelNode]; c != nil {
		c.root.Get("classList").Call("remove", "selected")
		c.cls = ""
	}
	if t := v.tiles[v.panelNode]; t != nil {
		t.el.Get("classList").Call("remove", "selected")
		t.cls = ""
	}
	if t := v.tiles[name]; t != nil {
		t.el.Get("classList").Call("add", "selected")
		t.cls = ""
	}
	v.panelNode = name
	active := document.Get("activeElement")
	focusLost := active.IsNull() || active.Equal(document.Get("body")) || v.panel.Call("contains", active).Bool()
	if name == "" {
		v.panel.Set("hidden", true)
		if prev != "" && focusLost {
			back := v.opener
			if c := v.cards[prev]; c != nil {
				back = c.root
			}
			if !back.IsUndefined() && back.Get("isConnected").Bool() {
				back.Call("focus")
			}
		}
		v.opener = js.Undefined()
		return
	}
	if !focusLost {
		v.opener = active
	}
	if c := v.cards[name]; c != nil {
		c.root.Get("classList").Call("add", "selected")
		c.cls = ""
	}
	v.placePanel()
	v.panel.Call("setAttribute", "aria-label", "Checks for node "+name)
	v.panelClose.Call("setAttribute", "aria-label", "Close the checks for node "+name)
	v.panel.Set("hidden", false)
	v.drawPanel()
	if prev == "" || !v.panel.Call("contains", document.Get("activeElement")).Bool() {
		// The heading, not the close button: the Enter that opened the
		// panel must not also press the button.
		v.panelTitle.Call("focus")
	}
}

// placePanel puts the panel's top edge under the header (whose height
// changes when it wraps in a narrow window), so the clock controls stay
// usable while the panel is open.
func (v *view) placePanel() {
	h := document.Call("querySelector", ".topbar").Get("offsetHeight").Int()
	document.Get("documentElement").Get("style").Call("setProperty", "--topbar-h", strconv.Itoa(h)+"px")
}

// drawPanel lists, for the selected node, every check of
// nodeShouldRunDaemonPod per DaemonSet with its result.
func (v *view) drawPanel() {
	var n *engine.NodeView
	for i := range v.snap.Nodes {
		if v.snap.Nodes[i].Name == v.panelNode {
			n = &v.snap.Nodes[i]
			break
		}
	}
	if n == nil {
		return
	}
	v.panelTitle.Set("textContent", n.Name)
	body := v.panelBody
	// The body is rebuilt: a focused action button gets the focus back
	// on its successor (Fail node becomes Recover, Cordon Uncordon).
	refocus := ""
	if act := document.Get("activeElement"); !act.IsNull() && body.Call("contains", act).Bool() {
		if a := act.Get("dataset").Get("act"); !a.IsUndefined() {
			refocus = a.String()
			if t := act.Get("dataset").Get("type"); !t.IsUndefined() {
				refocus += "|" + t.String()
			}
		}
	}
	clear(body)
	body.Call("appendChild", v.nodeActions(n))
	if refocus != "" {
		act, typ, _ := strings.Cut(refocus, "|")
		sel := map[string]string{"fail": "recover", "recover": "fail", "cordon": "uncordon", "uncordon": "cordon"}[act]
		q := `[data-act="` + act + `"]`
		if typ != "" {
			q = `[data-act="cond"][data-type="` + typ + `"]`
		} else if sel != "" {
			q += `, [data-act="` + sel + `"]`
		}
		if b := body.Call("querySelector", q); !b.IsNull() {
			b.Call("focus")
		}
	}

	sec := el("section", "facts")
	sec.Call("appendChild", textEl("p", "", fmt.Sprintf("STATUS %s · ROLES %s · %s", n.Status, n.Roles, plural(len(n.Pods), "pod"))))
	if len(n.Taints) > 0 {
		kv := el("div", "kv")
		for _, t := range n.Taints {
			kv.Call("appendChild", textEl("span", "taint", t))
		}
		appendAll(sec, appendAll(el("div", "group"), textEl("h3", "", "Taints"), kv))
	}
	kv := el("div", "kv")
	for _, l := range n.Labels {
		kv.Call("appendChild", textEl("span", "label", l))
	}
	appendAll(sec, appendAll(el("div", "group"), textEl("h3", "", "Labels"), kv))
	// Pods that are stuck or failed, with the reason (the scheduler's
	// message for a daemon pod pinned here that it cannot place).
	stuck := el("ul", "stuck")
	addStuck := func(p engine.PodView) {
		if why := podWhy(p); why != "" {
			li := el("li", "")
			appendAll(li, document.Call("createTextNode", "pod "), textEl("code", "", p.Name),
				document.Call("createTextNode", " is "+p.Status+": "+why))
			if p.NeverPulled != "" {
				appendAll(li, document.Call("createTextNode", " "), v.preloadButton(p.NeverPulled))
			}
			stuck.Call("appendChild", li)
		}
	}
	for _, p := range n.Pods {
		addStuck(p)
	}
	for _, p := range v.snap.Pending {
		if p.Target == n.Name {
			addStuck(p)
		}
	}
	if stuck.Get("childElementCount").Int() > 0 {
		appendAll(sec, appendAll(el("div", "group"), textEl("h3", "", "Pods not running"), stuck))
	}
	body.Call("appendChild", sec)

	if len(n.Daemons) == 0 {
		body.Call("appendChild", textEl("p", "hint", "No DaemonSets: apply one to see the checks of nodeShouldRunDaemonPod for this node."))
		return
	}
	h := el("h3", "")
	appendAll(h, textEl("code", "", "nodeShouldRunDaemonPod"), document.Call("createTextNode", " for each DaemonSet"))
	body.Call("appendChild", h)
	for _, d := range n.Daemons {
		box := el("div", "verdict")
		box.Get("dataset").Set("ds", d.Name)
		box.Get("dataset").Set("dsKey", d.DaemonSet)
		sum := el("div", "summary")
		flag := func(label string, b bool) js.Value {
			if b {
				return textEl("span", "flag yes", label+": yes")
			}
			return textEl("span", "flag no", label+": no")
		}
		appendAll(sum,
			flag("shouldRun", d.ShouldRun),
			flag("shouldContinueRunning", d.ShouldContinueRunning),
			textEl("span", "flag", fmt.Sprintf("pods here: %d", d.Pods)))
		appendAll(box, textEl("h4", "", v.dsLabel(dsNamespace(d), d.Name)), sum)
		ul := el("ul", "checks")
		for _, ch := range d.Checks {
			cls, mark := "fail", "✗"
			if ch.Passed {
				cls, mark = "pass", "✓"
			}
			li := el("li", cls)
			appendAll(li, textEl("span", "r", mark), textEl("span", "name", ch.Name))
			if ch.Detail != "" {
				li.Call("appendChild", textEl("span", "detail", ch.Detail))
			}
			ul.Call("appendChild", li)
		}
		if len(d.Checks) == 0 {
			ul.Call("appendChild", textEl("li", "", "no checks reported"))
		}
		box.Call("appendChild", ul)
		if d.Refused != "" {
			// shouldRun, and syncNodes tried: the API server said no.
			box.Call("appendChild", textEl("p", "refused", "syncNodes: the API server refused the pod ("+d.Refused+"). The controller retries with back-off; kubectl describe ds "+d.Name+" shows the FailedCreate events."))
		}
		body.Call("appendChild", box)
	}
}
