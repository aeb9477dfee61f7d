package controller

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// Check is one step of NodeShouldRunDaemonPod with its result, in words a
// learner can read. Name is "nodeName", "nodeSelector", "nodeAffinity",
// "nodeAffinity term[i]", "taints" (when the node has none) or
// "taint <key>[=<value>]:<Effect>".
type Check struct {
	Name   string
	Passed bool
	Detail string
}

// Verdict is the answer of NodeShouldRunDaemonPod: whether a daemon pod
// should be placed on the node (ShouldRun), whether an existing one may stay
// (ShouldContinueRunning), and every check that led there.
type Verdict struct {
	ShouldRun, ShouldContinueRunning bool
	Checks                           []Check
}

// Reason returns the Detail of the first failed check that decided the
// verdict, or "" when all passed. (A failed "nodeAffinity term[i]" check
// alone does not decide it: terms are ORed, and the "nodeAffinity" check
// says whether one matched.)
func (v Verdict) Reason() string {
	for _, c := range v.Checks {
		if !c.Passed && !strings.HasPrefix(c.Name, "nodeAffinity term") {
			return c.Detail
		}
	}
	return ""
}

// podPlan is the hypothetical daemon pod NodeShouldRunDaemonPod evaluates
// (upstream NewPod: the template spec plus the default daemon tolerations),
// parsed once per DaemonSet and sync so that evaluating a node is cheap.
type podPlan struct {
	nodeName     string
	nodeSelector map[string]string
	required     *api.NodeSelector
	affinity     api.RequiredNodeAffinity
	tolerations  []api.Toleration
}

// newPodPlan mirrors NewPod(ds, nodeName): a copy of the template spec with
// AddOrUpdateDaemonPodTolerations applied. The node name is filled in per node.
func newPodPlan(ds *api.DaemonSet) *podPlan {
	spec := ds.Spec.Template.Spec
	spec.Tolerations = append([]api.Toleration(nil), spec.Tolerations...)
	AddOrUpdateDaemonPodTolerations(&spec)
	return &podPlan{
		nodeName:     spec.NodeName,
		nodeSelector: spec.NodeSelector,
		required:     api.RequiredNodeSelector(&spec),
		affinity:     api.GetRequiredNodeAffinity(&spec),
		tolerations:  spec.Tolerations,
	}
}

// verdictCode is a compact form of a verdict for change detection: the two
// answers and the first reason's check name.
type verdictCode struct {
	shouldRun, shouldContinue bool
	failed                    string
}

// eval mirrors NodeShouldRunDaemonPod without building explanations.
func (p *podPlan) eval(node *api.Node) verdictCode {
	if p.nodeName != "" && p.nodeName != node.Name {
		return verdictCode{failed: "nodeName"}
	}
	if ok, _ := p.affinity.Match(node); !ok {
		return verdictCode{failed: "nodeAffinity"}
	}
	v := verdictCode{shouldRun: true, shouldContinue: true}
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		if !api.DoNotScheduleTaintsFilter(t) || api.TolerationsTolerateTaint(p.tolerations, t) {
			continue
		}
		if v.failed == "" {
			v.failed = "taint " + t.ToString()
		}
		v.shouldRun = false
		if t.Effect == api.TaintEffectNoExecute {
			v.shouldContinue = false
		}
	}
	return v
}

// evalAll evaluates every node once per sync; manage, rollingUpdate and the
// status share the result (verdicts[i] is for nodes[i]).
func (p *podPlan) evalAll(nodes []*api.Node) []verdictCode {
	out := make([]verdictCode, len(nodes))
	for i, n := range nodes {
		out[i] = p.eval(n)
	}
	return out
}

// NodeShouldRunDaemonPod mirrors upstream NodeShouldRunDaemonPod
// (pkg/controller/daemon/daemon_controller.go): a pod built from the
// template plus the default daemon tolerations, pinned to the node, is
// checked for spec.nodeName, then nodeSelector and required node affinity
// (component-helpers GetRequiredNodeAffinity(pod).Match; parse errors count
// as no match), then the node's taints. Any failure of the first two gives
// (false, false); an untolerated NoSchedule or NoExecute taint gives
// shouldRun=false, and an untolerated NoExecute taint also
// shouldContinueRunning=false. PreferNoSchedule taints, resources, ports and
// the node's conditions are not checked (upstream
// pkg/controller/daemon/daemon_controller.go predicates: only
// NodeShouldRunDaemonPod's affinity and taint checks; the effects of
// k8s.io/api/core/v1 taint.go: NoSchedule and NoExecute repel new pods,
// only NoExecute evicts running ones).
//
// Unlike upstream, which returns at the first failure, every check is
// evaluated and reported so that a learner sees all reasons at once; the
// two answers are the same.
func NodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) Verdict {
	return newPodPlan(ds).explain(node)
}

