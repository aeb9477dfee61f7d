package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dsplayground/dsplay/site"
	"github.com/dsplayground/dsplay/site/web"
)

// pollTimeout bounds every wait for a condition in the page.
const pollTimeout = 15 * time.Second

var (
	setupOnce sync.Once
	setupErr  error
	baseURL   string
	browser   context.Context // a chromedp context with the browser started
	shotDir   string
	buildInfo *site.BuildResult
)

func TestMain(m *testing.M) {
	code := m.Run()
	if browser != nil {
		chromedp.Cancel(browser)
	}
	if cleanup != nil {
		cleanup()
	}
	os.Exit(code)
}

var cleanup func()

// tmpDir holds the built web root (tmpDir/web) and the browser profile.
var tmpDir string

// brotliQuality is the brotli level of the test build: 5 (fast, about
// 0.6 s for the wasm) unless DSPLAY_BROTLI_QUALITY says otherwise (11 is
// the release level; the load measurements use it when set).
func brotliQuality() int {
	if q, err := strconv.Atoi(os.Getenv("DSPLAY_BROTLI_QUALITY")); err == nil && q >= 1 && q <= 11 {
		return q
	}
	return 5
}

// chromiumPath returns the browser to drive.
func chromiumPath() (string, error) {
	if p := os.Getenv("DSPLAY_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("DSPLAY_CHROMIUM=%s: %v. Install Chromium with `apt-get install -y chromium` (as root), "+
				"or set DSPLAY_SKIP_BROWSER=1 to skip the browser tests", p, err)
		}
		return p, nil
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	return "", errors.New("Chromium is not installed: the browser tests need it. " +
		"Install it with `apt-get install -y chromium` (as root), " +
		"or set DSPLAY_SKIP_BROWSER=1 to skip the browser tests")
}

// setup builds the site, serves it and starts one headless Chromium, once.
func setup(t testing.TB) {
	t.Helper()
	if os.Getenv("DSPLAY_SKIP_BROWSER") == "1" {
		t.Skip("DSPLAY_SKIP_BROWSER=1")
	}
	setupOnce.Do(func() { setupErr = doSetup() })
	if setupErr != nil {
		t.Fatal(setupErr)
	}
}

func doSetup() error {
	exe, err := chromiumPath()
	if err != nil {
		return err
	}
	if err := touchSources(filepath.Join("..", "..")); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "dsplay-browsertest-")
	if err != nil {
		return err
	}
	var srv *httptest.Server
	cleanup = func() {
		if srv != nil {
			srv.Close()
		}
		os.RemoveAll(tmp)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	buildInfo, err = site.BuildWith(ctx, filepath.Join(tmp, "web"), site.BuildOptions{BrotliQuality: brotliQuality()})
	if err != nil {
		return err
	}
	srv = httptest.NewServer(web.New(os.DirFS(buildInfo.Dir), web.Options{})) // listens on 127.0.0.1
	baseURL = srv.URL
	tmpDir = tmp

	shotDir = os.Getenv("DSPLAY_SCREENSHOTS")
	if shotDir == "" {
		shotDir = filepath.Join(os.TempDir(), "dsplay-screenshots")
	}
	if err := os.MkdirAll(shotDir, 0o755); err != nil {
		return err
	}

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(filepath.Join(tmp, "profile")), // fresh profile
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.WindowSize(1440, 1000),
	}
	allocCtx, _ := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, _ = chromedp.NewContext(allocCtx)
	if err := chromedp.Do(browser); err != nil { // starts the browser
		return fmt.Errorf("starting %s: %w", exe, err)
	}
	return nil
}

