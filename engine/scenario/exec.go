package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// target is what a scenario's commands act on: a bare Simulation
// (Scenario.Run, dsplay run) or a Recorder (the page's Player, Replay), so
// that both run through the one executor below. Reads go through Sim.
type target interface {
	Sim() *engine.Simulation
	Run(line string) engine.Output
	FinishEdit(e *kubectl.EditSession, text string) engine.Output
	SetFile(name, text string)
	Advance(d time.Duration)
	AddNode(name string, o cluster.NodeOptions) error
	RemoveNode(name string) error
	FailNode(name string) error
	RecoverNode(name string) error
	FailPod(namespace, name string) error
	SucceedPod(namespace, name string) error
	SetNodeCondition(name, typ, status string) error
	SetPodReadiness(namespace, name string, ready bool) error
	RegistryHave(refs ...string)
	RegistryLack(refs ...string)
	RegistryPreloaded(refs ...string)
	// Inputs is the input log a Recorder keeps (nil for a bare
	// Simulation): the Player ties each entry to the inputs its line made.
	Inputs() []engine.Input
}

// simTarget runs commands on a Simulation directly. Registry commands
// settle afterwards, as the Recorder's registry inputs do, so that Run and
// the Player reach the same states (no transcript changed by it).
type simTarget struct{ *engine.Simulation }

func (t simTarget) Sim() *engine.Simulation       { return t.Simulation }
func (t simTarget) SetFile(name, text string)     { t.Files[name] = text }
func (t simTarget) RegistryHave(r ...string)      { t.Registry().Have(r...); t.Settle() }
func (t simTarget) RegistryLack(r ...string)      { t.Registry().Lack(r...); t.Settle() }
func (t simTarget) RegistryPreloaded(r ...string) { t.Registry().SetPreloaded(r...); t.Settle() }
func (t simTarget) Inputs() []engine.Input        { return nil }

// recTarget runs commands through a Recorder, so each lands on its
// timeline.
type recTarget struct{ *engine.Recorder }

func (t recTarget) Sim() *engine.Simulation { return t.Live() }

// SucceedPod: the Recorder has no input for a pod that completes, so the
// command is refused rather than run off the record (the timeline would
// not show it and a replay would differ).
func (t recTarget) SucceedPod(namespace, name string) error {
	return errors.New("pod succeed is not available on the page's timeline (the recorder has no input for it)")
}

// runner executes steps on a target, writing the transcript to w and
// collecting entries (for the Player) and failures.
type runner struct {
	// current is the command line running, or the last one run.
	current string
	sc      *Scenario
	t       target
	ctx     context.Context
	lw      *lineWriter
	w       io.Writer

	last  engine.Output
	watch *kubectl.Watch
	edit  *kubectl.EditSession
	// decisionsSeen is the Seq of the last decision a `decisions` printed.
	decisionsSeen int64
	// inv holds the active invariants (always lines), observed after every
	// command and every waitStep of advances and waits; held are the
	// violations found inside a kubectl command, reported after its output.
	inv  *Invariants
	held []Check

	failures []string
	entries  []Entry
	// cur is the index in entries of the entry output goes to (-1: none).
	cur int
	// stopped is set once the context is done.
	stopped bool
	// failedLines are the script lines with a failure (see Export).
	failedLines map[int]bool
	// onTick, when set, is called after every waitStep of an advance or
	// wait (and of a blocking rollout status on a streaming target) and
	// after every command; false stops the run (halted) as a done context
	// does (Player.OnTick).
	onTick func() bool
	halted bool
	// cmdStopped is set when a kubectl command's own wait was ended by
	// Env.Stop (the context, OnTick): the step stops as the run does.
	cmdStopped bool
}

