package workertest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/site"
	"github.com/dsplayground/dsplay/site/worker/workerbuild"
)

// server is the Worker running under workerd, shared by the tests and
// benchmarks of this package (built and started once, stopped by TestMain).
type server struct {
	base    string
	build   *workerbuild.Result
	started time.Duration // workerd start to listening
	first   time.Duration // first request answered after that
	cmd     *exec.Cmd
	log     *syncBuffer // workerd's output
	tmp     string      // the build, removed by TestMain
}

var (
	srvOnce sync.Once
	srv     *server
	srvErr  error
	srvSkip string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if srv != nil {
		srv.cmd.Process.Kill()
		srv.cmd.Wait()
		os.RemoveAll(srv.tmp)
	}
	os.Exit(code)
}

// worker returns the running Worker, building and starting it on first use.
func worker(tb testing.TB) *server {
	tb.Helper()
	srvOnce.Do(func() { srv, srvSkip, srvErr = start() })
	if srvSkip != "" {
		tb.Skip(srvSkip)
	}
	if srvErr != nil {
		tb.Fatal(srvErr)
	}
	return srv
}

// workerdBinary finds workerd in site/worker/node_modules (installing the
// pinned npm packages with `npm ci` when they are missing and npm is there).
// skip is set only when npm is absent and DSPLAY_SKIP_WORKER=1.
func workerdBinary(workerDir string) (bin, skip string, err error) {
	platform := map[string]string{
		"linux/amd64": "linux-64", "linux/arm64": "linux-arm64",
		"darwin/amd64": "darwin-64", "darwin/arm64": "darwin-arm64",
	}[runtime.GOOS+"/"+runtime.GOARCH]
	candidates := []string{filepath.Join(workerDir, "node_modules", ".bin", "workerd")}
	if platform != "" {
		// The platform package's binary itself: no node shim in between.
		candidates = append([]string{filepath.Join(workerDir, "node_modules", "@cloudflare", "workerd-"+platform, "bin", "workerd")}, candidates...)
	}
	find := func() string {
		for _, c := range candidates {
			if st, err := os.Stat(c); err == nil && !st.IsDir() {
				return c
			}
		}
		return ""
	}
	if bin = find(); bin != "" {
		return bin, "", nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		if os.Getenv("DSPLAY_SKIP_WORKER") == "1" {
			return "", "npm is missing and DSPLAY_SKIP_WORKER=1: skipping the Worker test", nil
		}
		return "", "", fmt.Errorf("workerd is not installed and npm is missing: run 'sudo apt-get install -y nodejs npm && make worker-deps' (or set DSPLAY_SKIP_WORKER=1 to skip the Worker test)")
	}
	cmd := exec.Command("npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = workerDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("installing workerd: (cd site/worker && npm ci): %v\n%s", err, out)
	}
	if bin = find(); bin == "" {
		return "", "", fmt.Errorf("npm ci in %s installed no workerd binary (looked for %v)", workerDir, candidates)
	}
	return bin, "", nil
}

// start builds the Worker into a temporary directory and starts workerd on
// a free port with site/worker/workerd.capnp.
func start() (*server, string, error) {
	ctx := context.Background()
	root, err := site.ModuleRoot(ctx)
	if err != nil {
		return nil, "", err
	}
	workerDir := filepath.Join(root, "site", "worker")
	bin, skip, err := workerdBinary(workerDir)
	if skip != "" || err != nil {
		return nil, skip, err
	}

	tmp, err := os.MkdirTemp("", "dsplay-worker-")
	if err != nil {
		return nil, "", err
	}
	s, err := startIn(tmp, workerDir, bin)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, "", err
	}
	return s, "", nil
}

