package kubectl

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func TestRenderObjectShapes(t *testing.T) {
	ds := &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "x", Namespace: "default", CreationTimestamp: cluster.Epoch.Add(1500 * time.Millisecond)},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
			Template: api.PodTemplateSpec{Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "i",
				ReadinessProbe: &api.Probe{Handler: map[string]any{"httpGet": map[string]any{"port": 8080}}}}}}},
			UpdateStrategy: api.DaemonSetUpdateStrategy{Type: "RollingUpdate",
				RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: api.FromString("10%"), MaxSurge: api.FromInt(0)}},
		},
		Extra: api.Unmodeled{
			"spec.template.spec":               {"hostIPC": true, "dnsPolicy": "stale"},
			"spec.template.spec.containers[0]": {"stdin": true},
			"spec.template.spec.containers[5]": {"lost": true},
			"":                                 {"extraTop": "kept"},
		},
	}
	ds.Spec.Template.Spec.DNSPolicy = "ClusterFirst"
	m, err := RenderObject(ds)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path []string
		want any
	}{
		{[]string{"apiVersion"}, "apps/v1"},
		{[]string{"kind"}, "DaemonSet"},
		{[]string{"metadata", "creationTimestamp"}, "2026-01-01T00:00:01Z"},
		{[]string{"spec", "template", "metadata", "creationTimestamp"}, nil},
		{[]string{"spec", "updateStrategy", "rollingUpdate", "maxUnavailable"}, "10%"},
		{[]string{"spec", "updateStrategy", "rollingUpdate", "maxSurge"}, int64(0)},
		{[]string{"spec", "template", "spec", "hostIPC"}, true},
		{[]string{"spec", "template", "spec", "dnsPolicy"}, "ClusterFirst"},
		{[]string{"spec", "template", "spec", "securityContext"}, map[string]any{}},
		{[]string{"extraTop"}, "kept"},
		{[]string{"status", "numberReady"}, int64(0)},
	} {
		if got := path(m, tc.path...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v = %#v, want %#v", tc.path, got, tc.want)
		}
	}
	c0 := path(m, "spec", "template", "spec").(map[string]any)["containers"].([]any)[0].(map[string]any)
	if c0["stdin"] != true || c0["terminationMessagePolicy"] != "File" {
		t.Errorf("container: %v", c0)
	}
	if hg := path(c0, "readinessProbe", "httpGet").(map[string]any); hg["port"] != int64(8080) || hg["scheme"] != "HTTP" || hg["path"] != "/" {
		t.Errorf("probe handler: %v", hg)
	}
	if _, ok := path(m, "spec", "template", "metadata").(map[string]any)["creationTimestamp"]; ok {
		t.Errorf("zero template creationTimestamp rendered")
	}
	// the edit base leaves the server-side defaults out
	raw, _ := renderObject(ds, false)
	if path(raw, "spec", "template", "spec", "securityContext") != nil {
		t.Errorf("renderObject(false) added securityContext")
	}
	if _, err := RenderObject(struct{}{}); err == nil {
		t.Errorf("no error for an unknown type")
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}, Status: api.PodStatus{
		Conditions:        []api.PodCondition{{Type: "Ready", Status: "True", LastTransitionTime: cluster.Epoch}},
		ContainerStatuses: []api.ContainerStatus{{Name: "c"}}, PodIP: "10.0.0.1"}}
	pm, _ := RenderObject(pod)
	cond := path(pm, "status").(map[string]any)["conditions"].([]any)[0].(map[string]any)
	if v, ok := cond["lastProbeTime"]; !ok || v != nil {
		t.Errorf("lastProbeTime: %v %v", v, ok)
	}
	cs := path(pm, "status").(map[string]any)["containerStatuses"].([]any)[0].(map[string]any)
	if _, ok := cs["lastState"]; !ok {
		t.Errorf("no lastState: %v", cs)
	}
	if !reflect.DeepEqual(path(pm, "status", "podIPs"), []any{map[string]any{"ip": "10.0.0.1"}}) {
		t.Errorf("podIPs: %v", path(pm, "status", "podIPs"))
	}
}

