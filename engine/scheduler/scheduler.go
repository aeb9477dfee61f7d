// Package scheduler is the simulated default-scheduler: it binds pending
// pods whose spec.schedulerName is default-scheduler (or empty) to a node
// that passes the filter plugins NodeUnschedulable, TaintToleration,
// NodeAffinity (with the matchFields PreFilter that narrows a daemon pod to
// its one node), NodePorts and NodeResourcesFit
// (pkg/scheduler/framework/plugins). Among feasible nodes it picks the one
// with the fewest untolerated PreferNoSchedule taints, then the least
// requested, then the name (a deterministic stand-in for scoring).
// Preemption is not simulated, but the FailedScheduling message carries the
// preemption suffix a real scheduler prints when no victims exist.
package scheduler

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Filter failure reasons, as the plugins word them.
const (
	ErrReasonUnschedulable     = "node(s) were unschedulable"
	ErrReasonUntoleratedTaint  = "node(s) had untolerated taint(s)"
	ErrReasonAffinityMismatch  = "node(s) didn't match Pod's node affinity/selector"
	ErrReasonPorts             = "node(s) didn't have free ports for the requested pod ports"
	ErrReasonTooManyPods       = "Too many pods"
	ErrReasonPreFilterAffinity = "node(s) didn't satisfy plugin(s) [NodeAffinity]"
	ReasonNoVictims            = "No preemption victims found for incoming pod"
	ReasonPreemptionNotHelpful = "Preemption is not helpful for scheduling"
)

// Scheduler binds pods. Create it with New.
type Scheduler struct {
	c *cluster.Cluster
	// attempts remembers, per pod UID, the placement version of its last
	// failed attempt and the message recorded then.
	attempts map[string]attempt
}

type attempt struct {
	version int64
	message string
	// at is the virtual time of the attempt.
	at time.Time
}

// PodMaxInUnschedulablePodsDuration is how long an unschedulable pod waits
// before it is retried even though nothing changed in the cluster
// (scheduling_queue.go podMaxInUnschedulablePodsDuration, 5 minutes: the
// queue's flushUnschedulablePodsLeftover moves it back to the active queue).
const PodMaxInUnschedulablePodsDuration = 5 * time.Minute

// New returns a scheduler working on c.
func New(c *cluster.Cluster) *Scheduler { return &Scheduler{c: c, attempts: map[string]attempt{}} }

// nodeInfo is the scheduler's view of one node (framework.NodeInfo):
// requested resources of the non-terminal pods bound to it and their host ports.
type nodeInfo struct {
	node             *api.Node
	cpu, mem         int64 // milli-units
	pods             int64
	ports            map[hostPort]bool
	preferNoSchedule int
}

type hostPort struct {
	protocol string
	ip       string
	port     int32
}

// cycle holds the node infos built lazily during one Schedule call.
type cycle struct {
	s     *Scheduler
	nodes []*api.Node
	infos map[string]*nodeInfo
}

func (cy *cycle) info(n *api.Node) *nodeInfo {
	if ni, ok := cy.infos[n.Name]; ok {
		return ni
	}
	ni := &nodeInfo{node: n, ports: map[hostPort]bool{}}
	for _, p := range cy.s.c.PodsOnNode(n.Name) {
		if p.IsTerminal() {
			continue
		}
		ni.add(p)
	}
	cy.infos[n.Name] = ni
	return ni
}

func (ni *nodeInfo) add(p *api.Pod) {
	cpu, mem := PodRequests(&p.Spec)
	ni.cpu += cpu
	ni.mem += mem
	ni.pods++
	for _, hp := range podHostPorts(&p.Spec) {
		ni.ports[hp] = true
	}
}

