package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// validationDirective mirrors cmdutil.GetValidationDirective: --validate is
// a boolean (true = Strict, false = Ignore) or one of strict, warn, ignore
// ("" reads as strict, the flag's NoOptDefVal).
func validationDirective(f *flagSet) (manifest.FieldValidation, error) {
	v := f.String("validate")
	if b, err := strconv.ParseBool(v); err == nil {
		if b {
			return manifest.FieldValidationStrict, nil
		}
		return manifest.FieldValidationIgnore, nil
	}
	switch v {
	case "", "strict":
		return manifest.FieldValidationStrict, nil
	case "warn":
		return manifest.FieldValidationWarn, nil
	case "ignore":
		return manifest.FieldValidationIgnore, nil
	}
	return manifest.FieldValidationStrict, fmt.Errorf("invalid - validate option %q; must be one of: strict (or true), warn, ignore (or false)", v)
}

// patchStrictError is the error of `kubectl apply` (Strict field
// validation) for a document with unknown fields whose object already
// exists, d being the document decoded in Warn mode. apply patches an
// existing object (a strategic merge patch, apply.go applyOneObject ->
// Patcher.Patch), and the API server's PATCH handler reports unknown
// fields of the patched object as a 422 that names no object
// (handlers/patch.go applyPatchToObject: errors.NewInvalid(GroupKind{}, "",
// field.Invalid(patch, fmt.Sprintf("%+v", patchMap), strictDecodingError))).
// cmdutil.AddSourceToErr's "error when applying patch: ... for: ..." goes
// into the status message, which checkErr does not print for an Invalid
// error, so kubectl shows `The request is invalid: patch: Invalid value:
// "map[...]": strict decoding error: unknown field "spec.foo"`.
// It is nil when the object does not exist (the create path's BadRequest
// line stands) or d has no unknown field.
func patchStrictError(c *cluster.Cluster, d manifest.Document) error {
	if len(d.UnknownFields) == 0 || d.Object == nil {
		return nil
	}
	live := liveObject(c, d)
	if live == nil {
		return nil
	}
	parts := make([]string, len(d.UnknownFields))
	for i, u := range d.UnknownFields {
		parts[i] = fmt.Sprintf("unknown field %q", u)
	}
	// the PATCH handler's FromUnstructuredWithValidation sorts its
	// unknown field errors by their text
	sort.Strings(parts)
	strictMsg := "strict decoding error: " + strings.Join(parts, ", ")
	patch := applyPatchFor(d, live)
	return &invalidError{causes: []string{fmt.Sprintf("patch: Invalid value: %q: %s", goValue(patch), strictMsg)}}
}

// liveObject is the stored object a document names, nil when there is none.
func liveObject(c *cluster.Cluster, d manifest.Document) any {
	ns := d.Namespace
	if ns == "" {
		ns = api.DefaultNamespace
	}
	rt := objectResourceType(d.Object)
	if rt == nil {
		return nil
	}
	o, err := getObject(c, rt, ns, d.Name)
	if err != nil {
		return nil
	}
	return o.obj
}

// applyPatchFor approximates the patch kubectl apply sends for document d
// against the live object (strategicpatch.CreateThreeWayMergePatch of the
// last-applied configuration, the manifest with its new last-applied
// annotation, and the live object): the fields the manifest sets that the
// live object lacks or holds differently (merge-keyed lists element by
// element, with their $setElementOrder directive), and null for the fields
// the previous last-applied configuration had and the manifest dropped.
// Approximation: list deletions and retainKeys directives are left out.
func applyPatchFor(d manifest.Document, live any) map[string]any {
	modified, _ := d.Raw().(map[string]any)
	if modified == nil {
		return map[string]any{}
	}
	md, _ := modified["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		modified["metadata"] = md
	}
	an, _ := md["annotations"].(map[string]any)
	if an == nil {
		an = map[string]any{}
		md["annotations"] = an
	}
	an[api.LastAppliedConfigAnnotation] = d.LastAppliedConfiguration()
	current, err := RenderObject(live)
	if err != nil {
		current = map[string]any{}
	}
	t, _ := apischema.Lookup(d.APIVersion, d.Kind)
	patch := smpDiff(current, modified, t)
	var original map[string]any
	if m := objectMeta(live); m != nil {
		if s, ok := m.Annotations[api.LastAppliedConfigAnnotation]; ok {
			_ = json.Unmarshal([]byte(s), &original)
		}
	}
	addDeletions(patch, original, modified)
	return patch
}

