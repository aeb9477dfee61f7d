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
//   - httpGet, tcpSocket and grpc: see probeListens. A container's ports
//     list is informational: it neither restricts nor changes what the
//     process listens on. A numeric port passes when a container of the
//     pod whose image the simulation knows (listeningPorts: nginx 80,
//     redis 6379 ...) listens there — its image's ports, whatever its
//     containerPort says — when a container whose image is not in that
//     table declares it, or when the probed container's image is not in
//     that table (the app is assumed to listen where it is probed). A
//     known image probed on a port it does not listen on fails with
//     "connect: connection refused", even if the pod declares that port. A named port resolves only among the probed
//     container's own ports (probe.ResolveContainerPort); a name it does
//     not declare makes the probe error ("Liveness probe errored:
//     strconv.Atoi: parsing \"http\": invalid syntax").
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
	// sidecars are the readiness workers of the restartable init
	// containers, by init container index (others stay zero): a sidecar's
	// readiness counts in the pod's, as an app container's does
	// (status.GenerateContainersReadyCondition).
	sidecars []containerProber
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

// newProber builds the readiness workers of a running pod: its app
// containers and its sidecars. When resume is true the pod was already
// being probed (its container statuses carry the readiness so far) and the
// next probe is the first one after now; otherwise the containers just
// started and the first probe is at initialDelaySeconds.
func (k *Kubelets) newProber(p *api.Pod, resume bool) *podProber {
	now := k.c.Now()
	pr := &podProber{containers: make([]containerProber, len(p.Spec.Containers)), sidecars: make([]containerProber, len(p.Spec.InitContainers))}
	for i := range p.Spec.Containers {
		var cs *api.ContainerStatus
		if i < len(p.Status.ContainerStatuses) {
			cs = &p.Status.ContainerStatuses[i]
		}
		pr.containers[i].start(p.Spec.Containers[i].ReadinessProbe, cs, resume, now)
	}
	for i := range p.Spec.InitContainers {
		if !isSidecar(&p.Spec.InitContainers[i]) {
			continue
		}
		var cs *api.ContainerStatus
		if i < len(p.Status.InitContainerStatuses) {
			cs = &p.Status.InitContainerStatuses[i]
		}
		pr.sidecars[i].start(p.Spec.InitContainers[i].ReadinessProbe, cs, resume, now)
	}
	return pr
}

