// Package api is the playground's small HTTP API: validate a manifest or run
// a scenario headless, JSON in and JSON out (CONTRACTS.md "D → E").
//
//	GET  /api           an index: the endpoints and the limits
//	POST /api/validate  {"yaml": "..."} → {"ok", "diagnostics": [...], "objects": [...]}
//	POST /api/run       {"scenario": "<txtar>"} → {"ok", "exitCode", "kind", "transcript", "failures"}
//
// Every answer is JSON; errors are {"error": "message"} with a status:
// 400 malformed JSON (with line:column), unknown field or missing input;
// 404 unknown endpoint; 405 wrong method (with Allow); 413 body over
// MaxBody; 422 a scenario adding more than MaxNodes nodes; 503 when
// MaxConcurrent requests are busy (Retry-After: 1); 504 a run stopped after
// Timeout of wall time (scenario.RunContext; with the transcript so far).
//
// The package compiles for GOOS=js (the Worker runs it): no os, no os/exec.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/manifest"
	"github.com/dsplayground/dsplay/engine/scenario"
	"gopkg.in/yaml.v3"
)

// Defaults of Options.
const (
	DefaultMaxBody       = 256 << 10 // 256 KiB
	DefaultTimeout       = 10 * time.Second
	DefaultMaxConcurrent = 4
	DefaultMaxNodes      = 5000
)

// Options bound what one request may cost. Zero values take the defaults.
type Options struct {
	// MaxBody is the largest request body in bytes (default 256 KiB).
	MaxBody int64
	// Timeout bounds a run's wall time (default 10 s).
	Timeout time.Duration
	// MaxConcurrent is how many validations and runs may execute at once
	// (default 4); more get 503.
	MaxConcurrent int
	// MaxNodes bounds the nodes a scenario adds (`node add`, ranges
	// expanded, and Node documents in its files; default 5,000).
	MaxNodes int
}

type server struct {
	o   Options
	sem chan struct{}
	// runContext bounds a run: context.WithTimeout(ctx, o.Timeout). Tests
	// replace it with a context that ends at a chosen point of the run, so
	// the timeout is tested without depending on how fast the machine is.
	runContext func(ctx context.Context) (context.Context, context.CancelFunc)
}

// New returns the /api handler. It expects the full request path
// (/api, /api/validate, /api/run): mount it at /api and /api/ unstripped.
func New(o Options) http.Handler {
	if o.MaxBody <= 0 {
		o.MaxBody = DefaultMaxBody
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	if o.MaxNodes <= 0 {
		o.MaxNodes = DefaultMaxNodes
	}
	return &server{o: o, sem: make(chan struct{}, o.MaxConcurrent)}
}

// ErrorResponse is the body of every error answer.
type ErrorResponse struct {
	Error string `json:"error"`
	// Line and Column locate a JSON syntax or type error in the request
	// body (1-based), when there is one.
	Line   int `json:"line,omitempty"`
	Column int `json:"column,omitempty"`
}

// ValidateRequest is the body of POST /api/validate.
type ValidateRequest struct {
	// YAML is the manifest: one or more documents separated by `---`.
	YAML string `json:"yaml"`
}

// Diagnostic is one problem of a manifest, as the page's editor shows it.
type Diagnostic struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// Object names one decoded object.
type Object struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Skipped is true for kinds the playground does not simulate.
	Skipped bool `json:"skipped,omitempty"`
}

