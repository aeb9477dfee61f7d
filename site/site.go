// Package site builds the playground's web root and its one-file offline
// bundle. Package site/web serves the web root (the local server in
// site/cmd/serve, the Cloudflare Worker in site/worker, the tests).
//
// The web root is built, not committed: Build writes the committed static
// files (index.html, style.css, boot.js, embedded from static/) under
// content-hashed names, main.<hash>.wasm (the ./wasm package built for
// GOOS=js GOARCH=wasm), wasm_exec.<hash>.js copied from the Go installation
// that built it (the two must match), embed.html, sw.js (the service
// worker, naming this build's files: ServiceWorker), and .br and .gz
// siblings. Bundle turns a built web root into one self-contained HTML file.
//
// This package is for native builds only (it runs the go command): the
// browser build must not import it, nor net/http or the brotli encoder.
package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/dsplayground/dsplay/site/internal/wasmdata"
	"github.com/dsplayground/dsplay/site/web"
)

//go:embed static
var static embed.FS

// Static returns the committed static files (index.html, style.css, boot.js).
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // cannot happen: the directory is embedded
	}
	return sub
}

// BuildOptions tune BuildWith. The zero value is the release build.
type BuildOptions struct {
	// BrotliQuality is the brotli level of the .br siblings, 1 to 11
	// (0 means 11, the smallest: about 28 s for the 12 MB wasm, cached by
	// content under the user cache directory). Tests use a lower level.
	// Negative: no .br files.
	BrotliQuality int
	// LinkedWasm serves the wasm as the linker wrote it, without merging
	// its data segments (see MergeWasm): for measurements.
	LinkedWasm bool
}

// BuildResult describes a built web root.
type BuildResult struct {
	// Dir is the web root.
	Dir string
	// Assets maps each hashed file's plain name (main.wasm, boot.js,
	// style.css, wasm_exec.js, ...) to the name it has in Dir
	// (main.0123456789abcdef.wasm).
	Assets map[string]string
	// WasmName is Assets["main.wasm"].
	WasmName string
	// WasmBytes, WasmGzipBytes and WasmBrotliBytes are the sizes of the
	// wasm and its .gz and .br siblings (0 when not written).
	WasmBytes, WasmGzipBytes, WasmBrotliBytes int64
	// WasmMerge says how MergeWasm changed the linker's wasm.
	WasmMerge MergeReport
	// Took is the wall time of the build.
	Took time.Duration
}

// hashLen is the number of hex digits of the content hash in file names
// (web.IsHashed matches them).
const hashLen = 16

// hashedName returns NAME.<hash>.EXT for a file's name and content: the
// first 16 hex digits of its SHA-256.
func hashedName(name string, data []byte) string {
	sum := sha256.Sum256(data)
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:hashLen] + ext
}

// compressible are the extensions that get .br and .gz siblings.
var compressible = map[string]bool{
	".html": true, ".css": true, ".js": true, ".mjs": true, ".wasm": true, ".svg": true,
	".json": true, ".txt": true, ".txtar": true, ".md": true, ".yaml": true, ".map": true,
}

// Build writes the release web root into dir: BuildWith with the zero
// BuildOptions.
func Build(ctx context.Context, dir string) (*BuildResult, error) {
	return BuildWith(ctx, dir, BuildOptions{})
}

