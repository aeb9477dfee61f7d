// Package kubectl is the playground's kubectl: a shell-like command-line
// tokenizer, kubectl's flag handling and error wording, and printers that
// render the simulated store exactly as kubectl 1.37 renders a real cluster
// (k8s.io/kubectl pkg/cmd, k8s.io/cli-runtime pkg/printers and the
// server-side table printers of pkg/printers/internalversion).
//
// Simulated commands: get (tables, -o wide|yaml|json|name|jsonpath|
// custom-columns, --sort-by, -w: see Watch), describe, edit (see
// EditSession), patch (strategic merge, JSON merge and JSON patch, applied
// as the API server applies them), taint, label, annotate, delete, apply, create,
// replace, cordon, uncordon, drain, rollout (status, history, undo,
// restart, pause, resume), set image, explain (from the generated schema in
// engine/schema), events, version, api-resources, api-versions
// (only the group/versions the playground serves: apps/v1 and v1), and
// namespaces (get, create namespace, delete namespace). Other kubectl
// commands answer `error: "kubectl logs" is not simulated in the
// playground` rather than a made-up result.
//
// Writes go through the store (engine/cluster) and each user action is
// recorded as a cluster.Decision with Component cluster.ComponentUser.
// Deleting a pod follows the API server's graceful deletion: the pod gets
// deletionTimestamp = now + grace period and deletionGracePeriodSeconds =
// grace period (registry BeforeDelete), and the kubelet removes it once its
// containers stopped; an unbound or terminated pod, or a grace period of 0
// (--force --grace-period=0), is removed from the store at once. Commands
// that block in real kubectl (delete and drain waiting for objects to go,
// rollout status watching) advance virtual time through Env.Advance in
// one-second steps (all at once while the cluster is idle), bounded so that
// a command always returns: by the playground's bounds, by MaxCommandWait
// of virtual time whatever --timeout says, and by Env.Stop.
package kubectl

import (
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// Env is what a command runs against.
type Env struct {
	// Cluster is the store read and written by commands (required).
	Cluster *cluster.Cluster
	// Files are manifests readable with -f NAME; "-" is standard input.
	Files map[string]string
	// Settle runs the simulated components to a fixed point at the current
	// virtual time (may be nil).
	Settle func()
	// Advance moves virtual time forward by the given duration, running the
	// components on the way (may be nil: commands that would block then
	// return at once).
	Advance func(time.Duration)
	// Stop, when set, is asked before every step of virtual time a
	// waiting command (rollout status, drain, delete waiting for its
	// objects) advances; a non-nil error ends the command there with
	// `error: the playground stopped this command after D of virtual
	// time: ERR` on standard error and exit status 1 (the cluster keeps
	// the state reached). Callers bound wall time with it (a context's
	// Err, a frame budget). May be nil.
	Stop func() error
	// StreamRolloutStatus makes `rollout status` (with --watch, the
	// default) return at once with its first line and a Result.Watch that
	// prints its later lines as virtual time runs, as a terminal shows
	// them (the page); false: it advances virtual time itself until done.
	StreamRolloutStatus bool
	// KubeletStoppedSince reports when a node's kubelet stopped (`node
	// fail`): its lease's last renewal (cluster.NodeLeaseRenewalEnded); ok
	// false while it runs. Describe and -o output freeze the
	// node's Lease renewTime and condition lastHeartbeatTime there (see
	// deriveNodeHeartbeat). May be nil.
	KubeletStoppedSince func(node string) (at time.Time, ok bool)
}

// Result is what a command printed and its exit status (0 success, 1 error).
// Stdout and Stderr end with a newline when not empty; they are the
// concatenations of each stream. Chunks holds the same text in the order
// kubectl writes it (e.g. rollout undo's `Warning: ...` on stderr before
// `daemonset.apps/x rolled back` on stdout), for terminals that show both
// streams interleaved.
type Result struct {
	Stdout, Stderr string
	Chunks         []Chunk
	ExitCode       int
	// Watch is set by a successful `get -w` / `--watch-only`: poll it for
	// the lines printed as the cluster changes, stop it at the next
	// command. Nil otherwise.
	Watch *Watch
	// Edit is set by `kubectl edit` when the editor opens: show its Text,
	// then call Finish with the saved text. Nil otherwise.
	Edit *EditSession
}

// Run executes one kubectl command given as arguments (a leading "kubectl"
// or "k" is optional; see ParseCommandLine to split a line) against env,
// as kubectl 1.37 would against a real cluster.
func Run(env *Env, args []string) Result {
	return run(env, args)
}