func TestMarshalFormats(t *testing.T) {
	v := map[string]any{"b": []any{map[string]any{"y": "<x>", "x": ""}}, "a": "true", "n": int64(3)}
	y, err := MarshalYAML(v)
	if err != nil {
		t.Fatal(err)
	}
	// yaml.v2 quotes the YAML 1.1 booleans y and n, keys included, as kubectl does
	if want := "a: \"true\"\nb:\n- x: \"\"\n  \"y\": <x>\n\"n\": 3\n"; y != want {
		t.Errorf("yaml:\n%s\nwant:\n%s", y, want)
	}
	j, _ := MarshalJSON(v)
	if want := "{\n    \"a\": \"true\",\n    \"b\": [\n        {\n            \"x\": \"\",\n            \"y\": \"\\u003cx\\u003e\"\n        }\n    ],\n    \"n\": 3\n}\n"; j != want {
		t.Errorf("json:\n%s\nwant:\n%s", j, want)
	}
}

func TestDecodeObjectRoundTrip(t *testing.T) {
	c := fixture()
	m, err := RenderObject(c.DaemonSet("default", "fluentd"))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := DecodeObject("x.yaml", m)
	if err != nil {
		t.Fatal(err)
	}
	ds, ok := obj.(*api.DaemonSet)
	if !ok || ds.Name != "fluentd" || ds.Spec.Template.Spec.Containers[0].Image != "fluentd:v1.16" {
		t.Errorf("decoded %#v", obj)
	}
	m["spec"].(map[string]any)["minReadySeconds"] = "x"
	if _, err := DecodeObject("x.yaml", m); err == nil || !strings.Contains(err.Error(), "minReadySeconds") {
		t.Errorf("bad field: %v", err)
	}
}

