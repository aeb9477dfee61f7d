package cluster

import (
	"sort"

	"github.com/dsplayground/dsplay/engine/api"
)

// The generic store holds the objects of every kind the API server serves
// that the playground does not simulate (api.GenericObject): the API
// server stores them, no component acts on them. Keys are
// "<resource>.<group>|<namespace>/<name>".

func genericKey(groupResource, namespace, name string) string {
	return groupResource + "|" + Key(namespace, name)
}

// GenericObject returns the stored object of groupResource
// ("deployments.apps", "services") named namespace/name (namespace ""
// for cluster-scoped kinds), or nil.
func (c *Cluster) GenericObject(groupResource, namespace, name string) *api.GenericObject {
	return c.generic[genericKey(groupResource, namespace, name)]
}

// GenericObjects returns the stored objects of groupResource sorted by
// namespace, then name.
func (c *Cluster) GenericObjects(groupResource string) []*api.GenericObject {
	var out []*api.GenericObject
	for _, o := range c.generic {
		if o.GroupResource() == groupResource {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Namespace != out[j].Namespace {
			return out[i].Namespace < out[j].Namespace
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// AllGenericObjects returns every stored object of the kinds no component
// acts on, sorted by resource ("clusterroles.rbac.authorization.k8s.io",
// "deployments.apps", "services"), then namespace, then name.
func (c *Cluster) AllGenericObjects() []*api.GenericObject {
	out := make([]*api.GenericObject, 0, len(c.generic))
	for _, o := range c.generic {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if ga, gb := a.GroupResource(), b.GroupResource(); ga != gb {
			return ga < gb
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

// CreateGenericObject stores a new object (UID, creation time,
// resourceVersion filled; generation 1 for an object with a spec, as the
// registry strategies of Deployment, PodDisruptionBudget ... set it).
// Errors: AlreadyExists.
func (c *Cluster) CreateGenericObject(o *api.GenericObject) error {
	if o.Namespaced && o.Namespace == "" {
		o.Namespace = api.DefaultNamespace
	}
	if !o.Namespaced {
		o.Namespace = ""
	}
	key := genericKey(o.GroupResource(), o.Namespace, o.Name)
	if _, ok := c.generic[key]; ok {
		return AlreadyExists(o.GroupResource(), o.Name)
	}
	if o.UID == "" {
		o.UID = c.NewUID()
	}
	if _, ok := o.Fields["spec"]; ok {
		o.Generation = 1
	}
	o.CreationTimestamp = c.stamp()
	c.bump(&o.ObjectMeta)
	if c.generic == nil {
		c.generic = map[string]*api.GenericObject{}
	}
	c.generic[key] = o
	return nil
}

// UpdateGenericObject records a change to a stored object (the caller
// bumps generation when the spec changed). Errors: NotFound.
func (c *Cluster) UpdateGenericObject(o *api.GenericObject) error {
	key := genericKey(o.GroupResource(), o.Namespace, o.Name)
	if _, ok := c.generic[key]; !ok {
		return NotFound(o.GroupResource(), o.Name)
	}
	c.bump(&o.ObjectMeta)
	c.generic[key] = o
	return nil
}

// DeleteGenericObject deletes a stored object at once. Errors: NotFound.
func (c *Cluster) DeleteGenericObject(groupResource, namespace, name string) error {
	key := genericKey(groupResource, namespace, name)
	if _, ok := c.generic[key]; !ok {
		return NotFound(groupResource, name)
	}
	delete(c.generic, key)
	c.rv++
	if namespace != "" {
		c.finalizeNamespace(namespace)
	}
	return nil
}

// removeGenericObjects deletes every namespaced generic object of
// namespace ns (the namespace controller's content deletion).
func (c *Cluster) removeGenericObjects(ns string) {
	for k, o := range c.generic {
		if o.Namespaced && o.Namespace == ns {
			delete(c.generic, k)
		}
	}
}
