package scheduler

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Preemption wording, as pkg/scheduler/framework/preemption and
// plugins/defaultpreemption word it.
const (
	// PreemptNever is the preemptionPolicy that forbids preempting (core/v1 PreemptNever).
	PreemptNever = "Never"
	// ReasonPreemptionByScheduler is the DisruptionTarget reason of a victim
	// (core/v1 PodReasonPreemptionByScheduler).
	ReasonPreemptionByScheduler = "PreemptionByScheduler"
	// ConditionDisruptionTarget is the pod condition set on a victim (core/v1 DisruptionTarget).
	ConditionDisruptionTarget = "DisruptionTarget"
	msgNotEligibleNever       = "not eligible due to preemptionPolicy=Never."
	msgNotEligibleTerminating = "not eligible due to a terminating pod on the nominated node."
)

// postFilterResult is what the PostFilter leaves for handleSchedulingFailure:
// the message appended to the FitError ("" when preemption found a node),
// and whether status.nominatedNodeName is to be set to node ("" clears it;
// nominate false keeps it unchanged, as a nil PostFilterResult does).
type postFilterResult struct {
	msg      string
	nominate bool
	node     string
	victims  int
}

// postFilter mirrors DefaultPreemption.PostFilter and Evaluator.Preempt
// (pkg/scheduler/framework/preemption/preemption.go) for pod p, whose
// filter statuses are in fe:
//  1. PodEligibleToPreemptOthers: preemptionPolicy Never, or a nominated
//     node where a lower-priority pod is still terminating by preemption,
//     make p ineligible ("preemption: not eligible due to ...").
//  2. findCandidates: the nodes whose status is Unschedulable (not
//     UnschedulableAndUnresolvable) are dry-run with SelectVictimsOnNode,
//     in name order (upstream starts at a random offset).
//  3. No candidate: the message is "preemption: " + a FitError over all
//     nodes, the dry-run statuses counted as they are and every other node
//     as "Preemption is not helpful for scheduling"; the nomination is
//     cleared.
//  4. Otherwise SelectCandidate (pickOneNodeForPreemption) picks a node,
//     prepareCandidate preempts its victims, and p is nominated to it.
//
// PodDisruptionBudgets and extenders are not simulated.
func (s *Scheduler) postFilter(cy *cycle, p *api.Pod, fe *fitError, affinity api.RequiredNodeAffinity, cpu, mem int64, ports []hostPort) postFilterResult {
	if p.Spec.PreemptionPolicy != nil && *p.Spec.PreemptionPolicy == PreemptNever {
		return postFilterResult{msg: "preemption: " + msgNotEligibleNever}
	}
	if nom := p.Status.NominatedNodeName; nom != "" {
		// A nominated node that is now UnschedulableAndUnresolvable is
		// preempted for again; otherwise terminating victims there block.
		if st, ok := fe.statuses[nom]; ok && st.resolvable {
			for _, q := range s.c.PodsOnNode(nom) {
				if api.PodPriority(q) < api.PodPriority(p) && terminatingByPreemption(q) {
					return postFilterResult{msg: "preemption: " + msgNotEligibleTerminating}
				}
			}
		}
	}
	var potential []*api.Node
	for _, n := range cy.nodes {
		if st, ok := fe.statuses[n.Name]; ok && st.resolvable {
			potential = append(potential, n)
		}
	}
	dry := map[string]nodeStatus{}
	var candidates []candidate
	for _, n := range potential {
		victims, st := s.selectVictimsOnNode(cy, p, n, cpu, mem, ports)
		if st.reasons != nil {
			dry[n.Name] = st
			continue
		}
		candidates = append(candidates, candidate{node: n.Name, victims: victims})
	}
	if len(candidates) == 0 {
		pfe := fitError{numAllNodes: len(cy.nodes), statuses: dry, absent: len(cy.nodes) - len(dry), absentReason: ReasonPreemptionNotHelpful}
		return postFilterResult{msg: "preemption: " + pfe.Error(), nominate: true}
	}
	best := pickOneNodeForPreemption(candidates)
	s.prepareCandidate(cy, p, best)
	return postFilterResult{nominate: true, node: best.node, victims: len(best.victims)}
}

