package scenario

import "strings"

// Meta is a scenario's header metadata (see the package doc, "Header").
type Meta struct {
	// Kind is KindLesson, KindExercise or "" (a plain scenario).
	Kind string
	// Title and Summary are the `# title:` and `# summary:` lines; Task the
	// `# task:` lines joined with spaces.
	Title, Summary, Task string
	// Hints are the `# hint:` lines in file (reveal) order.
	Hints []string
	// Order and Level are the `# order:` and `# level:` integers (0 when
	// absent).
	Order, Level int
}

// Meta returns the header metadata (a copy).
func (sc *Scenario) Meta() Meta {
	m := sc.meta
	m.Hints = append([]string(nil), m.Hints...)
	return m
}

// LessonStep is one step of a lesson: a `## Title` heading, its
// explanation and its commands. Step 0 is "Setup", the commands before the
// first heading (its Text is the header's free-text comments).
type LessonStep struct {
	// Title is the heading's text ("Setup" for step 0).
	Title string
	// Text is the explanation: the `#` lines right after the heading
	// without their `# ` prefix, joined with "\n"; a bare `#` line is an
	// empty line (a paragraph break). Markdown-lite: `code`.
	Text string
	// Commands are the step's command and assertion lines as written
	// (comments between commands are left out; the Player's entries show
	// them).
	Commands []string
	// Line is the heading's line in the file (0 for step 0).
	Line int
}

// Lesson returns the steps of the file as a lesson: step 0 "Setup", then
// one step per `## Title` heading. Any scenario can be cut this way; an
// exercise's steps are its sections.
func (sc *Scenario) Lesson() []LessonStep {
	steps := []LessonStep{{Title: "Setup", Text: strings.TrimSpace(strings.Join(sc.intro, "\n"))}}
	for _, ls := range sc.lessonSteps() {
		if ls.heading == nil {
			steps[0].Commands = ls.commands()
			continue
		}
		steps = append(steps, LessonStep{Title: ls.heading.comment, Text: ls.text(), Commands: ls.commands(), Line: ls.heading.line})
	}
	return steps
}

// lessonStep is the run of steps of one lesson step: heading (nil for
// step 0) and the lines up to the next heading.
type lessonStep struct {
	heading *step
	steps   []step
}

// lessonSteps cuts sc.steps at the headings; the first element is step 0
// (heading nil), always present.
func (sc *Scenario) lessonSteps() []lessonStep {
	out := []lessonStep{{}}
	for i := range sc.steps {
		st := &sc.steps[i]
		if st.verb == "heading" {
			out = append(out, lessonStep{heading: st})
			continue
		}
		last := &out[len(out)-1]
		last.steps = append(last.steps, *st)
	}
	return out
}

// text is the explanation: the comment lines before the first command.
func (ls lessonStep) text() string {
	var lines []string
	for _, st := range ls.steps {
		if st.verb != "comment" {
			break
		}
		t := strings.TrimPrefix(st.text, "#")
		lines = append(lines, strings.TrimPrefix(t, " "))
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// commands are the command and assertion lines as written.
func (ls lessonStep) commands() []string {
	var out []string
	for _, st := range ls.steps {
		if st.verb != "comment" {
			out = append(out, st.text)
		}
	}
	return out
}

// body is the step's lines without its leading explanation (for step 0,
// the header): what playing the step runs and shows.
func (ls lessonStep) body() []step {
	i := 0
	for i < len(ls.steps) && ls.steps[i].verb == "comment" {
		i++
	}
	return ls.steps[i:]
}
