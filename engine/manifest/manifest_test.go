package manifest

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func readFile(t *testing.T, path string) string {
	t.Helper()
	s, err := readFileErr(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readFileErr(path string) (string, error) {
	b, err := os.ReadFile(path)
	return string(b), err
}

func mustDecode(t *testing.T, text string) []Document {
	t.Helper()
	docs, err := Decode("test.yaml", text)
	if err != nil {
		var me *Error
		if errors.As(err, &me) {
			t.Fatalf("Decode: %v\n%s", err, me.Detailed())
		}
		t.Fatalf("Decode: %v", err)
	}
	return docs
}

func decodeErr(t *testing.T, text string) *Error {
	t.Helper()
	_, err := Decode("test.yaml", text)
	if err == nil {
		t.Fatalf("Decode succeeded, want an error")
	}
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("error is %T, want *Error", err)
	}
	return me
}

// checkDecodeErr fails t unless decoding text fails with exactly the
// message want and every diagnostic has a line and a column.
func checkDecodeErr(t *testing.T, text, want string) {
	t.Helper()
	e := decodeErr(t, text)
	if got := e.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, d := range e.Diagnostics {
		if d.Line == 0 || d.Column == 0 {
			t.Errorf("no position: %+v", d)
		}
	}
}

// TestSeeds decodes the seed articles' manifests, re-indented, under
// testdata/seeds (also written to examples/manifests for the scenarios).
func TestSeeds(t *testing.T) {
	tests := []struct {
		file, kind, name string
		check            func(t *testing.T, obj any)
	}{
		{"fluentd-elasticsearch.yaml", "DaemonSet", "fluentd-elasticsearch", func(t *testing.T, obj any) {
			ds := obj.(*api.DaemonSet)
			c := ds.Spec.Template.Spec.Containers[0]
			if got := c.Resources.Requests[api.ResourceCPU].Milli; got != 100 {
				t.Errorf("cpu request = %d milli, want 100", got)
			}
			if got := c.Resources.Limits[api.ResourceMemory].Value(); got != 200<<20 {
				t.Errorf("memory limit = %d, want %d", got, 200<<20)
			}
			if c.ImagePullPolicy != "IfNotPresent" {
				t.Errorf("imagePullPolicy = %q", c.ImagePullPolicy)
			}
			if hp := ds.Spec.Template.Spec.Volumes[0].Source["hostPath"].(map[string]any); hp["path"] != "/var/log" {
				t.Errorf("hostPath = %v", hp)
			}
			if ds.Labels["k8s-app"] != "fluentd-logging" || ds.Spec.Selector.MatchLabels["name"] != "fluentd-elasticsearch" {
				t.Errorf("labels/selector: %v %v", ds.Labels, ds.Spec.Selector)
			}
		}},
		{"ds-demo.yaml", "DaemonSet", "ds-demo", func(t *testing.T, obj any) {
			ds := obj.(*api.DaemonSet)
			ts := ds.Spec.Template.Spec.Tolerations
			if len(ts) != 2 || ts[0].Key != api.LabelControlPlane || ts[0].Operator != "Exists" || ts[1].Key != "node-role.kubernetes.io/master" {
				t.Errorf("tolerations = %+v", ts)
			}
			c := ds.Spec.Template.Spec.Containers[0]
			if c.Image != "nginx:1.23" || c.ImagePullPolicy != "Never" {
				t.Errorf("container = %+v", c)
			}
		}},
		{"logstash.yaml", "DaemonSet", "logstash", func(t *testing.T, obj any) {
			ds := obj.(*api.DaemonSet)
			if m := ds.Spec.Template.Spec.Containers[0].VolumeMounts[0]; !m.ReadOnly || m.Name != "config-path" {
				t.Errorf("volumeMount = %+v", m)
			}
			if ts := ds.Spec.Template.Spec.Tolerations; len(ts) != 1 || ts[0].Operator != "" || ts[0].Effect != "NoSchedule" {
				t.Errorf("tolerations = %+v", ts)
			}
		}},
		{"with-node-affinity.yaml", "Pod", "with-node-affinity", func(t *testing.T, obj any) {
			p := obj.(*api.Pod)
			r := p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0]
			if r.Key != "metadata.name" || r.Operator != "In" || len(r.Values) != 1 || r.Values[0] != "node1" {
				t.Errorf("requirement = %+v", r)
			}
			if p.Namespace != "default" {
				t.Errorf("namespace = %q", p.Namespace)
			}
		}},
		{"pod-taints.yaml", "Pod", "pod-taints", func(t *testing.T, obj any) {
			p := obj.(*api.Pod)
			want := api.Toleration{Key: "key", Operator: "Equal", Value: "value", Effect: "NoSchedule"}
			if len(p.Spec.Tolerations) != 1 || p.Spec.Tolerations[0] != want {
				t.Errorf("tolerations = %+v", p.Spec.Tolerations)
			}
			if c := p.Spec.Containers[0]; c.ImagePullPolicy != "Always" {
				t.Errorf("busybox:latest pull policy = %q, want Always", c.ImagePullPolicy)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			docs := mustDecode(t, readFile(t, filepath.Join("testdata", "seeds", tc.file)))
			if len(docs) != 1 {
				t.Fatalf("%d documents", len(docs))
			}
			d := docs[0]
			if d.Kind != tc.kind || d.Name != tc.name || d.Object == nil {
				t.Fatalf("document = %s %s object=%v", d.Kind, d.Name, d.Object)
			}
			tc.check(t, d.Object)
		})
	}
}

// TestExampleManifests decodes every manifest under examples/manifests.
func TestExampleManifests(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "examples", "manifests", "*.yaml"))
	for _, f := range files {
		mustDecode(t, readFile(t, f))
	}
}

