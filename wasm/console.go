//go:build js && wasm

package main

import (
	"fmt"
	"strconv"
	"strings"
	"syscall/js"
	"unicode/utf16"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// maxConsoleBlocks bounds the kubectl output kept on screen.
const maxConsoleBlocks = 200

// console is the kubectl console: a one-line input with history, Tab
// completion, multi-line paste and shell-like continuation lines, over an
// output log (role=log) of command blocks that can be selected and copied.
//
// Each command's output is an .entry holding a .block (a .cmd line "$ ...",
// then .stdout and .stderr spans in the order kubectl wrote them) and a copy
// button outside the block, so the block's text is exactly the terminal's.
type console struct {
	a       *app
	noted   map[string]bool // the session.Changes keys noted on this page
	in, out js.Value
	prompt  js.Value
	cands   js.Value // the completion candidates under the log
	// waiting is set while a command that waits (delete, drain) plays in
	// slow motion (submit); Ctrl+C lets it finish at once. typeAhead are
	// the lines entered meanwhile, run when it returns.
	waiting, hurry bool
	typeAhead      []string

	hist   history
	blocks int
	// remote is set while a parent page's dsplay:run runs a line: its
	// reply carries nothing from storage (`history` lists only this
	// page's own commands).
	remote bool

	watch *consoleWatch // a running kubectl get -w, or nil
	edit  *consoleEdit  // an open kubectl edit, or nil

	// pending is the start of a command continued on the next line (the
	// line ended in a backslash, or a quote is still open); the prompt
	// shows ">" meanwhile.
	pending string

	// roving is the copy button that is the log's tab stop.
	roving js.Value
}

func newConsole(a *app, doc dom.Document) *console {
	c := &console{a: a, in: byID("kubectl"), out: byID("kout"), prompt: byID("kprompt"), cands: byID("kcands")}
	c.hist.load()
	c.editBar(doc)
	in := doc.GetElementByID("kubectl")
	a.listen(in, "keydown", c.keydown)
	a.listen(in, "paste", c.paste)
	a.listen(in, "input", func(dom.Event) { c.showCandidates(nil, "") })
	// Delegated listeners for every block's copy button: a click copies,
	// ↑ ↓ move the focus to the previous or next block's button.
	a.listen(doc.GetElementByID("kout"), "click", func(ev dom.Event) {
		b := ev.Underlying().Get("target").Call("closest", "button.copy")
		if !b.IsNull() {
			c.copyBlock(b)
		}
	})
	a.listen(doc.GetElementByID("kout"), "keydown", func(ev dom.Event) {
		key := ev.Underlying().Get("key").String()
		t := ev.Underlying().Get("target")
		if (key != "ArrowUp" && key != "ArrowDown") || !t.Get("classList").Call("contains", "copy").Bool() {
			return
		}
		sib := "previousElementSibling"
		if key == "ArrowDown" {
			sib = "nextElementSibling"
		}
		for e := t.Get("parentElement").Get(sib); !e.IsNull(); e = e.Get(sib) {
			if b := e.Call("querySelector", ":scope > button.copy"); !b.IsNull() {
				ev.PreventDefault()
				c.roving.Set("tabIndex", -1)
				b.Set("tabIndex", 0)
				c.roving = b
				b.Call("focus")
				return
			}
		}
	})
	if urlQuery().Call("has", "readonly").Bool() {
		// a read-only page has no input: nothing to type
		c.note("This console is read-only: it shows what the page's own kubectl commands print.\n")
		return c
	}
	c.note("Type a kubectl command and press Enter, e.g. kubectl get pods -o wide (\"kubectl\" is optional, \"k\" works too).\n" +
		"Tab completes, ↑ ↓ walk the history, help lists what is simulated.\n" +
		"The editor's text is the file " + manifestFile + " (kubectl apply -f " + manifestFile + ").\n")
	return c
}

// keydown handles the input's keys: Enter runs, Tab completes, the arrows
// walk the history, Ctrl+L clears, Ctrl+C cancels the line (or stops a
// watch), Escape hides the candidates.
func (c *console) keydown(ev dom.Event) {
	k := ev.Underlying()
	key := k.Get("key").String()
	ctrl := k.Get("ctrlKey").Bool() || k.Get("metaKey").Bool()
	switch {
	case key == "Enter" && !k.Get("isComposing").Bool():
		ev.PreventDefault()
		text := c.in.Get("value").String()
		c.in.Set("value", "")
		c.showCandidates(nil, "")
		c.submit(text + "\n")
	case key == "Tab" && !k.Get("shiftKey").Bool() && !ctrl && !k.Get("altKey").Bool():
		// On an empty line Tab moves the focus on (keyboard users leave the
		// console this way); on text it completes.
		if c.in.Get("value").String() == "" && c.pending == "" {
			return
		}
		ev.PreventDefault()
		c.complete()
	case key == "ArrowUp" && !ctrl:
		if s, ok := c.hist.prev(c.in.Get("value").String()); ok {
			ev.PreventDefault()
			c.setInput(s)
		}
	case key == "ArrowDown" && !ctrl:
		if s, ok := c.hist.next(); ok {
			ev.PreventDefault()
			c.setInput(s)
		}
	case ctrl && (key == "l" || key == "L") && !k.Get("shiftKey").Bool():
		ev.PreventDefault()
		c.clearScreen()
	case k.Get("ctrlKey").Bool() && (key == "c" || key == "C"):
		// With a selection, Ctrl+C copies it, as in any page; without, it
		// stops a running watch or abandons the line, as in a terminal.
		if c.in.Get("selectionStart").Int() != c.in.Get("selectionEnd").Int() ||
			global.Call("getSelection").Call("toString").String() != "" {
			return
		}
		ev.PreventDefault()
		if c.waiting {
			c.hurry = true // the waiting command ends at once
			return
		}
		if c.interruptWatch() {
			return
		}
		line := c.in.Get("value").String()
		if c.pending != "" {
			line = c.pending + line
		}
		c.in.Set("value", "")
		c.setPending("")
		c.hist.reset()
		c.showCandidates(nil, "")
		c.echoChunks(line+"^C", nil)
	case key == "Escape":
		c.showCandidates(nil, "")
	}
}

// paste runs pasted lines one after another, as a shell does; a paste
// without a new line is left to the browser.
func (c *console) paste(ev dom.Event) {
	cd := ev.Underlying().Get("clipboardData")
	if cd.IsUndefined() || cd.IsNull() {
		return
	}
	data := cd.Call("getData", "text/plain").String()
	if !strings.ContainsAny(data, "\r\n") {
		return
	}
	ev.PreventDefault()
	before, _, after := c.inputAroundCaret()
	c.in.Set("value", "")
	c.showCandidates(nil, "")
	c.submit(before + data + after + "\n")
}

// submit runs every complete command in text (after the pending start of a
// continued command); an unfinished last command becomes the pending one.
func (c *console) submit(text string) {
	if c.waiting {
		// a command still waits: what is typed meanwhile runs when it
		// returns, as a terminal's type-ahead does
		c.typeAhead = append(c.typeAhead, text)
		c.note("queued: " + strings.TrimSpace(text) + " (runs when the waiting command returns; Ctrl+C ends the wait)")
		return
	}
	text = c.pending + text
	cmds, rest := engine.SplitCommands(text)
	c.setPending(rest)
	c.hist.reset()
	if c.playsWait(cmds) {
		// a delete or drain waits as on a cluster: its wait plays on the
		// stage, from a goroutine; lines typed meanwhile queue up
		c.waiting, c.hurry = true, false
		c.in.Get("classList").Call("add", "busy")
		wasPlaying := c.a.playing
		go func() {
			defer func() {
				c.waiting = false
				c.typeAhead = nil
				c.in.Get("classList").Call("remove", "busy")
				if wasPlaying && !c.a.playing {
					c.a.setPlaying(true) // the clock goes on once the command returns
				}
				c.a.view.render(false)
			}()
			defer c.a.recoverAt("kubectl command")
			for len(cmds) > 0 {
				for _, line := range cmds {
					c.hurry = false
					c.run(line)
				}
				// then the lines typed while it waited
				cmds = nil
				for _, t := range c.typeAhead {
					more, _ := engine.SplitCommands(t + "\n")
					cmds = append(cmds, more...)
				}
				c.typeAhead = nil
			}
		}()
		return
	}
	for _, line := range cmds {
		c.run(line)
	}
	if len(cmds) == 0 && rest == "" && c.watch == nil {
		c.echoChunks("", nil) // Enter on an empty line: a new prompt, as a shell shows
	}
}

// playsWait reports whether cmds hold a command that waits on a cluster
// (engine.MayWait) and its wait should play in slow motion: not with
// ?instant or reduced motion, nor while the timeline shows the past or the
// compare view is open.
func (c *console) playsWait(cmds []string) bool {
	if !stepPace || c.a.view.stage.reduced || c.a.tl.past || c.a.cmp.active() {
		return false
	}
	for _, l := range cmds {
		if engine.MayWait(l) {
			return true
		}
	}
	return false
}

// inputAroundCaret splits the input's text at its selection: the text
// before it, the selected text and the text after it (selectionStart and
// selectionEnd count UTF-16 units).
func (c *console) inputAroundCaret() (before, selected, after string) {
	v := c.in.Get("value").String()
	start := byteOffset(v, c.in.Get("selectionStart").Int())
	end := max(start, byteOffset(v, c.in.Get("selectionEnd").Int()))
	return v[:start], v[start:end], v[end:]
}

// byteOffset converts an offset in UTF-16 units into s to bytes.
func byteOffset(s string, units int) int {
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n += utf16.RuneLen(r)
	}
	return len(s)
}

