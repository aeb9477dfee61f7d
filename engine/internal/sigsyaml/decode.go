package sigsyaml

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// YAMLToJSON mirrors sigs.k8s.io/yaml.YAMLToJSON: the first document of y
// decoded as goyaml.v2's Unmarshal decodes into an interface{} (YAML 1.1
// resolution, merge keys, the later of two equal keys winning), its keys
// made strings as convertToJSONableObject makes them, then marshalled
// with encoding/json. yaml.v3 parses the text; its syntax errors read as
// v2's ("yaml: line 3: mapping values are not allowed in this context",
// the line v2 names: see SyntaxError). The two libyaml ports disagree on
// a few malformed texts (v2 reads "{}: 1" as {}, v3 refuses "%YAML 1.1"
// without "---"); there this follows yaml.v3.
func YAMLToJSON(y []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(y, &root); err != nil {
		return nil, SyntaxError(y, err)
	}
	d := &decoder{src: y, aliases: map[*yaml.Node]bool{}}
	v, err := d.decode(&root)
	if err != nil {
		return nil, err
	}
	jv, err := jsonable(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(jv)
}

// Unmarshal mirrors sigs.k8s.io/yaml.Unmarshal for a target that takes
// any JSON (an *any, a *map[string]any): YAMLToJSON, then encoding/json.
// The conversion does not look at the target's struct fields as
// upstream's does for a typed target (a string field given 1 receives
// "1" there); the playground has no such caller.
func Unmarshal(y []byte, obj any) error {
	j, err := YAMLToJSON(y)
	if err != nil {
		return fmt.Errorf("error converting YAML to JSON: %w", err)
	}
	if err := json.NewDecoder(bytes.NewReader(j)).Decode(&obj); err != nil {
		return fmt.Errorf("error unmarshaling JSON: while decoding JSON: %w", err)
	}
	return nil
}

// decoder is goyaml.v2's decoder for an interface{} target, reading
// yaml.v3's nodes: the values it yields are map[any]any, []any, string,
// bool, int64, uint64, float64 and nil.
type decoder struct {
	src                                 []byte
	starts                              []int // lineStarts(src), once needed
	aliases                             map[*yaml.Node]bool
	aliasDepth, decodeCount, aliasCount int
}

// allowedAliasRatio mirrors goyaml.v2's guard against alias bombs.
func allowedAliasRatio(decodeCount int) float64 {
	const low, high = 400000, 4000000
	switch {
	case decodeCount <= low:
		return 0.99
	case decodeCount >= high:
		return 0.10
	}
	return 0.99 - 0.89*(float64(decodeCount-low)/float64(high-low))
}

// count is the start of each of goyaml.v2's decoder.unmarshal calls: it
// counts the nodes decoded, and those decoded through an alias.
func (d *decoder) count() error {
	d.decodeCount++
	if d.aliasDepth > 0 {
		d.aliasCount++
	}
	if d.aliasCount > 100 && d.decodeCount > 1000 && float64(d.aliasCount)/float64(d.decodeCount) > allowedAliasRatio(d.decodeCount) {
		return fmt.Errorf("yaml: document contains excessive aliasing")
	}
	return nil
}

// decode mirrors goyaml.v2's decoder.unmarshal.
func (d *decoder) decode(n *yaml.Node) (any, error) {
	if err := d.count(); err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return nil, nil
		}
		return d.decode(n.Content[0])
	case yaml.AliasNode:
		if d.aliases[n] {
			return nil, fmt.Errorf("yaml: anchor '%s' value contains itself", n.Value)
		}
		d.aliases[n] = true
		d.aliasDepth++
		v, err := d.decode(n.Alias)
		d.aliasDepth--
		delete(d.aliases, n)
		return v, err
	case yaml.ScalarNode:
		return d.scalar(n)
	case yaml.MappingNode:
		m := map[any]any{}
		if err := d.mapping(n, m); err != nil {
			return nil, err
		}
		return m, nil
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := d.decode(c)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	}
	return nil, nil // an empty text: no document
}

// explicitTag is the long tag a node was given in the text, "" if none.
func explicitTag(n *yaml.Node) string {
	if n.Style&yaml.TaggedStyle == 0 {
		return ""
	}
	return longTag(n.Tag)
}

// quoted reports a scalar that is not plain (v2's !implicit).
func quoted(n *yaml.Node) bool {
	return n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
}

