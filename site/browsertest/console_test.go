package browsertest

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdpage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// typeKeys types keys into the kubectl input (runes as kb maps them: "\t"
// is Tab, kb.ArrowUp the arrow) without pressing Enter.
func (p *page) typeKeys(keys string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("kubectl")), chromedp.SendKeys(chromedp.ID("kubectl"), keys)); err != nil {
		p.t.Fatal(err)
	}
}

// inputValue is the kubectl input's text.
func (p *page) inputValue() string {
	p.t.Helper()
	return eval[string](p, `document.getElementById("kubectl").value`)
}

// blockCmds are the command lines of the console's blocks, without "$ ".
func (p *page) blockCmds() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll("#kout .block .cmd")].map(e => e.textContent.replace(/^\$ /, "").replace(/\n$/, ""))`)
}

// clearInput empties the kubectl input.
func (p *page) clearInput() {
	p.t.Helper()
	eval[bool](p, `(document.getElementById("kubectl").value = "") === ""`)
}

// key presses one key with modifiers in the kubectl input.
func (p *page) key(k string, mods ...chromedp.Modifier) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("kubectl")), chromedp.KeyEvent(k, chromedp.KeyModifiers(mods...))); err != nil {
		p.t.Fatal(err)
	}
}

// The console answers as kubectl: stdout, an error on stderr (shown apart,
// still copyable text), help read from the engine, clear and Ctrl+L.
func TestConsoleCommands(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1", "fluentd Running on node-1")

	// kubectl optional, k as an alias: the same table.
	p.runKubectl("kubectl get ds")
	full, _ := p.lastOutput()
	for _, line := range []string{"get ds", "k get ds"} {
		p.runKubectl(line)
		if out, errOut := p.lastOutput(); out != full || errOut != "" {
			t.Errorf("%q printed %q (stderr %q), want what kubectl get ds printed: %q", line, out, errOut, full)
		}
	}
	if !strings.HasPrefix(full, "NAME ") || !strings.Contains(full, fluentd) {
		t.Errorf("kubectl get ds printed %q", full)
	}

	// An error goes to stderr, marked apart from stdout, and copy includes it.
	p.runKubectl("kubectl get ds nosuch")
	if out, errOut := p.lastOutput(); out != "" || errOut != "Error from server (NotFound): daemonsets.apps \"nosuch\" not found\n" {
		t.Errorf("get ds nosuch: stdout %q, stderr %q", out, errOut)
	}
	style := eval[[]string](p, `(function(){
		const s = getComputedStyle([...document.querySelectorAll("#kout .block")].pop().querySelector(".stderr"));
		return [s.userSelect, s.borderLeftStyle, s.color];
	})()`)
	if style[0] == "none" || style[1] != "solid" {
		t.Errorf("stderr style user-select %q, border-left %q: want selectable and marked by more than colour", style[0], style[1])
	}
	// Unsupported commands say so.
	p.runKubectl("kubectl logs x")
	if _, errOut := p.lastOutput(); !strings.Contains(errOut, "not simulated in the playground") {
		t.Errorf("kubectl logs printed %q on stderr, want the not-simulated answer", errOut)
	}
	// --help passes through to the engine.
	p.runKubectl("kubectl cordon --help")
	if out, _ := p.lastOutput(); !strings.Contains(out, "Mark node as unschedulable") {
		t.Errorf("kubectl cordon --help printed %q", out)
	}

	// help lists the simulated verbs (from the engine) and the console's keys.
	p.runKubectl("help")
	help, _ := p.lastOutput()
	for _, want := range []string{"Tab", "Ctrl+L", "get ", "describe ", "cordon ", "drain ", "Not simulated", "logs"} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}

	// The log is a polite live region; every text in it is copyable text.
	if r := eval[[]string](p, `[document.getElementById("kout").getAttribute("role"), document.getElementById("kout").getAttribute("aria-live")]`); r[0] != "log" || r[1] != "polite" {
		t.Errorf("#kout role %q aria-live %q, want log, polite", r[0], r[1])
	}
	if s := eval[string](p, `(function(){
		for (const e of document.querySelectorAll("#kout *")) {
			if (e.closest("button")) continue;
			const cs = getComputedStyle(e), b = getComputedStyle(e, "::before"), a = getComputedStyle(e, "::after");
			if (cs.userSelect === "none") return "user-select none on " + e.className;
			for (const p of [b, a]) if (p.content && p.content !== "none" && p.content !== "normal" && p.content !== '""') return "generated text " + p.content + " on " + e.className;
		}
		return "";
	})()`); s != "" {
		t.Errorf("the log has text that copy skips: %s", s)
	}

	// The copy button copies its block: the block's text is selected.
	if err := chromedp.Do(p.ctx, chromedp.Evaluate[chromedp.Void](`document.querySelector("#kout").scrollTop = 1e9`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`#kout .entry:last-child .copy`))); err != nil {
		t.Fatal(err)
	}
	got := eval[[]string](p, `[String(getSelection()), [...document.querySelectorAll("#kout .block")].pop().textContent]`)
	// (a selection's text leaves out the block's final new line)
	if got[0] != strings.TrimSuffix(got[1], "\n") || !strings.HasPrefix(got[0], "$ help\n") {
		t.Errorf("copy selected %q, want the last block %q", got[0], got[1])
	}

	// By keyboard: Shift+Tab from the input reaches the newest block's copy
	// button (the log's one tab stop), ↑ the one before; Enter copies.
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("kubectl")), chromedp.KeyEvent("\t", chromedp.KeyModifiers(chromedp.ModifierShift))); err != nil {
		t.Fatal(err)
	}
	if !eval[bool](p, `document.activeElement === [...document.querySelectorAll("#kout .copy")].pop()`) {
		t.Errorf("Shift+Tab from the input focused %s, want the newest copy button", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	got = eval[[]string](p, `[String(getSelection()), [...document.querySelectorAll("#kout .block")].at(-2).textContent]`)
	if got[0] != strings.TrimSuffix(got[1], "\n") || !strings.HasPrefix(got[0], "$ kubectl cordon --help\n") {
		t.Errorf("↑ then Enter on the copy buttons selected %q, want the block before the last %q", got[0], got[1])
	}
	if n := eval[int](p, `[...document.querySelectorAll("#kout .copy")].filter(b => b.tabIndex === 0).length`); n != 1 {
		t.Errorf("%d copy buttons are tab stops, want 1", n)
	}

	// clear empties the log; so does Ctrl+L, keeping the line being typed.
	p.runKubectl("kubectl get pods")
	p.typeKeys("clear\n")
	p.waitJS(`document.querySelectorAll("#kout .block").length === 0`, "clear to empty the log")
	p.runKubectl("kubectl get nodes")
	p.typeKeys("kubectl get no")
	p.key("l", chromedp.ModifierCtrl)
	p.waitJS(`document.querySelectorAll("#kout .block").length === 0`, "Ctrl+L to empty the log")
	if v := p.inputValue(); v != "kubectl get no" {
		t.Errorf("after Ctrl+L the input holds %q, want the line being typed", v)
	}
	// Ctrl+C abandons the line as a shell does.
	p.key("c", chromedp.ModifierCtrl)
	p.waitJS(`document.querySelectorAll("#kout .block").length === 1`, "Ctrl+C's echo")
	if cmds := p.blockCmds(); len(cmds) != 1 || cmds[0] != "kubectl get no^C" {
		t.Errorf("after Ctrl+C the log shows %q", cmds)
	}
	if v := p.inputValue(); v != "" {
		t.Errorf("after Ctrl+C the input holds %q", v)
	}
	p.screenshot("dsplay-console")
	p.checkConsole()
}

// History: arrows walk it, keeping the draft; it survives a reload; a page
// without storage access still has a history for its lifetime.
func TestConsoleHistory(t *testing.T) {
	p := open(t, "?paused")
	p.runKubectl("kubectl get nodes")
	p.runKubectl("kubectl get ds")
	p.runKubectl("kubectl get ds") // consecutive duplicate: stored once
	p.typeKeys("draft")
	p.typeKeys(kb.ArrowUp)
	if v := p.inputValue(); v != "kubectl get ds" {
		t.Errorf("↑ shows %q, want kubectl get ds", v)
	}
	p.typeKeys(kb.ArrowUp)
	if v := p.inputValue(); v != "kubectl get nodes" {
		t.Errorf("↑↑ shows %q, want kubectl get nodes (duplicates stored once)", v)
	}
	p.typeKeys(kb.ArrowDown + kb.ArrowDown)
	if v := p.inputValue(); v != "draft" {
		t.Errorf("↓↓ shows %q, want the draft back", v)
	}

	// After a reload the history is still there.
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page to load again")
	p.instant()
	p.typeKeys(kb.ArrowUp)
	if v := p.inputValue(); v != "kubectl get ds" {
		t.Errorf("after a reload ↑ shows %q, want kubectl get ds", v)
	}
	stored := eval[string](p, `localStorage.getItem("dsplay.kubectl.history")`)
	if !strings.HasSuffix(stored, `"kubectl get nodes","kubectl get ds"]`) {
		t.Errorf("stored history %s", stored)
	}

	// A page whose storage throws (blocked, sandboxed) starts and keeps its
	// history in memory.
	if err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdpage.AddScriptToEvaluateOnNewDocument, cdpage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `Object.defineProperty(window, "localStorage", {get() { throw new DOMException("storage is blocked", "SecurityError"); }});`,
		})
		return err
	}), chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page without storage to load")
	p.instant()
	p.runKubectl("kubectl get pods")
	p.typeKeys(kb.ArrowUp)
	if v := p.inputValue(); v != "kubectl get pods" {
		t.Errorf("without storage ↑ shows %q, want kubectl get pods", v)
	}
	if !eval[bool](p, `document.getElementById("fatal").hidden`) {
		t.Errorf("blocked storage shows an error banner: %s", eval[string](p, `document.getElementById("fatal").textContent`))
	}
	p.checkConsole()
}

