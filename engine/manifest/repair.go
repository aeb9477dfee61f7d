package manifest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Repair is one mechanical fix of damage that copying YAML from a web page
// does: the text with that fix applied, and what it changes.
type Repair struct {
	// Kind names the damage: "spaces" (non-breaking and other unicode
	// spaces in the indentation or around a key's colon, invisible
	// zero-width characters), "tabs" (tabs in the indentation), "bullets"
	// ('•', '·' or '–' for '- '), "quotes" (curly quotes around a value) or
	// "punctuation" (a full-width colon after a key, full-width commas and
	// brackets of a flow sequence or mapping).
	Kind string
	// Title says what the fix does and on which lines, for a button.
	Title string
	// Lines are the 1-based lines the fix changes, in order.
	Lines []int
	// Text is the input with this fix applied: this fix alone where it
	// finds its damage in the input, else on top of the fixes before it
	// (a bullet behind non-breaking spaces shows only once they are fixed).
	Text string
}

// Repairs lists the fixes text needs, one per kind of damage found, in a
// fixed order (spaces, tabs, bullets, quotes, punctuation), and all, the
// text with every fix applied in that order ("" when there is nothing to
// repair); Repairs(all) finds nothing more. The content of block scalars
// (`|`, `>`: scripts, config files) keeps its bullets, quotes and
// punctuation; values keep characters that mean something there (a quoted
// value's backslashes, Chinese punctuation in prose, joiners in emoji).
func Repairs(text string) (repairs []Repair, all string) {
	all = text
	for _, r := range repairers {
		fixed, lines := applyRepair(text, r.fix, r.inBlocks)
		if len(lines) == 0 {
			// the damage may show only once earlier fixes are in
			fixed, lines = applyRepair(all, r.fix, r.inBlocks)
		}
		if len(lines) == 0 {
			continue
		}
		repairs = append(repairs, Repair{Kind: r.kind, Title: r.title + " (" + linesList(lines) + ")", Lines: lines, Text: fixed})
		all, _ = applyRepair(all, r.fix, r.inBlocks)
	}
	if len(repairs) == 0 {
		return nil, ""
	}
	return repairs, all
}

// repairers are Repairs' fixes, each a function of one line without its
// line break. Those without inBlocks leave the content of block scalars
// alone: there a bullet, a quote or a colon is text, as a script wants it.
var repairers = []struct {
	kind, title string
	fix         func(l string) string
	inBlocks    bool
}{
	{"spaces", "Replace non-breaking and other unusual spaces with ordinary ones", fixSpaces, true},
	{"tabs", "Replace tabs in the indentation with two spaces each", fixTabs, true},
	{"bullets", "Turn '•' bullets into YAML list items ('- ')", fixBullets, false},
	{"quotes", "Replace curly quotes around values with straight ones", fixQuotes, false},
	{"punctuation", "Replace full-width colons and commas (：，) with YAML's", fixPunctuation, false},
}

// applyRepair applies fix to every line of text (a "\r" ending kept), but
// to the content of block scalars only when inBlocks: the fixed text and
// the 1-based lines it changed.
func applyRepair(text string, fix func(string) string, inBlocks bool) (string, []int) {
	src := strings.Split(text, "\n")
	var block []bool
	if !inBlocks {
		block = blockScalarLines(src)
	}
	var changed []int
	for i, l := range src {
		if block != nil && block[i] {
			continue
		}
		body, cr := strings.CutSuffix(l, "\r")
		if f := fix(body); f != body {
			if cr {
				f += "\r"
			}
			src[i] = f
			changed = append(changed, i+1)
		}
	}
	return strings.Join(src, "\n"), changed
}

// ws is the white space a pasted line may hold where YAML wants spaces.
const ws = `[ \t\x{a0}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}]`

// blockScalarHeadRE is a line whose value starts a block scalar: `key: |`,
// `- >-`, `• |`, `key: |2` (a comment may follow).
var blockScalarHeadRE = regexp.MustCompile(`(?:^|[:\-•·–])` + ws + `+[|>][-+0-9]*` + ws + `*(?:#.*)?\r?$`)

