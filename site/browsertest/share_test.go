package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Share links and scenario files (wasm/share.go, wasm/importexport.go).

// shownState is what a learner sees: the clock, the pods (names included)
// and the timeline's steps.
type shownState struct {
	Elapsed float64
	Pods    []string
	Steps   []string
	Nodes   []string
}

func (p *page) state() shownState {
	p.t.Helper()
	return eval[shownState](p, `({
		elapsed: dsplay.elapsed(),
		pods: dsplay.pods().map((p) => p.name + " " + p.node + " " + p.phase + " " + p.terminating).sort(),
		steps: dsplay.steps().map((s) => s.at + " " + s.input + " " + s.label + " " + s.numDecisions),
		nodes: [...document.querySelectorAll(".node")].map((n) => n.dataset.node + " " + n.querySelectorAll(".taint").length),
	})`)
}

// session plays a learner's session: the default example, ds-demo applied
// from the editor, a label and a taint from the console, a failed node.
func (p *page) session() {
	p.t.Helper()
	p.advance(8)
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", dsDemo)); msg != "" {
		p.t.Fatalf("apply: %s", msg)
	}
	p.advance(12)
	p.runKubectl("kubectl label nodes node-2 disk=ssd")
	p.runKubectl("kubectl taint nodes node-1 k=v:NoExecute")
	p.advance(5)
	if msg := eval[string](p, `dsplay.failNode("node-2")`); msg != "" {
		p.t.Fatalf("failNode: %s", msg)
	}
	p.advance(61.5)
}

// A share link reopened in a new tab shows the same cluster: same pods
// (names included), same clock, same timeline.
func TestShareLinkReopens(t *testing.T) {
	p := open(t, "?paused")
	p.session()
	want := p.state()

	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("share"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("share-panel").hidden && document.getElementById("share-url").value !== ""`, "the share link")
	link := eval[string](p, `document.getElementById("share-url").value`)
	if !strings.HasPrefix(link, baseURL+"/#s=") {
		t.Fatalf("share link %q, want %s/#s=...", link, baseURL)
	}
	msg := eval[string](p, `document.getElementById("share-msg").textContent`)
	if !strings.Contains(msg, "Link copied") && !strings.Contains(msg, "Ctrl/⌘ + C") {
		t.Errorf("share message %q", msg)
	}
	info := evalAwait[map[string]any](p, `dsplay.shareLink()`)
	t.Logf("share link: scenario %v bytes, fragment %v characters", info["scenarioBytes"], info["fragmentBytes"])
	if info["url"] != link || info["tooLong"] != false {
		t.Errorf("dsplay.shareLink() = %v, the panel shows %s", info, link)
	}
	p.screenshot("dsplay-share")

	// Reopen (paused, so the clock stands where the link left it).
	q := openURL(t, strings.Replace(link, "/#s=", "/?paused#s=", 1))
	got := q.state()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the reopened link shows another cluster.\nshared:   %+v\nreopened: %+v", want, got)
	}
	if a, b := eval[string](p, `document.getElementById("yaml").value`), eval[string](q, `document.getElementById("yaml").value`); a != b {
		t.Errorf("the reopened link's editor holds %q, the original %q", b, a)
	}
	if len(want.Pods) < 3 || len(want.Steps) < 5 {
		t.Errorf("the session is too small to test anything: %+v", want)
	}
	// It plays on from there like the original.
	p.advance(30)
	q.advance(30)
	if a, b := p.state(), q.state(); !reflect.DeepEqual(a, b) {
		t.Errorf("30 s later the two tabs differ.\noriginal: %+v\nreopened: %+v", a, b)
	}
	q.checkConsole()
	p.checkConsole()
}

// A link to a damaged fragment says so and starts on a clean cluster.
func TestShareLinkDamaged(t *testing.T) {
	p := open(t, "?paused#s=AAAA-not-deflate")
	p.waitJS(`document.getElementById("apply-result").textContent.includes("Could not load the share link")`, "the error")
	if n := eval[int](p, `dsplay.pods().length`); n != 0 {
		t.Errorf("a damaged link left %d pods (want a clean cluster)", n)
	}
}

// A state too long for a link offers the scenario file instead.
func TestShareTooLong(t *testing.T) {
	p := open(t, "?paused")
	// ConfigMaps of random text: deflate cannot shrink them under the guard.
	eval[string](p, `(() => {
		const rnd = () => Array.from(crypto.getRandomValues(new Uint8Array(1200)), (b) => (b % 36).toString(36)).join("");
		let y = "";
		for (let i = 0; i < 12; i++) y += "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-" + i + "\ndata:\n  k: " + rnd() + "\n";
		return dsplay.apply(y);
	})()`)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("share"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("share-msg").textContent.includes("too long for a link")`, "the too-long message")
	if !eval[bool](p, `document.getElementById("share-url").hidden && document.activeElement.id === "share-download"`) {
		t.Errorf("a too-long link is still offered, or the download button has not the focus")
	}
	// The download button hands over the scenario (the Blob behind the
	// link it clicks is read back; the page's CSP refuses fetch of blob:).
	text := evalAwait[string](p, `new Promise((resolve) => {
		const create = URL.createObjectURL, click = HTMLAnchorElement.prototype.click;
		let blob = null;
		URL.createObjectURL = (b) => { blob = b; return create.call(URL, b); };
		HTMLAnchorElement.prototype.click = function () {
			URL.createObjectURL = create;
			HTMLAnchorElement.prototype.click = click;
			blob.text().then((t) => resolve(this.download + "\n" + t));
		};
		document.getElementById("share-download").click();
	})`)
	name, body, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(name, "dsplay-scenario-t") || !strings.HasSuffix(name, ".txtar") || !strings.Contains(body, "-- manifest.yaml --") || !strings.Contains(body, "-- .dsplay/inputs.json --") {
		t.Errorf("download %q:\n%.400s", name, body)
	}
	p.checkConsole()
}

