package kubectl

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Strategic merge patch, as the API server applies it
// (k8s.io/apimachinery pkg/util/strategicpatch StrategicMergeMapPatch with
// MergeParallelList and IgnoreUnmatchedNulls): maps merge key by key, a
// null deletes, lists replace unless the field's patchStrategy is "merge",
// in which case lists of objects merge by the field's patchMergeKey
// (containers by name, ports by containerPort) and lists of scalars are
// unioned. Directives: `$patch: replace|delete` in a map or list item,
// `$retainKeys`, `$deleteFromPrimitiveList/<field>` and
// `$setElementOrder/<field>`.

// Directive names of pkg/util/strategicpatch/patch.go.
const (
	smpDirectiveMarker   = "$patch"
	smpDeleteDirective   = "delete"
	smpReplaceDirective  = "replace"
	smpMergeDirective    = "merge"
	smpRetainKeys        = "retainKeys"
	smpRetainKeysMarker  = "$" + smpRetainKeys
	smpDeleteFromPrimPfx = "$deleteFromPrimitiveList"
	smpSetElementOrder   = "$setElementOrder"
)

// Errors of k8s.io/apimachinery pkg/util/mergepatch/errors.go that the API
// server answers with 400 BadRequest or 422 Invalid
// (handlers/patch.go interpretStrategicMergePatchError); any other error of
// the merge is a 500 whose message kubectl prints as `Error from server: ...`.
var (
	errSMPNoListOfLists           = errors.New("lists of lists are not supported")
	errSMPBadPrimitiveList        = errors.New("invalid patch format of primitive list")
	errSMPBadRetainKeys           = errors.New("invalid patch format of retainKeys")
	errSMPBadSetElementOrderList  = errors.New("invalid patch format of setElementOrder list")
	errSMPPatchNotMatchRetainKeys = errors.New("patch content doesn't match retainKeys list")
)

// patchSchema is what the strategic merge needs to know of a type: for a
// field, the schema of its value (of its elements for a list), its
// patchStrategy values (the `patchStrategy:"merge,retainKeys"` struct tag
// split at commas) and its patchMergeKey.
type patchSchema interface {
	lookup(field string) (sub patchSchema, strategies []string, mergeKey string)
	// kindName is strategicpatch's schema Name() (the reflect kind of the
	// element type, "struct" for lists of objects), used in one error.
	kindName() string
}

func smpErrNoMergeKey(m map[string]any, k string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", goMap(m), k)
}

func smpErrBadArgType(expected string, actual any) error {
	return fmt.Errorf("expected a %s, but received a %s", expected, goTypeName(actual))
}

func smpErrBadPatchType(t any, m map[string]any) error {
	return fmt.Errorf("unknown patch type: %s in map: %v", goValue(t), goMap(m))
}

// strategicMergeMapPatch applies patch to original (both are JSON objects
// as decoded into map[string]any; both are modified) for the type schema.
// It mirrors StrategicMergeMapPatchUsingLookupPatchMeta.
func strategicMergeMapPatch(original, patch map[string]any, schema patchSchema) (map[string]any, error) {
	return smpMergeMap(original, patch, schema)
}

