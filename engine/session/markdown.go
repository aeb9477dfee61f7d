package session

import "strings"

// Block is one block of a lesson's markdown-lite text: a paragraph, or a list item
// (item true).
type Block struct {
	Item  bool
	Spans []Span
}

// Span is a run of text: code (between backquotes), *emphasis*,
// **strong**, or plain.
type Span struct {
	Code, Em, Strong bool
	Text             string
}

// ParseMarkdown splits a lesson's explanation (its step text, its
// summary) into blocks: a blank
// line ends a paragraph, a line starting with "- " or "* " is a list
// item, other lines join the paragraph with a space; `code`, *emphasis*
// and **strong** spans are marked (an unpaired backquote or asterisk is
// kept as text, as is everything inside a code span).
func ParseMarkdown(text string) []Block {
	var out []Block
	var cur []string
	curItem := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, Block{Item: curItem, Spans: inlineSpans(strings.Join(cur, " "))})
		}
		cur, curItem = nil, false
	}
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case l == "":
			flush()
		case strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* "):
			flush()
			cur, curItem = []string{strings.TrimSpace(l[2:])}, true
		default:
			cur = append(cur, l)
		}
	}
	flush()
	return out
}

// inlineSpans splits s into code spans, then the text between them into
// emphasis and strong spans.
func inlineSpans(s string) []Span {
	var out []Span
	for _, sp := range codeSpans(s) {
		if sp.Code {
			out = append(out, sp)
			continue
		}
		out = append(out, emphasisSpans(sp.Text)...)
	}
	return out
}

// emphasisSpans splits s at *emphasis* and **strong** delimiters: an
// opening run is followed, and its closing run preceded, by a character
// other than a space or an asterisk (so "2 * 3" and "a ** b" stay text).
func emphasisSpans(s string) []Span {
	var out []Span
	start := 0 // s[start:i] is plain text not yet added
	for i := 0; i < len(s); {
		if s[i] != '*' {
			i++
			continue
		}
		n := 1
		if strings.HasPrefix(s[i:], "**") {
			n = 2
		}
		if j := closingRun(s, i+n, n); j >= 0 && (i+n >= len(s) || s[i+n] != '*') {
			if start < i {
				out = append(out, Span{Text: s[start:i]})
			}
			out = append(out, Span{Em: n == 1, Strong: n == 2, Text: s[i+n : j]})
			i = j + n
			start = i
			continue
		}
		i += n
	}
	if start < len(s) {
		out = append(out, Span{Text: s[start:]})
	}
	return out
}

// closingRun returns where the run of n asterisks closing an emphasis
// opened just before from starts, or -1.
func closingRun(s string, from, n int) int {
	if from >= len(s) || s[from] == ' ' || s[from] == '*' {
		return -1
	}
	delim := strings.Repeat("*", n)
	for j := from + 1; j+n <= len(s); j++ {
		if s[j:j+n] != delim || s[j-1] == ' ' || s[j-1] == '*' || j+n < len(s) && s[j+n] == '*' {
			continue
		}
		return j
	}
	return -1
}

// codeSpans splits s at paired backquotes.
func codeSpans(s string) []Span {
	var out []Span
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			break
		}
		if i > 0 {
			out = append(out, Span{Text: s[:i]})
		}
		if j > 0 {
			out = append(out, Span{Code: true, Text: s[i+1 : i+1+j]})
		}
		s = s[i+2+j:]
	}
	if s != "" {
		out = append(out, Span{Text: s})
	}
	return out
}
