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

// perDocFiles are multi-document files that partly fail.
var perDocFiles = map[string]string{
	"nested.yaml":                  "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: x\n---\napiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata:\n  name: r\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: bad\nspec:\n  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: z}\n    spec:\n      containers:\n      - name: c\n        image: busybox\n",
	"cni.yaml":                     "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: flannel\n  namespace: kube-system\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-flannel-cfg\n  namespace: kube-system\ndata:\n  a: b\n---\napiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: kube-flannel-ds-amd64\n  namespace: kube-system\nspec:\n  template:\n    metadata:\n      labels: {app: flannel}\n    spec:\n      containers:\n      - name: c\n        image: busybox\n---\napiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: kube-flannel-ds-arm64\n  namespace: kube-system\nspec:\n  template:\n    metadata:\n      labels: {app: flannel}\n    spec:\n      containers:\n      - name: c\n        image: busybox\n",
	"syntax.yaml":                  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s2\n  labels: [a: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s3\n",
	"novers.yaml":                  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: n1\n---\nkind: ConfigMap\nmetadata:\n  name: n2\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: n3\n",
	"invalid.yaml":                 "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: i1\n---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: bad\nspec:\n  selector:\n    matchLabels: {app: x}\n  template:\n    metadata:\n      labels: {app: z}\n    spec:\n      containers:\n      - name: c\n        image: busybox\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: i3\n",
	"unknownfield.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u1\nfoo: bar\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: u2\n",
	"mixed.yaml":                   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m1\n---\napiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m3\n",
	"one-invalid-one-mapping.yaml": "apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: o2\n  namespace: nope\n",
}

// TestApplyPerDocument: apply, create and replace -f act on every document
// they can, in order, and report the others (exit 1); a failed document
// changes nothing; a syntax error ends the file after the documents
// before it were applied.
func TestApplyPerDocument(t *testing.T) {
	runGoldenCases(t, []goldenCase{{name: "apply_per_document", files: perDocFiles, lines: []string{
		"kubectl apply -f cni.yaml",
		"kubectl get sa,cm -n kube-system",
		"kubectl apply -f cni.yaml",
		"kubectl create -f cni.yaml",
		"kubectl replace -f cni.yaml",
		"kubectl apply -f syntax.yaml",
		"kubectl get cm",
		"kubectl create -f syntax.yaml",
		"kubectl apply -f novers.yaml",
		"kubectl get cm",
		"kubectl apply -f invalid.yaml",
		"kubectl get cm,ds",
		"kubectl apply -f unknownfield.yaml",
		"kubectl get cm",
		"kubectl create -f mixed.yaml",
		"kubectl apply -f one-invalid-one-mapping.yaml",
		"kubectl apply -f nested.yaml",
		"kubectl create -f nested.yaml",
	}}})
}

// dumpFiles are `kubectl get -o yaml` dumps with a stale resourceVersion.
var dumpFiles = map[string]string{
	"dump.yaml":    "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  annotations:\n    deprecated.daemonset.template.generation: \"1\"\n  creationTimestamp: \"2024-01-01T00:00:00Z\"\n  generation: 1\n  name: x\n  namespace: default\n  resourceVersion: \"123\"\n  uid: 0b9d6c1e-6a43-4d8e-9b0c-1a2b3c4d5e6f\nspec:\n  revisionHistoryLimit: 10\n  selector:\n    matchLabels:\n      app: x\n  template:\n    metadata:\n      labels:\n        app: x\n    spec:\n      containers:\n      - image: busybox:1.36\n        name: c\n        command: [\"sleep\", \"infinity\"]\n  updateStrategy:\n    rollingUpdate:\n      maxSurge: 0\n      maxUnavailable: 1\n    type: RollingUpdate\nstatus:\n  currentNumberScheduled: 2\n  desiredNumberScheduled: 2\n  numberMisscheduled: 0\n  numberReady: 2\n  observedGeneration: 1\n",
	"cm-dump.yaml": "apiVersion: v1\ndata:\n  a: b\nkind: ConfigMap\nmetadata:\n  creationTimestamp: \"2024-01-01T00:00:00Z\"\n  name: cmd\n  namespace: default\n  resourceVersion: \"123\"\n  uid: 0b9d6c1e-6a43-4d8e-9b0c-1a2b3c4d5e6f\n",
}

// TestApplyStaleResourceVersion: a dump is created (kubectl clears the
// resourceVersion on create); applying or replacing it again is the API
// server's Conflict, exit 1, and the object is unchanged.
func TestApplyStaleResourceVersion(t *testing.T) {
	runGoldenCases(t, []goldenCase{{name: "apply_stale_resource_version", files: dumpFiles, lines: []string{
		"kubectl apply -f dump.yaml",
		"kubectl apply -f dump.yaml",
		"kubectl create -f cm-dump.yaml",
		"kubectl create -f cm-dump.yaml",
		"kubectl apply -f cm-dump.yaml",
		"kubectl replace -f cm-dump.yaml",
		"kubectl get cm cmd -o jsonpath={.metadata.uid}",
	}}})
}

// storedFiles hold kinds the playground stores as written.
var storedFiles = map[string]string{
	"kinds.yaml":      "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: dsp-reader\nrules:\n- apiGroups: [\"\"]\n  resources: [\"pods\"]\n  verbs: [\"get\", \"list\"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: dsp-reader\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: dsp-reader\nsubjects:\n- kind: ServiceAccount\n  name: default\n  namespace: default\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: dsp\nrules:\n- apiGroups: [\"\"]\n  resources: [\"configmaps\"]\n  verbs: [\"get\"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: dsp\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: dsp\nsubjects:\n- kind: ServiceAccount\n  name: default\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: dsp-high\nvalue: 1000000\ndescription: \"high\"\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: dsp\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels: {app: web}\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports:\n  - port: 80\n    targetPort: 8080\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 0\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n",
	"badfield.yaml":   "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: bad\nrulez: []\n",
	"pod-prio.yaml":   "apiVersion: v1\nkind: Pod\nmetadata:\n  name: prio\nspec:\n  priorityClassName: dsp-high\n  containers:\n  - name: c\n    image: busybox\n",
	"pod-noprio.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: noprio\nspec:\n  priorityClassName: nope\n  containers:\n  - name: c\n    image: busybox\n",
}

// TestApplyStoredKinds: every served kind is stored as the API server
// stores it: created, unchanged, listed with its printer's columns,
// rendered, described, deleted; unknown fields are refused by the schema;
// a PriorityClass is honoured by the Priority admission.
func TestApplyStoredKinds(t *testing.T) {
	runGoldenCases(t, []goldenCase{{name: "apply_stored_kinds", files: storedFiles, lines: []string{
		"kubectl apply -f kinds.yaml",
		"kubectl apply -f kinds.yaml",
		"kubectl get deployments",
		"kubectl get pdb",
		"kubectl get priorityclass dsp-high",
		"kubectl get clusterrole dsp-reader",
		"kubectl get role",
		"kubectl get rolebinding",
		"kubectl get clusterrolebinding dsp-reader",
		"kubectl get services",
		"kubectl get role dsp -o yaml",
		"kubectl get priorityclass dsp-high -o json",
		"kubectl describe pdb dsp",
		"kubectl apply -f badfield.yaml",
		"kubectl apply -f pod-prio.yaml",
		"kubectl get pod prio -o jsonpath={.spec.priority}",
		"kubectl apply -f pod-noprio.yaml",
		"kubectl delete -f kinds.yaml",
		"kubectl get role",
		"kubectl get deploy web",
	}}})
}

// unnamedFiles are objects with neither metadata.name nor generateName.
var unnamedFiles = map[string]string{
	"ds.yaml":    "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  labels: {app: demo}\nspec:\n  selector:\n    matchLabels: {app: demo}\n  template:\n    metadata:\n      labels: {app: demo}\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.23\n",
	"cm.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  namespace: kube-system\ndata: {a: b}\n",
	"node.yaml":  "apiVersion: v1\nkind: Node\nmetadata:\n  labels: {a: b}\n",
	"pod.yaml":   "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: c\n    image: nginx\n",
	"multi.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {}\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  labels: {a: b}\nfoo: bar\n---\napiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: {}\n",
}

// TestApplyUnnamed: kubectl apply of an object without metadata.name (and
// without generateName) fails in kubectl itself, when it fetches the live
// object (apply.go applyOneObject: info.Get, client-go's `resource name
// may not be empty`, wrapped "error when retrieving current configuration
// of: ... from server for: FILE"), before the server's validation; exit 1.
// replace fails the same way when it puts the object; create sends it and
// the server refuses it (`name or generateName is required`). A mapping
// error of the object comes first.
func TestApplyUnnamed(t *testing.T) {
	runGoldenCases(t, []goldenCase{{name: "apply_unnamed", files: unnamedFiles, lines: []string{
		"kubectl apply -f ds.yaml",
		"kubectl apply -f cm.yaml",
		"kubectl apply -f node.yaml",
		"kubectl apply -f pod.yaml -n kube-public",
		"kubectl apply -f multi.yaml",
		"kubectl get cm",
		"kubectl replace -f ds.yaml",
		"kubectl create -f ds.yaml",
	}}})
}
