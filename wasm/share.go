//go:build js && wasm

package main

import (
	"bytes"
	"cmp"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"golang.org/x/tools/txtar"
	"gopkg.in/yaml.v3"
	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// Share links and scenario files.
//
// The page's whole state is its Recorder's input log (engine.Recorder: the
// engine is deterministic, so the Options and the inputs give back the same
// cluster, pod names, clock and timeline). exportScenario writes it with
// scenario.Export (a script `dsplay run` runs, the manifests as files) and
// adds the file inputsFile, the input log itself, which replayScenario
// replays input for input (the timeline comes back step for step, whatever
// the script's commands would do on another Recorder); a scenario without
// it (written by hand, or by `dsplay`) is replayed with scenario.Replay.
//
// A share link is location.origin + pathname + "#s=" + base64url(raw
// DEFLATE(scenario)) (RFC 1951). The page compresses with the browser's
// CompressionStream("deflate-raw") and decompresses with Go's
// compress/flate (already in the wasm build, and synchronous, so a link
// opens without waiting); flate's compressor would add 77 KB of wasm. The
// fragment never reaches a server.

// inputsFile is the archive file holding the exact input log (JSON, see
// shareLog); the script's files hold the manifests it names.
const inputsFile = ".dsplay/inputs.json"

// shareLogVersion is the version of the shareLog format written.
const shareLogVersion = 1

// maxShareFragment is the longest share fragment the Share button puts in
// a link (characters after "#s="); a longer state is offered as a file
// instead. Browsers take far longer URLs (Chromium 2 MB), but chat tools,
// mail clients and some servers' logs cut them around 8 KB.
const maxShareFragment = 8000

// maxScenarioBytes bounds a decompressed share fragment or an imported
// file (1 MiB, the editor's own cap): a small link cannot unpack into a
// huge allocation.
const maxScenarioBytes = 1 << 20

// shareLog is inputsFile's content: the Recorder's Options and its inputs.
type shareLog struct {
	V     int          `json:"v"`
	Seed  int64        `json:"seed,omitempty"`
	Empty bool         `json:"empty,omitempty"`
	At    float64      `json:"at"` // the live clock when exported, seconds (a check on replay)
	In    []shareInput `json:"in"`
	// Ctx is what the page had open when the state was shared (absent in
	// links made before it was recorded: those open as before).
	Ctx *shareContext `json:"ctx,omitempty"`
}

// shareContext is what a share link or an exported scenario records
// besides the cluster: the exercise or lesson open (its file's ID; for a
// lesson the step shown, 0 the introduction) and the editor's text (the
// archive file Editor). Opening it (afterReplay) opens the exercise on
// the replayed cluster, without running its setup again (the replay holds
// it), and checks its goal; a lesson opens at that step.
type shareContext struct {
	Exercise string `json:"exercise,omitempty"`
	Lesson   string `json:"lesson,omitempty"`
	Step     int    `json:"step,omitempty"`
	Editor   string `json:"editor,omitempty"`
	// editorText is the editor's text (Editor's content).
	editorText string
}

// shareContextFor returns what the page has open for rec (nil: nothing
// recorded, as in the unit tests); afterReplay is called after a replay
// of a scenario with a context succeeded, with the Recorder replayed on.
// Both are set by shareHooks.
var (
	shareContextFor func(rec *engine.Recorder) *shareContext
	afterReplay     func(rec *engine.Recorder, c shareContext)
)

// shareInput is one engine.Input, compactly: a manifest, file or edit text
// is the archive file F (the file scenario.Export wrote with that text, or
// one of ours), a duration is in milliseconds.
type shareInput struct {
	K    engine.InputKind     `json:"k"`
	Ms   int64                `json:"ms,omitempty"`
	Line string               `json:"line,omitempty"`
	Name string               `json:"name,omitempty"`
	NS   string               `json:"ns,omitempty"`
	F    string               `json:"f,omitempty"`
	Node *cluster.NodeOptions `json:"node,omitempty"`
	Type string               `json:"type,omitempty"`
	St   string               `json:"status,omitempty"`
	Rdy  bool                 `json:"ready,omitempty"`
	Refs []string             `json:"refs,omitempty"`
	Edit int                  `json:"edit,omitempty"`
}

// exportScenario writes rec's inputs as a txtar scenario: scenario.Export's
// script and files (titled title; with markFailures the commands that
// failed are marked, at the cost of one replay, so that `dsplay run` runs
// it clean), plus inputsFile.
func exportScenario(rec *engine.Recorder, title string, markFailures bool) []byte {
	var ctx *shareContext
	if shareContextFor != nil {
		ctx = shareContextFor(rec)
	}
	return exportScenarioCtx(rec, title, markFailures, ctx)
}

// exportScenarioCtx is exportScenario with the page's context given (nil:
// none): it is recorded in inputsFile (shareLog.Ctx, the editor's text as
// an archive file) and named in the script's header comment.
func exportScenarioCtx(rec *engine.Recorder, title string, markFailures bool, ctx *shareContext) []byte {
	comment := []string{fmt.Sprintf("Exported by the DaemonSet Playground at t=%s of virtual time: `dsplay run FILE` runs it;", formatElapsed(rec.Live().Elapsed())), "the page's Import (or a share link) replays " + inputsFile + ", the exact input log."}
	switch {
	case ctx != nil && ctx.Exercise != "":
		comment = append(comment, "exercise: "+ctx.Exercise)
	case ctx != nil && ctx.Lesson != "":
		comment = append(comment, fmt.Sprintf("lesson: %s step %d", ctx.Lesson, ctx.Step))
	}
	ar := txtar.Parse(scenario.Export(rec, scenario.ExportOptions{
		Title:        cmp.Or(title, "DaemonSet Playground session"),
		Comment:      comment,
		MarkFailures: markFailures,
	}))
	o := rec.Options()
	lg := shareLog{V: shareLogVersion, Seed: o.Seed, Empty: o.Empty, At: rec.Live().Elapsed().Seconds()}
	byText := map[string]string{}
	used := map[string]bool{inputsFile: true}
	for _, f := range ar.Files {
		used[f.Name] = true
		if _, ok := byText[string(f.Data)]; !ok {
			byText[string(f.Data)] = f.Name
		}
	}
	fileFor := func(name, text string) string {
		if f, ok := byText[text]; ok {
			return f
		}
		f := archiveName(name, used)
		used[f] = true
		byText[text] = f
		ar.Files = append(ar.Files, txtar.File{Name: f, Data: []byte(text)})
		return f
	}
	for _, in := range rec.Inputs() {
		si := shareInput{K: in.Kind, Line: in.Line, Name: in.Name, NS: in.Namespace, Type: in.Type, St: in.Status, Rdy: in.Ready, Refs: in.Refs, Edit: in.Edit}
		switch in.Kind {
		case engine.InputApply, engine.InputSetFile, engine.InputFinishEdit:
			si.F = fileFor(in.Name, in.Text)
		case engine.InputAdvance:
			si.Ms = in.D.Milliseconds()
		case engine.InputAddNode:
			n := in.Node
			si.Node = &n
		}
		lg.In = append(lg.In, si)
	}
	if ctx != nil {
		c := *ctx
		c.Editor = ""
		if ctx.editorText != "" {
			c.Editor = fileFor(".dsplay/editor.yaml", ctx.editorText)
		}
		if c != (shareContext{}) {
			lg.Ctx = &c
		}
	}
	js, _ := json.Marshal(lg) // plain values only: cannot fail
	ar.Files = append(ar.Files, txtar.File{Name: inputsFile, Data: append(js, '\n')})
	return txtar.Format(ar)
}

// archiveName is a file name for the archive: name itself when unused,
// else name@2, name@3, ... (scenario.Export's convention).
func archiveName(name string, used map[string]bool) string {
	if name == "" {
		name = "edit.yaml"
	}
	name = strings.ReplaceAll(name, " ", "_")
	for n := 1; ; n++ {
		c := name
		if n > 1 {
			c = name + "@" + strconv.Itoa(n)
		}
		if !used[c] {
			return c
		}
	}
}

// scenarioOptions are the engine.Options a scenario file asks for: those
// of its input log, or (a scenario without one) scenario.Scenario.Options
// (`cluster empty`, `cluster seed N`); a file that does not parse gets the
// defaults (replayScenario reports its error).
func scenarioOptions(name string, data []byte) engine.Options {
	ar := txtar.Parse(data)
	for _, f := range ar.Files {
		if f.Name == inputsFile {
			var lg shareLog
			if json.Unmarshal(f.Data, &lg) == nil {
				return engine.Options{Seed: lg.Seed, Empty: lg.Empty}
			}
		}
	}
	if sc, err := scenario.Parse(name, data); err == nil {
		o := sc.Options()
		return engine.Options{Seed: o.Seed, Empty: o.Empty}
	}
	return engine.Options{}
}

// replayWallBudget bounds the wall-clock time one replay of a share link
// or an imported scenario may take (the page's main thread is busy all
// along: a link whose `wait rollout --timeout=100000h` waits on an image
// the registry lacks, or whose `advance 1000000h` restarts a crash-looping
// pod, would otherwise freeze the tab for good). A var for the tests.
var replayWallBudget = 10 * time.Second

// maxReplayNodes bounds the nodes a replayed scenario may make, the
// playground's largest cluster (5,000 nodes, as Kubernetes' own
// scalability limit): it is checked before the replay where the scenario
// says how many nodes it adds (`node add NAME{A..B}`, manifests' Node
// documents), and after every input.
const maxReplayNodes = 5000

// replayStopError is a replay stopped by a limit (replayWallBudget or
// maxReplayNodes). The Recorder replayed on holds a partial state: the
// page drops it and keeps its own cluster.
type replayStopError struct {
	// Budget is the wall-clock budget that ran out (0: a node limit).
	Budget time.Duration
	// Nodes is the node count that went over maxReplayNodes.
	Nodes int
	// At is the command or input the replay stopped at, as written.
	At string
}

func (e *replayStopError) Error() string {
	if e.Budget > 0 {
		return fmt.Sprintf("it ran longer than %g s (stopped at: %s)", e.Budget.Seconds(), e.At)
	}
	return fmt.Sprintf("it makes %d nodes, more than the playground's %s (stopped at: %s)", e.Nodes, thousands(maxReplayNodes), e.At)
}

// thousands formats n with comma thousands separators (5,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// replayScenario runs a scenario's inputs on rec (a Recorder made with
// scenarioOptions) within replayWallBudget and maxReplayNodes: the exact
// input log when the archive has one, else the script (replayScript). It
// stops at the first input that cannot be replayed; the error names the
// file and line (the script's) or the input, or is a *replayStopError.
func replayScenario(rec *engine.Recorder, name string, data []byte) error {
	return replayUntil(rec, name, data, time.Now().Add(replayWallBudget))
}

// replayUntil is replayScenario with the wall-clock deadline given.
func replayUntil(rec *engine.Recorder, name string, data []byte, deadline time.Time) error {
	ar := txtar.Parse(data)
	files := map[string]string{}
	var log []byte
	for _, f := range ar.Files {
		if f.Name == inputsFile {
			log = f.Data
			continue
		}
		files[f.Name] = string(f.Data)
	}
	if log == nil {
		return replayScript(rec, name, data, deadline)
	}
	var lg shareLog
	dec := json.NewDecoder(bytes.NewReader(log))
	if err := dec.Decode(&lg); err != nil {
		return fmt.Errorf("%s: %s: %v", name, inputsFile, err)
	}
	if lg.V != shareLogVersion {
		return fmt.Errorf("%s: %s: version %d, this page reads version %d", name, inputsFile, lg.V, shareLogVersion)
	}
	// Nodes the log adds, counted before anything runs (a node added
	// twice, or removed, is counted each time: an upper bound).
	nodes := rec.Live().NodeCount()
	for _, si := range lg.In {
		switch si.K {
		case engine.InputAddNode:
			nodes++
		case engine.InputApply:
			nodes += countNodeDocs(nil, files[si.F])
		}
		if nodes > maxReplayNodes {
			return &replayStopError{Nodes: nodes, At: describeInput(si)}
		}
	}
	for i, si := range lg.In {
		if time.Now().After(deadline) {
			return &replayStopError{Budget: replayWallBudget, At: describeInput(si)}
		}
		in := engine.Input{Kind: si.K, Line: si.Line, Name: si.Name, Namespace: si.NS, Type: si.Type, Status: si.St, Ready: si.Rdy, Refs: si.Refs, Edit: si.Edit, D: time.Duration(si.Ms) * time.Millisecond}
		if si.Node != nil {
			in.Node = *si.Node
		}
		if si.F != "" {
			t, ok := files[si.F]
			if !ok {
				return fmt.Errorf("%s: input %d (%s) names the file %q, which the archive lacks", name, i+1, si.K, si.F)
			}
			in.Text = t
		}
		if !knownInput(in.Kind) {
			return fmt.Errorf("%s: input %d: unknown kind %q", name, i+1, si.K)
		}
		if in.Kind == engine.InputFinishEdit && (in.Edit < 0 || in.Edit >= len(rec.Inputs())) {
			return fmt.Errorf("%s: input %d saves an edit of input %d, which does not exist", name, i+1, in.Edit+1)
		}
		if in.Kind == engine.InputAdvance {
			if !advanceUntil(rec, in.D, deadline) {
				return &replayStopError{Budget: replayWallBudget, At: describeInput(si)}
			}
		} else {
			rec.Do(in)
		}
		if n := rec.Live().NodeCount(); n > maxReplayNodes {
			return &replayStopError{Nodes: n, At: describeInput(si)}
		}
	}
	if got := rec.Live().Elapsed().Seconds(); fmt.Sprintf("%.3f", got) != fmt.Sprintf("%.3f", lg.At) {
		return fmt.Errorf("%s: the replay reached t=%.3fs, the recording t=%.3fs (made by another version of the playground?)", name, got, lg.At)
	}
	if lg.Ctx != nil && afterReplay != nil {
		c := *lg.Ctx
		c.editorText = files[c.Editor]
		afterReplay(rec, c)
	}
	return nil
}

// advanceUntil advances rec by d in chunks, so that the deadline is
// checked between them: one second first, doubled while a chunk takes
// under 20 ms of wall time (a quiet cluster crosses hours in a few
// chunks; one restarting a crash-looping pod every few minutes stays in
// short ones). The Recorder merges consecutive advances into one input
// (Advance(a) then Advance(b) is Advance(a+b)), so the input log is the
// one a single Advance(d) makes. It reports false when the deadline
// passed before d was reached.
func advanceUntil(rec *engine.Recorder, d time.Duration, deadline time.Time) bool {
	chunk := time.Second
	for left := d; left > 0; {
		if time.Now().After(deadline) {
			return false
		}
		s := min(chunk, left)
		t0 := time.Now()
		rec.Do(engine.Input{Kind: engine.InputAdvance, D: s})
		left -= s
		if time.Since(t0) < 20*time.Millisecond && chunk < time.Hour {
			chunk *= 2
		}
	}
	return true
}

// describeInput is an input of the log as the learner made it, for
// "stopped at": the console line, or what the action did.
func describeInput(si shareInput) string {
	switch si.K {
	case engine.InputRun:
		return si.Line
	case engine.InputAdvance:
		return "advance " + formatElapsed(time.Duration(si.Ms)*time.Millisecond)
	case engine.InputAddNode:
		return "node add " + si.Name
	case engine.InputApply:
		return "apply " + si.Name
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s", si.K, si.Name))
}

// countNodeDocs counts the Node documents a manifest holds that name no
// node of c (any node when c is nil): top-level documents of kind Node,
// and the Node items of a `kind: List`, as manifest.Decode unpacks them.
// It reads the YAML as nodes only (gopkg.in/yaml.v3), without decoding
// and validating each object as manifest.Decode does (several times
// slower); a manifest that does not parse counts what was read before
// the error (its Apply fails anyway). Short texts are not read: under
// nodeDocsMinBytes a manifest cannot hold 1,000 Node documents (each
// takes at least about 45 bytes, the flow style `{kind: Node,
// apiVersion: v1, metadata: {name: a}}`), so the cap is not near (unless
// c has more than 4,000 nodes) and the time is saved.
func countNodeDocs(c *engine.Simulation, text string) int {
	if len(text) < nodeDocsMinBytes && (c == nil || c.NodeCount() <= maxReplayNodes-nodeDocsMinBytes/45) {
		return 0
	}
	n := 0
	count := func(obj *yaml.Node) {
		if obj.Kind != yaml.MappingNode || mapValue(obj, "kind") != "Node" {
			return
		}
		name := ""
		for i := 0; i+1 < len(obj.Content); i += 2 {
			if obj.Content[i].Value == "metadata" && obj.Content[i+1].Kind == yaml.MappingNode {
				name = mapValue(obj.Content[i+1], "name")
			}
		}
		if c == nil || !c.HasNode(name) {
			n++
		}
	}
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return n // io.EOF, or a syntax error
		}
		if len(doc.Content) == 0 {
			continue
		}
		top := doc.Content[0]
		if top.Kind == yaml.MappingNode && mapValue(top, "kind") == "List" {
			for i := 0; i+1 < len(top.Content); i += 2 {
				if top.Content[i].Value == "items" && top.Content[i+1].Kind == yaml.SequenceNode {
					for _, it := range top.Content[i+1].Content {
						count(it)
					}
				}
			}
			continue
		}
		count(top)
	}
}

