package engine

import (
	"testing"
	"time"
)

// crashLoop is a DaemonSet whose container exits at every start: on each
// node a restart, its events and decisions, for as long as time runs.
const crashLoop = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: crasher
spec:
  selector:
    matchLabels: {app: crasher}
  template:
    metadata:
      labels: {app: crasher}
    spec:
      containers:
      - name: c
        image: busybox:1.36
        command: ["sh", "-c", "exit 1"]
`

// A cluster busy for hours keeps its timeline bounded (MaxSteps): the
// steps of time passing are thinned, every learner action keeps its step,
// the steps stay in order of time and each one can still be shown.
func TestStepsBounded(t *testing.T) {
	defer func(n int) { MaxSteps = n }(MaxSteps)
	MaxSteps = 40
	r := NewRecorder(Options{})
	if _, err := r.Apply("crash.yaml", crashLoop); err != nil {
		t.Fatal(err)
	}
	actions := 1
	for h := 0; h < 6; h++ {
		for i := 0; i < 3600; i += 10 {
			r.Advance(10 * time.Second)
		}
		r.Run("kubectl get pods") // read-only: no step
		if out := r.Run("kubectl rollout restart ds/crasher"); out.ExitCode != 0 {
			t.Fatalf("rollout restart: %s", out.Stderr)
		}
		actions++
		if n := len(r.Steps()); n > MaxSteps {
			t.Fatalf("after %d h: %d steps, more than MaxSteps %d", h+1, n, MaxSteps)
		}
	}
	if r.StepsThinned == 0 {
		t.Fatal("six hours of a crash loop thinned no step: the test does not reach the bound")
	}
	steps, inputs := r.Steps(), 0
	for i, st := range steps {
		if st.Input >= 0 {
			inputs++
		}
		if i > 0 && st.At < steps[i-1].At {
			t.Errorf("step %d at %s before step %d at %s", i, st.At, i-1, steps[i-1].At)
		}
	}
	if inputs != actions {
		t.Errorf("%d steps of learner actions kept, want all %d", inputs, actions)
	}
	for _, i := range []int{0, len(steps) / 3, len(steps) / 2, len(steps) - 1} {
		sim, err := r.SeekStep(i)
		if err != nil {
			t.Fatalf("SeekStep(%d): %v", i, err)
		}
		if got := sim.Elapsed(); got != steps[i].At {
			t.Errorf("SeekStep(%d) shows t=%s, the step is at %s", i, got, steps[i].At)
		}
	}
	t.Logf("%d steps kept, %d thinned, %d inputs", len(steps), r.StepsThinned, len(r.Inputs()))
}
