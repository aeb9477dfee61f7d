package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"golang.org/x/tools/txtar"
)

// markShown is a JS expression: for the mark of line l, how much of it
// shows (its box cut by every ancestor that clips) and where it sits
// against the text's line l: [visible height, offset from the line's top].
func markShown(l int) string {
	return fmt.Sprintf(`(function(){
	const m = document.querySelector('#marks .mark[data-line="%[1]d"]');
	if (!m) return [-1, 0];
	let r = m.getBoundingClientRect(), top = r.top, bottom = r.bottom;
	for (let e = m.parentElement; e; e = e.parentElement) {
		if (getComputedStyle(e).overflow === "visible") continue;
		const b = e.getBoundingClientRect();
		top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom);
	}
	const ta = document.getElementById("yaml");
	const line = ta.getBoundingClientRect().top + 8 + (%[1]d - 1) * 20 - ta.scrollTop;
	return [Math.max(0, bottom - top), r.top - line];
})()`, l)
}

// The seed logstash manifest's errors (27:17, 32:15) mark their lines,
// and each mark shows on its line once the editor is scrolled to it.
func TestEditorMarksBelowFirstScreen(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join("..", "..", "examples", "logstash.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	var article string
	for _, f := range a.Files {
		if f.Name == "logstash-article.yaml" {
			article = string(f.Data)
		}
	}
	if article == "" {
		t.Fatal("examples/logstash.txtar has no logstash-article.yaml")
	}
	p := open(t, "?paused")
	p.viewport(1280, 720)
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.ID("yaml"), article)); err != nil {
		t.Fatal(err)
	}
	eval[bool](p, `(document.getElementById("yaml").dispatchEvent(new Event("input")), true)`)
	p.click("#apply")
	p.waitJS(`document.querySelectorAll("#marks .mark").length === 2`, "two marked lines")
	if got := eval[[]string](p, `[...document.querySelectorAll("#apply-result li[data-line]")].map(li => li.textContent.match(/^\d+:\d+/)[0])`); strings.Join(got, " ") != "27:17 32:15" {
		t.Errorf("errors reported at %v, want 27:17 32:15", got)
	}
	for _, l := range []int{27, 32} {
		// scroll so that line l is in the middle of the editor
		top := eval[float64](p, fmt.Sprintf(`(function(){ const ta = document.getElementById("yaml"); ta.scrollTop = Math.max(0, 8 + %d * 20 - ta.clientHeight / 2); ta.dispatchEvent(new Event("scroll")); return ta.scrollTop; })()`, l-1))
		if top == 0 {
			t.Fatalf("the editor did not scroll to line %d: the test needs a manifest taller than the editor", l)
		}
		p.frames(2)
		if got := eval[[]float64](p, markShown(l)); got[0] < 19 || got[1] < -1 || got[1] > 1 {
			t.Errorf("line %d, editor scrolled by %g px: the mark shows %g px of 20, %g px off its line", l, top, got[0], got[1])
		}
	}
	// a viewport capture: a full-page one resizes the editor, which scrolls it
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(shotDir, "editor-marks-scrolled.png")
	if err := os.WriteFile(shot, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)
	p.checkConsole()
}