// candidate mirrors preemption.Candidate: a node and the pods to preempt there.
type candidate struct {
	node    string
	victims []*api.Pod
}

// terminatingByPreemption mirrors podTerminatingByPreemption: the pod is
// being deleted and carries DisruptionTarget=True reason PreemptionByScheduler.
func terminatingByPreemption(p *api.Pod) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	c := p.Condition(ConditionDisruptionTarget)
	return c != nil && c.Status == api.ConditionTrue && c.Reason == ReasonPreemptionByScheduler
}

// waitingForVictims reports whether p is nominated to a node where a pod of
// lower priority it preempted is still terminating.
func (s *Scheduler) waitingForVictims(p *api.Pod) bool {
	nom := p.Status.NominatedNodeName
	if nom == "" {
		return false
	}
	for _, q := range s.c.PodsOnNode(nom) {
		if api.PodPriority(q) < api.PodPriority(p) && terminatingByPreemption(q) {
			return true
		}
	}
	return false
}

// selectVictimsOnNode mirrors DefaultPreemption.SelectVictimsOnNode: every
// pod on node n of lower priority than p is removed; if p still does not fit
// (NodePorts, NodeResourcesFit, PodTopologySpread, InterPodAffinity with
// nominated pods: prefilter.go dynamicFilter) that status is the node's; otherwise the removed pods are reprieved one by one from the most
// important (MoreImportantPod: higher priority, then earlier start), and
// those without which p no longer fits are the victims. With no
// lower-priority pod at all the status is UnschedulableAndUnresolvable
// "No preemption victims found for incoming pod".
func (s *Scheduler) selectVictimsOnNode(cy *cycle, p *api.Pod, n *api.Node, cpu, mem int64, ports []hostPort) ([]*api.Pod, nodeStatus) {
	ni := cy.info(n).clone()
	var potential []*api.Pod
	for _, q := range ni.pods {
		if api.PodPriority(q) < api.PodPriority(p) {
			potential = append(potential, q)
		}
	}
	if len(potential) == 0 {
		return nil, nodeStatus{reasons: []string{ReasonNoVictims}}
	}
	for _, q := range potential {
		ni.remove(q)
	}
	if st := cy.dynamicFilter(p, ni, cpu, mem, ports); st.reasons != nil {
		return nil, st
	}
	sort.SliceStable(potential, func(i, j int) bool { return moreImportantPod(potential[i], potential[j]) })
	var victims []*api.Pod
	for _, q := range potential {
		ni.add(q)
		if st := cy.dynamicFilter(p, ni, cpu, mem, ports); st.reasons != nil {
			ni.remove(q)
			victims = append(victims, q)
		}
	}
	return victims, nodeStatus{}
}

// moreImportantPod mirrors util.MoreImportantPod: higher priority first,
// then the earlier start time (status.startTime, else creation); the name
// breaks remaining ties so the order is deterministic.
func moreImportantPod(a, b *api.Pod) bool {
	if pa, pb := api.PodPriority(a), api.PodPriority(b); pa != pb {
		return pa > pb
	}
	if sa, sb := podStartTime(a), podStartTime(b); !sa.Equal(sb) {
		return sa.Before(sb)
	}
	return a.Namespace+"/"+a.Name < b.Namespace+"/"+b.Name
}

func podStartTime(p *api.Pod) time.Time {
	if p.Status.StartTime != nil {
		return *p.Status.StartTime
	}
	return p.CreationTimestamp
}

