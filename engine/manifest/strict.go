package manifest

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/dsplayground/dsplay/engine/api"
	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// Strict field validation, as the API server applies it since kubectl 1.27
// made `--validate=strict` the default (server-side field validation
// "Strict"): the request body is decoded into the Go API types with
// sigs.k8s.io/json's case-sensitive strict decoder (apimachinery
// pkg/runtime/serializer/json, Serializer.Decode). A value of the wrong
// JSON type fails decoding with encoding/json's UnmarshalTypeError, which
// wins; otherwise every unknown field is collected and reported in one
// error, runtime.NewStrictDecodingError:
//
//	strict decoding error: unknown field "spec.foo", unknown field "spec.template.spec.containers[0].imagePullPolic"
//
// The fields are listed in the order the decoder meets them in the JSON
// kubectl sends: kubectl converts the YAML into a map and re-encodes it, so
// the keys of every object are sorted, and the walk is depth first.
// Duplicate keys never reach the server: kubectl's own YAML-to-JSON
// conversion rejects them first (`key "x" already set in map`, see fields).
//
// The schema is engine/schema, generated from k8s.io/api v0.37.2: every
// field of the API is accepted; the ones the engine does not model are kept
// in Extra by the field decoders.

// unknownField is one key of a mapping that its type does not have.
type unknownField struct {
	path string // JSON path as the server prints it: spec.template.spec.containers[0].imagePullPolic
	// parent is the path of the mapping holding the key ("" at the top),
	// as the field decoders key Extra
	parent string
	key    *yaml.Node // the key, for line:column
	hint   string
}

// strictWalker checks a document against the schema.
type strictWalker struct {
	d        *decoder
	resource string // plural resource for `kubectl explain` hints (daemonsets)
	lines    []string
	kind     string
	// apiVersion of the object, for lookups from its root type
	apiVersion string
	unknown    []unknownField
	typeErrs   []Diagnostic
	visits     int
}

// maxStrictVisits bounds the nodes the strict walk visits (aliases can
// make a small document a large tree).
const maxStrictVisits = 200000

// strict runs strict field validation on the object top of the decoder's
// kind and records the decoding errors: type errors the field decoders did
// not already report, then (only when the object has no type error, as the
// server stops there) one BadRequest listing every unknown field, with one
// diagnostic per field for the editor (line:column of the key and a "did
// you mean" hint).
func (d *decoder) strict(ch chunk, top *yaml.Node, apiVersion string) {
	k, ok := apischema.LookupKind(apiVersion, d.kind)
	if !ok {
		return
	}
	w := &strictWalker{d: d, resource: k.Resource, lines: strings.Split(ch.text, "\n"), kind: d.kind, apiVersion: apiVersion}
	w.walk(top, "", k.Type, nil, k.Type.Name)
	reported := map[string]bool{}
	for _, dg := range d.diags {
		if dg.Field != "" {
			reported[dg.Field] = true
		}
	}
	for _, te := range w.typeErrs {
		if !reported[te.Field] {
			reported[te.Field] = true
			d.addBadRequest(te)
		}
	}
	if len(w.unknown) == 0 {
		return
	}
	if d.opts.FieldValidation == FieldValidationWarn || d.opts.FieldValidation == FieldValidationIgnore {
		// the server drops unknown fields (the decoder never sets them);
		// Warn names each in a warning header
		for _, u := range w.unknown {
			d.dropUnknown(u)
			if d.opts.FieldValidation == FieldValidationWarn {
				d.doc.UnknownFields = append(d.doc.UnknownFields, u.path)
			}
		}
		return
	}
	parts := make([]string, len(w.unknown))
	for i, u := range w.unknown {
		parts[i] = fmt.Sprintf("unknown field %q", u.path)
	}
	all := "strict decoding error: " + strings.Join(parts, ", ")
	typeErrored := d.badReq
	for i, u := range w.unknown {
		l, c := d.at(u.key)
		diag := Diagnostic{File: d.file, Line: l, Column: c, Field: u.path,
			Message: fmt.Sprintf("strict decoding error: unknown field %q", u.path), Hint: u.hint}
		if i == 0 && !typeErrored {
			d.badReq = true
			diag.kubectl = fmt.Sprintf("Error from server (BadRequest): error when %s %q: %s in version %q cannot be handled as a %s: %s",
				d.verb(), d.file, d.kind, d.version, d.kind, all)
		} else {
			diag.silent = true
		}
		d.diags = append(d.diags, diag)
	}
}

// dropUnknown removes an unknown field the field decoders kept in Extra
// (Warn and Ignore modes: the server's decoder never sets it).
func (d *decoder) dropUnknown(u unknownField) {
	m := d.extra[u.parent]
	if m == nil {
		return
	}
	delete(m, u.key.Value)
	if len(m) == 0 {
		delete(d.extra, u.parent)
	}
}

