// Package manifest turns YAML text into the simulator's objects and writes
// them to the store the way `kubectl apply`, `kubectl create` and
// `kubectl replace` would against a real API server.
//
// The path a manifest takes mirrors the API server's: decode (yaml.v3's Node
// API, so that every problem has a line and column) -> defaulting
// (pkg/apis/apps/v1/defaults.go, pkg/apis/core/v1/defaults.go) -> validation
// (pkg/apis/apps/validation, pkg/apis/core/validation) -> create or update
// (pkg/registry/apps/daemonset/strategy.go PrepareForUpdate). Every document
// is validated before anything is written, so a failed apply leaves the
// store exactly as it was.
//
// Problems are reported as an *Error: a list of Diagnostics, each with the
// file, line and column of the offending YAML node (or its nearest existing
// parent), the field path, the message in the API server's or kubectl's
// words, and a Hint for the learner when the cause is a common copy-paste
// accident (tabs, lost line breaks, bullets, curly quotes, removed API
// versions).
package manifest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// MaxInputBytes bounds the text Decode accepts (1 MiB): yaml.v3 is slow in
// wasm and a playground manifest is a few kilobytes.
const MaxInputBytes = 1 << 20

// Document is one YAML document of a manifest file.
type Document struct {
	// Object is *api.DaemonSet, *api.Node, *api.Pod, *api.Namespace,
	// *api.ServiceAccount, *api.ConfigMap or *api.Secret for
	// simulated kinds, nil for skipped kinds.
	Object any
	// APIVersion and Kind are as written (after `---` splitting).
	APIVersion, Kind string
	// Name is metadata.name; Namespace is metadata.namespace as written
	// (defaulted to "default" for namespaced kinds by Decode).
	Name, Namespace string
	// Line is the 1-based line of the document's first node in the file.
	Line int
	// UnknownFields are the fields DecodeWith dropped in Warn mode, as
	// the server's warnings name them ("spec.foo"), in the server's order.
	UnknownFields []string

	file string
	// verb is cmdutil.AddSourceToErr's verb for the object's server
	// errors ("creating", "replacing").
	verb string
	// pos maps a field path ("spec.template.metadata.labels") to the
	// position of its YAML node, for diagnostics found after decoding.
	pos map[string]position
	// raw is the generic form of the document as written, for the
	// last-applied-configuration annotation.
	raw any
}

type position struct{ line, col int }

// Mode selects how ApplyTo treats objects that already exist.
type Mode int

const (
	// ModeApply is `kubectl apply`: create, or update and report
	// "configured" / "unchanged".
	ModeApply Mode = iota
	// ModeCreate is `kubectl create`: an existing object is an AlreadyExists error.
	ModeCreate
	// ModeReplace is `kubectl replace`: the object must exist and is replaced.
	ModeReplace
)

// Diagnostic is one problem found in a manifest.
type Diagnostic struct {
	// File is the file name given to Decode.
	File string
	// Line and Column are 1-based; 0 when unknown.
	Line, Column int
	// Field is the field path (spec.template.metadata.labels), empty for
	// syntax errors.
	Field string
	// Message is the problem in the API server's or kubectl's words.
	Message string
	// Hint, when not empty, says how to fix a common mistake.
	Hint string

	// kubectl is the line kubectl would print for this diagnostic when it
	// is not a field error of an Invalid group (syntax, no-kind mapping ...).
	kubectl string
	// group collects field errors of one object: `The DaemonSet "x" is invalid`.
	group string
	// status is the Invalid status message of a group's object without its
	// causes, as an aggregate of errors prints it: `error when creating
	// "ds.yaml": DaemonSet.apps "x" is invalid`.
	status string
	// silent diagnostics are not printed by Error(): kubectl would stop
	// before reaching them (a second decode error of one object, the
	// further lines of a file whose first syntax error ends parsing).
	silent bool
	// seq is the diagnostic's place in kubectl's output (the API server's
	// order of field errors), kept when Diagnostics are sorted by position.
	seq int
}

// Error is a failed decode or apply: every problem found. Diagnostics are
// sorted by file (in the order the files were given), then line, then
// column, the order a learner reads them in; a Hint equal to the previous
// diagnostic's is given once (empty on the repeats). Error() renders the
// lines kubectl would print, in kubectl's own order; Detailed() adds
// positions and hints.
type Error struct {
	Diagnostics []Diagnostic

	// raw are the diagnostics as given to newError, in kubectl's order
	// (for combining the errors of several documents into one).
	raw []Diagnostic
}

// newError builds an Error from diagnostics in kubectl's order (the order
// they were found): it remembers that order for Error(), sorts them by
// position and drops repeated hints.
func newError(diags []Diagnostic) *Error {
	raw := append([]Diagnostic(nil), diags...)
	ds := append([]Diagnostic(nil), diags...)
	fileRank := map[string]int{}
	for i := range ds {
		ds[i].seq = i
		if _, ok := fileRank[ds[i].File]; !ok {
			fileRank[ds[i].File] = len(fileRank)
		}
	}
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return fileRank[a.File] < fileRank[b.File]
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	prev := ""
	for i := range ds {
		h := ds[i].Hint
		if i > 0 && h != "" && h == prev {
			ds[i].Hint = ""
		}
		prev = h
	}
	return &Error{Diagnostics: ds, raw: raw}
}

