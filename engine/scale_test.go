package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

const scaleDS = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: "agent:1"}]
`

// benchmarkFillAndRun measures what a learner waits for: apply a DaemonSet
// to an n-node cluster and run 60 virtual seconds, until every pod is Ready.
func benchmarkFillAndRun(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := bigCluster(b, n)
		b.StartTimer()
		if _, err := s.Apply("ds.yaml", scaleDS); err != nil {
			b.Fatal(err)
		}
		s.Advance(60 * time.Second)
		if got := s.store.DaemonSet("default", "agent").Status.NumberReady; int(got) != n {
			b.Fatalf("ready %d of %d", got, n)
		}
	}
}

func BenchmarkFillAndRun100(b *testing.B)  { benchmarkFillAndRun(b, 100) }
func BenchmarkFillAndRun1000(b *testing.B) { benchmarkFillAndRun(b, 1000) }
func BenchmarkFillAndRun5000(b *testing.B) { benchmarkFillAndRun(b, 5000) }

// benchmarkAddNodes measures n nodes joining one at a time (AddNode
// settles after each).
func benchmarkAddNodes(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		s := New(Options{Empty: true})
		for j := 0; j < n; j++ {
			if err := s.AddNode(fmt.Sprintf("node-%d", j), cluster.NodeOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkAddNodes1000(b *testing.B) { benchmarkAddNodes(b, 1000) }

// benchmarkIdleSecond measures one virtual second of a settled cluster
// (every pod Running, nothing scheduled): what each frame of the page costs
// while a learner watches a quiet cluster.
func benchmarkIdleSecond(b *testing.B, n int) {
	s := bigCluster(b, n)
	if _, err := s.Apply("ds.yaml", scaleDS); err != nil {
		b.Fatal(err)
	}
	s.Advance(2 * time.Minute)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Advance(time.Second)
	}
}

func BenchmarkIdleSecond1000(b *testing.B) { benchmarkIdleSecond(b, 1000) }
func BenchmarkIdleSecond5000(b *testing.B) { benchmarkIdleSecond(b, 5000) }