// BuildWith writes a complete web root into dir (created if needed), one
// that any static file server can serve as it is:
//
//   - main.<hash>.wasm: the module's ./wasm package built with
//     GOOS=js GOARCH=wasm -trimpath -ldflags="-s -w" (the go command on
//     PATH or $GOROOT/bin/go, run in the module root), its data segments
//     merged by MergeWasm (unless o.LinkedWasm);
//   - wasm_exec.<hash>.js from the Go installation that built it (the two
//     must match), and every .js and .css of static/ under a hashed name;
//   - every .html of static/ with its src/href references rewritten to the
//     hashed names and the boot script's data-wasm attribute naming the
//     wasm; embed.html is index.html with <html data-mode="embed">;
//   - sw.js, the service worker, with the list of the pages and hashed
//     files it precaches and a version that changes with any of them
//     (serviceWorker);
//   - other static files (C1/C2's, if any) copied as they are;
//   - a NAME.gz (gzip -9) and NAME.br (brotli) sibling of every
//     compressible file of at least 256 bytes, when it is smaller.
//
// Hashed files of earlier builds (and the unhashed main.wasm of the first
// layout) are removed from dir after the new pages are written, so a
// server running on dir never references a missing file.
func BuildWith(ctx context.Context, dir string, o BuildOptions) (*BuildResult, error) {
	start := time.Now()
	if o.BrotliQuality == 0 {
		o.BrotliQuality = brotli.BestCompression
	}
	if o.BrotliQuality > brotli.BestCompression {
		return nil, fmt.Errorf("brotli quality %d: at most %d", o.BrotliQuality, brotli.BestCompression)
	}
	goBin, err := goCommand()
	if err != nil {
		return nil, err
	}
	modRoot, err := moduleRoot(ctx, goBin)
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}

	// main.wasm, built next to the web root and read back.
	tmpWasm := filepath.Join(dir, ".main.wasm.tmp")
	cmd := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", tmpWasm, "./wasm")
	cmd.Dir = modRoot
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go build ./wasm: %v\n%s", err, out)
	}
	wasm, err := os.ReadFile(tmpWasm)
	os.Remove(tmpWasm)
	if err != nil {
		return nil, err
	}
	var merge MergeReport
	if !o.LinkedWasm {
		wasm, merge = MergeWasm("main.wasm", wasm)
	}

	// wasm_exec.js from the same Go installation.
	goroot, err := goEnv(ctx, goBin, modRoot, "GOROOT")
	if err != nil {
		return nil, err
	}
	var execJS []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if execJS, err = os.ReadFile(filepath.Join(goroot, filepath.FromSlash(p))); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("wasm_exec.js not found under %s/lib/wasm: %w", goroot, err)
	}

	// The files of the web root: hashed assets first, pages last.
	files := map[string][]byte{} // name in dir -> content
	var swTemplate []byte
	assets := map[string]string{"main.wasm": hashedName("main.wasm", wasm), "wasm_exec.js": hashedName("wasm_exec.js", execJS)}
	files[assets["main.wasm"]] = wasm
	files[assets["wasm_exec.js"]] = execJS
	pages := map[string][]byte{}
	err = fs.WalkDir(Static(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Static(), p)
		if err != nil {
			return err
		}
		switch path.Ext(p) {
		case ".html":
			pages[p] = b
		case ".js", ".css":
			switch p {
			case ServiceWorker:
				swTemplate = b // written below, naming this build's files
				return nil
			case ElementScript:
				files[p] = b // named by tutorials: never hashed
				return nil
			}
			assets[p] = hashedName(p, b)
			files[assets[p]] = b
		default:
			files[p] = b
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the static files: %w", err)
	}
	if idx, ok := pages["index.html"]; ok {
		if _, own := pages["embed.html"]; !own {
			pages["embed.html"] = EmbedPage(idx)
		}
	}
	for name, b := range pages {
		out, err := rewritePage(name, b, assets)
		if err != nil {
			return nil, err
		}
		pages[name] = out
	}

	if swTemplate != nil {
		sw, err := serviceWorker(swTemplate, assets, pages)
		if err != nil {
			return nil, err
		}
		files[ServiceWorker] = sw
	}

	res := &BuildResult{Dir: dir, Assets: assets, WasmName: assets["main.wasm"], WasmBytes: int64(len(wasm)), WasmMerge: merge}
	written := map[string]bool{}
	if err := writeAll(dir, files, o, written); err != nil {
		return nil, err
	}
	if err := writeAll(dir, pages, o, written); err != nil {
		return nil, err
	}
	if st, err := os.Stat(filepath.Join(dir, res.WasmName+".gz")); err == nil {
		res.WasmGzipBytes = st.Size()
	}
	if st, err := os.Stat(filepath.Join(dir, res.WasmName+".br")); err == nil {
		res.WasmBrotliBytes = st.Size()
	}

	// Remove what earlier builds left: hashed files (and their siblings)
	// of other contents, and the first layout's main.wasm.
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		n := e.Name()
		base := strings.TrimSuffix(strings.TrimSuffix(n, ".br"), ".gz")
		stale := web.IsHashed(base) || base == "main.wasm" || base == "wasm_exec.js" || assets[base] != ""
		if !e.IsDir() && !written[n] && stale {
			os.Remove(filepath.Join(dir, n))
		}
	}
	res.Took = time.Since(start)
	return res, nil
}

// MergeReport describes what MergeWasm did to a module.
type MergeReport struct {
	// LinkedBytes and Bytes are the module's sizes in bytes as linked and
	// as served; LinkedSegments and Segments count its data segments.
	LinkedBytes, Bytes       int
	LinkedSegments, Segments int
	// Took is the wall time of merging and verifying.
	Took time.Duration
	// Err says why the module is served as linked (nil: merged).
	Err error
}

