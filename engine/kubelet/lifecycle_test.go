package kubelet

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestInitContainers checks the init sequence: a failing init container
// holds the app containers back and restarts under back-off; a completing
// one and a sidecar let them start, and the sidecar counts for readiness.
func TestInitContainers(t *testing.T) {
	for _, tc := range []struct {
		name      string
		inits     []api.Container
		policy    string
		after     time.Duration
		phase     string
		ready     bool
		appState  string // "running" or "waiting"
		initCond  string
		restarted bool
	}{
		{"failing init", []api.Container{{Name: "init", Image: "busybox", Command: []string{"sh", "-c", "exit 1"}}}, "", 40 * time.Second, api.PodPending, false, "waiting", api.ConditionFalse, true},
		{"failing init, Never", []api.Container{{Name: "init", Image: "busybox", Command: []string{"false"}}}, "Never", 20 * time.Second, api.PodFailed, false, "waiting", api.ConditionFalse, false},
		{"blocking init", []api.Container{{Name: "init", Image: "busybox", Command: []string{"sleep", "infinity"}}}, "", time.Minute, api.PodPending, false, "waiting", api.ConditionFalse, false},
		{"for-loop init", []api.Container{{Name: "init", Image: "busybox", Command: []string{"sh", "-c", "for i in 1 2 3; do echo $i; done"}}}, "", 30 * time.Second, api.PodRunning, true, "running", api.ConditionTrue, false},
		{"while-true init", []api.Container{{Name: "init", Image: "busybox", Command: []string{"sh", "-c", "while true; do sleep 1; done"}}}, "", time.Minute, api.PodPending, false, "waiting", api.ConditionFalse, false},
		{"completing init and sidecar", []api.Container{{Name: "init", Image: "busybox", Command: []string{"sleep", "3"}}, {Name: "side", Image: "nginx", RestartPolicy: "Always"}}, "", 30 * time.Second, api.PodRunning, true, "running", api.ConditionTrue, false},
		{"crashing sidecar", []api.Container{{Name: "side", Image: "busybox", RestartPolicy: "Always"}}, "", 30 * time.Second, api.PodRunning, false, "running", api.ConditionTrue, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			p := w.pod("p", "node-0", func(p *api.Pod) {
				p.Spec.InitContainers = tc.inits
				p.Spec.RestartPolicy = tc.policy
			})
			w.advance(tc.after)
			if p.Status.Phase != tc.phase || p.IsReady() != tc.ready {
				t.Fatalf("phase %s ready %v; want %s %v", p.Status.Phase, p.IsReady(), tc.phase, tc.ready)
			}
			if got := p.Status.ContainerStatuses[0].State.Running != nil; got != (tc.appState == "running") {
				t.Errorf("app container running %v; want %s", got, tc.appState)
			}
			if c := p.Condition(api.PodInitialized); c == nil || c.Status != tc.initCond {
				t.Errorf("Initialized %+v; want %s", c, tc.initCond)
			}
			restarts := int32(0)
			for _, cs := range p.Status.InitContainerStatuses {
				restarts += cs.RestartCount
			}
			if (restarts > 0) != tc.restarted {
				t.Errorf("init restarts %d; want restarted %v", restarts, tc.restarted)
			}
		})
	}
}

