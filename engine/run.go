package engine

import (
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Output is what a kubectl command line printed and its exit status
// (0 success, 1 error), as a terminal would show it.
type Output struct {
	Stdout, Stderr string
	ExitCode       int
}

// Run executes one kubectl command line against the simulation, e.g.
// `kubectl get pods -o wide` ("kubectl" or "k" prefix optional), then lets
// the components settle at the current virtual time. Commands that block in
// real kubectl (delete waiting for the object to go) advance virtual time.
func (s *Simulation) Run(line string) Output {
	env := &kubectl.Env{
		Cluster: s.Cluster,
		Files:   s.Files,
		Settle:  s.Settle,
		Advance: s.Advance,
	}
	args, err := kubectl.ParseCommandLine(line)
	if err != nil {
		return Output{Stderr: "error: " + err.Error() + "\n", ExitCode: 1}
	}
	r := kubectl.Run(env, args)
	s.Settle()
	return Output{Stdout: r.Stdout, Stderr: r.Stderr, ExitCode: r.ExitCode}
}
