package engine

import (
	"fmt"
	"strings"

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
	lines, err := manifest.ApplyTo(s.Cluster, docs, manifest.ModeApply)
	if err != nil {
		return nil, err
	}
	r := &ApplyReport{Lines: lines}
	for _, d := range docs {
		if d.Skipped {
			r.Skipped = append(r.Skipped, fmt.Sprintf("%s/%s (%s %s): not simulated, ignored",
				strings.ToLower(d.Kind), d.Name, d.APIVersion, d.Kind))
		}
	}
	s.Settle()
	return r, nil
}