// touchSources opens every file the wasm build reads (the Go files of
// wasm/, engine/ and examples/, the example manifests it embeds, go.mod,
// go.sum). The go command builds main.wasm in a subprocess, which the test
// cache cannot see; files the test itself opens are part of the cache key,
// so a change to the UI, the engine or an example reruns these tests.
func touchSources(root string) error {
	for _, f := range []string{"go.mod", "go.sum"} {
		if _, err := os.ReadFile(filepath.Join(root, f)); err != nil {
			return err
		}
	}
	for _, dir := range []string{"wasm", "engine", "examples"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			source := strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") ||
				strings.HasSuffix(p, ".yaml") && filepath.Base(filepath.Dir(p)) == "manifests"
			if err != nil || d.IsDir() || !source {
				return err
			}
			_, err = os.ReadFile(p)
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// page is one tab on the playground with its console collected.
type page struct {
	t   testing.TB
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// open opens a new tab on the playground (paused: the test drives virtual
// time) and waits until the Go program is ready.
func open(t testing.TB, query string) *page {
	t.Helper()
	setup(t)
	return openURL(t, baseURL+"/"+query)
}

// openURL opens a new tab on url (the playground served elsewhere: a plain
// file server, file://, embed.html) and waits until the Go program is
// ready; lesson steps then play without slow motion (dsplay.pace(false)).
func openURL(t testing.TB, url string) *page { return openURLIn(t, url, nil) }

// openURLIn is openURL in a tab beside beside's (the same visitor's
// storage; nil: a new visitor).
func openURLIn(t testing.TB, url string, beside *page) *page {
	t.Helper()
	p := newTabIn(t, beside)
	start := time.Now()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page to load and start the simulator")
	t.Logf("page ready in %v", time.Since(start).Round(time.Millisecond))
	p.instant()
	return p
}

// newTab opens a blank tab with its console collected (setup first), in a
// browser context of its own: a new visitor, with no storage (the saved
// session, the history) left by another test.
func newTab(t testing.TB) *page { return newTabIn(t, nil) }

// tabTimeout bounds everything a tab does, from its opening (a soak test
// that plays for many minutes raises it before opening its page).
var tabTimeout = 2 * time.Minute

// newTabIn opens a blank tab beside the tab of p (the same browser
// context: the same storage, as a second tab of one visitor), or in a new
// browser context when p is nil.
func newTabIn(t testing.TB, p0 *page) *page {
	t.Helper()
	setup(t)
	var tab context.Context
	var cancel context.CancelFunc
	if p0 != nil {
		tab, cancel = chromedp.NewContext(p0.ctx)
	} else {
		tab, cancel = chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	}
	t.Cleanup(func() { cancel() })
	ctx, cancelT := context.WithTimeout(tab, tabTimeout)
	t.Cleanup(cancelT)
	p := &page{t: t, ctx: ctx}
	if err := chromedp.Do(tab); err != nil { // open the tab without a timeout bound to it
		t.Fatal(err)
	}
	msgs := chromedp.Console(tab)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m)
			p.mu.Unlock()
		}
	}()
	return p
}

// instant makes lesson steps and solutions play at once: the tests of
// what they do need not wait for their slow motion (the stage's tests
// turn it on). A reload turns slow motion back on: call it again.
func (p *page) instant() {
	p.t.Helper()
	eval[bool](p, `!!(window.dsplay && dsplay.pace && (dsplay.pace(false), true))`)
}

// eval evaluates a JavaScript expression and decodes its result.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitJS polls a JavaScript condition until it is truthy.
func (p *page) waitJS(cond, what string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, pollTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		p.t.Fatalf("waiting for %s (%s): %v\n%s", what, cond, err, p.describe())
	}
}

