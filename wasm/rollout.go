//go:build js && wasm

package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/dsplayground/dsplay/engine"
)

// The rollout view (#rollout): per DaemonSet, a legend of its revisions
// (number, images, controller-revision-hash, live pods; the update
// revision marked), and for RollingUpdate a progress bar with the numbers
// kubectl rollout status reads (updatedNumberScheduled,
// desiredNumberScheduled, numberAvailable) and its message; for OnDelete a
// note that pods change only when deleted. Pods take their revision's
// colour (revClass) on the chips and tiles, with a text ("r2") and shape
// cue (old revisions hollow and dashed; outdated tiles round) beside it.

// revColours is the number of revision colours (.rv0 ... .rv5 in
// style.css: the Okabe-Ito palette without its yellow, safe for the common
// colour-vision deficiencies); revision n takes colour (n-1) mod revColours.
const revColours = 6

// revClass is the colour class of revision n ("rvx" when unknown).
func revClass(n int64) string {
	if n <= 0 {
		return "rvx"
	}
	return "rv" + strconv.FormatInt((n-1)%revColours, 10)
}

// rolloutBlock is one DaemonSet's part of the rollout view.
type rolloutBlock struct {
	el   js.Value
	key  string
	seen bool
	// det is the block's <details>; steady what its open state was last
	// chosen for (drawn is false before the first fill): a block opens by
	// itself while its rollout runs and folds to one line once rolled
	// out, and a learner's own open or close holds until that changes.
	det           js.Value
	steady, drawn bool
}

// updateRevisions maps "namespace/name" of each DaemonSet to its update
// revision's number, for the chips and tiles.
func (v *view) updateRevisions() {
	v.updateRev = make(map[string]int64, len(v.snap.DaemonSets))
	for _, d := range v.snap.DaemonSets {
		v.updateRev[d.Namespace+"/"+d.Name] = d.UpdateRevision
	}
}

// podRevision returns the pod's revision tag ("r2", "" for a bare pod),
// and whether the pod is on an old revision of its DaemonSet.
func (v *view) podRevision(p engine.PodView) (tag string, old bool) {
	if p.Owner == "" || p.Revision == "" {
		return "", false
	}
	cur := v.updateRev[p.Namespace+"/"+p.Owner]
	if p.RevisionNumber == 0 {
		return "r?", true
	}
	return "r" + strconv.FormatInt(p.RevisionNumber, 10), p.RevisionNumber != cur
}

// drawRollouts redraws the blocks of the DaemonSets whose rollout data
// changed.
func (v *view) drawRollouts() {
	if v.rollouts == nil {
		v.rollouts = map[string]*rolloutBlock{}
	}
	for _, b := range v.rollouts {
		b.seen = false
	}
	var prev js.Value
	for _, d := range v.snap.DaemonSets {
		id := d.Namespace + "/" + d.Name
		b := v.rollouts[id]
		if b == nil {
			b = &rolloutBlock{el: el("div", "ro-ds")}
			b.el.Get("dataset").Set("ds", d.Name)
			b.el.Get("dataset").Set("dsKey", id)
			v.rollouts[id] = b
		}
		b.seen = true
		if k := rolloutKey(d) + v.dsLabel(d.Namespace, d.Name); k != b.key {
			b.key = k
			v.fillRollout(b, d)
		}
		// keep the blocks in the table's order
		want := v.rolloutBox.Get("firstElementChild")
		if !prev.IsUndefined() {
			want = prev.Get("nextElementSibling")
		}
		if !want.Equal(b.el) {
			if prev.IsUndefined() {
				v.rolloutBox.Call("prepend", b.el)
			} else {
				prev.Call("after", b.el)
			}
		}
		prev = b.el
	}
	for id, b := range v.rollouts {
		if !b.seen {
			remove(b.el)
			delete(v.rollouts, id)
		}
	}
	v.rolloutBox.Set("hidden", len(v.snap.DaemonSets) == 0)
	v.drawRevisionKey()
}

