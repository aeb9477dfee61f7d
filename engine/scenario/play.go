package scenario

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Entry is one line of a played step: a command with what it printed, or
// a comment.
type Entry struct {
	// Line is the line in the scenario file.
	Line int
	// Command is the line as written, without a leading "! " (for a
	// comment or heading, the whole line, "#" included).
	Command string
	// Stdout and Stderr are what the command printed (a watch's later
	// lines land on the entry of the step during which they were printed,
	// as in the transcript); an expect line that held prints "ok\n" on
	// Stdout, one that failed its sentence on Stderr.
	Stdout, Stderr string
	// ExitCode is the command's exit status (1 for an expect line that
	// did not hold).
	ExitCode int
	// Comment marks a comment or heading line.
	Comment bool
	// Inputs are the indexes in the Recorder's Inputs of the inputs the
	// line made, in order (a Player's entries only): one Run for a kubectl
	// command (then the Advances a `kubectl rollout status` waited through
	// on a streaming Recorder), one AddNode per node of a `node add`
	// range, one Advance for an advance or a wait that waited. An advance
	// or wait merged into the Advance input before it (Recorder.Advance
	// merges consecutive advances) names that input. nil for a comment, an
	// assertion, expect, always, decisions, a wait that did not need to
	// wait, and every entry of Scenario.Run and CheckGoal. The files the
	// Player writes before the first line (SetFile) are no entry's.
	Inputs []int
}

// StepResult is what playing a step did.
type StepResult struct {
	// Entries are the step's lines, in order.
	Entries []Entry
	// Failures are the assertions, expect lines and invariants that did
	// not hold, as "file:line: message" (as in Result.Failures).
	Failures []string
	// Watch is the `kubectl get -w` the step left running, nil if none:
	// the caller may Poll it as time passes; the Player stops it at its
	// next kubectl, editor or decisions command (or call Stop).
	Watch *kubectl.Watch
	// Edit is the editor session a `kubectl edit` of the step left open,
	// nil if none (a later step's `editor` line finishes it).
	Edit *kubectl.EditSession
}

// OK reports whether nothing failed.
func (r StepResult) OK() bool { return len(r.Failures) == 0 }

// Player plays a scenario's steps on a Recorder, so that every command
// lands on its timeline: a lesson step by step, an exercise's setup and
// solution. Commands run through the same executor as Scenario.Run, with
// the same transcript semantics: watches print under the steps that cause
// them (advances and waits go in one-second steps while one runs) and
// `editor` lines finish the session of the latest `kubectl edit`. The
// differences: the scenario's files are written to the Recorder's files
// (SetFile, recorded) before the first command; `pod succeed` is refused
// (the Recorder has no input for it) with a failure. The Recorder should
// be created with the scenario's Options; it may stream `kubectl rollout
// status` (Options.StreamRolloutStatus, as the page's does): the Player
// then waits for the stream as the blocking command does (one-second
// Advances, recorded, until it ends), so the output, exit code and state
// are Run's. OnTick lets a caller draw and yield while a step plays. Not
// safe for concurrent use.
type Player struct {
	// OnTick, when set, is called during a step after every virtual
	// second an advance or wait moves (and every second a `kubectl rollout
	// status` waits on a streaming Recorder), and after each command, with
	// the virtual time the step has moved so far. The Recorder is then
	// between inputs: the caller may draw it, or yield to the browser.
	// Returning false stops the step there, with the failure
	// "file:line: stopped: the player's OnTick asked to stop" at the
	// command it stopped in; the next step may still be played. With
	// OnTick set, advances always go in one-second steps (the state
	// reached is the same).
	OnTick func(elapsed time.Duration) bool
	// Context, when set, stops a step once it is done, in the places
	// RunContext checks: before each command, and at every virtual second
	// of advances, waits and a `kubectl rollout status` waiting on a
	// streaming Recorder; the step ends with the failure
	// "file:line: stopped: CAUSE" (context.Cause) at the command it stopped
	// in, and the next step may still be played with a live context. nil:
	// never stopped. A kubectl delete or drain that waits runs as one
	// Recorder input and is not stopped inside; kubectl.MaxCommandWait of
	// virtual time bounds it.
	Context context.Context

	sc      *Scenario
	rec     *engine.Recorder
	r       *runner
	steps   []lessonStep
	next    int
	started bool
}

// NewPlayer returns a Player of sc on rec. It does nothing until a step is
// played.
func NewPlayer(sc *Scenario, rec *engine.Recorder) *Player {
	return &Player{sc: sc, rec: rec, r: newRunner(context.Background(), sc, recTarget{rec}, io.Discard), steps: sc.lessonSteps()}
}

// Options are the engine options the scenario asks for (`cluster empty`,
// `cluster seed N`): create the Recorder a Player or Replay uses with them.
func (sc *Scenario) Options() engine.Options { return sc.options() }

// Running is the command line the step plays now (from OnTick: the one
// whose virtual time passes), or the last one it played; "" before any.
func (p *Player) Running() string { return p.r.current }

// Steps is the number of lesson steps, step 0 included (len(sc.Lesson())).
func (p *Player) Steps() int { return len(p.steps) }

