package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A manifest with two flattened lines has one repair, so the error hints
// offer one "Use this fix" button, which repairs both lines.
func TestEditorOneFixButtonPerRepair(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "engine", "manifest", "testdata", "mangled", "ds-demo-flattened.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	p := open(t, "?paused")
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.ID("yaml"), string(b))); err != nil {
		t.Fatal(err)
	}
	eval[bool](p, `(document.getElementById("yaml").dispatchEvent(new Event("input")), true)`)
	p.click("#apply")
	p.waitJS(`document.querySelectorAll("#apply-result .fix pre").length === 2`, "two hints showing re-indented lines")
	buttons := eval[[]string](p, `[...document.querySelectorAll("#apply-result button.use-fix:not([data-fix])")].map(b => b.textContent)`)
	if len(buttons) != 1 {
		t.Fatalf("%d repair buttons %q, want one", len(buttons), buttons)
	}
	if !strings.Contains(buttons[0], "3") || !strings.Contains(buttons[0], "4") {
		t.Errorf("the button reads %q: it should name the lines it repairs (3 and 4)", buttons[0])
	}
	p.click("#apply-result button.use-fix")
	p.click("#apply")
	p.waitJS(`document.getElementById("apply-result").textContent.includes("daemonset.apps/ds-demo created")`, "the repaired manifest applied")
	p.checkConsole()
}
