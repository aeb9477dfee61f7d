package engine

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/kubelet"
)

// Timeline / time travel.
//
// Design: the engine is deterministic (virtual clock, seeded names), so the
// state at any past instant is a function of the Options and of the learner's
// actions before it. A Recorder wraps a live Simulation, forwards every
// action to it and appends the action to an input log (Input, a few dozen
// bytes each; consecutive Advance calls merge into one Input). To show an
// earlier instant it replays the log into a second, fresh Simulation (the
// cursor). Scrubbing forward from the cursor only runs the difference;
// scrubbing backward replays from the start. Nothing is copied per step, so
// the memory held is two Simulations (live + cursor) plus the input log and
// the step index (Step, with at most MaxStepDecisions decisions). Replay
// clones no component state, so it stays correct when components gain
// state. Optionally (SetCheckpoints) a bounded number of deep copies of the
// live simulation (timeline_clone.go: generic, reflection-based, refusing
// what it cannot copy) let a backward seek restart nearer its target.
//
// An Advance(a) followed by Advance(b) reaches the same state as
// Advance(a+b) (Simulation.Advance stops and settles at every wake-up, and
// settles at the target only if something was written), which is what lets
// the cursor stop inside an Advance input and resume it later.

// InputKind names one kind of learner action in a Recorder's input log.
type InputKind string

// The input kinds, one per Recorder action.
const (
	InputRun             InputKind = "run"                // Simulation.Run(Line)
	InputApply           InputKind = "apply"              // Simulation.Apply(Name, Text)
	InputSetFile         InputKind = "file"               // Simulation.Files[Name] = Text
	InputFinishEdit      InputKind = "edit"               // Simulation.FinishEdit(session opened by input Edit, Text)
	InputAddNode         InputKind = "add-node"           // Simulation.AddNode(Name, Node)
	InputRemoveNode      InputKind = "remove-node"        // Simulation.RemoveNode(Name)
	InputFailNode        InputKind = "fail-node"          // Simulation.FailNode(Name)
	InputRecoverNode     InputKind = "recover-node"       // Simulation.RecoverNode(Name)
	InputFailPod         InputKind = "fail-pod"           // Simulation.FailPod(Namespace, Name)
	InputNodeCondition   InputKind = "node-condition"     // Simulation.SetNodeCondition(Name, Type, Status)
	InputPodReadiness    InputKind = "pod-readiness"      // Simulation.SetPodReadiness(Namespace, Name, Ready)
	InputRegistryHave    InputKind = "registry-have"      // Registry().Have(Refs...)
	InputRegistryLack    InputKind = "registry-lack"      // Registry().Lack(Refs...)
	InputRegistryPreload InputKind = "registry-preloaded" // Registry().SetPreloaded(Refs...)
	InputAdvance         InputKind = "advance"            // Simulation.Advance(D)
)

// Input is one learner action in a Recorder's log. Only the fields of its
// Kind are set (see the InputKind constants).
type Input struct {
	Kind InputKind
	// At is the virtual time (since cluster.Epoch) when the action was
	// given; End is the virtual time once it finished (At+D for an Advance,
	// later than At for a kubectl command that waits, e.g. `kubectl delete`).
	At, End time.Duration
	// D is the Advance duration.
	D time.Duration
	// Line is the Run command line.
	Line string
	// Name is the file name (Apply, SetFile), node name or pod name.
	Name, Namespace string
	// Text is the manifest (Apply), file content (SetFile) or saved editor
	// text (FinishEdit).
	Text string
	// Node are the AddNode options.
	Node cluster.NodeOptions
	// Type and Status are the SetNodeCondition arguments.
	Type, Status string
	// Ready is the SetPodReadiness argument.
	Ready bool
	// Refs are the image references of the registry inputs.
	Refs []string
	// Edit is, for FinishEdit, the index in the log of the input whose
	// Output opened (or reopened) the editor session.
	Edit int
}