func TestRelaxedJSONPathExpression(t *testing.T) {
	for in, want := range map[string]string{
		"metadata.name": "{.metadata.name}", ".metadata.name": "{.metadata.name}", "{metadata.name}": "{.metadata.name}",
		"{.metadata.name}": "{.metadata.name}", "": "", "{.a}}": "ERR", "{{.a}}": "ERR",
	} {
		got, err := RelaxedJSONPathExpression(in)
		if err != nil {
			got = "ERR"
		}
		if got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

func TestNaturalLessAndIsLess(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"node-2", "node-10", true}, {"node-10", "node-2", false}, {"a", "b", true}, {"a01", "a1", false},
		{"a1", "a01", true}, {"abc", "ab", false}, {"1", "a", true}, {"x", "x", false},
	} {
		if got := naturalLess(tc.a, tc.b); got != tc.want {
			t.Errorf("naturalLess(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
	v := func(x any) reflect.Value { return reflect.ValueOf(&x).Elem() }
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{"100m", "1", true}, {"2Gi", "1500Mi", false}, {int64(2), int64(10), true}, {nil, "a", true},
		{"a", nil, false}, {false, true, true}, {[]any{int64(1), int64(2)}, []any{int64(1), int64(3)}, true},
	} {
		if got, err := isLess(v(tc.a), v(tc.b)); err != nil || got != tc.want {
			t.Errorf("isLess(%v, %v) = %v, %v", tc.a, tc.b, got, err)
		}
	}
	if _, err := isLess(v(map[string]any{}), v(map[string]any{})); err == nil {
		t.Errorf("maps are unsortable")
	}
}

func TestLayoutRowsRemembersWidths(t *testing.T) {
	var widths []int
	first := layoutRows([][]string{{"NAME", "AGE"}, {"a", "1s"}}, &widths)
	if first != (&table{headers: []string{"NAME", "AGE"}, rows: [][]string{{"a", "1s"}}}).render(false) {
		t.Errorf("layoutRows differs from the tab writer:\n%q", first)
	}
	if got := layoutRows([][]string{{"b", "2s"}}, &widths); got != "b      2s\n" {
		t.Errorf("remembered widths: %q", got)
	}
	if got := layoutRows([][]string{{"longer-name", "3s"}}, &widths); got != "longer-name   3s\n" {
		t.Errorf("grown widths: %q", got)
	}
	if got := layoutRows([][]string{{"c", "4s"}}, &widths); got != "c             4s\n" {
		t.Errorf("never shrink: %q", got)
	}
}

func TestMergeDiffAndApply(t *testing.T) {
	from := map[string]any{"a": int64(1), "gone": "x", "m": map[string]any{"k": "v", "same": true},
		"list": []any{map[string]any{"name": "c", "image": "1", "keep": "live"}}, "plain": []any{"a"}}
	to := map[string]any{"a": int64(2), "m": map[string]any{"k": "w", "same": true},
		"list": []any{map[string]any{"name": "c", "image": "2", "keep": "live"}}, "plain": []any{"b"}}
	p := mergeDiff(from, to)
	live := map[string]any{"a": int64(1), "gone": "x", "m": map[string]any{"k": "v", "same": true, "server": "s"},
		"list": []any{map[string]any{"name": "c", "image": "1"}}, "plain": []any{"a"}}
	applyMergePatch(live, p)
	want := map[string]any{"a": int64(2), "m": map[string]any{"k": "w", "same": true, "server": "s"},
		"list": []any{map[string]any{"name": "c", "image": "2"}}, "plain": []any{"b"}}
	if !reflect.DeepEqual(live, want) {
		t.Errorf("patched:\n%v\nwant:\n%v", live, want)
	}
	// a list whose shape changed meanwhile gets the edited list whole
	live2 := map[string]any{"list": []any{map[string]any{"name": "d"}}}
	applyMergePatch(live2, map[string]any{"list": p["list"]})
	if !reflect.DeepEqual(live2["list"], to["list"]) {
		t.Errorf("fallback list: %v", live2["list"])
	}
	if len(mergeDiff(to, to)) != 0 {
		t.Errorf("no-op diff is not empty")
	}
}

// TestRenderDefaultsKeepUnmodeled: a server default fills only what the
// object leaves unset, unmodeled fields included (SetDefaults_PodSpec's
// securityContext, SetDefaults_Container's terminationMessagePath).
func TestRenderDefaultsKeepUnmodeled(t *testing.T) {
	spec := api.PodSpec{Containers: []api.Container{{Name: "c", Image: "i"}}}
	extra := func(prefix string) api.Unmodeled {
		return api.Unmodeled{
			prefix:                    {"securityContext": map[string]any{"runAsUser": int64(1000)}},
			prefix + ".containers[0]": {"terminationMessagePath": "/tmp/msg"},
		}
	}
	for _, tc := range []struct {
		name string
		obj  any
		spec []string
	}{
		{"daemonset", &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "x"},
			Spec: api.DaemonSetSpec{Template: api.PodTemplateSpec{Spec: spec}}, Extra: extra("spec.template.spec")},
			[]string{"spec", "template", "spec"}},
		{"pod", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}, Spec: spec, Extra: extra("spec")}, []string{"spec"}},
	} {
		m, err := RenderObject(tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		s := path(m, tc.spec...).(map[string]any)
		if got, want := s["securityContext"], map[string]any{"runAsUser": int64(1000)}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: securityContext = %#v, want %#v", tc.name, got, want)
		}
		c0 := s["containers"].([]any)[0].(map[string]any)
		if c0["terminationMessagePath"] != "/tmp/msg" || c0["terminationMessagePolicy"] != "File" {
			t.Errorf("%s: container = %v", tc.name, c0)
		}
	}
}

