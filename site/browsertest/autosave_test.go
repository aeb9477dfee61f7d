package browsertest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Autosave (wasm/autosave.go): the session is kept in the browser as the
// learner works.

const savedKeyJS = `"dsplay.session.v1"`

// reload reloads p's tab and waits for the page to be ready again.
func (p *page) reload() {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Reload()); err != nil {
		p.t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page to start again")
	p.instant()
}

// A reload gives back the same cluster (pods with their names, clock,
// timeline), the editor's text and a note; Start over clears it, and its
// Undo brings it back.
func TestAutosaveReloadRestores(t *testing.T) {
	p := open(t, "?paused")
	if got := eval[string](p, `document.getElementById("autosave").textContent`); got != "Saved" {
		t.Errorf("top bar note %q, want Saved", got)
	}
	if v := eval[string](p, `document.getElementById("k8s-version").textContent`); !strings.HasPrefix(v, "v1.37.") {
		t.Errorf("top bar release %q, want v1.37.x", v)
	}
	p.session()
	p.setEditor("# my notes\n" + dsDemo)
	want, text := p.state(), p.editorText()

	p.reload() // pagehide saves
	if got := p.state(); !reflect.DeepEqual(got, want) {
		t.Errorf("after a reload:\n got %+v\nwant %+v", got, want)
	}
	if got := p.editorText(); got != text {
		t.Errorf("editor after a reload: %q, want %q", got, text)
	}
	if out := eval[string](p, `document.getElementById("kout").textContent`); !strings.Contains(out, "Restored your session from this browser") {
		t.Errorf("no restore note in the console: %q", out[max(0, len(out)-400):])
	}
	p.screenshot("autosave-restored")

	// Start over: the example on a new cluster, the record gone.
	p.click("#share")
	p.click("#start-over")
	p.waitJS(`dsplay.elapsed() === 0 && document.getElementById("start-over-undo") !== null`, "Start over")
	if eval[bool](p, `localStorage.getItem(`+savedKeyJS+`) !== null`) {
		t.Error("Start over left the saved session in storage")
	}
	p.click("#start-over-undo")
	p.waitJS(`dsplay.elapsed() > 0`, "Undo of Start over")
	if got := p.state(); !reflect.DeepEqual(got, want) {
		t.Errorf("after Undo:\n got %+v\nwant %+v", got, want)
	}
	p.reload()
	if got := p.state(); !reflect.DeepEqual(got, want) {
		t.Errorf("a reload after Undo:\n got %+v\nwant %+v", got, want)
	}
	p.checkConsole()
}

// A corrupt record opens the page as new, says so, and keeps the text.
func TestAutosaveCorruptRecord(t *testing.T) {
	p := open(t, "?paused")
	// after the page's first save, nothing changes (paused): leaving does not save again
	p.waitJS(`localStorage.getItem(`+savedKeyJS+`) !== null`, "the first save")
	eval[bool](p, `(localStorage.setItem(`+savedKeyJS+`, '{"v":1,"scenario":"-- .dsplay/inputs.json --\n{oops'), true)`)
	p.reload()
	p.waitJS(`dsplay.pods().length > 0 || dsplay.elapsed() >= 0`, "the page up")
	out := eval[string](p, `document.getElementById("kout").textContent`)
	if !strings.Contains(out, "Your saved session could not be restored") {
		t.Errorf("console does not say the record was refused: %q", out[max(0, len(out)-400):])
	}
	if got := eval[string](p, `localStorage.getItem("dsplay.session.broken") || ""`); !strings.Contains(got, "{oops") {
		t.Errorf("the refused record was not kept: %q", got)
	}
	if eval[string](p, `document.getElementById("fatal").textContent`) != "" {
		t.Error("fatal banner shown")
	}
	p.checkConsoleExcept("could not be restored")
}