// mapValue is the scalar value of key in a YAML mapping node ("" when
// absent or not a scalar).
func mapValue(m *yaml.Node, key string) string {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key && m.Content[i+1].Kind == yaml.ScalarNode {
			return m.Content[i+1].Value
		}
	}
	return ""
}

// nodeDocsMinBytes: see countNodeDocs.
const nodeDocsMinBytes = 45 * 1000

// replayScript replays a scenario without an input log (written by hand,
// or by `dsplay`) with scenario.ReplayContext, stopping at the deadline
// or once rec has more than maxReplayNodes nodes (stopCtx: checked before
// each command and at every virtual second of its waits, kubectl's own
// included). `node add NAME{A..B}` ranges and the Node documents of the
// archive's files are counted before anything runs.
func replayScript(rec *engine.Recorder, name string, data []byte, deadline time.Time) error {
	sc, err := scenario.Parse(name, data)
	if err != nil {
		return err
	}
	n, at := scriptNodes(data, rec.Live().NodeCount())
	for f, text := range sc.Files {
		if k := countNodeDocs(nil, text); k > 0 {
			n += k
			if n > maxReplayNodes {
				at = cmp.Or(at, "kubectl apply -f "+f)
			}
		}
	}
	if n > maxReplayNodes {
		return &replayStopError{Nodes: n, At: at}
	}
	ctx := &stopCtx{ch: make(chan struct{}), stop: func() *replayStopError {
		if !time.Now().Before(deadline) {
			return &replayStopError{Budget: replayWallBudget}
		}
		if n := rec.Live().NodeCount(); n > maxReplayNodes {
			return &replayStopError{Nodes: n}
		}
		return nil
	}}
	err = scenario.ReplayContext(ctx, rec, sc)
	if ctx.why != nil {
		var re *scenario.ReplayError
		if errors.As(err, &re) {
			ctx.why.At = stoppedAt(data, name, re.Failures)
		}
		return ctx.why
	}
	return err
}

