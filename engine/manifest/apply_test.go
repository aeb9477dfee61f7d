package manifest

import (
	"errors"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func newCluster() *cluster.Cluster {
	c := cluster.New(1)
	c.AddDefaultNodes()
	return c
}

func apply(t *testing.T, c *cluster.Cluster, text string, mode Mode) ([]string, error) {
	t.Helper()
	docs, err := Decode("ds.yaml", text)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	return ApplyTo(c, docs, mode)
}

func mustApply(t *testing.T, c *cluster.Cluster, text string, mode Mode) []string {
	t.Helper()
	lines, err := apply(t, c, text, mode)
	if err != nil {
		t.Fatalf("ApplyTo: %v", err)
	}
	return lines
}

func TestApplyCreateConfigureUnchanged(t *testing.T) {
	c := newCluster()
	node := "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-3\n  labels:\n    disk: ssd\n"
	text := minimalDS + "---\n" + node + "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n"
	if got := strings.Join(mustApply(t, c, text, ModeApply), "\n"); got != "daemonset.apps/web created\nnode/node-3 created" {
		t.Fatalf("lines %q", got)
	}
	ds := c.DaemonSet("default", "web")
	if ds == nil || ds.Generation != 1 || ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] != "1" {
		t.Fatalf("created ds %+v", ds)
	}
	la := ds.Annotations[api.LastAppliedConfigAnnotation]
	if !strings.HasPrefix(la, `{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"annotations":{},"name":"web","namespace":"default"}`) || !strings.HasSuffix(la, "\n") {
		t.Errorf("last-applied %q", la)
	}
	n3 := c.Node("node-3")
	if n3 == nil || n3.Labels["disk"] != "ssd" || n3.Labels[api.LabelHostname] != "node-3" || n3.Condition(api.NodeReady) == nil {
		t.Fatalf("node-3 %+v", n3)
	}

	// same manifest again: unchanged, nothing written
	rv := c.ResourceVersion()
	if got := strings.Join(mustApply(t, c, text, ModeApply), "\n"); got != "daemonset.apps/web unchanged\nnode/node-3 unchanged" {
		t.Fatalf("lines %q", got)
	}
	if c.ResourceVersion() != rv {
		t.Errorf("unchanged apply wrote to the store")
	}

	// a spec change outside the template: generation only
	ds.Status.NumberReady = 3 // status is kept across updates
	text2 := strings.Replace(text, "  template:\n", "  minReadySeconds: 5\n  template:\n", 1)
	if got := mustApply(t, c, text2, ModeApply); got[0] != "daemonset.apps/web configured" || got[1] != "node/node-3 unchanged" {
		t.Fatalf("lines %q", got)
	}
	ds = c.DaemonSet("default", "web")
	if ds.Generation != 2 || ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] != "1" || ds.Spec.MinReadySeconds != 5 || ds.Status.NumberReady != 3 {
		t.Errorf("after spec change: gen %d tgen %s min %d status %+v", ds.Generation, ds.Annotations[api.DeprecatedTemplateGenerationAnnotation], ds.Spec.MinReadySeconds, ds.Status)
	}

	// a template change: generation and template generation
	text3 := strings.Replace(text2, "nginx:1.25", "nginx:1.26", 1)
	if got := mustApply(t, c, text3, ModeApply); got[0] != "daemonset.apps/web configured" {
		t.Fatalf("lines %q", got)
	}
	ds = c.DaemonSet("default", "web")
	if ds.Generation != 3 || ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] != "2" || ds.Spec.Template.Spec.Containers[0].Image != "nginx:1.26" {
		t.Errorf("after template change: gen %d tgen %s", ds.Generation, ds.Annotations[api.DeprecatedTemplateGenerationAnnotation])
	}

	// a label added by `kubectl label` survives apply; a label dropped from the manifest goes
	ds.Labels = map[string]string{"team": "a"}
	text4 := strings.Replace(text3, "  name: web\n", "  name: web\n  labels:\n    tier: edge\n", 1)
	mustApply(t, c, text4, ModeApply)
	if got := c.DaemonSet("default", "web").Labels; got["team"] != "a" || got["tier"] != "edge" {
		t.Errorf("labels %v", got)
	}
	mustApply(t, c, text3, ModeApply)
	if got := c.DaemonSet("default", "web").Labels; got["team"] != "a" || got["tier"] != "" {
		t.Errorf("labels after dropping tier %v", got)
	}
}

