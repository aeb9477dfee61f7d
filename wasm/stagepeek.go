//go:build js && wasm

package main

import (
	"strconv"
	"syscall/js"
)

// The stage peek: when a transition plays on an object outside the
// window (a phone's console is below the cluster; a laptop scrolled to
// the editor), a small button at the window's edge says what is happening
// and where ("▲ evicted: taint … · in the cluster"); a tap scrolls the
// object into view. It hides once nothing has played off-screen for
// peekMs.

// peekMs is how long (wall ms) the peek stays after the last transition
// that played off-screen.
const peekMs = 2600

type stagePeek struct {
	btn    js.Value
	target js.Value
	until  float64 // performance.now() ms it hides at
}

func newStagePeek(st *stage) *stagePeek {
	pk := &stagePeek{btn: byID("stage-peek"), target: js.Undefined()}
	if !pk.btn.Truthy() {
		return pk
	}
	f := js.FuncOf(func(js.Value, []js.Value) any {
		defer st.v.a.recoverAt("stage peek")
		if pk.target.Truthy() && pk.target.Get("isConnected").Bool() {
			behavior := "smooth"
			if st.reduced {
				behavior = "auto"
			}
			pk.target.Call("scrollIntoView", map[string]any{"block": "center", "behavior": behavior})
		}
		pk.hide()
		return nil
	})
	st.v.a.funcs = append(st.v.a.funcs, f) // released at shutdown
	pk.btn.Call("addEventListener", "click", f)
	return pk
}

// played notes that caption played on target: when target is outside
// the window, the peek shows it.
func (pk *stagePeek) played(target js.Value, caption string) {
	if !pk.btn.Truthy() || !target.Truthy() || caption == "" {
		return
	}
	r := target.Call("getBoundingClientRect")
	h := global.Get("innerHeight").Float()
	var arrow string
	switch {
	case r.Get("bottom").Float() < 0:
		arrow = "▲ "
	case r.Get("top").Float() > h:
		arrow = "▼ "
	default:
		return
	}
	pk.target = target
	pk.until = nowMs() + peekMs
	pk.btn.Set("textContent", arrow+caption)
	pk.btn.Set("title", "Show it in the cluster")
	pk.btn.Get("classList").Call("toggle", "up", arrow == "▲ ")
	if top := document.Call("querySelector", ".topbar"); arrow == "▲ " && top.Truthy() {
		// below the sticky top bar
		b := max(top.Call("getBoundingClientRect").Get("bottom").Float(), 0)
		pk.btn.Get("style").Call("setProperty", "--peek-top", strconv.Itoa(int(b)+8)+"px")
	}
	pk.btn.Set("hidden", false)
}

// frame hides the peek when its time is up.
func (pk *stagePeek) frame(now float64) {
	if pk.btn.Truthy() && pk.until > 0 && now >= pk.until {
		pk.hide()
	}
}

func (pk *stagePeek) hide() {
	pk.until = 0
	pk.target = js.Undefined()
	pk.btn.Set("hidden", true)
}