func objectMeta(o any) *api.ObjectMeta {
	if g, ok := o.(interface{ GetObjectMeta() *api.ObjectMeta }); ok {
		return g.GetObjectMeta()
	}
	switch x := o.(type) {
	case *api.DaemonSet:
		return &x.ObjectMeta
	case *api.Pod:
		return &x.ObjectMeta
	case *api.Node:
		return &x.ObjectMeta
	case *api.Namespace:
		return &x.ObjectMeta
	}
	return nil
}

// smpDiff is the additions-and-changes half of strategicpatch's diffMaps:
// what mod sets that cur lacks or holds differently.
func smpDiff(cur, mod map[string]any, t *apischema.Type) map[string]any {
	out := map[string]any{}
	for k, mv := range mod {
		cv, ok := cur[k]
		if !ok {
			out[k] = mv
			continue
		}
		var f *apischema.Field
		if t != nil && t.Kind == apischema.KindObject {
			f, _ = t.Field(k)
		}
		switch m := mv.(type) {
		case map[string]any:
			cm, ok := cv.(map[string]any)
			if !ok {
				out[k] = mv
				continue
			}
			var sub *apischema.Type
			if f != nil && f.Type.Kind == apischema.KindObject {
				sub = f.Type
			}
			if d := smpDiff(cm, m, sub); len(d) > 0 {
				out[k] = d
			}
		case []any:
			cl, ok := cv.([]any)
			if ok && f != nil && f.PatchMergeKey != "" && strings.Contains(f.PatchStrategy, "merge") && f.Type.Elem != nil {
				if changed, order := mergeListDiff(cl, m, f.PatchMergeKey, f.Type.Elem); len(changed) > 0 {
					out[k] = changed
					out["$setElementOrder/"+k] = order
				}
				continue
			}
			if !jsonSame(cv, mv) {
				out[k] = mv
			}
		default:
			if !jsonSame(cv, mv) {
				out[k] = mv
			}
		}
	}
	return out
}

// mergeListDiff diffs a list merged by key: the changed or added elements
// (each with its merge key) and the $setElementOrder list of mod's keys.
func mergeListDiff(cur, mod []any, key string, elem *apischema.Type) (changed, order []any) {
	byKey := map[string]map[string]any{}
	for _, c := range cur {
		if cm, ok := c.(map[string]any); ok {
			byKey[fmt.Sprint(cm[key])] = cm
		}
	}
	for _, m := range mod {
		mm, ok := m.(map[string]any)
		if !ok {
			continue
		}
		order = append(order, map[string]any{key: mm[key]})
		cm := byKey[fmt.Sprint(mm[key])]
		if cm == nil {
			changed = append(changed, mm)
			continue
		}
		if d := smpDiff(cm, mm, elem); len(d) > 0 {
			d[key] = mm[key]
			changed = append(changed, d)
		}
	}
	return changed, order
}

// addDeletions sets to null, in patch, the map fields orig had that mod
// dropped (the deletions half of CreateThreeWayMergePatch).
func addDeletions(patch, orig, mod map[string]any) {
	for k, ov := range orig {
		mv, ok := mod[k]
		if !ok {
			patch[k] = nil
			continue
		}
		om, ok1 := ov.(map[string]any)
		mm, ok2 := mv.(map[string]any)
		if ok1 && ok2 {
			sub, _ := patch[k].(map[string]any)
			if sub == nil {
				sub = map[string]any{}
			}
			addDeletions(sub, om, mm)
			if len(sub) > 0 {
				patch[k] = sub
			}
		}
	}
}

// jsonSame compares two generic values by their JSON encoding (int64 and
// float64 forms of one number are the same).
func jsonSame(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// errIsManifest reports whether err is a manifest decode error as
// readFiles returns it (manifestError).
func errIsManifest(err error) bool {
	var me *manifest.Error
	var re *rawError
	return errors.As(err, &me) || errors.As(err, &re)
}
