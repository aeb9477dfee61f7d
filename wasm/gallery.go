//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// initLessons sets up the lesson player, the exercises and the gallery
// (called once from start, after exposeHooks): window.dsplay.reset, then
// the gallery and the players (initLessonsUI, lesson.go).
func (a *app) initLessons() {
	o := global.Get("dsplay")
	if o.Truthy() {
		o.Set("reset", a.hook("dsplay.reset", func([]js.Value) any {
			if err := a.resetCluster(engine.Options{}); err != nil {
				return err.Error()
			}
			return ""
		}))
	}
	initLessonsUI(a)
}

// lessonsFrame runs once per animation frame (from frame, main.go): the
// open exercise observes its invariants and checks its goal by itself
// (exercise.go).
func (a *app) lessonsFrame() {
	if lessons != nil {
		lessons.frame()
	}
}

// progressKey names the learner's progress in the lessons and exercises
// (session.Progress, as JSON) in localStorage, after the page's prefix
// (storage: dsplay.progress.v1 on the full site).
const progressKey = "progress.v1"

// loadProgress reads the stored progress (empty when the page may not use
// localStorage or the value is corrupt).
func loadProgress() (p session.Progress) {
	p = session.ParseProgress("")
	defer func() { recover() }() // a throwing storage: nothing stored
	s, key, ok := storage(progressKey)
	if !ok {
		return p
	}
	v := s.Call("getItem", key)
	if v.Truthy() {
		p = session.ParseProgress(v.String())
	}
	return p
}

// saveProgress stores p; it reports whether it could (a sandboxed frame,
// blocked storage or a full quota cannot: the progress then lasts as long
// as the page).
func saveProgress(p session.Progress) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	s, key, ok := storage(progressKey)
	if !ok {
		return false
	}
	s.Call("setItem", key, p.String())
	return true
}
