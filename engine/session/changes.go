package session

import (
	"strings"

	"github.com/dsplayground/dsplay/engine"
)

// Change is a behaviour of Kubernetes that changed in a release an
// article (a blog post, a book, the seed articles) may predate: the page
// notes it beside the output that shows it, so a learner who sees
// something else than their article does learns why. kubectl's output
// itself stays as v1.37 prints it; the note is the playground's.
type Change struct {
	// Key names the change (the page notes each one once per session).
	Key string
	// Since is the release the behaviour shown began with ("v1.34").
	Since string
	// Note says what changed, in the learner's terms.
	Note string
	// Upstream names where it changed (a pull request or function).
	Upstream string
	// shows reports whether a command's output (stdout) and the cluster
	// after it (snap, taken only when needed) show the change.
	shows func(stdout string, snap func() *engine.Snapshot) bool
}

// Changes is the table of the changes the page notes.
var Changes = []Change{
	{
		Key:      "delete-namespace",
		Since:    "v1.34",
		Note:     `kubectl delete names the namespace: older kubectl printed pod "NAME" deleted, without "from NAMESPACE namespace".`,
		Upstream: "kubernetes/kubernetes#126619 (kubectl delete: show namespace on delete)",
		shows: func(stdout string, _ func() *engine.Snapshot) bool {
			for _, l := range strings.Split(stdout, "\n") {
				if strings.Contains(l, `" deleted from `) && strings.HasSuffix(l, " namespace") {
					return true
				}
			}
			return false
		},
	},
	{
		Key:   "desired-after-noschedule",
		Since: "v1.33",
		Note: "DESIRED (and the other counts) of a DaemonSet may stay as they were after a NoSchedule taint lands under its running pod: " +
			"since the node update queue, a node change makes the controller sync the DaemonSet only when a pod must be created or deleted there, " +
			"or when it already counts misscheduled pods; older releases recomputed the status at once. The next sync of the DaemonSet catches up.",
		Upstream: "pkg/controller/daemon/daemon_controller.go syncNodeUpdate",
		shows: func(stdout string, snap func() *engine.Snapshot) bool {
			if snap == nil || !strings.Contains(stdout, "DESIRED") {
				return false
			}
			for _, d := range snap().DaemonSets {
				if d.StatusLags {
					return true
				}
			}
			return false
		},
	},
}

// ChangeNotes returns the Changes a command's output shows (the
// "changed in" notes the page puts under it), leaving out those whose key
// seen reports as noted already (nil: none was). snap gives the cluster
// after the command (nil: not known).
func ChangeNotes(stdout string, snap func() *engine.Snapshot, seen func(key string) bool) []Change {
	var out []Change
	for _, c := range Changes {
		if (seen == nil || !seen(c.Key)) && c.shows(stdout, snap) {
			out = append(out, c)
		}
	}
	return out
}
