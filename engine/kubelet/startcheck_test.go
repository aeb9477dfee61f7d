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

// makeEnvironmentVariables' errors: a missing object or key, unless the
// reference is optional.
func TestEnvConfigError(t *testing.T) {
	keyRef := func(kind, name, key string, optional bool) map[string]any {
		ref := map[string]any{"name": name, "key": key}
		if optional {
			ref["optional"] = true
		}
		return map[string]any{kind: ref}
	}
	for _, tc := range []struct {
		name    string
		env     []api.EnvVar
		envFrom []any
		want    string
	}{
		{"no references", []api.EnvVar{{Name: "A", Value: "1"}}, nil, ""},
		{"secret present", []api.EnvVar{{Name: "P", ValueFrom: keyRef("secretKeyRef", "db", "password", false)}}, nil, ""},
		{"secret missing", []api.EnvVar{{Name: "P", ValueFrom: keyRef("secretKeyRef", "x", "password", false)}}, nil, `secret "x" not found`},
		{"secret missing, optional", []api.EnvVar{{Name: "P", ValueFrom: keyRef("secretKeyRef", "x", "password", true)}}, nil, ""},
		{"secret key missing", []api.EnvVar{{Name: "P", ValueFrom: keyRef("secretKeyRef", "db", "user", false)}}, nil, "couldn't find key user in Secret default/db"},
		{"secret key missing, optional", []api.EnvVar{{Name: "P", ValueFrom: keyRef("secretKeyRef", "db", "user", true)}}, nil, ""},
		{"configmap missing", []api.EnvVar{{Name: "L", ValueFrom: keyRef("configMapKeyRef", "cfg", "level", false)}}, nil, `configmap "cfg" not found`},
		{"configmap key missing", []api.EnvVar{{Name: "L", ValueFrom: keyRef("configMapKeyRef", "settings", "level", false)}}, nil, "couldn't find key level in ConfigMap default/settings"},
		{"configmap key only in binaryData", []api.EnvVar{{Name: "L", ValueFrom: keyRef("configMapKeyRef", "settings", "blob", false)}}, nil, "couldn't find key blob in ConfigMap default/settings"},
		{"configmap key present", []api.EnvVar{{Name: "L", ValueFrom: keyRef("configMapKeyRef", "settings", "mode", false)}}, nil, ""},
		{"first error wins", []api.EnvVar{
			{Name: "A", ValueFrom: keyRef("configMapKeyRef", "settings", "nope", false)},
			{Name: "B", ValueFrom: keyRef("secretKeyRef", "gone", "k", false)}}, nil, "couldn't find key nope in ConfigMap default/settings"},
		{"envFrom secret missing", nil, []any{map[string]any{"secretRef": map[string]any{"name": "creds"}}}, `secret "creds" not found`},
		{"envFrom configmap missing, optional", nil, []any{map[string]any{"configMapRef": map[string]any{"name": "cfg", "optional": true}}}, ""},
		{"envFrom before env", []api.EnvVar{{Name: "P", ValueFrom: keyRef("secretKeyRef", "x", "p", false)}},
			[]any{map[string]any{"configMapRef": map[string]any{"name": "cfg"}}}, `configmap "cfg" not found`},
		{"envFrom present", nil, []any{map[string]any{"prefix": "DB_", "secretRef": map[string]any{"name": "db"}}}, ""},
		{"fieldRef", []api.EnvVar{{Name: "N", ValueFrom: map[string]any{"fieldRef": map[string]any{"fieldPath": "spec.nodeName"}}}}, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			if err := w.c.CreateSecret(&api.Secret{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"}, Data: map[string][]byte{"password": []byte("s3cret")}}); err != nil {
				t.Fatal(err)
			}
			if err := w.c.CreateConfigMap(&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "settings", Namespace: "default"},
				Data: map[string]string{"mode": "fast"}, BinaryData: map[string][]byte{"blob": {1}}}); err != nil {
				t.Fatal(err)
			}
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Env: tc.env}}}}
			if tc.envFrom != nil {
				p.Extra = api.Unmodeled{"spec.containers[0]": {"envFrom": tc.envFrom}}
			}
			if got := w.k.envConfigError(p, &p.Spec.Containers[0], false, 0); got != tc.want {
				t.Errorf("envConfigError = %q, want %q", got, tc.want)
			}
		})
	}
}

