package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dsplayground/dsplay/examples"
	"github.com/dsplayground/dsplay/site/internal/wasmdata"
	"github.com/dsplayground/dsplay/site/web"
)

// TestRewritePage checks how Build points a page at the hashed files.
func TestRewritePage(t *testing.T) {
	assets := map[string]string{
		"main.wasm":    "main.00000000000000aa.wasm",
		"boot.js":      "boot.00000000000000bb.js",
		"style.css":    "style.00000000000000cc.css",
		"wasm_exec.js": "wasm_exec.00000000000000dd.js",
	}
	tests := []struct {
		name, in, want, err string
	}{
		{"index", `<link rel="stylesheet" href="style.css"><script src="wasm_exec.js"></script><script src="boot.js"></script>`,
			`<link rel="stylesheet" href="style.00000000000000cc.css"><script src="wasm_exec.00000000000000dd.js"></script><script src="boot.00000000000000bb.js" data-wasm="main.00000000000000aa.wasm"></script>`, ""},
		{"other references stay", `<a href="#x"></a><link rel="icon" href="data:,"><img src="logo.png"><script src="boot.js"></script>`,
			`<a href="#x"></a><link rel="icon" href="data:,"><img src="logo.png"><script src="boot.00000000000000bb.js" data-wasm="main.00000000000000aa.wasm"></script>`, ""},
		{"data-wasm already there", `<script src="boot.js" data-wasm="x.wasm"></script>`, `<script src="boot.00000000000000bb.js" data-wasm="x.wasm"></script>`, ""},
		{"no loader", `<p>hi</p>`, "", `has no <script src="boot.js">`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rewritePage("index.html", []byte(tc.in), assets)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	// A page other than index.html and embed.html may have no loader.
	if got, err := rewritePage("help.html", []byte(`<p>hi</p>`), assets); err != nil || string(got) != `<p>hi</p>` {
		t.Errorf("help.html: %q %v", got, err)
	}
}

func TestEmbedPage(t *testing.T) {
	for in, want := range map[string]string{
		"<!doctype html>\n<html lang=\"en\">": "<!doctype html>\n<html data-mode=\"embed\" lang=\"en\">",
		`<html>`:                              `<html data-mode="embed">`,
	} {
		if got := string(EmbedPage([]byte(in))); got != want {
			t.Errorf("EmbedPage(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHashedName(t *testing.T) {
	a, b := hashedName("main.wasm", []byte("a")), hashedName("main.wasm", []byte("b"))
	if a == b || !web.IsHashed(a) || !strings.HasPrefix(a, "main.") || !strings.HasSuffix(a, ".wasm") {
		t.Errorf("hashedName: %s %s", a, b)
	}
	if got := hashedName("wasm_exec.js", []byte("a")); got != "wasm_exec.ca978112ca1bbdca.js" {
		t.Errorf("hashedName(wasm_exec.js) = %s (sha256 of a starts ca978112ca1bbdca)", got)
	}
}

// TestBundleOfRoot bundles a small fake web root and checks the inlining
// and the policy.
func TestBundleOfRoot(t *testing.T) {
	wasm := []byte("\x00asm\x01\x00\x00\x00 module")
	root := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><link rel="stylesheet" href="style.00000000000000cc.css"></head>` +
			`<body><p>hi</p><script src="wasm_exec.00000000000000dd.js"></script><script src="boot.00000000000000bb.js" data-wasm="main.00000000000000aa.wasm"></script></body></html>`)},
		"style.00000000000000cc.css":    {Data: []byte("body{color:red}")},
		"wasm_exec.00000000000000dd.js": {Data: []byte("var Go=1;")},
		"boot.00000000000000bb.js":      {Data: []byte("boot();")},
		"main.00000000000000aa.wasm":    {Data: wasm},
	}
	b, err := Bundle(root)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{"<style>\nbody{color:red}\n</style>", "<script>\nvar Go=1;\n</script>", "<script>\nboot();\n</script>",
		`<script type="application/octet-stream" id="dsplay-wasm" data-encoding="gzip">`} {
		if !strings.Contains(page, want) {
			t.Errorf("the bundle lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, ` src="`) || strings.Contains(page, `rel="stylesheet"`) {
		t.Errorf("the bundle still references files:\n%s", page)
	}
	// The wasm decodes back.
	i := strings.Index(page, `data-encoding="gzip">`) + len(`data-encoding="gzip">`)
	j := strings.Index(page[i:], "</script>")
	gz, err := base64.StdEncoding.DecodeString(page[i : i+j])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, wasm) {
		t.Errorf("the inline wasm decodes to %q", got)
	}
	// The policy names the hashes of exactly the inline scripts and style.
	sum := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	want := BundleCSP([]string{sum("\nvar Go=1;\n"), sum("\nboot();\n")}, []string{sum("\nbody{color:red}\n")})
	if !strings.Contains(page, `<meta charset="utf-8">`+"\n"+`<meta http-equiv="Content-Security-Policy" content="`+want+`">`) {
		t.Errorf("the bundle's CSP is not %q right after the charset:\n%s", want, page[:400])
	}
	for _, bad := range []string{"'self'", "unsafe-inline", "connect-src 'self'"} {
		if strings.Contains(want, bad) {
			t.Errorf("the bundle's CSP allows %s", bad)
		}
	}

	// Errors: a missing file, a page that was not built.
	delete(root, "boot.00000000000000bb.js")
	if _, err := Bundle(root); err == nil || !strings.Contains(err.Error(), "boot.00000000000000bb.js") {
		t.Errorf("a missing script: %v", err)
	}
	if _, err := Bundle(fstest.MapFS{"index.html": {Data: []byte("<p>")}}); err == nil || !strings.Contains(err.Error(), "data-wasm") {
		t.Errorf("an unbuilt page: %v", err)
	}
}

// TestBuild builds the real web root (the wasm too) and checks its files:
// hashed names that match their content, pages that reference them,
// embed.html, compressed siblings, and the removal of an earlier build's
// files.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm")
	}
	dir := t.TempDir()
	stale := []string{"main.wasm", "main.wasm.gz", "main.ffffffffffffffff.wasm", "main.ffffffffffffffff.wasm.br", "boot.ffffffffffffffff.js"}
	for _, n := range append(stale, "notes.txt") {
		os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644)
	}
	res, err := BuildWith(context.Background(), dir, BuildOptions{BrotliQuality: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range stale {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s of an earlier build is still there", n)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("Build removed a file it does not own: %v", err)
	}
	for _, plain := range []string{"main.wasm", "wasm_exec.js", "boot.js", "style.css"} {
		h := res.Assets[plain]
		b, err := os.ReadFile(filepath.Join(dir, h))
		if err != nil {
			t.Errorf("%s: %v", plain, err)
			continue
		}
		if hashedName(plain, b) != h {
			t.Errorf("%s is named %s, but its content hashes to %s", plain, h, hashedName(plain, b))
		}
		for _, sib := range []string{".gz", ".br"} {
			if _, err := os.Stat(filepath.Join(dir, h+sib)); err != nil {
				t.Errorf("%s has no %s sibling", h, sib)
			}
		}
	}
	if res.WasmName != res.Assets["main.wasm"] || res.WasmBytes < 1e6 || res.WasmGzipBytes == 0 || res.WasmBrotliBytes == 0 || res.WasmBrotliBytes >= res.WasmBytes {
		t.Errorf("result %+v", res)
	}
	// The served wasm is the merged one (MergeWasm).
	if m := res.WasmMerge; m.Err != nil || m.Segments >= m.LinkedSegments || int64(m.Bytes) != res.WasmBytes {
		t.Errorf("the wasm's data segments were not merged: %+v", m)
	}
	if served, err := os.ReadFile(filepath.Join(dir, res.WasmName)); err != nil {
		t.Error(err)
	} else if segs, err := wasmdata.Segments(served); err != nil || len(segs) != res.WasmMerge.Segments {
		t.Errorf("the served wasm has %d data segments (%v), the build says %d", len(segs), err, res.WasmMerge.Segments)
	}
	for _, page := range []string{"index.html", "embed.html"} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, want := range []string{
			`href="` + res.Assets["style.css"] + `"`,
			`<script src="` + res.Assets["wasm_exec.js"] + `"></script>`,
			`<script src="` + res.Assets["boot.js"] + `" data-wasm="` + res.WasmName + `"></script>`,
		} {
			if !strings.Contains(s, want) {
				t.Errorf("%s lacks %s", page, want)
			}
		}
		if embed := strings.Contains(s, `<html data-mode="embed"`); embed != (page == "embed.html") {
			t.Errorf("%s: data-mode=embed is %v", page, embed)
		}
		for _, sib := range []string{".gz", ".br"} {
			if _, err := os.Stat(filepath.Join(dir, page+sib)); err != nil {
				t.Errorf("%s has no %s sibling", page, sib)
			}
		}
	}
	// A second build of the same sources writes the same names.
	res2, err := BuildWith(context.Background(), dir, BuildOptions{BrotliQuality: -1})
	if err != nil {
		t.Fatal(err)
	}
	if res2.WasmName != res.WasmName {
		t.Errorf("rebuilding renamed the wasm: %s, then %s", res.WasmName, res2.WasmName)
	}
	if _, err := os.Stat(filepath.Join(dir, res.WasmName+".br")); err == nil {
		t.Errorf("a build without brotli left the earlier .br")
	}
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
		if d == "net/http" || strings.HasPrefix(d, "net/http/") || strings.HasPrefix(d, "k8s.io/") || strings.HasPrefix(d, "github.com/syumai/workers") ||
			strings.HasPrefix(d, "github.com/andybalholm/brotli") || strings.HasPrefix(d, "github.com/dsplayground/dsplay/site") {
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

// TestHandlerBuildsForWorker guards what the Worker needs: site/web and
// site/api compile for GOOS=js GOARCH=wasm and run no programs (os/exec),
// and the brotli encoder (a build-time tool) stays out of them.
func TestHandlerBuildsForWorker(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "./site/web", "./site/api")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go list -deps ./site/web ./site/api: %v\n%s", err, out)
	}
	for _, d := range strings.Fields(string(out)) {
		if d == "os/exec" || strings.HasPrefix(d, "github.com/andybalholm/brotli") || d == "github.com/dsplayground/dsplay/site" {
			t.Errorf("the handler's GOOS=js build imports %s", d)
		}
	}
	build := exec.Command("go", "build", "./site/web", "./site/api")
	build.Dir = ".."
	build.Env = cmd.Env
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("GOOS=js GOARCH=wasm go build ./site/web ./site/api: %v\n%s", err, out)
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

func TestPruneCache(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i := 0; i < 9; i++ {
		p := filepath.Join(dir, fmt.Sprintf("f%d.br", i))
		os.WriteFile(p, []byte("x"), 0o644)
		mod := base.Add(time.Duration(i) * time.Minute)
		os.Chtimes(p, mod, mod)
	}
	pruneCache(dir, 3)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "f6.br,f7.br,f8.br" {
		t.Errorf("kept %v, want the 3 newest", names)
	}
}

// TestWasmDirectImports pins what wasm/ (the DOM shell) imports directly:
// the engine's façade, engine/session, examples, dom/v2 and the standard
// library. The shell renders views and scenes and forwards what the
// learner does; everything else (share and export formats, replay limits,
// lesson and exercise state, scenario lines, YAML) is the engine's, tested
// natively.
func TestWasmDirectImports(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "./wasm")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list ./wasm: %v\n%s", err, out)
	}
	allowed := map[string]bool{
		"github.com/dsplayground/dsplay/engine":         true,
		"github.com/dsplayground/dsplay/engine/session": true,
		"github.com/dsplayground/dsplay/examples":       true,
		"honnef.co/go/js/dom/v2":                        true,
	}
	for _, imp := range strings.Fields(string(out)) {
		std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
		if !std && !allowed[imp] {
			t.Errorf("wasm/ imports %s: the shell renders views and forwards input; logic belongs in the engine", imp)
		}
	}
}

