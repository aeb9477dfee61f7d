package kubelet

import (
	"fmt"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Crashing containers and CrashLoopBackOff mirror the kubelet's container
// restart back-off (pkg/kubelet/kuberuntime: kubeGenericRuntimeManager.doBackOff,
// with the kubelet's backOff = flowcontrol.NewBackOff(10s, MaxContainerBackOff 300s)).
//
// Trigger: a container whose command line (command followed by args) the
// simulation runs to completion at once (commandExit: `false`, `true`, or
// `sh -c "... ; exit N"`) exits CrashExitAfter after it starts. Its status
// turns Terminated (reason Error with the exit code, or Completed for exit
// 0: a DaemonSet pod's restartPolicy is Always, so both restart), and the
// kubelet syncs the pod CrashSyncDelay later (the PLEG sees the exit):
//   - no back-off entry yet, or the entry is older than twice the maximum
//     (flowcontrol.Backoff.Next resets after 2 x 300 s = 10 min without a
//     failure): the back-off becomes 10 s and the container restarts at once
//     (restartCount + 1, lastState the terminated run);
//   - otherwise, while now - finishedAt < back-off (IsInBackOffSince), the
//     container waits: reason CrashLoopBackOff, message "back-off 10s
//     restarting failed container=NAME pod=POD_NS(UID)", and a Warning
//     BackOff event "Back-off restarting failed container NAME in pod
//     POD_NS(UID)"; the failed sync is retried podWorkerResync (10-15 s)
//     later, and the first sync after the back-off restarts the container,
//     the back-off doubling (10 s, 20 s, 40 s ... capped at 300 s). The
//     restarts therefore come a little after each back-off ends, as on a
//     real node.
//
// kubectl get pods therefore shows STATUS Error, then CrashLoopBackOff, with
// RESTARTS counting up, and the pod is never Ready.

// CrashExitAfter is how long a crashing container runs before it exits.
const CrashExitAfter = 500 * time.Millisecond

// InitRunFor is how long an init container whose command the simulation
// does not know runs before it completes.
const InitRunFor = time.Second

// CrashSyncDelay is the time from a container's exit to the kubelet's next
// sync of the pod (the PLEG relist notices the exit within a second).
const CrashSyncDelay = time.Second

// Container restart back-off (kubelet.go: backOffPeriod, MaxContainerBackOff).
const (
	CrashBackOffInitial = 10 * time.Second
	CrashBackOffMax     = 300 * time.Second
)

type crashPhase int8

const (
	crashRunning  crashPhase = iota // running; the next exit or probe is at `at` (zero: none)
	crashExited                     // terminated, next sync at `at`
	crashBackOff                    // waiting, restarts at `at`
	crashDone                       // terminated for good (restartPolicy)
	crashStopping                   // killed by a probe, stops at `at` with stopCode
)

// Restart policies of one container (kuberuntime computePodActions /
// ShouldContainerBeRestarted): app containers follow the pod's
// restartPolicy; a regular init container restarts only on failure (unless
// the pod's policy is Never); a sidecar (restartable init container)
// always restarts.
type restartPolicy int8

const (
	restartAlways restartPolicy = iota
	restartOnFailure
	restartNever
)

// killProbe is a liveness or startup probe that fails: the kubelet's
// prober records Unhealthy on every failure and, after failureThreshold
// consecutive ones, kills the container (probe.go).
type killProbe struct {
	kind      string        // "Liveness" or "Startup"
	first     time.Duration // from the container's start to the first probe
	period    time.Duration
	threshold int
	out       string // "failed: OUTPUT" or "errored: ERROR" (probeOutcome)
}

// containerCrash is the restart state of one container that exits or is
// killed: app containers, init containers and sidecars alike.
type containerCrash struct {
	crashes bool
	code    int32
	// run is how long each run lasts before the process exits; zero when
	// it does not exit by itself (only a probe kills it).
	run   time.Duration
	probe *killProbe
	// probeAt is the next failing probe of the current run, fails the
	// failures so far; exitAt is when the process exits (zero: never).
	probeAt, exitAt time.Time
	fails           int
	policy          restartPolicy
	// readyRunning: the container is Ready while it runs (no readiness or
	// startup probe holds it back); started: it counts as started.
	readyRunning bool
	notStarted   bool
	// startDelay is when a passing startup probe first runs, from the
	// container's start (its initialDelaySeconds); startedAt is that
	// moment in the current run, zero once passed.
	startDelay time.Duration
	startedAt  time.Time
	phase      crashPhase
	at         time.Time
	backoff    time.Duration
	lastUpdate time.Time
	hasEntry   bool
	// stopCode is the exit code of a container being stopped
	// (crashStopping).
	stopCode int32
	// finishedAt is when the last run ended, at full precision: the
	// runtime's status (kubecontainer.Status.FinishedAt) the back-off
	// is measured from (doBackOff), while the API object holds it
	// truncated to the second (status_manager.go normalizeStatus).
	finishedAt time.Time
}

// crashLoop is the restart state of a pod: its app containers (cs) and its
// init containers (ics, nil without init containers) with the progress of
// the init sequence (initcontainers.go).
type crashLoop struct {
	cs  []containerCrash
	ics []containerCrash
	// next is the index of the next init container to start, at nextAt;
	// initDone is set once every regular init container completed.
	next     int
	nextAt   time.Time
	initDone bool
	// ipull is the image pull of init container next, ipulled set once
	// its image is there (initialized).
	ipull   *pull
	ipulled bool
	// iretryAt, when set, is the pod worker's next sync after init
	// container next failed to start (its image check or its
	// configuration, startcheck.go).
	iretryAt time.Time
}

// containerArgv is what the container runs: command then args.
func containerArgv(c *api.Container) []string {
	return append(append([]string(nil), c.Command...), c.Args...)
}

// planContainer fills cc for container i of pod p (an init container when
// init): whether and how it exits (processExit), which failing
// liveness/startup probe kills it (failingProbe), and its restart policy.
func planContainer(p *api.Pod, init bool, i int) containerCrash {
	c := specContainer(p, init, i)
	var cc containerCrash
	code, after, exits := processExit(p, init, i)
	if init && !isSidecar(c) && !exits && !runsForever(effectiveArgv(c)) {
		// A regular init container is a program meant to finish: one
		// whose command the simulation does not know (calico's
		// `install`, a migration tool ...) completes with 0 a moment
		// after it starts; only a command known to run forever
		// (`sleep infinity`, `tail -f`) blocks the pod in Init.
		code, after, exits = 0, InitRunFor, true
	}
	if exits {
		cc.crashes, cc.code, cc.run = true, code, after
	}
	sidecar := init && isSidecar(c)
	if !init || sidecar {
		if kp := failingProbe(p, init, i); kp != nil {
			cc.crashes, cc.probe = true, kp
			cc.notStarted = kp.kind == "Startup"
		} else if sp := startupProbe(p, init, i); sp != nil && sp.InitialDelaySeconds > 0 {
			// A passing startup probe: the container counts as started,
			// and may be Ready, from its first run on.
			cc.crashes = true
			cc.startDelay = time.Duration(sp.InitialDelaySeconds) * time.Second
		}
	}
	pol := p.Spec.RestartPolicy
	switch {
	case sidecar:
		cc.policy = restartAlways
	case pol == "Never":
		cc.policy = restartNever
	case init || pol == "OnFailure":
		cc.policy = restartOnFailure
	}
	// A process that exits at once is never seen Ready.
	cc.readyRunning = (!init || sidecar) && !cc.notStarted && (c.ReadinessProbe == nil || !readinessFails(p, c)) &&
		!(exits && after <= CrashExitAfter)
	return cc
}

// readinessFails reports whether container c's readiness probe fails as
// written.
func readinessFails(p *api.Pod, c *api.Container) bool {
	ok, _ := probeOutcome(p, c, c.ReadinessProbe, overrideNone)
	return !ok
}

// begin starts a run of cc at t: the exit and the first failing probe.
func (cc *containerCrash) begin(t time.Time) {
	cc.phase, cc.fails = crashRunning, 0
	cc.exitAt, cc.probeAt = time.Time{}, time.Time{}
	if cc.run > 0 {
		cc.exitAt = t.Add(cc.run)
	}
	if cc.probe != nil {
		cc.probeAt = t.Add(cc.probe.first)
	}
	cc.startedAt = time.Time{}
	if cc.startDelay > 0 {
		cc.startedAt = t.Add(cc.startDelay)
	}
	cc.at = earliest(earliest(cc.exitAt, cc.probeAt), cc.startedAt)
}

// startedNow reports whether the container counts as started in its
// current run (status.started); readyNow whether it is Ready.
func (cc *containerCrash) startedNow() bool { return !cc.notStarted && cc.startedAt.IsZero() }

func (cc *containerCrash) readyNow() bool { return cc.readyRunning && cc.startedAt.IsZero() }

// earliest is the earlier of two times, a zero time counting as never.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// active reports whether something is due for cc at some time.
func (cc *containerCrash) active() bool {
	return cc.crashes && cc.phase != crashDone && !cc.at.IsZero()
}

// restarts reports whether a container that exited with code restarts.
func (cc *containerCrash) restarts(code int32) bool {
	switch cc.policy {
	case restartNever:
		return false
	case restartOnFailure:
		return code != 0
	}
	return true
}

// crashingContainers builds the crash state of a pod whose app containers
// just started at started, merged into the state the init containers left
// (k.crashers), or nil when no container exits, is killed by a probe, or
// needs its init state kept.
func (k *Kubelets) crashingContainers(p *api.Pod, started time.Time) *crashLoop {
	cl := k.crashers[p.UID]
	any := cl != nil && cl.sidecarsCrash()
	cs := make([]containerCrash, len(p.Spec.Containers))
	for i := range p.Spec.Containers {
		cs[i] = planContainer(p, false, i)
		if cs[i].crashes {
			cs[i].begin(started)
			any = true
		}
	}
	if !any {
		// Nothing restarts: the init state, if any, is no longer needed
		// (a settled pod costs no passes).
		delete(k.crashers, p.UID)
		return nil
	}
	if cl == nil {
		cl = &crashLoop{}
	}
	cl.cs = cs
	return cl
}

// sidecarsCrash reports whether some started init container still has
// transitions to come.
func (cl *crashLoop) sidecarsCrash() bool {
	for i := range cl.ics {
		if cl.ics[i].crashes && cl.ics[i].phase != crashDone {
			return true
		}
	}
	return false
}

// formatPod is format.Pod: NAME_NAMESPACE(UID).
func formatPod(p *api.Pod) string { return fmt.Sprintf("%s_%s(%s)", p.Name, p.Namespace, p.UID) }

// crash advances the crash loops of pod p to now and writes the statuses.
func (k *Kubelets) crash(n *api.Node, p *api.Pod) {
	cl := k.crashers[p.UID]
	if cl == nil {
		return
	}
	changed := false
	if cl.initDone {
		for i := range cl.ics {
			if i < len(p.Status.InitContainerStatuses) && k.step(n, p, &cl.ics[i], &p.Spec.InitContainers[i], &p.Status.InitContainerStatuses[i], initFieldPath(p.Spec.InitContainers[i].Name)) {
				changed = true
			}
		}
	}
	done, failed := len(cl.cs) > 0, false
	for i := range cl.cs {
		cc := &cl.cs[i]
		if i >= len(p.Status.ContainerStatuses) {
			continue
		}
		if k.step(n, p, cc, &p.Spec.Containers[i], &p.Status.ContainerStatuses[i], containerFieldPath(p.Spec.Containers[i].Name)) {
			changed = true
		}
		if cc.phase != crashDone {
			done = false
		} else if cc.code != 0 {
			failed = true
		}
	}
	now := k.c.Now()
	if done {
		// Every container terminated and none restarts (restartPolicy
		// Never / OnFailure): the pod's phase is final
		// (kubelet_pods.go getPhase).
		p.Status.Phase = api.PodSucceeded
		if failed {
			p.Status.Phase = api.PodFailed
		}
		k.decide(p, "SyncPod", "finished", fmt.Sprintf("every container terminated and the restartPolicy %q restarts none: the pod is %s", p.Spec.RestartPolicy, p.Status.Phase))
		changed = true
	}
	if k.writeConditions(p, now) {
		changed = true
	}
	if changed {
		_ = k.writeStatus(p)
	}
	if p.IsReady() && !cl.busy() {
		// Nothing is left to happen (a passed startup gate): the pod is
		// settled like any running, Ready pod.
		delete(k.crashers, p.UID)
	}
}

// busy reports whether some container of the loop has transitions to come
// or the init sequence is not over.
func (cl *crashLoop) busy() bool {
	if cl.ics != nil && !cl.initDone {
		return true
	}
	for _, list := range [][]containerCrash{cl.cs, cl.ics} {
		for i := range list {
			if list[i].active() {
				return true
			}
		}
	}
	return false
}

// step advances one container's exits, probe kills and restarts to now; it
// reports whether the container's status changed.
func (k *Kubelets) step(n *api.Node, p *api.Pod, cc *containerCrash, c *api.Container, st *api.ContainerStatus, fp string) bool {
	now := k.c.Now()
	changed := false
	for cc.active() && !cc.at.After(now) {
		changed = true
		switch cc.phase {
		case crashRunning:
			if !cc.startedAt.IsZero() && !cc.startedAt.After(cc.at) {
				// The startup probe's first run passes: the container
				// has started; liveness and readiness count from now.
				st.Started = api.BoolPtr(true)
				st.Ready = cc.readyRunning
				k.decide(p, "doProbe", "started", fmt.Sprintf("container %s passed its startup probe: started", c.Name))
				cc.startedAt = time.Time{}
				cc.at = earliest(cc.exitAt, cc.probeAt)
				continue
			}
			started := cc.at
			if st.State.Running != nil {
				started = st.State.Running.StartedAt
			}
			if !cc.probeAt.IsZero() && (cc.exitAt.IsZero() || !cc.exitAt.Before(cc.probeAt)) {
				// prober.runProbe / worker.doProbe: a failed liveness or
				// startup probe; after failureThreshold of them the
				// kubelet kills the container (computePodActions:
				// "Container %s failed %s probe").
				at := cc.probeAt
				kind := cc.probe.kind
				k.event(p, n, fp, api.EventTypeWarning, "Unhealthy", kind+" probe "+cc.probe.out)
				cc.fails++
				if cc.fails < cc.probe.threshold {
					cc.probeAt = at.Add(cc.probe.period)
					cc.at = earliest(cc.exitAt, cc.probeAt)
					continue
				}
				lower := strings.ToLower(kind)
				k.event(p, n, fp, api.EventTypeNormal, "Killing", fmt.Sprintf("Container %s failed %s probe, will be restarted", c.Name, lower))
				code, after := stopOutcome(p, c)
				k.decide(p, "computePodActions", "kill", fmt.Sprintf("container %s failed its %s probe %d times (failureThreshold): stopped (exit %d after %s) and restarted", c.Name, lower, cc.fails, code, after))
				if after > 0 {
					// killContainer: the container runs on until the
					// grace period ends.
					cc.phase, cc.stopCode, cc.at = crashStopping, code, at.Add(after)
					cc.probeAt, cc.exitAt = time.Time{}, time.Time{}
					continue
				}
				cc.stopCode, cc.at = code, at
				k.terminate(p, cc, st, started)
				continue
			}
			k.decide(p, "SyncPod", "exit", fmt.Sprintf("container %s exited with code %d", c.Name, cc.code))
			cc.stopCode = cc.code
			k.terminate(p, cc, st, started)
		case crashStopping:
			started := cc.at
			if st.State.Running != nil {
				started = st.State.Running.StartedAt
			}
			k.terminate(p, cc, st, started)
		case crashExited, crashBackOff:
			finished := cc.finishedAt // the runtime's precise exit time
			if finished.IsZero() {
				if t := st.State.Terminated; t != nil {
					finished = t.FinishedAt
				} else if t := st.LastState.Terminated; t != nil {
					finished = t.FinishedAt
				}
			}
			syncAt := cc.at
			if cc.hasEntry && syncAt.Sub(finished) < cc.backoff {
				// doBackOff: IsInBackOffSince(key, finishedAt): the
				// container waits, a BackOff event on every sync, and
				// the pod worker tries again podWorkerResync later.
				if st.State.Terminated != nil {
					st.LastState = api.ContainerState{Terminated: st.State.Terminated}
				}
				st.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff",
					Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", cc.backoff, c.Name, formatPod(p))}}
				k.event(p, n, fp, api.EventTypeWarning, "BackOff", fmt.Sprintf("Back-off restarting failed container %s in pod %s", c.Name, formatPod(p)))
				if cc.phase == crashExited {
					k.decide(p, "doBackOff", "backoff", fmt.Sprintf("container %s keeps failing: CrashLoopBackOff, back-off %s from its exit", c.Name, cc.backoff))
				}
				cc.phase, cc.at = crashBackOff, syncAt.Add(podWorkerResync(p, c.Name))
				continue
			}
			// backOff.Next(key, finishedAt), then start the container again.
			cc.backoff = nextBackOff(cc.backoff, cc.lastUpdate, syncAt, CrashBackOffInitial, CrashBackOffMax)
			cc.hasEntry = true
			cc.lastUpdate = syncAt
			if st.State.Terminated != nil {
				st.LastState = api.ContainerState{Terminated: st.State.Terminated}
			}
			st.RestartCount++
			k.imageOnRestart(n, p, c, fp, st.RestartCount)
			k.runContainer(n, p, cc, c, st, fp, syncAt)
			k.decide(p, "SyncPod", "restart", fmt.Sprintf("container %s restarted (restart %d)", c.Name, st.RestartCount))
		}
	}
	if cc.active() {
		k.c.WakeAt(cc.at)
	}
	return changed
}

// runContainer starts a run of the container at t: status Running, the
// Created / Started events, and the next exit or probe. The image step
// comes before (planPull for a first start, imageOnRestart for a restart).
func (k *Kubelets) runContainer(n *api.Node, p *api.Pod, cc *containerCrash, c *api.Container, st *api.ContainerStatus, fp string, t time.Time) {
	st.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: cluster.MetaTime(t)}}
	if cc.crashes {
		cc.begin(t)
	}
	st.Started = api.BoolPtr(cc.startedNow())
	st.Ready = cc.readyNow()
	// every run is a new container: a new ID (convertContainerStatus)
	setRuntimeStatus(p, c, st)
	k.event(p, n, fp, api.EventTypeNormal, "Created", "Container created")
	k.event(p, n, fp, api.EventTypeNormal, "Started", "Container started")
}

