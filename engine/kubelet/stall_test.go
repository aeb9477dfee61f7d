package kubelet

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func TestCommandExit(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		code int32
		ok   bool
	}{
		{[]string{"false"}, 1, true},
		{[]string{"/bin/false"}, 1, true},
		{[]string{"true"}, 0, true},
		{[]string{"sh", "-c", "exit 1"}, 1, true},
		{[]string{"/bin/sh", "-c", "echo hi; exit 3"}, 3, true},
		{[]string{"bash", "-c", "sleep 1 && exit 256"}, 0, true},
		{[]string{"sh", "-c", "nginx -g 'daemon off;'"}, 0, false},
		{[]string{"sh", "-c", "exit $CODE"}, 0, false},
		{[]string{"sh", "exit 1"}, 0, false},
		{[]string{"nginx"}, 0, false},
		{nil, 0, false},
	} {
		code, ok := commandExit(tc.argv)
		if code != tc.code || ok != tc.ok {
			t.Errorf("commandExit(%q) = %d, %v; want %d, %v", tc.argv, code, ok, tc.code, tc.ok)
		}
	}
}

func TestNormalizeImage(t *testing.T) {
	for in, want := range map[string]string{
		"nginx":                         "docker.io/library/nginx:latest",
		"nginx:1.23":                    "docker.io/library/nginx:1.23",
		"bitnami/nginx:1":               "docker.io/bitnami/nginx:1",
		"quay.io/fluentd/fluentd:v2":    "quay.io/fluentd/fluentd:v2",
		"localhost:5000/app":            "localhost:5000/app:latest",
		"registry.k8s.io/pause:3.9":     "registry.k8s.io/pause:3.9",
		"nginx@sha256:abc":              "docker.io/library/nginx@sha256:abc",
		"docker.io/library/nginx:1.233": "docker.io/library/nginx:1.233",
	} {
		if got := NormalizeImage(in); got != want {
			t.Errorf("NormalizeImage(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	if !r.Exists("anything:v9") || r.Preloaded("anything:v9") {
		t.Fatal("an open registry has every image, and a fresh node holds none of them")
	}
	for _, ref := range SeedPreloadedImages {
		if !r.Preloaded(ref) || !r.Preloaded("docker.io/library/"+ref) {
			t.Fatalf("%s, imported by hand by the seed's author, is preloaded by default", ref)
		}
	}
	r.Preload("busybox:1.36", "docker.io/library/busybox:1.36")
	if !r.Preloaded("busybox:1.36") || !r.Preloaded("nginx:1.23") {
		t.Fatal("Preload adds to the preloaded images")
	}
	if got := strings.Join(r.PreloadedImages(), " "); got != "nginx:1.23 nginx:1.23.3 busybox:1.36" {
		t.Fatalf("PreloadedImages = %q", got)
	}
	r.Lack("nginx:1.233")
	if r.Exists("docker.io/library/nginx:1.233") || !r.Exists("nginx:1.23") {
		t.Fatal("Lack removes exactly the reference")
	}
	r.Have("nginx:1.23")
	if !r.Exists("nginx:1.23") || r.Exists("busybox") {
		t.Fatal("Have declares the content")
	}
	if e := r.pullError("nginx:9"); !strings.Contains(e, "docker.io/library/nginx:9: not found") {
		t.Errorf("missing tag of a known repository: %s", e)
	}
	if e := r.pullError("busybox"); !strings.Contains(e, "pull access denied") {
		t.Errorf("unknown repository: %s", e)
	}
	r.SetPreloaded("nginx:1.23")
	if !r.Preloaded("docker.io/library/nginx:1.23") || r.Preloaded("nginx:1.23.3") {
		t.Fatal("SetPreloaded narrows the preloaded images")
	}
}

// waiting returns the first container's waiting reason, or its state.
func waiting(p *api.Pod) string {
	cs := p.Status.ContainerStatuses[0]
	switch {
	case cs.State.Waiting != nil:
		return cs.State.Waiting.Reason
	case cs.State.Running != nil:
		return "Running"
	case cs.State.Terminated != nil:
		return "Terminated:" + cs.State.Terminated.Reason
	}
	return ""
}

func countEvents(w *world, p *api.Pod, prefix string) int {
	n := 0
	for _, e := range w.c.EventsFor("Pod", p.UID) {
		if strings.HasPrefix(e.Reason+" "+e.Message, prefix) {
			n += int(e.Count)
		}
	}
	return n
}

// backoffAt is the k-th back-off (k from 1): 10 s doubling, capped.
func backoffAt(k int, initial, maxDelay time.Duration) time.Duration {
	b := initial
	for ; k > 1 && b < maxDelay; k-- {
		b *= 2
	}
	return min(b, maxDelay)
}

// firstSyncAfter is the first pod-worker sync at from + j*r (j >= 1) that is
// at least wait after from.
func firstSyncAfter(from time.Time, r, wait time.Duration) time.Time {
	j := (wait + r - 1) / r
	return from.Add(max(j, 1) * r)
}

// A tag the registry lacks: ErrImagePull at each failed pull, the pod worker
// re-syncing 10-15 s later, ImagePullBackOff on the syncs within the image
// back-off (10 s doubling to 300 s) and a new pull on the first sync after it.
func TestImagePullBackOff(t *testing.T) {
	w := newWorld(t, "node-0")
	w.k.Registry.Lack("nginx:1.233")
	p := w.pod("a", "node-0", func(p *api.Pod) {
		p.Spec.Containers[0].Image, p.Spec.Containers[0].ImagePullPolicy = "nginx:1.233", "IfNotPresent"
	})
	r := podWorkerResync(p, "app")
	// (Events cannot count the pulls: the event spam filter drops most of
	// them after a while, as a real cluster's does. Decisions are complete.)
	pulls := []time.Time{p.CreationTimestamp.Add(AdmitDelay)}
	var fails []time.Time
	sawBackOff := map[int]bool{} // failure index -> ImagePullBackOff seen after it
	for w.c.Now().Sub(p.CreationTimestamp) < 20*time.Minute {
		w.advance(500 * time.Millisecond)
		if waiting(p) == "ImagePullBackOff" {
			sawBackOff[len(fails)] = true
		}
		for _, d := range w.c.Decisions(0) {
			if d.Object == "Pod/default/a" && d.Action == "pull-failed" && (len(fails) == 0 || d.Time.After(fails[len(fails)-1])) {
				fails = append(fails, d.Time)
			}
			if d.Object == "Pod/default/a" && d.Action == "pull-retry" && d.Time.After(pulls[len(pulls)-1]) {
				pulls = append(pulls, d.Time)
			}
		}
	}
	if countEvents(w, p, "Pulling ") == 0 || len(pulls) < 8 || len(fails) != len(pulls) {
		t.Fatalf("%d pulls, %d failures", len(pulls), len(fails))
	}
	for k := range fails {
		if d := fails[k].Sub(pulls[k]); d != 500*time.Millisecond && d != time.Second {
			t.Errorf("pull %d took %s, want a fast failure (0.5-1 s)", k+1, d)
		}
		if k+1 < len(pulls) {
			b := backoffAt(k+1, ImageBackOffInitial, ImageBackOffMax)
			if want := firstSyncAfter(fails[k], r, b); !pulls[k+1].Equal(want) {
				t.Errorf("pull %d at +%s, want +%s (failure at +%s, back-off %s, re-sync %s)", k+2, pulls[k+1].Sub(p.CreationTimestamp), want.Sub(p.CreationTimestamp), fails[k].Sub(p.CreationTimestamp), b, r)
			}
			// ImagePullBackOff shows between failures when a sync falls
			// within the back-off: after the second failure on.
			if want := r < b; sawBackOff[k+1] != want {
				t.Errorf("after failure %d: ImagePullBackOff seen %v, want %v", k+1, sawBackOff[k+1], want)
			}
		}
	}
	if p.Status.Phase != api.PodPending || countEvents(w, p, "BackOff Back-off pulling image \"nginx:1.233\"") == 0 {
		t.Fatalf("phase %s, events %v", p.Status.Phase, events(w.c, p))
	}
	if cs := p.Status.ContainerStatuses[0]; waiting(p) == "ImagePullBackOff" && !strings.HasPrefix(cs.State.Waiting.Message, `Back-off pulling image "nginx:1.233": ErrImagePull: rpc error: code = NotFound`) {
		t.Errorf("back-off message %q", cs.State.Waiting.Message)
	}
	// The tag appears in the registry: the next pull succeeds and it starts.
	w.k.Registry.Have("nginx:1.233")
	w.advance(6 * time.Minute)
	if p.Status.Phase != api.PodRunning || !p.IsReady() {
		t.Fatalf("after the tag appeared: %s %s", p.Status.Phase, waiting(p))
	}
}

// A container that exits at once: Error, an immediate first restart, then
// CrashLoopBackOff with restarts on the first pod-worker sync after each
// back-off (10 s doubling to 300 s) from the exit.
func TestCrashLoopBackOff(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("a", "node-0", func(p *api.Pod) { p.Spec.Containers[0].Command = []string{"sh", "-c", "exit 2"} })
	r := podWorkerResync(p, "app")
	var starts, exits []time.Time
	sawError, sawLoop := false, false
	for w.c.Now().Sub(p.CreationTimestamp) < 25*time.Minute {
		w.advance(500 * time.Millisecond)
		if len(p.Status.ContainerStatuses) == 0 {
			continue
		}
		cs := p.Status.ContainerStatuses[0]
		if run := cs.State.Running; run != nil && (len(starts) == 0 || !starts[len(starts)-1].Equal(run.StartedAt)) {
			starts = append(starts, run.StartedAt)
		}
		if term := cs.State.Terminated; term != nil {
			sawError = sawError || (term.Reason == "Error" && term.ExitCode == 2)
		}
		if last := cs.LastState.Terminated; last != nil && (len(exits) == 0 || !exits[len(exits)-1].Equal(last.FinishedAt)) {
			exits = append(exits, last.FinishedAt)
		}
		if wt := cs.State.Waiting; wt != nil && wt.Reason == "CrashLoopBackOff" {
			sawLoop = true
			b := backoffAt(int(cs.RestartCount), CrashBackOffInitial, CrashBackOffMax)
			if want := "back-off " + b.String() + " restarting failed container=app pod=a_default(" + p.UID + ")"; wt.Message != want {
				t.Fatalf("restarts %d: message %q, want %q", cs.RestartCount, wt.Message, want)
			}
		}
	}
	if !sawError || !sawLoop || len(starts) < 8 {
		t.Fatalf("Error seen %v, CrashLoopBackOff seen %v, %d starts", sawError, sawLoop, len(starts))
	}
	if got := int(p.Status.ContainerStatuses[0].RestartCount); got != len(starts)-1 {
		t.Errorf("restartCount %d after %d starts", got, len(starts))
	}
	// The stored startedAt holds whole seconds (Cluster.Stamp); the
	// kubelet's decisions carry the precise instant of each start, which
	// the back-off is computed from.
	var precise []time.Time
	for _, d := range w.c.Decisions(0) {
		if d.Object == podObject(p) && (d.Action == "running" || d.Action == "restart") {
			precise = append(precise, d.Time)
		}
	}
	if len(precise) < len(starts) {
		t.Fatalf("%d start decisions for %d starts", len(precise), len(starts))
	}
	for k := range starts {
		if want := cluster.MetaTime(precise[k]); !starts[k].Equal(want) {
			t.Errorf("start %d: startedAt %s, want the second of %s", k+1, starts[k].Format(time.RFC3339Nano), precise[k].Format(time.RFC3339Nano))
		}
	}
	starts = precise[:len(starts)]
	for k := 1; k < len(starts); k++ {
		exit := starts[k-1].Add(CrashExitAfter)
		want := exit.Add(CrashSyncDelay) // the first restart: no back-off entry yet
		if k > 1 {
			b := backoffAt(k-1, CrashBackOffInitial, CrashBackOffMax)
			want = exit.Add(CrashSyncDelay)
			if want.Sub(exit) < b {
				want = firstSyncAfter(exit.Add(CrashSyncDelay), r, b-CrashSyncDelay)
			}
		}
		if !starts[k].Equal(want) {
			t.Errorf("start %d at +%s, want +%s", k+1, starts[k].Sub(p.CreationTimestamp), want.Sub(p.CreationTimestamp))
		}
	}
	if p.IsReady() || p.Status.Phase != api.PodRunning || countEvents(w, p, "BackOff Back-off restarting failed container app in pod a_default(") == 0 {
		t.Fatalf("ready %v phase %s events %v", p.IsReady(), p.Status.Phase, events(w.c, p))
	}
}

func TestReadinessProbeThresholds(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("a", "node-0", func(p *api.Pod) {
		c := &p.Spec.Containers[0]
		c.Ports = []api.ContainerPort{{ContainerPort: 80}}
		c.ReadinessProbe = &api.Probe{Handler: map[string]any{"httpGet": map[string]any{"port": int64(80), "path": "/healthz"}},
			InitialDelaySeconds: 5, PeriodSeconds: 10, SuccessThreshold: 2, FailureThreshold: 3}
	})
	w.advance(5 * time.Second)
	started := p.Status.ContainerStatuses[0].State.Running.StartedAt
	// Probes at start+5s, +15s, ...: ready after the second success.
	w.advance(started.Add(15*time.Second - time.Millisecond).Sub(w.c.Now()))
	if p.IsReady() {
		t.Fatal("ready after one success with successThreshold 2")
	}
	w.advance(time.Millisecond)
	if !p.IsReady() {
		t.Fatal("not ready after two successes")
	}
	if len(w.k.probers) != 0 {
		t.Error("a pod whose probes pass keeps a prober (and wake-ups)")
	}
	if err := w.k.SetProbeResult("default", "a", false); err != nil {
		t.Fatal(err)
	}
	// Failures at +25, +35, +45 s: unready at the third.
	w.advance(started.Add(45*time.Second - time.Millisecond).Sub(w.c.Now()))
	if !p.IsReady() {
		t.Fatal("unready before failureThreshold failures")
	}
	w.advance(time.Millisecond)
	if p.IsReady() || p.Condition(api.PodReady).Reason != "ContainersNotReady" || p.Status.ContainerStatuses[0].Ready {
		t.Fatal("still ready after three failures")
	}
	if n := countEvents(w, p, "Unhealthy Readiness probe failed: HTTP probe failed with statuscode: 503"); n != 3 {
		t.Errorf("%d Unhealthy events, want 3", n)
	}
	if err := w.k.SetProbeResult("default", "a", true); err != nil {
		t.Fatal(err)
	}
	w.advance(started.Add(65 * time.Second).Sub(w.c.Now()))
	if !p.IsReady() {
		t.Fatal("not ready again after two successes")
	}
	if err := w.k.SetProbeResult("default", "nope", true); err == nil {
		t.Error("SetProbeResult on a missing pod: no error")
	}
}

func TestReadinessProbeNeverPasses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler map[string]any
		event   string
	}{
		{"exec false", map[string]any{"exec": map[string]any{"command": []any{"false"}}}, "Unhealthy Readiness probe failed: "},
		{"exec exit 1", map[string]any{"exec": map[string]any{"command": []any{"sh", "-c", "exit 1"}}}, "Unhealthy Readiness probe failed: "},
		{"httpGet on an undeclared port of nginx", map[string]any{"httpGet": map[string]any{"port": int64(8080), "path": "/ready"}}, `Unhealthy Readiness probe failed: Get "http://10.244.0.2:8080/ready": dial tcp 10.244.0.2:8080: connect: connection refused`},
		{"httpGet on a port nginx does not listen on", map[string]any{"httpGet": map[string]any{"port": int64(8080), "path": "ready"}}, `Unhealthy Readiness probe failed: Get "http://10.244.0.2:8080/ready": dial tcp 10.244.0.2:8080: connect: connection refused`},
		{"tcpSocket on a port nginx does not listen on", map[string]any{"tcpSocket": map[string]any{"port": int64(6379)}}, "Unhealthy Readiness probe failed: dial tcp 10.244.0.2:6379: connect: connection refused"},
		{"grpc on a port nginx does not listen on", map[string]any{"grpc": map[string]any{"port": int64(9000)}}, `Unhealthy Readiness probe failed: timeout: failed to connect service "10.244.0.2:9000" within 1s`},
		{"tcpSocket on a name the container does not declare", map[string]any{"tcpSocket": map[string]any{"port": "metrics"}}, `Unhealthy Readiness probe errored: strconv.Atoi: parsing "metrics": invalid syntax`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, "node-0")
			p := w.pod("a", "node-0", func(p *api.Pod) {
				c := &p.Spec.Containers[0]
				c.Ports = []api.ContainerPort{{Name: "http", ContainerPort: 80}}
				c.ReadinessProbe = &api.Probe{Handler: tc.handler, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
			})
			w.advance(2 * time.Minute)
			if p.Status.Phase != api.PodRunning || p.IsReady() {
				t.Fatalf("phase %s ready %v", p.Status.Phase, p.IsReady())
			}
			if n := countEvents(w, p, tc.event); n < 11 {
				t.Errorf("%d events %q in 2 minutes; events %v", n, tc.event, events(w.c, p))
			}
		})
	}
}