// Label is the action as a learner would name it: the kubectl command line,
// `kubectl apply -f NAME`, `node add NAME`, `advance 30s`, ...
func (in Input) Label() string {
	switch in.Kind {
	case InputRun:
		l := strings.TrimSpace(in.Line)
		if !strings.HasPrefix(l, "kubectl ") && !strings.HasPrefix(l, "k ") {
			l = "kubectl " + l
		}
		return l
	case InputApply:
		return "kubectl apply -f " + in.Name
	case InputSetFile:
		return "edit file " + in.Name
	case InputFinishEdit:
		return "save the kubectl edit buffer"
	case InputAddNode:
		return "node add " + in.Name
	case InputRemoveNode:
		return "node remove " + in.Name
	case InputFailNode:
		return "node fail " + in.Name
	case InputRecoverNode:
		return "node recover " + in.Name
	case InputFailPod:
		return "pod fail " + in.Name
	case InputNodeCondition:
		return fmt.Sprintf("node condition %s %s=%s", in.Name, in.Type, in.Status)
	case InputPodReadiness:
		if in.Ready {
			return "pod ready " + in.Name
		}
		return "pod unready " + in.Name
	case InputRegistryHave:
		return "registry has " + strings.Join(in.Refs, " ")
	case InputRegistryLack:
		return "registry lacks " + strings.Join(in.Refs, " ")
	case InputRegistryPreload:
		return "registry preloaded " + strings.Join(in.Refs, " ")
	case InputAdvance:
		return "advance " + in.D.String()
	}
	return string(in.Kind)
}

// Result is what one Input did: the kubectl Output (Run, FinishEdit), the
// ApplyReport (Apply) and the error of the actions that return one.
type Result struct {
	Output Output
	Report *ApplyReport
	Err    error
}

// exec performs in on s. edits maps log indexes to the editor sessions their
// Outputs opened (read for FinishEdit, written for Run and FinishEdit);
// step is a Run's hook between the steps of a waiting command (nil: none,
// see RunWatched).
func exec(s *Simulation, in *Input, idx int, edits map[int]*kubectl.EditSession, step func()) Result {
	var r Result
	switch in.Kind {
	case InputRun:
		r.Output = s.runStepped(in.Line, step)
	case InputApply:
		r.Report, r.Err = s.Apply(in.Name, in.Text)
	case InputSetFile:
		s.Files[in.Name] = in.Text
	case InputFinishEdit:
		e := edits[in.Edit]
		if e == nil {
			r.Err = fmt.Errorf("input %d opened no editor session", in.Edit)
			break
		}
		r.Output = s.FinishEdit(e, in.Text)
	case InputAddNode:
		r.Err = s.AddNode(in.Name, in.Node)
	case InputRemoveNode:
		r.Err = s.RemoveNode(in.Name)
	case InputFailNode:
		r.Err = s.FailNode(in.Name)
	case InputRecoverNode:
		r.Err = s.RecoverNode(in.Name)
	case InputFailPod:
		r.Err = s.FailPod(in.Namespace, in.Name)
	case InputNodeCondition:
		r.Err = s.SetNodeCondition(in.Name, in.Type, in.Status)
	case InputPodReadiness:
		r.Err = s.SetPodReadiness(in.Namespace, in.Name, in.Ready)
	case InputRegistryHave:
		s.Registry().Have(in.Refs...)
		s.Settle()
	case InputRegistryLack:
		s.Registry().Lack(in.Refs...)
		s.Settle()
	case InputRegistryPreload:
		s.Registry().SetPreloaded(in.Refs...)
		s.Settle()
	case InputAdvance:
		s.Advance(in.D)
	default:
		r.Err = fmt.Errorf("unknown input kind %q", in.Kind)
	}
	if r.Output.Edit != nil {
		edits[idx] = r.Output.Edit
	}
	return r
}

// Step is one point of the timeline: a learner action that changed the
// cluster, or a virtual instant at which a component acted on its own
// (time passing). Steps are in time order.
type Step struct {
	// At is the virtual time since cluster.Epoch of the state SeekStep
	// returns for this step (after the action, or at the end of the instant).
	At time.Duration
	// Input is the index in Inputs() of the learner action; -1 for a step
	// of time passing (the decisions a wake-up caused, inside an Advance).
	Input int
	// Label says what happened: the action (Input.Label) or, for time
	// passing, the first decision that changed something, as
	// "COMPONENT ACTION OBJECT: REASON", with " (+N more)".
	Label string
	// Decisions are the first MaxStepDecisions decisions of the step (all
	// of them with Recorder.StepDecisions); NumDecisions counts them all,
	// FirstSeq is the Seq of the first (0 when none).
	Decisions    []cluster.Decision
	NumDecisions int
	FirstSeq     int64

	pos pos
}

// MaxStepDecisions bounds the decisions a Step keeps itself, so that the
// timeline's memory does not grow with the cluster (a 1,000-node rollout
// step holds hundreds); Recorder.StepDecisions returns all of them.
const MaxStepDecisions = 8

