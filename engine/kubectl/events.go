package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

func eventsFlags() []*flagDef {
	return []*flagDef{
		boolFlag("all-namespaces", "A"),
		stringFlag("for", "", ""),
		{name: "types", kind: flagStringSlice},
		boolFlag("watch", "w"),
		boolFlag("no-headers", ""),
		stringFlag("output", "o", ""),
		{name: "chunk-size", kind: flagInt, def: "500"},
	}
}

// runEvents mirrors kubectl events (pkg/cmd/events): events sorted by time,
// LAST SEEN TYPE REASON OBJECT MESSAGE, OBJECT as "<Kind>/<name>"; -o
// prints an EventList with the JSON printers; --watch prints every event
// (ADDED and MODIFIED, DELETED skipped) as it comes (runWatch).
func runEvents(inv *invocation) error {
	f := inv.flags
	var outp *getOutput
	if o := f.String("output"); o != "" {
		var err error
		outp, err = parseGetOutput(o, inv.readEnvFile)
		if err != nil {
			return err
		}
		if outp.humanReadable() || strings.HasPrefix(outp.format, "custom-columns") {
			// events' PrintFlags have no table or custom-columns printers
			return &plainError{fmt.Sprintf("unable to match a printer suitable for the output format %q, allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml", o)}
		}
	}
	if len(inv.args) > 0 {
		return &usageError{msg: fmt.Sprintf("unexpected args: %v", inv.args), cmdPath: "kubectl events"}
	}
	types := f.Strings("types")
	for _, t := range types {
		if !strings.EqualFold(t, api.EventTypeNormal) && !strings.EqualFold(t, api.EventTypeWarning) {
			return &plainError{"valid --types are Normal or Warning"}
		}
	}
	var forKind, forName string
	if forStr := f.String("for"); forStr != "" {
		t, n, ok := strings.Cut(forStr, "/")
		if !ok || n == "" {
			return &plainError{"--for must be in resource/name form"}
		}
		rt, err := resolveType(t)
		if err != nil {
			return err
		}
		forKind, forName = rt.kind, n
	}
	allNS := f.Bool("all-namespaces")
	c := inv.env.Cluster
	keep := func(e *api.Event) bool {
		if !allNS && e.Namespace != inv.namespace {
			return false
		}
		if forKind != "" && (e.InvolvedObject.Kind != forKind || e.InvolvedObject.Name != forName) {
			return false
		}
		if len(types) > 0 {
			ok := false
			for _, t := range types {
				ok = ok || strings.EqualFold(t, e.Type)
			}
			return ok
		}
		return true
	}
	var evs []*api.Event
	for _, e := range c.Events() {
		if keep(e) {
			evs = append(evs, e)
		}
	}
	if f.Bool("watch") {
		return startEventsWatch(inv, outp, keep, allNS)
	}
	if outp != nil {
		// kubectl events -o: the sorted EventList through the printer
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].LastTimestamp.Before(evs[j].LastTimestamp) })
		var items []map[string]any
		for _, e := range evs {
			m, err := RenderObject(e)
			if err != nil {
				return err
			}
			items = append(items, m)
		}
		list := listObject(items)
		list["kind"] = "EventList"
		list["metadata"] = map[string]any{"resourceVersion": fmt.Sprint(c.ResourceVersion())}
		text, err := formatGeneric(outp, list, items, false, f.Bool("no-headers"))
		inv.out.WriteString(text)
		return err
	}
	if len(evs) == 0 {
		if allNS {
			inv.errOut.WriteString("No events found.\n")
		} else {
			fmt.Fprintf(&inv.errOut, "No events found in %s namespace.\n", inv.namespace)
		}
		return nil
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].LastTimestamp.Before(evs[j].LastTimestamp) })
	t := &table{headers: eventsHeaders(allNS)}
	now := c.Now()
	for _, e := range evs {
		t.rows = append(t.rows, eventsRow(e, now, allNS))
	}
	inv.out.WriteString(t.render(f.Bool("no-headers")))
	return nil
}

// eventsHeaders and eventsRow are kubectl events' table (printers.go of
// pkg/cmd/events): LAST SEEN as the age of the first timestamp, or
// "<last> (x<count> over <first>)".
func eventsHeaders(allNS bool) []string {
	h := []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}
	if allNS {
		h = append([]string{"NAMESPACE"}, h...)
	}
	return h
}

func eventsRow(e *api.Event, now time.Time, allNS bool) []string {
	first := translateTimestampSince(e.FirstTimestamp, now)
	interval := first
	if e.Count > 1 {
		interval = fmt.Sprintf("%s (x%d over %s)", translateTimestampSince(e.LastTimestamp, now), e.Count, first)
	}
	row := []string{interval, e.Type, e.Reason, e.InvolvedObject.Kind + "/" + e.InvolvedObject.Name, strings.TrimSpace(e.Message)}
	if allNS {
		row = append([]string{e.Namespace}, row...)
	}
	return row
}
