package cluster

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// The API server's warnings on writes (the registry strategies'
// WarningsOnCreate / WarningsOnUpdate, pkg/api/pod/warnings.go): strings
// the server sends back in Warning headers with a successful create or
// update, and kubectl prints as `Warning: <text>` on stderr. They are pure
// functions of the objects; whoever sends the request prints them (the
// DaemonSet controller's pods get them too, and nobody reads them).

// WarningsOnCreate returns the warnings of creating obj, in upstream's
// order: for a DaemonSet its pod template's (daemonSetStrategy
// WarningsOnCreate), for a Pod the AppArmor annotation warnings of
// PrepareForCreate (applyAppArmorVersionSkew), then podStrategy
// WarningsOnCreate's name warning and the pod's. Other kinds have none.
func WarningsOnCreate(obj any) []string {
	switch o := obj.(type) {
	case *api.DaemonSet:
		return podWarnings("spec.template", &o.Spec.Template.ObjectMeta, &o.Spec.Template.Spec, o.Extra)
	case *api.Pod:
		w := podAppArmorWarnings(o)
		// podStrategy.WarningsOnCreate
		if msgs := api.IsDNS1123Label(o.Name); len(msgs) != 0 {
			w = append(w, fmt.Sprintf("metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [%s]", strings.Join(msgs, " ")))
		}
		return append(w, podWarnings("", &o.ObjectMeta, &o.Spec, o.Extra)...)
	}
	return nil
}

// WarningsOnUpdate returns the warnings of updating old to obj: a
// DaemonSet's pod template warnings when the update changed the template
// (daemonSetStrategy.WarningsOnUpdate compares spec.templateGeneration;
// here the deprecated.daemonset.template.generation annotation the update
// bumped), none for pods (podStrategy.WarningsOnUpdate) and other kinds.
func WarningsOnUpdate(obj, old any) []string {
	ds, ok := obj.(*api.DaemonSet)
	if !ok {
		return nil
	}
	prev, ok := old.(*api.DaemonSet)
	if !ok || prev.Annotations[api.DeprecatedTemplateGenerationAnnotation] == ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] {
		return nil
	}
	return WarningsOnCreate(ds)
}

// deprecatedNodeLabels mirrors pkg/api/node/util.go deprecatedNodeLabels
// (GetNodeLabelDeprecatedMessage).
var deprecatedNodeLabels = map[string]string{
	`beta.kubernetes.io/arch`:                       `deprecated since v1.14; use "kubernetes.io/arch" instead`,
	`beta.kubernetes.io/os`:                         `deprecated since v1.14; use "kubernetes.io/os" instead`,
	`failure-domain.beta.kubernetes.io/region`:      `deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
	`failure-domain.beta.kubernetes.io/zone`:        `deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
	`beta.kubernetes.io/instance-type`:              `deprecated since v1.17; use "node.kubernetes.io/instance-type" instead`,
	`app.kubernetes.io/created-by`:                  `deprecated since v1.9`,
	`scheduler.alpha.kubernetes.io/preferAvoidPods`: `deprecated since v1.22; use Taints and Tolerations instead`,
	`node-role.kubernetes.io/master`:                `use "node-role.kubernetes.io/control-plane" instead`,
}

