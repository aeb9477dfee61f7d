package browsertest

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Robustness of share links, imports and the embed API against input that
// would freeze the page or lose the learner's cluster (wasm/share.go,
// importexport.go, postmessage.go, embed.go).

// stuckScenario waits 100 times 24 hours (the longest wait a scenario
// may ask for) for a rollout that cannot finish: its image is missing.
var stuckScenario = `registry lacks nginx:9.9
kubectl apply -f ds.yaml
` + strings.Repeat("wait rollout ds/x --timeout=24h\n", 100) + `-- ds.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: x
spec:
  selector:
    matchLabels: {app: x}
  template:
    metadata:
      labels: {app: x}
    spec:
      containers:
      - name: x
        image: nginx:9.9
`

// crashLog is a share archive whose input log advances a crash-looping
// DaemonSet by a million hours.
const crashLog = `# hand-made
-- ds.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: crash
spec:
  selector:
    matchLabels: {app: crash}
  template:
    metadata:
      labels: {app: crash}
    spec:
      containers:
      - name: c
        image: busybox:1.36
        command: ["false"]
-- .dsplay/inputs.json --
{"v":1,"at":0,"in":[{"k":"apply","name":"ds.yaml","f":"ds.yaml"},{"k":"advance","ms":3600000000000}]}
`

// fragment is the share fragment of a scenario (as the page makes it).
func fragment(t *testing.T, scenario string) string {
	t.Helper()
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(scenario))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// A scenario file and a pasted share link that would replay for ever stop
// after 10 s of wall time, say where, and leave the learner's cluster as
// it was.
func TestRobustReplayBudget(t *testing.T) {
	p := open(t, "?paused")
	p.session()
	before := p.state()

	start := time.Now()
	msg := eval[string](p, fmt.Sprintf(`dsplay.importText("stuck.txtar", %q)`, stuckScenario))
	took := time.Since(start)
	t.Logf("stuck.txtar refused after %v: %s", took.Round(time.Millisecond), msg)
	if want := "it ran longer than 10 s (stopped at: wait rollout ds/x --timeout=24h)"; !strings.Contains(msg, want) {
		t.Errorf("import error %q, want %q", msg, want)
	}
	if took > 25*time.Second {
		t.Errorf("the import took %v", took)
	}
	p.waitJS(`document.getElementById("apply-result").textContent.includes("The file stuck.txtar could not be replayed: it ran longer than 10 s")`, "the budget message under the editor")
	if after := p.state(); !reflect.DeepEqual(after, before) {
		t.Errorf("a stopped import changed the cluster:\nbefore %+v\nafter  %+v", before, after)
	}

	// A pasted link (hashchange) of a crash-looping pod advanced a
	// million hours.
	start = time.Now()
	eval[chromedp.Void](p, fmt.Sprintf(`location.hash = "s=%s"`, fragment(t, crashLog)))
	p.waitJS(`document.getElementById("kout").textContent.includes("The share link could not be replayed: it ran longer than 10 s (stopped at: advance ")`, "the link's budget message")
	t.Logf("the pasted link was refused after %v", time.Since(start).Round(time.Millisecond))
	if after := p.state(); !reflect.DeepEqual(after, before) {
		t.Errorf("a stopped link changed the cluster:\nbefore %+v\nafter  %+v", before, after)
	}
	p.checkConsole()
}

