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
	// Watch is set when the command was `kubectl get -w` (or
	// --watch-only), or a watching `kubectl rollout status` under
	// Options.StreamRolloutStatus: after each step of virtual time (each frame), call
	// Watch.Poll and show the chunks it returns under this command's
	// output; call Watch.Stop when the next command runs. Nil otherwise.
	Watch *kubectl.Watch
	// Edit is set when the command was `kubectl edit` and the editor
	// opens: put Edit.Text in the editor, and when the learner saves, call
	// FinishEdit with the saved text (an Output whose Edit is set again
	// means the editor reopens with the errors at the top). Nil otherwise.
	Edit *kubectl.EditSession
}

// Chunk is a piece of a command's output: text written to stderr when
// Stderr is true, else to stdout. Adjacent pieces of the same stream are
// merged, so consecutive Chunks alternate between the streams.
type Chunk = kubectl.Chunk

// Run executes one kubectl command line against the simulation, e.g.
// `kubectl get pods -o wide` ("kubectl" or "k" prefix optional), then lets
// the components settle at the current virtual time. Commands that block in
// real kubectl (delete waiting for the object to go) advance virtual time.
func (s *Simulation) Run(line string) Output { return s.runStepped(line, nil) }

// runStepped is Run with step, when not nil, called before every step of
// virtual time a waiting command takes (Recorder.RunWatched).
func (s *Simulation) runStepped(line string, step func()) Output {
	env := &kubectl.Env{
		Cluster: s.store,
		Files:   s.Files,
		Settle:  s.Settle,
		Advance: s.Advance,

		StreamRolloutStatus: s.streamRollout,
		KubeletStoppedSince: s.store.NodeLeaseRenewalEnded,
	}
	if step != nil {
		env.Stop = func() error { step(); return nil }
	}
	args, err := kubectl.ParseCommandLine(line)
	if err != nil {
		msg := "error: " + err.Error() + "\n"
		return Output{Stderr: msg, Chunks: []Chunk{{Stderr: true, Text: msg}}, ExitCode: 1}
	}
	r := kubectl.Run(env, args)
	s.Settle()
	if r.Watch != nil {
		// what the settle changed shows as the watch's first lines
		w := r.Watch
		for _, c := range w.Poll() {
			kubectl.AppendChunk(&r.Chunks, c.Stderr, c.Text)
			if c.Stderr {
				r.Stderr += c.Text
			} else {
				r.Stdout += c.Text
			}
		}
	}
	return outputOf(r)
}

func outputOf(r kubectl.Result) Output {
	return Output{Stdout: r.Stdout, Stderr: r.Stderr, Chunks: r.Chunks, ExitCode: r.ExitCode, Watch: r.Watch, Edit: r.Edit}
}

// FinishEdit ends an editor round of `kubectl edit` with the text the
// learner saved (see kubectl.EditSession.Finish), then lets the components
// settle at the current virtual time. The Output's Edit is set again when
// the editor reopens (a validation or syntax error).
func (s *Simulation) FinishEdit(e *kubectl.EditSession, text string) Output {
	r := e.Finish(text)
	s.Settle()
	return outputOf(r)
}
