package schema

import "strings"

// Resource is one resource a v1.37 kube-apiserver serves by default, as
// discovery lists it (`kubectl api-resources`): kubectl's RESTMapper maps a
// manifest's apiVersion and kind through this list, and a pair not in it
// is `no matches for kind "X" in version "g/v"`.
type Resource struct {
	Group, Version, Kind string
	// Resource is the plural resource name ("daemonsets").
	Resource string
	// ShortNames are discovery's short names ("ds").
	ShortNames []string
	// Namespaced is true for resources that live in a namespace.
	Namespaced bool
}

// APIVersion is Group/Version, or Version for the core group.
func (r *Resource) APIVersion() string {
	if r.Group == "" {
		return r.Version
	}
	return r.Group + "/" + r.Version
}

// GroupResource is "daemonsets.apps" ("pods" for the core group), as the
// API server names a resource in its errors.
func (r *Resource) GroupResource() string {
	if r.Group == "" {
		return r.Resource
	}
	return r.Resource + "." + r.Group
}

// QualifiedKind is "DaemonSet.apps" ("Pod" for the core group), as
// schema.GroupKind.String() names a kind in Invalid errors.
func (r *Resource) QualifiedKind() string {
	if r.Group == "" {
		return r.Kind
	}
	return r.Kind + "." + r.Group
}