func newRunner(ctx context.Context, sc *Scenario, t target, out io.Writer) *runner {
	if ctx == nil {
		ctx = context.Background()
	}
	lw := &lineWriter{w: out}
	return &runner{sc: sc, t: t, ctx: ctx, lw: lw, w: lw, cur: -1,
		decisionsSeen: simstore.Cluster(t.Sim()).LastDecisionSeq(), inv: &Invariants{name: sc.Name}}
}

// fail records a failed assertion at st's line.
func (r *runner) fail(st *step, format string, a ...any) {
	msg := fmt.Sprintf("%s:%d: %s", r.sc.Name, st.line, fmt.Sprintf(format, a...))
	r.failures = append(r.failures, msg)
	if r.failedLines == nil {
		r.failedLines = map[int]bool{}
	}
	r.failedLines[st.line] = true
	r.lw.startLine()
	fmt.Fprintf(r.w, "FAIL: %s\n", msg)
}

// out writes command output to the transcript and the current entry.
func (r *runner) out(stderr bool, text string) {
	io.WriteString(r.w, text)
	if r.cur < 0 {
		return
	}
	if stderr {
		r.entries[r.cur].Stderr += text
	} else {
		r.entries[r.cur].Stdout += text
	}
}

// done reports whether the context is done, recording the failure
// "stopped: ..." once at st.
func (r *runner) done(st *step) bool {
	if r.stopped {
		return true
	}
	if r.halted {
		r.stopped = true
		r.fail(st, "stopped: the player's OnTick asked to stop")
		return true
	}
	select {
	case <-r.ctx.Done():
		r.stopped = true
		r.fail(st, "stopped: %v", context.Cause(r.ctx))
		return true
	default:
		return false
	}
}

// stepped reports whether advances must go in waitStep steps: a watch
// prints, invariants are observed, or the context can stop the run.
func (r *runner) stepped() bool {
	return r.watch != nil || r.inv.active() || r.ctx.Done() != nil || r.onTick != nil
}

// tick runs after each waitStep of an advance or wait.
func (r *runner) tick() {
	if r.watch != nil {
		r.pollWatch()
	}
	r.observe()
	r.hook()
}

// hook calls onTick (once it returned false, never again); it reports
// whether the run may go on.
func (r *runner) hook() bool {
	if r.onTick != nil && !r.halted && !r.onTick() {
		r.halted = true
	}
	return !r.halted
}

// observe checks the active invariants, printing a failure for each that
// breaks for the first time.
func (r *runner) observe() {
	held := r.held
	r.held = nil
	if r.inv.active() {
		held = append(held, r.inv.observe(r.t.Sim())...)
	}
	for _, v := range held {
		r.fail(&step{line: v.Line}, "%s", v.Detail)
	}
}

func (r *runner) pollWatch() {
	for _, c := range r.watch.Poll() {
		r.out(c.Stderr, c.Text)
		if c.Stderr {
			r.last.Stderr += c.Text
		} else {
			r.last.Stdout += c.Text
		}
	}
}

// stopWatch stops a running watch.
func (r *runner) stopWatch() {
	if r.watch != nil {
		r.watch.Stop()
		r.watch = nil
	}
}

// inputMark is where a target's input log stands: its length, and the
// virtual time the last input ended at (an Advance merged into it moves
// that end without adding an input).
type inputMark struct {
	n   int
	end time.Duration
}

func (r *runner) inputMark() inputMark {
	ins := r.t.Inputs()
	if len(ins) == 0 {
		return inputMark{}
	}
	return inputMark{n: len(ins), end: ins[len(ins)-1].End}
}

// inputsSince returns the indexes of the inputs made since m: the inputs
// appended, led by the last one before m when an advance was merged into
// it (Recorder.Advance merges consecutive advances). nil when none.
func (r *runner) inputsSince(m inputMark) []int {
	ins := r.t.Inputs()
	var out []int
	if m.n > 0 && m.n <= len(ins) {
		if last := ins[m.n-1]; last.Kind == engine.InputAdvance && last.End > m.end {
			out = append(out, m.n-1)
		}
	}
	for i := m.n; i < len(ins); i++ {
		out = append(out, i)
	}
	return out
}