// ValidateResponse is the answer of POST /api/validate: OK when the
// manifest decodes and validates as the API server would accept it
// (strict field validation); then Objects lists what it holds, else
// Diagnostics says why not, with line:column.
type ValidateResponse struct {
	OK          bool         `json:"ok"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Objects     []Object     `json:"objects"`
	// Error is the text kubectl apply would print for the problems.
	Error string `json:"error,omitempty"`
}

// RunRequest is the body of POST /api/run.
type RunRequest struct {
	// Scenario is a txtar scenario (DESIGN contract 4).
	Scenario string `json:"scenario"`
	// Name is the scenario's file name in failure messages (default
	// "scenario.txtar").
	Name string `json:"name,omitempty"`
}

// RunResponse is the answer of POST /api/run. ExitCode is the `dsplay run`
// status (contract 3): 0 every assertion held, 1 one failed, 2 the scenario
// is malformed. Kind is the scenario's `# kind:` header ("lesson",
// "exercise", "" for a plain scenario). Transcript is what `dsplay run`
// prints; Failures the assertions that did not hold (or the parse error).
type RunResponse struct {
	OK         bool     `json:"ok"`
	ExitCode   int      `json:"exitCode"`
	Kind       string   `json:"kind"`
	Transcript string   `json:"transcript"`
	Failures   []string `json:"failures"`
	// Error is set on a 504: the run took longer than the limit.
	Error string `json:"error,omitempty"`
}

// Index is the answer of GET /api.
type Index struct {
	Name      string     `json:"name"`
	Endpoints []Endpoint `json:"endpoints"`
	Limits    Limits     `json:"limits"`
}

// Endpoint describes one endpoint of the index.
type Endpoint struct {
	Method      string `json:"method"`
	Path        string `json:"path"`
	Request     string `json:"request,omitempty"`
	Response    string `json:"response"`
	Description string `json:"description"`
}

// Limits are the bounds of Options, in the index.
type Limits struct {
	MaxBodyBytes   int64 `json:"maxBodyBytes"`
	TimeoutSeconds int   `json:"timeoutSeconds"`
	MaxConcurrent  int   `json:"maxConcurrent"`
	MaxNodes       int   `json:"maxNodes"`
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	switch strings.TrimSuffix(r.URL.Path, "/") {
	case "/api":
		if !allow(w, r, http.MethodGet, http.MethodHead) {
			return
		}
		writeJSON(w, http.StatusOK, s.index())
	case "/api/validate":
		if !allow(w, r, http.MethodPost) {
			return
		}
		var req ValidateRequest
		if !s.decode(w, r, &req) {
			return
		}
		if !s.acquire(w) {
			return
		}
		defer s.release()
		writeJSON(w, http.StatusOK, Validate(req.YAML))
	case "/api/run":
		if !allow(w, r, http.MethodPost) {
			return
		}
		var req RunRequest
		if !s.decode(w, r, &req) {
			return
		}
		if strings.TrimSpace(req.Scenario) == "" {
			writeError(w, http.StatusBadRequest, ErrorResponse{Error: `"scenario" is empty: send {"scenario": "<txtar scenario>"}`})
			return
		}
		if req.Name == "" {
			req.Name = "scenario.txtar"
		}
		if n := CountNodes(req.Scenario); n > s.o.MaxNodes {
			writeError(w, http.StatusUnprocessableEntity, ErrorResponse{Error: fmt.Sprintf(
				"the scenario adds %d nodes; the API runs scenarios of at most %d nodes (run larger ones with `dsplay run`)", n, s.o.MaxNodes)})
			return
		}
		if !s.acquire(w) {
			return
		}
		defer s.release()
		res, done := s.run(r.Context(), req)
		if !done {
			writeJSON(w, http.StatusGatewayTimeout, res)
			return
		}
		writeJSON(w, http.StatusOK, res)
	default:
		writeError(w, http.StatusNotFound, ErrorResponse{Error: "no such endpoint: " + r.URL.Path + " (GET /api lists them)"})
	}
}

func (s *server) index() Index {
	return Index{
		Name: "DaemonSet Playground API",
		Endpoints: []Endpoint{
			{Method: "GET", Path: "/api", Response: "this index", Description: "the endpoints and limits"},
			{Method: "POST", Path: "/api/validate", Request: `{"yaml": "<manifest>"}`,
				Response:    `{"ok", "diagnostics": [{"line","column","field","message","hint"}], "objects": [{"kind","namespace","name"}], "error"}`,
				Description: "decode and validate a manifest as the API server would (strict field validation); nothing is applied"},
			{Method: "POST", Path: "/api/run", Request: `{"scenario": "<txtar>", "name": "file name (optional)"}`,
				Response:    `{"ok", "exitCode", "kind", "transcript", "failures"}`,
				Description: "run a txtar scenario headless on a fresh simulated cluster, as `dsplay run` does (exit codes 0 passed, 1 an assertion failed, 2 malformed)"},
		},
		Limits: Limits{MaxBodyBytes: s.o.MaxBody, TimeoutSeconds: int(s.o.Timeout / time.Second),
			MaxConcurrent: s.o.MaxConcurrent, MaxNodes: s.o.MaxNodes},
	}
}

// allow answers 405 with Allow unless the method is one of methods.
func allow(w http.ResponseWriter, r *http.Request, methods ...string) bool {
	for _, m := range methods {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	writeError(w, http.StatusMethodNotAllowed, ErrorResponse{Error: fmt.Sprintf("%s %s: method not allowed (use %s)", r.Method, r.URL.Path, strings.Join(methods, " or "))})
	return false
}

// decode reads the JSON body into v (unknown fields refused), answering
// 413 or 400 itself when it cannot.
func (s *server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.ContentLength > s.o.MaxBody {
		writeError(w, http.StatusRequestEntityTooLarge, tooLarge(s.o.MaxBody))
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.o.MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			writeError(w, http.StatusRequestEntityTooLarge, tooLarge(s.o.MaxBody))
		} else {
			writeError(w, http.StatusBadRequest, ErrorResponse{Error: "reading the request body: " + err.Error()})
		}
		return false
	}
	if len(bytes.TrimSpace(body)) == 0 {
		writeError(w, http.StatusBadRequest, ErrorResponse{Error: "the request body is empty: send a JSON object"})
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, jsonError(body, err))
		return false
	}
	if dec.More() {
		off := int(dec.InputOffset())
		l, c := lineCol(body, off)
		writeError(w, http.StatusBadRequest, ErrorResponse{Error: fmt.Sprintf("%d:%d: unexpected data after the JSON object", l, c), Line: l, Column: c})
		return false
	}
	return true
}

