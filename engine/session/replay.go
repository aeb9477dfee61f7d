package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// ReplayWallBudget bounds the wall-clock time one replay of a share link
// or an imported scenario may take (the page's main thread is busy all
// along: a link whose `wait rollout --timeout=24h` waits on an image the
// registry lacks, or whose `advance 1000000h` restarts a crash-looping
// pod, would otherwise freeze the tab for good). A var for the tests.
var ReplayWallBudget = 10 * time.Second

// MaxReplayNodes bounds the nodes a replayed scenario may make, the
// playground's largest cluster (5,000 nodes, as Kubernetes' own
// scalability limit): it is checked before the replay, on the scenario's
// Size, and after every input.
const MaxReplayNodes = 5000

// StopError is a replay stopped by a limit (ReplayWallBudget or
// MaxReplayNodes). The Recorder replayed on holds a partial state: the
// page drops it and keeps its own cluster.
type StopError struct {
	// Budget is the wall-clock budget that ran out (0: a node limit).
	Budget time.Duration
	// Nodes is the node count that went over MaxReplayNodes.
	Nodes int
	// At is the command or input the replay stopped at, as written.
	At string
}

func (e *StopError) Error() string {
	if e.Budget > 0 {
		return fmt.Sprintf("it ran longer than %g s (stopped at: %s)", e.Budget.Seconds(), e.At)
	}
	return fmt.Sprintf("it makes %d nodes, more than the playground's %s (stopped at: %s)", e.Nodes, thousands(MaxReplayNodes), e.At)
}

// thousands formats n with comma thousands separators (5,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Replay runs a scenario's inputs on rec (a new Recorder made with
// ScenarioOptions) within ReplayWallBudget and MaxReplayNodes: the exact
// input log when the archive has one (InputsFile), else the script
// (scenario.ReplayContext). Before anything runs the scenario's Size is
// counted, and a scenario that would pass MaxReplayNodes is refused. It
// stops at the first input that cannot be replayed; the error names the
// file and line (the script's) or the input, or is a *StopError. It
// returns the log's Context (nil when the log records none, or on an
// error), its EditorText filled in.
func Replay(rec *engine.Recorder, name string, data []byte) (*Context, error) {
	return ReplayUntil(rec, name, data, time.Now().Add(ReplayWallBudget))
}

