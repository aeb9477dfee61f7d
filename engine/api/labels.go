package api

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Selector operators: the label selector ones (metav1.LabelSelectorOperator)
// and the node selector ones (core/v1 NodeSelectorOperator), which add Gt/Lt.
const (
	SelectorOpIn           = "In"
	SelectorOpNotIn        = "NotIn"
	SelectorOpExists       = "Exists"
	SelectorOpDoesNotExist = "DoesNotExist"
	SelectorOpGt           = "Gt"
	SelectorOpLt           = "Lt"
)

// Requirement is one parsed selector requirement (apimachinery
// labels.Requirement): Key Operator Values, with Operator one of the
// SelectorOp* constants.
type Requirement struct {
	Key      string
	Operator string
	Values   []string
}

// validateLabelKey mirrors labels.validateLabelKey: IsQualifiedName's
// messages as a field error on "key".
func validateLabelKey(key string) error {
	if errs := IsQualifiedName(key); len(errs) != 0 {
		return fmt.Errorf("key: Invalid value: %q: %s", key, strings.Join(errs, "; "))
	}
	return nil
}

// validateLabelValue mirrors labels.validateLabelValue: IsValidLabelValue's
// messages as a field error on "values[i][key]".
func validateLabelValue(i int, key, v string) error {
	if errs := IsValidLabelValue(v); len(errs) != 0 {
		return fmt.Errorf("values[%d][%s]: Invalid value: %q: %s", i, key, v, strings.Join(errs, "; "))
	}
	return nil
}

// NewRequirement mirrors labels.NewRequirement: it checks the key, the
// number of values for the operator (In/NotIn at least one, Exists and
// DoesNotExist none, Gt/Lt exactly one integer) and each value. The first
// problem found is returned, in upstream's words (upstream aggregates them all).
func NewRequirement(key, op string, vals []string) (Requirement, error) {
	if err := validateLabelKey(key); err != nil {
		return Requirement{}, err
	}
	switch op {
	case SelectorOpIn, SelectorOpNotIn:
		if len(vals) == 0 {
			return Requirement{}, fmt.Errorf("for 'in', 'notin' operators, values set can't be empty")
		}
	case SelectorOpExists, SelectorOpDoesNotExist:
		if len(vals) != 0 {
			return Requirement{}, fmt.Errorf("values set must be empty for exists and does not exist")
		}
	case SelectorOpGt, SelectorOpLt:
		if len(vals) != 1 {
			return Requirement{}, fmt.Errorf("for 'Gt', 'Lt' operators, exactly one value is required")
		}
		if _, err := strconv.ParseInt(vals[0], 10, 64); err != nil {
			return Requirement{}, fmt.Errorf("for 'Gt', 'Lt' operators, the value must be an integer")
		}
	default:
		return Requirement{}, fmt.Errorf("operator '%v' is not recognized", op)
	}
	for i, v := range vals {
		if err := validateLabelValue(i, key, v); err != nil {
			return Requirement{}, err
		}
	}
	return Requirement{Key: key, Operator: op, Values: vals}, nil
}

// Matches mirrors labels.Requirement.Matches: In needs the key with a
// listed value; NotIn matches an absent key or an unlisted value; Exists and
// DoesNotExist test presence; Gt/Lt need the key with an integer value
// greater/less than the requirement's (a non-integer label value never matches).
func (r Requirement) Matches(ls map[string]string) bool {
	v, has := ls[r.Key]
	switch r.Operator {
	case SelectorOpIn:
		return has && slices.Contains(r.Values, v)
	case SelectorOpNotIn:
		return !has || !slices.Contains(r.Values, v)
	case SelectorOpExists:
		return has
	case SelectorOpDoesNotExist:
		return !has
	case SelectorOpGt, SelectorOpLt:
		if !has || len(r.Values) != 1 {
			return false
		}
		lv, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		rv, err := strconv.ParseInt(r.Values[0], 10, 64)
		if err != nil {
			return false
		}
		if r.Operator == SelectorOpGt {
			return lv > rv
		}
		return lv < rv
	}
	return false
}