func tooLarge(max int64) ErrorResponse {
	return ErrorResponse{Error: fmt.Sprintf("the request body is larger than %d bytes (%d KiB)", max, max>>10)}
}

// jsonError describes a JSON decoding error with the line and column of
// the body where it happened.
func jsonError(body []byte, err error) ErrorResponse {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := -1
	msg := err.Error()
	switch {
	case errors.As(err, &se):
		off = int(se.Offset)
	case errors.As(err, &te):
		off = int(te.Offset)
		msg = fmt.Sprintf("field %q must be a %s, not a JSON %s", te.Field, te.Type, te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		off = len(body)
		msg = "unexpected end of JSON input"
	}
	msg = strings.TrimPrefix(msg, "json: ")
	if off < 0 {
		return ErrorResponse{Error: "bad JSON: " + msg}
	}
	l, c := lineCol(body, off)
	return ErrorResponse{Error: fmt.Sprintf("bad JSON at %d:%d: %s", l, c, msg), Line: l, Column: c}
}

// lineCol turns a byte offset of b into a 1-based line and column (in
// bytes). encoding/json's offsets point just past the bad byte.
func lineCol(b []byte, off int) (int, int) {
	if off > len(b) {
		off = len(b)
	}
	if off > 0 {
		off--
	}
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(b[:off], '\n')
	return line, col
}

// acquire takes a slot of the concurrency limit, or answers 503.
func (s *server) acquire(w http.ResponseWriter) bool {
	select {
	case s.sem <- struct{}{}:
		return true
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, ErrorResponse{Error: fmt.Sprintf("busy: %d runs are in progress; try again in a second", s.o.MaxConcurrent)})
		return false
	}
}

func (s *server) release() { <-s.sem }

// Validate decodes and validates a manifest as the page's Apply does
// (engine/manifest.Decode: strict field validation, defaulting, the API
// server's validation), without applying it.
func Validate(text string) ValidateResponse {
	res := ValidateResponse{Diagnostics: []Diagnostic{}, Objects: []Object{}}
	docs, err := manifest.Decode("manifest.yaml", text)
	if err != nil {
		var me *manifest.Error
		if errors.As(err, &me) {
			for _, d := range me.Diagnostics {
				res.Diagnostics = append(res.Diagnostics, Diagnostic{Line: d.Line, Column: d.Column, Field: d.Field, Message: d.Message, Hint: d.Hint})
			}
		} else {
			res.Diagnostics = append(res.Diagnostics, Diagnostic{Line: 1, Column: 1, Message: err.Error()})
		}
		res.Error = err.Error()
		return res
	}
	if len(docs) == 0 {
		err := manifest.NoObjectsError("manifest.yaml", "apply")
		res.Error = err.Error()
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Line: 1, Column: 1, Message: err.Error()})
		return res
	}
	for _, d := range docs {
		res.Objects = append(res.Objects, Object{Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Skipped: d.Skipped})
	}
	res.OK = true
	return res
}

