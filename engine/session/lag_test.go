package session

import (
	"testing"
	"time"
)

func TestLagMeter(t *testing.T) {
	for _, tc := range []struct {
		name    string
		frameMs float64       // wall time between frames
		step    time.Duration // virtual time each frame advances
		speed   float64
		want    bool
	}{
		{"keeps up at 1x", 16, 16 * time.Millisecond, 1, false},
		{"keeps up at 60x", 16, 960 * time.Millisecond, 60, false},
		{"capped step at 60x", 16, 100 * time.Millisecond, 60, true},
		{"frames clamped to 100 ms", 150, 100 * time.Millisecond, 1, true},
		{"a little slow is fine", 16, 13 * time.Millisecond, 1, false},
		// 1,000 nodes at 10x: 1.7 s stalls, each advancing maxFrameStep
		{"long frames are lag", 1700, 100 * time.Millisecond, 10, true},
	} {
		var m LagMeter
		got := false
		for ts := 0.0; ts < 3000; ts += tc.frameMs {
			got = m.Frame(ts, tc.step, tc.speed)
		}
		if got != tc.want {
			t.Errorf("%s: lagging = %v, want %v", tc.name, got, tc.want)
		}
	}
	// a background tab: the page resets the meter on visibilitychange, so
	// the gap does not count
	var m LagMeter
	for ts := 0.0; ts < 2000; ts += 16 {
		m.Frame(ts, 16*time.Millisecond, 1)
	}
	m.Reset()
	if m.Frame(60000, 0, 1) {
		t.Errorf("a frame after a hidden page's gap counts as lag")
	}
	// without the reset, a long gap with no virtual time is lag
	for ts := 0.0; ts < 2000; ts += 16 {
		m.Frame(ts, 16*time.Millisecond, 1)
	}
	if !m.Frame(3700, 0, 1) {
		t.Errorf("a 1.7 s frame that advanced nothing is not lag")
	}
}
