package kubelet

import (
	"fmt"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
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
	crashRunning crashPhase = iota // running, exits at `at`
	crashExited                    // terminated, next sync at `at`
	crashBackOff                   // waiting, restarts at `at`
)

// containerCrash is the restart state of one crashing container.
type containerCrash struct {
	crashes    bool
	code       int32
	phase      crashPhase
	at         time.Time
	backoff    time.Duration
	lastUpdate time.Time
	hasEntry   bool
}

// crashLoop is the restart state of a pod with a crashing container.
type crashLoop struct{ cs []containerCrash }

// containerArgv is what the container runs: command then args.
func containerArgv(c *api.Container) []string {
	return append(append([]string(nil), c.Command...), c.Args...)
}

// crashingContainers builds the crash state of a pod whose containers just
// started at started, or nil when no container exits.
func crashingContainers(p *api.Pod, started time.Time) *crashLoop {
	var cl *crashLoop
	for i := range p.Spec.Containers {
		code, ok := commandExit(containerArgv(&p.Spec.Containers[i]))
		if !ok {
			continue
		}
		if cl == nil {
			cl = &crashLoop{cs: make([]containerCrash, len(p.Spec.Containers))}
		}
		cl.cs[i] = containerCrash{crashes: true, code: code, phase: crashRunning, at: started.Add(CrashExitAfter)}
	}
	return cl
}

// formatPod is format.Pod: NAME_NAMESPACE(UID).
func formatPod(p *api.Pod) string { return fmt.Sprintf("%s_%s(%s)", p.Name, p.Namespace, p.UID) }

// crash advances the crash loops of pod p to now and writes the statuses.
func (k *Kubelets) crash(n *api.Node, p *api.Pod) {
	cl := k.crashers[p.UID]
	if cl == nil {
		return
	}
	now := k.c.Now()
	changed := false
	for i := range cl.cs {
		cc := &cl.cs[i]
		if !cc.crashes || i >= len(p.Status.ContainerStatuses) {
			continue
		}
		c := &p.Spec.Containers[i]
		st := &p.Status.ContainerStatuses[i]
		for !cc.at.After(now) {
			changed = true
			switch cc.phase {
			case crashRunning:
				started := cc.at.Add(-CrashExitAfter)
				if st.State.Running != nil {
					started = st.State.Running.StartedAt
				}
				reason := "Error"
				if cc.code == 0 {
					reason = "Completed"
				}
				st.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: cc.code, Reason: reason, StartedAt: started, FinishedAt: cc.at}}
				st.Ready, st.Started = false, api.BoolPtr(false)
				k.decide(p, "SyncPod", "exit", fmt.Sprintf("container %s exited with code %d (%s)", c.Name, cc.code, reason))
				cc.phase, cc.at = crashExited, cc.at.Add(CrashSyncDelay)
			case crashExited, crashBackOff:
				var finished time.Time
				if t := st.State.Terminated; t != nil {
					finished = t.FinishedAt
				} else if t := st.LastState.Terminated; t != nil {
					finished = t.FinishedAt
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
					k.event(p, n, containerFieldPath(c.Name), api.EventTypeWarning, "BackOff", fmt.Sprintf("Back-off restarting failed container %s in pod %s", c.Name, formatPod(p)))
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
				st.State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: syncAt}}
				st.Started = api.BoolPtr(true)
				fp := containerFieldPath(c.Name)
				k.event(p, n, fp, api.EventTypeNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", c.Image))
				k.event(p, n, fp, api.EventTypeNormal, "Created", "Container created")
				k.event(p, n, fp, api.EventTypeNormal, "Started", "Container started")
				k.decide(p, "SyncPod", "restart", fmt.Sprintf("container %s restarted (restart %d)", c.Name, st.RestartCount))
				cc.phase, cc.at = crashRunning, syncAt.Add(CrashExitAfter)
			}
		}
		k.c.WakeAt(cc.at)
	}
	if !changed {
		return
	}
	k.markUnready(p, now)
	_ = k.c.UpdatePod(p)
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
	setPodCondition(p, api.ContainersReady, api.ConditionFalse, "ContainersNotReady", msg, now)
	setPodCondition(p, api.PodReady, api.ConditionFalse, "ContainersNotReady", msg, now)
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