// Importing a scenario, or opening a pasted link, sets the learner's
// cluster aside; "Restore my cluster" brings it back as it was.
func TestRobustImportSetsClusterAside(t *testing.T) {
	p := open(t, "?paused")
	p.session()
	before := p.state()
	if msg := eval[string](p, `dsplay.importText("small.txtar", "node add extra-1\nadvance 5s\n")`); msg != "" {
		t.Fatalf("import: %s", msg)
	}
	p.waitJS(`document.getElementById("kout").textContent.includes("Replayed small.txtar")`, "the import")
	if got := p.state(); reflect.DeepEqual(got, before) || got.Elapsed != 5 {
		t.Fatalf("the import did not replace the cluster: %+v", got)
	}
	p.waitJS(`document.getElementById("import-restore") !== null`, "the Restore my cluster button")
	note := eval[string](p, `document.getElementById("import-restore").parentElement.textContent`)
	if !strings.Contains(note, "was set aside to open small.txtar") {
		t.Errorf("the note says %q", note)
	}
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("import-restore"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("kout").textContent.includes("Your own cluster is back")`, "the cluster restored")
	if after := p.state(); !reflect.DeepEqual(after, before) {
		t.Errorf("the restored cluster differs:\nbefore %+v\nafter  %+v", before, after)
	}

	// The same through a pasted link.
	eval[chromedp.Void](p, fmt.Sprintf(`location.hash = "s=%s"`, fragment(t, "node add extra-2\nadvance 7s\n")))
	p.waitJS(`document.getElementById("kout").textContent.includes("Replayed share link")`, "the link replayed")
	p.waitJS(`document.getElementById("import-restore") !== null`, "the Restore my cluster button")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("import-restore"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("kout").textContent.includes("Your own cluster is back")`, "the cluster restored")
	if after := p.state(); !reflect.DeepEqual(after, before) {
		t.Errorf("the cluster restored after a link differs:\nbefore %+v\nafter  %+v", before, after)
	}
	p.checkConsole()
}

// A YAML file of more than 5,000 nodes is refused before it is applied
// (9,000 flow-style nodes froze the page for 13 s).
func TestRobustYAMLNodeCap(t *testing.T) {
	p := open(t, "?paused")
	var b strings.Builder
	for i := range 9000 {
		fmt.Fprintf(&b, "---\n{apiVersion: v1, kind: Node, metadata: {name: n-%d, labels: {pool: big}}}\n", i)
	}
	t.Logf("manifest: %d KB", b.Len()/1000)
	start := time.Now()
	msg := eval[string](p, fmt.Sprintf(`dsplay.importText("nodes.yaml", %q)`, b.String()))
	t.Logf("refused after %v: %s", time.Since(start).Round(time.Millisecond), msg)
	if !strings.Contains(msg, "it adds 9,000 nodes") || !strings.Contains(msg, "at most 5,000 nodes") {
		t.Errorf("import error %q", msg)
	}
	if n := eval[int](p, `document.querySelectorAll(".node").length`); n != 3 {
		t.Errorf("the page shows %d nodes, want the 3 it had", n)
	}
	p.checkConsole()
}

// dsplay:step refuses NaN and steps under 1 ms; origin= is compared as the
// browser serializes origins (HTTP://HOST works), and a value that is no
// origin is named in a warning.
func TestRobustEmbedStepAndOrigin(t *testing.T) {
	setup(t)
	var parentOrigin string
	parent := serveHTML(t, func(*http.Request) string {
		src := embedURL("paused&origin=" + url.QueryEscape(strings.Replace(parentOrigin, "http://", "HTTP://", 1)+"/") + "&origin=example.com")
		return fmt.Sprintf(parentHTML, iframe(src, 600, 400), baseURL)
	})
	parentOrigin = parent.URL
	p := openParent(t, parent.URL+"/tutorial.html")
	p.waitJS(`events(0, "dsplay:ready").length === 1`, "dsplay:ready to an origin= written in capitals")
	for _, tc := range []struct{ id, secs string }{{"nan", "NaN"}, {"tiny", "1e-12"}, {"inf", "Infinity"}} {
		eval[chromedp.Void](p, fmt.Sprintf(`send(0, {type: "dsplay:step", id: %q, seconds: %s})`, tc.id, tc.secs))
		if r := replyOf[map[string]any](p, tc.id); r["type"] != "dsplay:error" || !strings.Contains(fmt.Sprint(r["error"]), "a number from 0.001 to 3600") {
			t.Errorf("step %s replied %v", tc.secs, r)
		}
	}
	eval[chromedp.Void](p, `send(0, {type: "dsplay:step", id: "ok", seconds: 0.5})`)
	if st := replyOf[stateReply](p, "ok"); st.Type != "dsplay:state" || st.Elapsed != 0.5 {
		t.Errorf("a 0.5 s step replied %+v", st)
	}
	// (the frame is another origin: the banner is checked on a page of its own)
	q := open(t, "?embed&paused&origin=example.com&origin=HTTPS://OK.EXAMPLE:443")
	q.waitJS(`document.getElementById("embed-warning") !== null`, "the embed warning")
	if got := eval[string](q, `document.getElementById("embed-warning").textContent`); !strings.Contains(got, "origin= example.com is not an origin") {
		t.Errorf("embed warning %q", got)
	}
}
