package kubelet

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

func TestProcessExit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		c     api.Container
		extra map[string]any
		code  int32
		after time.Duration
		exits bool
	}{
		{"busybox default sh", api.Container{Image: "busybox:1.36"}, nil, 0, CrashExitAfter, true},
		{"alpine default sh", api.Container{Image: "docker.io/library/alpine"}, nil, 0, CrashExitAfter, true},
		{"busybox with stdin", api.Container{Image: "busybox"}, map[string]any{"stdin": true}, 0, 0, false},
		{"ubuntu with tty", api.Container{Image: "ubuntu:24.04"}, map[string]any{"tty": true}, 0, 0, false},
		{"unknown image", api.Container{Image: "nginx:1.27"}, nil, 0, 0, false},
		{"args replace CMD", api.Container{Image: "busybox", Args: []string{"sleep", "30"}}, nil, 0, 30 * time.Second, true},
		{"sleep N", api.Container{Image: "x", Command: []string{"sleep", "5"}}, nil, 0, 5 * time.Second, true},
		{"sleep 2m", api.Container{Image: "x", Command: []string{"sleep", "2m"}}, nil, 0, 2 * time.Minute, true},
		{"sleep without operand", api.Container{Image: "busybox", Command: []string{"sleep"}}, nil, 1, CrashExitAfter, true},
		{"sleep abc", api.Container{Image: "busybox", Command: []string{"sleep", "abc"}}, nil, 1, CrashExitAfter, true},
		{"sleep -1", api.Container{Image: "busybox", Command: []string{"sleep", "-1"}}, nil, 1, CrashExitAfter, true},
		{"sh -c sleep abc", api.Container{Image: "busybox", Command: []string{"sh", "-c", "sleep abc"}}, nil, 1, CrashExitAfter, true},
		{"sleep 1 2", api.Container{Image: "busybox", Command: []string{"sleep", "1", "2"}}, nil, 0, 3 * time.Second, true},
		{"sleep $T", api.Container{Image: "busybox", Command: []string{"sh", "-c", "sleep $T"}}, nil, 0, 0, false},
		{"sleep infinity", api.Container{Image: "busybox", Command: []string{"sleep", "infinity"}}, nil, 0, 0, false},
		{"tail -f", api.Container{Image: "busybox", Command: []string{"tail", "-f", "/dev/null"}}, nil, 0, 0, false},
		{"echo", api.Container{Image: "busybox", Command: []string{"echo", "hi"}}, nil, 0, CrashExitAfter, true},
		{"sh -c echo", api.Container{Image: "busybox", Command: []string{"sh", "-c", "echo hi"}}, nil, 0, CrashExitAfter, true},
		{"sh -c exit 3", api.Container{Image: "busybox", Command: []string{"sh", "-c", "echo hi; exit 3"}}, nil, 3, CrashExitAfter, true},
		{"sh -c loop", api.Container{Image: "busybox", Command: []string{"sh", "-c", "while true; do sleep 5; done"}}, nil, 0, 0, false},
	} {
		p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{tc.c}}}
		if tc.extra != nil {
			p.Extra = api.Unmodeled{"spec.containers[0]": tc.extra}
		}
		code, after, exits := processExit(p, false, 0)
		if code != tc.code || after != tc.after || exits != tc.exits {
			t.Errorf("%s: processExit = %d, %s, %v; want %d, %s, %v", tc.name, code, after, exits, tc.code, tc.after, tc.exits)
		}
	}
}

func TestRunsForever(t *testing.T) {
	for argv, want := range map[string]bool{"sleep infinity": true, "tail -f /dev/null": true, "sleep 5": false, "nginx": false, "": false} {
		var a []string
		if argv != "" {
			a = splitFields(argv)
		}
		if got := runsForever(a); got != want {
			t.Errorf("runsForever(%q) = %v, want %v", argv, got, want)
		}
	}
	if !runsForever([]string{"sh", "-c", "while true; do sleep 1; done"}) {
		t.Error("a while-true loop runs forever")
	}
}

func splitFields(s string) []string {
	var out []string
	cur := ""
	for _, r := range s + " " {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	return out
}