// Two tabs of one visitor: the tab opened later restores the session and
// saves; the first one says it no longer saves, and can take over.
func TestAutosaveTwoTabs(t *testing.T) {
	p := open(t, "?paused")
	p.runKubectl("kubectl label nodes node-1 tab=first")
	p.reload()
	q := openURLIn(t, baseURL+"/?paused", p)
	if !strings.Contains(eval[string](q, `dsplay.run("kubectl get nodes --show-labels").stdout`), "tab=first") {
		t.Fatalf("the second tab did not restore the session")
	}
	q.runKubectl("kubectl label nodes node-2 tab=second")
	eval[bool](q, `(document.dispatchEvent(new Event("visibilitychange")), window.dispatchEvent(new Event("pagehide")), true)`)
	p.waitJS(`document.getElementById("autosave").textContent === "Open in another tab" && !document.getElementById("autosave-claim").hidden`, "the first tab to yield")
	p.runKubectl("kubectl label nodes node-1 again=first")
	eval[bool](p, `(window.dispatchEvent(new Event("pagehide")), true)`)
	if saved := eval[string](p, `localStorage.getItem(`+savedKeyJS+`)`); strings.Contains(saved, "again=first") || !strings.Contains(saved, "tab=second") {
		t.Errorf("the yielded tab saved over the other's session")
	}
	p.screenshot("autosave-two-tabs")
	p.click("#autosave-claim")
	q.waitJS(`document.getElementById("autosave").textContent === "Open in another tab"`, "the second tab to yield")
	if saved := eval[string](p, `localStorage.getItem(`+savedKeyJS+`)`); !strings.Contains(saved, "again=first") {
		t.Errorf("Save this tab instead did not save the first tab's session")
	}
	p.checkConsole()
	q.checkConsole()
}

// Opening a share link over saved work keeps the work as the learner's own
// cluster, offered back; a reload of the link gives back what was done on
// it, not the link anew.
func TestAutosaveLinkOverWork(t *testing.T) {
	p := open(t, "?paused")
	p.runKubectl("kubectl label nodes node-1 mine=yes")
	eval[bool](p, `(window.dispatchEvent(new Event("pagehide")), true)`)
	info := evalAwait[map[string]any](p, `dsplay.shareLink()`)
	link, _ := info["url"].(string)
	// the link is made of this session; work on it differs from it
	p.runKubectl("kubectl label nodes node-2 after-link=yes")
	eval[bool](p, `(window.dispatchEvent(new Event("pagehide")), true)`)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(strings.Replace(link, "/#s=", "/?paused#s=", 1))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the link to open")
	p.waitJS(`document.getElementById("import-restore") !== null`, "the offer to restore my own cluster")
	if out := eval[string](p, `dsplay.run("kubectl get nodes --show-labels").stdout`); strings.Contains(out, "after-link") {
		t.Errorf("the link did not open its own state")
	}
	p.runKubectl("kubectl label nodes node-1 on-link=yes")
	eval[bool](p, `(window.dispatchEvent(new Event("pagehide")), true)`)
	p.reload()
	if out := eval[string](p, `dsplay.run("kubectl get nodes --show-labels").stdout`); !strings.Contains(out, "on-link=yes") {
		t.Errorf("a reload of the link lost the work done on it")
	}
	p.waitJS(`document.getElementById("import-restore") !== null`, "the offer to restore my own cluster after the reload")
	p.click("#import-restore")
	p.waitJS(`dsplay.run("kubectl get nodes --show-labels").stdout.includes("after-link=yes")`, "my own cluster back")
	p.checkConsole()
}

// "Keep the link in the address bar": the address follows the session, so
// a copy of it opens the cluster as it is now; the choice is remembered.
func TestAutosaveLiveAddress(t *testing.T) {
	p := open(t, "?paused")
	p.click("#share")
	p.click("#share-live")
	p.waitJS(`location.hash.startsWith("#s=")`, "the link in the address bar")
	first := eval[string](p, `location.href`)
	p.runKubectl("kubectl label nodes node-2 live=yes")
	p.advance(3)
	// the next save (every 2 s while the session changes) brings it up to date
	p.waitJS(`location.href !== `+jsString(first)+` && location.hash.startsWith("#s=")`, "the address to follow the session")
	time.Sleep(2500 * time.Millisecond)
	p.frames(3)
	want := p.state()
	q := openURL(t, eval[string](p, `location.href`)) // a new visitor: no saved session
	if got := q.state(); got.Elapsed != want.Elapsed || !reflect.DeepEqual(got.Pods, want.Pods) {
		t.Errorf("the address opens\n %+v\nwant\n %+v", got, want)
	}
	if out := eval[string](q, `dsplay.run("kubectl get nodes --show-labels").stdout`); !strings.Contains(out, "live=yes") {
		t.Error("the address does not hold the label")
	}
	p.reload()
	if !eval[bool](p, `document.getElementById("share-live").checked`) {
		t.Error("the choice was not remembered")
	}
	p.checkConsole()
	q.checkConsole()
}