// walk checks node n at path against type t. parent is the object type
// holding the mapping n belongs to (for indentation hints); owner is the
// Go struct name encoding/json names in a type error.
func (w *strictWalker) walk(n *yaml.Node, path string, t *apischema.Type, parent *apischema.Type, owner string) {
	n = w.d.resolve(n)
	if n == nil || t == nil {
		return
	}
	if w.visits++; w.visits > maxStrictVisits {
		return
	}
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return // null is the zero value of every type
	}
	switch t.Kind {
	case apischema.KindAny:
		return
	case apischema.KindObject:
		if n.Kind != yaml.MappingNode {
			w.typeErr(n, path, owner, t.Go)
			return
		}
		kvs := w.pairs(n)
		for _, kv := range kvs {
			key, v := kv[0], kv[1]
			p := join(path, key.Value)
			f, ok := t.Field(key.Value)
			if !ok {
				w.unknown = append(w.unknown, unknownField{path: p, parent: path, key: key, hint: w.hint(key, path, t, parent)})
				continue
			}
			w.walk(v, p, f.Type, t, t.Name)
		}
	case apischema.KindArray:
		if n.Kind != yaml.SequenceNode {
			w.typeErr(n, path, owner, t.Go)
			return
		}
		for i, c := range n.Content {
			w.walk(c, index(path, i), t.Elem, parent, owner)
		}
	case apischema.KindMap:
		if n.Kind != yaml.MappingNode {
			w.typeErr(n, path, owner, t.Go)
			return
		}
		for _, kv := range w.pairs(n) {
			w.walkValue(kv[1], join(path, kv[0].Value), path, t.Elem, parent, owner)
		}
	default:
		w.scalar(n, path, path, t, owner)
	}
}

// walkValue checks a map value: scalar errors name the map's path (as
// encoding/json does), objects continue at the value's own path.
func (w *strictWalker) walkValue(n *yaml.Node, path, mapPath string, t *apischema.Type, parent *apischema.Type, owner string) {
	n = w.d.resolve(n)
	if n == nil || t == nil {
		return
	}
	switch t.Kind {
	case apischema.KindObject, apischema.KindArray, apischema.KindMap, apischema.KindAny:
		w.walk(n, path, t, parent, owner)
	default:
		if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
			return
		}
		w.scalar(n, path, mapPath, t, owner)
	}
}

// scalar checks a string, number, boolean, IntOrString or Quantity value.
func (w *strictWalker) scalar(n *yaml.Node, path, msgPath string, t *apischema.Type, owner string) {
	sk := ""
	if n.Kind == yaml.ScalarNode {
		sk = scalarKind(n)
	}
	ok := false
	switch t.Kind {
	case apischema.KindString:
		ok = sk == "string"
	case apischema.KindBoolean:
		ok = sk == "bool"
	case apischema.KindNumber:
		ok = sk == "number"
	case apischema.KindInteger:
		ok = sk == "number" && fitsInteger(n.Value, t.Go)
	case apischema.KindIntOrString:
		// intstr.IntOrString.UnmarshalJSON: a JSON string, or an int32
		if sk == "number" {
			i, isInt := parseIntV2(n.Value)
			ok = isInt && i >= math.MinInt32 && i <= math.MaxInt32
		} else {
			ok = sk == "string"
		}
	case apischema.KindQuantity:
		// resource.Quantity.UnmarshalJSON: a string or a number, parsed
		if sk == "string" || sk == "number" {
			if _, err := api.ParseQuantity(n.Value); err != nil {
				l, c := w.d.at(n)
				w.typeErrs = append(w.typeErrs, Diagnostic{File: w.d.file, Line: l, Column: c, Field: path,
					Message: err.Error(), Hint: "a quantity is a number with an optional suffix: 100m, 0.5, 200Mi, 1Gi"})
			}
			return
		}
	default:
		ok = true
	}
	if !ok {
		w.typeErrAt(n, path, msgPath, owner, t.Go)
	}
}

// fitsInteger reports whether a YAML number is an integer literal that fits
// the Go integer type goType ("int32", "int64", "*int32" ...).
func fitsInteger(v, goType string) bool {
	i, ok := parseIntV2(v)
	if !ok {
		return false
	}
	if strings.HasSuffix(goType, "int32") {
		return i >= math.MinInt32 && i <= math.MaxInt32
	}
	return true
}

// typeErr records encoding/json's type error for n (path keeps its list
// indexes for the editor; the message drops them).
func (w *strictWalker) typeErr(n *yaml.Node, path, owner, goType string) {
	w.typeErrAt(n, path, path, owner, goType)
}

// typeErrAt is typeErr for a map value, whose message names the map's
// path (msgPath), as encoding/json does.
func (w *strictWalker) typeErrAt(n *yaml.Node, path, msgPath, owner, goType string) {
	jt := jsonType(n)
	what := jt
	if jt == "number" && strings.HasPrefix(strings.TrimPrefix(goType, "*"), "int") {
		what = "number " + n.Value
	}
	field := indexRE.ReplaceAllString(msgPath, "")
	msg := fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", what, owner, field, goType)
	l, c := w.d.at(n)
	w.typeErrs = append(w.typeErrs, Diagnostic{File: w.d.file, Line: l, Column: c, Field: path, Message: msg,
		Hint: typeHint(n, jt, goType)})
}