// pos is a point in the input log: inputs[:n] done, then, when partial,
// Advance(adv) of inputs[n].
type pos struct {
	n       int
	adv     time.Duration
	partial bool
}

func (p pos) less(q pos) bool {
	if p.n != q.n {
		return p.n < q.n
	}
	if p.partial != q.partial {
		return !p.partial
	}
	return p.adv < q.adv
}

// Recorder records a Simulation's inputs so it can show any earlier instant
// (time travel). Use its action methods instead of the Simulation's; read
// the present through Live and the past through Seek / SeekStep. Not safe
// for concurrent use.
type Recorder struct {
	opts Options
	live *Simulation
	// waitStep is RunWatched's hook while its command runs; running is
	// set meanwhile, and Do refuses every other input.
	waitStep func()
	running  bool
	// liveEdits maps the live editor sessions to the index of the input
	// whose Output opened them; edits the reverse (for exec).
	liveEdits map[*kubectl.EditSession]int
	edits     map[int]*kubectl.EditSession
	inputs    []Input
	steps     []Step
	lastSeq   int64

	// The cursor: a replay of inputs up to curPos.
	cur      *Simulation
	curPos   pos
	curEdits map[int]*kubectl.EditSession
	curMark  mark
	// Replays counts how often the cursor restarted from the beginning,
	// Restores how often it restarted from a checkpoint.
	Replays, Restores int
	// StepsThinned counts the steps of time passing dropped to keep
	// within MaxSteps.
	StepsThinned int

	// Checkpoints (off unless SetCheckpoints): deep copies of the live
	// simulation, oldest first.
	ckpts   []checkpoint
	ckMax   int
	ckEvery time.Duration
	ckLast  time.Duration
	// ckNodes bounds the nodes summed over the held checkpoints (0: no
	// bound), see SetCheckpointNodeBudget.
	ckNodes int
	// CheckpointErr is set (and checkpoints turned off) when the
	// simulation could not be copied (see deepCopy).
	CheckpointErr error
}

// checkpoint is a deep copy of the simulation at input-log point pos.
type checkpoint struct {
	pos   pos
	sim   *Simulation
	nodes int // the copy's node count, for the node budget
}

// mark is what the cursor looked like after the Recorder last moved it; a
// difference means someone wrote to it, so it is rebuilt.
type mark struct {
	rv, seq int64
	now     time.Time
}

func markOf(s *Simulation) mark {
	return mark{s.store.ResourceVersion(), s.store.LastDecisionSeq(), s.Now()}
}

// ErrSeekRange is returned (wrapped) by Seek for a time before
// cluster.Epoch or after the live simulation's time, and by SeekStep for an
// index out of range.
var ErrSeekRange = errors.New("outside the recorded timeline")

// NewRecorder starts a recorded Simulation: New(o), whose creation (the
// default nodes registering) is step 0 when it made decisions.
func NewRecorder(o Options) *Recorder {
	r := &Recorder{opts: o, live: New(o), liveEdits: map[*kubectl.EditSession]int{}, edits: map[int]*kubectl.EditSession{}}
	r.collect(-1, "cluster created", pos{})
	return r
}

// Live returns the live Simulation: read it freely (Snapshot, Scene, Explain,
// Decisions, Watch polling), but act only through the Recorder, or the
// timeline stops matching what happened.
func (r *Recorder) Live() *Simulation { return r.live }

// Options returns the Options the Recorder was created with.
func (r *Recorder) Options() Options { return r.opts }

// Inputs returns the input log, oldest first (shared: do not modify).
func (r *Recorder) Inputs() []Input { return r.inputs }

// Steps returns the timeline, oldest first (shared: do not modify).
func (r *Recorder) Steps() []Step { return r.steps }