// run runs the scenario with the wall-time bound: scenario.RunContext
// stops between commands and inside waits once the deadline (or the
// client's disconnection) ends ctx. A run stopped by the deadline is
// reported with done false (504), its transcript so far and the
// "stopped" failure.
func (s *server) run(ctx context.Context, req RunRequest) (RunResponse, bool) {
	if s.runContext != nil {
		ctx, cancel := s.runContext(ctx)
		defer cancel()
		return s.runIn(ctx, req)
	}
	ctx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	return s.runIn(ctx, req)
}

// runIn runs req's scenario until it ends or ctx is done.
func (s *server) runIn(ctx context.Context, req RunRequest) (RunResponse, bool) {
	sc, err := scenario.Parse(req.Name, []byte(req.Scenario))
	if err != nil {
		return RunResponse{ExitCode: 2, Failures: []string{err.Error()}}, true
	}
	var tr bytes.Buffer
	res := sc.RunContext(ctx, &tr)
	out := RunResponse{OK: res.OK(), Kind: sc.Meta().Kind, Transcript: tr.String(), Failures: res.Failures}
	if out.Failures == nil {
		out.Failures = []string{}
	}
	if !out.OK {
		out.ExitCode = 1
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		out.OK, out.ExitCode = false, 1
		out.Error = fmt.Sprintf("the scenario ran longer than %v of wall time and was stopped", s.o.Timeout)
		return out, false
	}
	return out, true
}

// nodeRange is the one {A..B} range a `node add` NAME may hold.
var nodeRange = regexp.MustCompile(`\{(\d+)\.\.(\d+)\}`)

// CountNodes returns how many nodes a scenario adds: each `node add NAME`
// of its script counts 1, or B-A+1 for a NAME with a range {A..B}; each
// file counts its `kind: Node` documents once (applying a file twice adds
// no node), and `kind: List` items of kind Node. Over-counting is fine: it
// is a bound, not the cluster's size.
func CountNodes(text string) int {
	script, files := text, ""
	if i := strings.Index(text, "\n-- "); i >= 0 {
		script, files = text[:i], text[i:]
	} else if strings.HasPrefix(text, "-- ") {
		script, files = "", text
	}
	n := 0
	for _, line := range strings.Split(script, "\n") {
		f := strings.Fields(line)
		if len(f) > 0 && f[0] == "!" {
			f = f[1:]
		}
		if len(f) < 3 || f[0] != "node" || f[1] != "add" {
			continue
		}
		if m := nodeRange.FindStringSubmatch(f[2]); m != nil {
			a, err1 := strconv.Atoi(m[1])
			b, err2 := strconv.Atoi(m[2])
			if err1 != nil || err2 != nil || b-a+1 > 1<<30 {
				return 1 << 30
			}
			if b >= a {
				n += b - a + 1
			}
			continue
		}
		n++
	}
	n += countNodeDocs(files)
	return n
}

// countNodeDocs counts the documents of kind Node in the txtar files part
// of a scenario, by a cheap scan of `kind: Node` lines (a List's items
// included): good enough for a bound, and no YAML parsing of 256 KiB.
func countNodeDocs(files string) int {
	n := 0
	for _, line := range strings.Split(files, "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		if k, v, ok := strings.Cut(t, ":"); ok && strings.TrimSpace(k) == "kind" {
			var s string
			if yaml.Unmarshal([]byte(v), &s) == nil && s == "Node" {
				n++
			}
		}
	}
	return n
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(ErrorResponse{Error: err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

func writeError(w http.ResponseWriter, status int, e ErrorResponse) { writeJSON(w, status, e) }
