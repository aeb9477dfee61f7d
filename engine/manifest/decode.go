package manifest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/dsplayground/dsplay/engine/api"
)

// Decode reads a multi-document YAML manifest (documents separated by
// `---`) into Documents. Simulated kinds (apps/v1 DaemonSet, v1 Node,
// v1 Pod, v1 Namespace, v1 ServiceAccount, v1 ConfigMap, v1 Secret) are
// decoded field by field, defaulted as the API server would
// (SetObjectDefaults), and validated (ValidateDaemonSet, ValidateNode,
// ValidatePodCreate, ValidateNamespace, ValidateConfigMap ...); the other
// kinds the API server serves are kept as written (api.GenericObject), and
// a kind or version it does not serve is an error. A v1 List (`kind: List` with `items:`, as
// `kubectl get -o yaml` prints several objects) is unpacked into its
// items, in order, as kubectl's resource builder does. Empty documents are
// ignored. Fields the engine does not model are kept in the object's
// Extra. On any problem the error is an *Error listing every problem
// found, each with its line and column; no Documents are returned then.
func Decode(filename, text string) ([]Document, error) {
	return DecodeWith(filename, text, DecodeOptions{})
}

// FieldValidation is the server-side field validation directive a request
// carries (metav1.FieldValidationStrict/Warn/Ignore, the fieldValidation
// query parameter kubectl sets from --validate, cmdutil.GetValidationDirective).
type FieldValidation string

// The field validation directives; "" means FieldValidationStrict.
const (
	FieldValidationStrict FieldValidation = "Strict"
	FieldValidationWarn   FieldValidation = "Warn"
	FieldValidationIgnore FieldValidation = "Ignore"
)

// DecodeOptions tune DecodeWith.
type DecodeOptions struct {
	// FieldValidation decides what an unknown field is (apiserver
	// handlers/create.go and update.go through the strict serializer):
	// Strict (default) a BadRequest decode error; Warn the field is
	// dropped and named in Document.UnknownFields (the server answers with
	// a `unknown field "spec.foo"` warning header, which kubectl prints as
	// `Warning: unknown field "spec.foo"`); Ignore the field is dropped
	// silently. Type errors stay errors in every mode.
	FieldValidation FieldValidation
	// Verb is cmdutil.AddSourceToErr's verb in the BadRequest lines of
	// decode errors: "creating" (default; kubectl create and apply of a new
	// object) or "replacing" (kubectl replace).
	Verb string
}

// DecodeWith is Decode with options: the field validation directive and
// the verb kubectl names in decode errors.
func DecodeWith(filename, text string, opts DecodeOptions) ([]Document, error) {
	if opts.FieldValidation == "" {
		opts.FieldValidation = FieldValidationStrict
	}
	if opts.Verb == "" {
		opts.Verb = "creating"
	}
	parts, fatal := DecodeParts(filename, text, opts)
	var docs []Document
	var diags []Diagnostic
	if fatal != nil {
		diags = fatal.raw
	}
	for _, p := range parts {
		if p.Err != nil {
			diags = append(diags, p.Err.raw...)
			continue
		}
		docs = append(docs, p.Document)
	}
	if len(diags) > 0 {
		return nil, newError(diags)
	}
	return docs, nil
}

// lineBreaksLost is the message of lineHints' flattened-line diagnostic.
const lineBreaksLost = "the line breaks of this line were lost"

// mergeLineHints keeps one diagnostic per flattened line: a lineHints
// "line breaks were lost" diagnostic is dropped when another diagnostic
// of the same line already carries its hint (an unknown "metadata:name"
// field), and it replaces a raw YAML syntax error at the same position
// (`yaml: mapping values are not allowed in this context` for a manifest
// flattened onto one line), taking over that error's kubectl line so that
// Error() still prints what kubectl prints.
func mergeLineHints(diags []Diagnostic) []Diagnostic {
	drop := make([]bool, len(diags))
	for i, l := range diags {
		if l.Message != lineBreaksLost || l.kubectl != "" {
			continue
		}
		for j, d := range diags {
			if j == i || drop[j] || d.File != l.File || d.Line != l.Line {
				continue
			}
			if d.Hint == l.Hint {
				drop[i] = true
				break
			}
			if d.Column == l.Column && d.Field == "" && d.group == "" && strings.HasPrefix(d.Message, "yaml: ") {
				l.kubectl, l.silent = d.kubectl, d.silent
				diags[j] = l // in the raw error's place: kubectl's order is kept
				drop[i] = true
				break
			}
		}
	}
	out := diags[:0:0]
	for i, d := range diags {
		if !drop[i] {
			out = append(out, d)
		}
	}
	return out
}

