package kubectl

import (
	"fmt"
	"sort"
	"strings"

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
// LAST SEEN TYPE REASON OBJECT MESSAGE, OBJECT as "<Kind>/<name>".
func runEvents(inv *invocation) error {
	f := inv.flags
	if f.Bool("watch") {
		return &plainError{"--watch is not simulated in the playground: run the command again, or watch the cluster view"}
	}
	if o := f.String("output"); o != "" {
		return &plainError{fmt.Sprintf("events -o %s is not simulated in the playground", o)}
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
	var evs []*api.Event
	for _, e := range c.Events() {
		if !allNS && e.Namespace != inv.namespace {
			continue
		}
		if forKind != "" && (e.InvolvedObject.Kind != forKind || e.InvolvedObject.Name != forName) {
			continue
		}
		if len(types) > 0 {
			ok := false
			for _, t := range types {
				ok = ok || strings.EqualFold(t, e.Type)
			}
			if !ok {
				continue
			}
		}
		evs = append(evs, e)
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
	t := &table{headers: []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}}
	if allNS {
		t.headers = append([]string{"NAMESPACE"}, t.headers...)
	}
	now := c.Now()
	for _, e := range evs {
		first := translateTimestampSince(e.FirstTimestamp, now)
		interval := first
		if e.Count > 1 {
			interval = fmt.Sprintf("%s (x%d over %s)", translateTimestampSince(e.LastTimestamp, now), e.Count, first)
		}
		row := []string{interval, e.Type, e.Reason, e.InvolvedObject.Kind + "/" + e.InvolvedObject.Name, strings.TrimSpace(e.Message)}
		if allNS {
			row = append([]string{e.Namespace}, row...)
		}
		t.rows = append(t.rows, row)
	}
	inv.out.WriteString(t.render(f.Bool("no-headers")))
	return nil
}
