package engine

import (
	"strings"
	"testing"
	"time"
)

// benchmarkSceneFrame measures what the stage computes per drawn frame
// during a RollingUpdate on an n-node cluster: a Snapshot, its Scene and
// the transitions from the previous scene (the DOM work is the browser
// test's). Each iteration is one 250 ms frame of virtual time; the
// simulation's own Advance is not timed.
func benchmarkSceneFrame(b *testing.B, n int) {
	s := bigCluster(b, n)
	if _, err := s.Apply("ds.yaml", rollingBenchDS); err != nil {
		b.Fatal(err)
	}
	s.Advance(2 * time.Minute)
	if _, err := s.Apply("ds.yaml", strings.Replace(rollingBenchDS, "agent:1", "agent:2", 1)); err != nil {
		b.Fatal(err)
	}
	sn := s.NewSnapshotter()
	prev := s.Scene(sn.Snapshot())
	seq := s.store.LastDecisionSeq()
	trs := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s.Advance(250 * time.Millisecond)
		b.StartTimer()
		next := s.Scene(sn.Snapshot())
		trs += len(DiffScenes(prev, next, s.Decisions(seq)))
		prev, seq = next, s.store.LastDecisionSeq()
	}
	b.ReportMetric(float64(trs)/float64(b.N), "transitions/frame")
}

func BenchmarkSceneFrame100(b *testing.B)  { benchmarkSceneFrame(b, 100) }
func BenchmarkSceneFrame1000(b *testing.B) { benchmarkSceneFrame(b, 1000) }