// PodRequests mirrors the scheduler's computePodResourceRequest for cpu and
// memory (milli-units): the larger of the containers' sum and the largest
// init container. A missing request falls back to the limit (API defaulting).
func PodRequests(spec *api.PodSpec) (cpu, mem int64) {
	req := func(c *api.Container, r string) int64 {
		if q, ok := c.Resources.Requests[r]; ok {
			return q.Milli
		}
		if q, ok := c.Resources.Limits[r]; ok {
			return q.Milli
		}
		return 0
	}
	for i := range spec.Containers {
		cpu += req(&spec.Containers[i], api.ResourceCPU)
		mem += req(&spec.Containers[i], api.ResourceMemory)
	}
	for i := range spec.InitContainers {
		cpu = max(cpu, req(&spec.InitContainers[i], api.ResourceCPU))
		mem = max(mem, req(&spec.InitContainers[i], api.ResourceMemory))
	}
	return cpu, mem
}

func podHostPorts(spec *api.PodSpec) []hostPort {
	var out []hostPort
	for _, c := range spec.Containers {
		for _, p := range c.Ports {
			if p.HostPort <= 0 {
				continue
			}
			proto := p.Protocol
			if proto == "" {
				proto = "TCP"
			}
			ip := p.HostIP
			if ip == "" {
				ip = "0.0.0.0"
			}
			out = append(out, hostPort{proto, ip, p.HostPort})
		}
	}
	return out
}

// Schedule runs one scheduling cycle for every pending pod (unbound, not
// terminating, not terminal, handled by default-scheduler), highest
// priority first, then oldest, then by name. A pod that failed before is
// retried when nodes or bound pods changed since (PlacementVersion, the
// stand-in for the queue's cluster-event requeueing), or when it has waited
// PodMaxInUnschedulablePodsDuration since its last attempt
// (flushUnschedulablePodsLeftover) — never twice at one instant for time
// alone, so the simulation reaches a fixed point.
func (s *Scheduler) Schedule() {
	c := s.c
	now := c.Now()
	var pending []*api.Pod
	for _, p := range c.PodsOnNode("") {
		if p.DeletionTimestamp != nil || p.IsTerminal() {
			continue
		}
		if p.Spec.SchedulerName != "" && p.Spec.SchedulerName != api.DefaultSchedulerName {
			continue
		}
		if a, ok := s.attempts[p.UID]; ok && a.version == c.PlacementVersion() && now.Before(a.at.Add(PodMaxInUnschedulablePodsDuration)) {
			continue
		}
		pending = append(pending, p)
	}
	if len(pending) == 0 {
		s.gc()
		return
	}
	sort.SliceStable(pending, func(i, j int) bool {
		pi, pj := priority(pending[i]), priority(pending[j])
		if pi != pj {
			return pi > pj
		}
		if !pending[i].CreationTimestamp.Equal(pending[j].CreationTimestamp) {
			return pending[i].CreationTimestamp.Before(pending[j].CreationTimestamp)
		}
		return pending[i].Namespace+"/"+pending[i].Name < pending[j].Namespace+"/"+pending[j].Name
	})
	cy := &cycle{s: s, nodes: c.Nodes(), infos: map[string]*nodeInfo{}}
	for _, p := range pending {
		s.schedulePod(cy, p)
	}
	s.gc()
}

