//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
)

// Taint ↔ toleration lines: hovering (or tapping) a pod chip on a tainted
// node draws a line from each of the node's taint badges to the pod —
// solid where one of the pod's tolerations tolerates the taint, dashed red
// where none does — and lists the pairs under the chip, with the
// tolerations the DaemonSet controller adds marked as such
// (engine.ScenePod.Tolerations).

const svgNS = "http://www.w3.org/2000/svg"

// tolLines is what showTolerations drew: the pod, its card's overlay, the
// list under its chip and the badges it marked.
type tolLines struct {
	key           string
	svg, box      js.Value
	badges        []js.Value
	card, chip    js.Value
	pinned, shown bool
}

// initTolerations listens for the pointer over the node cards.
func (st *stage) initTolerations(a *app) {
	over := func(ev dom.Event) {
		chip := ev.Underlying().Get("target").Call("closest", ".pod[data-pod-key]")
		if chip.IsNull() {
			if !st.tol.pinned {
				st.clearTolerations()
			}
			return
		}
		if key := chip.Get("dataset").Get("podKey").String(); !st.tol.shown || key != st.tol.key {
			st.showTolerations(key, false)
		}
	}
	a.listen(dom.WrapElement(st.v.nodesBox), "mouseover", over)
	// a pod chip focused from the keyboard shows them as the pointer does
	a.listen(dom.WrapElement(st.v.nodesBox), "focusin", over)
	a.listen(dom.WrapElement(st.v.nodesBox), "focusout", func(dom.Event) {
		if !st.tol.pinned {
			st.clearTolerations()
		}
	})
	a.listen(dom.WrapElement(st.v.nodesBox), "mouseleave", func(dom.Event) {
		if !st.tol.pinned {
			st.clearTolerations()
		}
	})
	// a tap pins them until the next tap elsewhere
	a.listen(dom.WrapElement(document), "click", func(ev dom.Event) {
		chip := ev.Underlying().Get("target").Call("closest", "#nodes .pod[data-pod-key]")
		if chip.IsNull() {
			st.clearTolerations()
			return
		}
		st.showTolerations(chip.Get("dataset").Get("podKey").String(), true)
	})
}

// scenePod is the drawn scene's pod of key, and its node.
func (st *stage) scenePod(key string) (engine.ScenePod, string, bool) {
	for _, n := range st.prev.Nodes {
		for _, p := range n.Pods {
			if p.Key == key {
				return p, n.Name, true
			}
		}
	}
	return engine.ScenePod{}, "", false
}

// showTolerations draws the taint ↔ toleration lines of pod key (pinned:
// they stay when the pointer leaves).
func (st *stage) showTolerations(key string, pinned bool) {
	st.clearTolerations()
	p, node, ok := st.scenePod(key)
	c, card := st.chip(key), st.v.cards[node]
	if !ok || c == nil || card == nil || len(p.Tolerations) == 0 {
		return
	}
	t := &st.tol
	t.key, t.pinned, t.shown, t.card, t.chip = key, pinned, true, card.root, c.el
	cr := card.root.Call("getBoundingClientRect")
	pr := c.el.Call("getBoundingClientRect")
	left, top := cr.Get("left").Float(), cr.Get("top").Float()
	svg := document.Call("createElementNS", svgNS, "svg")
	svg.Call("setAttribute", "class", "tol-lines")
	svg.Call("setAttribute", "width", strconv.Itoa(int(cr.Get("width").Float())))
	svg.Call("setAttribute", "height", strconv.Itoa(int(cr.Get("height").Float())))
	svg.Call("setAttribute", "aria-hidden", "true")
	box := el("ul", "tol-box")
	box.Call("setAttribute", "aria-label", "taints and the tolerations that match them")
	for i, m := range p.Tolerations {
		cls := "tol-no"
		if m.Toleration != "" {
			cls = "tol-ok"
		}
		if b := taintBadge(card, m.Taint); b.Truthy() {
			br := b.Call("getBoundingClientRect")
			x1 := br.Get("left").Float() + br.Get("width").Float()/2 - left
			y1 := br.Get("bottom").Float() - top
			x2 := pr.Get("left").Float() + 14 + float64(i)*10 - left
			y2 := pr.Get("top").Float() - top
			line := document.Call("createElementNS", svgNS, "path")
			mid := (y1 + y2) / 2
			line.Call("setAttribute", "d", "M"+fmtPx(x1)+" "+fmtPx(y1)+" C"+fmtPx(x1)+" "+fmtPx(mid)+" "+fmtPx(x2)+" "+fmtPx(mid)+" "+fmtPx(x2)+" "+fmtPx(y2))
			line.Call("setAttribute", "class", cls)
			svg.Call("appendChild", line)
			b.Get("classList").Call("add", cls)
			t.badges = append(t.badges, b)
		}
		li := textEl("li", cls, tolText(m))
		box.Call("appendChild", li)
	}
	card.root.Call("appendChild", svg)
	c.el.Call("appendChild", box)
	t.svg, t.box = svg, box
}

// tolText is one taint ↔ toleration pair in words.
func tolText(m engine.TaintMatch) string {
	if m.Toleration != "" {
		s := "✓ " + m.Taint + " tolerated by " + m.Toleration
		if m.Added {
			s += " (added by the DaemonSet controller)"
		}
		return s
	}
	switch m.Effect {
	case "NoExecute":
		return "✗ " + m.Taint + " not tolerated: the taint eviction controller evicts the pod"
	case "NoSchedule":
		return "✗ " + m.Taint + " not tolerated: no new pod is placed here; a running one stays"
	default:
		return "✗ " + m.Taint + " not tolerated: the scheduler prefers other nodes"
	}
}

func fmtPx(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// clearTolerations removes the lines, the list and the badges' marks.
func (st *stage) clearTolerations() {
	t := &st.tol
	if !t.shown {
		return
	}
	for _, e := range []js.Value{t.svg, t.box} {
		if e.Truthy() {
			remove(e)
		}
	}
	for _, b := range t.badges {
		b.Get("classList").Call("remove", "tol-ok", "tol-no")
	}
	*t = tolLines{}
}

// redrawTolerations follows a redraw: the lines of the pod shown are
// drawn again where its chip and badges now are (gone with the pod).
func (st *stage) redrawTolerations() {
	if t := st.tol; t.shown {
		st.showTolerations(t.key, t.pinned)
	}
}
