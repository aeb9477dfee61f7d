package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/internal/sigsyaml"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// RenderObject returns a stored object in the shape the API server returns
// it and kubectl holds it (an unstructured.Unstructured): apiVersion and
// kind, metadata without managedFields (kubectl's default
// --show-managed-fields=false strips them), spec with the API server's
// defaults, status, and every field the playground does not model but kept
// from the manifest (api.Unmodeled) back at its place. Values are
// map[string]any, []any, string, int64, float64, bool and nil; timestamps
// are RFC 3339 strings in UTC with second precision (metav1.Time's
// MarshalJSON), a zero metav1.Time is null and a zero
// metadata.creationTimestamp is omitted (omitzero since apimachinery 0.34).
//
// obj is *api.DaemonSet, *api.Pod, *api.Node, *api.ControllerRevision,
// *api.Event or *api.Namespace; any other type is an error. The object is
// only read.
//
// Defaults the store does not hold but the API server fills in are added
// when absent (pkg/apis/core/v1/defaults.go SetDefaults_PodSpec,
// SetDefaults_Container, SetDefaults_Pod): securityContext {},
// terminationMessagePath /dev/termination-log and terminationMessagePolicy
// File on containers, enableServiceLinks true on pods, and the deprecated
// serviceAccount mirror of serviceAccountName (the pod strategy's
// dropDisabledFields keeps both in step).
func RenderObject(obj any) (map[string]any, error) {
	return renderObject(obj, true)
}

// renderObject is RenderObject; serverDefaults false leaves out the
// defaults the store does not hold (renderPodSpec's), so that an edit
// patch applied to it brings in only what the learner changed.
func renderObject(obj any, serverDefaults bool) (map[string]any, error) {
	var extra api.Unmodeled
	var m map[string]any
	var err error
	switch o := obj.(type) {
	case *api.DaemonSet:
		extra = o.Extra
		m, err = toGeneric(o)
		if err == nil {
			setTypeMeta(m, "apps/v1", "DaemonSet")
			if tmpl, ok := path(m, "spec", "template").(map[string]any); ok {
				renderPodSpec(tmpl, &o.Spec.Template.Spec, false, serverDefaults)
			}
			// intstr.IntOrString marshals as a bare number or string
			if ru, ok := path(m, "spec", "updateStrategy", "rollingUpdate").(map[string]any); ok && o.Spec.UpdateStrategy.RollingUpdate != nil {
				for k, v := range map[string]*api.IntOrString{"maxUnavailable": o.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable, "maxSurge": o.Spec.UpdateStrategy.RollingUpdate.MaxSurge} {
					if v == nil {
						delete(ru, k)
					} else if v.IsString {
						ru[k] = v.StrVal
					} else {
						ru[k] = int64(v.IntVal)
					}
				}
			}
		}
	case *api.Pod:
		extra = o.Extra
		m, err = toGeneric(o)
		if err == nil {
			setTypeMeta(m, "v1", "Pod")
			renderPodSpec(m, &o.Spec, true, serverDefaults)
			renderPodStatus(m, o)
		}
	case *api.Node:
		extra = o.Extra
		m, err = toGeneric(o)
		if err == nil {
			setTypeMeta(m, "v1", "Node")
			if spec, ok := m["spec"].(map[string]any); ok && o.Spec.PodCIDR != "" && serverDefaults {
				// the node IPAM controller sets both (podCIDRs[0] == podCIDR)
				if _, set := spec["podCIDRs"]; !set {
					spec["podCIDRs"] = []any{o.Spec.PodCIDR}
				}
			}
			if st, ok := m["status"].(map[string]any); ok {
				// NodeSystemInfo (k8s.io/api v0.37.2): machineID,
				// systemUUID, bootID and kubeProxyVersion have no
				// omitempty; kube-proxy no longer reports a version, so
				// the kubelet leaves it "" (see nodeIdentity).
				if info, ok := st["nodeInfo"].(map[string]any); ok {
					machineID, systemUUID, bootID := nodeIdentity(o)
					setDefault(info, "machineID", machineID)
					setDefault(info, "systemUUID", systemUUID)
					setDefault(info, "bootID", bootID)
					setDefault(info, "kubeProxyVersion", "")
				}
				if _, set := st["daemonEndpoints"]; !set {
					st["daemonEndpoints"] = map[string]any{"kubeletEndpoint": map[string]any{"Port": int64(10250)}}
				}
			}
		}
	case *api.ControllerRevision:
		m, err = toGeneric(o)
		if err == nil {
			setTypeMeta(m, "apps/v1", "ControllerRevision")
			// data is a runtime.RawExtension: the stored JSON, as an object
			// (a RawExtension without data marshals as null)
			m["data"] = nil
			var data any
			if json.Unmarshal([]byte(o.Data), &data) == nil {
				data = normalize(data)
				fixTimes(data)
				if dm, ok := data.(map[string]any); ok {
					if spec, ok := path(dm, "spec", "template", "spec").(map[string]any); ok {
						defaultPodSpecMap(spec)
					}
				}
				m["data"] = data
			}
		}
	case *api.Event:
		m, err = toGeneric(o)
		if err == nil {
			setTypeMeta(m, "v1", "Event")
			// the legacy recorder (client-go tools/record makeEvent)
			// leaves eventTime unset and fills the reporting fields from
			// the source
			m["eventTime"] = nil
			m["reportingComponent"] = o.Source.Component
			m["reportingInstance"] = o.Source.Host
			if _, ok := m["count"]; !ok {
				m["count"] = int64(1)
			}
		}
	case *api.Namespace:
		extra = o.Extra
		m, err = toGeneric(o)
		if err == nil {
			setTypeMeta(m, "v1", "Namespace")
			if spec, ok := m["spec"].(map[string]any); ok && len(spec) == 0 {
				delete(m, "spec")
			}
		}
	default:
		m, extra, err = renderConfigObject(obj)
	}
	if err != nil {
		return nil, err
	}
	mergeUnmodeled(m, extra)
	// the defaults come after the unmodeled fields are back: a default
	// fills only what the object (typed or unmodeled) leaves unset, as
	// the API server's defaulting does
	if serverDefaults {
		switch obj.(type) {
		case *api.DaemonSet:
			if spec, ok := path(m, "spec", "template", "spec").(map[string]any); ok {
				defaultPodSpecMap(spec)
			}
		case *api.Pod:
			if spec, ok := m["spec"].(map[string]any); ok {
				defaultPodSpecMap(spec)
			}
		}
	}
	return m, nil
}

