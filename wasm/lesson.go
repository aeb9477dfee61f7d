//go:build js && wasm

package main

// initLessons sets up the lesson player, the exercises and the gallery
// (owned by the lessons work; called once from start, after exposeHooks).
func (a *app) initLessons() {}
