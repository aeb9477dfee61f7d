package cluster

import (
	"fmt"
	"hash/fnv"
	"sort"

	"github.com/dsplayground/dsplay/engine/api"
)

// builtinNamespaces exist from the start on every cluster (the API server
// creates them at startup: pkg/controlplane's system namespaces controller).
var builtinNamespaces = []string{api.DefaultNamespace, api.NamespaceNodeLease, api.NamespacePublic, api.NamespaceSystem}

// immortalNamespaces may not be deleted (the NamespaceLifecycle admission
// plugin's immortalNamespaces: default, kube-system, kube-public).
var immortalNamespaces = map[string]bool{api.DefaultNamespace: true, api.NamespaceSystem: true, api.NamespacePublic: true}

// namespaceStore returns the namespaces by name, creating the built-in ones
// on first use. They are made without the seeded generator or the
// resourceVersion counter (fixed UIDs, created at Epoch), so that adding
// namespaces to the store changed no generated name anywhere.
func (c *Cluster) namespaceStore() map[string]*api.Namespace {
	if c.namespaces == nil {
		c.namespaces = map[string]*api.Namespace{}
		for _, name := range builtinNamespaces {
			h := fnv.New64a()
			h.Write([]byte(name))
			s := h.Sum64()
			uid := formatUID(s, s^0x4000<<48)
			c.namespaces[name] = &api.Namespace{
				TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
				ObjectMeta: api.ObjectMeta{Name: name, UID: uid, CreationTimestamp: Epoch, ResourceVersion: "1", Labels: map[string]string{"kubernetes.io/metadata.name": name}},
				Spec:       api.NamespaceSpec{Finalizers: []string{"kubernetes"}},
				Status:     api.NamespaceStatus{Phase: api.NamespaceActive},
			}
		}
	}
	return c.namespaces
}

// Namespace returns the namespace or nil.
func (c *Cluster) Namespace(name string) *api.Namespace { return c.namespaceStore()[name] }

// Namespaces returns all namespaces sorted by name (the built-in default,
// kube-node-lease, kube-public and kube-system among them), in a new slice.
func (c *Cluster) Namespaces() []*api.Namespace {
	m := c.namespaceStore()
	out := make([]*api.Namespace, 0, len(m))
	for _, ns := range m {
		out = append(out, ns)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// CreateNamespace stores a new namespace in phase Active, with the
// kubernetes.io/metadata.name label and the "kubernetes" finalizer the API
// server adds (namespace strategy PrepareForCreate, defaults). Errors:
// AlreadyExists (`namespaces "x" already exists`).
func (c *Cluster) CreateNamespace(ns *api.Namespace) error {
	m := c.namespaceStore()
	if _, ok := m[ns.Name]; ok {
		return AlreadyExists("namespaces", ns.Name)
	}
	ns.APIVersion, ns.Kind = "v1", "Namespace"
	ns.Namespace = ""
	if ns.UID == "" {
		ns.UID = c.NewUID()
	}
	ns.CreationTimestamp = c.stamp()
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	ns.Labels["kubernetes.io/metadata.name"] = ns.Name
	ns.Spec.Finalizers = []string{"kubernetes"}
	ns.Status.Phase = api.NamespaceActive
	c.bump(&ns.ObjectMeta)
	m[ns.Name] = ns
	return nil
}

// UpdateNamespace records a change to a stored namespace (labels,
// annotations). Errors: NotFound.
func (c *Cluster) UpdateNamespace(ns *api.Namespace) error {
	m := c.namespaceStore()
	if _, ok := m[ns.Name]; !ok {
		return NotFound("namespaces", ns.Name)
	}
	c.bump(&ns.ObjectMeta)
	m[ns.Name] = ns
	return nil
}

// DeleteNamespace deletes a namespace as the API server and the namespace
// controller do together (namespace REST Delete, then
// NamespacedResourcesDeleter.Delete): the namespace turns Terminating with
// a deletionTimestamp, everything in it is deleted (DaemonSets and
// ControllerRevisions at once, pods gracefully through DeletePod, events),
// and the namespace itself is removed when its last pod is gone (at once
// when it holds none). Deleting a namespace that is already Terminating
// changes nothing. Errors: NotFound (`namespaces "x" not found`), and
// Forbidden for default, kube-system and kube-public
// (`namespaces "default" is forbidden: this namespace may not be deleted`).
func (c *Cluster) DeleteNamespace(name string) error {
	ns := c.namespaceStore()[name]
	if ns == nil {
		return NotFound("namespaces", name)
	}
	if immortalNamespaces[name] {
		return Forbidden("namespaces", name, "this namespace may not be deleted")
	}
	if ns.Status.Phase == api.NamespaceTerminating {
		return nil
	}
	now := c.stamp()
	ns.DeletionTimestamp = &now
	ns.Status.Phase = api.NamespaceTerminating
	c.bump(&ns.ObjectMeta)
	for _, d := range c.DaemonSets() {
		if d.Namespace == name {
			c.RemoveDaemonSet(d.Namespace, d.Name)
		}
	}
	for _, r := range c.ControllerRevisions() {
		if r.Namespace == name {
			c.RemoveControllerRevision(r.Namespace, r.Name)
		}
	}
	c.removeConfigObjects(name)
	c.removeGenericObjects(name)
	for _, p := range c.Pods() {
		if p.Namespace == name {
			c.DeletePod(p.Namespace, p.Name, nil)
		}
	}
	c.finalizeNamespace(name)
	return nil
}

// finalizeNamespace removes a Terminating namespace once nothing is left in
// it (the namespace controller's finalizer), together with its events.
// Store writes that remove a namespaced object call it.
func (c *Cluster) finalizeNamespace(name string) {
	ns := c.namespaces[name] // nil map before first use: nothing to finalize
	if ns == nil || ns.Status.Phase != api.NamespaceTerminating {
		return
	}
	for _, p := range c.pods {
		if p.Namespace == name {
			return
		}
	}
	for _, d := range c.daemonSets {
		if d.Namespace == name {
			return
		}
	}
	for _, r := range c.revisions {
		if r.Namespace == name {
			return
		}
	}
	c.removeEvents(func(e *api.Event) bool { return e.Namespace == name })
	delete(c.namespaces, name)
	c.rv++
}

// AdmitNamespaced mirrors the NamespaceLifecycle admission plugin (Admit)
// for a create of a namespaced object: the namespace must exist
// (`namespaces "logging" not found`, NotFound) and must not be Terminating
// (`<resource> "<name>" is forbidden: unable to create new content in
// namespace <ns> because it is being terminated`, Forbidden). resource is
// as in "daemonsets.apps" or "pods".
func (c *Cluster) AdmitNamespaced(namespace, resource, name string) error {
	ns := c.namespaceStore()[namespace]
	if ns == nil {
		return NotFound("namespaces", namespace)
	}
	if ns.Status.Phase == api.NamespaceTerminating {
		return Forbidden(resource, name, fmt.Sprintf("unable to create new content in namespace %s because it is being terminated", namespace))
	}
	return nil
}
