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
	"github.com/dsplayground/dsplay/engine/cluster"
)

// maxLogEntries bounds the decision log on screen.
const maxLogEntries = 300

// leaveMillis is how long a removed pod chip fades before it is detached
// (matches the .pod transition in style.css).
const leaveMillis = 500

// view draws snapshots: it keeps one DOM element per node card and pod chip
// and writes only what changed, once per frame.
type view struct {
	a *app

	clock, nodesBox, pendingBox, pendingPods, dsRows, log js.Value
	panel, panelTitle, panelBody                          js.Value

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
	panelNode    string
}

type nodeCard struct {
	root, name, status, roles, taints, pods, why js.Value
	cls, statusKey, rolesKey, taintKey, whyKey   string
	seen                                         bool
}

type podChip struct {
	el, name, status, image js.Value
	parent                  string // node name, "" for the not-scheduled area
	cls, statusText, title  string
	seen                    bool
}

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
		log:         byID("log"),
		panel:       byID("panel"),
		panelTitle:  byID("panel-title"),
		panelBody:   byID("panel-body"),
		cards:       map[string]*nodeCard{},
		chips:       map[string]*podChip{},
		lastRV:      -1,
	}
	// Delegated listeners for every node card: click, or Enter/Space when focused.
	toggle := func(ev dom.Event) {
		card := ev.Underlying().Get("target").Call("closest", ".node")
		if card.IsNull() {
			return
		}
		name := card.Get("dataset").Get("node").String()
		if name == v.panelNode {
			v.openPanel("")
		} else {
			v.openPanel(name)
		}
	}
	nodes := dom.WrapElement(v.nodesBox)
	a.listen(nodes, "click", toggle)
	a.listen(nodes, "keydown", func(ev dom.Event) {
		if k := ev.Underlying().Get("key").String(); k == "Enter" || k == " " {
			ev.PreventDefault()
			toggle(ev)
		}
	})
	return v
}

// render draws the clock, and everything else when the store changed since
// the last frame (or force).
func (v *view) render(force bool) {
	sim := v.a.sim
	if c := formatElapsed(sim.Elapsed()); c != v.lastClock {
		v.lastClock = c
		v.clock.Set("textContent", c)
	}
	rv := sim.Cluster.ResourceVersion()
	if rv != v.lastRV || force {
		v.lastRV = rv
		t0 := nowMs()
		v.snap = sim.Snapshot()
		t1 := nowMs()
		v.drawDaemonSets()
		v.drawNodes()
		if v.panelNode != "" {
			v.drawPanel()
		}
		st := &v.a.stats
		st.Snapshots++
		st.SnapshotMs, st.DrawMs = t1-t0, nowMs()-t1
	}
	if sim.Cluster.LastDecisionSeq() != v.lastDecision {
		v.drawDecisions()
	}
}

// formatElapsed renders virtual time as "12.3 s" or "2m 03.4s".
func formatElapsed(d time.Duration) string {
	tenths := int64(d / (100 * time.Millisecond))
	s := float64(tenths) / 10
	if s < 60 {
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	}
	m := int64(s) / 60
	rest := s - float64(m*60)
	if m < 60 {
		return fmt.Sprintf("%dm %04.1fs", m, rest)
	}
	return fmt.Sprintf("%dh %02dm %04.1fs", m/60, m%60, rest)
}

// formatLogTime renders a decision's virtual time compactly: "12.3s", "2:03.4".
func formatLogTime(d time.Duration) string {
	tenths := int64(d / (100 * time.Millisecond))
	if tenths < 600 {
		return fmt.Sprintf("%d.%ds", tenths/10, tenths%10)
	}
	m, rest := tenths/600, tenths%600
	return fmt.Sprintf("%d:%02d.%d", m, rest/10, rest%10)
}

