package engine

import (
	"strings"
	"testing"
	"time"
)

// The page learns why a pod is stuck from PodView.Stall and Restarts.
func TestSnapshotPodStalls(t *testing.T) {
	const ds = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: NAME}
spec:
  selector: {matchLabels: {app: NAME}}
  template:
    metadata: {labels: {app: NAME}}
    spec:
      nodeSelector: {kubernetes.io/hostname: node-1}
      containers: [CONTAINER]
`
	for _, tc := range []struct {
		name, container string
		status, stall   string
		restarts        bool
	}{
		{"pull", `{name: c, image: "nginx:1.233"}`, "ImagePullBackOff", `Back-off pulling image "nginx:1.233": ErrImagePull: rpc error: code = NotFound`, false},
		{"crash", `{name: c, image: "busybox:1.36", command: ["false"]}`, "CrashLoopBackOff", "back-off ", true},
		{"probe", `{name: c, image: "nginx:1.23", readinessProbe: {exec: {command: ["false"]}}}`, "Running", "containers with unready status: [c]", false},
		{"fine", `{name: c, image: "nginx:1.23"}`, "Running", "", false},
		{"never", `{name: c, image: "nginx:1.25", imagePullPolicy: Never}`, "ErrImageNeverPull", "the image nginx:1.25 is not on node-1 and imagePullPolicy is Never: pull it once, or preload it", false},
		{"seed-never", `{name: c, image: "nginx:1.23", imagePullPolicy: Never}`, "Running", "", false},
		{"init-never", `{name: c, image: "nginx:1.23"}]
      initContainers: [{name: i, image: "busybox:1.36", imagePullPolicy: Never}`, "Init:ErrImageNeverPull", "the image busybox:1.36 is not on node-1 and imagePullPolicy is Never: pull it once, or preload it", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			s.Registry().Lack("nginx:1.233")
			if _, err := s.Apply("ds.yaml", strings.NewReplacer("NAME", tc.name, "CONTAINER", tc.container).Replace(ds)); err != nil {
				t.Fatal(err)
			}
			s.Advance(28 * time.Second)
			var found bool
			for _, n := range s.Snapshot().Nodes {
				for _, p := range n.Pods {
					if p.Owner != tc.name {
						continue
					}
					found = true
					if p.Status != tc.status || !strings.HasPrefix(p.Stall, tc.stall) || (tc.stall == "" && p.Stall != "") || (p.Restarts > 0) != tc.restarts {
						t.Errorf("status %q stall %q restarts %d; want %q, %q..., restarts %v", p.Status, p.Stall, p.Restarts, tc.status, tc.stall, tc.restarts)
					}
				}
			}
			if !found {
				t.Fatal("no pod")
			}
		})
	}
}