// setTypeMeta puts apiVersion and kind first-class (the store may hold them
// empty for objects it created itself).
func setTypeMeta(m map[string]any, apiVersion, kind string) {
	m["apiVersion"] = apiVersion
	m["kind"] = kind
}

// timeFields are the JSON names of the metav1.Time fields of the types
// above; their encoding/json form is rewritten as metav1.Time marshals.
var timeFields = map[string]bool{
	"creationTimestamp": true, "deletionTimestamp": true, "lastHeartbeatTime": true,
	"lastTransitionTime": true, "lastProbeTime": true, "startTime": true, "startedAt": true,
	"finishedAt": true, "timeAdded": true, "firstTimestamp": true, "lastTimestamp": true,
}

// toGeneric marshals a typed object with encoding/json and reads it back
// as generic values, then fixes what the playground's types encode
// differently from k8s.io/api: metav1.Time format, the container status's
// lastState name, and fields kept as free-form maps beside their typed
// siblings (volume sources, probe handlers).
func toGeneric(obj any) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	m, _ := normalize(v).(map[string]any)
	if m == nil {
		return nil, fmt.Errorf("kubectl: %T did not render as an object", obj)
	}
	fixTimes(m)
	if md, ok := m["metadata"].(map[string]any); ok {
		delete(md, "managedFields")
	}
	return m, nil
}