// MergeWasm merges the data segments of a module the Go linker wrote
// (wasmdata.Merge with wasmdata.DefaultMaxGap: runs of small segments
// separated by at most 64 zero bytes become one segment, the memory image
// unchanged byte for byte: for the playground 100,000 segments become 89,
// 185 KB less gzip -9 and 118 KB less brotli -q 11, 1 MB more raw).
// When the merge fails or its result fails verification it returns module
// as it is and logs why, naming the module by name.
func MergeWasm(name string, module []byte) ([]byte, MergeReport) {
	start := time.Now()
	out, st, err := wasmdata.Merge(module, wasmdata.DefaultMaxGap)
	r := MergeReport{LinkedBytes: len(module), LinkedSegments: st.SegmentsIn, Took: time.Since(start), Err: err}
	if err != nil {
		log.Printf("serving %s as linked, its data segments unmerged: %v", name, err)
		r.Bytes, r.Segments = len(module), st.SegmentsIn
		return module, r
	}
	r.Bytes, r.Segments = len(out), st.SegmentsOut
	return out, r
}

// ServiceWorker is the service worker's file (static/sw.js, written by
// BuildWith under its own, unhashed name: a worker's URL must not change
// between versions).
const ServiceWorker = "sw.js"

// ElementScript is the <dsplay-playground> custom element's script
// (static/dsplay-element.js), served under its own name so a tutorial can
// name it.
const ElementScript = "dsplay-element.js"

// serviceWorker fills in static/sw.js's template: __DSPLAY_PRECACHE__
// becomes the JSON list of what it precaches (the pages and every hashed
// asset, sorted), __DSPLAY_VERSION__ a hash of that list and of the pages'
// contents, so that any change to the build is a new worker (and cache).
func serviceWorker(tmpl []byte, assets map[string]string, pages map[string][]byte) ([]byte, error) {
	var list []string
	for _, h := range assets {
		list = append(list, h)
	}
	for name := range pages {
		list = append(list, name)
	}
	sort.Strings(list)
	js, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	h.Write(js)
	for _, name := range list {
		if b, ok := pages[name]; ok {
			h.Write(b)
		}
	}
	version := hex.EncodeToString(h.Sum(nil))[:16]
	if !bytes.Contains(tmpl, []byte("__DSPLAY_PRECACHE__")) || !bytes.Contains(tmpl, []byte("__DSPLAY_VERSION__")) {
		return nil, fmt.Errorf("static/%s lacks __DSPLAY_PRECACHE__ or __DSPLAY_VERSION__", ServiceWorker)
	}
	out := bytes.Replace(tmpl, []byte("__DSPLAY_PRECACHE__"), js, 1)
	return bytes.Replace(out, []byte("__DSPLAY_VERSION__"), []byte(version), 1), nil
}

// EmbedPage returns embed.html for index.html: the same page with
// data-mode="embed" on its <html> element (CONTRACTS.md: embed mode).
func EmbedPage(index []byte) []byte {
	return htmlTag.ReplaceAll(index, []byte(`<html data-mode="embed"`))
}

var (
	htmlTag = regexp.MustCompile(`<html\b`)
	// ref is a src or href attribute naming a file of the web root.
	ref = regexp.MustCompile(`\b(src|href)="([^"]*)"`)
	// bootScript is the loader's script element after rewriting.
	bootScript = regexp.MustCompile(`<script src="(boot(?:\.[0-9a-f]{16})?\.js)"`)
)

// rewritePage points a page's src and href attributes at the hashed names
// and gives the loader's <script> the data-wasm attribute naming the wasm.
func rewritePage(name string, b []byte, assets map[string]string) ([]byte, error) {
	out := ref.ReplaceAllFunc(b, func(m []byte) []byte {
		sm := ref.FindSubmatch(m)
		if h, ok := assets[string(sm[2])]; ok {
			return []byte(string(sm[1]) + `="` + h + `"`)
		}
		return m
	})
	if !bytes.Contains(out, []byte("data-wasm=")) {
		loc := bootScript.FindIndex(out)
		if loc == nil {
			if name == "index.html" || name == "embed.html" {
				return nil, fmt.Errorf("static/%s has no <script src=\"boot.js\">", name)
			}
			return out, nil
		}
		out = append(out[:loc[1]:loc[1]], append([]byte(` data-wasm="`+assets["main.wasm"]+`"`), out[loc[1]:]...)...)
	}
	return out, nil
}

