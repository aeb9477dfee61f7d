package manifest

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/internal/sigsyaml"
	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// removedVersions are API versions that once served a kind and are gone
// (extensions/v1beta1 and apps/v1beta2 DaemonSets were removed in 1.16).
var removedVersions = map[string]string{
	"extensions/v1beta1": "apps/v1",
	"apps/v1beta1":       "apps/v1",
	"apps/v1beta2":       "apps/v1",
}

// simulated maps a kind to its one served apiVersion.
var simulated = map[string]string{"DaemonSet": "apps/v1", "Node": "v1", "Pod": "v1", "Namespace": "v1",
	"ServiceAccount": "v1", "ConfigMap": "v1", "Secret": "v1"}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// piece is one object's outcome of decodeDocument: the document, or the
// problems that kept it from decoding.
type piece struct {
	doc   *Document
	diags []Diagnostic
}

// decodeDocument decodes one `---`-separated document: one object, or the
// items of a v1 List, each a piece of its own.
func decodeDocument(file string, ch chunk, opts DecodeOptions) []piece {
	if strings.TrimSpace(stripComments(ch.text)) == "" {
		return nil
	}
	d := &decoder{file: file, lineBase: ch.line - 1, doc: &Document{file: file}, opts: opts}
	var root yaml.Node
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("yaml: %v", r)
			}
		}()
		return yaml.Unmarshal([]byte(ch.text), &root)
	}()
	if err != nil {
		return []piece{{diags: syntaxDiagnostics(file, ch, err)}}
	}
	if len(root.Content) == 0 {
		return nil
	}
	top := d.resolve(root.Content[0])
	if top == nil {
		return []piece{{diags: d.diags}}
	}
	if top.Kind == yaml.ScalarNode && scalarKind(top) == "null" {
		return nil
	}
	var out []piece
	if items, ok := listItems(top); ok {
		// kind: List (what `kubectl get -o yaml` prints for several
		// objects): kubectl's resource builder flattens it into its items
		// (FlattenListVisitor, meta.ExtractList), applied in order.
		for _, it := range items {
			doc, ds := decodeObject(file, ch, it, opts)
			out = append(out, piece{doc: doc, diags: ds})
		}
		return out
	}
	doc, ds := decodeObject(file, ch, top, opts)
	return []piece{{doc: doc, diags: ds}}
}

// listItems returns the items of a `kind: List` (apiVersion v1) mapping;
// ok is false for any other document. A List whose items are not a
// sequence of mappings is left to decodeObject, which reports the kind as
// not simulated.
func listItems(top *yaml.Node) (items []*yaml.Node, ok bool) {
	if top.Kind != yaml.MappingNode {
		return nil, false
	}
	var kind, apiVersion string
	var itemsNode *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		switch top.Content[i].Value {
		case "kind":
			kind = top.Content[i+1].Value
		case "apiVersion":
			apiVersion = top.Content[i+1].Value
		case "items":
			itemsNode = top.Content[i+1]
		}
	}
	if kind != "List" || apiVersion != "v1" {
		return nil, false
	}
	if itemsNode == nil || (itemsNode.Kind == yaml.ScalarNode && scalarKind(itemsNode) == "null") {
		return nil, true
	}
	if itemsNode.Kind != yaml.SequenceNode {
		return nil, false
	}
	for _, it := range itemsNode.Content {
		if it.Kind == yaml.AliasNode {
			it = it.Alias
		}
		if it == nil || it.Kind != yaml.MappingNode {
			return nil, false
		}
	}
	return itemsNode.Content, true
}