// TestSiteAPIDirectImports pins what site/api (validate a manifest, run a
// scenario) imports directly, as TestWasmDirectImports does for wasm/:
// the engine's façade and the standard library, plus engine/scenario,
// allowed because running a txtar scenario headless is the endpoint's
// whole job (scenario.Parse, RunContext), as it is cmd/dsplay's. Imports
// still to move behind the façade would be listed as pending; the test
// fails on a new import and on a pending one that is gone.
func TestSiteAPIDirectImports(t *testing.T) {
	cmd := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "./site/api")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list ./site/api: %v\n%s", err, out)
	}
	allowed := map[string]bool{
		"github.com/dsplayground/dsplay/engine":          true,
		"github.com/dsplayground/dsplay/engine/session":  true,
		"github.com/dsplayground/dsplay/engine/scenario": true, // parses and runs scenarios
	}
	pending := map[string]bool{} // to move behind the façade: none left
	seen := map[string]bool{}
	for _, imp := range strings.Fields(string(out)) {
		seen[imp] = true
		std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
		if !std && !allowed[imp] && !pending[imp] {
			t.Errorf("site/api imports %s: the API reads the engine through its façade", imp)
		}
	}
	for imp := range pending {
		if !seen[imp] {
			t.Errorf("site/api no longer imports %s: strike it from the pending list", imp)
		}
	}
}
