package scheduler

import (
	"math"

	"github.com/dsplayground/dsplay/engine/api"
)

// PodTopologySpread filter reasons, as
// pkg/scheduler/framework/plugins/podtopologyspread/plugin.go words them.
const (
	// ErrReasonConstraintsNotMatch: placing the pod on the node would
	// exceed a DoNotSchedule constraint's maxSkew (framework.Unschedulable).
	ErrReasonConstraintsNotMatch = "node(s) didn't match pod topology spread constraints"
	// ErrReasonNodeLabelNotMatch: the node lacks a constraint's topology key
	// (framework.UnschedulableAndUnresolvable).
	ErrReasonNodeLabelNotMatch = ErrReasonConstraintsNotMatch + " (missing required label)"
)

// spreadConstraint mirrors podtopologyspread.topologySpreadConstraint: a
// DoNotSchedule constraint with its selector parsed and defaults applied
// (minDomains 1, nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore).
type spreadConstraint struct {
	maxSkew      int32
	topologyKey  string
	selector     api.Selector
	minDomains   int32
	affinityHonr bool
	taintsHonor  bool
}

// spreadConstraints mirrors filterTopologySpreadConstraints for the
// DoNotSchedule constraints of p (pods without constraints get the
// cluster's default constraints, which are all ScheduleAnyway and so never
// filter). matchLabelKeys adds `key=value` for each key p carries (the API
// server merges them into labelSelector at creation since v1.34; the
// effect on the selector is the same). A selector that does not parse
// selects nothing (validation refuses it).
func spreadConstraints(p *api.Pod) []spreadConstraint {
	var out []spreadConstraint
	for i := range p.Spec.TopologySpreadConstraints {
		c := &p.Spec.TopologySpreadConstraints[i]
		if c.WhenUnsatisfiable != api.DoNotSchedule {
			continue
		}
		ls := c.LabelSelector
		if len(c.MatchLabelKeys) > 0 {
			extra := map[string]string{}
			for _, k := range c.MatchLabelKeys {
				if v, ok := p.Labels[k]; ok {
					extra[k] = v
				}
			}
			if len(extra) > 0 {
				// mergeLabelSetWithSelector: a nil selector contributes no
				// requirement, so the keys alone select.
				merged := api.LabelSelector{MatchLabels: map[string]string{}}
				if ls != nil {
					merged.MatchExpressions = ls.MatchExpressions
					for k, v := range ls.MatchLabels {
						merged.MatchLabels[k] = v
					}
				}
				for k, v := range extra {
					if old, dup := merged.MatchLabels[k]; dup && old != v {
						// both requirements stay: nothing can match
						merged.MatchExpressions = append(append([]api.LabelSelectorRequirement(nil), merged.MatchExpressions...),
							api.LabelSelectorRequirement{Key: k, Operator: api.SelectorOpIn, Values: []string{v}})
						continue
					}
					merged.MatchLabels[k] = v
				}
				ls = &merged
			}
		}
		sel := api.Nothing()
		if s, err := api.LabelSelectorAsSelector(ls); err == nil {
			sel = s
		}
		sc := spreadConstraint{maxSkew: c.MaxSkew, topologyKey: c.TopologyKey, selector: sel, minDomains: 1, affinityHonr: true}
		if c.MinDomains != nil {
			sc.minDomains = *c.MinDomains
		}
		if c.NodeAffinityPolicy != nil {
			sc.affinityHonr = *c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor
		}
		if c.NodeTaintsPolicy != nil {
			sc.taintsHonor = *c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor
		}
		out = append(out, sc)
	}
	return out
}

// matchNodeInclusionPolicies mirrors the upstream method: with
// nodeAffinityPolicy Honor the node must match p's required node affinity
// and nodeSelector; with nodeTaintsPolicy Honor p must tolerate the node's
// NoSchedule and NoExecute taints.
func (c *spreadConstraint) matchNodeInclusionPolicies(p *api.Pod, n *api.Node, affinity api.RequiredNodeAffinity) bool {
	if c.affinityHonr {
		if ok, _ := affinity.Match(n); !ok {
			return false
		}
	}
	if c.taintsHonor {
		if _, bad := api.FindMatchingUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, api.DoNotScheduleTaintsFilter); bad {
			return false
		}
	}
	return true
}

// criticalPaths mirrors the upstream type: the two topology values with
// the fewest matching pods seen so far; [0] holds the minimum.
type criticalPaths [2]struct {
	value string
	num   int
}

func newCriticalPaths() *criticalPaths {
	return &criticalPaths{{num: math.MaxInt32}, {num: math.MaxInt32}}
}

// update mirrors criticalPaths.update.
func (p *criticalPaths) update(v string, num int) {
	i := -1
	if v == p[0].value {
		i = 0
	} else if v == p[1].value {
		i = 1
	}
	if i >= 0 {
		p[i].num = num
		if p[0].num > p[1].num {
			p[0], p[1] = p[1], p[0]
		}
		return
	}
	if num < p[0].num {
		p[1] = p[0]
		p[0].value, p[0].num = v, num
	} else if num < p[1].num {
		p[1].value, p[1].num = v, num
	}
}

// spreadState mirrors podtopologyspread.preFilterState for one incoming
// pod: per constraint, the matching pods per topology value (every
// eligible domain present, possibly with 0) and the critical paths.
type spreadState struct {
	pod         *api.Pod
	affinity    api.RequiredNodeAffinity
	constraints []spreadConstraint
	matchNum    []map[string]int
	paths       []*criticalPaths
}