// Tab completes verbs, types, node names and flags from the live cluster;
// several candidates insert their common prefix and are listed.
func TestConsoleCompletion(t *testing.T) {
	p := open(t, "?paused")
	p.advance(5)
	p.typeKeys("kubectl cord\t")
	if v := p.inputValue(); v != "kubectl cordon " {
		t.Errorf("Tab after cord gives %q, want %q", v, "kubectl cordon ")
	}
	// Two nodes match: the list is shown, the common prefix was already typed.
	p.typeKeys("node-\t")
	p.waitJS(`!document.getElementById("kcands").hidden`, "the completion list")
	if got := eval[[]string](p, `[...document.querySelectorAll("#kcands .cand")].map(e => e.textContent)`); strings.Join(got, " ") != "node-1 node-2" {
		t.Errorf("candidates %q, want node-1 node-2", got)
	}
	p.typeKeys("2\t")
	if v := p.inputValue(); v != "kubectl cordon node-2 " {
		t.Errorf("Tab after node-2 gives %q", v)
	}
	if !eval[bool](p, `document.getElementById("kcands").hidden`) {
		t.Errorf("the candidate list stays after a unique completion")
	}
	p.typeKeys("\n")
	if out, errOut := p.lastOutput(); strings.TrimSpace(out) != "node/node-2 cordoned" {
		t.Errorf("completed cordon printed %q (stderr %q)", out, errOut)
	}
	// Common prefix, then the list: "kubectl get daemon" -> daemonset, {daemonset, daemonsets}.
	p.typeKeys("kubectl get daemon\t")
	if v := p.inputValue(); v != "kubectl get daemonset" {
		t.Errorf("Tab after daemon gives %q, want the common prefix daemonset", v)
	}
	// A name of the live cluster, and a flag of the verb.
	p.clearInput()
	p.typeKeys("kubectl describe ds flu\t")
	if v := p.inputValue(); v != "kubectl describe ds "+fluentd+" " {
		t.Errorf("Tab after flu gives %q", v)
	}
	p.clearInput()
	p.typeKeys("kubectl drain node-1 --ignore-d\t")
	if v := p.inputValue(); v != "kubectl drain node-1 --ignore-daemonsets " {
		t.Errorf("Tab after --ignore-d gives %q", v)
	}
	// Tab on an empty line moves the focus on (the console is no keyboard trap).
	p.clearInput()
	p.typeKeys("\t")
	if eval[bool](p, `document.activeElement === document.getElementById("kubectl")`) {
		t.Errorf("Tab on an empty line kept the focus in the input")
	}
	p.checkConsole()
}

