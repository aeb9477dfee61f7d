package cluster

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestNamespaceDefaults: every Active namespace has the ServiceAccount
// "default" and the ConfigMap kube-root-ca.crt, made at the namespace's
// creation without drawing from the seeded generator; deleted, they come
// back; a deleted namespace takes its objects with it.
func TestNamespaceDefaults(t *testing.T) {
	c, ref := New(1), New(1)
	var names []string
	for _, sa := range c.ServiceAccounts() {
		names = append(names, sa.Namespace+"/"+sa.Name)
	}
	if got := strings.Join(names, " "); got != "default/default kube-node-lease/default kube-public/default kube-system/default" {
		t.Fatalf("service accounts %s", got)
	}
	if len(c.ConfigMaps()) != 5 || c.ConfigMap("kube-system", api.RootCAConfigMapName).Data["ca.crt"] != RootCACertificate ||
		c.ConfigMap("kube-system", LegacyTokenTrackingConfigMapName).Data["since"] != Epoch.Format("2006-01-02") {
		t.Fatalf("config maps %v", c.ConfigMaps())
	}
	if c.NewUID() != ref.NewUID() || c.ResourceVersion() != ref.ResourceVersion() {
		t.Fatal("the default objects used the seeded generator or bumped the resourceVersion")
	}
	c.SetNow(Epoch.Add(time.Minute))
	if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "logging"}}); err != nil {
		t.Fatal(err)
	}
	sa := c.ServiceAccount("logging", "default")
	if sa == nil || !sa.CreationTimestamp.Equal(Epoch.Add(time.Minute)) || c.ConfigMap("logging", api.RootCAConfigMapName) == nil {
		t.Fatalf("new namespace: sa %+v", sa)
	}
	c.SetNow(Epoch.Add(2 * time.Minute))
	if err := c.DeleteServiceAccount("logging", "default"); err != nil {
		t.Fatal(err)
	}
	if sa2 := c.ServiceAccount("logging", "default"); sa2 == nil || sa2.UID == sa.UID || !sa2.CreationTimestamp.Equal(c.Now()) {
		t.Fatalf("default not recreated: %+v", sa2)
	}
	if err := c.DeleteConfigMap("logging", api.RootCAConfigMapName); err != nil || c.ConfigMap("logging", api.RootCAConfigMapName) == nil {
		t.Fatalf("kube-root-ca.crt not recreated: %v", err)
	}
	if err := c.CreateSecret(&api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "logging"}}); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateSecret(&api.Secret{ObjectMeta: api.ObjectMeta{Name: "s", Namespace: "logging"}}); !IsAlreadyExists(err) || err.Error() != `secrets "s" already exists` {
		t.Fatalf("duplicate secret: %v", err)
	}
	if err := c.DeleteNamespace("logging"); err != nil {
		t.Fatal(err)
	}
	if c.Namespace("logging") != nil || c.ServiceAccount("logging", "default") != nil || c.Secret("logging", "s") != nil || c.ConfigMap("logging", api.RootCAConfigMapName) != nil {
		t.Fatal("objects of the deleted namespace kept")
	}
	// created again: new defaults
	if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "logging"}}); err != nil {
		t.Fatal(err)
	}
	if c.ServiceAccount("logging", "default") == nil {
		t.Fatal("re-created namespace has no default ServiceAccount")
	}
	if err := c.DeleteConfigMap("logging", "nope"); !IsNotFound(err) || err.Error() != `configmaps "nope" not found` {
		t.Fatalf("delete missing: %v", err)
	}
}

// TestServiceAccountAdmission: a pod naming a missing ServiceAccount is
// Forbidden (named by its generateName before it has a name) and nothing is
// stored or drawn from the generator; an existing account is accepted, and
// its automountServiceAccountToken: false drops the token volume.
func TestServiceAccountAdmission(t *testing.T) {
	c, ref := New(1), New(1)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "agent-", Namespace: "default"},
		Spec: api.PodSpec{ServiceAccountName: "fluentd", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	err := c.CreatePod(p)
	want := `pods "agent-" is forbidden: error looking up service account default/fluentd: serviceaccount "fluentd" not found`
	if err == nil || err.Error() != want || err.(*StatusError).Reason != "Forbidden" {
		t.Fatalf("err %v, want %s", err, want)
	}
	if len(c.Pods()) != 0 || c.NewUID() != ref.NewUID() {
		t.Fatal("a refused pod changed the store or the generator")
	}
	no := false
	if err := c.CreateServiceAccount(&api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "fluentd", Namespace: "default"}, AutomountServiceAccountToken: &no}); err != nil {
		t.Fatal(err)
	}
	if err := c.CreatePod(p); err != nil {
		t.Fatal(err)
	}
	if len(p.Spec.Volumes) != 0 || len(p.Spec.Containers[0].VolumeMounts) != 0 {
		t.Errorf("token volume despite automountServiceAccountToken false: %+v", p.Spec.Volumes)
	}
	// the default account, with the token
	q := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "kube-system"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	if err := c.CreatePod(q); err != nil || q.Spec.ServiceAccountName != "default" || len(q.Spec.Volumes) != 1 {
		t.Fatalf("default account: %v %+v", err, q.Spec)
	}
	// the account's imagePullSecrets go to a pod that names none
	if err := c.CreateServiceAccount(&api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: "puller", Namespace: "default"},
		ImagePullSecrets: []api.LocalObjectReference{{Name: "regcred"}}}); err != nil {
		t.Fatal(err)
	}
	shared := map[string]any{"dnsPolicy": "ClusterFirst"}
	r := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "r", Namespace: "default"}, Extra: api.Unmodeled{"spec": shared},
		Spec: api.PodSpec{ServiceAccountName: "puller", Containers: []api.Container{{Name: "c", Image: "nginx"}}}}
	if err := c.CreatePod(r); err != nil {
		t.Fatal(err)
	}
	if l, _ := r.Extra["spec"]["imagePullSecrets"].([]any); len(l) != 1 || l[0].(map[string]any)["name"] != "regcred" || r.Extra["spec"]["dnsPolicy"] != "ClusterFirst" {
		t.Errorf("imagePullSecrets not copied: %#v", r.Extra)
	}
	if _, ok := shared["imagePullSecrets"]; ok {
		t.Error("the shared template map was written")
	}
	if err := c.CheckServiceAccount("kube-system", "x", "fluentd"); err == nil || !strings.Contains(err.Error(), "kube-system/fluentd") {
		t.Errorf("other namespace: %v", err)
	}
}
