package scheduler

import (
	"github.com/dsplayground/dsplay/engine/api"
)

// InterPodAffinity filter reasons, as
// pkg/scheduler/framework/plugins/interpodaffinity/filtering.go words them.
const (
	// ErrReasonExistingAntiAffinityRulesNotMatch: a pod already on the
	// node's topology domain has a required anti-affinity term matching the
	// incoming pod (framework.Unschedulable: preemption may help).
	ErrReasonExistingAntiAffinityRulesNotMatch = "node(s) didn't satisfy existing pods anti-affinity rules"
	// ErrReasonAffinityRulesNotMatch: the node's domains hold no pod matching
	// the incoming pod's required affinity, or the node lacks a topology
	// label (framework.UnschedulableAndUnresolvable).
	ErrReasonAffinityRulesNotMatch = "node(s) didn't match pod affinity rules"
	// ErrReasonAntiAffinityRulesNotMatch: the node's domain holds a pod
	// matching the incoming pod's required anti-affinity
	// (framework.Unschedulable).
	ErrReasonAntiAffinityRulesNotMatch = "node(s) didn't match pod anti-affinity rules"
)

// topologyPair mirrors the plugins' topologyPair: a node label key and value.
type topologyPair struct {
	key, value string
}

// affinityTerm mirrors framework.AffinityTerm: a required PodAffinityTerm
// with its namespaces and selectors parsed.
type affinityTerm struct {
	// namespaces holds the listed namespaces, or the owning pod's namespace
	// when neither namespaces nor namespaceSelector is set
	// (GetNamespacesFromPodAffinityTerm).
	namespaces map[string]bool
	// nsSelector selects namespaces by their labels (nil namespaceSelector:
	// nothing; {}: every namespace).
	nsSelector  api.Selector
	selector    api.Selector
	topologyKey string
}

// matches mirrors AffinityTerm.Matches: q is in one of the term's
// namespaces (nsLabels are the labels of q's namespace) and its labels
// match the selector.
func (t *affinityTerm) matches(q *api.Pod, nsLabels map[string]string) bool {
	if t.namespaces[q.Namespace] || t.nsSelector.Matches(nsLabels) {
		return t.selector.Matches(q.Labels)
	}
	return false
}

// newAffinityTerms mirrors framework.getAffinityTerms for pod p's terms.
// matchLabelKeys and mismatchLabelKeys are ANDed into the label selector
// as `key In (p's value)` / `key NotIn (p's value)` for each key p carries
// (what the API server does when the pod is created since v1.33, pod
// strategy applyMatchLabelKeysAndMismatchLabelKeys; the simulated API
// server keeps the pod as written, so the scheduler applies them). A
// selector that does not parse selects nothing (validation refuses it).
func newAffinityTerms(p *api.Pod, terms []api.PodAffinityTerm) []affinityTerm {
	if len(terms) == 0 {
		return nil
	}
	out := make([]affinityTerm, 0, len(terms))
	for i := range terms {
		t := &terms[i]
		at := affinityTerm{topologyKey: t.TopologyKey, nsSelector: api.Nothing()}
		if len(t.Namespaces) == 0 && t.NamespaceSelector == nil {
			at.namespaces = map[string]bool{p.Namespace: true}
		} else {
			at.namespaces = make(map[string]bool, len(t.Namespaces))
			for _, ns := range t.Namespaces {
				at.namespaces[ns] = true
			}
		}
		if t.NamespaceSelector != nil {
			if s, err := api.LabelSelectorAsSelector(t.NamespaceSelector); err == nil {
				at.nsSelector = s
			}
		}
		ls := t.LabelSelector
		if ls != nil && (len(t.MatchLabelKeys) > 0 || len(t.MismatchLabelKeys) > 0) {
			merged := *ls
			merged.MatchExpressions = append([]api.LabelSelectorRequirement(nil), ls.MatchExpressions...)
			for _, k := range t.MatchLabelKeys {
				if v, ok := p.Labels[k]; ok {
					merged.MatchExpressions = append(merged.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.SelectorOpIn, Values: []string{v}})
				}
			}
			for _, k := range t.MismatchLabelKeys {
				if v, ok := p.Labels[k]; ok {
					merged.MatchExpressions = append(merged.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.SelectorOpNotIn, Values: []string{v}})
				}
			}
			ls = &merged
		}
		at.selector = api.Nothing()
		if s, err := api.LabelSelectorAsSelector(ls); err == nil {
			at.selector = s
		}
		out = append(out, at)
	}
	return out
}

