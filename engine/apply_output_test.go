package engine

import (
	"reflect"
	"testing"
)

// TestApplyOutputMatchesKubectl: the page's Apply button and a typed
// `kubectl apply -f` print the same thing, warnings included.
func TestApplyOutputMatchesKubectl(t *testing.T) {
	const ds = `apiVersion: v1
kind: ServiceAccount
metadata: {name: agent}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: "agent:1"}]
`
	var got [2][]Chunk
	for i := range got {
		s := New(Options{})
		s.Files["ds.yaml"] = ds
		// created without --save-config: apply warns about the annotation
		if out := s.Run("kubectl create -f ds.yaml"); out.ExitCode != 0 {
			t.Fatalf("create: %+v", out)
		}
		if i == 0 {
			rep, err := s.Apply("ds.yaml", ds)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = rep.Output
		} else {
			got[i] = s.Run("kubectl apply -f ds.yaml").Chunks
		}
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Fatalf("Apply output differs from kubectl apply:\n%+v\n%+v", got[0], got[1])
	}
	// kubectl apply warns for each object created without the
	// annotation (the ServiceAccount, then the DaemonSet)
	if len(got[0]) != 4 || !got[0][0].Stderr || got[0][1].Text != "serviceaccount/agent configured\n" ||
		!got[0][2].Stderr || got[0][3].Text != "daemonset.apps/agent configured\n" {
		t.Fatalf("unexpected output %+v", got[0])
	}
}