// describe summarises the page for failure messages.
func (p *page) describe() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){
		const out = [];
		for (const n of document.querySelectorAll(".node")) {
			const pods = [...n.querySelectorAll(".pod:not(.gone)")].map(c => c.dataset.pod + "=" + c.dataset.status);
			const why = [...n.querySelectorAll(".why li")].map(l => l.textContent);
			out.push(n.dataset.node + ": [" + pods.join(", ") + "] " + why.join(" | "));
		}
		out.push("apply-result: " + document.getElementById("apply-result").textContent);
		out.push("kubectl: " + document.getElementById("kout").textContent.slice(-600));
		out.push("fatal: " + document.getElementById("fatal").textContent);
		return out.join("\n");
	})()`))
	if err != nil {
		return "(page state unavailable: " + err.Error() + ")"
	}
	return s
}

// consoleErrors returns the console errors and uncaught exceptions so far.
func (p *page) consoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, m := range p.console {
		if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
			out = append(out, fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
		}
	}
	return out
}

func (p *page) checkConsole() {
	p.t.Helper()
	if errs := p.consoleErrors(); len(errs) > 0 {
		p.t.Errorf("browser console has errors:\n%s", strings.Join(errs, "\n"))
	}
}

// advance moves virtual time by the given seconds through window.dsplay.
func (p *page) advance(seconds float64) {
	p.t.Helper()
	eval[float64](p, fmt.Sprintf("dsplay.advance(%g)", seconds))
}

// screenshot writes a full-page PNG and logs its path.
func (p *page) screenshot(name string) string {
	p.t.Helper()
	p.waitJS(`document.getAnimations().every(a => a.playState !== "running")`, "animations to finish before the screenshot")
	return p.shotNow(name)
}

// shotNow writes a full-page PNG at once, while animations and captions
// still play, and logs its path.
func (p *page) shotNow(name string) string {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(shotDir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
	return path
}

// runKubectl types a command into the kubectl box and presses Enter.
func (p *page) runKubectl(line string) {
	p.t.Helper()
	before := eval[int](p, `document.querySelectorAll("#kout .block").length`)
	if err := chromedp.Do(p.ctx,
		chromedp.Focus(chromedp.ID("kubectl")),
		chromedp.SendKeys(chromedp.ID("kubectl"), line+"\n"),
	); err != nil {
		p.t.Fatal(err)
	}
	p.waitJS(fmt.Sprintf(`document.querySelectorAll("#kout .block").length > %d`, before), "the output of "+line)
}

// lastOutput returns the last kubectl block's stdout and stderr.
func (p *page) lastOutput() (stdout, stderr string) {
	p.t.Helper()
	r := eval[[]string](p, `(function(){
		const b = [...document.querySelectorAll("#kout .block")].pop();
		const get = (c) => [...b.querySelectorAll("." + c)].map(e => e.textContent).join("");
		return [get("stdout"), get("stderr")];
	})()`)
	return r[0], r[1]
}

// podsOn is a JS expression: the live chips of owner's pods on node with a status.
func podsOn(node, owner, status string) string {
	sel := fmt.Sprintf(`.node[data-node="%s"] .pod:not(.gone)[data-owner="%s"]`, node, owner)
	if status != "" {
		sel += fmt.Sprintf(`[data-status="%s"]`, status)
	}
	return fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)
}

const fluentd = "fluentd-elasticsearch"

func TestDefaultClusterRunsTheExample(t *testing.T) {
	p := open(t, "?paused")
	// The default cluster is drawn at once.
	nodes := eval[[]string](p, `[...document.querySelectorAll(".node")].map(n => n.dataset.node)`)
	if strings.Join(nodes, ",") != "control-plane,node-1,node-2" {
		t.Fatalf("node cards %v, want control-plane, node-1, node-2", nodes)
	}
	if got := eval[string](p, `document.querySelector('.node[data-node="control-plane"] .taint').textContent`); got != "node-role.kubernetes.io/control-plane:NoSchedule" {
		t.Errorf("control-plane taint shown as %q", got)
	}
	if got := eval[string](p, `document.querySelector('.node[data-node="control-plane"] .roles').textContent`); got != "control-plane" {
		t.Errorf("control-plane roles shown as %q", got)
	}
	if !eval[bool](p, `document.getElementById("loading").hidden`) {
		t.Errorf("the loading indicator is still shown")
	}

	// A few virtual seconds later the example's pods run on node-1 and node-2.
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1 && "+podsOn("node-2", fluentd, "Running")+" === 1", "fluentd Running on node-1 and node-2")
	if n := eval[int](p, podsOn("control-plane", fluentd, "")); n != 0 {
		t.Errorf("control-plane shows %d fluentd pods, want 0", n)
	}
	why := eval[string](p, `(document.querySelector('.node[data-node="control-plane"] .why li[data-ds="fluentd-elasticsearch"]') || {textContent: ""}).textContent`)
	if !strings.Contains(why, "no fluentd-elasticsearch pod") || !strings.Contains(why, "node-role.kubernetes.io/control-plane:NoSchedule") {
		t.Errorf("control-plane's reason is %q, want it to name the untolerated control-plane taint", why)
	}
	for _, n := range []string{"node-1", "node-2"} {
		if w := eval[string](p, fmt.Sprintf(`document.querySelector('.node[data-node="%s"] .why').textContent`, n)); w != "" {
			t.Errorf("%s shows a reason %q though it runs the pod", n, w)
		}
	}
	// The DaemonSet table counts them (once the stage has played what
	// changed: its counts follow the picture).
	p.waitJS(`!dsplay.stage().holding`, "the stage idle")
	row := eval[[]string](p, `[...document.querySelectorAll('#ds-rows tr[data-ds="fluentd-elasticsearch"] td')].slice(1).map(td => td.textContent)`)
	if strings.Join(row, " ") != "2 2 2 2 2 0" {
		t.Errorf("DaemonSet row (desired current ready up-to-date available misscheduled) = %v, want 2 2 2 2 2 0", row)
	}
	// The clock shows the virtual time.
	if c := eval[string](p, `document.getElementById("clock").textContent`); c != "10.0 s" {
		t.Errorf("clock shows %q, want 10.0 s", c)
	}
	// The decision log says what happened.
	if n := eval[int](p, `document.querySelectorAll("#log li").length`); n == 0 {
		t.Errorf("the decision log is empty")
	}

	// Clicking control-plane lists every check, the failed taint among them.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="control-plane"]`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
	checks := eval[[]string](p, `[...document.querySelectorAll('#panel .verdict[data-ds="fluentd-elasticsearch"] .checks li')].map(li => li.className + " " + li.querySelector(".name").textContent)`)
	joined := strings.Join(checks, "\n")
	for _, want := range []string{"pass nodeName", "pass nodeSelector", "fail taint node-role.kubernetes.io/control-plane:NoSchedule"} {
		if !strings.Contains(joined, want) {
			t.Errorf("panel checks lack %q:\n%s", want, joined)
		}
	}
	p.screenshot("dsplay-panel")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("panel-close"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("panel").hidden`, "the node panel to close")

	p.screenshot("dsplay-default")
	p.checkConsole()
}

// Without ?paused the clock runs by itself: the animation loop advances
// virtual time and the example's pods come up.
func TestClockPlays(t *testing.T) {
	p := open(t, "")
	p.waitJS(`dsplay.elapsed() > 0.5`, "virtual time to move on its own")
	// 10x speed brings the pods up quickly.
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.ID("speed"), "10"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("speed").dispatchEvent(new Event("change"))`)); err != nil {
		t.Fatal(err)
	}
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1 && "+podsOn("node-2", fluentd, "Running")+" === 1", "fluentd Running while the clock plays")
	// Pause stops the clock; step moves it by one second.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("play"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("play").textContent === "Play"`, "the clock to pause")
	t0 := eval[float64](p, `dsplay.elapsed()`)
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("step"))); err != nil {
		t.Fatal(err)
	}
	if t1 := eval[float64](p, `dsplay.elapsed()`); t1-t0 < 0.999 || t1-t0 > 1.001 {
		t.Errorf("step moved virtual time by %gs, want 1s", t1-t0)
	}
	p.checkConsole()
}

