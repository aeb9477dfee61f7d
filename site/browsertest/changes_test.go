package browsertest

import (
	"strings"
	"testing"
)

// "changed in v1.xx" notes (session.Changes): under the output that shows
// the change, once per page, never inside kubectl's own output.
func TestChangedInNotes(t *testing.T) {
	p := open(t, "?paused")
	p.advance(20)
	p.runKubectl("kubectl taint nodes node-1 team=a:NoSchedule")
	p.advance(1)
	p.runKubectl("kubectl get ds")
	notes := func() []string {
		return eval[[]string](p, `[...document.querySelectorAll("#kout .changed-note")].map(n => n.textContent)`)
	}
	if got := notes(); len(got) != 1 || !strings.HasPrefix(got[0], "changed in v1.33: DESIRED") {
		t.Fatalf("notes after get ds: %q", got)
	}
	stdout, _ := p.lastOutput()
	if strings.Contains(stdout, "changed in") {
		t.Errorf("the note is inside kubectl's output: %q", stdout)
	}
	p.runKubectl("kubectl get ds")
	pod := eval[string](p, `dsplay.pods().find(x => x.node === "node-2").name`)
	p.runKubectl("kubectl delete pod --wait=false " + pod)
	got := notes()
	if len(got) != 2 || !strings.HasPrefix(got[1], "changed in v1.34: kubectl delete names the namespace") {
		t.Errorf("notes after a second get ds and a delete: %q", got)
	}
	p.checkConsole()
}