// terminate writes the end of a run of cc at cc.at with exit code
// cc.stopCode (reason Completed for 0, else Error, as containerd reports
// it) and moves cc on: to the sync that restarts it, or to crashDone when
// its restart policy does not restart it.
func (k *Kubelets) terminate(p *api.Pod, cc *containerCrash, st *api.ContainerStatus, started time.Time) {
	code, reason := cc.stopCode, "Error"
	if code == 0 {
		reason = "Completed"
	}
	st.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: cluster.MetaTime(started), FinishedAt: cluster.MetaTime(cc.at),
		ContainerID: st.ContainerID}}
	cc.finishedAt = cc.at
	st.Ready, st.Started = false, api.BoolPtr(false)
	if !cc.restarts(code) {
		cc.code = code
		cc.phase = crashDone
		return
	}
	cc.phase, cc.at = crashExited, cc.at.Add(CrashSyncDelay)
}

// stopSignalExits are the images whose process, run with the image's
// default command, stops promptly and cleanly on the image's stop signal,
// by normalized repository, with the exit code: nginx (STOPSIGNAL SIGQUIT:
// graceful shutdown, exit 0), httpd (STOPSIGNAL SIGWINCH: graceful stop,
// exit 0), redis (SIGTERM handler: "ready to exit, bye bye", exit 0).
var stopSignalExits = map[string]int32{
	"docker.io/library/nginx": 0,
	"docker.io/library/httpd": 0,
	"docker.io/library/redis": 0,
}

