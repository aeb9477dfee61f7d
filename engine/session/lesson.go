package session

import (
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/scenario"
	"golang.org/x/tools/txtar"
)

// Lesson is the state of an open lesson: the step shown, what each step
// played reported, and whether the learner changed the cluster between
// steps. The page draws it and plays its steps (Player) in slow motion.
type Lesson struct {
	Item  *Item
	Steps []LessonStep
	// Player plays the lesson's steps on the page's Recorder; nil when the
	// lesson was attached to a cluster it did not play (a share link) or
	// the Recorder changed ("Continue from here"): the next step then
	// plays through Item.LinesPlayer.
	Player *Player
	// Shown is the step shown: 0 the introduction (after the setup ran),
	// 1..LastStep() a step (its commands ran), LastStep()+1 the end.
	Shown int
	// Failures are the failed assertions of each step played.
	Failures map[int][]string
	// After is the number of the Recorder's inputs when the last step
	// finished; Touched marks the steps played after the learner changed
	// the cluster (their failures may be the learner's doing).
	After   int
	Touched map[int]bool
}

// NewLesson returns the state of lesson it (parsed) before its setup
// played: no Player yet.
func NewLesson(it *Item) *Lesson {
	return &Lesson{Item: it, Steps: it.Steps(), Failures: map[int][]string{}, Touched: map[int]bool{}}
}

// LastStep is the index of the lesson's last step.
func (l *Lesson) LastStep() int { return len(l.Steps) - 1 }

// Finished reports whether the end is shown (every step played).
func (l *Lesson) Finished() bool { return l.Shown > l.LastStep() }

// AnyFailure reports whether a played step's assertions failed.
func (l *Lesson) AnyFailure() bool {
	for _, f := range l.Failures {
		if len(f) > 0 {
			return true
		}
	}
	return false
}

// AllFailures are the failures of every step, in step order.
func (l *Lesson) AllFailures() []string {
	var out []string
	for i := 0; i <= l.LastStep(); i++ {
		out = append(out, l.Failures[i]...)
	}
	return out
}

// StepTitle is the title of what is shown: "Introduction", the step's
// title, or "" at the end.
func (l *Lesson) StepTitle() string {
	switch {
	case l.Shown == 0:
		return "Introduction"
	case l.Shown <= l.LastStep():
		return l.Steps[l.Shown].Title
	}
	return ""
}

// Mark records in p how far the lesson went: the furthest step shown,
// and Done (with the last step) once the end is shown.
func (l *Lesson) Mark(p Progress) {
	r := p.Lesson(l.Item.ID)
	if l.Shown > r.Step && l.Shown <= l.LastStep() {
		r.Step = l.Shown
	}
	if l.Finished() {
		r.Done = true
		r.Step = l.LastStep()
	}
}

// IsAssertion reports whether a scenario line is an assertion on the
// previous command's output (`[!] stdout|stderr ...`: not shown as a
// command to run).
func IsAssertion(line string) bool {
	l := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "!"))
	return strings.HasPrefix(l, "stdout ") || strings.HasPrefix(l, "stderr ") || l == "stdout" || l == "stderr"
}

// IsKubectl reports whether a scenario line (with or without "! ") is a
// kubectl command.
func IsKubectl(cmd string) bool {
	c := strings.TrimPrefix(strings.TrimSpace(cmd), "! ")
	return strings.HasPrefix(c, "kubectl ") || c == "kubectl"
}

// CommandLines are a step's commands as a terminal would show them
// typed: "$ kubectl ..." for kubectl, "# advance 30s" for the playground's
// other commands; comments, blank lines and assertions left out, a
// leading "! " dropped. nil when nothing is left.
func CommandLines(cmds []string) []string {
	var out []string
	for _, c := range cmds {
		c = strings.TrimSpace(c)
		if c == "" || strings.HasPrefix(c, "#") || IsAssertion(c) {
			continue
		}
		c = strings.TrimPrefix(c, "! ")
		if strings.HasPrefix(c, "kubectl ") {
			out = append(out, "$ "+c)
		} else {
			out = append(out, "# "+c)
		}
	}
	return out
}

// EntryInputs ties each entry of a played step to one Recorder input,
// for the timeline's marks: the first input its line made
// (Entry.Inputs); for an entry that made none (decisions, expect, a wait
// that did not need to wait), the latest input an earlier entry of the
// step made; -1 for a comment and for an entry before any input.
func EntryInputs(es []Entry) []int {
	out := make([]int, len(es))
	last := -1
	for i, e := range es {
		switch {
		case e.Comment:
			out[i] = -1
		case len(e.Inputs) > 0:
			out[i] = e.Inputs[0]
			last = max(last, e.Inputs[len(e.Inputs)-1])
		default:
			out[i] = last
		}
	}
	return out
}

// LinesPlayer returns a Player of a scenario made of lines (commands and
// assertions, as written) and the item's files, on rec: its step 0 runs
// them. It plays a lesson's step, or an exercise's solution, on a
// Recorder the item's own Player is not bound to (after "Continue from
// here", or on a share link's replay). The error is the lines' parse
// error (scenario.MalformedError).
func (it *Item) LinesPlayer(lines []string, rec *engine.Recorder) (*Player, error) {
	ar := &txtar.Archive{Comment: []byte(strings.Join(lines, "\n") + "\n")}
	names := make([]string, 0, len(it.sc.Files))
	for n := range it.sc.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ar.Files = append(ar.Files, txtar.File{Name: n, Data: []byte(it.sc.Files[n])})
	}
	part, err := scenario.Parse(it.sc.Name, txtar.Format(ar))
	if err != nil {
		return nil, err
	}
	return scenario.NewPlayer(part, rec), nil
}

// LearnerActed reports whether ins holds an action after from that was
// not time passing (the learner's, between two steps of a lesson).
func LearnerActed(ins []engine.Input, from int) bool {
	for _, in := range ins[min(from, len(ins)):] {
		if in.Kind != engine.InputAdvance {
			return true
		}
	}
	return false
}

// Actions counts the inputs of ins that are not time passing.
func Actions(ins []engine.Input) int {
	n := 0
	for _, in := range ins {
		if in.Kind != engine.InputAdvance {
			n++
		}
	}
	return n
}

// HasWork reports whether ins holds any action of the learner's: time
// passing is none, and neither is the example the page applies at load
// (file set and applied with text; text "" when the page applied none).
func HasWork(ins []engine.Input, file, text string) bool {
	for _, in := range ins {
		switch {
		case in.Kind == engine.InputAdvance:
		case (in.Kind == engine.InputSetFile || in.Kind == engine.InputApply) && in.Name == file &&
			text != "" && in.Text == text:
		default:
			return true
		}
	}
	return false
}
