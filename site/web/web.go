// Package web is the one http.Handler that serves the playground: the local
// server (site/cmd/serve), the Cloudflare Worker (site/worker wraps it with
// syumai/workers) and the tests all use New.
//
// It serves a web root written by site.Build:
//
//   - MIME types from the file extension (application/wasm for .wasm, which
//     WebAssembly.instantiateStreaming insists on), never sniffed.
//   - Pre-compressed siblings: for NAME, the files NAME.br (brotli) and
//     NAME.gz (gzip) are sent instead when the request's Accept-Encoding
//     allows them, the higher q-value winning and br before gzip before
//     identity on a tie; with Content-Encoding, Vary: Accept-Encoding,
//     Content-Length of what is sent and X-Uncompressed-Length (the loader's
//     progress bar). The siblings themselves are not served (404).
//   - Content-hashed names (NAME.<16 hex digits>.EXT, see IsHashed) are
//     immutable: Cache-Control: public, max-age=31536000, immutable. HTML
//     and every other file are revalidated (no-cache). Every file has a
//     strong ETag (per encoding; a hashed name's comes from the name), so
//     revalidation costs a 304.
//   - Security headers: X-Content-Type-Options: nosniff and
//     Referrer-Policy: no-referrer everywhere; HTML gets the
//     Content-Security-Policy of CSP (only our own scripts and wasm).
//   - GET and HEAD (405 with Allow otherwise), ranges (http.ServeContent),
//     404 for what is not there. "/" is index.html, "/NAME" also finds
//     NAME.html (so /embed serves embed.html). A path with a trailing
//     slash naming a file (/embed/, /index.html/) is redirected (301) to
//     the path without it, query kept: served there, the page's relative
//     asset URLs would resolve under the slash and 404.
//   - /api and /api/... go to Options.API (site/api.New by default).
//
// The package compiles for GOOS=js (the Worker): it uses no os, os/exec or
// file paths, only the fs.FS it is given.
package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dsplayground/dsplay/site/api"
)

// Options tune New. The zero value is what the site uses.
type Options struct {
	// API serves /api and /api/...; nil means api.New(api.Options{}).
	API http.Handler
	// NoAPI leaves /api out (404), for a purely static server.
	NoAPI bool
	// FrameAncestors is the frame-ancestors source list of the full page
	// (index.html without ?embed); default "'self'". embed.html, any page
	// with ?embed in its URL and the bundle may be framed by any origin
	// ("*"): tutorials embed them.
	FrameAncestors string
}

// CSP returns the Content-Security-Policy sent with HTML pages, with the
// given frame-ancestors source list:
//
//   - script-src 'self' 'wasm-unsafe-eval': scripts only from our own files
//     (no inline scripts, no event-handler attributes, no eval), and the
//     right to compile WebAssembly (instantiateStreaming).
//   - style-src 'self': style sheets only from our files. The Go UI sets
//     styles through the CSSOM (element.style.setProperty), which CSP does
//     not restrict; no HTML string it writes carries a style="..."
//     attribute (`grep -n 'style=' wasm/*.go` is empty), so 'unsafe-inline'
//     is not needed. A style attribute added later shows up as a
//     securitypolicyviolation in site/browsertest/csp_test.go.
//   - connect-src 'self': fetch of the wasm (and /api).
//   - img-src 'self' data:: the page's icon is the empty data: URL.
//   - default-src 'none' for everything else; base-uri 'none';
//     form-action 'self'; object-src 'none'.
func CSP(frameAncestors string) string {
	return "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
		"img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; " +
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors " + frameAncestors
}

// ImmutableCache is the Cache-Control of content-hashed files.
const ImmutableCache = "public, max-age=31536000, immutable"

// hashedName matches NAME.<16 lower-case hex digits>.EXT, what site.Build
// names the wasm, scripts and style sheets.
var hashedName = regexp.MustCompile(`^(?:.*/)?[^/]+\.[0-9a-f]{16}\.[a-z0-9]+$`)

// IsHashed reports whether a file name carries a content hash
// (main.0123456789abcdef.wasm): its content never changes.
func IsHashed(name string) bool { return hashedName.MatchString(name) }

