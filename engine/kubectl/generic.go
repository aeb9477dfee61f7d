package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// Every other resource the v1.37 API server serves (engine/schema
// Served): stored as written (api.GenericObject), listed, rendered,
// described and deleted as kubectl does for any resource; no component of
// the playground acts on them.

// genericTypes maps "<resource>.<group>" to the resource types of the
// kinds stored as written.
var genericTypes = map[string]*resourceType{}

func init() {
	simulated := map[string]bool{}
	for _, rt := range resourceTypes {
		simulated[rt.groupResource()] = true
	}
	for _, r := range apischema.Served() {
		gr := (&r).GroupResource()
		if simulated[gr] || genericTypes[gr] != nil {
			continue // a second version (autoscaling/v1): discovery lists the preferred one
		}
		rt := &resourceType{resource: r.Resource, group: r.Group, version: r.Version, kind: r.Kind,
			shortNames: r.ShortNames, namespaced: r.Namespaced,
			verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}
		switch {
		case r.Kind == "Binding" || strings.HasSuffix(r.Kind, "Review"):
			rt.verbs = []string{"create"} // create-only resources
		case r.Kind == "ComponentStatus":
			rt.verbs = []string{"get", "list"}
		}
		if allCategoryMembers[gr] {
			rt.categories = []string{"all"}
		}
		genericTypes[gr] = rt
		resourceTypes = append(resourceTypes, rt)
	}
	// api-resources order: the core group first, then groups by name, each by resource name
	sort.SliceStable(resourceTypes, func(i, j int) bool {
		a, b := resourceTypes[i], resourceTypes[j]
		if a.group != b.group {
			return a.group < b.group
		}
		return a.resource < b.resource
	})
}

// isGenericType reports whether rt is stored as written.
func isGenericType(rt *resourceType) bool { return rt != nil && genericTypes[rt.groupResource()] == rt }

// genericType is the resource type of a stored-as-written object.
func genericType(o *api.GenericObject) *resourceType { return genericTypes[o.GroupResource()] }

// listGeneric lists rt's objects in namespace ns (all when allNS).
func listGeneric(c *cluster.Cluster, rt *resourceType, ns string, allNS bool) []object {
	return wrapListed(rt, ns, allNS, c.GenericObjects(rt.groupResource()))
}

// getGeneric returns rt's object ns/name, or nil.
func getGeneric(c *cluster.Cluster, rt *resourceType, ns, name string) *api.GenericObject {
	if !rt.namespaced {
		ns = ""
	}
	return c.GenericObject(rt.groupResource(), ns, name)
}

// renderGeneric is RenderObject for a stored-as-written object: apiVersion,
// kind, metadata, then its fields as stored.
func renderGeneric(o *api.GenericObject) (map[string]any, error) {
	meta, err := toGeneric(&o.ObjectMeta)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	for k, v := range o.Fields {
		m[k] = v
	}
	m["metadata"] = meta
	setTypeMeta(m, o.APIVersion, o.Kind)
	return m, nil
}

// genericHeaders are the table columns of a stored-as-written kind: the
// columns of the printers kubectl's server-side tables use for the common
// kinds (pkg/printers/internalversion printers.go printDeployment,
// printPodDisruptionBudget, printPriorityClass, printRole,
// printRoleBinding ...), else the default table's NAME, AGE.
func genericHeaders(rt *resourceType) []string {
	switch rt.groupResource() {
	case "deployments.apps":
		return []string{"NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"}
	case "poddisruptionbudgets.policy":
		return []string{"NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"}
	case "priorityclasses.scheduling.k8s.io":
		return []string{"NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"}
	case "roles.rbac.authorization.k8s.io", "clusterroles.rbac.authorization.k8s.io":
		return []string{"NAME", "CREATED AT"}
	case "rolebindings.rbac.authorization.k8s.io", "clusterrolebindings.rbac.authorization.k8s.io":
		return []string{"NAME", "ROLE", "AGE"}
	}
	return []string{"NAME", "AGE"}
}

// genericRow is the row of genericHeaders' columns. Nothing acts on these
// objects, so their status counts stay as stored (zero).
func genericRow(o *api.GenericObject, name, age string) []string {
	switch o.GroupResource() {
	case "deployments.apps":
		// printDeployment: READY is readyReplicas/spec.replicas (defaulted to 1)
		replicas := int64(1)
		if v, ok := genericInt(o.Field("spec"), "replicas"); ok {
			replicas = v
		}
		ready, _ := genericInt(o.Field("status"), "readyReplicas")
		updated, _ := genericInt(o.Field("status"), "updatedReplicas")
		available, _ := genericInt(o.Field("status"), "availableReplicas")
		return []string{name, fmt.Sprintf("%d/%d", ready, replicas), fmt.Sprint(updated), fmt.Sprint(available), age}
	case "poddisruptionbudgets.policy":
		spec, _ := o.Field("spec").(map[string]any)
		minA, maxU := "N/A", "N/A"
		if v, ok := spec["minAvailable"]; ok && v != nil {
			minA = fmt.Sprint(v)
		}
		if v, ok := spec["maxUnavailable"]; ok && v != nil {
			maxU = fmt.Sprint(v)
		}
		allowed, _ := genericInt(o.Field("status"), "disruptionsAllowed")
		return []string{name, minA, maxU, fmt.Sprint(allowed), age}
	case "priorityclasses.scheduling.k8s.io":
		value, _ := o.Field("value").(int64)
		def, _ := o.Field("globalDefault").(bool)
		policy, _ := o.Field("preemptionPolicy").(string)
		if policy == "" {
			policy = "<none>"
		}
		return []string{name, fmt.Sprint(value), fmt.Sprint(def), age, policy}
	case "roles.rbac.authorization.k8s.io", "clusterroles.rbac.authorization.k8s.io":
		return []string{name, o.CreationTimestamp.UTC().Format(time.RFC3339)}
	case "rolebindings.rbac.authorization.k8s.io", "clusterrolebindings.rbac.authorization.k8s.io":
		ref, _ := o.Field("roleRef").(map[string]any)
		return []string{name, fmt.Sprintf("%v/%v", ref["kind"], ref["name"]), age}
	}
	return []string{name, age}
}

// genericInt reads an integer field of a generic map.
func genericInt(m any, key string) (int64, bool) {
	mm, _ := m.(map[string]any)
	switch v := mm[key].(type) {
	case int64:
		return v, true
	case float64:
		return int64(v), true
	}
	return 0, false
}

// allCategoryMembers are the resources discovery puts in the "all"
// category besides pods and daemonsets (their storage's
// CategoriesProvider).
var allCategoryMembers = map[string]bool{
	"replicationcontrollers": true, "services": true, "deployments.apps": true, "replicasets.apps": true,
	"statefulsets.apps": true, "horizontalpodautoscalers.autoscaling": true, "cronjobs.batch": true, "jobs.batch": true,
}

// allCategory is the "all" category in discovery's order.
func allCategory() []*resourceType {
	var out []*resourceType
	for _, rt := range resourceTypes {
		if contains(rt.categories, "all") {
			out = append(out, rt)
		}
	}
	return out
}