// pairs returns the key/value pairs of a mapping in the order the server
// decodes them (sorted keys: kubectl re-encodes the object from a map),
// with `<<` merge keys spliced in and duplicate keys dropped (the field
// decoders report those).
func (w *strictWalker) pairs(n *yaml.Node) [][2]*yaml.Node {
	seen := map[string]bool{}
	var out [][2]*yaml.Node
	var add func(m *yaml.Node, depth int)
	add = func(m *yaml.Node, depth int) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := w.d.resolve(m.Content[i]), m.Content[i+1]
			if k == nil || k.Kind != yaml.ScalarNode {
				continue
			}
			if k.Value == "<<" && depth < 8 {
				if rv := w.d.resolve(v); rv != nil && rv.Kind == yaml.MappingNode {
					add(rv, depth+1)
					continue
				}
			}
			if seen[k.Value] {
				continue
			}
			seen[k.Value] = true
			out = append(out, [2]*yaml.Node{k, v})
		}
	}
	add(n, 0)
	sort.SliceStable(out, func(i, j int) bool { return out[i][0].Value < out[j][0].Value })
	return out
}

// hint explains an unknown key of type t at path: a line whose line breaks
// were lost (a key holding a colon), a misspelling of one of t's fields, a
// field of one of t's children (indentation lost) or of the enclosing
// mapping (indented too far), or where to list t's fields.
func (w *strictWalker) hint(key *yaml.Node, path string, t, parent *apischema.Type) string {
	k := key.Value
	if strings.Contains(k, ":") {
		if h := flattenedHint(w.lines, key.Line, w.kind); h != "" {
			return h
		}
		return fmt.Sprintf("the key %q holds a colon: the line breaks of this manifest were probably lost; put each field on its own line", k)
	}
	if best := closestField(t, k); best != "" {
		return fmt.Sprintf("unknown field %q: did you mean %q?", k, best)
	}
	if strings.HasPrefix(k, "•") {
		return "'•' is a bullet copied from a web page; YAML list items start with '- '"
	}
	if parent != nil {
		if _, ok := parent.Field(k); ok {
			return fmt.Sprintf("%q is a field of %s, the mapping around this one: it is indented too far", k, parent.Name)
		}
	}
	if via, owner := findField(t, k); owner != nil {
		return fmt.Sprintf("%q is a field of %s, not of %s: the indentation was probably lost; it belongs under `%s:`", k, owner.Name, t.Name, via)
	}
	if root, ok := apischema.Lookup(w.apiVersion, w.kind); ok && root != t {
		if via, owner := findField(root, k); owner != nil {
			return fmt.Sprintf("%q is not a field of %s but of %s (%s): the indentation was probably lost", k, t.Name, owner.Name, via)
		}
	}
	where := indexRE.ReplaceAllString(path, "")
	target := w.resource
	if where != "" {
		target += "." + where
	}
	return fmt.Sprintf("%s has no field %q; `kubectl explain %s` lists its fields", t.Name, k, target)
}

// findField searches the object types reachable from t, nearest first, for
// one with a field named key; via is the path from t to that type
// ("template.spec" for a PodSpec field under a DaemonSetSpec). owner is nil
// when no type within four levels has the field.
func findField(t *apischema.Type, key string) (via string, owner *apischema.Type) {
	type step struct {
		t   *apischema.Type
		via string
	}
	seen := map[*apischema.Type]bool{t: true}
	level := []step{{t, ""}}
	for depth := 0; depth < 4 && len(level) > 0; depth++ {
		var next []step
		for _, s := range level {
			for _, f := range s.t.Fields {
				ft := f.Type.Object()
				if ft == nil || ft.Kind != apischema.KindObject || seen[ft] {
					continue
				}
				seen[ft] = true
				p := join(s.via, f.Name)
				if _, ok := ft.Field(key); ok {
					return p, ft
				}
				next = append(next, step{ft, p})
			}
		}
		level = next
	}
	return "", nil
}

// withoutStrictRepeats drops the "not indented under" line hints of lines
// whose unknown key already carries a strict diagnostic with its own
// indentation hint.
func (d *decoder) withoutStrictRepeats(hints []Diagnostic) []Diagnostic {
	strictLines := map[int]bool{}
	for _, dg := range d.diags {
		if strings.HasPrefix(dg.Message, "strict decoding error: ") {
			strictLines[dg.Line] = true
		}
	}
	out := hints[:0:0]
	for _, h := range hints {
		if strictLines[h.Line] && strings.Contains(h.Message, "is not indented under") {
			continue
		}
		out = append(out, h)
	}
	return out
}
