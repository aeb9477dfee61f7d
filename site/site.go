// Package site is the playground's static web root and the one http.Handler
// that serves it (the local server in site/cmd/serve; a Cloudflare Worker
// can wrap the same handler).
//
// The web root is built, not committed: Build writes the committed static
// files (index.html, style.css, boot.js, embedded from static/), main.wasm
// (the ./wasm package built for GOOS=js GOARCH=wasm), its gzip -9 copy
// main.wasm.gz, and wasm_exec.js copied from the Go installation that built
// it (the two must match).
//
// This package is for native builds only: the browser build must not import
// net/http.
package site

import (
	"bytes"
	"compress/gzip"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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

// contentTypes are the MIME types the web root needs. application/wasm is
// what WebAssembly.instantiateStreaming insists on.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
}

// Handler serves the files of root (a built web root, see Build) for GET and
// HEAD: "/" is index.html, MIME types come from the file extension, and a
// file with a "NAME.gz" sibling is sent gzip-encoded to clients that accept
// gzip (with X-Uncompressed-Length, which the loader uses for its progress
// bar). Everything is revalidated (Cache-Control: no-cache), so a rebuilt
// main.wasm is picked up on reload. Unknown paths are 404.
func Handler(root fs.FS) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if strings.HasSuffix(name, ".gz") || !fs.ValidPath(name) {
			http.NotFound(w, r)
			return
		}
		st, err := fs.Stat(root, name)
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		ct, ok := contentTypes[path.Ext(name)]
		if !ok {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		h.Set("Vary", "Accept-Encoding")

		serve := name
		if acceptsGzip(r) {
			if gz, err := fs.Stat(root, name+".gz"); err == nil && !gz.IsDir() {
				serve = name + ".gz"
				h.Set("Content-Encoding", "gzip")
				h.Set("X-Uncompressed-Length", strconv.FormatInt(st.Size(), 10))
				st = gz
			}
		}
		f, err := root.Open(serve)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		rs, ok := f.(io.ReadSeeker)
		if !ok {
			b, err := io.ReadAll(f)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			rs = bytes.NewReader(b)
		}
		http.ServeContent(w, r, "", st.ModTime(), rs)
	})
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// BuildResult describes a built web root.
type BuildResult struct {
	// Dir is the web root.
	Dir string
	// WasmBytes and WasmGzipBytes are the sizes of main.wasm and main.wasm.gz.
	WasmBytes, WasmGzipBytes int64
	// Took is the wall time of the build.
	Took time.Duration
}

// Build writes a complete web root into dir (created if needed): the static
// files, main.wasm built from the module's ./wasm package with
// GOOS=js GOARCH=wasm -trimpath -ldflags="-s -w", main.wasm.gz (gzip -9),
// and wasm_exec.js from $(go env GOROOT)/lib/wasm. It runs the go command
// found on PATH (or $GOROOT/bin/go) in the module root found from the
// current directory upwards.
func Build(ctx context.Context, dir string) (*BuildResult, error) {
	start := time.Now()
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

	// static files
	err = fs.WalkDir(Static(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Static(), p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("copying static files: %w", err)
	}

	// main.wasm
	wasm := filepath.Join(dir, "main.wasm")
	cmd := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./wasm")
	cmd.Dir = modRoot
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go build ./wasm: %v\n%s", err, out)
	}

	// wasm_exec.js from the same Go installation
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
	if err := os.WriteFile(filepath.Join(dir, "wasm_exec.js"), execJS, 0o644); err != nil {
		return nil, err
	}

	// main.wasm.gz
	raw, err := os.ReadFile(wasm)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if err := os.WriteFile(wasm+".gz", gz.Bytes(), 0o644); err != nil {
		return nil, err
	}
	return &BuildResult{Dir: dir, WasmBytes: int64(len(raw)), WasmGzipBytes: int64(gz.Len()), Took: time.Since(start)}, nil
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
