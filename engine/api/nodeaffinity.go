package api

import (
	"errors"
	"fmt"
	"strings"
)

// NodeFieldName is the only node field matchFields can select on.
const NodeFieldName = "metadata.name"

// NodeSelectorRequirementsAsSelector mirrors component-helpers'
// nodeSelectorRequirementsAsSelector: matchExpressions with operators In,
// NotIn, Exists, DoesNotExist, Gt, Lt, ANDed. An unknown operator or bad
// values are an error (the term then matches no node).
func NodeSelectorRequirementsAsSelector(reqs []NodeSelectorRequirement) (Selector, error) {
	if len(reqs) == 0 {
		return Nothing(), nil
	}
	s := Selector{everyone: true}
	for _, e := range reqs {
		if err := s.addExpression("node", e.Key, e.Operator, e.Values, SelectorOpIn, SelectorOpNotIn, SelectorOpExists, SelectorOpDoesNotExist, SelectorOpGt, SelectorOpLt); err != nil {
			return Nothing(), err
		}
	}
	sortReqs(s.reqs)
	return s, nil
}

// FieldRequirement is one parsed matchFields requirement: Key = or != Value
// (In / NotIn with exactly one value).
type FieldRequirement struct {
	Key   string
	NotIn bool
	Value string
}

// Matches evaluates the requirement against the node's fields (only
// metadata.name is set; an absent field reads as "").
func (r FieldRequirement) Matches(node *Node) bool {
	v := ""
	if r.Key == NodeFieldName {
		v = node.Name
	}
	if r.NotIn {
		return v != r.Value
	}
	return v == r.Value
}

// String renders the requirement as written: "metadata.name In [node-1]".
func (r FieldRequirement) String() string {
	op := SelectorOpIn
	if r.NotIn {
		op = SelectorOpNotIn
	}
	return fmt.Sprintf("%s %s [%s]", r.Key, op, r.Value)
}

// NodeSelectorRequirementsAsFieldSelector mirrors component-helpers'
// nodeSelectorRequirementsAsFieldSelector: In/NotIn with exactly one value.
func NodeSelectorRequirementsAsFieldSelector(reqs []NodeSelectorRequirement) ([]FieldRequirement, error) {
	var out []FieldRequirement
	for _, e := range reqs {
		if len(e.Values) != 1 {
			return nil, fmt.Errorf("%s: must have one element", e.Key)
		}
		switch e.Operator {
		case SelectorOpIn:
			out = append(out, FieldRequirement{Key: e.Key, Value: e.Values[0]})
		case SelectorOpNotIn:
			out = append(out, FieldRequirement{Key: e.Key, NotIn: true, Value: e.Values[0]})
		default:
			return nil, fmt.Errorf("%q is not a valid node field selector operator", e.Operator)
		}
	}
	return out, nil
}

// NodeSelectorTermMatcher is one parsed nodeSelectorTerm (component-helpers
// nodeSelectorTerm): its matchExpressions and matchFields are ANDed.
type NodeSelectorTermMatcher struct {
	// Index is the term's position in nodeSelectorTerms.
	Index int
	// Labels is nil when the term has no matchExpressions.
	Labels *Selector
	// Fields are the parsed matchFields.
	Fields []FieldRequirement
	// Err is the parse error, if any; such a term matches no node.
	Err error
}

// IsEmptyNodeSelectorTerm reports whether the term has neither
// matchExpressions nor matchFields (such a term matches nothing and is dropped).
func IsEmptyNodeSelectorTerm(t *NodeSelectorTerm) bool {
	return len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0
}

// NewNodeSelectorTermMatcher parses one term (newNodeSelectorTerm).
func NewNodeSelectorTermMatcher(index int, t *NodeSelectorTerm) NodeSelectorTermMatcher {
	m := NodeSelectorTermMatcher{Index: index}
	var errs []error
	if len(t.MatchExpressions) != 0 {
		s, err := NodeSelectorRequirementsAsSelector(t.MatchExpressions)
		if err != nil {
			errs = append(errs, fmt.Errorf("nodeSelectorTerms[%d].matchExpressions: %v", index, err))
		}
		m.Labels = &s
	}
	if len(t.MatchFields) != 0 {
		f, err := NodeSelectorRequirementsAsFieldSelector(t.MatchFields)
		if err != nil {
			errs = append(errs, fmt.Errorf("nodeSelectorTerms[%d].matchFields: %v", index, err))
		}
		m.Fields = f
	}
	m.Err = errors.Join(errs...)
	return m
}