// chunk is one document's text; line is the file line of its first line.
type chunk struct {
	text string
	line int
	err  string
}

// splitDocuments mirrors apimachinery's YAMLReader: a line starting with
// `---` ends a document; only spaces or a comment may follow the marker.
func splitDocuments(text string) []chunk {
	text = strings.TrimPrefix(text, "\ufeff")
	lines := strings.SplitAfter(text, "\n")
	var out []chunk
	var cur strings.Builder
	start := 1
	for i, l := range lines {
		trimmed := strings.TrimRight(l, "\r\n")
		if strings.HasPrefix(trimmed, "---") {
			rest := strings.TrimSpace(trimmed[3:])
			if rest != "" && !strings.HasPrefix(rest, "#") {
				out = append(out, chunk{line: i + 1, err: "invalid Yaml document separator: " + rest})
			}
			out = append(out, chunk{text: cur.String(), line: start})
			cur.Reset()
			start = i + 2
			continue
		}
		cur.WriteString(l)
	}
	out = append(out, chunk{text: cur.String(), line: start})
	return out
}

// ---- positions and generic values ----

// maxAliasVisits bounds alias expansion (a YAML "billion laughs" would
// otherwise expand exponentially while the decoder walks the tree).
const maxAliasVisits = 10000

// decoder decodes one document.
type decoder struct {
	file      string
	lineBase  int // file line of the chunk's first line, minus one
	doc       *Document
	kind      string // Kind of the object, for messages
	version   string // version part of apiVersion ("v1")
	diags     []Diagnostic
	extra     api.Unmodeled
	aliases   int
	badReq    bool // a BadRequest (decode) line was already printed for this object
	tooDeep   bool
	structure map[string]bool // paths known to hold a mapping in the source
	opts      DecodeOptions
}

func (d *decoder) at(n *yaml.Node) (int, int) {
	if n == nil {
		return 0, 0
	}
	return n.Line + d.lineBase, n.Column
}

func (d *decoder) record(path string, n *yaml.Node) {
	if d.doc.pos == nil {
		d.doc.pos = map[string]position{}
	}
	l, c := d.at(n)
	d.doc.pos[path] = position{l, c}
}

// resolve follows aliases.
func (d *decoder) resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		d.aliases++
		if d.aliases > maxAliasVisits {
			if !d.tooDeep {
				d.tooDeep = true
				l, c := d.at(n)
				d.diags = append(d.diags, Diagnostic{File: d.file, Line: l, Column: c,
					Message: "yaml: document contains excessive aliasing",
					kubectl: fmt.Sprintf("error: error parsing %s: error converting YAML to JSON: yaml: document contains excessive aliasing", d.file)})
			}
			return nil
		}
		n = n.Alias
	}
	return n
}

// scalarKind classifies a scalar as sigs.k8s.io/yaml (goyaml.v2 resolution)
// would when converting YAML to JSON: "null", "bool", "number" or "string".
// Unquoted yes/no/on/off/y/n are booleans there, unlike in yaml.v3.
func scalarKind(n *yaml.Node) string {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return "string"
	}
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.ShortTag() {
		case "!!str", "!!binary", "!!timestamp":
			return "string"
		case "!!int", "!!float":
			return "number"
		case "!!bool":
			return "bool"
		case "!!null":
			return "null"
		}
	}
	v := n.Value
	switch v {
	case "", "~", "null", "Null", "NULL":
		return "null"
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE",
		"n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE":
		return "bool"
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return "number"
	}
	if _, ok := parseIntV2(v); ok {
		return "number"
	}
	if numberRE.MatchString(v) {
		return "number"
	}
	return "string"
}

