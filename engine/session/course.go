package session

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// The scenario types a lesson or an exercise hands the page, which only
// passes them through (engine/scenario defines them).
type (
	// Meta is a scenario's header metadata (scenario.Meta).
	Meta = scenario.Meta
	// LessonStep is one step of a lesson (scenario.LessonStep).
	LessonStep = scenario.LessonStep
	// Player plays a scenario's steps on a Recorder (scenario.Player).
	Player = scenario.Player
	// StepResult is what playing a step did (scenario.StepResult).
	StepResult = scenario.StepResult
	// Entry is one line of a played step (scenario.Entry).
	Entry = scenario.Entry
	// Check is the outcome of one goal line or invariant (scenario.Check).
	Check = scenario.Check
	// GoalResult is the outcome of an exercise's goal (scenario.GoalResult).
	GoalResult = scenario.GoalResult
	// Invariants are an exercise's `always` rules as observed
	// (scenario.Invariants).
	Invariants = scenario.Invariants
)

// The kinds of course item (a scenario's `# kind:`).
const (
	KindLesson   = scenario.KindLesson
	KindExercise = scenario.KindExercise
)

// Item is one lesson or exercise of the course: a txtar scenario file,
// parsed on first use (parsing every item takes about 0.4 s in wasm, so
// the page parses them in the background and on demand). Not safe for
// concurrent use.
type Item struct {
	// ID is the file's ID (its name without the extension, e.g.
	// "01-one-pod-per-node"), File its name.
	ID, File string
	data     []byte
	parsed   bool
	sc       *scenario.Scenario
	meta     Meta
	err      error
}

// NewItem returns the item of a scenario file; kind (KindLesson or
// KindExercise, from its directory) is its kind until the file is parsed,
// and after when the file names none.
func NewItem(id, file string, data []byte, kind string) *Item {
	return &Item{ID: id, File: file, data: data, meta: Meta{Kind: kind}}
}

// Parse parses the item's scenario once; the error is the file's (as
// Err returns it after).
func (it *Item) Parse() error {
	if it.parsed {
		return it.err
	}
	it.parsed = true
	kind := it.meta.Kind
	it.sc, it.err = scenario.Parse(it.File, it.data)
	if it.err == nil {
		it.meta = it.sc.Meta()
		if it.meta.Kind == "" {
			it.meta.Kind = kind
		}
	}
	return it.err
}

// Parsed reports whether Parse ran.
func (it *Item) Parsed() bool { return it.parsed }

// Err is why the file does not parse (nil before Parse, or when it does).
func (it *Item) Err() error { return it.err }

// Meta is the item's metadata: before Parse (or when the file does not
// parse) only its Kind. Its Hints must not be modified.
func (it *Item) Meta() Meta { return it.meta }

// Exercise reports whether the item is an exercise.
func (it *Item) Exercise() bool { return it.meta.Kind == KindExercise }

// Title is the `# title:`, or the ID when there is none.
func (it *Item) Title() string {
	if it.meta.Title != "" {
		return it.meta.Title
	}
	return it.ID
}

// Options are the engine options the scenario asks for (`cluster empty`,
// `cluster seed N`): the Recorder a Player uses is made with them. The
// item must be parsed.
func (it *Item) Options() engine.Options { return it.sc.Options() }

// Steps are the scenario's lesson steps (step 0 the setup; an exercise's
// steps are its sections). The item must be parsed.
func (it *Item) Steps() []LessonStep { return it.sc.Lesson() }

// FileText is the text of the scenario's file name ("" if none).
func (it *Item) FileText(name string) string { return it.sc.Files[name] }

// NewPlayer returns a Player of the scenario on rec. The item must be
// parsed.
func (it *Item) NewPlayer(rec *engine.Recorder) *Player { return scenario.NewPlayer(it.sc, rec) }

// CheckGoal checks the exercise's goal on sim without changing it, one
// check per assertion (MergeGoalChecks).
func (it *Item) CheckGoal(sim *engine.Simulation) GoalResult {
	return MergeGoalChecks(it.sc.CheckGoal(sim))
}

// Invariants are the exercise's `always` rules, not observed yet.
func (it *Item) Invariants() *Invariants { return it.sc.Invariants() }

// Course is the lessons and the exercises the page offers.
type Course struct {
	// Lessons and Exercises are in file-name order until Ordered sorts
	// them in course order.
	Lessons, Exercises []*Item
	sorted             bool
}

// All is the lessons, then the exercises.
func (c *Course) All() []*Item {
	return append(append([]*Item(nil), c.Lessons...), c.Exercises...)
}

// Ordered parses every item (once) and sorts each list in course order:
// `# order:` (where both items have one), then the file name.
func (c *Course) Ordered() {
	if c.sorted {
		return
	}
	c.sorted = true
	for _, list := range [][]*Item{c.Lessons, c.Exercises} {
		for _, it := range list {
			it.Parse()
		}
		sort.SliceStable(list, func(i, j int) bool {
			oi, oj := list[i].meta.Order, list[j].meta.Order
			if oi != oj && oi != 0 && oj != 0 {
				return oi < oj
			}
			return list[i].File < list[j].File
		})
	}
}

