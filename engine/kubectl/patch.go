package kubectl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/internal/sigsyaml"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
)

func patchFlags() []*flagDef {
	return []*flagDef{
		stringFlag("patch", "p", ""),
		stringFlag("patch-file", "", ""),
		stringFlag("type", "", "strategic"),
		dryRunFlag(),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
		{name: "kustomize", shorthand: "k", kind: flagString},
		boolFlag("recursive", "R"),
		boolFlag("local", ""),
		stringFlag("field-manager", "", "kubectl-patch"),
		boolFlag("record", ""),
		stringFlag("subresource", "", ""),
		stringFlag("output", "o", ""),
		stringFlag("template", "", ""),
		boolFlagTrue("allow-missing-template-keys"),
		boolFlag("show-managed-fields", ""),
	}
}

// patchTypeNames are kubectl patch's --type values (patch.go patchTypes),
// as sets.StringKeySet(...).List() prints them.
var patchTypeNames = []string{"json", "merge", "strategic"}

// runPatch mirrors kubectl patch (pkg/cmd/patch PatchOptions Complete,
// Validate, RunPatch) and the API server's PATCH handler
// (apiserver pkg/endpoints/handlers/patch.go): the patch is applied to the
// object's JSON (RenderObject), the result is decoded, defaulted and
// validated as an update (the same checks as kubectl replace), and the store
// is updated. "patched (no change)" is printed when the stored object
// would not change (the handler's update is then a no-op and the object
// kubectl gets back equals the one it read).
func runPatch(inv *invocation) error {
	f := inv.flags
	dry, err := dryRunStrategy(f)
	if err != nil {
		return err
	}
	patchText, patchFile := f.String("patch"), f.String("patch-file")
	switch {
	case patchText != "" && patchFile != "":
		return &plainError{"cannot specify --patch and --patch-file together"}
	case patchText == "" && patchFile == "":
		return &plainError{"must specify --patch or --patch-file containing the contents of the patch"}
	}
	local := f.Bool("local")
	if local && len(inv.args) != 0 {
		return &plainError{"cannot specify --local and server resources"}
	}
	if local && dry == "server" {
		return &plainError{"cannot specify --local and --dry-run=server - did you mean --dry-run=client?"}
	}
	ptype := strings.ToLower(f.String("type"))
	if ptype != "" && !contains(patchTypeNames, ptype) {
		return &plainError{fmt.Sprintf("--type must be one of %v, not %q", patchTypeNames, f.String("type"))}
	}
	if ptype == "" {
		ptype = "strategic"
	}
	if sr := f.String("subresource"); sr != "" {
		if sr != "status" && sr != "scale" {
			return &plainError{fmt.Sprintf("invalid subresource value: %q. Must be one of [status scale]", sr)}
		}
		return &plainError{"patch --subresource is not simulated in the playground"}
	}
	if local {
		return &plainError{"patch --local is not simulated in the playground"}
	}
	if f.String("kustomize") != "" {
		return &plainError{"-k (kustomize) is not simulated in the playground"}
	}
	switch o := f.String("output"); o {
	case "", "name", "yaml", "json":
	default:
		return &plainError{fmt.Sprintf("-o %s is not simulated in the playground for patch (only -o name, yaml and json)", o)}
	}

	raw := []byte(patchText)
	if patchFile != "" {
		text, ok := inv.env.Files[patchFile]
		if !ok {
			return &plainError{fmt.Sprintf("unable to read patch file: open %s: no such file or directory", patchFile)}
		}
		raw = []byte(text)
	}
	// apimachinery util/yaml ToJSON: text that starts with "{" is taken
	// as JSON as it is; anything else is converted from YAML.
	if !bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("{")) {
		j, err := sigsyaml.YAMLToJSON(raw)
		if err != nil {
			// upstream quotes o.Patch, which is empty with --patch-file
			return &plainError{fmt.Sprintf("unable to parse %q: %v", patchText, err)}
		}
		raw = j
	}

	var ts []target
	if files := f.Strings("filename"); len(files) > 0 {
		if len(inv.args) > 0 {
			// resource.Builder visitByPaths
			return &plainError{"when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well"}
		}
		ts, err = inv.fileTargets(files, "")
	} else {
		if len(inv.args) == 0 {
			return &plainError{"You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"}
		}
		ts, err = inv.targets(inv.args, targetSelector{})
	}
	if err != nil {
		return err
	}
	record, cause := inv.recordFlag()
	err = visitTargets(ts, func(o object) error {
		op, res, err := inv.patchObject(o, ptype, raw, dry)
		if err != nil {
			return err
		}
		if record && dry == "" {
			// Recorder.MakeRecordMergePatch: a second, merge patch sets
			// the change-cause annotation (its errors are only logged)
			if cur, err := getObject(inv.env.Cluster, o.rt, o.meta.Namespace, o.meta.Name); err == nil {
				if rec, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{api.ChangeCauseAnnotation: cause}}}); err == nil {
					if _, recorded, err := inv.patchObject(cur, "merge", rec, ""); err == nil {
						res = recorded
					}
				}
			}
		}
		switch f.String("output") {
		case "yaml", "json":
			var text string
			if f.String("output") == "yaml" {
				text, err = MarshalYAML(res)
			} else {
				text, err = MarshalJSON(res)
			}
			if err != nil {
				return err
			}
			inv.out.WriteString(text)
		default:
			nameOutput(inv, o.rt, o.meta.Name, op+dryRunSuffix(dry))
		}
		return nil
	})
	if len(ts) == 0 {
		return &plainError{"no objects passed to patch"}
	}
	return err
}