// startIn builds into tmp and starts workerd there.
func startIn(tmp, workerDir, bin string) (*server, error) {
	ctx := context.Background()
	// The release build but for a quicker brotli level (quality 11 takes
	// about 28 s for the wasm); the bytes served are compared with the files.
	res, err := workerbuild.BuildWith(ctx, filepath.Join(tmp, "build"), workerbuild.Options{Site: site.BuildOptions{BrotliQuality: 5}})
	if err != nil {
		return nil, fmt.Errorf("building the Worker (make worker): %w", err)
	}
	// A directory with a file: the web root has none today, and workerd's
	// disk service answers a directory with a JSON listing, which the
	// Worker must not serve as a file.
	if err := os.MkdirAll(filepath.Join(res.AssetsDir, "testdir"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(res.AssetsDir, "testdir", "note.txt"), []byte("nested\n"), 0o644); err != nil {
		return nil, err
	}
	config, err := os.ReadFile(filepath.Join(workerDir, "workerd.capnp"))
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, "workerd.capnp"), config, 0o644); err != nil {
		return nil, err
	}

	// workerd reports the port it listens on over --control-fd, so the
	// port is free by construction and "listening" is a measured moment.
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer ctlR.Close()
	s := &server{build: res, log: &syncBuffer{}, tmp: tmp}
	s.cmd = exec.Command(bin, "serve", filepath.Join(tmp, "workerd.capnp"),
		"--socket-addr", "http=127.0.0.1:0",
		"--directory-path", "assets="+res.AssetsDir,
		"--control-fd", "3")
	s.cmd.Dir = tmp
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.ExtraFiles = []*os.File{ctlW}
	t0 := time.Now()
	if err := s.cmd.Start(); err != nil {
		ctlW.Close()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	ctlW.Close()
	portCh := make(chan int, 1)
	go func() {
		sc := bufio.NewScanner(ctlR)
		for sc.Scan() {
			var msg struct {
				Event, Socket string
				Port          int
			}
			if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.Event == "listen" && msg.Socket == "http" {
				portCh <- msg.Port
				return
			}
		}
		close(portCh)
	}()
	var port int
	select {
	case p, ok := <-portCh:
		if !ok {
			s.cmd.Process.Kill()
			s.cmd.Wait()
			return nil, fmt.Errorf("workerd exited without listening:\n%s", s.log)
		}
		port = p
	case <-time.After(60 * time.Second):
		s.cmd.Process.Kill()
		s.cmd.Wait()
		return nil, fmt.Errorf("workerd did not listen within 60s:\n%s", s.log)
	}
	s.started = time.Since(t0)
	s.base = "http://127.0.0.1:" + strconv.Itoa(port)
	t1 := time.Now()
	resp, err := http.Get(s.base + "/")
	if err != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		return nil, fmt.Errorf("first request: %v\n%s", err, s.log)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	s.first = time.Since(t1)
	return s, nil
}