// contentTypes are the MIME types the web root needs.
var contentTypes = map[string]string{
	".html":  "text/html; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".wasm":  "application/wasm",
	".json":  "application/json",
	".map":   "application/json",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".webp":  "image/webp",
	".ico":   "image/x-icon",
	".txt":   "text/plain; charset=utf-8",
	".md":    "text/markdown; charset=utf-8",
	".txtar": "text/plain; charset=utf-8",
	".yaml":  "text/yaml; charset=utf-8",
	".woff2": "font/woff2",
}

// ContentType returns the MIME type served for a file name
// (application/octet-stream when the extension is unknown).
func ContentType(name string) string {
	if ct, ok := contentTypes[path.Ext(name)]; ok {
		return ct
	}
	return "application/octet-stream"
}

// encodings are the pre-compressed siblings, in order of preference.
var encodings = []struct{ name, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

type handler struct {
	root fs.FS
	o    Options
	api  http.Handler

	mu    sync.Mutex
	etags map[etagKey]string
}

type etagKey struct {
	name string
	size int64
	mod  time.Time
}

// New returns the handler serving root (a web root written by site.Build,
// or any directory of files) and /api. root is read on every request, so a
// rebuilt web root is served at once; ETags are remembered by name, size
// and modification time.
func New(root fs.FS, o Options) http.Handler {
	if o.FrameAncestors == "" {
		o.FrameAncestors = "'self'"
	}
	h := &handler{root: root, o: o, etags: map[etagKey]string{}}
	if !o.NoAPI {
		h.api = o.API
		if h.api == nil {
			h.api = api.New(api.Options{})
		}
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	if p := r.URL.Path; p == "/api" || strings.HasPrefix(p, "/api/") {
		if h.api == nil {
			http.NotFound(w, r)
			return
		}
		h.api.ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if p := r.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
		// path.Clean drops the slash and any "//" or "..", so the
		// Location is a path of this site ("//evil.example/" cleans to
		// "/evil.example", never a scheme-relative URL).
		to := path.Clean(p)
		if _, _, ok := h.find(to); ok && to != "/" {
			if r.URL.RawQuery != "" {
				to += "?" + r.URL.RawQuery
			}
			hd.Set("Location", to)
			hd.Set("Cache-Control", "no-cache")
			w.WriteHeader(http.StatusMovedPermanently)
			return
		}
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	name, st, ok := h.find(r.URL.Path)
	if !ok {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}

	ct := ContentType(name)
	hd.Set("Content-Type", ct)
	hd.Set("Vary", "Accept-Encoding")
	if IsHashed(name) {
		hd.Set("Cache-Control", ImmutableCache)
	} else {
		hd.Set("Cache-Control", "no-cache")
	}
	if strings.HasPrefix(ct, "text/html") {
		fa := h.o.FrameAncestors
		if path.Base(name) == "embed.html" || r.URL.Query().Has("embed") {
			fa = "*"
		}
		hd.Set("Content-Security-Policy", CSP(fa))
	}

	serve := name
	for _, e := range preferred(r.Header.Get("Accept-Encoding")) {
		if est, err := fs.Stat(h.root, name+e.suffix); err == nil && est.Mode().IsRegular() {
			hd.Set("Content-Encoding", e.name)
			hd.Set("X-Uncompressed-Length", strconv.FormatInt(st.Size(), 10))
			serve, st = name+e.suffix, est
			break
		}
	}
	f, err := h.root.Open(serve)
	if err != nil {
		fail(w, "404 page not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		// An fs.FS over something else (the Worker's assets): read it
		// whole; the largest file is the compressed wasm, a few MB.
		b, err := io.ReadAll(f)
		if err != nil {
			fail(w, "500 internal server error", http.StatusInternalServerError)
			return
		}
		rs = bytes.NewReader(b)
	}
	tag, err := h.etag(name, serve, st, rs)
	if err != nil {
		fail(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	hd.Set("ETag", tag)
	if hd.Get("Content-Encoding") != "" {
		// ServeContent leaves Content-Length out when Content-Encoding is
		// set (for handlers that compress on the fly); ours is the size
		// of the pre-compressed file. Ranges and 304s replace or drop it.
		hd.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	}
	http.ServeContent(w, r, "", st.ModTime(), rs)
}

// find maps a URL path to a file of the root: "/" is index.html, a path
// without an extension also tries NAME.html. Compressed siblings, paths
// leaving the root and directories are not found.
func (h *handler) find(urlPath string) (string, fs.FileInfo, bool) {
	name := strings.TrimPrefix(path.Clean("/"+urlPath), "/")
	if name == "" {
		name = "index.html"
	}
	if strings.HasSuffix(name, ".gz") || strings.HasSuffix(name, ".br") || !fs.ValidPath(name) {
		return "", nil, false
	}
	try := []string{name}
	if path.Ext(name) == "" {
		try = append(try, name+".html")
	}
	for _, n := range try {
		st, err := fs.Stat(h.root, n)
		if err == nil && st.Mode().IsRegular() {
			return n, st, true
		}
	}
	return "", nil, false
}

// etag returns a strong ETag for serve, the file sent for name (itself or
// its .br/.gz sibling). A hashed name carries its content's hash: the tag
// is that hash plus the encoding ("<hash>", "<hash>-br", "<hash>-gzip"),
// with no read (the Worker starts a fresh instance per request, so nothing
// is remembered there). Other files get the first 16 hex digits of their
// SHA-256, remembered by name, size and modification time.
func (h *handler) etag(name, serve string, st fs.FileInfo, rs io.ReadSeeker) (string, error) {
	if IsHashed(name) {
		base := strings.TrimSuffix(name, path.Ext(name))
		tag := base[len(base)-16:]
		switch strings.TrimPrefix(serve, name) {
		case ".br":
			tag += "-br"
		case ".gz":
			tag += "-gzip"
		}
		return `"` + tag + `"`, nil
	}
	k := etagKey{serve, st.Size(), st.ModTime()}
	h.mu.Lock()
	tag, ok := h.etags[k]
	h.mu.Unlock()
	if ok {
		return tag, nil
	}
	sum := sha256.New()
	if _, err := io.Copy(sum, rs); err != nil {
		return "", err
	}
	if _, err := rs.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	tag = `"` + hex.EncodeToString(sum.Sum(nil)[:8]) + `"`
	h.mu.Lock()
	h.etags[k] = tag
	h.mu.Unlock()
	return tag, nil
}

// preferred returns the pre-compressed encodings an Accept-Encoding header
// allows, best first: by q-value (RFC 9110 §12.5.3; "*" stands for every
// coding not named; q=0 refuses), br before gzip on a tie. Identity is
// always acceptable as the last resort, so it is not listed.
func preferred(accept string) []struct{ name, suffix string } {
	q := map[string]float64{}
	star := -1.0
	for _, part := range strings.Split(accept, ",") {
		token, params, _ := strings.Cut(part, ";")
		token = strings.ToLower(strings.TrimSpace(token))
		if token == "" {
			continue
		}
		val := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				val = f
			}
		}
		if token == "*" {
			star = val
			continue
		}
		if token == "x-gzip" {
			token = "gzip"
		}
		q[token] = val
	}
	var out []struct{ name, suffix string }
	best := func(e string) float64 {
		if v, ok := q[e]; ok {
			return v
		}
		if star >= 0 {
			return star
		}
		return 0
	}
	for _, e := range encodings {
		if best(e.name) > 0 {
			out = append(out, e)
		}
	}
	// Stable: br before gzip on equal q.
	if len(out) == 2 && best(out[1].name) > best(out[0].name) {
		out[0], out[1] = out[1], out[0]
	}
	return out
}

// fail answers an error after the file's headers were set: it drops the
// ones that describe the file (its encoding, caching, ETag, size, CSP), as
// net/http's serveError does, so a plain-text error is neither labelled br
// nor cached for a year as an immutable asset.
func fail(w http.ResponseWriter, msg string, code int) {
	h := w.Header()
	for _, k := range []string{"Cache-Control", "Content-Encoding", "ETag", "X-Uncompressed-Length", "Content-Security-Policy", "Last-Modified"} {
		h.Del(k)
	}
	http.Error(w, msg, code)
}
