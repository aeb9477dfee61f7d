package engine

import (
	"strings"
	"testing"
	"time"
)

// TestHugeRequestDoesNotFit: a memory request beyond int64 milli-units
// (1Ei) saturates instead of wrapping to a negative sum that fits any node
// (the scheduler's NodeResourcesFit, the node's allocated resources): the
// daemon pods stay Pending with Insufficient memory (and cpu, when that is
// too much as well), and a later modest DaemonSet is not let through.
func TestHugeRequestDoesNotFit(t *testing.T) {
	for _, tc := range []struct {
		requests string
		want     []string
	}{
		{`{memory: 1Ei}`, []string{"Insufficient memory"}},
		{`{memory: 1Ei, cpu: "100"}`, []string{"Insufficient cpu", "Insufficient memory"}},
	} {
		s := New(Options{})
		// a pod already on each node requests memory: the sum with 1Ei
		// wrapped to a negative that fit
		small := strings.NewReplacer("ds-demo", "small", `image: "nginx:1.23"}`, `image: "nginx:1.23", resources: {requests: {memory: 200Mi}}}`).Replace(sceneDS(""))
		if _, err := s.Apply("small.yaml", small); err != nil {
			t.Fatal(err)
		}
		s.Advance(10 * time.Second)
		hog := strings.Replace(sceneDS(""), `      - {name: c, image: "nginx:1.23"}`, `      - {name: c, image: "nginx:1.23", resources: {requests: `+tc.requests+`}}`, 1)
		if _, err := s.Apply("hog.yaml", hog); err != nil {
			t.Fatal(err)
		}
		s.Advance(5 * time.Second)
		out := s.Run("kubectl get pods -l app=ds-demo")
		if strings.Contains(out.Stdout, "Running") || !strings.Contains(out.Stdout, "Pending") {
			t.Errorf("%s: pods on 4Gi nodes:\n%s", tc.requests, out.Stdout)
		}
		ev := s.Run("kubectl get events")
		for _, w := range tc.want {
			if !strings.Contains(ev.Stdout, w) {
				t.Errorf("%s: the events do not say %q:\n%s", tc.requests, w, ev.Stdout)
			}
		}
		if node := s.Run("kubectl describe node node-1"); strings.Contains(node.Stdout, "-9223") {
			t.Errorf("%s: describe node shows a wrapped sum:\n%s", tc.requests, node.Stdout)
		}
	}
}
