package kubelet

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestFailedMountBackoffThenStart: a configMap volume naming a missing
// ConfigMap keeps the pod ContainerCreating with one FailedMount event per
// attempt (500 ms doubling); the attempt after the ConfigMap appears
// mounts it and the pod starts.
func TestFailedMountBackoffThenStart(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("web", "node-0", func(p *api.Pod) {
		p.Spec.Volumes = []api.Volume{{Name: "c", Source: map[string]any{"configMap": map[string]any{"name": "missing-cm"}}}}
	})
	w.advance(30 * time.Second)
	if p.Status.Phase != api.PodPending || len(p.Status.ContainerStatuses) != 1 ||
		p.Status.ContainerStatuses[0].State.Waiting == nil || p.Status.ContainerStatuses[0].State.Waiting.Reason != "ContainerCreating" {
		t.Fatalf("status %+v", p.Status)
	}
	var mount *api.Event
	for _, e := range w.c.EventsFor("Pod", p.UID) {
		switch e.Reason {
		case "FailedMount":
			mount = e
		case "Pulled", "Pulling", "Started":
			t.Errorf("event %s before the volumes mount", e.Reason)
		}
	}
	if mount == nil {
		t.Fatal("no FailedMount event")
	}
	// attempts at +0, +0.5, +1.5, +3.5, +7.5, +15.5 (the next at +31.5)
	start := mount.FirstTimestamp
	if mount.Type != api.EventTypeWarning || mount.Message != `MountVolume.SetUp failed for volume "c" : configmap "missing-cm" not found` ||
		mount.Count != 6 || mount.LastTimestamp.Sub(start) != 15*time.Second { // +15.5s, stored in whole seconds
		t.Fatalf("FailedMount event %+v", mount)
	}
	if err := w.c.CreateConfigMap(&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "missing-cm", Namespace: "default"}}); err != nil {
		t.Fatal(err)
	}
	w.advance(start.Add(31400 * time.Millisecond).Sub(w.c.Now()))
	if p.Status.StartTime != nil {
		t.Fatal("mounted before the next attempt")
	}
	w.advance(10 * time.Second)
	if p.Status.Phase != api.PodRunning || !p.IsReady() {
		t.Fatalf("not started after the ConfigMap appeared: %+v", p.Status)
	}
	if len(w.k.mountWaits) != 0 {
		t.Errorf("mount waits kept: %v", w.k.mountWaits)
	}
}

// TestVolumeSetUpErrors: which volumes fail SetUp, with upstream's texts.
func TestVolumeSetUpErrors(t *testing.T) {
	w := newWorld(t, "node-0")
	if err := w.c.CreateConfigMap(&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm", Namespace: "default"}, Data: map[string]string{"a": "1"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.c.CreateSecret(&api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "default"}, Data: map[string][]byte{"k": []byte("v")}}); err != nil {
		t.Fatal(err)
	}
	item := func(key string) []any { return []any{map[string]any{"key": key, "path": key}} }
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}
	for _, c := range []struct {
		name string
		src  map[string]any
		want string
	}{
		{"cm present", map[string]any{"configMap": map[string]any{"name": "cm"}}, ""},
		{"cm missing", map[string]any{"configMap": map[string]any{"name": "nope"}}, `configmap "nope" not found`},
		{"cm missing optional", map[string]any{"configMap": map[string]any{"name": "nope", "optional": true}}, ""},
		{"cm missing key", map[string]any{"configMap": map[string]any{"name": "cm", "items": item("b")}}, "configmap references non-existent config key: b"},
		{"cm missing key optional", map[string]any{"configMap": map[string]any{"name": "cm", "items": item("b"), "optional": true}}, ""},
		{"secret present", map[string]any{"secret": map[string]any{"secretName": "s", "items": item("k")}}, ""},
		{"secret missing", map[string]any{"secret": map[string]any{"secretName": "tls"}}, `secret "tls" not found`},
		{"secret missing key", map[string]any{"secret": map[string]any{"secretName": "s", "items": item("x")}}, "secret references non-existent secret key: x"},
		{"hostPath", map[string]any{"hostPath": map[string]any{"path": "/var/log"}}, ""},
		{"kube-root-ca.crt", map[string]any{"configMap": map[string]any{"name": "kube-root-ca.crt"}}, ""},
	} {
		if got := w.k.volumeSetUpError(p, api.Volume{Name: "v", Source: c.src}); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
