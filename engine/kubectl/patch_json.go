package kubectl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// JSON patch (RFC 6902) and JSON merge patch (RFC 7386) as the API server
// applies them: with gopkg.in/evanphx/json-patch.v4 (v4.12.0), whose
// behaviour this mirrors, quirks included: "replace" of a missing object
// key adds it, negative array indexes count from the end, a "test" of a
// missing key passes only for a null value, numbers are compared as
// written. (Implemented here rather than imported: the library's own JSON
// decoder would add some 150 KB gzipped to the browser build.)

// Errors of json-patch.v4 errors.go / patch.go (messages wrapped as
// github.com/pkg/errors.Wrapf does: "<context>: <cause>").
var (
	errJPTestFailed   = errors.New("test failed")
	errJPMissing      = errors.New("missing value")
	errJPInvalidIndex = errors.New("invalid index referenced")
	errBadJSONPatch   = errors.New("Invalid JSON Patch")
)

func jpWrap(cause error, format string, args ...any) error {
	if cause == nil {
		return nil // pkg/errors.Wrapf(nil, ...) is nil
	}
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), cause)
}

// jsonPatchOperation is one operation as json-patch.v4 holds it: the raw
// JSON of each member.
type jsonPatchOperation map[string]*json.RawMessage

// decodeJSONPatch mirrors jsonpatch.DecodePatch: any JSON array of objects.
func decodeJSONPatch(b []byte) ([]jsonPatchOperation, error) {
	var p []jsonPatchOperation
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, err
	}
	return p, nil
}

func (o jsonPatchOperation) kind() string {
	if raw, ok := o["op"]; ok && raw != nil {
		var s string
		if json.Unmarshal(*raw, &s) != nil {
			return "unknown"
		}
		return s
	}
	return "unknown"
}

func (o jsonPatchOperation) str(field string) (string, error) {
	if raw, ok := o[field]; ok && raw != nil {
		var s string
		if err := json.Unmarshal(*raw, &s); err != nil {
			return "unknown", err
		}
		return s, nil
	}
	if field == "path" {
		return "unknown", jpWrap(errJPMissing, "operation missing path field")
	}
	return "unknown", jpWrap(errJPMissing, "operation, missing from field")
}

// value is the operation's value, decoded; nil when absent or null.
func (o jsonPatchOperation) value() (any, error) {
	raw, ok := o["value"]
	if !ok || raw == nil {
		return nil, nil
	}
	return decodeJSONValue(*raw)
}

// decodeJSONValue decodes any JSON value with unstructured's value types.
func decodeJSONValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return normalize(v), nil
}

// jpContainer is json-patch's container: an object or an array that a
// path's last token addresses.
type jpContainer interface {
	get(key string) (any, bool, error)
	set(key string, v any) error
	add(key string, v any) error
	remove(key string) error
}

type jpObject map[string]any

func (d jpObject) get(key string) (any, bool, error) { v, ok := d[key]; return v, ok, nil }
func (d jpObject) set(key string, v any) error       { d[key] = v; return nil }
func (d jpObject) add(key string, v any) error       { d[key] = v; return nil }
func (d jpObject) remove(key string) error {
	if _, ok := d[key]; !ok {
		return jpWrap(errJPMissing, "Unable to remove nonexistent key: %s", key)
	}
	delete(d, key)
	return nil
}

// jpArray is an array held by its parent: put writes a resized array back.
type jpArray struct {
	items []any
	put   func([]any)
}

func (d *jpArray) index(key string, size int) (int, error) {
	idx, err := strconv.Atoi(key)
	if err != nil {
		return 0, err
	}
	if idx < 0 {
		if idx < -size {
			return 0, jpWrap(errJPInvalidIndex, "Unable to access invalid index: %d", idx)
		}
		idx += size
	}
	return idx, nil
}

func (d *jpArray) get(key string) (any, bool, error) {
	idx, err := d.index(key, len(d.items))
	if err != nil {
		return nil, false, err
	}
	if idx >= len(d.items) {
		return nil, false, jpWrap(errJPInvalidIndex, "Unable to access invalid index: %d", idx)
	}
	return d.items[idx], true, nil
}

func (d *jpArray) set(key string, v any) error {
	idx, err := d.index(key, len(d.items))
	if err != nil {
		return err
	}
	d.items[idx] = v
	return nil
}

func (d *jpArray) add(key string, v any) error {
	if key == "-" {
		d.items = append(d.items, v)
		d.put(d.items)
		return nil
	}
	idx, err := strconv.Atoi(key)
	if err != nil {
		return jpWrap(err, "value was not a proper array index: '%s'", key)
	}
	size := len(d.items) + 1
	if idx >= size {
		return jpWrap(errJPInvalidIndex, "Unable to access invalid index: %d", idx)
	}
	if idx < 0 {
		if idx < -size {
			return jpWrap(errJPInvalidIndex, "Unable to access invalid index: %d", idx)
		}
		idx += size
	}
	out := make([]any, 0, size)
	out = append(out, d.items[:idx]...)
	out = append(out, v)
	out = append(out, d.items[idx:]...)
	d.items = out
	d.put(out)
	return nil
}