// Do performs in on the live simulation and records it (At and End are
// set by the Recorder). A FinishEdit's Edit must name an input of this
// Recorder whose Output opened the session.
func (r *Recorder) Do(in Input) Result {
	if r.running {
		// inside RunWatched's hook (a shell's event while a command
		// waits): nothing may act on the simulation mid-command
		return Result{Output: busyOutput, Err: ErrCommandRunning}
	}
	in.At = r.live.Elapsed()
	if in.Kind == InputAdvance {
		if in.D <= 0 {
			return Result{}
		}
		if n := len(r.inputs); n > 0 && r.inputs[n-1].Kind == InputAdvance {
			// merge: Advance(a) then Advance(b) == Advance(a+b)
			idx := n - 1
			prev := &r.inputs[idx]
			r.live.Advance(in.D)
			prev.D += in.D
			prev.End = r.live.Elapsed()
			r.collectAdvance(idx)
			r.maybeCheckpoint()
			return Result{}
		}
	}
	rv := r.live.store.ResourceVersion()
	idx := len(r.inputs)
	r.inputs = append(r.inputs, in)
	if r.waitStep != nil {
		r.running = true // RunWatched: refuse what its hook lets through
	}
	res := exec(r.live, &r.inputs[idx], idx, r.edits, r.waitStep)
	r.running = false
	r.inputs[idx].End = r.live.Elapsed()
	if res.Output.Edit != nil {
		r.liveEdits[res.Output.Edit] = idx
	}
	defer r.maybeCheckpoint()
	if in.Kind == InputAdvance {
		r.collectAdvance(idx)
		return res
	}
	changed := r.live.store.ResourceVersion() != rv || r.inputs[idx].End != in.At
	r.collect(idx, in.Label(), pos{n: idx + 1})
	if !changed && len(r.steps) > 0 && r.steps[len(r.steps)-1].Input == idx && r.steps[len(r.steps)-1].NumDecisions == 0 {
		r.steps = r.steps[:len(r.steps)-1] // read-only command: no step
	}
	return res
}

// collect turns the decisions made since the last collect into one step.
// A step without decisions is added only for an input (idx >= 0).
func (r *Recorder) collect(idx int, label string, p pos) {
	ds := r.live.Decisions(r.lastSeq)
	r.lastSeq = r.live.store.LastDecisionSeq()
	if idx < 0 && len(ds) == 0 {
		return
	}
	st := Step{At: r.live.Elapsed(), Input: idx, Label: label, pos: p}
	st.fill(ds)
	r.steps = append(r.steps, st)
	r.boundSteps()
}

// MaxSteps bounds the timeline's steps, so that a cluster busy for hours
// (a crash loop on every node, a class left playing at 10×) holds bounded
// memory. Past it, every other step of time passing in the older half is
// dropped (the learner's own actions are all kept; Seek to any instant
// still works, the strip only has fewer stops in the distant past).
// A variable so that tests can lower it.
var MaxSteps = 10000

// boundSteps thins the steps as MaxSteps says. StepsThinned counts the
// steps dropped.
func (r *Recorder) boundSteps() {
	for len(r.steps) > MaxSteps {
		half := len(r.steps) / 2
		kept := r.steps[:0]
		odd := false
		for i, st := range r.steps {
			if i < half && st.Input < 0 {
				odd = !odd
				if !odd {
					r.StepsThinned++
					continue
				}
			}
			kept = append(kept, st)
		}
		if len(kept) == len(r.steps) {
			return // nothing left to thin: only the learner's actions
		}
		clear(r.steps[len(kept):])
		r.steps = kept
	}
}

// collectAdvance adds one step per virtual instant at which the Advance
// input idx produced decisions.
func (r *Recorder) collectAdvance(idx int) {
	ds := r.live.Decisions(r.lastSeq)
	r.lastSeq = r.live.store.LastDecisionSeq()
	start := r.inputs[idx].At
	for len(ds) > 0 {
		t := ds[0].Time
		j := 1
		for j < len(ds) && ds[j].Time.Equal(t) {
			j++
		}
		at := t.Sub(cluster.Epoch)
		st := Step{At: at, Input: -1, pos: pos{n: idx, adv: at - start, partial: true}}
		st.fill(ds[:j])
		st.Label = summarize(ds[:j])
		r.steps = append(r.steps, st)
		ds = ds[j:]
	}
	r.boundSteps()
}

func (st *Step) fill(ds []cluster.Decision) {
	st.NumDecisions = len(ds)
	if len(ds) > 0 {
		st.FirstSeq = ds[0].Seq
	}
	k := min(len(ds), MaxStepDecisions)
	st.Decisions = append([]cluster.Decision(nil), ds[:k]...)
}

// summarize labels a step of time passing by the decision that explains it
// best: the DaemonSet controller's first decision that acted (anything but
// skip/wait), else the first that acted, else the first, as
// "COMPONENT ACTION OBJECT: REASON (+N more)".
func summarize(ds []cluster.Decision) string {
	best, rank := 0, 0
	for i, d := range ds {
		r := 0
		if d.Action != "skip" && d.Action != "wait" {
			r = 1
			if d.Component == cluster.ComponentDaemonSetController {
				r = 2
			}
		}
		if r > rank {
			best, rank = i, r
		}
	}
	d := ds[best]
	l := fmt.Sprintf("%s %s %s", d.Component, d.Action, d.Object)
	if d.Reason != "" {
		l += ": " + d.Reason
	}
	if len(ds) > 1 {
		l += fmt.Sprintf(" (+%d more)", len(ds)-1)
	}
	return l
}