// scalar mirrors goyaml.v2's decoder.scalar into an interface{}.
func (d *decoder) scalar(n *yaml.Node) (any, error) {
	tag := explicitTag(n)
	if tag == "" && quoted(n) || tag == "" && d.nonSpecific(n) {
		return n.Value, nil
	}
	rtag, v, err := resolve(tag, n.Value)
	if err != nil {
		return nil, err
	}
	switch rtag {
	case tagBinary:
		return decodeBinary(v.(string))
	case tagTimestamp:
		return n.Value, nil // v2 keeps timestamps as the text
	}
	return v, nil
}

// nonSpecific reports a plain scalar tagged "!", the non-specific tag:
// yaml.v3 resolves it as if it had no tag, goyaml.v2 makes it a string.
// The node starts at its tag (or at the anchor before it).
func (d *decoder) nonSpecific(n *yaml.Node) bool {
	if n.Line < 1 || n.Column < 1 {
		return false
	}
	if d.starts == nil {
		d.starts = lineStarts(d.src)
	}
	if n.Line > len(d.starts) {
		return false
	}
	rest := string(d.src[d.starts[n.Line-1]:])
	for i := 1; i < n.Column && rest != ""; i++ {
		_, w := utf8.DecodeRuneInString(rest)
		rest = rest[w:]
	}
	if strings.HasPrefix(rest, "&") { // the anchor, then blanks
		rest = strings.TrimLeft(strings.TrimLeftFunc(rest, func(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && r != '\r' }), " \t\r\n")
	}
	return rest == "!" || strings.HasPrefix(rest, "! ") || strings.HasPrefix(rest, "!\t") || strings.HasPrefix(rest, "!\n") || strings.HasPrefix(rest, "!\r")
}

// isMerge mirrors goyaml.v2's isMerge: a "<<" key, plain or tagged !!merge.
func isMerge(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Value != "<<" {
		return false
	}
	tag := explicitTag(n)
	return tag == tagMerge || tag == "" && !quoted(n)
}

// mapping mirrors goyaml.v2's decoder.mapping into a map[interface{}]interface{}.
func (d *decoder) mapping(n *yaml.Node, out map[any]any) error {
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if isMerge(kn) {
			if err := d.merge(vn, out); err != nil {
				return err
			}
			continue
		}
		k, err := d.decode(kn)
		if err != nil {
			return err
		}
		switch k.(type) {
		case map[any]any, []any:
			return fmt.Errorf("yaml: invalid map key: %#v", k)
		}
		v, err := d.decode(vn)
		if err != nil {
			return err
		}
		out[k] = v
	}
	return nil
}

const errWantMap = "yaml: map merge requires map or sequence of maps as the value"

// merge mirrors goyaml.v2's decoder.merge: the merged mappings' keys are
// set in out (the later in the text winning, earlier mappings of a
// sequence taking precedence).
func (d *decoder) merge(n *yaml.Node, out map[any]any) error {
	into := func(n *yaml.Node) error {
		if err := d.count(); err != nil { // v2 unmarshals the merged node
			return err
		}
		if n.Kind == yaml.AliasNode {
			if d.aliases[n] {
				return fmt.Errorf("yaml: anchor '%s' value contains itself", n.Value)
			}
			d.aliases[n] = true
			d.aliasDepth++
			defer func() { d.aliasDepth--; delete(d.aliases, n) }()
			n = n.Alias
			if err := d.count(); err != nil {
				return err
			}
		}
		if n.Kind != yaml.MappingNode {
			return errors.New(errWantMap)
		}
		return d.mapping(n, out)
	}
	switch n.Kind {
	case yaml.MappingNode:
		return into(n)
	case yaml.AliasNode:
		if n.Alias != nil && n.Alias.Kind != yaml.MappingNode {
			return errors.New(errWantMap)
		}
		return into(n)
	case yaml.SequenceNode:
		for i := len(n.Content) - 1; i >= 0; i-- {
			c := n.Content[i]
			if c.Kind == yaml.AliasNode {
				if c.Alias != nil && c.Alias.Kind != yaml.MappingNode {
					return errors.New(errWantMap)
				}
			} else if c.Kind != yaml.MappingNode {
				return errors.New(errWantMap)
			}
			if err := into(c); err != nil {
				return err
			}
		}
		return nil
	}
	return errors.New(errWantMap)
}

