//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
)

// consoleEdit is an open `kubectl edit`: the editor holds the object's
// YAML under a bar "Editing daemonset/x — Apply edit / Cancel". Apply edit
// (or the Apply button, or Ctrl/⌘ + Enter) saves the text, as leaving
// kubectl's editor after saving does; Cancel leaves it unsaved. kubectl's
// answer goes under the edit command's output, and the editor gets the
// manifest it held before back.
type consoleEdit struct {
	sess  *engine.EditSession
	line  string   // the edit command line
	block js.Value // its output block
	// saved is the editor's text (the file manifest.yaml) before the edit.
	saved string
}

// editBar wires the edit bar's buttons (once, at start).
func (c *console) editBar(doc dom.Document) {
	c.a.listen(doc.GetElementByID("edit-apply"), "click", func(dom.Event) { c.finishEdit(false) })
	c.a.listen(doc.GetElementByID("edit-cancel"), "click", func(dom.Event) { c.finishEdit(true) })
}

// editing reports whether a kubectl edit is open in the editor.
func (c *console) editing() bool { return c.edit != nil }

// startEdit opens the editor on an edit session started by line.
func (c *console) startEdit(sess *engine.EditSession, line string, block js.Value) {
	if c.edit != nil {
		// A second edit closes the first unsaved, as quitting its editor would.
		c.finishEdit(true)
	}
	saved := c.a.ed.ta.Get("value").String()
	c.edit = &consoleEdit{sess: sess, line: line, block: block, saved: saved}
	c.showEdit()
	c.a.ed.setResult("", "kubectl edit "+engine.EditTarget(sess.Text, line)+": change the text, then Apply edit (Ctrl/⌘ + Enter) saves it; Cancel leaves the object unchanged.")
	// the caret stays where setting the text left it: the Enter that ran
	// the command must not type into the editor's first line
	c.a.ed.ta.Call("focus")
	c.a.ed.ta.Set("scrollTop", 0)
	c.a.ed.syncScroll()
}

// focusEditorTop focuses the editor with the caret and the view at the
// start of its text (a focused textarea scrolls to its caret, which
// setting its value leaves at the end).
func (c *console) focusEditorTop() {
	ta := c.a.ed.ta
	ta.Call("setSelectionRange", 0, 0)
	ta.Call("focus")
	ta.Set("scrollTop", 0)
	c.a.ed.syncScroll()
}

// showEdit puts the session's text in the editor and shows the bar.
func (c *console) showEdit() {
	c.a.ed.setText(c.edit.sess.Text)
	byID("edit-target").Set("textContent", engine.EditTarget(c.edit.sess.Text, c.edit.line))
	byID("edit-bar").Set("hidden", false)
	byID("editor").Get("classList").Call("add", "editing")
}

// finishEdit saves the editor's text (or, cancelled, the text as shown)
// and shows what kubectl prints when its editor exits. A rejected edit
// reopens with kubectl's error comments at the top.
func (c *console) finishEdit(cancel bool) {
	e := c.edit
	if e == nil {
		return
	}
	c.a.flushJobs()
	text := e.sess.Text
	if !cancel {
		t, ok := c.a.ed.text()
		if !ok {
			return // too big: the editor says so
		}
		text = t
	}
	out := c.a.rec.FinishEdit(e.sess, text)
	b := e.block
	if !b.Get("isConnected").Bool() {
		// The edit's block was cleared away: show the answer under its command again.
		b = c.echoChunks(e.line, nil)
	}
	c.appendChunks(b, out.Chunks)
	c.scrollToEnd()
	if out.Edit != nil && !out.Edit.Done() {
		e.sess = out.Edit
		c.showEdit()
		c.focusEditorTop()
		c.showEditErrors(out)
	} else {
		c.edit = nil
		byID("edit-bar").Set("hidden", true)
		byID("editor").Get("classList").Call("remove", "editing")
		c.a.ed.setText(e.saved)
		c.a.ed.mark(nil)
		cls := "ok"
		if out.ExitCode != 0 {
			cls = "err"
		}
		c.a.ed.setResult(cls, strings.TrimRight(out.Stdout+out.Stderr, "\n"))
		c.in.Call("focus")
	}
	c.a.view.render(false)
}

// showEditErrors shows, under the editor, why a saved edit reopened: each
// `# * FIELD: MESSAGE` cause of kubectl's header as a diagnostic on the
// line that holds FIELD in the reopened text (engine.EditErrors), marked
// in the editor as an Apply's diagnostics are; kubectl's other header
// lines (a syntax error) and its error on the console's last line head
// the list.
func (c *console) showEditErrors(out engine.Output) {
	text := c.edit.sess.Text
	ds, heads := engine.EditErrors(text, manifestFile)
	msg := strings.TrimSpace(out.Stderr)
	if len(ds) == 0 {
		msg = strings.TrimSpace(strings.Join(append([]string{msg}, heads...), "\n"))
		c.a.ed.showError(msg + "\nFix the text, then Apply edit; Cancel leaves the object unchanged.")
		return
	}
	c.a.ed.showDiagnostics(text, ds)
	head := textEl("p", "edit-error", msg+" — fix the marked lines, then Apply edit; Cancel leaves the object unchanged.")
	c.a.ed.result.Call("insertBefore", head, c.a.ed.result.Get("firstChild"))
	// kubectl's reasons are at the top of the text: keep them in view (a
	// click on a message under the editor goes to its marked line)
	c.a.ed.ta.Set("scrollTop", 0)
	c.a.ed.syncScroll()
}
