package api

// GenericObject is an object of a kind the API server serves and the
// playground stores without a component acting on it (Deployment,
// Service, ClusterRole, RoleBinding, PodDisruptionBudget, PriorityClass
// ...): its metadata is modelled, every other top-level field (spec,
// rules, roleRef, value ...) is kept as written, in generic JSON values
// (map[string]any, []any, string, int64, float64, bool, nil).
type GenericObject struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	// Fields are the top-level fields other than apiVersion, kind and
	// metadata (status included when a component would have written it;
	// the API server drops a manifest's status on create).
	Fields map[string]any `json:"-"`
	// Group and Resource name the kind's resource ("apps", "deployments").
	Group, Resource string `json:"-"`
	// Namespaced is true for kinds that live in a namespace.
	Namespaced bool `json:"-"`
}

// GroupResource is "deployments.apps" ("services" for the core group), as
// the API server names the resource in its errors.
func (o *GenericObject) GroupResource() string {
	if o.Group == "" {
		return o.Resource
	}
	return o.Resource + "." + o.Group
}

// Field returns the top-level field name, nil when it is not set.
func (o *GenericObject) Field(name string) any {
	if o.Fields == nil {
		return nil
	}
	return o.Fields[name]
}
