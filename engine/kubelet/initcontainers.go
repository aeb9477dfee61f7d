package kubelet

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Init containers mirror kuberuntime_manager.go computePodActions and
// findNextInitContainerToRun / computeInitContainerActions (1.29+ with
// sidecars): the init containers run one at a time, in order, before any
// app container. A regular init container must exit 0 before the next one
// starts; one that fails is restarted with the container back-off (the
// pod's restartPolicy Always or OnFailure; with Never the pod fails), so
// kubectl shows Init:Error then Init:CrashLoopBackOff and the app
// containers wait (PodInitializing). A sidecar (an init container with
// restartPolicy: Always) is started and kept running: the next init
// container starts once it has started, it counts in READY, and the pod is
// Ready only when it is ready too. What each container does is decided as
// for app containers (processExit, failingProbe).
//
// Images (kuberuntime startContainer → imageManager.EnsureImageExists):
// each init container pulls its own image when its turn comes, so a
// missing one shows Init:ErrImagePull / Init:ImagePullBackOff and the pod
// never runs; the app containers' images are pulled only once
// initialisation is over (planMainPulls in kubelet.go), so a missing app
// image never holds the init containers back. The pod's address exists
// from the first init container on (the sandbox is up).
//
// Statuses (status/generate.go): Initialized is False, reason
// ContainersNotInitialized, "containers with incomplete status: [NAMES]"
// until every regular init container has completed and every sidecar has
// started; init containers not yet run wait with reason PodInitializing,
// as do the app containers.

// isSidecar reports whether an init container is restartable (a sidecar).
func isSidecar(c *api.Container) bool { return c.RestartPolicy == "Always" }

// initFieldPath is the field path of an init container's events.
func initFieldPath(name string) string { return "spec.initContainers{" + name + "}" }

func itoa(i int) string { return strconv.Itoa(i) }

// admitInitContainers writes the first status of a pod with init
// containers: every init and app container waiting (PodInitializing) and
// Initialized False.
func (k *Kubelets) admitInitContainers(p *api.Pod, now time.Time) {
	if len(p.Spec.InitContainers) == 0 {
		return
	}
	p.Status.InitContainerStatuses = nil
	for _, c := range p.Spec.InitContainers {
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, api.ContainerStatus{
			Name: c.Name, Image: c.Image, Started: api.BoolPtr(false),
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "PodInitializing"}}})
	}
	for i := range p.Status.ContainerStatuses {
		if w := p.Status.ContainerStatuses[i].State.Waiting; w != nil && w.Reason == "ContainerCreating" {
			w.Reason = "PodInitializing"
		}
	}
	k.writeInitialized(p, now)
}

// writeInitialized sets the Initialized condition
// (GeneratePodInitializedCondition) and reports whether it changed.
func (k *Kubelets) writeInitialized(p *api.Pod, now time.Time) bool {
	var pending []string
	for i, c := range p.Spec.InitContainers {
		var st *api.ContainerStatus
		if i < len(p.Status.InitContainerStatuses) {
			st = &p.Status.InitContainerStatuses[i]
		}
		switch {
		case st == nil:
			pending = append(pending, c.Name)
		case isSidecar(&c):
			if st.Started == nil || !*st.Started {
				pending = append(pending, c.Name)
			}
		case st.State.Terminated == nil || st.State.Terminated.ExitCode != 0:
			pending = append(pending, c.Name)
		}
	}
	before := conditionsKey(p)
	if len(pending) == 0 {
		p.SetCondition(api.PodInitialized, api.ConditionTrue, "", "", cluster.MetaTime(now))
	} else {
		p.SetCondition(api.PodInitialized, api.ConditionFalse, "ContainersNotInitialized",
			fmt.Sprintf("containers with incomplete status: [%s]", strings.Join(pending, " ")), cluster.MetaTime(now))
	}
	return conditionsKey(p) != before
}

