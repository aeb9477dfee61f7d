package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// agentYAML is the DaemonSet agent (busybox:1.36) the watch and edit
// tests apply.
var agentYAML = enginetest.DaemonSetYAML("", "agent", "busybox:1.36")

// TestRunWatch checks the Output.Watch contract: Run prints the initial
// table, Poll returns the rows of later changes without a header, and
// nothing once stopped.
func TestRunWatch(t *testing.T) {
	s := New(Options{})
	s.Files["a.yaml"] = agentYAML
	s.Run("kubectl apply -f a.yaml")
	out := s.Run("kubectl get pods -w")
	if out.Watch == nil || !out.Watch.Active() {
		t.Fatalf("no active watch: %+v", out)
	}
	if !strings.HasPrefix(out.Stdout, "NAME ") || strings.Count(out.Stdout, "\n") != 3 {
		t.Fatalf("initial table:\n%s", out.Stdout)
	}
	var later strings.Builder
	for i := 0; i < 20; i++ {
		s.Advance(time.Second)
		for _, c := range out.Watch.Poll() {
			if c.Stderr {
				t.Errorf("watch wrote to stderr: %q", c.Text)
			}
			later.WriteString(c.Text)
		}
	}
	if strings.Contains(later.String(), "NAME") || strings.Count(later.String(), "Running") != 2 {
		t.Errorf("watch lines:\n%s", later.String())
	}
	out.Watch.Stop()
	s.Run("kubectl delete pods -l app=agent --wait=false")
	s.Advance(5 * time.Second)
	if c := out.Watch.Poll(); c != nil || out.Watch.Active() {
		t.Errorf("stopped watch printed %v", c)
	}
	if o := s.Run("kubectl get pods"); o.Watch != nil {
		t.Errorf("a plain get returned a watch")
	}
}

// TestFinishEdit checks the Output.Edit contract: the editor text, an
// edit that is applied and rolls the DaemonSet out, and a reopened editor
// after a validation error.
func TestFinishEdit(t *testing.T) {
	s := New(Options{})
	s.Files["a.yaml"] = agentYAML
	s.Run("kubectl apply -f a.yaml")
	s.Advance(30 * time.Second)
	out := s.Run("kubectl edit ds agent")
	if out.Edit == nil || !strings.HasPrefix(out.Edit.Text, "# Please edit the object below.") || out.Stdout != "" {
		t.Fatalf("edit: %+v", out)
	}
	done := s.FinishEdit(out.Edit, strings.Replace(out.Edit.Text, "image: busybox:1.36", "image: busybox:1.37", 1))
	if done.Stdout != "daemonset.apps/agent edited\n" || done.Edit != nil || done.ExitCode != 0 {
		t.Fatalf("finish: %+v", done)
	}
	s.Advance(2 * time.Minute)
	if got := s.Run("kubectl get pods -o jsonpath={.items[*].spec.containers[0].image}").Stdout; got != "busybox:1.37 busybox:1.37" {
		t.Errorf("pods after the edit rolled out: %q", got)
	}
	out = s.Run("kubectl edit ds agent")
	bad := s.FinishEdit(out.Edit, strings.Replace(out.Edit.Text, "  revisionHistoryLimit: 10\n", "  minReadySeconds: -1\n  revisionHistoryLimit: 10\n", 1))
	if bad.Edit == nil || !strings.Contains(bad.Edit.Text, "# daemonsets.apps \"agent\" was not valid:\n# * spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0\n#\n") ||
		bad.Stderr != "error: daemonsets.apps \"agent\" is invalid\n" {
		t.Fatalf("want the editor reopened with the errors: %+v", bad)
	}
	end := s.FinishEdit(bad.Edit, bad.Edit.Text)
	if end.ExitCode != 1 || end.Edit != nil || !strings.Contains(end.Stderr, "Edit cancelled, no valid changes were saved.") {
		t.Errorf("end: %+v", end)
	}
}
