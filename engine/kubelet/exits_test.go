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
		{"for over a word list", sh("for i in 1 2 3; do echo $i; done"), nil, 0, CrashExitAfter, true},
		{"for with sleeps", sh("for i in 1 2 3; do echo $i; sleep 2; done"), nil, 0, 6 * time.Second, true},
		{"for over seq", sh("for i in $(seq 1 5); do sleep 1; done"), nil, 0, 5 * time.Second, true},
		{"for, newlines", sh("for f in a b\ndo\n  cp /src/$f /dst/\ndone\n"), nil, 0, CrashExitAfter, true},
		{"for over nothing", sh("for i in; do sleep infinity; done"), nil, 0, CrashExitAfter, true},
		{"for, then a server", sh("for i in 1 2; do echo $i; done; nginx -g 'daemon off;'"), nil, 0, 0, false},
		{"for, then exit 2", sh("for i in 1 2; do echo $i; done; exit 2"), nil, 2, CrashExitAfter, true},
		{"for whose body exits", sh("for i in 1 2; do exit 4; done; sleep infinity"), nil, 4, CrashExitAfter, true},
		{"for whose body never ends", sh("for i in 1 2; do sleep infinity; done"), nil, 0, 0, false},
		{"nested loops", sh("for i in 1 2; do for j in a b c; do sleep 1; done; done"), nil, 0, 6 * time.Second, true},
		{"while :", sh("while :; do date; sleep 10; done"), nil, 0, 0, false},
		{"until false", sh("until false; do sleep 1; done"), nil, 0, 0, false},
		{"while true with break", sh("while true; do sleep 3; break; done"), nil, 0, 3 * time.Second, true},
		{"while false", sh("while false; do sleep infinity; done; echo ok"), nil, 0, CrashExitAfter, true},
		{"until true", sh("until true; do sleep infinity; done"), nil, 0, CrashExitAfter, true},
		{"wait-for loop, then done", sh("until nslookup db; do sleep 2; done; echo ready"), nil, 0, CrashExitAfter, true},
		{"wait-for loop last", sh("while ! nc -z db 5432; do sleep 1; done"), nil, 0, 0, false},
		{"sleep infinity first", sh("sleep infinity; echo never"), nil, 0, 0, false},
		{"background sleeper", sh("sleep infinity & echo started"), nil, 0, CrashExitAfter, true},
		{"background sleeper waited for", sh("sleep infinity & wait"), nil, 0, 0, false},
		{"tail -f pipeline", sh("tail -f /var/log/app.log | grep ERROR"), nil, 0, 0, false},
		{"false && ...", sh("false && sleep infinity; echo after"), nil, 0, CrashExitAfter, true},
		{"true || ...", sh("true || exit 3"), nil, 0, CrashExitAfter, true},
		{"false || exit 3", sh("false || exit 3"), nil, 3, CrashExitAfter, true},
		{"redirections", sh("for i in 1 2; do echo $i >> /tmp/out 2>&1; done"), nil, 0, CrashExitAfter, true},
		{"quoted done", sh("echo 'done'; for i in 1; do echo \"a;b\"; done"), nil, 0, CrashExitAfter, true},
		{"comment", sh("for i in 1 2; do echo $i; done # while true; do :; done"), nil, 0, CrashExitAfter, true},
		{"if, literal", sh("if true; then sleep 2; else sleep infinity; fi"), nil, 0, 2 * time.Second, true},
		{"if, both branches forever", sh("if [ -f /x ]; then sleep infinity; else tail -f /y; fi"), nil, 0, 0, false},
		{"exec", sh("echo starting; exec sleep 7"), nil, 0, 7 * time.Second, true},
		{"bash -c for", api.Container{Image: "ubuntu", Command: []string{"bash", "-c", "for i in {1..3}; do echo $i; done"}}, nil, 0, CrashExitAfter, true},
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
	for script, want := range map[string]bool{
		"while true; do sleep 1; done":                        true,
		"while :; do sleep 1; done":                           true,
		"until false; do sleep 1; done":                       true,
		"trap 'exit 0' TERM; while true; do sleep 1; done":    true,
		"echo hi; sleep infinity":                             true,
		"for i in 1 2 3; do echo $i; done":                    false,
		"for i in 1 2 3; do sleep 1; done":                    false,
		"while true; do sleep 1; break; done":                 false,
		"sleep infinity & echo bg":                            false,
		"nginx -g 'daemon off;'":                              false,
		"for i in 1 2; do while true; do sleep 1; done; done": true,
	} {
		if got := runsForever([]string{"sh", "-c", script}); got != want {
			t.Errorf("runsForever(sh -c %q) = %v, want %v", script, got, want)
		}
	}
}

func sh(script string) api.Container {
	return api.Container{Image: "busybox:1.36", Command: []string{"sh", "-c", script}}
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