// decodeObject decodes one object's mapping (a document, or an item of a
// List) of chunk ch.
func decodeObject(file string, ch chunk, top *yaml.Node, opts DecodeOptions) (doc *Document, diags []Diagnostic) {
	d := &decoder{file: file, lineBase: ch.line - 1, doc: &Document{file: file, verb: opts.Verb}, opts: opts}
	top = d.resolve(top)
	if top == nil {
		return d.doc, d.diags
	}
	line, col := d.at(top)
	d.doc.Line = line
	if top.Kind != yaml.MappingNode {
		msg := fmt.Sprintf("json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonType(top))
		hint := "a manifest is a mapping of `key: value` lines starting with apiVersion: and kind:"
		diags = append(diags, Diagnostic{File: file, Line: line, Column: col, Message: msg, Hint: hint,
			kubectl: fmt.Sprintf("error: unable to decode %q: %s", file, msg)})
		return d.doc, append(diags, lineHints(file, ch, "", true)...)
	}
	// apiVersion and kind, as kubectl's client-side checks see them.
	var apiVersion, kind string
	var errs []string
	var kindNode *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := d.resolve(top.Content[i]), d.resolve(top.Content[i+1])
		if k == nil || v == nil {
			continue
		}
		switch k.Value {
		case "apiVersion", "kind":
			if v.Kind != yaml.ScalarNode || scalarKind(v) != "string" {
				if !(v.Kind == yaml.ScalarNode && scalarKind(v) == "null") {
					errs = append(errs, k.Value+" isn't string type")
				}
				continue
			}
			if k.Value == "kind" {
				kind, kindNode = v.Value, v
			} else {
				apiVersion = v.Value
			}
			d.record(k.Value, v)
		}
	}
	if apiVersion == "" && !slices.Contains(errs, "apiVersion isn't string type") {
		errs = append([]string{"apiVersion not set"}, errs...)
	}
	if kind == "" && !slices.Contains(errs, "kind isn't string type") {
		errs = append(errs, "kind not set")
	}
	d.doc.APIVersion, d.doc.Kind = apiVersion, kind
	name, namespace := metaNameNamespace(d, top)
	d.doc.Name, d.doc.Namespace = name, namespace
	if len(errs) > 0 {
		msg := errs[0]
		if len(errs) > 1 {
			msg = "[" + strings.Join(errs, ", ") + "]"
		}
		hint := "every manifest starts with apiVersion: and kind:, e.g. `apiVersion: apps/v1` and `kind: DaemonSet`"
		diags = append(diags, Diagnostic{File: file, Line: line, Column: col,
			Message: "error validating data: " + msg, Hint: hint,
			kubectl: fmt.Sprintf("error: error validating %q: error validating data: %s; if you choose to ignore these errors, turn validation off with --validate=false", file, msg)})
		return d.doc, append(diags, lineHints(file, ch, kind, true)...)
	}
	want, ok := simulated[kind]
	if !ok {
		for k := range simulated {
			if strings.EqualFold(k, kind) {
				l, c := d.at(kindNode)
				diags = append(diags, noMatch(file, l, c, name, namespace, kind, apiVersion,
					fmt.Sprintf("kinds are case-sensitive: write `kind: %s`", k)))
				return d.doc, diags
			}
		}
		if _, served := apischema.ServedKind(apiVersion, kind); !served {
			// kubectl's RESTMapper knows only what discovery lists
			// (resource.Mapper infoForData: `resource mapping not found
			// for name: ... ensure CRDs are installed first`)
			l, c := d.at(top)
			if p, ok := d.doc.pos["apiVersion"]; ok {
				l, c = p.line, p.col
			}
			diags = append(diags, noMatch(file, l, c, name, namespace, kind, apiVersion, unservedHint(apiVersion, kind)))
			return d.doc, diags
		}
		return decodeGeneric(d, ch, top, apiVersion, kind)
	}
	if apiVersion != want {
		hint := fmt.Sprintf("%s is served as %s; write `apiVersion: %s`", kind, want, want)
		if repl, removed := removedVersions[apiVersion]; removed && kind == "DaemonSet" {
			hint = fmt.Sprintf("%s was removed in Kubernetes 1.16; use `apiVersion: %s` (apps/v1 also requires spec.selector, matching the template's labels)", apiVersion, repl)
		}
		l, c := d.at(top)
		if p, ok := d.doc.pos["apiVersion"]; ok {
			l, c = p.line, p.col
		}
		diags = append(diags, noMatch(file, l, c, name, namespace, kind, apiVersion, hint))
		return d.doc, diags
	}
	d.kind = kind
	d.version = apiVersion[strings.LastIndex(apiVersion, "/")+1:]
	var obj any
	var meta *api.ObjectMeta
	switch kind {
	case "DaemonSet":
		ds := &api.DaemonSet{TypeMeta: api.TypeMeta{APIVersion: apiVersion, Kind: kind}}
		ds.Extra = d.object(top, &ds.ObjectMeta, map[string]func(*yaml.Node){
			"spec": func(v *yaml.Node) { d.daemonSetSpec(v, "spec", &ds.Spec) },
		})
		obj, meta = ds, &ds.ObjectMeta
	case "Pod":
		pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: apiVersion, Kind: kind}}
		pod.Extra = d.object(top, &pod.ObjectMeta, map[string]func(*yaml.Node){
			"spec": func(v *yaml.Node) { d.podSpec(v, "spec", &pod.Spec) },
		})
		obj, meta = pod, &pod.ObjectMeta
	case "Namespace":
		ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: apiVersion, Kind: kind}}
		ns.Extra = d.object(top, &ns.ObjectMeta, map[string]func(*yaml.Node){
			"spec": func(v *yaml.Node) { d.namespaceSpec(v, "spec", &ns.Spec) },
		})
		obj, meta = ns, &ns.ObjectMeta
	case "Node":
		node := &api.Node{TypeMeta: api.TypeMeta{APIVersion: apiVersion, Kind: kind}}
		node.Extra = d.object(top, &node.ObjectMeta, map[string]func(*yaml.Node){
			"spec":   func(v *yaml.Node) { d.nodeSpec(v, "spec", &node.Spec) },
			"status": func(v *yaml.Node) { d.nodeStatus(v, "status", &node.Status) },
		})
		obj, meta = node, &node.ObjectMeta
	default: // ServiceAccount, ConfigMap, Secret: configobjects.go
		obj, meta, _ = d.decodeConfigObject(kind, apiVersion, top)
	}
	d.strict(ch, top, apiVersion)
	if len(d.extra) == 0 {
		clearExtra(obj) // every kept field was an unknown one, dropped
	}
	if len(d.diags) > 0 {
		sortDiagnostics(d.diags)
		return d.doc, append(d.diags, d.withoutStrictRepeats(lineHints(file, ch, kind, true))...)
	}
	d.doc.raw = d.toAny(top)
	d.doc.Object = obj
	SetDefaults(obj)
	d.doc.Name, d.doc.Namespace = meta.Name, meta.Namespace
	if vd := d.doc.validate(); len(vd) > 0 {
		// the copy-paste hints only when something is wrong
		return d.doc, append(vd, lineHints(file, ch, kind, true)...)
	}
	return d.doc, nil
}

