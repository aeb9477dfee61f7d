package engine

import (
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Output is what a kubectl command line printed and its exit status
// (0 success, 1 error), as a terminal would show it.
type Output struct {
	// Stdout and Stderr are everything written to each stream.
	Stdout, Stderr string
	// Chunks is the same text in the order kubectl wrote it, stdout and
	// stderr interleaved (a warning before the result line, a drain's
	// `node/x cordoned`, then its warning, then the evictions). Print
	// Chunks, not Stdout then Stderr, to show what a terminal shows.
	Chunks   []Chunk
	ExitCode int
}

// Chunk is a piece of a command's output: text written to stderr when
// Stderr is true, else to stdout. Adjacent pieces of the same stream are
// merged, so consecutive Chunks alternate between the streams.
type Chunk = kubectl.Chunk

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
		msg := "error: " + err.Error() + "\n"
		return Output{Stderr: msg, Chunks: []Chunk{{Stderr: true, Text: msg}}, ExitCode: 1}
	}
	r := kubectl.Run(env, args)
	s.Settle()
	return Output{Stdout: r.Stdout, Stderr: r.Stderr, Chunks: r.Chunks, ExitCode: r.ExitCode}
}
