//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/manifest"
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
	c.a.ed.setResult("", "kubectl edit "+editTarget(sess.Text, line)+": change the text, then Apply edit (Ctrl/⌘ + Enter) saves it; Cancel leaves the object unchanged.")
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

// showEditErrors shows, under the editor, why a saved edit reopened: each
// `# * FIELD: MESSAGE` cause of kubectl's header as a diagnostic on the
// line that holds FIELD in the reopened text (editFieldLine), marked in
// the editor as an Apply's diagnostics are; kubectl's other header lines
// (a syntax error) and its error on the console's last line head the list.
func (c *console) showEditErrors(out engine.Output) {
	text := c.edit.sess.Text
	lines := strings.Split(text, "\n")
	var ds []manifest.Diagnostic
	var heads []string
	for i, l := range lines {
		if !strings.HasPrefix(l, "#") {
			break // the header ends where the object starts
		}
		if i < editHeaderLines {
			continue
		}
		body := strings.TrimSpace(strings.TrimPrefix(l, "#"))
		if cause, ok := strings.CutPrefix(body, "* "); ok {
			field, msg, found := strings.Cut(cause, ": ")
			if !found || strings.ContainsAny(field, " \t") {
				field, msg = "", cause
			}
			d := manifest.Diagnostic{File: manifestFile, Field: field, Message: msg}
			if field != "" {
				d.Line = editFieldLine(lines, field)
			}
			ds = append(ds, d)
		} else if body != "" && !strings.HasSuffix(body, ":") {
			heads = append(heads, body)
		}
	}
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

// editHeaderLines is the number of lines of kubectl edit's fixed header
// ("# Please edit the object below..." and "#", engine/kubectl/edit.go
// editHeader), before the reasons the file reopened.
const editHeaderLines = 4

// editFieldLine is the 1-based line of lines (a YAML document under
// comment lines) holding the field path field, such as
// spec.template.spec.containers[0].image (keys, [index] into a list,
// [key] into a map): the line of the deepest part of the path found (its
// parent when the field itself is absent, as for a Required value), or 0.
// It follows indentation, as kubectl's YAML (sigs.k8s.io/yaml) lays it
// out, lists at their key's indentation or deeper.
func editFieldLine(src []string, field string) int {
	lines := append([]string(nil), src...)
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	content := func(l string) bool {
		t := strings.TrimSpace(l)
		return t != "" && !strings.HasPrefix(t, "#") && t != "---"
	}
	start, end, found := 0, len(lines), 0
	for _, seg := range splitFieldPath(field) {
		first := -1 // the block's first content line
		for i := start; i < end; i++ {
			if content(lines[i]) {
				first = i
				break
			}
		}
		if first < 0 {
			return found
		}
		ci := indent(lines[first])
		if n, err := strconv.Atoi(seg); err == nil {
			// the n-th "- " item at the block's indentation
			k, at := -1, -1
			for i := first; i < end; i++ {
				if !content(lines[i]) || indent(lines[i]) != ci {
					continue
				}
				if !strings.HasPrefix(strings.TrimLeft(lines[i], " "), "-") {
					break
				}
				if k++; k == n {
					at = i
					break
				}
			}
			if at < 0 {
				return found
			}
			itemEnd := end
			for i := at + 1; i < end; i++ {
				if content(lines[i]) && indent(lines[i]) <= ci {
					itemEnd = i
					break
				}
			}
			// the item's keys: "- name: x" reads as "  name: x"
			l := lines[at]
			lines[at] = l[:ci] + " " + l[ci+1:]
			start, end, found = at, itemEnd, at+1
			continue
		}
		at := -1
		for i := first; i < end; i++ {
			if !content(lines[i]) || indent(lines[i]) != ci {
				continue
			}
			t := strings.TrimSpace(lines[i])
			key := strings.Trim(t[:max(0, strings.Index(t, ":"))], `"'`)
			if strings.Contains(t, ":") && key == seg {
				at = i
				break
			}
		}
		if at < 0 {
			return found
		}
		blockEnd := end
		for i := at + 1; i < end; i++ {
			if !content(lines[i]) {
				continue
			}
			d := indent(lines[i])
			if d < ci || d == ci && !strings.HasPrefix(strings.TrimLeft(lines[i], " "), "-") {
				blockEnd = i
				break
			}
		}
		start, end, found = at+1, blockEnd, at+1
	}
	return found
}

// splitFieldPath splits "a.b[0].c[key.x]" into "a", "b", "0", "c", "key.x".
func splitFieldPath(p string) []string {
	var out []string
	for p != "" {
		switch {
		case p[0] == '.':
			p = p[1:]
		case p[0] == '[':
			j := strings.IndexByte(p, ']')
			if j < 0 {
				return append(out, p[1:])
			}
			out = append(out, p[1:j])
			p = p[j+1:]
		default:
			j := strings.IndexAny(p, ".[")
			if j < 0 {
				return append(out, p)
			}
			out = append(out, p[:j])
			p = p[j:]
		}
	}
	return out
}