// Next is the index of the next lesson step PlayStep accepts.
func (p *Player) Next() int { return p.next }

// start writes the scenario's files to the Recorder once, in name order.
func (p *Player) start() {
	if p.started {
		return
	}
	p.started = true
	names := make([]string, 0, len(p.sc.Files))
	for n := range p.sc.Files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p.rec.SetFile(n, p.sc.Files[n])
	}
}

// play runs sts and returns what they did.
func (p *Player) play(sts []step) StepResult {
	p.start()
	r := p.r
	r.entries, r.failures = nil, nil
	r.stopped, r.halted, r.onTick, r.cmdStopped = false, false, nil, false
	r.ctx = p.Context
	if r.ctx == nil {
		r.ctx = context.Background()
	}
	if f := p.OnTick; f != nil {
		begin := p.rec.Live().Now()
		r.onTick = func() bool { return f(p.rec.Live().Now().Sub(begin)) }
	}
	r.steps(sts)
	r.onTick = nil
	res := StepResult{Entries: r.entries, Failures: r.failures, Watch: r.watch, Edit: r.edit}
	if res.Edit != nil && res.Edit.Done() {
		res.Edit = nil
	}
	r.entries, r.failures = nil, nil
	return res
}

// PlayStep plays lesson step i (0 = the setup before the first heading),
// without its explanation lines: steps must be played in order, each once
// (a step out of order returns a failure and runs nothing).
func (p *Player) PlayStep(i int) StepResult {
	if i != p.next || i < 0 || i >= len(p.steps) {
		msg := fmt.Sprintf("%s: step %d cannot be played now: the next step is %d of %d", p.sc.Name, i, p.next, len(p.steps))
		if p.next >= len(p.steps) {
			msg = fmt.Sprintf("%s: step %d cannot be played now: every step (%d) was played", p.sc.Name, i, len(p.steps))
		}
		return StepResult{Failures: []string{msg}}
	}
	p.next++
	return p.play(p.steps[i].body())
}

// Setup plays an exercise's setup section (for another kind of scenario,
// lesson step 0). It may be played once, first.
func (p *Player) Setup() StepResult {
	if p.sc.meta.Kind != KindExercise {
		return p.PlayStep(0)
	}
	if p.next != 0 {
		return StepResult{Failures: []string{p.sc.Name + ": the setup was played already"}}
	}
	p.next = 1
	return p.play(lessonStep{steps: p.section(secSetup)}.body()) // without the header
}

// Solve plays an exercise's solution on the Recorder (after Setup and
// whatever the learner did). Failures: not an exercise, the setup not
// played, and the solution's own assertions.
func (p *Player) Solve() StepResult {
	switch {
	case p.sc.meta.Kind != KindExercise:
		return StepResult{Failures: []string{p.sc.Name + ": not an exercise: it has no solution"}}
	case p.next == 0:
		return StepResult{Failures: []string{p.sc.Name + ": play the setup before the solution"}}
	}
	return p.play(p.section(secSolution))
}

// section returns an exercise section's lines without its heading.
func (p *Player) section(name string) []step {
	var out []step
	for _, st := range p.sc.steps {
		if st.section == name && st.verb != "heading" {
			out = append(out, st)
		}
	}
	return out
}

// ReplayError lists what did not go as the scenario says during Replay:
// failed assertions, commands that failed without `!` (or succeeded with
// it), commands the Recorder cannot take. The Recorder holds everything
// that could be replayed all the same.
type ReplayError struct {
	Failures []string
}

func (e *ReplayError) Error() string {
	if len(e.Failures) == 1 {
		return "replay: " + e.Failures[0]
	}
	return fmt.Sprintf("replay: %d failures, the first: %s", len(e.Failures), e.Failures[0])
}

// Replay runs every command of sc on rec (a share link or an imported
// file): the scenario's files are written first (SetFile), then its
// commands run in order, as the Player runs them; an exercise's sections
// run in file order except the goal, which is not run (it only reads).
// rec should be new, created with sc.Options(). The error is a
// *ReplayError when something did not go as the scenario says; rec holds
// what was replayed either way.
func Replay(rec *engine.Recorder, sc *Scenario) error {
	return ReplayContext(context.Background(), rec, sc)
}

// ReplayContext is Replay, stopping once ctx is done where Player.Context
// stops a step: before a command, or at a virtual second of an advance, a
// wait or a streamed rollout status. The error is then a *ReplayError
// whose last failure is "file:line: stopped: CAUSE"; rec holds what was
// replayed until there.
func ReplayContext(ctx context.Context, rec *engine.Recorder, sc *Scenario) error {
	p := NewPlayer(sc, rec)
	p.Context = ctx
	var sts []step
	for _, st := range sc.steps {
		if st.section != secGoal && st.verb != "heading" {
			sts = append(sts, st)
		}
	}
	res := p.play(sts)
	if res.Watch != nil {
		res.Watch.Stop()
	}
	if len(res.Failures) > 0 {
		return &ReplayError{Failures: res.Failures}
	}
	return nil
}

// compile-time checks: both targets satisfy the executor's interface.
var (
	_ target = simTarget{}
	_ target = recTarget{}
)
