package manifest

import (
	"strings"

	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// maxMisspelling is the largest edit distance at which an unknown field is
// taken for a misspelt known one.
const maxMisspelling = 2

// closestField returns the field of object type t that key most likely
// misspells (`specs` for spec, `imagePullPolic` for imagePullPolicy,
// `ImagePullPolicy` for its lower-case form), or "" when no field is
// within maxMisspelling edits (and fewer edits than the key is long).
// Ties go to the alphabetically first field.
func closestField(t *apischema.Type, key string) string {
	best, bestDist := "", maxMisspelling+1
	for _, f := range t.Fields {
		if strings.EqualFold(f.Name, key) {
			return f.Name
		}
		if dist := editDistance(key, f.Name); dist < bestDist {
			best, bestDist = f.Name, dist
		}
	}
	if best == "" || bestDist >= len(key) {
		return ""
	}
	return best
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