// drawRevisionKey fills the legend's revision key (#legend-rev) with the
// revisions that exist: the first DaemonSet's current revision as a
// filled tag, then each older revision that still has pods as a hollow
// one ("r2 r1 revision: current, outdated (hollow)"); hidden without a
// DaemonSet revision, so the key never shows a revision the cluster lacks.
func (v *view) drawRevisionKey() {
	box := byID("legend-rev")
	if box.IsNull() {
		return
	}
	var cur js.Value
	var olds []js.Value
	var key strings.Builder
	for _, d := range v.snap.DaemonSets {
		if d.UpdateRevision <= 0 || len(d.Revisions) == 0 {
			continue
		}
		cur = textEl("i", "rev-tag "+revClass(d.UpdateRevision), "r"+strconv.FormatInt(d.UpdateRevision, 10))
		fmt.Fprintf(&key, "%d", d.UpdateRevision)
		for i := len(d.Revisions) - 1; i >= 0; i-- { // newest first, as the chips read
			r := d.Revisions[i]
			if r.Current || r.Pods == 0 {
				continue
			}
			olds = append(olds, textEl("i", "rev-tag old "+revClass(r.Number), "r"+strconv.FormatInt(r.Number, 10)))
			fmt.Fprintf(&key, ",%d", r.Number)
		}
		break
	}
	if key.String() == v.revKeyShown {
		return
	}
	v.revKeyShown = key.String()
	clear(box)
	if cur.IsUndefined() {
		box.Set("hidden", true)
		return
	}
	box.Call("appendChild", cur)
	words := "revision: current"
	if len(olds) > 0 {
		appendAll(box, olds...)
		words = "revision: current, outdated (hollow)"
	}
	box.Call("appendChild", document.Call("createTextNode", words))
	box.Set("hidden", false)
}

// clearRevisionKey empties and hides the revision key (a new cluster: the
// key is drawn again from its DaemonSets, if it has any).
func (v *view) clearRevisionKey() {
	v.revKeyShown = ""
	if box := byID("legend-rev"); !box.IsNull() {
		clear(box)
		box.Set("hidden", true)
	}
}

// rolloutKey is everything fillRollout draws from d.
func rolloutKey(d engine.DaemonSetView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s|%d|%d|%d|%d|%d|%s|%d|", d.Strategy, d.MaxUnavailable, d.MaxSurge, d.MinReadySeconds,
		d.Desired, d.UpToDate, d.Available, d.UpdateRevision, d.RolloutMessage, len(d.Revisions))
	for _, r := range d.Revisions {
		fmt.Fprintf(&b, "%d/%s/%s/%d/%v/%s|", r.Number, r.Hash, strings.Join(r.Images, ","), r.Pods, r.Current, r.ChangeCause)
	}
	return b.String()
}

