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

// applyPrintingWarnings is manifest.ApplyTo for a write whose API server
// warnings go to stderr at once, each deduplicated by the invocation's
// warning writer (patch, edit: the result line comes later). Objects the
// store hands out are never changed in place, so the live objects read
// before the write are the old versions.
func (inv *invocation) applyPrintingWarnings(docs []manifest.Document, mode manifest.Mode) ([]string, error) {
	c := inv.env.Cluster
	before := make([]any, len(docs))
	for i, d := range docs {
		before[i] = liveObject(c, d)
	}
	lines, err := manifest.ApplyTo(c, docs, mode)
	if err != nil {
		return lines, err
	}
	for i, d := range docs {
		inv.serverWarnings(writeWarnings(before[i], liveObject(c, d)))
	}
	return lines, nil
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
