package sigsyaml

import (
	"encoding/base64"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The long tags of YAML 1.1's core types, as goyaml.v2 names them.
const (
	longTagPrefix = "tag:yaml.org,2002:"
	tagStr        = longTagPrefix + "str"
	tagBool       = longTagPrefix + "bool"
	tagInt        = longTagPrefix + "int"
	tagFloat      = longTagPrefix + "float"
	tagNull       = longTagPrefix + "null"
	tagTimestamp  = longTagPrefix + "timestamp"
	tagBinary     = longTagPrefix + "binary"
	tagMerge      = longTagPrefix + "merge"
)

// shortTag and longTag mirror goyaml.v2's helpers of the same names.
func shortTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, longTagPrefix); ok {
		return "!!" + rest
	}
	return tag
}

func longTag(tag string) string {
	if rest, ok := strings.CutPrefix(tag, "!!"); ok {
		return longTagPrefix + rest
	}
	return tag
}

// plainWords is goyaml.v2's resolveMap: the plain scalars that are not
// strings whatever their first character (YAML 1.1 booleans included).
var plainWords = func() map[string]struct {
	tag string
	v   any
} {
	m := map[string]struct {
		tag string
		v   any
	}{}
	add := func(tag string, v any, words ...string) {
		for _, w := range words {
			m[w] = struct {
				tag string
				v   any
			}{tag, v}
		}
	}
	add(tagBool, true, "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")
	add(tagBool, false, "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")
	add(tagNull, nil, "", "~", "null", "Null", "NULL")
	add(tagFloat, math.NaN(), ".nan", ".NaN", ".NAN")
	add(tagFloat, math.Inf(1), ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")
	add(tagFloat, math.Inf(-1), "-.inf", "-.Inf", "-.INF")
	add(tagMerge, "<<", "<<")
	return m
}()

// yamlStyleFloat is goyaml.v2's pattern for a float written the YAML way.
var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// hint classifies a scalar by its first byte as goyaml.v2's resolveTable
// does: 'S' sign, 'D' digit, 'M' may be a word of plainWords, '.' may be a
// float, 0 a string for certain.
func hint(s string) byte {
	if s == "" {
		return 'N'
	}
	switch c := s[0]; {
	case c == '+' || c == '-':
		return 'S'
	case c >= '0' && c <= '9':
		return 'D'
	case strings.IndexByte("yYnNtTfFoO~", c) >= 0:
		return 'M'
	case c == '.':
		return '.'
	}
	return 0
}

// intValue is v2's int-or-int64 (one Go type here: the difference shows
// nowhere once the value is JSON).
func intValue(i int64) any { return i }

// resolve mirrors goyaml.v2's resolve (resolve.go): the tag and value of a
// scalar whose tag is tag ("" when it has none, a long tag otherwise). A
// value that cannot have the tag it was given is v2's failf error.
func resolve(tag, in string) (rtag string, out any, err error) {
	switch tag {
	case "", tagStr, tagBool, tagInt, tagFloat, tagNull, tagTimestamp:
	default:
		return tag, in, nil
	}
	rtag, out = resolvePlain(tag, in)
	switch tag {
	case "", rtag, tagStr, tagBinary:
		return rtag, out, nil
	case tagFloat:
		if rtag == tagInt {
			switch v := out.(type) {
			case int64:
				return tagFloat, float64(v), nil
			}
		}
	}
	return rtag, out, fmt.Errorf("yaml: cannot decode %s `%s` as a %s", shortTag(rtag), in, shortTag(tag))
}

// resolvePlain is resolve before the check of an explicit tag.
func resolvePlain(tag, in string) (string, any) {
	h := hint(in)
	if h == 0 || tag == tagStr || tag == tagBinary {
		return tagStr, in
	}
	if w, ok := plainWords[in]; ok {
		return w.tag, w.v
	}
	switch h {
	case '.':
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			return tagFloat, f
		}
	case 'D', 'S':
		if tag == "" || tag == tagTimestamp {
			if t, ok := parseTimestamp(in); ok {
				return tagTimestamp, t
			}
		}
		plain := strings.ReplaceAll(in, "_", "")
		if i, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return tagInt, intValue(i)
		}
		if u, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return tagInt, u
		}
		if yamlStyleFloat.MatchString(plain) {
			if f, err := strconv.ParseFloat(plain, 64); err == nil {
				return tagFloat, f
			}
		}
		if rest, ok := strings.CutPrefix(plain, "0b"); ok {
			if i, err := strconv.ParseInt(rest, 2, 64); err == nil {
				return tagInt, intValue(i)
			}
			if u, err := strconv.ParseUint(rest, 2, 64); err == nil {
				return tagInt, u
			}
		} else if rest, ok := strings.CutPrefix(plain, "-0b"); ok {
			if i, err := strconv.ParseInt("-"+rest, 2, 64); err == nil {
				return tagInt, intValue(i)
			}
		}
	}
	return tagStr, in
}

// timestampFormats are goyaml.v2's allowedTimestampFormats.
var timestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// parseTimestamp mirrors goyaml.v2's parseTimestamp: four digits and a
// dash, then one of timestampFormats.
func parseTimestamp(s string) (time.Time, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return time.Time{}, false
	}
	for _, f := range timestampFormats {
		if t, err := time.Parse(f, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// base60Float is goyaml.v2's base60float: YAML 1.1's sexagesimal numbers,
// which v2 quotes for other parsers' sake though it reads them as strings.
var base60Float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// isBase60Float mirrors goyaml.v2's isBase60Float.
func isBase60Float(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 {
		return false
	}
	return base60Float.MatchString(s)
}

// decodeBinary is the !!binary case of goyaml.v2's decoder.scalar.
func decodeBinary(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("yaml: !!binary value contains invalid base64 data")
	}
	return string(b), nil
}