// String renders the requirement as written in a manifest: "disk In [ssd hdd]",
// "gpu Exists".
func (r Requirement) String() string {
	switch r.Operator {
	case SelectorOpExists, SelectorOpDoesNotExist:
		return r.Key + " " + r.Operator
	}
	return fmt.Sprintf("%s %s [%s]", r.Key, r.Operator, strings.Join(r.Values, " "))
}

// Selector is a parsed label selector (apimachinery labels.Selector): the
// requirements are ANDed. The zero value selects nothing (Nothing); an
// empty label set selector (SelectorFromSet(nil)) selects everything.
type Selector struct {
	reqs     []Requirement
	everyone bool
}

// Nothing returns a selector that matches no label set (labels.Nothing).
func Nothing() Selector { return Selector{} }

// Matches reports whether every requirement matches ls.
func (s Selector) Matches(ls map[string]string) bool {
	if !s.everyone && len(s.reqs) == 0 {
		return false
	}
	for _, r := range s.reqs {
		if !r.Matches(ls) {
			return false
		}
	}
	return true
}

// Empty reports whether the selector matches everything (labels.Selector.Empty).
func (s Selector) Empty() bool { return s.everyone && len(s.reqs) == 0 }

// Requirements returns the parsed requirements, sorted by key as upstream.
func (s Selector) Requirements() []Requirement { return s.reqs }

// SelectorFromSet mirrors labels.SelectorFromSet: key=value for every entry
// (an empty or nil map selects everything).
func SelectorFromSet(set map[string]string) Selector {
	s := Selector{everyone: true}
	for k, v := range set {
		s.reqs = append(s.reqs, Requirement{Key: k, Operator: SelectorOpIn, Values: []string{v}})
	}
	sortReqs(s.reqs)
	return s
}

func sortReqs(rs []Requirement) {
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Key < rs[j].Key })
}

// LabelSelectorAsSelector mirrors metav1.LabelSelectorAsSelector: a nil
// selector matches nothing, an empty one ({}) everything; matchLabels and
// matchExpressions (In, NotIn, Exists, DoesNotExist) are ANDed. An unknown
// operator or bad values are an error.
func LabelSelectorAsSelector(ls *LabelSelector) (Selector, error) {
	if ls == nil {
		return Nothing(), nil
	}
	s := Selector{everyone: true}
	for k, v := range ls.MatchLabels {
		r, err := NewRequirement(k, SelectorOpIn, []string{v})
		if err != nil {
			return Nothing(), err
		}
		s.reqs = append(s.reqs, r)
	}
	for _, e := range ls.MatchExpressions {
		if err := s.addExpression("label", e.Key, e.Operator, e.Values, SelectorOpIn, SelectorOpNotIn, SelectorOpExists, SelectorOpDoesNotExist); err != nil {
			return Nothing(), err
		}
	}
	sortReqs(s.reqs)
	return s, nil
}

// addExpression checks that op is one of ops (else "%q is not a valid
// <kind> selector operator") and ANDs the requirement key op values into s.
func (s *Selector) addExpression(kind, key, op string, values []string, ops ...string) error {
	if !slices.Contains(ops, op) {
		return fmt.Errorf("%q is not a valid %s selector operator", op, kind)
	}
	r, err := NewRequirement(key, op, append([]string(nil), values...))
	if err != nil {
		return err
	}
	s.reqs = append(s.reqs, r)
	return nil
}

// IsEmptyLabelSelector reports whether ls is the empty selector {} (neither
// matchLabels nor matchExpressions), which the DaemonSet controller refuses
// (SelectingAll).
func IsEmptyLabelSelector(ls *LabelSelector) bool {
	return ls != nil && len(ls.MatchLabels) == 0 && len(ls.MatchExpressions) == 0
}