func (v *view) drawDaemonSets() {
	var b strings.Builder
	for _, d := range v.snap.DaemonSets {
		fmt.Fprintf(&b, "%s/%s %d %d %d %d %d %d %s|", d.Namespace, d.Name, d.Desired, d.Current, d.Ready, d.UpToDate, d.Available, d.Misscheduled, strings.Join(d.Images, ","))
	}
	key := b.String()
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
		label := d.Name
		if d.Namespace != "default" {
			label = d.Namespace + "/" + d.Name
		}
		appendAll(name, document.Call("createTextNode", label), textEl("span", "img", strings.Join(d.Images, ", ")))
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
	}
}

func (v *view) drawNodes() {
	for _, c := range v.cards {
		c.seen = false
	}
	for _, c := range v.chips {
		c.seen = false
	}
	orderChanged := len(v.order) != len(v.snap.Nodes)
	for i, n := range v.snap.Nodes {
		if !orderChanged && v.order[i] != n.Name {
			orderChanged = true
		}
		c := v.cards[n.Name]
		if c == nil {
			c = newNodeCard(n.Name)
			v.cards[n.Name] = c
			orderChanged = true
		}
		c.seen = true
		c.update(n, n.Name == v.panelNode)
		for _, p := range n.Pods {
			v.placeChip(p, n.Name, c.pods)
		}
	}
	// A daemon pod not bound yet is drawn on the node it is pinned to.
	loose := 0
	for _, p := range v.snap.Pending {
		if c := v.cards[p.Target]; p.Target != "" && c != nil {
			v.placeChip(p, p.Target, c.pods)
		} else {
			v.placeChip(p, "", v.pendingPods)
			loose++
		}
	}
	v.pendingBox.Set("hidden", loose == 0)

	// Chips whose pod is gone fade out, then are detached by sweep.
	now := global.Get("performance").Call("now").Float()
	for k, c := range v.chips {
		if !c.seen {
			c.el.Get("classList").Call("add", "gone")
			v.leaving = append(v.leaving, leavingChip{el: c.el, deadline: now + leaveMillis})
			delete(v.chips, k)
		}
	}
	for name, c := range v.cards {
		if !c.seen {
			remove(c.root)
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

// sweep detaches faded chips whose time is up.
func (v *view) sweep(float64) {
	if len(v.leaving) == 0 {
		return
	}
	now := global.Get("performance").Call("now").Float()
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

func (c *nodeCard) update(n engine.NodeView, selected bool) {
	cls := "node"
	if !n.Ready {
		cls += " notready"
	}
	if selected {
		cls += " selected"
	}
	if cls != c.cls {
		c.cls = cls
		c.root.Set("className", cls)
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
			s.Set("title", "taint "+t)
			c.taints.Call("appendChild", s)
		}
	}
	// Why this node lacks (or should not have) a DaemonSet's pod.
	var b strings.Builder
	for _, d := range n.Daemons {
		switch {
		case d.Misscheduled:
			fmt.Fprintf(&b, "m\x01%s\x01%s\x00", d.Name, d.Reason)
		case d.Reason != "" && d.Pods == 0:
			fmt.Fprintf(&b, "n\x01%s\x01%s\x00", d.Name, d.Reason)
		}
	}
	if wk := b.String(); wk != c.whyKey {
		c.whyKey = wk
		clear(c.why)
		for _, d := range n.Daemons {
			var li js.Value
			switch {
			case d.Misscheduled:
				li = el("li", "missched")
				li.Set("textContent", d.Name+" pod misscheduled: "+shortReason(d.Reason))
			case d.Reason != "" && d.Pods == 0:
				li = el("li", "")
				li.Set("textContent", "no "+d.Name+" pod: "+shortReason(d.Reason))
			default:
				continue
			}
			li.Get("dataset").Set("ds", d.Name)
			li.Set("title", d.Reason+"\n(click the node for every check)")
			c.why.Call("appendChild", li)
		}
	}
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
func (v *view) placeChip(p engine.PodView, node string, parent js.Value) {
	key := p.UID
	if key == "" {
		key = p.Namespace + "/" + p.Name
	}
	c := v.chips[key]
	if c == nil {
		c = &podChip{
			el:     el("div", ""),
			name:   textEl("span", "pod-name", p.Name),
			status: el("span", "pod-status"),
			image:  textEl("span", "pod-image", p.Image),
			parent: "\x00", // not placed yet
		}
		c.el.Get("dataset").Set("pod", p.Name)
		c.el.Get("dataset").Set("owner", p.Owner)
		appendAll(c.el, c.name, c.status, c.image)
		v.chips[key] = c
	}
	c.seen = true
	cls := "pod phase-" + phaseClass(p)
	if cls != c.cls {
		c.cls = cls
		c.el.Set("className", cls)
	}
	st := p.Status + " · " + p.Ready
	if st != c.statusText {
		c.statusText = st
		c.status.Set("textContent", st)
		c.el.Get("dataset").Set("status", p.Status)
	}
	title := fmt.Sprintf("%s/%s\n%s\nimage %s", p.Namespace, p.Name, p.Status, p.Image)
	if p.Owner != "" {
		title += "\nowned by DaemonSet " + p.Owner
	}
	if p.Revision != "" {
		title += "\nrevision " + p.Revision
	}
	if title != c.title {
		c.title = title
		c.el.Set("title", title)
	}
	if c.parent != node {
		c.parent = node
		parent.Call("appendChild", c.el)
	}
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
	sim := v.a.sim
	ds := sim.Decisions(v.lastDecision)
	if len(ds) == 0 {
		v.lastDecision = sim.Cluster.LastDecisionSeq()
		return
	}
	v.lastDecision = ds[len(ds)-1].Seq
	if len(ds) > maxLogEntries {
		ds = ds[len(ds)-maxLogEntries:]
	}
	frag := document.Call("createDocumentFragment")
	for i := len(ds) - 1; i >= 0; i-- { // newest first
		d := ds[i]
		li := el("li", "")
		t := d.Time.Sub(cluster.Epoch)
		what := el("span", "")
		appendAll(what,
			textEl("span", "who", d.Component),
			textEl("span", "act", d.Action),
			textEl("span", "obj", shortObject(d.Object)))
		if d.Node != "" {
			what.Call("appendChild", document.Call("createTextNode", " on "+d.Node))
		}
		appendAll(li, textEl("span", "t", formatLogTime(t)), what)
		if d.Reason != "" || d.Func != "" {
			r := d.Reason
			if d.Func != "" {
				if r != "" {
					r += " "
				}
				r += "(" + d.Func + ")"
			}
			li.Call("appendChild", textEl("span", "reason", r))
		}
		frag.Call("appendChild", li)
	}
	v.log.Call("insertBefore", frag, v.log.Get("firstChild"))
	v.logEntries += len(ds)
	for v.logEntries > maxLogEntries {
		last := v.log.Get("lastChild")
		if last.IsNull() {
			break
		}
		remove(last)
		v.logEntries--
	}
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

// openPanel shows the checks of node name ("" closes the panel).
func (v *view) openPanel(name string) {
	if c := v.cards[v.panelNode]; c != nil {
		c.root.Get("classList").Call("remove", "selected")
		c.cls = ""
	}
	v.panelNode = name
	if name == "" {
		v.panel.Set("hidden", true)
		return
	}
	if c := v.cards[name]; c != nil {
		c.root.Get("classList").Call("add", "selected")
		c.cls = ""
	}
	v.panel.Set("hidden", false)
	v.drawPanel()
}

// drawPanel lists, for the selected node, every check of
// nodeShouldRunDaemonPod per DaemonSet with its result.
func (v *view) drawPanel() {
	var n *engine.NodeView
	for i := range v.snap.Nodes {
		if v.snap.Nodes[i].Name == v.panelNode {
			n = &v.snap.Nodes[i]
		}
	}
	if n == nil {
		return
	}
	v.panelTitle.Set("textContent", n.Name)
	body := v.panelBody
	clear(body)

	sec := el("section", "facts")
	sec.Call("appendChild", textEl("p", "", fmt.Sprintf("STATUS %s · ROLES %s · %d pods", n.Status, n.Roles, len(n.Pods))))
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
		appendAll(box, textEl("h4", "", d.Name), sum)
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
		body.Call("appendChild", box)
	}
}
