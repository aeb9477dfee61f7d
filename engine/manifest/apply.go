package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// podUpdateForbidden is ValidatePodUpdate's message for changes to
// immutable pod fields (pkg/apis/core/validation; upstream appends a diff).
const podUpdateForbidden = "pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// ApplyTo writes decoded documents to the store as kubectl would in mode,
// and returns kubectl's success lines in document order
// (`daemonset.apps/x created`, `node/x configured`, `pod/x unchanged`,
// `... replaced`). Every document is checked first (update rules such as
// the immutable DaemonSet selector and pod fields, existence for the mode);
// on any problem the error is an *Error and the store is unchanged.
// The documents' objects are copied, never
// stored. Documents are planned in order, as kubectl applies them: a
// namespaced object is admitted (NamespaceLifecycle) when its namespace
// exists or a Namespace document before it creates it; otherwise the error
// is `Error from server (NotFound): error when creating "ds.yaml":
// namespaces "logging" not found`.
//
// Updates follow the registry strategies: a DaemonSet template change bumps
// metadata.generation and the deprecated.daemonset.template.generation
// annotation, another spec change bumps the generation only
// (daemonset strategy PrepareForUpdate); status is kept. ModeApply records
// kubectl.kubernetes.io/last-applied-configuration and, like kubectl's
// three-way merge, keeps labels, annotations, node taints and pod fields
// that the manifest never set.
func ApplyTo(c *cluster.Cluster, docs []Document, mode Mode) ([]string, error) {
	var lines []string
	var diags []Diagnostic
	for _, o := range ApplyEach(c, docs, mode) {
		if o.Err != nil {
			diags = append(diags, o.Err.raw...)
			continue
		}
		if o.Line != "" {
			lines = append(lines, o.Line)
		}
	}
	if len(diags) > 0 {
		return lines, newError(diags)
	}
	return lines, nil
}

// Outcome is what ApplyEach did with one document.
type Outcome struct {
	// Line is kubectl's success line (`daemonset.apps/x created`), ""
	// when the document failed.
	Line string
	// Err is the document's error; the store is as the document found it.
	Err *Error
	// Conflict is an API error found before the document was planned (a
	// stale resourceVersion), set by the caller.
	Conflict error
}

// ApplyEach writes the documents in order, each on its own as kubectl's
// apply, create and replace send each object in its own request
// (apply.go Run: applyOneObject for every info, collecting errors):
// one outcome per document. A document that fails changes nothing and
// does not stop the others; a later document sees what the earlier ones
// wrote (a Namespace first, then its objects).
func ApplyEach(c *cluster.Cluster, docs []Document, mode Mode) []Outcome {
	a := &applier{c: c, mode: mode, pending: map[string]any{}}
	out := make([]Outcome, len(docs))
	for i := range docs {
		doc := &docs[i]
		if doc.Object == nil {
			continue // Decode returns none such
		}
		line, write, ds := a.plan(doc)
		if len(ds) > 0 {
			out[i].Err = newError(ds)
			continue
		}
		if write != nil {
			if err := write(); err != nil {
				// cannot happen after planning; report it rather than panic
				out[i].Err = newError([]Diagnostic{{Message: err.Error(), kubectl: "error: " + err.Error()}})
				continue
			}
		}
		out[i].Line = line
	}
	return out
}

type applier struct {
	c       *cluster.Cluster
	mode    Mode
	pending map[string]any // objects planned earlier in this call, by kind/namespace/name
	// newNodes counts the nodes this call creates.
	newNodes int
}

// serverError is the API server refusing doc's write (reason NotFound,
// AlreadyExists, Forbidden ...), reported at field as kubectl prints it:
// `Error from server (reason): error when creating "ds.yaml": msg`
// ("replacing" for replace).
func (a *applier) serverError(doc *Document, field, reason, msg, hint string) []Diagnostic {
	verb := "creating"
	if a.mode == ModeReplace {
		verb = "replacing"
	}
	pos := doc.position(field)
	return []Diagnostic{{File: doc.file, Line: pos.line, Column: pos.col, Field: field, Message: msg, Hint: hint,
		kubectl: fmt.Sprintf("Error from server (%s): error when %s %q: %s", reason, verb, doc.file, msg)}}
}

