package engine

import (
	"strings"
	"testing"
	"time"
)

// streamRollout runs line on a Simulation with Options.StreamRolloutStatus
// after applying agentYAML, letting it settle and running before; then it
// polls the returned watch after each second of virtual time (at most
// limit seconds) and returns the command's own output, the polled text
// (stdout, and stderr marked "E:"), the watch and the virtual seconds the
// command itself took.
func streamRollout(t *testing.T, before []string, line string, limit int, during func(s *Simulation, sec int)) (Output, string, time.Duration, bool) {
	t.Helper()
	s := New(Options{StreamRolloutStatus: true})
	s.Files["a.yaml"] = agentYAML
	s.Run("kubectl apply -f a.yaml")
	s.Advance(30 * time.Second)
	for _, b := range before {
		if o := s.Run(b); o.ExitCode != 0 {
			t.Fatalf("%s: %s", b, o.Stderr)
		}
	}
	t0 := s.Elapsed()
	out := s.Run(line)
	took := s.Elapsed() - t0
	var polled strings.Builder
	if out.Watch == nil {
		return out, "", took, false
	}
	if c := out.Watch.Poll(); len(c) != 0 {
		t.Errorf("a second poll without time passing printed %v", c)
	}
	for sec := 1; sec <= limit && out.Watch.Active(); sec++ {
		if during != nil {
			during(s, sec)
		}
		s.Advance(time.Second)
		for _, c := range out.Watch.Poll() {
			if c.Stderr {
				polled.WriteString("E:")
			}
			polled.WriteString(c.Text)
		}
	}
	return out, polled.String(), took, out.Watch.Active()
}

// TestRolloutStatusStreams checks Options.StreamRolloutStatus: `rollout
// status` returns at once with its first line and its Watch prints the
// rest as time runs: the same lines the blocking command prints (it too
// looks once a second), then stops at the rolled-out line, the timeout or
// the deletion.
func TestRolloutStatusStreams(t *testing.T) {
	setImage := []string{"kubectl set image ds/agent agent=busybox:1.37"}
	// the blocking command, for the lines kubectl prints
	blocking := New(Options{})
	blocking.Files["a.yaml"] = agentYAML
	blocking.Run("kubectl apply -f a.yaml")
	blocking.Advance(30 * time.Second)
	blocking.Run(setImage[0])
	want := blocking.Run("kubectl rollout status ds/agent")
	if !strings.HasSuffix(want.Stdout, "daemon set \"agent\" successfully rolled out\n") || strings.Count(want.Stdout, "\n") < 3 {
		t.Fatalf("blocking rollout status:\n%s%s", want.Stdout, want.Stderr)
	}
	tests := []struct {
		name       string
		before     []string
		line       string
		during     func(s *Simulation, sec int)
		wantWatch  bool
		wantFirst  string // the command's own stdout
		wantPolled string // "" with wantWatch: want.Stdout after the first line
		wantActive bool
	}{
		{name: "streams to the end", before: setImage, line: "kubectl rollout status ds/agent", wantWatch: true,
			wantFirst: strings.SplitAfter(want.Stdout, "\n")[0]},
		{name: "timeout", before: setImage, line: "kubectl rollout status ds/agent --timeout=2s", wantWatch: true,
			wantFirst: strings.SplitAfter(want.Stdout, "\n")[0], wantPolled: "*E:error: timed out waiting for the condition\n"},
		{name: "deleted", before: setImage, line: "kubectl rollout status ds/agent", wantWatch: true,
			during: func(s *Simulation, sec int) {
				if sec == 2 {
					s.Run("kubectl delete ds agent --wait=false")
				}
			},
			wantFirst: strings.SplitAfter(want.Stdout, "\n")[0], wantPolled: "*E:error: object has been deleted\n"},
		{name: "already rolled out", line: "kubectl rollout status ds/agent",
			wantFirst: "daemon set \"agent\" successfully rolled out\n"},
		{name: "watch=false", before: setImage, line: "kubectl rollout status ds/agent --watch=false",
			wantFirst: strings.SplitAfter(want.Stdout, "\n")[0]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, polled, took, active := streamRollout(t, tt.before, tt.line, 600, tt.during)
			if took != 0 {
				t.Errorf("the command advanced virtual time by %v", took)
			}
			if (out.Watch != nil) != tt.wantWatch {
				t.Fatalf("watch = %v, want %v", out.Watch != nil, tt.wantWatch)
			}
			if out.Stdout != tt.wantFirst || out.Stderr != "" || out.ExitCode != 0 {
				t.Errorf("output = %q %q %d, want %q", out.Stdout, out.Stderr, out.ExitCode, tt.wantFirst)
			}
			if !tt.wantWatch {
				return
			}
			if active {
				t.Errorf("watch still active after the rollout ended")
			}
			switch {
			case tt.wantPolled == "":
				if got := out.Stdout + polled; got != want.Stdout {
					t.Errorf("streamed lines:\n%s\nblocking command's:\n%s", got, want.Stdout)
				}
			case strings.HasPrefix(tt.wantPolled, "*"):
				if !strings.HasSuffix(polled, tt.wantPolled[1:]) || strings.Count(polled, "E:") != 1 {
					t.Errorf("streamed lines:\n%s\nwant ending %q", polled, tt.wantPolled[1:])
				}
			}
			if c := out.Watch.Poll(); c != nil {
				t.Errorf("stopped watch printed %v", c)
			}
		})
	}
}

// TestRolloutStatusBlocksByDefault checks that without the option the
// command still waits, advancing virtual time itself.
func TestRolloutStatusBlocksByDefault(t *testing.T) {
	s := New(Options{})
	s.Files["a.yaml"] = agentYAML
	s.Run("kubectl apply -f a.yaml")
	s.Advance(30 * time.Second)
	s.Run("kubectl set image ds/agent agent=busybox:1.37")
	t0 := s.Elapsed()
	out := s.Run("kubectl rollout status ds/agent")
	if out.Watch != nil || s.Elapsed() == t0 || !strings.HasSuffix(out.Stdout, "successfully rolled out\n") {
		t.Errorf("blocking rollout status: watch %v, took %v, output %q", out.Watch != nil, s.Elapsed()-t0, out.Stdout)
	}
}
