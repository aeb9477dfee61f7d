package scenario

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Check is the outcome of one goal line (an expect line, a kubectl
// command's exit status, a stdout/stderr assertion) or of one invariant.
type Check struct {
	// Line is the line in the scenario file, Text the line as written.
	Line int
	Text string
	// OK says the check held (for an invariant: it never broke).
	OK bool
	// Detail is a sentence for learners: why it failed, or what holds.
	// An invariant's ends with ", at t=34s".
	Detail string
	// At is the virtual time (since cluster.Epoch) of the check; for a
	// broken invariant, the first observation at which it broke.
	At time.Duration
}

// GoalResult is the outcome of CheckGoal.
type GoalResult struct {
	// OK is true when every check held.
	OK bool
	// Checks are the goal's checks in file order.
	Checks []Check
	// Entries are the goal's commands with their output (kubectl lines),
	// expect lines (Stdout "ok\n" when they held) and comments.
	Entries []Entry
}

// Failed returns the checks that did not hold.
func (g GoalResult) Failed() []Check {
	var out []Check
	for _, c := range g.Checks {
		if !c.OK {
			out = append(out, c)
		}
	}
	return out
}

// CheckGoal runs the exercise's ## goal on sim's current state without
// changing it: kubectl commands run through kubectl.Run on sim's store with
// no Settle and no Advance (Parse admits only read-only commands in a goal:
// get, describe, events, explain, rollout status/history, no watches), and
// expect lines only read the store, so sim's objects, clock and decision
// log are untouched and the timeline never shows the check. (Describe and
// -o output of a node whose kubelet was stopped with `node fail` show its
// heartbeat times as if it still ran: the kubelets' state is not reachable
// from here.) A scenario without a goal returns OK with no checks.
func (sc *Scenario) CheckGoal(sim *engine.Simulation) GoalResult {
	return sc.checkGoal(sim, io.Discard, "")
}

// checkGoal is CheckGoal writing a transcript to w: each command echoed,
// its output, `ok` under a held expect line and failPrefix+"file:line:
// message" for each failed check.
func (sc *Scenario) checkGoal(sim *engine.Simulation, w io.Writer, failPrefix string) GoalResult {
	res := GoalResult{OK: true}
	lw := &lineWriter{w: w}
	now := sim.Elapsed()
	var last engine.Output
	add := func(st *step, ok bool, detail string) {
		res.Checks = append(res.Checks, Check{Line: st.line, Text: st.text, OK: ok, Detail: detail, At: now})
		if !ok {
			res.OK = false
			lw.startLine()
			fmt.Fprintf(lw, "%s%s:%d: %s\n", failPrefix, sc.Name, st.line, detail)
		}
	}
	for i := range sc.steps {
		st := &sc.steps[i]
		if st.section != secGoal || st.verb == "heading" {
			continue
		}
		switch st.verb {
		case "comment":
			lw.startLine()
			fmt.Fprintln(lw, st.text)
			res.Entries = append(res.Entries, Entry{Line: st.line, Command: st.text, Comment: true})
		case "stdout", "stderr":
			ok, msg := checkOutput(st, last)
			add(st, ok, msg)
		case "kubectl":
			text := strings.TrimPrefix(st.text, "! ")
			lw.startLine()
			fmt.Fprintf(lw, "$ %s\n", text)
			last = readOnlyRun(sim, st.args[0])
			for _, c := range last.Chunks {
				io.WriteString(lw, c.Text)
			}
			res.Entries = append(res.Entries, Entry{Line: st.line, Command: text, Stdout: last.Stdout, Stderr: last.Stderr, ExitCode: last.ExitCode})
			switch {
			case st.negate && last.ExitCode == 0:
				add(st, false, "command succeeded but should have failed")
			case !st.negate && last.ExitCode != 0:
				add(st, false, fmt.Sprintf("command failed with exit status %d: %s", last.ExitCode, firstLine(last.Stderr)))
			default:
				add(st, true, "")
			}
		case "expect":
			text := strings.TrimPrefix(st.text, "! ")
			lw.startLine()
			fmt.Fprintf(lw, "$ %s\n", text)
			ok, msg := st.exp.eval(simstore.Cluster(sim))
			e := Entry{Line: st.line, Command: text}
			if ok == !st.negate {
				io.WriteString(lw, "ok\n")
				e.Stdout = "ok\n"
				add(st, true, msg)
			} else {
				e.ExitCode = 1
				e.Stderr = negated(st, ok, msg) + "\n"
				add(st, false, negated(st, ok, msg))
			}
			res.Entries = append(res.Entries, e)
		}
	}
	return res
}

// readOnlyRun runs a goal's kubectl line on sim's store without settling
// or advancing (see CheckGoal).
func readOnlyRun(sim *engine.Simulation, args string) engine.Output {
	a, err := kubectl.ParseCommandLine("kubectl " + args)
	if err != nil {
		msg := "error: " + err.Error() + "\n"
		return engine.Output{Stderr: msg, Chunks: []engine.Chunk{{Stderr: true, Text: msg}}, ExitCode: 1}
	}
	r := kubectl.Run(&kubectl.Env{Cluster: simstore.Cluster(sim), Files: sim.Files}, a)
	if r.Watch != nil { // refused by Parse; never leave one running
		r.Watch.Stop()
	}
	return engine.Output{Stdout: r.Stdout, Stderr: r.Stderr, Chunks: r.Chunks, ExitCode: r.ExitCode}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Invariants observes a scenario's `always` checks over time; get one
// from Scenario.Invariants (the zero value observes nothing). Not safe for
// concurrent use.
type Invariants struct {
	name   string
	checks []invariant
	viol   []Check
}

type invariant struct {
	st     *step
	broken bool
}

// Invariants returns a fresh observer of the exercise's ## always lines
// (of every always line, for other scenarios), none broken yet.
func (sc *Scenario) Invariants() *Invariants {
	iv := &Invariants{name: sc.Name}
	for i := range sc.steps {
		if sc.steps[i].verb == "always" {
			iv.add(&sc.steps[i])
		}
	}
	return iv
}

func (iv *Invariants) add(st *step) { iv.checks = append(iv.checks, invariant{st: st}) }

// active reports whether some invariant is still to be observed.
func (iv *Invariants) active() bool {
	for _, c := range iv.checks {
		if !c.broken {
			return true
		}
	}
	return false
}

// Len is the number of invariants.
func (iv *Invariants) Len() int { return len(iv.checks) }

// Checks returns every invariant as a Check: OK until it broke (then as
// in Violations), Detail empty while it holds.
func (iv *Invariants) Checks() []Check {
	out := make([]Check, 0, len(iv.checks))
	for _, c := range iv.checks {
		if c.broken {
			for _, v := range iv.viol {
				if v.Line == c.st.line {
					out = append(out, v)
					break
				}
			}
			continue
		}
		out = append(out, Check{Line: c.st.line, Text: c.st.text, OK: true})
	}
	return out
}

// Observe checks every invariant that has not broken yet on sim's current
// state (reading its store only) and keeps the first violation of each,
// with sim's virtual time. Call it after every action of the learner and
// every frame (or virtual second) of time passing.
func (iv *Invariants) Observe(sim *engine.Simulation) { iv.observe(sim) }

// observe is Observe, returning the violations it found.
func (iv *Invariants) observe(sim *engine.Simulation) []Check {
	var found []Check
	for i := range iv.checks {
		c := &iv.checks[i]
		if c.broken {
			continue
		}
		if ok, msg := c.st.exp.eval(simstore.Cluster(sim)); !ok {
			c.broken = true
			at := sim.Elapsed()
			v := Check{Line: c.st.line, Text: c.st.text, Detail: fmt.Sprintf("%s, at t=%s", msg, at), At: at}
			iv.viol = append(iv.viol, v)
			found = append(found, v)
		}
	}
	return found
}

// Violations returns the invariants that broke, each with its first
// violation, in the order they broke.
func (iv *Invariants) Violations() []Check { return append([]Check(nil), iv.viol...) }

// exercise runs an exercise: setup, the goal (which must not hold yet), the
// invariants, the solution with them observed, the goal again.
func (r *runner) exercise() {
	sc := r.sc
	section := func(name string) []step {
		var out []step
		for _, st := range sc.steps {
			if st.section == name && st.verb != "heading" {
				out = append(out, st)
			}
		}
		return out
	}
	marker := func(s string) {
		r.lw.startLine()
		fmt.Fprintf(r.w, "# --- %s\n", s)
	}
	goalLine := 0
	for _, st := range sc.steps {
		if st.verb == "heading" && st.section == secGoal {
			goalLine = st.line
		}
	}
	marker("setup")
	if !r.steps(section(secSetup)) {
		return
	}
	r.stopWatch()
	marker("goal (expected to fail at the start)")
	if g := sc.checkGoal(r.t.Sim(), r.w, "not yet: "); g.OK {
		r.fail(&step{line: goalLine}, "exercise is already solved at the start: every check of the goal holds after the setup")
	}
	if always := section(secAlways); len(always) > 0 {
		marker("always (checked after every command of the solution and every virtual second)")
		r.steps(always)
	}
	marker("solution")
	if !r.steps(section(secSolution)) {
		return
	}
	r.stopWatch()
	marker("goal")
	g := sc.checkGoal(r.t.Sim(), r.w, "FAIL: ")
	for _, c := range g.Checks {
		if !c.OK {
			r.failures = append(r.failures, fmt.Sprintf("%s:%d: %s", sc.Name, c.Line, c.Detail))
		}
	}
}