// Seek returns the cluster as it was at virtual time at (since
// cluster.Epoch): every input that ended by at applied, the last one
// running when it is an Advance stopped at at. When at falls inside a
// kubectl command that waited (`kubectl delete`, `rollout status`), the
// state is the one before that command (Elapsed() < at). The returned
// Simulation is the Recorder's replay cursor, valid until the next Seek,
// SeekStep or Branch: read it (Snapshot, Decisions, Explain, Run
// of read-only commands such as `kubectl get pods -o wide`). A write to it
// is noticed (store version, decision log, clock) and the next Seek
// rebuilds the cursor, so the timeline never shows it.
// Errors (wrapping ErrSeekRange): at < 0 or after Live().Elapsed().
func (r *Recorder) Seek(at time.Duration) (*Simulation, error) {
	if at < 0 || at > r.live.Elapsed() {
		return nil, fmt.Errorf("seek to %s: %w (0s to %s)", at, ErrSeekRange, r.live.Elapsed())
	}
	return r.moveTo(r.posAt(at)), nil
}

// posAt is the input-log point for virtual time at.
func (r *Recorder) posAt(at time.Duration) pos {
	p := pos{}
	for i, in := range r.inputs {
		if in.End <= at {
			p = pos{n: i + 1}
			continue
		}
		if in.Kind == InputAdvance && in.At <= at {
			return pos{n: i, adv: at - in.At, partial: true}
		}
		return pos{n: i}
	}
	return p
}

// SeekStep returns the state right after step i of Steps() (see Seek for
// what the returned Simulation may be used for). Errors: ErrSeekRange.
func (r *Recorder) SeekStep(i int) (*Simulation, error) {
	if i < 0 || i >= len(r.steps) {
		return nil, fmt.Errorf("step %d: %w (%d steps)", i, ErrSeekRange, len(r.steps))
	}
	return r.moveTo(r.steps[i].pos), nil
}

// StepAt returns the index of the last step at or before virtual time at
// (-1 if none), for labelling a scrub position.
func (r *Recorder) StepAt(at time.Duration) int {
	return sort.Search(len(r.steps), func(i int) bool { return r.steps[i].At > at }) - 1
}

// StepDecisions returns every decision of step i, from the live
// simulation's decision log while it still holds them (it keeps the newest
// 10,000 to 20,000), else by replaying to the step. Errors: ErrSeekRange.
func (r *Recorder) StepDecisions(i int) ([]cluster.Decision, error) {
	if i < 0 || i >= len(r.steps) {
		return nil, fmt.Errorf("step %d: %w (%d steps)", i, ErrSeekRange, len(r.steps))
	}
	st := r.steps[i]
	if st.NumDecisions == 0 {
		return nil, nil
	}
	from := func(s *Simulation) []cluster.Decision {
		ds := s.Decisions(st.FirstSeq - 1)
		if len(ds) == 0 || ds[0].Seq != st.FirstSeq || len(ds) < st.NumDecisions {
			return nil
		}
		return ds[:st.NumDecisions:st.NumDecisions]
	}
	if ds := from(r.live); ds != nil {
		return ds, nil
	}
	s, err := r.SeekStep(i)
	if err != nil {
		return nil, err
	}
	if ds := from(s); ds != nil {
		return ds, nil
	}
	return st.Decisions, nil
}

// moveTo brings the cursor to p, replaying from the start when p is
// behind it (or it was written to).
func (r *Recorder) moveTo(p pos) *Simulation {
	curOK := r.cur != nil && !p.less(r.curPos) && markOf(r.cur) == r.curMark
	if ck := r.checkpointFor(p); ck != nil && (!curOK || r.curPos.less(ck.pos)) {
		if sim, err := ck.sim.clone(); err == nil {
			r.cur, r.curPos, curOK = sim, ck.pos, true
			r.curEdits = map[int]*kubectl.EditSession{}
			r.Restores++
		}
	}
	if !curOK {
		r.cur = New(r.opts)
		r.curPos = pos{}
		r.curEdits = map[int]*kubectl.EditSession{}
		r.Replays++
	}
	for r.curPos.less(p) {
		c := r.curPos
		if c.partial {
			in := r.inputs[c.n]
			if p.n == c.n {
				r.cur.Advance(p.adv - c.adv)
				r.curPos = p
				break
			}
			r.cur.Advance(in.D - c.adv)
			r.curPos = pos{n: c.n + 1}
			continue
		}
		if p.n == c.n { // p is partial inside inputs[c.n]
			r.cur.Advance(p.adv)
			r.curPos = p
			break
		}
		exec(r.cur, &r.inputs[c.n], c.n, r.curEdits, nil)
		r.curPos = pos{n: c.n + 1}
	}
	r.curMark = markOf(r.cur)
	return r.cur
}

