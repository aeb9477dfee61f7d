//go:build js && wasm

package main

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall/js"
	"unicode/utf16"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
)

// lineHeight and padTop must match .editor's --line and #yaml's padding.
const (
	lineHeight = 20
	padTop     = 8
)

// editor is the YAML textarea with its line-number gutter, the layer that
// marks offending lines, and the result area under it.
type editor struct {
	a      *app
	ta     js.Value // textarea
	gutter js.Value
	marks  js.Value // the clipping box over the text area
	layer  js.Value // inside marks: holds the marks, moved with the text
	result js.Value

	keys js.Value // the key hint shown while the editor has the focus

	// escaped is true right after Escape in the editor: the next Tab moves
	// the focus on instead of typing spaces.
	escaped bool

	lines     int  // line count shown in the gutter
	dirty     bool // text changed since the gutter was drawn
	marked    []int
	lastError string // "" after a successful apply
	// applied is the text of the last apply; repaired is that text with
	// every flattened line re-indented as its diagnostics' hints show it
	// ("" when there is no whole-document repair to offer).
	applied, repaired string
	// previous is the text an example replaced, offered back by the
	// "Restore previous text" button until the text changes again ("":
	// nothing to restore).
	previous string
	// tabsFixed is the applied text with every tab in a line's indentation
	// replaced by two spaces, when that decodes with fewer problems ("" if not).
	tabsFixed string
	// pasteFixes are the applied text's one-click repairs of pasted damage
	// (engine.ManifestRepairs), pasteAll the text with all of them.
	pasteFixes []engine.ManifestRepair
	pasteAll   string
}

func newEditor(a *app, doc dom.Document) *editor {
	e := &editor{
		a:      a,
		ta:     byID("yaml"),
		gutter: byID("gutter"),
		marks:  byID("marks"),
		result: byID("apply-result"),
		keys:   byID("editor-keys"),
		lines:  1,
	}
	// The box keeps its place and clips; the layer inside it moves with
	// the text, so a mark below the first screen shows once scrolled to.
	e.layer = el("div", "marks-layer")
	e.marks.Call("appendChild", e.layer)
	ta := doc.GetElementByID("yaml")
	a.listen(ta, "input", func(dom.Event) {
		e.dirty = true
		// A repair offered for the applied text no longer fits edited text.
		e.result.Get("classList").Call("add", "stale")
		if len(e.marked) > 0 {
			// The marks are from the last apply: dim them once the text changes.
			e.marks.Get("classList").Call("add", "stale")
		}
	})
	a.listen(ta, "scroll", func(dom.Event) { e.syncScroll() })
	a.listen(ta, "blur", func(dom.Event) { e.setEscaped(false) })
	a.listen(ta, "keydown", func(ev dom.Event) {
		k := ev.Underlying()
		key := k.Get("key").String()
		escaped := e.escaped
		switch key {
		case "Shift", "Control", "Alt", "Meta":
			return // a modifier alone keeps Escape's effect
		}
		e.setEscaped(key == "Escape")
		switch {
		case key == "Enter" && (k.Get("ctrlKey").Bool() || k.Get("metaKey").Bool()):
			ev.PreventDefault()
			a.apply()
		case key == "Tab" && escaped:
			// Escape then Tab: let the browser move the focus on (Shift+Tab
			// always does), as GitHub's and CodeMirror's editors do.
		case key == "Tab" && !k.Get("shiftKey").Bool() && !k.Get("ctrlKey").Bool() && !k.Get("altKey").Bool():
			// YAML forbids tabs for indentation: Tab types two spaces.
			ev.PreventDefault()
			// execCommand keeps the browser's undo history; setRangeText is the fallback.
			if !document.Call("execCommand", "insertText", false, "  ").Truthy() {
				e.ta.Call("setRangeText", "  ", e.ta.Get("selectionStart"), e.ta.Get("selectionEnd"), "end")
				e.dirty = true
			}
		}
	})
	a.listen(doc.GetElementByID("apply"), "click", func(dom.Event) { a.apply() })
	// Clicking a diagnostic selects its line (one delegated listener).
	a.listen(doc.GetElementByID("apply-result"), "click", func(ev dom.Event) {
		target := ev.Underlying().Get("target")
		if !target.Call("closest", "button.restore-text").IsNull() {
			e.restoreText()
			return
		}
		if b := target.Call("closest", "button.use-fix"); !b.IsNull() {
			fix := b.Get("dataset").Get("fix").String()
			if n, ok := strings.CutPrefix(fix, "paste-"); ok {
				if n == "all" {
					e.useText(e.pasteAll, "Every repair is in the editor: press Apply (Ctrl/⌘ + Enter).")
				} else if i, err := strconv.Atoi(n); err == nil && i < len(e.pasteFixes) {
					e.useText(e.pasteFixes[i].Text, "Repaired: press Apply (Ctrl/⌘ + Enter).")
				}
			} else if fix == "tabs" {
				e.useText(e.tabsFixed, "Tabs replaced with spaces: press Apply (Ctrl/⌘ + Enter).")
			} else {
				e.useText(e.repaired, "The repaired manifest is in the editor: press Apply (Ctrl/⌘ + Enter).")
			}
			return
		}
		if !target.Call("closest", ".fix pre").IsNull() {
			return // let the learner select the repaired text
		}
		li := target.Call("closest", "li[data-line]")
		if li.IsNull() {
			return
		}
		if l, err := strconv.Atoi(li.Call("getAttribute", "data-line").String()); err == nil {
			e.selectLine(l)
		}
	})

	sel := byID("examples")
	appendAll(sel, textEl("option", "", "Load an example…"))
	for i, ex := range exampleManifests {
		o := textEl("option", "", ex.Title)
		o.Set("value", strconv.Itoa(i))
		sel.Call("appendChild", o)
	}
	a.listen(doc.GetElementByID("examples"), "change", func(ev dom.Event) {
		s := sel.Get("value").String()
		if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(exampleManifests) {
			if a.kc.editing() {
				a.kc.finishEdit(true) // an example replaces an open kubectl edit: it ends unsaved
			}
			e.loadExample(exampleManifests[i].Text)
		}
		sel.Set("selectedIndex", 0)
	})
	return e
}

