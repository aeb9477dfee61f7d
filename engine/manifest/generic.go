package manifest

import (
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// planGeneric is the create / update / unchanged flow for an object the
// playground stores as written (api.GenericObject). Updates replace the
// top-level fields the manifest sets; with apply, a field the previous
// last-applied configuration set and the manifest dropped is removed and
// fields set by others are kept (the three-way merge of
// strategicpatch.CreateThreeWayMergePatch, at the top level only);
// status is the server's. A spec change bumps metadata.generation, as the
// registry strategies of kinds with a spec do (PrepareForUpdate).
func (a *applier) planGeneric(doc *Document, g *api.GenericObject) (string, func() error, []Diagnostic) {
	gr := g.GroupResource()
	res := strings.ToLower(g.Kind)
	if g.Group != "" {
		res += "." + g.Group
	}
	res += "/" + g.Name
	line, write, diags := planObject(a, doc, objectPlan[*api.GenericObject]{
		key: "Generic/" + gr + "/" + g.Namespace + "/" + g.Name, res: res, resource: gr, name: g.Name,
		stored: func() *api.GenericObject { return a.c.GenericObject(gr, g.Namespace, g.Name) },
		build: func() (*api.GenericObject, []Diagnostic) {
			if g.Namespaced {
				if diags := a.admit(doc, g.Namespace, gr, g.Name); diags != nil {
					return nil, diags
				}
			}
			if a.mode == ModeApply {
				if g.Annotations == nil {
					g.Annotations = map[string]string{}
				}
				g.Annotations[api.LastAppliedConfigAnnotation] = lastApplied(doc, g.Namespaced)
			}
			return g, nil
		},
		update: func(live *api.GenericObject) (*api.GenericObject, bool, []Diagnostic) {
			upd := deepCopy(live)
			var prev any
			upd.Labels, upd.Annotations, prev = a.metadata(doc, &live.ObjectMeta, &g.ObjectMeta, g.Namespaced)
			fields := map[string]any{}
			if a.mode == ModeApply {
				for k, v := range live.Fields {
					fields[k] = v
				}
				if pm, ok := prev.(map[string]any); ok {
					for k := range pm {
						if _, still := g.Fields[k]; !still && k != "status" && k != "metadata" && k != "apiVersion" && k != "kind" {
							delete(fields, k)
						}
					}
				}
			} else if st, ok := live.Fields["status"]; ok {
				fields["status"] = st
			}
			for k, v := range g.Fields {
				fields[k] = deepCopy(v)
			}
			upd.Fields = fields
			if !semanticEqual(live.Fields["spec"], upd.Fields["spec"]) {
				upd.Generation = live.Generation + 1
			}
			return upd, a.mode == ModeApply && semanticEqual(live, upd), nil
		},
		create: a.c.CreateGenericObject,
		put:    a.c.UpdateGenericObject,
	})
	if a.mode == ModeApply && strings.HasSuffix(line, " unchanged") && setsReplaceMap(doc) {
		// the patch is never empty: kubectl sends it, the server finds
		// nothing to change, kubectl says configured
		line = strings.TrimSuffix(line, " unchanged") + " configured"
	}
	return line, write, diags
}

// setsReplaceMap reports whether the manifest sets a mapping whose field
// has patchStrategy replace (a PodDisruptionBudget's spec.selector):
// strategicpatch handleMapDiff puts such a field into the three-way patch
// whether or not it changed, so kubectl apply's patch is not "{}" and it
// prints "configured" (checked against a real v1.37.2 cluster).
func setsReplaceMap(doc *Document) bool {
	t, ok := apischema.Lookup(doc.APIVersion, doc.Kind)
	if !ok {
		return false
	}
	var walk func(v any, t *apischema.Type) bool
	walk = func(v any, t *apischema.Type) bool {
		t = t.Object()
		m, ok := v.(map[string]any)
		if !ok || t == nil {
			return false
		}
		for k, fv := range m {
			f, ok := t.Field(k)
			if !ok {
				continue
			}
			if _, isMap := fv.(map[string]any); isMap && strings.Contains(f.PatchStrategy, "replace") {
				return true
			}
			if list, ok := fv.([]any); ok {
				for _, it := range list {
					if walk(it, f.Type) {
						return true
					}
				}
				continue
			}
			if walk(fv, f.Type) {
				return true
			}
		}
		return false
	}
	return walk(doc.raw, t)
}