func TestApplyErrorsLeaveStoreUntouched(t *testing.T) {
	tests := []struct {
		name, text string
		mode       Mode
		want       string
	}{
		{"selector immutable", strings.ReplaceAll(minimalDS, "app: web", "app: api"), ModeApply,
			`The DaemonSet "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable`},
		{"create existing", minimalDS, ModeCreate,
			`Error from server (AlreadyExists): error when creating "ds.yaml": daemonsets.apps "web" already exists`},
		{"replace missing", strings.Replace(minimalDS, "name: web\n", "name: other\n", 1), ModeReplace,
			"Error from server (NotFound): error when replacing \"ds.yaml\": nodes \"node-9\" not found\nError from server (NotFound): error when replacing \"ds.yaml\": daemonsets.apps \"other\" not found"},
		{"pod immutable", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  tolerations:\n  - {key: a, operator: Exists}\n  containers:\n  - name: c\n    image: busybox:1.36\n    ports:\n    - containerPort: 8080\n", ModeApply,
			// The store's DefaultTolerationSeconds admission added two tolerations
			// at create; tolerations is an atomic list, so applying [a] removes them.
			"The Pod \"solo\" is invalid: \n* spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds\n* spec: Forbidden: " + podUpdateForbidden},
		{"pod toleration removed", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  tolerations: []\n  containers:\n  - name: c\n    image: busybox:1.36\n", ModeApply,
			"The Pod \"solo\" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster()
			pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  tolerations:\n  - {key: a, operator: Exists}\n  containers:\n  - name: c\n    image: busybox:1.35\n"
			mustApply(t, c, minimalDS+"---\n"+pod, ModeApply)
			rv, pods, dss := c.ResourceVersion(), c.PodCount(), len(c.DaemonSets())
			// a valid new object before the failing one must not be written either
			_, err := apply(t, c, "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-9\n---\n"+tc.text, tc.mode)
			var me *Error
			if !errors.As(err, &me) {
				t.Fatalf("error %T %v", err, err)
			}
			if got := me.Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if c.ResourceVersion() != rv || c.PodCount() != pods || len(c.DaemonSets()) != dss || c.Node("node-9") != nil {
				t.Errorf("store changed on error")
			}
			if me.Diagnostics[0].Line == 0 {
				t.Errorf("no position: %+v", me.Diagnostics[0])
			}
		})
	}
}

