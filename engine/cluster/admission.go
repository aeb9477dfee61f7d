package cluster

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// Built-in PriorityClasses the API server creates at startup
// (pkg/apis/scheduling SystemPriorityClasses). No class is globalDefault.
const (
	// SystemNodeCritical is the priority of class system-node-critical.
	SystemNodeCritical int32 = 2000001000
	// SystemClusterCritical is the priority of class system-cluster-critical.
	SystemClusterCritical int32 = 2000000000
	// DefaultPriorityWhenNoDefaultClassExists is the priority of a pod
	// without priorityClassName when no class is globalDefault.
	DefaultPriorityWhenNoDefaultClassExists int32 = 0
	// PreemptLowerPriority is the default preemptionPolicy of a class.
	PreemptLowerPriority = "PreemptLowerPriority"
)

// priorityClasses are the PriorityClasses of the simulated cluster: only
// the two built-in ones (PriorityClass objects are not simulated).
var priorityClasses = map[string]int32{
	"system-node-critical":    SystemNodeCritical,
	"system-cluster-critical": SystemClusterCritical,
}

// Forbidden returns the admission error `<resource> "<name>" is forbidden:
// <msg>` (admission.NewForbidden: name is the object's name, or its
// generateName when the name is not generated yet).
func Forbidden(resource, name, msg string) error {
	return &StatusError{Reason: "Forbidden", Message: fmt.Sprintf("%s %q is forbidden: %s", resource, name, msg)}
}

// priorityClass is what the Priority admission plugin reads of a class.
type priorityClass struct {
	name             string
	value            int32
	globalDefault    bool
	preemptionPolicy string
}

// PriorityClassGroupResource is the resource of PriorityClass objects in
// the generic store.
const PriorityClassGroupResource = "priorityclasses.scheduling.k8s.io"

// lookupPriorityClass returns the class named name: a built-in one, or a
// PriorityClass object applied to the cluster.
func (c *Cluster) lookupPriorityClass(name string) (priorityClass, bool) {
	if v, ok := priorityClasses[name]; ok {
		return priorityClass{name: name, value: v, preemptionPolicy: PreemptLowerPriority}, true
	}
	if c == nil {
		return priorityClass{}, false
	}
	o := c.GenericObject(PriorityClassGroupResource, "", name)
	if o == nil {
		return priorityClass{}, false
	}
	return priorityClassOf(o), true
}

func priorityClassOf(o *api.GenericObject) priorityClass {
	pc := priorityClass{name: o.Name, preemptionPolicy: PreemptLowerPriority}
	switch v := o.Field("value").(type) {
	case int64:
		pc.value = int32(v)
	case float64:
		pc.value = int32(v)
	}
	pc.globalDefault, _ = o.Field("globalDefault").(bool)
	if pp, ok := o.Field("preemptionPolicy").(string); ok && pp != "" {
		pc.preemptionPolicy = pp
	}
	return pc
}

// defaultPriorityClass is the globalDefault class with the highest value
// (plugin/pkg/admission/priority getDefaultPriorityClass), if any.
func (c *Cluster) defaultPriorityClass() (priorityClass, bool) {
	var best priorityClass
	found := false
	if c == nil {
		return best, false
	}
	for _, o := range c.GenericObjects(PriorityClassGroupResource) {
		if pc := priorityClassOf(o); pc.globalDefault && (!found || pc.value > best.value) {
			best, found = pc, true
		}
	}
	return best, found
}

// AdmitPodPriority mirrors the Priority admission plugin's Admit for a pod
// create (plugin/pkg/admission/priority admission.go admitPod):
// priorityClassName is resolved to spec.priority and spec.preemptionPolicy,
// through the built-in classes and the PriorityClass objects applied to
// the cluster; an empty name gets the globalDefault class (its name, value
// and policy), else priority 0; an unknown name, or a priority or policy
// written in the spec that differs from the class's, is Forbidden. p is
// changed only when the result is nil.
func (c *Cluster) AdmitPodPriority(p *api.Pod) error {
	name := p.Name
	if name == "" {
		name = p.GenerateName
	}
	priority := DefaultPriorityWhenNoDefaultClassExists
	policy := PreemptLowerPriority
	className := p.Spec.PriorityClassName
	if className != "" {
		pc, ok := c.lookupPriorityClass(className)
		if !ok {
			return Forbidden("pods", name, fmt.Sprintf("no PriorityClass with name %s was found", className))
		}
		priority, policy = pc.value, pc.preemptionPolicy
	} else if pc, ok := c.defaultPriorityClass(); ok {
		className, priority, policy = pc.name, pc.value, pc.preemptionPolicy
	}
	if p.Spec.Priority != nil && *p.Spec.Priority != priority {
		return Forbidden("pods", name, fmt.Sprintf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *p.Spec.Priority, priority))
	}
	if pp := p.Spec.PreemptionPolicy; pp != nil && *pp != policy {
		return Forbidden("pods", name, fmt.Sprintf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pp, policy))
	}
	p.Spec.PriorityClassName = className
	p.Spec.Priority = &priority
	if p.Spec.PreemptionPolicy == nil {
		p.Spec.PreemptionPolicy = &policy
	}
	return nil
}