// start sets up the readiness worker of a container with readiness probe
// rp (nil: none) and status cs (nil: none yet); see newProber.
func (cp *containerProber) start(rp *api.Probe, cs *api.ContainerStatus, resume bool, now time.Time) {
	var started time.Time
	if cs != nil {
		cp.ready = resume && cs.Ready
		if cs.State.Running != nil {
			started = cs.State.Running.StartedAt
		}
	}
	if rp == nil {
		return
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

func probePeriod(rp *api.Probe) time.Duration {
	return time.Duration(max(rp.PeriodSeconds, 1)) * time.Second
}

// probesFail reports whether some readiness probe of the pod fails as
// written (without override).
func (k *Kubelets) probesFail(p *api.Pod) bool {
	fails := func(c *api.Container) bool {
		if c.ReadinessProbe == nil {
			return false
		}
		ok, _ := k.probeResult(p, c, overrideNone)
		return !ok
	}
	for i := range p.Spec.Containers {
		if fails(&p.Spec.Containers[i]) {
			return true
		}
	}
	for i := range p.Spec.InitContainers {
		if c := &p.Spec.InitContainers[i]; isSidecar(c) && fails(c) {
			return true
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
	for _, c := range p.Spec.InitContainers {
		if isSidecar(&c) && c.ReadinessProbe != nil {
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
		if !k.probeContainer(n, p, &p.Spec.Containers[i], &pr.containers[i], containerFieldPath(p.Spec.Containers[i].Name), o, now) {
			settled = false
		}
	}
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		if !isSidecar(c) || c.ReadinessProbe == nil || i >= len(pr.sidecars) {
			continue // a sidecar without probe is ready once started (crash.go)
		}
		if !k.probeContainer(n, p, c, &pr.sidecars[i], initFieldPath(c.Name), o, now) {
			settled = false
		}
	}
	if !settled {
		for _, list := range [][]containerProber{pr.containers, pr.sidecars} {
			for _, cp := range list {
				if !cp.next.IsZero() {
					k.c.WakeAt(cp.next)
				}
			}
		}
	}
	changed := k.writeReadiness(p, pr, now)
	if settled {
		delete(k.probers, p.UID)
	}
	return changed
}

// probeContainer runs the due readiness probes of container c (worker
// cp, events under field path fp) up to now; it reports whether the
// container's readiness is settled (ready, and its probe keeps passing).
func (k *Kubelets) probeContainer(n *api.Node, p *api.Pod, c *api.Container, cp *containerProber, fp string, o probeOverride, now time.Time) bool {
	rp := c.ReadinessProbe
	if rp == nil {
		want := o != overrideFail
		if cp.ready != want {
			cp.ready = want
			if !want {
				k.event(p, n, fp, api.EventTypeWarning, "Unhealthy", "Readiness probe failed: ")
			}
		}
		return cp.ready
	}
	if cp.next.IsZero() {
		return true
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
			k.event(p, n, fp, api.EventTypeWarning, "Unhealthy", "Readiness probe "+out)
			if cp.ready && cp.fails >= int(max(rp.FailureThreshold, 1)) {
				cp.ready = false
			}
		}
		cp.next = cp.next.Add(period)
	}
	if !cp.ready {
		return false
	}
	ok, _ := k.probeResult(p, c, o)
	return ok
}

// writeReadiness copies the prober's container readiness into the pod
// status and derives the ContainersReady and Ready conditions
// (status.GenerateContainersReadyCondition / GeneratePodReadyCondition:
// reason ContainersNotReady, "containers with unready status: [a b]").
func (k *Kubelets) writeReadiness(p *api.Pod, pr *podProber, now time.Time) bool {
	changed := false
	var unready []string
	for i, c := range p.Spec.InitContainers {
		if !isSidecar(&c) || i >= len(p.Status.InitContainerStatuses) || i >= len(pr.sidecars) {
			continue
		}
		cs := &p.Status.InitContainerStatuses[i]
		r := cs.State.Running != nil
		if c.ReadinessProbe != nil {
			r = r && pr.sidecars[i].ready
			if cs.Ready != r {
				cs.Ready, changed = r, true
			}
		} else {
			r = r && cs.Ready
		}
		if !r {
			unready = append(unready, cs.Name)
		}
	}
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
		p.SetCondition(api.ContainersReady, api.ConditionTrue, "", "", cluster.MetaTime(now))
		p.SetCondition(api.PodReady, api.ConditionTrue, "", "", cluster.MetaTime(now))
		k.decide(p, "doProbe", "ready", "the readiness probes passed: the pod is Ready")
	} else {
		msg := fmt.Sprintf("containers with unready status: [%s]", strings.Join(unready, " "))
		p.SetCondition(api.ContainersReady, api.ConditionFalse, "ContainersNotReady", msg, cluster.MetaTime(now))
		p.SetCondition(api.PodReady, api.ConditionFalse, "ContainersNotReady", msg, cluster.MetaTime(now))
		k.decide(p, "doProbe", "unready", "a readiness probe failed: the pod is not Ready ("+msg+")")
	}
	_ = k.writeStatus(p)
	return true
}

// probeResult is the outcome of one readiness probe of container c and the
// output the kubelet puts in the Unhealthy event when it fails.
func (k *Kubelets) probeResult(p *api.Pod, c *api.Container, o probeOverride) (bool, string) {
	return probeOutcome(p, c, c.ReadinessProbe, o)
}

// probeOutcome is the outcome of one probe rp (readiness, liveness or
// startup) of container c of pod p, under override o, and, when it does
// not pass, what the kubelet's Unhealthy event says after "<Kind> probe ":
// "failed: <output>" for a probe that ran and failed, "errored: <error>"
// for one that could not run (prober.runProbe / prober.probe: an
// unresolvable named port).
func probeOutcome(p *api.Pod, c *api.Container, rp *api.Probe, o probeOverride) (bool, string) {
	if o == overridePass {
		return true, ""
	}
	ip := p.Status.PodIP
	if h, ok := rp.Handler["httpGet"].(map[string]any); ok {
		port, err := resolveContainerPort(c, h["port"])
		if err != nil {
			return false, "errored: " + err.Error()
		}
		ps := strconv.Itoa(port)
		if !probeListens(p, c, port) {
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
			return false, fmt.Sprintf("failed: Get %q: dial tcp %s:%s: connect: connection refused", scheme+"://"+host+":"+ps+path, host, ps)
		}
		if o == overrideFail {
			// probe/http DoHTTPProbe: a status outside 200-399
			return false, "failed: HTTP probe failed with statuscode: 503"
		}
		return true, ""
	}
	if h, ok := rp.Handler["tcpSocket"].(map[string]any); ok {
		port, err := resolveContainerPort(c, h["port"])
		if err != nil {
			return false, "errored: " + err.Error()
		}
		if !probeListens(p, c, port) || o == overrideFail {
			return false, fmt.Sprintf("failed: dial tcp %s:%d: connect: connection refused", ip, port)
		}
		return true, ""
	}
	if h, ok := rp.Handler["exec"].(map[string]any); ok {
		if o == overrideFail || commandFails(anyStrings(h["command"])) {
			return false, "failed: "
		}
		return true, ""
	}
	if h, ok := rp.Handler["grpc"].(map[string]any); ok {
		// grpc.port is a number (no named ports); the same listening
		// rule as tcpSocket.
		port, err := resolveContainerPort(c, h["port"])
		if err != nil {
			return false, "errored: " + err.Error()
		}
		if !probeListens(p, c, port) || o == overrideFail {
			return false, fmt.Sprintf("failed: timeout: failed to connect service %q within 1s", ip+":"+strconv.Itoa(port))
		}
		return true, ""
	}
	if o == overrideFail {
		return false, "failed: "
	}
	return true, ""
}

// resolveContainerPort mirrors pkg/probe/util.go ResolveContainerPort: a
// number is taken as is; a name is looked up among container c's own
// ports (findPortByName), and failing that parsed as a number in a string
// ("last ditch effort"), whose error is returned as is (`strconv.Atoi:
// parsing "http": invalid syntax`); a port outside 1-65535 is "invalid
// port number: N".
func resolveContainerPort(c *api.Container, v any) (int, error) {
	port := -1
	switch x := v.(type) {
	case int:
		port = x
	case int64:
		port = int(x)
	case float64:
		port = int(x)
	case string:
		found := false
		for _, cp := range c.Ports {
			if cp.Name == x {
				port, found = int(cp.ContainerPort), true
				break
			}
		}
		if !found {
			n, err := strconv.Atoi(x)
			if err != nil {
				return n, err
			}
			port = n
		}
	default:
		return port, fmt.Errorf("intOrString had no kind: %+v", v)
	}
	if port > 0 && port < 65536 {
		return port, nil
	}
	return port, fmt.Errorf("invalid port number: %v", port)
}

// listeningPorts are the TCP ports well-known images listen on with their
// default command, by normalized repository (NormalizeImage without tag).
// Sources: the images' Dockerfiles (EXPOSE) and default configurations.
var listeningPorts = map[string][]int{
	"docker.io/library/nginx":                       {80},
	"docker.io/library/httpd":                       {80},
	"docker.io/library/redis":                       {6379},
	"docker.io/library/memcached":                   {11211},
	"docker.io/library/postgres":                    {5432},
	"docker.io/library/mysql":                       {3306, 33060},
	"docker.io/library/elasticsearch":               {9200, 9300},
	"docker.elastic.co/elasticsearch/elasticsearch": {9200, 9300},
	"quay.io/prometheus/node-exporter":              {9100},
	"docker.io/prom/node-exporter":                  {9100},
	"quay.io/prometheus/prometheus":                 {9090},
	"docker.io/prom/prometheus":                     {9090},
	"cr.fluentbit.io/fluent/fluent-bit":             {2020},
	"docker.io/fluent/fluent-bit":                   {2020},
	"registry.k8s.io/coredns/coredns":               {53, 8080, 8181, 9153},
	"docker.io/coredns/coredns":                     {53, 8080, 8181, 9153},
}

// knownPorts returns the ports container c's image listens on and whether
// the simulation knows them: only for an image of listeningPorts run with
// its default command (a command of its own may start anything).
func knownPorts(c *api.Container) ([]int, bool) {
	if len(c.Command) > 0 {
		return nil, false
	}
	ports, ok := listeningPorts[repository(NormalizeImage(c.Image))]
	return ports, ok
}

// probeListens reports whether something in pod p answers on port when
// container c is probed there. The containers of a pod share one network
// namespace, so the port answers when any running container of the pod
// (app containers and sidecars) listens there. What a container listens
// on is its process's choice, not the pod's: `ports[].containerPort` is
// informational (core/v1 Container.Ports: "Not specifying a port here DOES
// NOT prevent that port from being exposed"; the kubelet neither opens nor
// checks it — prober.go runProbe dials the pod IP and the port as given,
// after probe.ResolveContainerPort). So:
//   - an image of listeningPorts run with its default command (knownPorts)
//     listens on the image's own ports, whatever containerPort says:
//     nginx declared with containerPort 8080 and probed on 8080 is refused,
//     as on a real node (its default.conf says `listen 80`);
//   - a container whose image or command the simulation does not know is
//     taken to listen on the ports it declares (we cannot know its
//     configuration), and, when it is the probed container, on the probed
//     port (the app is assumed to listen where it is probed).
//
// A known image probed on a port nothing listens on is refused.
func probeListens(p *api.Pod, c *api.Container, port int) bool {
	if _, known := knownPorts(c); !known {
		return true
	}
	for li, list := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range list {
			o := &list[i]
			if li == 1 && !isSidecar(o) {
				continue // a regular init container has exited
			}
			ports, known := knownPorts(o)
			if !known {
				for _, cp := range o.Ports {
					ports = append(ports, int(cp.ContainerPort))
				}
			}
			for _, q := range ports {
				if q == port {
					return true
				}
			}
		}
	}
	return false
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
