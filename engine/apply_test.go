package engine

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/manifest"
)

func TestApplyFacade(t *testing.T) {
	s := New(Options{})
	ds, err := os.ReadFile("../examples/manifests/fluentd-elasticsearch.yaml")
	if err != nil {
		t.Fatal(err)
	}
	text := "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: fluentd\n  namespace: kube-system\n---\n" +
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: fluentd\n---\n" + string(ds)
	r, err := s.Apply("fluentd.yaml", text)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if got := strings.Join(r.Lines, "\n"); got != "serviceaccount/fluentd created\nclusterrole.rbac.authorization.k8s.io/fluentd created\ndaemonset.apps/fluentd-elasticsearch created" {
		t.Errorf("lines %q", got)
	}
	// a ClusterRole is stored as the API server stores it; the report
	// says nothing acts on it (data, not kubectl output)
	if len(r.Documents) != 3 || !r.Documents[1].Inert || r.Documents[0].Inert || r.Documents[1].Status != DocumentApplied {
		t.Errorf("documents %+v", r.Documents)
	}
	if s.store.GenericObject("clusterroles.rbac.authorization.k8s.io", "", "fluentd") == nil {
		t.Error("ClusterRole not stored")
	}
	if s.store.DaemonSet("default", "fluentd-elasticsearch") == nil {
		t.Fatal("DaemonSet not stored")
	}

	// a mangled copy after a Node: the Node is applied, the DaemonSet
	// refused (kubectl applies each document on its own); the error
	// unwraps to the failed document's diagnostics
	bad := strings.Replace(string(ds), "apps/v1", "extensions/v1beta1", 1)
	text = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-3\n---\n" + bad
	r, err = s.Apply("bad.yaml", text)
	var me *manifest.Error
	if !errors.As(err, &me) || len(me.Diagnostics) != 1 || me.Diagnostics[0].Line != 8 {
		t.Fatalf("error %T %v", err, err)
	}
	want := `error: resource mapping not found for name: "fluentd-elasticsearch" namespace: "" from "bad.yaml": no matches for kind "DaemonSet" in version "extensions/v1beta1"` + "\nensure CRDs are installed first"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if s.store.Node("node-3") == nil {
		t.Errorf("the Node document was not applied")
	}
	if r == nil || r.Applied() != 1 || len(r.Documents) != 2 {
		t.Fatalf("report %+v", r)
	}
	d0, d1 := r.Documents[0], r.Documents[1]
	if d0.Status != DocumentApplied || d0.Line != "node/node-3 created" || d0.StartLine != 1 || d0.EndLine != 4 {
		t.Errorf("document 0 %+v", d0)
	}
	if d1.Status != DocumentFailed || d1.Error != want || d1.StartLine != 6 || d1.EndLine != 5+strings.Count(strings.TrimSuffix(bad, "\n"), "\n")+1 ||
		d1.Kind != "DaemonSet" || d1.Name != "fluentd-elasticsearch" || len(d1.Diagnostics) != 1 {
		t.Errorf("document 1 %+v", d1)
	}
	if n := len(r.Output); n != 2 || r.Output[0].Text != "node/node-3 created\n" || !r.Output[1].Stderr || r.Output[1].Text != want+"\n" {
		t.Errorf("output %+v", r.Output)
	}
}
