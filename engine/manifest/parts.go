package manifest

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// Part is one object of a manifest file as kubectl's resource builder
// meets it: decoded, or refused with its own error. kubectl apply, create
// and replace act on every object that decodes and report the others
// (cli-runtime resource.ContinueOnErrorVisitor collects the errors of
// each object; StreamVisitor passes each document's mapping error on and
// reads the next one).
type Part struct {
	// Document is the decoded object; valid when Err is nil.
	Document
	// Err is this object's problem: a mapping error (`no matches for
	// kind`), an unknown field or a value of the wrong type (the server's
	// BadRequest), a validation error (Invalid), or a syntax error.
	Err *Error
	// Fatal is true for an error that ends the reading of the file:
	// kubectl's StreamVisitor returns on a YAML syntax error, a bad
	// document separator and a document without apiVersion or kind
	// ("error parsing", "error validating"), so later documents of the
	// file are never read (earlier ones are still applied).
	Fatal bool
	// StartLine and EndLine are the file lines (1-based, inclusive) of the
	// `---`-separated document the object is in (the whole List for a
	// List's items), for marking a failed document in an editor.
	StartLine, EndLine int
}

// DecodeParts is DecodeWith object by object: every object of the file in
// order (a `kind: List` unpacked), each decoded or with its own error.
// Every document is read, also after a Fatal one (a page can mark all of
// their problems); kubectl stops at the first Fatal part of a file. fatal
// is a problem of the whole file (too large), with no parts then.
func DecodeParts(filename, text string, opts DecodeOptions) (parts []Part, fatal *Error) {
	if opts.FieldValidation == "" {
		opts.FieldValidation = FieldValidationStrict
	}
	if opts.Verb == "" {
		opts.Verb = "creating"
	}
	if len(text) > MaxInputBytes {
		return nil, newError([]Diagnostic{{
			File: filename, Line: 1, Column: 1,
			Message: fmt.Sprintf("manifest is too large: %d bytes (the playground accepts up to %d bytes, 1 MiB)", len(text), MaxInputBytes),
			Hint:    "paste only the manifests you want to simulate",
			kubectl: fmt.Sprintf("error: %s is too large: %d bytes, at most %d bytes are accepted", filename, len(text), MaxInputBytes),
		}})
	}
	for _, ch := range splitDocuments(text) {
		end := ch.line + strings.Count(strings.TrimSuffix(ch.text, "\n"), "\n")
		if ch.err != "" {
			// apimachinery YAMLReader.Read: the separator line is an error
			d := Diagnostic{File: filename, Line: ch.line, Column: 1, Message: ch.err,
				Hint:    "a document separator is a line holding only `---`",
				kubectl: fmt.Sprintf("error: error parsing %s: %s", filename, ch.err)}
			parts = append(parts, Part{Err: newError([]Diagnostic{d}), Fatal: true, StartLine: ch.line, EndLine: ch.line})
			continue
		}
		for _, pc := range decodeDocument(filename, ch, opts) {
			p := Part{StartLine: ch.line, EndLine: max(end, ch.line)}
			if len(pc.diags) > 0 {
				addQuoteHints(pc.diags)
				ds := mergeLineHints(pc.diags)
				p.Err = newError(ds)
				p.Fatal = fatalDiagnostics(ds)
				if pc.doc != nil {
					p.Document = *pc.doc
				} else {
					p.Document = Document{file: filename, Line: ch.line, Kind: kindOf(ch.text)}
				}
				p.Object = nil
			} else if pc.doc != nil && pc.doc.Object != nil {
				p.Document = *pc.doc
			} else {
				continue
			}
			parts = append(parts, p)
		}
	}
	return parts, nil
}

// fatalDiagnostics reports whether the problems of a document end the
// reading of its file in kubectl: its StreamVisitor returns on a document
// that does not convert from YAML to JSON (`error parsing FILE: ...`) or
// fails the client-side schema check of apiVersion and kind (`error
// validating "FILE": error validating data: ...`).
func fatalDiagnostics(ds []Diagnostic) bool {
	for _, d := range ds {
		if strings.HasPrefix(d.kubectl, "error: error parsing ") || strings.HasPrefix(d.kubectl, "error: error validating ") {
			return true
		}
	}
	return false
}

// Messages returns the errors of e as kubectl holds them, one per error it
// would print alone: the text of Error() split into its errors (an Invalid
// group is one error), in kubectl's order. raw is the error's Error() text
// (a status error's message, a plain error without `error: `); member is
// how cmdutil.MultipleErrors prints it as one of several (messageForError:
// StandardErrorMessage, else Error()).
func (e *Error) Messages() (raw, member []string) {
	if e == nil {
		return nil, nil
	}
	diags := e.raw
	if diags == nil {
		diags = e.Diagnostics
	}
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
			if seen[line] {
				continue
			}
			seen[line] = true
			r := strings.TrimPrefix(line, "error: ")
			m := r
			if strings.HasPrefix(line, "Error from server") {
				// `Error from server (Reason): message`
				if j := strings.Index(line, "): "); j > 0 && strings.HasPrefix(line, "Error from server (") {
					r = line[j+3:]
				} else {
					r = strings.TrimPrefix(line, "Error from server: ")
				}
				m = line
			}
			raw, member = append(raw, r), append(member, m)
			continue
		}
		// an Invalid group: field.ErrorList.ToAggregate in the message
		j := i
		var causes []string
		dup := map[string]bool{}
		for ; j < len(diags) && diags[j].group == d.group; j++ {
			if c := diags[j].cause(); !dup[c] {
				dup[c] = true
				causes = append(causes, c)
			}
		}
		i = j - 1
		agg := causes[0]
		if len(causes) > 1 {
			agg = "[" + strings.Join(causes, ", ") + "]"
		}
		status := d.status
		if status == "" {
			status = d.group
		}
		r := status + ": " + agg
		raw, member = append(raw, r), append(member, "Error from server (Invalid): "+r)
	}
	return raw, member
}