func priority(p *api.Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// gc forgets attempts of pods that no longer wait.
func (s *Scheduler) gc() {
	if len(s.attempts) == 0 {
		return
	}
	waiting := map[string]bool{}
	for _, p := range s.c.PodsOnNode("") {
		waiting[p.UID] = true
	}
	for uid := range s.attempts {
		if !waiting[uid] {
			delete(s.attempts, uid)
		}
	}
}

// nodeStatus is one node's filter result: nil reasons = feasible.
type nodeStatus struct {
	reasons []string
	// resolvable is true when preemption could help (framework.Unschedulable
	// rather than UnschedulableAndUnresolvable).
	resolvable bool
}

// schedulePod mirrors schedulingCycle: PreFilter, Filter on every candidate
// node, pick a node, bind; or record the FitError.
func (s *Scheduler) schedulePod(cy *cycle, p *api.Pod) {
	statuses := map[string]nodeStatus{}
	candidates := cy.nodes
	affinity := api.GetRequiredNodeAffinity(&p.Spec)

	// NodeAffinity PreFilter: narrow to the nodes named by matchFields
	// metadata.name In; every other node counts as "didn't satisfy plugin(s)
	// [NodeAffinity]" without being looked at (no node x pod scan).
	absent := 0
	if names, ok := preFilterNodeNames(&p.Spec); ok {
		keys := make([]string, 0, len(names))
		for n := range names {
			keys = append(keys, n)
		}
		sort.Strings(keys)
		candidates = nil
		for _, name := range keys {
			if n := cy.s.c.Node(name); n != nil {
				candidates = append(candidates, n)
			}
		}
		absent = len(cy.nodes) - len(candidates)
	}

	cpu, mem := PodRequests(&p.Spec)
	ports := podHostPorts(&p.Spec)
	var feasible []*nodeInfo
	for _, n := range candidates {
		st := s.filter(cy, p, n, affinity, cpu, mem, ports)
		if st.reasons == nil {
			feasible = append(feasible, cy.info(n))
			continue
		}
		statuses[n.Name] = st
	}

	if len(feasible) == 0 {
		msg := fitErrorMessage(len(cy.nodes), statuses, absent)
		s.recordFailure(p, msg)
		return
	}
	best := feasible[0]
	bestPref, bestUse := best.preferScore(p), best.usage(cpu, mem)
	for _, ni := range feasible[1:] {
		pref, use := ni.preferScore(p), ni.usage(cpu, mem)
		if pref < bestPref || (pref == bestPref && use < bestUse) {
			best, bestPref, bestUse = ni, pref, use
		}
	}
	s.bind(p, best)
}

// usage is the NodeResourcesFit LeastAllocated view: the mean fraction
// (per mille) of cpu and memory requested once the pod is added; lower is better.
func (ni *nodeInfo) usage(cpu, mem int64) int64 {
	frac := func(used, alloc int64) int64 {
		if alloc <= 0 {
			return 1000
		}
		return used * 1000 / alloc
	}
	a := ni.node.Status.Allocatable
	return (frac(ni.cpu+cpu, a[api.ResourceCPU].Milli) + frac(ni.mem+mem, a[api.ResourceMemory].Milli)) / 2
}

func (ni *nodeInfo) preferScore(p *api.Pod) int {
	n := 0
	for i := range ni.node.Spec.Taints {
		t := &ni.node.Spec.Taints[i]
		if t.Effect == api.TaintEffectPreferNoSchedule && !api.TolerationsTolerateTaint(p.Spec.Tolerations, t) {
			n++
		}
	}
	return n
}

// preFilterNodeNames mirrors NodeAffinity.PreFilter: when every required
// term has a `metadata.name In` matchFields requirement, the union over
// terms (intersection inside a term) of those names; ok is false otherwise.
func preFilterNodeNames(spec *api.PodSpec) (map[string]bool, bool) {
	ns := api.RequiredNodeSelector(spec)
	if ns == nil || len(ns.NodeSelectorTerms) == 0 {
		return nil, false
	}
	union := map[string]bool{}
	for _, t := range ns.NodeSelectorTerms {
		var termNames map[string]bool
		for _, f := range t.MatchFields {
			if f.Key != api.NodeFieldName || f.Operator != api.SelectorOpIn {
				continue
			}
			set := map[string]bool{}
			for _, v := range f.Values {
				set[v] = true
			}
			if termNames == nil {
				termNames = set
			} else {
				for k := range termNames {
					if !set[k] {
						delete(termNames, k)
					}
				}
			}
		}
		if termNames == nil {
			return nil, false // a term without a name requirement: all nodes
		}
		for k := range termNames {
			union[k] = true
		}
	}
	return union, true
}

// filter runs the filter plugins in the default profile's order and returns
// the first failing plugin's reasons (nil reasons when the node fits).
func (s *Scheduler) filter(cy *cycle, p *api.Pod, n *api.Node, affinity api.RequiredNodeAffinity, cpu, mem int64, ports []hostPort) nodeStatus {
	// NodeUnschedulable
	if n.Spec.Unschedulable {
		t := api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}
		if !api.TolerationsTolerateTaint(p.Spec.Tolerations, &t) {
			return nodeStatus{reasons: []string{ErrReasonUnschedulable}}
		}
	}
	// TaintToleration
	if _, bad := api.FindMatchingUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, api.DoNotScheduleTaintsFilter); bad {
		return nodeStatus{reasons: []string{ErrReasonUntoleratedTaint}}
	}
	// NodeAffinity
	if ok, _ := affinity.Match(n); !ok {
		return nodeStatus{reasons: []string{ErrReasonAffinityMismatch}}
	}
	ni := cy.info(n)
	// NodePorts
	for _, hp := range ports {
		if portConflict(ni.ports, hp) {
			return nodeStatus{reasons: []string{ErrReasonPorts}, resolvable: true}
		}
	}
	// NodeResourcesFit
	var reasons []string
	for _, r := range ni.insufficientResources(cpu, mem) {
		reasons = append(reasons, r.Reason)
	}
	if len(reasons) > 0 {
		return nodeStatus{reasons: reasons, resolvable: true}
	}
	return nodeStatus{}
}