func (d *jpArray) remove(key string) error {
	idx, err := strconv.Atoi(key)
	if err != nil {
		return err
	}
	if idx >= len(d.items) {
		return jpWrap(errJPInvalidIndex, "Unable to access invalid index: %d", idx)
	}
	if idx < 0 {
		if idx < -len(d.items) {
			return jpWrap(errJPInvalidIndex, "Unable to access invalid index: %d", idx)
		}
		idx += len(d.items)
	}
	out := make([]any, 0, len(d.items)-1)
	out = append(out, d.items[:idx]...)
	out = append(out, d.items[idx+1:]...)
	d.items = out
	d.put(out)
	return nil
}

// containerOf wraps a value as a container (nil when it is a scalar);
// put writes a resized array back where it was found.
func containerOf(v any, put func([]any)) jpContainer {
	switch x := v.(type) {
	case map[string]any:
		return jpObject(x)
	case []any:
		return &jpArray{items: x, put: put}
	}
	return nil
}

var rfc6901Decoder = strings.NewReplacer("~1", "/", "~0", "~")

// findObject mirrors json-patch's findObject: the container holding the
// path's last token, and that token decoded (RFC 6901); nil when a step of
// the path is missing.
func findObject(root *any, path string) (jpContainer, string) {
	split := strings.Split(path, "/")
	if len(split) < 2 {
		return nil, ""
	}
	doc := containerOf(*root, func(a []any) { *root = a })
	for _, part := range split[1 : len(split)-1] {
		if doc == nil {
			return nil, ""
		}
		key := rfc6901Decoder.Replace(part)
		next, _, err := doc.get(key)
		if next == nil || err != nil {
			return nil, ""
		}
		parent := doc
		doc = containerOf(next, func(a []any) { parent.set(key, a) })
	}
	if doc == nil {
		return nil, ""
	}
	return doc, rfc6901Decoder.Replace(split[len(split)-1])
}

// applyJSONPatch mirrors Patch.Apply of json-patch.v4 on a decoded
// document (modified in place; the result is returned).
func applyJSONPatch(doc any, ops []jsonPatchOperation) (any, error) {
	root := doc
	for _, op := range ops {
		var err error
		switch op.kind() {
		case "add":
			err = jpAdd(&root, op)
		case "remove":
			err = jpRemove(&root, op)
		case "replace":
			err = jpReplace(&root, op)
		case "move":
			err = jpMove(&root, op)
		case "test":
			err = jpTest(&root, op)
		case "copy":
			err = jpCopy(&root, op)
		default:
			err = fmt.Errorf("Unexpected kind: %s", op.kind())
		}
		if err != nil {
			return nil, err
		}
	}
	return root, nil
}

func jpAdd(root *any, op jsonPatchOperation) error {
	path, err := op.str("path")
	if err != nil {
		return jpWrap(errJPMissing, "add operation failed to decode path")
	}
	con, key := findObject(root, path)
	if con == nil {
		return jpWrap(errJPMissing, "add operation does not apply: doc is missing path: \"%s\"", path)
	}
	v, err := op.value()
	if err != nil {
		return err
	}
	return jpWrap(con.add(key, v), "error in add for path: '%s'", path)
}

func jpRemove(root *any, op jsonPatchOperation) error {
	path, err := op.str("path")
	if err != nil {
		return jpWrap(errJPMissing, "remove operation failed to decode path")
	}
	con, key := findObject(root, path)
	if con == nil {
		return jpWrap(errJPMissing, "remove operation does not apply: doc is missing path: \"%s\"", path)
	}
	return jpWrap(con.remove(key), "error in remove for path: '%s'", path)
}

func jpReplace(root *any, op jsonPatchOperation) error {
	path, err := op.str("path")
	if err != nil {
		return jpWrap(err, "replace operation failed to decode path")
	}
	v, verr := op.value()
	if verr != nil {
		return verr
	}
	if path == "" {
		// only an object or an array replaces the whole document; for
		// anything else upstream wraps a nil error, which is no error
		switch v.(type) {
		case map[string]any, []any:
			*root = v
		}
		return nil
	}
	con, key := findObject(root, path)
	if con == nil {
		return jpWrap(errJPMissing, "replace operation does not apply: doc is missing path: %s", path)
	}
	if _, _, err := con.get(key); err != nil {
		return jpWrap(errJPMissing, "replace operation does not apply: doc is missing key: %s", path)
	}
	return jpWrap(con.set(key, v), "error in remove for path: '%s'", path)
}