// steps runs sts in order; false when the run was stopped.
func (r *runner) steps(sts []step) bool {
	for i := range sts {
		if !r.exec(&sts[i]) {
			return false
		}
	}
	return true
}

// exec runs one step; false when the context stopped the run.
func (r *runner) exec(st *step) bool {
	w := r.w
	if st.verb != "comment" && st.verb != "heading" && st.verb != "stdout" && st.verb != "stderr" {
		r.current = st.text
	}
	switch st.verb {
	case "comment", "heading":
		r.lw.startLine()
		fmt.Fprintln(w, st.text)
		r.entries = append(r.entries, Entry{Line: st.line, Command: st.text, Comment: true})
		return true
	case "stdout", "stderr":
		r.assert(st)
		return true
	case "always":
		r.lw.startLine()
		fmt.Fprintf(w, "$ %s\n", st.text)
		r.entries = append(r.entries, Entry{Line: st.line, Command: st.text})
		r.inv.add(st)
		r.observe()
		return true
	}
	if r.done(st) {
		return false
	}
	r.lw.startLine()
	fmt.Fprintf(w, "$ %s\n", strings.TrimPrefix(st.text, "! "))
	r.entries = append(r.entries, Entry{Line: st.line, Command: strings.TrimPrefix(st.text, "! ")})
	r.cur = len(r.entries) - 1
	mark := r.inputMark()
	defer func() {
		r.entries[r.cur].Inputs = r.inputsSince(mark)
		r.cur = -1
	}()
	if r.watch != nil && (st.verb == "kubectl" || st.verb == "editor" || st.verb == "decisions") {
		r.stopWatch()
	}
	if r.watch == nil && st.verb != "expect" {
		r.last = engine.Output{}
	}
	t := r.t
	errOut := func(err error) {
		if err != nil {
			r.last.Stderr = err.Error() + "\n"
			r.out(true, r.last.Stderr)
			r.fail(st, "%v", err)
		}
	}
	switch st.verb {
	case "kubectl", "editor":
		if st.verb == "kubectl" {
			r.last = r.runKubectl(st.args[0])
			if r.last.Edit != nil {
				r.edit = r.last.Edit
			}
		} else if r.edit == nil {
			r.fail(st, "no editor is open (run kubectl edit first)")
			return true
		} else {
			r.last = t.FinishEdit(r.edit, editorText(r.edit.Text, st.args, r.sc.Files))
			r.edit = r.last.Edit
		}
		r.watch = r.last.Watch
		// stdout and stderr interleaved, as a terminal shows them
		for _, c := range r.last.Chunks {
			r.out(c.Stderr, c.Text)
		}
		if r.cmdStopped {
			// the command's own wait was stopped (Env.Stop): the run
			// stops at this command
			r.cmdStopped = false
			r.entries[r.cur].ExitCode = r.last.ExitCode
			r.done(st)
			return false
		}
		if r.watch != nil && st.verb == "kubectl" && isRolloutStatus(st.args[0]) {
			// a streaming target (the page's Recorder): the script waits
			// as the blocking command does
			w := r.watch
			r.watch, r.last.Watch = nil, nil
			if !r.blockRolloutStatus(st, st.args[0], w) {
				return false
			}
		}
		r.entries[r.cur].ExitCode = r.last.ExitCode
		if st.negate && r.last.ExitCode == 0 {
			r.fail(st, "command succeeded but should have failed")
		} else if !st.negate && r.last.ExitCode != 0 {
			r.fail(st, "command failed with exit status %d", r.last.ExitCode)
		}
	case "advance":
		if !r.stepped() {
			t.Advance(st.dur)
			break
		}
		for left := st.dur; left > 0; {
			if r.done(st) {
				return false
			}
			d := min(waitStep, left)
			if left < st.dur && r.mayJump() {
				d = left // idle: nothing changes until the end
			}
			t.Advance(d)
			left -= d
			r.tick()
		}
	case "wait":
		if err := r.wait(st); err != nil {
			if r.stopped {
				return false
			}
			r.fail(st, "%v", err)
		}
	case "node":
		var err error
		name := st.args[1]
		switch st.args[0] {
		case "add":
			na, _ := parseNodeAdd(st.args[2:])
			names, _ := expandRange(name)
			for i, n := range names {
				if i > 0 && i%100 == 0 && r.done(st) {
					return false // a long range: stop between nodes
				}
				if err = t.AddNode(n, na.opts); err != nil {
					break
				}
			}
		case "remove":
			err = t.RemoveNode(name)
		case "fail":
			err = t.FailNode(name)
		case "recover":
			err = t.RecoverNode(name)
		case "condition":
			for _, kv := range st.args[2:] {
				typ, status, _ := parseCondition(kv)
				if err = t.SetNodeCondition(name, typ, status); err != nil {
					break
				}
			}
		}
		errOut(err)
	case "pod":
		var err error
		switch st.args[0] {
		case "unready", "ready":
			err = podReadiness(t, st.args[0] == "ready", st.args[1], st.args[2])
		default:
			err = podPhase(t, st.args[0], st.args[1], st.args[2])
		}
		errOut(err)
	case "registry":
		switch refs := st.args[1:]; st.args[0] {
		case "has":
			t.RegistryHave(refs...)
		case "lacks":
			t.RegistryLack(refs...)
		case "preloaded":
			if len(refs) == 1 && refs[0] == "none" {
				refs = nil
			}
			t.RegistryPreloaded(refs...)
		}
	case "file":
		t.SetFile(st.args[0], r.sc.Files[st.args[1]])
	case "decisions":
		filter, _ := parseDecisionFilter(st.args)
		ds := t.Sim().Decisions(r.decisionsSeen)
		if len(ds) > 0 {
			r.decisionsSeen = ds[len(ds)-1].Seq
		}
		var b strings.Builder
		for _, d := range ds {
			if filter.matches(d) {
				// A decision about a whole object (a DaemonSet, a revision)
				// names no node.
				node := ""
				if d.Node != "" {
					node = " node=" + d.Node
				}
				fmt.Fprintf(&b, "+%s %s %s %s %s%s: %s\n", d.Time.Sub(cluster.Epoch), d.Component, d.Func, d.Action, d.Object, node, d.Reason)
			}
		}
		r.last.Stdout = b.String()
		r.out(false, r.last.Stdout)
	case "expect":
		sim := t.Sim()
		ok, msg := st.exp.eval(simstore.Cluster(sim))
		if ok == !st.negate {
			r.out(false, "ok\n")
		} else {
			r.fail(st, "%s", negated(st, ok, msg))
			r.entries[r.cur].ExitCode = 1
			r.entries[r.cur].Stderr = negated(st, ok, msg) + "\n"
		}
	}
	if r.watch != nil && st.verb != "kubectl" {
		r.pollWatch()
	}
	r.observe()
	if !r.hook() {
		return !r.done(st)
	}
	return true
}