// decodeGeneric decodes an object of a kind the API server serves and the
// playground does not simulate into an api.GenericObject: metadata as for
// every kind, the other top-level fields kept as written (status dropped,
// as the API server drops it on create and update), checked against the
// kind's schema when engine/schema has it (unknown fields, types).
func decodeGeneric(d *decoder, ch chunk, top *yaml.Node, apiVersion, kind string) (*Document, []Diagnostic) {
	r, _ := apischema.ServedKind(apiVersion, kind)
	d.kind = kind
	d.version = apiVersion[strings.LastIndex(apiVersion, "/")+1:]
	g := &api.GenericObject{TypeMeta: api.TypeMeta{APIVersion: apiVersion, Kind: kind}, Group: r.Group, Resource: r.Resource, Namespaced: r.Namespaced}
	d.object(top, &g.ObjectMeta, nil)
	d.strict(ch, top, apiVersion)
	if len(d.diags) > 0 {
		sortDiagnostics(d.diags)
		return d.doc, append(d.diags, d.withoutStrictRepeats(lineHints(d.file, ch, kind, true))...)
	}
	g.Fields = d.extra[""]
	if g.Fields == nil {
		g.Fields = map[string]any{}
	}
	if r.Group == "scheduling.k8s.io" && kind == "PriorityClass" {
		// pkg/apis/scheduling/v1 SetDefaults_PriorityClass
		if _, ok := g.Fields["preemptionPolicy"]; !ok {
			g.Fields["preemptionPolicy"] = "PreemptLowerPriority"
		}
	}
	if !r.Namespaced {
		g.Namespace = ""
	} else if g.Namespace == "" {
		g.Namespace = api.DefaultNamespace // SetNamespace gives -n's
	}
	d.doc.raw = d.toAny(top)
	d.doc.Object = g
	d.doc.Name, d.doc.Namespace = g.Name, g.Namespace
	if vd := d.doc.validate(); len(vd) > 0 {
		return d.doc, vd
	}
	return d.doc, nil
}

