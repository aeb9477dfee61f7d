package site

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dsplayground/dsplay/examples"
)

func TestHandler(t *testing.T) {
	wasm := []byte("\x00asm\x01\x00\x00\x00 pretend this is a module")
	root := fstest.MapFS{
		"index.html":   {Data: []byte("<!doctype html><title>x</title>")},
		"style.css":    {Data: []byte("body{}")},
		"boot.js":      {Data: []byte("'use strict'")},
		"main.wasm":    {Data: wasm},
		"main.wasm.gz": {Data: gzipped(t, wasm)},
		"sub/a.txt":    {Data: []byte("a")},
	}
	srv := httptest.NewServer(Handler(root))
	defer srv.Close()

	tests := []struct {
		method, path, acceptEncoding string
		status                       int
		contentType, encoding        string
		body                         string
	}{
		{"GET", "/", "", 200, "text/html; charset=utf-8", "", "<!doctype html><title>x</title>"},
		{"GET", "/index.html", "", 200, "text/html; charset=utf-8", "", "<!doctype html><title>x</title>"},
		{"GET", "/style.css", "", 200, "text/css; charset=utf-8", "", "body{}"},
		{"GET", "/boot.js", "", 200, "text/javascript; charset=utf-8", "", "'use strict'"},
		{"GET", "/main.wasm", "identity", 200, "application/wasm", "", string(wasm)},
		{"GET", "/main.wasm", "gzip, deflate, br", 200, "application/wasm", "gzip", string(wasm)},
		{"GET", "/main.wasm", "gzip;q=0", 200, "application/wasm", "", string(wasm)},
		{"HEAD", "/main.wasm", "", 200, "application/wasm", "", ""},
		{"GET", "/main.wasm.gz", "", 404, "", "", ""},
		{"GET", "/missing.js", "", 404, "", "", ""},
		{"GET", "/sub", "", 404, "", "", ""},
		{"GET", "/../../etc/passwd", "", 404, "", "", ""},
		{"POST", "/", "", 405, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path+" "+tc.acceptEncoding, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
			// Disable the transport's transparent gzip so the raw encoding is visible.
			tr := &http.Transport{DisableCompression: true}
			defer tr.CloseIdleConnections()
			if tc.acceptEncoding != "" {
				req.Header.Set("Accept-Encoding", tc.acceptEncoding)
			}
			resp, err := tr.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.status)
			}
			if tc.status != 200 {
				return
			}
			if got := resp.Header.Get("Content-Type"); got != tc.contentType {
				t.Errorf("Content-Type %q, want %q", got, tc.contentType)
			}
			if got := resp.Header.Get("Content-Encoding"); got != tc.encoding {
				t.Errorf("Content-Encoding %q, want %q", got, tc.encoding)
			}
			var r io.Reader = resp.Body
			if tc.encoding == "gzip" {
				if got, want := resp.Header.Get("X-Uncompressed-Length"), fmt.Sprint(len(wasm)); got != want {
					t.Errorf("X-Uncompressed-Length %q, want %s", got, want)
				}
				zr, err := gzip.NewReader(resp.Body)
				if err != nil {
					t.Fatal(err)
				}
				r = zr
			}
			b, _ := io.ReadAll(r)
			if string(b) != tc.body {
				t.Errorf("body %q, want %q", b, tc.body)
			}
		})
	}
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var sb strings.Builder
	zw := gzip.NewWriter(&sb)
	zw.Write(b)
	zw.Close()
	return []byte(sb.String())
}

// TestStaticNeedsNoNetwork checks that the committed pages load nothing from
// another origin: no CDN, fonts or scripts from elsewhere.
func TestStaticNeedsNoNetwork(t *testing.T) {
	for _, name := range []string{"index.html", "style.css", "boot.js"} {
		b, err := os.ReadFile(filepath.Join("static", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"http://", "https://", "//cdn", "@import", "fonts.googleapis"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s contains %q: the page must load nothing from elsewhere", name, bad)
			}
		}
	}
}

// TestWasmDependencies guards the browser build's size and portability: the
// wasm binary must not link net/http, k8s.io/* or github.com/syumai/workers.
func TestWasmDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./wasm")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list -deps ./wasm: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("suspiciously few dependencies: %v", deps)
	}
	// kubectl's own jsonpath (k8s.io/client-go/util/jsonpath and the
	// template fork it uses) is the one k8s.io package allowed: it is small
	// and gives `-o jsonpath` kubectl's exact grammar and errors.
	allowed := map[string]bool{
		"k8s.io/client-go/util/jsonpath":                      true,
		"k8s.io/client-go/third_party/forked/golang/template": true,
	}
	for _, d := range deps {
		if allowed[d] {
			continue
		}
		if d == "net/http" || strings.HasPrefix(d, "net/http/") || strings.HasPrefix(d, "k8s.io/") || strings.HasPrefix(d, "github.com/syumai/workers") {
			t.Errorf("the wasm build imports %s", d)
		}
	}
	for _, want := range []string{"github.com/dsplayground/dsplay/engine", "honnef.co/go/js/dom/v2", "syscall/js"} {
		found := false
		for _, d := range deps {
			found = found || d == want
		}
		if !found {
			t.Errorf("the wasm build does not import %s: is ./wasm the UI?", want)
		}
	}
}

// TestNoCJKFontsNeeded guards what the page shows on load: a Debian
// machine without CJK fonts draws CJK (and full-width) characters as
// boxes. The example manifests (the first is in the editor on load) and
// the static page must not contain any.
func TestNoCJKFontsNeeded(t *testing.T) {
	files := map[string]string{}
	for _, ex := range examples.Manifests() {
		files["example "+ex.Title] = ex.Text
	}
	for _, name := range []string{"index.html", "style.css", "boot.js"} {
		b, err := os.ReadFile(filepath.Join("static", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	if len(files) < 4 {
		t.Fatalf("no example manifests found")
	}
	for name, text := range files {
		for i, line := range strings.Split(text, "\n") {
			for _, r := range line {
				if needsCJKFont(r) {
					t.Errorf("%s line %d holds %q (U+%04X), which needs a CJK font: %s", name, i+1, r, r, line)
					break
				}
			}
		}
	}
}

// needsCJKFont reports whether r lies in a block that DejaVu (Debian's
// default fonts) does not cover and CJK fonts do.
func needsCJKFont(r rune) bool {
	switch {
	case r >= 0x2E80 && r <= 0x9FFF, // CJK radicals, kana, symbols, ideographs
		r >= 0xAC00 && r <= 0xD7AF, // Hangul
		r >= 0xF900 && r <= 0xFAFF, // CJK compatibility ideographs
		r >= 0xFE30 && r <= 0xFE4F, // CJK compatibility forms
		r >= 0xFF00 && r <= 0xFFEF, // half-width and full-width forms
		r >= 0x20000 && r <= 0x3FFFF:
		return true
	}
	return false
}
