package browsertest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Only the learner's own cluster is kept aside: they work, open share link
// 1, work there, open link 2, then a lesson; "Restore my cluster" brings
// back their own cluster, not link 1's.
func TestAsideKeepsOwnClusterOverLinksAndLesson(t *testing.T) {
	p := open(t, "?paused")
	p.runKubectl("kubectl label nodes node-1 mine=yes")
	p.advance(3)
	own := p.state()

	eval[any](p, fmt.Sprintf(`location.hash = "s=%s"`, fragment(t, "node add link-one\nadvance 5s\n")))
	p.waitJS(`dsplay.elapsed() === 5 && document.getElementById("import-restore") !== null`, "link 1 replayed")
	p.runKubectl("kubectl label nodes node-2 worked=on-link-1")

	eval[any](p, fmt.Sprintf(`location.hash = "s=%s"`, fragment(t, "node add link-two\nadvance 7s\n")))
	p.waitJS(`dsplay.elapsed() === 7 && document.getElementById("import-restore") !== null`, "link 2 replayed")
	note := eval[string](p, `document.getElementById("import-restore").parentElement.textContent`)
	if !strings.Contains(note, "t = 3.0 s") || !strings.Contains(note, "still set aside") {
		t.Errorf("link 2's note %q: want the learner's own cluster (t = 3.0 s) still set aside", note)
	}

	if msg := eval[string](p, `dsplay.openLesson("01-one-pod-per-node")`); msg != "" {
		t.Fatalf("openLesson: %s", msg)
	}
	p.waitJS(`!!document.querySelector("#lesson-nav button[data-act=restore]")`, "the lesson panel's Restore my cluster")
	title := eval[string](p, `document.querySelector("#lesson-nav button[data-act=restore]").title`)
	if !strings.Contains(title, "t = 3.0 s") {
		t.Errorf("the panel's restore button says %q, want the learner's own cluster (t = 3.0 s)", title)
	}
	p.click(`#lesson-nav button[data-act=restore]`)
	p.waitJS(`document.getElementById("kout").textContent.includes("Your own cluster is back")`, "the cluster restored")
	if got := p.state(); !reflect.DeepEqual(got, own) {
		t.Errorf("restored cluster is not the learner's own:\ngot  %+v\nwant %+v", got, own)
	}
	if out := eval[string](p, `dsplay.run("kubectl get nodes --show-labels").stdout`); !strings.Contains(out, "mine=yes") || strings.Contains(out, "link-") {
		t.Errorf("after restore, nodes:\n%s", out)
	}
	if eval[bool](p, `!document.getElementById("lessons-restore").hidden`) {
		t.Error("the gallery still offers a cluster to restore")
	}
	p.checkConsole()
}
