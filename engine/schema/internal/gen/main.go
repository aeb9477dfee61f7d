// Command gen writes engine/schema/schema.bin: the schema of the kinds the
// playground knows, derived from the Go API types of k8s.io/api (the exact
// version pinned in go.mod) by reflection. For each struct it keeps the
// JSON fields (json tags, inline embedding, omitempty), the field
// descriptions of the types' SwaggerDoc methods (types_swagger_doc_generated.go),
// the patchStrategy/patchMergeKey tags and the +optional/+required markers
// of the type sources (read with go/parser from the module cache), the
// rule kube-openapi's openapi-gen applies to decide what explain marks
// -required-.
//
// Run it through `go generate ./engine/schema`. It is never linked into the
// engine or the wasm build.
package main

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/schema/internal/wire"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	nodev1 "k8s.io/api/node/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// kind is one root of the type graph.
type kind struct {
	group, version, kind, resource string
	obj                            any
}

// roots are the kinds the manifest decoder accepts (engine/manifest:
// DaemonSet, Node, Pod, Namespace, ServiceAccount, ConfigMap, Secret, List) and those `kubectl explain` and
// `kubectl get` name (ControllerRevision, Event, PriorityClass).
var roots = []kind{
	{"apps", "v1", "DaemonSet", "daemonsets", appsv1.DaemonSet{}},
	{"apps", "v1", "ControllerRevision", "controllerrevisions", appsv1.ControllerRevision{}},
	{"", "v1", "Pod", "pods", corev1.Pod{}},
	{"", "v1", "Node", "nodes", corev1.Node{}},
	{"", "v1", "Namespace", "namespaces", corev1.Namespace{}},
	{"", "v1", "Event", "events", corev1.Event{}},
	{"", "v1", "ServiceAccount", "serviceaccounts", corev1.ServiceAccount{}},
	{"", "v1", "ConfigMap", "configmaps", corev1.ConfigMap{}},
	{"", "v1", "Secret", "secrets", corev1.Secret{}},
	{"", "v1", "List", "", corev1.List{}},
	{"scheduling.k8s.io", "v1", "PriorityClass", "priorityclasses", schedulingv1.PriorityClass{}},
	// kinds the playground stores as written (engine/cluster generic.go),
	// checked field by field as the API server's strict decoder does: those
	// that DaemonSet installs and tutorials apply beside their DaemonSets
	{"", "v1", "Service", "services", corev1.Service{}},
	{"", "v1", "Endpoints", "endpoints", corev1.Endpoints{}},
	{"", "v1", "PersistentVolumeClaim", "persistentvolumeclaims", corev1.PersistentVolumeClaim{}},
	{"", "v1", "PersistentVolume", "persistentvolumes", corev1.PersistentVolume{}},
	{"", "v1", "ResourceQuota", "resourcequotas", corev1.ResourceQuota{}},
	{"", "v1", "LimitRange", "limitranges", corev1.LimitRange{}},
	{"", "v1", "ReplicationController", "replicationcontrollers", corev1.ReplicationController{}},
	{"", "v1", "PodTemplate", "podtemplates", corev1.PodTemplate{}},
	{"apps", "v1", "Deployment", "deployments", appsv1.Deployment{}},
	{"apps", "v1", "ReplicaSet", "replicasets", appsv1.ReplicaSet{}},
	{"apps", "v1", "StatefulSet", "statefulsets", appsv1.StatefulSet{}},
	{"autoscaling", "v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", autoscalingv2.HorizontalPodAutoscaler{}},
	{"batch", "v1", "Job", "jobs", batchv1.Job{}},
	{"batch", "v1", "CronJob", "cronjobs", batchv1.CronJob{}},
	{"coordination.k8s.io", "v1", "Lease", "leases", coordinationv1.Lease{}},
	{"networking.k8s.io", "v1", "Ingress", "ingresses", networkingv1.Ingress{}},
	{"networking.k8s.io", "v1", "IngressClass", "ingressclasses", networkingv1.IngressClass{}},
	{"networking.k8s.io", "v1", "NetworkPolicy", "networkpolicies", networkingv1.NetworkPolicy{}},
	{"node.k8s.io", "v1", "RuntimeClass", "runtimeclasses", nodev1.RuntimeClass{}},
	{"policy", "v1", "PodDisruptionBudget", "poddisruptionbudgets", policyv1.PodDisruptionBudget{}},
	{"rbac.authorization.k8s.io", "v1", "ClusterRole", "clusterroles", rbacv1.ClusterRole{}},
	{"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", "clusterrolebindings", rbacv1.ClusterRoleBinding{}},
	{"rbac.authorization.k8s.io", "v1", "Role", "roles", rbacv1.Role{}},
	{"rbac.authorization.k8s.io", "v1", "RoleBinding", "rolebindings", rbacv1.RoleBinding{}},
	{"storage.k8s.io", "v1", "StorageClass", "storageclasses", storagev1.StorageClass{}},
	{"storage.k8s.io", "v1", "CSIDriver", "csidrivers", storagev1.CSIDriver{}},
}