// Probes on ports: a container's ports list neither restricts nor changes
// what a known image listens on (probeListens).
func TestProbePortsListening(t *testing.T) {
	tcp := func(port any) map[string]any { return map[string]any{"tcpSocket": map[string]any{"port": port}} }
	http := func(port any) map[string]any {
		return map[string]any{"httpGet": map[string]any{"port": port, "path": "/"}}
	}
	for _, tc := range []struct {
		name    string
		image   string
		ports   []api.ContainerPort
		handler map[string]any
		ok      bool
		out     string
	}{
		{"nginx on 80, nothing declared", "nginx:1.27", nil, http(int64(80)), true, ""},
		{"nginx on 8080", "nginx:1.27", nil, http(int64(8080)), false, `failed: Get "http://10.244.0.2:8080/": dial tcp 10.244.0.2:8080: connect: connection refused`},
		// containerPort is informational: nginx still listens on 80 only
		{"nginx on 8080, declared", "nginx:1.27", []api.ContainerPort{{ContainerPort: 8080}}, http(int64(8080)), false, `failed: Get "http://10.244.0.2:8080/": dial tcp 10.244.0.2:8080: connect: connection refused`},
		{"nginx on 80, 8080 declared", "nginx:1.27", []api.ContainerPort{{ContainerPort: 8080}}, tcp(int64(80)), true, ""},
		{"bitnami nginx is not the official image", "bitnami/nginx:1.27", nil, tcp(int64(8080)), true, ""},
		{"unknown image on any port", "example.com/agent:1", nil, tcp(int64(7777)), true, ""},
		{"node-exporter on 9100", "quay.io/prometheus/node-exporter:v1.8.2", nil, http(int64(9100)), true, ""},
		{"named port declared", "redis:7", []api.ContainerPort{{Name: "db", ContainerPort: 6379}}, tcp("db"), true, ""},
		{"named port of an unknown image, undeclared", "example.com/agent:1", nil, tcp("metrics"), false, `errored: strconv.Atoi: parsing "metrics": invalid syntax`},
		{"number in a string", "redis:7", nil, tcp("6379"), true, ""},
		{"port 0", "example.com/agent:1", nil, tcp(int64(0)), false, "errored: invalid port number: 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := api.Container{Name: "c", Image: tc.image, Ports: tc.ports}
			p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{c}}, Status: api.PodStatus{PodIP: "10.244.0.2"}}
			ok, out := probeOutcome(p, &p.Spec.Containers[0], &api.Probe{Handler: tc.handler}, overrideNone)
			if ok != tc.ok || out != tc.out {
				t.Errorf("probeOutcome = %v, %q; want %v, %q", ok, out, tc.ok, tc.out)
			}
		})
	}
}