// fixTimes rewrites metav1.Time values: RFC 3339 at second precision in
// UTC, the zero time as null, and a zero creationTimestamp dropped
// (ObjectMeta's omitzero).
func fixTimes(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && timeFields[k] {
				t, err := time.Parse(time.RFC3339Nano, s)
				if err != nil {
					continue
				}
				if t.IsZero() {
					if k == "creationTimestamp" {
						delete(x, k)
					} else {
						x[k] = nil
					}
					continue
				}
				x[k] = t.UTC().Format(time.RFC3339)
				continue
			}
			fixTimes(val)
		}
	case []any:
		for _, e := range x {
			fixTimes(e)
		}
	}
}

// normalize turns decoded JSON or YAML values into unstructured's value
// types: json.Number and Go integers become int64 (float64 when not
// integral), maps with any keys become map[string]any.
func normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x)
		}
		return float64(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	}
	return v
}

// path returns the value at a chain of map keys, or nil.
func path(m map[string]any, keys ...string) any {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

// setDefault sets m[k] = v unless k is present.
func setDefault(m map[string]any, k string, v any) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// renderPodSpec completes holder["spec"] (a pod or a pod template) from
// the typed spec: volume sources and probe handlers kept as maps (the
// defaults the store leaves implicit, see RenderObject, are filled by
// renderObject once the unmodeled fields are merged). pod is true for a Pod (enableServiceLinks and
// serviceAccount are set on pods only).
func renderPodSpec(holder map[string]any, s *api.PodSpec, pod, serverDefaults bool) {
	spec, ok := holder["spec"].(map[string]any)
	if !ok {
		return
	}
	if pod && serverDefaults {
		setDefault(spec, "enableServiceLinks", true)
		if s.ServiceAccountName != "" {
			setDefault(spec, "serviceAccount", s.ServiceAccountName)
		}
	}
	if vols, ok := spec["volumes"].([]any); ok {
		for i, v := range vols {
			vm, ok := v.(map[string]any)
			if !ok || i >= len(s.Volumes) {
				continue
			}
			for k, src := range s.Volumes[i].Source {
				setDefault(vm, k, normalize(src))
			}
		}
	}
	for _, field := range []struct {
		name string
		cs   []api.Container
	}{{"initContainers", s.InitContainers}, {"containers", s.Containers}} {
		list, _ := spec[field.name].([]any)
		for i, c := range list {
			cm, ok := c.(map[string]any)
			if !ok || i >= len(field.cs) {
				continue
			}
			for _, p := range []struct {
				name  string
				probe *api.Probe
			}{{"readinessProbe", field.cs[i].ReadinessProbe}, {"livenessProbe", field.cs[i].LivenessProbe}} {
				if p.probe == nil {
					continue
				}
				if pm, ok := cm[p.name].(map[string]any); ok {
					for k, h := range p.probe.Handler {
						setDefault(pm, k, normalize(h))
					}
				}
			}
		}
	}
}

// defaultPodSpecMap fills, in a rendered pod spec, the defaults the
// store leaves implicit (pkg/apis/core/v1/defaults.go): securityContext
// {} (SetDefaults_PodSpec), terminationMessagePath and
// terminationMessagePolicy (SetDefaults_Container), an httpGet probe's
// path "/" and scheme HTTP (SetDefaults_HTTPGetAction), and the volume
// and downward API defaults of defaultVolumeMap and defaultFieldRefs.
func defaultPodSpecMap(spec map[string]any) {
	setDefault(spec, "securityContext", map[string]any{})
	vols, _ := spec["volumes"].([]any)
	for _, v := range vols {
		if vm, ok := v.(map[string]any); ok {
			defaultVolumeMap(vm)
		}
	}
	for _, field := range []string{"initContainers", "containers"} {
		list, _ := spec[field].([]any)
		for _, c := range list {
			cm, ok := c.(map[string]any)
			if !ok {
				continue
			}
			setDefault(cm, "terminationMessagePath", "/dev/termination-log")
			setDefault(cm, "terminationMessagePolicy", "File")
			env, _ := cm["env"].([]any)
			for _, e := range env {
				if vf, ok := path(asMap(e), "valueFrom").(map[string]any); ok {
					defaultFieldRefs(vf)
				}
			}
			for _, probe := range []string{"readinessProbe", "livenessProbe", "startupProbe"} {
				if hg, ok := path(cm, probe, "httpGet").(map[string]any); ok {
					setDefault(hg, "path", "/")
					setDefault(hg, "scheme", "HTTP")
				}
			}
		}
	}
}

// defaultVolumeMap fills a rendered volume's defaults: an emptyDir for a
// volume without a source (SetDefaults_Volume), defaultMode 0644 (420)
// on secret, configMap, downwardAPI and projected sources
// (SetDefaults_SecretVolumeSource, _ConfigMapVolumeSource,
// _DownwardAPIVolumeSource, _ProjectedVolumeSource), a projected
// serviceAccountToken's expirationSeconds 3600
// (SetDefaults_ServiceAccountTokenProjection), and the downward API items'
// field references (defaultFieldRefs).
func defaultVolumeMap(vm map[string]any) {
	if len(vm) == 1 && vm["name"] != nil {
		vm["emptyDir"] = map[string]any{}
		return
	}
	for _, kind := range []string{"secret", "configMap", "downwardAPI", "projected"} {
		if src, ok := vm[kind].(map[string]any); ok {
			setDefault(src, "defaultMode", int64(420))
		}
	}
	downwardItems := func(src any) {
		items, _ := path(asMap(src), "items").([]any)
		for _, it := range items {
			if im, ok := it.(map[string]any); ok {
				defaultFieldRefs(im)
			}
		}
	}
	downwardItems(vm["downwardAPI"])
	sources, _ := path(asMap(vm["projected"]), "sources").([]any)
	for _, ps := range sources {
		if sat, ok := path(asMap(ps), "serviceAccountToken").(map[string]any); ok {
			setDefault(sat, "expirationSeconds", int64(3600))
		}
		downwardItems(path(asMap(ps), "downwardAPI"))
	}
}

// defaultFieldRefs fills the field references of an env var's valueFrom
// or a downward API volume item: a fieldRef's apiVersion "v1"
// (SetDefaults_ObjectFieldSelector), and a resourceFieldRef's divisor,
// which the API server returns as "0" when unset (a zero
// resource.Quantity has no omitempty form).
func defaultFieldRefs(m map[string]any) {
	if fr, ok := m["fieldRef"].(map[string]any); ok {
		setDefault(fr, "apiVersion", "v1")
	}
	if rf, ok := m["resourceFieldRef"].(map[string]any); ok {
		setDefault(rf, "divisor", "0")
	}
}

// asMap is v as a map, or nil.
func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// renderPodStatus fixes the pod status to k8s.io/api's shape: the
// container status's lastState (the playground's struct names it
// lastTerminationState), hostIPs and podIPs beside hostIP and podIP (the
// kubelet sets both), and each container status's volumeMounts
// (recursiveReadOnly Disabled), as the kubelet reports them since 1.30.
func renderPodStatus(m map[string]any, p *api.Pod) {
	st, ok := m["status"].(map[string]any)
	if !ok {
		return
	}
	if p.Status.HostIP != "" {
		setDefault(st, "hostIPs", []any{map[string]any{"ip": p.Status.HostIP}})
	}
	if p.Status.PodIP != "" {
		setDefault(st, "podIPs", []any{map[string]any{"ip": p.Status.PodIP}})
	}
	if inits, ok := st["initContainerStatuses"].([]any); ok {
		for _, c := range inits {
			if cm, ok := c.(map[string]any); ok {
				if ls, ok := cm["lastTerminationState"]; ok {
					delete(cm, "lastTerminationState")
					cm["lastState"] = ls
				}
			}
		}
	}
	list, _ := st["containerStatuses"].([]any)
	for _, c := range list {
		cm, ok := c.(map[string]any)
		if !ok {
			continue
		}
		if ls, ok := cm["lastTerminationState"]; ok {
			delete(cm, "lastTerminationState")
			cm["lastState"] = ls
		}
		name, _ := cm["name"].(string)
		for _, spec := range p.Spec.Containers {
			if spec.Name != name || len(spec.VolumeMounts) == 0 {
				continue
			}
			var mounts []any
			for _, vm := range spec.VolumeMounts {
				mm := map[string]any{"mountPath": vm.MountPath, "name": vm.Name}
				if vm.ReadOnly {
					mm["readOnly"] = true
					mm["recursiveReadOnly"] = "Disabled"
				}
				mounts = append(mounts, mm)
			}
			setDefault(cm, "volumeMounts", mounts)
		}
	}
}

// mergeUnmodeled puts the unmodeled fields back at their paths ("" is the
// object itself, "spec.template.spec.containers[0]" a container). A field
// the playground models always wins over a stale unmodeled copy.
func mergeUnmodeled(root map[string]any, extra api.Unmodeled) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	// parents first, so that a nested path finds the map its parent added
	sort.Strings(keys)
	for _, k := range keys {
		target := lookupOrCreate(root, k)
		if target == nil {
			continue
		}
		for f, v := range extra[k] {
			setDefault(target, f, normalize(v))
		}
	}
}