// TestRenderVolumeAndFieldRefDefaults: the API server's volume and
// downward API defaults (pkg/apis/core/v1/defaults.go).
func TestRenderVolumeAndFieldRefDefaults(t *testing.T) {
	ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "x"}, Spec: api.DaemonSetSpec{Template: api.PodTemplateSpec{Spec: api.PodSpec{
		Containers: []api.Container{{Name: "c", Image: "i", Env: []api.EnvVar{
			{Name: "NODE", ValueFrom: map[string]any{"fieldRef": map[string]any{"fieldPath": "spec.nodeName"}}},
			{Name: "CPU", ValueFrom: map[string]any{"resourceFieldRef": map[string]any{"resource": "limits.cpu"}}},
			{Name: "OLD", ValueFrom: map[string]any{"fieldRef": map[string]any{"apiVersion": "v2", "fieldPath": "x"}}},
		}}},
		Volumes: []api.Volume{
			{Name: "cm", Source: map[string]any{"configMap": map[string]any{"name": "cm"}}},
			{Name: "s", Source: map[string]any{"secret": map[string]any{"secretName": "s", "defaultMode": int64(256)}}},
			{Name: "d", Source: map[string]any{"downwardAPI": map[string]any{"items": []any{
				map[string]any{"path": "n", "fieldRef": map[string]any{"fieldPath": "metadata.name"}}}}}},
			{Name: "p", Source: map[string]any{"projected": map[string]any{"sources": []any{
				map[string]any{"serviceAccountToken": map[string]any{"path": "t"}},
				map[string]any{"downwardAPI": map[string]any{"items": []any{
					map[string]any{"path": "n", "fieldRef": map[string]any{"fieldPath": "metadata.name"}}}}}}}}},
			{Name: "e"},
		},
	}}}}
	m, err := RenderObject(ds)
	if err != nil {
		t.Fatal(err)
	}
	spec := path(m, "spec", "template", "spec").(map[string]any)
	vol := func(i int) map[string]any { return spec["volumes"].([]any)[i].(map[string]any) }
	env := func(i int) map[string]any {
		return spec["containers"].([]any)[0].(map[string]any)["env"].([]any)[i].(map[string]any)["valueFrom"].(map[string]any)
	}
	for _, tc := range []struct {
		name string
		got  any
		want any
	}{
		{"configMap defaultMode", path(vol(0), "configMap", "defaultMode"), int64(420)},
		{"secret defaultMode kept", path(vol(1), "secret", "defaultMode"), int64(256)},
		{"downwardAPI defaultMode", path(vol(2), "downwardAPI", "defaultMode"), int64(420)},
		{"downwardAPI item fieldRef", path(path(vol(2), "downwardAPI", "items").([]any)[0].(map[string]any), "fieldRef", "apiVersion"), "v1"},
		{"projected defaultMode", path(vol(3), "projected", "defaultMode"), int64(420)},
		{"projected token expiration", path(path(vol(3), "projected", "sources").([]any)[0].(map[string]any), "serviceAccountToken", "expirationSeconds"), int64(3600)},
		{"projected downwardAPI fieldRef", path(path(path(vol(3), "projected", "sources").([]any)[1].(map[string]any), "downwardAPI", "items").([]any)[0].(map[string]any), "fieldRef", "apiVersion"), "v1"},
		{"empty volume", vol(4)["emptyDir"], map[string]any{}},
		{"env fieldRef", path(env(0), "fieldRef", "apiVersion"), "v1"},
		{"env resourceFieldRef divisor", path(env(1), "resourceFieldRef", "divisor"), "0"},
		{"env fieldRef apiVersion kept", path(env(2), "fieldRef", "apiVersion"), "v2"},
	} {
		if !reflect.DeepEqual(tc.got, tc.want) {
			t.Errorf("%s = %#v, want %#v", tc.name, tc.got, tc.want)
		}
	}
	// the edit base stays as stored
	raw, _ := renderObject(ds, false)
	if v := path(raw, "spec", "template", "spec").(map[string]any)["volumes"].([]any)[0].(map[string]any); path(v, "configMap", "defaultMode") != nil {
		t.Errorf("renderObject(false) added defaultMode: %v", v)
	}
}
