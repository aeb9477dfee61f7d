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
	if got := strings.Join(r.Lines, "\n"); got != "serviceaccount/fluentd created\ndaemonset.apps/fluentd-elasticsearch created" {
		t.Errorf("lines %q", got)
	}
	if got := strings.Join(r.Skipped, "\n"); got != "clusterrole/fluentd (rbac.authorization.k8s.io/v1 ClusterRole): not simulated, ignored" {
		t.Errorf("skipped %q", got)
	}
	if s.store.DaemonSet("default", "fluentd-elasticsearch") == nil {
		t.Fatal("DaemonSet not stored")
	}

	// a mangled copy: a *manifest.Error, and nothing written
	rv := s.store.ResourceVersion()
	bad := strings.Replace(string(ds), "apps/v1", "extensions/v1beta1", 1)
	_, err = s.Apply("bad.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-3\n---\n"+bad)
	var me *manifest.Error
	if !errors.As(err, &me) {
		t.Fatalf("error %T %v", err, err)
	}
	if !strings.Contains(err.Error(), `no matches for kind "DaemonSet" in version "extensions/v1beta1"`) {
		t.Errorf("error %q", err)
	}
	if s.store.ResourceVersion() != rv || s.store.Node("node-3") != nil {
		t.Errorf("store changed on error")
	}
}
