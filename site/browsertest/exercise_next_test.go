package browsertest

import (
	"fmt"
	"testing"
)

// solvedShown is a JS expression: how many visible elements of the panel
// say "Solved ✓" (the status line counts only when it is not the screen
// readers' copy).
const solvedShown = `(function(){
	let n = 0;
	for (const e of document.querySelectorAll("#lesson *")) {
		if (e.children.length > 0 && ![...e.childNodes].some(c => c.nodeType === 3 && c.textContent.includes("Solved ✓"))) continue;
		if (!e.textContent.includes("Solved ✓") || e.closest(".sr-only") || !e.getClientRects().length) continue;
		n++;
	}
	return n;
})()`

// An exercise solved by the learner says so once, and offers the next
// exercise, which opens.
func TestExerciseSolvedOnceWithNext(t *testing.T) {
	p := open(t, "?paused")
	p.forgetProgress()
	var ids []string
	for _, it := range eval[[]lessonItem](p, `dsplay.lessons()`) {
		if it.Kind == "exercise" {
			ids = append(ids, it.ID)
		}
	}
	if len(ids) < 2 {
		t.Fatalf("exercises %v, want at least two", ids)
	}
	p.openExerciseFromGallery(ids[0])
	p.runKubectl(`kubectl patch ds fluentd-elasticsearch -p '{"spec":{"template":{"spec":{"tolerations":[{"key":"node-role.kubernetes.io/control-plane","operator":"Exists","effect":"NoSchedule"}]}}}}'`)
	for i := 0; i < 120 && !p.exerciseState().Solved; i++ {
		p.advance(1)
		p.frames(2)
	}
	p.waitJS(`!!document.querySelector("#lesson-body .ex-solved")`, "the panel to say solved")
	p.frames(3)
	if n := eval[int](p, solvedShown); n != 1 {
		t.Errorf("the panel shows Solved ✓ %d times, want once (status line %q)", n, eval[string](p, `document.getElementById("lesson-status").textContent`))
	}
	p.screenshot("exercise-solved-next")
	p.click(`#lesson-body button[data-act=open][data-kind=exercise]`)
	p.waitJS(fmt.Sprintf(`document.getElementById("lesson").dataset.id === %q`, ids[1]), "the next exercise to open")
	if eval[bool](p, `!!document.querySelector("#lesson-body .ex-solved")`) {
		t.Error("the next exercise opens solved")
	}
	p.checkConsole()
}
