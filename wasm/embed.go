//go:build js && wasm

package main

// initEmbed reads what the URL asks for (embed mode, a share link, a lesson
// or exercise, a manifest) and loads it; it reports whether it loaded a
// starting state of its own (false: start has the default example applied).
// Called once from start, after initLessons.
func (a *app) initEmbed() bool { return false }