// setPending sets the start of a continued command and the prompt that says so.
func (c *console) setPending(s string) {
	c.pending = s
	if s != "" {
		c.prompt.Set("textContent", ">")
		c.in.Call("setAttribute", "aria-label", "kubectl command, continued")
	} else {
		c.prompt.Set("textContent", "$")
		c.in.Call("setAttribute", "aria-label", "kubectl command")
	}
}

// setInput puts s in the input with the caret at its end.
func (c *console) setInput(s string) {
	c.in.Set("value", s)
	n := utf16Len(s)
	c.in.Call("setSelectionRange", n, n)
	c.showCandidates(nil, "")
}

// runRemote is run for a parent page's dsplay:run (remote set meanwhile).
func (c *console) runRemote(line string) engine.Output {
	c.remote = true
	defer func() { c.remote = false }()
	return c.run(line)
}

// run executes one command line and shows what kubectl would print: the
// console's own commands (clear, help, history) or a kubectl command. The
// view redraws at once to animate the consequence.
func (c *console) run(line string) engine.Output {
	// An Apply clicked before this command lands first. A running watch
	// goes on, as in a second terminal: its block stays last in the log
	// (pushItem), and another watch or Ctrl+C stops it.
	c.a.flushJobs()
	line = strings.TrimSpace(line)
	if line == "" {
		return engine.Output{}
	}
	c.hist.add(line)
	if strings.HasPrefix(line, "#") {
		// A comment (pasted from a tutorial): shown, nothing runs.
		c.echoChunks(line, nil)
		return engine.Output{}
	}
	switch line {
	case "clear":
		c.clearScreen()
		return engine.Output{}
	case "help":
		out := c.help()
		c.echoChunks(line, out.Chunks)
		return out
	case "history":
		var b strings.Builder
		from := 0
		if c.remote {
			from = c.hist.loaded // what came from storage is the learner's, not the parent's to read
		}
		for i, h := range c.hist.items[from:] {
			fmt.Fprintf(&b, "%5d  %s\n", from+i+1, h)
		}
		out := engine.Output{Stdout: b.String(), Chunks: []engine.Chunk{{Text: b.String()}}}
		c.echoChunks(line, out.Chunks)
		return out
	}
	if strings.Contains(line, manifestFile) {
		// The editor's text is the file manifest.yaml: keep it current
		// (during a kubectl edit, the text the editor held before).
		if c.edit != nil {
			c.a.rec.SetFile(manifestFile, c.edit.saved)
		} else if n := c.a.ed.ta.Get("textLength").Int(); n <= maxEditorBytes {
			c.a.rec.SetFile(manifestFile, c.a.ed.ta.Get("value").String())
		}
	}
	var out engine.Output
	var b js.Value
	if c.waiting && engine.MayWait(line) {
		// the command line shows while it waits; its output when it returns
		b = c.echoChunks(line, nil)
		b.Get("classList").Call("add", "waiting")
		c.a.setPlaying(false) // the command moves the clock, as on a cluster
		pace := c.a.view.stage.newPacer()
		start := c.a.rec.Live().Elapsed()
		out = c.a.rec.RunWatched(line, func() {
			pace.step(c.a.rec.Live().Elapsed()-start, func() bool { return !c.hurry })
		})
		b.Get("classList").Call("remove", "waiting")
		c.appendChunks(b, out.Chunks)
	} else {
		out = c.a.rec.Run(line)
		b = c.echoChunks(line, out.Chunks)
	}
	c.changeNotes(out.Stdout)
	if out.Watch != nil {
		c.startWatch(out.Watch, b)
	}
	if out.Edit != nil && !out.Edit.Done() {
		c.startEdit(out.Edit, line, b)
	}
	c.a.view.render(false)
	return out
}

