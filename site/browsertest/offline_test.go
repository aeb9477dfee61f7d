package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dsplayground/dsplay/site/web"
)

// Offline after the first visit (static/sw.js): load, stop the server,
// reload, apply a manifest. Then a new version: the server is back with
// another build's worker, which installs in the background and is offered;
// the page keeps the old one until the learner reloads through the offer,
// and the old version's cache is gone afterwards.
func TestOfflineAfterFirstVisit(t *testing.T) {
	setup(t)
	sw, err := os.ReadFile(filepath.Join(buildInfo.Dir, "sw.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const VERSION = "([0-9a-f]{16})"`).FindSubmatch(sw)
	if m == nil {
		t.Fatalf("sw.js names no VERSION:\n%.300s", sw)
	}
	version := string(m[1])
	newSW := strings.Replace(string(sw), version, "0000000000000002", 1)

	var down, updated atomic.Bool
	inner := web.New(os.DirFS(buildInfo.Dir), web.Options{NoAPI: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			// the network is gone: the connection closes unanswered
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		if updated.Load() && r.URL.Path == "/sw.js" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			fmt.Fprint(w, newSW)
			return
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	p := openURL(t, srv.URL+"/?paused")
	p.waitJS(`navigator.serviceWorker.controller !== null`, "the service worker to control the page")
	keys := evalAwait[[]string](p, `caches.keys()`)
	if len(keys) != 1 || keys[0] != "dsplay-"+version {
		t.Fatalf("caches %v, want [dsplay-%s]", keys, version)
	}
	if !evalAwait[bool](p, `caches.open("dsplay-`+version+`").then(c => c.match(`+jsString(buildInfo.WasmName)+`)).then(r => !!r)`) {
		t.Fatal("the wasm is not precached")
	}

	down.Store(true)
	p.reload()
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", dsDemo)); msg != "" {
		t.Fatalf("apply offline: %s", msg)
	}
	p.advance(10)
	p.waitJS(`dsplay.pods().filter((x) => x.owner === "ds-demo" && x.phase === "Running").length >= 2`, "ds-demo running offline")
	if eval[bool](p, `!document.getElementById("sw-update").hidden`) {
		t.Error("an update offered while offline")
	}
	// an embed of the offline site in a tutorial: framed (the cached
	// embed.html lets any site frame it), and it starts
	var tutorialOrigin string
	tutorial := serveHTML(t, func(*http.Request) string {
		return fmt.Sprintf(parentHTML, iframe(srv.URL+"/?embed&paused&start=auto&origin="+tutorialOrigin, 600, 400), srv.URL)
	})
	tutorialOrigin = tutorial.URL
	e := openParentBeside(t, tutorial.URL+"/t.html", p)
	e.waitJS(`events(0, "dsplay:ready").length === 1`, "the offline embed to start")

	// A new version.
	down.Store(false)
	updated.Store(true)
	evalAwait[bool](p, `navigator.serviceWorker.getRegistration().then(r => r.update()).then(() => true)`)
	p.waitJS(`!document.getElementById("sw-update").hidden`, "the offer of the new version")
	// still the old version: the running page is not swapped
	if got := eval[string](p, `navigator.serviceWorker.controller.scriptURL`); !strings.HasSuffix(got, "/sw.js") {
		t.Errorf("controller %s", got)
	}
	elapsed := eval[float64](p, `dsplay.elapsed()`)
	if elapsed < 10 {
		t.Errorf("the session moved under the update: t=%v", elapsed)
	}
	p.screenshot("offline-update-offer")
	eval[bool](p, `(window.__beforeUpdate = true)`)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("sw-reload"))); err != nil {
		t.Fatal(err)
	}
	p.waitAcrossReload(`!window.__beforeUpdate && document.documentElement.dataset.state === "ready" && document.getElementById("sw-update").hidden`, "the page reloaded on the new version")
	p.waitJS(`dsplay.elapsed() >= `+fmt.Sprint(elapsed), "the saved session back after the update")
	p.instant()
	keys = evalAwait[[]string](p, `caches.keys()`)
	if len(keys) != 1 || keys[0] != "dsplay-0000000000000002" {
		t.Errorf("caches after the update %v, want only the new version's", keys)
	}
	p.checkConsole()
}

// waitAcrossReload polls cond while the page navigates (an evaluation
// that fails because the page went away is tried again).
func (p *page) waitAcrossReload(cond, what string) {
	p.t.Helper()
	deadline := time.Now().Add(2 * pollTimeout)
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`(function(){ try { return !!(`+cond+`); } catch (e) { return false; } })()`))
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("waiting for %s (%s)", what, cond)
}
