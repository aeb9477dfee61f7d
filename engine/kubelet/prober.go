package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Readiness probing mirrors the kubelet's prober (pkg/kubelet/prober:
// worker.doProbe, prober.runProbe). Each container with a readinessProbe is
// probed at containerStart + initialDelaySeconds, then every periodSeconds.
// The readiness result starts as Failure (the readiness worker's
// initialValue); it turns to Success after successThreshold consecutive
// successes and back to Failure after failureThreshold consecutive failures
// (worker.doProbe keeps the last result while resultRun is below the
// threshold). Every failed probe records a Warning Unhealthy event
// "Readiness probe failed: <output>" (prober.runProbe; the event correlator
// folds the repeats into one event with a count). The pod is Ready when
// every container is ready (status.GeneratePodReadyCondition).
//
// What the simulated probes answer:
//   - exec: `false`, `/bin/false`, or a shell script (`sh -c "..."`) ending
//     in `exit N` with N != 0 fail with no output; any other command passes.
//   - httpGet and tcpSocket: a simulated container listens exactly on the
//     containerPorts its pod declares, so a probe on a port no container of
//     the pod declares fails with "connect: connection refused" (a named
//     port must name a declared port); any other passes.
//   - grpc passes.
//
// Scenario commands `pod unready` / `pod ready` (SetProbeResult) make every
// readiness probe of a pod fail / pass from the next probe on, whatever its
// handler, as if the application stopped or resumed answering; a container
// without readinessProbe is reported unready / ready at once (the
// simulation's shortcut: a real one has no probe to fail).
//
// A prober exists only while a container's readiness may still change
// (some container is unready, a probe is set to fail, or an override is in
// force); a pod whose probes have all passed and can only keep passing is
// dropped, so healthy pods cost no wake-ups.

// podProber is the readiness probing state of one pod.
type podProber struct {
	containers []containerProber
}

// containerProber is the readiness worker of one container.
type containerProber struct {
	next        time.Time // next probe; zero before the container started
	ready       bool
	fails, succ int
}

// probeOverride is what SetProbeResult forced for a pod.
type probeOverride int8

const (
	overrideNone probeOverride = iota
	overrideFail
	overridePass
)

// SetProbeResult makes the readiness probes of pod namespace/name fail
// (ready false: the scenario command `pod unready`) or pass again (ready
// true: `pod ready`) from the next probe on; see the prober comment above
// for the timing. Errors: NotFound; the pod is not bound, is terminating or
// has finished.
func (k *Kubelets) SetProbeResult(namespace, name string, ready bool) error {
	if namespace == "" {
		namespace = api.DefaultNamespace
	}
	p := k.c.Pod(namespace, name)
	if p == nil {
		return cluster.NotFound("pods", name)
	}
	switch {
	case p.Spec.NodeName == "":
		return fmt.Errorf("pod %q is not scheduled to a node yet", name)
	case p.DeletionTimestamp != nil:
		return fmt.Errorf("pod %q is terminating", name)
	case p.IsTerminal():
		return fmt.Errorf("pod %q has already %s", name, strings.ToLower(string(p.Status.Phase)))
	}
	o := overridePass
	if !ready {
		o = overrideFail
	} else if !k.probesFail(p) {
		// The probes as written pass: no override is needed, and the
		// prober can be dropped once they have passed.
		o = overrideNone
	}
	if k.overrides[p.UID] == o {
		return nil
	}
	if o == overrideNone {
		delete(k.overrides, p.UID)
	} else {
		k.overrides[p.UID] = o
	}
	if pr := k.probers[p.UID]; pr == nil && p.Status.Phase == api.PodRunning {
		k.probers[p.UID] = k.newProber(p, true)
	}
	what := "fail"
	if ready {
		what = "pass"
	}
	k.c.Decide(cluster.Decision{Component: cluster.ComponentKubelet, Func: "doProbe", Object: podObject(p), Node: p.Spec.NodeName,
		Action: "probe-" + what, Reason: fmt.Sprintf("the pod's readiness probes %s from the next probe on", what)})
	k.synced = false
	return nil
}