// requiredAffinityTerms returns p's required pod affinity terms as written.
func requiredAffinityTerms(p *api.Pod) []api.PodAffinityTerm {
	if a := p.Spec.Affinity; a != nil && a.PodAffinity != nil {
		return a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	return nil
}

// requiredAntiAffinityTerms returns p's required pod anti-affinity terms as written.
func requiredAntiAffinityTerms(p *api.Pod) []api.PodAffinityTerm {
	if a := p.Spec.Affinity; a != nil && a.PodAntiAffinity != nil {
		return a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	return nil
}

// hasRequiredAntiAffinity mirrors the NodeInfo.PodsWithRequiredAntiAffinity
// membership test.
func hasRequiredAntiAffinity(p *api.Pod) bool { return len(requiredAntiAffinityTerms(p)) > 0 }

// interPodAffinityState mirrors interpodaffinity.preFilterState for one
// incoming pod: counts per topology pair of
//   - existingAnti: existing pods' required anti-affinity terms matching the pod,
//   - affinity: existing pods matching ALL the pod's required affinity terms
//     (one count per term's topology pair),
//   - anti: existing pods matching each of the pod's required anti-affinity terms.
type interPodAffinityState struct {
	pod *api.Pod
	// podNsLabels are the labels of the incoming pod's namespace.
	podNsLabels                  map[string]string
	affinityTerms, antiTerms     []affinityTerm
	existingAnti, affinity, anti map[topologyPair]int
	// skip: PreFilter returned Skip (no term on either side).
	skip     bool
	nsLabels func(ns string) map[string]string
}

// namespaceLabels returns the labels of namespace ns in the cluster (nil
// when the namespace object does not exist).
func (cy *cycle) namespaceLabels(ns string) map[string]string {
	if n := cy.s.c.Namespace(ns); n != nil {
		return n.Labels
	}
	return nil
}

// interPodAffinityPreFilter mirrors InterPodAffinity.PreFilter: it counts,
// over every node of the cluster and the pods the scheduler sees there
// (the cycle's node infos, which include pods bound earlier in the
// cycle), the matches above. With no required term on the pod and no
// existing anti-affinity term matching it, the plugin is skipped
// (framework.Skip): Filter, AddPod and RemovePod then do nothing.
func (cy *cycle) interPodAffinityPreFilter(p *api.Pod) *interPodAffinityState {
	st := &interPodAffinityState{
		pod:           p,
		podNsLabels:   cy.namespaceLabels(p.Namespace),
		affinityTerms: newAffinityTerms(p, requiredAffinityTerms(p)),
		antiTerms:     newAffinityTerms(p, requiredAntiAffinityTerms(p)),
		existingAnti:  map[topologyPair]int{},
		affinity:      map[topologyPair]int{},
		anti:          map[topologyPair]int{},
		nsLabels:      cy.namespaceLabels,
	}
	if len(st.affinityTerms) > 0 || len(st.antiTerms) > 0 {
		// getIncomingAffinityAntiAffinityCounts over all nodes; existing
		// anti-affinity over the same pass.
		for _, n := range cy.nodes {
			for _, q := range cy.info(n).pods {
				st.update(q, n, 1)
			}
		}
	} else {
		// getExistingAntiAffinityCounts over HavePodsWithRequiredAntiAffinityList.
		for _, e := range cy.antiAffinityPods() {
			st.updateExisting(e.pod, e.node, 1)
		}
	}
	st.skip = len(st.affinityTerms) == 0 && len(st.antiTerms) == 0 && len(st.existingAnti) == 0
	return st
}

// update mirrors preFilterState.updateWithPod: existing pod q on node n
// is added (multiplier 1) or removed (-1).
func (st *interPodAffinityState) update(q *api.Pod, n *api.Node, multiplier int) {
	st.updateExisting(q, n, multiplier)
	// updateWithAffinityTerms: q must match ALL the incoming terms.
	if len(st.affinityTerms) > 0 {
		qns := st.nsLabels(q.Namespace)
		all := true
		for i := range st.affinityTerms {
			if !st.affinityTerms[i].matches(q, qns) {
				all = false
				break
			}
		}
		if all {
			for i := range st.affinityTerms {
				addPair(st.affinity, n, st.affinityTerms[i].topologyKey, multiplier)
			}
		}
	}
	// updateWithAntiAffinityTerms for the incoming pod's terms.
	if len(st.antiTerms) > 0 {
		qns := st.nsLabels(q.Namespace)
		for i := range st.antiTerms {
			if st.antiTerms[i].matches(q, qns) {
				addPair(st.anti, n, st.antiTerms[i].topologyKey, multiplier)
			}
		}
	}
}

// updateExisting counts existing pod q's required anti-affinity terms
// that match the incoming pod (updateWithAntiAffinityTerms with q's terms).
func (st *interPodAffinityState) updateExisting(q *api.Pod, n *api.Node, multiplier int) {
	raw := requiredAntiAffinityTerms(q)
	if len(raw) == 0 {
		return
	}
	for _, t := range newAffinityTerms(q, raw) {
		if t.matches(st.pod, st.podNsLabels) {
			addPair(st.existingAnti, n, t.topologyKey, multiplier)
		}
	}
}

// addPair adds multiplier to m[key=n's value of key] when n carries the
// label, deleting entries that drop to zero (as upstream does).
func addPair(m map[topologyPair]int, n *api.Node, key string, multiplier int) {
	v, ok := n.Labels[key]
	if !ok {
		return
	}
	tp := topologyPair{key, v}
	m[tp] += multiplier
	if m[tp] == 0 {
		delete(m, tp)
	}
}

// clone mirrors preFilterState.Clone (the counts are copied, the terms shared).
func (st *interPodAffinityState) clone() *interPodAffinityState {
	out := *st
	cp := func(m map[topologyPair]int) map[topologyPair]int {
		c := make(map[topologyPair]int, len(m))
		for k, v := range m {
			c[k] = v
		}
		return c
	}
	out.existingAnti, out.affinity, out.anti = cp(st.existingAnti), cp(st.affinity), cp(st.anti)
	return &out
}

// filter mirrors InterPodAffinity.Filter on node n, in upstream's order:
// required affinity (UnschedulableAndUnresolvable), the pod's required
// anti-affinity (Unschedulable), existing pods' anti-affinity
// (Unschedulable).
func (st *interPodAffinityState) filter(n *api.Node) nodeStatus {
	if st.skip {
		return nodeStatus{}
	}
	if !st.satisfyPodAffinity(n) {
		return nodeStatus{reasons: []string{ErrReasonAffinityRulesNotMatch}}
	}
	if !st.satisfyPodAntiAffinity(n) {
		return nodeStatus{reasons: []string{ErrReasonAntiAffinityRulesNotMatch}, resolvable: true}
	}
	if !st.satisfyExistingPodsAntiAffinity(n) {
		return nodeStatus{reasons: []string{ErrReasonExistingAntiAffinityRulesNotMatch}, resolvable: true}
	}
	return nodeStatus{}
}

// satisfyPodAffinity mirrors the upstream function: every term's topology
// key must be a label of n and, for every term, n's domain must hold a
// pod matching all terms — unless no pod anywhere matches them and the
// pod matches all its own terms (the first pod of a group with affinity to
// itself may go anywhere that has the topology labels).
func (st *interPodAffinityState) satisfyPodAffinity(n *api.Node) bool {
	podsExist := true
	for i := range st.affinityTerms {
		t := &st.affinityTerms[i]
		v, ok := n.Labels[t.topologyKey]
		if !ok {
			return false // all topology labels must exist on the node
		}
		if st.affinity[topologyPair{t.topologyKey, v}] <= 0 {
			podsExist = false
		}
	}
	if podsExist {
		return true
	}
	if len(st.affinity) == 0 {
		for i := range st.affinityTerms {
			if !st.affinityTerms[i].matches(st.pod, st.podNsLabels) {
				return false
			}
		}
		return len(st.affinityTerms) > 0
	}
	return false
}

// satisfyPodAntiAffinity mirrors the upstream function: no term's domain
// on n holds a matching pod.
func (st *interPodAffinityState) satisfyPodAntiAffinity(n *api.Node) bool {
	for i := range st.antiTerms {
		t := &st.antiTerms[i]
		if v, ok := n.Labels[t.topologyKey]; ok && st.anti[topologyPair{t.topologyKey, v}] > 0 {
			return false
		}
	}
	return true
}

// satisfyExistingPodsAntiAffinity mirrors the upstream function: no label
// of n names a domain where an existing pod's anti-affinity matches the pod.
func (st *interPodAffinityState) satisfyExistingPodsAntiAffinity(n *api.Node) bool {
	if len(st.existingAnti) == 0 {
		return true
	}
	for k, v := range n.Labels {
		if st.existingAnti[topologyPair{k, v}] > 0 {
			return false
		}
	}
	return true
}

// podOnNode is a bound pod with its node.
type podOnNode struct {
	pod  *api.Pod
	node *api.Node
}

// antiAffinityPods returns the pods of the cycle's node infos that carry
// required anti-affinity terms (NodeInfo.PodsWithRequiredAntiAffinity
// over HavePodsWithRequiredAntiAffinityList), in node order. The index is
// built once per cycle and kept current by noteBound and invalidate.
func (cy *cycle) antiAffinityPods() []podOnNode {
	if cy.anti == nil {
		cy.anti = map[string][]*api.Pod{}
		for _, n := range cy.nodes {
			cy.indexAnti(n)
		}
	}
	if len(cy.anti) == 0 {
		return nil
	}
	// The callers only add counts up, so the order does not matter.
	var out []podOnNode
	for name, ps := range cy.anti {
		n := cy.s.c.Node(name)
		if n == nil {
			continue
		}
		for _, q := range ps {
			out = append(out, podOnNode{q, n})
		}
	}
	return out
}

// indexAnti (re)computes the anti-affinity index entry of node n from the
// pods the store has there (the pods a node info is built from: every
// non-terminal pod bound to n), without building the node info.
func (cy *cycle) indexAnti(n *api.Node) {
	var ps []*api.Pod
	for _, q := range cy.s.c.PodsOnNodeShared(n.Name) {
		if !q.IsTerminal() && hasRequiredAntiAffinity(q) {
			ps = append(ps, q)
		}
	}
	if ps == nil {
		delete(cy.anti, n.Name)
		return
	}
	cy.anti[n.Name] = ps
}

// noteBound records pod p, just bound to ni's node, in the cycle's
// anti-affinity index.
func (cy *cycle) noteBound(p *api.Pod, ni *nodeInfo) {
	if cy.anti != nil && hasRequiredAntiAffinity(p) {
		cy.anti[ni.node.Name] = append(cy.anti[ni.node.Name], p)
	}
}
