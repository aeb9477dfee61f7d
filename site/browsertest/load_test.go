package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/dsplayground/dsplay/site/web"
)

// loadFigures are a page load's measurements, read from the page itself.
type loadFigures struct {
	// ReadyMs is the "dsplay-ready" mark (wasm/main.go sets it when the
	// page is interactive), in ms since the navigation started.
	ReadyMs float64 `json:"readyMs"`
	// Transferred is the bytes over the wire (Resource Timing
	// transferSize: headers and encoded bodies) of the page and every
	// resource; Encoded and Decoded the bodies' sizes before and after
	// Content-Encoding.
	Transferred, Encoded, Decoded float64
	// Resources is how many resources the page loaded (the document not
	// counted).
	Resources int
	// WasmEncoded, WasmDecoded are the wasm's body sizes.
	WasmEncoded, WasmDecoded float64
}

// measureJS reads loadFigures from the page (and its same-origin frames).
const measureJS = `(function(){
	const out = {readyMs: 0, Transferred: 0, Encoded: 0, Decoded: 0, Resources: 0, WasmEncoded: 0, WasmDecoded: 0};
	const mark = performance.getEntriesByName("dsplay-ready")[0];
	out.readyMs = mark ? mark.startTime : -1;
	const add = (e) => {
		out.Transferred += e.transferSize || 0;
		out.Encoded += e.encodedBodySize || 0;
		out.Decoded += e.decodedBodySize || 0;
	};
	const wins = [window, ...[...document.querySelectorAll("iframe")].map(f => f.contentWindow)];
	for (const w of wins) {
		let perf;
		try { perf = w.performance; perf.getEntries(); } catch (e) { continue; }
		if (w === window) perf.getEntriesByType("navigation").forEach(add);
		for (const e of perf.getEntriesByType("resource")) {
			add(e);
			out.Resources++;
			if (e.name.endsWith(".wasm")) { out.WasmEncoded += e.encodedBodySize; out.WasmDecoded += e.decodedBodySize; }
		}
	}
	return out;
})()`

// coldTab opens a tab whose HTTP cache is off, so a load transfers
// everything as a first visit does.
func coldTab(t *testing.T) *page {
	t.Helper()
	p := newTab(t)
	err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// measureLoad navigates a cold tab to url, waits until the page is ready
// and returns its figures.
func measureLoad(t *testing.T, url string) (*page, loadFigures) {
	t.Helper()
	p := coldTab(t)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready" && performance.getEntriesByName("dsplay-ready").length > 0`, "the page to become interactive")
	return p, eval[loadFigures](p, measureJS)
}

// TestLoadFigures measures navigation to interactive and the bytes
// transferred for the site (site/web with brotli), an embed and the
// bundle from file://. It logs the figures and checks only that
// compression works and the mark is there; it asserts no timing.
//
//	DSPLAY_BROTLI_QUALITY=11 go test ./site/browsertest -run TestLoadFigures -v
func TestLoadFigures(t *testing.T) {
	setup(t)
	t.Logf("build: %s %.2f MB raw, gzip %.2f MB, brotli (quality %d) %.2f MB", buildInfo.WasmName,
		float64(buildInfo.WasmBytes)/1e6, float64(buildInfo.WasmGzipBytes)/1e6, brotliQuality(), float64(buildInfo.WasmBrotliBytes)/1e6)
	cases := []struct {
		name, url string
		file      bool
	}{
		{"site (index.html, br)", baseURL + "/?paused", false},
		{"embed (embed.html, start=auto)", baseURL + "/embed.html?start=auto&paused", false},
		{"bundle (file://)", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if tc.file {
				url = "file://" + bundlePath(t) + "?paused"
			}
			p, f := measureLoad(t, url)
			if f.ReadyMs <= 0 {
				t.Fatalf("no dsplay-ready mark: %+v", f)
			}
			if tc.file {
				st, _ := os.Stat(bundlePath(t))
				t.Logf("%s: interactive %.0f ms after navigation start; %d resources; the file is %.2f MB (read from disk, no transfer)",
					tc.name, f.ReadyMs, f.Resources, float64(st.Size())/1e6)
				if f.Resources != 0 {
					t.Errorf("the bundle loaded %d resources", f.Resources)
				}
				return
			}
			t.Logf("%s: interactive %.0f ms after navigation start; transferred %.2f MB (bodies %.2f MB encoded, %.2f MB decoded) in %d resources + the page; wasm %.2f MB on the wire for %.2f MB",
				tc.name, f.ReadyMs, f.Transferred/1e6, f.Encoded/1e6, f.Decoded/1e6, f.Resources, f.WasmEncoded/1e6, f.WasmDecoded/1e6)
			// Sanity: the wasm came compressed (brotli is under 25% of the
			// raw size; gzip under 30%), and the transfer is about the wasm.
			if f.WasmDecoded != float64(buildInfo.WasmBytes) {
				t.Errorf("the wasm decoded to %.0f bytes, want %d", f.WasmDecoded, buildInfo.WasmBytes)
			}
			if f.WasmEncoded <= 0 || f.WasmEncoded > 0.3*f.WasmDecoded {
				t.Errorf("the wasm was sent with %.0f bytes for %.0f: not compressed", f.WasmEncoded, f.WasmDecoded)
			}
			if f.Transferred < f.WasmEncoded || f.Transferred > f.WasmEncoded+1e6 {
				t.Errorf("transferred %.0f bytes for a %.0f-byte wasm", f.Transferred, f.WasmEncoded)
			}
			p.checkConsole()
		})
	}
}

