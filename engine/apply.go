package engine

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// ApplyReport is what Apply did: kubectl's lines and the documents that were
// not simulated.
type ApplyReport struct {
	// Lines are kubectl's success lines in document order
	// (`daemonset.apps/fluentd created`, `node/node-3 configured`, `pod/x unchanged`).
	Lines []string
	// Skipped lists documents of kinds the engine does not simulate, e.g.
	// `serviceaccount/fluentd (v1 ServiceAccount): not simulated, ignored`.
	Skipped []string
	// Output is what `kubectl apply -f filename` prints for the same apply,
	// stdout and stderr in kubectl's order: the warnings for ignored kinds,
	// then each result line preceded by kubectl's warning when the object
	// existed without the last-applied-configuration annotation.
	Output []Chunk
}

// Apply is `kubectl apply -f filename` with text as the file's contents:
// decode, validate every document, and only then write, then settle the
// simulation. On any problem the store is untouched and the error is a
// *manifest.Error. Input over manifest.MaxInputBytes (1 MiB) is refused,
// and so is text with no object in it (only comments or blank lines):
// `error: no objects passed to apply`, as kubectl says.
func (s *Simulation) Apply(filename, text string) (*ApplyReport, error) {
	docs, err := manifest.Decode(filename, text)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, manifest.NoObjectsError(filename, "apply")
	}
	warnings := kubectl.MissingLastAppliedWarnings(s.store, docs)
	lines, warnings, err := kubectl.ApplyWarned(s.store, docs, manifest.ModeApply, warnings, nil)
	if err != nil {
		return nil, err
	}
	r := &ApplyReport{Lines: lines}
	var out kubectl.ChunkBuilder
	for _, d := range docs {
		if d.Skipped {
			r.Skipped = append(r.Skipped, fmt.Sprintf("%s/%s (%s %s): not simulated, ignored",
				strings.ToLower(d.Kind), d.Name, d.APIVersion, d.Kind))
			out.Add(true, kubectl.SkippedWarning(d))
		}
	}
	for i, l := range lines {
		if i < len(warnings) {
			out.Add(true, warnings[i])
		}
		out.Add(false, l+"\n")
	}
	r.Output = out.Chunks()
	s.Settle()
	return r, nil
}
