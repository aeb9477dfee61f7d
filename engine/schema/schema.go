// Package schema is the API schema of the kinds the playground knows (apps/v1
// DaemonSet and ControllerRevision; v1 Pod, Node, Namespace, ServiceAccount,
// ConfigMap, Secret, Event, List; scheduling.k8s.io/v1 PriorityClass; and
// the kinds stored as written that manifests commonly carry: Service,
// Deployment, StatefulSet, Job, CronJob, the RBAC kinds,
// PodDisruptionBudget, Ingress, NetworkPolicy ... see the generator's
// roots), derived from the upstream Go API types of k8s.io/api v0.37.2 by
// the generator in internal/gen (`go generate ./engine/schema`) and
// embedded as a compressed blob (schema.bin), decoded once on first use.
// Served (served.go) lists every resource a v1.37 API server serves.
//
// For every field it keeps what `kubectl explain` prints (the JSON name, the
// type as explain names it, the description from the types' SwaggerDoc, the
// required marker) and what the strict decoder and a strategic-merge-patch
// helper need (the JSON value kind, the Go type named in decode errors, the
// patchStrategy and patchMergeKey struct tags). The package does not import
// k8s.io/api or apimachinery: the wasm build stays small.
package schema

//go:generate go run ./internal/gen -o schema.bin

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/dsplayground/dsplay/engine/schema/internal/wire"
)

//go:embed schema.bin
var blob []byte

// Value kinds of a Type (Type.Kind): the JSON shape a value must have.
const (
	KindObject      = "object"      // a struct: Fields
	KindArray       = "array"       // a JSON list of Elem
	KindMap         = "map"         // a JSON object of string keys to Elem
	KindString      = "string"      // a JSON string (also metav1.Time, []byte, Duration)
	KindInteger     = "integer"     // a JSON integer (Go int32 or int64, see Type.Go)
	KindNumber      = "number"      // a JSON number (Go float64)
	KindBoolean     = "boolean"     // true or false
	KindIntOrString = "IntOrString" // intstr.IntOrString: an integer or a string
	KindQuantity    = "Quantity"    // resource.Quantity: a string or a number
	KindAny         = "any"         // free-form JSON kept as written (runtime.RawExtension, FieldsV1)
)

// Type is one type of the API: a struct, a list, a map or a scalar.
type Type struct {
	// Name is the type as `kubectl explain` prints it between < >:
	// "DaemonSetSpec", "string", "integer", "boolean", "[]Container",
	// "map[string]string", "Quantity", "IntOrString", "RawExtension", "Object".
	Name string
	// Kind is the JSON shape (KindObject, KindArray ...).
	Kind string
	// Go is the Go type as encoding/json names it in a type error:
	// "v1.DaemonSetSpec", "[]v1.Container", "map[string]string", "int32",
	// "v1.ResourceList", "intstr.IntOrString".
	Go string
	// Description is the type's own documentation (SwaggerDoc's "" entry),
	// empty for lists, maps and scalars.
	Description string
	// Fields are the JSON fields of an object, sorted by name (inline
	// embedded structs such as TypeMeta are flattened in).
	Fields []*Field
	// Elem is the item type of a list or the value type of a map.
	Elem *Type
	// Enum lists, sorted, the values of a string type marked +enum
	// upstream (PullPolicy: Always, IfNotPresent, Never), as the OpenAPI
	// schema's enum; nil for other types.
	Enum []string

	index map[string]*Field
}

// Field is one JSON field of an object Type.
type Field struct {
	// Name is the JSON name ("imagePullPolicy").
	Name string
	// Type is the field's value type; Type.Name is explain's <type>.
	Type *Type
	// Description is the field's documentation from SwaggerDoc.
	Description string
	// Required is true when the field is marked +required, or is not marked
	// +optional and its JSON tag has no omitempty (kube-openapi's
	// openapi-gen isOptional): explain prints -required-.
	Required bool
	// PatchStrategy and PatchMergeKey are the patchStrategy and
	// patchMergeKey struct tags ("merge", "name"; "retainKeys,merge" ...),
	// empty when the field has none.
	PatchStrategy, PatchMergeKey string
}

// Kind is one resource kind the schema knows.
type Kind struct {
	// Group is the API group ("" for the core group, "apps").
	Group string
	// Version is "v1".
	Version string
	// Kind is "DaemonSet".
	Kind string
	// Resource is the plural resource name ("daemonsets"), empty for List.
	Resource string
	// Type is the kind's object type.
	Type *Type
}

