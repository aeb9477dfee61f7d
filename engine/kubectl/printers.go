package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// HumanDuration renders a duration the way kubectl's AGE column does
// (k8s.io/apimachinery/pkg/util/duration.HumanDuration): "59s", "4m11s",
// "27m", "5h7m", "47h", "2d3h", "400d", "3y120d", "9y". Every component is
// truncated. A duration below -1s is "<invalid>"; between -1s and 0 it is "0s".
func HumanDuration(d time.Duration) string {
	// Up to two seconds of clock skew is tolerated as "now", as upstream does.
	if seconds := int(d.Seconds()); seconds < -1 {
		return "<invalid>"
	} else if seconds < 0 {
		return "0s"
	} else if seconds < 60*2 {
		return fmt.Sprintf("%ds", seconds)
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		s := int(d/time.Second) % 60
		if s == 0 {
			return fmt.Sprintf("%dm", minutes)
		}
		return fmt.Sprintf("%dm%ds", minutes, s)
	} else if minutes < 60*3 {
		return fmt.Sprintf("%dm", minutes)
	}
	hours := int(d / time.Hour)
	if hours < 8 {
		m := int(d/time.Minute) % 60
		if m == 0 {
			return fmt.Sprintf("%dh", hours)
		}
		return fmt.Sprintf("%dh%dm", hours, m)
	} else if hours < 48 {
		return fmt.Sprintf("%dh", hours)
	} else if hours < 24*8 {
		h := hours % 24
		if h == 0 {
			return fmt.Sprintf("%dd", hours/24)
		}
		return fmt.Sprintf("%dd%dh", hours/24, h)
	} else if hours < 24*365*2 {
		return fmt.Sprintf("%dd", hours/24)
	} else if hours < 24*365*8 {
		dy := (hours / 24) % 365
		if dy == 0 {
			return fmt.Sprintf("%dy", hours/24/365)
		}
		return fmt.Sprintf("%dy%dd", hours/24/365, dy)
	}
	return fmt.Sprintf("%dy", hours/24/365)
}

// translateTimestampSince mirrors printers.go translateTimestampSince: the
// age of a timestamp at virtual time now, "<unknown>" for a zero timestamp.
func translateTimestampSince(ts, now time.Time) string {
	if ts.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(ts))
}

// TaintString renders a taint as Taint.ToString does (core/v1 taint.go):
// "key=value:effect", "key:effect", "key=value:" or "key".
func TaintString(t api.Taint) string {
	if t.Effect == "" {
		if t.Value == "" {
			return t.Key
		}
		return t.Key + "=" + t.Value + ":"
	}
	if t.Value == "" {
		return t.Key + ":" + t.Effect
	}
	return t.Key + "=" + t.Value + ":" + t.Effect
}

// NodeStatusColumn is the STATUS cell of `kubectl get nodes` (printNode):
// "Ready", "NotReady" (Ready condition False or Unknown), "Unknown" (no Ready
// condition), with ",SchedulingDisabled" appended when spec.unschedulable.
func NodeStatusColumn(n *api.Node) string {
	var status []string
	if c := n.Condition(api.NodeReady); c != nil {
		if c.Status == api.ConditionTrue {
			status = append(status, c.Type)
		} else {
			status = append(status, "Not"+c.Type)
		}
	}
	if len(status) == 0 {
		status = append(status, "Unknown")
	}
	if n.Spec.Unschedulable {
		status = append(status, "SchedulingDisabled")
	}
	return strings.Join(status, ",")
}

// labelNodeRole is the legacy role label (printers.go nodeLabelRole).
const labelNodeRole = "kubernetes.io/role"