// stopCtx is the context of a replay (replayScript): done once stop
// returns an error, which it asks each time the replay checks Done or
// Err. A context.WithDeadline would not do in the browser: its timer
// fires from the Go scheduler, which never runs while the replay keeps
// the only thread busy (measured under GOOS=js: a 100 ms deadline was
// still not done after 2 s of work checking ctx.Err()).
type stopCtx struct {
	stop func() *replayStopError
	ch   chan struct{}
	why  *replayStopError
}

func (c *stopCtx) done() bool {
	if c.why == nil {
		if c.why = c.stop(); c.why != nil {
			close(c.ch)
		}
	}
	return c.why != nil
}

func (c *stopCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (c *stopCtx) Done() <-chan struct{}       { c.done(); return c.ch }
func (c *stopCtx) Value(any) any               { return nil }

// Err is context.DeadlineExceeded once the wall-clock budget ran out,
// context.Canceled once the node limit was passed.
func (c *stopCtx) Err() error {
	switch {
	case !c.done():
		return nil
	case c.why.Budget > 0:
		return context.DeadlineExceeded
	}
	return context.Canceled
}

// stoppedAt is the script line a stopped replay stopped at: the line its
// "stopped" failure names ("file:line: stopped: ..."), the last one.
func stoppedAt(data []byte, name string, failures []string) string {
	lines := strings.Split(string(txtar.Parse(data).Comment), "\n")
	for i := len(failures) - 1; i >= 0; i-- {
		rest, ok := strings.CutPrefix(failures[i], name+":")
		if !ok || !strings.Contains(rest, "stopped") {
			continue
		}
		num, _, _ := strings.Cut(rest, ":")
		if n, err := strconv.Atoi(num); err == nil && n >= 1 && n <= len(lines) {
			return strings.TrimSpace(lines[n-1])
		}
	}
	return "the end"
}

// scriptNodes counts the nodes a cluster of n nodes has after a script's
// `node add` lines (ranges expanded: worker-{1..500} adds 500), and the
// line that takes it over maxReplayNodes, if one does.
func scriptNodes(data []byte, n int) (total int, at string) {
	for _, l := range strings.Split(string(txtar.Parse(data).Comment), "\n") {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == "!" {
			f = f[1:]
		}
		if len(f) < 3 || f[0] != "node" || f[1] != "add" {
			continue
		}
		n += rangeSize(f[2])
		if at == "" && n > maxReplayNodes {
			at = strings.TrimSpace(l)
		}
	}
	return n, at
}

// rangeSize is how many names a `node add` name with one {A..B} range
// makes (1 without a range, or for a malformed one, which the scenario's
// parser refuses).
func rangeSize(name string) int {
	open := strings.Index(name, "{")
	close := strings.Index(name, "}")
	if open < 0 || close < open {
		return 1
	}
	a, b, ok := strings.Cut(name[open+1:close], "..")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || to < from {
		return 1
	}
	return to - from + 1
}

// knownInput reports whether k is an input kind this page can replay.
func knownInput(k engine.InputKind) bool {
	return slices.Contains([]engine.InputKind{engine.InputRun, engine.InputApply, engine.InputSetFile, engine.InputFinishEdit,
		engine.InputAddNode, engine.InputRemoveNode, engine.InputFailNode, engine.InputRecoverNode, engine.InputFailPod,
		engine.InputNodeCondition, engine.InputPodReadiness, engine.InputRegistryHave, engine.InputRegistryLack,
		engine.InputRegistryPreload, engine.InputAdvance}, k)
}

// compressRaw compresses data with the browser's
// CompressionStream("deflate-raw") (RFC 1951) and calls done with the
// result, or an error, once the stream has ended. The decoder is Go's
// compress/flate (already in the wasm build, synchronous, so a link opens
// without waiting); compressing through the browser keeps flate's
// compressor (77 KB of wasm) out of the download.
func compressRaw(data []byte, done func([]byte, error)) {
	cs := global.Get("CompressionStream")
	if !cs.Truthy() {
		done(nil, errors.New("this browser cannot compress (no CompressionStream): download the scenario instead"))
		return
	}
	u8 := global.Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	stream := global.Get("Blob").New([]any{u8}).Call("stream").Call("pipeThrough", cs.New("deflate-raw"))
	promise := global.Get("Response").New(stream).Call("arrayBuffer")
	await(promise, func(buf js.Value) {
		out := global.Get("Uint8Array").New(buf)
		b := make([]byte, out.Get("length").Int())
		js.CopyBytesToGo(b, out)
		done(b, nil)
	}, func(err error) { done(nil, err) })
}

// await calls ok with a promise's value or fail with its rejection, in a
// later task; the two callbacks are released after the first call.
func await(promise js.Value, ok func(js.Value), fail func(error)) {
	var onOK, onFail js.Func
	release := func() { onOK.Release(); onFail.Release() }
	onOK = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		v := js.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ok(v)
		return nil
	})
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		msg := "rejected"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		fail(errors.New(msg))
		return nil
	})
	promise.Call("then", onOK, onFail)
}