// Branch makes the state at virtual time at the live one and forgets
// everything recorded after it (the learner rewound and acts again). Live
// editor sessions and watches of the discarded future must not be used
// any more. Errors: as Seek.
func (r *Recorder) Branch(at time.Duration) error {
	if _, err := r.Seek(at); err != nil {
		return err
	}
	r.branchHere()
	return nil
}

// Truncate makes the state after the first n inputs the live one and
// forgets every input after them, as Branch does (an undo of the last
// actions: inputs given while the clock was paused share one instant, so a
// time cannot tell them apart). Errors: ErrSeekRange for n outside 0 to
// len(Inputs()), ErrCommandRunning while a command waits.
func (r *Recorder) Truncate(n int) error {
	if n < 0 || n > len(r.inputs) {
		return fmt.Errorf("truncate to %d inputs: %w (0 to %d)", n, ErrSeekRange, len(r.inputs))
	}
	if r.running {
		return ErrCommandRunning
	}
	r.moveTo(pos{n: n})
	r.branchHere()
	return nil
}

// branchHere makes the cursor the live simulation and forgets what was
// recorded after its position.
func (r *Recorder) branchHere() {
	p := r.curPos
	n := p.n
	if p.partial {
		in := &r.inputs[p.n]
		in.D, in.End = p.adv, in.At+p.adv
		n++
	}
	r.inputs = r.inputs[:n:n]
	k := sort.Search(len(r.steps), func(i int) bool { return p.less(r.steps[i].pos) })
	r.steps = r.steps[:k:k]
	r.live, r.edits = r.cur, r.curEdits
	r.liveEdits = map[*kubectl.EditSession]int{}
	for i, e := range r.edits {
		r.liveEdits[e] = i
	}
	r.lastSeq = r.live.store.LastDecisionSeq()
	r.cur, r.curEdits = nil, nil
	j := sort.Search(len(r.ckpts), func(i int) bool { return p.less(r.ckpts[i].pos) })
	r.ckpts = r.ckpts[:j:j]
	r.ckLast = 0
	if j > 0 {
		r.ckLast = r.ckpts[j-1].sim.Elapsed()
	}
}

// Run records and performs Simulation.Run(line).
func (r *Recorder) Run(line string) Output { return r.Do(Input{Kind: InputRun, Line: line}).Output }

// RunWatched is Run, with step called before every step of virtual time
// a waiting command (delete waiting for its objects, drain) takes, while
// the live simulation is between two steps: a shell draws it there (and
// may wait, from a goroutine), so the wait plays as a cluster would show
// it. step must not act on the simulation; the input recorded and the
// state reached are Run's.
//
// While the command runs, every other action on the Recorder (Do and what
// calls it: Run, Apply, Advance, ...) is refused: it returns
// ErrCommandRunning (Run's Output says so, exit status 1) and records
// nothing.
func (r *Recorder) RunWatched(line string, step func()) Output {
	r.waitStep = step
	defer func() { r.waitStep, r.running = nil, false }()
	return r.Run(line)
}

// ErrCommandRunning is what an action on a Recorder returns while a
// command run by RunWatched still waits.
var ErrCommandRunning = errors.New("a kubectl command is still running: wait for it to return (Ctrl+C in the console ends its wait)")

// busyOutput is Run's Output while a command still runs.
var busyOutput = Output{Stderr: "error: " + ErrCommandRunning.Error() + "\n", Chunks: []Chunk{{Stderr: true, Text: "error: " + ErrCommandRunning.Error() + "\n"}}, ExitCode: 1}

// Apply records and performs Simulation.Apply(filename, text).
func (r *Recorder) Apply(filename, text string) (*ApplyReport, error) {
	res := r.Do(Input{Kind: InputApply, Name: filename, Text: text})
	return res.Report, res.Err
}

