package kubectl

import (
	"fmt"
	"strings"
)

// resourceType is an API resource the playground serves (a RESTMapping).
type resourceType struct {
	// resource is the plural name ("daemonsets"); group is "" or "apps".
	resource, group, version string
	kind                     string
	shortNames               []string
	namespaced               bool
	verbs                    []string
	categories               []string
}

// kindString is the name printer's "<lower kind>[.<group>]" (daemonset.apps, pod).
func (r *resourceType) kindString() string {
	if r.group == "" {
		return strings.ToLower(r.kind)
	}
	return strings.ToLower(r.kind) + "." + r.group
}

// groupResource is "<resource>[.<group>]" as API errors name it (daemonsets.apps, pods).
func (r *resourceType) groupResource() string {
	if r.group == "" {
		return r.resource
	}
	return r.resource + "." + r.group
}

// gvrString mirrors schema.GroupVersionResource.String(): "apps/v1, Resource=daemonsets".
func (r *resourceType) gvrString() string {
	gv := r.version
	if r.group != "" {
		gv = r.group + "/" + r.version
	} else {
		gv = "/" + r.version
	}
	return gv + ", Resource=" + r.resource
}

func (r *resourceType) apiVersion() string {
	if r.group == "" {
		return r.version
	}
	return r.group + "/" + r.version
}

var (
	rtDaemonSets = &resourceType{resource: "daemonsets", group: "apps", version: "v1", kind: "DaemonSet",
		shortNames: []string{"ds"}, namespaced: true,
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}, categories: []string{"all"}}
	rtPods = &resourceType{resource: "pods", version: "v1", kind: "Pod", shortNames: []string{"po"}, namespaced: true,
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}, categories: []string{"all"}}
	rtNodes = &resourceType{resource: "nodes", version: "v1", kind: "Node", shortNames: []string{"no"},
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}
	rtControllerRevisions = &resourceType{resource: "controllerrevisions", group: "apps", version: "v1", kind: "ControllerRevision", namespaced: true,
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}
	rtNamespaces = &resourceType{resource: "namespaces", version: "v1", kind: "Namespace", shortNames: []string{"ns"},
		verbs: []string{"create", "delete", "get", "list", "patch", "update", "watch"}}
	rtEvents = &resourceType{resource: "events", version: "v1", kind: "Event", shortNames: []string{"ev"}, namespaced: true,
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}

	// resourceTypes in api-resources order (group, then name).
	resourceTypes = []*resourceType{rtConfigMaps, rtEvents, rtNamespaces, rtNodes, rtPods, rtSecrets, rtServiceAccounts, rtControllerRevisions, rtDaemonSets}
)

// otherKnownResources are resource names of a real cluster that the
// playground does not simulate: asking for them gets an honest error rather
// than the server's "doesn't have a resource type".
var otherKnownResources = map[string]string{
	"deployments": "deployments", "deployment": "deployments", "deploy": "deployments",
	"replicasets": "replicasets", "replicaset": "replicasets", "rs": "replicasets",
	"statefulsets": "statefulsets", "statefulset": "statefulsets", "sts": "statefulsets",
	"services": "services", "service": "services", "svc": "services",
	"jobs": "jobs", "job": "jobs", "cronjobs": "cronjobs", "cronjob": "cronjobs", "cj": "cronjobs",
	"ingresses": "ingresses", "ingress": "ingresses", "ing": "ingresses",
	"persistentvolumeclaims": "persistentvolumeclaims", "pvc": "persistentvolumeclaims",
	"persistentvolumes": "persistentvolumes", "pv": "persistentvolumes",
	"endpoints": "endpoints", "ep": "endpoints",
	"clusterroles": "clusterroles", "clusterrole": "clusterroles",
	"clusterrolebindings": "clusterrolebindings", "clusterrolebinding": "clusterrolebindings",
	"roles": "roles", "role": "roles", "rolebindings": "rolebindings", "rolebinding": "rolebindings",
	"priorityclasses": "priorityclasses", "pc": "priorityclasses",
	"customresourcedefinitions": "customresourcedefinitions", "crd": "customresourcedefinitions", "crds": "customresourcedefinitions",
	"leases": "leases", "lease": "leases", "poddisruptionbudgets": "poddisruptionbudgets", "pdb": "poddisruptionbudgets",
	"storageclasses": "storageclasses", "sc": "storageclasses", "limitranges": "limitranges", "limits": "limitranges",
	"resourcequotas": "resourcequotas", "quota": "resourcequotas", "horizontalpodautoscalers": "horizontalpodautoscalers", "hpa": "horizontalpodautoscalers",
	"networkpolicies": "networkpolicies", "netpol": "networkpolicies", "endpointslices": "endpointslices",
	"componentstatuses": "componentstatuses", "cs": "componentstatuses",
}

// notSimulatedResourceError is the playground's honest answer for a
// Kubernetes resource type it does not simulate.
type notSimulatedResourceError struct{ resource string }

func (e *notSimulatedResourceError) Error() string {
	return fmt.Sprintf("the playground does not simulate %q (it simulates daemonsets, pods, nodes, namespaces, serviceaccounts, configmaps, secrets, controllerrevisions and events)", e.resource)
}

// noResourceMatchError mirrors meta.NoResourceMatchError as checkErr prints it.
type noResourceMatchError struct{ resource string }

func (e *noResourceMatchError) Error() string {
	return fmt.Sprintf("the server doesn't have a resource type %q", e.resource)
}

// resolveType maps a resource argument ("ds", "daemonsets.apps",
// "daemonset.v1.apps", "Pods") to its type, as kubectl's RESTMapper and
// shortcut expander do.
func resolveType(arg string) (*resourceType, error) {
	s := strings.ToLower(arg)
	name, group := s, ""
	if i := strings.Index(s, "."); i >= 0 {
		name, group = s[:i], s[i+1:]
	}
	for _, rt := range resourceTypes {
		matchName := name == rt.resource || name == strings.ToLower(rt.kind)
		for _, sn := range rt.shortNames {
			if name == sn {
				matchName = true
			}
		}
		if !matchName {
			continue
		}
		if group == "" ||
			(rt.group != "" && (group == rt.group || group == rt.version+"."+rt.group)) ||
			(rt.group == "" && group == rt.version) {
			return rt, nil
		}
	}
	if r, ok := otherKnownResources[name]; ok && (group == "" || strings.Contains(group, "apps") || strings.Contains(group, "k8s.io") || strings.HasPrefix(group, "v")) {
		return nil, &notSimulatedResourceError{resource: r}
	}
	return nil, &noResourceMatchError{resource: arg}
}