var (
	quantityType    = reflect.TypeFor[resource.Quantity]()
	intOrStringType = reflect.TypeFor[intstr.IntOrString]()
	timeType        = reflect.TypeFor[metav1.Time]()
	microTimeType   = reflect.TypeFor[metav1.MicroTime]()
	durationType    = reflect.TypeFor[metav1.Duration]()
	rawExtType      = reflect.TypeFor[runtime.RawExtension]()
	fieldsV1Type    = reflect.TypeFor[metav1.FieldsV1]()
)

// builder assigns indexes to types as the walk meets them.
type builder struct {
	w       wire.Blob
	index   map[reflect.Type]int
	markers markers
}

func main() {
	out := flag.String("o", "schema.bin", "output file")
	flag.Parse()
	b, err := Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// Generate returns the compressed blob.
func Generate() ([]byte, error) {
	js, err := GenerateJSON()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(js); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// GenerateJSON returns the uncompressed JSON of the schema.
func GenerateJSON() ([]byte, error) {
	m, err := loadMarkers()
	if err != nil {
		return nil, err
	}
	b := &builder{index: map[reflect.Type]int{}, markers: m}
	for _, r := range roots {
		t := b.typ(reflect.TypeOf(r.obj))
		b.w.Kinds = append(b.w.Kinds, wire.Kind{Group: r.group, Version: r.version, Kind: r.kind, Resource: r.resource, Type: t})
	}
	return json.Marshal(b.w)
}

// typ returns the index of t's entry, adding it (and what it reaches).
func (b *builder) typ(t reflect.Type) int {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if i, ok := b.index[t]; ok {
		return i
	}
	i := len(b.w.Types)
	b.index[t] = i
	b.w.Types = append(b.w.Types, wire.Type{})
	b.w.Types[i] = b.build(t)
	return i
}

// build describes t. Special types follow their OpenAPI definitions
// (OpenAPISchemaType/OpenAPIV3OneOfTypes of apimachinery): Quantity and
// IntOrString are one-of types explain names by their type name; Time,
// MicroTime and Duration are strings; RawExtension and FieldsV1 are
// free-form objects.
func (b *builder) build(t reflect.Type) wire.Type {
	goName := t.String()
	switch t {
	case quantityType:
		return wire.Type{Name: "Quantity", Kind: "Quantity", Go: goName, Doc: b.markers.typeDoc(t)}
	case intOrStringType:
		return wire.Type{Name: "IntOrString", Kind: "IntOrString", Go: goName, Doc: b.markers.typeDoc(t)}
	case timeType, microTimeType, durationType:
		return wire.Type{Name: "string", Kind: "string", Go: goName, Doc: b.markers.typeDoc(t)}
	case rawExtType:
		return wire.Type{Name: "RawExtension", Kind: "any", Go: goName, Doc: b.markers.typeDoc(t)}
	case fieldsV1Type:
		return wire.Type{Name: "FieldsV1", Kind: "any", Go: goName, Doc: swaggerDoc(t)[""]}
	}
	switch t.Kind() {
	case reflect.String:
		return wire.Type{Name: "string", Kind: "string", Go: goName, Enum: b.markers.enumValues(t)}
	case reflect.Bool:
		return wire.Type{Name: "boolean", Kind: "boolean", Go: goName}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return wire.Type{Name: "integer", Kind: "integer", Go: goName}
	case reflect.Float32, reflect.Float64:
		return wire.Type{Name: "number", Kind: "number", Go: goName}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // []byte: a base64 string
			return wire.Type{Name: "string", Kind: "string", Go: goName}
		}
		return wire.Type{Kind: "array", Go: goName, Elem: b.typ(t.Elem()) + 1}
	case reflect.Map:
		return wire.Type{Kind: "map", Go: goName, Elem: b.typ(t.Elem()) + 1}
	case reflect.Interface:
		return wire.Type{Name: "Object", Kind: "any", Go: goName}
	case reflect.Struct:
		wt := wire.Type{Name: t.Name(), Kind: "object", Go: goName, Doc: swaggerDoc(t)[""]}
		b.fields(t, &wt)
		sort.Slice(wt.Fields, func(i, j int) bool { return wt.Fields[i].Name < wt.Fields[j].Name })
		return wt
	}
	panic(fmt.Sprintf("unsupported type %v", t))
}

// fields adds the JSON fields of struct t to wt, flattening inline
// embedded structs (TypeMeta, ListMeta ...) as encoding/json does.
func (b *builder) fields(t reflect.Type, wt *wire.Type) {
	docs := swaggerDoc(t)
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			b.fields(ft, wt)
			continue
		}
		if name == "" {
			name = sf.Name
		}
		// kube-openapi isOptional: +required, else +optional, else omitempty
		// (omitzero does not count) decides; explain prints -required-
		omit := false
		for _, o := range strings.Split(opts, ",") {
			if o == "omitempty" {
				omit = true
			}
		}
		mk := b.markers.field(t, sf.Name)
		doc := docs[name]
		if lines := b.markers.enumLines(ft); lines != "" {
			doc += lines
		}
		required := (!omit && !mk.optional) || mk.required
		wt.Fields = append(wt.Fields, wire.Field{
			Name:     name,
			Type:     b.typ(sf.Type),
			Doc:      doc,
			Required: required,
			Strategy: sf.Tag.Get("patchStrategy"),
			MergeKey: sf.Tag.Get("patchMergeKey"),
		})
	}
}