// SetFile records and performs Simulation.Files[name] = text (the
// editor buffer `kubectl apply -f NAME` reads).
func (r *Recorder) SetFile(name, text string) {
	if old, ok := r.live.Files[name]; ok && old == text {
		return
	}
	r.Do(Input{Kind: InputSetFile, Name: name, Text: text})
}

// FinishEdit records and performs Simulation.FinishEdit(e, text). e must
// come from an Output this Recorder returned; otherwise the Output is
// `error: ...` with exit code 1 and nothing happens.
func (r *Recorder) FinishEdit(e *kubectl.EditSession, text string) Output {
	idx, ok := r.liveEdits[e]
	if !ok {
		msg := "error: the edit session was not opened through this recorder\n"
		return Output{Stderr: msg, Chunks: []Chunk{{Stderr: true, Text: msg}}, ExitCode: 1}
	}
	return r.Do(Input{Kind: InputFinishEdit, Edit: idx, Text: text}).Output
}

// AddNode records and performs Simulation.AddNode.
func (r *Recorder) AddNode(name string, o cluster.NodeOptions) error {
	o.Labels = maps.Clone(o.Labels)
	o.Taints = slices.Clone(o.Taints)
	return r.Do(Input{Kind: InputAddNode, Name: name, Node: o}).Err
}

// RemoveNode records and performs Simulation.RemoveNode.
func (r *Recorder) RemoveNode(name string) error {
	return r.Do(Input{Kind: InputRemoveNode, Name: name}).Err
}

// FailNode records and performs Simulation.FailNode.
func (r *Recorder) FailNode(name string) error {
	return r.Do(Input{Kind: InputFailNode, Name: name}).Err
}

// RecoverNode records and performs Simulation.RecoverNode.
func (r *Recorder) RecoverNode(name string) error {
	return r.Do(Input{Kind: InputRecoverNode, Name: name}).Err
}

// FailPod records and performs Simulation.FailPod.
func (r *Recorder) FailPod(namespace, name string) error {
	return r.Do(Input{Kind: InputFailPod, Namespace: namespace, Name: name}).Err
}

// SetNodeCondition records and performs Simulation.SetNodeCondition.
func (r *Recorder) SetNodeCondition(name, typ, status string) error {
	return r.Do(Input{Kind: InputNodeCondition, Name: name, Type: typ, Status: status}).Err
}

// SetPodReadiness records and performs Simulation.SetPodReadiness.
func (r *Recorder) SetPodReadiness(namespace, name string, ready bool) error {
	return r.Do(Input{Kind: InputPodReadiness, Namespace: namespace, Name: name, Ready: ready}).Err
}

// RegistryHave records and performs Registry().Have(refs...), then settles.
func (r *Recorder) RegistryHave(refs ...string) {
	r.Do(Input{Kind: InputRegistryHave, Refs: append([]string(nil), refs...)})
}

// RegistryLack records and performs Registry().Lack(refs...), then settles.
func (r *Recorder) RegistryLack(refs ...string) {
	r.Do(Input{Kind: InputRegistryLack, Refs: append([]string(nil), refs...)})
}

// RegistryPreloaded records and performs Registry().SetPreloaded(refs...), then settles.
func (r *Recorder) RegistryPreloaded(refs ...string) {
	r.Do(Input{Kind: InputRegistryPreload, Refs: append([]string(nil), refs...)})
}

// PreloadImage records and performs Simulation.PreloadImage(image): the
// input is `registry preloaded` with the images preloaded so far plus
// image, so a replay (a share link, an export) preloads the same. Errors:
// image does not parse as a reference (nothing is recorded).
func (r *Recorder) PreloadImage(image string) error {
	if err := kubelet.ValidImageReference(image); err != nil {
		return err
	}
	refs := r.live.PreloadedImages()
	for _, ref := range refs {
		if kubelet.NormalizeImage(ref) == kubelet.NormalizeImage(image) {
			return nil
		}
	}
	r.RegistryPreloaded(append(refs, image)...)
	return nil
}

// Advance records and performs Simulation.Advance(d) (d <= 0 does nothing).
// Consecutive Advances merge into one input, so calling it every frame
// keeps the log small.
func (r *Recorder) Advance(d time.Duration) { r.Do(Input{Kind: InputAdvance, D: d}) }

