package kubectl

import "testing"

// applyDocsFiles are manifests for the per-document cases: kinds and
// versions the API server does not serve, multi-document files that
// partly fail, and server dumps re-applied.
var applyDocsFiles = map[string]string{
	"psp.yaml":   "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: x\nspec: {}\n",
	"role.yaml":  "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: r\nrules: []\n",
	"typo.yaml":  "apiVersion: apps/v1\nkind: DeamonSet\nmetadata:\n  name: d\nspec: {}\n",
	"typo2.yaml": "apiVersion: apps/v1\nkind: DaemonSett\nmetadata:\n  name: d\n  namespace: kube-system\nspec: {}\n",
}

// TestApplyUnserved: a kind or version the v1.37 API server does not
// serve is refused by kubectl's RESTMapper, exit 1, for apply, create and
// replace alike.
func TestApplyUnserved(t *testing.T) {
	runGoldenCases(t, []goldenCase{{name: "apply_unserved", files: applyDocsFiles, lines: []string{
		"kubectl apply -f psp.yaml",
		"kubectl apply -f role.yaml",
		"kubectl apply -f typo.yaml",
		"kubectl apply -f typo2.yaml",
		"kubectl create -f psp.yaml",
		"kubectl replace -f role.yaml",
	}}})
}
