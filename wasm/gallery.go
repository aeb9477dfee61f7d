//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// initLessons sets up the lesson player, the exercises and the gallery
// (called once from start, after exposeHooks): window.dsplay.reset, then
// the gallery and the players (initLessonsUI, lesson.go).
func (a *app) initLessons() {
	o := global.Get("dsplay")
	if o.Truthy() {
		o.Set("reset", a.hook("dsplay.reset", func([]js.Value) any {
			if err := a.resetCluster(engine.Options{}); err != nil {
				return err.Error()
			}
			return ""
		}))
	}
	initLessonsUI(a)
}

// lessonsFrame runs once per animation frame (from frame, main.go): the
// open exercise observes its invariants and checks its goal by itself
// (exercise.go).
func (a *app) lessonsFrame() {
	if lessons != nil {
		lessons.frame()
	}
}

// progressKey is the localStorage key of the learner's progress in the
// lessons and exercises (session.Progress, as JSON).
const progressKey = "dsplay.progress.v1"

// loadProgress reads the stored progress (empty when the page may not use
// localStorage or the value is corrupt).
func loadProgress() (p session.Progress) {
	p = session.ParseProgress("")
	defer func() { recover() }() // a throwing storage: nothing stored
	s, ok := storage()
	if !ok {
		return p
	}
	v := s.Call("getItem", progressKey)
	if v.Truthy() {
		p = session.ParseProgress(v.String())
	}
	return p
}

// saveProgress stores p; it reports whether it could (a sandboxed frame,
// blocked storage or a full quota cannot: the progress then lasts as long
// as the page).
func saveProgress(p session.Progress) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	s, ok := storage()
	if !ok {
		return false
	}
	s.Call("setItem", progressKey, p.String())
	return true
}

// mdBlock is one block of markdown-lite text: a paragraph, or a list item
// (item true).
type mdBlock struct {
	item  bool
	spans []mdSpan
}

// mdSpan is a run of text: code (between backquotes), *emphasis*,
// **strong**, or plain.
type mdSpan struct {
	code, em, strong bool
	text             string
}

// parseMarkdownLite splits a lesson's explanation into blocks: a blank
// line ends a paragraph, a line starting with "- " or "* " is a list
// item, other lines join the paragraph with a space; `code`, *emphasis*
// and **strong** spans are marked (an unpaired backquote or asterisk is
// kept as text, as is everything inside a code span).
func parseMarkdownLite(text string) []mdBlock {
	var out []mdBlock
	var cur []string
	curItem := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, mdBlock{item: curItem, spans: inlineSpans(strings.Join(cur, " "))})
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
func inlineSpans(s string) []mdSpan {
	var out []mdSpan
	for _, sp := range codeSpans(s) {
		if sp.code {
			out = append(out, sp)
			continue
		}
		out = append(out, emphasisSpans(sp.text)...)
	}
	return out
}

// emphasisSpans splits s at *emphasis* and **strong** delimiters: an
// opening run is followed, and its closing run preceded, by a character
// other than a space or an asterisk (so "2 * 3" and "a ** b" stay text).
func emphasisSpans(s string) []mdSpan {
	var out []mdSpan
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
				out = append(out, mdSpan{text: s[start:i]})
			}
			out = append(out, mdSpan{em: n == 1, strong: n == 2, text: s[i+n : j]})
			i = j + n
			start = i
			continue
		}
		i += n
	}
	if start < len(s) {
		out = append(out, mdSpan{text: s[start:]})
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
func codeSpans(s string) []mdSpan {
	var out []mdSpan
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
			out = append(out, mdSpan{text: s[:i]})
		}
		if j > 0 {
			out = append(out, mdSpan{code: true, text: s[i+1 : i+1+j]})
		}
		s = s[i+2+j:]
	}
	if s != "" {
		out = append(out, mdSpan{text: s})
	}
	return out
}
