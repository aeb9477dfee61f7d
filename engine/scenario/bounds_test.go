package scenario

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Manifests of the hostile cases: a pod pinned to node-1, the same with a
// finalizer nobody removes, a DaemonSet whose busybox has no command (sh
// exits at once: a crash loop).
const (
	pinnedPod = `apiVersion: v1
kind: Pod
metadata:
  name: pinned
spec:
  nodeName: node-1
  terminationGracePeriodSeconds: 5
  containers:
  - name: c
    image: nginx:1.27
`
	keptPod = `apiVersion: v1
kind: Pod
metadata:
  name: kept
  finalizers: ["example.com/keep"]
spec:
  nodeName: node-1
  terminationGracePeriodSeconds: 5
  containers:
  - name: c
    image: nginx:1.27
`
	crashingDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: crash
spec:
  selector:
    matchLabels: {app: crash}
  template:
    metadata:
      labels: {app: crash}
    spec:
      containers:
      - name: crash
        image: busybox:1.36
`
)

// hostileFiles are the archive files of every hostile case.
func hostileFiles() string {
	return "-- pinned.yaml --\n" + pinnedPod + "-- kept.yaml --\n" + keptPod + "-- crash.yaml --\n" + crashingDS +
		"-- stuck.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:nope")
}

// runLast runs every line of src but the last on a fresh simulation, then
// the last, and returns the transcript, the failures, the last command's
// output and the virtual time it took.
func runLast(t *testing.T, ctx context.Context, src string) (out string, failures []string, last engine.Output, took time.Duration) {
	t.Helper()
	sc, err := Parse("h.txtar", []byte(src+hostileFiles()))
	if err != nil {
		t.Fatal(err)
	}
	sim := engine.New(sc.Options())
	for k, v := range sc.Files {
		sim.Files[k] = v
	}
	var buf strings.Builder
	r := newRunner(ctx, sc, simTarget{sim}, &buf)
	n := len(sc.steps) - 1
	for n > 0 && !sc.steps[n].isCommand() {
		n-- // trailing assertions run with the last command
	}
	r.steps(sc.steps[:n])
	before := sim.Now()
	r.steps(sc.steps[n:])
	r.stopWatch()
	return buf.String(), r.failures, r.last, sim.Now().Sub(before)
}

// TestHostileWaitsBounded: the commands that wait in virtual time end
// after a bounded amount of it, whatever --timeout, the grace period or the
// scenario ask for (kubectl.MaxCommandWait, MaxVirtualWait), with the
// playground's note; idle stretches are skipped, so each case runs in a
// moment (the virtual time is asserted, never the wall time).
func TestHostileWaitsBounded(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		exit      int
		stderr    string // exact
		failure   string // substring of the only failure, "" for none
		took      time.Duration
	}{
		{
			name: "rollout status with a timeout beyond the cap, image missing",
			src:  "registry lacks busybox:nope\nkubectl apply -f stuck.yaml\n! kubectl rollout status ds/agent --timeout=100000h\n",
			exit: 1, stderr: kubectl.CapNote + "error: timed out waiting for the condition\n", took: time.Hour,
		},
		{
			name: "drain of a failed node with a huge grace period",
			src:  "kubectl apply -f pinned.yaml\nadvance 30s\nnode fail node-1\nkubectl drain node-1 --force --grace-period=2000000000\n",
			exit: 0, stderr: "Warning: deleting Pods that declare no controller: default/pinned\nnote: the playground stopped waiting after 1h0m0s of virtual time; pods/pinned still exists (kubectl would keep waiting)\n", took: time.Hour,
		},
		{
			name: "drain with a timeout beyond the cap, a pod with a finalizer",
			src:  "kubectl apply -f kept.yaml\nadvance 30s\n! kubectl drain node-1 --force --timeout=100000h\n",
			exit: 1, stderr: "Warning: deleting Pods that declare no controller: default/kept\n" + kubectl.CapNote +
				"error: unable to drain node \"node-1\" due to error: drain did not complete within 100000h0m0s, continuing command...\nThere are pending nodes to be drained:\n node-1\nerror: drain did not complete within 100000h0m0s\n",
			took: time.Hour,
		},
		{
			name: "delete with a timeout beyond the cap, a pod with a finalizer",
			src:  "kubectl apply -f kept.yaml\nadvance 30s\n! kubectl delete pod kept --timeout=100000h\n",
			exit: 1, stderr: kubectl.CapNote + "error: timed out waiting for the condition on pods/kept\n", took: time.Hour,
		},
		{
			name: "delete on a failed node with a huge grace period",
			src:  "kubectl apply -f pinned.yaml\nadvance 30s\nnode fail node-1\nkubectl delete pod pinned --grace-period=2000000000\n",
			exit: 0, stderr: "note: the playground stopped waiting after 1h0m0s of virtual time; pods/pinned still exists (kubectl would keep waiting)\n", took: time.Hour,
		},
		{
			name:    "wait rollout at the scenario's cap, image missing",
			src:     "registry lacks busybox:nope\nkubectl apply -f stuck.yaml\nwait rollout ds/agent --timeout=24h\n",
			failure: "timed out after 24h0m0s waiting for daemon set agent to roll out", took: 24 * time.Hour,
		},
		{
			name: "advance at the scenario's cap with a crash loop",
			src:  "kubectl apply -f crash.yaml\nadvance 24h\n",
			took: 24 * time.Hour,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, failures, last, took := runLast(t, context.Background(), tc.src)
			if took != tc.took {
				t.Errorf("the last command took %s of virtual time, want %s\n%s", took, tc.took, out)
			}
			if tc.failure != "" {
				if len(failures) != 1 || !strings.Contains(failures[0], tc.failure) {
					t.Errorf("failures %q, want one with %q", failures, tc.failure)
				}
				return
			}
			if len(failures) != 0 {
				t.Errorf("failures %q\n%s", failures, out)
			}
			if last.ExitCode != tc.exit || last.Stderr != tc.stderr {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", last.ExitCode, last.Stderr, tc.exit, tc.stderr)
			}
		})
	}
}

// TestRunContextStopsInsideKubectl: a context done while a kubectl command
// waits by itself ends the command at the next virtual step (Env.Stop),
// with kubectl's stopped line on stderr and exit 1, and the run stops at
// that command; before, the command ran to its own bound.
func TestRunContextStopsInsideKubectl(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		dones     int // calls of Done until the context is done
	}{
		{"rollout status", "registry lacks busybox:nope\nkubectl apply -f stuck.yaml\n! kubectl rollout status ds/agent --timeout=50m\n", 3, 12},
		// the crash loop keeps the cluster busy (no idle jump)
		{"drain", "kubectl apply -f crash.yaml\nkubectl apply -f kept.yaml\n! kubectl drain node-1 --force --ignore-daemonsets --timeout=50m\n", 3, 12},
		{"delete", "kubectl apply -f crash.yaml\nkubectl apply -f kept.yaml\n! kubectl delete pod kept --timeout=50m\n", 3, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Done is called once per command (and once for the
			// waiting command's Env), then at every step of the
			// command's wait
			out, failures, last, took := runLast(t, newCountdown(tc.dones), tc.src+"kubectl get pods\n")
			want := "h.txtar:" + strconv.Itoa(tc.line) + ": stopped: context deadline exceeded"
			if len(failures) != 1 || failures[0] != want {
				t.Fatalf("failures %q, want %q\n%s", failures, want, out)
			}
			if !strings.Contains(last.Stderr, "error: the playground stopped this command after ") ||
				!strings.HasSuffix(last.Stderr, " of virtual time: context deadline exceeded\n") || last.ExitCode != 1 {
				t.Errorf("exit %d, stderr %q", last.ExitCode, last.Stderr)
			}
			if strings.Contains(out, "$ kubectl get pods") {
				t.Errorf("ran on after the stop:\n%s", out)
			}
			if took > time.Minute {
				t.Errorf("the stopped command waited %s of virtual time", took)
			}
		})
	}
}

// TestParseBounds: what a scenario may not ask for (exit 2, file:line),
// and what it still may.
func TestParseBounds(t *testing.T) {
	const ex = "# kind: exercise\nkubectl get ds\n## goal\nexpect ds/a exists\n"
	for _, tc := range []struct {
		name, src, want string
		line            int
	}{
		{"advance beyond 24h", "advance 1000000h\n", "advance 1000000h: at most 24h of virtual time", 1},
		{"advance just beyond", "kubectl get ds\nadvance 24h1s\n", "at most 24h of virtual time", 2},
		{"wait timeout beyond 24h", "wait rollout ds/x --timeout=100000h\n", "wait --timeout=100000h: at most 24h of virtual time", 1},
		{"expect phase", "kubectl get ds\nexpect pod/x phase Bogus\n", `phase "Bogus": want Pending, Running, Succeeded, Failed, Unknown`, 2},
		{"always phase", "always pod/x phase Runing\n", `phase "Runing"`, 1},
		{"wait rollout empty name", "wait rollout ds/\n", "wait rollout ds/: want ds/NAME", 1},
		{"wait rollout empty name in a namespace", "wait rollout ds/kube-system/\n", "want ds/NAME", 1},
		{"wait deleted empty name", "wait deleted pod/\n", "wait deleted pod/: want KIND/NAME", 1},
		{"taint empty key", "node add a --taint =:NoSchedule\n", `bad --taint "=:NoSchedule": key ""`, 1},
		{"taint bad key", "node add a --taint a_b!=x:NoSchedule\n", `key "a_b!"`, 1},
		{"taint bad value", "node add a --taint k=a/b:NoSchedule\n", `value "a/b"`, 1},
		{"node name", "node add A_B\n", `node add: invalid node name "A_B": a lowercase RFC 1123 subdomain`, 1},
		{"node name in a range", "node add w_{1..3}\n", `invalid node name "w_1"`, 1},
		{"empty solution", ex + "## solution\n# nothing yet\n", "## solution has no commands", 5},
		{"solution of checks only", ex + "## solution\nexpect ds/a exists\n", "## solution has no commands", 5},
		{"UTF-16 LE", "\xff\xfek\x00u\x00b\x00", "the file is not UTF-8 (it starts with a UTF-16 byte-order mark)", 1},
		{"UTF-16 BE", "\xfe\xff\x00k\x00u", "UTF-16 byte-order mark", 1},
		{"Latin-1", "kubectl get ds\n# caf\xe9\n", "the file is not UTF-8 (byte 0xe9 at offset 20)", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.txtar", []byte(tc.src))
			var me *MalformedError
			if !errors.As(err, &me) {
				t.Fatalf("want MalformedError, got %v", err)
			}
			if me.Line != tc.line || !strings.Contains(me.Msg, tc.want) {
				t.Fatalf("got %v, want line %d containing %q", err, tc.line, tc.want)
			}
		})
	}
	for _, src := range []string{
		"advance 24h\n",
		"wait idle --timeout=24h\n",
		"kubectl get ds\nexpect pod/x phase running\nalways pod/x phase Succeeded\n",
		"wait rollout ds/kube-system/x\nwait deleted node/n\n",
		"node add w-{1..3} --taint example.com/k=v:NoSchedule --taint k:NoExecute\n",
		"\xef\xbb\xbfkubectl get ds\n", // a UTF-8 byte-order mark is dropped
		ex + "## solution\nadvance 1s\n",
	} {
		if _, err := Parse("ok.txtar", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// TestPlayerContext: Player.Context and ReplayContext stop where RunContext
// does, with the same failure; a live context changes nothing.
func TestPlayerContext(t *testing.T) {
	src := "# kind: lesson\nkubectl apply -f agent.yaml\n## Wait\nadvance 1m\nkubectl get ds agent\n-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	sc, err := Parse("s.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	rec := engine.NewRecorder(sc.Options())
	p := NewPlayer(sc, rec)
	if r := p.PlayStep(0); !r.OK() {
		t.Fatal(r.Failures)
	}
	p.Context = newCountdown(6) // stops inside the advance
	r := p.PlayStep(1)
	if len(r.Failures) != 1 || r.Failures[0] != "s.txtar:4: stopped: context deadline exceeded" || len(r.Entries) != 1 {
		t.Errorf("step 1: %+v", r)
	}
	if got := rec.Live().Elapsed(); got <= 0 || got >= time.Minute {
		t.Errorf("stopped at t=%s, want inside the advance", got)
	}

	err = ReplayContext(cancelled, engine.NewRecorder(sc.Options()), sc)
	var re *ReplayError
	if !errors.As(err, &re) || re.Failures[len(re.Failures)-1] != "s.txtar:2: stopped: context canceled" {
		t.Errorf("ReplayContext(cancelled): %v", err)
	}
	live, stop := context.WithCancel(context.Background())
	defer stop()
	a, b := engine.NewRecorder(sc.Options()), engine.NewRecorder(sc.Options())
	if err := Replay(a, sc); err != nil {
		t.Fatal(err)
	}
	if err := ReplayContext(live, b, sc); err != nil {
		t.Fatal(err)
	}
	if x, y := stateOf(a.Live()), stateOf(b.Live()); x != y || a.Live().Elapsed() != b.Live().Elapsed() {
		t.Errorf("a live context changed the replay:\n%s\n---\n%s", x, y)
	}
}
