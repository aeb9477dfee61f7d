package workertest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// chromium finds the browser as site/browsertest does: DSPLAY_CHROMIUM,
// Debian's /usr/bin/chromium, or chromium on PATH.
func chromium() (string, error) {
	if p := os.Getenv("DSPLAY_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("DSPLAY_CHROMIUM=%s: %v", p, err)
		}
		return p, nil
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("chromium is missing: install it with `apt-get install -y chromium` (as root), or set DSPLAY_SKIP_BROWSER=1 to skip the browser tests")
}

// cspViolations records every securitypolicyviolation of a document from
// before its first script (added by DevTools, outside the page's policy).
const cspViolations = `window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
	window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline"));
}, true);`

// loadStats is what the page reports once it is ready.
type loadStats struct {
	State      string   `json:"state"`
	CSP        []string `json:"csp"`
	Transfer   float64  `json:"transfer"` // bytes over the wire, headers included
	Decoded    float64  `json:"decoded"`  // bytes after content decoding
	WasmName   string   `json:"wasmName"`
	WasmWire   float64  `json:"wasmWire"`   // encodedBodySize of the wasm
	WasmBytes  float64  `json:"wasmBytes"`  // decodedBodySize of the wasm
	ReadyMark  float64  `json:"readyMark"`  // performance mark dsplay-ready, ms since navigation start
	Resources  int      `json:"resources"`  // resources fetched
	Navigation string   `json:"navigation"` // the document's URL
}

const statsJS = `JSON.stringify((() => {
	const nav = performance.getEntriesByType("navigation")[0];
	let transfer = nav.transferSize, decoded = nav.decodedBodySize, wasmName = "", wasmWire = 0, wasmBytes = 0;
	const res = performance.getEntriesByType("resource");
	for (const e of res) {
		transfer += e.transferSize; decoded += e.decodedBodySize;
		if (/\.wasm$/.test(new URL(e.name).pathname)) { wasmName = e.name; wasmWire = e.encodedBodySize; wasmBytes = e.decodedBodySize; }
	}
	const mark = performance.getEntriesByName("dsplay-ready")[0];
	return {state: document.documentElement.dataset.state || "", csp: window.__cspViolations || [],
		transfer, decoded, wasmName, wasmWire, wasmBytes, readyMark: mark ? mark.startTime : -1,
		resources: res.length, navigation: location.href};
})())`

// TestBrowser opens the page and embed.html from the Worker in headless
// Chromium: the Go program must start (the wasm arrived intact through
// the Worker, compressed, under the page's CSP), with no CSP violation.
// It logs the load time (navigation to interactive) and the bytes
// transferred.
func TestBrowser(t *testing.T) {
	if os.Getenv("DSPLAY_SKIP_BROWSER") == "1" {
		t.Skip("DSPLAY_SKIP_BROWSER=1")
	}
	exe, err := chromium()
	if err != nil {
		t.Fatal(err)
	}
	s := worker(t)

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(1280, 900),
	)
	defer cancelAlloc()
	browser, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}

	// Each page cold (a new browser context: empty cache), then the page
	// again in the context that loaded embed.html (warm: the hashed files
	// come from the cache, the HTML is revalidated).
	var warm context.Context
	cancelWarm := func() {}
	defer func() { cancelWarm() }()
	for _, tc := range []struct{ name, path string }{
		{"index", "/"},
		{"embed", "/embed.html"},
		{"index warm", "/"},
	} {
		path := tc.path
		t.Run(tc.name, func(t *testing.T) {
			var tab context.Context
			var cancelTab context.CancelFunc
			if warm == nil {
				tab, cancelTab = chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
			} else {
				tab, cancelTab = chromedp.NewContext(warm)
			}
			if tc.name == "embed" {
				warm, cancelWarm = tab, cancelTab // kept open for the warm load
			} else {
				defer cancelTab()
			}
			ctx, cancel := context.WithTimeout(tab, 2*time.Minute)
			defer cancel()
			err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspViolations})
				return err
			}))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := chromedp.Do(ctx, chromedp.Navigate(s.base+path)); err != nil {
				t.Fatal(err)
			}
			ready := `document.documentElement.dataset.state === "ready" || document.documentElement.dataset.state === "error"`
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](ready, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
				t.Fatalf("waiting for %s to get ready: %v\nworkerd log:\n%s", path, err, s.log)
			}
			wall := time.Since(start)
			raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](statsJS))
			if err != nil {
				t.Fatal(err)
			}
			var st loadStats
			if err := json.Unmarshal([]byte(raw), &st); err != nil {
				t.Fatalf("%v: %s", err, raw)
			}
			if st.State != "ready" {
				t.Fatalf("%s: the page's state is %q, want ready (%s)", path, st.State, raw)
			}
			if len(st.CSP) > 0 {
				t.Errorf("%s: CSP violations: %v", path, st.CSP)
			}
			if !strings.Contains(st.WasmName, "/"+s.hashedWasm(t)) {
				t.Errorf("%s loaded wasm %q, want the hashed %s", path, st.WasmName, s.hashedWasm(t))
			}
			if warm == nil || tc.name == "embed" {
				if st.WasmWire <= 0 || st.WasmWire >= st.WasmBytes/2 {
					t.Errorf("%s: the wasm came as %.0f bytes for %.0f decoded: want it compressed", path, st.WasmWire, st.WasmBytes)
				}
			} else if st.Transfer > 100e3 {
				t.Errorf("%s warm: %.0f bytes transferred, want the hashed files from the cache (immutable)", path, st.Transfer)
			}
			t.Logf("%s (%s) from the Worker: interactive %.0f ms after navigation start (mark dsplay-ready; %v wall); "+
				"%d resources, %.3f MB transferred (%.2f MB decoded); wasm %.2f MB on the wire for %.2f MB",
				path, tc.name, st.ReadyMark, wall.Round(time.Millisecond), st.Resources, st.Transfer/1e6, st.Decoded/1e6, st.WasmWire/1e6, st.WasmBytes/1e6)
		})
	}
}
