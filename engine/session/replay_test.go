package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
)

// withBudget sets ReplayWallBudget for one test.
func withBudget(t *testing.T, d time.Duration) {
	old := ReplayWallBudget
	ReplayWallBudget = d
	t.Cleanup(func() { ReplayWallBudget = old })
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
func logArchive(t *testing.T, files map[string]string, in []LogInput) []byte {
	t.Helper()
	ar := &txtar.Archive{Comment: []byte("# hand-made\n")}
	for n, d := range files {
		ar.Files = append(ar.Files, txtar.File{Name: n, Data: []byte(d)})
	}
	js, err := json.Marshal(Log{V: LogVersion, In: in})
	if err != nil {
		t.Fatal(err)
	}
	ar.Files = append(ar.Files, txtar.File{Name: InputsFile, Data: js})
	return txtar.Format(ar)
}

// flowNodeDocs is n flow-style Node documents prefix-0 ... prefix-(n-1).
func flowNodeDocs(prefix string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "---\n{apiVersion: v1, kind: Node, metadata: {name: %s-%d}}\n", prefix, i)
	}
	return b.String()
}

// nodeList is a `kind: List` of n flow-style Nodes prefix-0 ... .
func nodeList(prefix string, n int) string {
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf("{apiVersion: v1, kind: Node, metadata: {name: %s-%d}}", prefix, i))
	}
	return "apiVersion: v1\nkind: List\nitems: [" + strings.Join(items, ", ") + "]\n"
}

// generatedNode is a Node named by metadata.generateName: each create
// makes a new one.
const generatedNode = "apiVersion: v1\nkind: Node\nmetadata: {generateName: g-}\n"

// TestReplayLimits: replays that would run for ever (or make a huge
// cluster) stop within the wall-clock budget, or before they start, with
// a *StopError naming where.
func TestReplayLimits(t *testing.T) {
	withBudget(t, 300*time.Millisecond)
	crash := fmt.Sprintf(stuckDS, "busybox:1.36", `["false"]`)
	var fourRanges strings.Builder
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&fourRanges, "node add a%d-{1..5000}\n", i)
	}
	flowNodes := flowNodeDocs("f", 5001)
	manyAdds := make([]LogInput, 0, MaxReplayNodes)
	for i := range MaxReplayNodes {
		manyAdds = append(manyAdds, LogInput{K: engine.InputAddNode, Name: fmt.Sprintf("n-%d", i)})
	}
	manyCreates := []LogInput{{K: engine.InputSetFile, Name: "g.yaml", F: "g.yaml"}}
	for range MaxReplayNodes {
		manyCreates = append(manyCreates, LogInput{K: engine.InputRun, Line: "kubectl -n default create -f g.yaml"})
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
			data: []byte("kubectl apply -f nodes.yaml\n-- nodes.yaml --\n" + flowNodes),
			at:   "kubectl apply -f nodes.yaml", fast: true},
		{name: "advance a log with a crash-looping pod",
			data: logArchive(t, map[string]string{"ds.yaml": crash}, []LogInput{
				{K: engine.InputApply, Name: "ds.yaml", F: "ds.yaml"},
				{K: engine.InputAdvance, Ms: (1000000 * time.Hour).Milliseconds()},
			}),
			budget: true, at: "advance "},
		{name: "four ranges of 5,000 nodes", data: []byte(fourRanges.String()), at: "node add a1-{1..5000}", fast: true},
		{name: "5,000 node inputs on the default cluster", data: logArchive(t, nil, manyAdds), at: "node add n-", fast: true},
		{name: "an applied manifest of 5,001 nodes",
			data: logArchive(t, map[string]string{"nodes.yaml": flowNodes}, []LogInput{{K: engine.InputApply, Name: "nodes.yaml", F: "nodes.yaml"}}),
			at:   "apply nodes.yaml", fast: true},
		// counted before running since the Size is the API's
		{name: "a script creating generateName nodes, -n before the verb",
			data: []byte("node add w-{1..4990}\n" + strings.Repeat("kubectl -n default create -f g.yaml\n", 20) + "-- g.yaml --\n" + generatedNode),
			at:   "kubectl -n default create -f g.yaml", fast: true},
		{name: "a script creating a List of 5,001 nodes",
			data: []byte("kubectl --namespace=default create --filename=l.yaml\n-- l.yaml --\n" + nodeList("l", 5001)),
			at:   "kubectl --namespace=default create --filename=l.yaml", fast: true},
		{name: "a log's console creating generateName nodes",
			data: logArchive(t, map[string]string{"g.yaml": generatedNode}, manyCreates),
			at:   "kubectl -n default create -f g.yaml", fast: true},
		{name: "a log applying a List of 5,001 nodes",
			data: logArchive(t, map[string]string{"l.yaml": nodeList("l", 5001)}, []LogInput{{K: engine.InputApply, Name: "l.yaml", F: "l.yaml"}}),
			at:   "apply l.yaml", fast: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
			start := time.Now()
			err := replay(rec, "x.txtar", tc.data)
			took := time.Since(start)
			var stop *StopError
			if !errors.As(err, &stop) {
				t.Fatalf("err = %v, want a StopError", err)
			}
			if (stop.Budget > 0) != tc.budget || !strings.Contains(stop.At, tc.at) {
				t.Errorf("stop = %+v (%v), want budget %v at %q", stop, err, tc.budget, tc.at)
			}
			if tc.budget && !strings.Contains(err.Error(), "it ran longer than 0.3 s (stopped at: ") {
				t.Errorf("message %q", err)
			}
			if !tc.budget {
				if stop.Nodes <= MaxReplayNodes {
					t.Errorf("nodes %d, want over %d", stop.Nodes, MaxReplayNodes)
				}
				if want := fmt.Sprintf("it makes %d nodes, more than the playground's 5,000 (stopped at: %s)", stop.Nodes, stop.At); err.Error() != want {
					t.Errorf("message %q, want %q", err, want)
				}
			}
			// the budget is checked at least every chunk: well under 10x
			if took > 10*ReplayWallBudget {
				t.Errorf("took %v with a budget of %v", took, ReplayWallBudget)
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

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 5000: "5,000", 1234567: "1,234,567", -5000: "-5,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormatElapsed(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0.0 s", 12345 * time.Millisecond: "12.3 s", 123400 * time.Millisecond: "2m 03.4s",
		time.Hour + 2*time.Minute + 3400*time.Millisecond: "1h 02m 03.4s"} {
		if got := FormatElapsed(d); got != want {
			t.Errorf("FormatElapsed(%v) = %q, want %q", d, got, want)
		}
	}
}