const dsDemo = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ds-demo
  labels:
    k8s-app: nginx
spec:
  selector:
    matchLabels:
      name: app
  template:
    metadata:
      labels:
        name: app
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      - key: node-role.kubernetes.io/master
        operator: Exists
        effect: NoSchedule
      containers:
      - name: nginx
        image: nginx:1.23
        imagePullPolicy: Never
`

func TestApplyPastedManifest(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	// Paste into the editor and press Ctrl+Enter.
	if err := chromedp.Do(p.ctx,
		chromedp.SetValue(chromedp.ID("yaml"), dsDemo),
		chromedp.Focus(chromedp.ID("yaml")),
		chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
	); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("apply-result").textContent.includes("daemonset.apps/ds-demo created")`, "the apply report")
	// Pods appear at once (Pending), then run on every node, control-plane included.
	p.waitJS(`document.querySelectorAll('.pod:not(.gone)[data-owner="ds-demo"]').length === 3`, "three ds-demo pods")
	p.advance(10)
	for _, n := range []string{"control-plane", "node-1", "node-2"} {
		p.waitJS(podsOn(n, "ds-demo", "Running")+" === 1", "ds-demo Running on "+n)
	}
	// The line numbers follow the text.
	if g := eval[string](p, `document.getElementById("gutter").textContent.split("\n")[25]`); g != "26" {
		t.Errorf("gutter line 26 reads %q", g)
	}
	// Apply again with the button: nothing changes, kubectl says unchanged.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("apply"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.getElementById("apply-result").textContent.includes("daemonset.apps/ds-demo unchanged")`, "the second apply report")
	// The editor's text is manifest.yaml for kubectl apply -f.
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.ID("yaml"), strings.Replace(dsDemo, "nginx:1.23", "nginx:1.25", 1))); err != nil {
		t.Fatal(err)
	}
	p.runKubectl("kubectl apply -f manifest.yaml")
	if out, errOut := p.lastOutput(); strings.TrimSpace(out) != "daemonset.apps/ds-demo configured" {
		t.Errorf("kubectl apply -f manifest.yaml printed %q (stderr %q), want daemonset.apps/ds-demo configured", out, errOut)
	}
	p.advance(120)
	p.waitJS(`document.querySelector('#ds-rows tr[data-ds="ds-demo"] .img').textContent === "nginx:1.25"`, "the new image in the DaemonSet table")
	p.screenshot("dsplay-ds-demo")
	p.checkConsole()
}