// TestLivenessAndStartupProbes checks that a failing liveness probe kills
// the container after failureThreshold probes and a failing startup probe
// keeps it not started, while passing probes change nothing.
func TestLivenessAndStartupProbes(t *testing.T) {
	fail := &api.Probe{Handler: map[string]any{"exec": map[string]any{"command": []any{"sh", "-c", "exit 1"}}}, PeriodSeconds: 5, FailureThreshold: 2}
	pass := &api.Probe{Handler: map[string]any{"exec": map[string]any{"command": []any{"true"}}}, PeriodSeconds: 5, FailureThreshold: 2}
	for _, tc := range []struct {
		name     string
		liveness *api.Probe
		startup  map[string]any
		restarts bool
		killMsg  string
	}{
		{"failing liveness", fail, nil, true, "Container app failed liveness probe, will be restarted"},
		{"passing liveness", pass, nil, false, ""},
		{"failing startup", nil, map[string]any{"tcpSocket": map[string]any{"port": 9999}, "periodSeconds": 5}, true, "Container app failed startup probe, will be restarted"},
		{"passing startup", nil, map[string]any{"exec": map[string]any{"command": []any{"true"}}}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			p := w.pod("p", "node-0", func(p *api.Pod) {
				p.Spec.Containers[0].LivenessProbe = tc.liveness
				if tc.startup != nil {
					p.Extra = api.Unmodeled{"spec.containers[0]": {"startupProbe": tc.startup}}
				}
			})
			w.advance(time.Minute)
			cs := p.Status.ContainerStatuses[0]
			if (cs.RestartCount > 0) != tc.restarts {
				t.Fatalf("restarts %d; want restarted %v", cs.RestartCount, tc.restarts)
			}
			ev := strings.Join(events(w.c, p), "\n")
			if tc.killMsg != "" && !strings.Contains(ev, "Killing spec.containers{app}: "+tc.killMsg) {
				t.Errorf("no Killing event %q in\n%s", tc.killMsg, ev)
			}
			if tc.killMsg == "" && strings.Contains(ev, "Unhealthy") {
				t.Errorf("unexpected Unhealthy event in\n%s", ev)
			}
			if tc.name == "failing startup" && cs.Started != nil && *cs.Started {
				t.Error("a container whose startup probe fails reports started")
			}
		})
	}
}

// TestEvictionOrder checks that the eviction manager evicts BestEffort pods
// before Burstable ones, one per pass, and never a critical pod.
func TestEvictionOrder(t *testing.T) {
	w := newWorld(t, "node-0")
	burst := w.pod("burst", "node-0", func(p *api.Pod) {
		p.Spec.Containers[0].Resources.Requests = api.ResourceList{"memory": api.MustParseQuantity("64Mi")}
	})
	low := w.pod("low", "node-0", nil)
	crit := w.pod("crit", "node-0", func(p *api.Pod) { p.Spec.PriorityClassName = "system-node-critical" })
	w.advance(10 * time.Second)
	n := w.c.Node("node-0")
	if c := n.Condition(api.NodeMemoryPressure); c != nil {
		c.Status = api.ConditionTrue
	} else {
		n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: api.NodeMemoryPressure, Status: api.ConditionTrue})
	}
	_ = w.c.UpdateNode(n)
	w.k.Invalidate()
	var order []string
	w.settle()
	for i := 0; i < 5; i++ {
		if i > 0 {
			w.advance(EvictionCleanupWait)
		}
		for _, p := range []*api.Pod{burst, low, crit} {
			if p.Status.Reason == ReasonEvicted && !contains(order, p.Name) {
				order = append(order, p.Name)
			}
		}
	}
	if got := strings.Join(order, " "); got != "low burst" {
		t.Errorf("eviction order %q, want \"low burst\"", got)
	}
	if crit.Status.Phase != api.PodRunning {
		t.Errorf("critical pod %s", crit.Status.Phase)
	}
	if low.Status.Phase != api.PodFailed || low.Status.Message != "The node was low on resource: memory. " {
		t.Errorf("evicted pod status %s %q", low.Status.Phase, low.Status.Message)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestPassingStartupProbeDelaysStart checks that a container whose startup
// probe passes counts as started, and is Ready, only from the probe's first
// run (initialDelaySeconds after its start), with no restart.
func TestPassingStartupProbeDelaysStart(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("p", "node-0", func(p *api.Pod) {
		p.Extra = api.Unmodeled{"spec.containers[0]": {"startupProbe": map[string]any{"exec": map[string]any{"command": []any{"true"}}, "initialDelaySeconds": 20}}}
	})
	w.advance(10 * time.Second)
	cs := p.Status.ContainerStatuses[0]
	if cs.State.Running == nil || *cs.Started || cs.Ready || p.IsReady() {
		t.Fatalf("before the startup probe: running %v started %v ready %v pod ready %v", cs.State.Running != nil, *cs.Started, cs.Ready, p.IsReady())
	}
	w.advance(20 * time.Second)
	cs = p.Status.ContainerStatuses[0]
	if !*cs.Started || !cs.Ready || !p.IsReady() || cs.RestartCount != 0 {
		t.Fatalf("after the startup probe: started %v ready %v pod ready %v restarts %d", *cs.Started, cs.Ready, p.IsReady(), cs.RestartCount)
	}
	if w.k.crashers[p.UID] != nil {
		t.Error("a settled pod keeps its crash loop")
	}
}

// TestLivenessKillStopOutcome checks how a container killed after a failed
// liveness probe ends (stopOutcome): nginx stops at once on its
// STOPSIGNAL (exit 0, Completed); a process that ignores SIGTERM as PID 1
// (sleep) runs on for the grace period and is SIGKILLed (137, Error).
func TestLivenessKillStopOutcome(t *testing.T) {
	fail := &api.Probe{Handler: map[string]any{"exec": map[string]any{"command": []any{"false"}}}, PeriodSeconds: 5, FailureThreshold: 1}
	for _, tc := range []struct {
		name    string
		c       api.Container
		grace   int64
		code    int32
		reason  string
		stopped time.Duration // from the kill to finishedAt
	}{
		{"nginx", api.Container{Name: "app", Image: "nginx:1.27", ImagePullPolicy: "Never"}, 30, 0, "Completed", 0},
		{"sleep ignores SIGTERM", api.Container{Name: "app", Image: "busybox:1.36", ImagePullPolicy: "Never", Command: []string{"sleep", "infinity"}}, 30, 137, "Error", 30 * time.Second},
		{"short grace period", api.Container{Name: "app", Image: "example.com/agent:1", ImagePullPolicy: "Never"}, 5, 137, "Error", 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			p := w.pod("p", "node-0", func(p *api.Pod) {
				c := tc.c
				c.LivenessProbe = fail
				p.Spec.Containers = []api.Container{c}
				p.Spec.TerminationGracePeriodSeconds = api.Int64Ptr(tc.grace)
			})
			var killed time.Time
			for i := 0; i < 200 && killed.IsZero(); i++ {
				w.advance(500 * time.Millisecond)
				for _, e := range w.c.EventsFor("Pod", p.UID) {
					if e.Reason == "Killing" {
						killed = e.FirstTimestamp
					}
				}
			}
			if killed.IsZero() {
				t.Fatal("no Killing event")
			}
			if tc.stopped > time.Second {
				w.advance(tc.stopped - time.Second)
				if cs := p.Status.ContainerStatuses[0]; cs.State.Running == nil || cs.RestartCount != 0 {
					t.Fatalf("stopped before the grace period ended: %+v", cs.State)
				}
			}
			w.advance(tc.stopped + time.Second - w.c.Now().Sub(killed))
			cs := p.Status.ContainerStatuses[0]
			term := cs.State.Terminated
			if term == nil && cs.LastState.Terminated != nil {
				term = cs.LastState.Terminated
			}
			if term == nil {
				t.Fatalf("not terminated: %+v", cs.State)
			}
			// The first probe (initialDelaySeconds 0) fails at the
			// container's start and kills it (failureThreshold 1).
			if term.ExitCode != tc.code || term.Reason != tc.reason || term.FinishedAt.Sub(term.StartedAt) != tc.stopped {
				t.Errorf("terminated %d %s %s after the kill; want %d %s %s", term.ExitCode, term.Reason, term.FinishedAt.Sub(term.StartedAt), tc.code, tc.reason, tc.stopped)
			}
		})
	}
}