// smpMergeMap mirrors strategicpatch.mergeMap.
func smpMergeMap(original, patch map[string]any, schema patchSchema) (map[string]any, error) {
	if v, ok := patch[smpDirectiveMarker]; ok {
		switch v {
		case smpReplaceDirective:
			delete(patch, smpDirectiveMarker)
			return patch, nil
		case smpDeleteDirective:
			return map[string]any{}, nil
		}
		return nil, smpErrBadPatchType(v, patch)
	}
	if original == nil {
		original = map[string]any{}
	}
	if err := smpApplyRetainKeys(original, patch); err != nil {
		return nil, err
	}
	if err := smpMergeSetElementOrder(original, patch, schema); err != nil {
		return nil, err
	}
	// upstream ranges over the patch map (random order); sorted keys keep
	// the playground deterministic
	for _, k := range sortedAnyKeys(patch) {
		patchV := patch[k]
		isDeleteList := false
		if strings.HasPrefix(k, smpDeleteFromPrimPfx) {
			orig, err := smpExtractKey(k, smpDeleteFromPrimPfx)
			if err != nil {
				return nil, err
			}
			k, isDeleteList = orig, true
		}
		if patchV == nil {
			delete(original, k)
			continue
		}
		origV, ok := original[k]
		if !ok || reflect.TypeOf(origV) != reflect.TypeOf(patchV) {
			if !isDeleteList {
				smpDiscardNulls(patchV)
				v, keep := smpRemoveDirectives(patchV)
				if keep {
					original[k] = v
				} else {
					delete(original, k)
				}
			}
			continue
		}
		var err error
		switch typed := patchV.(type) {
		case map[string]any:
			sub, strategies, _ := schema.lookup(k)
			_, strategy, serr := smpRetainKeysStrategy(strategies)
			if serr != nil {
				return nil, serr
			}
			if strategy == smpReplaceDirective {
				original[k] = typed
			} else {
				original[k], err = smpMergeMap(origV.(map[string]any), typed, sub)
			}
		case []any:
			sub, strategies, mergeKey := schema.lookup(k)
			_, strategy, serr := smpRetainKeysStrategy(strategies)
			if serr != nil {
				return nil, serr
			}
			if strategy == smpMergeDirective || isDeleteList {
				original[k], err = smpMergeSlice(origV.([]any), typed, sub, mergeKey, isDeleteList)
			} else {
				original[k] = typed
			}
		default:
			v, keep := smpRemoveDirectives(patchV)
			if keep {
				original[k] = v
			} else {
				delete(original, k)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return original, nil
}

// smpApplyRetainKeys mirrors applyRetainKeysDirective: the keys of original
// not listed in `$retainKeys` are cleared; every key the patch sets must be
// listed.
func smpApplyRetainKeys(original, patch map[string]any) error {
	rk, ok := patch[smpRetainKeysMarker]
	if !ok {
		return nil
	}
	delete(patch, smpRetainKeysMarker)
	list, ok := rk.([]any)
	if !ok {
		return errSMPBadRetainKeys
	}
	keep := map[any]bool{}
	for _, v := range list {
		if jsonComparable(v) {
			keep[v] = true
		}
	}
	for k, v := range patch {
		if v == nil || strings.HasPrefix(k, smpDeleteFromPrimPfx) || strings.HasPrefix(k, smpSetElementOrder) {
			continue
		}
		if !keep[k] {
			return errSMPBadRetainKeys
		}
	}
	for k := range original {
		if !keep[k] {
			delete(original, k)
		}
	}
	return nil
}

// smpExtractKey mirrors extractKey: "$prefix/field" -> "field".
func smpExtractKey(s, prefix string) (string, error) {
	parts := strings.SplitN(s, "/", 2)
	if len(parts) <= 1 || parts[0] != prefix {
		if prefix == smpDeleteFromPrimPfx {
			return "", errSMPBadPrimitiveList
		}
		return "", errSMPBadSetElementOrderList
	}
	return parts[1], nil
}

// smpRetainKeysStrategy mirrors extractRetainKeysPatchStrategy.
func smpRetainKeysStrategy(strategies []string) (bool, string, error) {
	switch len(strategies) {
	case 0:
		return false, "", nil
	case 1:
		if strategies[0] == smpRetainKeys {
			return true, "", nil
		}
		return false, strategies[0], nil
	case 2:
		switch {
		case strategies[0] == smpRetainKeys:
			return true, strategies[1], nil
		case strategies[1] == smpRetainKeys:
			return true, strategies[0], nil
		}
	}
	return false, "", fmt.Errorf("unexpected patch strategy: %v", strategies)
}

// smpMergeSetElementOrder mirrors mergePatchIntoOriginal: each
// `$setElementOrder/<field>` list is merged with the patch's list for the
// field and decides the order of the result.
func smpMergeSetElementOrder(original, patch map[string]any, schema patchSchema) error {
	for _, key := range sortedAnyKeys(patch) {
		if !strings.HasPrefix(key, smpSetElementOrder) {
			continue
		}
		orderV := patch[key]
		delete(patch, key)
		order, ok := orderV.([]any)
		if !ok {
			return smpErrBadArgType("[]interface {}", orderV)
		}
		field, err := smpExtractKey(key, smpSetElementOrder)
		if err != nil {
			return err
		}
		origList, foundOrig := original[field]
		patchList, foundPatch := patch[field]
		var origItems, patchItems []any
		if foundOrig {
			if origItems, ok = origList.([]any); !ok {
				return smpErrBadArgType("[]interface {}", origList)
			}
		}
		if foundPatch {
			if patchItems, ok = patchList.([]any); !ok {
				return smpErrBadArgType("[]interface {}", patchList)
			}
		}
		sub, strategies, mergeKey := schema.lookup(field)
		_, strategy, err := smpRetainKeysStrategy(strategies)
		if err != nil {
			return err
		}
		if err := smpValidateSetOrder(patchItems, order, mergeKey); err != nil {
			return err
		}
		var merged []any
		switch {
		case foundOrig && !foundPatch:
			merged = origItems
		case !foundOrig && foundPatch:
			v, _ := smpRemoveDirectives(patchItems)
			merged, _ = v.([]any)
		case foundOrig && foundPatch:
			if strategy == smpMergeDirective {
				merged, err = smpMergeSlice(origItems, patchItems, sub, mergeKey, false)
				if err != nil {
					return err
				}
			} else {
				merged = patchItems
			}
		default:
			continue
		}
		var inPatch, serverOnly []any
		if mergeKey == "" {
			inPatch, serverOnly = smpPartitionScalars(merged, order)
		} else if inPatch, serverOnly, err = smpPartitionMaps(merged, order, mergeKey); err != nil {
			return err
		}
		elemKind, err := smpElementKind(origItems, patchItems)
		if err != nil {
			return err
		}
		both, err := smpNormalizeOrder(inPatch, serverOnly, order, origItems, mergeKey, elemKind)
		if err != nil {
			return err
		}
		original[field] = both
		delete(patch, field)
	}
	return nil
}

// smpValidateSetOrder mirrors validatePatchWithSetOrderList.
func smpValidateSetOrder(patchList, order []any, mergeKey string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	nonDelete := patchList
	if mergeKey != "" {
		var err error
		if nonDelete, _, err = smpExtractToDelete(patchList); err != nil {
			return err
		}
	}
	pi, oi := 0, 0
	for pi < len(nonDelete) && oi < len(order) {
		if m, ok := nonDelete[pi].(map[string]any); ok {
			if _, d := m[smpDirectiveMarker]; d {
				pi++
				continue
			}
		}
		eq, err := smpMergeKeyEqual(nonDelete[pi], order[oi], mergeKey)
		if err != nil {
			return err
		}
		if eq {
			pi++
		}
		oi++
	}
	if pi < len(nonDelete) && oi >= len(order) {
		return fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", goValue(patchList), smpSetElementOrder, goValue(order))
	}
	return nil
}

func smpMergeKeyEqual(left, right any, mergeKey string) (bool, error) {
	if mergeKey == "" {
		return jsonEq(left, right), nil
	}
	l, ok := left.(map[string]any)
	if !ok {
		return false, smpErrBadArgType("map[string]interface {}", left)
	}
	r, ok := right.(map[string]any)
	if !ok {
		return false, smpErrBadArgType("map[string]interface {}", right)
	}
	lv, ok := l[mergeKey]
	if !ok {
		return false, smpErrNoMergeKey(l, mergeKey)
	}
	rv, ok := r[mergeKey]
	if !ok {
		return false, smpErrNoMergeKey(r, mergeKey)
	}
	return jsonEq(lv, rv), nil
}

// smpMergeSlice mirrors strategicpatch.mergeSlice for a list whose
// patchStrategy is merge (or a $deleteFromPrimitiveList list).
func smpMergeSlice(original, patch []any, schema patchSchema, mergeKey string, isDeleteList bool) ([]any, error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, nil
	}
	kind, err := smpElementKind(original, patch)
	if err != nil {
		return nil, err
	}
	var merged []any
	if kind != reflect.Map {
		if isDeleteList {
			return smpDeleteFromSlice(original, patch), nil
		}
		merged = smpDedupScalars(append(append([]any(nil), original...), patch...))
	} else {
		if mergeKey == "" {
			return nil, fmt.Errorf("cannot merge lists without merge key for %s", schema.kindName())
		}
		original, patch, err = smpMergeSpecialElements(original, patch, mergeKey)
		if err != nil {
			return nil, err
		}
		merged, err = smpMergeByKey(original, patch, mergeKey, schema)
		if err != nil {
			return nil, err
		}
	}
	var inPatch, serverOnly []any
	if mergeKey == "" {
		inPatch, serverOnly = smpPartitionScalars(merged, patch)
	} else if inPatch, serverOnly, err = smpPartitionMaps(merged, patch, mergeKey); err != nil {
		return nil, err
	}
	return smpNormalizeOrder(inPatch, serverOnly, patch, original, mergeKey, kind)
}

// smpMergeSpecialElements mirrors mergeSliceWithSpecialElements: items
// `{$patch: delete, <key>: v}` remove the matching items, an item
// `{$patch: replace}` makes the patch's other items the whole list.
func smpMergeSpecialElements(original, patch []any, mergeKey string) ([]any, []any, error) {
	rest := []any{}
	replace := false
	for _, v := range patch {
		m := v.(map[string]any)
		d, ok := m[smpDirectiveMarker]
		if !ok {
			rest = append(rest, v)
			continue
		}
		switch d {
		case smpDeleteDirective:
			val, ok := m[mergeKey]
			if !ok {
				return nil, nil, smpErrNoMergeKey(m, mergeKey)
			}
			var kept []any
			for _, o := range original {
				om, isMap := o.(map[string]any)
				if !isMap {
					return nil, nil, fmt.Errorf("value for key %v is not a map", len(kept))
				}
				if x, has := om[mergeKey]; has && jsonEq(x, val) {
					continue
				}
				kept = append(kept, o)
			}
			original = kept
		case smpReplaceDirective:
			replace = true
		case smpMergeDirective:
			return nil, nil, errors.New("merging lists cannot yet be specified in the patch")
		default:
			return nil, nil, smpErrBadPatchType(d, m)
		}
	}
	if replace {
		return rest, nil, nil
	}
	return original, rest, nil
}

// smpMergeByKey mirrors mergeSliceWithoutSpecialElements: each patch item
// merges into the original item with the same merge key value, or is
// appended.
func smpMergeByKey(original, patch []any, mergeKey string, schema patchSchema) ([]any, error) {
	for _, v := range patch {
		m := v.(map[string]any)
		val, ok := m[mergeKey]
		if !ok {
			return nil, smpErrNoMergeKey(m, mergeKey)
		}
		idx := -1
		for i, o := range original {
			om, isMap := o.(map[string]any)
			if !isMap {
				return nil, fmt.Errorf("value for key %v is not a map", i)
			}
			if x, has := om[mergeKey]; has && jsonEq(x, val) {
				idx = i
				break
			}
		}
		if idx < 0 {
			original = append(original, v)
			continue
		}
		merged, err := smpMergeMap(original[idx].(map[string]any), m, schema)
		if err != nil {
			return nil, err
		}
		original[idx] = merged
	}
	return original, nil
}

// smpElementKind mirrors sliceElementType: the reflect kind shared by every
// element of the lists.
func smpElementKind(lists ...[]any) (reflect.Kind, error) {
	var prev reflect.Type
	for _, l := range lists {
		for _, v := range l {
			t := reflect.TypeOf(v)
			if prev == nil {
				prev = t
				if t != nil && t.Kind() == reflect.Slice {
					return 0, errSMPNoListOfLists
				}
				continue
			}
			if prev != t {
				all := make([]any, len(lists))
				for i, x := range lists {
					all[i] = x
				}
				return 0, fmt.Errorf("list element types are not identical: %v", goValue(all))
			}
		}
	}
	if prev == nil {
		return 0, errors.New("no elements in any of the given slices")
	}
	return prev.Kind(), nil
}

// smpDedupScalars mirrors deduplicateScalars (including its reordering:
// a duplicate is replaced by the last element).
func smpDedupScalars(s []any) []any {
	n := len(s) - 1
	for i := 0; i < n; i++ {
		for j := i + 1; j <= n; j++ {
			if jsonEq(s[i], s[j]) {
				s[j] = s[n]
				s = s[:n]
				n--
				j--
			}
		}
	}
	return s
}

func smpDeleteFromSlice(current, toDelete []any) []any {
	del := map[any]bool{}
	for _, v := range toDelete {
		if jsonComparable(v) {
			del[v] = true
		}
	}
	out := make([]any, 0, len(current))
	for _, v := range current {
		if !jsonComparable(v) || !del[v] {
			out = append(out, v)
		}
	}
	return out
}

func smpPartitionScalars(list, by []any) (inBy, rest []any) {
	in := map[any]bool{}
	for _, v := range by {
		if jsonComparable(v) {
			in[v] = true
		}
	}
	inBy, rest = []any{}, []any{}
	for _, v := range list {
		if jsonComparable(v) && in[v] {
			inBy = append(inBy, v)
		} else {
			rest = append(rest, v)
		}
	}
	return inBy, rest
}

func smpPartitionMaps(list, by []any, mergeKey string) (inBy, rest []any, err error) {
	inBy, rest = []any{}, []any{}
	for _, v := range list {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, smpErrBadArgType("map[string]interface {}", v)
		}
		val, ok := m[mergeKey]
		if !ok {
			return nil, nil, smpErrNoMergeKey(m, mergeKey)
		}
		found := false
		for i, b := range by {
			bm, isMap := b.(map[string]any)
			if !isMap {
				return nil, nil, fmt.Errorf("value for key %v is not a map", i)
			}
			if x, has := bm[mergeKey]; has && jsonEq(x, val) {
				found = true
				break
			}
		}
		if found {
			inBy = append(inBy, v)
		} else {
			rest = append(rest, v)
		}
	}
	return inBy, rest, nil
}

func smpExtractToDelete(l []any) (keep, del []any, err error) {
	for _, v := range l {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, smpErrBadArgType("map[string]interface {}", v)
		}
		if d, ok := m[smpDirectiveMarker]; ok && d == smpDeleteDirective {
			del = append(del, v)
		} else {
			keep = append(keep, v)
		}
	}
	return keep, del, nil
}