// insufficientResources mirrors noderesources.fitsRequest for the pod
// count, cpu and memory (in that order) of a pod requesting cpu and mem
// (milli-units) on this node: one entry per resource the node's
// allocatable cannot hold on top of what its pods already request, with
// amounts in the API unit (pods, millicores, bytes). Empty when it fits.
func (ni *nodeInfo) insufficientResources(cpu, mem int64) []InsufficientResource {
	var out []InsufficientResource
	alloc := ni.node.Status.Allocatable
	if q, ok := alloc[api.ResourcePods]; ok && ni.pods+1 > q.Value() {
		out = append(out, InsufficientResource{api.ResourcePods, ErrReasonTooManyPods, 1, ni.pods, q.Value()})
	}
	if cpu > 0 {
		if q := alloc[api.ResourceCPU]; ni.cpu+cpu > q.Milli {
			out = append(out, InsufficientResource{api.ResourceCPU, "Insufficient cpu", cpu, ni.cpu, q.Milli})
		}
	}
	if mem > 0 {
		// memory is kept in milli-units like every quantity; the API unit is the byte.
		if q := alloc[api.ResourceMemory]; ni.mem+mem > q.Milli {
			out = append(out, InsufficientResource{api.ResourceMemory, "Insufficient memory", mem / 1000, ni.mem / 1000, q.Milli / 1000})
		}
	}
	return out
}

// portConflict mirrors HostPortInfo.CheckConflict: the same protocol and
// port on the same IP, or either side on 0.0.0.0.
func portConflict(used map[hostPort]bool, hp hostPort) bool {
	if hp.ip == "0.0.0.0" {
		for u := range used {
			if u.protocol == hp.protocol && u.port == hp.port {
				return true
			}
		}
		return false
	}
	return used[hp] || used[hostPort{hp.protocol, "0.0.0.0", hp.port}]
}

// fitErrorMessage mirrors FitError.Error plus the DefaultPreemption
// PostFilter message: "0/N nodes are available: <histogram>. preemption:
// 0/N nodes are available: <histogram>." Nodes whose failure preemption could
// resolve count as "No preemption victims found for incoming pod" (victims
// are not searched: preemption is not simulated), the others as
// "Preemption is not helpful for scheduling".
func fitErrorMessage(numNodes int, statuses map[string]nodeStatus, absent int) string {
	hist := map[string]int{}
	pre := map[string]int{}
	if absent > 0 {
		hist[ErrReasonPreFilterAffinity] = absent
	}
	for _, st := range statuses {
		for _, r := range st.reasons {
			hist[r]++
		}
		if st.resolvable {
			pre[ReasonNoVictims]++
		} else {
			pre[ReasonPreemptionNotHelpful]++
		}
	}
	if numNodes > len(statuses) {
		pre[ReasonPreemptionNotHelpful] += numNodes - len(statuses)
	}
	return fmt.Sprintf("0/%d nodes are available: %s. preemption: 0/%d nodes are available: %s.",
		numNodes, histogram(hist), numNodes, histogram(pre))
}

