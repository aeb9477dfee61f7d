package browsertest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Embeds: the playground in iframes of a tutorial page served from
// another origin (a second server: another port is another origin), driven
// through postMessage (wasm/postmessage.go, docs/embedding.md).

// parentHTML is a tutorial page: its iframes, a log of every message it
// receives (window.msgs: {frame, origin, data}) and send(i, msg), which
// posts msg to iframe i with the playground's origin as targetOrigin.
const parentHTML = `<!doctype html>
<html><head><meta charset="utf-8"><title>tutorial</title>
<style>body{margin:0} iframe{border:0;display:block} .spacer{height:3000px}</style></head>
<body>
%s
<script>
window.msgs = [];
const frames = () => [...document.querySelectorAll("iframe")];
addEventListener("message", (ev) => {
  window.msgs.push({frame: frames().findIndex((f) => f.contentWindow === ev.source), origin: ev.origin, data: ev.data});
});
window.send = (i, msg) => frames()[i].contentWindow.postMessage(msg, %q);
window.reply = (id) => window.msgs.find((m) => m.data && m.data.id === id);
window.events = (i, type) => window.msgs.filter((m) => m.frame === i && m.data && m.data.type === type).map((m) => m.data);
</script>
</body></html>`

// senderHTML is a page of a third origin that, told "go", posts a
// dsplay:apply to its parent's first frame (the playground): a message
// from an origin the embed does not allow.
const senderHTML = `<!doctype html><html><body><script>
addEventListener("message", (ev) => {
  if (ev.data !== "go") return;
  parent.frames[0].postMessage({type: "dsplay:apply", id: "evil", yaml: %q}, "*");
  parent.frames[0].postMessage({type: "dsplay:run", id: "evil-run", command: "kubectl delete ds fluentd-elasticsearch"}, "*");
});
</script></body></html>`

const evilDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: evil
spec:
  selector:
    matchLabels: {app: evil}
  template:
    metadata:
      labels: {app: evil}
    spec:
      containers:
      - name: c
        image: busybox:1.36
        command: ["sleep", "infinity"]
