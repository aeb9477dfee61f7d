package kubectl

import (
	"slices"
	"strings"
	"testing"
)

const editedDS = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
# daemonsets.apps "x" was not valid:
# * spec.template.spec.containers[0].image: Required value
#
apiVersion: apps/v1
kind: DaemonSet
metadata:
  labels:
    app.kubernetes.io/name: x
  name: x
spec:
  selector:
    matchLabels:
      app: x
  template:
    metadata:
      labels:
        app: x
    spec:
      initContainers:
      - name: setup
        image: busybox
      containers:
      - image: ""
        name: a
        ports:
        - containerPort: 80
          name: http
      - name: b
        image: "nginx"
        resources:
          limits:
            memory: 10Mi
  updateStrategy:
    rollingUpdate:
      maxUnavailable: 0
    type: RollingUpdate
`

func TestEditFieldLine(t *testing.T) {
	lines := strings.Split(editedDS, "\n")
	lineOf := func(s string, nth int) int {
		for i, l := range lines {
			if strings.TrimSpace(l) == s {
				if nth == 0 {
					return i + 1
				}
				nth--
			}
		}
		t.Fatalf("no line %q", s)
		return 0
	}
	for _, tc := range []struct {
		field string
		want  int
	}{
		{"spec.template.spec.containers[0].image", lineOf(`- image: ""`, 0)},
		{"spec.template.spec.containers[0].name", lineOf("name: a", 0)},
		{"spec.template.spec.containers[1].image", lineOf(`image: "nginx"`, 0)},
		{"spec.template.spec.containers[1].resources.limits.memory", lineOf("memory: 10Mi", 0)},
		{"spec.template.spec.containers[0].ports[0].name", lineOf("name: http", 0)},
		{"spec.template.spec.initContainers[0].image", lineOf("image: busybox", 0)},
		{"spec.updateStrategy.rollingUpdate.maxUnavailable", lineOf("maxUnavailable: 0", 0)},
		{"spec.selector", lineOf("selector:", 0)},
		{"metadata.labels[app.kubernetes.io/name]", lineOf("app.kubernetes.io/name: x", 0)},
		// absent: the deepest parent found
		{"spec.template.spec.containers[0].command", lineOf(`- image: ""`, 0)},
		{"spec.template.spec.containers[5].image", lineOf("containers:", 0)},
		{"spec.minReadySeconds", lineOf("spec:", 0)},
		{"status.numberReady", 0},
	} {
		if got := EditFieldLine(lines, tc.field); got != tc.want {
			t.Errorf("EditFieldLine(%s) = %d, want %d", tc.field, got, tc.want)
		}
	}
}

func TestSplitFieldPath(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"a.b[0].c[key.x]", []string{"a", "b", "0", "c", "key.x"}},
		{"spec", []string{"spec"}},
		{"metadata.labels[app", []string{"metadata", "labels", "app"}},
		{"", nil},
	} {
		if got := splitFieldPath(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitFieldPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEditTarget(t *testing.T) {
	for _, tc := range []struct{ text, line, want string }{
		{editedDS, "kubectl edit ds x", "daemonset/x"},
		{"apiVersion: v1\nkind: List\nitems: []\n", "kubectl edit ds a b --output=yaml", "ds a b"},
		{`{"kind": "DaemonSet"}`, "k edit daemonset/x --output=json", "daemonset/x"},
		{"", "kubectl edit 'ds", "kubectl edit 'ds"},
		{"", "kubectl get ds", "kubectl get ds"},
	} {
		if got := EditTarget(tc.text, tc.line); got != tc.want {
			t.Errorf("EditTarget(%.20q, %q) = %q, want %q", tc.text, tc.line, got, tc.want)
		}
	}
}

func TestEditErrors(t *testing.T) {
	ds, heads := EditErrors(editedDS, "manifest.yaml")
	if len(ds) != 1 || len(heads) != 0 {
		t.Fatalf("EditErrors = %+v, %q; want one diagnostic, no heads", ds, heads)
	}
	d := ds[0]
	if d.File != "manifest.yaml" || d.Field != "spec.template.spec.containers[0].image" || d.Message != "Required value" ||
		d.Line != slices.Index(strings.Split(editedDS, "\n"), `      - image: ""`)+1 {
		t.Errorf("diagnostic = %+v", d)
	}
	syntax := editHeader + "# error: error parsing manifest.yaml: line 3: mapping values are not allowed\n# * a cause without a field\n#\nkind: DaemonSet\n"
	ds, heads = EditErrors(syntax, "f")
	if len(ds) != 1 || ds[0].Field != "" || ds[0].Line != 0 || ds[0].Message != "a cause without a field" {
		t.Errorf("diagnostics = %+v", ds)
	}
	if want := []string{"error: error parsing manifest.yaml: line 3: mapping values are not allowed"}; !slices.Equal(heads, want) {
		t.Errorf("heads = %q, want %q", heads, want)
	}
}
