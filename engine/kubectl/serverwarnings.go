package kubectl

import (
	"strings"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// The API server's warnings (cluster.WarningsOnCreate / WarningsOnUpdate)
// reach kubectl in the response to each write; kubectl's warning handler
// (rest.NewWarningWriter with Deduplicate, set up in cmd/kubectl) prints
// each as `Warning: <text>` on stderr, once per kubectl process.

// warningSeen is the deduplicating state of one invocation's warning
// writer.
type warningSeen map[string]bool

// format returns the `Warning: ` lines of msgs not printed before.
func (seen warningSeen) format(msgs []string) string {
	var b strings.Builder
	for _, m := range msgs {
		if seen[m] {
			continue
		}
		seen[m] = true
		b.WriteString("Warning: " + m + "\n")
	}
	return b.String()
}

// writeWarnings returns the server's warnings for a write that turned
// before (nil: the object did not exist) into after, the stored object.
func writeWarnings(before, after any) []string {
	if after == nil {
		return nil
	}
	if before == nil {
		return cluster.WarningsOnCreate(after)
	}
	return cluster.WarningsOnUpdate(after, before)
}

// ApplyWarned is manifest.ApplyTo followed by the API server's warnings of
// each document's write, appended to warnings (one entry per object
// document, the text kubectl apply prints before that document's result
// line; the slice grows as needed) unless seen (nil: a new writer's
// state) shows them printed before. Objects the store hands out are never
// changed in place, so the live objects read before the write are the old
// versions.
func ApplyWarned(c *cluster.Cluster, docs []manifest.Document, mode manifest.Mode, warnings []string, seen map[string]bool) ([]string, []string, error) {
	var objs []manifest.Document
	var before []any
	for _, d := range docs {
		if d.Skipped || d.Object == nil {
			continue
		}
		objs = append(objs, d)
		before = append(before, liveObject(c, d))
	}
	lines, err := manifest.ApplyTo(c, docs, mode)
	if err != nil {
		return lines, warnings, err
	}
	if seen == nil {
		seen = map[string]bool{}
	}
	for i, d := range objs {
		w := warningSeen(seen).format(writeWarnings(before[i], liveObject(c, d)))
		if w == "" {
			continue
		}
		for i >= len(warnings) {
			warnings = append(warnings, "")
		}
		warnings[i] += w
	}
	return lines, warnings, nil
}

// applyWarned is ApplyWarned with the invocation's warning writer.
func (inv *invocation) applyWarned(docs []manifest.Document, mode manifest.Mode, warnings []string) ([]string, []string, error) {
	return ApplyWarned(inv.env.Cluster, docs, mode, warnings, inv.warningWriter())
}

// applyPrintingWarnings is applyWarned for a single write whose warnings
// go to stderr at once (patch, edit: the result line comes later).
func (inv *invocation) applyPrintingWarnings(docs []manifest.Document, mode manifest.Mode) ([]string, error) {
	lines, w, err := inv.applyWarned(docs, mode, nil)
	inv.errOut.WriteString(strings.Join(w, ""))
	return lines, err
}

// serverWarnings prints the warnings of a write on stderr.
func (inv *invocation) serverWarnings(msgs []string) {
	inv.errOut.WriteString(inv.warningWriter().format(msgs))
}

// warningWriter is the invocation's deduplicating warning state.
func (inv *invocation) warningWriter() warningSeen {
	if inv.warned == nil {
		inv.warned = warningSeen{}
	}
	return inv.warned
}
