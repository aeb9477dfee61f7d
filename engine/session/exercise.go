package session

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Exercise is the state of an open exercise's attempt: the goal's last
// check, the `always` rules observed, the hints shown and how the goal
// was reached. The page draws it, checks it after the learner's actions
// and observes it as time passes.
type Exercise struct {
	Item *Item
	// Player played the setup and plays the solution; nil when the
	// exercise was attached to a cluster it did not set up (a share
	// link) or the Recorder changed ("Continue from here"): the solution
	// then plays through Item.LinesPlayer.
	Player     *Player
	Invariants *Invariants

	// Goal is the last check's outcome (one check per assertion); Checked
	// once a check ran.
	Goal    GoalResult
	Checked bool
	// Solved: the goal held with no invariant broken and the setup
	// sound, in this attempt.
	Solved bool
	// UsedSolution: the solution's commands ran in this attempt.
	UsedSolution bool
	// Shared: opened on a share link's cluster, which holds someone
	// else's work (a goal reached is not the learner's).
	Shared bool
	// Violations are the broken `always` rules; SetupFailures the setup's
	// failed assertions (the exercise is out of date).
	Violations    []Check
	SetupFailures []string
	// Hints is the number of hints shown in this attempt.
	Hints int
}

// NewExercise returns the state of an attempt at exercise it (parsed):
// the hints seen before (p) stay shown, as they cannot be unseen; its
// rules are not observed yet.
func NewExercise(it *Item, p Progress) *Exercise {
	x := &Exercise{Item: it, Invariants: it.Invariants()}
	if r := p.Exercises[it.ID]; r != nil {
		x.Hints = min(r.Hints, len(it.meta.Hints))
	}
	return x
}

// Observe observes the rules on sim; it reports whether a rule broke
// since the last observation (the attempt is then not solved).
func (x *Exercise) Observe(sim *engine.Simulation) bool {
	x.Invariants.Observe(sim)
	v := x.Invariants.Violations()
	if len(v) == len(x.Violations) {
		return false
	}
	x.Violations = v
	x.Solved = false
	return true
}

// Check checks the goal on sim (never changing it) and records the
// outcome; it reports whether the attempt turned solved with this check.
func (x *Exercise) Check(sim *engine.Simulation) bool {
	x.Goal = x.Item.CheckGoal(sim)
	x.Checked = true
	x.Violations = x.Invariants.Violations()
	was := x.Solved
	x.Solved = x.Goal.OK && len(x.Violations) == 0 && len(x.SetupFailures) == 0
	return x.Solved && !was
}

// Counts reports whether a goal reached now is the learner's own (to be
// recorded as solved): not with the solution's commands, not on a shared
// cluster.
func (x *Exercise) Counts() bool { return !x.Shared && !x.UsedSolution }

// NextHint reveals the next hint and returns it ("" when none is left);
// the furthest hint ever shown is kept in p.
func (x *Exercise) NextHint(p Progress) string {
	hs := x.Item.meta.Hints
	if x.Hints >= len(hs) {
		return ""
	}
	x.Hints++
	if r := p.Exercise(x.Item.ID); x.Hints > r.Hints {
		r.Hints = x.Hints
	}
	return hs[x.Hints-1]
}

// Key sums up the outcome a panel shows (it is drawn again only when the
// key changed).
func (x *Exercise) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %v %d|", x.Checked, x.Solved, len(x.Violations))
	for _, c := range x.Goal.Checks {
		fmt.Fprintf(&b, "%v %s|", c.OK, c.Detail)
	}
	return b.String()
}

// SolvedText is what the panel says when the goal holds.
func (x *Exercise) SolvedText() string {
	switch {
	case x.UsedSolution:
		return "The goal holds — with the solution's commands. Restart and try it yourself?"
	case x.Shared:
		return "The goal holds in this shared cluster ✓."
	}
	return "Solved ✓ — every check of the goal holds."
}