// findNodeRoles mirrors printers.go findNodeRoles: the suffixes of
// node-role.kubernetes.io/<role> label keys and the value of
// kubernetes.io/role, deduplicated and sorted.
func findNodeRoles(n *api.Node) []string {
	set := map[string]bool{}
	for k, v := range n.Labels {
		switch {
		case strings.HasPrefix(k, api.LabelNodeRolePrefix):
			if role := strings.TrimPrefix(k, api.LabelNodeRolePrefix); role != "" {
				set[role] = true
			}
		case k == labelNodeRole && v != "":
			set[v] = true
		}
	}
	out := make([]string, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// NodeRolesColumn is the ROLES cell of `kubectl get nodes` (printNode):
// roles comma-joined, or "<none>".
func NodeRolesColumn(n *api.Node) string {
	roles := strings.Join(findNodeRoles(n), ",")
	if roles == "" {
		return "<none>"
	}
	return roles
}

// isRestartableInitContainer reports whether an init container is a sidecar
// (restartPolicy: Always), which counts in the READY total.
func isRestartableInitContainer(c *api.Container) bool {
	return c.RestartPolicy == "Always"
}

// podReadyAndStatus mirrors the first half of printers.go printPod: the READY
// cell, the STATUS cell (reason), the restart count and the time of the last
// restart (zero when unknown).
func podReadyAndStatus(p *api.Pod) (ready, total int, reason string, restarts int, lastRestart time.Time) {
	total = len(p.Spec.Containers)
	for i := range p.Spec.InitContainers {
		if isRestartableInitContainer(&p.Spec.InitContainers[i]) {
			total++
		}
	}
	reason = p.Status.Phase
	if p.Status.Reason != "" {
		reason = p.Status.Reason
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodScheduled && c.Reason == "SchedulingGated" {
			reason = "SchedulingGated"
		}
	}
	// Init containers: the first one not completed (nor a started
	// sidecar) names the STATUS: Init:N/M, Init:<waiting reason> or
	// Init:<terminated reason>; started sidecars count in READY.
	initializing := false
	sidecarRestarts := 0
	var sidecarLast time.Time
	for i, c := range p.Status.InitContainerStatuses {
		restarts += int(c.RestartCount)
		if t := c.LastState.Terminated; t != nil && lastRestart.Before(t.FinishedAt) {
			lastRestart = t.FinishedAt
		}
		sidecar := i < len(p.Spec.InitContainers) && isRestartableInitContainer(&p.Spec.InitContainers[i])
		if sidecar {
			sidecarRestarts += int(c.RestartCount)
			if t := c.LastState.Terminated; t != nil && sidecarLast.Before(t.FinishedAt) {
				sidecarLast = t.FinishedAt
			}
		}
		switch {
		case c.State.Terminated != nil && c.State.Terminated.ExitCode == 0:
			continue
		case sidecar && c.Started != nil && *c.Started:
			if c.Ready {
				ready++
			}
			continue
		case c.State.Terminated != nil:
			if c.State.Terminated.Reason == "" {
				if c.State.Terminated.Signal != 0 {
					reason = fmt.Sprintf("Init:Signal:%d", c.State.Terminated.Signal)
				} else {
					reason = fmt.Sprintf("Init:ExitCode:%d", c.State.Terminated.ExitCode)
				}
			} else {
				reason = "Init:" + c.State.Terminated.Reason
			}
		case c.State.Waiting != nil && c.State.Waiting.Reason != "" && c.State.Waiting.Reason != "PodInitializing":
			reason = "Init:" + c.State.Waiting.Reason
		default:
			reason = fmt.Sprintf("Init:%d/%d", i, len(p.Spec.InitContainers))
		}
		initializing = true
		break
	}
	containers := p.Status.ContainerStatuses
	if c := p.Condition(api.PodInitialized); initializing && (c == nil || c.Status != api.ConditionTrue) {
		containers = nil // still initializing: the app containers do not count
	} else {
		if initializing {
			// The pod is initialized (every regular init container
			// completed, every sidecar started once) but a sidecar is
			// restarting: printPod takes the STATUS from the regular
			// containers, so a crash-looping sidecar shows Running, not
			// Init:CrashLoopBackOff (its restarts still count).
			reason = p.Status.Phase
			if p.Status.Reason != "" {
				reason = p.Status.Reason
			}
		}
		restarts, lastRestart = restarts-sumInitRestarts(p)+sidecarRestarts, maxTimeOf(sidecarLast, lastRestartOf(containers))
	}
	hasRunning := false
	for i := len(containers) - 1; i >= 0; i-- {
		c := containers[i]
		restarts += int(c.RestartCount)
		switch {
		case c.State.Waiting != nil && c.State.Waiting.Reason != "":
			reason = c.State.Waiting.Reason
		case c.State.Terminated != nil && c.State.Terminated.Reason != "":
			reason = c.State.Terminated.Reason
		case c.State.Terminated != nil && c.State.Terminated.Reason == "":
			if c.State.Terminated.Signal != 0 {
				reason = fmt.Sprintf("Signal:%d", c.State.Terminated.Signal)
			} else {
				reason = fmt.Sprintf("ExitCode:%d", c.State.Terminated.ExitCode)
			}
		case c.Ready && c.State.Running != nil:
			hasRunning = true
			ready++
		}
	}
	// A pod whose last container completed but another still runs shows
	// Running (or NotReady without a Ready condition).
	if reason == "Completed" && hasRunning {
		if p.Condition(api.PodReady) != nil && p.IsReady() {
			reason = "Running"
		} else {
			reason = "NotReady"
		}
	}
	if p.DeletionTimestamp != nil && p.Status.Reason == "NodeLost" {
		reason = "Unknown"
	} else if p.DeletionTimestamp != nil && !p.IsTerminal() {
		reason = "Terminating"
	}
	return ready, total, reason, restarts, lastRestart
}

func sumInitRestarts(p *api.Pod) int {
	n := 0
	for _, c := range p.Status.InitContainerStatuses {
		n += int(c.RestartCount)
	}
	return n
}

func lastRestartOf(cs []api.ContainerStatus) time.Time {
	var last time.Time
	for _, c := range cs {
		if t := c.LastState.Terminated; t != nil && last.Before(t.FinishedAt) {
			last = t.FinishedAt
		}
	}
	return last
}

func maxTimeOf(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// PodReadyColumn is the READY cell of `kubectl get pods` (printPod): ready
// containers over containers (sidecar init containers included), e.g. "1/1".
func PodReadyColumn(p *api.Pod) string {
	ready, total, _, _, _ := podReadyAndStatus(p)
	return fmt.Sprintf("%d/%d", ready, total)
}

// PodStatusColumn is the STATUS cell of `kubectl get pods` (printPod): the
// phase or status.reason, overridden by the last container's waiting or
// terminated reason (ContainerCreating, CrashLoopBackOff, Completed, Error,
// ExitCode:N), then by Terminating for a deleted, non-terminal pod.
func PodStatusColumn(p *api.Pod) string {
	_, _, reason, _, _ := podReadyAndStatus(p)
	return reason
}

// podRestartsColumn is the RESTARTS cell: "N" or "N (<age> ago)".
func podRestartsColumn(p *api.Pod, now time.Time) string {
	_, _, _, restarts, last := podReadyAndStatus(p)
	if restarts != 0 && !last.IsZero() {
		return fmt.Sprintf("%d (%s ago)", restarts, translateTimestampSince(last, now))
	}
	return fmt.Sprint(restarts)
}

// FormatLabelSelector renders a label selector as metav1.FormatLabelSelector:
// requirements sorted by key and joined by ",": "k=v", "k in (a,b)",
// "k notin (a)", "k", "!k"; "<none>" for a nil or empty selector and
// "<error>" for an invalid one (unknown operator, In/NotIn without values).
func FormatLabelSelector(s *api.LabelSelector) string {
	if s == nil {
		return "<none>"
	}
	type req struct{ key, str string }
	var reqs []req
	for k, v := range s.MatchLabels {
		reqs = append(reqs, req{k, k + "=" + v})
	}
	for _, e := range s.MatchExpressions {
		vals := append([]string(nil), e.Values...)
		sort.Strings(vals)
		switch e.Operator {
		case "In", "NotIn":
			if len(vals) == 0 {
				return "<error>"
			}
			op := " in "
			if e.Operator == "NotIn" {
				op = " notin "
			}
			reqs = append(reqs, req{e.Key, e.Key + op + "(" + strings.Join(vals, ",") + ")"})
		case "Exists":
			if len(vals) != 0 {
				return "<error>"
			}
			reqs = append(reqs, req{e.Key, e.Key})
		case "DoesNotExist":
			if len(vals) != 0 {
				return "<error>"
			}
			reqs = append(reqs, req{e.Key, "!" + e.Key})
		default:
			return "<error>"
		}
	}
	if len(reqs) == 0 {
		return "<none>"
	}
	sort.SliceStable(reqs, func(i, j int) bool { return reqs[i].key < reqs[j].key })
	parts := make([]string, len(reqs))
	for i, r := range reqs {
		parts[i] = r.str
	}
	return strings.Join(parts, ",")
}