// Match mirrors nodeSelectorTerm.match: a parse error never matches.
func (m *NodeSelectorTermMatcher) Match(node *Node) (bool, error) {
	if m.Err != nil {
		return false, m.Err
	}
	if m.Labels != nil && !m.Labels.Matches(node.Labels) {
		return false, nil
	}
	for _, f := range m.Fields {
		if !f.Matches(node) {
			return false, nil
		}
	}
	return true, nil
}

// LazyErrorNodeSelector mirrors component-helpers LazyErrorNodeSelector: the
// parsed non-empty terms of a NodeSelector, ORed; parse errors are returned
// only when no term matched.
type LazyErrorNodeSelector struct {
	Terms []NodeSelectorTermMatcher
}

// NewLazyErrorNodeSelector parses ns, dropping empty terms.
func NewLazyErrorNodeSelector(ns *NodeSelector) *LazyErrorNodeSelector {
	out := &LazyErrorNodeSelector{}
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		if IsEmptyNodeSelectorTerm(t) {
			continue
		}
		out.Terms = append(out.Terms, NewNodeSelectorTermMatcher(i, t))
	}
	return out
}

// Match reports whether some term matches the node. With no (non-empty)
// terms nothing matches.
func (ns *LazyErrorNodeSelector) Match(node *Node) (bool, error) {
	var errs []error
	for i := range ns.Terms {
		ok, err := ns.Terms[i].Match(node)
		if ok {
			return true, nil
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return false, errors.Join(errs...)
}

// RequiredNodeAffinity mirrors component-helpers nodeaffinity.RequiredNodeAffinity:
// a pod's spec.nodeSelector and required node affinity, both of which must match.
type RequiredNodeAffinity struct {
	// LabelSelector is nil when the pod has no nodeSelector.
	LabelSelector *Selector
	// NodeSelector is nil when the pod has no required node affinity.
	NodeSelector *LazyErrorNodeSelector
}

// GetRequiredNodeAffinity mirrors nodeaffinity.GetRequiredNodeAffinity.
func GetRequiredNodeAffinity(spec *PodSpec) RequiredNodeAffinity {
	var r RequiredNodeAffinity
	if len(spec.NodeSelector) > 0 {
		s := SelectorFromSet(spec.NodeSelector)
		r.LabelSelector = &s
	}
	if ns := RequiredNodeSelector(spec); ns != nil {
		r.NodeSelector = NewLazyErrorNodeSelector(ns)
	}
	return r
}

// RequiredNodeSelector returns spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution or nil.
func RequiredNodeSelector(spec *PodSpec) *NodeSelector {
	if spec.Affinity == nil || spec.Affinity.NodeAffinity == nil {
		return nil
	}
	return spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
}

// Match reports whether the node satisfies both the nodeSelector and the
// required node affinity (RequiredNodeAffinity.Match). The error is a parse
// error of the affinity terms; callers treat it as no match.
func (r RequiredNodeAffinity) Match(node *Node) (bool, error) {
	if r.LabelSelector != nil && !r.LabelSelector.Matches(node.Labels) {
		return false, nil
	}
	if r.NodeSelector != nil {
		return r.NodeSelector.Match(node)
	}
	return true, nil
}

// TermString renders a node selector term for explanations:
// "zone In [a b], metadata.name In [node-1]".
func TermString(t *NodeSelectorTerm) string {
	var parts []string
	for _, e := range t.MatchExpressions {
		parts = append(parts, Requirement{Key: e.Key, Operator: e.Operator, Values: e.Values}.String())
	}
	for _, e := range t.MatchFields {
		parts = append(parts, Requirement{Key: e.Key, Operator: e.Operator, Values: e.Values}.String())
	}
	if len(parts) == 0 {
		return "(empty term)"
	}
	return strings.Join(parts, ", ")
}