// served is the default discovery document of a v1.37.2 kube-apiserver
// (the GA group versions of pkg/controlplane DefaultAPIResourceConfigSource,
// no beta or alpha version is enabled by default), as `kubectl
// api-resources` and `kubectl api-versions` of a real v1.37.2 control
// plane list it (autoscaling/v1 is served beside the preferred v2). Subresource-only
// kinds (Binding, Eviction, TokenRequest, Scale) and the review kinds that
// only take a create (TokenReview, SubjectAccessReview ...) are listed as
// discovery lists them.
var served = []Resource{
	{"", "v1", "Binding", "bindings", nil, true},
	{"", "v1", "ComponentStatus", "componentstatuses", []string{"cs"}, false},
	{"", "v1", "ConfigMap", "configmaps", []string{"cm"}, true},
	{"", "v1", "Endpoints", "endpoints", []string{"ep"}, true},
	{"", "v1", "Event", "events", []string{"ev"}, true},
	{"", "v1", "LimitRange", "limitranges", []string{"limits"}, true},
	{"", "v1", "Namespace", "namespaces", []string{"ns"}, false},
	{"", "v1", "Node", "nodes", []string{"no"}, false},
	{"", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", []string{"pvc"}, true},
	{"", "v1", "PersistentVolume", "persistentvolumes", []string{"pv"}, false},
	{"", "v1", "Pod", "pods", []string{"po"}, true},
	{"", "v1", "PodTemplate", "podtemplates", nil, true},
	{"", "v1", "ReplicationController", "replicationcontrollers", []string{"rc"}, true},
	{"", "v1", "ResourceQuota", "resourcequotas", []string{"quota"}, true},
	{"", "v1", "Secret", "secrets", nil, true},
	{"", "v1", "ServiceAccount", "serviceaccounts", []string{"sa"}, true},
	{"", "v1", "Service", "services", []string{"svc"}, true},
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicy", "mutatingadmissionpolicies", nil, false},
	{"admissionregistration.k8s.io", "v1", "MutatingAdmissionPolicyBinding", "mutatingadmissionpolicybindings", nil, false},
	{"admissionregistration.k8s.io", "v1", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations", nil, false},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy", "validatingadmissionpolicies", nil, false},
	{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings", nil, false},
	{"admissionregistration.k8s.io", "v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", nil, false},
	{"apiextensions.k8s.io", "v1", "CustomResourceDefinition", "customresourcedefinitions", []string{"crd", "crds"}, false},
	{"apiregistration.k8s.io", "v1", "APIService", "apiservices", nil, false},
	{"apps", "v1", "ControllerRevision", "controllerrevisions", nil, true},
	{"apps", "v1", "DaemonSet", "daemonsets", []string{"ds"}, true},
	{"apps", "v1", "Deployment", "deployments", []string{"deploy"}, true},
	{"apps", "v1", "ReplicaSet", "replicasets", []string{"rs"}, true},
	{"apps", "v1", "StatefulSet", "statefulsets", []string{"sts"}, true},
	{"authentication.k8s.io", "v1", "SelfSubjectReview", "selfsubjectreviews", nil, false},
	{"authentication.k8s.io", "v1", "TokenReview", "tokenreviews", nil, false},
	{"authorization.k8s.io", "v1", "LocalSubjectAccessReview", "localsubjectaccessreviews", nil, true},
	{"authorization.k8s.io", "v1", "SelfSubjectAccessReview", "selfsubjectaccessreviews", nil, false},
	{"authorization.k8s.io", "v1", "SelfSubjectRulesReview", "selfsubjectrulesreviews", nil, false},
	{"authorization.k8s.io", "v1", "SubjectAccessReview", "subjectaccessreviews", nil, false},
	{"autoscaling", "v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", []string{"hpa"}, true},
	{"autoscaling", "v1", "HorizontalPodAutoscaler", "horizontalpodautoscalers", []string{"hpa"}, true},
	{"batch", "v1", "CronJob", "cronjobs", []string{"cj"}, true},
	{"batch", "v1", "Job", "jobs", nil, true},
	{"certificates.k8s.io", "v1", "CertificateSigningRequest", "certificatesigningrequests", []string{"csr"}, false},
	{"certificates.k8s.io", "v1", "ClusterTrustBundle", "clustertrustbundles", nil, false},
	{"certificates.k8s.io", "v1", "PodCertificateRequest", "podcertificaterequests", nil, true},
	{"coordination.k8s.io", "v1", "Lease", "leases", nil, true},
	{"discovery.k8s.io", "v1", "EndpointSlice", "endpointslices", nil, true},
	{"events.k8s.io", "v1", "Event", "events", []string{"ev"}, true},
	{"flowcontrol.apiserver.k8s.io", "v1", "FlowSchema", "flowschemas", nil, false},
	{"flowcontrol.apiserver.k8s.io", "v1", "PriorityLevelConfiguration", "prioritylevelconfigurations", nil, false},
	{"networking.k8s.io", "v1", "IngressClass", "ingressclasses", nil, false},
	{"networking.k8s.io", "v1", "Ingress", "ingresses", []string{"ing"}, true},
	{"networking.k8s.io", "v1", "IPAddress", "ipaddresses", []string{"ip"}, false},
	{"networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies", []string{"netpol"}, true},
	{"networking.k8s.io", "v1", "ServiceCIDR", "servicecidrs", nil, false},
	{"node.k8s.io", "v1", "RuntimeClass", "runtimeclasses", nil, false},
	{"policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", []string{"pdb"}, true},
	{"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings", nil, false},
	{"rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", nil, false},
	{"rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", nil, true},
	{"rbac.authorization.k8s.io", "v1", "Role", "roles", nil, true},
	{"resource.k8s.io", "v1", "DeviceClass", "deviceclasses", nil, false},
	{"resource.k8s.io", "v1", "DeviceTaintRule", "devicetaintrules", nil, false},
	{"resource.k8s.io", "v1", "ResourceClaim", "resourceclaims", nil, true},
	{"resource.k8s.io", "v1", "ResourceClaimTemplate", "resourceclaimtemplates", nil, true},
	{"resource.k8s.io", "v1", "ResourceSlice", "resourceslices", nil, false},
	{"scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", []string{"pc"}, false},
	{"storage.k8s.io", "v1", "CSIDriver", "csidrivers", nil, false},
	{"storage.k8s.io", "v1", "CSINode", "csinodes", nil, false},
	{"storage.k8s.io", "v1", "CSIStorageCapacity", "csistoragecapacities", nil, true},
	{"storage.k8s.io", "v1", "StorageClass", "storageclasses", []string{"sc"}, false},
	{"storage.k8s.io", "v1", "VolumeAttachment", "volumeattachments", nil, false},
	{"storage.k8s.io", "v1", "VolumeAttributesClass", "volumeattributesclasses", []string{"vac"}, false},
	{"storagemigration.k8s.io", "v1", "StorageVersionMigration", "storageversionmigrations", nil, false},
}

// Served returns every resource a v1.37 API server serves by default, in
// discovery's order (core group first, then groups by name).
func Served() []Resource { return served }

// ServedKind returns the served resource of apiVersion ("apps/v1", "v1")
// and kind ("DaemonSet"), matched exactly as kubectl's RESTMapper matches
// a manifest's kind (case-sensitively); ok is false for a pair the API
// server does not serve (a removed version such as extensions/v1beta1, a
// beta version that is off by default, a misspelt kind).
func ServedKind(apiVersion, kind string) (*Resource, bool) {
	for i := range served {
		r := &served[i]
		if r.Kind == kind && r.APIVersion() == apiVersion {
			return r, true
		}
	}
	return nil, false
}

// ServedResource returns the served resource that name (a plural, singular
// or short name, case-insensitively, optionally qualified by its group:
// "roles.rbac.authorization.k8s.io") names, preferring the first version
// discovery lists; ok is false when no served resource matches.
func ServedResource(name string) (*Resource, bool) {
	name = strings.ToLower(name)
	res, group, _ := strings.Cut(name, ".")
	for i := range served {
		r := &served[i]
		if group != "" && r.Group != group {
			continue
		}
		if r.Resource == res || strings.ToLower(r.Kind) == res {
			return r, true
		}
		for _, s := range r.ShortNames {
			if s == res {
				return r, true
			}
		}
	}
	return nil, false
}
