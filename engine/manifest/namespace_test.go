package manifest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

const loggingNS = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: logging\n"

var loggingDS = enginetest.DaemonSetYAML("logging", "fluentd", "fluentd:v1")

// TestApplyNamespaces covers Namespace documents (created, unchanged,
// configured) and the NamespaceLifecycle admission of namespaced objects:
// a missing namespace is an error unless an earlier document creates it.
func TestApplyNamespaces(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		mode       Mode
		lines      string // on success
		err        string // kubectl's lines on failure
		line       int    // the diagnostic's line
		field      string
	}{
		{name: "namespace first", text: loggingNS + "---\n" + loggingDS, lines: "namespace/logging created\ndaemonset.apps/fluentd created"},
		{name: "create mode", text: loggingNS + "---\n" + loggingDS, mode: ModeCreate, lines: "namespace/logging created\ndaemonset.apps/fluentd created"},
		{name: "missing namespace", text: loggingDS,
			err:  `Error from server (NotFound): error when creating "ds.yaml": namespaces "logging" not found`,
			line: 5, field: "metadata.namespace"},
		{name: "namespace after", text: loggingDS + "---\n" + loggingNS,
			err:  `Error from server (NotFound): error when creating "ds.yaml": namespaces "logging" not found`,
			line: 5, field: "metadata.namespace"},
		{name: "missing namespace, create", text: loggingDS, mode: ModeCreate,
			err: `Error from server (NotFound): error when creating "ds.yaml": namespaces "logging" not found`, line: 5, field: "metadata.namespace"},
		{name: "pod in missing namespace", text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: nosuch\nspec:\n  containers:\n  - name: c\n    image: busybox\n",
			err: `Error from server (NotFound): error when creating "ds.yaml": namespaces "nosuch" not found`, line: 5, field: "metadata.namespace"},
		{name: "kube-system exists", text: strings.Replace(loggingDS, "namespace: logging", "namespace: kube-system", 1), lines: "daemonset.apps/fluentd created"},
		{name: "bad namespace name", text: "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: my.logs\n",
			err:  `The Namespace "my.logs" is invalid: metadata.name: Invalid value: "my.logs": must not contain dots`,
			line: 4, field: "metadata.name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster()
			docs, err := Decode("ds.yaml", tc.text)
			if err == nil {
				var lines []string
				lines, err = ApplyTo(c, docs, tc.mode)
				if err == nil {
					if got := strings.Join(lines, "\n"); got != tc.lines || tc.err != "" {
						t.Fatalf("lines %q, want %q (err %q)", got, tc.lines, tc.err)
					}
					return
				}
			}
			me, ok := err.(*Error)
			if !ok || me.Error() != tc.err {
				t.Fatalf("error\n%v\nwant\n%s", err, tc.err)
			}
			if d := me.Diagnostics[0]; d.Line != tc.line || d.Field != tc.field || d.Hint == "" {
				t.Errorf("diagnostic %+v, want line %d field %s and a hint", d, tc.line, tc.field)
			}
			if c.Namespace("logging") != nil || len(c.DaemonSets()) != 0 {
				t.Errorf("a failed apply wrote to the store")
			}
		})
	}

	c := newCluster()
	mustApply(t, c, loggingNS, ModeApply)
	ns := c.Namespace("logging")
	if ns == nil || ns.Status.Phase != api.NamespaceActive || ns.Labels["kubernetes.io/metadata.name"] != "logging" ||
		ns.Annotations[api.LastAppliedConfigAnnotation] != `{"apiVersion":"v1","kind":"Namespace","metadata":{"annotations":{},"name":"logging"}}`+"\n" {
		t.Fatalf("namespace %+v", ns)
	}
	if got := mustApply(t, c, loggingNS, ModeApply); strings.Join(got, "\n") != "namespace/logging unchanged" {
		t.Errorf("again: %q", got)
	}
	if got := mustApply(t, c, loggingNS+"  labels:\n    team: obs\n", ModeApply); strings.Join(got, "\n") != "namespace/logging configured" {
		t.Errorf("labels: %q", got)
	}
	if c.Namespace("logging").Labels["team"] != "obs" || c.Namespace("logging").Labels["kubernetes.io/metadata.name"] != "logging" {
		t.Errorf("labels after configure: %v", c.Namespace("logging").Labels)
	}
	if _, err := apply(t, c, loggingNS, ModeCreate); err == nil || err.Error() != `Error from server (AlreadyExists): error when creating "ds.yaml": namespaces "logging" already exists` {
		t.Errorf("create again: %v", err)
	}
	// a namespace being deleted refuses new content
	mustApply(t, c, loggingDS, ModeApply)
	c.CreatePod(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "busy", Namespace: "logging"}, Spec: api.PodSpec{NodeName: "node-1"}})
	if err := c.DeleteNamespace("logging"); err != nil {
		t.Fatal(err)
	}
	_, err := apply(t, c, loggingDS, ModeApply)
	if err == nil || err.Error() != `Error from server (Forbidden): error when creating "ds.yaml": daemonsets.apps "fluentd" is forbidden: unable to create new content in namespace logging because it is being terminated` {
		t.Errorf("apply into a terminating namespace: %v", err)
	}
}