// patchObject applies the patch to one object (dry: "", "client" or
// "server") and returns the operation kubectl prints ("patched" or
// "patched (no change)") and the object after the patch.
func (inv *invocation) patchObject(o object, ptype string, patch []byte, dry string) (string, map[string]any, error) {
	switch o.obj.(type) {
	case *api.DaemonSet, *api.Pod, *api.Node, *api.Namespace:
	default:
		return "", nil, &plainError{fmt.Sprintf("patching %s is not simulated in the playground", o.rt.resource)}
	}
	orig, err := RenderObject(o.obj)
	if err != nil {
		return "", nil, err
	}
	if dry == "client" {
		// kubectl applies the patch itself (getPatchedJSON) and prints the
		// result; nothing is sent to the server.
		patched, err := clientPatchedJSON(ptype, deepCopyJSON(orig).(map[string]any), patch, o.rt)
		if err != nil {
			return "", nil, err
		}
		return patchOperation(!reflect.DeepEqual(orig, patched)), patched, nil
	}
	patched, patchMap, err := serverApplyPatch(ptype, deepCopyJSON(orig).(map[string]any), patch, o.rt)
	if err != nil {
		return "", nil, err
	}
	if err := checkPatchedMeta(o, patched); err != nil {
		return "", nil, err
	}
	// the typed object's apiVersion and kind are the resource's
	patched["apiVersion"], patched["kind"] = orig["apiVersion"], orig["kind"]
	// The patch was applied to the object as the API server returns it,
	// with defaults the store does not hold (securityContext {}, the
	// termination-message fields): those the patch left alone are taken
	// out again, or the decoded object would hold them as new fields and
	// its pod template would hash to a new ControllerRevision.
	stored, err := renderObject(o.obj, false)
	if err != nil {
		return "", nil, err
	}
	dropDisplayDefaults(orig, stored, patched)
	docs, err := inv.decodeServerPatched(o, patched, ptype, patchMap)
	if err != nil {
		return "", nil, err
	}
	before, err := decodePatched(o, stored)
	if err != nil {
		return "", nil, manifestError(err)
	}
	if reflect.DeepEqual(updatedFields(before[0].Object), updatedFields(docs[0].Object)) {
		return patchOperation(false), orig, nil
	}
	c := inv.env.Cluster
	if dry == "server" {
		// validate the update without writing: the same update on a store
		// holding only this object
		if err := dryRunUpdate(o, before, docs); err != nil {
			return "", nil, err
		}
		// the strategy's PrepareForUpdate runs in a dry run too: a pod
		// whose spec changes answers with the next generation
		// (pkg/registry/core/pod/strategy.go updatePodGeneration)
		if bp, ok := before[0].Object.(*api.Pod); ok {
			if ap, ok := docs[0].Object.(*api.Pod); ok && !reflect.DeepEqual(bp.Spec, ap.Spec) {
				if m, ok := patched["metadata"].(map[string]any); ok {
					if g, ok := m["generation"].(int64); ok {
						m["generation"] = g + 1
					}
				}
			}
		}
		return patchOperation(true), patched, nil
	}
	if _, err := inv.applyPrintingWarnings(docs, manifest.ModeReplace); err != nil {
		return "", nil, manifestError(err)
	}
	cur, err := getObject(c, o.rt, o.meta.Namespace, o.meta.Name)
	if err != nil {
		return "", nil, err
	}
	res, err := RenderObject(cur.obj)
	if err != nil {
		return "", nil, err
	}
	c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "RunPatch", Object: decisionObject(cur),
		Node: decisionNode(cur), Action: "patch", Reason: fmt.Sprintf("%s: %s patch applied", inv.line, ptype)})
	return patchOperation(true), res, nil
}