var numberRE = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// parseIntV2 parses an integer as goyaml.v2 does (underscores, 0x, 0o, 0b, leading-0 octal).
func parseIntV2(s string) (int64, bool) {
	plain := strings.ReplaceAll(s, "_", "")
	if plain == "" || plain == "+" || plain == "-" {
		return 0, false
	}
	// Fast path for the common non-number (every string scalar is tried):
	// ParseInt with base 0 fails unless a digit follows the optional sign
	// (its 0x, 0o and 0b prefixes start with one), and the failure would
	// allocate its *NumError.
	d := plain[0]
	if d == '+' || d == '-' {
		d = plain[1]
	}
	if d < '0' || d > '9' {
		return 0, false
	}
	if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return i, true
	}
	return 0, false
}

func boolValue(v string) bool {
	switch v {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE":
		return true
	}
	return false
}

// jsonType names a node's JSON type as encoding/json does in errors.
func jsonType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	case yaml.ScalarNode:
		return scalarKind(n)
	}
	return "value"
}

// toAny converts a node to generic JSON-like data: map[string]any, []any,
// string, int64, float64, bool or nil.
func (d *decoder) toAny(n *yaml.Node) any {
	n = d.resolve(n)
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return d.toAny(n.Content[0])
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := d.resolve(n.Content[i])
			if k == nil {
				continue
			}
			m[k.Value] = d.toAny(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			s = append(s, d.toAny(c))
		}
		return s
	case yaml.ScalarNode:
		switch scalarKind(n) {
		case "null":
			return nil
		case "bool":
			return boolValue(n.Value)
		case "number":
			if i, ok := parseIntV2(n.Value); ok {
				return i
			}
			f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
			if err != nil {
				switch strings.ToLower(strings.TrimPrefix(n.Value, "+")) {
				case ".inf":
					return math.Inf(1)
				case "-.inf":
					return math.Inf(-1)
				}
				return math.NaN()
			}
			return f
		}
		return n.Value
	}
	return nil
}

// ---- error helpers ----

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// typeErr reports a value of the wrong JSON type as the API server's
// decoder does: `json: cannot unmarshal bool into Go struct field
// ObjectMeta.metadata.labels of type string`.
func (d *decoder) typeErr(n *yaml.Node, path, owner, goType string) {
	d.typeErrAt(n, path, path, owner, goType)
}

// typeErrAt is typeErr for a value whose error names another path (a map
// value: encoding/json names the map field, not the key).
func (d *decoder) typeErrAt(n *yaml.Node, path, msgPath, owner, goType string) {
	jt := jsonType(n)
	what := jt
	if jt == "number" && (goType == "int32" || goType == "int64") {
		what = "number " + n.Value
	}
	field := indexRE.ReplaceAllString(msgPath, "")
	msg := fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", what, owner, field, goType)
	d.badRequest(n, path, msg, typeHint(n, jt, goType))
}

// badRequest records a decoding error; kubectl prints only the first one of
// an object (the server stops decoding there).
func (d *decoder) badRequest(n *yaml.Node, path, msg, hint string) {
	l, c := d.at(n)
	d.addBadRequest(Diagnostic{File: d.file, Line: l, Column: c, Field: path, Message: msg, Hint: hint})
}

// addBadRequest records diag, a decoding error: the first of the object
// carries kubectl's BadRequest line, the others are silent.
func (d *decoder) addBadRequest(diag Diagnostic) {
	if !d.badReq {
		d.badReq = true
		diag.kubectl = fmt.Sprintf("Error from server (BadRequest): error when %s %q: %s in version %q cannot be handled as a %s: %s",
			d.verb(), d.file, d.kind, d.version, d.kind, diag.Message)
	} else {
		diag.silent = true
	}
	d.diags = append(d.diags, diag)
}

// verb is the AddSourceToErr verb of the decode error lines.
func (d *decoder) verb() string {
	if d.opts.Verb == "" {
		return "creating"
	}
	return d.opts.Verb
}

