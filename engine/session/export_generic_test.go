package session

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine"
)

// TestObjectsYAMLKeepsStoredKinds: Export objects holds the objects of
// kinds nothing in the playground acts on (a ClusterRole), rendered as
// kubectl get -o yaml renders them, and not the ConfigMaps the control
// plane makes.
func TestObjectsYAMLKeepsStoredKinds(t *testing.T) {
	sim := engine.New(engine.Options{})
	if _, err := sim.Apply("r.yaml", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules:\n- apiGroups: [\"\"]\n  resources: [pods]\n  verbs: [get]\n"); err != nil {
		t.Fatal(err)
	}
	y := ObjectsYAML(sim)
	for _, want := range []string{"kind: ClusterRole", "name: reader", "- pods"} {
		if !strings.Contains(y, want) {
			t.Errorf("export lacks %q:\n%s", want, y)
		}
	}
	for _, no := range []string{"not exported", "kube-apiserver-legacy-service-account-token-tracking", "kube-root-ca.crt", "uid:"} {
		if strings.Contains(y, no) {
			t.Errorf("export holds %q:\n%s", no, y)
		}
	}
}