// patchOperation mirrors patch.go patchOperation.
func patchOperation(didPatch bool) string {
	if didPatch {
		return "patched"
	}
	return "patched (no change)"
}

// serverApplyPatch applies a patch as the API server's PATCH handler does
// with kubectl's request (no fieldValidation parameter, so the handler's
// default, Warn): jsonPatcher.applyJSPatch for json and merge,
// strategicPatchObject for strategic. Errors are the handler's API errors.
//
// For a strategic merge patch it also returns the decoded patch as the
// merge left it (the handler prints it in its decoding errors).
func serverApplyPatch(ptype string, orig map[string]any, patch []byte, rt *resourceType) (map[string]any, map[string]any, error) {
	if ptype == "strategic" {
		var probe map[string]any
		if err := json.Unmarshal(patch, &probe); err != nil {
			return nil, nil, badRequest(err.Error())
		}
		pm := map[string]any{}
		if probe != nil {
			var err error
			if pm, err = decodeJSONObject(patch); err != nil {
				return nil, nil, badRequest(err.Error())
			}
		}
		out, err := strategicMergeMapPatch(orig, pm, patchSchemaFor(rt.apiVersion(), rt.kind))
		if err != nil {
			return nil, nil, interpretSMPError(err)
		}
		return out, pm, nil
	}
	out, err := jsonServerPatch(ptype, orig, patch)
	return out, nil, err
}

// jsonServerPatch is jsonPatcher.applyJSPatch: json (RFC 6902) and merge
// (RFC 7386) patches, applied as json-patch.v4 applies them.
func jsonServerPatch(ptype string, orig map[string]any, patch []byte) (map[string]any, error) {
	if ptype == "json" {
		// the strict decoding of Warn mode comes first
		var ops []jsonPatchOp
		if err := json.Unmarshal(patch, &ops); err != nil {
			return nil, badRequest("error decoding patch: " + handlerTypeName(err.Error()))
		}
		p, err := decodeJSONPatch(patch)
		if err != nil {
			return nil, badRequest(err.Error())
		}
		out, err := applyJSONPatch(orig, p)
		if err != nil {
			// NewGenericServerResponse(422, ...): no kind, no name, no
			// causes; kubectl prints "The request is invalid"
			return nil, &invalidError{}
		}
		m, ok := out.(map[string]any)
		if !ok {
			return nil, &invalidError{}
		}
		return m, nil
	}
	var m map[string]any
	if err := json.Unmarshal(patch, &m); err != nil {
		return nil, badRequest("error decoding patch: " + err.Error())
	}
	out, err := mergePatchJSON(orig, patch)
	if err != nil {
		return nil, badRequest(err.Error())
	}
	return out, nil
}