// Service account token volume constants (plugin/pkg/admission/serviceaccount).
const (
	// DefaultServiceAccountName is the service account a pod gets when it names none.
	DefaultServiceAccountName = "default"
	// ServiceAccountTokenMountPath is where the token volume is mounted.
	ServiceAccountTokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	// ServiceAccountVolumePrefix starts the token volume's generated name.
	ServiceAccountVolumePrefix = "kube-api-access-"
	// ServiceAccountTokenExpirationSeconds is the token's requested life
	// (warnafter 3600 s + 7 s, serviceaccount.WarnOnlyBoundTokenExpirationSeconds).
	ServiceAccountTokenExpirationSeconds = 3607
)

// automountServiceAccountToken mirrors the ServiceAccount admission
// plugin's shouldAutomount: spec.automountServiceAccountToken as written
// (kept in the pod's unmodeled fields) wins; otherwise the ServiceAccount's
// automountServiceAccountToken (sa may be nil); otherwise true.
func automountServiceAccountToken(p *api.Pod, sa *api.ServiceAccount) bool {
	if v, ok := p.Extra["spec"]["automountServiceAccountToken"].(bool); ok {
		return v
	}
	if sa != nil && sa.AutomountServiceAccountToken != nil {
		return *sa.AutomountServiceAccountToken
	}
	return true
}

// addImagePullSecrets mirrors the plugin's copy of the service account's
// imagePullSecrets into a pod that names none (Admit: `if
// len(pod.Spec.ImagePullSecrets) == 0`). The pod's spec.imagePullSecrets is
// kept in its unmodeled fields; the map holding it may be shared with the
// DaemonSet's template, so it is copied before the write.
func addImagePullSecrets(p *api.Pod, sa *api.ServiceAccount) {
	if sa == nil || len(sa.ImagePullSecrets) == 0 {
		return
	}
	if l, _ := p.Extra["spec"]["imagePullSecrets"].([]any); len(l) > 0 {
		return
	}
	spec := map[string]any{}
	for k, v := range p.Extra["spec"] {
		spec[k] = v
	}
	refs := make([]any, 0, len(sa.ImagePullSecrets))
	for _, r := range sa.ImagePullSecrets {
		refs = append(refs, map[string]any{"name": r.Name})
	}
	spec["imagePullSecrets"] = refs
	extra := api.Unmodeled{}
	for k, v := range p.Extra {
		extra[k] = v
	}
	extra["spec"] = spec
	p.Extra = extra
}

// CheckServiceAccount mirrors the ServiceAccount admission plugin's lookup
// for a pod create (plugin/pkg/admission/serviceaccount admission.go
// Admit, getServiceAccount): the pod's service account (an empty name is
// "default") must exist in its namespace, otherwise the pod is Forbidden:
// `pods "agent-" is forbidden: error looking up service account
// default/fluentd: serviceaccount "fluentd" not found` (podName is the
// pod's name, or its generateName before the name is generated).
func (c *Cluster) CheckServiceAccount(namespace, podName, serviceAccountName string) error {
	if serviceAccountName == "" {
		serviceAccountName = DefaultServiceAccountName
	}
	if c.ServiceAccount(namespace, serviceAccountName) != nil {
		return nil
	}
	return Forbidden("pods", podName, fmt.Sprintf("error looking up service account %s/%s: serviceaccount %q not found", namespace, serviceAccountName, serviceAccountName))
}