// clearExtra resets an object's Extra to nil (an empty Unmodeled left by
// DecodeWith dropping unknown fields reads as "no unmodeled fields").
func clearExtra(obj any) {
	switch o := obj.(type) {
	case *api.DaemonSet:
		o.Extra = nil
	case *api.Pod:
		o.Extra = nil
	case *api.Node:
		o.Extra = nil
	case *api.Namespace:
		o.Extra = nil
	case *api.ServiceAccount:
		o.Extra = nil
	case *api.ConfigMap:
		o.Extra = nil
	case *api.Secret:
		o.Extra = nil
	}
}

// object decodes the top-level mapping: apiVersion and kind (already read),
// metadata, and the kind-specific fields through their decoder in fields;
// status is dropped (as the API server does) unless fields takes it;
// unknown fields go to the returned Extra.
func (d *decoder) object(top *yaml.Node, meta *api.ObjectMeta, fields map[string]func(v *yaml.Node)) api.Unmodeled {
	f := func(k string, v *yaml.Node) bool {
		fn, ok := fields[k]
		if ok {
			fn(v)
		}
		return ok
	}
	d.record("", top)
	kvs, _ := d.fields(top, "", d.kind, "map[string]interface {}")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		switch k {
		case "apiVersion", "kind":
		case "metadata":
			d.objectMeta(v, "metadata", meta)
		case "status":
			// the API server ignores status on create and update of the main
			// resource; a Node's capacity is read by the kind's own decoder
			if !f(k, v) {
				d.record(k, v)
			}
		default:
			if !f(k, v) {
				d.record(k, v)
				d.keep("", k, v)
			}
		}
	}
	return d.extra
}

func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		if ds[i].Line != ds[j].Line {
			return ds[i].Line < ds[j].Line
		}
		return ds[i].Column < ds[j].Column
	})
	// the first printed line must stay the first non-silent one in file order
	first := -1
	for i := range ds {
		if ds[i].kubectl != "" && !ds[i].silent {
			if first >= 0 {
				ds[i].silent = true
			} else {
				first = i
			}
		}
	}
	if first < 0 {
		return
	}
	// move the kubectl line to the first diagnostic in file order
	if first > 0 && ds[0].kubectl == "" {
		ds[0].kubectl, ds[first].kubectl = ds[first].kubectl, ""
		ds[0].silent, ds[first].silent = false, true
	}
}

// unservedHint says what the API server serves instead of apiVersion and
// kind: the served versions of the kind, or the served kind the name
// misspells.
func unservedHint(apiVersion, kind string) string {
	var versions []string
	for _, r := range apischema.Served() {
		if r.Kind == kind && !slices.Contains(versions, r.APIVersion()) {
			versions = append(versions, r.APIVersion())
		}
	}
	if len(versions) > 0 {
		if _, removed := removedAPIs[apiVersion+" "+kind]; removed {
			return fmt.Sprintf("%s %s was removed in Kubernetes %s; write `apiVersion: %s`", apiVersion, kind, removedAPIs[apiVersion+" "+kind], versions[0])
		}
		return fmt.Sprintf("a v1.37 cluster serves %s as %s; write `apiVersion: %s`", kind, strings.Join(versions, " or "), versions[0])
	}
	if _, removed := removedAPIs[apiVersion+" "+kind]; removed {
		return fmt.Sprintf("%s %s was removed in Kubernetes %s and has no replacement in the API", apiVersion, kind, removedAPIs[apiVersion+" "+kind])
	}
	best, bestDist := "", maxMisspelling+1
	for _, r := range apischema.Served() {
		if strings.EqualFold(r.Kind, kind) {
			return fmt.Sprintf("kinds are case-sensitive: write `kind: %s`", r.Kind)
		}
		if dist := editDistance(kind, r.Kind); dist < bestDist {
			best, bestDist = r.Kind, dist
		}
	}
	if best != "" {
		return fmt.Sprintf("no API serves a kind %s: did you mean `kind: %s`?", kind, best)
	}
	return fmt.Sprintf("a v1.37 cluster serves no kind %s in %s (a custom resource needs its CustomResourceDefinition applied first)", kind, apiVersion)
}

