//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dsplayground/dsplay/engine/kubectl"
)

// consoleWatch is a running `kubectl get -w`: the lines it prints as
// virtual time runs go under its command's block, until the next command
// or Ctrl+C.
type consoleWatch struct {
	w     *kubectl.Watch
	block js.Value // the command's .block
	entry js.Value // the log item holding it
}

// startWatch keeps polling w into block after each step of virtual time.
func (c *console) startWatch(w *kubectl.Watch, block js.Value) {
	c.stopWatch()
	if !w.Active() {
		return
	}
	c.watch = &consoleWatch{w: w, block: block, entry: block.Get("parentElement")}
	block.Get("classList").Call("add", "watching")
	c.in.Set("placeholder", "watching: Ctrl+C or the next command stops it")
}

// pollWatch shows what the running watch printed since the last poll
// (called after every step of virtual time). The log follows the new
// lines only when it was scrolled to its end, so reading older output is
// not interrupted.
func (c *console) pollWatch() {
	if c.watch == nil {
		return
	}
	chunks := c.watch.w.Poll()
	if len(chunks) > 0 {
		atEnd := c.out.Get("scrollHeight").Float()-c.out.Get("scrollTop").Float()-c.out.Get("clientHeight").Float() < 24
		c.appendChunks(c.watch.block, chunks)
		if atEnd {
			c.scrollToEnd()
		}
	}
	if !c.watch.w.Active() {
		c.stopWatch()
	}
}

// stopWatch ends the running watch; it reports whether one was running.
func (c *console) stopWatch() bool {
	if c.watch == nil {
		return false
	}
	c.watch.w.Stop()
	c.watch.block.Get("classList").Call("remove", "watching")
	c.watch = nil
	c.in.Set("placeholder", "kubectl get pods -o wide")
	return true
}

// interruptWatch is Ctrl+C during a watch: the watch stops and "^C" ends
// its output, as in a terminal.
func (c *console) interruptWatch() bool {
	if c.watch == nil {
		return false
	}
	b := c.watch.block
	c.stopWatch()
	b.Call("appendChild", textEl("span", "cmd", "^C\n"))
	c.scrollToEnd()
	return true
}
