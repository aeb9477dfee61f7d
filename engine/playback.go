package engine

import (
	"time"

	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Playback replays a Recorder's input log from the start on a Simulation
// of its own, one input at a time and an Advance in pieces, so a shell can
// show a recorded session happen again at a pace a person follows (a
// share link just opened, a classmate's session). The same Simulation
// moves on throughout, so consecutive scenes of it diff into the stage's
// transitions (DiffScenes). The Recorder's live Simulation and its replay
// cursor are not touched; the log is read as it is at each Step. Same
// inputs, same seed: the playback reaches the live state exactly.
type Playback struct {
	r   *Recorder
	sim *Simulation
	// n inputs are done; adv is the virtual time done of inputs[n] when it
	// is an Advance.
	n     int
	adv   time.Duration
	edits map[int]*kubectl.EditSession
}

// Playback starts a playback of r's log: a new Simulation with r's
// Options, no input done.
func (r *Recorder) Playback() *Playback {
	return &Playback{r: r, sim: New(r.opts), edits: map[int]*kubectl.EditSession{}}
}

// Sim is the playback's Simulation: read it, never act on it.
func (p *Playback) Sim() *Simulation { return p.sim }

// Done reports whether every input of the log has been played.
func (p *Playback) Done() bool { return p.n >= len(p.r.inputs) }

// Next is the input Step plays next, and false when Done.
func (p *Playback) Next() (Input, bool) {
	if p.Done() {
		return Input{}, false
	}
	return p.r.inputs[p.n], true
}

// Step plays on: the next input whole or, when it is an Advance, at most
// max of its remaining virtual time (max <= 0: all of it). wait, when not
// nil, is called after each virtual step of a kubectl command that waits
// (delete, drain, rollout status; see Recorder.RunWatched), so a shell can
// show the wait as it happens. It reports the index of the input stepped
// (-1 when Done) and whether that input is now finished.
func (p *Playback) Step(max time.Duration, wait func()) (idx int, finished bool) {
	if p.Done() {
		return -1, false
	}
	in := &p.r.inputs[p.n]
	idx = p.n
	if in.Kind == InputAdvance {
		d := in.D - p.adv
		if max > 0 && max < d {
			d = max
		}
		p.sim.Advance(d)
		p.adv += d
		if p.adv < in.D {
			return idx, false
		}
	} else {
		exec(p.sim, in, idx, p.edits, wait)
	}
	p.n, p.adv = p.n+1, 0
	return idx, true
}