func (p *podPlan) explain(node *api.Node) Verdict {
	var v Verdict
	v.ShouldRun, v.ShouldContinueRunning = true, true
	fail := func(c Check) {
		v.ShouldRun, v.ShouldContinueRunning = false, false
		v.Checks = append(v.Checks, c)
	}

	// 1. spec.nodeName
	switch {
	case p.nodeName == "":
		v.Checks = append(v.Checks, Check{Name: "nodeName", Passed: true, Detail: "the pod template sets no spec.nodeName, so any node may run the pod"})
	case p.nodeName == node.Name:
		v.Checks = append(v.Checks, Check{Name: "nodeName", Passed: true, Detail: fmt.Sprintf("the pod template pins spec.nodeName to %s, this node", node.Name)})
	default:
		fail(Check{Name: "nodeName", Detail: fmt.Sprintf("the pod template pins spec.nodeName to %s, not %s", p.nodeName, node.Name)})
	}

	// 2. nodeSelector
	if c := explainNodeSelector(p.nodeSelector, node); c.Passed {
		v.Checks = append(v.Checks, c)
	} else {
		fail(c)
	}

	// 3. required node affinity
	for i, c := range explainRequiredAffinity(p.required, node) {
		if i == 0 && !c.Passed {
			fail(c)
		} else {
			v.Checks = append(v.Checks, c)
		}
	}

	// 4. taints
	if len(node.Spec.Taints) == 0 {
		v.Checks = append(v.Checks, Check{Name: "taints", Passed: true, Detail: "the node has no taints"})
	}
	for i := range node.Spec.Taints {
		t := &node.Spec.Taints[i]
		c := Check{Name: "taint " + t.ToString()}
		if j := api.TolerationFor(p.tolerations, t); j >= 0 {
			tol := &p.tolerations[j]
			c.Passed = true
			c.Detail = fmt.Sprintf("taint %s is tolerated by the toleration %q", t.ToString(), tol.String())
			if isDefaultDaemonToleration(tol) {
				c.Detail += " that the DaemonSet controller adds to every daemon pod"
			}
		} else {
			switch t.Effect {
			case api.TaintEffectNoSchedule:
				c.Detail = fmt.Sprintf("taint %s is not tolerated: no new daemon pod is placed here (a pod already running may stay)", t.ToString())
				v.ShouldRun = false
			case api.TaintEffectNoExecute:
				c.Detail = fmt.Sprintf("taint %s is not tolerated: no daemon pod is placed here and a running one is deleted", t.ToString())
				v.ShouldRun, v.ShouldContinueRunning = false, false
			default:
				c.Passed = true
				c.Detail = fmt.Sprintf("taint %s is not tolerated, but %s only makes the scheduler prefer other nodes; the DaemonSet controller ignores it", t.ToString(), t.Effect)
			}
		}
		v.Checks = append(v.Checks, c)
	}
	return v
}

func explainNodeSelector(sel map[string]string, node *api.Node) Check {
	c := Check{Name: "nodeSelector"}
	if len(sel) == 0 {
		c.Passed = true
		c.Detail = "the pod template has no nodeSelector"
		return c
	}
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var bad, good []string
	for _, k := range keys {
		want := sel[k]
		got, has := node.Labels[k]
		switch {
		case !has:
			bad = append(bad, fmt.Sprintf("the node has no label %s (nodeSelector wants %s=%s)", k, k, want))
		case got != want:
			bad = append(bad, fmt.Sprintf("the node's label %s=%s does not match nodeSelector %s=%s", k, got, k, want))
		default:
			good = append(good, k+"="+want)
		}
	}
	if len(bad) > 0 {
		c.Detail = strings.Join(bad, "; ")
		return c
	}
	c.Passed = true
	c.Detail = "the node has every label the nodeSelector asks for: " + strings.Join(good, ", ")
	return c
}

// explainRequiredAffinity returns the summary check "nodeAffinity" first,
// then one check per term.
func explainRequiredAffinity(ns *api.NodeSelector, node *api.Node) []Check {
	if ns == nil {
		return []Check{{Name: "nodeAffinity", Passed: true, Detail: "the pod template has no required node affinity"}}
	}
	var terms []Check
	matched := 0
	nonEmpty := 0
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		c := Check{Name: fmt.Sprintf("nodeAffinity term[%d]", i)}
		if api.IsEmptyNodeSelectorTerm(t) {
			c.Detail = "this term is empty, and an empty term matches no node"
			terms = append(terms, c)
			continue
		}
		nonEmpty++
		m := api.NewNodeSelectorTermMatcher(i, t)
		ok, err := m.Match(node)
		switch {
		case err != nil:
			c.Detail = fmt.Sprintf("this term cannot be parsed (%v), so it matches no node", err)
		case ok:
			matched++
			c.Passed = true
			c.Detail = "the node matches every requirement: " + api.TermString(t)
		default:
			c.Detail = strings.Join(explainTermFailures(t, node), "; ")
		}
		terms = append(terms, c)
	}
	sum := Check{Name: "nodeAffinity"}
	switch {
	case len(ns.NodeSelectorTerms) == 0 || nonEmpty == 0:
		sum.Detail = "the required node affinity has no non-empty term, so it matches no node"
	case matched > 0:
		sum.Passed = true
		sum.Detail = fmt.Sprintf("%d of %d required terms match (terms are ORed: one is enough)", matched, len(ns.NodeSelectorTerms))
	case len(terms) == 1:
		sum.Detail = "the required node affinity term does not match: " + terms[0].Detail
	default:
		var why []string
		for _, t := range terms {
			why = append(why, strings.TrimPrefix(t.Name, "nodeAffinity ")+": "+t.Detail)
		}
		sum.Detail = fmt.Sprintf("none of the %d required node affinity terms matches the node (terms are ORed; the requirements inside a term are ANDed): %s",
			len(ns.NodeSelectorTerms), strings.Join(why, "; "))
	}
	return append([]Check{sum}, terms...)
}