// APIVersion is Group/Version, or Version for the core group.
func (k *Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// Field returns the field of an object type by JSON name.
func (t *Type) Field(name string) (*Field, bool) {
	if t == nil {
		return nil, false
	}
	f, ok := t.index[name]
	return f, ok
}

// FieldNames returns the JSON names of an object type's fields, sorted.
func (t *Type) FieldNames() []string {
	out := make([]string, 0, len(t.Fields))
	for _, f := range t.Fields {
		out = append(out, f.Name)
	}
	return out
}

var (
	loadOnce sync.Once
	kinds    []*Kind
	loadErr  error
)

// Kinds returns every kind of the schema, sorted by group, version, kind.
func Kinds() []*Kind {
	load()
	return kinds
}

// Lookup returns the object type of apiVersion ("apps/v1", "v1") and kind
// ("DaemonSet"); ok is false for a kind the schema does not know.
func Lookup(apiVersion, kind string) (*Type, bool) {
	k, ok := LookupKind(apiVersion, kind)
	if !ok {
		return nil, false
	}
	return k.Type, true
}

// LookupKind is Lookup returning the Kind.
func LookupKind(apiVersion, kind string) (*Kind, bool) {
	for _, k := range Kinds() {
		if k.Kind == kind && k.APIVersion() == apiVersion {
			return k, true
		}
	}
	return nil, false
}

// FieldAt follows path (JSON field names; list and map levels are crossed
// implicitly, so ["spec", "template", "spec", "containers", "image"] is the
// image of every container) from the object type of apiVersion and kind and
// returns the last field. The error names the first unknown element:
// `field "imagePullPolic" does not exist`, or the kind when it is unknown.
func FieldAt(apiVersion, kind string, path []string) (*Field, error) {
	t, ok := Lookup(apiVersion, kind)
	if !ok {
		return nil, fmt.Errorf("no schema for kind %q in version %q", kind, apiVersion)
	}
	if len(path) == 0 {
		return nil, fmt.Errorf("empty field path")
	}
	var f *Field
	for _, name := range path {
		t = t.Object()
		if f, ok = t.Field(name); !ok {
			return nil, fmt.Errorf("field %q does not exist", name)
		}
		t = f.Type
	}
	return f, nil
}

// Object returns t with its list and map levels removed: the item type
// whose fields a path continues into (Container for []Container).
func (t *Type) Object() *Type {
	for t != nil && (t.Kind == KindArray || t.Kind == KindMap) {
		t = t.Elem
	}
	return t
}

// ---- loading ----

func load() {
	loadOnce.Do(func() {
		kinds, loadErr = decode(blob)
		if loadErr != nil {
			panic("engine/schema: corrupt schema.bin: " + loadErr.Error())
		}
	})
}

// Decompress returns the JSON text of a blob (for the generator's test).
func Decompress(b []byte) ([]byte, error) {
	return io.ReadAll(flate.NewReader(bytes.NewReader(b)))
}

func decode(b []byte) ([]*Kind, error) {
	raw, err := Decompress(b)
	if err != nil {
		return nil, err
	}
	var w wire.Blob
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, err
	}
	types := make([]*Type, len(w.Types))
	for i := range w.Types {
		types[i] = &Type{}
	}
	ref := func(i int) (*Type, error) {
		if i < 0 || i >= len(types) {
			return nil, fmt.Errorf("type index %d out of range", i)
		}
		return types[i], nil
	}
	for i, wt := range w.Types {
		t := types[i]
		t.Name, t.Kind, t.Go, t.Description, t.Enum = wt.Name, wt.Kind, wt.Go, wt.Doc, wt.Enum
		if wt.Elem > 0 {
			if t.Elem, err = ref(wt.Elem - 1); err != nil {
				return nil, err
			}
		}
		if len(wt.Fields) > 0 {
			t.index = make(map[string]*Field, len(wt.Fields))
		}
		for _, wf := range wt.Fields {
			ft, err := ref(wf.Type)
			if err != nil {
				return nil, err
			}
			f := &Field{Name: wf.Name, Type: ft, Description: wf.Doc, Required: wf.Required,
				PatchStrategy: wf.Strategy, PatchMergeKey: wf.MergeKey}
			t.Fields = append(t.Fields, f)
			t.index[f.Name] = f
		}
		sort.Slice(t.Fields, func(a, b int) bool { return t.Fields[a].Name < t.Fields[b].Name })
	}
	// names of lists and maps follow from their items, as explain's typeGuess builds them
	var name func(t *Type, depth int) string
	name = func(t *Type, depth int) string {
		if depth > 8 || t == nil {
			return "Object"
		}
		switch t.Kind {
		case KindArray:
			return "[]" + name(t.Elem, depth+1)
		case KindMap:
			return "map[string]" + name(t.Elem, depth+1)
		}
		return t.Name
	}
	for _, t := range types {
		if t.Kind == KindArray || t.Kind == KindMap {
			t.Name = name(t, 0)
		}
	}
	out := make([]*Kind, 0, len(w.Kinds))
	for _, wk := range w.Kinds {
		t, err := ref(wk.Type)
		if err != nil {
			return nil, err
		}
		out = append(out, &Kind{Group: wk.Group, Version: wk.Version, Kind: wk.Kind, Resource: wk.Resource, Type: t})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return strings.Join([]string{a.Group, a.Version, a.Kind}, "/") < strings.Join([]string{b.Group, b.Version, b.Kind}, "/")
	})
	return out, nil
}