// FromServer reports whether e is an error the API server returns for the
// object (BadRequest, Invalid, NotFound, AlreadyExists, Forbidden,
// Conflict ...) rather than one kubectl finds before sending it (a
// mapping or parse error): kubectl apply reports the server's errors after
// its resource builder's.
func (e *Error) FromServer() bool {
	if e == nil {
		return false
	}
	for _, d := range e.Diagnostics {
		if d.silent {
			continue
		}
		if d.group != "" || strings.HasPrefix(d.kubectl, "Error from server") {
			return true
		}
	}
	return false
}

// NewError is an Error of diagnostics gathered from several Errors (their
// Diagnostics), sorted by position.
func NewError(diags []Diagnostic) *Error { return newError(diags) }

// ClientNameError is the error kubectl itself gives, before it sends
// anything, for an object that has neither metadata.name nor
// metadata.generateName (nil for any other part, and for kubectl create,
// whose request the API server refuses with `name or generateName is
// required`). The client's request for an empty name fails with
// `resource name may not be empty` (client-go rest Request.Name): kubectl
// apply meets it when it fetches the live object
// (staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go applyOneObject:
// info.Get, wrapped by cmdutil.AddSourceToErr with "retrieving current
// configuration of:\n<info.String()>\nfrom server for:"), kubectl replace
// when it puts it (replace.go: AddSourceToErr("replacing", ...)). A
// mapping or parse error of the part comes first (the resource builder's).
// namespace is the namespace kubectl gives a namespaced object that names
// none (-n, else "default").
func (p *Part) ClientNameError(mode Mode, namespace string) *Error {
	if mode == ModeCreate || p.Kind == "" || (p.Err != nil && !p.Err.FromServer()) || p.Document.raw == nil {
		return nil
	}
	for _, f := range []string{"name", "generateName"} {
		if v, _ := RawField(p.Document.raw, "metadata", f); v != nil && v != "" {
			return nil
		}
	}
	r, ok := apischema.ServedKind(p.APIVersion, p.Kind)
	if !ok {
		return nil
	}
	// info.Namespace: the object's own, else (namespaced kinds) the
	// builder's default
	var ns string
	if v, _ := RawField(p.Document.raw, "metadata", "namespace"); v != nil {
		ns, _ = v.(string)
	}
	if r.Namespaced && ns == "" {
		ns = namespace
		if ns == "" {
			ns = api.DefaultNamespace
		}
	}
	file := p.Document.file
	var msg, hint string
	if mode == ModeApply {
		// resource.Info.String(): the mapping's GroupVersionResource and
		// GroupVersionKind as schema's String() print them ("apps/v1,
		// Resource=daemonsets", "/v1, Kind=Pod" for the core group)
		msg = fmt.Sprintf("error when retrieving current configuration of:\nResource: %q, GroupVersionKind: %q\nName: %q, Namespace: %q\nfrom server for: %q: resource name may not be empty",
			r.Group+"/"+r.Version+", Resource="+r.Resource, r.Group+"/"+r.Version+", Kind="+r.Kind, "", ns, file)
		hint = "kubectl apply finds the live object by metadata.name: give the object a name (kubectl create can name it from metadata.generateName)"
	} else {
		msg = fmt.Sprintf("error when replacing %q: resource name may not be empty", file)
		hint = "kubectl replace needs metadata.name to know which object to replace"
	}
	doc := p.Document
	pos := doc.position("metadata")
	return newError([]Diagnostic{{File: file, Line: pos.line, Column: pos.col, Field: "metadata.name",
		Message: msg, Hint: hint, kubectl: "error: " + msg}})
}

// WithRepairs is e with the repairs of flattened lines among from's
// diagnostics added as silent diagnostics (shown with their fixes, not in
// kubectl's output), or e itself when from has none. It is for an error
// kubectl gives before the server reads the object (ClientNameError of a
// leniently decoded part) while the strict decode (from) found a name
// lost with the line breaks (`metadata:name: x`): the repair is what to fix.
func (e *Error) WithRepairs(from *Error) *Error {
	if e == nil || from == nil {
		return e
	}
	diags := append([]Diagnostic(nil), e.raw...)
	for _, d := range from.Diagnostics {
		if strings.Contains(d.Hint, flattenedRepair) {
			diags = append(diags, Diagnostic{File: d.File, Line: d.Line, Column: d.Column,
				Message: "the line breaks of this line were lost", Hint: d.Hint, silent: true})
		}
	}
	if len(diags) == len(e.raw) {
		return e
	}
	return newError(diags)
}