// listYAML is what `kubectl get ns,ds -o yaml` prints for two objects: a
// v1 List whose items carry server-set fields.
const listYAML = `apiVersion: v1
items:
- apiVersion: v1
  kind: Namespace
  metadata:
    name: logging
    resourceVersion: "812"
    uid: 7d0c3d4e-0d7e-4a47-9c84-2b1d0f3c9a11
  spec:
    finalizers:
    - kubernetes
  status:
    phase: Active
- apiVersion: apps/v1
  kind: DaemonSet
  metadata:
    name: fluentd
    namespace: logging
    generation: 1
  spec:
    selector:
      matchLabels: {app: fluentd}
    template:
      metadata:
        labels: {app: fluentd}
      spec:
        containers:
        - name: fluentd
          image: fluentd:v1
  status:
    currentNumberScheduled: 2
kind: List
metadata:
  resourceVersion: ""
`

// TestDecodeList checks that a v1 List is unpacked into its items, in
// order, each with its own line, and that errors inside an item point into it.
func TestDecodeList(t *testing.T) {
	docs, err := Decode("list.yaml", listYAML)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.Kind+"/"+d.Name+"@"+d.Namespace+":"+strconv.Itoa(d.Line))
	}
	if strings.Join(got, " ") != "Namespace/logging@:3 DaemonSet/fluentd@logging:14" {
		t.Fatalf("documents %v", got)
	}
	c := newCluster()
	lines, err := ApplyTo(c, docs, ModeApply)
	if err != nil || strings.Join(lines, "\n") != "namespace/logging created\ndaemonset.apps/fluentd created" {
		t.Fatalf("apply: %q %v", lines, err)
	}
	if docs, err := Decode("e.yaml", "apiVersion: v1\nkind: List\nitems: []\n"); err != nil || len(docs) != 0 {
		t.Errorf("empty List: %d documents, %v", len(docs), err)
	}
	bad := strings.Replace(listYAML, "        - name: fluentd\n          image: fluentd:v1\n", "        - name: fluentd\n", 1)
	_, err = Decode("list.yaml", bad)
	me, ok := err.(*Error)
	if !ok || me.Error() != `The DaemonSet "fluentd" is invalid: spec.template.spec.containers[0].image: Required value` {
		t.Fatalf("error in an item: %v", err)
	}
	if d := me.Diagnostics[0]; d.Line != 28 || d.Column != 11 {
		t.Errorf("diagnostic at %d:%d, want 28:11 (the container)", d.Line, d.Column)
	}
}
