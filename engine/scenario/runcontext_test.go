package scenario

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// countdownCtx is done after its Done method was called n times: a
// deterministic stand-in for a deadline that passes mid-run.
type countdownCtx struct {
	context.Context
	n  int
	ch chan struct{}
}

func newCountdown(n int) *countdownCtx {
	return &countdownCtx{Context: context.Background(), n: n, ch: make(chan struct{})}
}

func (c *countdownCtx) Done() <-chan struct{} {
	if c.n--; c.n == 0 {
		close(c.ch)
	}
	return c.ch
}

func (c *countdownCtx) Err() error {
	select {
	case <-c.ch:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func TestRunContextStops(t *testing.T) {
	src := "kubectl apply -f agent.yaml\nadvance 1h\nwait rollout ds/agent\nkubectl get pods\n-- agent.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	sc, err := Parse("x.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	exSc, err := Parse("ex.txtar", []byte(exercise("expect ds/agent on all\n", "", "kubectl apply -f tolerant.yaml\nadvance 1h\n")))
	if err != nil {
		t.Fatal(err)
	}
	nodesSc, err := Parse("n.txtar", []byte("node add w-{1..1000}\nkubectl get pods\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		sc      *Scenario
		ctx     context.Context
		failure string
		last    string // the last command echoed
	}{
		{"cancelled before the start", sc, cancelled, "x.txtar:1: stopped: context canceled", ""},
		// Done is called once per command and twice per second of advance
		// (once per jump when the cluster is idle: the rollout's first
		// seconds are stepped)
		{"inside an advance", sc, newCountdown(8), "x.txtar:2: stopped: context deadline exceeded", "$ advance 1h"},
		{"inside an exercise's solution", exSc, newCountdown(40), "ex.txtar:10: stopped: context deadline exceeded", "$ advance 1h"},
		{"inside a node range", nodesSc, newCountdown(5), "n.txtar:1: stopped: context deadline exceeded", "$ node add w-{1..1000}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf strings.Builder
			res := tc.sc.RunContext(tc.ctx, &buf)
			out := buf.String()
			if len(res.Failures) != 1 || res.Failures[0] != tc.failure {
				t.Fatalf("failures %q, want %q\n%s", res.Failures, tc.failure, out)
			}
			if tc.last != "" && !strings.HasSuffix(out, tc.last+"\nFAIL: "+tc.failure+"\n") {
				t.Errorf("transcript does not end in %q:\n%s", tc.last, out)
			}
			if strings.Contains(out, "$ kubectl get pods") || strings.Contains(out, "# --- goal\n") {
				t.Errorf("ran on after the stop:\n%s", out)
			}
		})
	}
	// a context that is never done changes nothing
	var a, b strings.Builder
	sc.Run(&a)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	if res := sc.RunContext(ctx, &b); !res.OK() || a.String() != b.String() {
		t.Errorf("RunContext with a live context differs from Run:\n%s\n---\n%s", a.String(), b.String())
	}
}

// TestRunContextSameTranscript runs every example, lesson, exercise and
// conformance scenario under a context that can be cancelled (advances then
// go in one-second steps) and compares the transcript with Run's.
func TestRunContextSameTranscript(t *testing.T) {
	var files []string
	for _, g := range []string{"../../examples/*.txtar", "../../examples/*/*.txtar", "../conformance/testdata/*.txtar"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios under ../../examples or ../conformance/testdata: the test has nothing to check")
	}
	if testing.Short() {
		files = files[:min(len(files), 10)]
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := Parse(file, data)
			if err != nil {
				t.Fatal(err)
			}
			var a, b strings.Builder
			sc.Run(&a)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sc.RunContext(ctx, &b)
			if a.String() != b.String() {
				t.Errorf("transcripts differ:\n%s", lineDiff(a.String(), b.String()))
			}
		})
	}
}