// TestMangledGolden checks the full error transcript (kubectl's lines, then
// every diagnostic with position and hint) of each mangled input under
// testdata/mangled against its .golden file.
func TestMangledGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "mangled", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			_, err := Decode(filepath.Base(f), readFile(t, f))
			var got string
			var me *Error
			switch {
			case err == nil:
				t.Fatalf("no error for a mangled input")
			case !errors.As(err, &me):
				t.Fatalf("error is %T", err)
			default:
				got = "# kubectl\n" + me.Error() + "\n# diagnostics\n" + me.Detailed() + "\n"
			}
			for _, d := range me.Diagnostics {
				if d.Line == 0 || d.Column == 0 || d.File != filepath.Base(f) {
					t.Errorf("diagnostic without a position: %+v", d)
				}
			}
			golden := strings.TrimSuffix(f, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := readFile(t, golden)
			if got != want {
				t.Errorf("transcript differs from %s (rerun with -update to accept)\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestPositions checks the line and column of the first diagnostic for the
// problems the browser marks.
func TestPositions(t *testing.T) {
	tests := []struct {
		name, text string
		line, col  int
		hint       string
	}{
		{"tab", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n\tlabels: {}\n", 5, 1, "tabs are not allowed"},
		{"tab after spaces", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  \tlabels: {}\n", 5, 3, "tabs are not allowed"},
		{"flattened", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:name: x-dslabels:app: x\n", 3, 1, "metadata:\n  name: x-ds\n  labels:\n    app: x"},
		{"flattened but parseable", "apiVersion: v1\nkind: Node\nmetadata:name: n1\n", 3, 1, "metadata:\n  name: n1"},
		{"selector mismatch", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels:\n        app: b\n    spec:\n      containers: [{name: c, image: i}]\n", 11, 9, "spec.selector.matchLabels"},
		// a pod template label is reported as spec.template.labels (as the
		// API server names it) at the offending label, not at metadata:
		{"template label value", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels:\n        app: a\n        tier: \"a b\"\n    spec:\n      containers: [{name: c, image: i}]\n", 12, 15, ""},
		{"template label key", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  selector:\n    matchLabels: {app: a}\n  template:\n    metadata:\n      labels:\n        app: a\n        bad key: b\n    spec:\n      containers: [{name: c, image: i}]\n", 12, 9, ""},
		{"missing container name", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - image: busybox\n", 7, 5, ""},
		{"second document", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: B\n", 9, 9, "lower-case"},
		{"tab in a later document", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Node\nmetadata:\n\tname: b\n", 9, 1, "tabs are not allowed"},
		{"removed version", "apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: x\n", 1, 13, "removed in Kubernetes 1.16"},
		{"bullet", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  • name: c\n", 7, 3, "'•'"},
		{"non-breaking space", "apiVersion: v1\nkind: Pod\nmetadata:\n\u00a0 name: x\n", 4, 1, "non-breaking"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := decodeErr(t, tc.text)
			for _, d := range e.Diagnostics {
				if d.Line == tc.line && d.Column == tc.col && strings.Contains(d.Hint, tc.hint) {
					return
				}
			}
			t.Errorf("no diagnostic at %d:%d with a hint containing %q:\n%s", tc.line, tc.col, tc.hint, e.Detailed())
		})
	}
}

const minimalDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
`

// TestValidation checks the API server's messages as kubectl prints them.
func TestValidation(t *testing.T) {
	tests := []struct {
		name      string
		old, new_ string // replaced in minimalDS
		want      string
	}{
		{"selector mismatch", "        app: web\n", "        app: api\n",
			"The DaemonSet \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api\"}: `selector` does not match template `labels`"},
		{"missing selector", "  selector:\n    matchLabels:\n      app: web\n", "",
			"The DaemonSet \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"template label value", "        app: web\n", "        app: web\n        tier: a b\n",
			"The DaemonSet \"web\" is invalid: spec.template.labels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
		{"empty selector", "  selector:\n    matchLabels:\n      app: web\n", "  selector: {}\n",
			"The DaemonSet \"web\" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for daemonset"},
		{"bad name", "  name: web\n", "  name: Web_1\n",
			`The DaemonSet "Web_1" is invalid: metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"restartPolicy", "      containers:\n", "      restartPolicy: OnFailure\n      containers:\n",
			`The DaemonSet "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{"activeDeadlineSeconds", "      containers:\n", "      activeDeadlineSeconds: 10\n      containers:\n",
			`The DaemonSet "web" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported`},
		{"no containers", "      containers:\n      - name: web\n        image: nginx:1.25\n", "      containers: []\n",
			`The DaemonSet "web" is invalid: spec.template.spec.containers: Required value`},
		{"container name and image", "      - name: web\n        image: nginx:1.25\n", "      - imagePullPolicy: Always\n",
			"The DaemonSet \"web\" is invalid: \n* spec.template.spec.containers[0].name: Required value\n* spec.template.spec.containers[0].image: Required value"},
		{"minReadySeconds", "  template:\n", "  minReadySeconds: -1\n  template:\n",
			`The DaemonSet "web" is invalid: spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0`},
		{"revisionHistoryLimit", "  template:\n", "  revisionHistoryLimit: -1\n  template:\n",
			`The DaemonSet "web" is invalid: spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0`},
		{"strategy type", "  template:\n", "  updateStrategy:\n    type: Recreate\n  template:\n",
			`The DaemonSet "web" is invalid: spec.updateStrategy: Unsupported value: {"Type":"Recreate","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"`},
		{"both non-zero", "  template:\n", "  updateStrategy:\n    rollingUpdate:\n      maxSurge: 1\n  template:\n",
			`The DaemonSet "web" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero`},
		{"both zero", "  template:\n", "  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 0\n  template:\n",
			`The DaemonSet "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`},
		{"bad percent", "  template:\n", "  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: abc\n  template:\n",
			"The DaemonSet \"web\" is invalid: \n* spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')\n* spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"},
		{"over 100%", "  template:\n", "  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 101%\n  template:\n",
			`The DaemonSet "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%`},
		{"negative surge", "  template:\n", "  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: -1\n  template:\n",
			`The DaemonSet "web" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0`},
		{"malformed selector", "    matchLabels:\n      app: web\n", "    matchLabels:\n      app: web\n    matchExpressions:\n    - key: tier\n      operator: In\n",
			"The DaemonSet \"web\" is invalid: spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"},
		// a selector LabelSelectorAsSelector refuses is not matched against the labels
		{"selector label value", "    matchLabels:\n      app: web\n", "    matchLabels:\n      app: a b\n",
			"The DaemonSet \"web\" is invalid: spec.selector.matchLabels: Invalid value: \"a b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"},
		{"toleration operator", "      containers:\n", "      tolerations:\n      - key: a\n        operator: Equals\n      containers:\n",
			`The DaemonSet "web" is invalid: spec.template.spec.tolerations[0].operator: Unsupported value: "Equals": supported values: "Equal", "Exists"`},
		{"toleration effect", "      containers:\n", "      tolerations:\n      - key: a\n        operator: Exists\n        effect: NoEvict\n      containers:\n",
			`The DaemonSet "web" is invalid: spec.template.spec.tolerations[0].effect: Unsupported value: "NoEvict": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{"tolerationSeconds", "      containers:\n", "      tolerations:\n      - key: a\n        operator: Exists\n        effect: NoSchedule\n        tolerationSeconds: 5\n      containers:\n",
			`The DaemonSet "web" is invalid: spec.template.spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when ` + "`tolerationSeconds`" + ` is set`},
		{"curly quotes", "      containers:\n", "      tolerations:\n      - key: a\n        operator: “Equal”\n      containers:\n",
			`The DaemonSet "web" is invalid: spec.template.spec.tolerations[0].operator: Unsupported value: "“Equal”": supported OK values: "Equal", "Exists"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(minimalDS, tc.old) {
				t.Fatalf("%q not in the base manifest", tc.old)
			}
			e := decodeErr(t, strings.Replace(minimalDS, tc.old, tc.new_, 1))
			want := strings.Replace(tc.want, "supported OK values", "supported values", 1)
			if got := e.Error(); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			if tc.name == "curly quotes" && !strings.Contains(e.Diagnostics[0].Hint, "curly quotes") {
				t.Errorf("no curly-quote hint: %+v", e.Diagnostics[0])
			}
		})
	}
}

// TestNodeAndPodValidation covers taints on nodes and the pod-level rules.
func TestNodeAndPodValidation(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"taint effect", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - key: gpu\n    effect: NoScheduled\n",
			`The Node "n1" is invalid: metadata.taints[0].effect: Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{"taint without effect", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - key: gpu\n",
			`The Node "n1" is invalid: metadata.taints[0].effect: Required value`},
		{"taint key", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nspec:\n  taints:\n  - key: -gpu\n    effect: NoSchedule\n",
			`The Node "n1" is invalid: metadata.taints[0].key: Invalid value: "-gpu": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{"pod without containers", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n",
			`The Pod "p" is invalid: spec.containers: Required value`},
		{"pod volume mount", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    volumeMounts:\n    - name: data\n      mountPath: /d\n",
			`The Pod "p" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "data"`},
		{"pod requests over limits", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    resources:\n      limits: {cpu: 100m}\n      requests: {cpu: 200m}\n",
			`The Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "200m": must be less than or equal to cpu limit of 100m`},
		{"node affinity operator", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions:\n          - {key: disk, operator: Gt, values: []}\n  containers: [{name: c, image: i}]\n",
			"The Pod \"p\" is invalid: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeErr(t, tc.text).Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestDecodeErrors covers kubectl's client-side and decoding messages.
func TestDecodeErrors(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"no apiVersion", "kind: Pod\nmetadata:\n  name: p\n",
			`error: error validating "test.yaml": error validating data: apiVersion not set; if you choose to ignore these errors, turn validation off with --validate=false`},
		{"no kind", "apiVersion: v1\nmetadata:\n  name: p\n",
			`error: error validating "test.yaml": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false`},
		{"neither", "metadata:\n  name: p\n",
			`error: error validating "test.yaml": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false`},
		{"extensions/v1beta1", "apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata:\n  name: fluentd\n  namespace: kube-system\n",
			"error: resource mapping not found for name: \"fluentd\" namespace: \"kube-system\" from \"test.yaml\": no matches for kind \"DaemonSet\" in version \"extensions/v1beta1\"\nensure CRDs are installed first"},
		{"string for int", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    ports:\n    - containerPort: \"80\"\n",
			`Error from server (BadRequest): error when creating "test.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32`},
		{"norway", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n",
			`Error from server (BadRequest): error when creating "test.yaml": Node in version "v1" cannot be handled as a Node: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string`},
		{"bool label", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    gpu: yes\n",
			`Error from server (BadRequest): error when creating "test.yaml": Node in version "v1" cannot be handled as a Node: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string`},
		{"map for list", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    name: c\n",
			`Error from server (BadRequest): error when creating "test.yaml": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container`},
		{"bad quantity", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    resources:\n      limits: {memory: 200MB}\n",
			`Error from server (BadRequest): error when creating "test.yaml": Pod in version "v1" cannot be handled as a Pod: unable to parse quantity's suffix`},
		{"duplicate key", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n  name: b\n",
			"error: error parsing test.yaml: error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key \"name\" already set in map"},
		{"scalar document", "just some text\n",
			`error: unable to decode "test.yaml": json: cannot unmarshal string into Go value of type map[string]interface {}`},
		{"syntax error in a later document", "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Node\nmetadata:\n\tname: b\n",
			"error: error parsing test.yaml: error converting YAML to JSON: yaml: line 4: found character that cannot start any token"},
		{"too large", strings.Repeat("#", MaxInputBytes+1),
			"error: test.yaml is too large: 1048577 bytes, at most 1048576 bytes are accepted"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := decodeErr(t, tc.text).Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestDefaults checks SetDefaults through Decode.
func TestDefaults(t *testing.T) {
	ds := mustDecode(t, minimalDS)[0].Object.(*api.DaemonSet)
	if ds.Namespace != "default" {
		t.Errorf("namespace %q", ds.Namespace)
	}
	us := ds.Spec.UpdateStrategy
	if us.Type != "RollingUpdate" || us.RollingUpdate == nil || us.RollingUpdate.MaxUnavailable.String() != "1" || us.RollingUpdate.MaxSurge.String() != "0" {
		t.Errorf("updateStrategy %+v", us)
	}
	if *ds.Spec.RevisionHistoryLimit != 10 {
		t.Errorf("revisionHistoryLimit %d", *ds.Spec.RevisionHistoryLimit)
	}
	ps := ds.Spec.Template.Spec
	if ps.RestartPolicy != "Always" || *ps.TerminationGracePeriodSeconds != 30 || ps.DNSPolicy != "ClusterFirst" || ps.SchedulerName != "default-scheduler" {
		t.Errorf("pod spec defaults %+v", ps)
	}
	if ps.Tolerations != nil {
		t.Errorf("tolerations defaulted: %v", ps.Tolerations)
	}
	if ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] != "" {
		t.Errorf("the template generation annotation is the store's, not Decode's")
	}

	onDelete := mustDecode(t, strings.Replace(minimalDS, "  template:\n", "  updateStrategy:\n    type: OnDelete\n  template:\n", 1))[0].Object.(*api.DaemonSet)
	if onDelete.Spec.UpdateStrategy.RollingUpdate != nil {
		t.Errorf("OnDelete got a rollingUpdate: %+v", onDelete.Spec.UpdateStrategy.RollingUpdate)
	}
	surge := mustDecode(t, strings.Replace(minimalDS, "  template:\n", "  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 25%\n  template:\n", 1))[0].Object.(*api.DaemonSet)
	if ru := surge.Spec.UpdateStrategy.RollingUpdate; ru.MaxUnavailable.String() != "0" || ru.MaxSurge.String() != "25%" || !ru.MaxSurge.IsString {
		t.Errorf("rollingUpdate %+v %+v", ru.MaxUnavailable, ru.MaxSurge)
	}

	for image, want := range map[string]string{
		"nginx": "Always", "nginx:latest": "Always", "nginx:1.25": "IfNotPresent",
		"localhost:5000/app": "Always", "localhost:5000/app:v1": "IfNotPresent",
		"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef": "IfNotPresent",
	} {
		if got := api.DefaultPullPolicy(image); got != want {
			t.Errorf("api.DefaultPullPolicy(%q) = %q, want %q", image, got, want)
		}
	}

	pod := mustDecode(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  hostNetwork: true\n  containers:\n  - name: c\n    image: i\n    ports:\n    - containerPort: 80\n    resources:\n      limits: {cpu: 500m}\n    readinessProbe:\n      httpGet: {path: /, port: 80}\n")[0].Object.(*api.Pod)
	c := pod.Spec.Containers[0]
	if c.Ports[0].Protocol != "TCP" || c.Ports[0].HostPort != 80 {
		t.Errorf("port %+v", c.Ports[0])
	}
	if c.Resources.Requests[api.ResourceCPU].Milli != 500 {
		t.Errorf("pod requests not defaulted to limits: %v", c.Resources.Requests)
	}
	if p := c.ReadinessProbe; p.PeriodSeconds != 10 || p.TimeoutSeconds != 1 || p.FailureThreshold != 3 || p.SuccessThreshold != 1 || p.Handler["httpGet"] == nil {
		t.Errorf("probe %+v", p)
	}
}

// TestUnmodeledKept checks that fields the engine does not simulate are kept
// in Extra under the path of their map, and are not errors.
func TestUnmodeledKept(t *testing.T) {
	text := strings.Replace(minimalDS, "      containers:\n      - name: web\n",
		"      securityContext:\n        runAsUser: 1000\n      containers:\n      - name: web\n        terminationMessagePath: /dev/log\n        env:\n        - name: NODE\n          valueFrom:\n            fieldRef: {fieldPath: spec.nodeName}\n", 1)
	text = strings.Replace(text, "  name: web\n", "  name: web\n  uid: \"1234\"\n", 1)
	text += "status:\n  numberReady: 3\n"
	ds := mustDecode(t, text)[0].Object.(*api.DaemonSet)
	if got := ds.Extra["spec.template.spec"]["securityContext"]; got == nil || got.(map[string]any)["runAsUser"] != int64(1000) {
		t.Errorf("securityContext not kept: %#v", ds.Extra)
	}
	if got := ds.Extra["spec.template.spec.containers[0]"]["terminationMessagePath"]; got != "/dev/log" {
		t.Errorf("terminationMessagePath not kept: %#v", ds.Extra)
	}
	if ds.Extra["metadata"] != nil || ds.Extra[""] != nil {
		t.Errorf("server-set metadata.uid / status kept: %#v", ds.Extra)
	}
	if ds.UID != "" {
		t.Errorf("uid taken from the manifest")
	}
	if vf := ds.Spec.Template.Spec.Containers[0].Env[0].ValueFrom; vf["fieldRef"].(map[string]any)["fieldPath"] != "spec.nodeName" {
		t.Errorf("valueFrom %#v", vf)
	}
}

// TestMultiDocument checks document splitting, stored kinds and empty documents.
func TestMultiDocument(t *testing.T) {
	text := "---\n# a comment only\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: fluentd\n  namespace: kube-system\n---\n" +
		minimalDS + "--- # trailing comment\n\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-3\n"
	docs := mustDecode(t, text)
	if len(docs) != 3 {
		t.Fatalf("%d documents, want 3", len(docs))
	}
	// a served kind the playground does not simulate is stored as written
	if g, ok := docs[0].Object.(*api.GenericObject); !ok || docs[0].Kind != "Service" || docs[0].Name != "fluentd" ||
		docs[0].Namespace != "kube-system" || g.Resource != "services" || !g.Namespaced || docs[0].Line != 4 {
		t.Errorf("service doc %+v", docs[0])
	}
	if docs[1].Kind != "DaemonSet" || docs[1].Line != 10 || docs[1].Namespace != "default" {
		t.Errorf("ds doc %+v", docs[1])
	}
	if n, ok := docs[2].Object.(*api.Node); !ok || n.Name != "node-3" || docs[2].Namespace != "" {
		t.Errorf("node doc %+v", docs[2])
	}
}

// TestRestoreLineBreaks checks the repair of a flattened line in context.
func TestRestoreLineBreaks(t *testing.T) {
	got := strings.Join(RestoreLineBreaks("template:metadata:labels:app: webspec:containers:- name: webimage: nginx", "DaemonSet", []string{"spec"}, 2), "\n")
	want := "  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if RestoreLineBreaks("name: web", "Pod", nil, 0) != nil {
		t.Errorf("a plain line was restored")
	}
}

// FuzzDecode checks that Decode never panics and that every error it
// returns is an *Error with positioned diagnostics.
func FuzzDecode(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "mangled", "*.yaml"))
	examples, _ := filepath.Glob(filepath.Join("testdata", "seeds", "*.yaml"))
	for _, p := range append(seeds, examples...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Add(minimalDS)
	f.Add("a: &a [*a]\n")
	f.Add("apiVersion: v1\nkind: Pod\nmetadata: &m\n  name: x\n  labels: *m\n")
	f.Fuzz(func(t *testing.T, text string) {
		docs, err := Decode("fuzz.yaml", text)
		if err != nil {
			var me *Error
			if !errors.As(err, &me) || len(me.Diagnostics) == 0 {
				t.Fatalf("error %T %v", err, err)
			}
			_ = me.Error()
			_ = me.Detailed()
			return
		}
		for _, d := range docs {
			if d.Object == nil {
				t.Fatalf("document without object: %+v", d)
			}
		}
	})
}