// TestCreatingStatusNamesSidecars checks the first Ready condition of a pod
// with a sidecar: the sidecar is listed before the app containers
// (GenerateContainersReadyCondition).
func TestCreatingStatusNamesSidecars(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("p", "node-0", func(p *api.Pod) {
		p.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox:1.36", Command: []string{"true"}}, {Name: "side", Image: "nginx:1.27", RestartPolicy: "Always"}}
	})
	w.advance(AdmitDelay)
	if c := p.Condition(api.PodReady); c == nil || c.Message != "containers with unready status: [side app]" {
		t.Errorf("Ready condition %+v", c)
	}
}

// TestDeletionWaitsForSIGTERMIgnorers checks how long a deleted pod stays
// Terminating (pod_workers.go calculateEffectiveGracePeriod, kuberuntime
// killContainer): a process that exits on SIGTERM (nginx, an unknown
// server image, a shell script with a trap) stops within stopDelay; one
// that ignores it as PID 1 (sleep, tail -f, a shell) is SIGKILLed when the
// grace period ends — the pod's terminationGracePeriodSeconds, or the
// delete's --grace-period; a second delete with a shorter period does not
// bring the SIGKILL forward (kubernetes/kubernetes#83916).
func TestDeletionWaitsForSIGTERMIgnorers(t *testing.T) {
	sleep := []string{"sleep", "infinity"}
	for _, tc := range []struct {
		name    string
		c       api.Container
		spec    int64  // spec.terminationGracePeriodSeconds
		del     *int64 // DeleteOptions.gracePeriodSeconds
		shorten *int64 // a second delete 5 s later
		gone    time.Duration
	}{
		{"nginx exits on SIGQUIT", api.Container{Image: "nginx:1.27"}, 30, nil, nil, 0},
		{"unknown server", api.Container{Image: "example.com/agent:1"}, 30, nil, nil, 0},
		{"shell with a trap", api.Container{Image: "busybox:1.36", Command: []string{"sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"}}, 30, nil, nil, 0},
		{"sleep infinity", api.Container{Image: "busybox:1.36", Command: sleep}, 30, nil, nil, 30 * time.Second},
		{"sleep, short grace period", api.Container{Image: "alpine:3.20", Command: sleep}, 10, nil, nil, 10 * time.Second},
		{"tail -f", api.Container{Image: "busybox:1.36", Command: []string{"tail", "-f", "/dev/null"}}, 30, nil, nil, 30 * time.Second},
		{"sh -c loop", api.Container{Image: "busybox:1.36", Command: []string{"sh", "-c", "while true; do sleep 5; done"}}, 30, nil, nil, 30 * time.Second},
		{"sleep, --grace-period=5", api.Container{Image: "busybox:1.36", Command: sleep}, 30, api.Int64Ptr(5), nil, 5 * time.Second},
		// kubernetes/kubernetes#83916: the first kill runs to its end
		{"sleep, shortened to 8 s later", api.Container{Image: "busybox:1.36", Command: sleep}, 30, nil, api.Int64Ptr(8), 30 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			w.pod("p", "node-0", func(p *api.Pod) {
				c := tc.c
				c.Name, c.ImagePullPolicy = "app", "Never"
				p.Spec.Containers = []api.Container{c}
				p.Spec.TerminationGracePeriodSeconds = api.Int64Ptr(tc.spec)
			})
			w.advance(10 * time.Second)
			deleted := w.c.Now()
			if err := w.c.DeletePod("default", "p", tc.del); err != nil {
				t.Fatal(err)
			}
			if tc.shorten != nil {
				w.advance(5 * time.Second)
				if err := w.c.DeletePod("default", "p", tc.shorten); err != nil {
					t.Fatal(err)
				}
			}
			if tc.gone == 0 {
				w.advance(2 * time.Second)
				if w.c.Pod("default", "p") != nil {
					t.Fatal("a process that exits on SIGTERM still Terminating after 2 s")
				}
				return
			}
			w.advance(deleted.Add(tc.gone - time.Second).Sub(w.c.Now()))
			if p := w.c.Pod("default", "p"); p == nil || !p.IsReady() {
				t.Fatalf("gone (or unready) before the grace period ended: %v", p)
			}
			w.advance(time.Second)
			if w.c.Pod("default", "p") != nil {
				t.Fatal("still there when the grace period ended")
			}
		})
	}
}

