package engine

import (
	"strings"
	"testing"
	"time"
)

// TestPodGeneration: pods carry metadata.generation as the v1.37 API
// server keeps it (pkg/registry/core/pod/strategy.go: 1 at
// PrepareForCreate, +1 by updatePodGeneration when the spec changes, not
// for metadata; k8s.io/apiserver registry/rest BeforeDelete: +1 at the
// first graceful deletion), and status.observedGeneration and each
// condition's observedGeneration as their writers set them: the kubelet
// (status_manager SetPodStatus, generateAPIPodStatus) with every status
// it posts, the scheduler on PodScheduled=False (handleSchedulingFailure),
// nobody on the status of a pod no kubelet has seen.
func TestPodGeneration(t *testing.T) {
	s := New(Options{})
	s.Files["pod.yaml"] = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers:\n  - name: web\n    image: nginx:1.23\n"
	s.Files["big.yaml"] = "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  containers:\n  - name: web\n    image: nginx:1.23\n    resources: {requests: {cpu: \"64\"}}\n"
	s.Files["ds.yaml"] = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: agent, image: nginx:1.23}]\n"
	const fields = `jsonpath={.metadata.generation}/{.status.observedGeneration}/{range .status.conditions[*]}{.type}={.observedGeneration},{end}`
	steps := []struct {
		name, cmd string
		advance   time.Duration
		get       string // the pod whose fields are checked
		want      string
	}{
		// bound at once: the binding's PodScheduled=True carries no
		// observedGeneration (BindingREST setPodNodeAndMetadata)
		{name: "created and bound, before any kubelet status", cmd: "kubectl apply -f pod.yaml", get: "web", want: "1//PodScheduled=,"},
		{name: "running: the kubelet's status", advance: 20 * time.Second, get: "web",
			want: "1/1/PodReadyToStartContainers=1,Initialized=1,Ready=1,ContainersReady=1,PodScheduled=1,"},
		{name: "a label is metadata", cmd: "kubectl label pod web tier=web", get: "web",
			want: "1/1/PodReadyToStartContainers=1,Initialized=1,Ready=1,ContainersReady=1,PodScheduled=1,"},
		{name: "an image change is a spec update", cmd: `kubectl patch pod web -p '{"spec":{"containers":[{"name":"web","image":"nginx:1.25"}]}}'`, get: "web",
			want: "2/2/PodReadyToStartContainers=2,Initialized=2,Ready=2,ContainersReady=2,PodScheduled=2,"},
		{name: "the first graceful deletion", cmd: "kubectl delete pod web --wait=false", get: "web",
			want: "3/3/PodReadyToStartContainers=3,Initialized=3,Ready=3,ContainersReady=3,PodScheduled=3,"},
		{name: "unschedulable: the scheduler's condition only", cmd: "kubectl apply -f big.yaml", advance: 5 * time.Second, get: "big",
			want: "1//PodScheduled=1,"},
	}
	for _, st := range steps {
		if st.cmd != "" {
			if out := s.Run(st.cmd); out.ExitCode != 0 {
				t.Fatalf("%s: %s: %+v", st.name, st.cmd, out)
			}
		}
		s.Advance(st.advance)
		out := s.Run("kubectl get pod " + st.get + " -o '" + fields + "'")
		if out.Stdout != st.want {
			t.Errorf("%s: got %q, want %q (%s)", st.name, out.Stdout, st.want, out.Stderr)
		}
	}
	// a daemon pod: created by the controller at generation 1, bound by
	// the scheduler, then observed by its kubelet
	if out := s.Run("kubectl apply -f ds.yaml"); out.ExitCode != 0 {
		t.Fatalf("apply ds: %+v", out)
	}
	s.Advance(30 * time.Second)
	out := s.Run(`kubectl get pods -l app=agent -o 'jsonpath={range .items[*]}{.metadata.generation}/{.status.observedGeneration} {end}'`)
	if out.Stdout != "1/1 1/1 " {
		t.Errorf("daemon pods: %q, want generation and observedGeneration 1", out.Stdout)
	}
	// -o yaml shows both
	out = s.Run("kubectl get pods -l app=agent -o yaml")
	for _, want := range []string{"\n    generation: 1\n", "\n    observedGeneration: 1\n", "\n      observedGeneration: 1\n"} {
		if !strings.Contains(out.Stdout, want) {
			t.Errorf("get -o yaml lacks %q", want)
		}
	}
}
