package browsertest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// setEditor puts text in the editor as typed (no apply).
func (p *page) setEditor(text string) {
	p.t.Helper()
	eval[any](p, fmt.Sprintf(`(function(){ const ta = document.getElementById("yaml"); ta.value = %q; ta.dispatchEvent(new Event("input")); })()`, text))
}

func (p *page) editorText() string {
	p.t.Helper()
	return eval[string](p, `document.getElementById("yaml").value`)
}

const myEditorText = "# my own notes, not applied yet\nkind: DaemonSet\n"

// A failed import, plain YAML or a scenario, changes nothing: not the
// cluster, not the timeline, not the editor's text. The YAML file can be
// opened in the editor from the note (the learner's text offered back).
func TestImportFailureChangesNothing(t *testing.T) {
	p := open(t, "?paused")
	p.runKubectl("kubectl label nodes node-1 mine=yes")
	p.setEditor(myEditorText)
	before := p.state()

	for _, tc := range []struct{ name, text, want string }{
		{"bad.yaml", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  replicas: 2\n", "bad.yaml"},
		{"nons.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: nope}\n", "nope"},
		{"bad.txtar", "node add extra-1\nfrobnicate now\n", "bad.txtar:2"},
	} {
		msg := eval[string](p, fmt.Sprintf(`dsplay.importText(%q, %q)`, tc.name, tc.text))
		if msg == "" || !strings.Contains(msg, tc.want) {
			t.Errorf("%s: import said %q, want an error naming %q", tc.name, msg, tc.want)
		}
		if got := p.editorText(); got != myEditorText {
			t.Errorf("%s: the failed import changed the editor's text to %q", tc.name, got)
		}
		if got := p.state(); !reflect.DeepEqual(got, before) {
			t.Errorf("%s: the failed import changed the cluster:\nbefore %+v\nafter  %+v", tc.name, before, got)
		}
		res := eval[string](p, `document.getElementById("apply-result").textContent`)
		if !strings.Contains(res, tc.name) {
			t.Errorf("%s: result line %q does not name the file", tc.name, res)
		}
	}

	// The last YAML failure offers the file in the editor.
	eval[string](p, `dsplay.importText("bad.yaml", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  replicas: 2\n")`)
	p.click(`#apply-result button.import-open`)
	if got := p.editorText(); !strings.Contains(got, "replicas: 2") {
		t.Fatalf("Open in the editor: editor has %q", got)
	}
	p.waitJS(`document.querySelectorAll("#marks .mark").length > 0`, "the failing line marked")
	p.screenshot("import-failed-opened")
	if got := p.state(); !reflect.DeepEqual(got, before) {
		t.Errorf("opening the file in the editor changed the cluster:\nbefore %+v\nafter  %+v", before, got)
	}
	p.click(`#apply-result button.restore-text`)
	if got := p.editorText(); got != myEditorText {
		t.Errorf("Restore previous text gave %q", got)
	}
	p.checkConsole()
}

// A successful import, YAML or scenario, can be undone from its note: the
// cluster, the timeline and the editor's text come back as they were.
func TestImportCanBeUndone(t *testing.T) {
	p := open(t, "?paused")
	p.runKubectl("kubectl label nodes node-1 mine=yes")
	p.advance(2)
	p.setEditor(myEditorText)
	before := p.state()

	if msg := eval[string](p, fmt.Sprintf(`dsplay.importText("agent.yaml", %q)`, dsDemo)); msg != "" {
		t.Fatalf("import: %s", msg)
	}
	p.advance(10)
	if got := p.state(); reflect.DeepEqual(got, before) {
		t.Fatal("the YAML import changed nothing")
	}
	if n := eval[int](p, `document.querySelectorAll("#apply-result button.undo-import, #kout button.undo-import").length`); n != 2 {
		t.Errorf("%d Undo buttons after the YAML import, want one under the editor and one in the console", n)
	}
	p.screenshot("import-yaml-undo-offered")
	p.click(`#apply-result button.undo-import`)
	p.waitJS(`document.getElementById("apply-result").textContent.includes("Undid the import of agent.yaml")`, "the undo")
	if got := p.state(); !reflect.DeepEqual(got, before) {
		t.Errorf("after undoing the YAML import:\ngot  %+v\nwant %+v", got, before)
	}
	if got := p.editorText(); got != myEditorText {
		t.Errorf("after undoing the YAML import the editor has %q", got)
	}
	// The console's button of that import no longer applies.
	p.click(`#kout button.undo-import`)
	p.waitJS(`document.getElementById("kout").textContent.includes("can no longer be undone")`, "the stale Undo's note")

	// A scenario.
	if msg := eval[string](p, `dsplay.importText("small.txtar", "node add extra-1\nadvance 5s\n")`); msg != "" {
		t.Fatalf("import: %s", msg)
	}
	p.waitJS(`!!document.querySelector("#kout .watch-note button.undo-import")`, "the replay note's Undo")
	p.click(`#kout .watch-note button.undo-import`)
	p.waitJS(`document.getElementById("kout").textContent.includes("Undid the import of small.txtar")`, "the undo")
	if got := p.state(); !reflect.DeepEqual(got, before) {
		t.Errorf("after undoing the scenario import:\ngot  %+v\nwant %+v", got, before)
	}
	if got := p.editorText(); got != myEditorText {
		t.Errorf("after undoing the scenario import the editor has %q", got)
	}
	if eval[bool](p, `!!document.querySelector("#lesson-nav button[data-act=restore]") || !document.getElementById("lessons-restore").hidden && document.getElementById("lessons-restore").textContent !== ""`) {
		t.Error("after the undo a cluster is still offered for restore")
	}
	p.checkConsole()
}
