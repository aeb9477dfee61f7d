//go:build js && wasm

package main

import (
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine"
)

// consoleCommands are the console's own commands, offered as first words.
var consoleCommands = []string{"clear", "help", "history"}

// complete completes the word before the caret, as a shell does: one
// candidate is inserted (with a space after it unless it ends in /, = or
// ".", where the word goes on);
// several insert their common prefix and are listed under the log.
// The candidates come from kubectl.Complete (verbs and flags from the
// engine's command table, names from the live cluster).
func (c *console) complete() {
	c.a.flushJobs() // names of an Apply still queued count
	before, _, after := c.inputAroundCaret()
	line := c.pending + before
	cands, from := c.a.rec.Live().Complete(line, len(line))
	from -= len(c.pending)
	if from < 0 {
		c.showCandidates(nil, "") // the word began on an earlier line
		return
	}
	word := before[from:]
	if strings.TrimSpace(line[:from+len(c.pending)]) == "" {
		// The first word: the console's own commands too.
		for _, cc := range consoleCommands {
			if strings.HasPrefix(cc, word) {
				cands = append(cands, cc)
			}
		}
		cands = sortedUnique(cands)
	}
	switch len(cands) {
	case 0:
		c.showCandidates(nil, "no completions for \""+word+"\"")
		return
	case 1:
		ins := cands[0]
		if !strings.HasSuffix(ins, "/") && !strings.HasSuffix(ins, "=") && !strings.HasSuffix(ins, ".") && !strings.HasPrefix(after, " ") {
			ins += " "
		}
		c.replaceWord(before[:from], ins, after)
		c.showCandidates(nil, "")
		return
	}
	if p := engine.CommonPrefix(cands); len(p) > len(word) {
		c.replaceWord(before[:from], p, after)
	}
	c.showCandidates(cands, "")
}

// replaceWord sets the input to head+word+tail with the caret after word.
func (c *console) replaceWord(head, word, tail string) {
	c.in.Set("value", head+word+tail)
	n := utf16Len(head + word)
	c.in.Call("setSelectionRange", n, n)
}

// showCandidates lists completion candidates under the log (nil hides the
// list; msg is shown instead when not empty). The list is announced
// politely to screen readers.
func (c *console) showCandidates(cands []string, msg string) {
	if len(cands) == 0 && msg == "" {
		if !c.cands.Get("hidden").Bool() {
			c.cands.Set("hidden", true)
			clear(c.cands)
		}
		return
	}
	clear(c.cands)
	if msg != "" {
		c.cands.Call("appendChild", textEl("span", "msg", msg))
	}
	for _, s := range cands {
		// spaces between the words: read and copied as separate words
		appendAll(c.cands, textEl("span", "cand", s), document.Call("createTextNode", " "))
	}
	c.cands.Set("hidden", false)
}

func sortedUnique(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
