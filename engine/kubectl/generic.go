package kubectl

import (
	"sort"

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

// genericHeaders are kubectl's default columns for a resource without a
// printer of its own (the server's table: NAME, AGE).
func genericHeaders(rt *resourceType) []string { return []string{"NAME", "AGE"} }

// genericRow is the NAME, AGE row.
func genericRow(o *api.GenericObject, name, age string) []string { return []string{name, age} }
