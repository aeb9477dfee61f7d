package kubectl

import (
	"errors"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// waitFixture is the fixture with a DaemonSet whose rollout never ends
// (one of three pods updated), a bare pod on node-1 and an Env counting
// its Advance calls (advances) and asking stop before each step.
func waitFixture(t *testing.T, stop func() error) (*cluster.Cluster, *Env, *int) {
	t.Helper()
	c := fixture()
	rolloutSetup(c)
	ds := c.DaemonSet("default", "fluentd")
	ds.Status.UpdatedNumberScheduled = 1
	_ = c.UpdateDaemonSet(ds)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare"}, Spec: api.PodSpec{NodeName: "node-1",
		Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	if err := c.CreatePod(p); err != nil {
		t.Fatal(err)
	}
	p.Status.Phase = api.PodRunning
	c.UpdatePod(p)
	env := testEnv(c, nil)
	advances := new(int)
	inner := env.Advance
	env.Advance = func(d time.Duration) {
		if *advances++; *advances > 2*int(MaxCommandWait/time.Second)+10 {
			t.Fatalf("more than %d steps of virtual time: the wait is not bounded", *advances)
		}
		inner(d)
	}
	env.Stop = stop
	return c, env, advances
}

// TestWaitingCommandsBounded: rollout status, delete and drain stop
// waiting after MaxCommandWait of virtual time, whatever --timeout or the
// grace period say, with the playground's note; an idle cluster (no wake-up
// queued) is skipped over in one Advance instead of one-second steps.
func TestWaitingCommandsBounded(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		stderr     string // exact
		exit       int
		maxSteps   int // Advance calls at most
	}{
		{"rollout status beyond the cap, idle", "kubectl rollout status ds/fluentd --timeout=100000h",
			CapNote + "error: timed out waiting for the condition\n", 1, 2},
		{"rollout status within the cap, idle", "kubectl rollout status ds/fluentd --timeout=50m",
			"error: timed out waiting for the condition\n", 1, 2},
		{"delete beyond the cap", "kubectl delete pod bare --grace-period=2000000000 --timeout=100000h",
			CapNote + "error: timed out waiting for the condition on pods/bare\n", 1, 601},
		{"delete with a huge grace period", "kubectl delete pod bare --grace-period=2000000000",
			"note: the playground stopped waiting after 1h0m0s of virtual time; pods/bare still exists (kubectl would keep waiting)\n", 0, 601},
		{"drain beyond the cap", "kubectl drain node-1 --ignore-daemonsets --force --grace-period=2000000000 --timeout=100000h",
			"Warning: deleting Pods that declare no controller: default/bare; ignoring DaemonSet-managed Pods: default/fluentd-7xkq2\n" + CapNote +
				"error: unable to drain node \"node-1\" due to error: drain did not complete within 100000h0m0s, continuing command...\n" +
				"There are pending nodes to be drained:\n node-1\nerror: drain did not complete within 100000h0m0s\n", 1, 3600},
		{"drain with a huge grace period", "kubectl drain node-1 --ignore-daemonsets --force --grace-period=2000000000",
			"Warning: deleting Pods that declare no controller: default/bare; ignoring DaemonSet-managed Pods: default/fluentd-7xkq2\n" +
				"note: the playground stopped waiting after 1h0m0s of virtual time; pods/bare still exists (kubectl would keep waiting)\n", 0, 3600},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, env, advances := waitFixture(t, nil)
			args, err := ParseCommandLine(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			start := c.Now()
			r := Run(env, args)
			want := MaxCommandWait
			if tc.line == "kubectl rollout status ds/fluentd --timeout=50m" {
				want = 50 * time.Minute
			}
			if took := c.Now().Sub(start); took != want {
				t.Errorf("waited %s of virtual time, want %s", took, want)
			}
			if r.Stderr != tc.stderr || r.ExitCode != tc.exit {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d, stderr:\n%s", r.ExitCode, r.Stderr, tc.exit, tc.stderr)
			}
			if *advances > tc.maxSteps {
				t.Errorf("%d steps of virtual time, want at most %d", *advances, tc.maxSteps)
			}
		})
	}
}

// TestWaitingCommandsStop: Env.Stop is asked before every step of each
// waiting command; its error ends the command at once with kubectl's
// stopped line and exit status 1, and no further waits (a second
// DaemonSet, a second node) run.
func TestWaitingCommandsStop(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		stdout     string
	}{
		{"rollout status", "kubectl rollout status ds/fluentd ds/fluentd --timeout=50m",
			"Waiting for daemon set \"fluentd\" rollout to finish: 1 out of 3 new pods have been updated...\n"},
		{"delete", "kubectl delete pod bare --grace-period=600", "pod \"bare\" deleted from default namespace\n"},
		{"drain", "kubectl drain node-1 node-2 --ignore-daemonsets --force --grace-period=600",
			"node/node-1 cordoned\nnode/node-2 cordoned\nevicting pod default/bare\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			c, env, _ := waitFixture(t, func() error {
				if calls++; calls == 3 {
					return errors.New("the page's budget is spent")
				}
				return nil
			})
			// the fixture is busy until the deletion: stepped seconds
			c.WakeAt(c.Now().Add(time.Hour))
			args, err := ParseCommandLine(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			start := c.Now()
			r := Run(env, args)
			const stopped = "error: the playground stopped this command after 2s of virtual time: the page's budget is spent\n"
			if r.ExitCode != 1 || r.Stdout != tc.stdout || len(r.Stderr) < len(stopped) || r.Stderr[len(r.Stderr)-len(stopped):] != stopped {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", r.ExitCode, r.Stdout, r.Stderr)
			}
			if took := c.Now().Sub(start); took != 2*time.Second || calls != 3 {
				t.Errorf("waited %s of virtual time, Stop called %d times; want 2s, 3", took, calls)
			}
		})
	}
}

func TestMayWait(t *testing.T) {
	for line, want := range map[string]bool{
		"kubectl delete pod x":              true,
		"k -n kube-system delete pod x":     true,
		"kubectl delete pod x --wait=false": false,
		"kubectl drain node-1 --force":      true,
		"kubectl get pods":                  false,
		"kubectl get pods | grep x":         false,
	} {
		if got := MayWait(line); got != want {
			t.Errorf("MayWait(%q) = %v, want %v", line, got, want)
		}
	}
}