// waitingVerbs are the kubectl commands that advance virtual time
// themselves (Env.Advance): delete and drain wait for pods to go, rollout
// status for the rollout.
var waitingVerbs = map[string]bool{"delete": true, "drain": true, "rollout status": true}

// runKubectl runs a kubectl line on the target. While invariants are
// observed on a bare Simulation, a command that waits by itself runs with
// an Advance that observes them after each of its one-second steps, so
// that a rule broken only inside `kubectl rollout status` is caught; it is
// otherwise what Simulation.Run does (parse, kubectl.Run, settle), and
// these commands print nothing that Simulation.Run's extra Env field
// (KubeletStoppedSince, for node heartbeats) changes. On a Recorder the
// command runs as recorded (the page observes by itself); a streamed
// rollout status then waits in exec (blockRolloutStatus), observing the
// invariants at each of its seconds.
//
// The same own Env runs them whenever the run can be stopped (RunContext's
// context, OnTick): its Stop ends the command's wait at the next virtual
// step once the context is done or OnTick said stop (cmdStopped).
func (r *runner) runKubectl(args string) engine.Output {
	st, ok := r.t.(simTarget)
	if !ok {
		return r.t.Run("kubectl " + args)
	}
	a, err := kubectl.ParseCommandLine("kubectl " + args)
	if err != nil || !waitingVerbs[kubectlVerb(a[1:])] ||
		!(r.inv.active() || r.onTick != nil || r.ctx.Done() != nil) {
		return r.t.Run("kubectl " + args)
	}
	sim := st.Simulation
	env := &kubectl.Env{
		Cluster: simstore.Cluster(sim),
		Files:   sim.Files,
		Settle:  sim.Settle,
		Advance: func(d time.Duration) {
			sim.Advance(d)
			if r.inv.active() {
				r.held = append(r.held, r.inv.observe(sim)...)
			}
		},
		Stop: r.stopCommand,
	}
	res := kubectl.Run(env, a)
	sim.Settle()
	if res.Watch != nil { // not for these commands without streaming
		res.Watch.Stop()
	}
	return engine.Output{Stdout: res.Stdout, Stderr: res.Stderr, Chunks: res.Chunks, ExitCode: res.ExitCode}
}