// Summary says how many of the goal's checks hold, and that the attempt
// cannot pass once a rule broke.
func (x *Exercise) Summary() string {
	ok := 0
	for _, c := range x.Goal.Checks {
		if c.OK {
			ok++
		}
	}
	s := fmt.Sprintf("%d of %d checks hold.", ok, len(x.Goal.Checks))
	if len(x.Violations) > 0 {
		s += " A rule that must always hold was broken: Restart to try again."
	}
	return s
}

// Bounds of CatchUpTimes.
const (
	// CatchUpMax is the longest jump of virtual time caught up.
	CatchUpMax = 10 * time.Minute
	// CatchUpNodes is the most nodes a cluster caught up may have.
	CatchUpNodes = 200
)

// CatchUpTimes are the virtual times (since the simulation started) at
// which to observe the rules between the last observation at last and
// now, when more than a second passed since (the +1 s button, a kubectl
// command that waited), so that a rule broken only for a while in
// between is not missed: every second strictly between them. None for a
// cluster of more than CatchUpNodes nodes or a jump longer than
// CatchUpMax, where replaying would stall the page.
func CatchUpTimes(last, now time.Duration, nodes int) []time.Duration {
	if now-last <= time.Second || now-last > CatchUpMax || nodes > CatchUpNodes {
		return nil
	}
	var out []time.Duration
	for t := last + time.Second; t < now; t += time.Second {
		out = append(out, t)
	}
	return out
}

// SolutionLines are the solution section's lines as written: commands
// and assertions (an exercise's lesson steps are its sections); nil for
// a scenario without one.
func (it *Item) SolutionLines() []string {
	for _, st := range it.Steps() {
		if strings.EqualFold(strings.TrimSpace(st.Title), "solution") {
			return st.Commands
		}
	}
	return nil
}

// SolutionCommands are the solution's commands (assertions and blank
// lines left out).
func (it *Item) SolutionCommands() []string {
	var out []string
	for _, l := range it.SolutionLines() {
		if l = strings.TrimSpace(l); l != "" && !IsAssertion(l) {
			out = append(out, l)
		}
	}
	return out
}

// fileArgs are the files a scenario line names with -f / --filename (as
// kubectl reads the flag: `-f X`, `-f=X`, `-fX`, `--filename X`,
// `--filename=X`, each a comma-separated list), after kubectl's
// command-line parser split it; none when it does not parse.
func fileArgs(line string) []string {
	args, err := kubectl.ParseCommandLine(strings.TrimPrefix(strings.TrimSpace(line), "! "))
	if err != nil {
		return nil
	}
	var out []string
	for i := 0; i < len(args); i++ {
		a, v := args[i], ""
		switch {
		case a == "--":
			return out
		case a == "-f" || a == "--filename":
			if i+1 >= len(args) {
				return out
			}
			i++
			v = args[i]
		case strings.HasPrefix(a, "--filename="):
			v = strings.TrimPrefix(a, "--filename=")
		case strings.HasPrefix(a, "-f") && !strings.HasPrefix(a, "--"):
			v = strings.TrimPrefix(strings.TrimPrefix(a, "-f"), "=")
		default:
			continue
		}
		for _, f := range strings.Split(v, ",") {
			if f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// AppliedFile is the last of the item's files that lines apply
// (`kubectl apply|create|replace -f NAME`), "" if none: the page puts it
// in the editor.
func (it *Item) AppliedFile(lines []string) string {
	name := ""
	for _, l := range lines {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "! "))
		if len(f) < 2 || f[0] != "kubectl" || (f[1] != "apply" && f[1] != "create" && f[1] != "replace") {
			continue
		}
		for _, n := range fileArgs(l) {
			if _, ok := it.sc.Files[n]; ok {
				name = n
			}
		}
	}
	return name
}

// SolutionFiles are the item's files cmds name with -f, sorted.
func (it *Item) SolutionFiles(cmds []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cmds {
		for _, n := range fileArgs(c) {
			if _, ok := it.sc.Files[n]; ok && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}