// blockScalarLines reports, by line, whether it is content of a block
// scalar: the lines after a block scalar's head that are blank or indented
// deeper than the head (a tab counted as two spaces, as the tabs fix
// makes it).
func blockScalarLines(src []string) []bool {
	in := make([]bool, len(src))
	indent := func(l string) int {
		n := 0
		for _, r := range l {
			switch {
			case r == '\t':
				n += 2
			case strings.ContainsRune(" \u00a0\u3000", r) || r >= '\u2000' && r <= '\u200a':
				n++
			default:
				return n
			}
		}
		return n
	}
	for i := 0; i < len(src); i++ {
		if !blockScalarHeadRE.MatchString(src[i]) {
			continue
		}
		head := indent(src[i])
		j := i + 1
		for ; j < len(src) && (strings.TrimSpace(src[j]) == "" || indent(src[j]) > head); j++ {
			in[j] = true
		}
		i = j - 1
	}
	return in
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

// invisible drops the characters no manifest means and a page inserts:
// zero-width space (U+200B), word joiner (U+2060), byte order mark
// (U+FEFF), soft hyphen (U+00AD). Zero-width joiners, which make emoji
// and scripts, stay.
var invisible = strings.NewReplacer("\u200b", "", "\u2060", "", "\ufeff", "", "\u00ad", "")

// structuralSpaceRE finds the spaces YAML reads as structure: the
// indentation (with list dashes), the space after a key's colon and
// trailing space.
var structuralSpaceRE = regexp.MustCompile(`^(?:` + ws + `*-` + ws + `)*` + ws + `*|(:)` + ws + `+|` + ws + `+$`)

var unusualSpace = strings.NewReplacer("\u00a0", " ", "\u2000", " ", "\u2001", " ", "\u2002", " ", "\u2003", " ",
	"\u2004", " ", "\u2005", " ", "\u2006", " ", "\u2007", " ", "\u2008", " ", "\u2009", " ", "\u200a", " ",
	"\u202f", " ", "\u205f", " ", "\u3000", "  ")

// fixSpaces makes the structural spaces ordinary (an ideographic space,
// two columns wide, two spaces) and drops invisible characters; spaces
// inside a value stay.
func fixSpaces(l string) string {
	l = invisible.Replace(l)
	return structuralSpaceRE.ReplaceAllStringFunc(l, func(m string) string {
		if strings.HasPrefix(m, ":") {
			if !strings.ContainsAny(m, "\u00a0\u202f\u205f\u3000") && !strings.ContainsFunc(m, func(r rune) bool { return r >= '\u2000' && r <= '\u200a' }) {
				return m
			}
			return ": "
		}
		return unusualSpace.Replace(m)
	})
}

func fixTabs(l string) string {
	n := len(l) - len(strings.TrimLeft(l, " \t"))
	if !strings.Contains(l[:n], "\t") {
		return l
	}
	return strings.ReplaceAll(l[:n], "\t", "  ") + l[n:]
}

// bulletRE is a line that starts (after its indentation) with a bullet
// character and a space where YAML wants "- ".
var bulletRE = regexp.MustCompile(`^(` + ws + `*)[•·●▪◦‣∙–]` + ws + `+`)

func fixBullets(l string) string {
	if m := bulletRE.FindStringSubmatch(l); m != nil && len(m[0]) < len(l) {
		return m[1] + "- " + l[len(m[0]):]
	}
	return l
}

// valueRE splits a line into what comes before its value (list dashes,
// a plain `key: `), the value, and a trailing comment with its space.
var valueRE = regexp.MustCompile(`^((?:` + ws + `*-` + ws + `)*` + ws + `*(?:[A-Za-z0-9_./-]+:` + ws + `+)?(?:-` + ws + `)*)(.*?)((?:` + ws + `+#.*)?` + ws + `*)$`)

// curlyQuotes are the typographic quotes a web page puts for YAML's
// straight ones: the characters that open and close a value, by quote.
var curlyQuotes = []struct{ open, close, all string }{
	{"“”„‟", "“”‟", "“”„‟"},
	{"‘’‚‛", "‘’‛", "‘‚‛"}, // an inner ’ is an apostrophe
}

// fixQuotes quotes a value written between curly quotes with straight
// ones: double quotes unless the text holds one or a backslash (which a
// double-quoted scalar reads as an escape), else single quotes, else (the
// text holds both) nothing.
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
		if strings.ContainsAny(inner, q.all) {
			return l // “Fast” or “Slow”: not one value
		}
		switch {
		case !strings.ContainsAny(inner, `"\`):
			return m[1] + `"` + inner + `"` + m[3]
		case !strings.Contains(inner, "'"):
			return m[1] + "'" + inner + "'" + m[3]
		}
		return l
	}
	return l
}

// fullWidthKeyRE is a Kubernetes-style key (a field name, which starts in
// lower case, or a label key with a prefix or dots) followed by a
// full-width colon: `name：web`, `- name：c`, `app.kubernetes.io/name：x`.
var fullWidthKeyRE = regexp.MustCompile(`^((?:` + ws + `*-` + ws + `)*` + ws + `*(?:[a-z][A-Za-z0-9_-]*|[A-Za-z0-9_-]+(?:[./][A-Za-z0-9_./-]+)+))` + ws + `*：` + ws + `*`)

// flowRE is a key's value, or a list item, that is a whole flow sequence
// or mapping written with full-width brackets or commas.
var flowRE = regexp.MustCompile(`^((?:` + ws + `*-` + ws + `)*` + ws + `*(?:[A-Za-z0-9_./-]+:` + ws + `+)?)([\[{［｛].*[\]}］｝])` + ws + `*$`)

var fullWidthFlow = strings.NewReplacer("，", ", ", "［", "[", "］", "]", "｛", "{", "｝", "}", "：", ": ")

func fixPunctuation(l string) string {
	if m := fullWidthKeyRE.FindStringSubmatch(l); m != nil {
		if rest := l[len(m[0]):]; rest == "" {
			l = m[1] + ":"
		} else {
			l = m[1] + ": " + rest
		}
	}
	// [a，b] {app：web，tier：edge}: a flow collection without quotes or
	// comments (where a full-width comma is text)
	if m := flowRE.FindStringSubmatch(l); m != nil && !strings.ContainsAny(m[2], `"'#`) && strings.ContainsAny(m[2], "，［］｛｝：") {
		l = m[1] + fullWidthFlow.Replace(m[2])
	}
	return l
}