// SetCheckpoints makes the Recorder keep up to max deep copies of the live
// simulation (see deepCopy), one taken after the first action that ends at
// least every virtual time after the previous one, so Seek restarts from
// the nearest checkpoint before the target instead of replaying from the
// start. When max is exceeded every other checkpoint is dropped and the
// interval doubles, so they stay spread over the whole timeline. Each
// costs about one Simulation (tens of MB for 1,000 nodes; see
// BenchmarkTimelineRollout1000) and one copy's time at each take and at
// each Seek that uses one. max <= 0 turns checkpoints off and drops them.
func (r *Recorder) SetCheckpoints(max int, every time.Duration) {
	if every <= 0 {
		every = time.Second
	}
	r.ckMax, r.ckEvery = max, every
	if max <= 0 {
		r.ckpts = nil
	}
}

// SetCheckpointNodeBudget bounds the memory checkpoints hold: the node
// counts of the held copies add up to at most n (a copy costs roughly
// 20-25 KB per node with one daemon pod each: see
// BenchmarkTimelineRollout1000). A copy that would go over drops older
// ones (thinning, as when max is exceeded); a cluster of more than n nodes
// takes none and seeks replay from the start. n <= 0 removes the bound.
func (r *Recorder) SetCheckpointNodeBudget(n int) { r.ckNodes = n }

// Checkpoints returns the virtual times of the checkpoints held.
func (r *Recorder) Checkpoints() []time.Duration {
	out := make([]time.Duration, len(r.ckpts))
	for i, c := range r.ckpts {
		out[i] = c.sim.Elapsed()
	}
	return out
}

// livePos is the input-log point of the live simulation.
func (r *Recorder) livePos() pos {
	n := len(r.inputs)
	if n > 0 && r.inputs[n-1].Kind == InputAdvance {
		return pos{n: n - 1, adv: r.inputs[n-1].D, partial: true}
	}
	return pos{n: n}
}

// maybeCheckpoint copies the live simulation when checkpoints are on and
// the interval has passed.
func (r *Recorder) maybeCheckpoint() {
	if r.ckMax <= 0 || r.CheckpointErr != nil {
		return
	}
	now := r.live.Elapsed()
	if len(r.ckpts) > 0 && now-r.ckLast < r.ckEvery {
		return
	}
	nodes := r.live.store.NodeCount()
	if r.ckNodes > 0 {
		if nodes > r.ckNodes {
			// one copy alone is over budget: replay serves this size
			return
		}
		for held := r.heldNodes(); len(r.ckpts) > 0 && held+nodes > r.ckNodes; held = r.heldNodes() {
			r.thinCheckpoints()
		}
	}
	sim, err := r.live.clone()
	if err != nil {
		r.CheckpointErr, r.ckpts = err, nil
		return
	}
	r.ckpts = append(r.ckpts, checkpoint{pos: r.livePos(), sim: sim, nodes: nodes})
	r.ckLast = now
	if len(r.ckpts) > r.ckMax {
		r.thinCheckpoints()
	}
}

// heldNodes is the node count summed over the held checkpoints.
func (r *Recorder) heldNodes() int {
	n := 0
	for _, c := range r.ckpts {
		n += c.nodes
	}
	return n
}

// thinCheckpoints drops every other checkpoint (keeping the first and the
// last) and doubles the interval, so the rest stay spread over the whole
// timeline. With two or fewer it drops the oldest, so every call frees one.
func (r *Recorder) thinCheckpoints() {
	n := len(r.ckpts)
	if n <= 2 {
		if n > 0 {
			copy(r.ckpts, r.ckpts[1:])
			clear(r.ckpts[n-1:])
			r.ckpts = r.ckpts[:n-1]
		}
		return
	}
	kept := r.ckpts[:0]
	for i, c := range r.ckpts {
		if i%2 == 0 || i == n-1 {
			kept = append(kept, c)
		}
	}
	clear(r.ckpts[len(kept):])
	r.ckpts = kept
	r.ckEvery *= 2
}

// checkpointFor returns the latest checkpoint at or before p from which
// the inputs up to p can be replayed (no FinishEdit among them refers to
// an editor session opened before the checkpoint), or nil.
func (r *Recorder) checkpointFor(p pos) *checkpoint {
	for i := len(r.ckpts) - 1; i >= 0; i-- {
		c := &r.ckpts[i]
		if p.less(c.pos) {
			continue
		}
		ok := true
		for j := c.pos.n; j < p.n && j < len(r.inputs); j++ {
			if in := r.inputs[j]; in.Kind == InputFinishEdit && in.Edit < c.pos.n {
				ok = false
				break
			}
		}
		if ok {
			return c
		}
	}
	return nil
}
