//go:build js && wasm

package main

import (
	"fmt"
	"math"
	"syscall/js"
)

// A thin raw syscall/js layer for the many small elements (node cards, pod
// chips, log lines): dom/v2 wraps every element it returns by testing it
// against dozens of types, which costs 10x more than creating it.

var (
	global   = js.Global()
	document = global.Get("document")
)

// el creates an element with a class.
func el(tag, class string) js.Value {
	e := document.Call("createElement", tag)
	if class != "" {
		e.Set("className", class)
	}
	return e
}

// textEl creates an element with a class and text content.
func textEl(tag, class, text string) js.Value {
	e := el(tag, class)
	e.Set("textContent", text)
	return e
}

// appendAll appends children to parent.
func appendAll(parent js.Value, children ...js.Value) js.Value {
	for _, c := range children {
		parent.Call("appendChild", c)
	}
	return parent
}

// clear removes every child of e.
func clear(e js.Value) { e.Set("textContent", "") }

// remove detaches e from its parent.
func remove(e js.Value) { e.Call("remove") }

// trimChildren caps a list of parent's children the caller counts in
// count: while count > max it removes the child at end ("firstChild" for
// the oldest of a list that appends, "lastChild" of one that prepends),
// stopping early if parent runs out of children. It returns the new count.
func trimChildren(parent js.Value, end string, count, max int) int {
	for count > max {
		child := parent.Get(end)
		if child.IsNull() {
			break
		}
		remove(child)
		count--
	}
	return count
}

// byID returns the element with this id (raw).
func byID(id string) js.Value { return document.Call("getElementById", id) }

// numberArg is hook argument i as a finite number in [lo, hi], or an
// error naming what it is for (a script's dsplay call gets an error value,
// never a panic or a page run out of memory).
func numberArg(args []js.Value, i int, what string, lo, hi float64) (float64, error) {
	if i >= len(args) || args[i].Type() != js.TypeNumber {
		return 0, fmt.Errorf("%s: want a number", what)
	}
	f := args[i].Float()
	if math.IsNaN(f) || f < lo || f > hi {
		return 0, fmt.Errorf("%s %v: want a number from %v to %v", what, f, lo, hi)
	}
	return f, nil
}

// intArg is numberArg for a whole number.
func intArg(args []js.Value, i int, what string, lo, hi int) (int, error) {
	f, err := numberArg(args, i, what, float64(lo), float64(hi))
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("%s %v: want a whole number", what, f)
	}
	return int(f), nil
}