// nodeLabelsMatchSpreadConstraints mirrors the upstream function: n has
// every constraint's topology key.
func nodeLabelsMatchSpreadConstraints(labels map[string]string, cs []spreadConstraint) bool {
	for i := range cs {
		if _, ok := labels[cs[i].topologyKey]; !ok {
			return false
		}
	}
	return true
}

// countPodsMatchSelector mirrors the upstream function: non-terminating
// pods of namespace ns whose labels match sel.
func countPodsMatchSelector(pods []*api.Pod, sel api.Selector, ns string) int {
	n := 0
	for _, q := range pods {
		if q.DeletionTimestamp != nil || q.Namespace != ns {
			continue
		}
		if sel.Matches(q.Labels) {
			n++
		}
	}
	return n
}

// podTopologySpreadPreFilter mirrors calPreFilterState: for every node
// that has all the constraints' topology keys, each constraint whose node
// inclusion policies admit the node counts the matching pods there under
// the node's topology value. nil when p has no DoNotSchedule constraint
// (PreFilter returns Skip). When p's required node affinity names its
// nodes (a daemon pod's metadata.name matchFields), only those nodes are
// looked at: with nodeAffinityPolicy Honor the others never count, and
// with Ignore every node is looked at.
func (cy *cycle) podTopologySpreadPreFilter(p *api.Pod) *spreadState {
	cs := spreadConstraints(p)
	if len(cs) == 0 {
		return nil
	}
	st := &spreadState{pod: p, affinity: api.GetRequiredNodeAffinity(&p.Spec), constraints: cs,
		matchNum: make([]map[string]int, len(cs)), paths: make([]*criticalPaths, len(cs))}
	for i := range cs {
		st.matchNum[i] = map[string]int{}
	}
	nodes := cy.nodes
	allHonor := true
	for i := range cs {
		allHonor = allHonor && cs[i].affinityHonr
	}
	if names, ok := preFilterNodeNames(&p.Spec); ok && allHonor {
		nodes = nil
		for name := range names {
			if n := cy.s.c.Node(name); n != nil {
				nodes = append(nodes, n)
			}
		}
	}
	for _, n := range nodes {
		if !nodeLabelsMatchSpreadConstraints(n.Labels, cs) {
			continue
		}
		for i := range cs {
			c := &cs[i]
			if !c.matchNodeInclusionPolicies(p, n, st.affinity) {
				continue
			}
			st.matchNum[i][n.Labels[c.topologyKey]] += countPodsMatchSelector(cy.info(n).pods, c.selector, p.Namespace)
		}
	}
	for i := range cs {
		st.paths[i] = newCriticalPaths()
		for v, num := range st.matchNum[i] {
			st.paths[i].update(v, num)
		}
	}
	return st
}

// clone mirrors preFilterState.Clone.
func (st *spreadState) clone() *spreadState {
	out := *st
	out.matchNum = make([]map[string]int, len(st.matchNum))
	out.paths = make([]*criticalPaths, len(st.paths))
	for i := range st.matchNum {
		m := make(map[string]int, len(st.matchNum[i]))
		for k, v := range st.matchNum[i] {
			m[k] = v
		}
		out.matchNum[i] = m
		cp := *st.paths[i]
		out.paths[i] = &cp
	}
	return &out
}

// update mirrors PodTopologySpread.updateWithPod (AddPod / RemovePod):
// pod q of the incoming pod's namespace on node n changes the counts of
// the constraints it matches by delta, when n has all topology keys and
// passes the constraint's inclusion policies.
func (st *spreadState) update(q *api.Pod, n *api.Node, delta int) {
	if q.Namespace != st.pod.Namespace || !nodeLabelsMatchSpreadConstraints(n.Labels, st.constraints) {
		return
	}
	for i := range st.constraints {
		c := &st.constraints[i]
		if !c.selector.Matches(q.Labels) || !c.matchNodeInclusionPolicies(st.pod, n, st.affinity) {
			continue
		}
		v := n.Labels[c.topologyKey]
		st.matchNum[i][v] += delta
		st.paths[i].update(v, st.matchNum[i][v])
	}
}

// filter mirrors PodTopologySpread.Filter on node n: a missing topology
// key is UnschedulableAndUnresolvable; otherwise, per constraint,
// matching pods in n's domain + 1 if the pod matches its own selector −
// the global minimum (0 while fewer than minDomains domains exist) must
// not exceed maxSkew (else Unschedulable).
func (st *spreadState) filter(n *api.Node) nodeStatus {
	if st == nil {
		return nodeStatus{}
	}
	for i := range st.constraints {
		c := &st.constraints[i]
		v, ok := n.Labels[c.topologyKey]
		if !ok {
			return nodeStatus{reasons: []string{ErrReasonNodeLabelNotMatch}}
		}
		minMatch := st.paths[i][0].num
		if len(st.matchNum[i]) < int(c.minDomains) {
			minMatch = 0
		}
		self := 0
		if c.selector.Matches(st.pod.Labels) {
			self = 1
		}
		if skew := st.matchNum[i][v] + self - minMatch; skew > int(c.maxSkew) {
			return nodeStatus{reasons: []string{ErrReasonConstraintsNotMatch}, resolvable: true}
		}
	}
	return nodeStatus{}
}
