package session

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The page's own words in the learner's language. kubectl's and the API
// server's output are never translated (a real cluster prints them in
// English); what is translated is the playground's chrome. Each language
// is one catalogue, data (examples/i18n/LANG.json: a JSON object of key to
// text, "_name" the language's own name), so a language is added without
// Go code; TestCatalogues checks every catalogue has every key of the
// English one, no other, and the same {placeholders}.

// Catalogue is one language's texts by key.
type Catalogue map[string]string

// NameKey is the key of a catalogue's own name for its language ("简体中文").
const NameKey = "_name"

// ParseCatalogue reads a catalogue file. Errors: not a JSON object of
// strings, or no NameKey.
func ParseCatalogue(data []byte) (Catalogue, error) {
	var c Catalogue
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("a catalogue is a JSON object of strings: %v", err)
	}
	if c[NameKey] == "" {
		return nil, fmt.Errorf("the catalogue has no %q (the language's own name)", NameKey)
	}
	return c, nil
}

// T returns the text of key with each {name} replaced by the value after
// it in args (name, value pairs), or fallback when the catalogue lacks
// the key.
func (c Catalogue) T(key, fallback string, args ...string) string {
	s, ok := c[key]
	if !ok {
		s = fallback
	}
	for i := 0; i+1 < len(args); i += 2 {
		s = strings.ReplaceAll(s, "{"+args[i]+"}", args[i+1])
	}
	return s
}

// placeholder matches a {name} placeholder.
var placeholder = regexp.MustCompile(`\{[a-z][a-zA-Z0-9]*\}`)

// Placeholders returns the sorted placeholders of s ("{n}").
func Placeholders(s string) []string {
	ps := placeholder.FindAllString(s, -1)
	slices.Sort(ps)
	return slices.Compact(ps)
}

// CheckCatalogue compares a catalogue with the English one: the keys
// missing or extra, and the keys whose placeholders differ, as messages
// ("missing key clock.play", ...); none when it matches.
func CheckCatalogue(en, c Catalogue) []string {
	var out []string
	for _, k := range sortedKeys(en) {
		v, ok := c[k]
		switch {
		case !ok:
			out = append(out, "missing key "+k)
		case !slices.Equal(Placeholders(en[k]), Placeholders(v)):
			out = append(out, fmt.Sprintf("key %s: placeholders %v, English has %v", k, Placeholders(v), Placeholders(en[k])))
		case strings.TrimSpace(v) == "":
			out = append(out, "empty key "+k)
		}
	}
	for _, k := range sortedKeys(c) {
		if _, ok := en[k]; !ok {
			out = append(out, "extra key "+k)
		}
	}
	return out
}

func sortedKeys(c Catalogue) []string {
	ks := make([]string, 0, len(c))
	for k := range c {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// PickLanguage returns the language to show: stored (the learner's choice,
// remembered) when available has it, else the first of the browser's
// languages (navigator.languages) that available has, by its primary tag
// ("zh-TW" picks "zh-CN" when that is the only Chinese), else "en".
func PickLanguage(stored string, browser []string, available []string) string {
	if slices.Contains(available, stored) {
		return stored
	}
	for _, b := range browser {
		if slices.Contains(available, b) {
			return b
		}
		primary, _, _ := strings.Cut(b, "-")
		for _, a := range available {
			if ap, _, _ := strings.Cut(a, "-"); strings.EqualFold(ap, primary) {
				return a
			}
		}
	}
	return "en"
}