func TestApplyModesAndPods(t *testing.T) {
	c := newCluster()
	if got := mustApply(t, c, minimalDS, ModeCreate); got[0] != "daemonset.apps/web created" {
		t.Fatalf("%q", got)
	}
	if _, ok := c.DaemonSet("default", "web").Annotations[api.LastAppliedConfigAnnotation]; ok {
		t.Errorf("create stored last-applied")
	}
	// replace sends the manifest's metadata: a label set by `kubectl label` goes
	live := c.DaemonSet("default", "web")
	live.Labels = map[string]string{"team": "a"}
	if err := c.UpdateDaemonSet(live); err != nil {
		t.Fatal(err)
	}
	replaced := strings.Replace(minimalDS, "nginx:1.25", "nginx:1.27", 1)
	replaced = strings.Replace(replaced, "  name: web\n", "  name: web\n  annotations:\n    note: x\n", 1)
	if got := mustApply(t, c, replaced, ModeReplace); got[0] != "daemonset.apps/web replaced" {
		t.Fatalf("%q", got)
	}
	if ds := c.DaemonSet("default", "web"); ds.Generation != 2 || len(ds.Labels) != 0 || len(ds.Annotations) != 2 ||
		ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] != "2" || ds.Annotations["note"] != "x" {
		t.Errorf("replace: gen %d labels %v annotations %v", ds.Generation, ds.Labels, ds.Annotations)
	}

	// a bare pod: image changes are allowed; the scheduler's nodeName is kept
	pod := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  containers:\n  - name: c\n    image: busybox:1.35\n"
	mustApply(t, c, pod, ModeApply)
	p := c.Pod("default", "solo")
	p.Spec.NodeName = "node-1"
	if err := c.UpdatePod(p); err != nil {
		t.Fatal(err)
	}
	if got := mustApply(t, c, pod, ModeApply); got[0] != "pod/solo unchanged" {
		t.Errorf("%q", got)
	}
	if got := mustApply(t, c, strings.Replace(pod, "1.35", "1.36", 1), ModeApply); got[0] != "pod/solo configured" {
		t.Errorf("%q", got)
	}
	if p := c.Pod("default", "solo"); p.Spec.NodeName != "node-1" || p.Spec.Containers[0].Image != "busybox:1.36" {
		t.Errorf("pod after update %+v", p.Spec)
	}

	// nodes: kubeadm's control-plane taint survives an apply that does not mention taints
	cp := "apiVersion: v1\nkind: Node\nmetadata:\n  name: control-plane\n  labels:\n    zone: a\n"
	if got := mustApply(t, c, cp, ModeApply); got[0] != "node/control-plane configured" {
		t.Errorf("%q", got)
	}
	n := c.Node("control-plane")
	if len(n.Spec.Taints) != 1 || n.Labels["zone"] != "a" || n.Labels[api.LabelHostname] != "control-plane" {
		t.Errorf("control-plane %+v %v", n.Spec.Taints, n.Labels)
	}
	tainted := strings.Replace(cp, "    zone: a\n", "    zone: a\nspec:\n  unschedulable: true\n  taints:\n  - {key: gpu, value: \"true\", effect: NoSchedule}\n", 1)
	mustApply(t, c, tainted, ModeApply)
	if n := c.Node("control-plane"); len(n.Spec.Taints) != 1 || n.Spec.Taints[0].Key != "gpu" || !n.Spec.Unschedulable {
		t.Errorf("taints %+v unschedulable %v", n.Spec.Taints, n.Spec.Unschedulable)
	}
	// taints dropped from the manifest are removed (they were applied before)
	mustApply(t, c, cp, ModeApply)
	if n := c.Node("control-plane"); len(n.Spec.Taints) != 0 || n.Spec.Unschedulable {
		t.Errorf("taints %+v unschedulable %v", n.Spec.Taints, n.Spec.Unschedulable)
	}

	// the same object twice in one file: created, then configured
	twice := minimalDS + "---\n" + strings.Replace(minimalDS, "nginx:1.25", "nginx:1.28", 1)
	c2 := newCluster()
	if got := strings.Join(mustApply(t, c2, twice, ModeApply), ","); got != "daemonset.apps/web created,daemonset.apps/web configured" {
		t.Errorf("%q", got)
	}
	if ds := c2.DaemonSet("default", "web"); ds.Spec.Template.Spec.Containers[0].Image != "nginx:1.28" || ds.Generation != 2 {
		t.Errorf("twice: %+v", ds.Spec.Template.Spec.Containers[0])
	}

	// two new nodes in one file get distinct addresses
	c4 := newCluster()
	mustApply(t, c4, "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-3\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-4\n", ModeApply)
	if a, b := c4.Node("node-3").Status.Addresses[0].Address, c4.Node("node-4").Status.Addresses[0].Address; a == b {
		t.Errorf("node-3 and node-4 share the address %s", a)
	}

	// a Node manifest's status.capacity sizes the simulated node
	mustApply(t, c4, "apiVersion: v1\nkind: Node\nmetadata:\n  name: big\nstatus:\n  capacity:\n    cpu: \"16\"\n    memory: 64Gi\n", ModeApply)
	if big := c4.Node("big"); big.Status.Allocatable[api.ResourceCPU].Milli != 16000 || big.Status.Capacity[api.ResourceMemory].Value() != 64<<30 {
		t.Errorf("big node %v", big.Status.Capacity)
	}

	// documents are copied: applying them twice does not alias store objects
	docs, _ := Decode("ds.yaml", minimalDS)
	c3 := newCluster()
	if _, err := ApplyTo(c3, docs, ModeApply); err != nil {
		t.Fatal(err)
	}
	if docs[0].Object.(*api.DaemonSet) == c3.DaemonSet("default", "web") {
		t.Errorf("the store holds the document's object")
	}
}