func explainTermFailures(t *api.NodeSelectorTerm, node *api.Node) []string {
	var out []string
	for _, e := range t.MatchExpressions {
		r := api.Requirement{Key: e.Key, Operator: e.Operator, Values: e.Values}
		if r.Matches(node.Labels) {
			continue
		}
		got, has := node.Labels[e.Key]
		switch {
		case !has:
			out = append(out, fmt.Sprintf("%s: the node has no label %s", r, e.Key))
		case e.Operator == api.SelectorOpGt || e.Operator == api.SelectorOpLt:
			out = append(out, fmt.Sprintf("%s: the node's label %s=%s is not an integer %s %s", r, e.Key, got, map[string]string{"Gt": "greater than", "Lt": "less than"}[e.Operator], strings.Join(e.Values, "")))
		case e.Operator == api.SelectorOpDoesNotExist:
			out = append(out, fmt.Sprintf("%s: the node has the label %s=%s", r, e.Key, got))
		default:
			out = append(out, fmt.Sprintf("%s: the node's label is %s=%s", r, e.Key, got))
		}
	}
	for _, e := range t.MatchFields {
		r := api.Requirement{Key: e.Key, Operator: e.Operator, Values: e.Values}
		f := api.FieldRequirement{Key: e.Key, NotIn: e.Operator == api.SelectorOpNotIn, Value: strings.Join(e.Values, "")}
		if !f.Matches(node) {
			out = append(out, fmt.Sprintf("%s: the node's %s is %s", r, api.NodeFieldName, node.Name))
		}
	}
	if len(out) == 0 {
		out = append(out, "the term does not match the node")
	}
	return out
}

// verdictCache is what cachedVerdicts remembers for one DaemonSet: the
// NodeShouldRunDaemonPod answers for every node of the node list, and the
// inputs they were computed from.
type verdictCache struct {
	// nodeVersion is cluster.NodeVersion at the time: it changes whenever
	// any node is created, updated (labels, taints, ...) or deleted.
	nodeVersion int64
	// The parts of the hypothetical daemon pod NodeShouldRunDaemonPod
	// reads (newPodPlan), compared by value.
	nodeName     string
	nodeSelector map[string]string
	required     *api.NodeSelector
	tolerations  []api.Toleration
	// verdicts[i] is the verdict of the i-th node of the node list.
	verdicts []verdictCode
	// noted is set once manage has passed every verdict to noteVerdict.
	noted bool
}

// cachedVerdicts returns the verdict of every node (verdicts[i] for
// nodes[i]) and whether they are exactly the verdicts the previous sync of
// this DaemonSet already noted (so noteVerdict can be skipped).
//
// Upstream evaluates NodeShouldRunDaemonPod for every node on every sync,
// reading nodes from the informer cache. The answer depends only on the
// node and on the hypothetical daemon pod, so the controller keeps the last
// answers per DaemonSet and evaluates again only when a node changed
// (cluster.NodeVersion moved: any node created, updated or deleted) or the
// pod's nodeName, nodeSelector, required node affinity or tolerations
// differ from the ones the answers were computed for. The decisions are
// the same; only the repeated work goes.
func (dsc *DaemonSetsController) cachedVerdicts(ds *api.DaemonSet, plan *podPlan, nodes []*api.Node) (verdicts []verdictCode, noted bool) {
	nv := dsc.c.NodeVersion()
	vc := dsc.verdicts[ds.UID]
	if vc != nil && vc.nodeVersion == nv && len(vc.verdicts) == len(nodes) && vc.nodeName == plan.nodeName &&
		reflect.DeepEqual(vc.nodeSelector, plan.nodeSelector) && reflect.DeepEqual(vc.required, plan.required) &&
		reflect.DeepEqual(vc.tolerations, plan.tolerations) {
		return vc.verdicts, vc.noted
	}
	if vc == nil {
		vc = &verdictCache{}
		dsc.verdicts[ds.UID] = vc
	}
	vc.nodeVersion = nv
	vc.nodeName = plan.nodeName
	vc.nodeSelector = copyMap(plan.nodeSelector)
	vc.required = copyNodeSelector(plan.required)
	vc.tolerations = append([]api.Toleration(nil), plan.tolerations...)
	vc.verdicts = vc.verdicts[:0]
	for _, n := range nodes {
		vc.verdicts = append(vc.verdicts, plan.eval(n))
	}
	vc.noted = false
	return vc.verdicts, false
}