// changeNotes puts under a command's output the "changed in" notes of
// session.Changes it shows, each once per page.
func (c *console) changeNotes(stdout string) {
	snap := func() *engine.Snapshot { s := c.a.rec.Live().Snapshot(); return &s }
	for _, ch := range session.ChangeNotes(stdout, snap, func(k string) bool { return c.noted[k] }) {
		if c.noted == nil {
			c.noted = map[string]bool{}
		}
		c.noted[ch.Key] = true
		n := textEl("div", "note changed-note", "changed in "+ch.Since+": "+ch.Note)
		n.Set("title", "Upstream: "+ch.Upstream)
		c.push(n)
	}
}

// help is the console's help: its keys and own commands, then kubectl's
// own help, which lists the commands the engine simulates (read from its
// command table), then the kubectl commands it does not.
func (c *console) help() engine.Output {
	var b strings.Builder
	b.WriteString("This console runs kubectl against the simulated cluster. \"kubectl\" is optional at the\n" +
		"start of a line and \"k\" is its alias: \"get pods\", \"k get pods\" and \"kubectl get pods\" are the same.\n\n" +
		"Keys:\n" +
		"  Enter          run the line\n" +
		"  Tab            complete a verb, resource type, name or flag (when several fit: their common\n" +
		"                 start, and the list under this log)\n" +
		"  ↑ ↓            walk the history (kept in this browser)\n" +
		"  Ctrl+L         clear the screen\n" +
		"  Ctrl+C         abandon the line, stop a watch, or end a delete's or drain's wait at once\n" +
		"  \\ at the end   continue the command on the next line\n" +
		"Pasting several lines runs each of them in order.\n" +
		"A watch (kubectl get -w, kubectl rollout status) streams at the bottom of this log while\n" +
		"you run other commands, as in a second terminal, until Ctrl+C or another watch replaces it.\n\n" +
		"Console commands:\n" +
		"  clear          clear the screen\n" +
		"  help           this help\n" +
		"  history        the commands run so far\n\n")
	out := c.a.rec.Run("kubectl help")
	b.WriteString(out.Stdout)
	b.WriteString("\nNot simulated (answered with an error that says so):\n")
	b.WriteString(wrapWords(engine.NotSimulated(), 96, "  "))
	text := b.String()
	return engine.Output{Stdout: text, Chunks: []engine.Chunk{{Text: text}}}
}

