// Package api is the playground's small HTTP API: validate a manifest or run
// a scenario headless, JSON in and JSON out (CONTRACTS.md "D → E").
//
//	GET  /api           an index: the endpoints and the limits
//	POST /api/validate  {"yaml": "..."} → {"ok", "diagnostics": [...], "objects": [...]}
//	POST /api/run       {"scenario": "<txtar>"} → {"ok", "exitCode", "kind", "transcript", "failures"}
//
// POST requests must carry Content-Type: application/json: a cross-site
// HTML form (text/plain, form-urlencoded) or a no-cors fetch cannot send
// it without a CORS preflight, which this API does not answer, so other
// sites cannot start runs from a visitor's browser.
//
// Every answer is JSON; errors are {"error": "message"} with a status:
// 400 malformed JSON (with line:column), unknown field or missing input;
// 404 unknown endpoint; 405 wrong method (with Allow); 413 body over
// MaxBody; 415 a POST without Content-Type: application/json; 422 a
// scenario that may grow the cluster past MaxNodes nodes or MaxPods
// DaemonSet pods (see session.ScenarioSize), or whose transcript grew past
// MaxTranscript bytes (the run is stopped; the RunResponse carries the
// transcript so far, truncated with a marker); 503 when MaxConcurrent
// requests are busy (Retry-After: 1); 504 a run stopped after Timeout of
// wall time (scenario.RunContext; with the transcript so far).
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
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/scenario"
	"github.com/dsplayground/dsplay/engine/session"
)

// Defaults of Options.
const (
	DefaultMaxBody       = 256 << 10 // 256 KiB
	DefaultTimeout       = 10 * time.Second
	DefaultMaxConcurrent = 4
	DefaultMaxNodes      = 5000
	DefaultMaxPods       = 20000
	DefaultMaxTranscript = 1 << 20 // 1 MiB
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
	// MaxNodes bounds the nodes a scenario may create (the default
	// cluster's, `node add` with ranges expanded, and Node documents of its
	// files; see session.ScenarioSize; default 5,000).
	MaxNodes int
	// MaxPods bounds nodes × max(1, DaemonSets), the DaemonSet pods a
	// scenario may create, which is what a run costs in time and memory
	// (default 20,000).
	MaxPods int
	// MaxTranscript bounds a run's transcript in bytes (default 1 MiB): a
	// run printing more is stopped, answered 422 with the transcript cut
	// at the limit and TruncatedMarker appended.
	MaxTranscript int
}

type server struct {
	o   Options
	sem chan struct{}
	// runContext bounds a run: context.WithTimeout(ctx, o.Timeout). Tests
	// replace it with a context that ends at a chosen point of the run, so
	// the timeout is tested without depending on how fast the machine is.
	runContext func(ctx context.Context) (context.Context, context.CancelFunc)
	// onRun, when set, is called just before a scenario runs, with the
	// request's context (tests: a client that goes away mid-run).
	onRun func()
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
	if o.MaxPods <= 0 {
		o.MaxPods = DefaultMaxPods
	}
	if o.MaxTranscript <= 0 {
		o.MaxTranscript = DefaultMaxTranscript
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
	// Inert is true for kinds the playground stores as the API server
	// does but no component of it acts on (Deployment, Service, RBAC ...).
	Inert bool `json:"inert,omitempty"`
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
	// Error is set when the run was stopped: on a 504 it took longer than
	// the time limit, on a 422 its transcript grew past the size limit
	// (Transcript is then cut there and ends with TruncatedMarker).
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
	MaxPods        int   `json:"maxPods"`
	// MaxTranscriptBytes bounds a run's transcript.
	MaxTranscriptBytes int `json:"maxTranscriptBytes"`
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
		if !s.acquire(w) {
			return
		}
		defer s.release()
		sc, err := scenario.Parse(req.Name, []byte(req.Scenario))
		if err != nil {
			writeJSON(w, http.StatusOK, RunResponse{ExitCode: 2, Failures: []string{err.Error()}})
			return
		}
		if size := session.ScenarioSize(sc); size.Nodes > s.o.MaxNodes || size.Pods() > s.o.MaxPods {
			writeError(w, http.StatusUnprocessableEntity, ErrorResponse{Error: fmt.Sprintf(
				"the scenario may create %d nodes and %d DaemonSets (%d nodes × %d DaemonSets = %d DaemonSet pods); "+
					"the API runs scenarios of at most %d nodes and %d pods (run larger ones with `dsplay run`)",
				size.Nodes, size.DaemonSets, size.Nodes, max(1, size.DaemonSets), size.Pods(), s.o.MaxNodes, s.o.MaxPods)})
			return
		}
		res, status := s.run(r.Context(), sc)
		if r.Context().Err() != nil {
			// The client went away: nobody reads this answer, but the run
			// stopped (its context is the request's) and the slot is free
			// once this returns. 499 is nginx's "client closed request".
			res.OK, res.ExitCode = false, 1
			res.Error = "the client closed the request; the run was stopped"
			status = 499
		}
		writeJSON(w, status, res)
	default:
		writeError(w, http.StatusNotFound, ErrorResponse{Error: "no such endpoint: " + r.URL.Path + " (GET /api lists them)"})
	}
}