// Error renders the diagnostics as kubectl prints them (cmdutil.checkErr):
// field errors of one object become `The DaemonSet "x" is invalid: field: msg`
// or, for several, a first line followed by `* field: msg` lines; other
// problems are printed on their own lines (`error: ...`,
// `Error from server (...): ...`).
func (e *Error) Error() string {
	if e == nil {
		return ""
	}
	// kubectl's order, not the sorted one (a group's causes are contiguous)
	diags := append([]Diagnostic(nil), e.Diagnostics...)
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].seq < diags[j].seq })
	var b strings.Builder
	seen := map[string]bool{}
	for i := 0; i < len(diags); i++ {
		d := diags[i]
		if d.silent {
			continue
		}
		if d.group == "" {
			line := d.kubectl
			if line == "" {
				line = "error: " + d.cause()
			}
			if !seen[line] {
				seen[line] = true
				writeLine(&b, line)
			}
			continue
		}
		// collect this group's causes (they are contiguous)
		j := i
		var causes []string
		dup := map[string]bool{}
		for ; j < len(diags) && diags[j].group == d.group; j++ {
			c := diags[j].cause()
			if !dup[c] {
				dup[c] = true
				causes = append(causes, c)
			}
		}
		i = j - 1
		if len(causes) == 1 {
			writeLine(&b, d.group+": "+causes[0])
		} else {
			writeLine(&b, d.group+": ")
			for _, c := range causes {
				writeLine(&b, "* "+c)
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func writeLine(b *strings.Builder, s string) {
	b.WriteString(s)
	b.WriteByte('\n')
}

// cause is `field: message` (or the message alone when there is no field).
func (d Diagnostic) cause() string {
	if d.Field == "" {
		return d.Message
	}
	return d.Field + ": " + d.Message
}

// String renders one diagnostic for a learner: `file:line:col: field: message`
// followed, when there is one, by an indented `hint: ...` line.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.File)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", d.Line, d.Column)
	}
	b.WriteString(": ")
	b.WriteString(d.cause())
	if d.Hint != "" {
		b.WriteString("\n    hint: ")
		b.WriteString(strings.ReplaceAll(d.Hint, "\n", "\n          "))
	}
	return b.String()
}

// Detailed renders every diagnostic with its position and hint, one per
// problem (Diagnostic.String), for transcripts and the browser's message list.
func (e *Error) Detailed() string {
	if e == nil {
		return ""
	}
	lines := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// namespaced reports whether a document's kind lives in a namespace
// (DaemonSet, Pod); skipped kinds are not known to the playground.
func (d *Document) namespaced() bool {
	switch o := d.Object.(type) {
	case *api.DaemonSet, *api.Pod:
		return true
	case *api.GenericObject:
		return o.Namespaced
	}
	return false
}

// NamespaceWritten reports whether the document sets metadata.namespace.
func (d *Document) NamespaceWritten() bool {
	ns, ok := RawField(d.raw, "metadata", "namespace")
	return ok && ns != nil && ns != ""
}

// SetNamespace gives the namespaced documents that do not set
// metadata.namespace the namespace ns, as kubectl's resource builder does
// with the namespace of -n or the kubeconfig context (DefaultNamespace).
// With enforce (an explicit -n), a document that names another namespace
// is an error, as RequireNamespace reports it: `the namespace from the
// provided object "logging" does not match the namespace "x". You must pass
// '--namespace=logging' to perform this operation.`
func SetNamespace(docs []Document, ns string, enforce bool) error {
	for i := range docs {
		d := &docs[i]
		if !d.namespaced() {
			continue
		}
		if d.NamespaceWritten() {
			if enforce && d.Namespace != ns {
				return fmt.Errorf("the namespace from the provided object %q does not match the namespace %q. You must pass '--namespace=%s' to perform this operation.", d.Namespace, ns, d.Namespace)
			}
			continue
		}
		d.Namespace = ns
		switch o := d.Object.(type) {
		case *api.DaemonSet:
			o.Namespace = ns
		case *api.Pod:
			o.Namespace = ns
		case *api.GenericObject:
			o.Namespace = ns
		}
	}
	return nil
}

// File is the file name the document was decoded from (Decode's filename),
// as kubectl names it in errors (`error when deleting "ds.yaml": ...`).
func (d *Document) File() string { return d.file }

// NoObjectsError is kubectl's error for a manifest that holds no object
// at all (only comments, blank lines or `---`): `error: no objects passed
// to apply` (verb "apply", "create" ...), from apply's and create's
// `if len(infos) == 0` checks.
func NoObjectsError(filename, verb string) *Error {
	msg := "no objects passed to " + verb
	return newError([]Diagnostic{{File: filename, Line: 1, Column: 1, Message: msg,
		Hint:    "the text holds no manifest, only comments or blank lines: write or paste one, starting with apiVersion: and kind:",
		kubectl: "error: " + msg}})
}