// writeAll writes files into dir with their .gz and .br siblings,
// compressing in parallel, and records every name written.
func writeAll(dir string, files map[string][]byte, o BuildOptions, written map[string]bool) error {
	type job struct {
		name string
		data []byte
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	record := func(name string, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil && first == nil {
			first = err
		}
		if err == nil {
			written[name] = true
		}
	}
	write := func(name string, b []byte) {
		dst := filepath.Join(dir, filepath.FromSlash(name))
		err := os.MkdirAll(filepath.Dir(dst), 0o755)
		if err == nil {
			err = os.WriteFile(dst, b, 0o644)
		}
		record(name, err)
	}
	for name, b := range files {
		write(name, b)
		if !compressible[path.Ext(name)] || len(b) < 256 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if gz := gzipBytes(b); len(gz) < len(b) {
				write(name+".gz", gz)
			}
		}()
		if o.BrotliQuality > 0 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				br, err := brotliBytes(b, o.BrotliQuality)
				if err != nil {
					record(name+".br", err)
					return
				}
				if len(br) < len(b) {
					write(name+".br", br)
				}
			}()
		}
	}
	wg.Wait()
	return first
}

// gzipBytes is gzip -9 of b.
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// Brotli compresses b as the .br siblings are: at the given quality (1 to
// 11) with a 16 MiB window, cached by content at quality 10 and 11 for
// inputs of 1 MB and more (see brotliBytes).
func Brotli(b []byte, quality int) ([]byte, error) { return brotliBytes(b, quality) }

// brotliCacheKeep is how many cached .br files brotliBytes keeps.
const brotliCacheKeep = 6

// brotliBytes compresses b at the given quality with a 16 MiB window.
// At quality 10 and 11 (30-80 s for the wasm) results for inputs of 1 MB
// and more are cached by content under $XDG_CACHE_HOME/dsplay/brotli,
// keeping the newest brotliCacheKeep files.
func brotliBytes(b []byte, quality int) ([]byte, error) {
	cache := ""
	if len(b) >= 1<<20 && quality >= 10 {
		if d, err := os.UserCacheDir(); err == nil {
			sum := sha256.Sum256(b)
			cache = filepath.Join(d, "dsplay", "brotli", fmt.Sprintf("%x-q%d.br", sum, quality))
			if c, err := os.ReadFile(cache); err == nil {
				now := time.Now()
				os.Chtimes(cache, now, now) // recently used: pruned last
				return c, nil
			}
		}
	}
	var buf bytes.Buffer
	bw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: 24})
	if _, err := bw.Write(b); err != nil {
		return nil, err
	}
	if err := bw.Close(); err != nil {
		return nil, err
	}
	if cache != "" {
		if os.MkdirAll(filepath.Dir(cache), 0o755) == nil {
			tmp := cache + ".tmp" + strconv.Itoa(os.Getpid())
			if os.WriteFile(tmp, buf.Bytes(), 0o644) == nil {
				os.Rename(tmp, cache)
			}
			pruneCache(filepath.Dir(cache), brotliCacheKeep)
		}
	}
	return buf.Bytes(), nil
}

// pruneCache removes all but the keep most recently modified files of dir.
func pruneCache(dir string, keep int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type file struct {
		name string
		mod  time.Time
	}
	var files []file
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			files = append(files, file{e.Name(), info.ModTime()})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].mod.After(files[j].mod) })
	for i := keep; i < len(files); i++ {
		os.Remove(filepath.Join(dir, files[i].name))
	}
}

// goCommand finds the go command: on PATH, else $GOROOT/bin/go.
func goCommand() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	if gr := os.Getenv("GOROOT"); gr != "" {
		p := filepath.Join(gr, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("the go command is not on PATH (install Go 1.26 or set GOROOT)")
}

// ModuleRoot returns the directory of the main module's go.mod, as the go
// command finds it from the current directory upwards; an error outside
// the module or without a go command.
func ModuleRoot(ctx context.Context) (string, error) {
	goBin, err := goCommand()
	if err != nil {
		return "", err
	}
	return moduleRoot(ctx, goBin)
}

// moduleRoot returns the directory of the main module's go.mod.
func moduleRoot(ctx context.Context, goBin string) (string, error) {
	gomod, err := goEnv(ctx, goBin, "", "GOMOD")
	if err != nil {
		return "", err
	}
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside the dsplay module: run from the repository")
	}
	return filepath.Dir(gomod), nil
}

func goEnv(ctx context.Context, goBin, dir, name string) (string, error) {
	cmd := exec.CommandContext(ctx, goBin, "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}