// A container whose environment names a missing Secret waits in
// CreateContainerConfigError (Warning Failed "Error: secret ... not
// found", again at every pod worker sync) and starts at the first sync
// after the Secret is created; an init container likewise.
func TestCreateContainerConfigError(t *testing.T) {
	ref := map[string]any{"secretKeyRef": map[string]any{"name": "x", "key": "k"}}
	for _, init := range []bool{false, true} {
		name := "app"
		if init {
			name = "init"
		}
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			p := w.pod("a", "node-0", func(p *api.Pod) {
				if init {
					p.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox:1.36", ImagePullPolicy: "Never", Command: []string{"true"}, Env: []api.EnvVar{{Name: "K", ValueFrom: ref}}}}
				} else {
					p.Spec.Containers[0].Env = []api.EnvVar{{Name: "K", ValueFrom: ref}}
				}
			})
			w.advance(time.Minute)
			st := p.Status.ContainerStatuses[0]
			if init {
				st = p.Status.InitContainerStatuses[0]
			}
			if ws := st.State.Waiting; ws == nil || ws.Reason != "CreateContainerConfigError" || ws.Message != `secret "x" not found` || p.Status.Phase != api.PodPending {
				t.Fatalf("phase %s, state %+v", p.Status.Phase, st.State)
			}
			if n := countEvents(w, p, `Failed Error: secret "x" not found`); n < 4 {
				t.Errorf("%d Failed events (the pod worker retries every 10-15 s): %v", n, events(w.c, p))
			}
			if n := countEvents(w, p, `Pulled Container image`); n < 4 {
				t.Errorf("%d Pulled events (EnsureImageExists runs at every try): %v", n, events(w.c, p))
			}
			if err := w.c.CreateSecret(&api.Secret{ObjectMeta: api.ObjectMeta{Name: "x", Namespace: "default"}, Data: map[string][]byte{"k": []byte("v")}}); err != nil {
				t.Fatal(err)
			}
			w.advance(20 * time.Second)
			if got := waiting(p); got != "Running" || !p.IsReady() {
				t.Fatalf("after the Secret appeared: %s ready %v; events %v", got, p.IsReady(), events(w.c, p))
			}
		})
	}
}