func histogram(h map[string]int) string {
	parts := make([]string, 0, len(h))
	for r, n := range h {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func podObject(p *api.Pod) string { return "Pod/" + p.Namespace + "/" + p.Name }

// recordFailure mirrors handleSchedulingFailure: PodScheduled=False reason
// Unschedulable with the message, and the FailedScheduling event. The
// condition is written only when it changes (updatePod skips an unchanged
// condition). The event is recorded when the message changed, and again on
// every periodic retry (PodMaxInUnschedulablePodsDuration after the last
// attempt): the recorder folds identical events into one whose count
// grows, which `kubectl describe pod` shows as "(x3 over 10m)". Retries
// prompted by cluster changes that end with the same message record nothing
// new (the simulation's placement version moves far more often than the
// queueing hints of a real scheduler would requeue the pod). The retry is
// queued with WakeAt.
func (s *Scheduler) recordFailure(p *api.Pod, msg string) {
	c := s.c
	now := c.Now()
	prev, seen := s.attempts[p.UID]
	periodic := seen && !now.Before(prev.at.Add(PodMaxInUnschedulablePodsDuration))
	c.WakeAt(now.Add(PodMaxInUnschedulablePodsDuration))
	cond := p.Condition(api.PodScheduled)
	same := seen && prev.message == msg && cond != nil && cond.Status == api.ConditionFalse && cond.Message == msg
	if same && !periodic {
		return
	}
	if !same {
		if cond == nil {
			p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodScheduled})
			cond = &p.Status.Conditions[len(p.Status.Conditions)-1]
		}
		if cond.Status != api.ConditionFalse {
			cond.LastTransitionTime = now
		}
		cond.Status, cond.Reason, cond.Message = api.ConditionFalse, "Unschedulable", msg
		cond.LastProbeTime = now
		_ = c.UpdatePod(p)
	}
	c.Record("Pod", &p.ObjectMeta, "", api.EventTypeWarning, "FailedScheduling", msg, cluster.ComponentScheduler, "")
	reason := msg
	if same {
		reason = fmt.Sprintf("retried after %s in the unschedulable queue (podMaxInUnschedulablePodsDuration), still: %s", PodMaxInUnschedulablePodsDuration, msg)
	}
	c.Decide(cluster.Decision{Component: cluster.ComponentScheduler, Func: "schedulingCycle", Object: podObject(p),
		Node: targetNode(p), Action: "unschedulable", Reason: reason})
	// The update above changed the placement version only if the pod was
	// bound; remember the version after our own write.
	s.attempts[p.UID] = attempt{version: c.PlacementVersion(), message: msg, at: now}
}

func targetNode(p *api.Pod) string {
	if names, ok := preFilterNodeNames(&p.Spec); ok && len(names) == 1 {
		for n := range names {
			return n
		}
	}
	return ""
}

// bind mirrors the DefaultBinder: spec.nodeName is set and PodScheduled
// becomes True; event Scheduled "Successfully assigned <ns>/<pod> to <node>".
func (s *Scheduler) bind(p *api.Pod, ni *nodeInfo) {
	c := s.c
	now := c.Now()
	p.Spec.NodeName = ni.node.Name
	p.Status.NominatedNodeName = ""
	if cond := p.Condition(api.PodScheduled); cond != nil {
		cond.Status, cond.Reason, cond.Message = api.ConditionTrue, "", ""
		cond.LastTransitionTime, cond.LastProbeTime = now, time0
	} else {
		p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: now})
	}
	_ = c.UpdatePod(p)
	ni.add(p)
	delete(s.attempts, p.UID)
	c.Record("Pod", &p.ObjectMeta, "", api.EventTypeNormal, "Scheduled",
		fmt.Sprintf("Successfully assigned %s/%s to %s", p.Namespace, p.Name, ni.node.Name), cluster.ComponentScheduler, "")
	c.Decide(cluster.Decision{Component: cluster.ComponentScheduler, Func: "bind", Object: podObject(p), Node: ni.node.Name,
		Action: "bind", Reason: fmt.Sprintf("node %s passes every filter (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit)", ni.node.Name)})
}

var time0 = api.Pod{}.CreationTimestamp