// encodeFragment calls done with the share fragment of a scenario
// (without "#s="): base64url without padding of its raw DEFLATE
// compression.
func encodeFragment(data []byte, done func(string, error)) {
	compressRaw(data, func(b []byte, err error) {
		if err != nil {
			done("", err)
			return
		}
		done(base64.RawURLEncoding.EncodeToString(b), nil)
	})
}

// errTooBig is decodeFragment's error for a fragment unpacking to more
// than maxScenarioBytes.
var errTooBig = fmt.Errorf("the shared scenario unpacks to more than %d KiB", maxScenarioBytes>>10)

// decodeFragment undoes encodeFragment. Padding and the standard
// alphabet's + and / are accepted too (a link retyped or re-encoded).
func decodeFragment(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	s = strings.NewReplacer("+", "-", "/", "_").Replace(s)
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (base64: %v)", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, maxScenarioBytes+1))
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (deflate: %v)", err)
	}
	if len(out) > maxScenarioBytes {
		return nil, errTooBig
	}
	return out, nil
}

// fragmentParam returns the value of key in a URL fragment of the form
// "#k=v&k2=v2" ("" and false when absent).
func fragmentParam(hash, key string) (string, bool) {
	hash = strings.TrimPrefix(hash, "#")
	for _, part := range strings.Split(hash, "&") {
		if k, v, ok := strings.Cut(part, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// The Share button and its panel (index.html's share region): the link,
// copied to the clipboard and shown in a text field (the fallback when the
// browser refuses the clipboard); over maxShareFragment the link is not
// offered and "Download scenario (.txtar)" is.
type sharePanel struct {
	a                                 *app
	panel, msg, url, copyBtn, openBtn js.Value
	link                              string
}

// initShare wires the Share button (not in embed mode).
func (a *app) initShare() {
	s := &sharePanel{a: a, panel: byID("share-panel"), msg: byID("share-msg"), url: byID("share-url"), copyBtn: byID("share-copy"), openBtn: byID("share")}
	if s.panel.IsNull() || s.openBtn.IsNull() {
		return // an index.html without the share region
	}
	a.listen(dom.WrapElement(s.openBtn), "click", func(dom.Event) {
		if !s.panel.Get("hidden").Bool() {
			s.close()
			return
		}
		s.open()
	})
	if b := byID("share-close"); !b.IsNull() {
		a.listen(dom.WrapElement(b), "click", func(dom.Event) { s.close() })
	}
	a.listen(dom.WrapElement(s.copyBtn), "click", func(dom.Event) { s.copy() })
	if b := byID("share-download"); !b.IsNull() {
		a.listen(dom.WrapElement(b), "click", func(dom.Event) { a.exportTxtar() })
	}
	a.listen(dom.WrapElement(s.panel), "keydown", func(ev dom.Event) {
		if ev.Underlying().Get("key").String() == "Escape" {
			s.close()
			s.openBtn.Call("focus")
		}
	})
}

// shareHooks adds window.dsplay.shareLink, exportScenario and importText
// (in every mode).
func (a *app) shareHooks() {
	shareContextFor = func(rec *engine.Recorder) *shareContext {
		if rec != a.rec || a.ed == nil {
			return nil
		}
		return a.currentShareContext()
	}
	afterReplay = func(rec *engine.Recorder, c shareContext) {
		// later: the replayed Recorder becomes the page's cluster (and its
		// reset hooks close any panel, showReplayed sets the editor) after
		// the replay returns. A microtask runs once the Go code running now
		// returns to the browser, before any other task (a test's or the
		// learner's) sees the page.
		var f js.Func
		f = js.FuncOf(func(js.Value, []js.Value) any {
			f.Release()
			defer a.recoverAt("share link context")
			if a.rec == rec {
				a.applyShareContext(c)
			}
			return nil
		})
		if global.Get("queueMicrotask").Truthy() {
			global.Call("queueMicrotask", f)
		} else {
			global.Call("setTimeout", f, 0)
		}
	}
	o := global.Get("dsplay")
	if o.Truthy() {
		// dsplay.shareLink() -> Promise of {url, fragmentBytes, scenarioBytes, tooLong}
		o.Set("shareLink", a.hook("dsplay.shareLink", func([]js.Value) any {
			var resolve, reject js.Value
			var exec js.Func
			exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
				resolve, reject = args[0], args[1]
				return nil
			})
			p := global.Get("Promise").New(exec)
			exec.Release()
			a.shareLink(func(link string, frag, n int, err error) {
				if err != nil {
					reject.Invoke(err.Error())
					return
				}
				resolve.Invoke(map[string]any{"url": link, "fragmentBytes": frag, "scenarioBytes": n, "tooLong": frag > maxShareFragment})
			})
			return p
		}))
		// dsplay.exportScenario() -> the session as a txtar scenario
		o.Set("exportScenario", a.hook("dsplay.exportScenario", func([]js.Value) any {
			a.flushJobs()
			return string(exportScenario(a.rec, "", true))
		}))
		// dsplay.importText(name, text) -> "" or the error (as a file dropped on the editor)
		o.Set("importText", a.hook("dsplay.importText", func(args []js.Value) any {
			if len(args) < 2 {
				return "usage: dsplay.importText(name, text)"
			}
			return a.importText(args[0].String(), args[1].String())
		}))
	}
}

// currentShareContext is what the page has open: the exercise or lesson
// shown on its cluster (a lesson with the step shown) and the editor's text.
func (a *app) currentShareContext() *shareContext {
	c := &shareContext{editorText: a.ed.ta.Get("value").String()}
	if u := lessons; u != nil && u.cur != nil && u.rec == a.rec {
		switch {
		case u.ex != nil:
			c.Exercise = u.ex.Item.ID
		case u.lesson != nil:
			c.Lesson, c.Step = u.lesson.Item.ID, u.lesson.Shown
		}
	}
	return c
}

// applyShareContext opens what a share link's context names on the
// replayed cluster (attachExercise, attachLesson) and gives the editor its
// text back; what cannot be opened is said in the console.
func (a *app) applyShareContext(c shareContext) {
	var err error
	switch {
	case c.Exercise != "":
		err = a.attachExercise(c.Exercise)
	case c.Lesson != "":
		err = a.attachLesson(c.Lesson, c.Step)
	}
	if err != nil {
		a.kc.note(fmt.Sprintf("The link was made with %s open, which this page cannot open: %v.\n", cmp.Or(c.Exercise, c.Lesson), err))
	}
	if c.Editor != "" {
		a.ed.setText(c.editorText)
	}
}

// shareLink builds the page's share link and calls done with the URL,
// the fragment's length (after "#s=") and the scenario's length, in bytes.
func (a *app) shareLink(done func(link string, fragBytes, scenarioBytes int, err error)) {
	a.flushJobs()
	sc := exportScenario(a.rec, "", false)
	loc := global.Get("location")
	base := loc.Get("origin").String() + loc.Get("pathname").String()
	if base == "null" || strings.HasPrefix(loc.Get("protocol").String(), "file") {
		base = strings.SplitN(loc.Get("href").String(), "#", 2)[0]
	}
	encodeFragment(sc, func(frag string, err error) {
		done(base+"#s="+frag, len(frag), len(sc), err)
	})
}

// open builds the link and shows the panel; a link that fits is copied.
func (s *sharePanel) open() {
	s.panel.Set("hidden", false)
	s.openBtn.Call("setAttribute", "aria-expanded", "true")
	s.msg.Set("className", "share-msg")
	s.msg.Set("textContent", "Making the link…")
	s.a.shareLink(func(link string, frag, _ int, err error) {
		defer s.a.recoverAt("share link")
		switch {
		case err != nil:
			s.tooLong(err.Error() + ".")
		case frag > maxShareFragment:
			s.tooLong(fmt.Sprintf("This cluster's history is too long for a link (%.1f KB; links stay under %d KB so chat and mail keep them whole). Download the scenario and share the file: Import opens it.", float64(frag)/1000, maxShareFragment/1000))
		default:
			s.link = link
			s.url.Set("hidden", false)
			s.copyBtn.Set("hidden", false)
			s.url.Set("value", link)
			s.msg.Set("textContent", "")
			s.copy()
		}
	})
}

// tooLong shows msg instead of a link, and puts the focus on the download.
func (s *sharePanel) tooLong(msg string) {
	s.link = ""
	s.url.Set("value", "")
	s.url.Set("hidden", true)
	s.copyBtn.Set("hidden", true)
	s.msg.Set("className", "share-msg warn")
	s.msg.Set("textContent", msg)
	byID("share-download").Call("focus")
}

// close hides the panel.
func (s *sharePanel) close() {
	s.panel.Set("hidden", true)
	s.openBtn.Call("setAttribute", "aria-expanded", "false")
}

// copy copies the link: the text field's selection through execCommand,
// else the asynchronous clipboard API; the field stays selected either way,
// so Ctrl/⌘ + C works where both are refused.
func (s *sharePanel) copy() {
	if s.link == "" {
		return
	}
	s.url.Call("focus")
	s.url.Call("select")
	if document.Call("execCommand", "copy").Truthy() {
		s.copied(true)
		return
	}
	cb := global.Get("navigator").Get("clipboard")
	if !cb.Truthy() {
		s.copied(false)
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(js.Value, []js.Value) any { defer release(); s.copied(true); return nil })
	fail = js.FuncOf(func(js.Value, []js.Value) any { defer release(); s.copied(false); return nil })
	cb.Call("writeText", s.link).Call("then", ok, fail)
}

// copied says whether the link is on the clipboard.
func (s *sharePanel) copied(ok bool) {
	if ok {
		s.msg.Set("textContent", "Link copied. Whoever opens it sees this cluster: same pods, clock and timeline.")
	} else {
		s.msg.Set("textContent", "The browser did not let the page copy: the link is selected below, press Ctrl/⌘ + C.")
	}
}