// pickOneNodeForPreemption mirrors the upstream function's criteria, in
// order: a node without victims at once; the lowest highest-victim
// priority; the smallest sum of victim priorities (each shifted by
// MaxInt32+1 so that negative priorities count); the fewest victims; the
// latest start among the highest-priority victims; then the first node by
// name (upstream: the first left in map order). PDB violations are not
// simulated (all zero).
func pickOneNodeForPreemption(cands []candidate) candidate {
	for _, c := range cands {
		if len(c.victims) == 0 {
			return c
		}
	}
	keep := func(score func(c candidate) int64) {
		best := int64(math.MinInt64)
		var out []candidate
		for _, c := range cands {
			v := score(c)
			switch {
			case v > best:
				best, out = v, []candidate{c}
			case v == best:
				out = append(out, c)
			}
		}
		cands = out
	}
	// victims are sorted most important first.
	keep(func(c candidate) int64 { return -int64(api.PodPriority(c.victims[0])) })
	keep(func(c candidate) int64 {
		var sum int64
		for _, v := range c.victims {
			sum += int64(api.PodPriority(v)) + int64(math.MaxInt32) + 1
		}
		return -sum
	})
	keep(func(c candidate) int64 { return -int64(len(c.victims)) })
	keep(func(c candidate) int64 {
		top := api.PodPriority(c.victims[0])
		earliest := podStartTime(c.victims[0])
		for _, v := range c.victims {
			if api.PodPriority(v) == top && podStartTime(v).Before(earliest) {
				earliest = podStartTime(v)
			}
		}
		return earliest.UnixNano()
	})
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].node < cands[j].node })
	return cands[0]
}

// prepareCandidate mirrors Evaluator.prepareCandidate and PreemptPod for
// the chosen node: each victim gets DisruptionTarget=True (reason
// PreemptionByScheduler, "default-scheduler: preempting to accommodate a
// higher priority pod"), a graceful delete with its own grace period, and
// the Normal Preempted event "Preempted by pod <preemptor uid> on node
// <node>"; pending pods of lower priority nominated to the node lose their
// nomination (ClearNominatedNodeName).
func (s *Scheduler) prepareCandidate(cy *cycle, p *api.Pod, best candidate) {
	c := s.c
	names := make([]string, 0, len(best.victims))
	for _, v := range best.victims {
		names = append(names, v.Namespace+"/"+v.Name)
		if v.DeletionTimestamp == nil {
			sched := p.Spec.SchedulerName
			if sched == "" {
				sched = api.DefaultSchedulerName
			}
			v.SetCondition(ConditionDisruptionTarget, api.ConditionTrue, ReasonPreemptionByScheduler,
				sched+": preempting to accommodate a higher priority pod", c.Stamp())
			_ = c.UpdatePod(v)
			_ = c.DeletePod(v.Namespace, v.Name, nil)
		}
		c.Record("Pod", &v.ObjectMeta, "", api.EventTypeNormal, "Preempted",
			fmt.Sprintf("Preempted by pod %s on node %s", p.UID, best.node), cluster.ComponentScheduler, "")
		c.Decide(cluster.Decision{Component: cluster.ComponentScheduler, Func: "prepareCandidate", Object: podObject(v), Node: best.node,
			Action: "preempt", Reason: fmt.Sprintf("priority %d is lower than the priority %d of pending pod %s/%s, which fits on %s only without it (DefaultPreemption SelectVictimsOnNode)",
				api.PodPriority(v), api.PodPriority(p), p.Namespace, p.Name, best.node)})
	}
	for _, q := range cy.nominated[best.node] {
		if q.UID != p.UID && q.Spec.NodeName == "" && q.Status.NominatedNodeName == best.node && api.PodPriority(q) < api.PodPriority(p) {
			q.Status.NominatedNodeName = ""
			_ = c.UpdatePod(q)
		}
	}
	cy.nominated[best.node] = append(cy.nominated[best.node], p)
	cy.invalidate(best.node)
	c.Decide(cluster.Decision{Component: cluster.ComponentScheduler, Func: "Preempt", Object: podObject(p), Node: best.node,
		Action: "nominate", Reason: fmt.Sprintf("no node fits, but preempting %s on %s makes room: nominatedNodeName=%s (pickOneNodeForPreemption)", strings.Join(names, ", "), best.node, best.node)})
}

// invalidate drops the cached node info of node (its pods changed).
func (cy *cycle) invalidate(node string) {
	delete(cy.infos, node)
	if n := cy.s.c.Node(node); n != nil && cy.anti != nil {
		cy.indexAnti(n)
	}
}
