package browsertest

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// scriptComments returns the comment lines of a scenario's script (not
// its headings), as written.
func scriptComments(t *testing.T, file string) []string {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "..", "examples", file))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(a.Comment), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "##") {
			out = append(out, l)
		}
	}
	return out
}

// Played, lesson 3 shows its commands in the console, and the author's
// comments between them as notes, never as commands ("$ # ...").
func TestLessonCommentsAreNotCommands(t *testing.T) {
	comments := scriptComments(t, filepath.Join("lessons", "03-taints-and-tolerations.txtar"))
	p := open(t, "?paused")
	if msg := eval[string](p, `dsplay.openLesson("03-taints-and-tolerations")`); msg != "" {
		t.Fatalf("openLesson: %s", msg)
	}
	for i := 0; i < 20 && !p.lessonState().Finished; i++ {
		p.click(`#lesson-nav button[data-act=next]`)
		p.waitJS(`!dsplay.lessonState().busy`, "the step")
	}
	if !p.lessonState().Finished {
		t.Fatalf("the lesson did not finish: %+v", p.lessonState())
	}
	cmds := eval[[]string](p, `[...document.querySelectorAll("#kout .cmd")].map(e => e.textContent.trim())`)
	if len(cmds) < 10 {
		t.Fatalf("the console shows %d commands: %q", len(cmds), cmds)
	}
	for _, c := range cmds {
		for _, com := range comments {
			if c == "$ "+com || c == "$ # "+strings.TrimSpace(strings.TrimPrefix(com, "#")) {
				t.Errorf("the comment %q is shown as the command %q", com, c)
			}
		}
	}
	// the comment between the commands of a step reads as a note
	notes := eval[string](p, `[...document.querySelectorAll("#kout .note")].map(e => e.textContent).join("\n")`)
	if !strings.Contains(notes, "Each round takes a minute") {
		t.Errorf("the notes lack the step's comment \"Each round takes a minute\":\n%s", notes)
	}
	p.checkConsole()
}

// litStars matches *text* or **text** shown literally.
var litStars = regexp.MustCompile(`\*\*?[^\s*][^*]*\*`)

// Lesson and exercise texts render *emphasis* as <em> and **strong** as
// <strong>, with no literal asterisks (the parser's tests in wasm/ show
// that markup in a text stays text).
func TestLessonTextEmphasis(t *testing.T) {
	p := open(t, "?paused")
	if msg := eval[string](p, `dsplay.openLesson("05-rollingupdate-vs-ondelete")`); msg != "" {
		t.Fatalf("openLesson: %s", msg)
	}
	found := false
	for i := 0; i < 10 && !found; i++ {
		p.click(`#lesson-nav button[data-act=next]`)
		p.waitJS(`!dsplay.lessonState().busy`, "the step")
		found = eval[bool](p, `document.getElementById("lesson-body").textContent.includes("decides what happens at the")`)
	}
	if !found {
		t.Fatal("no step of lesson 05 says what the strategy decides")
	}
	if got := eval[[]string](p, `[...document.querySelectorAll("#lesson-body em")].map(e => e.textContent)`); !strings.Contains(strings.Join(got, ","), "next") {
		t.Errorf("the step's emphasis: %q, want next", got)
	}
	if body := eval[string](p, `document.getElementById("lesson-body").textContent`); litStars.MatchString(body) {
		t.Errorf("the step shows literal asterisks: %q", litStars.FindAllString(body, -1))
	}
	// an exercise's hint: "what a *new* pod will look like"
	if msg := eval[string](p, `dsplay.openExercise("07-ondelete-canary")`); msg != "" {
		t.Fatalf("openExercise: %s", msg)
	}
	for i := 0; i < 5 && eval[bool](p, `!!document.querySelector("#lesson-body button[data-act=hint]")`); i++ {
		p.click(`#lesson-body button[data-act=hint]`)
	}
	if body := eval[string](p, `[...document.querySelectorAll("#lesson-body .ex-task, #lesson-body .ex-hints")].map(e => e.textContent).join("\n")`); litStars.MatchString(body) {
		t.Errorf("the exercise's task and hints show literal asterisks: %q", litStars.FindAllString(body, -1))
	}
	if got := eval[int](p, `document.querySelectorAll("#lesson-body .ex-hints em").length`); got == 0 {
		t.Error("the exercise's hints show no emphasis")
	}
	p.checkConsole()
}