// initialized runs the init containers of pod p, whose app containers were
// planned to start at t.started, up to now. It reports whether the app
// containers may start now; when the init containers have just completed
// it moves t.started to a sync after the last one finished.
func (k *Kubelets) initialized(n *api.Node, p *api.Pod, t *timeline) bool {
	inits := p.Spec.InitContainers
	now := k.c.Now()
	if len(inits) == 0 || len(p.Status.InitContainerStatuses) != len(inits) {
		return true
	}
	cl := k.crashers[p.UID]
	if cl == nil {
		cl = &crashLoop{}
		k.crashers[p.UID] = cl
	}
	if cl.initDone {
		return !t.started.After(now)
	}
	if cl.ics == nil {
		cl.ics = make([]containerCrash, len(inits))
		cl.nextAt = t.started
	}
	changed := false
	for {
		for j := 0; j < cl.next; j++ {
			if k.step(n, p, &cl.ics[j], &inits[j], &p.Status.InitContainerStatuses[j], initFieldPath(inits[j].Name)) {
				changed = true
			}
		}
		if j := cl.next - 1; j >= 0 && !isSidecar(&inits[j]) {
			cc, st := &cl.ics[j], &p.Status.InitContainerStatuses[j]
			term := st.State.Terminated
			if cc.phase != crashDone || term == nil {
				break // running, or failing and backing off
			}
			if term.ExitCode != 0 {
				// restartPolicy Never: the pod fails (getPhase: an init
				// container failed and will not be restarted).
				p.Status.Phase = api.PodFailed
				k.decide(p, "SyncPod", "init-failed", fmt.Sprintf("init container %s failed with exit code %d and the restartPolicy is Never: the pod failed", inits[j].Name, term.ExitCode))
				changed = true
				break
			}
			finished := term.FinishedAt
			if !cc.finishedAt.IsZero() {
				finished = cc.finishedAt // the runtime's precise exit time
			}
			cl.nextAt = maxTime(cl.nextAt, finished.Add(CrashSyncDelay))
		}
		if cl.next == len(inits) {
			cl.initDone = true
			t.started = maxTime(t.started, cl.nextAt)
			k.decide(p, "SyncPod", "initialized", "every init container completed or started: the app containers start")
			k.c.WakeAt(t.started)
			break
		}
		if cl.nextAt.After(now) {
			k.c.WakeAt(cl.nextAt)
			break
		}
		i := cl.next
		st := &p.Status.InitContainerStatuses[i]
		// startContainer pulls the init container's own image first
		// (EnsureImageExists): Init:ErrImagePull / Init:ImagePullBackOff
		// while the registry lacks it, and the pod never gets further.
		// A failed image check or configuration (startcheck.go) is
		// tried again at the pod worker's next sync.
		if cl.iretryAt.After(now) {
			k.c.WakeAt(cl.iretryAt)
			break
		}
		if !cl.ipulled {
			if cl.ipull == nil || cl.ipull.blocked {
				pl, reason, msg := k.planPull(n, p, &inits[i], true, hash32(p.Namespace+"/"+p.Name)+uint32(i)*7919+104729)
				if reason != "" {
					if k.waitInit(p, st, &inits[i], cl, reason, msg, now) {
						changed = true
					}
					cl.ipull = &pull{container: inits[i].Name, init: true, blocked: true}
					break
				}
				cl.ipull = pl
			}
			if pl := cl.ipull; pl != nil {
				ok, ch := k.stepPull(n, p, pl, now)
				changed = changed || ch
				if !ok {
					break
				}
				cl.nextAt = maxTime(cl.nextAt, pl.done)
				cl.ipull = nil
			}
			cl.ipulled = true
		}
		cl.ipulled = false
		// generateContainerConfig: the init container's environment
		if msg := k.envConfigError(p, &inits[i], true, i); msg != "" {
			k.event(p, n, initFieldPath(inits[i].Name), api.EventTypeWarning, "Failed", "Error: "+msg)
			if k.waitInit(p, st, &inits[i], cl, ReasonCreateContainerConfigError, msg, now) {
				changed = true
			}
			break
		}
		if !cl.iretryAt.IsZero() {
			cl.iretryAt = time.Time{}
			k.decide(p, "SyncPod", "retry", fmt.Sprintf("init container %s can start now", inits[i].Name))
		}
		if p.Status.PodIP == "" {
			// The sandbox, and with it the pod's address, exists
			// before the first init container runs.
			p.Status.PodIP = k.allocateIP(n, p)
		}
		cc := &cl.ics[i]
		*cc = planContainer(p, true, i)
		k.runContainer(n, p, cc, &inits[i], st, initFieldPath(inits[i].Name), cl.nextAt)
		if !isSidecar(&inits[i]) {
			st.Started = api.BoolPtr(false) // only sidecars report started
		}
		k.decide(p, "SyncPod", "init", fmt.Sprintf("init container %s started (%d/%d)", inits[i].Name, i+1, len(inits)))
		cl.next++
		changed = true
	}
	if k.writeInitialized(p, now) {
		changed = true
	}
	if k.writeConditions(p, now) {
		changed = true
	}
	if changed {
		_ = k.writeStatus(p)
	}
	return cl.initDone && !t.started.After(now) && p.Status.Phase != api.PodFailed
}

// waitInit leaves init container c (status st) waiting with reason and
// msg after a failed startContainer, and has the pod worker try again at
// its next sync (podWorkerResync). The first failure is a decision. It
// reports whether the status changed.
func (k *Kubelets) waitInit(p *api.Pod, st *api.ContainerStatus, c *api.Container, cl *crashLoop, reason, msg string, now time.Time) bool {
	first := cl.iretryAt.IsZero()
	cl.iretryAt = now.Add(podWorkerResync(p, c.Name))
	k.c.WakeAt(cl.iretryAt)
	if first {
		k.decide(p, "SyncPod", "wait", fmt.Sprintf("init container %s cannot start (%s: %s): the pod worker tries again in %s", c.Name, reason, msg, cl.iretryAt.Sub(now)))
	}
	if w := st.State.Waiting; w != nil && w.Reason == reason && w.Message == msg {
		return false
	}
	st.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason, Message: msg}}
	return true
}

// specContainer is spec.initContainers[i] when init, else spec.containers[i].
func specContainer(p *api.Pod, init bool, i int) *api.Container {
	if init {
		return &p.Spec.InitContainers[i]
	}
	return &p.Spec.Containers[i]
}
