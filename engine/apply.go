package engine

import (
	"strings"

	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// ApplyReport is what Apply did: kubectl's lines and the outcome of every
// document.
type ApplyReport struct {
	// Lines are kubectl's success lines in document order
	// (`daemonset.apps/fluentd created`, `node/node-3 configured`, `pod/x unchanged`).
	Lines []string
	// Output is what `kubectl apply -f filename` prints for the same apply,
	// stdout and stderr in kubectl's order: each result line preceded by
	// its warnings (the missing last-applied-configuration annotation, the
	// API server's warnings), then, when documents failed, kubectl's error text on
	// stderr (the same text as the returned error's).
	Output []Chunk
	// Documents is the outcome of every object of the file, in order (a
	// `kind: List`'s items one by one): applied, refused with its
	// error, or not read (after a syntax error kubectl stops reading).
	Documents []DocumentResult
}

// TryApply returns the error Apply(filename, text) would return, nil when
// it would succeed, and writes nothing: the file is applied to a copy of
// the simulation, so what the API server would refuse (a missing
// namespace, an immutable field) is found too. When the simulation cannot
// be copied only decoding is checked. An import uses it before it replaces
// the editor's text.
func (s *Simulation) TryApply(filename, text string) error {
	c, err := s.clone()
	if err != nil {
		docs, err := manifest.Decode(filename, text)
		if err != nil {
			return err
		}
		if len(docs) == 0 {
			return manifest.NoObjectsError(filename, "apply")
		}
		return nil
	}
	_, err = c.Apply(filename, text)
	return err
}

// DocumentResult is the outcome of one object of an applied file.
type DocumentResult struct {
	// Index is the object's place in the file (0-based).
	Index int
	// APIVersion, Kind, Name, Namespace are as written ("" when the
	// document did not parse far enough).
	APIVersion, Kind, Name, Namespace string
	// StartLine and EndLine are the lines (1-based, inclusive) of the
	// object's `---`-separated document, to mark in an editor.
	StartLine, EndLine int
	// Status is "applied" (Line says created, configured or unchanged),
	// "failed" (Error, Diagnostics) or "not-read" (after a
	// syntax error earlier in the file, kubectl reads no further).
	Status string
	// Line is kubectl's line for an applied object
	// (`configmap/x created`).
	Line string
	// Error is kubectl's text for a failed object's error (as it would
	// print it alone); Diagnostics its problems with line, column, field
	// and hint.
	Error       string
	Diagnostics []manifest.Diagnostic
	// Inert is true for a kind the playground stores as the API server
	// does but no component acts on (Deployment, Service, ClusterRole
	// ...), whatever its Status: a page may say so quietly.
	Inert bool
}

// The values of DocumentResult.Status.
const (
	DocumentApplied = "applied"
	DocumentFailed  = "failed"
	DocumentNotRead = "not-read"
)

// Applied counts the documents with Status "applied".
func (r *ApplyReport) Applied() int {
	n := 0
	for _, d := range r.Documents {
		if d.Status == DocumentApplied {
			n++
		}
	}
	return n
}

// ApplyError is Apply's error when documents failed: Error() is kubectl's
// text (all the failed documents' errors, as `kubectl apply -f` prints
// them); it unwraps to a *manifest.Error holding every failed document's
// diagnostics (ManifestDiagnostics).
type ApplyError struct {
	text  string
	diags *manifest.Error
}

func (e *ApplyError) Error() string { return e.text }

// Unwrap gives the diagnostics of every failed document.
func (e *ApplyError) Unwrap() error { return e.diags }

// Apply is `kubectl apply -f filename` with text as the file's contents.
// As kubectl does, every document is applied on its own, in order: those
// that decode and are admitted are written, the others change nothing and
// are reported; a YAML syntax error ends the file (the documents before it
// are still applied). The report is returned whenever the file held any
// object, with every document's outcome; the error is non-nil when a
// document failed: an *ApplyError (kubectl's text; ManifestDiagnostics
// gives every failed document's diagnostics), or a *manifest.Error when
// nothing could be read (input over manifest.MaxInputBytes, 1 MiB) or the
// text holds no object (`error: no objects passed to apply`). The
// simulation is settled after any write.
func (s *Simulation) Apply(filename, text string) (*ApplyReport, error) {
	res, err := kubectl.ApplyManifests(s.store, map[string]string{filename: text}, []string{filename}, manifest.ModeApply,
		kubectl.ApplyOptions{Namespace: "default"})
	if err != nil {
		var me *manifest.Error
		if ok := asManifestError(err, &me); ok {
			return nil, me
		}
		return nil, err
	}
	if res.NoObjects() {
		return nil, manifest.NoObjectsError(filename, "apply")
	}
	r := &ApplyReport{}
	var out kubectl.ChunkBuilder
	var failed []manifest.Diagnostic
	for _, d := range res.Documents {
		dr := DocumentResult{Index: d.Index, APIVersion: d.APIVersion, Kind: d.Kind, Name: d.Name, Namespace: d.Namespace,
			StartLine: d.StartLine, EndLine: d.EndLine, Line: d.Line, Inert: d.Inert}
		switch {
		case d.Err != nil:
			dr.Status, dr.Error, dr.Diagnostics = DocumentFailed, strings.TrimSuffix(kubectl.ErrorText(d.Err), "\n"), d.Diagnostics
			out.Add(true, d.Warnings)
			failed = append(failed, d.Diagnostics...)
		case d.NotRead:
			dr.Status = DocumentNotRead
		default:
			dr.Status = DocumentApplied
			r.Lines = append(r.Lines, d.Line)
			out.Add(true, d.Warnings)
			out.Add(false, d.Line+"\n")
		}
		r.Documents = append(r.Documents, dr)
	}
	var aerr error
	if res.Err != nil {
		text := kubectl.ErrorText(res.Err)
		out.Add(true, text)
		aerr = &ApplyError{text: strings.TrimSuffix(text, "\n"), diags: manifest.NewError(failed)}
	}
	r.Output = out.Chunks()
	if r.Applied() > 0 {
		s.Settle()
	}
	return r, aerr
}

func asManifestError(err error, me **manifest.Error) bool {
	e, ok := kubectl.ManifestError(err)
	if ok {
		*me = e
	}
	return ok
}
