package browsertest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/dsplayground/dsplay/site"
)

var (
	bundleOnce sync.Once
	bundleFile string
	bundleErr  error
)

// bundlePath writes the one-file bundle of the test build (site.Bundle,
// what `make bundle` writes) once and returns its path.
func bundlePath(t *testing.T) string {
	t.Helper()
	setup(t)
	bundleOnce.Do(func() {
		var b []byte
		b, bundleErr = site.Bundle(os.DirFS(buildInfo.Dir))
		if bundleErr != nil {
			return
		}
		bundleFile = filepath.Join(tmpDir, "dsplay-playground.html")
		bundleErr = os.WriteFile(bundleFile, b, 0o644)
	})
	if bundleErr != nil {
		t.Fatal(bundleErr)
	}
	return bundleFile
}

// goOffline cuts the tab off the network (every http(s) request fails);
// file:// still loads.
func (p *page) goOffline() {
	p.t.Helper()
	err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}},
		})
		return err
	}))
	if err != nil {
		p.t.Fatalf("going offline: %v", err)
	}
}

// The bundle opened from file:// with the network off becomes ready and
// runs kubectl: everything it needs is inside the one file.
func TestBundleFromFile(t *testing.T) {
	path := bundlePath(t)
	st, _ := os.Stat(path)
	t.Logf("bundle %s: %.2f MB (wasm %.2f MB, gzip %.2f MB)", filepath.Base(path), float64(st.Size())/1e6,
		float64(buildInfo.WasmBytes)/1e6, float64(buildInfo.WasmGzipBytes)/1e6)

	p := newTab(t)
	p.goOffline()
	if err := chromedp.Do(p.ctx, chromedp.Navigate("file://"+path+"?paused")); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the bundle to start from file://")
	if got := eval[string](p, `location.protocol`); got != "file:" {
		t.Fatalf("the bundle runs from %s", got)
	}
	p.advance(10)
	out := eval[map[string]any](p, `dsplay.run("kubectl get nodes")`)
	stdout, _ := out["stdout"].(string)
	for _, n := range []string{"control-plane", "node-1", "node-2", "Ready"} {
		if !strings.Contains(stdout, n) {
			t.Errorf("kubectl get nodes printed %q (stderr %v), want %s", stdout, out["stderr"], n)
		}
	}
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1", "fluentd Running on node-1 in the bundle")
	// The lessons and exercises are inside (in the wasm).
	if eval[bool](p, `typeof dsplay.lessons === "function"`) {
		kinds := eval[[]string](p, `dsplay.lessons().map(l => l.kind)`)
		lessons, exercises := 0, 0
		for _, k := range kinds {
			switch k {
			case "lesson":
				lessons++
			case "exercise":
				exercises++
			}
		}
		t.Logf("the bundle holds %d lessons and %d exercises", lessons, exercises)
		if lessons == 0 || exercises == 0 {
			t.Errorf("the bundle holds %d lessons and %d exercises", lessons, exercises)
		}
	}
	// Share says the link opens only this file, and offers the download.
	p.click("#share")
	p.waitJS(`document.getElementById("share-msg").textContent.includes("opens only here")`, "Share's note that a file:// link opens only this file")
	if !eval[bool](p, `!document.getElementById("share-download").hidden`) {
		t.Error("Share in the bundle hides Download scenario")
	}
	// It loaded nothing but itself.
	if urls := eval[[]string](p, `performance.getEntriesByType("resource").map(e => e.name).filter(n => !n.startsWith("data:"))`); len(urls) != 0 {
		t.Errorf("the bundle loaded %v", urls)
	}
	p.checkConsole()
}

// The built web root works from any static file server: Go's
// http.FileServer as it is, and one that sends the wasm with a wrong MIME
// type (the loader compiles the whole buffer then).
func TestStaticHost(t *testing.T) {
	setup(t)
	tests := []struct {
		name     string
		wrapMIME bool
	}{
		{"http.FileServer", false},
		{"wrong MIME type", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsrv := http.FileServer(http.Dir(buildInfo.Dir))
			h := http.Handler(fsrv)
			if tc.wrapMIME {
				h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if strings.HasSuffix(r.URL.Path, ".wasm") {
						w.Header().Set("Content-Type", "application/octet-stream")
					}
					fsrv.ServeHTTP(w, r)
				})
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			p := openURL(t, srv.URL+"/?paused")
			got := eval[string](p, `(performance.getEntriesByType("resource").find(e => e.name.endsWith(".wasm")) || {name: ""}).name`)
			if !strings.HasSuffix(got, "/"+buildInfo.WasmName) {
				t.Errorf("the page loaded the wasm from %q, want %s", got, buildInfo.WasmName)
			}
			out := eval[map[string]any](p, `dsplay.run("kubectl get nodes")`)
			if s, _ := out["stdout"].(string); !strings.Contains(s, "node-2") {
				t.Errorf("kubectl get nodes printed %q", s)
			}
			// embed.html too.
			openURL(t, srv.URL+"/embed.html?start=auto&paused")
			p.checkConsole()
		})
	}
}
