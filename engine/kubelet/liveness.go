package kubelet

import (
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// Liveness and startup probes mirror the kubelet's prober workers
// (pkg/kubelet/prober/worker.go doProbe) and the restart they trigger
// (pkg/kubelet/kuberuntime/kuberuntime_manager.go computePodActions: a
// container whose liveness or startup result is Failure is killed with the
// message "Container NAME failed liveness probe" / "... startup probe" and
// restarted under the pod's restartPolicy and the container back-off).
//
// The probes answer as readiness probes do (probeOutcome in prober.go:
// exec `false` or `sh -c "exit N"` fails, httpGet / tcpSocket / grpc on a
// port nothing of the pod listens on fails (probeListens), anything else
// passes), and the
// answer never changes, so a probe either always passes (nothing to
// simulate) or always fails. A failing one is planned up front
// (failingProbe) and played by the crash loop (crash.go step): the first
// probe at the container's start + initialDelaySeconds, then every
// periodSeconds, each failure a Warning Unhealthy "Liveness probe failed:
// OUTPUT" (or "... errored: ERROR", prober.runProbe), and at the failureThreshold-th consecutive
// failure Normal Killing "Container NAME failed liveness probe, will be
// restarted", the container stopped as its image stops (stopOutcome in
// crash.go: nginx exits 0 at once on its STOPSIGNAL, a process that ignores
// SIGTERM is SIGKILLed after terminationGracePeriodSeconds, exit 137),
// RESTARTS + 1 and
// CrashLoopBackOff as for a crash.
//
// The startup probe runs first (worker.doProbe: liveness and readiness
// workers skip a container that has not started): while it has not passed
// the container is running but not started (status.started false) and not
// Ready; a failing one kills the container the same way ("Startup probe
// failed: ..."). The liveness probe's first run then counts from the
// startup probe's first (passing) run. A passing startup probe passes on
// its first run, initialDelaySeconds after the container's start: until
// then the container is running but not started and not Ready
// (planContainer: startDelay).

// failingProbe returns the liveness or startup probe of container i of pod
// p (an init container when init) that fails, or nil when both pass or are
// absent. The startup probe is spec.containers[i].startupProbe, kept in the
// pod's Extra (the engine does not model it in api.Container).
func failingProbe(p *api.Pod, init bool, i int) *killProbe {
	c := specContainer(p, init, i)
	var startupDelay time.Duration
	if sp := startupProbe(p, init, i); sp != nil {
		if ok, out := probeOutcome(p, c, sp, overrideNone); !ok {
			return newKillProbe("Startup", sp, 0, out)
		}
		startupDelay = time.Duration(sp.InitialDelaySeconds) * time.Second
	}
	if lp := c.LivenessProbe; lp != nil {
		if ok, out := probeOutcome(p, c, lp, overrideNone); !ok {
			return newKillProbe("Liveness", lp, startupDelay, out)
		}
	}
	return nil
}

// newKillProbe plans a failing probe with the API defaults (periodSeconds
// 10, failureThreshold 3) for fields left zero.
func newKillProbe(kind string, pr *api.Probe, after time.Duration, out string) *killProbe {
	period := pr.PeriodSeconds
	if period <= 0 {
		period = 10
	}
	thr := pr.FailureThreshold
	if thr <= 0 {
		thr = 3
	}
	return &killProbe{kind: kind, first: after + time.Duration(pr.InitialDelaySeconds)*time.Second,
		period: time.Duration(period) * time.Second, threshold: int(thr), out: out}
}

// startupProbe decodes the container's startupProbe from the pod's Extra,
// or returns nil.
func startupProbe(p *api.Pod, init bool, i int) *api.Probe {
	key := "spec.containers[" + itoa(i) + "]"
	if init {
		key = "spec.initContainers[" + itoa(i) + "]"
	}
	m, ok := p.Extra[key]["startupProbe"].(map[string]any)
	if !ok {
		return nil
	}
	pr := &api.Probe{Handler: map[string]any{}}
	for k, v := range m {
		switch k {
		case "exec", "httpGet", "tcpSocket", "grpc":
			pr.Handler[k] = v
		case "initialDelaySeconds":
			pr.InitialDelaySeconds = anyInt32(v)
		case "periodSeconds":
			pr.PeriodSeconds = anyInt32(v)
		case "failureThreshold":
			pr.FailureThreshold = anyInt32(v)
		case "successThreshold":
			pr.SuccessThreshold = anyInt32(v)
		case "timeoutSeconds":
			pr.TimeoutSeconds = anyInt32(v)
		}
	}
	return pr
}

func anyInt32(v any) int32 {
	switch x := v.(type) {
	case int:
		return int32(x)
	case int64:
		return int32(x)
	case float64:
		return int32(x)
	}
	return 0
}