func TestKubectlTaints(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1", "fluentd Running on node-1")
	pod := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod[data-owner="fluentd-elasticsearch"]').dataset.pod`)

	p.runKubectl("kubectl get ds")
	if out, errOut := p.lastOutput(); !strings.Contains(out, "NAME") || !strings.Contains(out, "DESIRED") || !strings.Contains(out, fluentd) || errOut != "" {
		t.Errorf("kubectl get ds printed %q, stderr %q", out, errOut)
	}

	// NoSchedule keeps the running pod (now misscheduled).
	p.runKubectl("kubectl taint nodes node-1 key=value:NoSchedule")
	if out, _ := p.lastOutput(); strings.TrimSpace(out) != "node/node-1 tainted" {
		t.Errorf("taint printed %q, want node/node-1 tainted", out)
	}
	p.waitJS(`[...document.querySelectorAll('.node[data-node="node-1"] .taint')].some(t => t.textContent === "key=value:NoSchedule")`, "the new taint on node-1's card")
	p.advance(60)
	if n := eval[int](p, podsOn("node-1", fluentd, "Running")); n != 1 {
		t.Errorf("after a NoSchedule taint node-1 shows %d running fluentd pods, want 1 (kept)", n)
	}
	if got := eval[string](p, fmt.Sprintf(`document.querySelector('.node[data-node="node-1"] .pod[data-owner="fluentd-elasticsearch"]').dataset.pod`)); got != pod {
		t.Errorf("node-1's pod changed from %s to %s", pod, got)
	}
	// Since 1.33 a NoSchedule taint under a running daemon pod syncs no
	// DaemonSet (syncNodeUpdate), so the status still counts node-1 as
	// desired; the node card shows the controller's verdict.
	p.waitJS(`document.querySelector('#ds-rows tr[data-ds="fluentd-elasticsearch"] td:last-child').textContent === "0"`, "misscheduled still 0 (no sync)")
	p.waitJS(`document.querySelector('.node[data-node="node-1"] .why li.missched') !== null`, "node-1 marked misscheduled")
	// Any sync of the DaemonSet (here an annotation) recounts it.
	p.runKubectl("kubectl annotate ds fluentd-elasticsearch example.com/touch=1")
	p.advance(1)
	p.waitJS(`document.querySelector('#ds-rows tr[data-ds="fluentd-elasticsearch"] td:last-child').textContent === "1"`, "misscheduled = 1 after a sync")

	// NoExecute removes it.
	p.runKubectl("kubectl taint nodes node-1 key=value:NoExecute")
	if out, errOut := p.lastOutput(); strings.TrimSpace(out) != "node/node-1 tainted" {
		t.Errorf("taint printed %q (stderr %q), want node/node-1 tainted", out, errOut)
	}
	p.advance(60)
	p.waitJS(podsOn("node-1", fluentd, "")+" === 0", "fluentd's pod gone from node-1")
	p.waitJS(`(document.querySelector('.node[data-node="node-1"] .why li[data-ds="fluentd-elasticsearch"]') || {textContent: ""}).textContent.includes("key=value:NoExecute")`, "node-1's reason naming the NoExecute taint")
	if n := eval[int](p, podsOn("node-2", fluentd, "Running")); n != 1 {
		t.Errorf("node-2 lost its pod: %d running", n)
	}

	// Errors go to stderr, in another colour.
	p.runKubectl("kubectl get nosuchthing")
	if _, errOut := p.lastOutput(); errOut == "" {
		t.Errorf("kubectl get nosuchthing printed nothing on stderr")
	}
	color := eval[[]string](p, `(function(){
		const b = [...document.querySelectorAll("#kout .block")].pop();
		return [getComputedStyle(b.querySelector(".stderr")).color, getComputedStyle(document.getElementById("kout")).color];
	})()`)
	if color[0] == color[1] {
		t.Errorf("stderr has the same colour as stdout: %s", color[0])
	}
	p.screenshot("dsplay-taints")
	p.checkConsole()
}

