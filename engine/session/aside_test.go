package session

import (
	"testing"

	"github.com/dsplayground/dsplay/engine"
)

// The learner's own cluster stays set aside whatever is opened over it:
// share link 1, link 2, a lesson, an import; restoring gives it back, not
// link 1's.
func TestAsideKeepsTheLearnersOwn(t *testing.T) {
	const file, example = "manifest.yaml", "example"
	own := engine.NewRecorder(engine.Options{})
	own.Apply(file, example) // the page's example: no work
	var s Aside
	if s.Open(own, "", false, file, example) || s.Held() != nil {
		t.Fatal("a cluster holding only the page's example was set aside")
	}
	own.Run("kubectl label nodes node-1 mine=yes")
	if !s.Open(own, "my text", false, file, example) {
		t.Fatal("the learner's own cluster was not set aside")
	}

	link1 := engine.NewRecorder(engine.Options{})
	link1.Run("kubectl label nodes node-2 link=one")
	link1.Run("kubectl taint nodes node-2 k=v:NoSchedule") // worked on after opening
	if s.Open(link1, "link 1 text", false, file, example) {
		t.Error("link 1's cluster took the place of the learner's own")
	}
	link2 := engine.NewRecorder(engine.Options{})
	link2.Run("kubectl label nodes node-2 link=two")
	if s.Open(link2, "", false, file, example) {
		t.Error("link 2's cluster took the place of the learner's own")
	}
	lesson := engine.NewRecorder(engine.Options{})
	lesson.Run("kubectl label nodes node-1 lesson=yes")
	if s.Open(lesson, "", true, file, example) {
		t.Error("a lesson's cluster was set aside")
	}
	if s.Held() != own {
		t.Fatal("Held is not the learner's own cluster")
	}
	rec, text := s.Restore()
	if rec != own || text != "my text" {
		t.Fatalf("Restore gave %p %q, want the learner's own %p %q", rec, text, own, "my text")
	}
	if r, _ := s.Restore(); r != nil || s.Held() != nil {
		t.Error("a cluster is still held after Restore")
	}

	// Once restored, the cluster shown is the learner's again: the next
	// item opened sets it aside.
	if !s.Open(own, "my text", false, file, example) || s.Held() != own {
		t.Error("after Restore, opening a link did not set the learner's cluster aside")
	}
}

// With no work of the learner's set aside, the first cluster with work
// that is not an item's own is kept (a link opened over an empty page and
// worked on is all the learner has).
func TestAsideFirstWithWork(t *testing.T) {
	var s Aside
	empty := engine.NewRecorder(engine.Options{})
	if s.Open(empty, "", false, "f", "") {
		t.Fatal("an empty cluster was set aside")
	}
	link := engine.NewRecorder(engine.Options{})
	link.Run("kubectl label nodes node-1 a=b")
	if s.Open(link, "", true, "f", "") {
		t.Fatal("an opened item's cluster was set aside")
	}
	if !s.Open(link, "", false, "f", "") || s.Held() != link {
		t.Fatal("the worked-on cluster was not set aside")
	}
}