// Pasting several lines runs each in order; a trailing backslash joins
// lines, as typed lines do, with a ">" prompt meanwhile.
func TestConsolePaste(t *testing.T) {
	p := open(t, "?paused")
	p.advance(5)
	before := len(p.blockCmds())
	eval[bool](p, `(function(){
		const dt = new DataTransfer();
		dt.setData("text/plain", "# label a node, then list it\nkubectl label nodes node-1 disk=ssd\nkubectl get nodes \\\n  -l disk=ssd\r\n\nk get ds\n");
		const input = document.getElementById("kubectl");
		input.focus();
		return input.dispatchEvent(new ClipboardEvent("paste", {clipboardData: dt, bubbles: true, cancelable: true}));
	})()`)
	cmds := p.blockCmds()[before:]
	want := []string{"# label a node, then list it", "kubectl label nodes node-1 disk=ssd", "kubectl get nodes   -l disk=ssd", "k get ds"}
	if strings.Join(cmds, "|") != strings.Join(want, "|") {
		t.Fatalf("pasted lines ran as %q, want %q", cmds, want)
	}
	if c := eval[string](p, `[...document.querySelectorAll("#kout .block")].at(-4).textContent`); c != "$ # label a node, then list it\n" {
		t.Errorf("a pasted comment line shows %q, want the line alone (nothing runs)", c)
	}
	outs := eval[[]string](p, `[...document.querySelectorAll("#kout .block")].slice(-3).map(b => b.textContent)`)
	if !strings.Contains(outs[0], "node/node-1 labeled") || !strings.Contains(outs[1], "node-1") || strings.Contains(outs[1], "node-2") || !strings.Contains(outs[2], fluentd) {
		t.Errorf("pasted commands printed %q", outs)
	}
	// Typed: a line ending in a backslash continues on the next.
	p.typeKeys("kubectl get \\\n")
	if got := eval[string](p, `document.getElementById("kprompt").textContent`); got != ">" {
		t.Errorf("the prompt of a continued line is %q, want >", got)
	}
	p.runKubectl("nodes -o name")
	if out, _ := p.lastOutput(); out != "node/control-plane\nnode/node-1\nnode/node-2\n" {
		t.Errorf("the continued command printed %q", out)
	}
	if cmds := p.blockCmds(); cmds[len(cmds)-1] != "kubectl get nodes -o name" {
		t.Errorf("the continued command shows as %q", cmds[len(cmds)-1])
	}
	if got := eval[string](p, `document.getElementById("kprompt").textContent`); got != "$" {
		t.Errorf("the prompt after the command is %q, want $", got)
	}
	p.checkConsole()
}

