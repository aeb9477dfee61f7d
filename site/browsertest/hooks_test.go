package browsertest

import (
	"strings"
	"testing"
)

// window.dsplay refuses arguments beyond the page's limits with an error
// value — no panic, no page run out of memory — and the cluster is as it
// was.
func TestHooksRefuseBadArguments(t *testing.T) {
	p := open(t, "?paused")
	before := eval[int](p, `dsplay.pods().length`)
	for _, tc := range []struct{ call, want string }{
		{`dsplay.addNodes("x", 1e9)`, "the playground runs at most 5000 nodes"},
		{`dsplay.addNodes("x", 2.5)`, "want a whole number"},
		{`dsplay.addNodes("x", "ten")`, "want a number"},
		{`dsplay.advance("abc")`, "dsplay.advance(seconds): want a number"},
		{`dsplay.advance(-5)`, "want a number from 0 to 86400"},
		{`dsplay.advance(NaN)`, "want a number from 0 to 86400"},
		{`dsplay.seekStep("x")`, "outside the timeline"},
		{`dsplay.seekStep(1e12)`, "outside the timeline"},
	} {
		got := eval[any](p, tc.call)
		s, ok := got.(string)
		if !ok || !strings.Contains(s, tc.want) {
			t.Errorf("%s = %#v, want an error containing %q", tc.call, got, tc.want)
		}
	}
	if n := eval[int](p, `dsplay.pods().length`); n != before {
		t.Errorf("%d pods after the refused calls, %d before", n, before)
	}
	if f := eval[string](p, `document.getElementById("fatal").textContent`); f != "" {
		t.Errorf("the page shows an error banner: %q", f)
	}
	if got := eval[float64](p, `dsplay.advance(2)`); got != 2 {
		t.Errorf("dsplay.advance(2) = %v after the refusals, want 2", got)
	}
	p.checkConsole()
}