// errOnTickStop is the cause a kubectl command's wait reports when OnTick
// asked to stop.
var errOnTickStop = errors.New("the player's OnTick asked to stop")

// stopCommand is the Env.Stop of the kubectl commands the runner runs
// itself: before each virtual step of their wait it calls OnTick (as the
// runner's own waits do) and checks the context; either stopping sets
// cmdStopped and ends the command.
func (r *runner) stopCommand() error {
	if r.onTick != nil && !r.hook() {
		r.cmdStopped = true
		return errOnTickStop
	}
	select {
	case <-r.ctx.Done():
		r.cmdStopped = true
		return context.Cause(r.ctx)
	default:
		return nil
	}
}

// negated is the failure message of an expect line: the check's own
// message, or for `! expect` the state it found that should not be.
func negated(st *step, ok bool, msg string) string {
	if st.negate && ok {
		return msg + ", but it should not"
	}
	return msg
}

// assert checks a stdout/stderr assertion against the previous command.
func (r *runner) assert(st *step) {
	ok, msg := checkOutput(st, r.last)
	if !ok {
		r.fail(st, "%s", msg)
	}
}

// checkOutput evaluates a stdout/stderr assertion on out.
func checkOutput(st *step, out engine.Output) (bool, string) {
	text := out.Stdout
	if st.verb == "stderr" {
		text = out.Stderr
	}
	if st.count > 0 {
		if n := len(st.re.FindAllStringIndex(text, -1)); n != st.count {
			return false, fmt.Sprintf("%s has %d matches for %q, want %d", st.verb, n, st.re.String()[4:], st.count)
		}
		return true, ""
	}
	if st.re.MatchString(text) == st.negate {
		if st.negate {
			return false, fmt.Sprintf("%s matched %q but should not", st.verb, st.re.String()[4:])
		}
		return false, fmt.Sprintf("no match for %q in %s", st.re.String()[4:], st.verb)
	}
	return true, ""
}