func typeHint(n *yaml.Node, jt, goType string) string {
	switch {
	case jt == "bool" && goType == "string":
		return fmt.Sprintf("YAML reads %s as a boolean; write it in quotes (%q) to keep it a string", n.Value, n.Value)
	case jt == "number" && goType == "string":
		return fmt.Sprintf("YAML reads %s as a number; write it in quotes (%q) to keep it a string", n.Value, n.Value)
	case jt == "string" && (goType == "int32" || goType == "int64"):
		return fmt.Sprintf("write the number without quotes: %s", strings.Trim(n.Value, `"'`))
	case jt == "object" && strings.HasPrefix(goType, "[]"):
		if n.Kind == yaml.MappingNode && len(n.Content) > 0 && strings.HasPrefix(strings.TrimSpace(n.Content[0].Value), "•") {
			return "the list items start with '•', a bullet copied from a web page; YAML list items start with '- '"
		}
		return "this field is a list: start each item with '- '"
	case jt == "array" && goType == "string":
		return "this field holds one string, not a list: write a single value on the same line, without '- ' or [ ]"
	case jt == "array" && (goType == "bool" || strings.HasPrefix(goType, "int") || strings.HasPrefix(goType, "float")):
		return fmt.Sprintf("this field holds one %s, not a list: write a single value on the same line, without '- ' or [ ]", map[bool]string{true: "true or false", false: "number"}[goType == "bool"])
	case jt == "array" && !strings.HasPrefix(goType, "[]"):
		return "this field is a mapping (key: value lines), not a list: remove the '- '"
	case jt == "string" && (strings.HasPrefix(goType, "[]") || strings.HasPrefix(goType, "map") || strings.HasPrefix(goType, "v1.")):
		if strings.Contains(n.Value, ":") {
			return "the value holds 'key:value' text on one line: the line breaks and indentation were probably lost; put each field on its own line, indented under its parent"
		}
		if strings.HasPrefix(goType, "[]") {
			return "this field is a list: start each item on its own line with '- '"
		}
		return "this field is a mapping: put its fields on the following lines, indented under it"
	}
	return ""
}

// ---- field walking ----

// fields returns the key/value pairs of a mapping node, or reports a type
// error and returns ok=false. A null value is an empty mapping.
func (d *decoder) fields(n *yaml.Node, path, owner, goType string) (kvs [][2]*yaml.Node, ok bool) {
	n = d.resolve(n)
	if n == nil {
		return nil, false
	}
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil, true
	}
	if n.Kind != yaml.MappingNode {
		d.typeErr(n, path, owner, goType)
		return nil, false
	}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := d.resolve(n.Content[i])
		v := d.resolve(n.Content[i+1])
		if k == nil || v == nil {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			d.typeErr(k, path, owner, goType)
			continue
		}
		if k.Value == "<<" && v.Kind == yaml.MappingNode { // merge key: splice the mapping in
			for j := 0; j+1 < len(v.Content); j += 2 {
				if _, dup := seen[v.Content[j].Value]; !dup {
					kvs = append(kvs, [2]*yaml.Node{v.Content[j], v.Content[j+1]})
				}
			}
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			l, c := d.at(k)
			msg := fmt.Sprintf("yaml: unmarshal errors:\n  line %d: key %q already set in map", k.Line, k.Value)
			d.diags = append(d.diags, Diagnostic{File: d.file, Line: l, Column: c, Field: join(path, k.Value),
				Message: fmt.Sprintf("key %q already set in map (first at line %d)", k.Value, prev.Line+d.lineBase),
				Hint:    "remove one of the two, or indent the second under the field it belongs to",
				kubectl: fmt.Sprintf("error: error parsing %s: error converting YAML to JSON: %s", d.file, msg)})
			continue
		}
		seen[k.Value] = k
		d.record(join(path, k.Value)+"#key", k) // where a bad or unknown key is reported
		kvs = append(kvs, [2]*yaml.Node{k, v})
	}
	return kvs, true
}

