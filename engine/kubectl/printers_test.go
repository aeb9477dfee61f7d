package kubectl

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

func TestHumanDuration(t *testing.T) {
	s := time.Second
	m := time.Minute
	h := time.Hour
	d := 24 * h
	y := 365 * d
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-2 * s, "<invalid>"},
		{-1500 * time.Millisecond, "0s"}, // int(-1.5) = -1: still "now"
		{-1 * s, "0s"},
		{-500 * time.Millisecond, "0s"},
		{0, "0s"},
		{999 * time.Millisecond, "0s"},
		{59 * s, "59s"},
		{119 * s, "119s"},
		{2 * m, "2m"},
		{2*m + 1*s, "2m1s"},
		{4*m + 11*s, "4m11s"},
		{9*m + 59*s, "9m59s"},
		{10 * m, "10m"},
		{27*m + 30*s, "27m"},
		{179 * m, "179m"},
		{3 * h, "3h"},
		{5*h + 7*m, "5h7m"},
		{7*h + 59*m, "7h59m"},
		{8 * h, "8h"},
		{47*h + 59*m, "47h"},
		{48 * h, "2d"},
		{2*d + 3*h, "2d3h"},
		{7*d + 23*h, "7d23h"},
		{8 * d, "8d"},
		{400 * d, "400d"},
		{2*y - h, "729d"},
		{2 * y, "2y"},
		{3*y + 120*d, "3y120d"},
		{7*y + 364*d, "7y364d"},
		{8 * y, "8y"},
		{9*y + 100*d, "9y"},
	} {
		if got := HumanDuration(tc.d); got != tc.want {
			t.Errorf("HumanDuration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestTranslateTimestampSinceZero(t *testing.T) {
	if got := translateTimestampSince(time.Time{}, time.Now()); got != "<unknown>" {
		t.Errorf("zero timestamp: %q", got)
	}
}

func TestTaintString(t *testing.T) {
	for _, tc := range []struct {
		t    api.Taint
		want string
	}{
		{api.Taint{Key: "k", Value: "v", Effect: "NoSchedule"}, "k=v:NoSchedule"},
		{api.Taint{Key: "k", Effect: "NoExecute"}, "k:NoExecute"},
		{api.Taint{Key: "k", Value: "v"}, "k=v:"},
		{api.Taint{Key: "k"}, "k"},
	} {
		if got := TaintString(tc.t); got != tc.want {
			t.Errorf("TaintString(%+v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestFormatLabelSelector(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    *api.LabelSelector
		want string
	}{
		{"nil", nil, "<none>"},
		{"empty", &api.LabelSelector{}, "<none>"},
		{"matchLabels sorted", &api.LabelSelector{MatchLabels: map[string]string{"tier": "node", "app": "x"}}, "app=x,tier=node"},
		{"in sorted values", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "env", Operator: "In", Values: []string{"prod", "dev"}}}}, "env in (dev,prod)"},
		{"notin", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "env", Operator: "NotIn", Values: []string{"a"}}}}, "env notin (a)"},
		{"exists and not", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "b", Operator: "DoesNotExist"}, {Key: "a", Operator: "Exists"}}}, "a,!b"},
		{"mixed sorted by key", &api.LabelSelector{MatchLabels: map[string]string{"z": "1"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "m", Operator: "Exists"}}}, "m,z=1"},
		{"bad operator", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Gt", Values: []string{"1"}}}}, "<error>"},
		{"in without values", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "In"}}}, "<error>"},
	} {
		if got := FormatLabelSelector(tc.s); got != tc.want {
			t.Errorf("%s: FormatLabelSelector = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func node(labels map[string]string, ready string, unschedulable bool) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: labels}, Spec: api.NodeSpec{Unschedulable: unschedulable}}
	if ready != "" {
		n.Status.Conditions = []api.NodeCondition{{Type: api.NodeMemoryPressure, Status: "False"}, {Type: api.NodeReady, Status: ready}}
	}
	return n
}

func TestNodeColumns(t *testing.T) {
	for _, tc := range []struct {
		name         string
		n            *api.Node
		status, role string
	}{
		{"ready worker", node(map[string]string{"kubernetes.io/hostname": "n"}, "True", false), "Ready", "<none>"},
		{"not ready", node(nil, "False", false), "NotReady", "<none>"},
		{"unknown condition", node(nil, "Unknown", false), "NotReady", "<none>"},
		{"no ready condition", node(nil, "", false), "Unknown", "<none>"},
		{"cordoned", node(nil, "True", true), "Ready,SchedulingDisabled", "<none>"},
		{"not ready cordoned", node(nil, "Unknown", true), "NotReady,SchedulingDisabled", "<none>"},
		{"control plane", node(map[string]string{"node-role.kubernetes.io/control-plane": ""}, "True", false), "Ready", "control-plane"},
		{"roles sorted and legacy", node(map[string]string{"node-role.kubernetes.io/worker": "", "node-role.kubernetes.io/infra": "", "kubernetes.io/role": "master"}, "True", false), "Ready", "infra,master,worker"},
		{"empty role suffix ignored", node(map[string]string{"node-role.kubernetes.io/": "", "kubernetes.io/role": ""}, "True", false), "Ready", "<none>"},
	} {
		if got := NodeStatusColumn(tc.n); got != tc.status {
			t.Errorf("%s: status %q, want %q", tc.name, got, tc.status)
		}
		if got := NodeRolesColumn(tc.n); got != tc.role {
			t.Errorf("%s: roles %q, want %q", tc.name, got, tc.role)
		}
	}
}

func TestPodColumns(t *testing.T) {
	now := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	running := func(ready bool) api.ContainerStatus {
		return api.ContainerStatus{Name: "c", Ready: ready, State: api.ContainerState{Running: &api.ContainerStateRunning{}}}
	}
	waiting := func(r string) api.ContainerStatus {
		return api.ContainerStatus{Name: "c", State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: r}}}
	}
	terminated := func(reason string, code, signal int32) api.ContainerStatus {
		return api.ContainerStatus{Name: "c", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: reason, ExitCode: code, Signal: signal}}}
	}
	pod := func(phase string, st ...api.ContainerStatus) *api.Pod {
		p := &api.Pod{Spec: api.PodSpec{Containers: make([]api.Container, len(st))}}
		if len(st) == 0 {
			p.Spec.Containers = []api.Container{{Name: "c"}}
		}
		p.Status.Phase = phase
		p.Status.ContainerStatuses = st
		return p
	}
	del := now.Add(-time.Second)
	for _, tc := range []struct {
		name          string
		p             *api.Pod
		ready, status string
	}{
		{"pending unscheduled", pod(api.PodPending), "0/1", "Pending"},
		{"container creating", pod(api.PodPending, waiting("ContainerCreating")), "0/1", "ContainerCreating"},
		{"running ready", pod(api.PodRunning, running(true)), "1/1", "Running"},
		{"running not ready", pod(api.PodRunning, running(false)), "0/1", "Running"},
		{"crash loop", pod(api.PodRunning, waiting("CrashLoopBackOff")), "0/1", "CrashLoopBackOff"},
		{"image pull", pod(api.PodPending, waiting("ErrImagePull")), "0/1", "ErrImagePull"},
		{"completed", pod(api.PodSucceeded, terminated("Completed", 0, 0)), "0/1", "Completed"},
		{"error", pod(api.PodFailed, terminated("Error", 1, 0)), "0/1", "Error"},
		{"exit code", pod(api.PodFailed, terminated("", 2, 0)), "0/1", "ExitCode:2"},
		{"signal", pod(api.PodFailed, terminated("", 137, 9)), "0/1", "Signal:9"},
		{"two containers one ready", pod(api.PodRunning, running(true), running(false)), "1/2", "Running"},
		{"status reason", func() *api.Pod { p := pod(api.PodFailed); p.Status.Reason = "Evicted"; return p }(), "0/1", "Evicted"},
		{"terminating", func() *api.Pod { p := pod(api.PodRunning, running(true)); p.DeletionTimestamp = &del; return p }(), "1/1", "Terminating"},
		{"terminated pod not terminating", func() *api.Pod {
			p := pod(api.PodSucceeded, terminated("Completed", 0, 0))
			p.DeletionTimestamp = &del
			return p
		}(), "0/1", "Completed"},
		{"node lost", func() *api.Pod {
			p := pod(api.PodRunning, running(true))
			p.DeletionTimestamp = &del
			p.Status.Reason = "NodeLost"
			return p
		}(), "1/1", "Unknown"},
		{"scheduling gated", func() *api.Pod {
			p := pod(api.PodPending)
			p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: "False", Reason: "SchedulingGated"}}
			return p
		}(), "0/1", "SchedulingGated"},
		{"completed but another running and ready", func() *api.Pod {
			p := pod(api.PodRunning, running(true), terminated("Completed", 0, 0))
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: "True"}}
			return p
		}(), "1/2", "Running"},
		{"completed but another running, no Ready condition", pod(api.PodRunning, running(true), terminated("Completed", 0, 0)), "1/2", "NotReady"},
		{"sidecar init container counts", func() *api.Pod {
			p := pod(api.PodRunning, running(true))
			p.Spec.InitContainers = []api.Container{{Name: "side", RestartPolicy: "Always"}, {Name: "init"}}
			return p
		}(), "1/2", "Running"},
	} {
		if got := PodReadyColumn(tc.p); got != tc.ready {
			t.Errorf("%s: READY %q, want %q", tc.name, got, tc.ready)
		}
		if got := PodStatusColumn(tc.p); got != tc.status {
			t.Errorf("%s: STATUS %q, want %q", tc.name, got, tc.status)
		}
	}
	// RESTARTS with the last termination time.
	p := pod(api.PodRunning, running(true))
	p.Status.ContainerStatuses[0].RestartCount = 3
	p.Status.ContainerStatuses[0].LastState.Terminated = &api.ContainerStateTerminated{FinishedAt: now.Add(-90 * time.Second)}
	if got := podRestartsColumn(p, now); got != "3 (90s ago)" {
		t.Errorf("restarts: %q", got)
	}
	p.Status.ContainerStatuses[0].LastState.Terminated = nil
	if got := podRestartsColumn(p, now); got != "3" {
		t.Errorf("restarts without time: %q", got)
	}
}

func TestTableRendering(t *testing.T) {
	tb := &table{headers: []string{"NAME", "AGE"}, rows: [][]string{{"a", "1s"}, {"much-longer-name", "10m"}}}
	want := "NAME               AGE\na                  1s\nmuch-longer-name   10m\n"
	if got := tb.render(false); got != want {
		t.Errorf("render:\n%q\nwant\n%q", got, want)
	}
	// minimum width 6 including padding
	tb = &table{headers: []string{"A", "B"}, rows: [][]string{{"x", "y"}}}
	if got := tb.render(false); got != "A     B\nx     y\n" {
		t.Errorf("min width: %q", got)
	}
}