// wrapWords joins words with ", " into lines of at most width characters,
// each starting with indent.
func wrapWords(words []string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for i, w := range words {
		if i < len(words)-1 {
			w += ","
		}
		if len(line)+len(w)+1 > width && line != indent {
			b.WriteString(strings.TrimRight(line, " ") + "\n")
			line = indent
		}
		line += w + " "
	}
	b.WriteString(strings.TrimRight(line, " ") + "\n")
	return b.String()
}

// clearScreen empties the output log (clear, Ctrl+L); the line being typed stays.
func (c *console) clearScreen() {
	clear(c.out)
	c.roving = js.Value{}
	c.blocks = 0
	c.showCandidates(nil, "")
	if c.watch != nil {
		// Ctrl+L during a watch: as in a terminal, the watch goes on
		// printing on the cleared screen (in a block without a command line).
		b := el("div", "block")
		b.Get("classList").Call("add", "watching")
		c.watch.block = b
		c.fitWatch()
		c.watch.entry = c.pushItem(b)
	}
}

// echo appends a command and its output: stdout, then stderr.
func (c *console) echo(cmd, stdout, stderr string) {
	c.echoChunks(cmd, []engine.Chunk{{Text: stdout}, {Stderr: true, Text: stderr}})
}

// echoChunks appends a command and its output in the order kubectl wrote
// it, as a terminal shows it: stdout as is, stderr in another colour.
func (c *console) echoChunks(cmd string, chunks []engine.Chunk) js.Value {
	b := el("div", "block")
	b.Call("appendChild", textEl("span", "cmd", "$ "+cmd+"\n"))
	c.appendChunks(b, chunks)
	c.push(b)
	return b
}