// stopOutcome is how container c of pod p ends when the kubelet kills it
// after a failed liveness or startup probe (kuberuntime killContainer:
// the runtime sends the image's stop signal — STOPSIGNAL, SIGTERM by
// default — waits up to the pod's terminationGracePeriodSeconds, then
// sends SIGKILL): the exit code and how long after the kill the container
// stops. An image of stopSignalExits run with its default command exits
// with its code at once (0: reason Completed). Anything else — shells,
// sleep, unknown images — is taken not to stop: a process that is PID 1
// of its container gets no default action for SIGTERM (the kernel does not
// deliver to a namespace's init a signal it has no handler for), so it is
// killed at the end of the grace period and exits 137 (128 + SIGKILL,
// reason Error). For an unknown image this is a guess the restart's exit
// code depends on; a pod deletion, whose exit code nobody sees, assumes
// the opposite for unknown images (ignoresStopSignal). The probe-level
// terminationGracePeriodSeconds is not modelled.
func stopOutcome(p *api.Pod, c *api.Container) (code int32, after time.Duration) {
	if len(c.Command) == 0 {
		if code, ok := stopSignalExits[repository(NormalizeImage(c.Image))]; ok {
			return code, 0
		}
	}
	grace := cluster.DefaultTerminationGracePeriodSeconds
	if p.Spec.TerminationGracePeriodSeconds != nil {
		grace = *p.Spec.TerminationGracePeriodSeconds
	}
	return 137, time.Duration(grace) * time.Second
}

