package kubectl

import (
	"strings"

	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// typePatchSchema answers the strategic merge's questions from the
// generated API schema (engine/schema, the patchStrategy and patchMergeKey
// struct tags of k8s.io/api v0.37.2), as strategicpatch.PatchMetaFromStruct
// answers them from the Go types. A nil type (a field the schema does not
// know) has no patch strategy: its maps merge and its lists are replaced.
type typePatchSchema struct{ t *apischema.Type }

// lookup mirrors PatchMetaFromStruct.LookupPatchMetadataForStruct and
// ...ForSlice: the schema of the field's value (of its items for a list,
// of its values for a map), its patch strategies and merge key.
func (s typePatchSchema) lookup(field string) (patchSchema, []string, string) {
	t := s.t
	if t == nil {
		return typePatchSchema{}, nil, ""
	}
	if t.Kind == apischema.KindMap {
		// map[string]X: every key holds an X
		return typePatchSchema{t.Elem}, nil, ""
	}
	f, ok := t.Field(field)
	if !ok {
		return typePatchSchema{}, nil, ""
	}
	sub := f.Type
	if sub != nil && sub.Kind == apischema.KindArray {
		sub = sub.Elem
	}
	var strategies []string
	if f.PatchStrategy != "" {
		strategies = strings.Split(f.PatchStrategy, ",")
	}
	return typePatchSchema{sub}, strategies, f.PatchMergeKey
}

// kindName is PatchMetaFromStruct.Name(): the reflect kind of the type.
func (s typePatchSchema) kindName() string {
	if s.t == nil {
		return "struct"
	}
	switch s.t.Kind {
	case apischema.KindObject:
		return "struct"
	case apischema.KindMap:
		return "map"
	case apischema.KindArray:
		return "slice"
	case apischema.KindBoolean:
		return "bool"
	case apischema.KindNumber:
		return "float64"
	case apischema.KindInteger:
		return "int64"
	}
	return "string"
}

// patchSchemaFor returns the strategic-merge schema of a kind (no
// strategies at all for a kind the schema does not know).
func patchSchemaFor(apiVersion, kind string) patchSchema {
	t, _ := apischema.Lookup(apiVersion, kind)
	return typePatchSchema{t}
}