// ReplayUntil is Replay with the wall-clock deadline given.
func ReplayUntil(rec *engine.Recorder, name string, data []byte, deadline time.Time) (*Context, error) {
	ar := txtar.Parse(data)
	files := map[string]string{}
	var log []byte
	for _, f := range ar.Files {
		if f.Name == InputsFile {
			log = f.Data
			continue
		}
		files[f.Name] = string(f.Data)
	}
	if log == nil {
		return nil, replayScript(rec, name, data, deadline)
	}
	var lg Log
	dec := json.NewDecoder(bytes.NewReader(log))
	if err := dec.Decode(&lg); err != nil {
		return nil, fmt.Errorf("%s: %s: %v", name, InputsFile, err)
	}
	if lg.V != LogVersion {
		return nil, fmt.Errorf("%s: %s: version %d, this page reads version %d", name, InputsFile, lg.V, LogVersion)
	}
	if z := LogSize(&lg, files); z.Nodes > MaxReplayNodes {
		return nil, &StopError{Nodes: z.Nodes, At: z.Where(MaxReplayNodes)}
	}
	if err := checkLog(&lg); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, si := range lg.In {
		if time.Now().After(deadline) {
			return nil, &StopError{Budget: ReplayWallBudget, At: describeInput(si)}
		}
		in := engine.Input{Kind: si.K, Line: si.Line, Name: si.Name, Namespace: si.NS, Type: si.Type, Status: si.St, Ready: si.Rdy, Refs: si.Refs, Edit: si.Edit, D: time.Duration(si.Ms) * time.Millisecond}
		if si.Node != nil {
			in.Node = *si.Node
		}
		if si.F != "" {
			t, ok := files[si.F]
			if !ok {
				return nil, fmt.Errorf("%s: input %d (%s) names the file %q, which the archive lacks", name, i+1, si.K, si.F)
			}
			in.Text = t
		}
		if !knownInput(in.Kind) {
			return nil, fmt.Errorf("%s: input %d: unknown kind %q", name, i+1, si.K)
		}
		if in.Kind == engine.InputFinishEdit && (in.Edit < 0 || in.Edit >= len(rec.Inputs())) {
			return nil, fmt.Errorf("%s: input %d saves an edit of input %d, which does not exist", name, i+1, in.Edit+1)
		}
		if in.Kind == engine.InputAdvance {
			if !advanceUntil(rec, in.D, deadline) {
				return nil, &StopError{Budget: ReplayWallBudget, At: describeInput(si)}
			}
		} else {
			rec.Do(in)
		}
		if n := rec.Live().NodeCount(); n > MaxReplayNodes {
			return nil, &StopError{Nodes: n, At: describeInput(si)}
		}
	}
	if got := rec.Live().Elapsed().Seconds(); fmt.Sprintf("%.3f", got) != fmt.Sprintf("%.3f", lg.At) {
		return nil, fmt.Errorf("%s: the replay reached t=%.3fs, the recording t=%.3fs (made by another version of the playground?)", name, got, lg.At)
	}
	if lg.Ctx == nil {
		return nil, nil
	}
	c := *lg.Ctx
	c.EditorText = files[c.Editor]
	return &c, nil
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
func describeInput(si LogInput) string {
	switch si.K {
	case engine.InputRun:
		return si.Line
	case engine.InputAdvance:
		return "advance " + FormatElapsed(time.Duration(si.Ms)*time.Millisecond)
	case engine.InputAddNode:
		return "node add " + si.Name
	case engine.InputApply:
		return "apply " + si.Name
	}
	return strings.TrimSpace(fmt.Sprintf("%s %s", si.K, si.Name))
}

// replayScript replays a scenario without an input log (written by hand,
// or by `dsplay`) with scenario.ReplayContext, stopping at the deadline
// or once rec has more than MaxReplayNodes nodes (stopCtx: checked before
// each command and at every virtual second of its waits, kubectl's own
// included). The scenario's Size is counted before anything runs.
func replayScript(rec *engine.Recorder, name string, data []byte, deadline time.Time) error {
	sc, err := scenario.Parse(name, data)
	if err != nil {
		return err
	}
	if z := ScenarioSize(sc); z.Nodes > MaxReplayNodes {
		return &StopError{Nodes: z.Nodes, At: z.Where(MaxReplayNodes)}
	}
	ctx := &stopCtx{ch: make(chan struct{}), stop: func() *StopError {
		if !time.Now().Before(deadline) {
			return &StopError{Budget: ReplayWallBudget}
		}
		if n := rec.Live().NodeCount(); n > MaxReplayNodes {
			return &StopError{Nodes: n}
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
	stop func() *StopError
	ch   chan struct{}
	why  *StopError
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

// knownInput reports whether k is an input kind Replay can replay.
func knownInput(k engine.InputKind) bool {
	return slices.Contains([]engine.InputKind{engine.InputRun, engine.InputApply, engine.InputSetFile, engine.InputFinishEdit,
		engine.InputAddNode, engine.InputRemoveNode, engine.InputFailNode, engine.InputRecoverNode, engine.InputFailPod,
		engine.InputNodeCondition, engine.InputPodReadiness, engine.InputRegistryHave, engine.InputRegistryLack,
		engine.InputRegistryPreload, engine.InputAdvance}, k)
}

// KeptInputs is how many of rec's recorded inputs step i of its timeline
// includes: up to and including its own for a learner action; for a step
// of time passing, up to and including the Advance it happened in (the
// inputs a branch at the step keeps, see ReplayToStep and
// Recorder.Branch). Out of range, every input.
func KeptInputs(rec *engine.Recorder, i int) int {
	steps, inputs := rec.Steps(), rec.Inputs()
	if i < 0 || i >= len(steps) {
		return len(inputs)
	}
	st := steps[i]
	if st.Input >= 0 {
		return st.Input + 1
	}
	// inputs run in order of time: those begun before the step's instant
	// (its Advance among them); one begun at it came after the step
	n := 0
	for n < len(inputs) && inputs[n].At < st.At {
		n++
	}
	return n
}

// ReplayToStep builds a new Recorder from rec's Options and inputs that
// stands at step i of rec: for a learner action, every input up to it;
// for a step of time passing, the inputs before its Advance and that
// Advance cut at the step's time. prepare (nil: none) is called on the
// new Recorder before any input (the page sets its checkpoints there).
// Errors: no recorded Advance holds the step's time, or a saved edit
// fails again.
func ReplayToStep(rec *engine.Recorder, i int, prepare func(*engine.Recorder)) (*engine.Recorder, error) {
	steps, inputs := rec.Steps(), rec.Inputs()
	st := steps[i]
	n, cut := 0, time.Duration(0)
	if st.Input >= 0 {
		n = st.Input + 1
	} else {
		for k, in := range inputs {
			if in.Kind == engine.InputAdvance && in.At < st.At && st.At <= in.End {
				n, cut = k, st.At-in.At
				break
			}
		}
		if cut == 0 {
			return nil, fmt.Errorf("step %d: no recorded Advance holds t=%s", i, st.At)
		}
	}
	nr := engine.NewRecorder(rec.Options())
	if prepare != nil {
		prepare(nr)
	}
	for _, in := range inputs[:n] {
		if res := nr.Do(in); res.Err != nil && in.Kind == engine.InputFinishEdit {
			return nil, res.Err
		}
	}
	if cut > 0 {
		nr.Advance(cut)
	}
	return nr, nil
}

// checkLog refuses, before anything runs, a log input the page could not
// have recorded: a node joining with options the API server would refuse
// (a bad name, quantity, label or taint: cluster.NodeOptions.Validate) or
// an Advance of negative time. A recorded action that failed when it was
// made (a node name already taken) is fine: it fails again, as it did.
func checkLog(lg *Log) error {
	for i, si := range lg.In {
		switch si.K {
		case engine.InputAddNode:
			var o cluster.NodeOptions
			if si.Node != nil {
				o = *si.Node
			}
			if err := o.Validate(si.Name); err != nil {
				return fmt.Errorf("input %d (%s): %w", i+1, describeInput(si), err)
			}
		case engine.InputAdvance:
			if si.Ms < 0 {
				return fmt.Errorf("input %d (%s): a negative time", i+1, describeInput(si))
			}
		}
	}
	return nil
}
