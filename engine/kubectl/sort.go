package kubectl

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/dsplayground/dsplay/engine/api"
	"k8s.io/client-go/util/jsonpath"
)

// sortObjects mirrors get's --sort-by (pkg/cmd/get NewRuntimeSorter and
// TableSorter): the field is relaxed to "{.path}" (or used as written when
// it does not fit the relaxed form), evaluated with JSONPath on every
// object as the API returns it, and the objects are sorted stably by the
// first value found; objects without the field sort first. Errors are
// upstream's: a JSONPath parse error, and `couldn't find any field with
// path "{.x}" in the list of objects` when no object has it.
func sortObjects(objs []object, sortBy string) error {
	field, err := RelaxedJSONPathExpression(sortBy)
	if err != nil {
		field = sortBy
	}
	parser := jsonpath.New("sorting").AllowMissingKeys(true)
	if err := parser.Parse(field); err != nil {
		return err
	}
	keys := make([]reflect.Value, len(objs))
	has := make([]bool, len(objs))
	found := false
	for i, o := range objs {
		m, err := RenderObject(o.obj)
		if err != nil {
			return err
		}
		vals, err := findResults(parser, m)
		if err != nil {
			return fmt.Errorf("Failed to get values for %#v using %s (%#v)", vals, field, err)
		}
		if len(vals) > 0 && len(vals[0]) > 0 {
			keys[i], has[i], found = vals[0][0], true, true
		}
	}
	if len(objs) > 0 && !found {
		return fmt.Errorf("couldn't find any field with path %q in the list of objects", field)
	}
	idx := make([]int, len(objs))
	for i := range idx {
		idx[i] = i
	}
	var sortErr error
	sort.SliceStable(idx, func(a, b int) bool {
		i, j := idx[a], idx[b]
		if !has[i] || !has[j] {
			return !has[i] && has[j]
		}
		less, err := isLess(keys[i], keys[j])
		if err != nil && sortErr == nil {
			sortErr = err
		}
		return less
	})
	if sortErr != nil {
		return sortErr
	}
	sorted := make([]object, len(objs))
	for k, i := range idx {
		sorted[k] = objs[i]
	}
	copy(objs, sorted)
	return nil
}

// isLess mirrors kubectl's sorter.go isLess for the values JSONPath finds
// in unstructured objects: numbers numerically, strings as quantities when
// both parse as one, else in natural order (sortorder.NaturalLess), nil
// first, lists element by element; anything else is "unsortable type".
func isLess(i, j reflect.Value) (bool, error) {
	for i.Kind() == reflect.Interface && !i.IsNil() {
		i = i.Elem()
	}
	for j.Kind() == reflect.Interface && !j.IsNil() {
		j = j.Elem()
	}
	iNil := !i.IsValid() || (i.Kind() == reflect.Interface && i.IsNil())
	jNil := !j.IsValid() || (j.Kind() == reflect.Interface && j.IsNil())
	switch {
	case iNil && jNil:
		return false, nil
	case iNil:
		return true, nil
	case jNil:
		return false, nil
	}
	switch i.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		switch j.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return i.Int() < j.Int(), nil
		case reflect.Float32, reflect.Float64:
			return float64(i.Int()) < j.Float(), nil
		}
	case reflect.Float32, reflect.Float64:
		switch j.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return i.Float() < float64(j.Int()), nil
		case reflect.Float32, reflect.Float64:
			return i.Float() < j.Float(), nil
		}
	case reflect.Bool:
		if j.Kind() == reflect.Bool {
			return !i.Bool() && j.Bool(), nil
		}
	case reflect.String:
		if j.Kind() == reflect.String {
			a, b := i.String(), j.String()
			qa, errA := api.ParseQuantity(a)
			qb, errB := api.ParseQuantity(b)
			if errA != nil || errB != nil {
				return naturalLess(a, b), nil
			}
			return qa.Milli < qb.Milli, nil
		}
	case reflect.Slice:
		if j.Kind() == reflect.Slice {
			for k := 0; k < i.Len() && k < j.Len(); k++ {
				less, err := isLess(i.Index(k), j.Index(k))
				if err != nil || less {
					return less, err
				}
				if more, _ := isLess(j.Index(k), i.Index(k)); more {
					return false, nil
				}
			}
			return i.Len() < j.Len(), nil
		}
	}
	return false, fmt.Errorf("unsortable type: %v", i.Kind())
}

// naturalLess mirrors sortorder.NaturalLess (vbom.ml/util/sortorder, used
// by kubectl): runs of digits compare by numeric value (fewer leading
// zeros first on a tie), digits sort before other bytes, everything else
// bytewise.
func naturalLess(s1, s2 string) bool {
	isDigit := func(c byte) bool { return '0' <= c && c <= '9' }
	i1, i2 := 0, 0
	for i1 < len(s1) && i2 < len(s2) {
		c1, c2 := s1[i1], s2[i2]
		d1, d2 := isDigit(c1), isDigit(c2)
		switch {
		case d1 != d2:
			return d1
		case !d1:
			if c1 != c2 {
				return c1 < c2
			}
			i1++
			i2++
		default:
			for ; i1 < len(s1) && s1[i1] == '0'; i1++ {
			}
			for ; i2 < len(s2) && s2[i2] == '0'; i2++ {
			}
			nz1, nz2 := i1, i2
			for ; i1 < len(s1) && isDigit(s1[i1]); i1++ {
			}
			for ; i2 < len(s2) && isDigit(s2[i2]); i2++ {
			}
			if l1, l2 := i1-nz1, i2-nz2; l1 != l2 {
				return l1 < l2
			}
			if n1, n2 := s1[nz1:i1], s2[nz2:i2]; n1 != n2 {
				return n1 < n2
			}
			if nz1 != nz2 {
				return nz1 < nz2
			}
		}
	}
	return len(s1) < len(s2)
}