// lastApplied is the annotation kubectl apply stores: the manifest as
// written (with the namespace kubectl filled in), as JSON.
func lastApplied(doc *Document, namespaced bool) string {
	// Copy only the maps edited below (the top level, metadata and its
	// annotations): json.Marshal reads the rest, which stays shared with
	// doc.raw. A reflective deep copy of every document dominated applying
	// manifests of many objects.
	top, _ := doc.raw.(map[string]any)
	if top == nil {
		return ""
	}
	raw := maps.Clone(top)
	if md, ok := raw["metadata"].(map[string]any); ok {
		md = maps.Clone(md)
		raw["metadata"] = md
		// util.GetModifiedConfiguration: the object's annotations without
		// the annotation itself, set back even when empty, so the value
		// always holds "annotations":{} for a manifest without any
		// (checked against a real v1.37.2 kubectl)
		an, _ := md["annotations"].(map[string]any)
		an = maps.Clone(an)
		if an == nil {
			an = map[string]any{}
		}
		delete(an, api.LastAppliedConfigAnnotation) // kubectl never nests it
		md["annotations"] = an
	}
	if namespaced {
		if md, ok := raw["metadata"].(map[string]any); ok {
			if _, set := md["namespace"]; !set {
				md["namespace"] = doc.Namespace
			}
		}
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return ""
	}
	return string(b) + "\n"
}

// RawField is the value at path of a manifest's generic form (a
// last-applied value or a document's Raw), and whether it is set.
func RawField(raw any, path ...string) (any, bool) {
	cur := raw
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func parseLastApplied(annotations map[string]string) any {
	s, ok := annotations[api.LastAppliedConfigAnnotation]
	if !ok {
		return nil
	}
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return nil
	}
	return v
}