// swaggerDoc returns the SwaggerDoc() map of a struct type, if it has one.
func swaggerDoc(t reflect.Type) map[string]string {
	m, ok := reflect.New(t).Elem().Interface().(interface{ SwaggerDoc() map[string]string })
	if !ok {
		return nil
	}
	return m.SwaggerDoc()
}

// ---- markers and type docs from the sources ----

type fieldMarkers struct{ optional, required bool }

// markers holds, per "pkgpath.Type.Field", the +optional/+required comment
// markers, and per "pkgpath.Type" the type's formatted doc comment.
type markers struct {
	fields map[string]fieldMarkers
	docs   map[string]string
	// enums are the +enum types ("pkgpath.Type") and their constants.
	enums map[string][]enumValue
}

// enumValue is one constant of an +enum type.
type enumValue struct{ name, value, comment string }

// enumValues returns the sorted values of an +enum type, nil for others.
func (m markers) enumValues(t reflect.Type) []string {
	vs, ok := m.enums[t.PkgPath()+"."+t.Name()]
	if !ok {
		return nil
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.value
	}
	return out
}

// enumLines is what kube-openapi's openapi-gen appends to the description
// of a field of an +enum type (enumType.DescriptionLines, run through the
// same comment formatting): a paragraph "Possible enum values:" and one
// line per value, sorted by value, " - `"Value"` <the constant's comment
// without its leading name>".
func (m markers) enumLines(t reflect.Type) string {
	vs, ok := m.enums[t.PkgPath()+"."+t.Name()]
	if !ok || len(vs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nPossible enum values:")
	for _, v := range vs {
		c := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v.comment), v.name))
		c = strings.Join(strings.Fields(c), " ")
		fmt.Fprintf(&b, "\n - `%q` %s", v.value, c)
	}
	return b.String()
}

func (m markers) field(t reflect.Type, goField string) fieldMarkers {
	return m.fields[t.PkgPath()+"."+t.Name()+"."+goField]
}

func (m markers) typeDoc(t reflect.Type) string { return m.docs[t.PkgPath()+"."+t.Name()] }