// wait advances the target in waitStep steps until the condition holds,
// failing after the step's timeout of virtual time.
func (r *runner) wait(st *step) error {
	sim := r.t.Sim()
	args := st.args
	var cond func() bool
	var what string
	switch args[0] {
	case "rollout":
		ns, name := splitNamespace(strings.TrimPrefix(args[1], "ds/"))
		what = "daemon set " + name + " to roll out"
		cond = func() bool {
			ds := simstore.Cluster(sim).DaemonSet(ns, name)
			if ds == nil {
				return false
			}
			st := ds.Status
			return st.ObservedGeneration >= ds.Generation &&
				st.UpdatedNumberScheduled >= st.DesiredNumberScheduled &&
				st.NumberAvailable >= st.DesiredNumberScheduled &&
				st.CurrentNumberScheduled == st.DesiredNumberScheduled
		}
	case "idle":
		what = "the cluster to be idle"
		cond = func() bool { return simstore.Cluster(sim).PendingWakeups() == 0 }
	case "deleted":
		kind, name, _ := strings.Cut(args[1], "/")
		ns, name := splitNamespace(name)
		what = args[1] + " to be deleted"
		switch kind {
		case "pod", "pods", "po":
			cond = func() bool { return simstore.Cluster(sim).Pod(ns, name) == nil }
		case "ds", "daemonset", "daemonsets":
			cond = func() bool { return simstore.Cluster(sim).DaemonSet(ns, name) == nil }
		case "node", "nodes", "no":
			cond = func() bool { return simstore.Cluster(sim).Node(name) == nil }
		}
	}
	deadline := sim.Now().Add(st.dur)
	advanced := false
	for !cond() {
		if !sim.Now().Before(deadline) {
			return fmt.Errorf("timed out after %s waiting for %s", st.dur, what)
		}
		if r.done(st) {
			return context.Cause(r.ctx)
		}
		d := waitStep
		if advanced && r.mayJump() {
			// idle: the condition cannot change before the deadline
			// (whole steps, so that the wait ends when stepping would)
			d = (deadline.Sub(sim.Now()) + waitStep - 1) / waitStep * waitStep
		}
		r.t.Advance(d)
		advanced = true
		r.tick()
		sim = r.t.Sim()
	}
	return nil
}

// mayJump reports whether an advance or wait may skip ahead in one Advance
// instead of one-second steps, with the same outcome: the cluster is idle
// (no component has a wake-up queued, and the last Advance settled it, so
// nothing changes until something is done to it), and nothing observes the
// seconds in between (no watch prints, no invariants, no OnTick). The
// context is still checked before each Advance.
func (r *runner) mayJump() bool {
	return r.watch == nil && !r.inv.active() && r.onTick == nil && simstore.Cluster(r.t.Sim()).PendingWakeups() == 0
}

// splitNamespace splits NAMESPACE/NAME; a bare NAME is in the default
// namespace.
func splitNamespace(s string) (ns, name string) {
	if ns, name, ok := strings.Cut(s, "/"); ok {
		return ns, name
	}
	return api.DefaultNamespace, s
}

// Result is the outcome of running a scenario.
type Result struct {
	// Failures are the assertions that did not hold, as "file:line: message".
	Failures []string
}

// OK reports whether every assertion held.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// options are the engine.Options the scenario's header commands ask for.
func (sc *Scenario) options() engine.Options {
	return engine.Options{Empty: sc.empty, Seed: sc.seed}
}

// Run executes the scenario on a fresh simulation (seed 1 unless `cluster
// seed N`) and writes the transcript to w: each command echoed as
// `$ command`, followed by its output, and each failed assertion as
// `FAIL: file:line: ...`. An exercise runs its setup, goal, solution and
// goal again (see the package doc).
func (sc *Scenario) Run(out io.Writer) *Result {
	return sc.RunContext(context.Background(), out)
}