// deprecatedPodAnnotations mirrors pkg/api/pod/warnings.go
// deprecatedAnnotations, in its order.
var deprecatedPodAnnotations = []struct{ key, message string }{
	{`scheduler.alpha.kubernetes.io/critical-pod`, `non-functional in v1.16+; use the "priorityClassName" field instead`},
	{`security.alpha.kubernetes.io/sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
	{`security.alpha.kubernetes.io/unsafe-sysctls`, `non-functional in v1.11+; use the "sysctls" field instead`},
}

// deprecatedVolumePlugins are the volume sources warnings.go names, in its
// order, with their messages (gitRepo: the GitRepoVolumeDriver gate is off
// by default since v1.33).
var deprecatedVolumePlugins = []struct{ source, message string }{
	{"photonPersistentDisk", "deprecated in v1.11, non-functional in v1.16+"},
	{"gitRepo", "deprecated in v1.11, and disabled by default in v1.33+"},
	{"scaleIO", "deprecated in v1.16, non-functional in v1.22+"},
	{"flocker", "deprecated in v1.22, non-functional in v1.25+"},
	{"storageOS", "deprecated in v1.22, non-functional in v1.25+"},
	{"quobyte", "deprecated in v1.22, non-functional in v1.25+"},
	{"glusterfs", "deprecated in v1.25, non-functional in v1.26+"},
	{"cephfs", "deprecated in v1.28, non-functional in v1.31+"},
	{"rbd", "deprecated in v1.28, non-functional in v1.31+"},
}

// Annotation keys of pkg/apis/core (SeccompPodAnnotationKey,
// SeccompContainerAnnotationKeyPrefix, DeprecatedAppArmorAnnotationKeyPrefix).
const (
	seccompPodAnnotationKey             = "seccomp.security.alpha.kubernetes.io/pod"
	seccompContainerAnnotationKeyPrefix = "container.seccomp.security.alpha.kubernetes.io/"
	appArmorAnnotationKeyPrefix         = "container.apparmor.security.beta.kubernetes.io/"
)

// fieldPath builds field.Path strings: fieldPath("spec.template", "spec",
// "nodeSelector") is spec.template.spec.nodeSelector; an empty root is
// a pod's (field.Path nil).
func fieldPath(root string, children ...string) string {
	p := root
	for _, c := range children {
		if p == "" {
			p = c
		} else {
			p += "." + c
		}
	}
	return p
}

func fieldKey(p, k string) string       { return p + "[" + k + "]" }
func fieldIndex(p string, i int) string { return p + "[" + strconv.Itoa(i) + "]" }

// podContainer is a container with its field path and its unmodeled
// fields (pods.VisitContainersWithPath: init containers, then containers).
type podContainer struct {
	c     *api.Container
	path  string
	extra map[string]any
}

// visitContainers mirrors pods.VisitContainersWithPath.
func visitContainers(root string, spec *api.PodSpec, extra api.Unmodeled) []podContainer {
	var out []podContainer
	specPath := fieldPath(root, "spec")
	for _, list := range []struct {
		name string
		cs   []api.Container
	}{{"initContainers", spec.InitContainers}, {"containers", spec.Containers}} {
		for i := range list.cs {
			p := fieldIndex(fieldPath(specPath, list.name), i)
			out = append(out, podContainer{c: &list.cs[i], path: p, extra: extra[p]})
		}
	}
	return out
}

// podWarnings mirrors warningsForPodSpecAndMeta for what the playground
// models or keeps unmodeled: root is "spec.template" for a template and ""
// for a pod; extra holds the object's unmodeled fields by path. Map keys
// (nodeSelector, matchLabels) are visited sorted where upstream ranges
// over a Go map, so the order is deterministic.
func podWarnings(root string, meta *api.ObjectMeta, spec *api.PodSpec, extra api.Unmodeled) []string {
	var w []string
	specPath := fieldPath(root, "spec")
	specExtra := extra[specPath]

	// deprecated node labels in selectors, affinity, topology spread
	for _, k := range slices.Sorted(maps.Keys(spec.NodeSelector)) {
		if msg, ok := deprecatedNodeLabels[k]; ok {
			w = append(w, fmt.Sprintf("%s: %s", fieldKey(fieldPath(specPath, "nodeSelector"), k), msg))
		}
	}
	if spec.Affinity != nil && spec.Affinity.NodeAffinity != nil {
		na := spec.Affinity.NodeAffinity
		if na.RequiredDuringSchedulingIgnoredDuringExecution != nil {
			terms := fieldPath(specPath, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms")
			for i, t := range na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
				w = append(w, nodeSelectorTermWarnings(t, false, fieldIndex(terms, i))...)
			}
		}
		preferred := fieldPath(specPath, "affinity", "nodeAffinity", "preferredDuringSchedulingIgnoredDuringExecution")
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			w = append(w, nodeSelectorTermWarnings(t.Preference, true, fieldPath(fieldIndex(preferred, i), "preference"))...)
		}
	}
	for i, t := range spec.TopologySpreadConstraints {
		p := fieldIndex(fieldPath(specPath, "topologySpreadConstraints"), i)
		if msg, ok := deprecatedNodeLabels[t.TopologyKey]; ok {
			w = append(w, fmt.Sprintf("%s: %s is %s", fieldPath(p, "topologyKey"), t.TopologyKey, msg))
		}
		if t.LabelSelector == nil {
			w = append(w, fmt.Sprintf("%s: a null labelSelector results in matching no pod", fieldPath(p, "labelSelector")))
		}
	}

	// deprecated annotations
	annotations := fieldPath(root, "metadata", "annotations")
	for _, d := range deprecatedPodAnnotations {
		if _, ok := meta.Annotations[d.key]; ok {
			w = append(w, fmt.Sprintf("%s: %s", fieldKey(annotations, d.key), d.message))
		}
	}

	// deprecated and removed volume plugins
	for i, v := range spec.Volumes {
		for _, d := range deprecatedVolumePlugins {
			if v.Source[d.source] != nil {
				w = append(w, fmt.Sprintf("%s: %s", fieldPath(fieldIndex(fieldPath(specPath, "volumes"), i), d.source), d.message))
			}
		}
	}

	// duplicate hostAliases ips
	aliases, _ := specExtra["hostAliases"].([]any)
	if len(aliases) > 1 {
		seen := map[string]bool{}
		for i, a := range aliases {
			ip := stringField(a, "ip")
			if seen[ip] {
				w = append(w, fmt.Sprintf("%s: duplicate ip %q", fieldPath(fieldIndex(fieldPath(specPath, "hostAliases"), i), "ip"), ip))
			}
			seen[ip] = true
		}
	}
	// duplicate and empty imagePullSecrets names
	secrets, _ := specExtra["imagePullSecrets"].([]any)
	if len(secrets) > 1 {
		seen := map[string]bool{}
		for i, s := range secrets {
			name := stringField(s, "name")
			if seen[name] {
				w = append(w, fmt.Sprintf("%s: duplicate name %q", fieldPath(fieldIndex(fieldPath(specPath, "imagePullSecrets"), i), "name"), name))
			}
			seen[name] = true
		}
	}
	for i, s := range secrets {
		if name := stringField(s, "name"); name == "" {
			w = append(w, fmt.Sprintf("%s: invalid empty name %q", fieldPath(fieldIndex(fieldPath(specPath, "imagePullSecrets"), i), "name"), name))
		}
	}

	// the pod seccomp annotation without the field
	podSC, _ := specExtra["securityContext"].(map[string]any)
	if podSC["seccompProfile"] == nil {
		if _, ok := meta.Annotations[seccompPodAnnotationKey]; ok {
			w = append(w, fmt.Sprintf(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, fieldKey(annotations, seccompPodAnnotationKey)))
		}
	}
	containers := visitContainers(root, spec, extra)
	for _, pc := range containers {
		c := pc.c
		sc, _ := pc.extra["securityContext"].(map[string]any)
		if sc["seccompProfile"] == nil {
			if _, ok := meta.Annotations[seccompContainerAnnotationKeyPrefix+c.Name]; ok {
				w = append(w, fmt.Sprintf(`%s: non-functional in v1.27+; use the "seccompProfile" field instead`, fieldKey(annotations, seccompContainerAnnotationKeyPrefix+c.Name)))
			}
		}
		// AppArmor annotations of templates (a pod's are warned about
		// in PrepareForCreate: podAppArmorWarnings)
		if root != "" && sc["appArmorProfile"] == nil {
			k := appArmorAnnotationKeyPrefix + c.Name
			if a, ok := meta.Annotations[k]; ok && !appArmorMatches(podSC["appArmorProfile"], a) {
				w = append(w, fmt.Sprintf(`%s: deprecated since v1.30; use the "appArmorProfile" field instead`, fieldKey(annotations, k)))
			}
		}
		// fractional byte values of memory and ephemeral-storage
		for _, r := range []struct {
			field string
			list  api.ResourceList
			name  string
		}{{"limits", c.Resources.Limits, "memory"}, {"requests", c.Resources.Requests, "memory"},
			{"limits", c.Resources.Limits, "ephemeral-storage"}, {"requests", c.Resources.Requests, "ephemeral-storage"}} {
			if q, ok := r.list[r.name]; ok && q.Milli%1000 != 0 {
				w = append(w, fmt.Sprintf("%s: fractional byte value %q is invalid, must be an integer", fieldKey(fieldPath(pc.path, "resources", r.field), r.name), strconv.FormatInt(q.Milli, 10)+"m"))
			}
		}
		// duplicate env names
		if len(c.Env) > 1 {
			seen := map[string]bool{}
			for i, e := range c.Env {
				if !seen[e.Name] {
					seen[e.Name] = true
					continue
				}
				ref := "$(" + e.Name + ")"
				if e.ValueFrom != nil || e.Value == ref || !strings.Contains(e.Value, ref) {
					w = append(w, fmt.Sprintf("%s: hides previous definition of %q, which may be dropped when using apply", fieldIndex(fieldPath(pc.path, "env"), i), e.Name))
				}
			}
		}
	}

	// ports across containers
	type portBlock struct {
		field string
		port  api.ContainerPort
	}
	all := map[string][]portBlock{}
	for _, pc := range containers {
		for i, port := range pc.c.Ports {
			fld := fieldIndex(fieldPath(pc.path, "ports"), i)
			if port.HostIP != "" && port.HostPort == 0 {
				w = append(w, fmt.Sprintf("%s: hostIP set without hostPort: %+v", fld, port))
			}
			k := fmt.Sprintf("%d/%s", port.ContainerPort, port.Protocol)
			for _, other := range all[k] {
				switch a, b := port.HostIP == "", other.port.HostIP == ""; {
				case port.HostIP == other.port.HostIP && port.HostPort == other.port.HostPort:
					w = append(w, fmt.Sprintf("%s: duplicate port definition with %s", fld, other.field))
				case port.HostPort == 0 || other.port.HostPort == 0:
					w = append(w, fmt.Sprintf("%s: overlapping port definition with %s", fld, other.field))
				case port.HostPort == other.port.HostPort && (a || b) && !(a && b):
					w = append(w, fmt.Sprintf("%s: dangerously ambiguous port definition with %s", fld, other.field))
				}
			}
			all[k] = append(all[k], portBlock{fld, port})
		}
	}
	names := map[string]string{}
	for _, pc := range containers {
		for i, port := range pc.c.Ports {
			if port.Name == "" {
				continue
			}
			fld := fieldIndex(fieldPath(pc.path, "ports"), i)
			if other, ok := names[port.Name]; ok {
				w = append(w, fmt.Sprintf("%s: duplicate port name %q with %s, services and probes that select ports by name will use %s", fld, port.Name, other, other))
			} else {
				names[port.Name] = fld
			}
		}
	}

	if g := spec.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		w = append(w, fmt.Sprintf("%s: must be >= 0; negative values are invalid and will be treated as 1", fieldPath(specPath, "terminationGracePeriodSeconds")))
	}

	// pod (anti-)affinity terms without a labelSelector
	if a := spec.Affinity; a != nil {
		for _, pa := range []struct {
			name      string
			required  []api.PodAffinityTerm
			preferred []api.WeightedPodAffinityTerm
		}{
			{"podAffinity", podAffinityRequired(a.PodAffinity), podAffinityPreferred(a.PodAffinity)},
			{"podAntiAffinity", podAntiAffinityRequired(a.PodAntiAffinity), podAntiAffinityPreferred(a.PodAntiAffinity)},
		} {
			req := fieldPath(specPath, "affinity", pa.name, "requiredDuringSchedulingIgnoredDuringExecution")
			for i, t := range pa.required {
				if t.LabelSelector == nil {
					w = append(w, fmt.Sprintf("%s: a null labelSelector results in matching no pod", fieldPath(fieldIndex(req, i), "labelSelector")))
				}
			}
			pref := fieldPath(specPath, "affinity", pa.name, "preferredDuringSchedulingIgnoredDuringExecution")
			for i, t := range pa.preferred {
				if t.PodAffinityTerm.LabelSelector == nil {
					w = append(w, fmt.Sprintf("%s: a null labelSelector results in matching no pod", fieldPath(fieldIndex(pref, i), "podAffinityTerm", "labelSelector")))
				}
			}
		}
	}
	return w
}

func podAffinityRequired(a *api.PodAffinity) []api.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAffinityPreferred(a *api.PodAffinity) []api.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityRequired(a *api.PodAntiAffinity) []api.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityPreferred(a *api.PodAntiAffinity) []api.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

// nodeSelectorTermWarnings mirrors node.GetWarningsForNodeSelectorTerm:
// deprecated label keys in matchExpressions and, for preferred terms,
// values that are not valid label values.
func nodeSelectorTermWarnings(t api.NodeSelectorTerm, checkValues bool, p string) []string {
	var w []string
	for i, e := range t.MatchExpressions {
		ep := fieldIndex(fieldPath(p, "matchExpressions"), i)
		if msg, ok := deprecatedNodeLabels[e.Key]; ok {
			w = append(w, fmt.Sprintf("%s: %s is %s", fieldPath(ep, "key"), e.Key, msg))
		}
		if checkValues {
			for j, v := range e.Values {
				for _, msg := range api.IsValidLabelValue(v) {
					w = append(w, fmt.Sprintf("%s: %s is invalid, %s", fieldIndex(fieldPath(ep, "values"), j), v, msg))
				}
			}
		}
	}
	return w
}

// podAppArmorWarnings mirrors the warning of applyAppArmorVersionSkew
// (pod strategy PrepareForCreate): a container's AppArmor annotation
// without the container field, unless it names the pod-level profile.
func podAppArmorWarnings(p *api.Pod) []string {
	var w []string
	podSC, _ := p.Extra["spec"]["securityContext"].(map[string]any)
	for _, pc := range visitContainers("", &p.Spec, p.Extra) {
		k := appArmorAnnotationKeyPrefix + pc.c.Name
		a, ok := p.Annotations[k]
		sc, _ := pc.extra["securityContext"].(map[string]any)
		if !ok || sc["appArmorProfile"] != nil {
			continue
		}
		if !appArmorMatches(podSC["appArmorProfile"], a) {
			w = append(w, fmt.Sprintf(`%s: deprecated since v1.30; use the "appArmorProfile" field instead`, fieldKey("metadata.annotations", k)))
		}
	}
	return w
}

// appArmorMatches reports whether the pod-level appArmorProfile (as
// written) equals the field the annotation converts to
// (ApparmorFieldForAnnotation: runtime/default, unconfined,
// localhost/<profile>; anything else converts to nothing).
func appArmorMatches(profile any, annotation string) bool {
	pm, ok := profile.(map[string]any)
	if !ok {
		return false
	}
	var want map[string]any
	switch {
	case annotation == "runtime/default":
		want = map[string]any{"type": "RuntimeDefault"}
	case annotation == "unconfined":
		want = map[string]any{"type": "Unconfined"}
	case strings.HasPrefix(annotation, "localhost/"):
		want = map[string]any{"type": "Localhost", "localhostProfile": strings.TrimPrefix(annotation, "localhost/")}
	default:
		return false
	}
	return reflect.DeepEqual(pm, want)
}

func stringField(v any, k string) string {
	m, _ := v.(map[string]any)
	s, _ := m[k].(string)
	return s
}