// smpIndex mirrors strategicpatch.index: the position of v in l, comparing
// merge key values for maps.
func smpIndex(l []any, v any, mergeKey string, kind reflect.Kind) int {
	get := func(x any) any { return x }
	if kind == reflect.Map {
		get = func(x any) any {
			m, ok := x.(map[string]any)
			if !ok {
				return nil
			}
			return m[mergeKey]
		}
	}
	for i, x := range l {
		if jsonEq(get(v), get(x)) {
			return i
		}
	}
	return -1
}

// smpNormalizeOrder mirrors normalizeElementOrder: the patch's items in the
// patch's order, the server-only items in the live order, merged so that
// both relative orders hold (mergeSortedSlice).
func smpNormalizeOrder(inPatch, serverOnly, patchOrder, serverOrder []any, mergeKey string, kind reflect.Kind) ([]any, error) {
	sortBy := func(toSort, order []any) ([]any, error) {
		var del []any
		if kind == reflect.Map {
			for _, l := range [][]any{toSort, order} {
				for _, it := range l {
					m, ok := it.(map[string]any)
					if !ok {
						return nil, smpErrBadArgType("map[string]interface {}", it)
					}
					if _, ok := m[mergeKey]; !ok {
						return nil, smpErrNoMergeKey(m, mergeKey)
					}
				}
			}
			var err error
			if toSort, del, err = smpExtractToDelete(toSort); err != nil {
				return nil, err
			}
		}
		sort.SliceStable(toSort, func(i, j int) bool {
			if ii := smpIndex(order, toSort[i], mergeKey, kind); ii >= 0 {
				if ij := smpIndex(order, toSort[j], mergeKey, kind); ij >= 0 {
					return ii < ij
				}
			}
			return true
		})
		return append(toSort, del...), nil
	}
	p, err := sortBy(inPatch, patchOrder)
	if err != nil {
		return nil, err
	}
	s, err := sortBy(serverOnly, serverOrder)
	if err != nil {
		return nil, err
	}
	// mergeSortedSlice(left = server-only, right = patch items)
	less := func(l, r any) (bool, bool) {
		li := smpIndex(serverOrder, l, mergeKey, kind)
		ri := smpIndex(serverOrder, r, mergeKey, kind)
		if li >= 0 && ri >= 0 {
			return li < ri, true
		}
		return false, false
	}
	out := make([]any, 0, len(p)+len(s))
	i, j := 0, 0
	for len(out) < len(p)+len(s) {
		switch {
		case i >= len(s):
			out = append(out, p[j])
			j++
		case j >= len(p):
			out = append(out, s[i])
			i++
		default:
			if l, both := less(s[i], p[j]); both && l {
				out = append(out, s[i])
				i++
			} else {
				out = append(out, p[j])
				j++
			}
		}
	}
	return out, nil
}