// kubectl get -w: the lines it prints stream under its command while
// virtual time runs, and stop at Ctrl+C or at another watch.
func TestConsoleWatch(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1", "fluentd Running on node-1")
	p.runKubectl("kubectl get pods -w")
	watchText := `[...document.querySelectorAll("#kout .block")].pop().textContent`
	first := eval[string](p, watchText)
	if !strings.Contains(first, "NAME") || strings.Count(first, fluentd+"-") != 2 {
		t.Fatalf("kubectl get pods -w printed %q", first)
	}
	if !eval[bool](p, `[...document.querySelectorAll("#kout .block")].pop().classList.contains("watching")`) {
		t.Errorf("the watching block is not marked")
	}
	// A DaemonSet applied from the editor: its pods appear in the watch as
	// the clock runs, under the same header.
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", dsDemo)); msg != "" {
		t.Fatalf("apply: %s", msg)
	}
	p.advance(10)
	p.waitJS(`[...document.querySelectorAll("#kout .block")].filter(b => b.classList.contains("watching")).length === 1`, "the watch to keep running after an apply")
	got := eval[string](p, `document.querySelector("#kout .block.watching").textContent`)
	if strings.Count(got, "NAME") != 1 || !strings.Contains(got, "ds-demo-") || !regexpMatch(`ds-demo-\S+\s+1/1\s+Running`, got) {
		t.Errorf("after applying ds-demo and 10 s the watch shows:\n%s", got)
	}
	// The apply's echo went above the running watch, which stays last.
	if cmds := p.blockCmds(); cmds[len(cmds)-1] != "kubectl get pods -w" || cmds[len(cmds)-2] != "kubectl apply -f manifest.yaml" {
		t.Errorf("the log's last commands are %q, want the apply above the watch", cmds[max(0, len(cmds)-3):])
	}
	// Ctrl+C stops it: ^C ends its output, later changes are not printed.
	p.key("c", chromedp.ModifierCtrl)
	p.waitJS(`document.querySelector("#kout .block.watching") === null`, "Ctrl+C to stop the watch")
	block := func(cmd string) string {
		return eval[string](p, fmt.Sprintf(`[...document.querySelectorAll("#kout .block")].filter(b => b.querySelector(".cmd").textContent === %q).pop().textContent`, "$ "+cmd+"\n"))
	}
	stopped := block("kubectl get pods -w")
	if !strings.HasSuffix(stopped, "^C\n") {
		t.Errorf("after Ctrl+C the watch ends with %q", stopped[max(0, len(stopped)-40):])
	}
	p.runKubectl("kubectl delete ds ds-demo --wait=false")
	p.advance(30)
	if now := block("kubectl get pods -w"); now != stopped {
		t.Errorf("the stopped watch printed more:\n%s", strings.TrimPrefix(now, stopped))
	}

	// Another watch replaces a watch (other commands leave it running:
	// TestConsoleWatchOutlivesOtherCommands).
	p.runKubectl("kubectl get ds -w")
	p.runKubectl("kubectl get nodes -w")
	before := block("kubectl get ds -w")
	eval[string](p, fmt.Sprintf("dsplay.apply(%q)", dsDemo))
	p.advance(10)
	if after := block("kubectl get ds -w"); after != before {
		t.Errorf("a watch followed by another command went on printing:\n%s", strings.TrimPrefix(after, before))
	}

	// Ctrl+L during a watch clears the screen; the watch goes on printing.
	p.runKubectl("kubectl get pods -w")
	p.key("l", chromedp.ModifierCtrl)
	p.waitJS(`document.querySelectorAll("#kout .block").length === 1 && document.querySelector("#kout .block.watching").textContent === ""`, "Ctrl+L to clear all but the watch")
	eval[string](p, fmt.Sprintf("dsplay.apply(%q)", strings.Replace(dsDemo, "nginx:1.23", "nginx:1.25", 1)))
	p.advance(30)
	if got := eval[string](p, `document.querySelector("#kout .block.watching").textContent`); !strings.Contains(got, "ds-demo-") {
		t.Errorf("after Ctrl+L and a rolling update the watch printed %q", got)
	}
	p.checkConsole()
}