// newProber builds the readiness workers of a running pod. When resume is
// true the pod was already being probed (its container statuses carry the
// readiness so far) and the next probe is the first one after now;
// otherwise the containers just started and the first probe is at
// initialDelaySeconds.
func (k *Kubelets) newProber(p *api.Pod, resume bool) *podProber {
	now := k.c.Now()
	pr := &podProber{containers: make([]containerProber, len(p.Spec.Containers))}
	for i, c := range p.Spec.Containers {
		cp := &pr.containers[i]
		var started time.Time
		if i < len(p.Status.ContainerStatuses) {
			cs := p.Status.ContainerStatuses[i]
			cp.ready = resume && cs.Ready
			if cs.State.Running != nil {
				started = cs.State.Running.StartedAt
			}
		}
		rp := c.ReadinessProbe
		if rp == nil {
			continue
		}
		if started.IsZero() {
			started = now
		}
		first := started.Add(time.Duration(rp.InitialDelaySeconds) * time.Second)
		cp.next = first
		if resume && !first.After(now) {
			period := probePeriod(rp)
			cp.next = first.Add((now.Sub(first)/period + 1) * period)
		}
		if cp.ready {
			cp.succ = int(max(rp.SuccessThreshold, 1))
		}
	}
	return pr
}

func probePeriod(rp *api.Probe) time.Duration {
	return time.Duration(max(rp.PeriodSeconds, 1)) * time.Second
}

// probesFail reports whether some readiness probe of the pod fails as
// written (without override).
func (k *Kubelets) probesFail(p *api.Pod) bool {
	for i := range p.Spec.Containers {
		if c := &p.Spec.Containers[i]; c.ReadinessProbe != nil {
			if ok, _ := k.probeResult(p, c, overrideNone); !ok {
				return true
			}
		}
	}
	return false
}

// needsProber reports whether a pod's readiness is the prober's business:
// a container has a readinessProbe, or an override is in force.
func (k *Kubelets) needsProber(p *api.Pod) bool {
	if k.overrides[p.UID] != overrideNone {
		return true
	}
	for _, c := range p.Spec.Containers {
		if c.ReadinessProbe != nil {
			return true
		}
	}
	return false
}

// probe runs the due readiness probes of a running pod and writes the
// readiness they yield (container ready flags, ContainersReady and Ready
// conditions). It reports whether it changed the pod.
func (k *Kubelets) probe(n *api.Node, p *api.Pod) bool {
	pr := k.probers[p.UID]
	if pr == nil {
		return false
	}
	now := k.c.Now()
	o := k.overrides[p.UID]
	settled := o == overrideNone
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		cp := &pr.containers[i]
		rp := c.ReadinessProbe
		if rp == nil {
			want := o != overrideFail
			if cp.ready != want {
				cp.ready = want
				if !want {
					k.event(p, n, containerFieldPath(c.Name), api.EventTypeWarning, "Unhealthy", "Readiness probe failed: ")
				}
			}
			settled = settled && cp.ready
			continue
		}
		if cp.next.IsZero() {
			continue
		}
		period := probePeriod(rp)
		if behind := now.Sub(cp.next); behind > period {
			// The kubelet was stopped: probing resumes now, not with a
			// burst of the missed probes.
			cp.next = cp.next.Add(behind / period * period)
		}
		for !cp.next.After(now) {
			ok, out := k.probeResult(p, c, o)
			if ok {
				cp.fails, cp.succ = 0, cp.succ+1
				if !cp.ready && cp.succ >= int(max(rp.SuccessThreshold, 1)) {
					cp.ready = true
				}
			} else {
				cp.succ, cp.fails = 0, cp.fails+1
				k.event(p, n, containerFieldPath(c.Name), api.EventTypeWarning, "Unhealthy", "Readiness probe failed: "+out)
				if cp.ready && cp.fails >= int(max(rp.FailureThreshold, 1)) {
					cp.ready = false
				}
			}
			cp.next = cp.next.Add(period)
		}
		if !cp.ready {
			settled = false
		} else if ok, _ := k.probeResult(p, c, o); !ok {
			settled = false
		}
	}
	if !settled {
		for _, cp := range pr.containers {
			if !cp.next.IsZero() {
				k.c.WakeAt(cp.next)
			}
		}
	}
	changed := k.writeReadiness(p, pr, now)
	if settled {
		delete(k.probers, p.UID)
	}
	return changed
}

// writeReadiness copies the prober's container readiness into the pod
// status and derives the ContainersReady and Ready conditions
// (status.GenerateContainersReadyCondition / GeneratePodReadyCondition:
// reason ContainersNotReady, "containers with unready status: [a b]").
func (k *Kubelets) writeReadiness(p *api.Pod, pr *podProber, now time.Time) bool {
	changed := false
	var unready []string
	for i := range p.Status.ContainerStatuses {
		if i >= len(pr.containers) {
			break
		}
		cs := &p.Status.ContainerStatuses[i]
		r := pr.containers[i].ready && cs.State.Running != nil
		if cs.Ready != r {
			cs.Ready, changed = r, true
		}
		if !r {
			unready = append(unready, cs.Name)
		}
	}
	if !changed {
		return false
	}
	if len(unready) == 0 {
		p.SetCondition(api.ContainersReady, api.ConditionTrue, "", "", now)
		p.SetCondition(api.PodReady, api.ConditionTrue, "", "", now)
		k.decide(p, "doProbe", "ready", "the readiness probes passed: the pod is Ready")
	} else {
		msg := fmt.Sprintf("containers with unready status: [%s]", strings.Join(unready, " "))
		p.SetCondition(api.ContainersReady, api.ConditionFalse, "ContainersNotReady", msg, now)
		p.SetCondition(api.PodReady, api.ConditionFalse, "ContainersNotReady", msg, now)
		k.decide(p, "doProbe", "unready", "a readiness probe failed: the pod is not Ready ("+msg+")")
	}
	_ = k.c.UpdatePod(p)
	return true
}

