package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/scenario"
	"github.com/dsplayground/dsplay/engine/session"
)

const goodDS = `apiVersion: apps/v1
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
---
apiVersion: v1
kind: Node
metadata:
  name: node-9
`

const passing = `# The default cluster has three nodes.
kubectl get nodes
stdout 'node-1'
kubectl apply -f agent.yaml
wait rollout ds/agent
kubectl get ds agent
stdout '^agent\s+2\s+2\s+2'
-- agent.yaml --
apiVersion: apps/v1
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

func jsonBody(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// post sends body with Content-Type: application/json.
func post(t *testing.T, h http.Handler, method, path, body string) (*http.Response, map[string]any) {
	t.Helper()
	return postType(t, h, method, path, "application/json", body)
}

func postType(t *testing.T, h http.Handler, method, path, contentType, body string) (*http.Response, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	resp := rec.Result()
	var out map[string]any
	if method != http.MethodHead {
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s %s answered %d with non-JSON %q: %v", method, path, resp.StatusCode, rec.Body.String(), err)
		}
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	return resp, out
}

func TestAPI(t *testing.T) {
	h := New(Options{MaxBody: 64 << 10})
	tests := []struct {
		name         string
		method, path string
		body         string
		status       int
		allow        string
		check        func(t *testing.T, out map[string]any)
	}{
		{name: "index", method: "GET", path: "/api", status: 200, check: func(t *testing.T, out map[string]any) {
			if eps, _ := out["endpoints"].([]any); len(eps) != 3 {
				t.Errorf("endpoints %v", out["endpoints"])
			}
			lim, _ := out["limits"].(map[string]any)
			if lim["maxBodyBytes"] != float64(64<<10) || lim["maxNodes"] != float64(DefaultMaxNodes) ||
				lim["maxPods"] != float64(DefaultMaxPods) || lim["maxTranscriptBytes"] != float64(DefaultMaxTranscript) {
				t.Errorf("limits %v", lim)
			}
		}},
		{name: "index with slash", method: "GET", path: "/api/", status: 200},
		{name: "index HEAD", method: "HEAD", path: "/api", status: 200},
		{name: "index POST", method: "POST", path: "/api", body: "{}", status: 405, allow: "GET, HEAD"},
		{name: "validate GET", method: "GET", path: "/api/validate", status: 405, allow: "POST"},
		{name: "run PUT", method: "PUT", path: "/api/run", body: "{}", status: 405, allow: "POST"},
		{name: "unknown endpoint", method: "GET", path: "/api/nope", status: 404, check: wantError("no such endpoint")},

		{name: "validate ok", method: "POST", path: "/api/validate", body: jsonBody(ValidateRequest{YAML: goodDS}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				if out["ok"] != true {
					t.Errorf("ok = %v: %v", out["ok"], out)
				}
				objs, _ := out["objects"].([]any)
				if got := fmt.Sprint(objs); got != "[map[kind:DaemonSet name:agent namespace:default] map[kind:Node name:node-9]]" {
					t.Errorf("objects %s", got)
				}
				if d, _ := out["diagnostics"].([]any); d == nil || len(d) != 0 {
					t.Errorf("diagnostics %v, want []", out["diagnostics"])
				}
			}},
		{name: "validate tab", method: "POST", path: "/api/validate",
			body: jsonBody(ValidateRequest{YAML: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n\tname: x\n"}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				d, _ := out["diagnostics"].([]any)
				if out["ok"] != false || len(d) == 0 {
					t.Fatalf("out %v", out)
				}
				first := d[0].(map[string]any)
				if first["line"] != float64(4) || first["column"] == float64(0) || first["message"] == "" {
					t.Errorf("first diagnostic %v, want line 4", first)
				}
				if e, _ := out["error"].(string); !strings.Contains(e, "error") {
					t.Errorf("error %q, want kubectl's text", e)
				}
			}},
		{name: "validate unknown field", method: "POST", path: "/api/validate",
			body: jsonBody(ValidateRequest{YAML: strings.Replace(goodDS, "  selector:", "  replicas: 2\n  selector:", 1)}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				d, _ := out["diagnostics"].([]any)
				if out["ok"] != false || len(d) != 1 || d[0].(map[string]any)["line"] != float64(6) ||
					!strings.Contains(fmt.Sprint(d[0]), "replicas") {
					t.Errorf("out %v, want one diagnostic at line 6 naming replicas", out)
				}
			}},
		{name: "validate empty manifest", method: "POST", path: "/api/validate", body: `{"yaml": ""}`, status: 200,
			check: func(t *testing.T, out map[string]any) {
				if out["ok"] != false || !strings.Contains(fmt.Sprint(out["error"]), "no objects") {
					t.Errorf("out %v", out)
				}
			}},
		{name: "bad JSON", method: "POST", path: "/api/validate", body: `{"yaml": }`, status: 400,
			check: wantPosition(1, 10)},
		{name: "bad JSON line 3", method: "POST", path: "/api/run", body: "{\n  \"scenario\": \"x\",\n  oops\n}", status: 400,
			check: wantPosition(3, 3)},
		{name: "truncated JSON", method: "POST", path: "/api/run", body: `{"scenario": "x"`, status: 400,
			check: wantError("unexpected end")},
		{name: "wrong type", method: "POST", path: "/api/validate", body: `{"yaml": 5}`, status: 400,
			check: wantError(`field "yaml" must be a string`)},
		{name: "unknown field", method: "POST", path: "/api/validate", body: `{"yml": "x"}`, status: 400,
			check: wantError(`unknown field "yml"`)},
		{name: "trailing data", method: "POST", path: "/api/validate", body: `{"yaml": "x"} {}`, status: 400,
			check: wantError("after the JSON object")},
		{name: "empty body", method: "POST", path: "/api/validate", body: ``, status: 400, check: wantError("empty")},
		{name: "too large", method: "POST", path: "/api/validate", body: jsonBody(ValidateRequest{YAML: strings.Repeat("#", 65<<10)}), status: 413,
			check: wantError("larger than 65536 bytes")},

		{name: "run passes", method: "POST", path: "/api/run", body: jsonBody(RunRequest{Scenario: passing}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				if out["ok"] != true || out["exitCode"] != float64(0) || out["kind"] != "" {
					t.Errorf("out %v", out)
				}
				if tr, _ := out["transcript"].(string); !strings.Contains(tr, "$ kubectl get ds agent") || !strings.Contains(tr, "# The default cluster") {
					t.Errorf("transcript %q", tr)
				}
				if f, _ := out["failures"].([]any); f == nil || len(f) != 0 {
					t.Errorf("failures %v, want []", out["failures"])
				}
			}},
		{name: "run fails", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Name: "mine.txtar", Scenario: "kubectl get nodes\nstdout 'node-7'\n! kubectl get pod nope\n"}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				f, _ := out["failures"].([]any)
				if out["ok"] != false || out["exitCode"] != float64(1) || len(f) != 1 || !strings.HasPrefix(f[0].(string), "mine.txtar:2: ") {
					t.Errorf("out %v", out)
				}
				if tr, _ := out["transcript"].(string); !strings.Contains(tr, "FAIL: mine.txtar:2:") || !strings.Contains(tr, "NotFound") {
					t.Errorf("transcript %q", tr)
				}
			}},
		{name: "run malformed", method: "POST", path: "/api/run", body: jsonBody(RunRequest{Scenario: "kubectl get nodes\nfrobnicate now\n"}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				f, _ := out["failures"].([]any)
				if out["ok"] != false || out["exitCode"] != float64(2) || len(f) != 1 || !strings.HasPrefix(f[0].(string), "scenario.txtar:2: ") {
					t.Errorf("out %v", out)
				}
			}},
		{name: "run lesson kind", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "# title: One pod per node\n# kind: lesson\nkubectl get nodes\n"}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				if out["kind"] != "lesson" || out["exitCode"] != float64(0) {
					t.Errorf("out %v", out)
				}
			}},
		{name: "run exercise", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "# kind: exercise\n# task: run agent on every worker\n## goal\nexpect ds/agent on node-1 node-2\n## solution\nkubectl apply -f agent.yaml\nwait rollout ds/agent\n" +
				passing[strings.Index(passing, "-- agent.yaml --"):]}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				if out["kind"] != "exercise" || out["exitCode"] != float64(0) || out["ok"] != true {
					t.Errorf("out %v", out)
				}
			}},
		{name: "run exercise whose solution does not solve it", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "# kind: exercise\n## goal\nexpect node/node-1 taint a=b:NoSchedule\n## solution\nkubectl get nodes\n"}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				f, _ := out["failures"].([]any)
				if out["kind"] != "exercise" || out["exitCode"] != float64(1) || len(f) == 0 {
					t.Errorf("out %v, want exit code 1 with the goal's failure", out)
				}
			}},
		{name: "run empty", method: "POST", path: "/api/run", body: `{"scenario": "  "}`, status: 400, check: wantError("empty")},
		{name: "run too many nodes", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "node add w-{1..4000}\nnode add x-{1..1001}\n"}), status: 422,
			check: wantError("may create 5004 nodes and 0 DaemonSets")},
		{name: "run too many nodes in a flow-style List", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "node add w-{1..4990}\nkubectl apply -f l.yaml\n-- l.yaml --\n" + flowNodes(8)}), status: 422,
			check: wantError("may create 5001 nodes")},
		{name: "run too many nodes in JSON", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "node add w-{1..4990}\nkubectl apply -f l.json\n-- l.json --\n" + jsonNodes(8)}), status: 422,
			check: wantError("may create 5001 nodes")},
		{name: "run too many generateName nodes, flags before the verb", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "node add w-{1..4990}\n" + strings.Repeat("kubectl -n default create -f g.yaml\n", 8) + "-- g.yaml --\napiVersion: v1\nkind: Node\nmetadata: {generateName: g-}\n"}), status: 422,
			check: wantError("may create 5001 nodes")},
		{name: "run too many pods", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "node add w-{1..997}\nkubectl apply -f ds.yaml\n-- ds.yaml --\n" + daemonSets(21)}), status: 422,
			check: wantError("(1000 nodes × 21 DaemonSets = 21000 DaemonSet pods); the API runs scenarios of at most 5000 nodes and 20000 pods")},
		{name: "run with DaemonSets under the limits", method: "POST", path: "/api/run",
			body: jsonBody(RunRequest{Scenario: "cluster empty\nnode add w-{1..4}\nkubectl apply -f ds.yaml\nwait rollout ds/agent-1\n-- ds.yaml --\n" + daemonSets(2)}), status: 200,
			check: func(t *testing.T, out map[string]any) {
				if out["ok"] != true {
					t.Errorf("out %v", out)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, out := post(t, h, tc.method, tc.path, tc.body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %v", resp.StatusCode, tc.status, out)
			}
			if got := resp.Header.Get("Allow"); got != tc.allow {
				t.Errorf("Allow %q, want %q", got, tc.allow)
			}
			if resp.StatusCode >= 400 {
				if e, _ := out["error"].(string); e == "" {
					t.Errorf("an error answer without an error message: %v", out)
				}
			}
			if tc.check != nil {
				tc.check(t, out)
			}
		})
	}
}

func wantError(sub string) func(*testing.T, map[string]any) {
	return func(t *testing.T, out map[string]any) {
		t.Helper()
		if e, _ := out["error"].(string); !strings.Contains(e, sub) {
			t.Errorf("error %q, want it to contain %q", e, sub)
		}
	}
}

func wantPosition(line, col int) func(*testing.T, map[string]any) {
	return func(t *testing.T, out map[string]any) {
		t.Helper()
		if out["line"] != float64(line) || out["column"] != float64(col) {
			t.Errorf("position %v:%v, want %d:%d (%v)", out["line"], out["column"], line, col, out["error"])
		}
		if e, _ := out["error"].(string); !strings.Contains(e, fmt.Sprintf("%d:%d", line, col)) {
			t.Errorf("error %q does not name %d:%d", e, line, col)
		}
	}
}

// A body larger than the limit is refused even without a Content-Length
// (chunked), while it is read.
func TestBodyLimitChunked(t *testing.T) {
	srv := httptest.NewServer(New(Options{MaxBody: 1024}))
	defer srv.Close()
	body := io.MultiReader(strings.NewReader(`{"yaml": "`), strings.NewReader(strings.Repeat("x", 4096)), strings.NewReader(`"}`))
	req, _ := http.NewRequest("POST", srv.URL+"/api/validate", io.NopCloser(body))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = -1
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	var e ErrorResponse
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || !strings.Contains(e.Error, "1024 bytes") {
		t.Errorf("error %+v %v", e, err)
	}
}

// When every slot is taken, requests get 503 with Retry-After.
func TestBusy(t *testing.T) {
	h := New(Options{MaxConcurrent: 1}).(*server)
	h.sem <- struct{}{} // a run in progress
	for _, tc := range []struct{ path, body string }{
		{"/api/run", jsonBody(RunRequest{Scenario: passing})},
		{"/api/validate", jsonBody(ValidateRequest{YAML: goodDS})},
	} {
		resp, out := post(t, h, "POST", tc.path, tc.body)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
			t.Errorf("%s: %d Retry-After %q, want 503 and 1", tc.path, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		if e, _ := out["error"].(string); !strings.Contains(e, "busy") {
			t.Errorf("%s: error %q", tc.path, e)
		}
	}
	<-h.sem
	if resp, _ := post(t, h, "POST", "/api/validate", jsonBody(ValidateRequest{YAML: goodDS})); resp.StatusCode != 200 {
		t.Errorf("after the run ended: %d", resp.StatusCode)
	}
}

// A run over the wall-time limit is stopped (scenario.RunContext) and
// answered 504 with the transcript so far; its slot is free at once.
func TestTimeout(t *testing.T) {
	h := New(Options{Timeout: 50 * time.Millisecond, MaxConcurrent: 1}).(*server)
	// The wall-time limit runs out after a number of the runner's checks
	// of its context (between commands, inside waits), not after 50 ms of
	// a machine of unknown speed; the script is long enough that the run
	// cannot end before it.
	h.runContext = func(ctx context.Context) (context.Context, context.CancelFunc) {
		c := &deadlineAfter{Context: ctx, checks: 20, done: make(chan struct{})}
		return c, func() {}
	}
	slow := "node add w-{1..300}\nkubectl apply -f agent.yaml\nadvance 24h\n" + strings.Repeat("kubectl get nodes\n", 100) + "kubectl get ds\n" +
		passing[strings.Index(passing, "-- agent.yaml --"):]
	start := time.Now()
	resp, out := post(t, h, "POST", "/api/run", jsonBody(RunRequest{Scenario: slow}))
	if resp.StatusCode != http.StatusGatewayTimeout {
		t.Fatalf("status %d, want 504: %v", resp.StatusCode, out)
	}
	t.Logf("stopped after %v", time.Since(start))
	if e, _ := out["error"].(string); !strings.Contains(e, "longer than 50ms") {
		t.Errorf("error %q", e)
	}
	if out["ok"] != false || out["exitCode"] != float64(1) {
		t.Errorf("ok %v exitCode %v", out["ok"], out["exitCode"])
	}
	f, _ := out["failures"].([]any)
	if len(f) == 0 || !strings.Contains(fmt.Sprint(f[len(f)-1]), "stopped") {
		t.Errorf("failures %v, want the stop named", f)
	}
	if tr, _ := out["transcript"].(string); !strings.Contains(tr, "$ node add w-{1..300}") || strings.Contains(tr, "$ kubectl get ds") {
		t.Errorf("transcript %q, want it to stop before the last command", tr)
	}
	select {
	case h.sem <- struct{}{}:
		<-h.sem
	default:
		t.Errorf("the stopped run still holds its slot")
	}
}

// flowNodes is a List of n flow-style Node items.
func flowNodes(n int) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems: [")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "{apiVersion: v1, kind: Node, metadata: {name: f-%d}}", i)
	}
	b.WriteString("]\n")
	return b.String()
}

// jsonNodes is a JSON List of n Nodes on one line.
func jsonNodes(n int) string {
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"j-%d"}}`, i))
	}
	return `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + "]}\n"
}

// daemonSets is n tolerate-everything DaemonSets agent-1 ... agent-n.
func daemonSets(n int) string {
	var docs []string
	for i := 1; i <= n; i++ {
		docs = append(docs, strings.ReplaceAll(goodDS[:strings.Index(goodDS, "---")], "agent", fmt.Sprintf("agent-%d", i))+
			"      tolerations: [{operator: Exists}]\n")
	}
	return strings.Join(docs, "---\n")
}

func TestLineCol(t *testing.T) {
	b := []byte("ab\ncd\n\nef")
	for _, tc := range []struct{ off, line, col int }{
		{1, 1, 1}, {2, 1, 2}, {4, 2, 1}, {5, 2, 2}, {8, 4, 1}, {100, 4, 2},
	} {
		if l, c := lineCol(b, tc.off); l != tc.line || c != tc.col {
			t.Errorf("lineCol(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

// deadlineAfter is a context whose deadline passes at the checks-th call of
// Done: the runner checks it between commands and at every virtual second
// of an advance.
type deadlineAfter struct {
	context.Context
	checks int
	done   chan struct{}
}

func (c *deadlineAfter) Done() <-chan struct{} {
	if c.checks--; c.checks == 0 {
		close(c.done)
	}
	return c.done
}

func (c *deadlineAfter) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// Only a body declared application/json is read: a cross-site HTML form
// (text/plain, urlencoded, multipart) or a no-cors fetch cannot start a
// run without a CORS preflight.
func TestContentType(t *testing.T) {
	h := New(Options{})
	body := jsonBody(ValidateRequest{YAML: goodDS})
	tests := []struct {
		path, contentType string
		status            int
	}{
		{"/api/validate", "application/json", 200},
		{"/api/validate", "application/json; charset=utf-8", 200},
		{"/api/validate", "Application/JSON", 200},
		{"/api/run", "application/json", 200},
		{"/api/validate", "", 415},
		{"/api/run", "", 415},
		{"/api/run", "text/plain", 415},
		{"/api/run", "text/plain; charset=utf-8", 415},
		{"/api/validate", "application/x-www-form-urlencoded", 415},
		{"/api/validate", "multipart/form-data; boundary=x", 415},
		{"/api/validate", "application/jsonp", 415},
		{"/api/validate", "application/json;;", 415},
	}
	for _, tc := range tests {
		t.Run(tc.path+" "+tc.contentType, func(t *testing.T) {
			b := body
			if tc.path == "/api/run" {
				b = jsonBody(RunRequest{Scenario: "kubectl get nodes\n"})
			}
			resp, out := postType(t, h, "POST", tc.path, tc.contentType, b)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %v", resp.StatusCode, tc.status, out)
			}
			if tc.status == 415 {
				if e, _ := out["error"].(string); !strings.Contains(e, "Content-Type: application/json") {
					t.Errorf("error %q", e)
				}
				if got := resp.Header.Get("Accept-Post"); got != "application/json" {
					t.Errorf("Accept-Post %q", got)
				}
			}
		})
	}
}

// A run printing more than MaxTranscript is stopped there: 422, ok false,
// the transcript cut at the limit with the marker, the stop named.
func TestTranscriptLimit(t *testing.T) {
	const limit = 64 << 10
	tests := []struct {
		name      string
		script    string
		status    int
		truncated bool
	}{
		{"explain repeated", strings.Repeat("kubectl explain ds --recursive\n", 2000) + "kubectl get nodes\n", 422, true},
		{"one command over the limit", "node add w-{1..100}\nkubectl get nodes -o yaml\nkubectl get ds\n", 422, true},
		{"under the limit", strings.Repeat("kubectl get nodes\n", 20), 200, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := New(Options{MaxTranscript: limit}).(*server)
			resp, out := post(t, h, "POST", "/api/run", jsonBody(RunRequest{Scenario: tc.script}))
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %v", resp.StatusCode, tc.status, out["error"])
			}
			tr, _ := out["transcript"].(string)
			if !tc.truncated {
				if out["ok"] != true || strings.Contains(tr, "truncated") {
					t.Errorf("ok %v, transcript %q", out["ok"], tr)
				}
				return
			}
			if len(tr) != limit+len(TruncatedMarker) || !strings.HasSuffix(tr, TruncatedMarker) {
				t.Errorf("transcript of %d bytes ending %q, want %d bytes and the marker", len(tr), tr[max(0, len(tr)-100):], limit+len(TruncatedMarker))
			}
			if out["ok"] != false || out["exitCode"] != float64(1) {
				t.Errorf("ok %v exitCode %v", out["ok"], out["exitCode"])
			}
			if e, _ := out["error"].(string); !strings.Contains(e, "printed more than 65536 bytes") {
				t.Errorf("error %q", e)
			}
			f, _ := out["failures"].([]any)
			if len(f) == 0 || !strings.Contains(fmt.Sprint(f[len(f)-1]), "stopped: the transcript grew past") {
				t.Errorf("failures %v, want the stop named", f)
			}
			select {
			case h.sem <- struct{}{}:
				<-h.sem
			default:
				t.Errorf("the stopped run still holds its slot")
			}
		})
	}
}

// A request whose client went away stops its run (the request's context
// is the run's parent) and frees its slot.
func TestClientGone(t *testing.T) {
	h := New(Options{MaxConcurrent: 1}).(*server)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.onRun = cancel // the client disconnects as the run starts
	slow := "node add w-{1..300}\nkubectl apply -f agent.yaml\nadvance 24h\nadvance 24h\nkubectl get ds\n" +
		passing[strings.Index(passing, "-- agent.yaml --"):]
	req := httptest.NewRequest("POST", "/api/run", strings.NewReader(jsonBody(RunRequest{Scenario: slow}))).WithContext(ctx)
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out RunResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 499 || out.OK || !strings.Contains(out.Error, "client closed") {
		t.Errorf("status %d, %+v", rec.Code, out)
	}
	if len(out.Failures) != 1 || !strings.Contains(out.Failures[0], "scenario.txtar:1: stopped: context canceled") {
		t.Errorf("failures %q, want the run stopped at its first command", out.Failures)
	}
	if strings.Contains(out.Transcript, "$ advance") {
		t.Errorf("transcript %q: the run went on", out.Transcript)
	}
	select {
	case h.sem <- struct{}{}:
		<-h.sem
	default:
		t.Errorf("the stopped run still holds its slot")
	}
}

// Every scenario of the repository's examples (what tutorials link to)
// fits the API's default limits.
func TestExamplesFitLimits(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.txtar")
	more, _ := filepath.Glob("../../examples/*/*.txtar")
	files = append(files, more...)
	if len(files) == 0 {
		t.Skip("no examples")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(filepath.Base(f), b)
		if err != nil {
			continue // a malformed example is the examples' tests' concern
		}
		if z := session.ScenarioSize(sc); z.Nodes > DefaultMaxNodes || z.Pods() > DefaultMaxPods {
			t.Errorf("%s: %+v (%d pods) is over the API's limits", f, z, z.Pods())
		}
	}
}

// The run's deadline is found by asking the clock, not by a timer (timers
// do not fire while a GOOS=js program is busy): Done closes once now()
// passes the deadline, and a parent's cancellation passes through.
func TestPolledDeadline(t *testing.T) {
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }
	ctx, cancel := withPolledDeadline(context.Background(), now.Add(10*time.Second), clock)
	defer cancel()
	select {
	case <-ctx.Done():
		t.Fatal("done before the deadline")
	default:
	}
	now = now.Add(10 * time.Second)
	select {
	case <-ctx.Done():
	default:
		t.Fatal("not done at the deadline")
	}
	if ctx.Err() != context.DeadlineExceeded {
		t.Errorf("Err = %v, want DeadlineExceeded", ctx.Err())
	}

	parent, stop := context.WithCancel(context.Background())
	ctx2, cancel2 := withPolledDeadline(parent, now.Add(time.Hour), clock)
	defer cancel2()
	stop()
	if ctx2.Err() != context.Canceled {
		t.Errorf("after the parent's cancel: Err = %v, want Canceled", ctx2.Err())
	}
}

// TestValidateUnserved: a kind or version the v1.37 API server does not
// serve is not ok, with kubectl's mapping error and its line.
func TestValidateUnserved(t *testing.T) {
	for _, text := range []string{
		"apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: x\n",
		"apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: r\n",
		"apiVersion: apps/v1\nkind: DeamonSet\nmetadata:\n  name: d\n",
	} {
		res := Validate(text)
		if res.OK || len(res.Diagnostics) != 1 || res.Diagnostics[0].Line != 1 || !strings.Contains(res.Error, "ensure CRDs are installed first") {
			t.Errorf("Validate(%q) = %+v, want not ok with the mapping error at line 1", text, res)
		}
	}
	if res := Validate("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: r\n"); !res.OK {
		t.Errorf("a served Role: %+v", res)
	}
}