// kubectl edit: the object's YAML in the editor under an "Editing" bar;
// Apply edit updates the live object and gives the manifest back; Cancel
// leaves it unchanged; an invalid edit reopens with kubectl's errors.
func TestConsoleEdit(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	manifest := eval[string](p, `document.getElementById("yaml").value`)
	p.runKubectl("kubectl edit ds " + fluentd)
	p.waitJS(`!document.getElementById("edit-bar").hidden`, "the edit bar")
	if got := eval[string](p, `document.getElementById("edit-target").textContent`); got != "daemonset/"+fluentd {
		t.Errorf("the edit bar names %q, want daemonset/%s", got, fluentd)
	}
	text := eval[string](p, `document.getElementById("yaml").value`)
	if !strings.HasPrefix(text, "# Please edit the object below") || !strings.Contains(text, "kind: DaemonSet") || !strings.Contains(text, "resourceVersion:") {
		t.Fatalf("the editor holds %q", text[:min(len(text), 300)])
	}
	if !eval[bool](p, `document.activeElement === document.getElementById("yaml")`) {
		t.Errorf("the editor does not have the focus during the edit")
	}
	// Change the image and apply the edit.
	eval[bool](p, `(function(){ const ta = document.getElementById("yaml"); ta.value = ta.value.replace(/image: \S+/, "image: fluentd:v9"); return true; })()`)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("edit-apply"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("edit-bar").hidden`, "the edit bar to close")
	if out, errOut := p.lastOutput(); strings.TrimSpace(out) != "daemonset.apps/"+fluentd+" edited" {
		t.Errorf("the edit printed %q (stderr %q)", out, errOut)
	}
	if got := eval[string](p, `document.getElementById("yaml").value`); got != manifest {
		t.Errorf("after the edit the editor holds %q, want the manifest back", got[:min(len(got), 200)])
	}
	p.runKubectl("kubectl get ds " + fluentd + " -o wide")
	if out, _ := p.lastOutput(); !strings.Contains(out, "fluentd:v9") {
		t.Errorf("after the edit get ds -o wide printed %q", out)
	}

	// Cancel: kubectl's answer for an editor closed without saving.
	p.runKubectl("kubectl edit ds " + fluentd)
	p.waitJS(`!document.getElementById("edit-bar").hidden`, "the edit bar")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("edit-cancel"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("edit-bar").hidden`, "the edit bar to close")
	if out, errOut := p.lastOutput(); out != "" || strings.TrimSpace(errOut) != "Edit cancelled, no changes made." {
		t.Errorf("Cancel printed %q, stderr %q", out, errOut)
	}

	// An invalid edit reopens the editor with the errors at the top; the
	// Apply button (Ctrl/⌘ + Enter) saves the edit too.
	p.runKubectl("kubectl edit ds " + fluentd)
	p.waitJS(`!document.getElementById("edit-bar").hidden`, "the edit bar")
	eval[bool](p, `(function(){ const ta = document.getElementById("yaml"); ta.value = ta.value.replace(/image: \S+/, 'image: ""'); return true; })()`)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("apply"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("yaml").value.includes("was not valid")`, "the editor to reopen with the errors")
	if eval[bool](p, `document.getElementById("edit-bar").hidden`) {
		t.Errorf("the edit bar closed on an invalid edit")
	}
	if _, errOut := p.lastOutput(); !strings.Contains(errOut, "is invalid") {
		t.Errorf("the invalid edit printed stderr %q", errOut)
	}
	p.screenshot("dsplay-console-edit")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("edit-cancel"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("edit-bar").hidden`, "the edit bar to close")
	if _, errOut := p.lastOutput(); !strings.Contains(errOut, "Edit cancelled, no valid changes were saved.") {
		t.Errorf("cancelling the reopened edit printed stderr %q", errOut)
	}
	p.checkConsole()
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// On a phone in the dark scheme the console fits the width, its input is
// large enough not to zoom, candidates wrap, and stdout, stderr and the
// command stand apart in the dark colours.
func TestConsolePhoneDark(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(390, 844)
	p.colorScheme("dark")
	p.advance(10)
	p.runKubectl("kubectl get pods -o wide")
	p.runKubectl("kubectl get ds nosuch")
	p.typeKeys("kubectl get po\t")
	p.waitJS(`!document.getElementById("kcands").hidden`, "the completion list")
	m := eval[map[string]float64](p, `(function(){
		const r = (id) => document.getElementById(id).getBoundingClientRect();
		return {page: document.documentElement.scrollWidth, input: r("kubectl").width, inputRight: r("kubectl").right,
			font: parseFloat(getComputedStyle(document.getElementById("kubectl")).fontSize),
			cands: r("kcands").right, log: r("kout").right};
	})()`)
	if m["page"] > 390 || m["inputRight"] > 390 || m["cands"] > 390 || m["log"] > 390 {
		t.Errorf("the console overflows a 390px phone: %v", m)
	}
	if m["input"] < 200 || m["font"] < 16 {
		t.Errorf("the phone input is %gpx wide with a %gpx font, want ≥ 200 and ≥ 16 (no zoom on focus)", m["input"], m["font"])
	}
	c := eval[[]string](p, `(function(){
		const b = [...document.querySelectorAll("#kout .block")].pop(), k = document.getElementById("kout");
		return [getComputedStyle(k).backgroundColor, getComputedStyle(k).color, getComputedStyle(b.querySelector(".stderr")).color, getComputedStyle(b.querySelector(".cmd")).color];
	})()`)
	if c[0] == "rgb(248, 249, 251)" || c[1] == c[2] || c[1] == c[3] {
		t.Errorf("dark console colours: background %s, stdout %s, stderr %s, command %s", c[0], c[1], c[2], c[3])
	}
	p.screenshot("dsplay-console-phone-dark")
	p.checkConsole()
}