// Find returns the lesson (or, kind KindExercise, the exercise) named id:
// its ID, its file name, or the file name without ".txtar"; nil if none.
func (c *Course) Find(id, kind string) *Item {
	list := c.Lessons
	if kind == KindExercise {
		list = c.Exercises
	}
	for _, it := range list {
		if it.ID == id || it.File == id || strings.TrimSuffix(it.File, ".txtar") == id {
			return it
		}
	}
	return nil
}

// Next is the item after it in course order (lessons, then exercises)
// that parses; nil after the last.
func (c *Course) Next(it *Item) *Item {
	c.Ordered()
	all := c.All()
	for i, x := range all {
		if x == it {
			for _, y := range all[i+1:] {
				if y.err == nil {
					return y
				}
			}
		}
	}
	return nil
}

// NextExercise is the exercise after it in course order (nil for the
// last).
func (c *Course) NextExercise(it *Item) *Item {
	c.Ordered()
	for i, e := range c.Exercises {
		if e == it && i+1 < len(c.Exercises) {
			return c.Exercises[i+1]
		}
	}
	return nil
}

// Progress is what the page remembers of the learner's work (it keeps it
// in localStorage), as JSON:
//
//	{"exercises": {"ID": {"solved": true, "hints": 2, "solution": false}},
//	 "lessons":   {"ID": {"done": true, "step": 7}}}
type Progress struct {
	Exercises map[string]*ExerciseProgress `json:"exercises"`
	Lessons   map[string]*LessonProgress   `json:"lessons"`
}

// ExerciseProgress is an exercise's record. Solved: the goal held with no
// `always` invariant broken, by the learner's own actions (not by the
// solution's button); Hints: how many hints were revealed (the most ever,
// so a restart does not hide them again); Solution: the solution was
// shown.
type ExerciseProgress struct {
	Solved   bool `json:"solved,omitempty"`
	Hints    int  `json:"hints,omitempty"`
	Solution bool `json:"solution,omitempty"`
}

// LessonProgress is a lesson's record. Done: the lesson was played to its
// end; Step: the furthest step reached.
type LessonProgress struct {
	Done bool `json:"done,omitempty"`
	Step int  `json:"step,omitempty"`
}

// ParseProgress reads stored progress. Anything unreadable (no value, not
// JSON, the wrong shapes, negative counts) gives what could be read and
// an empty record for the rest: a corrupt entry never stops the page.
func ParseProgress(s string) Progress {
	p := Progress{Exercises: map[string]*ExerciseProgress{}, Lessons: map[string]*LessonProgress{}}
	var raw struct {
		Exercises map[string]json.RawMessage `json:"exercises"`
		Lessons   map[string]json.RawMessage `json:"lessons"`
	}
	if json.Unmarshal([]byte(s), &raw) != nil {
		return p
	}
	for id, m := range raw.Exercises {
		var e ExerciseProgress
		if id == "" || json.Unmarshal(m, &e) != nil {
			continue
		}
		e.Hints = max(e.Hints, 0)
		p.Exercises[id] = &e
	}
	for id, m := range raw.Lessons {
		var l LessonProgress
		if id == "" || json.Unmarshal(m, &l) != nil {
			continue
		}
		l.Step = max(l.Step, 0)
		p.Lessons[id] = &l
	}
	return p
}

// String is the JSON stored.
func (p Progress) String() string {
	b, err := json.Marshal(p)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// Exercise is exercise id's record, created empty when there is none.
func (p Progress) Exercise(id string) *ExerciseProgress {
	e := p.Exercises[id]
	if e == nil {
		e = &ExerciseProgress{}
		p.Exercises[id] = e
	}
	return e
}

// Lesson is lesson id's record, created empty when there is none.
func (p Progress) Lesson(id string) *LessonProgress {
	l := p.Lessons[id]
	if l == nil {
		l = &LessonProgress{}
		p.Lessons[id] = l
	}
	return l
}

// Text is the gallery's line of progress for it: "✓ solved", "solution
// shown", "2 hints used" (joined with " · ") for an exercise; "✓ done" or
// "reached step 3" for a lesson; "" when there is none.
func (p Progress) Text(it *Item) string {
	if it.Exercise() {
		e := p.Exercises[it.ID]
		if e == nil {
			return ""
		}
		var parts []string
		switch {
		case e.Solved:
			parts = append(parts, "✓ solved")
		case e.Solution:
			parts = append(parts, "solution shown")
		}
		if e.Hints > 0 {
			parts = append(parts, plural(e.Hints, "hint")+" used")
		}
		return strings.Join(parts, " · ")
	}
	l := p.Lessons[it.ID]
	if l == nil {
		return ""
	}
	if l.Done {
		return "✓ done"
	}
	if l.Step > 0 {
		return "reached step " + strconv.Itoa(l.Step)
	}
	return ""
}

// Done reports whether it is solved (an exercise) or played to its end
// (a lesson).
func (p Progress) Done(it *Item) bool {
	if it.Exercise() {
		e := p.Exercises[it.ID]
		return e != nil && e.Solved
	}
	l := p.Lessons[it.ID]
	return l != nil && l.Done
}

// plural is "1 word" or "N words".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}
