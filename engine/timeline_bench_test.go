package engine

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// recordRollout records, on n fresh nodes (one AddNode each), the
// DaemonSet agent with RollingUpdate maxUnavailable 10% at agent:1, two
// minutes for it to run, then the change to agent:2 and 1 s frames until
// the rollout is complete. It returns the recorder and the virtual times of
// the change and of the end of the rollout.
func recordRollout(b *testing.B, n, ckpts int) (r *Recorder, change, done time.Duration) {
	r = NewRecorder(Options{Empty: true})
	if ckpts > 0 {
		r.SetCheckpoints(ckpts, 10*time.Second)
	}
	for i := 0; i < n; i++ {
		if err := r.AddNode(fmt.Sprintf("node-%d", i+1), cluster.NodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := r.Apply("ds.yaml", rollingBenchDS); err != nil {
		b.Fatal(err)
	}
	r.Advance(2 * time.Minute)
	change = r.Live().Elapsed()
	if _, err := r.Apply("ds.yaml", strings.Replace(rollingBenchDS, "agent:1", "agent:2", 1)); err != nil {
		b.Fatal(err)
	}
	for !ProgressOf(r.Live(), "default", "agent").Done {
		if r.Live().Elapsed()-change > 2*time.Hour {
			b.Fatalf("not rolled out after 2h: %+v", ProgressOf(r.Live(), "default", "agent"))
		}
		r.Advance(time.Second)
	}
	if r.CheckpointErr != nil {
		b.Fatal(r.CheckpointErr)
	}
	return r, change, r.Live().Elapsed()
}

// benchmarkTimelineRollout measures the timeline of an n-node RollingUpdate
// (maxUnavailable 10%), from the template change to completion, recorded
// with 1 s frames, with up to ckpts checkpoints (SetCheckpoints(ckpts, 10s);
// 0: replay only). ns/op is the latency of Seek to the middle of the
// rollout from a fresh cursor (a replay from the start). Metrics:
//   - retained-B: heap held by the Recorder after recording (live
//     Simulation + input log + steps), no cursor;
//   - log-B: the input log, steps and checkpoints (the live Simulation dropped);
//   - cursor-B: heap added by the replay cursor after the Seek;
//   - sim-B: heap of the live Simulation alone (retained-B - log-B);
//   - seek-fwd-ms: Seek 1 s further (the cursor moves forward);
//   - seek-back-ms: Seek back to the change (a replay from the start);
//   - clone-ms: one deep copy of the live Simulation (a checkpoint's cost);
//   - steps, inputs, checkpoints, rollout-s (virtual seconds from change to done).
//
// Recording is not timed.
func benchmarkTimelineRollout(b *testing.B, n, ckpts int) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		base := heapInUse()
		r, change, done := recordRollout(b, n, ckpts)
		retained := heapInUse() - base
		mid := change + (done-change)/2
		b.StartTimer()
		if _, err := r.Seek(mid); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		withCursor := heapInUse() - base
		t0 := time.Now()
		if _, err := r.Seek(mid + time.Second); err != nil {
			b.Fatal(err)
		}
		fwd := time.Since(t0)
		t0 = time.Now()
		if _, err := r.Seek(change); err != nil {
			b.Fatal(err)
		}
		back := time.Since(t0)
		t0 = time.Now()
		if _, err := r.Live().clone(); err != nil {
			b.Fatal(err)
		}
		clone := time.Since(t0)
		steps, inputs, cks := len(r.Steps()), len(r.Inputs()), len(r.Checkpoints())
		r.cur, r.curEdits = nil, nil
		r.live = nil
		logOnly := heapInUse() - base
		runtime.KeepAlive(r)
		b.ReportMetric(float64(retained), "retained-B")
		b.ReportMetric(float64(logOnly), "log-B")
		b.ReportMetric(float64(retained-logOnly), "sim-B")
		b.ReportMetric(float64(withCursor-retained), "cursor-B")
		b.ReportMetric(float64(fwd.Microseconds())/1000, "seek-fwd-ms")
		b.ReportMetric(float64(back.Microseconds())/1000, "seek-back-ms")
		b.ReportMetric(float64(clone.Microseconds())/1000, "clone-ms")
		b.ReportMetric(float64(cks), "checkpoints")
		b.ReportMetric(float64(steps), "steps")
		b.ReportMetric(float64(inputs), "inputs")
		b.ReportMetric((done - change).Seconds(), "rollout-s")
		b.StartTimer()
	}
}

func BenchmarkTimelineRollout100(b *testing.B)        { benchmarkTimelineRollout(b, 100, 0) }
func BenchmarkTimelineRollout1000(b *testing.B)       { benchmarkTimelineRollout(b, 1000, 0) }
func BenchmarkTimelineRollout1000Ckpt4(b *testing.B)  { benchmarkTimelineRollout(b, 1000, 4) }
func BenchmarkTimelineRollout1000Ckpt16(b *testing.B) { benchmarkTimelineRollout(b, 1000, 16) }
