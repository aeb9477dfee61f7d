package session

import (
	"reflect"
	"testing"
)

func TestParseProgress(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		ex       map[string]ExerciseProgress
		ls       map[string]LessonProgress
	}{
		{name: "empty", in: ""},
		{name: "not JSON", in: "{exercises"},
		{name: "wrong shape", in: `[1,2]`},
		{name: "wrong field types", in: `{"exercises": "x", "lessons": 3}`},
		{name: "good", in: `{"exercises":{"01-a":{"solved":true,"hints":2},"02-b":{"solution":true}},"lessons":{"01-x":{"done":true,"step":6}}}`,
			ex: map[string]ExerciseProgress{"01-a": {Solved: true, Hints: 2}, "02-b": {Solution: true}},
			ls: map[string]LessonProgress{"01-x": {Done: true, Step: 6}}},
		{name: "one bad entry keeps the others", in: `{"exercises":{"01-a":{"solved":"yes"},"02-b":{"hints":1},"":{"solved":true}},"lessons":{"01-x":[]}}`,
			ex: map[string]ExerciseProgress{"02-b": {Hints: 1}}},
		{name: "negative counts", in: `{"exercises":{"a":{"hints":-3}},"lessons":{"b":{"step":-1}}}`,
			ex: map[string]ExerciseProgress{"a": {}}, ls: map[string]LessonProgress{"b": {}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := ParseProgress(tc.in)
			gotEx := map[string]ExerciseProgress{}
			for k, v := range p.Exercises {
				gotEx[k] = *v
			}
			gotLs := map[string]LessonProgress{}
			for k, v := range p.Lessons {
				gotLs[k] = *v
			}
			if tc.ex == nil {
				tc.ex = map[string]ExerciseProgress{}
			}
			if tc.ls == nil {
				tc.ls = map[string]LessonProgress{}
			}
			if !reflect.DeepEqual(gotEx, tc.ex) || !reflect.DeepEqual(gotLs, tc.ls) {
				t.Errorf("ParseProgress(%q) = %v %v, want %v %v", tc.in, gotEx, gotLs, tc.ex, tc.ls)
			}
			// what is stored reads back the same
			back := ParseProgress(p.String())
			if !reflect.DeepEqual(back, p) {
				t.Errorf("round trip: %v, want %v", back, p)
			}
		})
	}
}

func TestProgressAccessorsCreate(t *testing.T) {
	p := ParseProgress("")
	p.Exercise("e").Hints = 2
	p.Lesson("l").Done = true
	if got := p.String(); got != `{"exercises":{"e":{"hints":2}},"lessons":{"l":{"done":true}}}` {
		t.Errorf("stored %s", got)
	}
}

// The gallery's progress lines and done marks.
func TestProgressText(t *testing.T) {
	p := ParseProgress(`{"exercises":{"a":{"solved":true,"hints":1},"b":{"solution":true,"hints":2},"c":{}},"lessons":{"x":{"done":true,"step":4},"y":{"step":3},"z":{}}}`)
	for _, tc := range []struct {
		id, kind, want string
		done           bool
	}{
		{"a", KindExercise, "✓ solved · 1 hint used", true},
		{"b", KindExercise, "solution shown · 2 hints used", false},
		{"c", KindExercise, "", false},
		{"none", KindExercise, "", false},
		{"x", KindLesson, "✓ done", true},
		{"y", KindLesson, "reached step 3", false},
		{"z", KindLesson, "", false},
		{"none", KindLesson, "", false},
	} {
		it := NewItem(tc.id, tc.id+".txtar", nil, tc.kind)
		if got, done := p.Text(it), p.Done(it); got != tc.want || done != tc.done {
			t.Errorf("%s %s: %q done %v, want %q done %v", tc.kind, tc.id, got, done, tc.want, tc.done)
		}
	}
}

// The course: items parse on demand, sort by `# order:` then file name,
// are found by ID or file name, and lead to the next one that parses.
func TestCourse(t *testing.T) {
	l := func(file, src string) *Item {
		return NewItem(file[:len(file)-len(".txtar")], file, []byte(src), KindLesson)
	}
	e := func(file, src string) *Item {
		return NewItem(file[:len(file)-len(".txtar")], file, []byte(src), KindExercise)
	}
	const ex = "# kind: exercise\n# title: E\n# task: t\nkubectl get nodes\n\n## goal\nexpect node/node-1 exists\n\n## solution\nkubectl get nodes\n"
	c := &Course{
		Lessons: []*Item{
			l("a.txtar", "# title: A\n# order: 3\nkubectl get nodes\n"),
			l("b.txtar", "# order: 1\nkubectl get nodes\n"),
			l("z.txtar", "nonsense line\n"),
			l("d.txtar", "# order: 2\nkubectl get nodes\n"),
		},
		Exercises: []*Item{e("y.txtar", ex), e("x.txtar", ex)},
	}
	if it := c.Find("a", KindLesson); it == nil || it.Parsed() || it.Title() != "a" || it.Meta().Kind != KindLesson {
		t.Fatalf("before parsing: %+v", it)
	}
	c.Ordered()
	var order []string
	for _, it := range c.All() {
		order = append(order, it.ID)
	}
	if want := []string{"b", "d", "a", "z", "x", "y"}; !reflect.DeepEqual(order, want) {
		t.Errorf("course order %q, want %q", order, want)
	}
	a := c.Find("a.txtar", KindLesson)
	if a == nil || a.Title() != "A" || a.Exercise() || a.Err() != nil {
		t.Errorf("a: %+v", a)
	}
	if it := c.Find("z", KindLesson); it.Err() == nil || it.Parse() == nil {
		t.Error("a malformed file parsed")
	}
	if c.Find("x", KindLesson) != nil || c.Find("x.txtar", KindExercise) == nil || c.Find("zz", KindExercise) != nil {
		t.Error("Find looked in the wrong list")
	}
	b := c.Find("b", KindLesson)
	if n := c.Next(b); n == nil || n.ID != "d" {
		t.Errorf("Next(b) = %+v, want d", n)
	}
	if n := c.Next(a); n == nil || n.ID != "x" || !n.Exercise() {
		t.Errorf("Next(a) = %+v, want the first exercise (z does not parse)", n)
	}
	x, y := c.Find("x", KindExercise), c.Find("y", KindExercise)
	if c.Next(y) != nil || c.NextExercise(x) != y || c.NextExercise(y) != nil {
		t.Error("the last items lead somewhere")
	}
	if x.Err() != nil || x.Meta().Task != "t" || x.Title() != "E" || x.FileText("none") != "" {
		t.Errorf("x: %+v", x.Meta())
	}
}