// mergeMap is the three-way merge kubectl apply does on labels and
// annotations: keys the manifest sets win; keys the previous manifest set
// and this one dropped are removed; keys set by others are kept.
func mergeMap(live, manifest map[string]string, prev any, field string) map[string]string {
	out := map[string]string{}
	for k, v := range live {
		out[k] = v
	}
	if pm, ok := prev.(map[string]any); ok {
		if md, ok := pm["metadata"].(map[string]any); ok {
			if old, ok := md[field].(map[string]any); ok {
				for k := range old {
					if _, still := manifest[k]; !still {
						delete(out, k)
					}
				}
			}
		}
	}
	for k, v := range manifest {
		out[k] = v
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// metadata is the labels and annotations an update stores. With apply they
// are the three-way merge (mergeMap) of live's, the manifest m's and the
// previous last-applied configuration's, which is returned as prev for the
// caller's other fields, plus the new last-applied annotation (annotations
// is never nil then); with replace they are the manifest's and prev is nil.
func (a *applier) metadata(doc *Document, live, m *api.ObjectMeta, namespaced bool) (labels, annotations map[string]string, prev any) {
	if a.mode != ModeApply {
		return m.Labels, m.Annotations, nil
	}
	prev = parseLastApplied(live.Annotations)
	annotations = mergeMap(live.Annotations, m.Annotations, prev, "annotations")
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[api.LastAppliedConfigAnnotation] = lastApplied(doc, namespaced)
	return mergeMap(live.Labels, m.Labels, prev, "labels"), annotations, prev
}

func (a *applier) plan(doc *Document) (line string, write func() error, diags []Diagnostic) {
	switch o := doc.Object.(type) {
	case *api.DaemonSet:
		ds := deepCopy(o)
		if diags := a.generateName(doc, &ds.ObjectMeta); diags != nil {
			return "", nil, diags
		}
		return a.planDaemonSet(doc, ds)
	case *api.Pod:
		pod := deepCopy(o)
		if diags := a.generateName(doc, &pod.ObjectMeta); diags != nil {
			return "", nil, diags
		}
		return a.planPod(doc, pod)
	case *api.Node:
		node := deepCopy(o)
		if diags := a.generateName(doc, &node.ObjectMeta); diags != nil {
			return "", nil, diags
		}
		return a.planNode(doc, node)
	case *api.Namespace:
		ns := deepCopy(o)
		if diags := a.generateName(doc, &ns.ObjectMeta); diags != nil {
			return "", nil, diags
		}
		return a.planNamespace(doc, ns)
	case *api.GenericObject:
		g := deepCopy(o)
		if diags := a.generateName(doc, &g.ObjectMeta); diags != nil {
			return "", nil, diags
		}
		return a.planGeneric(doc, g)
	}
	line, write, diags, _ = a.planConfigObject(doc)
	return line, write, diags
}

// generateName handles an object written with metadata.generateName and
// no name (validation has accepted it: the server names it before it
// validates). kubectl create sends it and the API server's BeforeCreate
// names it with names.SimpleNameGenerator (the prefix and five random
// characters), so m.Name is set here. kubectl apply refuses it before
// sending anything (apply.go applyOneObject: `error: from web-: cannot use
// generate name with apply`); kubectl replace has no name to put to
// (the client's `resource name may not be empty`, wrapped by
// AddSourceToErr).
func (a *applier) generateName(doc *Document, m *api.ObjectMeta) []Diagnostic {
	if m.Name != "" || m.GenerateName == "" {
		return nil
	}
	var msg, hint string
	switch a.mode {
	case ModeCreate:
		m.Name = a.c.GenerateName(m.GenerateName)
		return nil
	case ModeApply:
		msg = fmt.Sprintf("from %s: cannot use generate name with apply", m.GenerateName)
		hint = "kubectl apply finds the object again by metadata.name: set metadata.name, or use kubectl create to get a generated name"
	default:
		msg = fmt.Sprintf("error when replacing %q: resource name may not be empty", doc.file)
		hint = "kubectl replace needs metadata.name to know which object to replace"
	}
	pos := doc.position("metadata.generateName")
	return []Diagnostic{{File: doc.file, Line: pos.line, Column: pos.col, Field: "metadata.generateName",
		Message: msg, Hint: hint, kubectl: "error: " + msg}}
}

// admit mirrors the NamespaceLifecycle admission plugin for the create of a
// namespaced object: its namespace must exist, in the store or created by
// an earlier document of this call (kubectl applies documents in order, so
// an install file with its Namespace first works), and must not be
// Terminating. resource is as in "daemonsets.apps".
func (a *applier) admit(doc *Document, namespace, resource, name string) []Diagnostic {
	if _, ok := a.pending["Namespace/"+namespace].(*api.Namespace); ok {
		return nil
	}
	err := a.c.AdmitNamespaced(namespace, resource, name)
	if err == nil {
		return nil
	}
	se, _ := err.(*cluster.StatusError)
	reason := "NotFound"
	hint := fmt.Sprintf("the namespace %q does not exist: create it first (`kubectl create namespace %s`), or put a Namespace document (apiVersion: v1, kind: Namespace) before this one in the file", namespace, namespace)
	if se != nil && se.Reason != "NotFound" {
		reason = se.Reason
		hint = fmt.Sprintf("the namespace %q is being deleted: wait until it is gone, then create it again", namespace)
	}
	return a.serverError(doc, "metadata.namespace", reason, err.Error(), hint)
}

// objectPlan is what planObject needs to know of one kind: the store key
// and the names in its messages, how to read the stored object, and how to
// build, create and update it. T is a pointer to an API object.
type objectPlan[T comparable] struct {
	key      string // the pending key, "DaemonSet/ns/name"
	res      string // kubectl's name for it, "daemonset.apps/name"
	resource string // the server's resource, "daemonsets.apps"
	name     string
	stored   func() T
	// build prepares the new object for a create, or returns the
	// create's errors.
	build func() (T, []Diagnostic)
	// update builds the updated object from live, reports whether nothing
	// changed, or returns the update's validation errors.
	update      func(live T) (T, bool, []Diagnostic)
	create, put func(T) error
}

// planObject is the create / update / unchanged flow kubectl apply, create
// and replace share for every kind: the object as an earlier document of
// this call left it, else the stored one, decides between a create
// (refused by replace) and an update (refused by create).
func planObject[T comparable](a *applier, doc *Document, p objectPlan[T]) (string, func() error, []Diagnostic) {
	var none T
	live, _ := a.pending[p.key].(T)
	if live == none {
		live = p.stored()
	}
	if live == none {
		if a.mode == ModeReplace {
			return "", nil, a.serverError(doc, "metadata.name", "NotFound", fmt.Sprintf("%s %q not found", p.resource, p.name), "")
		}
		obj, diags := p.build()
		if diags != nil {
			return "", nil, diags
		}
		a.pending[p.key] = obj
		return p.res + " created", func() error { return p.create(obj) }, nil
	}
	if a.mode == ModeCreate {
		return "", nil, a.serverError(doc, "metadata.name", "AlreadyExists", fmt.Sprintf("%s %q already exists", p.resource, p.name), "")
	}
	upd, unchanged, diags := p.update(live)
	if len(diags) > 0 {
		return "", nil, diags
	}
	if unchanged {
		return p.res + " unchanged", nil, nil
	}
	a.pending[p.key] = upd
	verb := " configured"
	if a.mode == ModeReplace {
		verb = " replaced"
	}
	// recompute against the stored object at write time: an object created
	// earlier in this file has its UID and resourceVersion only then
	return p.res + verb, func() error {
		upd, _, _ := p.update(p.stored())
		return p.put(upd)
	}, nil
}

func (a *applier) planNamespace(doc *Document, ns *api.Namespace) (string, func() error, []Diagnostic) {
	return planObject(a, doc, objectPlan[*api.Namespace]{
		key: "Namespace/" + ns.Name, res: "namespace/" + ns.Name, resource: "namespaces", name: ns.Name,
		stored: func() *api.Namespace { return a.c.Namespace(ns.Name) },
		build: func() (*api.Namespace, []Diagnostic) {
			if a.mode == ModeApply {
				if ns.Annotations == nil {
					ns.Annotations = map[string]string{}
				}
				ns.Annotations[api.LastAppliedConfigAnnotation] = lastApplied(doc, false)
			}
			ns.Status = api.NamespaceStatus{}
			return ns, nil
		},
		update: func(live *api.Namespace) (*api.Namespace, bool, []Diagnostic) {
			upd, unchanged := a.updateNamespace(doc, ns, live)
			return upd, unchanged, nil
		},
		create: a.c.CreateNamespace,
		put:    a.c.UpdateNamespace,
	})
}

// updateNamespace builds the updated namespace from live and the
// manifest's: labels and annotations (three-way merged by apply); the
// kubernetes.io/metadata.name label the server sets is kept.
func (a *applier) updateNamespace(doc *Document, ns, live *api.Namespace) (*api.Namespace, bool) {
	upd := deepCopy(live)
	upd.Labels, upd.Annotations, _ = a.metadata(doc, &live.ObjectMeta, &ns.ObjectMeta, false)
	if upd.Labels == nil {
		upd.Labels = map[string]string{}
	}
	upd.Labels["kubernetes.io/metadata.name"] = live.Name
	upd.Extra = ns.Extra
	unchanged := a.mode == ModeApply && semanticEqual(live.Labels, upd.Labels) && semanticEqual(live.Annotations, upd.Annotations)
	return upd, unchanged
}

func (a *applier) planDaemonSet(doc *Document, ds *api.DaemonSet) (string, func() error, []Diagnostic) {
	if ds.Namespace == "" {
		ds.Namespace = api.DefaultNamespace
	}
	return planObject(a, doc, objectPlan[*api.DaemonSet]{
		key: "DaemonSet/" + cluster.Key(ds.Namespace, ds.Name), res: "daemonset.apps/" + ds.Name, resource: "daemonsets.apps", name: ds.Name,
		stored: func() *api.DaemonSet { return a.c.DaemonSet(ds.Namespace, ds.Name) },
		build: func() (*api.DaemonSet, []Diagnostic) {
			if diags := a.admit(doc, ds.Namespace, "daemonsets.apps", ds.Name); diags != nil {
				return nil, diags
			}
			if ds.Annotations == nil {
				ds.Annotations = map[string]string{}
			}
			ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] = "1"
			if a.mode == ModeApply {
				ds.Annotations[api.LastAppliedConfigAnnotation] = lastApplied(doc, true)
			}
			ds.Status = api.DaemonSetStatus{}
			ds.Generation = 1
			return ds, nil
		},
		update: func(live *api.DaemonSet) (*api.DaemonSet, bool, []Diagnostic) {
			return a.updateDaemonSet(doc, ds, live)
		},
		create: a.c.CreateDaemonSet,
		put:    a.c.UpdateDaemonSet,
	})
}

// updateDaemonSet builds the updated DaemonSet from live and the manifest's
// ds, or the update's validation errors.
func (a *applier) updateDaemonSet(doc *Document, ds, live *api.DaemonSet) (*api.DaemonSet, bool, []Diagnostic) {
	// daemonSetStrategy.ValidateUpdate (pkg/registry/apps/daemonset):
	// apps/v1 selectors are immutable (ValidateImmutableField, rendered
	// as JSON). The manifest was validated as a create when decoded, so
	// this is the only update rule left to check.
	if !semanticEqual(live.Spec.Selector, ds.Spec.Selector) {
		var l errList
		l.invalid("spec.selector", ds.Spec.Selector, "field is immutable")
		l.withHint(fmt.Sprintf("a DaemonSet's selector cannot change: keep the old one, or delete the DaemonSet (kubectl delete ds %s -n %s) and apply again", ds.Name, ds.Namespace))
		return nil, false, doc.diagnostics(l, "DaemonSet", ds.Name)
	}
	upd := deepCopy(live)
	upd.Spec = ds.Spec
	upd.Extra = ds.Extra
	var annotations map[string]string
	var prev any
	upd.Labels, annotations, prev = a.metadata(doc, &live.ObjectMeta, &ds.ObjectMeta, true)
	if a.mode == ModeApply {
		keepUnappliedDaemonSetFields(doc.raw, prev, live, upd)
	}
	// a copy: the template generation is added below, and with replace
	// annotations is the manifest's own map
	upd.Annotations = maps.Clone(annotations)
	if upd.Annotations == nil {
		upd.Annotations = map[string]string{}
	}
	gen := live.Annotations[api.DeprecatedTemplateGenerationAnnotation]
	if gen == "" {
		gen = "1"
	}
	upd.Annotations[api.DeprecatedTemplateGenerationAnnotation] = gen
	// PrepareForUpdate
	if !semanticEqual(live.Spec.Template, upd.Spec.Template) {
		n, _ := strconv.ParseInt(gen, 10, 64)
		upd.Annotations[api.DeprecatedTemplateGenerationAnnotation] = strconv.FormatInt(n+1, 10)
		upd.Generation = live.Generation + 1
	} else if !semanticEqual(live.Spec, upd.Spec) {
		upd.Generation = live.Generation + 1
	}
	unchanged := a.mode == ModeApply && semanticEqual(live.Spec, upd.Spec) && semanticEqual(live.Labels, upd.Labels) &&
		semanticEqual(live.Annotations, upd.Annotations)
	return upd, unchanged, nil
}

// keepUnappliedDaemonSetFields is the part of kubectl apply's three-way
// merge (a strategic merge patch computed from the last-applied
// configuration, the manifest and the live object) that matters for
// DaemonSets changed by other commands between two applies: a spec field
// that neither the manifest nor the previous last-applied configuration
// sets keeps its live value (`kubectl patch` to OnDelete, minReadySeconds,
// revisionHistoryLimit), and the pod template's annotations are merged
// like the object's (`kubectl rollout restart`'s restartedAt stays, so
// re-applying does not restart the pods again). The merge is per field:
// a manifest that sets updateStrategy replaces the live one whole.
func keepUnappliedDaemonSetFields(raw, prev any, live, upd *api.DaemonSet) {
	unapplied := func(field string) bool {
		_, inManifest := RawField(raw, "spec", field)
		_, inPrev := RawField(prev, "spec", field)
		return !inManifest && !inPrev
	}
	if unapplied("updateStrategy") {
		upd.Spec.UpdateStrategy = *deepCopy(&live.Spec.UpdateStrategy)
	}
	if unapplied("minReadySeconds") {
		upd.Spec.MinReadySeconds = live.Spec.MinReadySeconds
	}
	if unapplied("revisionHistoryLimit") {
		upd.Spec.RevisionHistoryLimit = live.Spec.RevisionHistoryLimit
	}
	var prevTemplate any
	if t, ok := RawField(prev, "spec", "template"); ok {
		prevTemplate = t
	}
	upd.Spec.Template.Annotations = mergeMap(live.Spec.Template.Annotations, upd.Spec.Template.Annotations, prevTemplate, "annotations")
}

func (a *applier) planPod(doc *Document, pod *api.Pod) (string, func() error, []Diagnostic) {
	if pod.Namespace == "" {
		pod.Namespace = api.DefaultNamespace
	}
	return planObject(a, doc, objectPlan[*api.Pod]{
		key: "Pod/" + cluster.Key(pod.Namespace, pod.Name), res: "pod/" + pod.Name, resource: "pods", name: pod.Name,
		stored: func() *api.Pod { return a.c.Pod(pod.Namespace, pod.Name) },
		build: func() (*api.Pod, []Diagnostic) {
			if diags := a.admit(doc, pod.Namespace, "pods", pod.Name); diags != nil {
				return nil, diags
			}
			// the ServiceAccount admission plugin refuses a missing service account
			if diags := a.admitServiceAccount(doc, pod); diags != nil {
				return nil, diags
			}
			// the Priority admission plugin refuses an unknown priorityClassName
			if err := a.c.AdmitPodPriority(deepCopy(pod)); err != nil {
				return nil, a.serverError(doc, "spec.priorityClassName", "Forbidden", err.Error(),
					"apply the PriorityClass first (apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, value: ...), or put it before this document in the file; the built-in classes are system-node-critical and system-cluster-critical")
			}
			if a.mode == ModeApply {
				if pod.Annotations == nil {
					pod.Annotations = map[string]string{}
				}
				pod.Annotations[api.LastAppliedConfigAnnotation] = lastApplied(doc, true)
			}
			pod.Status = api.PodStatus{}
			return pod, nil
		},
		update: func(live *api.Pod) (*api.Pod, bool, []Diagnostic) { return a.updatePod(doc, pod, live) },
		create: a.c.CreatePod,
		put:    a.c.UpdatePod,
	})
}

// updatePod builds the updated pod from live and the manifest's pod, or
// ValidatePodUpdate's errors.
func (a *applier) updatePod(doc *Document, pod, live *api.Pod) (*api.Pod, bool, []Diagnostic) {
	upd := deepCopy(live)
	spec := deepCopy(pod.Spec)
	if a.mode == ModeApply {
		// what pod admission added (service account, token volume,
		// priority) is not in the manifest and is kept, as kubectl apply's
		// patch keeps it; replace sends the manifest as it is
		cluster.KeepAdmitted(&live.Spec, &spec)
	}
	// the scheduler's nodeName is kept when the manifest does not set one
	if spec.NodeName == "" {
		spec.NodeName = live.Spec.NodeName
	}
	var prev any
	upd.Labels, upd.Annotations, prev = a.metadata(doc, &live.ObjectMeta, &pod.ObjectMeta, true)
	if a.mode == ModeApply {
		// fields the manifest never set keep the server's values
		if _, set := RawField(doc.raw, "spec", "tolerations"); !set {
			if _, was := RawField(prev, "spec", "tolerations"); !was {
				spec.Tolerations = live.Spec.Tolerations
			}
		}
		keepDefaultedPullPolicy(doc.raw, prev, live.Spec.Containers, spec.Containers, "containers")
		keepDefaultedPullPolicy(doc.raw, prev, live.Spec.InitContainers, spec.InitContainers, "initContainers")
	}
	// ValidatePodUpdate: only images, activeDeadlineSeconds, added tolerations
	// and terminationGracePeriodSeconds may change.
	var l errList
	mungedOld := deepCopy(live.Spec)
	mungedNew := deepCopy(spec)
	for i := range mungedNew.Containers {
		if i < len(mungedOld.Containers) {
			mungedOld.Containers[i].Image = mungedNew.Containers[i].Image
		}
	}
	for i := range mungedNew.InitContainers {
		if i < len(mungedOld.InitContainers) {
			mungedOld.InitContainers[i].Image = mungedNew.InitContainers[i].Image
		}
	}
	mungedOld.ActiveDeadlineSeconds = mungedNew.ActiveDeadlineSeconds
	mungedOld.TerminationGracePeriodSeconds = mungedNew.TerminationGracePeriodSeconds
	for _, t := range live.Spec.Tolerations {
		found := false
		for _, n := range spec.Tolerations {
			if t.Key == n.Key && t.Operator == n.Operator && t.Value == n.Value && t.Effect == n.Effect {
				found = true
				break
			}
		}
		if !found {
			l.forbidden("spec.tolerations", "existing toleration can not be modified except its tolerationSeconds")
			break
		}
	}
	mungedOld.Tolerations = mungedNew.Tolerations
	if !semanticEqual(mungedOld, mungedNew) {
		l.forbidden("spec", podUpdateForbidden)
	}
	if len(l) > 0 {
		ds := doc.diagnostics(l, "Pod", pod.Name)
		for i := range ds {
			ds[i].Hint = "a pod's spec is mostly immutable: delete the pod and apply again (or let a DaemonSet manage it)"
		}
		return nil, false, ds
	}
	upd.Spec = spec
	upd.Extra = pod.Extra
	// podStrategy.PrepareForUpdate: updatePodGeneration bumps
	// metadata.generation when the spec changes (metadata alone does not)
	if !semanticEqual(live.Spec, upd.Spec) {
		upd.Generation = live.Generation + 1
	}
	unchanged := a.mode == ModeApply && semanticEqual(live.Spec, upd.Spec) && semanticEqual(live.Labels, upd.Labels) &&
		semanticEqual(live.Annotations, upd.Annotations)
	return upd, unchanged, nil
}

func (a *applier) planNode(doc *Document, n *api.Node) (string, func() error, []Diagnostic) {
	return planObject(a, doc, objectPlan[*api.Node]{
		key: "Node/" + n.Name, res: "node/" + n.Name, resource: "nodes", name: n.Name,
		stored: func() *api.Node { return a.c.Node(n.Name) },
		build: func() (*api.Node, []Diagnostic) {
			// A Node manifest joins a simulated kubelet: it registers like
			// cluster.NewNode (labels, conditions, capacity), then takes the
			// manifest's labels, annotations, taints and unschedulable.
			opts := cluster.NodeOptions{}
			if q, ok := n.Status.Capacity[api.ResourceCPU]; ok {
				opts.CPU = q.String()
			}
			if q, ok := n.Status.Capacity[api.ResourceMemory]; ok {
				opts.Memory = q.String()
			}
			if q, ok := n.Status.Capacity[api.ResourcePods]; ok {
				opts.Pods = q.String()
			}
			node := a.c.NewNode(n.Name, a.c.NodeCount()+a.newNodes, opts)
			a.newNodes++ // several nodes in one file get distinct addresses
			for k, v := range n.Labels {
				node.Labels[k] = v
			}
			// the kubelet finds its Node created and sets the
			// controller-managed attach-detach annotation to its own value
			// (registerWithAPIServer: reconcileCMADAnnotationWithExistingNode)
			kubelet := node.Annotations
			node.Annotations = map[string]string{}
			for k, v := range n.Annotations {
				node.Annotations[k] = v
			}
			for k, v := range kubelet {
				node.Annotations[k] = v
			}
			if a.mode == ModeApply {
				if node.Annotations == nil {
					node.Annotations = map[string]string{}
				}
				node.Annotations[api.LastAppliedConfigAnnotation] = lastApplied(doc, false)
			}
			node.Spec.Taints = n.Spec.Taints
			node.Spec.Unschedulable = n.Spec.Unschedulable
			if n.Spec.PodCIDR != "" {
				node.Spec.PodCIDR = n.Spec.PodCIDR
			}
			if n.Status.Allocatable != nil && n.Status.Capacity == nil {
				node.Status.Allocatable = n.Status.Allocatable
			}
			node.Extra = n.Extra
			return node, nil
		},
		update: func(live *api.Node) (*api.Node, bool, []Diagnostic) {
			upd, unchanged := a.updateNode(doc, n, live)
			return upd, unchanged, nil
		},
		create: a.c.CreateNode,
		put:    a.c.UpdateNode,
	})
}

// updateNode builds the updated node from live and the manifest's node.
func (a *applier) updateNode(doc *Document, n, live *api.Node) (*api.Node, bool) {
	upd := deepCopy(live)
	var prev any
	upd.Labels, upd.Annotations, prev = a.metadata(doc, &live.ObjectMeta, &n.ObjectMeta, false)
	// taints and unschedulable: the manifest's when it sets them (or set
	// them last time), else the live values (kubeadm's, kubectl taint's).
	take := func(field string) bool {
		if a.mode != ModeApply {
			return true
		}
		if _, set := RawField(doc.raw, "spec", field); set {
			return true
		}
		_, was := RawField(prev, "spec", field)
		return was
	}
	if take("taints") {
		upd.Spec.Taints = n.Spec.Taints
	}
	if take("unschedulable") {
		upd.Spec.Unschedulable = n.Spec.Unschedulable
	}
	if upd.Spec.PodCIDR == "" && n.Spec.PodCIDR != "" {
		upd.Spec.PodCIDR = n.Spec.PodCIDR
	}
	unchanged := a.mode == ModeApply && semanticEqual(live.Spec, upd.Spec) && semanticEqual(live.Labels, upd.Labels) &&
		semanticEqual(live.Annotations, upd.Annotations)
	return upd, unchanged
}

// keepDefaultedPullPolicy keeps the live imagePullPolicy of a container
// (matched by name, the patch merge key) that neither this manifest nor the
// previous one set: the server defaulted it at creation, and apply's patch
// does not name it, so a new image (nginx -> nginx:1.25) does not re-default
// it (imagePullPolicy is immutable on a pod).
func keepDefaultedPullPolicy(raw, prev any, live, cs []api.Container, field string) {
	set := func(doc any, name string) bool {
		list, _ := RawField(doc, "spec", field)
		items, _ := list.([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok && m["name"] == name {
				_, has := m["imagePullPolicy"]
				return has
			}
		}
		return false
	}
	for i := range cs {
		for _, l := range live {
			if l.Name == cs[i].Name && !set(raw, cs[i].Name) && !set(prev, cs[i].Name) {
				cs[i].ImagePullPolicy = l.ImagePullPolicy
			}
		}
	}
}