// removedAPIs are the API versions of the deprecated-API migration guide
// that manifests still carry, and the release that stopped serving them.
var removedAPIs = map[string]string{
	"policy/v1beta1 PodSecurityPolicy":                                    "1.25",
	"policy/v1beta1 PodDisruptionBudget":                                  "1.25",
	"batch/v1beta1 CronJob":                                               "1.25",
	"rbac.authorization.k8s.io/v1beta1 Role":                              "1.22",
	"rbac.authorization.k8s.io/v1beta1 RoleBinding":                       "1.22",
	"rbac.authorization.k8s.io/v1beta1 ClusterRole":                       "1.22",
	"rbac.authorization.k8s.io/v1beta1 ClusterRoleBinding":                "1.22",
	"extensions/v1beta1 Deployment":                                       "1.16",
	"extensions/v1beta1 ReplicaSet":                                       "1.16",
	"extensions/v1beta1 Ingress":                                          "1.22",
	"extensions/v1beta1 NetworkPolicy":                                    "1.16",
	"extensions/v1beta1 PodSecurityPolicy":                                "1.16",
	"apps/v1beta1 Deployment":                                             "1.16",
	"apps/v1beta2 Deployment":                                             "1.16",
	"apps/v1beta1 StatefulSet":                                            "1.16",
	"apps/v1beta2 StatefulSet":                                            "1.16",
	"apps/v1beta2 ReplicaSet":                                             "1.16",
	"networking.k8s.io/v1beta1 Ingress":                                   "1.22",
	"networking.k8s.io/v1beta1 IngressClass":                              "1.22",
	"scheduling.k8s.io/v1beta1 PriorityClass":                             "1.22",
	"storage.k8s.io/v1beta1 StorageClass":                                 "1.22",
	"storage.k8s.io/v1beta1 CSIDriver":                                    "1.22",
	"storage.k8s.io/v1beta1 CSINode":                                      "1.22",
	"storage.k8s.io/v1beta1 VolumeAttachment":                             "1.22",
	"storage.k8s.io/v1beta1 CSIStorageCapacity":                           "1.27",
	"apiextensions.k8s.io/v1beta1 CustomResourceDefinition":               "1.22",
	"admissionregistration.k8s.io/v1beta1 MutatingWebhookConfiguration":   "1.22",
	"admissionregistration.k8s.io/v1beta1 ValidatingWebhookConfiguration": "1.22",
	"coordination.k8s.io/v1beta1 Lease":                                   "1.22",
	"certificates.k8s.io/v1beta1 CertificateSigningRequest":               "1.22",
	"autoscaling/v2beta1 HorizontalPodAutoscaler":                         "1.25",
	"autoscaling/v2beta2 HorizontalPodAutoscaler":                         "1.26",
	"discovery.k8s.io/v1beta1 EndpointSlice":                              "1.25",
	"events.k8s.io/v1beta1 Event":                                         "1.25",
	"node.k8s.io/v1beta1 RuntimeClass":                                    "1.25",
	"flowcontrol.apiserver.k8s.io/v1beta2 FlowSchema":                     "1.29",
	"flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration":     "1.29",
	"flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema":                     "1.32",
	"flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration":     "1.32",
}

func noMatch(file string, line, col int, name, namespace, kind, apiVersion, hint string) Diagnostic {
	msg := fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)
	return Diagnostic{File: file, Line: line, Column: col, Field: "apiVersion", Message: msg, Hint: hint,
		kubectl: fmt.Sprintf("error: resource mapping not found for name: %q namespace: %q from %q: %s\nensure CRDs are installed first",
			name, namespace, file, msg)}
}

// metaNameNamespace reads metadata.name and metadata.namespace leniently.
func metaNameNamespace(d *decoder, top *yaml.Node) (name, namespace string) {
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != "metadata" {
			continue
		}
		m := d.resolve(top.Content[i+1])
		if m == nil || m.Kind != yaml.MappingNode {
			return
		}
		for j := 0; j+1 < len(m.Content); j += 2 {
			v := d.resolve(m.Content[j+1])
			if v == nil || v.Kind != yaml.ScalarNode {
				continue
			}
			switch m.Content[j].Value {
			case "name":
				name = v.Value
			case "namespace":
				namespace = v.Value
			}
		}
	}
	return
}