func jpMove(root *any, op jsonPatchOperation) error {
	from, err := op.str("from")
	if err != nil {
		return jpWrap(err, "move operation failed to decode from")
	}
	con, key := findObject(root, from)
	if con == nil {
		return jpWrap(errJPMissing, "move operation does not apply: doc is missing from path: %s", from)
	}
	val, _, err := con.get(key)
	if err != nil {
		return jpWrap(err, "error in move for path: '%s'", key)
	}
	if err := con.remove(key); err != nil {
		return jpWrap(err, "error in move for path: '%s'", key)
	}
	path, err := op.str("path")
	if err != nil {
		return jpWrap(err, "move operation failed to decode path")
	}
	con, key = findObject(root, path)
	if con == nil {
		return jpWrap(errJPMissing, "move operation does not apply: doc is missing destination path: %s", path)
	}
	return jpWrap(con.add(key, val), "error in move for path: '%s'", path)
}

func jpTest(root *any, op jsonPatchOperation) error {
	path, err := op.str("path")
	if err != nil {
		return jpWrap(err, "test operation failed to decode path")
	}
	raw, hasValue := op["value"]
	if path == "" {
		if hasValue && raw != nil && jsonEqualRaw(*root, *raw) {
			return nil
		}
		return jpWrap(errJPTestFailed, "testing value %s failed", path)
	}
	con, key := findObject(root, path)
	if con == nil {
		return jpWrap(errJPMissing, "test operation does not apply: is missing path: %s", path)
	}
	val, _, err := con.get(key)
	if err != nil {
		return jpWrap(err, "error in test for path: '%s'", path)
	}
	if val == nil {
		if !hasValue || raw == nil {
			return nil
		}
		return jpWrap(errJPTestFailed, "testing value %s failed", path)
	}
	if !hasValue || raw == nil || !jsonEqualRaw(val, *raw) {
		return jpWrap(errJPTestFailed, "testing value %s failed", path)
	}
	return nil
}

func jpCopy(root *any, op jsonPatchOperation) error {
	from, err := op.str("from")
	if err != nil {
		return jpWrap(err, "copy operation failed to decode from")
	}
	con, key := findObject(root, from)
	if con == nil {
		return jpWrap(errJPMissing, "copy operation does not apply: doc is missing from path: %s", from)
	}
	val, _, err := con.get(key)
	if err != nil {
		return jpWrap(err, "error in copy for from: '%s'", from)
	}
	path, err := op.str("path")
	if err != nil {
		return jpWrap(errJPMissing, "copy operation failed to decode path")
	}
	con, key = findObject(root, path)
	if con == nil {
		return jpWrap(errJPMissing, "copy operation does not apply: doc is missing destination path: %s", path)
	}
	return jpWrap(con.add(key, deepCopyJSON(val)), "error while adding value during copy")
}

// jsonEqualRaw mirrors lazyNode.equal: objects and arrays compare member by
// member, scalars by their compact JSON text (1 and 1.0 differ).
func jsonEqualRaw(v any, raw []byte) bool {
	other, err := decodeJSONValue(raw)
	if err != nil {
		return false
	}
	return jsonEqual(v, other, raw)
}

func jsonEqual(a, b any, braw []byte) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || (v == nil) != (w == nil) {
				return false
			}
			if v != nil && !jsonEqual(v, w, nil) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i], nil) {
				return false
			}
		}
		return true
	}
	ab, err := json.Marshal(a)
	if err != nil {
		return false
	}
	if braw != nil {
		var c bytes.Buffer
		if json.Compact(&c, braw) != nil {
			return false
		}
		return bytes.Equal(ab, c.Bytes())
	}
	bb, err := json.Marshal(b)
	return err == nil && bytes.Equal(ab, bb)
}

// mergePatchJSON mirrors json-patch.v4 MergePatch (RFC 7386) for a
// document object and a patch given as JSON: members of the patch replace
// or, when both are objects, merge into the document's; null deletes.
func mergePatchJSON(doc map[string]any, patch []byte) (map[string]any, error) {
	p, err := decodeJSONValue(patch)
	if err != nil {
		return nil, errBadJSONPatch
	}
	pm, ok := p.(map[string]any)
	if !ok {
		// a patch that is not an object is not merged (RFC 7386 would
		// replace the document with it; the handler refuses non-objects
		// before, and null is ErrBadJSONPatch)
		return nil, errBadJSONPatch
	}
	mergeDocs(doc, pm)
	return doc, nil
}

func mergeDocs(doc, patch map[string]any) {
	for k, v := range patch {
		if v == nil {
			delete(doc, k)
			continue
		}
		cur, ok := doc[k]
		if !ok || cur == nil {
			pruneNulls(v)
			doc[k] = v
			continue
		}
		doc[k] = mergeValue(cur, v)
	}
}

func mergeValue(cur, patch any) any {
	cd, ok := cur.(map[string]any)
	if !ok {
		pruneNulls(patch)
		return patch
	}
	pd, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	mergeDocs(cd, pd)
	return cd
}

// pruneNulls removes null members from objects (not null items of arrays),
// recursively.
func pruneNulls(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
			} else {
				pruneNulls(e)
			}
		}
	case []any:
		for _, e := range x {
			if e != nil {
				pruneNulls(e)
			}
		}
	}
}