// RunContext is Run, stopping when ctx is done: between commands, inside
// advances and waits at every virtual second, and inside the waits of
// kubectl commands that wait by themselves (`kubectl delete`, `drain`,
// `rollout status`: kubectl.Env.Stop, checked at each of their virtual
// steps; the command prints `error: the playground stopped this command
// after D of virtual time: CAUSE` and exits 1). A stopped run ends with
// the failure "file:line: stopped: CAUSE" at the command it stopped in.
// Virtual time is bounded too: a scenario advances or waits at most
// MaxVirtualWait per line, a kubectl command at most
// kubectl.MaxCommandWait.
func (sc *Scenario) RunContext(ctx context.Context, out io.Writer) *Result {
	sim := engine.New(sc.options())
	for k, v := range sc.Files {
		sim.Files[k] = v
	}
	r := newRunner(ctx, sc, simTarget{sim}, out)
	if sc.meta.Kind == KindExercise {
		r.exercise()
	} else {
		r.steps(sc.steps)
	}
	r.stopWatch()
	r.lw.startLine() // the transcript ends with a whole line
	return &Result{Failures: r.failures}
}

// editorText is what the editor saves for an `editor` step: the file
// named, the shown text, or the shown text with OLD replaced by NEW.
func editorText(shown string, args []string, files map[string]string) string {
	switch {
	case args[0] == "unchanged":
		return shown
	case args[0] == "replace" && len(args) == 3:
		nl := strings.NewReplacer(`\n`, "\n")
		return strings.ReplaceAll(shown, nl.Replace(args[1]), nl.Replace(args[2]))
	}
	return files[args[0]]
}

// splitQuoted splits an `editor` line into words; '...' and "..." quote
// words with blanks.
func splitQuoted(s string) ([]string, error) {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out, nil
		}
		if q := s[0]; q == '\'' || q == '"' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", s)
			}
			out = append(out, s[1:1+end])
			s = s[2+end:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
}

// waitDeletedKinds are the KIND spellings `wait deleted KIND/NAME` accepts.
var waitDeletedKinds = map[string]bool{
	"pod": true, "pods": true, "po": true,
	"ds": true, "daemonset": true, "daemonsets": true,
	"node": true, "nodes": true, "no": true,
}

// lineWriter passes writes through and remembers whether the last one
// ended mid-line, so startLine can end that line first.
type lineWriter struct {
	w   io.Writer
	mid bool
}

func (l *lineWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		l.mid = p[len(p)-1] != '\n'
	}
	return l.w.Write(p)
}

// startLine ends a line left open by the previous write.
func (l *lineWriter) startLine() {
	if l.mid {
		l.mid = false
		io.WriteString(l.w, "\n")
	}
}

// isRolloutStatus reports whether a kubectl line (without "kubectl") is
// `kubectl rollout status ...`.
func isRolloutStatus(args string) bool {
	a, err := kubectl.ParseCommandLine("kubectl " + args)
	return err == nil && kubectlVerb(a[1:]) == "rollout status"
}

// rolloutStatusTarget reads what a `kubectl rollout status` line waits
// for: its --timeout (0: none) and the DaemonSet it names (namespace from
// -n/--namespace, else default; name "" when the line's form is not
// recognised). Only what the streaming form accepts matters here: one
// DaemonSet named, as TYPE/NAME or TYPE NAME.
func rolloutStatusTarget(args string) (timeout time.Duration, ns, name string) {
	a, err := kubectl.ParseCommandLine("kubectl " + args)
	if err != nil {
		return 0, "", ""
	}
	ns = api.DefaultNamespace
	// flags of kubectl rollout status (and global ones) that take a value
	valued := map[string]bool{"-n": true, "--namespace": true, "--timeout": true, "--revision": true,
		"--context": true, "-l": true, "--selector": true, "-f": true, "--filename": true, "-k": true, "--kustomize": true}
	var pos []string
	for i := 1; i < len(a); i++ {
		w := a[i]
		flag, val, hasVal := strings.Cut(w, "=")
		switch {
		case strings.HasPrefix(w, "-n") && !strings.HasPrefix(w, "--") && len(w) > 2 && !hasVal:
			ns = w[2:] // -nNS
			continue
		case !strings.HasPrefix(w, "-"):
			pos = append(pos, w)
			continue
		case !hasVal && valued[flag] && i+1 < len(a):
			i++
			val = a[i]
		case !hasVal:
			continue
		}
		switch flag {
		case "-n", "--namespace":
			ns = val
		case "--timeout":
			timeout, _ = time.ParseDuration(val)
		}
	}
	// pos: rollout status TYPE/NAME | rollout status TYPE NAME
	if len(pos) >= 3 {
		if _, n, ok := strings.Cut(pos[2], "/"); ok {
			name = n
		} else if len(pos) >= 4 {
			name = pos[3]
		}
	}
	return timeout, ns, name
}