// lookupOrCreate walks a dotted path with [i] list indexes, creating
// missing maps (never list elements); nil when the path cannot be reached.
func lookupOrCreate(root map[string]any, p string) map[string]any {
	cur := root
	if p == "" {
		return cur
	}
	for _, seg := range strings.Split(p, ".") {
		name, idx := seg, -1
		if i := strings.IndexByte(seg, '['); i >= 0 && strings.HasSuffix(seg, "]") {
			n, err := strconv.Atoi(seg[i+1 : len(seg)-1])
			if err != nil {
				return nil
			}
			name, idx = seg[:i], n
		}
		next, ok := cur[name]
		if !ok {
			if idx >= 0 {
				return nil
			}
			nm := map[string]any{}
			cur[name] = nm
			cur = nm
			continue
		}
		if idx >= 0 {
			l, ok := next.([]any)
			if !ok || idx >= len(l) {
				return nil
			}
			next = l[idx]
		}
		nm, ok := next.(map[string]any)
		if !ok {
			return nil
		}
		cur = nm
	}
	return cur
}

// MarshalYAML renders v as `kubectl get -o yaml` does: as sigs.k8s.io/yaml
// v1.6.0 does (JSON first, then YAML with keys sorted and sequences not
// indented under their key), through internal/sigsyaml, its rewrite over
// yaml.v3. v is usually RenderObject's map.
func MarshalYAML(v any) (string, error) {
	b, err := sigsyaml.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// MarshalJSON renders v as `kubectl get -o json` does (cli-runtime
// JSONPrinter: json.MarshalIndent with four spaces, a trailing newline;
// map keys sorted, HTML characters escaped as \u003c).
func MarshalJSON(v any) (string, error) {
	b, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return "", err
	}
	return string(b) + "\n", nil
}

// listObject wraps rendered items the way get's printGeneric does for
// zero or several items: a v1 List with an empty resourceVersion.
func listObject(items []map[string]any) map[string]any {
	l := make([]any, len(items))
	for i, it := range items {
		l[i] = it
	}
	return map[string]any{
		"apiVersion": "v1",
		"kind":       "List",
		"items":      l,
		"metadata":   map[string]any{"resourceVersion": ""},
	}
}

// DecodeObject turns a rendered object (RenderObject's shape, possibly
// patched or edited) back into a typed object through the manifest decoder,
// so that it gets the same strict field checks, defaults and validation as
// `kubectl apply` would. filename names it in errors. The result is
// *api.DaemonSet, *api.Pod, *api.Node or *api.Namespace; errors are
// *manifest.Error.
func DecodeObject(filename string, m map[string]any) (any, error) {
	text, err := MarshalYAML(m)
	if err != nil {
		return nil, err
	}
	docs, err := manifest.Decode(filename, text)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if d.Object != nil {
			return d.Object, nil
		}
	}
	return nil, fmt.Errorf("%s: no object the playground simulates", filename)
}
