package workertest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/site"
)

// TestWrangler serves the same build with `wrangler dev --local` (offline):
// wrangler.toml as committed, without its build step, so the ASSETS binding
// is wrangler's own implementation of Workers Static Assets rather than
// workerd's disk service. It checks the page, the br wasm byte for byte (the
// runtime compresses again what it is not told is compressed, see
// entry.mjs), a 404 and /api/validate.
func TestWrangler(t *testing.T) {
	s := worker(t)
	root, err := site.ModuleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	workerDir := filepath.Join(root, "site", "worker")
	wrangler := filepath.Join(workerDir, "node_modules", "wrangler", "bin", "wrangler.js")
	if _, err := os.Stat(wrangler); err != nil {
		t.Fatalf("wrangler is not installed: run 'make worker-deps' (cd site/worker && npm ci): %v", err)
	}
	// wrangler 4.86.0 (package.json) needs Node.js 20.3 or later.
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if m := regexp.MustCompile(`^v(\d+)\.(\d+)`).FindStringSubmatch(string(out)); m != nil {
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		if major < 20 || major == 20 && minor < 3 {
			t.Skipf("Node.js %s is older than the 20.3 wrangler 4.86.0 needs (TestPages/TestAPI cover the Worker under workerd)", strings.TrimSpace(string(out)))
		}
	}

	// wrangler.toml without [build] (the test built already), with the
	// debug variable; its paths are relative to the config, like the build's.
	cfg, err := os.ReadFile(filepath.Join(workerDir, "wrangler.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(cfg), "\n") {
		if l == "[build]" || strings.HasPrefix(l, "command =") || strings.HasPrefix(l, "watch_dir =") {
			continue
		}
		lines = append(lines, l)
	}
	lines = append(lines, "", "[vars]", `DSPLAY_DEBUG = "1"`, "")
	config := filepath.Join(s.tmp, "wrangler.toml")
	if err := os.WriteFile(config, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	var log syncBuffer
	cmd := exec.Command("node", wrangler, "dev", "--local", "--config", config,
		"--ip", "127.0.0.1", "--port", strconv.Itoa(port), "--inspector-port", "0",
		"--show-interactive-dev-session=false", "--log-level", "warn")
	cmd.Dir = s.tmp
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=true", "NO_COLOR=1")
	cmd.Stdout, cmd.Stderr = &log, &log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // wrangler starts workerd: stop them together
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})

	w := &server{base: "http://127.0.0.1:" + strconv.Itoa(port), build: s.build, log: &log, tmp: s.tmp}
	deadline := time.Now().Add(90 * time.Second)
	for {
		resp, err := http.Get(w.base + "/api")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		select {
		case <-done:
			t.Fatalf("wrangler dev exited:\n%s", log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("wrangler dev did not answer within 90s:\n%s", log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("wrangler dev --local answered after %v", time.Since(t0).Round(time.Millisecond))

	r := w.do(t, "GET", "/", nil, nil)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !strings.Contains(r.header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("GET / = %d %q, CSP %q", r.status, r.header.Get("Content-Type"), r.header.Get("Content-Security-Policy"))
	}

	name := s.hashedWasm(t)
	r = w.do(t, "GET", "/"+name, map[string]string{"Accept-Encoding": "br"}, nil)
	if r.status != 200 || r.header.Get("Content-Encoding") != "br" || !strings.Contains(r.header.Get("Cache-Control"), "immutable") {
		t.Errorf("GET /%s (br) = %d, Content-Encoding %q, Cache-Control %q", name, r.status, r.header.Get("Content-Encoding"), r.header.Get("Cache-Control"))
	}
	if want := s.asset(t, name+".br"); !bytes.Equal(r.body, want) {
		t.Errorf("the br wasm is %d bytes, want the %d of %s.br (compressed twice?)", len(r.body), len(want), name)
	}
	if n := fetches(t, r); n > 2 {
		t.Errorf("the br wasm needed %d asset fetches, want at most 2", n)
	}

	if r := w.do(t, "GET", "/no-such-file.js", nil, nil); r.status != 404 {
		t.Errorf("GET /no-such-file.js = %d, want 404", r.status)
	}

	vr, res := postJSON(t, w, "/api/validate", map[string]string{"yaml": strings.Replace(daemonSet, "  selector:", "\tselector:", 1)})
	if vr.status != 200 || res["ok"] != false || !strings.Contains(fmt.Sprint(res["diagnostics"]), "line:6") {
		t.Errorf("POST /api/validate with a tab: %d %s", vr.status, vr.body)
	}
}
