// Package workerbuild builds the Cloudflare Worker of site/worker: what
// `make worker` runs (through site/worker/cmd/build) and what the Worker test
// (site/worker/workertest) builds into a temporary directory.
//
// The output directory (site/worker/build for `make worker`) gets:
//
//	assets/            the web root, written by site.Build (uploaded as Workers Static Assets)
//	worker/app.wasm    ./site/worker for GOOS=js GOARCH=wasm (-trimpath -s -w),
//	                   its data segments merged (site.MergeWasm)
//	worker/entry.mjs   the entry module, copied from site/worker/entry.mjs
//	worker/worker.mjs, runtime.mjs, wasm_exec.js
//	                   syumai/workers' JS glue, written by its generator
//	                   workers-assets-gen (a go.mod tool dependency pinned
//	                   with the library, v0.33.0: `go tool workers-assets-gen`)
//
// wrangler.toml and workerd.capnp in site/worker refer to these paths
// relative to site/worker; the Worker test copies workerd.capnp next to a
// build directory elsewhere so the same config serves it.
package workerbuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/site"
)

// Result describes a built Worker.
type Result struct {
	// Dir is the output directory; AssetsDir and WorkerDir its two parts.
	Dir, AssetsDir, WorkerDir string
	// WasmBytes and WasmGzipBytes are the sizes of worker/app.wasm, raw and
	// gzip -9 (Cloudflare limits a Worker by its compressed size: 3 MB on
	// the free plan, 10 MB on the paid one).
	WasmBytes, WasmGzipBytes int64
	// WasmMerge says how site.MergeWasm changed worker/app.wasm.
	WasmMerge site.MergeReport
	// AssetFiles and AssetBytes count the web root.
	AssetFiles int
	AssetBytes int64
	// LargestAsset and LargestAssetBytes name the web root's largest file
	// (Workers Static Assets take files up to 25 MiB).
	LargestAsset      string
	LargestAssetBytes int64
	// Site is site.Build's result for the web root.
	Site *site.BuildResult
	// Took is the wall time of the whole build.
	Took time.Duration
}

// CloudflareLimits are the Worker size limits Build's figures are compared
// with, in bytes of the gzip-compressed upload.
const (
	FreePlanLimit = 3 << 20
	PaidPlanLimit = 10 << 20
	// MaxAssetFile is the largest file Workers Static Assets accept.
	MaxAssetFile = 25 << 20
)

// Options tune BuildWith; the zero value is the release build.
type Options struct {
	// Site tunes the web root (site.BuildWith); tests lower its brotli
	// quality.
	Site site.BuildOptions
}

// Build writes the release Worker into dir: BuildWith with zero Options.
func Build(ctx context.Context, dir string) (*Result, error) {
	return BuildWith(ctx, dir, Options{})
}

// BuildWith writes the Worker into dir (see the package comment). It runs
// the go command in the module root found from the current directory. The
// assets directory is emptied first, so a deploy uploads no stale files.
func BuildWith(ctx context.Context, dir string, o Options) (*Result, error) {
	start := time.Now()
	modRoot, err := site.ModuleRoot(ctx)
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	res := &Result{Dir: dir, AssetsDir: filepath.Join(dir, "assets"), WorkerDir: filepath.Join(dir, "worker")}

	// The web root.
	if err := os.RemoveAll(res.AssetsDir); err != nil {
		return nil, err
	}
	if res.Site, err = site.BuildWith(ctx, res.AssetsDir, o.Site); err != nil {
		return nil, fmt.Errorf("building the web root: %w", err)
	}

	// syumai/workers' glue (the generator empties its output directory,
	// so it runs before app.wasm is written there).
	goBin, err := goCommand()
	if err != nil {
		return nil, err
	}
	if err := run(ctx, modRoot, nil, goBin, "tool", "workers-assets-gen", "-mode=go", "-o", res.WorkerDir); err != nil {
		return nil, err
	}

	// Our entry module, which wraps the glue (see site/worker/entry.mjs).
	entry, err := os.ReadFile(filepath.Join(modRoot, "site", "worker", "entry.mjs"))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(res.WorkerDir, "entry.mjs"), entry, 0o644); err != nil {
		return nil, err
	}

	// The Worker's wasm.
	wasm := filepath.Join(res.WorkerDir, "app.wasm")
	ldflags := "-s -w -X main.buildTime=" + time.Now().UTC().Format(time.RFC3339)
	if err := run(ctx, modRoot, []string{"GOOS=js", "GOARCH=wasm"},
		goBin, "build", "-trimpath", "-ldflags="+ldflags, "-o", wasm, "./site/worker"); err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		return nil, err
	}
	// Its data segments merged, as the web root's wasm (site.MergeWasm:
	// the module as linked when that fails).
	merged, r := site.MergeWasm("worker/app.wasm", raw)
	res.WasmMerge = r
	if r.Err == nil {
		if err := os.WriteFile(wasm, merged, 0o644); err != nil {
			return nil, err
		}
		raw = merged
	}
	res.WasmBytes = int64(len(raw))
	res.WasmGzipBytes = gzipSize(raw)

	err = filepath.WalkDir(res.AssetsDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		res.AssetFiles++
		res.AssetBytes += info.Size()
		if info.Size() > res.LargestAssetBytes {
			res.LargestAsset, _ = filepath.Rel(res.AssetsDir, p)
			res.LargestAssetBytes = info.Size()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Took = time.Since(start)
	return res, nil
}

// Summary is the human-readable report `make worker` prints.
func (r *Result) Summary() string {
	var b strings.Builder
	mb := func(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }
	fmt.Fprintf(&b, "built the Worker in %s (%.1fs)\n", r.Dir, r.Took.Seconds())
	fmt.Fprintf(&b, "  Worker wasm  worker/app.wasm: %s raw, %s gzip -9, %d data segments (%d as linked)", mb(r.WasmBytes), mb(r.WasmGzipBytes),
		r.WasmMerge.Segments, r.WasmMerge.LinkedSegments)
	switch {
	case r.WasmGzipBytes <= FreePlanLimit:
		fmt.Fprintf(&b, " (fits the free plan's 3 MiB and the paid plan's 10 MiB)\n")
	case r.WasmGzipBytes <= PaidPlanLimit:
		fmt.Fprintf(&b, " (over the free plan's 3 MiB: needs the paid plan, limit 10 MiB)\n")
	default:
		fmt.Fprintf(&b, " (OVER the paid plan's 10 MiB limit: Cloudflare will refuse it)\n")
	}
	fmt.Fprintf(&b, "  Static Assets assets/: %d files, %s; largest %s %s (limit 25 MiB a file)\n",
		r.AssetFiles, mb(r.AssetBytes), r.LargestAsset, mb(r.LargestAssetBytes))
	return b.String()
}

// goCommand finds the go command: on PATH, else $GOROOT/bin/go.
func goCommand() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	if gr := os.Getenv("GOROOT"); gr != "" {
		if p := filepath.Join(gr, "bin", "go"); fileExists(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("the go command is not on PATH (install Go 1.26 or set GOROOT)")
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func gzipSize(b []byte) int64 {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return int64(buf.Len())
}

// run runs a command in dir with extra environment, returning its output on
// failure.
func run(ctx context.Context, dir string, env []string, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", strings.Join(env, " "), strings.Join(append([]string{name}, args...), " "), err, out)
	}
	return nil
}