// A tab-indented manifest shows an error at the tab's line, marks it, and
// leaves the cluster as it was.
func TestBadYAMLKeepsTheCluster(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1 && "+podsOn("node-2", fluentd, "Running")+" === 1", "fluentd Running")
	const tabbed = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n\tname: broken\nspec:\n  selector:\n    matchLabels:\n      name: broken\n"
	if err := chromedp.Do(p.ctx,
		chromedp.SetValue(chromedp.ID("yaml"), tabbed),
		chromedp.Click(chromedp.ID("apply")),
	); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelector("#apply-result.err li[data-line]") !== null`, "an error with a line")
	lines := eval[[]string](p, `[...document.querySelectorAll("#apply-result li[data-line]")].map(li => li.dataset.line)`)
	if len(lines) == 0 || lines[0] != "4" {
		t.Errorf("error lines %v, want the first at line 4 (the tab)", lines)
	}
	text := eval[string](p, `document.querySelector("#apply-result li").textContent`)
	if !strings.HasPrefix(text, "4:") {
		t.Errorf("first message %q does not start with line:column 4:", text)
	}
	if n := eval[int](p, `document.querySelectorAll('#marks .mark[data-line="4"]').length`); n != 1 {
		t.Errorf("line 4 is not marked in the editor (%d marks)", n)
	}
	// The kubectl box echoes the apply and its error (stderr), ending on a
	// new line although the error text has none.
	parts := eval[[]string](p, `[...[...document.querySelectorAll("#kout .block")].pop().children].map(e => e.className + ":" + e.textContent)`)
	if len(parts) != 2 || parts[0] != "cmd:$ kubectl apply -f manifest.yaml\n" || !strings.HasPrefix(parts[1], "stderr:error: ") || !strings.HasSuffix(parts[1], "\n") || strings.HasSuffix(parts[1], "\n\n") {
		t.Errorf("the kubectl box shows %q, want the command, then the error on stderr ending in one new line", parts)
	}
	// The mark sits on line 4 of the text: same offset as the 4th gutter line.
	top := eval[float64](p, `document.querySelector('#marks .mark[data-line="4"]').getBoundingClientRect().top - document.getElementById("yaml").getBoundingClientRect().top`)
	if top < 3*20 || top > 3*20+12 {
		t.Errorf("line 4's mark is %gpx below the editor's top, want about %d", top, 3*20+8)
	}
	// The cluster is untouched.
	p.advance(30)
	if n := eval[int](p, `document.querySelectorAll('.pod:not(.gone)[data-owner="fluentd-elasticsearch"][data-status="Running"]').length`); n != 2 {
		t.Errorf("after a failed apply %d fluentd pods run, want 2", n)
	}
	if n := eval[int](p, `document.querySelectorAll('#ds-rows tr[data-ds]').length`); n != 1 {
		t.Errorf("%d DaemonSets after a failed apply, want 1", n)
	}
	p.screenshot("dsplay-bad-yaml")
	p.checkConsole()
}

// Over 1 MiB the editor refuses with a clear message.
func TestEditorCap(t *testing.T) {
	p := open(t, "?paused")
	msg := eval[string](p, `dsplay.apply("# " + "x".repeat(1100000))`)
	if !strings.Contains(msg, "at most 1 MiB") {
		t.Errorf("a 1.1 MB manifest gave %q", msg)
	}
	p.checkConsole()
}

// A Go panic inside a callback shows an error and keeps the simulation.
func TestPanicIsRecovered(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1", "fluentd Running")
	eval[chromedp.Void](p, `dsplay.panicForTest()`)
	p.waitJS(`!document.getElementById("fatal").hidden && document.getElementById("fatal").textContent.includes("test panic")`, "the error banner")
	// The simulation goes on.
	p.runKubectl("kubectl get pods")
	if out, _ := p.lastOutput(); !strings.Contains(out, fluentd) {
		t.Errorf("after a panic kubectl get pods printed %q", out)
	}
	p.advance(1)
	if n := eval[int](p, `document.querySelectorAll('.pod:not(.gone)[data-status="Running"]').length`); n != 2 {
		t.Errorf("after a panic %d pods are shown running, want 2", n)
	}
}

// The dark colour scheme: take a screenshot to look at.
func TestDarkScheme(t *testing.T) {
	p := open(t, "?paused")
	p.colorScheme("dark")
	p.advance(2)
	p.runKubectl("kubectl get pods -o wide")
	bg := eval[string](p, `getComputedStyle(document.body).backgroundColor`)
	if bg == "rgb(244, 246, 249)" {
		t.Errorf("dark scheme not applied: body background %s", bg)
	}
	p.screenshot("dsplay-dark")
	p.checkConsole()
}

// A deleted daemon pod is recreated on the same node; a label that stops
// matching the nodeSelector removes the pod.
func TestKubectlDeleteAndLabel(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.waitJS(podsOn("node-2", fluentd, "Running")+" === 1", "fluentd Running on node-2")
	old := eval[string](p, `document.querySelector('.node[data-node="node-2"] .pod[data-owner="fluentd-elasticsearch"]').dataset.pod`)
	p.runKubectl("kubectl delete pod " + old)
	if out, errOut := p.lastOutput(); !strings.Contains(out, `pod "`+old+`" deleted`) {
		t.Errorf("delete printed %q (stderr %q)", out, errOut)
	}
	p.advance(40)
	p.waitJS(podsOn("node-2", fluentd, "Running")+" === 1", "a new fluentd pod Running on node-2")
	if now := eval[string](p, `document.querySelector('.node[data-node="node-2"] .pod:not(.gone)[data-owner="fluentd-elasticsearch"]').dataset.pod`); now == old {
		t.Errorf("node-2 still shows the deleted pod %s", old)
	}

	// A DaemonSet selecting disk=ssd runs only where the label is.
	const ssd = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ssd-monitor
spec:
  selector:
    matchLabels:
      app: ssd-monitor
  template:
    metadata:
      labels:
        app: ssd-monitor
    spec:
      nodeSelector:
        disk: ssd
      containers:
      - name: main
        image: busybox:1.36
        command: ["sleep", "infinity"]
`
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", ssd)); msg != "" {
		t.Fatalf("apply: %s", msg)
	}
	p.runKubectl("kubectl label nodes node-2 disk=ssd")
	if out, _ := p.lastOutput(); strings.TrimSpace(out) != "node/node-2 labeled" {
		t.Errorf("label printed %q", out)
	}
	p.advance(10)
	p.waitJS(podsOn("node-2", "ssd-monitor", "Running")+" === 1", "ssd-monitor Running on node-2")
	if n := eval[int](p, `document.querySelectorAll('.pod:not(.gone)[data-owner="ssd-monitor"]').length`); n != 1 {
		t.Errorf("%d ssd-monitor pods, want 1", n)
	}
	p.waitJS(`(document.querySelector('.node[data-node="node-1"] .why li[data-ds="ssd-monitor"]') || {textContent: ""}).textContent.includes("no ssd-monitor pod")`, "node-1 explaining the missing ssd-monitor pod")
	p.runKubectl("kubectl label nodes node-2 disk=hdd --overwrite")
	p.advance(60)
	p.waitJS(podsOn("node-2", "ssd-monitor", "")+" === 0", "ssd-monitor's pod gone from node-2")
	p.checkConsole()
}

