//go:build js && wasm

package main

import (
	"runtime"
	"syscall/js"
)

// memory is dsplay.memory(): what a long session holds, after a garbage
// collection. goHeapBytes is the Go heap's live bytes (runtime.MemStats
// HeapAlloc right after runtime.GC), goSysBytes what the Go runtime has
// taken from the WebAssembly memory, wasmBytes that memory's size (it
// only grows: a page's peak stays); the counts are the timeline's inputs,
// steps and checkpoints, the live cluster's events and decisions, the
// page's DOM elements and the Go callbacks it has made (js.FuncOf).
func (a *app) memory() map[string]any {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	wasm := 0.0
	if b := global.Get("__dsplayBoot"); b.Truthy() && b.Get("memoryBytes").Type() == js.TypeFunction {
		wasm = b.Call("memoryBytes").Float()
	}
	live := a.rec.Live()
	return map[string]any{
		"goHeapBytes":  float64(ms.HeapAlloc),
		"goSysBytes":   float64(ms.Sys),
		"wasmBytes":    wasm,
		"inputs":       len(a.rec.Inputs()),
		"steps":        len(a.rec.Steps()),
		"stepsThinned": a.rec.StepsThinned,
		"checkpoints":  len(a.rec.Checkpoints()),
		"events":       live.NumEvents(),
		"decisions":    live.NumDecisions(),
		"domNodes":     document.Call("getElementsByTagName", "*").Length(),
		"callbacks":    len(a.funcs),
	}
}