// fillRollout rebuilds one DaemonSet's block: a <details> whose summary is
// one line (name, strategy, the current revision's tag, rollout status's
// numbers) and whose body has the revision legend, the progress bar and
// the message. It is open while the rollout runs (or several revisions
// have pods) and folded once rolled out, unless the learner chose
// otherwise during the same phase.
func (v *view) fillRollout(b *rolloutBlock, d engine.DaemonSetView) {
	box := b.el
	steady := d.RolloutDone && livingRevisions(d) <= 1
	open := !steady
	if b.drawn && b.steady == steady && !b.det.IsUndefined() {
		open = b.det.Get("open").Bool() // the learner's choice holds
	}
	b.drawn, b.steady = true, steady
	clear(box)
	label := v.dsLabel(d.Namespace, d.Name)
	det := el("details", "ro-det")
	det.Set("open", open)
	b.det = det
	head := el("summary", "ro-head")
	strategy := d.Strategy
	if d.Strategy == "RollingUpdate" {
		if d.MaxUnavailable != "" {
			strategy += " · maxUnavailable " + d.MaxUnavailable
		}
		if d.MaxSurge != "" {
			strategy += " · maxSurge " + d.MaxSurge
		}
	}
	if d.MinReadySeconds > 0 {
		strategy += fmt.Sprintf(" · minReadySeconds %d", d.MinReadySeconds)
	}
	appendAll(head, textEl("strong", "ro-name", label), textEl("span", "ro-strategy", strategy))
	// what the folded block still says: the current revision and how far
	// the rollout is
	short := el("span", "ro-short")
	if d.UpdateRevision > 0 {
		short.Call("appendChild", textEl("i", "rev-tag "+revClass(d.UpdateRevision), "r"+strconv.FormatInt(d.UpdateRevision, 10)))
	}
	state, done := d.RolloutSummary()
	if done {
		short.Get("classList").Call("add", "done")
	}
	short.Call("appendChild", textEl("span", "ro-state", state))
	if d.Strategy == "RollingUpdate" {
		short.Get("classList").Call("add", "has-bar")
	}
	head.Call("appendChild", short)
	det.Call("appendChild", head)
	box.Call("appendChild", det)

	// the legend: one line per revision, newest last (rollout history's order)
	legend := el("ul", "ro-legend")
	legend.Call("setAttribute", "aria-label", "revisions of "+label)
	for _, r := range d.Revisions {
		li := el("li", "ro-rev")
		li.Get("dataset").Set("rev", strconv.FormatInt(r.Number, 10))
		li.Get("dataset").Set("hash", r.Hash)
		tag := textEl("span", "rev-tag "+revClass(r.Number), "r"+strconv.FormatInt(r.Number, 10))
		if !r.Current {
			tag.Get("classList").Call("add", "old")
		}
		images := strings.Join(r.Images, ", ")
		if images == "" {
			images = "(no image)"
		}
		appendAll(li, tag,
			textEl("span", "ro-img", images),
			textEl("code", "ro-hash", r.Hash),
			textEl("span", "ro-pods", plural(r.Pods, "pod")))
		title := fmt.Sprintf("revision %d: ControllerRevision %s\ncontroller-revision-hash %s\nimages %s\n%s", r.Number, r.Name, r.Hash, images, plural(r.Pods, "live pod"))
		if r.ChangeCause != "" {
			title += "\nchange-cause: " + r.ChangeCause
		}
		if r.Current {
			li.Get("classList").Call("add", "current")
			li.Get("dataset").Set("current", "true")
			li.Call("appendChild", textEl("span", "ro-cur", "current"))
			title += "\nthe update revision: the current pod template"
		}
		li.Set("title", title)
		legend.Call("appendChild", li)
	}
	if len(d.Revisions) == 0 {
		legend.Call("appendChild", textEl("li", "ro-none", "no ControllerRevision yet"))
	}
	det.Call("appendChild", legend)

	if d.Strategy != "RollingUpdate" {
		note := textEl("p", "ro-note", fmt.Sprintf("%s: changing the template records a new revision and replaces no pod; a pod is recreated from the current template only when you delete it (kubectl delete pod NAME). %d of %d on the current revision.", d.Strategy, d.UpToDate, d.Desired))
		note.Set("title", "kubectl rollout status prints: "+d.RolloutMessage)
		det.Call("appendChild", note)
		return
	}
	// the progress bar: updated out of desired, available beneath
	pct := func(n int32) string {
		if d.Desired <= 0 {
			return "0%"
		}
		return strconv.FormatFloat(100*float64(min(n, d.Desired))/float64(d.Desired), 'f', 2, 64) + "%"
	}
	bar := el("div", "ro-bar")
	bar.Call("setAttribute", "role", "progressbar")
	bar.Call("setAttribute", "aria-label", "rollout of "+label+": pods updated")
	bar.Call("setAttribute", "aria-valuemin", "0")
	bar.Call("setAttribute", "aria-valuemax", strconv.Itoa(int(d.Desired)))
	bar.Call("setAttribute", "aria-valuenow", strconv.Itoa(int(d.UpToDate)))
	bar.Call("setAttribute", "aria-valuetext", fmt.Sprintf("%d of %d pods updated, %d available", d.UpToDate, d.Desired, d.Available))
	ds := bar.Get("dataset")
	ds.Set("updated", d.UpToDate)
	ds.Set("desired", d.Desired)
	ds.Set("available", d.Available)
	upd := el("span", "ro-upd "+revClass(d.UpdateRevision))
	upd.Get("style").Set("width", pct(d.UpToDate))
	avl := el("span", "ro-avl")
	avl.Get("style").Set("width", pct(d.Available))
	appendAll(bar, upd, avl)
	nums := textEl("span", "ro-nums", fmt.Sprintf("updated %d/%d · available %d/%d", d.UpToDate, d.Desired, d.Available, d.Desired))
	row := appendAll(el("div", "ro-row"), bar, nums)
	msg := textEl("p", "ro-msg", d.RolloutMessage)
	if d.RolloutDone {
		msg.Get("classList").Call("add", "done")
	}
	// steady (rolled out, one revision): the bar row folds away (CSS)
	box.Get("classList").Call("toggle", "steady", steady)
	msg.Set("title", "what kubectl rollout status ds/"+d.Name+" prints now")
	appendAll(det, row, msg)
}