`

// serveHTML starts a server answering every path with body; it is closed
// when the test ends.
func serveHTML(t *testing.T, body func(r *http.Request) string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body(r))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// openParent opens a tab on a parent page (no waiting for any embed).
func openParent(t *testing.T, pageURL string) *page {
	t.Helper()
	return openParentBeside(t, pageURL, nil)
}

// openParentBeside is openParent in the browser context of beside's tab
// (nil: a new one).
func openParentBeside(t *testing.T, pageURL string, beside *page) *page {
	t.Helper()
	p := newTabIn(t, beside)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(pageURL)); err != nil {
		t.Fatal(err)
	}
	return p
}

// embedURL is the playground's URL for an iframe with the given query.
func embedURL(query string) string { return baseURL + "/?embed&" + query }

// iframe is an <iframe> element for src. (Not loading="lazy": the
// frames below the fold must load, so that what keeps them from starting
// is the playground's own lazy start.)
func iframe(src string, w, h int) string {
	return fmt.Sprintf(`<iframe src="%s" width="%d" height="%d" title="DaemonSet Playground"></iframe>`, htmlAttr(src), w, h)
}

func htmlAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;").Replace(s)
}

// replyOf waits for the reply with this id and returns its data.
func replyOf[T any](p *page, id string) T {
	p.t.Helper()
	p.waitJS(fmt.Sprintf(`!!reply(%q)`, id), "the reply to "+id)
	return eval[T](p, fmt.Sprintf(`reply(%q).data`, id))
}

type stateReply struct {
	Type       string  `json:"type"`
	Elapsed    float64 `json:"elapsed"`
	Playing    bool    `json:"playing"`
	Steps      int     `json:"steps"`
	DaemonSets []struct {
		Name                             string
		Desired, Current, Ready, Updated int
		Available                        int
	} `json:"daemonSets"`
	Pods []struct {
		Name, Node, Phase, Owner string
	} `json:"pods"`
}

func TestEmbedPostMessage(t *testing.T) {
	setup(t)
	var parentOrigin string
	sender := serveHTML(t, func(*http.Request) string { return fmt.Sprintf(senderHTML, evilDS) })
	parent := serveHTML(t, func(*http.Request) string {
		frames := iframe(embedURL("paused&origin="+url.QueryEscape(parentOrigin)), 600, 400) +
			fmt.Sprintf(`<iframe src="%s/" width="10" height="10" title="another site"></iframe>`, sender.URL)
		return fmt.Sprintf(parentHTML, frames, baseURL)
	})
	parentOrigin = parent.URL
	p := openParent(t, parent.URL+"/tutorial.html")

	// ready arrives by itself, to this origin only.
	p.waitJS(`events(0, "dsplay:ready").length === 1`, "dsplay:ready from the embed")
	if got := eval[string](p, `msgs.find((m) => m.data.type === "dsplay:ready").origin`); got != baseURL {
		t.Errorf("dsplay:ready came from origin %q, want the playground's %q", got, baseURL)
	}
	if !eval[bool](p, `events(0, "dsplay:ready")[0].embed === true`) {
		t.Errorf("dsplay:ready does not say embed: %s", eval[string](p, `JSON.stringify(events(0, "dsplay:ready"))`))
	}

	// apply -> applied (with the id), then the controller's decisions.
	eval[chromedp.Void](p, fmt.Sprintf(`send(0, {type: "dsplay:apply", id: "a1", yaml: %q})`, dsDemo))
	applied := replyOf[map[string]any](p, "a1")
	if applied["type"] != "dsplay:applied" || !strings.Contains(fmt.Sprint(applied["output"]), "daemonset.apps/ds-demo created") {
		t.Errorf("apply replied %v", applied)
	}
	p.waitJS(`events(0, "dsplay:decisions").some((e) => e.decisions.some((d) => d.object.includes("ds-demo")))`, "decisions about ds-demo")

	// step -> state; run -> result.
	eval[chromedp.Void](p, `send(0, {type: "dsplay:step", id: "s1", seconds: 10})`)
	st := replyOf[stateReply](p, "s1")
	if st.Type != "dsplay:state" || st.Elapsed != 10 || st.Playing {
		t.Errorf("step replied type %s, elapsed %g, playing %v; want dsplay:state at 10 s, paused", st.Type, st.Elapsed, st.Playing)
	}
	running := 0
	for _, pod := range st.Pods {
		if pod.Owner == "ds-demo" && pod.Phase == "Running" {
			running++
		}
	}
	if running != 3 {
		t.Errorf("after 10 s %d ds-demo pods run, want 3: %+v", running, st.Pods)
	}
	eval[chromedp.Void](p, `send(0, {type: "dsplay:run", id: 7, command: "kubectl get pods"})`)
	p.waitJS(`!!reply(7)`, "the reply to the run (a numeric id)")
	res := eval[map[string]any](p, `reply(7).data`)
	if res["type"] != "dsplay:result" || res["exitCode"] != float64(0) || !strings.Contains(fmt.Sprint(res["stdout"]), "ds-demo-") || res["stderr"] != "" {
		t.Errorf("run replied %v", res)
	}

	// An error: line and column.
	eval[chromedp.Void](p, `send(0, {type: "dsplay:apply", id: "bad", yaml: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n\tname: x\n"})`)
	bad := replyOf[map[string]any](p, "bad")
	ds, _ := bad["diagnostics"].([]any)
	if bad["type"] != "dsplay:error" || len(ds) == 0 || ds[0].(map[string]any)["line"] != float64(4) {
		t.Errorf("a tab-indented manifest replied %v, want dsplay:error with a diagnostic on line 4", bad)
	}
	eval[chromedp.Void](p, `send(0, {type: "dsplay:nope", id: "n"})`)
	if r := replyOf[map[string]any](p, "n"); r["type"] != "dsplay:error" || !strings.Contains(fmt.Sprint(r["error"]), "unknown message type") {
		t.Errorf("an unknown type replied %v", r)
	}

	// play, pause and reset answer with the state.
	eval[chromedp.Void](p, `send(0, {type: "dsplay:play", id: "play"})`)
	if st := replyOf[stateReply](p, "play"); !st.Playing {
		t.Errorf("play replied playing=false")
	}
	eval[chromedp.Void](p, `send(0, {type: "dsplay:pause", id: "pause"})`)
	if st := replyOf[stateReply](p, "pause"); st.Playing || st.Elapsed < 10 {
		t.Errorf("pause replied %+v", st)
	}
	eval[chromedp.Void](p, `send(0, {type: "dsplay:step", id: "s2", seconds: -1})`)
	if r := replyOf[map[string]any](p, "s2"); r["type"] != "dsplay:error" {
		t.Errorf("a negative step replied %v", r)
	}
	eval[chromedp.Void](p, `send(0, {type: "dsplay:reset", id: "reset"})`)
	if st := replyOf[stateReply](p, "reset"); st.Elapsed != 0 || len(st.DaemonSets) != 1 || st.DaemonSets[0].Name != "fluentd-elasticsearch" {
		t.Errorf("reset replied %+v, want t=0 with the starting example only", st)
	}
	eval[chromedp.Void](p, fmt.Sprintf(`send(0, {type: "dsplay:apply", id: "a2", yaml: %q})`, dsDemo))
	replyOf[map[string]any](p, "a2")

	// Another origin's messages are ignored: no reply, nothing applied or deleted.
	eval[chromedp.Void](p, `document.querySelectorAll("iframe")[1].contentWindow.postMessage("go", "*")`)
	time.Sleep(500 * time.Millisecond)
	eval[chromedp.Void](p, `send(0, {type: "dsplay:state", id: "st"})`)
	st = replyOf[stateReply](p, "st")
	for _, d := range st.DaemonSets {
		if d.Name == "evil" {
			t.Errorf("a message from a disallowed origin applied a DaemonSet")
		}
	}
	if len(st.DaemonSets) != 2 {
		t.Errorf("DaemonSets %+v, want fluentd-elasticsearch and ds-demo (a disallowed origin's delete must be ignored)", st.DaemonSets)
	}
	if eval[bool](p, `!!reply("evil") || !!reply("evil-run")`) {
		t.Errorf("the disallowed origin's messages got replies")
	}

	// Sized to the iframe: no page scrollbars; the height the panes need
	// (at least the frame's: more when a pane overflows, P1 item 4 and
	// TestP1EmbedResizeReportsOverflow), and a new size is reported once.
	p.waitJS(`events(0, "dsplay:resize").length > 0`, "a dsplay:resize event")
	last := eval[map[string]float64](p, `(({height, width}) => ({height, width}))(events(0, "dsplay:resize").at(-1))`)
	if last["height"] < 400 || last["width"] > 600 {
		t.Errorf("a 600x400 embed with two panes reports a content size of %gx%g", last["width"], last["height"])
	}
	p.screenshot("dsplay-embed-600x400")
	eval[chromedp.Void](p, `document.querySelector("iframe").width = 560`)
	p.waitJS(`events(0, "dsplay:resize").at(-1).width === 560`, "the new width reported")
	sizes := eval[[]map[string]float64](p, `events(0, "dsplay:resize").map(({height, width}) => ({height, width}))`)
	for i := 1; i < len(sizes); i++ {
		if sizes[i]["height"] == sizes[i-1]["height"] && sizes[i]["width"] == sizes[i-1]["width"] {
			t.Errorf("dsplay:resize repeated an unchanged size: %v", sizes)
			break
		}
	}
	// The embed's chrome: no title, no share, the two default panes.
	p.checkConsole()
}

// The same page with several embeds starts only the one in view; the next
// starts when scrolled to (D's lazy start, boot.js).
func TestEmbedLazyStart(t *testing.T) {
	setup(t)
	var parentOrigin string
	parent := serveHTML(t, func(*http.Request) string {
		src := embedURL("paused&origin=" + url.QueryEscape(parentOrigin))
		var b strings.Builder
		b.WriteString(iframe(src, 600, 400))
		for i := 0; i < 4; i++ {
			b.WriteString(`<div class="spacer"></div>` + iframe(src, 600, 400))
		}
		return fmt.Sprintf(parentHTML, b.String(), baseURL)
	})
	parentOrigin = parent.URL
	p := openParent(t, parent.URL+"/several.html")
	p.waitJS(`events(0, "dsplay:ready").length === 1`, "the first embed to start")
	// the others have loaded their page (boot.js waits for them to be seen)
	p.waitJS(`[...document.querySelectorAll("iframe")].every((f) => { try { return f.contentWindow.length >= 0; } catch (e) { return false; } })`, "the frames")
	time.Sleep(time.Second)
	if n := eval[int](p, `msgs.filter((m) => m.data.type === "dsplay:ready").length`); n != 1 {
		t.Fatalf("%d embeds started, want only the one in view", n)
	}
	eval[chromedp.Void](p, `document.querySelectorAll("iframe")[2].scrollIntoView()`)
	p.waitJS(`events(2, "dsplay:ready").length === 1`, "the third embed to start once scrolled to")
	if n := eval[int](p, `msgs.filter((m) => m.data.type === "dsplay:ready").length`); n != 2 {
		t.Errorf("%d embeds started, want 2 (the first and the one scrolled to)", n)
	}
	// A message to an embed that has not started starts it, and is answered.
	eval[chromedp.Void](p, `send(4, {type: "dsplay:state", id: "wake"})`)
	st := replyOf[stateReply](p, "wake")
	if st.Type != "dsplay:state" {
		t.Errorf("a message to a sleeping embed replied %+v", st)
	}
}

// Embed parameters: panes, readonly, reset, a manifest preloaded, checked
// in the embed page itself (same origin as the test's tab).
func TestEmbedParameters(t *testing.T) {
	manifest := url.QueryEscape(dsDemo)
	p := open(t, "?embed&paused&readonly&reset&panes=editor,cluster,timeline&yaml="+manifest)
	visible := eval[map[string]bool](p, `(() => {
		const shown = (sel) => { const e = document.querySelector(sel); return !!e && e.getClientRects().length > 0; };
		return {title: shown(".topbar h1"), share: shown("#share"), editor: shown(".editor-pane"), cluster: shown(".cluster-pane"),
			timeline: shown("#timeline"), console: shown(".kubectl-pane"), decisions: shown(".log-pane"), apply: shown("#apply"),
			reset: shown("#embed-reset"), play: shown("#play"), examples: shown("#examples")};
	})()`)
	want := map[string]bool{"title": false, "share": false, "editor": true, "cluster": true, "timeline": true, "console": false,
		"decisions": false, "apply": false, "reset": true, "play": true, "examples": false}
	for k, v := range want {
		if visible[k] != v {
			t.Errorf("%s shown = %v, want %v", k, visible[k], v)
		}
	}
	if !eval[bool](p, `document.getElementById("yaml").readOnly`) {
		t.Errorf("the editor is not read-only")
	}
	p.advance(10)
	p.waitJS(`document.querySelectorAll('.pod:not(.gone)[data-owner="ds-demo"][data-status="Running"]').length === 3`, "the preloaded ds-demo running")
	if n := eval[int](p, `document.querySelectorAll('.pod:not(.gone)[data-owner="fluentd-elasticsearch"]').length`); n != 0 {
		t.Errorf("the default example was applied too (%d fluentd pods)", n)
	}
	// Ctrl+Enter in the read-only editor applies nothing.
	if err := chromedp.Do(p.ctx, chromedp.Focus(chromedp.ID("yaml")), chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl))); err != nil {
		t.Fatal(err)
	}
	if s := eval[string](p, `document.getElementById("apply-result").textContent`); strings.Contains(s, "unchanged") {
		t.Errorf("Ctrl+Enter applied in read-only mode: %q", s)
	}
	// The node panel shows its checks, not its actions.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-1"]`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	if eval[bool](p, `[...document.querySelectorAll("#panel .node-actions")].some((e) => e.getClientRects().length > 0)`) {
		t.Errorf("read-only: the node panel shows its actions")
	}
	// Reset: back to the preloaded state at t=0.
	p.runKubectlJS("kubectl delete ds ds-demo")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("embed-reset"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`dsplay.elapsed() === 0 && dsplay.pods().filter((p) => p.owner === "ds-demo").length === 3`, "reset to the preloaded ds-demo")
	p.checkConsole()
}