// dsplay.shutdown stops the animation loop and releases every Go callback:
// later frames and clicks call nothing released (no console errors).
func TestShutdownReleasesCallbacks(t *testing.T) {
	p := open(t, "?paused")
	eval[chromedp.Void](p, `dsplay.shutdown()`)
	if !eval[bool](p, `typeof window.dsplay === "undefined"`) {
		t.Errorf("window.dsplay survives shutdown")
	}
	// Click what had listeners, then let a few frames pass.
	if err := chromedp.Do(p.ctx,
		chromedp.Click(chromedp.ID("apply")),
		chromedp.Click(chromedp.CSS(`.node[data-node="node-1"]`)),
		chromedp.Evaluate[chromedp.Void](`new Promise(r => { let n = 0; const f = () => (++n < 5 ? requestAnimationFrame(f) : r()); requestAnimationFrame(f); })`, chromedp.EvalAwaitPromise),
	); err != nil {
		t.Fatal(err)
	}
	if !eval[bool](p, `document.getElementById("panel").hidden`) {
		t.Errorf("a click after shutdown still opened the panel")
	}
	p.checkConsole()
}

// When wasm_exec.js or the wasm cannot be fetched, the loading screen says so.
func TestLoadFailureIsShown(t *testing.T) {
	setup(t)
	// The built web root without its wasm (and siblings).
	noWasm := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS(buildInfo.Dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(p, buildInfo.WasmName) {
			return err
		}
		b, err := os.ReadFile(filepath.Join(buildInfo.Dir, p))
		noWasm[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		root fs.FS
		want string
	}{
		{"no wasm_exec.js", site.Static(), "wasm_exec.js did not load"},
		{"no wasm", noWasm, buildInfo.WasmName + ": HTTP 404"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(web.New(tc.root, web.Options{NoAPI: true}))
			defer srv.Close()
			tab, cancel := chromedp.NewContext(browser)
			defer cancel()
			ctx, cancelT := context.WithTimeout(tab, time.Minute)
			defer cancelT()
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
				t.Fatal(err)
			}
			pctx, cancelP := context.WithTimeout(ctx, pollTimeout)
			defer cancelP()
			if _, err := chromedp.Run(pctx, chromedp.Poll[bool](`document.getElementById("loading").classList.contains("failed")`)); err != nil {
				t.Fatalf("the loading screen shows no failure: %v", err)
			}
			msg, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("loading-text")))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg, "failed to load") || !strings.Contains(msg, tc.want) {
				t.Errorf("loading text %q, want it to say %q", msg, tc.want)
			}
		})
	}
}