// TestIgnoresStopSignal pins which command lines ignore SIGTERM as PID 1.
func TestIgnoresStopSignal(t *testing.T) {
	for _, tc := range []struct {
		c    api.Container
		want bool
	}{
		{api.Container{Image: "busybox:1.36", Command: []string{"sleep", "3600"}}, true},
		{api.Container{Image: "busybox:1.36", Args: []string{"sleep", "infinity"}}, true},
		{api.Container{Image: "alpine", Command: []string{"/bin/sh", "-c", "exec sleep infinity"}}, true},
		{api.Container{Image: "busybox", Command: []string{"sh", "-c", "trap 'exit 0' TERM; sleep 1000 & wait"}}, false},
		{api.Container{Image: "busybox"}, true}, // the image's sh
		{api.Container{Image: "nginx:1.27"}, false},
		{api.Container{Image: "registry.k8s.io/pause:3.9"}, false},
		{api.Container{Image: "example.com/agent:1", Args: []string{"--verbose"}}, false},
		{api.Container{Image: "nginx:1.27", Command: []string{"nginx", "-g", "daemon off;"}}, false},
	} {
		if got := ignoresStopSignal(&tc.c); got != tc.want {
			t.Errorf("%s %v %v: %v, want %v", tc.c.Image, tc.c.Command, tc.c.Args, got, tc.want)
		}
	}
}
