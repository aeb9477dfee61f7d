package kubelet

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// freshWorld is a world whose kubelets hold only what a new Registry
// preloads (SeedPreloadedImages), not the tests' images.
func freshWorld(t *testing.T, nodes ...string) *world {
	w := newWorld(t, nodes...)
	w.k.Registry = NewRegistry()
	return w
}

// imagePullPolicy Never runs only what the node holds: an image it pulled
// (status.images) or one preloaded; anything else is ErrImageNeverPull,
// retried at each pod worker sync, so a pod whose image is preloaded
// later starts.
func TestErrImageNeverPull(t *testing.T) {
	never := func(image string) func(p *api.Pod) {
		return func(p *api.Pod) { p.Spec.Containers[0].Image = image }
	}
	for _, tc := range []struct {
		name  string
		image string
		setup func(w *world)
		// preload is preloaded a minute in
		preload string
		want    string // the container's state after a minute
		end     string // ... and after two
	}{
		{"fresh node", "nginx:1.27", nil, "", "ErrImageNeverPull", "ErrImageNeverPull"},
		{"seed image preloaded by default", "nginx:1.23", nil, "", "Running", "Running"},
		{"seed image by its full name", "docker.io/library/nginx:1.23.3", nil, "", "Running", "Running"},
		{"none preloaded", "nginx:1.23", func(w *world) { w.k.Registry.SetPreloaded() }, "", "ErrImageNeverPull", "ErrImageNeverPull"},
		{"pulled earlier on the node", "nginx:1.27", func(w *world) {
			w.pod("puller", "node-0", func(p *api.Pod) {
				p.Spec.Containers[0].Image, p.Spec.Containers[0].ImagePullPolicy = "nginx:1.27", "IfNotPresent"
			})
			w.advance(30 * time.Second)
		}, "", "Running", "Running"},
		{"pulled on another node only", "nginx:1.27", func(w *world) {
			w.pod("puller", "node-1", func(p *api.Pod) {
				p.Spec.Containers[0].Image, p.Spec.Containers[0].ImagePullPolicy = "nginx:1.27", "IfNotPresent"
			})
			w.advance(30 * time.Second)
		}, "", "ErrImageNeverPull", "ErrImageNeverPull"},
		{"preloaded later", "nginx:1.27", nil, "nginx:1.27", "ErrImageNeverPull", "Running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := freshWorld(t, "node-0", "node-1")
			if tc.setup != nil {
				tc.setup(w)
			}
			p := w.pod("a", "node-0", never(tc.image)) // imagePullPolicy Never
			w.advance(time.Minute)
			if got := waiting(p); got != tc.want {
				t.Fatalf("state %s, want %s; events %v", got, tc.want, events(w.c, p))
			}
			if tc.want == "ErrImageNeverPull" {
				if msg := p.Status.ContainerStatuses[0].State.Waiting.Message; msg != `Container image "`+tc.image+`" is not present with pull policy of Never` {
					t.Errorf("message %q", msg)
				}
				// the pod worker syncs again every 10-15 s and fails again
				if n := countEvents(w, p, "Failed Error: ErrImageNeverPull"); n < 4 || p.Status.Phase != api.PodPending {
					t.Errorf("phase %s, %d Failed events: %v", p.Status.Phase, n, events(w.c, p))
				}
				if n := countEvents(w, p, "ErrImageNeverPull Container image"); n < 4 {
					t.Errorf("%d ErrImageNeverPull events", n)
				}
			}
			if tc.preload != "" {
				w.k.Registry.Preload(tc.preload)
			}
			w.advance(time.Minute)
			if got := waiting(p); got != tc.end {
				t.Fatalf("state a minute later %s, want %s; events %v", got, tc.end, events(w.c, p))
			}
		})
	}
}

// An init container under imagePullPolicy Never waits (Init:ErrImageNeverPull)
// and starts once its image is preloaded; the app container then follows.
func TestInitContainerNeverPull(t *testing.T) {
	w := freshWorld(t, "node-0")
	p := w.pod("a", "node-0", func(p *api.Pod) {
		p.Spec.Containers[0].Image = "nginx:1.23"
		p.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox:1.36", ImagePullPolicy: "Never", Command: []string{"true"}}}
	})
	w.advance(time.Minute)
	if ws := p.Status.InitContainerStatuses[0].State.Waiting; ws == nil || ws.Reason != "ErrImageNeverPull" {
		t.Fatalf("init container %+v", p.Status.InitContainerStatuses[0].State)
	}
	if n := countEvents(w, p, "Failed Error: ErrImageNeverPull"); n < 4 {
		t.Errorf("%d retries: %v", n, events(w.c, p))
	}
	w.k.Registry.Preload("busybox:1.36")
	w.advance(time.Minute)
	if got := waiting(p); got != "Running" {
		t.Fatalf("app container %s after the preload; events %v", got, events(w.c, p))
	}
}