// probeResult is the outcome of one readiness probe of container c and the
// output the kubelet puts in the Unhealthy event when it fails.
func (k *Kubelets) probeResult(p *api.Pod, c *api.Container, o probeOverride) (bool, string) {
	return probeOutcome(p, c.ReadinessProbe, o)
}

// probeOutcome is the outcome of one probe rp (readiness, liveness or
// startup) of a container of pod p, under override o, and the output the
// kubelet puts in the Unhealthy event when it fails.
func probeOutcome(p *api.Pod, rp *api.Probe, o probeOverride) (bool, string) {
	if o == overridePass {
		return true, ""
	}
	ip := p.Status.PodIP
	if h, ok := rp.Handler["httpGet"].(map[string]any); ok {
		port, declared := probePort(p, h["port"])
		if !declared {
			host := ip
			if s, ok := h["host"].(string); ok && s != "" {
				host = s
			}
			scheme := "http"
			if s, ok := h["scheme"].(string); ok && s != "" {
				scheme = strings.ToLower(s)
			}
			path, _ := h["path"].(string)
			if path != "" && !strings.HasPrefix(path, "/") {
				path = "/" + path
			}
			// prober.runProbe wraps the HTTP client's error: Get "URL": dial tcp ...
			return false, fmt.Sprintf("Get %q: dial tcp %s:%s: connect: connection refused", scheme+"://"+host+":"+port+path, host, port)
		}
		if o == overrideFail {
			// probe/http DoHTTPProbe: a status outside 200-399
			return false, "HTTP probe failed with statuscode: 503"
		}
		return true, ""
	}
	if h, ok := rp.Handler["tcpSocket"].(map[string]any); ok {
		port, declared := probePort(p, h["port"])
		if !declared || o == overrideFail {
			return false, fmt.Sprintf("dial tcp %s:%s: connect: connection refused", ip, port)
		}
		return true, ""
	}
	if h, ok := rp.Handler["exec"].(map[string]any); ok {
		if o == overrideFail || commandFails(anyStrings(h["command"])) {
			return false, ""
		}
		return true, ""
	}
	if _, ok := rp.Handler["grpc"]; ok && o == overrideFail {
		port, _ := probePort(p, rp.Handler["grpc"].(map[string]any)["port"])
		return false, fmt.Sprintf("timeout: failed to connect service %q within 1s", ip+":"+port)
	}
	return o != overrideFail, ""
}

// probePort resolves a probe's port (a number or a container port name)
// and reports whether a container of the pod declares it.
func probePort(p *api.Pod, v any) (string, bool) {
	var num int64 = -1
	name := ""
	switch x := v.(type) {
	case int:
		num = int64(x)
	case int64:
		num = x
	case float64:
		num = int64(x)
	case string:
		if n, err := strconv.ParseInt(x, 10, 32); err == nil {
			num = n
		} else {
			name = x
		}
	}
	for _, c := range p.Spec.Containers {
		for _, cp := range c.Ports {
			if (name != "" && cp.Name == name) || (name == "" && int64(cp.ContainerPort) == num) {
				return strconv.Itoa(int(cp.ContainerPort)), true
			}
		}
	}
	if name != "" {
		return name, false
	}
	return strconv.FormatInt(num, 10), false
}

// anyStrings converts a decoded YAML sequence to strings.
func anyStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// commandFails reports whether a simulated command exits non-zero at once:
// `false` / `/bin/false`, or a shell's -c script whose last statement is
// `exit N` with N != 0 (e.g. ["sh", "-c", "exit 1"]).
func commandFails(argv []string) bool {
	code, ok := commandExit(argv)
	return ok && code != 0
}

// commandExit returns the exit code of a command the simulation runs to
// completion (commandRun in exits.go: `false`, `true`, `echo`, `exit N`,
// `sleep N`, or a shell's -c SCRIPT whose last statement is one of those).
// ok is false for any other command (it keeps running).
func commandExit(argv []string) (code int32, ok bool) {
	code, _, ok = commandRun(argv)
	return code, ok
}
