package engine

import (
	"testing"
	"time"
)

// TestContainerStatusUser: a created container's status carries the
// identity its first process runs as (status.containerStatuses[].user, as
// the v1.37 kubelet reports the runtime's ContainerUser): the container's
// runAsUser/runAsGroup over the pod's over root, and the supplemental
// groups (primary gid, pod supplementalGroups, fsGroup) in ascending
// order. A container not created yet has none.
func TestContainerStatusUser(t *testing.T) {
	for _, tc := range []struct {
		name, podSC, ctrSC, want string
	}{
		{name: "root by default", want: `{"linux":{"gid":0,"supplementalGroups":[0],"uid":0}}`},
		{name: "pod identity and groups",
			podSC: "securityContext: {runAsUser: 1000, runAsGroup: 3000, supplementalGroups: [4000], fsGroup: 2000}",
			want:  `{"linux":{"gid":3000,"supplementalGroups":[2000,3000,4000],"uid":1000}}`},
		{name: "container over pod",
			podSC: "securityContext: {runAsUser: 1000, runAsGroup: 3000}",
			ctrSC: "securityContext: {runAsUser: 2000, runAsGroup: 2000}",
			want:  `{"linux":{"gid":2000,"supplementalGroups":[2000],"uid":2000}}`},
		{name: "fsGroup equal to the gid",
			podSC: "securityContext: {runAsGroup: 10, fsGroup: 10, supplementalGroups: [10, 5]}",
			want:  `{"linux":{"gid":10,"supplementalGroups":[5,10],"uid":0}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			s.Files["ds.yaml"] = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      ` + tc.podSC + `
      containers:
      - name: agent
        image: nginx:1.23
        ` + tc.ctrSC + "\n"
			if out := s.Run("kubectl apply -f ds.yaml"); out.ExitCode != 0 {
				t.Fatalf("apply: %+v", out)
			}
			const path = `kubectl get pods -o jsonpath={.items[0].status.containerStatuses[0].user}`
			if out := s.Run(path); out.ExitCode != 0 || out.Stdout != "" {
				t.Errorf("before the container is created: %q %q, want no user", out.Stdout, out.Stderr)
			}
			s.Advance(time.Minute)
			if out := s.Run(path); out.Stdout != tc.want {
				t.Errorf("user = %s (%s), want %s", out.Stdout, out.Stderr, tc.want)
			}
		})
	}
}
