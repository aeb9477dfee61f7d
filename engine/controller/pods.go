package controller

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// GetTargetNodeName mirrors util.GetTargetNodeName: spec.nodeName when set,
// else the single value of the first `metadata.name In [...]` matchFields
// requirement of the pod's required node affinity. The error says why
// neither was found, in upstream's words.
func GetTargetNodeName(pod *api.Pod) (string, error) {
	if pod.Spec.NodeName != "" {
		return pod.Spec.NodeName, nil
	}
	ns := api.RequiredNodeSelector(&pod.Spec)
	if ns == nil {
		return "", fmt.Errorf("no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod %s/%s", pod.Namespace, pod.Name)
	}
	if len(ns.NodeSelectorTerms) < 1 {
		return "", fmt.Errorf("no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod %s/%s", pod.Namespace, pod.Name)
	}
	for _, term := range ns.NodeSelectorTerms {
		for _, exp := range term.MatchFields {
			if exp.Key == api.NodeFieldName && exp.Operator == api.SelectorOpIn {
				if len(exp.Values) != 1 {
					return "", fmt.Errorf("the matchFields value of '%s' is not unique for pod %s/%s", api.NodeFieldName, pod.Namespace, pod.Name)
				}
				return exp.Values[0], nil
			}
		}
	}
	return "", fmt.Errorf("no node name found for pod %s/%s", pod.Namespace, pod.Name)
}

// podByCreationTimestampAndPhase mirrors the upstream sort of that name
// (despite the name, the phase plays no part): bound pods first, then older
// creationTimestamp, then smaller name.
func podByCreationTimestampAndPhase(pods []*api.Pod) {
	if len(pods) < 2 {
		return
	}
	sort.SliceStable(pods, func(i, j int) bool { return PodLess(pods[i], pods[j]) })
}

// PodLess reports whether a sorts before b in podByCreationTimestampAndPhase
// order: bound before unbound, then older creationTimestamp, then smaller
// name. The first pod of a node in this order is the one the status counts.
func PodLess(a, b *api.Pod) bool {
	if (a.Spec.NodeName != "") != (b.Spec.NodeName != "") {
		return a.Spec.NodeName != ""
	}
	if !a.CreationTimestamp.Equal(b.CreationTimestamp) {
		return a.CreationTimestamp.Before(b.CreationTimestamp)
	}
	return a.Name < b.Name
}

// newControllerRef mirrors metav1.NewControllerRef(ds, apps/v1 DaemonSet).
func newControllerRef(ds *api.DaemonSet) api.OwnerReference {
	return api.OwnerReference{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID,
		Controller: api.BoolPtr(true), BlockOwnerDeletion: api.BoolPtr(true)}
}

// GetTemplateGeneration mirrors util.GetTemplateGeneration: the DaemonSet's
// deprecated.daemonset.template.generation annotation, or nil when absent
// or not an integer.
func GetTemplateGeneration(ds *api.DaemonSet) *int64 {
	s, ok := ds.Annotations[api.DeprecatedTemplateGenerationAnnotation]
	if !ok {
		return nil
	}
	g, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil
	}
	return &g
}

// IsPodUpdated mirrors util.IsPodUpdated: the pod carries the current
// controller-revision-hash, or its pod-template-generation label equals the
// DaemonSet's template generation.
func IsPodUpdated(pod *api.Pod, hash string, dsTemplateGeneration *int64) bool {
	if dsTemplateGeneration != nil {
		if pod.Labels[api.DaemonSetTemplateGenerationKey] == strconv.FormatInt(*dsTemplateGeneration, 10) {
			return true
		}
	}
	return hash != "" && pod.Labels[api.ControllerRevisionHashLabelKey] == hash
}

// templateGeneration is a DaemonSet's template generation parsed once per
// sync, with the label value IsPodUpdated compares against.
type templateGeneration struct {
	set   bool
	label string
}

func newTemplateGeneration(g *int64) templateGeneration {
	if g == nil {
		return templateGeneration{}
	}
	return templateGeneration{set: true, label: strconv.FormatInt(*g, 10)}
}

// isPodUpdated is IsPodUpdated with the generation formatted once.
func (g templateGeneration) isPodUpdated(pod *api.Pod, hash string) bool {
	if g.set && pod.Labels[api.DaemonSetTemplateGenerationKey] == g.label {
		return true
	}
	return hash != "" && pod.Labels[api.ControllerRevisionHashLabelKey] == hash
}

// CreatePodTemplate mirrors util.CreatePodTemplate: a copy of the template
// whose labels gain pod-template-generation (when the DaemonSet has a
// template generation) and controller-revision-hash (when hash is not
// empty), and whose spec gains the default daemon tolerations.
func CreatePodTemplate(template *api.PodTemplateSpec, generation *int64, hash string) api.PodTemplateSpec {
	t := api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{
		Labels:      copyMap(template.Labels),
		Annotations: copyMap(template.Annotations),
		Finalizers:  append([]string(nil), template.Finalizers...),
	}, Spec: copyPodSpec(&template.Spec)}
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	if generation != nil {
		t.Labels[api.DaemonSetTemplateGenerationKey] = strconv.FormatInt(*generation, 10)
	}
	if hash != "" {
		t.Labels[api.ControllerRevisionHashLabelKey] = hash
	}
	AddOrUpdateDaemonPodTolerations(&t.Spec)
	return t
}

