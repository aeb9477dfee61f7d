package session

import "github.com/dsplayground/dsplay/engine"

// Aside is the learner's own cluster, kept while lessons, exercises, share
// links and imported scenarios are opened over it, until Restore. Only the
// learner's own is kept: what is opened over it (and any work done there)
// never takes its place, so after any sequence of links, lessons and
// imports, restoring brings back the cluster the learner had before the
// first of them.
type Aside struct {
	rec    *engine.Recorder
	editor string
}

// Open is called before the page replaces its cluster cur (editor: the
// editor's text) with something opened over it. cur is set aside when no
// cluster is yet (so cur is the learner's own), it is not itself an opened
// item's cluster (opened: a lesson's or an exercise's), and it holds work of
// the learner's (HasWork: not only time passing or the page's example, file
// set and applied with text). It reports whether cur was set aside now;
// when a cluster was set aside before, cur was opened over it and is dropped.
func (s *Aside) Open(cur *engine.Recorder, editor string, opened bool, file, example string) bool {
	if s.rec != nil || cur == nil || opened || !HasWork(cur.Inputs(), file, example) {
		return false
	}
	s.rec, s.editor = cur, editor
	return true
}

// Hold sets rec aside with the editor's text (the learner's own cluster
// given back from the browser's storage at load), unless one is held.
func (s *Aside) Hold(rec *engine.Recorder, editor string) {
	if s.rec == nil {
		s.rec, s.editor = rec, editor
	}
}

// Peek returns the cluster set aside and its editor text, keeping them.
func (s *Aside) Peek() (*engine.Recorder, string) { return s.rec, s.editor }

// Held returns the cluster set aside, or nil.
func (s *Aside) Held() *engine.Recorder { return s.rec }

// Restore takes the cluster set aside and the editor's text with it (nil
// when none is): afterwards none is held, and the next Open sets aside the
// cluster then shown.
func (s *Aside) Restore() (*engine.Recorder, string) {
	rec, text := s.rec, s.editor
	s.rec, s.editor = nil, ""
	return rec, text
}