// parseImageReference gives distribution/reference ParseNormalizedNamed's
// errors (the table was checked against reference v0.6.0 with go-digest
// v1.0.0, sha256 and sha512 linked as in the kubelet).
func TestParseImageReference(t *testing.T) {
	for _, tc := range []struct{ ref, err string }{
		{"NGINX:Latest", "invalid reference format: repository name (library/NGINX) must be lowercase"},
		{"nginx:Latest", ""},
		{"my image", "invalid reference format"},
		{"busybox@notadigest", "invalid reference format"},
		{"busybox@sha256:abc", "invalid reference format"},
		{"busybox@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", ""},
		{"busybox@sha256:0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef", "invalid checksum digest format"},
		{"busybox@md5:0123456789abcdef0123456789abcdef", "unsupported digest algorithm"},
		{"busybox@sha256:0123456789abcdef0123456789abcdef", "invalid checksum digest length"},
		{"nginx", ""},
		{"nginx:1.23", ""},
		{"docker.io/library/nginx:1.23", ""},
		{"localhost:5000/app:v1", ""},
		{"Example.com/app", ""},
		{"example.com/App", "invalid reference format: repository name (App) must be lowercase"},
		{"quay.io/Blacloud/x:1.0.7", "invalid reference format: repository name (Blacloud/x) must be lowercase"},
		{"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "invalid repository name (0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef), cannot specify 64-byte hexadecimal strings"},
		{"nginx:", "invalid reference format"},
		{":tag", "invalid reference format"},
		{"nginx::1", "invalid reference format"},
		{"a/b/c:d@sha512:00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", ""},
		{"nginx:-bad", "invalid reference format"},
		{"ngi__nx", ""},
		{"ngi___nx", "invalid reference format"},
		{"-nginx", "invalid reference format"},
		{"nginx-", "invalid reference format"},
		{"registry.k8s.io/pause:3.9", ""},
		{"[::1]:5000/app", ""},
		{"UPPER", "invalid reference format: repository name (library/UPPER) must be lowercase"},
		{"index.docker.io/nginx", ""},
		{"nginx@sha256:xyz", "invalid reference format"},
		{"nginx latest", "invalid reference format"},
		{"nginx:1.23 ", "invalid reference format"},
		{"Nginx", "invalid reference format: repository name (library/Nginx) must be lowercase"},
	} {
		got := ""
		if err := parseImageReference(tc.ref); err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("parseImageReference(%q) = %q, want %q", tc.ref, got, tc.err)
		}
	}
	if got, want := invalidImageMessage("NGINX:Latest"), `Failed to apply default image tag "NGINX:Latest": couldn't parse image name "NGINX:Latest": invalid reference format: repository name (library/NGINX) must be lowercase`; got != want {
		t.Errorf("invalidImageMessage = %q, want %q", got, want)
	}
}

// An image reference that does not parse: InvalidImageName, whatever the
// pull policy, retried at every sync, never started; an init container's
// holds the pod at initialisation.
func TestInvalidImageName(t *testing.T) {
	for _, tc := range []struct {
		name, image, policy string
		init                bool
		msg                 string
	}{
		{"upper case", "NGINX:Latest", "", false, `Failed to apply default image tag "NGINX:Latest": couldn't parse image name "NGINX:Latest": invalid reference format: repository name (library/NGINX) must be lowercase`},
		{"space, Never", "my image", "Never", false, `Failed to apply default image tag "my image": couldn't parse image name "my image": invalid reference format`},
		{"not a digest, IfNotPresent", "busybox@notadigest", "IfNotPresent", false, `Failed to apply default image tag "busybox@notadigest": couldn't parse image name "busybox@notadigest": invalid reference format`},
		{"init container", "Busybox:1.36", "Always", true, `Failed to apply default image tag "Busybox:1.36": couldn't parse image name "Busybox:1.36": invalid reference format: repository name (library/Busybox) must be lowercase`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			p := w.pod("a", "node-0", func(p *api.Pod) {
				c := api.Container{Name: "app", Image: tc.image, ImagePullPolicy: tc.policy}
				if tc.init {
					c.Name, c.Command = "init", []string{"true"}
					p.Spec.InitContainers = []api.Container{c}
				} else {
					p.Spec.Containers[0] = c
				}
			})
			w.advance(time.Minute)
			st := p.Status.ContainerStatuses[0]
			if tc.init {
				st = p.Status.InitContainerStatuses[0]
			}
			if ws := st.State.Waiting; ws == nil || ws.Reason != "InvalidImageName" || ws.Message != tc.msg || p.Status.Phase != api.PodPending {
				t.Fatalf("phase %s, state %+v", p.Status.Phase, st.State)
			}
			if n := countEvents(w, p, "InspectFailed "+tc.msg); n < 4 {
				t.Errorf("%d InspectFailed events: %v", n, events(w.c, p))
			}
			if n := countEvents(w, p, "Failed Error: InvalidImageName"); n < 4 {
				t.Errorf("%d Failed events: %v", n, events(w.c, p))
			}
			if n := countEvents(w, p, "Pulling"); n != 0 {
				t.Errorf("%d pulls of an invalid reference", n)
			}
		})
	}
}
