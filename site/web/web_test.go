package web

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

const (
	wasmName = "main.0123456789abcdef.wasm"
	page     = "<!doctype html><title>x</title>"
)

var wasm = []byte("\x00asm\x01\x00\x00\x00 pretend this is a module, long enough to be worth compressing")

func testRoot(t *testing.T) fstest.MapFS {
	var br bytes.Buffer
	bw := brotli.NewWriter(&br)
	bw.Write(wasm)
	bw.Close()
	return fstest.MapFS{
		"index.html":                  {Data: []byte(page)},
		"embed.html":                  {Data: []byte(page + "embed")},
		"style.0123456789abcdef.css":  {Data: []byte("body{}")},
		"boot.js":                     {Data: []byte("'use strict'")},
		wasmName:                      {Data: wasm},
		wasmName + ".gz":              {Data: gzipped(t, wasm)},
		wasmName + ".br":              {Data: br.Bytes()},
		"only-gz.txt":                 {Data: []byte("plain")},
		"only-gz.txt.gz":              {Data: gzipped(t, []byte("plain"))},
		"sub/a.txt":                   {Data: []byte("a")},
		"lessons/01-one-pod.txtar":    {Data: []byte("# title: x")},
		"unknown.bin":                 {Data: []byte{1, 2, 3}},
		"dir.0123456789abcdef.js/x":   {Data: []byte("a file under a directory with a hashed name")},
		"weird.0123456789abcdef.wasm": {Data: []byte("x")},
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// do sends one request without the transport's transparent gzip, so the
// raw encoding is visible.
func do(t *testing.T, srvURL, method, path string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, srvURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func decode(t *testing.T, enc string, b []byte) []byte {
	t.Helper()
	var r io.Reader
	switch enc {
	case "":
		return b
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	default:
		t.Fatalf("unknown encoding %q", enc)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFiles(t *testing.T) {
	srv := httptest.NewServer(New(testRoot(t), Options{NoAPI: true}))
	defer srv.Close()
	immutable, noCache := ImmutableCache, "no-cache"
	tests := []struct {
		method, path, accept string
		status               int
		contentType          string
		encoding             string
		cache                string
		frameAncestors       string // "" = no CSP header expected
		body                 string
	}{
		{"GET", "/", "", 200, "text/html; charset=utf-8", "", noCache, "'self'", page},
		{"GET", "/index.html", "br", 200, "text/html; charset=utf-8", "", noCache, "'self'", page},
		{"GET", "/?embed", "", 200, "text/html; charset=utf-8", "", noCache, "*", page},
		{"GET", "/?lesson=x&embed=1", "", 200, "text/html; charset=utf-8", "", noCache, "*", page},
		{"GET", "/embed.html", "", 200, "text/html; charset=utf-8", "", noCache, "*", page + "embed"},
		{"GET", "/embed", "", 200, "text/html; charset=utf-8", "", noCache, "*", page + "embed"},
		{"GET", "/style.0123456789abcdef.css", "", 200, "text/css; charset=utf-8", "", immutable, "", "body{}"},
		{"GET", "/boot.js", "", 200, "text/javascript; charset=utf-8", "", noCache, "", "'use strict'"},
		{"GET", "/lessons/01-one-pod.txtar", "", 200, "text/plain; charset=utf-8", "", noCache, "", "# title: x"},
		{"GET", "/unknown.bin", "", 200, "application/octet-stream", "", noCache, "", "\x01\x02\x03"},
		// Content negotiation: q-values, br before gzip on a tie, * for the rest.
		{"GET", "/" + wasmName, "", 200, "application/wasm", "", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "identity", 200, "application/wasm", "", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "gzip, deflate, br, zstd", 200, "application/wasm", "br", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "gzip", 200, "application/wasm", "gzip", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "x-gzip", 200, "application/wasm", "gzip", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "BR", 200, "application/wasm", "br", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "gzip;q=1, br;q=0.5", 200, "application/wasm", "gzip", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "gzip;q=0.5, br;q=0.5", 200, "application/wasm", "br", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "br;q=0", 200, "application/wasm", "", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "gzip;q=0, br;q=0", 200, "application/wasm", "", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "br; q=0, gzip", 200, "application/wasm", "gzip", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "*", 200, "application/wasm", "br", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "*;q=0.5, br;q=0", 200, "application/wasm", "gzip", immutable, "", string(wasm)},
		{"GET", "/" + wasmName, "br;q=bogus, gzip", 200, "application/wasm", "gzip", immutable, "", string(wasm)},
		{"GET", "/only-gz.txt", "br, gzip", 200, "text/plain; charset=utf-8", "gzip", noCache, "", "plain"},
		{"HEAD", "/" + wasmName, "br", 200, "application/wasm", "br", immutable, "", ""},
		// Not there.
		{"GET", "/" + wasmName + ".br", "br", 404, "", "", "", "", ""},
		{"GET", "/" + wasmName + ".gz", "", 404, "", "", "", "", ""},
		{"GET", "/missing.js", "", 404, "", "", "", "", ""},
		{"GET", "/sub", "", 404, "", "", "", "", ""},
		{"GET", "/dir.0123456789abcdef.js", "", 404, "", "", "", "", ""},
		{"GET", "/../../etc/passwd", "", 404, "", "", "", "", ""},
		{"GET", "/api", "", 404, "", "", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path+" "+tc.accept, func(t *testing.T) {
			h := map[string]string{}
			if tc.accept != "" {
				h["Accept-Encoding"] = tc.accept
			}
			resp, body := do(t, srv.URL, tc.method, tc.path, h)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q", got)
			}
			if got := resp.Header.Get("Referrer-Policy"); got != "no-referrer" {
				t.Errorf("Referrer-Policy %q", got)
			}
			if tc.status != 200 {
				return
			}
			want := map[string]string{
				"Content-Type":     tc.contentType,
				"Content-Encoding": tc.encoding,
				"Cache-Control":    tc.cache,
				"Vary":             "Accept-Encoding",
			}
			if tc.method == "GET" {
				want["Content-Length"] = strconv.Itoa(len(body))
			}
			for k, v := range want {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("%s %q, want %q", k, got, v)
				}
			}
			if tc.encoding != "" {
				if got, want := resp.Header.Get("X-Uncompressed-Length"), strconv.Itoa(len(tc.body)); tc.method == "GET" && got != want {
					t.Errorf("X-Uncompressed-Length %q, want %s", got, want)
				}
			} else if got := resp.Header.Get("X-Uncompressed-Length"); got != "" {
				t.Errorf("X-Uncompressed-Length %q on an identity response", got)
			}
			etag := resp.Header.Get("ETag")
			if IsHashed(tc.path) {
				want := map[string]string{"": `"0123456789abcdef"`, "br": `"0123456789abcdef-br"`, "gzip": `"0123456789abcdef-gzip"`}[tc.encoding]
				if etag != want {
					t.Errorf("ETag %q, want %s (from the name)", etag, want)
				}
			} else if !strings.HasPrefix(etag, `"`) || len(etag) != 18 {
				t.Errorf("ETag %q, want a strong tag of 16 hex digits", etag)
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if tc.frameAncestors == "" {
				if csp != "" {
					t.Errorf("CSP %q on a non-HTML response", csp)
				}
			} else if csp != CSP(tc.frameAncestors) {
				t.Errorf("CSP %q, want %q", csp, CSP(tc.frameAncestors))
			}
			if tc.method == "HEAD" {
				if len(body) != 0 || resp.Header.Get("Content-Length") == "" {
					t.Errorf("HEAD: body %q, Content-Length %q", body, resp.Header.Get("Content-Length"))
				}
				return
			}
			if got := string(decode(t, tc.encoding, body)); got != tc.body {
				t.Errorf("body %q, want %q", got, tc.body)
			}
		})
	}
}

func TestCSPDirectives(t *testing.T) {
	csp := CSP("'self'")
	for _, want := range []string{
		"default-src 'none'", "script-src 'self' 'wasm-unsafe-eval';", "style-src 'self';",
		"connect-src 'self'", "frame-ancestors 'self'", "base-uri 'none'", "object-src 'none'",
	} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	for _, bad := range []string{"unsafe-inline", "'unsafe-eval'", "*;", "http:", "https:"} {
		if strings.Contains(csp, bad) {
			t.Errorf("CSP %q allows %q", csp, bad)
		}
	}
}

func TestFrameAncestorsOption(t *testing.T) {
	srv := httptest.NewServer(New(testRoot(t), Options{NoAPI: true, FrameAncestors: "https://course.example"}))
	defer srv.Close()
	for path, want := range map[string]string{"/": "https://course.example", "/embed.html": "*", "/?embed": "*"} {
		resp, _ := do(t, srv.URL, "GET", path, nil)
		if got := resp.Header.Get("Content-Security-Policy"); !strings.HasSuffix(got, "frame-ancestors "+want) {
			t.Errorf("%s: CSP %q, want frame-ancestors %s", path, got, want)
		}
	}
}

func TestConditionalAndRange(t *testing.T) {
	srv := httptest.NewServer(New(testRoot(t), Options{NoAPI: true}))
	defer srv.Close()
	resp, _ := do(t, srv.URL, "GET", "/"+wasmName, map[string]string{"Accept-Encoding": "br"})
	brTag := resp.Header.Get("ETag")
	resp, _ = do(t, srv.URL, "GET", "/"+wasmName, map[string]string{"Accept-Encoding": "gzip"})
	gzTag := resp.Header.Get("ETag")
	resp, _ = do(t, srv.URL, "GET", "/"+wasmName, nil)
	idTag := resp.Header.Get("ETag")
	if brTag == gzTag || gzTag == idTag || brTag == idTag {
		t.Errorf("ETags of the three encodings must differ: br %s gzip %s identity %s", brTag, gzTag, idTag)
	}

	tests := []struct {
		name   string
		header map[string]string
		status int
		body   string
	}{
		{"revalidate br", map[string]string{"Accept-Encoding": "br", "If-None-Match": brTag}, 304, ""},
		{"revalidate identity", map[string]string{"If-None-Match": idTag}, 304, ""},
		{"another encoding's tag", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": brTag}, 200, ""},
		{"range", map[string]string{"Range": "bytes=0-3"}, 206, "\x00asm"},
		{"range suffix", map[string]string{"Range": "bytes=-6"}, 206, string(wasm[len(wasm)-6:])},
		{"range past the end", map[string]string{"Range": "bytes=1000-"}, 416, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, srv.URL, "GET", "/"+wasmName, tc.header)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status == 206 && string(body) != tc.body {
				t.Errorf("body %q, want %q", body, tc.body)
			}
			if tc.status == 304 && len(body) != 0 {
				t.Errorf("a 304 with a body")
			}
		})
	}
}

func TestMethods(t *testing.T) {
	srv := httptest.NewServer(New(testRoot(t), Options{NoAPI: true}))
	defer srv.Close()
	for _, m := range []string{"POST", "PUT", "DELETE", "OPTIONS", "PATCH"} {
		resp, _ := do(t, srv.URL, m, "/", nil)
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s /: %d Allow %q, want 405 Allow GET, HEAD", m, resp.StatusCode, resp.Header.Get("Allow"))
		}
	}
}

// The API is mounted under /api (site/api by default).
func TestAPIMounted(t *testing.T) {
	srv := httptest.NewServer(New(testRoot(t), Options{}))
	defer srv.Close()
	resp, body := do(t, srv.URL, "GET", "/api", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("GET /api: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var idx struct{ Endpoints []struct{ Path string } }
	if err := json.Unmarshal(body, &idx); err != nil || len(idx.Endpoints) < 3 {
		t.Errorf("GET /api: %v %s", err, body)
	}
	resp, _ = do(t, srv.URL, "GET", "/api/run", nil)
	if resp.StatusCode != 405 || resp.Header.Get("Allow") != "POST" {
		t.Errorf("GET /api/run: %d Allow %q", resp.StatusCode, resp.Header.Get("Allow"))
	}
	// A custom API handler replaces it.
	srv2 := httptest.NewServer(New(testRoot(t), Options{API: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "custom "+r.URL.Path)
	})}))
	defer srv2.Close()
	if _, body := do(t, srv2.URL, "GET", "/api/x", nil); string(body) != "custom /api/x" {
		t.Errorf("custom API answered %q", body)
	}
}

// plainFS hides Seek: the Worker's asset FS reads files as streams.
type plainFS struct{ fs.FS }
type plainFile struct{ f fs.File }

func (p plainFS) Open(name string) (fs.File, error) {
	f, err := p.FS.Open(name)
	if err != nil {
		return nil, err
	}
	return plainFile{f}, nil
}
func (f plainFile) Stat() (fs.FileInfo, error) { return f.f.Stat() }
func (f plainFile) Read(b []byte) (int, error) { return f.f.Read(b) }
func (f plainFile) Close() error               { return f.f.Close() }

func TestNonSeekableFS(t *testing.T) {
	srv := httptest.NewServer(New(plainFS{testRoot(t)}, Options{NoAPI: true}))
	defer srv.Close()
	resp, body := do(t, srv.URL, "GET", "/"+wasmName, map[string]string{"Accept-Encoding": "gzip"})
	if resp.StatusCode != 200 || !bytes.Equal(decode(t, "gzip", body), wasm) {
		t.Errorf("status %d, body %q", resp.StatusCode, body)
	}
	resp, body = do(t, srv.URL, "GET", "/"+wasmName, map[string]string{"Range": "bytes=4-7"})
	if resp.StatusCode != 206 || string(body) != string(wasm[4:8]) {
		t.Errorf("range on a stream: %d %q", resp.StatusCode, body)
	}
}

func TestIsHashed(t *testing.T) {
	for name, want := range map[string]bool{
		"main.0123456789abcdef.wasm":   true,
		"a/b/boot.fedcba9876543210.js": true,
		"main.wasm":                    false,
		"main.0123456789ABCDEF.wasm":   false,
		"main.0123456789abcde.wasm":    false,
		"0123456789abcdef.wasm":        false,
		"index.html":                   false,
	} {
		if got := IsHashed(name); got != want {
			t.Errorf("IsHashed(%q) = %v, want %v", name, got, want)
		}
	}
}

// A large pre-compressed file is sent with its Content-Length (not
// chunked), which ServeContent alone leaves out when Content-Encoding is set.
func TestContentLengthOfLargeEncodedFile(t *testing.T) {
	big := bytes.Repeat([]byte("DaemonSet Playground "), 50000) // 1 MB
	gz := gzipped(t, big)
	root := fstest.MapFS{"big.0123456789abcdef.js": {Data: big}, "big.0123456789abcdef.js.gz": {Data: gz}}
	srv := httptest.NewServer(New(root, Options{NoAPI: true}))
	defer srv.Close()
	for _, method := range []string{"GET", "HEAD"} {
		resp, body := do(t, srv.URL, method, "/big.0123456789abcdef.js", map[string]string{"Accept-Encoding": "gzip"})
		if got, want := resp.Header.Get("Content-Length"), strconv.Itoa(len(gz)); got != want || resp.TransferEncoding != nil {
			t.Errorf("%s: Content-Length %q (transfer encoding %v), want %s", method, got, resp.TransferEncoding, want)
		}
		if got, want := resp.Header.Get("X-Uncompressed-Length"), strconv.Itoa(len(big)); got != want {
			t.Errorf("%s: X-Uncompressed-Length %q, want %s", method, got, want)
		}
		if method == "GET" && !bytes.Equal(decode(t, "gzip", body), big) {
			t.Errorf("GET: the body does not decode to the file")
		}
	}
}

// A page path with a trailing slash would be served with its relative
// asset URLs resolving under the slash (a blank frame): it is redirected
// to the path without the slash, query kept, and never off the site.
func TestTrailingSlash(t *testing.T) {
	srv := httptest.NewServer(New(testRoot(t), Options{NoAPI: true}))
	defer srv.Close()
	tests := []struct {
		method, path string
		status       int
		location     string
	}{
		{"GET", "/embed/", 301, "/embed"},
		{"GET", "/embed/?lesson=01&panes=yaml", 301, "/embed?lesson=01&panes=yaml"},
		{"HEAD", "/embed/", 301, "/embed"},
		{"GET", "/embed.html/", 301, "/embed.html"},
		{"GET", "/index.html/", 301, "/index.html"},
		{"GET", "/index/", 301, "/index"},
		{"GET", "/embed//", 301, "/embed"},
		{"GET", "//embed.html/", 301, "/embed.html"},
		{"GET", "/boot.js/", 301, "/boot.js"},
		{"GET", "/missing/", 404, ""},
		{"GET", "/sub/", 404, ""},
		{"GET", "//", 404, ""},
		{"GET", "/embed", 200, ""},
		{"GET", "/", 200, ""},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			resp, _ := do(t, srv.URL, tc.method, tc.path, nil)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if got := resp.Header.Get("Location"); got != tc.location {
				t.Errorf("Location %q, want %q", got, tc.location)
			}
		})
	}
}

// An asset that is listed but cannot be opened (a rebuild removed it
// between Stat and Open) is answered 404 without the asset's encoding or
// immutable caching.
func TestFailDropsAssetHeaders(t *testing.T) {
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Encoding", "br")
	rec.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	rec.Header().Set("ETag", `"x"`)
	fail(rec, "404 page not found", http.StatusNotFound)
	if rec.Code != 404 || rec.Header().Get("Content-Encoding") != "" || rec.Header().Get("Cache-Control") != "" || rec.Header().Get("ETag") != "" {
		t.Errorf("code %d headers %v", rec.Code, rec.Header())
	}
}
