// Package session is what a learner's session is, apart from the page that
// shows it: the share link and scenario export/import formats (an
// engine.Recorder's Options and input log, written as a txtar scenario
// that `dsplay run` also runs), the YAML export of a cluster's objects,
// the replay of a shared or imported scenario within the page's limits
// (wall-clock budget, node cap, Size counted before anything runs), the
// timeline's replay to a step, and lesson and exercise state. It is pure
// Go (no syscall/js), deterministic, and tested natively; the wasm shell
// calls it and draws what it returns.
package session