// loadExample puts an example's text in the editor. The text it replaces
// is not lost: when it differs from the example and is not empty, the
// result area offers "Restore previous text" (an undo, rather than a
// question asked before every load), until the text is edited or applied.
func (e *editor) loadExample(text string) {
	old := e.ta.Get("value").String()
	e.setText(text)
	e.mark(nil)
	e.setResult("", "Example loaded: press Apply (Ctrl/⌘ + Enter) to send it to the cluster.")
	e.previous = ""
	if strings.TrimSpace(old) == "" || old == text {
		return
	}
	e.previous = old
	b := textEl("button", "restore-text", "Restore previous text")
	b.Set("type", "button")
	b.Set("title", "Put back the text the example replaced")
	appendAll(e.result, document.Call("createTextNode", " "), b)
}

// openText puts a file that failed to import in the editor with why it
// failed (err: its diagnostics listed and their lines marked, as an Apply's),
// applying nothing. The text it replaces is offered back as loadExample
// offers it ("Restore previous text").
func (e *editor) openText(text string, err error) {
	old := e.ta.Get("value").String()
	e.setText(text)
	if ds, ok := engine.ManifestDiagnostics(err); ok {
		e.showDiagnostics(text, ds)
	} else {
		e.showError(err.Error())
	}
	e.previous = ""
	if strings.TrimSpace(old) == "" || old == text {
		return
	}
	e.previous = old
	b := textEl("button", "restore-text", "Restore previous text")
	b.Set("type", "button")
	b.Set("title", "Put back the text the file replaced")
	appendAll(e.result, document.Call("createTextNode", " "), b)
}

// replaceText makes text the editor's whole content as one edit the
// browser can undo (focus, select all, execCommand insertText), setting
// the textarea's value instead where the browser refuses or inserts
// something else; then marks the text changed and repaints the editor.
func (e *editor) replaceText(text string) {
	e.ta.Call("focus")
	e.ta.Call("select")
	if !document.Call("execCommand", "insertText", false, text).Truthy() || e.ta.Get("value").String() != text {
		e.ta.Set("value", text)
	}
	e.dirty = true
	e.frame()
}

// restoreText puts back the text the last example replaced (keeping the
// browser's undo history when it can).
func (e *editor) restoreText() {
	if e.previous == "" {
		return
	}
	old := e.previous
	e.previous = ""
	e.replaceText(old)
	e.ta.Call("setSelectionRange", 0, 0)
	e.ta.Set("scrollTop", 0)
	e.syncScroll()
	e.setResult("", "Previous text restored.")
}

// setEscaped arms or disarms "Escape then Tab leaves the editor" and
// shows it on the key hint.
func (e *editor) setEscaped(on bool) {
	if on == e.escaped {
		return
	}
	e.escaped = on
	e.keys.Get("classList").Call("toggle", "armed", on)
}

