package kubectl

import (
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// TestCordonDrainDryRunAlready checks that drain.go's ToPrinter adds the
// dry-run suffix to "already cordoned" / "already uncordoned" too, and the
// bare-pod drain error of filters.go (unmanagedFatal already starts with
// "cannot delete", which PodDeleteList.errors does not repeat).
func TestCordonDrainDryRunAlready(t *testing.T) {
	setup := func(c *cluster.Cluster) {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare", Namespace: "default"}, Spec: api.PodSpec{NodeName: "node-1",
			Containers: []api.Container{{Name: "c", Image: "busybox"}}}}
		if err := c.CreatePod(p); err != nil {
			t.Fatal(err)
		}
		p.Status.Phase = api.PodRunning
		if err := c.UpdatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	runGoldenCases(t, []goldenCase{{name: "cordon_dry_run", setup: setup, lines: []string{
		"kubectl cordon node-1",
		"kubectl cordon node-1 --dry-run=client",
		"kubectl cordon node-1 --dry-run=server",
		"kubectl drain node-1 --ignore-daemonsets --dry-run=server",
		"kubectl uncordon node-2 --dry-run=client",
		"kubectl uncordon node-2 --dry-run=server",
		"kubectl uncordon node-1 --dry-run=client",
	}}})
}