// jsonable mirrors sigs.k8s.io/yaml's convertToJSONableObject without a
// JSON target: keys become strings (numbers and booleans as YAML writes
// them; other keys are an error).
func jsonable(v any) (any, error) {
	switch v := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, val := range v {
			var ks string
			switch k := k.(type) {
			case string:
				ks = k
			case int64:
				ks = strconv.FormatInt(k, 10)
			case float64:
				ks = strconv.FormatFloat(k, 'g', -1, 32)
				switch ks {
				case "+Inf":
					ks = ".inf"
				case "-Inf":
					ks = "-.inf"
				case "NaN":
					ks = ".nan"
				}
			case bool:
				ks = strconv.FormatBool(k)
			default:
				return nil, fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, val)
			}
			jv, err := jsonable(val)
			if err != nil {
				return nil, err
			}
			m[ks] = jv
		}
		return m, nil
	case []any:
		l := make([]any, len(v))
		for i, it := range v {
			jv, err := jsonable(it)
			if err != nil {
				return nil, err
			}
			l[i] = jv
		}
		return l, nil
	}
	return v, nil
}

// parserProblems are the problems libyaml's parser (not its scanner)
// reports; a scanner error's line is one more than its mark's.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

var lineError = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// SyntaxError gives a yaml.v3 syntax error of text y the line goyaml.v2
// names (the "yaml: line N: ..." that sigs.k8s.io/yaml, and so kubectl,
// prints); an error it cannot place is returned as it is. Both report libyaml's marks, but v3 prefers the line where the
// construct being parsed began (the context mark: the "[" never closed)
// and v2 the line of the problem (the token that cannot follow); v3's
// line is that of the problem only when the context is on the first line.
// So the text is parsed again from the line v3 named, where the same
// error is reported with the problem's line counted from there.
func SyntaxError(y []byte, err error) error {
	m := lineError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	reported, _ := strconv.Atoi(m[1])
	msg := m[2]
	scanner := !parserProblems[msg]
	context := reported
	if scanner {
		context--
	}
	starts := lineStarts(y)
	switch {
	case msg == "found unexpected end of stream":
		// an unclosed quoted scalar: the problem is the end of the text
		return fmt.Errorf("yaml: line %d: %s", len(starts), msg)
	case msg == "could not find expected ':'" && context > 0:
		// a simple key without its ":" (context, its line): the problem is
		// where the scanner stands when it finds the key stale, for a plain
		// scalar the first line after it that is not blank, or the end of
		// the text (where a line is forced, as yaml_parser_fetch_stream_end
		// does)
		return fmt.Errorf("yaml: line %d: %s", nextTokenLine(y, starts, context)+1, msg)
	}
	if context <= 0 || context >= len(starts) {
		return err
	}
	var n yaml.Node
	again := yaml.Unmarshal(y[starts[context]:], &n)
	if again == nil {
		return err
	}
	rel := 0
	if m2 := lineError.FindStringSubmatch(again.Error()); m2 != nil {
		if m2[2] != msg {
			return err
		}
		rel, _ = strconv.Atoi(m2[1])
	} else if again.Error() != "yaml: "+msg {
		return err
	} else if scanner {
		rel = 1
	}
	return fmt.Errorf("yaml: line %d: %s", context+rel, msg)
}

// nextTokenLine is the first line after line that holds more than blanks
// (where the scanning of a plain scalar key stops, a comment included),
// or the line the end of the text is on once a line break is forced there.
func nextTokenLine(y []byte, starts []int, line int) int {
	for l := line + 1; l < len(starts); l++ {
		end := len(y)
		if l+1 < len(starts) {
			end = starts[l+1]
		}
		text := strings.TrimLeft(string(y[starts[l]:end]), " \t")
		if text != "" && !isYAMLBreakStart(text) {
			return l
		}
	}
	last := len(starts) - 1
	if starts[last] < len(y) {
		return last + 1 // the text does not end with a line break
	}
	return last
}

func isYAMLBreakStart(s string) bool {
	return s[0] == '\r' || s[0] == '\n' || strings.HasPrefix(s, "\u0085") || strings.HasPrefix(s, "\u2028") || strings.HasPrefix(s, "\u2029")
}

// lineStarts are the offsets at which libyaml's lines begin: after CR LF,
// CR, LF, NEL, LS or PS.
func lineStarts(y []byte) []int {
	starts := []int{0}
	for i := 0; i < len(y); {
		switch {
		case y[i] == '\r' && i+1 < len(y) && y[i+1] == '\n':
			i += 2
		case y[i] == '\r' || y[i] == '\n':
			i++
		case bytes.HasPrefix(y[i:], []byte("\u0085")):
			i += 2
		case bytes.HasPrefix(y[i:], []byte("\u2028")) || bytes.HasPrefix(y[i:], []byte("\u2029")):
			i += 3
		default:
			i++
			continue
		}
		starts = append(starts, i)
	}
	return starts
}