// loadMarkers parses the non-test Go files of every package the roots
// reach (located with `go list`).
func loadMarkers() (markers, error) {
	m := markers{fields: map[string]fieldMarkers{}, docs: map[string]string{}, enums: map[string][]enumValue{}}
	var consts []struct {
		typ string
		v   enumValue
	}
	pkgs := []string{
		"k8s.io/api/apps/v1", "k8s.io/api/core/v1", "k8s.io/api/scheduling/v1",
		"k8s.io/api/autoscaling/v2", "k8s.io/api/batch/v1", "k8s.io/api/coordination/v1",
		"k8s.io/api/networking/v1", "k8s.io/api/node/v1", "k8s.io/api/policy/v1",
		"k8s.io/api/rbac/v1", "k8s.io/api/storage/v1",
		"k8s.io/apimachinery/pkg/apis/meta/v1", "k8s.io/apimachinery/pkg/api/resource",
		"k8s.io/apimachinery/pkg/util/intstr", "k8s.io/apimachinery/pkg/runtime",
	}
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}} {{.Dir}}"}, pkgs...)...).Output()
	if err != nil {
		return m, fmt.Errorf("go list: %w", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, dir, _ := strings.Cut(line, " ")
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			return m, err
		}
		fset := token.NewFileSet()
		for _, fn := range files {
			if strings.HasSuffix(fn, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, fn, nil, parser.ParseComments)
			if err != nil {
				return m, err
			}
			for _, decl := range f.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if ok && gd.Tok == token.CONST {
					for _, spec := range gd.Specs {
						vs := spec.(*ast.ValueSpec)
						id, isIdent := vs.Type.(*ast.Ident)
						if !isIdent || len(vs.Values) != len(vs.Names) {
							continue
						}
						for i, n := range vs.Names {
							lit, isLit := vs.Values[i].(*ast.BasicLit)
							if !isLit || lit.Kind != token.STRING {
								continue
							}
							val, err := strconv.Unquote(lit.Value)
							if err != nil {
								return m, err
							}
							comment := ""
							if vs.Doc != nil {
								comment = strings.Join(commentLines(vs.Doc), " ")
							}
							consts = append(consts, struct {
								typ string
								v   enumValue
							}{path + "." + id.Name, enumValue{n.Name, val, comment}})
						}
					}
					continue
				}
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, spec := range gd.Specs {
					ts := spec.(*ast.TypeSpec)
					doc := ts.Doc
					if doc == nil {
						doc = gd.Doc
					}
					if doc != nil {
						m.docs[path+"."+ts.Name.Name] = fmtRawDoc(doc.Text())
						for _, l := range commentLines(doc) {
							if l == "+enum" {
								m.enums[path+"."+ts.Name.Name] = []enumValue{}
							}
						}
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fld := range st.Fields.List {
						if fld.Doc == nil {
							continue
						}
						var fm fieldMarkers
						for _, c := range fld.Doc.List {
							txt := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
							// gengo ExtractCommentTags("+"): "+optional" or "+optional=..."
							name, _, _ := strings.Cut(txt, "=")
							switch name {
							case "+optional":
								fm.optional = true
							case "+required":
								fm.required = true
							}
						}
						for _, n := range fld.Names {
							m.fields[path+"."+ts.Name.Name+"."+n.Name] = fm
						}
					}
				}
			}
		}
	}
	for _, c := range consts {
		if vs, ok := m.enums[c.typ]; ok {
			m.enums[c.typ] = append(vs, c.v)
		}
	}
	for _, vs := range m.enums {
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].value < vs[j].value })
	}
	return m, nil
}

// commentLines returns the lines of a comment group without the comment
// markers, trimmed.
func commentLines(g *ast.CommentGroup) []string {
	var out []string
	for _, c := range g.List {
		out = append(out, strings.TrimSpace(strings.TrimPrefix(c.Text, "//")))
	}
	return out
}

// fmtRawDoc turns a doc comment into a description as the API doc
// generators do (k8s.io/gengo's swagger-doc and kube-openapi's fmtRawDoc
// rules): text after a "---" line is dropped, marker lines (+...) and
// TODO lines are skipped, blank lines separate paragraphs ("\n\n"),
// indented lines keep their own line, other lines are joined by spaces.
func fmtRawDoc(raw string) string {
	raw, _, _ = strings.Cut(raw, "\n---")
	var b strings.Builder
	trimLast := func() {
		s := b.String()
		if strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\n") {
			b.Reset()
			b.WriteString(s[:len(s)-1])
		}
	}
	for _, line := range strings.Split(raw, "\n") {
		line = strings.TrimRight(line, " ")
		lead := strings.TrimLeft(line, " \t")
		switch {
		case line == "":
			trimLast()
			b.WriteString("\n\n")
		case strings.HasPrefix(lead, "TODO"), strings.HasPrefix(lead, "+"):
		case strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"):
			trimLast()
			b.WriteString("\n" + line + "\n")
		default:
			b.WriteString(line + " ")
		}
	}
	return strings.TrimRight(strings.TrimSpace(b.String()), "\n")
}
