package kubectl

import (
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// Watch is a running `kubectl get -w` (or --watch-only): after the command
// printed its initial output, Poll returns the lines kubectl would print
// for the changes made to the watched objects since the previous poll, as
// virtual time runs. It mirrors GetOptions.watch (pkg/cmd/get/get.go):
//
//   - a list watch (`get pods -w`) prints the current objects, then one
//     row (or document) per change; a watch of one name (`get pod x -w`)
//     prints the object, then its changes; --watch-only prints only the
//     changes;
//   - tables print their header once, before the first row, and keep
//     their column widths (the tab writer's RememberWidths), so later
//     rows line up under it; --no-headers drops the header;
//   - --output-watch-events adds the EVENT column (ADDED, MODIFIED,
//     DELETED), or wraps yaml/json output in {type, object};
//   - an object that stops matching the selectors is DELETED for the
//     watch, one that starts matching is ADDED, as the API server's watch
//     cache filters.
//
// The playground's store changes objects in place, so a Watch compares
// the objects' resourceVersions at each poll: several changes to one
// object between two polls print as one MODIFIED line with the latest
// state (a real watch prints every intermediate state). Poll after every
// step of virtual time the learner can see (each animation frame, each
// second of a scenario's advance).
//
// A Watch is not safe for concurrent use; it reads the Env's store.
type Watch struct {
	env      *Env
	rt       *resourceType
	ns       string
	q        watchQuery
	names    map[string]bool // nil: every object of the type
	outp     *getOutput
	opts     printOptions
	events   bool
	widths   []int
	header   bool // the table header (or custom-columns header) was printed
	docs     int  // yaml documents printed, for the "---" separators
	seen     map[string]watchSeen
	stopped  bool
	pollRV   int64
	pollSeen bool

	// kubectl events --watch: its own table, a filter, and no DELETED lines
	rowFn       func(o object, now time.Time) []string
	headers     []string
	keep        func(o object) bool
	skipDeleted bool

	// pollFn, when set, replaces the list diff (a streaming `rollout
	// status`, see rolloutStatusWatch in rollout.go).
	pollFn func() []Chunk
}

// watchQuery is what a watch selects: label and field selectors and -A.
type watchQuery struct {
	sel   selector
	fsel  fieldSelector
	allNS bool
}

// watchSeen is what a Watch remembers of an object at its last poll.
type watchSeen struct {
	uid, rv string
	obj     object
}

// startWatch mirrors GetOptions.watch: one resource type only, the
// initial print, then a Watch handle in the invocation's result.
func startWatch(inv *invocation, outp *getOutput, rargs []resourceArg, infos []getInfo, errs []error, q watchQuery) error {
	if len(errs) > 0 {
		return errs[0]
	}
	kinds := map[*resourceType]bool{}
	for _, ra := range rargs {
		kinds[ra.rt] = true
	}
	if len(kinds) > 1 {
		return &plainError{"watch is only supported on individual resources and resource collections - more than 1 resource was found"}
	}
	rt := rargs[0].rt
	w := &Watch{
		env:    inv.env,
		rt:     rt,
		ns:     inv.namespace,
		q:      q,
		outp:   outp,
		events: inv.flags.Bool("output-watch-events"),
		seen:   map[string]watchSeen{},
		opts: printOptions{
			wide:          outp.format == "wide",
			showLabels:    inv.flags.Bool("show-labels"),
			noHeaders:     inv.flags.Bool("no-headers"),
			labelColumns:  inv.flags.Strings("label-columns"),
			withNamespace: q.allNS && rt.namespaced,
		},
	}
	if len(rargs[0].names) > 0 {
		w.names = map[string]bool{}
		for _, n := range rargs[0].names {
			w.names[n] = true
		}
	}
	var objs []object
	for _, in := range infos {
		objs = append(objs, in.objs...)
	}
	return w.start(inv, objs, !inv.flags.Bool("watch-only"))
}

// start begins watch w from the objects listed now: each is remembered as
// seen, printed as an ADDED change when printInitial (to inv's stdout; a
// print error is returned after the text written so far), and later
// changes are polled from the store's current resourceVersion; w becomes
// inv's watch.
func (w *Watch) start(inv *invocation, objs []object, printInitial bool) error {
	var initial []watchChange
	for _, o := range objs {
		w.seen[watchKey(o)] = watchSeen{uid: o.meta.UID, rv: o.meta.ResourceVersion, obj: o}
		initial = append(initial, watchChange{typ: "ADDED", obj: o})
	}
	if printInitial {
		text, err := w.print(initial)
		inv.out.WriteString(text)
		if err != nil {
			return err
		}
	}
	w.pollRV, w.pollSeen = inv.env.Cluster.ResourceVersion(), true
	inv.watch = w
	return nil
}

// watchChange is one watch event.
type watchChange struct {
	typ string // ADDED, MODIFIED, DELETED
	obj object
}

func watchKey(o object) string { return o.meta.Namespace + "/" + o.meta.Name }

// Poll returns what kubectl prints for the changes since the last poll
// (stdout chunks; none when nothing changed or the watch is stopped).
func (w *Watch) Poll() []Chunk {
	if w == nil || w.stopped {
		return nil
	}
	if w.pollFn != nil {
		return w.pollFn()
	}
	c := w.env.Cluster
	if w.pollSeen && c.ResourceVersion() == w.pollRV {
		return nil
	}
	w.pollRV = c.ResourceVersion()
	current := map[string]object{}
	for _, o := range w.list(c) {
		current[watchKey(o)] = o
	}
	var deleted, changed []watchChange
	for k, s := range w.seen {
		o, ok := current[k]
		if !ok || o.meta.UID != s.uid {
			deleted = append(deleted, watchChange{typ: "DELETED", obj: s.obj})
			delete(w.seen, k)
		}
	}
	for k, o := range current {
		s, ok := w.seen[k]
		switch {
		case !ok:
			changed = append(changed, watchChange{typ: "ADDED", obj: o})
		case s.rv != o.meta.ResourceVersion:
			changed = append(changed, watchChange{typ: "MODIFIED", obj: o})
		default:
			continue
		}
		w.seen[k] = watchSeen{uid: o.meta.UID, rv: o.meta.ResourceVersion, obj: o}
	}
	// Deletions first (a DaemonSet replaces a pod only once the old one is
	// gone), then the other changes in the order they were written.
	sort.Slice(deleted, func(i, j int) bool { return watchKey(deleted[i].obj) < watchKey(deleted[j].obj) })
	sort.Slice(changed, func(i, j int) bool {
		a, b := rvNumber(changed[i].obj.meta.ResourceVersion), rvNumber(changed[j].obj.meta.ResourceVersion)
		if a != b {
			return a < b
		}
		return watchKey(changed[i].obj) < watchKey(changed[j].obj)
	})
	if w.skipDeleted {
		deleted = nil
	}
	text, err := w.print(append(deleted, changed...))
	var chunks []Chunk
	AppendChunk(&chunks, false, text)
	if err != nil {
		AppendChunk(&chunks, true, checkErr(err))
		w.stopped = true
	}
	return chunks
}

// Stop ends the watch (the learner typed the next command, or Ctrl+C).
func (w *Watch) Stop() {
	if w != nil {
		w.stopped = true
	}
}

// Active reports whether the watch still prints changes.
func (w *Watch) Active() bool { return w != nil && !w.stopped }

func rvNumber(rv string) int64 {
	var n int64
	for _, c := range rv {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// list returns the objects the watch selects now.
func (w *Watch) list(c *cluster.Cluster) []object {
	var out []object
	for _, o := range listObjects(c, w.rt, w.ns, w.q.allNS) {
		if w.names != nil && !w.names[o.meta.Name] {
			continue
		}
		if !w.q.sel.matches(o.meta.Labels) {
			continue
		}
		if ok, err := w.q.fsel.matches(o); err != nil || !ok {
			continue
		}
		if w.keep != nil && !w.keep(o) {
			continue
		}
		out = append(out, o)
	}
	return out
}

// print renders watch events with the watch's printer.
func (w *Watch) print(changes []watchChange) (string, error) {
	if len(changes) == 0 {
		return "", nil
	}
	now := w.env.Cluster.Now()
	var b strings.Builder
	if w.rowFn != nil && w.outp.humanReadable() {
		var rows [][]string
		if !w.header && !w.opts.noHeaders {
			rows = append(rows, w.headers)
		}
		w.header = true
		for _, ch := range changes {
			rows = append(rows, w.rowFn(ch.obj, now))
		}
		return layoutRows(rows, &w.widths), nil
	}
	if w.outp.humanReadable() {
		opts := w.opts
		opts.now = now
		var rows [][]string
		if !w.header && !opts.noHeaders {
			h := tableHeaders(w.rt, opts)
			if w.events {
				h = append([]string{"EVENT"}, h...)
			}
			rows = append(rows, h)
		}
		w.header = true
		for _, ch := range changes {
			r := tableRow(ch.obj, opts)
			if w.events {
				r = append([]string{ch.typ}, r...)
			}
			rows = append(rows, r)
		}
		return layoutRows(rows, &w.widths), nil
	}
	var items []map[string]any
	for _, ch := range changes {
		m, err := RenderObject(ch.obj.obj)
		if err != nil {
			return b.String(), err
		}
		if w.events {
			m = map[string]any{"type": ch.typ, "object": m}
		}
		items = append(items, m)
	}
	switch w.outp.format {
	case "custom-columns", "custom-columns-file":
		t, err := customColumnsTable(w.outp.columns, items)
		if err != nil {
			return "", err
		}
		var rows [][]string
		if !w.header && !w.opts.noHeaders {
			rows = append(rows, t.headers)
		}
		w.header = true
		return layoutRows(append(rows, t.rows...), &w.widths), nil
	case "name":
		for _, ch := range changes {
			b.WriteString(ch.obj.rt.kindString() + "/" + ch.obj.meta.Name + "\n")
		}
		return b.String(), nil
	}
	for _, m := range items {
		var text string
		var err error
		switch w.outp.format {
		case "yaml":
			// cli-runtime's YAMLPrinter separates documents with "---"
			if w.docs > 0 {
				b.WriteString("---\n")
			}
			w.docs++
			text, err = MarshalYAML(m)
		case "json":
			text, err = MarshalJSON(m)
		default:
			text, err = w.outp.jsonPath.print(m)
		}
		b.WriteString(text)
		if err != nil {
			return b.String(), err
		}
	}
	return b.String(), nil
}

// startEventsWatch mirrors `kubectl events --watch` (pkg/cmd/events
// EventsOptions.Run): a watch from the latest resourceVersion, so every
// event that passes the filters is printed first (in the store's order),
// then each new or updated one; deleted events are not printed.
func startEventsWatch(inv *invocation, outp *getOutput, keep func(*api.Event) bool, allNS bool) error {
	if outp == nil {
		outp = &getOutput{}
	}
	w := &Watch{
		env:         inv.env,
		rt:          rtEvents,
		ns:          inv.namespace,
		q:           watchQuery{allNS: allNS},
		outp:        outp,
		seen:        map[string]watchSeen{},
		opts:        printOptions{noHeaders: inv.flags.Bool("no-headers")},
		headers:     eventsHeaders(allNS),
		skipDeleted: true,
		keep:        func(o object) bool { return keep(o.obj.(*api.Event)) },
		rowFn: func(o object, now time.Time) []string {
			return eventsRow(o.obj.(*api.Event), now, allNS)
		},
	}
	return w.start(inv, w.list(inv.env.Cluster), true)
}
