//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
)

// withBudget sets replayWallBudget for one test.
func withBudget(t *testing.T, d time.Duration) {
	old := replayWallBudget
	replayWallBudget = d
	t.Cleanup(func() { replayWallBudget = old })
}

const stuckDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: x
spec:
  selector:
    matchLabels: {app: x}
  template:
    metadata:
      labels: {app: x}
    spec:
      containers:
      - name: x
        image: %s
        command: %s
`

// logArchive is a share archive with an input log made by hand.
func logArchive(t *testing.T, files map[string]string, in []shareInput) []byte {
	t.Helper()
	ar := &txtar.Archive{Comment: []byte("# hand-made\n")}
	for n, d := range files {
		ar.Files = append(ar.Files, txtar.File{Name: n, Data: []byte(d)})
	}
	js, err := json.Marshal(shareLog{V: shareLogVersion, In: in})
	if err != nil {
		t.Fatal(err)
	}
	ar.Files = append(ar.Files, txtar.File{Name: inputsFile, Data: js})
	return txtar.Format(ar)
}

// TestReplayLimits: replays that would run for ever (or make a huge
// cluster) stop within the wall-clock budget, or before they start, with
// a *replayStopError naming where.
func TestReplayLimits(t *testing.T) {
	withBudget(t, 300*time.Millisecond)
	crash := fmt.Sprintf(stuckDS, "busybox:1.36", `["false"]`)
	var fourRanges strings.Builder
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&fourRanges, "node add a%d-{1..5000}\n", i)
	}
	var flowNodes strings.Builder
	for i := range 5001 {
		fmt.Fprintf(&flowNodes, "---\n{apiVersion: v1, kind: Node, metadata: {name: f-%d}}\n", i)
	}
	manyAdds := make([]shareInput, 0, maxReplayNodes)
	for i := range maxReplayNodes {
		manyAdds = append(manyAdds, shareInput{K: engine.InputAddNode, Name: fmt.Sprintf("n-%d", i)})
	}
	for _, tc := range []struct {
		name   string
		data   []byte
		budget bool   // a wall-clock stop (else a node stop)
		at     string // in the stop's At
		// fast: refused before anything runs
		fast bool
	}{
		{name: "wait rollout on an image the registry lacks",
			data: []byte("registry lacks nginx:9.9\nkubectl apply -f ds.yaml\n" + strings.Repeat("wait rollout ds/x --timeout=24h\n", 100) + "-- ds.yaml --\n" +
				fmt.Sprintf(stuckDS, "nginx:9.9", `["sleep", "infinity"]`)),
			budget: true, at: "wait rollout ds/x --timeout=24h"},
		{name: "advance a script with a crash-looping pod",
			data:   []byte("kubectl apply -f ds.yaml\n" + strings.Repeat("advance 24h\n", 1000) + "-- ds.yaml --\n" + crash),
			budget: true, at: "advance 24h"},
		{name: "a script applying a file of 5,001 nodes",
			data: []byte("kubectl apply -f nodes.yaml\n-- nodes.yaml --\n" + flowNodes.String()),
			at:   "kubectl apply -f nodes.yaml", fast: true},
		{name: "advance a log with a crash-looping pod",
			data: logArchive(t, map[string]string{"ds.yaml": crash}, []shareInput{
				{K: engine.InputApply, Name: "ds.yaml", F: "ds.yaml"},
				{K: engine.InputAdvance, Ms: (1000000 * time.Hour).Milliseconds()},
			}),
			budget: true, at: "advance "},
		{name: "four ranges of 5,000 nodes", data: []byte(fourRanges.String()), at: "node add a1-{1..5000}", fast: true},
		{name: "5,000 node inputs on the default cluster", data: logArchive(t, nil, manyAdds), at: "node add n-", fast: true},
		{name: "an applied manifest of 5,001 nodes",
			data: logArchive(t, map[string]string{"nodes.yaml": flowNodes.String()}, []shareInput{{K: engine.InputApply, Name: "nodes.yaml", F: "nodes.yaml"}}),
			at:   "apply nodes.yaml", fast: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
			start := time.Now()
			err := replayScenario(rec, "x.txtar", tc.data)
			took := time.Since(start)
			var stop *replayStopError
			if !errors.As(err, &stop) {
				t.Fatalf("err = %v, want a replayStopError", err)
			}
			if (stop.Budget > 0) != tc.budget || !strings.Contains(stop.At, tc.at) {
				t.Errorf("stop = %+v (%v), want budget %v at %q", stop, err, tc.budget, tc.at)
			}
			if tc.budget && !strings.Contains(err.Error(), "it ran longer than 0.3 s (stopped at: ") {
				t.Errorf("message %q", err)
			}
			if !tc.budget && stop.Nodes <= maxReplayNodes {
				t.Errorf("nodes %d, want over %d", stop.Nodes, maxReplayNodes)
			}
			// the budget is checked at least every chunk: well under 10x
			if took > 10*replayWallBudget {
				t.Errorf("took %v with a budget of %v", took, replayWallBudget)
			}
			if tc.fast && len(rec.Inputs()) > 0 {
				t.Errorf("refused after %d inputs ran; want before any", len(rec.Inputs()))
			}
		})
	}
}

// TestAdvanceUntilSameLog: a long advance replayed in chunks leaves one
// merged Advance input and the state a single Advance makes.
func TestAdvanceUntilSameLog(t *testing.T) {
	one := engine.NewRecorder(engine.Options{})
	mustApply(t, one, "manifest.yaml", testDS)
	one.Advance(90*time.Minute + 250*time.Millisecond)
	chunked := engine.NewRecorder(engine.Options{})
	mustApply(t, chunked, "manifest.yaml", testDS)
	if !advanceUntil(chunked, 90*time.Minute+250*time.Millisecond, time.Now().Add(time.Minute)) {
		t.Fatal("advanceUntil stopped")
	}
	if a, b := len(one.Inputs()), len(chunked.Inputs()); a != b {
		t.Fatalf("inputs %d, chunked %d", a, b)
	}
	if a, b := picture(one), picture(chunked); a != b {
		t.Errorf("pictures differ:\n%s\n---\n%s", a, b)
	}
	if advanceUntil(engine.NewRecorder(engine.Options{}), time.Hour, time.Now().Add(-time.Second)) {
		t.Error("advanceUntil past its deadline reported true")
	}
}

func TestCountNodeDocs(t *testing.T) {
	var b strings.Builder
	for i := range 1200 {
		fmt.Fprintf(&b, "---\n{apiVersion: v1, kind: Node, metadata: {name: node-%d}}\n", i)
	}
	b.WriteString("---\n" + testDS)
	rec := engine.NewRecorder(engine.Options{}) // node-1, node-2, control-plane
	if got := countNodeDocs(nil, b.String()); got != 1200 {
		t.Errorf("countNodeDocs(nil) = %d, want 1200", got)
	}
	if got := countNodeDocs(rec.Live(), b.String()); got != 1198 {
		t.Errorf("countNodeDocs(cluster) = %d, want 1198 (node-1 and node-2 exist)", got)
	}
	if got := countNodeDocs(nil, "{kind: Node"); got != 0 {
		t.Errorf("a short or broken manifest counts %d", got)
	}
}

func TestStepSecondsOK(t *testing.T) {
	for s, want := range map[float64]bool{math.NaN(): false, math.Inf(1): false, math.Inf(-1): false, 1e-12: false, 0: false, -1: false,
		0.0009: false, 0.001: true, 1: true, 3600: true, 3600.5: false} {
		if got := stepSecondsOK(s); got != want {
			t.Errorf("stepSecondsOK(%v) = %v, want %v", s, got, want)
		}
	}
}

func TestNormalizeOrigin(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"HTTP://LOCALHOST:8742", "http://localhost:8742", true},
		{"https://Example.COM:443/", "https://example.com", true},
		{"http://example.com:80", "http://example.com", true},
		{" https://a.example/path ", "https://a.example", true},
		{"example.com", "", false},
		{"localhost:8742", "", false},
		{"file:///tmp/x.html", "", false},
	} {
		got, ok := normalizeOrigin(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("normalizeOrigin(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 5000: "5,000", 1234567: "1,234,567", -5000: "-5,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