// appendChunks adds output chunks to a block; the block's text ends on a
// new line, as the next prompt would.
func (c *console) appendChunks(b js.Value, chunks []engine.Chunk) {
	last := len(chunks) - 1 // the last chunk with text
	for last >= 0 && chunks[last].Text == "" {
		last--
	}
	for i, ch := range chunks {
		if ch.Text == "" {
			continue
		}
		cls := "stdout"
		if ch.Stderr {
			cls = "stderr"
			if engine.IsInfoLine(ch.Text) {
				// kubectl writes it to stderr, but it is no error: keep it
				// apart from stdout (copying the block copies both) without
				// the error colour.
				cls = "stderr info"
			}
		}
		text := ch.Text
		if i == last && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		b.Call("appendChild", textEl("span", cls, text))
	}
}

func (c *console) note(s string) { c.push(textEl("div", "note", s)) }

// push appends a block (wrapped with its copy button) or a note to the
// log, drops the oldest beyond maxConsoleBlocks, and scrolls to the end.
func (c *console) push(b js.Value) { c.pushItem(b) }

// pushItem is push returning the log item added (the block's .entry).
func (c *console) pushItem(b js.Value) js.Value {
	item := b
	if b.Get("classList").Call("contains", "block").Bool() {
		item = el("div", "entry")
		cp := el("button", "copy")
		cp.Set("type", "button")
		// Its label is an icon drawn by CSS, so selecting and copying the
		// log copies no button text. One copy button is a tab stop (the
		// newest; ↑ ↓ move between them), so Tab does not walk them all.
		if c.roving.Truthy() {
			c.roving.Set("tabIndex", -1)
		}
		cp.Set("tabIndex", 0)
		c.roving = cp
		cp.Call("setAttribute", "aria-label", "Copy this command and its output")
		cp.Set("title", "Copy this command and its output")
		appendAll(item, b, cp)
		// The recorder's input this block shows (the one just done) and
		// its virtual time, for the timeline's marks (markTimeline).
		inputs := c.a.rec.Inputs()
		if n := len(inputs); n > 0 {
			ds := item.Get("dataset")
			ds.Set("input", n-1)
			ds.Set("at", inputs[n-1].At.Seconds())
		}
	}
	if c.watch != nil && c.watch.entry.Get("isConnected").Bool() {
		// The Apply button's output while a watch runs goes above the
		// watch, which keeps streaming at the bottom of the log.
		c.out.Call("insertBefore", item, c.watch.entry)
	} else {
		c.out.Call("appendChild", item)
	}
	c.blocks++
	c.blocks = trimChildren(c.out, "firstChild", c.blocks, maxConsoleBlocks)
	c.scrollToEnd()
	return item
}