// runKubectlJS runs a command through window.dsplay (the console input is
// hidden in read-only mode).
func (p *page) runKubectlJS(line string) {
	p.t.Helper()
	b, _ := json.Marshal(line)
	eval[map[string]any](p, "dsplay.run("+string(b)+")")
}

// lesson= opens a lesson in the embed (C1's player), instead of the
// default example; an unknown one says so.
func TestEmbedLesson(t *testing.T) {
	p := open(t, "?embed&paused&lesson=01-one-pod-per-node")
	p.waitJS(`!document.getElementById("lesson").hidden && document.getElementById("lesson-title").textContent !== ""`, "the lesson panel")
	if n := eval[int](p, `dsplay.pods().filter((p) => p.owner === "fluentd-elasticsearch").length`); n != 0 {
		t.Errorf("the default example was applied under the lesson (%d fluentd pods)", n)
	}
	if !eval[bool](p, `document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth`) {
		t.Errorf("the embed with a lesson has page scrollbars: %s", eval[string](p, `document.documentElement.scrollWidth + "x" + document.documentElement.scrollHeight`))
	}
	p.screenshot("dsplay-embed-lesson")
	p.checkConsole()

	q := open(t, "?embed&paused&lesson=no-such-lesson")
	q.waitJS(`document.getElementById("apply-result").textContent.includes("Could not load the lesson no-such-lesson")`, "the error")
}

// A page posting a request to itself gets one reply: the reply (marked
// source "dsplay-playground") is not taken for another request.
func TestPostMessageToSelfNoLoop(t *testing.T) {
	p := open(t, "?paused")
	n := evalAwait[int](p, `new Promise((resolve) => {
		let n = 0;
		addEventListener("message", (ev) => { if (ev.data && ev.data.type === "dsplay:state") n++; });
		postMessage({type: "dsplay:state", id: "self"}, location.origin);
		setTimeout(() => resolve(n), 800);
	})`)
	// the request itself and its one reply
	if n != 2 {
		t.Errorf("%d dsplay:state messages went round, want 2 (the request and its reply)", n)
	}
	p.checkConsole()
}