// smpRemoveDirectives mirrors removeDirectives: a map holding `$patch` is
// dropped; directives nested in maps and lists are removed.
func smpRemoveDirectives(v any) (any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t[smpDirectiveMarker]; ok {
			return nil, false
		}
		for k, x := range t {
			nv, keep := smpRemoveDirectives(x)
			if keep {
				t[k] = nv
			} else {
				delete(t, k)
			}
		}
		return t, true
	case []any:
		res := []any{}
		for _, x := range t {
			if nv, keep := smpRemoveDirectives(x); keep {
				res = append(res, nv)
			}
		}
		return res, true
	}
	return v, true
}

// smpDiscardNulls mirrors discardNullValuesFromPatch.
func smpDiscardNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if x == nil {
				delete(t, k)
			} else {
				smpDiscardNulls(x)
			}
		}
	case []any:
		for _, x := range t {
			smpDiscardNulls(x)
		}
	}
}

func sortedAnyKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// goValue formats a decoded JSON value as Go's %v formats the
// map[string]interface{} / []interface{} values upstream's messages print
// (`map[image:nginx]`, `[a b]`).
func goValue(v any) string {
	switch t := v.(type) {
	case map[string]any:
		return goMap(t)
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = goValue(x)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case nil:
		return "<nil>"
	}
	return fmt.Sprint(v)
}

func goMap(m map[string]any) string {
	parts := make([]string, 0, len(m))
	for _, k := range sortedAnyKeys(m) {
		parts = append(parts, k+":"+goValue(m[k]))
	}
	return "map[" + strings.Join(parts, " ") + "]"
}

// goTypeName is reflect.TypeOf(v).String() for a decoded JSON value.
func goTypeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "map[string]interface {}"
	case []any:
		return "[]interface {}"
	case nil:
		return "<nil>"
	}
	return reflect.TypeOf(v).String()
}

// jsonComparable reports whether v can be compared with == (and be a map
// key): decoded JSON objects and arrays cannot. Upstream compares such
// values with == too and panics (the API server turns the panic into a
// 500); the playground treats them as unequal instead.
func jsonComparable(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// jsonEq is == on decoded JSON values, false for objects and arrays.
func jsonEq(a, b any) bool {
	return jsonComparable(a) && jsonComparable(b) && a == b
}