// blockRolloutStatus gives a streaming `kubectl rollout status` (the
// page's Recorder, Options.StreamRolloutStatus) the blocking command's
// semantics, as Scenario.Run has it on a bare Simulation: virtual time
// advances in one-second steps (the last one shortened to end at
// --timeout), the stream w is polled into the command's output after each
// (kubectl's RunStatus prints on every change of the DaemonSet), ticks run
// (invariants, OnTick), until the stream ends: rolled out (exit 0), or an
// error (`error: timed out waiting for the condition`, `error: object has
// been deleted`: exit 1). Without --timeout the playground's bounds of the
// blocking command apply (kubectl.RolloutStuckAfter without a change of
// the DaemonSet's status, kubectl.MaxRolloutWait in all), with its note on
// stderr; a --timeout beyond kubectl.MaxCommandWait ends there with
// kubectl.CapNote, as the blocking command does. False when the run was
// stopped meanwhile (w is stopped).
func (r *runner) blockRolloutStatus(st *step, args string, w *kubectl.Watch) bool {
	timeout, ns, name := rolloutStatusTarget(args)
	sim := r.t.Sim()
	start := sim.Now()
	emit := func(stderr bool, text string) {
		r.out(stderr, text)
		kubectl.AppendChunk(&r.last.Chunks, stderr, text)
		if stderr {
			r.last.Stderr += text
			r.last.ExitCode = 1 // the stream's only stderr is its error
		} else {
			r.last.Stdout += text
		}
	}
	var lastStatus api.DaemonSetStatus
	lastChange := start
	first := true
	for w.Active() {
		sim = r.t.Sim()
		now := sim.Now()
		// RolloutStuckAfter counts from the last change of the status (or
		// a generation not yet observed), as the blocking command does
		if ds := simstore.Cluster(sim).DaemonSet(ns, name); ds != nil {
			if first || !kubectl.RolloutStatusEqual(ds.Status, lastStatus) || ds.Generation != ds.Status.ObservedGeneration {
				lastStatus, lastChange = ds.Status, now
			}
		}
		first = false
		elapsed := now.Sub(start)
		if timeout == 0 {
			bound := ""
			if stuck := now.Sub(lastChange); stuck >= kubectl.RolloutStuckAfter {
				bound = fmt.Sprintf("note: the playground stopped watching: the rollout has not moved for %s of virtual time (kubectl would keep waiting; use --timeout to choose)\n", stuck)
			} else if elapsed >= kubectl.MaxRolloutWait {
				bound = fmt.Sprintf("note: the playground stopped watching after %s of virtual time (kubectl would keep waiting; use --timeout to choose)\n", elapsed)
			}
			if bound != "" {
				w.Stop()
				emit(true, bound+"error: timed out waiting for the condition\n")
				break
			}
		} else if elapsed >= kubectl.MaxCommandWait {
			// a --timeout beyond the playground's cap, as the blocking
			// command (kubectl.MaxCommandWait)
			w.Stop()
			emit(true, kubectl.CapNote+"error: timed out waiting for the condition\n")
			break
		}
		step := waitStep
		if timeout > 0 && timeout-elapsed < step {
			step = timeout - elapsed
		}
		if r.done(st) {
			w.Stop()
			return false
		}
		r.t.Advance(step)
		for _, c := range w.Poll() {
			emit(c.Stderr, c.Text)
		}
		r.tick()
	}
	return true
}