// text returns the editor's text, or shows that it is too big and
// returns false.
func (e *editor) text() (string, bool) {
	if n := e.ta.Get("textLength").Int(); n > maxEditorBytes {
		e.showTooBig(n)
		return "", false
	}
	text := e.ta.Get("value").String()
	if len(text) > maxEditorBytes {
		e.showTooBig(len(text))
		return "", false
	}
	return text, true
}

// setText replaces the editor's text and redraws the gutter.
func (e *editor) setText(s string) {
	e.ta.Set("value", s)
	e.ta.Set("scrollTop", 0)
	e.dirty = true
	e.frame()
	e.syncScroll()
}

// frame redraws the gutter when the text changed (once per frame at most).
func (e *editor) frame() {
	if !e.dirty {
		return
	}
	e.dirty = false
	n := e.ta.Get("textLength").Int()
	if n > maxEditorBytes {
		e.showTooBig(n)
	}
	text := e.ta.Get("value").String()
	lines := strings.Count(text, "\n") + 1
	if lines == e.lines {
		return
	}
	e.lines = lines
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		if i > 1 {
			b.WriteByte('\n')
		}
		b.WriteString(strconv.Itoa(i))
	}
	// room for a last line the textarea can scroll to
	b.WriteString("\n ")
	e.gutter.Set("textContent", b.String())
}

// syncScroll keeps the gutter and the marks aligned with the textarea.
func (e *editor) syncScroll() {
	top := e.ta.Get("scrollTop").Float()
	e.gutter.Set("scrollTop", top)
	e.layer.Get("style").Set("transform", fmt.Sprintf("translateY(%gpx)", -top))
}

// mark highlights the given 1-based lines.
func (e *editor) mark(lines []int) {
	clear(e.layer)
	e.marks.Get("classList").Call("remove", "stale")
	e.marked = lines
	for _, l := range lines {
		m := el("div", "mark")
		m.Get("style").Set("top", fmt.Sprintf("%dpx", padTop+(l-1)*lineHeight))
		m.Call("setAttribute", "data-line", strconv.Itoa(l))
		e.layer.Call("appendChild", m)
	}
}

func (e *editor) setResult(class, text string) {
	clear(e.result)
	e.result.Set("scrollTop", 0)
	e.result.Set("className", "apply-result "+class)
	if text != "" {
		e.result.Set("textContent", text)
	}
}

func (e *editor) showBusy() { e.setResult("busy", "Applying…") }

func (e *editor) showTooBig(n int) {
	e.lastError = fmt.Sprintf("The manifest is %.1f MiB; the playground accepts at most 1 MiB. Apply a smaller file.", float64(n)/(1<<20))
	e.mark(nil)
	e.setResult("err", e.lastError)
}

// showReport lists kubectl's lines after a successful apply.
func (e *editor) showReport(rep *engine.ApplyReport) {
	e.lastError = ""
	e.mark(nil)
	e.setResult("ok", "")
	ul := el("ul", "")
	for _, l := range rep.Lines {
		ul.Call("appendChild", textEl("li", "", l))
	}
	if n := inertCount(rep); n > 0 {
		ul.Call("appendChild", textEl("li", "skipped", inertNote(n)))
	}
	// kubectl's own warnings (e.g. a missing last-applied-configuration
	// annotation), as the console shows them.
	for _, ch := range rep.Output {
		if !ch.Stderr {
			continue
		}
		for _, l := range strings.Split(strings.TrimRight(ch.Text, "\n"), "\n") {
			if strings.HasPrefix(l, "Warning: resource ") {
				ul.Call("appendChild", textEl("li", "skipped", l))
			}
		}
	}
	if len(rep.Lines) == 0 {
		ul.Call("appendChild", textEl("li", "skipped", "nothing to apply"))
	}
	e.result.Call("appendChild", ul)
}

// showApplied puts, above a failed apply's problems, how many of the
// file's documents kubectl applied anyway (each document is sent on its
// own) and their result lines.
func (e *editor) showApplied(rep *engine.ApplyReport) {
	n := rep.Applied()
	if n == 0 || len(rep.Documents) == 0 {
		return
	}
	box := el("div", "applied")
	box.Call("appendChild", textEl("p", "", fmt.Sprintf("%d of %d documents applied; the others changed nothing:", n, len(rep.Documents))))
	ul := el("ul", "")
	for _, l := range rep.Lines {
		ul.Call("appendChild", textEl("li", "", l))
	}
	if k := inertCount(rep); k > 0 {
		ul.Call("appendChild", textEl("li", "skipped", inertNote(k)))
	}
	box.Call("appendChild", ul)
	e.result.Call("insertBefore", box, e.result.Get("firstChild"))
}