// syncBuffer collects a process's output while tests may read it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// client never decompresses, so Content-Encoding and the raw body are seen.
var client = &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 60 * time.Second}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (s *server) do(tb testing.TB, method, path string, header map[string]string, body []byte) reply {
	tb.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		tb.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v\nworkerd log:\n%s", method, path, err, s.log)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

// hashedWasm is the web root's content-hashed main wasm (main.<hash>.wasm).
func (s *server) hashedWasm(tb testing.TB) string {
	tb.Helper()
	name := s.build.Site.WasmName
	if !regexp.MustCompile(`^main\.[0-9a-f]{16}\.wasm$`).MatchString(name) {
		tb.Fatalf("the web root's wasm is %q, want main.<16 hex digits>.wasm", name)
	}
	return name
}

func (s *server) asset(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.build.AssetsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fetches is the number of ASSETS fetches the Worker made for a response
// (X-Dsplay-Asset-Fetches, sent because workerd.capnp sets DSPLAY_DEBUG).
func fetches(t *testing.T, r reply) int {
	t.Helper()
	n, err := strconv.Atoi(r.header.Get("X-Dsplay-Asset-Fetches"))
	if err != nil {
		t.Fatalf("no X-Dsplay-Asset-Fetches header (is DSPLAY_DEBUG set in workerd.capnp?): %v", r.header)
	}
	return n
}

func TestPages(t *testing.T) {
	s := worker(t)
	t.Logf("Worker wasm %d bytes raw, %d gzip -9 (Cloudflare: 3 MiB free, 10 MiB paid); workerd listening after %v, first response after %v more",
		s.build.WasmBytes, s.build.WasmGzipBytes, s.started.Round(time.Millisecond), s.first.Round(time.Millisecond))

	t.Run("index", func(t *testing.T) {
		r := s.do(t, "GET", "/", nil, nil)
		if r.status != 200 {
			t.Fatalf("GET / = %d\n%s", r.status, r.body)
		}
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("Content-Type = %q, want text/html", ct)
		}
		csp := r.header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval'") || !strings.Contains(csp, "frame-ancestors 'self'") {
			t.Errorf("Content-Security-Policy = %q, want our scripts and wasm only, framed by ourselves", csp)
		}
		if cc := r.header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("Cache-Control = %q, want no-cache", cc)
		}
		if want := s.asset(t, "index.html"); !bytes.Equal(r.body, want) {
			t.Errorf("GET / sent %d bytes, want index.html's %d", len(r.body), len(want))
		}
		if n := fetches(t, r); n > 2 {
			t.Errorf("GET / needed %d asset fetches, want at most 2 (index.html and index.html.br)", n)
		}
		// Revalidation costs a 304 with no body.
		etag := r.header.Get("ETag")
		if etag == "" {
			t.Fatal("no ETag")
		}
		r2 := s.do(t, "GET", "/", map[string]string{"If-None-Match": etag}, nil)
		if r2.status != http.StatusNotModified || len(r2.body) != 0 {
			t.Errorf("GET / If-None-Match: %d with %d bytes, want 304 and none", r2.status, len(r2.body))
		}
	})

	t.Run("wasm", func(t *testing.T) {
		name := s.hashedWasm(t)
		raw := s.asset(t, name)
		for _, tc := range []struct {
			accept, encoding string
			want             []byte
			maxFetches       int // the name, and the sibling sent
		}{
			{"br, gzip", "br", s.asset(t, name+".br"), 2},
			{"gzip", "gzip", s.asset(t, name+".gz"), 2},
			{"", "", raw, 1},
		} {
			r := s.do(t, "GET", "/"+name, map[string]string{"Accept-Encoding": tc.accept}, nil)
			if r.status != 200 {
				t.Fatalf("GET /%s (Accept-Encoding %q) = %d\n%s", name, tc.accept, r.status, r.body)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/wasm" {
				t.Errorf("Content-Type = %q, want application/wasm", ct)
			}
			if ce := r.header.Get("Content-Encoding"); ce != tc.encoding {
				t.Errorf("Accept-Encoding %q: Content-Encoding = %q, want %q", tc.accept, ce, tc.encoding)
			}
			if cc := r.header.Get("Cache-Control"); !strings.Contains(cc, "immutable") || !strings.Contains(cc, "max-age=31536000") {
				t.Errorf("Cache-Control = %q, want immutable for a hashed name", cc)
			}
			if !bytes.Equal(r.body, tc.want) {
				t.Errorf("Accept-Encoding %q: body is %d bytes, want the %d of the file on disk", tc.accept, len(r.body), len(tc.want))
			}
			if tc.encoding != "" {
				if ul := r.header.Get("X-Uncompressed-Length"); ul != strconv.Itoa(len(raw)) {
					t.Errorf("X-Uncompressed-Length = %q, want %d", ul, len(raw))
				}
			}
			if tc.encoding == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(r.body))
				if err != nil {
					t.Fatal(err)
				}
				plain, err := io.ReadAll(zr)
				if err != nil || !bytes.Equal(plain, raw) {
					t.Errorf("the gzip body does not decompress to the wasm (%v)", err)
				}
			}
			if n := fetches(t, r); n > tc.maxFetches {
				t.Errorf("Accept-Encoding %q: %d asset fetches, want at most %d", tc.accept, n, tc.maxFetches)
			}
		}
		// A range of the raw file (the handler seeks; the FS must follow).
		r := s.do(t, "GET", "/"+name, map[string]string{"Range": "bytes=100-199"}, nil)
		if r.status != http.StatusPartialContent || !bytes.Equal(r.body, raw[100:200]) {
			t.Errorf("Range bytes=100-199: %d with %d bytes, want 206 and the file's bytes 100-199", r.status, len(r.body))
		}
	})

	t.Run("embed", func(t *testing.T) {
		r := s.do(t, "GET", "/embed.html", nil, nil)
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
			t.Fatalf("GET /embed.html = %d %q", r.status, r.header.Get("Content-Type"))
		}
		if csp := r.header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors *") {
			t.Errorf("embed.html CSP = %q, want frame-ancestors * (tutorials frame it)", csp)
		}
		if !bytes.Equal(r.body, s.asset(t, "embed.html")) {
			t.Error("embed.html body differs from the built file")
		}
	})

	t.Run("nested", func(t *testing.T) {
		r := s.do(t, "GET", "/testdir/note.txt", nil, nil)
		if r.status != 200 || string(r.body) != "nested\n" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") {
			t.Errorf("GET /testdir/note.txt = %d %q %q", r.status, r.header.Get("Content-Type"), r.body)
		}
	})

	t.Run("not found", func(t *testing.T) {
		for _, p := range []string{"/no-such-file.js", "/no-such-page", "/" + s.hashedWasm(t) + ".br", "/testdir", "/testdir/"} {
			r := s.do(t, "GET", p, nil, nil)
			if r.status != 404 {
				t.Errorf("GET %s = %d, want 404", p, r.status)
			}
		}
	})
}

const daemonSet = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: busybox:1.36
        command: ["sleep", "infinity"]
