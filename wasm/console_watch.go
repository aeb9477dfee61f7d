//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"github.com/dsplayground/dsplay/engine"
)

// consoleWatch is a running `kubectl get -w` (or `kubectl rollout
// status`): the lines it prints as virtual time runs go under its
// command's block, which stays last in the log while other commands run
// (the block scrolls by itself past half the log's height, fitWatch), until Ctrl+C
// or another watch.
type consoleWatch struct {
	w     *engine.Watch
	block js.Value // the command's .block
	entry js.Value // the log item holding it
}

// startWatch keeps polling w into block after each step of virtual time.
func (c *console) startWatch(w *engine.Watch, block js.Value) {
	c.stopWatch()
	if !w.Active() {
		return
	}
	c.watch = &consoleWatch{w: w, block: block, entry: block.Get("parentElement")}
	block.Get("classList").Call("add", "watching")
	c.fitWatch()
	c.in.Set("placeholder", "watching (other commands run beside it): Ctrl+C stops it")
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
		b := c.watch.block
		blockAtEnd := b.Get("scrollHeight").Float()-b.Get("scrollTop").Float()-b.Get("clientHeight").Float() < 24
		c.appendChunks(b, chunks)
		c.fitWatch()
		if blockAtEnd {
			b.Set("scrollTop", b.Get("scrollHeight"))
		}
		if atEnd {
			c.scrollToEnd()
		}
	}
	if !c.watch.w.Active() {
		c.stopWatch()
	}
}

// fitWatch caps the watching block at half the log's height (two lines
// at least), so the output of the commands run beside it shows above it.
func (c *console) fitWatch() {
	if c.watch == nil {
		return
	}
	line := 12.5 * 1.45 // .kout's font size and line height
	h := max(2*line, c.out.Get("clientHeight").Float()/2)
	c.watch.block.Get("style").Set("maxHeight", fmt.Sprintf("%.0fpx", h))
}

// stopWatch ends the running watch; it reports whether one was running.
func (c *console) stopWatch() bool {
	if c.watch == nil {
		return false
	}
	c.watch.w.Stop()
	c.watch.block.Get("classList").Call("remove", "watching")
	c.watch.block.Get("style").Set("maxHeight", "")
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
