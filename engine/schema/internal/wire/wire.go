// Package wire is the JSON form of engine/schema's schema.bin (before
// flate compression): the generator (engine/schema/internal/gen) encodes it
// and engine/schema decodes it, so both sides share these types. It imports
// nothing, keeping the wasm build free of k8s.io packages.
package wire

// Blob is the whole schema: types by index, kinds naming them.
type Blob struct {
	Types []Type `json:"t"`
	Kinds []Kind `json:"k"`
}

// Type is one type of the graph.
type Type struct {
	Name   string   `json:"n,omitempty"` // explain name of an object, special or scalar type
	Kind   string   `json:"k"`           // JSON value kind, one of engine/schema's Kind* constants
	Go     string   `json:"g"`           // Go type named in decode errors
	Doc    string   `json:"d,omitempty"` // description (SwaggerDoc)
	Elem   int      `json:"e,omitempty"` // index+1 of the item/value type; 0 = none
	Fields []Field  `json:"f,omitempty"`
	Enum   []string `json:"v,omitempty"`
}

// Field is one JSON field of an object type.
type Field struct {
	Name     string `json:"n"`
	Type     int    `json:"t"` // index of the field's type
	Doc      string `json:"d,omitempty"`
	Required bool   `json:"r,omitempty"`
	Strategy string `json:"s,omitempty"` // patchStrategy struct tag
	MergeKey string `json:"m,omitempty"` // patchMergeKey struct tag
}

// Kind is one API kind and the index of its root type.
type Kind struct {
	Group    string `json:"g,omitempty"`
	Version  string `json:"v"`
	Kind     string `json:"k"`
	Resource string `json:"r,omitempty"`
	Type     int    `json:"t"`
}