// clientPatchedJSON mirrors patch.go getPatchedJSON, kubectl's own patching
// for --dry-run=client: the library's errors are printed as they are.
func clientPatchedJSON(ptype string, orig map[string]any, patch []byte, rt *resourceType) (map[string]any, error) {
	switch ptype {
	case "json":
		p, err := decodeJSONPatch(patch)
		if err != nil {
			return nil, err
		}
		out, err := applyJSONPatch(orig, p)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "doc is missing key") {
				k := strings.Index(msg, "key:")
				return nil, fmt.Errorf("Object to be patched is missing field (%s)", msg[k+5:])
			}
			return nil, err
		}
		m, ok := out.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("Object 'Kind' is missing in '%s'", goValue(out))
		}
		return m, nil
	case "merge":
		return mergePatchJSON(orig, patch)
	default:
		var probe map[string]any
		if err := json.Unmarshal(patch, &probe); err != nil {
			return nil, errors.New("invalid JSON document")
		}
		pm := map[string]any{}
		if probe != nil {
			var err error
			if pm, err = decodeJSONObject(patch); err != nil {
				return nil, errors.New("invalid JSON document")
			}
		}
		return strategicMergeMapPatch(orig, pm, patchSchemaFor(rt.apiVersion(), rt.kind))
	}
}

// jsonPatchOp is the handler's jsonPatchOp, decoded first in Warn mode.
type jsonPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	From  string `json:"from"`
	Value any    `json:"value"`
}

// handlerTypeName names the decoding target as the handler's own type
// (handlers.jsonPatchOp) in encoding/json messages.
func handlerTypeName(msg string) string {
	return strings.ReplaceAll(msg, "kubectl.jsonPatchOp", "handlers.jsonPatchOp")
}

func badRequest(msg string) error {
	return &cluster.StatusError{Reason: "BadRequest", Message: msg}
}

// interpretSMPError mirrors handlers/patch.go
// interpretStrategicMergePatchError: format errors are 400 BadRequest, a
// list of lists and a retainKeys mismatch 422 Invalid (printed "The
// request is invalid"); anything else reaches kubectl as a 500 without a
// reason: `Error from server: <message>`.
func interpretSMPError(err error) error {
	switch err {
	case errSMPBadPrimitiveList, errSMPBadRetainKeys, errSMPBadSetElementOrderList:
		return badRequest(err.Error())
	case errSMPNoListOfLists, errSMPPatchNotMatchRetainKeys:
		return &invalidError{}
	}
	return &cluster.StatusError{Message: err.Error()}
}

// decodeJSONObject decodes a JSON object with unstructured's value types
// (int64 for integers).
func decodeJSONObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	m, ok := normalize(v).(map[string]any)
	if !ok {
		return nil, &invalidError{}
	}
	return m, nil
}

// deepCopyJSON copies a decoded JSON value.
func deepCopyJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopyJSON(e)
		}
		return out
	}
	return v
}

