package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
)

// The shells never hold the store: neither Simulation nor Recorder has an
// exported field that reaches it.
func TestStoreNotExported(t *testing.T) {
	store := reflect.TypeFor[*cluster.Cluster]()
	for _, typ := range []reflect.Type{reflect.TypeFor[Simulation](), reflect.TypeFor[Recorder]()} {
		for f := range typ.Fields() {
			if f.IsExported() && f.Type == store {
				t.Errorf("%s.%s is an exported *cluster.Cluster", typ.Name(), f.Name)
			}
		}
	}
	s := New(Options{})
	if simstore.Cluster(s) != s.store {
		t.Error("simstore.Cluster does not return the Simulation's store")
	}
}

func TestSummary(t *testing.T) {
	s := New(Options{})
	if _, err := s.Apply("web.yaml", enginetest.DaemonSetYAML("", "web", "nginx:1.23")); err != nil {
		t.Fatal(err)
	}
	if out := s.Run("kubectl taint nodes node-1 k=v:NoSchedule"); out.ExitCode != 0 {
		t.Fatal(out.Stderr)
	}
	s.Advance(30 * 1e9)
	sum := s.Summary()
	var b strings.Builder
	for _, p := range sum.Pods {
		fmt.Fprintf(&b, "pod %s/%s node=%s phase=%s owner=%s ready=%v terminating=%v\n", p.Namespace, p.Name, p.Node, p.Phase, p.Owner, p.Ready, p.Terminating)
	}
	for _, n := range sum.Nodes {
		fmt.Fprintf(&b, "node %s ready=%s unschedulable=%v taints=%q\n", n.Name, n.Ready, n.Unschedulable, n.Taints)
	}
	for _, d := range sum.DaemonSets {
		fmt.Fprintf(&b, "ds %s/%s %d %d %d %d %d %d\n", d.Namespace, d.Name, d.Desired, d.Current, d.Ready, d.UpToDate, d.Available, d.Misscheduled)
	}
	pods := s.store.Pods()
	if len(sum.Pods) != len(pods) || len(pods) != 2 {
		t.Fatalf("%d pods summarized, store has %d (want 2)\n%s", len(sum.Pods), len(pods), b.String())
	}
	for i, p := range pods {
		if sum.Pods[i].Name != p.Name || sum.Pods[i].Node != p.Spec.NodeName || !sum.Pods[i].Ready || sum.Pods[i].Owner != "web" {
			t.Errorf("pod %d: %+v, store has %s on %s", i, sum.Pods[i], p.Name, p.Spec.NodeName)
		}
	}
	want := []string{
		`node control-plane ready=True unschedulable=false taints=["node-role.kubernetes.io/control-plane:NoSchedule"]`,
		`node node-1 ready=True unschedulable=false taints=["k=v:NoSchedule"]`,
		`node node-2 ready=True unschedulable=false taints=[]`,
		`ds default/web 1 1 1 1 1 1`, // node-1 tainted NoSchedule: its pod is kept, misscheduled
	}
	for _, w := range want {
		if !strings.Contains(b.String(), w+"\n") {
			t.Errorf("summary lacks %q:\n%s", w, b.String())
		}
	}
}

func TestDaemonSetSpec(t *testing.T) {
	s := New(Options{})
	yaml := enginetest.DaemonSetYAML("", "web", "nginx:1.23") + "      - name: side\n        image: busybox:1.36\n        command: [\"sleep\", \"infinity\"]\n" +
		"  updateStrategy:\n    rollingUpdate:\n      maxUnavailable: 0\n      maxSurge: 25%\n"
	if _, err := s.Apply("web.yaml", yaml); err != nil {
		t.Fatal(err)
	}
	spec, ok := s.DaemonSetSpec("default", "web")
	if !ok {
		t.Fatal("no DaemonSet web")
	}
	want := DaemonSetSpec{Containers: []ContainerSpec{{"web", "nginx:1.23"}, {"side", "busybox:1.36"}}, MaxUnavailable: "0", MaxSurge: "25%"}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("DaemonSetSpec = %+v, want %+v", spec, want)
	}
	if _, ok := s.DaemonSetSpec("default", "nope"); ok {
		t.Error("DaemonSetSpec of a missing DaemonSet: ok")
	}
}

