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
	"strings"
)

// MaxInputBytes bounds the text Decode accepts (1 MiB): yaml.v3 is slow in
// wasm and a playground manifest is a few kilobytes.
const MaxInputBytes = 1 << 20

// Document is one YAML document of a manifest file.
type Document struct {
	// Object is *api.DaemonSet, *api.Node or *api.Pod for simulated kinds,
	// nil for skipped kinds.
	Object any
	// APIVersion and Kind are as written (after `---` splitting).
	APIVersion, Kind string
	// Name is metadata.name; Namespace is metadata.namespace as written
	// (defaulted to "default" for namespaced kinds by Decode).
	Name, Namespace string
	// Line is the 1-based line of the document's first node in the file.
	Line int
	// Skipped is true for kinds the engine does not simulate
	// (ServiceAccount, ConfigMap, ClusterRole, Deployment ...).
	Skipped bool

	file string
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
	// silent diagnostics are not printed by Error(): kubectl would stop
	// before reaching them (a second decode error of one object, the
	// further lines of a file whose first syntax error ends parsing).
	silent bool
}

// Error is a failed decode or apply: every problem found, in file order.
// Error() renders the lines kubectl would print; Detailed() adds positions
// and hints.
type Error struct {
	Diagnostics []Diagnostic
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
	var b strings.Builder
	seen := map[string]bool{}
	for i := 0; i < len(e.Diagnostics); i++ {
		d := e.Diagnostics[i]
		if d.silent {
			continue
		}
		if d.group == "" {
			line := d.kubectl
			if line == "" {
				line = "error: " + d.render()
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
		for ; j < len(e.Diagnostics) && e.Diagnostics[j].group == d.group; j++ {
			c := e.Diagnostics[j].cause()
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

func (d Diagnostic) render() string { return d.cause() }

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