func (s *server) index() Index {
	return Index{
		Name: "DaemonSet Playground API",
		Endpoints: []Endpoint{
			{Method: "GET", Path: "/api", Response: "this index", Description: "the endpoints and limits"},
			{Method: "POST", Path: "/api/validate", Request: `{"yaml": "<manifest>"} (Content-Type: application/json)`,
				Response:    `{"ok", "diagnostics": [{"line","column","field","message","hint"}], "objects": [{"kind","namespace","name"}], "error"}`,
				Description: "decode and validate a manifest as the API server would (strict field validation); nothing is applied"},
			{Method: "POST", Path: "/api/run", Request: `{"scenario": "<txtar>", "name": "file name (optional)"} (Content-Type: application/json)`,
				Response:    `{"ok", "exitCode", "kind", "transcript", "failures", "error"}`,
				Description: "run a txtar scenario headless on a fresh simulated cluster, as `dsplay run` does (exit codes 0 passed, 1 an assertion failed, 2 malformed)"},
		},
		Limits: Limits{MaxBodyBytes: s.o.MaxBody, TimeoutSeconds: int(s.o.Timeout / time.Second),
			MaxConcurrent: s.o.MaxConcurrent, MaxNodes: s.o.MaxNodes, MaxPods: s.o.MaxPods,
			MaxTranscriptBytes: s.o.MaxTranscript},
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
// 415, 413 or 400 itself when it cannot. The body must be declared
// application/json (parameters such as charset=utf-8 allowed): what an
// HTML form or a no-cors fetch can send cross-site without a CORS
// preflight (text/plain, application/x-www-form-urlencoded,
// multipart/form-data, or no type) is refused before the body is read.
func (s *server) decode(w http.ResponseWriter, r *http.Request, v any) bool {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		if ct == "" {
			ct = "none"
		}
		w.Header().Set("Accept-Post", "application/json")
		writeError(w, http.StatusUnsupportedMediaType, ErrorResponse{Error: fmt.Sprintf(
			"the request's Content-Type is %s: send the JSON body with Content-Type: application/json", ct)})
		return false
	}
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
// (engine.DecodeManifest: strict field validation, defaulting, the API
// server's validation), without applying it.
func Validate(text string) ValidateResponse {
	res := ValidateResponse{Diagnostics: []Diagnostic{}, Objects: []Object{}}
	docs, err := engine.DecodeManifest("manifest.yaml", text, false)
	if err != nil {
		if diags, ok := engine.ManifestDiagnostics(err); ok {
			for _, d := range diags {
				res.Diagnostics = append(res.Diagnostics, Diagnostic{Line: d.Line, Column: d.Column, Field: d.Field, Message: d.Message, Hint: d.Hint})
			}
		} else {
			res.Diagnostics = append(res.Diagnostics, Diagnostic{Line: 1, Column: 1, Message: err.Error()})
		}
		res.Error = err.Error()
		return res
	}
	if len(docs) == 0 {
		err := engine.NoObjectsError("manifest.yaml", "apply")
		res.Error = err.Error()
		res.Diagnostics = append(res.Diagnostics, Diagnostic{Line: 1, Column: 1, Message: err.Error()})
		return res
	}
	for _, d := range docs {
		res.Objects = append(res.Objects, Object{Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Inert: d.Inert})
	}
	res.OK = true
	return res
}

// TruncatedMarker ends a transcript cut at Options.MaxTranscript.
const TruncatedMarker = "\n[transcript truncated: the run printed more than the API's limit and was stopped]\n"

// errTranscriptTooLong is the cause of a run stopped by its transcript's size.
var errTranscriptTooLong = errors.New("the transcript grew past the API's limit")

// limitedWriter keeps the first max bytes written to it; the write that
// goes past max cancels the run (scenario.RunContext stops at its next
// check, between commands or inside a wait) and later writes are dropped.
// Writes never fail, so the runner is not disturbed until it stops.
type limitedWriter struct {
	buf       bytes.Buffer
	max       int
	truncated bool
	cancel    context.CancelCauseFunc
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.truncated {
		return len(p), nil
	}
	if room := l.max - l.buf.Len(); len(p) > room {
		l.buf.Write(p[:room])
		l.truncated = true
		l.cancel(errTranscriptTooLong)
		return len(p), nil
	}
	return l.buf.Write(p)
}

// run runs sc with the wall-time bound and the transcript bound:
// scenario.RunContext stops between commands and inside waits once the
// deadline, the client's disconnection (ctx is the request's) or a
// transcript past MaxTranscript ends its context. It returns the answer
// and its status: 200, 504 (stopped by the deadline) or 422 (stopped by
// the transcript's size), with the transcript so far and the "stopped"
// failure.
func (s *server) run(ctx context.Context, sc *scenario.Scenario) (RunResponse, int) {
	ctx, cancelCause := context.WithCancelCause(ctx)
	defer cancelCause(nil)
	tr := &limitedWriter{max: s.o.MaxTranscript, cancel: cancelCause}
	var cancel context.CancelFunc
	if s.runContext != nil {
		ctx, cancel = s.runContext(ctx)
	} else {
		ctx, cancel = withPolledDeadline(ctx, time.Now().Add(s.o.Timeout), time.Now)
	}
	defer cancel()
	if s.onRun != nil {
		s.onRun()
	}
	res := sc.RunContext(ctx, tr)
	out := RunResponse{OK: res.OK(), Kind: sc.Meta().Kind, Failures: res.Failures}
	if out.Failures == nil {
		out.Failures = []string{}
	}
	if !out.OK {
		out.ExitCode = 1
	}
	status := http.StatusOK
	switch {
	case tr.truncated:
		tr.buf.WriteString(TruncatedMarker)
		out.OK, out.ExitCode = false, 1
		out.Error = fmt.Sprintf("the scenario printed more than %d bytes (%d KiB) and was stopped; the transcript is cut there", s.o.MaxTranscript, s.o.MaxTranscript>>10)
		status = http.StatusUnprocessableEntity
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		out.OK, out.ExitCode = false, 1
		out.Error = fmt.Sprintf("the scenario ran longer than %v of wall time and was stopped", s.o.Timeout)
		status = http.StatusGatewayTimeout
	}
	out.Transcript = tr.buf.String()
	return out, status
}

// polledDeadline is a context that is done once its parent is, or once
// now() passes deadline — found out whenever Done or Err is called. A
// context.WithTimeout deadline fires from a timer, and in a GOOS=js build
// (the Cloudflare Worker runs this package as wasm) timers do not fire
// while Go keeps the only thread busy: a run would never see its deadline.
// scenario.RunContext asks Done between commands and at every virtual
// step of a wait, so polling there is enough.
type polledDeadline struct {
	context.Context
	deadline time.Time
	now      func() time.Time
	ch       chan struct{}
	err      error
}

// withPolledDeadline returns a polledDeadline over parent and its cancel
// function (which ends it with context.Canceled).
func withPolledDeadline(parent context.Context, deadline time.Time, now func() time.Time) (context.Context, context.CancelFunc) {
	c := &polledDeadline{Context: parent, deadline: deadline, now: now, ch: make(chan struct{})}
	return c, func() { c.end(context.Canceled) }
}

func (c *polledDeadline) end(err error) {
	if c.err == nil {
		c.err = err
		close(c.ch)
	}
}

func (c *polledDeadline) poll() {
	if c.err != nil {
		return
	}
	if err := c.Context.Err(); err != nil {
		c.end(err)
	} else if !c.now().Before(c.deadline) {
		c.end(context.DeadlineExceeded)
	}
}

func (c *polledDeadline) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *polledDeadline) Done() <-chan struct{}       { c.poll(); return c.ch }
func (c *polledDeadline) Err() error                  { c.poll(); return c.err }

// writeJSON answers v as compact JSON and a newline, with its
// Content-Length. One buffer holds the encoding (no indented copy: a run's
// answer carries up to MaxTranscript bytes of transcript), and <, > and &
// are not escaped (kubectl's `<string>` stays 8 bytes, not 18): the
// answer is application/json with nosniff and a CSP of default-src
// 'none', never HTML.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
		json.NewEncoder(&b).Encode(ErrorResponse{Error: err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

func writeError(w http.ResponseWriter, status int, e ErrorResponse) { writeJSON(w, status, e) }