// mapping decodes n, a mapping at path holding a goType field of owner:
// field decodes the fields it knows (k at path p) and reports whether it
// did; the others are kept in Extra as written. It returns false when n is
// neither a mapping nor null (the type error is recorded).
func (d *decoder) mapping(n *yaml.Node, path, owner, goType string, field func(k string, v *yaml.Node, p string) bool) bool {
	d.record(path, n)
	kvs, ok := d.fields(n, path, owner, goType)
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		if !field(k, v, p) {
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
	return ok
}

// keep stores an unmodeled field in Extra under the path of its map.
func (d *decoder) keep(path, key string, v *yaml.Node) {
	if d.extra == nil {
		d.extra = api.Unmodeled{}
	}
	m := d.extra[path]
	if m == nil {
		m = map[string]any{}
		d.extra[path] = m
	}
	m[key] = d.toAny(v)
}

func (d *decoder) str(n *yaml.Node, path, owner string) string {
	n = d.resolve(n)
	if n == nil {
		return ""
	}
	d.record(path, n)
	if n.Kind != yaml.ScalarNode {
		d.typeErr(n, path, owner, "string")
		return ""
	}
	switch scalarKind(n) {
	case "null":
		return ""
	case "string":
		return n.Value
	}
	d.typeErr(n, path, owner, "string")
	return ""
}

func (d *decoder) boolean(n *yaml.Node, path, owner string) bool {
	n = d.resolve(n)
	if n == nil {
		return false
	}
	d.record(path, n)
	if n.Kind == yaml.ScalarNode {
		switch scalarKind(n) {
		case "null":
			return false
		case "bool":
			return boolValue(n.Value)
		}
	}
	d.typeErr(n, path, owner, "bool")
	return false
}

// integer decodes a number that must fit in bits; ok is false for null or errors.
func (d *decoder) integer(n *yaml.Node, path, owner string, bits int) (int64, bool) {
	n = d.resolve(n)
	if n == nil {
		return 0, false
	}
	d.record(path, n)
	goType := fmt.Sprintf("int%d", bits)
	if n.Kind == yaml.ScalarNode {
		switch scalarKind(n) {
		case "null":
			return 0, false
		case "number":
			i, ok := parseIntV2(n.Value)
			if ok && (bits == 64 || (i >= math.MinInt32 && i <= math.MaxInt32)) {
				return i, true
			}
			// floats with no fraction are accepted by encoding/json only if integral literals; 1.0 is not
		}
	}
	d.typeErr(n, path, owner, goType)
	return 0, false
}

func (d *decoder) int32p(n *yaml.Node, path, owner string) *int32 {
	if i, ok := d.integer(n, path, owner, 32); ok {
		v := int32(i)
		return &v
	}
	return nil
}

func (d *decoder) int64p(n *yaml.Node, path, owner string) *int64 {
	if i, ok := d.integer(n, path, owner, 64); ok {
		return &i
	}
	return nil
}

func (d *decoder) int32v(n *yaml.Node, path, owner string) int32 {
	i, _ := d.integer(n, path, owner, 32)
	return int32(i)
}

// collection resolves n and records it at path; it returns n when it is a
// node of kind, and nil for null or (with a type error naming goType) for
// another kind.
func (d *decoder) collection(n *yaml.Node, path, owner, goType string, kind yaml.Kind) *yaml.Node {
	n = d.resolve(n)
	if n == nil {
		return nil
	}
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	if n.Kind != kind {
		d.typeErr(n, path, owner, goType)
		return nil
	}
	return n
}

func (d *decoder) strings(n *yaml.Node, path, owner string) []string {
	if n = d.collection(n, path, owner, "[]string", yaml.SequenceNode); n == nil {
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, c := range n.Content {
		out = append(out, d.str(c, index(path, i), owner))
	}
	return out
}

func (d *decoder) stringMap(n *yaml.Node, path, owner string) map[string]string {
	return decodeMap(d, n, path, owner, "map[string]string", func(v *yaml.Node, p string) (string, bool) {
		if v.Kind != yaml.ScalarNode || (scalarKind(v) != "string" && scalarKind(v) != "null") {
			d.typeErrAt(v, p, path, owner, "string")
			return "", false
		}
		return d.str(v, p, owner), true
	})
}

// decodeMap decodes mapping n at path into a map[string]V, as
// encoding/json decodes a Go map of goType (e.g. "map[string]string",
// named in type errors): nil when n is absent (or an alias past the
// aliasing limit), when d.fields rejects it, or when it has no entries;
// otherwise each entry whose value resolves is recorded at path.key and
// passed to value, which reports its own errors and returns ok=false to
// leave the key out.
func decodeMap[V any](d *decoder, n *yaml.Node, path, owner, goType string, value func(v *yaml.Node, p string) (V, bool)) map[string]V {
	n = d.resolve(n)
	if n == nil {
		return nil
	}
	d.record(path, n)
	kvs, ok := d.fields(n, path, owner, goType)
	if !ok || len(kvs) == 0 {
		return nil
	}
	m := make(map[string]V, len(kvs))
	for _, kv := range kvs {
		p := join(path, kv[0].Value)
		v := d.resolve(kv[1])
		if v == nil {
			continue
		}
		d.record(p, v)
		if val, ok := value(v, p); ok {
			m[kv[0].Value] = val
		}
	}
	return m
}

func (d *decoder) anyMap(n *yaml.Node, path, owner string) map[string]any {
	if n = d.collection(n, path, owner, "map[string]interface {}", yaml.MappingNode); n == nil {
		return nil
	}
	m, _ := d.toAny(n).(map[string]any)
	return m
}

// list decodes a sequence, calling item for each element.
func (d *decoder) list(n *yaml.Node, path, owner, goType string, item func(i int, n *yaml.Node, path string)) {
	if n = d.collection(n, path, owner, goType, yaml.SequenceNode); n == nil {
		return
	}
	for i, c := range n.Content {
		c = d.resolve(c)
		if c == nil {
			continue
		}
		item(i, c, index(path, i))
	}
}

func (d *decoder) quantities(n *yaml.Node, path, owner string) api.ResourceList {
	n = d.resolve(n)
	if n == nil {
		return nil
	}
	d.record(path, n)
	kvs, ok := d.fields(n, path, owner, "v1.ResourceList")
	if !ok || len(kvs) == 0 {
		return nil
	}
	rl := api.ResourceList{}
	for _, kv := range kvs {
		p := join(path, kv[0].Value)
		v := d.resolve(kv[1])
		if v == nil {
			continue
		}
		d.record(p, v)
		if v.Kind != yaml.ScalarNode || (scalarKind(v) != "string" && scalarKind(v) != "number") {
			d.typeErr(v, p, owner, "resource.Quantity")
			continue
		}
		q, err := api.ParseQuantity(v.Value)
		if err != nil {
			hint := "a quantity is a number with an optional suffix: 100m, 0.5, 200Mi, 1Gi"
			if strings.Contains(v.Value, ":") {
				hint = "the value runs into the next field: the line breaks were probably lost"
			}
			d.badRequest(v, p, err.Error(), hint)
			continue
		}
		rl[kv[0].Value] = q
	}
	return rl
}

func (d *decoder) intOrString(n *yaml.Node, path, owner string) *api.IntOrString {
	n = d.resolve(n)
	if n == nil {
		return nil
	}
	d.record(path, n)
	if n.Kind == yaml.ScalarNode {
		switch scalarKind(n) {
		case "null":
			return nil
		case "string":
			return api.FromString(n.Value)
		case "number":
			if i, ok := parseIntV2(n.Value); ok && i >= math.MinInt32 && i <= math.MaxInt32 {
				return api.FromInt(int32(i))
			}
		}
	}
	d.typeErr(n, path, owner, "intstr.IntOrString")
	return nil
}

// Raw returns a copy of the document as written, in generic JSON values
// (map[string]any, []any, string, int64, float64, bool, nil): what kubectl
// sends as the modified configuration.
func (d Document) Raw() any { return deepCopy(d.raw) }

// LastAppliedConfiguration is the kubectl.kubernetes.io/last-applied-configuration
// value kubectl apply writes for the document (the manifest as JSON, with
// the namespace kubectl filled in, and a trailing newline).
func (d Document) LastAppliedConfiguration() string {
	namespaced := true
	switch d.Object.(type) {
	case *api.Node, *api.Namespace:
		namespaced = false
	}
	return lastApplied(&d, namespaced)
}
