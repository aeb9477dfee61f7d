package manifest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// maxMisspelling is the largest edit distance at which an unknown field is
// taken for a misspelt known one.
const maxMisspelling = 2

// misspeltFields returns, for an object that failed validation, a silent
// diagnostic for every unknown field (kept in the object's Extra) within
// maxMisspelling edits of a field the decoder knows at that level, such as
// `specs:` for spec or `metdata:` for metadata: the likely reason for the
// validation errors (a missing spec, a missing name). Unknown fields are
// not rejected (the API server's strict field validation is not
// simulated); this only explains the failure.
func (d *decoder) misspeltFields(kind string) []Diagnostic {
	var out []Diagnostic
	for _, p := range slices.Sorted(maps.Keys(d.extra)) {
		known := schema[schemaTypeAt(kind, p)]
		if known == nil {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(d.extra[p])) {
			if _, ok := known[k]; ok || strings.Contains(k, ":") {
				continue // a known field kept as written, or a flattened line (flattenedKeys)
			}
			best, bestDist := "", maxMisspelling+1
			for f := range known {
				if dist := editDistance(k, f); dist < bestDist || (dist == bestDist && f < best) {
					best, bestDist = f, dist
				}
			}
			if best == "" || bestDist >= len(k) {
				continue
			}
			field := join(p, k)
			pos := d.doc.position(field + "#key")
			out = append(out, Diagnostic{File: d.file, Line: pos.line, Column: pos.col, Field: field,
				Message: fmt.Sprintf("unknown field %q", k),
				Hint:    fmt.Sprintf("unknown field %q: did you mean %q?", k, best),
				silent:  true})
		}
	}
	return out
}

// schemaTypeAt returns the schema type of the mapping at path ("" for the
// object itself, "spec.template.spec.containers[0]" ...) in an object of
// kind, or "" when the path leaves the schema.
func schemaTypeAt(kind, path string) string {
	t := kind
	if path == "" {
		return t
	}
	for _, part := range strings.Split(path, ".") {
		name := part
		if i := strings.IndexByte(part, '['); i >= 0 {
			name = part[:i]
		}
		next, ok := schema[t][name]
		if !ok {
			return ""
		}
		if strings.Contains(part, "[") {
			next = strings.TrimPrefix(next, "[]")
		} else if strings.HasPrefix(next, "[]") {
			return ""
		}
		t = next
	}
	return t
}

// editDistance is the Levenshtein distance between a and b (in bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
