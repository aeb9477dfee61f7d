// Package sigsyaml is what kubectl's YAML library, sigs.k8s.io/yaml
// v1.6.0 (over go.yaml.in/yaml/v2 v2.4.4), does for the playground's
// kubectl, written over gopkg.in/yaml.v3 so that the browser build carries
// one YAML library: Marshal prints JSON-able values as `kubectl get -o
// yaml` does, YAMLToJSON and Unmarshal read YAML with goyaml.v2's YAML 1.1
// resolution (yes/no/on/off are booleans, 0777 is octal, timestamps stay
// strings) as kubectl edit and kubectl patch do.
//
// The package's tests compare it with sigs.k8s.io/yaml itself.
package sigsyaml

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Marshal mirrors sigs.k8s.io/yaml.Marshal: obj is marshalled to JSON,
// and the JSON to YAML as JSONToYAML does.
func Marshal(obj any) ([]byte, error) {
	j, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	return jsonToYAML(j)
}

// jsonToYAML mirrors sigs.k8s.io/yaml.JSONToYAML for the JSON text
// encoding/json.Marshal writes: goyaml.v2 reads the JSON as YAML (numbers
// resolved as plain scalars; a raw NEL in a string is a line break, folded
// as YAML folds a double-quoted scalar's lines), and marshals what it read,
// mappings with their keys in goyaml.v2's order. What v2's reader and
// parser refuse in such text is refused with v2's words: characters
// outside YAML's printable set, a key that runs over a line break or past
// 1024 characters (it is no simple key), a "---" or "..." starting a line
// of a string.
func jsonToYAML(j []byte) ([]byte, error) {
	for _, r := range string(j) {
		if !(r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0x7E || r == 0x85 ||
			r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF) {
			return nil, errors.New("yaml: control characters are not allowed")
		}
	}
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	r := &jsonReader{dec: d}
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	return emitDocument(v), nil
}

// jsonReader reads JSON tokens in the order of the text, as goyaml.v2's
// scanner meets them; line counts the line breaks (NELs) read so far.
type jsonReader struct {
	dec  *json.Decoder
	line int
}

func (r *jsonReader) value() (any, error) {
	t, err := r.dec.Token()
	if err != nil {
		return nil, err
	}
	return r.valueFrom(t)
}

// valueFrom turns the value starting with token t into what the emitter
// writes, as goyaml.v2 would have decoded and re-encoded it.
func (r *jsonReader) valueFrom(t json.Token) (any, error) {
	switch t := t.(type) {
	case json.Delim:
		if t == '[' {
			l := []any{}
			for r.dec.More() {
				v, err := r.value()
				if err != nil {
					return nil, err
				}
				l = append(l, v)
			}
			_, err := r.dec.Token()
			return l, err
		}
		return r.object()
	case string:
		return r.str(t)
	case bool:
		if t {
			return plain("true"), nil
		}
		return plain("false"), nil
	case json.Number:
		return number(string(t)), nil
	}
	return plain("null"), nil
}

// object reads a JSON object, its opening brace read; the keys are put in
// goyaml.v2's order (keyOrder).
func (r *jsonReader) object() (any, error) {
	values := map[string]any{}
	start := r.line // the line of the opening brace
	for r.dec.More() {
		kt, err := r.dec.Token()
		if err != nil {
			return nil, err
		}
		raw := kt.(string)
		keyLine := r.line
		k, err := r.str(raw)
		if err != nil {
			return nil, err
		}
		if r.line > keyLine || utf8.RuneCount(quote(raw)) > 1024 {
			// yaml_simple_key_is_valid: the key is no simple key, so the
			// parser meets a ":" where it expects ',' or '}'
			line := r.line
			if line == 0 {
				line = start
			}
			if line == 0 {
				return nil, errors.New("yaml: did not find expected ',' or '}'")
			}
			return nil, fmt.Errorf("yaml: line %d: did not find expected ',' or '}'", line)
		}
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		values[k] = v
	}
	if _, err := r.dec.Token(); err != nil {
		return nil, err
	}
	m := &mapping{keys: make([]string, 0, len(values))}
	for k := range values {
		m.keys = append(m.keys, k)
	}
	sort.Sort(keyOrder(m.keys))
	m.values = make([]any, len(m.keys))
	for i, k := range m.keys {
		m.values[i] = values[k]
	}
	return m, nil
}

// quote is s as encoding/json writes it.
func quote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// str is a JSON string as goyaml.v2's scanner reads it back from the
// double-quoted scalar encoding/json wrote: encoding/json leaves only
// spaces and NELs (U+0085) unescaped among YAML's blanks and breaks, and
// yaml_parser_scan_flow_scalar folds a run of them that holds a NEL into
// one space, or into a newline for each NEL after the first; a line that
// starts with "---" or "..." and a blank is an error.
func (r *jsonReader) str(s string) (string, error) {
	const nel = "\u0085"
	if !strings.Contains(s, nel) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != ' ' && !strings.HasPrefix(s[i:], nel) {
			b.WriteByte(s[i])
			i++
			continue
		}
		j, breaks := i, 0
		for j < len(s) && (s[j] == ' ' || strings.HasPrefix(s[j:], nel)) {
			if s[j] == ' ' {
				j++
				continue
			}
			breaks++
			j += len(nel)
		}
		if breaks == 0 {
			b.WriteString(s[i:j])
			i = j
			continue
		}
		r.line += breaks
		if rest := s[j:]; strings.HasSuffix(s[i:j], nel) && len(rest) >= 3 &&
			(strings.HasPrefix(rest, "---") || strings.HasPrefix(rest, "...")) &&
			(strings.HasPrefix(rest[3:], " ") || strings.HasPrefix(rest[3:], nel)) {
			return "", fmt.Errorf("yaml: line %d: found unexpected document indicator", r.line+1)
		}
		if breaks == 1 {
			b.WriteByte(' ')
		} else {
			b.WriteString(strings.Repeat("\n", breaks-1))
		}
		i = j
	}
	return b.String(), nil
}

// number is a JSON number as goyaml.v2 reads it (a plain scalar) and
// writes it back (encoder.intv, uintv, floatv; a number too large for a
// float64 stays the string it was).
func number(s string) any {
	_, v := resolvePlain("", s)
	switch v := v.(type) {
	case int64:
		return plain(strconv.FormatInt(v, 10))
	case uint64:
		return plain(strconv.FormatUint(v, 10))
	case float64:
		return plain(formatFloat(v))
	case string:
		return v
	}
	return plain(s)
}

// formatFloat mirrors goyaml.v2's encoder.floatv for a float64.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// keyOrder is goyaml.v2's keyList (sorter.go) for string keys: letters
// sort before other characters, and runs of digits compare as numbers, so
// "a2" < "a10".
type keyOrder []string

func (l keyOrder) Len() int      { return len(l) }
func (l keyOrder) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l keyOrder) Less(i, j int) bool {
	return keyLess(l[i], l[j])
}

func keyLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}
