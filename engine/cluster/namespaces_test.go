package cluster

import (
	"slices"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

func TestNamespaces(t *testing.T) {
	c := New(1)
	var names []string
	for _, ns := range c.Namespaces() {
		names = append(names, ns.Name+"="+ns.Status.Phase)
	}
	if got, want := names, []string{"default=Active", "kube-node-lease=Active", "kube-public=Active", "kube-system=Active"}; !slices.Equal(got, want) {
		t.Fatalf("built-in namespaces %v, want %v", got, want)
	}
	// the built-ins use neither the seeded generator nor the counter
	if c.ResourceVersion() != 0 || New(1).NewUID() != c.NewUID() {
		t.Fatalf("built-in namespaces changed the store's counters")
	}
	for _, tc := range []struct {
		name string
		err  string
	}{
		{"default", `namespaces "default" is forbidden: this namespace may not be deleted`},
		{"kube-system", `namespaces "kube-system" is forbidden: this namespace may not be deleted`},
		{"kube-public", `namespaces "kube-public" is forbidden: this namespace may not be deleted`},
		{"nosuch", `namespaces "nosuch" not found`},
	} {
		if err := c.DeleteNamespace(tc.name); err == nil || err.Error() != tc.err {
			t.Errorf("DeleteNamespace(%s) = %v, want %s", tc.name, err, tc.err)
		}
	}
	if err := c.AdmitNamespaced("logging", "daemonsets.apps", "a"); !IsNotFound(err) || err.Error() != `namespaces "logging" not found` {
		t.Errorf("admit in missing namespace: %v", err)
	}
	if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "logging"}}); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "logging"}}); !IsAlreadyExists(err) {
		t.Errorf("second create: %v", err)
	}
	if err := c.AdmitNamespaced("logging", "daemonsets.apps", "a"); err != nil {
		t.Errorf("admit in logging: %v", err)
	}
	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "logging"}}
	if err := c.CreateDaemonSet(ds); err != nil {
		t.Fatal(err)
	}
	c.AddDefaultNodes()
	bound := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "logging"}, Spec: api.PodSpec{NodeName: "node-1"}}
	other := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{NodeName: "node-1"}}
	for _, p := range []*api.Pod{bound, other} {
		if err := c.CreatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.DeleteNamespace("logging"); err != nil {
		t.Fatal(err)
	}
	ns := c.Namespace("logging")
	if ns == nil || ns.Status.Phase != api.NamespaceTerminating || ns.DeletionTimestamp == nil {
		t.Fatalf("logging after delete: %+v", ns)
	}
	if c.DaemonSet("logging", "a") != nil {
		t.Errorf("the DaemonSet survived its namespace")
	}
	if p := c.Pod("logging", "p"); p == nil || p.DeletionTimestamp == nil {
		t.Errorf("the bound pod should be terminating gracefully: %+v", p)
	}
	if err := c.AdmitNamespaced("logging", "pods", "q"); err == nil ||
		err.Error() != `pods "q" is forbidden: unable to create new content in namespace logging because it is being terminated` {
		t.Errorf("admit in terminating namespace: %v", err)
	}
	if err := c.RemovePod("logging", "p"); err != nil {
		t.Fatal(err)
	}
	if c.Namespace("logging") != nil {
		t.Errorf("logging should be gone with its last pod")
	}
	if c.Pod("default", "p") == nil {
		t.Errorf("a pod of another namespace was deleted")
	}
	// a namespace with nothing in it goes at once
	c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "empty"}})
	if err := c.DeleteNamespace("empty"); err != nil || c.Namespace("empty") != nil {
		t.Errorf("empty namespace: %v, %+v", err, c.Namespace("empty"))
	}
}