// KeptInputs and ReplayToStep: a branch at a step keeps the inputs up to
// it, and the Recorder ReplayToStep builds stands where the step does.
func TestReplayToStep(t *testing.T) {
	r := engine.NewRecorder(engine.Options{})
	mustApply(t, r, manifestFile, testDS)
	r.Run("kubectl label nodes node-2 disk=ssd")
	r.Advance(30 * time.Second)
	r.Run("kubectl taint nodes node-1 k=v:NoSchedule")
	steps := r.Steps()
	if len(steps) < 4 {
		t.Fatalf("%d steps", len(steps))
	}
	if got := KeptInputs(r, -1); got != len(r.Inputs()) {
		t.Errorf("KeptInputs(-1) = %d, want every input (%d)", got, len(r.Inputs()))
	}
	prepared := 0
	for i, st := range steps {
		if i == 0 {
			continue // the cluster's creation: no input
		}
		keep := KeptInputs(r, i)
		nr, err := ReplayToStep(r, i, func(*engine.Recorder) { prepared++ })
		if err != nil {
			t.Fatalf("step %d (%s): %v", i, st.Label, err)
		}
		if got := nr.Live().Elapsed(); got != st.At {
			t.Errorf("step %d (%s): the replay stands at %s, the step at %s", i, st.Label, got, st.At)
		}
		if st.Input >= 0 && len(nr.Inputs()) != keep {
			t.Errorf("step %d (%s): replayed %d inputs, KeptInputs %d", i, st.Label, len(nr.Inputs()), keep)
		}
	}
	if prepared != len(steps)-1 {
		t.Errorf("prepare called %d times, want %d", prepared, len(steps)-1)
	}
}
