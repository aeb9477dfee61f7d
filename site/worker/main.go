//go:build js && wasm

// Command worker is the DaemonSet Playground as a Cloudflare Worker: the
// same http.Handler as `make serve` (package site/web: the built web root
// with hashed, pre-compressed assets, and /api), run by
// github.com/syumai/workers.
//
// The web root is not embedded in this binary (main.wasm alone is larger
// than a Worker may be): it is uploaded as Workers Static Assets, and the
// handler reads it through the ASSETS binding (see assetFS). wrangler.toml
// sets run_worker_first, so every request, assets included, reaches this
// handler and gets its headers (CSP, caching, content encoding).
//
// Build with `make worker` (GOOS=js GOARCH=wasm); see README.md.
package main

import (
	"net/http"
	"runtime"
	"strconv"
	"syscall/js"
	"time"

	"github.com/syumai/workers"
	"github.com/syumai/workers/cloudflare"
)

// buildTime is the Worker's build time (RFC 3339, set by `make worker`
// with -ldflags=-X main.buildTime=...): the modification time of every
// asset, since the ASSETS binding reports none. Empty means unknown (no
// Last-Modified header).
var buildTime string

func main() {
	var mod time.Time
	if buildTime != "" {
		mod, _ = time.Parse(time.RFC3339, buildTime)
	}
	binding := cloudflare.GetBinding("ASSETS")
	if binding.Type() != js.TypeObject {
		workers.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "the Worker has no ASSETS binding (see site/worker/wrangler.toml)", http.StatusInternalServerError)
		}))
		return
	}
	assets := newAssetFS(binding, mod)
	h := newHandler(assets)
	debug := cloudflare.Getenv("DSPLAY_DEBUG") != ""
	workers.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if debug {
			w = &countingWriter{ResponseWriter: w, fsys: assets}
		}
		h.ServeHTTP(w, r)
		assets.Release()
	}))
}

// countingWriter adds X-Dsplay-Asset-Fetches (how many ASSETS fetches the
// request needed before its headers were sent) and X-Dsplay-Go-Sys (the
// bytes the Go runtime had obtained, about the instance's linear memory)
// when DSPLAY_DEBUG is set; the Worker test reads them.
type countingWriter struct {
	http.ResponseWriter
	fsys  *assetFS
	wrote bool
}

func (c *countingWriter) WriteHeader(code int) {
	if !c.wrote {
		c.wrote = true
		c.fsys.mu.Lock()
		n := c.fsys.fetches
		c.fsys.mu.Unlock()
		c.Header().Set("X-Dsplay-Asset-Fetches", strconv.Itoa(n))
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		c.Header().Set("X-Dsplay-Go-Sys", strconv.FormatUint(ms.Sys, 10))
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *countingWriter) Write(b []byte) (int, error) {
	if !c.wrote {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}
