//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine/kubectl"
)

// consoleEdit is an open `kubectl edit`: the editor holds the object's
// YAML under a bar "Editing daemonset/x — Apply edit / Cancel". Apply edit
// (or the Apply button, or Ctrl/⌘ + Enter) saves the text, as leaving
// kubectl's editor after saving does; Cancel leaves it unsaved. kubectl's
// answer goes under the edit command's output, and the editor gets the
// manifest it held before back.
type consoleEdit struct {
	sess  *kubectl.EditSession
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
func (c *console) startEdit(sess *kubectl.EditSession, line string, block js.Value) {
	if c.edit != nil {
		// A second edit closes the first unsaved, as quitting its editor would.
		c.finishEdit(true)
	}
	saved := c.a.ed.ta.Get("value").String()
	c.edit = &consoleEdit{sess: sess, line: line, block: block, saved: saved}
	c.showEdit()
	c.a.ed.ta.Call("focus")
}

// showEdit puts the session's text in the editor and shows the bar.
func (c *console) showEdit() {
	c.a.ed.setText(c.edit.sess.Text)
	byID("edit-target").Set("textContent", editTarget(c.edit.sess.Text, c.edit.line))
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
		c.a.ed.ta.Call("focus")
	} else {
		c.edit = nil
		byID("edit-bar").Set("hidden", true)
		byID("editor").Get("classList").Call("remove", "editing")
		c.a.ed.setText(e.saved)
		c.in.Call("focus")
	}
	c.a.view.render(false)
}

// editTarget names what an edit holds, as kubectl names objects:
// "daemonset/x" from the YAML's top-level kind and metadata.name; for a
// List or JSON, the command's arguments.
func editTarget(text, line string) string {
	var kind, name string
	inMeta := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "kind: "):
			kind = strings.TrimSpace(strings.TrimPrefix(l, "kind: "))
		case l == "metadata:":
			inMeta = true
		case inMeta && strings.HasPrefix(l, "  name: ") && name == "":
			name = strings.Trim(strings.TrimSpace(strings.TrimPrefix(l, "  name: ")), `"'`)
		case l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "#"):
			inMeta = false
		}
	}
	if kind != "" && kind != "List" && name != "" {
		return strings.ToLower(kind) + "/" + name
	}
	args, err := kubectl.ParseCommandLine(line)
	if err != nil {
		return line
	}
	for i, a := range args {
		if a == "edit" {
			var pos []string
			for _, p := range args[i+1:] {
				if !strings.HasPrefix(p, "-") {
					pos = append(pos, p)
				}
			}
			return strings.Join(pos, " ")
		}
	}
	return line
}