// inertCount counts the applied documents of kinds the playground stores
// but no component of it acts on (Deployment, Service, RBAC ...).
func inertCount(rep *engine.ApplyReport) int {
	n := 0
	for _, d := range rep.Documents {
		if d.Inert && d.Status == engine.DocumentApplied {
			n++
		}
	}
	return n
}

// inertNote says, quietly, that stored objects of those kinds do nothing
// here (on a real cluster their controllers would act).
func inertNote(n int) string {
	if n == 1 {
		return "1 object is stored as the API server stores it, but nothing in the playground acts on its kind"
	}
	return fmt.Sprintf("%d objects are stored as the API server stores them, but nothing in the playground acts on their kinds", n)
}

// showError shows an error without a position.
func (e *editor) showError(msg string) {
	e.lastError = msg
	e.mark(nil)
	e.setResult("err", msg)
}

// showDiagnostics lists one message per problem as "line:col field: message"
// with its hint, in line order, marks the lines, and scrolls to the first
// one. Clicking a message selects its line in the editor. A hint that shows
// a flattened line re-indented ("it should read:" and the lines) is drawn
// preformatted; the first such hint gets the one "Use this fix" button (it
// repairs every flattened line at once) when the repaired document decodes
// with fewer problems than the text applied; likewise "Replace tabs with
// spaces" for tabs in the indentation. Long lists of line numbers are
// cut short (shortenLists).
func (e *editor) showDiagnostics(text string, ds []engine.Diagnostic) {
	ds = append([]engine.Diagnostic(nil), ds...)
	sort.SliceStable(ds, func(i, j int) bool {
		li, lj := ds[i].Line, ds[j].Line
		if li == 0 || lj == 0 {
			return li != 0 && lj == 0 // unknown lines last
		}
		return li < lj
	})
	e.applied = text
	e.repaired = repairDocument(text, ds)
	e.tabsFixed = ""
	e.pasteFixes, e.pasteAll = nil, ""
	fixes, all := engine.ManifestRepairs(text)
	var tabLines []int
	for _, r := range fixes {
		if r.Kind == "tabs" {
			tabLines = r.Lines
			// its own button, on the diagnostic that names the tabs
			if countProblems(r.Text) < countProblems(text) {
				e.tabsFixed = r.Text
			}
			continue
		}
		e.pasteFixes = append(e.pasteFixes, r)
	}
	if len(fixes) > 1 {
		e.pasteAll = all
	}
	tabsAt := -1 // the diagnostic that gets the "Replace tabs with spaces" button
	if e.tabsFixed != "" {
		for i, d := range ds {
			if slices.Contains(tabLines, d.Line) ||
				strings.Contains(strings.ToLower(d.Message+" "+d.Hint), "tab") {
				tabsAt = i
				break
			}
		}
		if tabsAt < 0 {
			tabsAt = 0
		}
	}
	// the lines the repair re-indents: the button names them when they are several
	var fixLines []int
	for _, d := range ds {
		if strings.Contains(d.Hint, fixMarker) && d.Line > 0 && !slices.Contains(fixLines, d.Line) {
			fixLines = append(fixLines, d.Line)
		}
	}
	offered := e.repaired == ""
	var lines []int
	seen := map[int]bool{}
	var msgs []string
	e.setResult("err", "")
	ul := el("ul", "")
	for i, d := range ds {
		li := el("li", "")
		pos := "?"
		if d.Line > 0 {
			pos = strconv.Itoa(d.Line)
			if d.Column > 0 {
				pos += ":" + strconv.Itoa(d.Column)
			}
			if !seen[d.Line] {
				seen[d.Line] = true
				lines = append(lines, d.Line)
			}
			li.Call("setAttribute", "data-line", strconv.Itoa(d.Line))
		}
		msg := shortenLists(d.Message)
		if d.Field != "" {
			msg = d.Field + ": " + msg
		}
		msgs = append(msgs, pos+" "+msg)
		appendAll(li, textEl("span", "pos", pos), document.Call("createTextNode", msg))
		if d.Hint != "" {
			offer := !offered && strings.Contains(d.Hint, fixMarker)
			offered = offered || offer
			li.Call("appendChild", e.hintEl(d.Hint, offer, fixLines))
		}
		if i == tabsAt {
			b := textEl("button", "use-fix", "Replace tabs with spaces")
			b.Set("type", "button")
			b.Get("dataset").Set("fix", "tabs")
			b.Set("title", "Replace each tab in the indentation with two spaces (Ctrl+Z undoes it), then press Apply")
			li.Call("appendChild", appendAll(el("span", "fix"), b))
		}
		ul.Call("appendChild", li)
	}
	// the repairs first: what to do, before what is wrong
	if block := e.pasteRepairsEl(text); !block.IsUndefined() {
		e.result.Call("appendChild", block)
	}
	e.result.Call("appendChild", ul)
	e.lastError = strings.Join(msgs, "\n")
	sort.Ints(lines)
	e.mark(lines)
	if len(lines) > 0 {
		e.reveal(lines[0])
	}
}