// AdmitServiceAccount mirrors the ServiceAccount admission plugin's Admit
// for a pod create (plugin/pkg/admission/serviceaccount): an empty
// serviceAccountName becomes "default"; unless automountServiceAccountToken
// is false, a projected volume kube-api-access-<5 random characters>
// (token, kube-root-ca.crt's ca.crt, the namespace) is added and mounted
// read-only at /var/run/secrets/kubernetes.io/serviceaccount in every
// container and init container that mounts nothing there. Whether the
// service account exists is CheckServiceAccount's question (CreatePod asks
// it first); the ServiceAccount's automountServiceAccountToken: false turns
// the token volume off unless the pod asks for it, and its
// imagePullSecrets are copied into a pod that has none.
func (c *Cluster) AdmitServiceAccount(p *api.Pod) {
	if p.Spec.ServiceAccountName == "" {
		p.Spec.ServiceAccountName = DefaultServiceAccountName
	}
	sa := c.ServiceAccount(p.Namespace, p.Spec.ServiceAccountName)
	addImagePullSecrets(p, sa)
	if !automountServiceAccountToken(p, sa) {
		return
	}
	for _, v := range p.Spec.Volumes {
		if strings.HasPrefix(v.Name, ServiceAccountVolumePrefix) && v.Source["projected"] != nil {
			return // already mounted (a pod re-created from its own manifest)
		}
	}
	name := ""
	for name == "" {
		name = c.GenerateName(ServiceAccountVolumePrefix)
		for _, v := range p.Spec.Volumes {
			if v.Name == name {
				name = ""
			}
		}
	}
	mounted := false
	for _, cs := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			has := false
			for _, m := range cs[i].VolumeMounts {
				if m.MountPath == ServiceAccountTokenMountPath {
					has = true
				}
			}
			if !has {
				cs[i].VolumeMounts = append(cs[i].VolumeMounts, api.VolumeMount{Name: name, ReadOnly: true, MountPath: ServiceAccountTokenMountPath})
				mounted = true
			}
		}
	}
	if !mounted {
		return
	}
	p.Spec.Volumes = append(p.Spec.Volumes, api.Volume{Name: name, Source: map[string]any{"projected": TokenVolumeSource()}})
}

// TokenVolumeSource is the projected volume source of the service account
// token volume (serviceaccount.TokenVolumeSource), as decoded YAML.
func TokenVolumeSource() map[string]any {
	return map[string]any{
		"defaultMode": int64(420),
		"sources": []any{
			map[string]any{"serviceAccountToken": map[string]any{"expirationSeconds": int64(ServiceAccountTokenExpirationSeconds), "path": "token"}},
			map[string]any{"configMap": map[string]any{"name": "kube-root-ca.crt", "items": []any{map[string]any{"key": "ca.crt", "path": "ca.crt"}}}},
			map[string]any{"downwardAPI": map[string]any{"items": []any{map[string]any{
				"fieldRef": map[string]any{"apiVersion": "v1", "fieldPath": "metadata.namespace"}, "path": "namespace"}}}},
		},
	}
}

// KeepAdmitted copies into spec, the pod spec of a manifest applied over
// live, what pod admission added to live and the manifest leaves unset
// (serviceAccountName, priority, preemptionPolicy, the token volume and its
// mounts), as kubectl apply's patch keeps fields it does not name.
func KeepAdmitted(live, spec *api.PodSpec) {
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = live.ServiceAccountName
	}
	if spec.Priority == nil {
		spec.Priority = live.Priority
	}
	if spec.PreemptionPolicy == nil {
		spec.PreemptionPolicy = live.PreemptionPolicy
	}
	token := ""
	for _, v := range live.Volumes {
		if strings.HasPrefix(v.Name, ServiceAccountVolumePrefix) && v.Source["projected"] != nil {
			token = v.Name
			has := false
			for _, w := range spec.Volumes {
				has = has || w.Name == v.Name
			}
			if !has {
				spec.Volumes = append(spec.Volumes, v)
			}
		}
	}
	if token == "" {
		return
	}
	for _, pair := range [][2][]api.Container{{live.InitContainers, spec.InitContainers}, {live.Containers, spec.Containers}} {
		for i := range pair[1] {
			if i >= len(pair[0]) {
				break
			}
			for _, m := range pair[0][i].VolumeMounts {
				if m.Name != token {
					continue
				}
				has := false
				for _, n := range pair[1][i].VolumeMounts {
					has = has || n.Name == token
				}
				if !has {
					pair[1][i].VolumeMounts = append(pair[1][i].VolumeMounts, m)
				}
			}
		}
	}
}