// An embed that waits for its click (or to be scrolled to) costs the page,
// style sheet and scripts only: no wasm, no Go runtime.
func TestWaitingEmbedFigures(t *testing.T) {
	setup(t)
	p := coldTab(t)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(baseURL+"/embed.html?start=click")); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("start-playground") !== null`, "the start button")
	f := eval[loadFigures](p, measureJS)
	t.Logf("embed waiting for a click (embed.html?start=click): transferred %.1f KB in %d resources + the page; wasm %.0f bytes",
		f.Transferred/1e3, f.Resources, f.WasmEncoded)
	if f.WasmEncoded != 0 || f.Transferred <= 0 || f.Transferred > 200e3 {
		t.Errorf("a waiting embed transferred %.0f bytes (wasm %.0f)", f.Transferred, f.WasmEncoded)
	}
	if got := eval[string](p, `document.documentElement.dataset.state`); got != "waiting" {
		t.Errorf("state %q, want waiting", got)
	}
	p.checkConsole()
}

// tutorialPage is a tutorial with four embeds: two at the top (start=visible
// by default, and start=click), two far below (visible, click).
const tutorialPage = `<!doctype html><html><head><meta charset="utf-8"><title>tutorial</title><link rel="icon" href="data:,">
<style>iframe{display:block;width:900px;height:500px;border:1px solid #888} .gap{height:5000px}</style></head>
<body><h1>A tutorial</h1>
<iframe id="a" src="/embed.html?paused"></iframe>
<iframe id="b" src="/embed.html?start=click&paused"></iframe>
<div class="gap"></div>
<iframe id="c" src="/embed.html?paused"></iframe>
<iframe id="d" src="/embed.html?start=click&paused"></iframe>
</body></html>`

// tutorialServer serves the tutorial page beside the site, same origin.
func tutorialServer(t *testing.T) *httptest.Server {
	t.Helper()
	site := web.New(os.DirFS(buildInfo.Dir), web.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/tutorial.html" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, tutorialPage)
			return
		}
		site.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// frameJS is a JS expression on iframe id's document.
func frameJS(id, expr string) string {
	return fmt.Sprintf(`(function(){ const d = document.getElementById(%q).contentDocument; const w = document.getElementById(%q).contentWindow; return %s; })()`, id, id, expr)
}

// Embeds start lazily: the visible one at once, a click one on its button,
// the ones below the fold when scrolled to, and a postMessage starts one.
func TestEmbedsStartLazily(t *testing.T) {
	setup(t)
	srv := tutorialServer(t)
	p := coldTab(t)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(srv.URL+"/tutorial.html")); err != nil {
		t.Fatal(err)
	}
	state := func(id string) string { return frameJS(id, `d.documentElement.dataset.state`) }
	p.waitJS(state("a")+` === "ready"`, "the visible embed to start")
	p.waitJS(frameJS("b", `d.getElementById("start-playground") !== null`), "the click embed's start button")
	for _, id := range []string{"b", "c", "d"} {
		if got := eval[string](p, state(id)); got != "waiting" {
			t.Errorf("embed %s is %q before it is seen or clicked, want waiting", id, got)
		}
		if eval[bool](p, frameJS(id, `w.__dsplayBoot.started`)) {
			t.Errorf("embed %s started", id)
		}
	}
	f := eval[loadFigures](p, measureJS)
	t.Logf("tutorial with 4 embeds, 1 visible and started: %.2f MB transferred in %d resources (wasm %.2f MB)", f.Transferred/1e6, f.Resources, f.WasmEncoded/1e6)
	if wasms := eval[int](p, `[...document.querySelectorAll("iframe")].map(f => f.contentWindow.performance.getEntriesByType("resource").filter(e => e.name.endsWith(".wasm")).length).reduce((a, b) => a + b, 0)`); wasms != 1 {
		t.Errorf("%d wasm downloads with one embed started, want 1", wasms)
	}
	if label := eval[string](p, frameJS("b", `d.getElementById("start-playground").textContent`)); !strings.Contains(label, "Start the playground") {
		t.Errorf("start button reads %q", label)
	}

	// Click starts b.
	eval[chromedp.Void](p, frameJS("b", `d.getElementById("start-playground").click()`))
	p.waitJS(state("b")+` === "ready"`, "the clicked embed to start")
	if eval[bool](p, frameJS("b", `d.getElementById("start-playground") !== null`)) {
		t.Errorf("the start button stays after the start")
	}

	// Scrolling c into view starts it; d (start=click) stays.
	eval[chromedp.Void](p, `document.getElementById("c").scrollIntoView()`)
	p.waitJS(state("c")+` === "ready"`, "the embed scrolled into view to start")
	if got := eval[string](p, state("d")); got != "waiting" {
		t.Errorf("the click embed d is %q once visible, want waiting", got)
	}

	// A message to d starts it, and is kept for the page.
	eval[chromedp.Void](p, `document.getElementById("d").contentWindow.postMessage({type: "dsplay:run", id: 1, command: "kubectl get nodes"}, "*")`)
	p.waitJS(frameJS("d", `w.__dsplayBoot.started`), "a message to start the embed")
	p.waitJS(state("d")+` === "ready"`, "the embed started by a message to become ready")
	p.checkConsole()
}

// The boot queue (CONTRACTS.md): messages wait in __dsplayBoot.queue while
// no handler is set, then go to the handler.
func TestBootQueueContract(t *testing.T) {
	setup(t)
	srv := tutorialServer(t)
	p := newTab(t)
	if err := chromedp.Do(p.ctx, chromedp.Navigate(srv.URL+"/embed.html?start=click&paused")); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!!window.__dsplayBoot && document.getElementById("start-playground") !== null`, "the embed waiting for a click")
	shape := eval[string](p, `(function(){ const b = window.__dsplayBoot; return [Array.isArray(b.queue), b.handler === null, b.started === false, typeof b.start].join(","); })()`)
	if shape != "true,true,true,function" {
		t.Errorf("__dsplayBoot is %s, want queue [], handler null, started false, start()", shape)
	}
	// A message that is not ours is queued but does not start the runtime.
	eval[chromedp.Void](p, `window.postMessage("hello", "*")`)
	p.waitJS(`window.__dsplayBoot.queue.length === 1`, "the message to be queued")
	if eval[bool](p, `window.__dsplayBoot.started`) {
		t.Errorf("a foreign message started the runtime")
	}
	// start() starts it; Go takes the handler and drains the queue.
	eval[chromedp.Void](p, `window.__dsplayBoot.start()`)
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the embed to start")
	p.waitJS(`typeof window.__dsplayBoot.handler === "function" && window.__dsplayBoot.queue.length === 0`, "Go to take the handler and drain the queue")
}