// fixMarker ends the sentence of a hint that shows the repaired lines
// (manifest's flattenedHint; the same text as its flattenedRepair).
const fixMarker = "it should read:\n"

// hintEl draws a hint: plain text, or its sentence and the repaired lines
// preformatted, with the "Use this fix" button when offer is set (the
// document's repair, which re-indents fixLines).
func (e *editor) hintEl(hint string, offer bool, fixLines []int) js.Value {
	i := strings.Index(hint, fixMarker)
	if i < 0 {
		if strings.Contains(hint, "\n") {
			return textEl("span", "fix code", hint)
		}
		return textEl("span", "fix", shortenLists(hint))
	}
	f := el("span", "fix")
	appendAll(f, textEl("span", "fix-head", shortenLists(hint[:i+len(fixMarker)-1])), textEl("pre", "", hint[i+len(fixMarker):]))
	if offer {
		label, title := "Use this fix", "Replace the editor's text with the repaired manifest (Ctrl+Z undoes it), then press Apply"
		if len(fixLines) > 1 {
			ls := make([]string, len(fixLines))
			for i, l := range fixLines {
				ls[i] = strconv.Itoa(l)
			}
			label = fmt.Sprintf("Use this fix (lines %s)", strings.Join(ls, ", "))
			title = "Re-indent lines " + strings.Join(ls, ", ") + " as their hints show (Ctrl+Z undoes it), then press Apply"
		}
		b := textEl("button", "use-fix", label)
		b.Set("type", "button")
		b.Set("title", title)
		f.Call("appendChild", b)
	}
	return f
}

// repairDocument returns text with every flattened line replaced by the
// lines its diagnostic's hint shows, or "" when there is nothing to repair
// or the repair does not reduce the problems Decode finds. Lines starting
// with "- " are left alone: the hint shows their content without the dash.
func repairDocument(text string, ds []engine.Diagnostic) string {
	src := strings.Split(text, "\n")
	fixes := map[int][]string{}
	for _, d := range ds {
		i := strings.Index(d.Hint, fixMarker)
		if i < 0 || d.Line < 1 || d.Line > len(src) || fixes[d.Line] != nil {
			continue
		}
		repl := strings.Split(strings.TrimRight(d.Hint[i+len(fixMarker):], "\n"), "\n")
		if len(repl) < 2 || repl[len(repl)-1] == "..." || strings.HasPrefix(strings.TrimSpace(src[d.Line-1]), "- ") {
			continue
		}
		fixes[d.Line] = repl
	}
	if len(fixes) == 0 {
		return ""
	}
	var out []string
	for i, l := range src {
		if r := fixes[i+1]; r != nil {
			out = append(out, r...)
		} else {
			out = append(out, l)
		}
	}
	fixed := strings.Join(out, "\n")
	if countProblems(fixed) >= countProblems(text) {
		return ""
	}
	return fixed
}

// countProblems is the number of diagnostics Decode reports for text.
func countProblems(text string) int {
	err := engine.CheckManifest(manifestFile, text)
	if err == nil {
		return 0
	}
	if ds, ok := engine.ManifestDiagnostics(err); ok {
		return len(ds)
	}
	return 1 << 20
}

// List lengths for shortenLists: a list of more than maxListed numbers
// keeps its first keepListed.
const (
	maxListed  = 8
	keepListed = 5
)