func (c *console) scrollToEnd() { c.out.Set("scrollTop", c.out.Get("scrollHeight")) }

// copyBlock copies the text of the block next to a copy button: it selects
// it (the learner sees what was copied) and copies the selection; where
// that is refused it falls back to the asynchronous clipboard API.
func (c *console) copyBlock(btn js.Value) {
	b := btn.Get("parentElement").Call("querySelector", ".block")
	if b.IsNull() {
		return
	}
	sel := global.Call("getSelection")
	r := document.Call("createRange")
	r.Call("selectNodeContents", b)
	sel.Call("removeAllRanges")
	sel.Call("addRange", r)
	ok := document.Call("execCommand", "copy").Truthy()
	if !ok {
		if cb := global.Get("navigator").Get("clipboard"); cb.Truthy() {
			// A refusal is not an error worth a message: the text stays selected.
			cb.Call("writeText", b.Get("textContent")).Call("catch", global.Get("Function").Get("prototype"))
		}
	}
	// Restart the "copied" flash (a CSS animation).
	btn.Get("classList").Call("remove", "copied")
	_ = btn.Get("offsetWidth")
	btn.Get("classList").Call("add", "copied")
}

// Classes and notes of console entries while the timeline shows the past
// (see markTimeline and dropAfter).
const (
	futureNote  = "not yet run at this point"
	droppedNote = "dropped: the timeline was rewound"
)

// markTimeline marks the console's entries whose input (data-input) is at
// or after keep, the number of recorded inputs the shown step includes,
// as not yet run at this point (class "future", dimmed, with a note); keep
// < 0 (live) clears the marks.
func (c *console) markTimeline(keep int) {
	entries := c.out.Call("querySelectorAll", ":scope > .entry[data-input]")
	for i, n := 0, entries.Get("length").Int(); i < n; i++ {
		e := entries.Call("item", i)
		idx, err := strconv.Atoi(e.Get("dataset").Get("input").String())
		future := err == nil && keep >= 0 && idx >= keep
		if future == e.Get("classList").Call("contains", "future").Bool() {
			continue
		}
		e.Get("classList").Call("toggle", "future", future)
		if future {
			setEntryNote(e, futureNote)
		} else {
			setEntryNote(e, "")
		}
	}
}

// dropAfter marks the entries of inputs at or after keep as dropped by a
// branch (struck, with a note): their commands are no longer in the
// timeline, so they stop taking part in markTimeline.
func (c *console) dropAfter(keep int) { c.dropAfterNote(keep, droppedNote) }

// dropAfterNote is dropAfter with another note (an undone import's).
func (c *console) dropAfterNote(keep int, note string) {
	entries := c.out.Call("querySelectorAll", ":scope > .entry[data-input]")
	for i, n := 0, entries.Get("length").Int(); i < n; i++ {
		e := entries.Call("item", i)
		idx, err := strconv.Atoi(e.Get("dataset").Get("input").String())
		if err != nil || idx < keep {
			continue
		}
		e.Get("classList").Call("remove", "future")
		e.Get("classList").Call("add", "dropped")
		e.Call("removeAttribute", "data-input")
		setEntryNote(e, note)
	}
}

// setEntryNote puts note (or none, when "") under a console entry's block,
// outside it so copying the block copies only the terminal's text.
func setEntryNote(e js.Value, note string) {
	old := e.Call("querySelector", ":scope > .entry-note")
	if note == "" {
		if !old.IsNull() {
			old.Call("remove")
		}
		return
	}
	if old.IsNull() {
		old = el("div", "entry-note")
		e.Call("insertBefore", old, e.Call("querySelector", ":scope > .block").Get("nextSibling"))
	}
	old.Set("textContent", note)
}
