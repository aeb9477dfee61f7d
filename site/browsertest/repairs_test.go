package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPasteRepairs checks the one-click repairs of pasted damage: one
// button per kind of damage, each with a preview of the repaired lines,
// "Repair everything", and the repaired manifest applying.
func TestPasteRepairs(t *testing.T) {
	p := open(t, "?paused")
	damaged := "apiVersion：v1\nkind: Node\nmetadata:\n\u00a0\u00a0name: “pasted”\n  labels:\n    tier: edge\n"
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", damaged)); msg == "" {
		t.Fatal("a damaged manifest applied")
	}
	rows := eval[[]string](p, `[...document.querySelectorAll("#apply-result .paste-repairs button.use-fix")].map(b => b.textContent)`)
	want := []string{
		"Repair everything",
		"Replace non-breaking and other unusual spaces with ordinary ones (line 4)",
		"Replace curly quotes around values with straight ones (line 4)",
		"Replace full-width colons and commas (：，) with YAML's (line 1)",
	}
	if strings.Join(rows, "|") != strings.Join(want, "|") {
		t.Fatalf("repair buttons %q, want %q", rows, want)
	}
	previews := eval[[]string](p, `[...document.querySelectorAll("#apply-result .paste-repairs pre")].map(p => p.textContent)`)
	if len(previews) != 4 || !strings.Contains(previews[2], "4 │ \u00a0\u00a0name: \"pasted\"") || !strings.Contains(previews[0], "1 │ apiVersion: v1") {
		t.Errorf("previews %q", previews)
	}
	if h := eval[float64](p, `document.querySelector("#apply-result .paste-repairs pre").getBoundingClientRect().height`); h < 10 {
		t.Errorf("the first preview is %gpx high", h)
	}
	p.screenshot("paste-repairs")
	// one repair changes only its own damage
	eval[bool](p, `(function(){ document.querySelectorAll("#apply-result .paste-repairs button.use-fix")[2].click(); return true; })()`)
	if got := eval[string](p, `document.getElementById("yaml").value`); got != strings.Replace(damaged, "“pasted”", `"pasted"`, 1) {
		t.Errorf("after the quotes repair the editor holds %q", got)
	}
	// Repair everything, then Apply
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", damaged)); msg == "" {
		t.Fatal("a damaged manifest applied")
	}
	eval[bool](p, `(function(){ [...document.querySelectorAll("#apply-result .paste-repairs button.use-fix")].find(b => b.textContent === "Repair everything").click(); return true; })()`)
	fixed := "apiVersion: v1\nkind: Node\nmetadata:\n  name: \"pasted\"\n  labels:\n    tier: edge\n"
	if got := eval[string](p, `document.getElementById("yaml").value`); got != fixed {
		t.Errorf("after Repair everything the editor holds %q, want %q", got, fixed)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("apply"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("apply-result").textContent.includes("node/pasted created")`, "the repaired manifest to apply")
	// a clean manifest's error offers no repair
	if msg := eval[string](p, `dsplay.apply("apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  bogus: 1\n")`); msg == "" {
		t.Fatal("an unknown field applied")
	}
	if eval[bool](p, `document.querySelector("#apply-result .paste-repairs") !== null`) {
		t.Error("repairs offered for a manifest without pasted damage")
	}
	p.checkConsole()
}
