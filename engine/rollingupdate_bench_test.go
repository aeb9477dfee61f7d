package engine

import (
	"strings"
	"testing"
	"time"
)

// rollingBenchDS is a DaemonSet with RollingUpdate maxUnavailable 10%.
const rollingBenchDS = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy:
    type: RollingUpdate
    rollingUpdate: {maxUnavailable: 10%}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: "agent:1"}]
`

// benchmarkRollingUpdate measures a full RollingUpdate simulated to
// completion: an n-node cluster runs the DaemonSet at agent:1, the image
// changes to agent:2, and virtual time advances (in 10 s steps) until every
// pod is updated and available. Setting up the running cluster is not timed.
func benchmarkRollingUpdate(b *testing.B, n int) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := bigCluster(b, n)
		if _, err := s.Apply("ds.yaml", rollingBenchDS); err != nil {
			b.Fatal(err)
		}
		s.Advance(2 * time.Minute)
		b.StartTimer()
		if _, err := s.Apply("ds.yaml", strings.Replace(rollingBenchDS, "agent:1", "agent:2", 1)); err != nil {
			b.Fatal(err)
		}
		start := s.Now()
		for {
			ds := s.store.DaemonSet("default", "agent")
			st := ds.Status
			if st.ObservedGeneration >= ds.Generation && int(st.UpdatedNumberScheduled) == n && int(st.NumberAvailable) == n && int(st.CurrentNumberScheduled) == n {
				break
			}
			if s.Now().Sub(start) > 2*time.Hour {
				b.Fatalf("not rolled out after 2h of virtual time: %+v", st)
			}
			s.Advance(10 * time.Second)
		}
		b.ReportMetric(s.Now().Sub(start).Seconds(), "virtual-s")
	}
}

func BenchmarkRollingUpdate100(b *testing.B)  { benchmarkRollingUpdate(b, 100) }
func BenchmarkRollingUpdate5000(b *testing.B) { benchmarkRollingUpdate(b, 5000) }
