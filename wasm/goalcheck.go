//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"
)

// The exercise panel's status line and focus. What a goal's checks say
// (one per assertion, in words) is engine/session's (MergeGoalChecks).

// clearStatus empties the panel's status line (an item opens: the last
// item's "Lesson finished." or "Solved ✓" is not this one's).
func (u *lessonsUI) clearStatus() {
	u.status.Get("classList").Call("remove", "sr-only")
	u.status.Set("textContent", "")
}

// dropSolvedStatus clears the status line while the exercise is not
// solved (a rule broke, the goal stopped holding) if it still says it is:
// the panel never shows "Solved" beside a broken rule.
func (u *lessonsUI) dropSolvedStatus() {
	if x := u.ex; x == nil || x.Solved {
		return
	}
	if s := u.status.Get("textContent").String(); strings.HasPrefix(s, "Solved") || strings.HasPrefix(s, "The goal holds") {
		u.clearStatus()
	}
}

// focusPanel moves the focus to el (the panel's heading or its Next
// button) as a lesson or exercise opens or steps. Embedded, a focus()
// would take the focus from the tutorial around the frame and scroll the
// parent page to it: there the focus moves only once the reader is
// working in the frame (document.hasFocus), and without scrolling.
func focusPanel(el js.Value) {
	if !embedMode() {
		el.Call("focus")
		return
	}
	if document.Call("hasFocus").Bool() {
		el.Call("focus", map[string]any{"preventScroll": true})
	}
}