func stripComments(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "#") || t == "..." {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// ---- syntax errors and line hints ----

// syntaxDiagnostics turns a yaml.v3 parse error into a diagnostic with the
// kubectl line (`error parsing FILE: error converting YAML to JSON: yaml:
// line N: ...`, N counted from the document's start as kubectl does), the
// column of the offending character, and hints for the lines of the
// document that show copy-paste damage.
func syntaxDiagnostics(file string, ch chunk, err error) []Diagnostic {
	msg := err.Error()
	rel, text := 0, msg
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		rel, _ = strconv.Atoi(m[1])
		text = m[2]
	}
	lines := strings.Split(ch.text, "\n")
	line, col := ch.line, 1
	src := ""
	if rel > 0 {
		line = ch.line + rel - 1
		if rel-1 < len(lines) {
			src = lines[rel-1]
		}
		col = firstNonSpace(src)
	}
	// The editor marks the line yaml.v3 names (where the unfinished
	// construct began: the "[" never closed); kubectl prints the line
	// goyaml.v2 names (where the parser gave up), as sigs.k8s.io/yaml does.
	d := Diagnostic{File: file, Line: line, Column: col, Message: msg,
		kubectl: fmt.Sprintf("error: error parsing %s: error converting YAML to JSON: %s", file, sigsyaml.SyntaxError([]byte(ch.text), err))}
	kind := kindOf(ch.text)
	switch {
	case strings.Contains(text, "tab character") ||
		(strings.Contains(text, "found character that cannot start any token") && strings.Contains(src, "\t")):
		// the tab may be on a later line than the one yaml.v3 names
		for i := max(rel-1, 0); i < len(lines); i++ {
			if lead := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]; strings.Contains(lead, "\t") {
				d.Line, d.Column = ch.line+i, runeCol(lines[i], strings.Index(lines[i], "\t"))
				break
			}
		}
		d.Hint = "tabs are not allowed for indentation in YAML: indent with spaces (two per level)"
	case strings.Contains(src, "\u00a0"):
		d.Column = runeCol(src, strings.Index(src, "\u00a0"))
		d.Hint = nbspHint
	case rel > 0 && strings.Contains(strings.Join(lines[:min(rel, len(lines))], "\n"), "\u00a0"):
		d.Hint = nbspHint
	case strings.HasPrefix(strings.TrimSpace(src), "•"):
		d.Column = runeCol(src, strings.Index(src, "•"))
		d.Hint = "'•' is a bullet copied from a web page; YAML list items start with '- '"
	default:
		if h := flattenedHint(lines, rel, kind); h != "" {
			d.Hint = h
		} else if strings.Contains(text, "mapping values are not allowed") {
			if i := secondColon(src); i >= 0 {
				d.Column = runeCol(src, i)
			}
			d.Hint = "a value holds ': ' (a second key on the same line?): put each field on its own line, or quote the value"
		} else if strings.Contains(text, "could not find expected ':'") || strings.Contains(text, "did not find expected key") {
			d.Hint = "check the indentation: the fields of one mapping must start in the same column, each as `key: value`"
		}
	}
	out := []Diagnostic{d}
	for _, h := range lineHints(file, ch, kind, true) {
		if h.Line == d.Line && h.Hint == d.Hint {
			if strings.HasPrefix(h.Message, "tab characters") {
				d.Hint += "; tabs found on lines " + strings.TrimSuffix(strings.TrimPrefix(h.Message, "tab characters in indentation (lines "), ")")
				out[0] = d
			}
			continue
		}
		if h.Line == d.Line && d.Hint == "" {
			d.Hint = h.Hint
			out[0] = d
			continue
		}
		out = append(out, h)
	}
	return out
}

const nbspHint = "the line holds non-breaking spaces (U+00A0), copied from a web page: YAML only accepts ordinary spaces; retype the indentation and the space after the colon"

var kindRE = regexp.MustCompile(`(?m)^kind:\s*([A-Za-z]+)`)

