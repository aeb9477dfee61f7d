//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
)

// maxConsoleBlocks bounds the kubectl output kept on screen.
const maxConsoleBlocks = 200

// console is the one-line kubectl box and its output.
type console struct {
	a       *app
	in, out js.Value
	history []string
	pos     int // index into history while browsing with the arrows
	blocks  int
}

func newConsole(a *app, doc dom.Document) *console {
	c := &console{a: a, in: byID("kubectl"), out: byID("kout")}
	a.listen(doc.GetElementByID("kubectl"), "keydown", func(ev dom.Event) {
		switch ev.Underlying().Get("key").String() {
		case "Enter":
			ev.PreventDefault()
			line := c.in.Get("value").String()
			c.in.Set("value", "")
			c.run(line)
		case "ArrowUp":
			if c.pos > 0 {
				ev.PreventDefault()
				c.pos--
				c.in.Set("value", c.history[c.pos])
			}
		case "ArrowDown":
			if c.pos < len(c.history) {
				ev.PreventDefault()
				c.pos++
				if c.pos == len(c.history) {
					c.in.Set("value", "")
				} else {
					c.in.Set("value", c.history[c.pos])
				}
			}
		}
	})
	c.note("Type a kubectl command and press Enter, e.g. kubectl get pods -o wide\n" +
		"The editor's text is the file " + manifestFile + " (kubectl apply -f " + manifestFile + ").\n")
	return c
}

// run executes one command line and shows what kubectl would print. The
// view redraws at once to animate the consequence.
func (c *console) run(line string) engine.Output {
	c.a.flushJobs() // an Apply clicked before this command lands first
	line = strings.TrimSpace(line)
	if line == "" {
		return engine.Output{}
	}
	if len(c.history) == 0 || c.history[len(c.history)-1] != line {
		c.history = append(c.history, line)
	}
	c.pos = len(c.history)
	if line == "clear" {
		clear(c.out)
		c.blocks = 0
		return engine.Output{}
	}
	if strings.Contains(line, manifestFile) {
		// The editor's text is the file manifest.yaml: keep it current.
		if n := c.a.ed.ta.Get("textLength").Int(); n <= maxEditorBytes {
			c.a.sim.Files[manifestFile] = c.a.ed.ta.Get("value").String()
		}
	}
	out := c.a.sim.Run(line)
	c.echoChunks(line, out.Chunks)
	c.a.view.render(false)
	return out
}

// echo appends a command and its output: stdout, then stderr.
func (c *console) echo(cmd, stdout, stderr string) {
	c.echoChunks(cmd, []engine.Chunk{{Text: stdout}, {Stderr: true, Text: stderr}})
}

// echoChunks appends a command and its output in the order kubectl wrote
// it, as a terminal shows it: stdout as is, stderr in another colour.
func (c *console) echoChunks(cmd string, chunks []engine.Chunk) {
	b := el("div", "block")
	b.Call("appendChild", textEl("span", "cmd", "$ "+cmd+"\n"))
	last := len(chunks) - 1 // the last chunk with text
	for last >= 0 && chunks[last].Text == "" {
		last--
	}
	for i, ch := range chunks {
		if ch.Text == "" {
			continue
		}
		cls := "stdout"
		if ch.Stderr {
			cls = "stderr"
		}
		text := ch.Text
		// Each block ends on a new line, as the next prompt would.
		if i == last && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		b.Call("appendChild", textEl("span", cls, text))
	}
	c.push(b)
}

func (c *console) note(s string) { c.push(textEl("div", "note", s)) }

func (c *console) push(b js.Value) {
	c.out.Call("appendChild", b)
	c.blocks++
	for c.blocks > maxConsoleBlocks {
		first := c.out.Get("firstChild")
		if first.IsNull() {
			break
		}
		remove(first)
		c.blocks--
	}
	c.out.Set("scrollTop", c.out.Get("scrollHeight"))
}