// A crashing container's sibling is ready; the pod is not (READY 1/2).
func TestCrashLoopSiblingReady(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("a", "node-0", func(p *api.Pod) {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "crash", Image: "busybox:1.36", ImagePullPolicy: "Never", Command: []string{"false"}})
	})
	w.advance(30 * time.Second)
	cs := p.Status.ContainerStatuses
	if !cs[0].Ready || cs[1].Ready || p.IsReady() || cs[1].RestartCount == 0 {
		t.Fatalf("ready %v/%v pod %v restarts %d", cs[0].Ready, cs[1].Ready, p.IsReady(), cs[1].RestartCount)
	}
	if c := p.Condition(api.PodReady); c.Message != "containers with unready status: [crash]" {
		t.Errorf("Ready condition message %q", c.Message)
	}
}

// `pod ready` on a pod whose probes pass as written leaves no override and
// no prober behind once it is Ready again (no wake-ups for a healthy pod);
// on a probe that fails as written it forces a pass.
func TestSetProbeResultReadyAgain(t *testing.T) {
	w := newWorld(t, "node-0")
	p := w.pod("a", "node-0", nil)
	bad := w.pod("b", "node-0", func(p *api.Pod) {
		p.Spec.Containers[0].ReadinessProbe = &api.Probe{Handler: map[string]any{"exec": map[string]any{"command": []any{"false"}}}, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	})
	w.advance(10 * time.Second)
	if !p.IsReady() || bad.IsReady() {
		t.Fatalf("ready a=%v b=%v", p.IsReady(), bad.IsReady())
	}
	for _, ready := range []bool{false, true} {
		if err := w.k.SetProbeResult("default", "a", ready); err != nil {
			t.Fatal(err)
		}
		w.advance(time.Second)
		if p.IsReady() != ready {
			t.Fatalf("a: ready %v after SetProbeResult(%v)", p.IsReady(), ready)
		}
	}
	if _, ok := w.k.overrides[p.UID]; ok || w.k.probers[p.UID] != nil {
		t.Error("a healthy pod keeps an override or a prober")
	}
	if err := w.k.SetProbeResult("default", "b", true); err != nil {
		t.Fatal(err)
	}
	w.advance(20 * time.Second)
	if !bad.IsReady() {
		t.Error("b: `pod ready` did not override a probe that fails as written")
	}
}

// TestProbePortsSharedNetwork checks probes against the pod's shared
// network namespace: a sidecar of an unknown image listens on the ports
// it declares, a known one on its image's ports whatever it declares, and
// a regular init container (exited) on nothing.
func TestProbePortsSharedNetwork(t *testing.T) {
	probe := &api.Probe{Handler: map[string]any{"tcpSocket": map[string]any{"port": int64(8080)}}}
	nginx := api.Container{Name: "web", Image: "nginx:1.27", ReadinessProbe: probe}
	for _, tc := range []struct {
		name  string
		other api.Container
		init  bool
		ok    bool
	}{
		{"unknown container declaring 8080", api.Container{Name: "proxy", Image: "example.com/proxy:1", Ports: []api.ContainerPort{{ContainerPort: 8080}}}, false, true},
		{"unknown sidecar declaring 8080", api.Container{Name: "proxy", Image: "example.com/proxy:1", RestartPolicy: "Always", Ports: []api.ContainerPort{{ContainerPort: 8080}}}, true, true},
		{"regular init container declaring 8080", api.Container{Name: "setup", Image: "example.com/setup:1", Ports: []api.ContainerPort{{ContainerPort: 8080}}}, true, false},
		{"redis declaring 8080", api.Container{Name: "cache", Image: "redis:7", Ports: []api.ContainerPort{{ContainerPort: 8080}}}, false, false},
		{"coredns listening on 8080", api.Container{Name: "dns", Image: "registry.k8s.io/coredns/coredns:v1.11.1"}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{nginx}}, Status: api.PodStatus{PodIP: "10.244.0.2"}}
			if tc.init {
				p.Spec.InitContainers = []api.Container{tc.other}
			} else {
				p.Spec.Containers = append(p.Spec.Containers, tc.other)
			}
			if ok, out := probeOutcome(p, &p.Spec.Containers[0], probe, overrideNone); ok != tc.ok {
				t.Errorf("probeOutcome = %v, %q; want %v", ok, out, tc.ok)
			}
		})
	}
}