func kindOf(text string) string {
	if m := kindRE.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

func firstNonSpace(s string) int {
	for i, r := range s {
		if r != ' ' && r != '\t' {
			return runeCol(s, i)
		}
	}
	return 1
}

// runeCol converts a byte offset to a 1-based column in runes.
func runeCol(s string, byteOff int) int {
	if byteOff < 0 {
		return 1
	}
	if byteOff > len(s) {
		byteOff = len(s)
	}
	return utf8.RuneCountInString(s[:byteOff]) + 1
}

// secondColon is the byte offset of the second `: ` of a line.
func secondColon(s string) int {
	first := strings.Index(s, ": ")
	if first < 0 {
		return -1
	}
	i := strings.Index(s[first+2:], ": ")
	if i < 0 {
		return -1
	}
	return first + 2 + i
}

// maxLineHints bounds the lines restored per document (each restoration
// scans its line against every field name).
const maxLineHints = 20

// lineHints scans a document's lines for copy-paste damage: tab
// indentation, lines whose line breaks were lost, bullets instead of '- ',
// and fields whose indentation was lost. They are silent diagnostics (not
// printed by Error(), which shows kubectl's lines) unless noted.
func lineHints(file string, ch chunk, kind string, silent bool) []Diagnostic {
	var out []Diagnostic
	lines := strings.Split(ch.text, "\n")
	var tabLines []string
	tabAt, flattened := -1, 0
	for i, l := range lines {
		ln := ch.line + i
		lead := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if strings.Contains(lead, "\t") && strings.TrimSpace(l) != "" {
			if tabAt < 0 {
				tabAt = len(out)
				out = append(out, Diagnostic{File: file, Line: ln, Column: runeCol(l, strings.Index(l, "\t")),
					Message: "tab character in indentation",
					Hint:    "tabs are not allowed for indentation in YAML: indent with spaces (two per level)", silent: true})
			}
			tabLines = append(tabLines, strconv.Itoa(ln))
			continue
		}
		if strings.Contains(l, "\u00a0") {
			out = append(out, Diagnostic{File: file, Line: ln, Column: runeCol(l, strings.Index(l, "\u00a0")),
				Message: "non-breaking space (U+00A0) in this line", Hint: nbspHint, silent: true})
			continue
		}
		if flattened >= maxLineHints {
			continue
		}
		if h := flattenedHint(lines, i+1, kind); strings.Contains(h, flattenedRepair) {
			flattened++
			out = append(out, Diagnostic{File: file, Line: ln, Column: firstNonSpace(l),
				Message: "the line breaks of this line were lost", Hint: h, silent: true})
			continue
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "•") {
			out = append(out, Diagnostic{File: file, Line: ln, Column: runeCol(l, strings.Index(l, "•")),
				Message: "'•' is not YAML list syntax",
				Hint:    "'•' is a bullet copied from a web page; YAML list items start with '- '", silent: true})
		}
	}
	if len(tabLines) > 1 {
		out[tabAt].Message = "tab characters in indentation (lines " + strings.Join(tabLines, ", ") + ")"
	}
	out = append(out, indentationLost(file, ch, lines, kind)...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	if !silent {
		for i := range out {
			out[i].silent = true
		}
	}
	return out
}

var keyLineRE = regexp.MustCompile(`^(\s*)(- )?([A-Za-z][A-Za-z0-9.\-_/]*):(\s.*)?$`)

// indentationLost finds `key:` lines with no value followed, at the same
// indentation, by a field that belongs inside key (`metadata:` then
// `name: x` in the same column): the indentation was lost in copying. The
// fields are those of the generated API schema (engine/schema).
func indentationLost(file string, ch chunk, lines []string, kind string) []Diagnostic {
	root := kindType(kind)
	if root == nil {
		root = kindType("DaemonSet")
	}
	var out []Diagnostic
	type open struct {
		indent int
		typ    *apischema.Type
	}
	// types of keys by indentation, tracked through the document
	stack := []open{{-1, root}}
	for i := 0; i < len(lines); i++ {
		m := keyLineRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		ind := len(m[1])
		for len(stack) > 1 && stack[len(stack)-1].indent >= ind {
			stack = stack[:len(stack)-1]
		}
		parent := stack[len(stack)-1].typ
		key := m[3]
		f, ok := parent.Field(key)
		if !ok || strings.TrimSpace(m[4]) != "" {
			continue
		}
		t := f.Type.Object()
		if t == nil || t.Kind != apischema.KindObject {
			continue
		}
		// key opens a mapping: is the next field at the same indentation one of its own?
		j := i + 1
		for j < len(lines) && strings.TrimSpace(stripComments(lines[j])) == "" {
			j++
		}
		if j >= len(lines) {
			continue
		}
		n := keyLineRE.FindStringSubmatch(lines[j])
		if n != nil && len(n[1]) == ind && n[2] == "" {
			if _, own := t.Field(n[3]); own {
				if _, sibling := parent.Field(n[3]); !sibling {
					out = append(out, Diagnostic{File: file, Line: ch.line + j, Column: ind + 1,
						Message: fmt.Sprintf("%q is not indented under %q", n[3], key+":"),
						Hint:    fmt.Sprintf("the indentation was lost: `%s:` belongs inside `%s:`; indent it (and the fields after it) by two more spaces than `%s:`", n[3], key, key),
						silent:  true})
				}
			}
		}
		stack = append(stack, open{ind, t})
	}
	return out
}

// kindType returns the schema type of a kind by name (any version), or nil.
func kindType(kind string) *apischema.Type {
	for _, k := range apischema.Kinds() {
		if k.Kind == kind {
			return k.Type
		}
	}
	return nil
}

// flattenedHint returns a hint showing the restored lines when line rel
// (1-based within the chunk) looks like several lines run together, or "".
func flattenedHint(lines []string, rel int, kind string) string {
	if rel < 1 || rel > len(lines) {
		return ""
	}
	l := lines[rel-1]
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "\"") || strings.HasPrefix(t, "'") {
		return ""
	}
	if !looksFlattened(t) {
		return ""
	}
	indent := len(l) - len(strings.TrimLeft(l, " "))
	restored := RestoreLineBreaks(strings.TrimPrefix(t, "- "), kind, parentKeys(lines, rel-1), indent)
	if len(restored) < 2 {
		return "the line breaks of this line were lost: put each `key:` on its own line, indented under its parent"
	}
	if len(restored) > 40 {
		restored = append(restored[:40], "...")
	}
	return "the line breaks of this line were lost (copied from a web page?); " + flattenedRepair + strings.Join(restored, "\n")
}

// flattenedRepair ends a hint's text and starts the restored lines that
// follow it (the page offers them as a fix).
const flattenedRepair = "it should read:\n"

// looksFlattened reports whether a line holds more than one mapping key:
// a key with a colon inside (`metadata:name: x`) or a second `key: value`.
func looksFlattened(t string) bool {
	t = strings.TrimPrefix(t, "- ")
	keyEnd := strings.Index(t, ": ")
	if keyEnd < 0 {
		if strings.HasSuffix(t, ":") {
			keyEnd = len(t) - 1
		} else {
			return false
		}
	}
	key := t[:keyEnd]
	if strings.Contains(key, ":") && !strings.Contains(key, "//") && !strings.ContainsAny(key, " \"'") {
		return true
	}
	rest := t[keyEnd+1:]
	if i := strings.Index(rest, " #"); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.ContainsAny(rest[:1], "\"'{[|>&*!") {
		return false
	}
	return strings.Contains(rest, ": ") || (strings.HasSuffix(rest, ":") && rest != ":")
}

// parentKeys returns the keys of the mappings enclosing line i, outermost first.
func parentKeys(lines []string, i int) []string {
	ind := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
	var keys []string
	for j := i - 1; j >= 0 && ind > 0; j-- {
		m := keyLineRE.FindStringSubmatch(lines[j])
		if m == nil {
			continue
		}
		jind := len(m[1])
		if m[2] != "" {
			jind += 2
		}
		if jind < ind {
			keys = append([]string{m[3]}, keys...)
			ind = len(m[1])
		}
	}
	return keys
}

// addQuoteHints adds a hint to diagnostics whose values hold curly quotes
// (“key”): they come from word processors and web pages and are not YAML quotes.
func addQuoteHints(ds []Diagnostic) {
	for i := range ds {
		if ds[i].Hint == "" && strings.ContainsAny(ds[i].Message, "“”‘’") {
			ds[i].Hint = "the value holds curly quotes (“ ” or ‘ ’) copied from a web page or word processor: use straight quotes (\") or none"
		}
	}
}