// ignoresStopSignal reports whether container c's process is known to
// ignore the stop signal (SIGTERM) and so runs until the kubelet's SIGKILL
// at the end of the grace period: its command line (effectiveArgv: the
// pod's command and args, or a known base image's default shell) starts
// with sleep, tail or a shell (sh, bash, ash, dash, zsh — interactive or
// running a -c script with no `trap`; `sh -c "exec sleep infinity"` leaves
// sleep as PID 1, which ignores it just the same). Each is PID 1 of its container and
// installs no SIGTERM handler, and the kernel gives a namespace's init no
// default action for a signal it does not handle (the same rule as
// stopOutcome's for liveness kills). A script that sets a trap, a known
// server image (nginx, redis ...) and any image or command the simulation
// does not know (fluentd, kube-proxy, pause, node-exporter: servers that
// shut down on SIGTERM) are taken to stop promptly.
func ignoresStopSignal(c *api.Container) bool {
	argv := effectiveArgv(c)
	if len(argv) == 0 {
		return false
	}
	base := argv[0][strings.LastIndex(argv[0], "/")+1:]
	switch base {
	case "sleep", "tail":
		return true
	case "sh", "bash", "ash", "dash", "zsh":
		for _, a := range argv[1:] {
			if strings.Contains(a, "trap ") {
				return false
			}
		}
		return true
	}
	return false
}