// ReplaceDaemonSetPodNodeNameNodeAffinity mirrors the upstream function of
// that name: the required node affinity becomes exactly one term
// `metadata.name In [nodeName]`; preferred terms and the rest of the
// affinity are kept. It returns the (possibly new) affinity.
func ReplaceDaemonSetPodNodeNameNodeAffinity(affinity *api.Affinity, nodeName string) *api.Affinity {
	term := api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: api.NodeFieldName, Operator: api.SelectorOpIn, Values: []string{nodeName}}}}
	if affinity == nil {
		affinity = &api.Affinity{}
	}
	if affinity.NodeAffinity == nil {
		affinity.NodeAffinity = &api.NodeAffinity{}
	}
	affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{term}}
	return affinity
}

// newDaemonPod builds the pod syncNodes creates for node (GetPodFromTemplate
// on the CreatePodTemplate result, with the node-name affinity).
func newDaemonPod(ds *api.DaemonSet, template *api.PodTemplateSpec, nodeName string) *api.Pod {
	prefix := ds.Name + "-"
	if len(strings.TrimSuffix(prefix, "-")) == 0 {
		prefix = ds.Name
	}
	spec := copyPodSpec(&template.Spec)
	spec.Affinity = ReplaceDaemonSetPodNodeNameNodeAffinity(spec.Affinity, nodeName)
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{
			GenerateName:    prefix,
			Namespace:       ds.Namespace,
			Labels:          copyMap(template.Labels),
			Annotations:     copyMap(template.Annotations),
			Finalizers:      append([]string(nil), template.Finalizers...),
			OwnerReferences: []api.OwnerReference{newControllerRef(ds)},
		},
		Spec: spec,
	}
	p.Status.QOSClass = api.GetPodQOS(&p.Spec)
	if len(ds.Extra) > 0 {
		for k, v := range ds.Extra {
			if rest, ok := strings.CutPrefix(k, "spec.template."); ok {
				if p.Extra == nil {
					p.Extra = api.Unmodeled{}
				}
				p.Extra[rest] = v
			}
		}
	}
	return p
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyResources(r api.ResourceList) api.ResourceList {
	if r == nil {
		return nil
	}
	out := make(api.ResourceList, len(r))
	for k, v := range r {
		out[k] = v
	}
	return out
}

func copyContainers(cs []api.Container) []api.Container {
	if cs == nil {
		return nil
	}
	out := make([]api.Container, len(cs))
	for i, c := range cs {
		c.Command = append([]string(nil), c.Command...)
		c.Args = append([]string(nil), c.Args...)
		c.Ports = append([]api.ContainerPort(nil), c.Ports...)
		c.Env = append([]api.EnvVar(nil), c.Env...)
		c.VolumeMounts = append([]api.VolumeMount(nil), c.VolumeMounts...)
		c.Resources = api.ResourceRequirements{Limits: copyResources(c.Resources.Limits), Requests: copyResources(c.Resources.Requests)}
		if c.ReadinessProbe != nil {
			p := *c.ReadinessProbe
			c.ReadinessProbe = &p
		}
		if c.LivenessProbe != nil {
			p := *c.LivenessProbe
			c.LivenessProbe = &p
		}
		out[i] = c
	}
	return out
}

func copyNodeSelector(ns *api.NodeSelector) *api.NodeSelector {
	if ns == nil {
		return nil
	}
	out := &api.NodeSelector{NodeSelectorTerms: make([]api.NodeSelectorTerm, len(ns.NodeSelectorTerms))}
	for i, t := range ns.NodeSelectorTerms {
		out.NodeSelectorTerms[i] = copyTerm(t)
	}
	return out
}

func copyTerm(t api.NodeSelectorTerm) api.NodeSelectorTerm {
	cp := func(rs []api.NodeSelectorRequirement) []api.NodeSelectorRequirement {
		if rs == nil {
			return nil
		}
		out := make([]api.NodeSelectorRequirement, len(rs))
		for i, r := range rs {
			r.Values = append([]string(nil), r.Values...)
			out[i] = r
		}
		return out
	}
	return api.NodeSelectorTerm{MatchExpressions: cp(t.MatchExpressions), MatchFields: cp(t.MatchFields)}
}

// copyPodSpec deep-copies the parts of a pod spec that components modify or
// that must not be shared between pods.
func copyPodSpec(s *api.PodSpec) api.PodSpec {
	out := *s
	out.Volumes = append([]api.Volume(nil), s.Volumes...)
	out.InitContainers = copyContainers(s.InitContainers)
	out.Containers = copyContainers(s.Containers)
	out.NodeSelector = copyMap(s.NodeSelector)
	out.Tolerations = append([]api.Toleration(nil), s.Tolerations...)
	if s.Affinity != nil {
		a := *s.Affinity
		if a.NodeAffinity != nil {
			na := api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: copyNodeSelector(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)}
			for _, p := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
				na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution, api.PreferredSchedulingTerm{Weight: p.Weight, Preference: copyTerm(p.Preference)})
			}
			a.NodeAffinity = &na
		}
		out.Affinity = &a
	}
	return out
}
