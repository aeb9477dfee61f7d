package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/examples"
)

// addNodesManifest is the manifest the page's dsplay.addNodes(prefix, n)
// applies (wasm/timeline.go addNodesYAML): n Node documents prefix-1 ...
// prefix-n, each with only apiVersion, kind and metadata.name.
func addNodesManifest(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: %s-%d\n", prefix, i)
	}
	return b.String()
}

// BenchmarkApply1000NodeManifest measures what dsplay.addNodes("w", 1000)
// does in the page: one Recorder.Apply of a 1,000-Node manifest on the
// page's default cluster (Options{StreamRolloutStatus: true}), including
// the Settle that follows (controller verdicts, scheduler, kubelets). The
// Recorder is created outside the timed region.
func BenchmarkApply1000NodeManifest(b *testing.B) {
	benchmarkApplyNodes(b, false)
}

// BenchmarkApply1000NodeManifestExample is BenchmarkApply1000NodeManifest
// on the page's starting state: the default example (examples.Manifests()[0],
// a DaemonSet) applied and settled first, so the 1,000 new nodes each get a
// daemon pod (controller, scheduler and kubelet work in the Settle).
func BenchmarkApply1000NodeManifestExample(b *testing.B) {
	benchmarkApplyNodes(b, true)
}

func benchmarkApplyNodes(b *testing.B, example bool) {
	text := addNodesManifest("w", 1000)
	ex := examples.Manifests()[0]
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		r := NewRecorder(Options{StreamRolloutStatus: true})
		if example {
			if _, err := r.Apply(ex.File, ex.Text); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		if _, err := r.Apply("w-nodes.yaml", text); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if got := len(r.Live().store.Nodes()); got < 1000 {
			b.Fatalf("%d nodes after apply", got)
		}
		b.StartTimer()
	}
}