// shortenLists cuts every list of more than maxListed numbers ("lines 4,
// 5, 6, ...") to its first keepListed and "and N more".
func shortenLists(s string) string {
	digit := func(i int) bool { return i < len(s) && s[i] >= '0' && s[i] <= '9' }
	var b strings.Builder
	for i := 0; i < len(s); {
		if !digit(i) || i > 0 && (digit(i-1) || s[i-1] == '.') {
			b.WriteByte(s[i])
			i++
			continue
		}
		n, cut, end := 0, i, i
		for j := i; ; j += 2 { // j: start of the next number
			k := j
			for digit(k) {
				k++
			}
			n, end = n+1, k
			if n == keepListed {
				cut = k
			}
			if !strings.HasPrefix(s[k:], ", ") || !digit(k+2) {
				break
			}
			j = k
		}
		if n > maxListed {
			b.WriteString(s[i:cut] + " and " + strconv.Itoa(n-keepListed) + " more")
		} else {
			b.WriteString(s[i:end])
		}
		i = end
	}
	return b.String()
}

// pasteRepairsEl draws the one-click repairs of pasted damage, shown above
// the problems: per repair a button titled with what it fixes and where, and a
// preview of the lines as they would read, after "Repair everything" when
// there are several kinds of damage. It is undefined when there is none.
func (e *editor) pasteRepairsEl(text string) js.Value {
	if len(e.pasteFixes) == 0 && e.pasteAll == "" {
		return js.Undefined()
	}
	box := el("div", "paste-repairs")
	box.Call("appendChild", textEl("p", "fix-head", "Copied from a web page? These repairs change only what YAML cannot read (Ctrl+Z undoes them):"))
	add := func(key, label, fixed string, lines []int) {
		row := el("div", "fix")
		b := textEl("button", "use-fix", label)
		b.Set("type", "button")
		b.Get("dataset").Set("fix", "paste-"+key)
		b.Set("title", "Put the repaired manifest in the editor, then press Apply")
		appendAll(row, b, textEl("pre", "", previewLines(fixed, lines)))
		box.Call("appendChild", row)
	}
	if e.pasteAll != "" {
		var changed []int
		src, all := strings.Split(text, "\n"), strings.Split(e.pasteAll, "\n")
		for i := range min(len(src), len(all)) {
			if src[i] != all[i] {
				changed = append(changed, i+1)
			}
		}
		add("all", "Repair everything", e.pasteAll, changed)
	}
	for i, r := range e.pasteFixes {
		add(strconv.Itoa(i), r.Title, r.Text, r.Lines)
	}
	return box
}

// previewLines is the lines of text numbered lines (1-based), each as
// "N │ line", at most maxPreview of them and "…" after.
func previewLines(text string, lines []int) string {
	src := strings.Split(text, "\n")
	var b strings.Builder
	for i, l := range lines {
		if i == maxPreview {
			b.WriteString("…")
			break
		}
		if l >= 1 && l <= len(src) {
			fmt.Fprintf(&b, "%3d │ %s\n", l, src[l-1])
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// maxPreview is how many repaired lines a repair's preview shows.
const maxPreview = 6

// useText puts fixed (a repaired manifest) in the editor, keeping the
// browser's undo history when it can, and says what to do next.
func (e *editor) useText(fixed, note string) {
	if fixed == "" {
		return
	}
	e.repaired, e.tabsFixed, e.pasteFixes, e.pasteAll = "", "", nil, ""
	e.replaceText(fixed)
	e.ta.Set("scrollTop", 0)
	e.syncScroll()
	e.mark(nil)
	e.setResult("", note)
}

// reveal scrolls the editor so that line l is visible.
func (e *editor) reveal(l int) {
	h := e.ta.Get("clientHeight").Float()
	y := float64(padTop + (l-1)*lineHeight)
	top := e.ta.Get("scrollTop").Float()
	if y < top || y > top+h-2*lineHeight {
		e.ta.Set("scrollTop", y-h/3)
	}
	e.syncScroll()
}

// selectLine selects line l in the textarea and focuses it.
func (e *editor) selectLine(l int) {
	text := e.ta.Get("value").String()
	start := 0
	for i := 1; i < l; i++ {
		j := strings.IndexByte(text[start:], '\n')
		if j < 0 {
			break
		}
		start += j + 1
	}
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += start
	}
	// setSelectionRange counts UTF-16 units; convert from bytes.
	u := func(b int) int { return utf16Len(text[:b]) }
	e.ta.Call("focus")
	e.ta.Call("setSelectionRange", u(start), u(end))
	e.reveal(l)
}

// utf16Len is the length of s in UTF-16 code units (JavaScript's length).
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
