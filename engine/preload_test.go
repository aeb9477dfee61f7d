package engine

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A fresh node holds only the seed's images; imagePullPolicy Never with any
// other waits in ErrImageNeverPull until the image is preloaded
// (Recorder.PreloadImage), which the input log records so that a replay
// reaches the same state.
func TestPreloadImage(t *testing.T) {
	const ds = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: c, image: "busybox:1.36", imagePullPolicy: Never, command: [sleep, infinity]}]
`
	rec := NewRecorder(Options{})
	if got := rec.Live().PreloadedImages(); !slices.Equal(got, []string{"nginx:1.23", "nginx:1.23.3"}) {
		t.Fatalf("default preloaded images %v", got)
	}
	if _, err := rec.Apply("ds.yaml", ds); err != nil {
		t.Fatal(err)
	}
	rec.Advance(30 * time.Second)
	statuses := func(s *Simulation) []string {
		var out []string
		for _, n := range s.Snapshot().Nodes {
			for _, p := range n.Pods {
				out = append(out, p.Node+"="+p.Status)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := statuses(rec.Live()); !slices.Equal(got, []string{"node-1=ErrImageNeverPull", "node-2=ErrImageNeverPull"}) {
		t.Fatalf("before the preload: %v", got)
	}
	// the page's preload offer: the image on each waiting pod and its DaemonSet
	snap := rec.Live().Snapshot()
	if len(snap.DaemonSets) != 1 || !slices.Equal(snap.DaemonSets[0].NeverPulled, []string{"busybox:1.36"}) {
		t.Errorf("DaemonSetView.NeverPulled = %v, want [busybox:1.36]", snap.DaemonSets)
	}
	for _, n := range snap.Nodes {
		for _, p := range n.Pods {
			if p.NeverPulled != "busybox:1.36" {
				t.Errorf("pod %s: NeverPulled %q", p.Name, p.NeverPulled)
			}
		}
	}
	if err := rec.PreloadImage("NGINX:Latest"); err == nil || !strings.Contains(err.Error(), "must be lowercase") {
		t.Errorf("an invalid reference: %v", err)
	}
	n := len(rec.Inputs())
	if err := rec.PreloadImage("busybox:1.36"); err != nil {
		t.Fatal(err)
	}
	if err := rec.PreloadImage("docker.io/library/busybox:1.36"); err != nil || len(rec.Inputs()) != n+1 {
		t.Fatalf("preloading the same image twice: %v, %d inputs", err, len(rec.Inputs())-n)
	}
	in := rec.Inputs()[n]
	if in.Kind != InputRegistryPreload || in.Label() != "registry preloaded nginx:1.23 nginx:1.23.3 busybox:1.36" {
		t.Fatalf("recorded %q %q", in.Kind, in.Label())
	}
	rec.Advance(30 * time.Second)
	want := []string{"node-1=Running", "node-2=Running"}
	if got := statuses(rec.Live()); !slices.Equal(got, want) {
		t.Fatalf("after the preload: %v", got)
	}
	if d := rec.Live().Snapshot().DaemonSets[0]; d.NeverPulled != nil {
		t.Errorf("after the preload: NeverPulled %v", d.NeverPulled)
	}
	// a replay (what a share link does) gets there too
	past, err := rec.Seek(rec.Live().Elapsed())
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(past); !slices.Equal(got, want) {
		t.Fatalf("replayed: %v", got)
	}
}