// Export a session as .txtar, import it through the file picker in another
// tab: the same cluster. A broken scenario and a broken YAML file leave the
// cluster as it was and say where the problem is.
func TestExportImportTxtar(t *testing.T) {
	p := open(t, "?paused")
	p.session()
	want := p.state()
	scenario := eval[string](p, `dsplay.exportScenario()`)
	dir := t.TempDir()
	file := filepath.Join(dir, "session.txtar")
	if err := os.WriteFile(file, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}

	q := open(t, "?paused")
	q.advance(3)
	if err := chromedp.Do(q.ctx, chromedp.Click(chromedp.ID("share"))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(q.ctx, chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file})); err != nil {
		t.Fatal(err)
	}
	q.waitJS(`document.getElementById("kout").textContent.includes("Replayed session.txtar")`, "the import")
	if got := q.state(); !reflect.DeepEqual(got, want) {
		t.Errorf("the imported scenario shows another cluster.\nexported: %+v\nimported: %+v", want, got)
	}

	// A broken scenario: its line, and the cluster unchanged.
	before := q.state()
	msg := eval[string](q, `dsplay.importText("broken.txtar", "kubectl get pods\nadvance 10s\nnode explode node-1\n")`)
	if !strings.Contains(msg, "broken.txtar:3:") {
		t.Errorf("a broken scenario's error %q does not name line 3", msg)
	}
	q.waitJS(`document.getElementById("apply-result").textContent.includes("Could not import broken.txtar")`, "the import error under the editor")
	if after := q.state(); !reflect.DeepEqual(after, before) {
		t.Errorf("a failed import changed the cluster:\nbefore %+v\nafter  %+v", before, after)
	}
	// A YAML file with a tab: its line under the editor, the editor and
	// the cluster unchanged; opened in the editor, line:column marked.
	yfile := filepath.Join(dir, "bad.yaml")
	os.WriteFile(yfile, []byte("apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n\tname: broken\n"), 0o644)
	text := eval[string](q, `document.getElementById("yaml").value`)
	if err := chromedp.Do(q.ctx, chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{yfile})); err != nil {
		t.Fatal(err)
	}
	q.waitJS(`document.getElementById("apply-result").textContent.includes("Could not import bad.yaml") && !!document.querySelector("#apply-result button.import-open")`, "the YAML error")
	if got := eval[string](q, `document.getElementById("yaml").value`); got != text {
		t.Errorf("a failed YAML import changed the editor's text to %q", got)
	}
	q.click(`#apply-result button.import-open`)
	q.waitJS(`document.querySelector("#apply-result.err li[data-line='4']") !== null`, "the YAML error on line 4")
	if after := q.state(); !reflect.DeepEqual(after.Pods, before.Pods) {
		t.Errorf("a failed YAML import changed the pods")
	}
	// A good YAML file is applied.
	gfile := filepath.Join(dir, "good.yaml")
	os.WriteFile(gfile, []byte(strings.Replace(dsDemo, "name: ds-demo", "name: ds-two", 1)), 0o644)
	if err := chromedp.Do(q.ctx, chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{gfile})); err != nil {
		t.Fatal(err)
	}
	q.waitJS(`document.getElementById("apply-result").textContent.includes("daemonset.apps/ds-two created")`, "the YAML applied")
	// Dropped on the editor: a scenario is replayed.
	eval[chromedp.Void](q, fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%q], "dropped.txtar", {type: "text/plain"}));
		const ed = document.getElementById("editor");
		ed.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true}));
		ed.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, scenario))
	q.waitJS(`document.getElementById("kout").textContent.includes("Replayed dropped.txtar")`, "the dropped scenario replayed")
	if got := q.state(); !reflect.DeepEqual(got, want) {
		t.Errorf("the dropped scenario shows another cluster.\nexported: %+v\ndropped:  %+v", want, got)
	}
	q.checkConsole()
}