// checkPatchedMeta mirrors the checks the handler and the update make on
// the patched object's metadata: checkName (400 BadRequest), rest
// EnsureObjectNamespaceMatchesRequestNamespace (400), the resourceVersion
// precondition (409 Conflict) and ValidateObjectMetaUpdate's immutable uid.
func checkPatchedMeta(o object, patched map[string]any) error {
	md, _ := patched["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		patched["metadata"] = md
	}
	str := func(k string) string { s, _ := md[k].(string); return s }
	if name := str("name"); name != o.meta.Name {
		if name == "" {
			md["name"] = o.meta.Name
		} else {
			return badRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", name, o.meta.Name))
		}
	}
	ns := str("namespace")
	switch {
	case o.rt.namespaced && ns == "":
		md["namespace"] = o.meta.Namespace
	case (o.rt.namespaced && ns != o.meta.Namespace) || (!o.rt.namespaced && ns != ""):
		return badRequest("the namespace of the provided object does not match the namespace sent on the request")
	}
	if rv := str("resourceVersion"); rv != "" && rv != o.meta.ResourceVersion {
		return &cluster.StatusError{Reason: "Conflict", Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", o.rt.groupResource(), o.meta.Name)}
	}
	if uid := str("uid"); uid != "" && uid != o.meta.UID {
		return &invalidError{kind: o.rt.kind, name: o.meta.Name, causes: []string{fmt.Sprintf("metadata.uid: Invalid value: %q: field is immutable", uid)}}
	}
	return nil
}

// decodePatched decodes a patched object through the manifest decoder
// (strict fields, defaults, validation), the way the API server decodes
// the patch result into its typed object.
func decodePatched(o object, m map[string]any) ([]manifest.Document, error) {
	// JSON is YAML: the decoder reads it as the API server reads the
	// JSON kubectl sends (and quicker than YAML text)
	text, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	docs, err := manifest.Decode(o.rt.resource+"/"+o.meta.Name, string(text))
	if err != nil {
		return nil, err
	}
	if len(docs) != 1 || docs[0].Object == nil {
		return nil, &invalidError{}
	}
	return docs, nil
}

// updatedFields is what an update (kubectl replace's, manifest.ApplyTo
// ModeReplace) takes from a decoded object: labels, annotations, spec and
// the fields the playground does not model. Status and the system
// metadata fields stay the server's, as the registry strategies'
// PrepareForUpdate keep them.
func updatedFields(obj any) any {
	type fields struct {
		Labels, Annotations map[string]string
		Spec                any
		Extra               api.Unmodeled
	}
	switch x := obj.(type) {
	case *api.DaemonSet:
		return fields{x.Labels, x.Annotations, x.Spec, x.Extra}
	case *api.Pod:
		return fields{x.Labels, x.Annotations, x.Spec, x.Extra}
	case *api.Node:
		return fields{x.Labels, x.Annotations, x.Spec, x.Extra}
	case *api.Namespace:
		return fields{x.Labels, x.Annotations, nil, x.Extra}
	}
	return obj
}

// dryRunUpdate runs the update's checks (ApplyTo's planning: immutable
// selector, pod update rules) without touching the real store: on a store
// that holds only the object before the patch.
func dryRunUpdate(o object, before, after []manifest.Document) error {
	scratch := cluster.New(1)
	if o.rt.namespaced && o.meta.Namespace != api.DefaultNamespace {
		scratch.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: o.meta.Namespace}})
	}
	if _, err := manifest.ApplyTo(scratch, before, manifest.ModeCreate); err != nil {
		// the object cannot be recreated apart (it was admitted under
		// rules the scratch store does not have): skip the dry check
		return nil
	}
	if _, err := manifest.ApplyTo(scratch, after, manifest.ModeReplace); err != nil {
		return manifestError(err)
	}
	return nil
}

// decodeServerPatched decodes the patched object as the handler does with
// kubectl's request (field validation Warn): unknown fields are dropped
// with a `Warning: unknown field "spec.foo"` line on stderr, and a value of
// the wrong type is a 422 naming the "patch" field (`The request is
// invalid: patch: Invalid value: ...`); defaulting and validation follow.
func (inv *invocation) decodeServerPatched(o object, patched map[string]any, ptype string, patchMap map[string]any) ([]manifest.Document, error) {
	docs, err := decodePatched(o, patched)
	var me *manifest.Error
	if err == nil || !errors.As(err, &me) {
		return docs, err
	}
	err = manifestError(err)
	var unknown []string
	for _, d := range me.Diagnostics {
		if strings.HasPrefix(d.Message, "json: cannot unmarshal ") {
			// applyPatchToObject (strategic) prints the patch and the
			// converter's error, jsonPatcher the patched object and
			// the JSON decoder's error
			if ptype == "strategic" {
				return nil, &invalidError{causes: []string{fmt.Sprintf("patch: Invalid value: %q: %s", goValue(patchMap), converterError(d.Message))}}
			}
			js, _ := json.Marshal(patched)
			return nil, &invalidError{causes: []string{fmt.Sprintf("patch: Invalid value: %q: %s", string(js), d.Message)}}
		}
		if p, ok := strings.CutPrefix(d.Message, "strict decoding error: unknown field "); ok {
			unknown = append(unknown, strings.Trim(p, `"`))
		}
	}
	if len(unknown) == 0 {
		return nil, err
	}
	for _, u := range unknown {
		fmt.Fprintf(&inv.errOut, "Warning: unknown field %q\n", u)
		dropJSONPath(patched, u)
	}
	docs, err = decodePatched(o, patched)
	return docs, manifestError(err)
}

