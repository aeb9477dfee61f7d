package api

// Namespace phases (core/v1 NamespacePhase).
const (
	// NamespaceActive: the namespace accepts new objects.
	NamespaceActive = "Active"
	// NamespaceTerminating: the namespace is being deleted; the API server
	// refuses new objects in it (NamespaceLifecycle admission) until the
	// namespace controller has removed its contents and the namespace.
	NamespaceTerminating = "Terminating"
)

// Well-known namespaces every cluster starts with.
const (
	// NamespaceSystem holds the cluster's own components (kube-proxy ...).
	NamespaceSystem = "kube-system"
	// NamespacePublic is readable by everyone (cluster-info).
	NamespacePublic = "kube-public"
	// NamespaceNodeLease holds the nodes' heartbeat Leases.
	NamespaceNodeLease = "kube-node-lease"
)

// Namespace is core/v1 Namespace: a cluster-scoped object that groups
// namespaced ones (pods, DaemonSets, ControllerRevisions, events).
type Namespace struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       NamespaceSpec   `json:"spec"`
	Status     NamespaceStatus `json:"status"`
	// Extra holds fields the playground does not model, as written.
	Extra Unmodeled `json:"-"`
}

// NamespaceSpec is core/v1 NamespaceSpec.
type NamespaceSpec struct {
	// Finalizers defaults to ["kubernetes"] (the namespace controller's).
	Finalizers []string `json:"finalizers,omitempty"`
}

// NamespaceStatus is core/v1 NamespaceStatus.
type NamespaceStatus struct {
	// Phase is NamespaceActive or NamespaceTerminating.
	Phase string `json:"phase,omitempty"`
}
