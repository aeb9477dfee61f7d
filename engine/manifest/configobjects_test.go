package manifest

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestConfigObjectsDecode: the three kinds decode with their defaults;
// stringData is merged into a Secret's data.
func TestConfigObjectsDecode(t *testing.T) {
	docs := mustDecode(t, `apiVersion: v1
kind: ServiceAccount
metadata: {name: fluentd, namespace: kube-system}
automountServiceAccountToken: false
imagePullSecrets: [{name: regcred}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {a.conf: "x = 1"}
binaryData: {blob: AAEC}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
data: {user: YWRtaW4=}
stringData: {user: root, pass: pw}
`)
	sa := docs[0].Object.(*api.ServiceAccount)
	if sa.Namespace != "kube-system" || sa.AutomountServiceAccountToken == nil || *sa.AutomountServiceAccountToken || sa.ImagePullSecrets[0].Name != "regcred" {
		t.Errorf("sa %+v", sa)
	}
	cm := docs[1].Object.(*api.ConfigMap)
	if cm.Namespace != "default" || cm.Data["a.conf"] != "x = 1" || string(cm.BinaryData["blob"]) != "\x00\x01\x02" {
		t.Errorf("cm %+v", cm)
	}
	s := docs[2].Object.(*api.Secret)
	if s.Type != api.SecretTypeOpaque || string(s.Data["user"]) != "root" || string(s.Data["pass"]) != "pw" {
		t.Errorf("secret %+v", s)
	}
}

// TestConfigObjectsInvalid: validation and decoding errors, as the API
// server words them.
func TestConfigObjectsInvalid(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"key", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {\"a b\": x}\n",
			`data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`},
		{"dot key", "apiVersion: v1\nkind: Secret\nmetadata: {name: c}\ndata: {\"..\": YQ==}\n", `data[..]: Invalid value: "..": must not be '..'`},
		{"dup", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: x}\nbinaryData: {k: YQ==}\n", `data[k]: Invalid value: "k": duplicate of key present in binaryData`},
		{"sa name", "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: Bad_Name}\n", `metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain`},
		{"base64", "apiVersion: v1\nkind: Secret\nmetadata: {name: c}\ndata: {k: \"abc$\"}\n", `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3`},
		{"tls", "apiVersion: v1\nkind: Secret\nmetadata: {name: c}\ntype: kubernetes.io/tls\ndata: {tls.crt: YQ==}\n", `data[tls.key]: Required value`},
		{"dockerconfigjson", "apiVersion: v1\nkind: Secret\nmetadata: {name: c}\ntype: kubernetes.io/dockerconfigjson\ndata: {.dockerconfigjson: YQ==}\n", `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'a' looking for beginning of value`},
		{"sa token", "apiVersion: v1\nkind: Secret\nmetadata: {name: c}\ntype: kubernetes.io/service-account-token\n", `metadata.annotations[kubernetes.io/service-account.name]: Required value`},
		{"strict", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndatta: {}\n", `strict decoding error: unknown field "datta"`},
		{"type", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {n: 3}\n", `json: cannot unmarshal number into Go struct field ConfigMap.data of type string`},
	} {
		e := decodeErr(t, c.text)
		if !strings.Contains(e.Error(), c.want) {
			t.Errorf("%s: %v\nwant %s", c.name, e, c.want)
		}
	}
}

// TestConfigObjectsApply: create, unchanged, configured; an immutable
// ConfigMap's data and a Secret's type cannot change; a pod naming a
// missing ServiceAccount is Forbidden unless an earlier document creates it.
func TestConfigObjectsApply(t *testing.T) {
	c := newCluster()
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg}\nimmutable: true\ndata: {a: \"1\"}\n"
	if got := strings.Join(mustApply(t, c, cm, ModeApply), ","); got != "configmap/cfg created" {
		t.Fatalf("create: %s", got)
	}
	if got := strings.Join(mustApply(t, c, cm, ModeApply), ","); got != "configmap/cfg unchanged" {
		t.Fatalf("again: %s", got)
	}
	if _, err := apply(t, c, strings.Replace(cm, `"1"`, `"2"`, 1), ModeApply); err == nil || !strings.Contains(err.Error(), "data: Forbidden: field is immutable when `immutable` is set") {
		t.Fatalf("immutable: %v", err)
	}
	s := "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n"
	mustApply(t, c, s, ModeApply)
	if _, err := apply(t, c, strings.Replace(s, "stringData", "type: example.com/custom\nstringData", 1), ModeApply); err == nil || !strings.Contains(err.Error(), `type: Invalid value: "example.com/custom": field is immutable`) {
		t.Fatalf("secret type: %v", err)
	}
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccountName: mon\n  containers: [{name: c, image: nginx}]\n"
	if _, err := apply(t, c, pod, ModeApply); err == nil || !strings.Contains(err.Error(), `Error from server (Forbidden): error when creating "ds.yaml": pods "p" is forbidden: error looking up service account default/mon: serviceaccount "mon" not found`) {
		t.Fatalf("missing sa: %v", err)
	}
	if c.Pod("default", "p") != nil {
		t.Fatal("refused pod stored")
	}
	sa := "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: mon}\n---\n"
	if got := strings.Join(mustApply(t, c, sa+pod, ModeApply), ","); got != "serviceaccount/mon created,pod/p created" {
		t.Fatalf("sa then pod: %s", got)
	}
}

func TestIsConfigMapKey(t *testing.T) {
	for k, want := range map[string]int{"a.conf": 0, "KEY_NAME": 0, "key-name": 0, ".hidden": 0, ".": 1, "..": 1, "..x": 1, "a/b": 1, "": 1, strings.Repeat("a", 254): 1} {
		if got := len(api.IsConfigMapKey(k)); got != want {
			t.Errorf("IsConfigMapKey(%q): %d errors, want %d", k, got, want)
		}
	}
}

// TestDeprecatedServiceAccount: serviceAccount alone names the account
// (Convert_v1_PodSpec_To_core_PodSpec), in a pod and in a template.
func TestDeprecatedServiceAccount(t *testing.T) {
	docs := mustDecode(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccount: fluentd\n  containers: [{name: c, image: nginx}]\n---\n"+
		strings.Replace(minimalDS, "    spec:\n", "    spec:\n      serviceAccount: mon\n", 1))
	if got := docs[0].Object.(*api.Pod).Spec.ServiceAccountName; got != "fluentd" {
		t.Errorf("pod: %q", got)
	}
	if got := docs[1].Object.(*api.DaemonSet).Spec.Template.Spec.ServiceAccountName; got != "mon" {
		t.Errorf("template: %q", got)
	}
}

// TestNamespaceThenPodInOneFile: a pod in a namespace created by an
// earlier document runs as that namespace's "default" account.
func TestNamespaceThenPodInOneFile(t *testing.T) {
	c := newCluster()
	text := "apiVersion: v1\nkind: Namespace\nmetadata: {name: logging}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: logging}\nspec:\n  containers: [{name: c, image: nginx}]\n"
	if got := strings.Join(mustApply(t, c, text, ModeApply), ","); got != "namespace/logging created,pod/p created" {
		t.Fatalf("lines %s", got)
	}
	if p := c.Pod("logging", "p"); p == nil || p.Spec.ServiceAccountName != "default" {
		t.Fatalf("pod %+v", p)
	}
}