func TestNodeReads(t *testing.T) {
	s := New(Options{})
	if !s.HasNode("node-1") || s.HasNode("node-9") || s.NodeCount() != 3 {
		t.Errorf("HasNode/NodeCount: %v %v %d", s.HasNode("node-1"), s.HasNode("node-9"), s.NodeCount())
	}
	if err := s.SetNodeCondition("node-1", api.NodeDiskPressure, ConditionTrue); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ node, typ, want string }{
		{"node-1", NodeReady, ConditionTrue},
		{"node-1", api.NodeDiskPressure, ConditionTrue},
		{"node-2", api.NodeDiskPressure, ConditionFalse},
		{"node-1", "NoSuchCondition", ""},
		{"node-9", NodeReady, ""},
	} {
		if got := s.NodeCondition(tc.node, tc.typ); got != tc.want {
			t.Errorf("NodeCondition(%s, %s) = %q, want %q", tc.node, tc.typ, got, tc.want)
		}
	}
	// The taint PressureTaint names is the one the node lifecycle
	// controller put on the node.
	s.Advance(1e9)
	var taints []string
	for _, tn := range s.store.Node("node-1").Spec.Taints {
		taints = append(taints, tn.Key)
	}
	if k := PressureTaint(api.NodeDiskPressure); k != "node.kubernetes.io/disk-pressure" || !slices.Contains(taints, k) {
		t.Errorf("PressureTaint(DiskPressure) = %q; node-1's taints: %v", k, taints)
	}
	for typ, want := range map[string]string{
		api.NodeMemoryPressure: api.TaintNodeMemoryPressure, api.NodePIDPressure: api.TaintNodePIDPressure,
		api.NodeNetworkUnavailable: "", NodeReady: "", "": "",
	} {
		if got := PressureTaint(typ); got != want {
			t.Errorf("PressureTaint(%q) = %q, want %q", typ, got, want)
		}
	}
}

func TestCheckManifest(t *testing.T) {
	if err := CheckManifest("m.yaml", enginetest.DaemonSetYAML("", "web", "nginx")); err != nil {
		t.Errorf("a good manifest: %v", err)
	}
	err := CheckManifest("m.yaml", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: x\nspec:\n  bogus: 1\n")
	ds, ok := ManifestDiagnostics(err)
	if !ok || len(ds) == 0 || ds[0].File != "m.yaml" || ds[0].Line == 0 {
		t.Errorf("diagnostics %+v, ok %v (error %v)", ds, ok, err)
	}
	if _, ok := ManifestDiagnostics(fmt.Errorf("other")); ok {
		t.Error("ManifestDiagnostics of another error: ok")
	}
	if _, ok := ManifestDiagnostics(fmt.Errorf("wrapped: %w", err)); !ok {
		t.Error("ManifestDiagnostics of a wrapped manifest error: not ok")
	}
}

func TestCompleteFacade(t *testing.T) {
	s := New(Options{})
	line := "kubectl get nodes node-"
	cands, from := s.Complete(line, len(line))
	if want := []string{"node-1", "node-2"}; !slices.Equal(cands, want) || from != len("kubectl get nodes ") {
		t.Errorf("Complete(%q) = %q, %d", line, cands, from)
	}
}

func TestExportObjects(t *testing.T) {
	s := New(Options{})
	text := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: logging\n---\n" + enginetest.DaemonSetYAML("logging", "web", "nginx:1.23") +
		"---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: bare\nspec:\n  containers:\n  - name: c\n    image: nginx:1.23\n" +
		"---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\nrules: []\n"
	if _, err := s.Apply("m.yaml", text); err != nil {
		t.Fatal(err)
	}
	s.Advance(10 * 1e9)
	var got []string
	for _, o := range s.ExportObjects() {
		switch o := o.(type) {
		case *api.Namespace:
			got = append(got, "ns/"+o.Name)
		case *api.Node:
			got = append(got, "node/"+o.Name)
		case *api.DaemonSet:
			got = append(got, "ds/"+o.Namespace+"/"+o.Name)
		case *api.Pod:
			got = append(got, "pod/"+o.Namespace+"/"+o.Name)
		case *api.GenericObject:
			got = append(got, o.GroupResource()+"/"+o.Name)
		default:
			got = append(got, fmt.Sprintf("%T", o))
		}
	}
	want := []string{"ns/logging", "node/control-plane", "node/node-1", "node/node-2", "clusterroles.rbac.authorization.k8s.io/reader", "ds/logging/web", "pod/default/bare"}
	if !slices.Equal(got, want) {
		t.Errorf("ExportObjects = %q, want %q", got, want)
	}
}

func TestDecodeManifest(t *testing.T) {
	text := enginetest.DaemonSetYAML("", "web", "nginx") + "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: s\n---\n" +
		"apiVersion: v1\nkind: Node\nmetadata:\n  generateName: n-\n  bogus: 1\n"
	if _, err := DecodeManifest("m.yaml", text, false); err == nil {
		t.Error("an unknown field decodes under strict field validation")
	}
	objs, err := DecodeManifest("m.yaml", text, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []ManifestObject{{"DaemonSet", "default", "web", false}, {"Service", "default", "s", true}, {"Node", "", "", false}}
	if !reflect.DeepEqual(objs, want) {
		t.Errorf("DecodeManifest = %+v, want %+v", objs, want)
	}
	err = NoObjectsError("m.yaml", "apply")
	if ds, ok := ManifestDiagnostics(err); !ok || len(ds) != 1 || ds[0].Line != 1 || !strings.Contains(err.Error(), "no objects passed to apply") {
		t.Errorf("NoObjectsError = %v (%+v)", err, ds)
	}
}