// imageOnRestart mirrors the image step of startContainer
// (imageManager.EnsureImageExists) when a container restarts: with
// imagePullPolicy Always (explicit, or defaulted for :latest and untagged
// images) every start pulls — Normal Pulling, then Pulled "Successfully
// pulled image ... in Xs (Xs including waiting)" (the image is present, so
// the registry only confirms the digest: 0.5-1.0 s, recorded at the
// restart itself rather than delaying it) — otherwise the image is
// "already present on machine". restart seeds the pull's duration.
func (k *Kubelets) imageOnRestart(n *api.Node, p *api.Pod, c *api.Container, fp string, restart int32) {
	if pullPolicy(c) != "Always" {
		k.event(p, n, fp, api.EventTypeNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", c.Image))
		return
	}
	d := pullDelay(hash32(p.UID+"/"+c.Name+"/"+itoa(int(restart))), true)
	k.event(p, n, fp, api.EventTypeNormal, "Pulling", fmt.Sprintf("Pulling image %q", c.Image))
	k.event(p, n, fp, api.EventTypeNormal, "Pulled", fmt.Sprintf("Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.", c.Image, d, d, imageSize(c.Image)))
}

// writeConditions derives the Initialized, ContainersReady and Ready
// conditions from the container statuses (status/generate.go:
// GeneratePodInitializedCondition, GenerateContainersReadyCondition,
// GeneratePodReadyCondition): a pod is Ready when its sidecars (started
// restartable init containers) and app containers are all ready; it reports
// whether a condition changed.
func (k *Kubelets) writeConditions(p *api.Pod, now time.Time) bool {
	var unready []string
	for i, c := range p.Spec.InitContainers {
		if isSidecar(&c) && (i >= len(p.Status.InitContainerStatuses) || !p.Status.InitContainerStatuses[i].Ready) {
			unready = append(unready, c.Name)
		}
	}
	for _, cs := range p.Status.ContainerStatuses {
		if !cs.Ready {
			unready = append(unready, cs.Name)
		}
	}
	before := conditionsKey(p)
	if len(unready) == 0 {
		p.SetCondition(api.ContainersReady, api.ConditionTrue, "", "", cluster.MetaTime(now))
		p.SetCondition(api.PodReady, api.ConditionTrue, "", "", cluster.MetaTime(now))
	} else {
		msg := fmt.Sprintf("containers with unready status: [%s]", joinNames(unready))
		p.SetCondition(api.ContainersReady, api.ConditionFalse, "ContainersNotReady", msg, cluster.MetaTime(now))
		p.SetCondition(api.PodReady, api.ConditionFalse, "ContainersNotReady", msg, cluster.MetaTime(now))
	}
	return conditionsKey(p) != before
}

func conditionsKey(p *api.Pod) string {
	s := ""
	for _, c := range p.Status.Conditions {
		s += c.Type + "=" + c.Status + ":" + c.Message + ";"
	}
	return s
}

// markUnready sets ContainersReady and Ready to False for the containers
// whose ready flag is off (a crashing pod is never Ready).
func (k *Kubelets) markUnready(p *api.Pod, now time.Time) {
	var unready []string
	for _, cs := range p.Status.ContainerStatuses {
		if !cs.Ready {
			unready = append(unready, cs.Name)
		}
	}
	if len(unready) == 0 {
		return
	}
	msg := fmt.Sprintf("containers with unready status: [%s]", joinNames(unready))
	p.SetCondition(api.ContainersReady, api.ConditionFalse, "ContainersNotReady", msg, cluster.MetaTime(now))
	p.SetCondition(api.PodReady, api.ConditionFalse, "ContainersNotReady", msg, cluster.MetaTime(now))
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += " "
		}
		s += n
	}
	return s
}
