package kubectl

import (
	"fmt"
	"strings"
	"time"
)

// MaxCommandWait caps the virtual time one waiting command (rollout status,
// drain, delete waiting for its objects to go) advances, whatever its
// --timeout or grace period says: a playground command must come back, in
// wall time too. A --timeout beyond it ends there with the note
// CapNote on standard error, then the command's own timeout error; a wait
// that kubectl would bound only by grace periods ends there with the
// command's usual "stopped waiting" note. Real kubectl keeps waiting.
const MaxCommandWait = time.Hour

// CapNote is the note a waiting command prints on standard error when
// its --timeout is beyond MaxCommandWait and it stopped waiting there.
var CapNote = fmt.Sprintf("note: the playground stops waiting after %s of virtual time; a real kubectl would keep waiting until --timeout\n", ShortDuration(MaxCommandWait))

// ShortDuration formats d as Go does without the zero tails of whole hours
// and minutes: 1h, 24h, 90m -> 1h30m, 30s.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// stoppedError ends a waiting command whose Env.Stop returned an error: it
// prints `error: the playground stopped this command after D of virtual
// time: CAUSE` and the exit status is 1. The cluster keeps the state
// reached.
type stoppedError struct {
	after time.Duration
	cause error
}

func (e *stoppedError) Error() string {
	return fmt.Sprintf("the playground stopped this command after %s of virtual time: %v", e.after, e.cause)
}

// waitStep advances virtual time for a waiting command that has waited
// since start and may wait at most until start+bound (its next deadline:
// --timeout, a playground bound): one second, or, when the cluster is idle
// (no component has a wake-up queued, so nothing can change until the
// bound), the whole way to the bound at once. Env.Stop is asked first; its
// error comes back as a *stoppedError and nothing advances. idleOK says
// the loop has advanced at least once (the cluster was settled by that
// Advance, so an empty wake-up queue means nothing is pending); whole
// advances to the bound at once whatever is queued.
func (inv *invocation) waitStep(start time.Time, bound time.Duration, idleOK, whole bool) error {
	c := inv.env.Cluster
	elapsed := c.Now().Sub(start)
	if inv.env.Stop != nil {
		if err := inv.env.Stop(); err != nil {
			return &stoppedError{after: elapsed, cause: err}
		}
	}
	step := time.Second
	rest := bound - elapsed
	if rest < step || whole || (idleOK && c.PendingWakeups() == 0) {
		step = rest
	}
	if step <= 0 {
		step = time.Second
	}
	inv.env.Advance(step)
	return nil
}

// MayWait reports whether command line may block on a real cluster,
// waiting for objects to go: `delete` (unless --wait=false) and `drain`.
// A shell uses it to play the wait as it happens (engine's
// Recorder.RunWatched); it changes nothing of how the command runs.
func MayWait(line string) bool {
	args, err := ParseCommandLine(line)
	if err != nil {
		return false
	}
	verb := false
	for _, a := range args {
		switch a {
		case "delete", "drain":
			verb = true
		case "--wait=false":
			return false
		}
	}
	return verb
}
