package session

import "time"

// LagWindowMs is the wall time (ms) over which the page measures how fast
// virtual time runs (the "slower than chosen speed" note).
const LagWindowMs = 1000.0

// LagMeter measures the rate of virtual time over the last second of
// the page's animation frames (wall time in ms, performance.now()): it samples, at each frame's timestamp, the virtual time advanced
// by frames so far, so every cause of slowness counts — an Advance capped
// by the adaptive step, a frame whose wall step was clamped to
// maxFrameStep (a long frame, even of seconds, is lag), a frame spent on a
// queued Apply. A background tab gets no frames: the app resets the meter
// when the page is hidden and shown again (document visibilitychange), so
// that pause is not counted.
type LagMeter struct {
	samples []lagSample
	total   time.Duration // virtual time advanced since the first sample
}

// lagSample is the total virtual time advanced at a frame's timestamp (ms).
type lagSample struct {
	ts    float64
	total time.Duration
}

// Reset forgets the samples (play, pause, a change of speed).
func (m *LagMeter) Reset() { m.samples, m.total = m.samples[:0], 0 }

// Frame records a frame at timestamp ts (ms) that advanced v of virtual
// time, and reports whether, over at least the last 0.9 s of wall time,
// virtual time ran at less than 3/4 of speed (virtual per wall second).
func (m *LagMeter) Frame(ts float64, v time.Duration, speed float64) bool {
	if n := len(m.samples); n > 0 && ts < m.samples[n-1].ts {
		m.Reset()
	}
	m.total += v
	m.samples = append(m.samples, lagSample{ts: ts, total: m.total})
	// keep the newest sample at least LagWindowMs old, drop the older ones
	i := 0
	for i+1 < len(m.samples) && ts-m.samples[i+1].ts >= LagWindowMs {
		i++
	}
	if i > 0 {
		m.samples = append(m.samples[:0], m.samples[i:]...)
	}
	first := m.samples[0]
	wall := ts - first.ts
	if wall < 0.9*LagWindowMs {
		return false
	}
	virtMs := float64(m.total-first.total) / float64(time.Millisecond)
	return virtMs < 0.75*speed*wall
}
