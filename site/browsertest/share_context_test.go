package browsertest

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// Share links made while an exercise or a lesson is open (wasm/share.go,
// shareContext): the link reopens the same cluster with the exercise's
// panel (same task, the goal checked on the replayed cluster) or the
// lesson at the step reached, and the editor's text.

// goalChecks is what the exercise's goal shows: "✓/✗ text" per check.
func goalChecks(st exerciseState) []string {
	var out []string
	for _, c := range st.Checks {
		m := "✗"
		if c.OK {
			m = "✓"
		}
		out = append(out, m+" "+c.Text)
	}
	return out
}

// shareAndReopen makes p's share link and opens it (paused) in a new tab.
func (p *page) shareAndReopen() *page {
	p.t.Helper()
	info := evalAwait[map[string]any](p, `dsplay.shareLink()`)
	link, _ := info["url"].(string)
	if !strings.Contains(link, "#s=") || info["tooLong"] != false {
		p.t.Fatalf("dsplay.shareLink() = %v", info)
	}
	return openURL(p.t, strings.Replace(link, "/#s=", "/?paused#s=", 1))
}

func TestShareLinkKeepsTheExercise(t *testing.T) {
	p := open(t, "?paused")
	p.forgetProgress()
	const id = "03-ssd-nodes"
	p.openExerciseFromGallery(id)
	// part of the work: a label from the console, the advance of time, and
	// the manifest edited in the editor but not applied yet
	p.runKubectl("kubectl label nodes node-3 disktype=ssd")
	p.advance(5)
	edited := strings.Replace(eval[string](p, `document.getElementById("yaml").value`), "name: ssd-monitor", "name: ssd-monitor # half done", 1)
	eval[bool](p, `(document.getElementById("yaml").value = `+jsString(edited)+`, document.getElementById("yaml").dispatchEvent(new Event("input")), true)`)
	time.Sleep(600 * time.Millisecond) // the automatic check (checkDelayMs)
	p.frames(3)
	p.click(`#lesson-nav [data-act="check"]`)
	want, task, cluster := p.exerciseState(), eval[string](p, `document.querySelector("#lesson-body .ex-task").textContent`), p.state()
	if !want.Checked || len(want.Checks) < 3 {
		t.Fatalf("the original's exercise state: %+v", want)
	}

	q := p.shareAndReopen()
	// open as soon as the page is ready (openURL waited for it)
	if !eval[bool](q, `!document.getElementById("lesson").hidden && document.getElementById("lesson").dataset.id === "`+id+`"`) {
		t.Fatalf("no exercise panel in the reopened tab\n%s", q.describe())
	}
	got := q.exerciseState()
	t.Logf("goal checks: %v", goalChecks(got))
	if got.ID != id || !got.Checked {
		t.Fatalf("reopened exercise state: %+v", got)
	}
	if a, b := goalChecks(want), goalChecks(got); !reflect.DeepEqual(a, b) {
		t.Errorf("the goal's checks differ.\noriginal: %v\nreopened: %v", a, b)
	}
	if b := eval[string](q, `document.querySelector("#lesson-body .ex-task").textContent`); b != task {
		t.Errorf("task %q, the original's %q", b, task)
	}
	if b := eval[string](q, `document.getElementById("yaml").value`); b != edited {
		t.Errorf("the reopened editor holds %q, the original %q", b, edited)
	}
	if b := q.state(); !reflect.DeepEqual(b, cluster) {
		t.Errorf("the reopened link shows another cluster.\nshared:   %+v\nreopened: %+v", cluster, b)
	}
	// the setup did not run twice: the inputs are the original's
	if a, b := eval[int](p, `dsplay.steps().length`), eval[int](q, `dsplay.steps().length`); a != b {
		t.Errorf("%d timeline steps reopened, %d in the original", b, a)
	}
	// the hints are there
	if got.HintsTotal == 0 || got.HintsTotal != want.HintsTotal {
		t.Errorf("hints: %d reopened, %d in the original", got.HintsTotal, want.HintsTotal)
	}
	q.checkConsole()
	p.checkConsole()
}

func TestShareLinkKeepsTheLessonStep(t *testing.T) {
	p := open(t, "?paused")
	const id = "01-one-pod-per-node"
	if msg := eval[string](p, `dsplay.openLesson("`+id+`")`); msg != "" {
		t.Fatal(msg)
	}
	for i := 0; i < 2; i++ {
		if msg := eval[string](p, `dsplay.nextStep()`); msg != "" {
			t.Fatal(msg)
		}
		p.waitJS(`!dsplay.lessonState().busy`, "the step to play")
	}
	want, cluster := p.lessonState(), p.state()
	if want.Step != 2 {
		t.Fatalf("the original lesson: %+v", want)
	}
	q := p.shareAndReopen()
	if !eval[bool](q, `!document.getElementById("lesson").hidden && document.getElementById("lesson").dataset.id === "`+id+`"`) {
		t.Fatalf("no lesson panel in the reopened tab\n%s", q.describe())
	}
	got := q.lessonState()
	if got.ID != id || got.Step != 2 || got.StepTitle != want.StepTitle {
		t.Errorf("reopened lesson %+v, the original %+v", got, want)
	}
	if b := q.state(); !reflect.DeepEqual(b, cluster) {
		t.Errorf("the reopened link shows another cluster.\nshared:   %+v\nreopened: %+v", cluster, b)
	}
	if a, b := eval[string](p, `document.getElementById("yaml").value`), eval[string](q, `document.getElementById("yaml").value`); a != b {
		t.Errorf("the reopened editor holds %q, the original %q", b, a)
	}
	// Next plays on from the shared step
	if msg := eval[string](q, `dsplay.nextStep()`); msg != "" {
		t.Fatal(msg)
	}
	q.waitJS(`!dsplay.lessonState().busy`, "the next step to play")
	if st := q.lessonState(); st.Step != 3 && !st.Finished {
		t.Errorf("after Next: %+v", st)
	}
	q.checkConsole()
	p.checkConsole()
}
