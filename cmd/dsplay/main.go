// Command dsplay runs DaemonSet Playground scenarios headless.
//
//	dsplay run FILE.txtar...
//
// prints each scenario's transcript (every command echoed as `$ command`
// followed by its output) and exits 0 when every assertion held, 1 when one
// failed, 2 for a malformed scenario or bad usage (DESIGN.md contract 3).
//
// Lessons (`# kind: lesson`) run as ordinary scenarios. An exercise
// (`# kind: exercise`) runs its setup, checks that its goal does not hold
// yet, runs its solution with its `always` invariants observed after every
// command and every virtual second, and checks that the goal holds: a
// teacher's exercises can be tested in CI. The file format is described in
// the documentation of package engine/scenario (go doc
// github.com/dsplayground/dsplay/engine/scenario).
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/dsplayground/dsplay/engine/scenario"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `usage: dsplay run FILE.txtar...

Runs each scenario on a fresh simulated cluster and prints its transcript.
Lessons run as ordinary scenarios. Exercises run their setup, check that
the goal does not hold yet, run the solution with the always invariants
observed after every command and every virtual second, and check the goal.
Exit status: 0 all assertions held, 1 an assertion failed, 2 malformed input.
File format: go doc github.com/dsplayground/dsplay/engine/scenario
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 || args[0] != "run" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	code := 0
	for i, file := range args[1:] {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(stderr, "dsplay: %v\n", err)
			return 2
		}
		sc, err := scenario.Parse(file, data)
		if err != nil {
			fmt.Fprintf(stderr, "dsplay: %v\n", err)
			return 2
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintf(stdout, "=== %s\n", file)
		res := sc.Run(stdout)
		if !res.OK() {
			fmt.Fprintf(stdout, "--- FAIL %s (%d failed)\n", file, len(res.Failures))
			code = 1
		} else {
			fmt.Fprintf(stdout, "--- ok %s\n", file)
		}
	}
	return code
}