// converterError rewrites encoding/json's type error ("json: cannot
// unmarshal string into Go struct field DaemonSetSpec.spec.minReadySeconds
// of type int32") as runtime.DefaultUnstructuredConverter reports the same
// mismatch (converter.go fromUnstructured): "unrecognized type: int32",
// "cannot convert int64 to string", "cannot restore slice from map" ...
func converterError(msg string) string {
	rest := strings.TrimPrefix(msg, "json: cannot unmarshal ")
	what, _, _ := strings.Cut(rest, " into ")
	i := strings.LastIndex(rest, " of type ")
	if i < 0 {
		return msg
	}
	goType := strings.TrimPrefix(rest[i+len(" of type "):], "*")
	src := "string"
	switch {
	case what == "object":
		src = "map"
	case what == "array":
		src = "slice"
	case what == "bool":
		src = "bool"
	case strings.HasPrefix(what, "number"):
		src = "int64"
		if strings.ContainsAny(what, ".eE") {
			src = "float64"
		}
	}
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "cannot restore slice from " + src
	case strings.HasPrefix(goType, "map[") || goType == "v1.ResourceList":
		return "cannot restore map from " + src
	case goType == "resource.Quantity" || goType == "intstr.IntOrString":
		return msg
	case strings.Contains(goType, "."):
		return "cannot restore struct from: " + src
	case goType == "string" && (src == "int64" || src == "float64"):
		return "cannot convert " + src + " to string"
	case strings.HasPrefix(goType, "int") && src == "float64":
		return "cannot convert float64 to " + goType
	}
	return "unrecognized type: " + goType
}

// dropJSONPath removes the field at a strict-decoding path
// ("spec.template.spec.containers[0].foo") from a JSON object. Keys are
// matched whole, so a key holding dots or brackets is found too.
func dropJSONPath(m map[string]any, p string) {
	obj := m
	for p != "" {
		var key string
		for k := range obj {
			rest, ok := strings.CutPrefix(p, k)
			if ok && (rest == "" || rest[0] == '.' || rest[0] == '[') && len(k) > len(key) {
				key = k
			}
		}
		if key == "" {
			return
		}
		rest := p[len(key):]
		if rest == "" {
			delete(obj, key)
			return
		}
		cur := obj[key]
		for strings.HasPrefix(rest, "[") {
			end := strings.Index(rest, "]")
			n, err := strconv.Atoi(rest[1:max(end, 1)])
			l, ok := cur.([]any)
			if end < 0 || err != nil || !ok || n < 0 || n >= len(l) {
				return
			}
			cur, rest = l[n], rest[end+1:]
		}
		next, ok := cur.(map[string]any)
		if !ok || !strings.HasPrefix(rest, ".") {
			return
		}
		obj, p = next, rest[1:]
	}
}

// dropDisplayDefaults deletes from patched (in place) every value that
// orig, the object as rendered with the API server's defaults, has and
// stored, the same object as the store holds it, lacks, where patched
// still holds that value unchanged. List items are matched by index, and
// only while both lists have the same length and the items the same
// "name" (containers, volumes), so a reordering patch keeps what it wrote.
func dropDisplayDefaults(orig, stored, patched any) {
	switch o := orig.(type) {
	case map[string]any:
		s, _ := stored.(map[string]any)
		p, ok := patched.(map[string]any)
		if !ok {
			return
		}
		for k, ov := range o {
			pv, inPatched := p[k]
			if !inPatched {
				continue
			}
			sv, inStored := s[k]
			if !inStored {
				if reflect.DeepEqual(ov, pv) {
					delete(p, k)
				}
				continue
			}
			dropDisplayDefaults(ov, sv, pv)
		}
	case []any:
		s, _ := stored.([]any)
		p, ok := patched.([]any)
		if !ok || len(s) != len(o) || len(p) != len(o) {
			return
		}
		for i := range o {
			on, _ := o[i].(map[string]any)
			pn, _ := p[i].(map[string]any)
			if on != nil && pn != nil && reflect.DeepEqual(on["name"], pn["name"]) {
				dropDisplayDefaults(o[i], s[i], p[i])
			}
		}
	}
}