`

func postJSON(t *testing.T, s *server, path string, v any) (reply, map[string]any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	r := s.do(t, "POST", path, map[string]string{"Content-Type": "application/json"}, b)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("POST %s: Content-Type %q, want JSON; status %d body %s", path, ct, r.status, r.body)
	}
	var out map[string]any
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("POST %s: %v\n%s", path, err, r.body)
	}
	return r, out
}

func TestAPI(t *testing.T) {
	s := worker(t)

	t.Run("validate ok", func(t *testing.T) {
		r, out := postJSON(t, s, "/api/validate", map[string]string{"yaml": daemonSet})
		if r.status != 200 || out["ok"] != true {
			t.Fatalf("validate a good DaemonSet: %d %s", r.status, r.body)
		}
		objs, _ := out["objects"].([]any)
		if len(objs) != 1 || !strings.Contains(fmt.Sprint(objs[0]), "DaemonSet") || !strings.Contains(fmt.Sprint(objs[0]), "agent") {
			t.Errorf("objects = %v, want the DaemonSet agent", out["objects"])
		}
	})

	t.Run("validate bad", func(t *testing.T) {
		bad := strings.Replace(daemonSet, "  selector:", "\tselector:", 1)
		r, out := postJSON(t, s, "/api/validate", map[string]string{"yaml": bad})
		if r.status != 200 || out["ok"] != false {
			t.Fatalf("validate YAML with a tab: %d %s", r.status, r.body)
		}
		diags, _ := out["diagnostics"].([]any)
		if len(diags) == 0 {
			t.Fatalf("no diagnostics: %s", r.body)
		}
		d, _ := diags[0].(map[string]any)
		line, _ := d["line"].(float64)
		col, _ := d["column"].(float64)
		if line != 6 || col < 1 {
			t.Errorf("diagnostic %v: want line 6 (the tab) and a column", d)
		}
	})

	t.Run("run ok", func(t *testing.T) {
		scenario := "kubectl apply -f agent.yaml\nwait rollout ds/agent\nkubectl get ds agent\nstdout '^agent\\s+2\\s+2\\s+2\\s+2\\s+2\\s'\n-- agent.yaml --\n" + daemonSet
		r, out := postJSON(t, s, "/api/run", map[string]string{"scenario": scenario})
		if r.status != 200 || out["ok"] != true || out["exitCode"] != float64(0) {
			t.Fatalf("run a passing scenario: %d %s", r.status, r.body)
		}
		if tr, _ := out["transcript"].(string); !strings.Contains(tr, "daemonset.apps/agent created") {
			t.Errorf("transcript lacks kubectl apply's output:\n%s", tr)
		}
	})

	t.Run("run failing", func(t *testing.T) {
		scenario := "kubectl apply -f agent.yaml\nwait rollout ds/agent\nkubectl get ds agent\nstdout '^agent\\s+3\\s'\n-- agent.yaml --\n" + daemonSet
		r, out := postJSON(t, s, "/api/run", map[string]string{"scenario": scenario})
		if r.status != 200 || out["ok"] != false || out["exitCode"] != float64(1) {
			t.Fatalf("run a failing scenario: %d %s", r.status, r.body)
		}
		if f, _ := out["failures"].([]any); len(f) == 0 {
			t.Errorf("no failures reported: %s", r.body)
		}
	})

	t.Run("body limit", func(t *testing.T) {
		big := map[string]string{"yaml": "# " + strings.Repeat("x", 300<<10) + "\n" + daemonSet}
		r, _ := postJSON(t, s, "/api/validate", big)
		if r.status != http.StatusRequestEntityTooLarge {
			t.Errorf("a 300 KiB body: %d, want 413", r.status)
		}
	})

	t.Run("index", func(t *testing.T) {
		r := s.do(t, "GET", "/api", nil, nil)
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
			t.Errorf("GET /api = %d %q", r.status, r.header.Get("Content-Type"))
		}
	})
}

// TestLatency reports (never asserts) what a request costs under workerd,
// with a fresh Go instance for every request: minimum, median and maximum
// of 20.
func TestLatency(t *testing.T) {
	s := worker(t)
	scenario := map[string]string{"scenario": "kubectl apply -f agent.yaml\nwait rollout ds/agent\n-- agent.yaml --\n" + daemonSet}
	body, _ := json.Marshal(scenario)
	var mem int64
	for _, tc := range []struct {
		name, method, path string
		header             map[string]string
		body               []byte
	}{
		{"GET /api (no asset fetch)", "GET", "/api", nil, nil},
		{"GET /", "GET", "/", nil, nil},
		{"GET /main.<hash>.wasm (br)", "GET", "/" + s.hashedWasm(t), map[string]string{"Accept-Encoding": "br"}, nil},
		{"POST /api/run", "POST", "/api/run", map[string]string{"Content-Type": "application/json"}, body},
	} {
		var ds []time.Duration
		var last reply
		const n = 20
		for range n {
			t0 := time.Now()
			r := s.do(t, tc.method, tc.path, tc.header, tc.body)
			ds = append(ds, time.Since(t0))
			if r.status != 200 {
				t.Fatalf("%s = %d", tc.name, r.status)
			}
			last = r
		}
		slices.Sort(ds)
		if sys, err := strconv.ParseInt(last.header.Get("X-Dsplay-Go-Sys"), 10, 64); err == nil {
			mem = max(mem, sys)
		}
		t.Logf("%-28s min %v, median %v, max %v (%d requests)", tc.name, ds[0].Round(100*time.Microsecond), ds[n/2].Round(100*time.Microsecond), ds[n-1].Round(100*time.Microsecond), n)
	}
	t.Logf("Go runtime memory of one instance (runtime.MemStats.Sys at the response headers): up to %.1f MB", float64(mem)/1e6)
}

func BenchmarkWorker(b *testing.B) {
	s := worker(b)
	body, _ := json.Marshal(map[string]string{"scenario": "kubectl apply -f agent.yaml\nwait rollout ds/agent\n-- agent.yaml --\n" + daemonSet})
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			s.do(b, "GET", "/", nil, nil)
		}
	})
	b.Run("api-run", func(b *testing.B) {
		for b.Loop() {
			s.do(b, "POST", "/api/run", map[string]string{"Content-Type": "application/json"}, body)
		}
	})
}

// TestWorkerdMissing checks what happens without node_modules: npm absent
// fails with the command to run, or skips only with DSPLAY_SKIP_WORKER=1.
func TestWorkerdMissing(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty) // no npm
	for _, tc := range []struct {
		skipEnv, wantSkip, wantErr string
	}{
		{"", "", "sudo apt-get install -y nodejs npm && make worker-deps"},
		{"1", "DSPLAY_SKIP_WORKER=1", ""},
		{"yes", "", "DSPLAY_SKIP_WORKER=1 to skip"},
	} {
		t.Setenv("DSPLAY_SKIP_WORKER", tc.skipEnv)
		bin, skip, err := workerdBinary(empty)
		if bin != "" || !strings.Contains(skip, tc.wantSkip) || (tc.wantSkip == "") != (skip == "") {
			t.Errorf("DSPLAY_SKIP_WORKER=%q: bin %q, skip %q; want skip containing %q", tc.skipEnv, bin, skip, tc.wantSkip)
		}
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("DSPLAY_SKIP_WORKER=%q: error %v, want one containing %q", tc.skipEnv, err, tc.wantErr)
		}
	}
}

// TestConfigsAgree checks wrangler.toml against the build and workerd.capnp:
// the entry module and the assets directory it names are what `make worker`
// writes, the ASSETS binding runs the Worker first, and both configs use the
// same compatibility date.
func TestConfigsAgree(t *testing.T) {
	s := worker(t)
	root, err := site.ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, "site", "worker", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	wrangler, capnp := read("wrangler.toml"), read("workerd.capnp")
	value := func(src, key string) string {
		m := regexp.MustCompile(`(?m)^\s*` + key + `\s*=\s*"([^"]*)"`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("no %s in\n%s", key, src)
		}
		return m[1]
	}
	exists := func(rel string) {
		// The configs name paths relative to site/worker; the test's build
		// has the same layout under its temporary directory.
		if _, err := os.Stat(filepath.Join(s.tmp, filepath.FromSlash(rel))); err != nil {
			t.Errorf("%s is not in the build: %v", rel, err)
		}
	}
	exists(value(wrangler, "main"))
	exists(value(wrangler, "directory"))
	for _, m := range regexp.MustCompile(`embed "([^"]+)"`).FindAllStringSubmatch(capnp, -1) {
		exists(m[1])
	}
	if !strings.Contains(capnp, `(name = "entry.mjs", esModule = embed "`+value(wrangler, "main")+`")`) {
		t.Errorf("workerd.capnp's main module is not wrangler.toml's main %q", value(wrangler, "main"))
	}
	if value(wrangler, "binding") != "ASSETS" || !regexp.MustCompile(`(?m)^run_worker_first = true$`).MatchString(wrangler) {
		t.Error(`wrangler.toml: [assets] needs binding = "ASSETS" and run_worker_first = true (the handler sets every header)`)
	}
	if d, c := value(wrangler, "compatibility_date"), value(capnp, "compatibilityDate"); d != c {
		t.Errorf("compatibility dates differ: wrangler.toml %s, workerd.capnp %s", d, c)
	}
}
