package manifest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Repair is one mechanical fix of damage that copying YAML from a web page
// does: the whole text with that fix applied, and what it changes.
type Repair struct {
	// Kind names the damage: "spaces" (non-breaking and other unicode
	// spaces, zero-width characters), "bullets" ('•' or '·' for '- '),
	// "quotes" (curly quotes around a value), "punctuation" (a full-width
	// colon after a key, full-width commas and brackets in a flow
	// sequence or mapping) or "tabs" (tabs in the indentation).
	Kind string
	// Title says what the fix does and on which lines, for a button.
	Title string
	// Lines are the 1-based lines the fix changes, in order.
	Lines []int
	// Text is the input with this fix, and only it, applied.
	Text string
}

// Repairs lists the fixes text needs, one per kind of damage found, in a
// fixed order (spaces, tabs, bullets, quotes, punctuation), and all, the
// text with every fix applied ("" when there is nothing to repair). A fix
// changes only what YAML cannot mean as written: characters inside a
// quoted value or a comment other than the damaged ones stay.
func Repairs(text string) (repairs []Repair, all string) {
	all = text
	for _, r := range repairers {
		fixed, lines := fixLines(text, r.fix)
		if len(lines) == 0 {
			continue
		}
		repairs = append(repairs, Repair{Kind: r.kind, Title: r.title + " (" + linesList(lines) + ")", Lines: lines, Text: fixed})
		all, _ = fixLines(all, r.fix)
	}
	if len(repairs) == 0 {
		return nil, ""
	}
	return repairs, all
}

// repairers are Repairs' fixes, each a function of one line.
var repairers = []struct {
	kind, title string
	fix         func(string) string
}{
	{"spaces", "Replace non-breaking and other unusual spaces with ordinary ones", fixSpaces},
	{"tabs", "Replace tabs in the indentation with two spaces each", fixTabs},
	{"bullets", "Turn '•' bullets into YAML list items ('- ')", fixBullets},
	{"quotes", "Replace curly quotes around values with straight ones", fixQuotes},
	{"punctuation", "Replace full-width colons and commas (：，) with YAML's", fixPunctuation},
}

// fixLines applies fix to every line of text: the fixed text and the
// 1-based lines it changed.
func fixLines(text string, fix func(string) string) (string, []int) {
	src := strings.Split(text, "\n")
	var changed []int
	for i, l := range src {
		if f := fix(l); f != l {
			src[i] = f
			changed = append(changed, i+1)
		}
	}
	return strings.Join(src, "\n"), changed
}

// linesList is "line 3" or "lines 3, 4, 7" (a long list cut: "lines 3, 4,
// 5, 6, 7 and 4 more").
func linesList(lines []int) string {
	if len(lines) == 1 {
		return "line " + strconv.Itoa(lines[0])
	}
	shown := lines
	if len(lines) > 8 {
		shown = lines[:5]
	}
	s := make([]string, len(shown))
	for i, l := range shown {
		s[i] = strconv.Itoa(l)
	}
	out := "lines " + strings.Join(s, ", ")
	if len(shown) < len(lines) {
		out += fmt.Sprintf(" and %d more", len(lines)-len(shown))
	}
	return out
}

// unusualSpace replaces the spaces YAML does not take as white space (the
// no-break, fixed-width and ideographic spaces of U+00A0, U+2000–U+200A,
// U+202F, U+205F, U+3000) with ' ' and drops zero-width ones (U+200B,
// U+200C, U+200D, U+2060, U+FEFF).
var unusualSpace = strings.NewReplacer(
	"\u00a0", " ", "\u2000", " ", "\u2001", " ", "\u2002", " ", "\u2003", " ", "\u2004", " ",
	"\u2005", " ", "\u2006", " ", "\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200a", " ",
	"\u202f", " ", "\u205f", " ", "\u3000", " ",
	"\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "")

func fixSpaces(l string) string { return unusualSpace.Replace(l) }

func fixTabs(l string) string {
	n := len(l) - len(strings.TrimLeft(l, " \t"))
	if !strings.Contains(l[:n], "\t") {
		return l
	}
	return strings.ReplaceAll(l[:n], "\t", "  ") + l[n:]
}

// bulletRE is a line that starts (after its indentation) with a bullet
// character where YAML wants "- ".
var bulletRE = regexp.MustCompile(`^([ \t]*)[•·●▪◦‣∙]\s*`)

func fixBullets(l string) string {
	if m := bulletRE.FindStringSubmatch(l); m != nil && len(m[0]) < len(l) {
		return m[1] + "- " + l[len(m[0]):]
	}
	return l
}

// valueRE splits a line into what comes before its value (list dashes,
// a plain `key: `), the value, and the trailing white space.
var valueRE = regexp.MustCompile(`^((?:[ \t\x{a0}\x{3000}]*- )*[ \t\x{a0}\x{3000}]*(?:[A-Za-z0-9_./-]+:[ \t\x{a0}\x{3000}]+)?(?:- )*)(.*?)([ \t\x{a0}\x{3000}]*)$`)

// curlyQuotes are the typographic quotes a web page puts for YAML's
// straight ones: the characters that open and close a value, by quote.
var curlyQuotes = []struct{ open, close, straight string }{
	{"“”„‟", "“”‟", `"`},
	{"‘’‚‛", "‘’‛", "'"},
}

func fixQuotes(l string) string {
	m := valueRE.FindStringSubmatch(l)
	if m == nil {
		return l
	}
	v := m[2]
	first, n := utf8.DecodeRuneInString(v)
	last, k := utf8.DecodeLastRuneInString(v)
	if len(v) < n+k {
		return l
	}
	for _, q := range curlyQuotes {
		if !strings.ContainsRune(q.open, first) || !strings.ContainsRune(q.close, last) {
			continue
		}
		inner := v[n : len(v)-k]
		if strings.Contains(inner, q.straight) {
			return l // would need escaping: left to the learner
		}
		return m[1] + q.straight + inner + q.straight + m[3]
	}
	return l
}

// fullWidthKeyRE is a key followed by a full-width colon: `name：web`.
var fullWidthKeyRE = regexp.MustCompile(`^((?:[ \t]*- )*[ \t]*[A-Za-z0-9_./-]+)[ \t]*：[ \t]*`)

func fixPunctuation(l string) string {
	if m := fullWidthKeyRE.FindStringSubmatch(l); m != nil {
		rest := l[len(m[0]):]
		if rest == "" {
			l = m[1] + ":"
		} else {
			l = m[1] + ": " + rest
		}
	}
	// commas and brackets of a flow collection: [a，b] {a: 1，b: 2}
	t := strings.TrimSpace(l)
	if i := strings.IndexAny(t, "[{［｛"); i >= 0 && strings.ContainsAny(t, "，［］｛｝") {
		if strings.ContainsAny(t[:i], `"'#`) {
			return l
		}
		l = strings.NewReplacer("，", ", ", "［", "[", "］", "]", "｛", "{", "｝", "}").Replace(l)
	}
	return l
}