// livingRevisions counts d's revisions that are current or still have pods.
func livingRevisions(d engine.DaemonSetView) int {
	n := 0
	for _, r := range d.Revisions {
		if r.Current || r.Pods > 0 {
			n++
		}
	}
	return n
}

// tileRev is the revision a tile shows: its number and whether it is
// outdated.
type tileRev struct {
	n   int64
	old bool
}

// sortedTileRevs returns the keys of revs, outdated ones first, then by
// number.
func sortedTileRevs(revs map[tileRev]int) []tileRev {
	out := make([]tileRev, 0, len(revs))
	for r := range revs {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].old != out[j].old {
			return out[i].old
		}
		return out[i].n < out[j].n
	})
	return out
}

// summaryRevisions adds to the tile view's summary line how many tiles
// show each revision ("r1 241 outdated", "r2 81").
func (v *view) summaryRevisions(keys []tileRev, revs map[tileRev]int) {
	for _, r := range keys {
		tag := textEl("i", "rev-tag "+revClass(r.n), "r"+strconv.FormatInt(r.n, 10))
		words := fmt.Sprintf(" %d on revision %d", revs[r], r.n)
		if r.old {
			tag.Get("classList").Call("add", "old")
			words += " (outdated, round)"
		}
		s := el("span", "sum")
		appendAll(s, tag, document.Call("createTextNode", words))
		v.summary.Call("appendChild", s)
	}
}

// tileRevision sums up a node's daemon pods for its tile: the revision it
// shows and whether that revision is outdated (a pod on the node runs an
// old revision of its DaemonSet: the oldest such; else the newest current
// one), plus a phrase for the tooltip. Terminating pods do not count; rev
// is 0 when no pod counts.
func (v *view) tileRevision(n *engine.NodeView) (rev int64, old bool, words string) {
	var newest, oldest int64
	var oldOwner, oldNS string
	for _, p := range n.Pods {
		if p.Terminating || p.Owner == "" || p.RevisionNumber == 0 {
			continue
		}
		if _, old := v.podRevision(p); old {
			if oldest == 0 || p.RevisionNumber < oldest {
				oldest, oldOwner, oldNS = p.RevisionNumber, p.Owner, p.Namespace
			}
		} else if p.RevisionNumber > newest {
			newest = p.RevisionNumber
		}
	}
	switch {
	case oldest > 0:
		return oldest, true, fmt.Sprintf(" · revision %d (outdated: %s is on revision %d)", oldest, oldOwner, v.updateRev[oldNS+"/"+oldOwner])
	case newest > 0:
		return newest, false, fmt.Sprintf(" · revision %d (current)", newest)
	}
	return 0, false, ""
}
