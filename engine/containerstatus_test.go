package engine

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestContainerStatusRuntimeFields: once the runtime has created a
// container its status carries what containerd and the v1.37 kubelet
// report (kubelet_pods.go convertToAPIContainerStatuses): a
// "containerd://<64 hex>" containerID, new at every restart and kept in
// the ended run's terminated state; status.image as containerd's
// normalized repo tag (the image ID for a reference by digest); imageID
// the repo digest "docker.io/library/nginx@sha256:<64 hex>"; and, with
// InPlacePodVerticalScaling, resources ({} when none) and
// allocatedResources (the requests).
func TestContainerStatusRuntimeFields(t *testing.T) {
	const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	hex64 := `[0-9a-f]{64}`
	for _, tc := range []struct {
		name, image, resources       string
		wantImage, wantImageID       string // regexps
		wantResources, wantAllocated string
	}{
		{name: "official image", image: "nginx:1.23",
			wantImage: `^docker\.io/library/nginx:1\.23$`, wantImageID: `^docker\.io/library/nginx@sha256:` + hex64 + `$`,
			wantResources: `{}`, wantAllocated: ``},
		{name: "untagged user image", image: "acme/agent",
			wantImage: `^docker\.io/acme/agent:latest$`, wantImageID: `^docker\.io/acme/agent@sha256:` + hex64 + `$`,
			wantResources: `{}`, wantAllocated: ``},
		{name: "other registry", image: "quay.io/prometheus/node-exporter:v1.8.2",
			resources: "\n        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}",
			wantImage: `^quay\.io/prometheus/node-exporter:v1\.8\.2$`, wantImageID: `^quay\.io/prometheus/node-exporter@sha256:` + hex64 + `$`,
			wantResources: `{"limits":{"memory":"128Mi"},"requests":{"cpu":"100m","memory":"64Mi"}}`,
			wantAllocated: `{"cpu":"100m","memory":"64Mi"}`},
		{name: "by digest", image: "nginx@" + digest,
			wantImage: `^sha256:` + hex64 + `$`, wantImageID: `^docker\.io/library/nginx@` + regexp.QuoteMeta(digest) + `$`,
			wantResources: `{}`, wantAllocated: ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ids []string
			for run := 0; run < 2; run++ {
				s := New(Options{})
				s.Files["ds.yaml"] = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers:
      - name: agent
        image: "` + tc.image + `"` + tc.resources + "\n"
				if out := s.Run("kubectl apply -f ds.yaml"); out.ExitCode != 0 {
					t.Fatalf("apply: %+v", out)
				}
				s.Advance(time.Minute)
				get := func(field string) []string {
					out := s.Run(`kubectl get pods -l app=agent -o 'jsonpath={range .items[*]}{.status.containerStatuses[0].` + field + `}{"\n"}{end}'`)
					if out.ExitCode != 0 {
						t.Fatalf("get %s: %+v", field, out)
					}
					return strings.Split(strings.TrimSuffix(out.Stdout, "\n"), "\n")
				}
				cids := get("containerID")
				if len(cids) != 2 {
					t.Fatalf("want 2 pods, got containerIDs %q", cids)
				}
				for _, id := range cids {
					if !regexp.MustCompile(`^containerd://` + hex64 + `$`).MatchString(id) {
						t.Errorf("containerID %q", id)
					}
				}
				if cids[0] == cids[1] {
					t.Errorf("two pods share containerID %s", cids[0])
				}
				ids = append(ids, cids...)
				for field, want := range map[string]string{"image": tc.wantImage, "imageID": tc.wantImageID} {
					for _, got := range get(field) {
						if !regexp.MustCompile(want).MatchString(got) {
							t.Errorf("%s = %q, want %s", field, got, want)
						}
					}
				}
				for field, want := range map[string]string{"resources": tc.wantResources, "allocatedResources": tc.wantAllocated} {
					for _, got := range get(field) {
						if got != want {
							t.Errorf("%s = %q, want %q", field, got, want)
						}
					}
				}
			}
			if ids[0] != ids[2] || ids[1] != ids[3] {
				t.Errorf("containerIDs differ between two runs of the same inputs: %q", ids)
			}
		})
	}
}

// TestContainerIDPerRun: a container that exits and restarts runs as a
// new container with a new ID; the run that ended keeps its ID in its
// terminated state (convertContainerStatus sets ContainerID on it), which
// becomes lastState at the restart. During the back-off the status still
// names the container that ended (the runtime's latest), as lastState does.
func TestContainerIDPerRun(t *testing.T) {
	s := New(Options{})
	s.Files["pod.yaml"] = `apiVersion: v1
kind: Pod
metadata: {name: crash}
spec:
  nodeName: node-1
  containers:
  - name: c
    image: busybox:1.36
    command: ["sh", "-c", "sleep 5; exit 1"]
`
	if out := s.Run("kubectl apply -f pod.yaml"); out.ExitCode != 0 {
		t.Fatalf("apply: %+v", out)
	}
	seen := map[string]bool{}
	running := 0
	for i := 0; i < 90; i++ {
		s.Advance(time.Second)
		out := s.Run(`kubectl get pod crash -o 'jsonpath={.status.containerStatuses[0].restartCount} {.status.containerStatuses[0].containerID} {.status.containerStatuses[0].lastState.terminated.containerID} {.status.containerStatuses[0].state.running.startedAt}'`)
		f := strings.Split(out.Stdout, " ")
		if len(f) != 4 || f[1] == "" {
			continue
		}
		restarts, cur, last, isRunning := f[0], f[1], f[2], f[3] != ""
		seen[cur] = true
		switch {
		case restarts == "0":
		case !strings.HasPrefix(last, "containerd://"):
			t.Fatalf("restart %s without lastState.terminated.containerID: %q", restarts, out.Stdout)
		case isRunning && cur == last:
			t.Fatalf("a restarted container kept the ID of the run that ended: %q", out.Stdout)
		case isRunning:
			running++
		}
	}
	if len(seen) < 3 || running == 0 {
		t.Errorf("containerIDs seen %d (want one per run, at least 3), restarted runs seen running %d", len(seen), running)
	}
}
