// Package scheduler is the simulated default-scheduler: it binds pending
// pods whose spec.schedulerName is default-scheduler (or empty) to a node
// that passes the filter plugins NodeUnschedulable, TaintToleration,
// NodeAffinity (with the matchFields PreFilter that narrows a daemon pod to
// its one node), NodePorts, NodeResourcesFit, PodTopologySpread
// (DoNotSchedule constraints, podtopologyspread.go) and InterPodAffinity
// (required terms, interpodaffinity.go) (pkg/scheduler/framework/plugins).
// Among feasible nodes it picks the one
// with the fewest untolerated PreferNoSchedule taints, then the least
// requested, then the name (a deterministic stand-in for scoring). A pod
// that fits nowhere runs the DefaultPreemption PostFilter (preemption.go):
// lower-priority pods are preempted to make room, or the FailedScheduling
// message says why preemption cannot help. Pods naming another
// spec.schedulerName are left alone: only default-scheduler is simulated.
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
	node     *api.Node
	cpu, mem int64 // milli-units
	pods     []*api.Pod
	// ports counts the pods using each host port.
	ports map[hostPort]int
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
	// nominated lists, per node name, the pending pods whose
	// status.nominatedNodeName names it (the queue's nominator).
	nominated map[string][]*api.Pod
	// anti indexes, per node name, the pods with required pod
	// anti-affinity (interpodaffinity.go antiAffinityPods); nil until used.
	anti map[string][]*api.Pod
	// ps is the PreFilter state of the pod being scheduled (prefilter.go).
	ps *podFilterState
}

func (cy *cycle) info(n *api.Node) *nodeInfo {
	if ni, ok := cy.infos[n.Name]; ok {
		return ni
	}
	ni := &nodeInfo{node: n, ports: map[hostPort]int{}}
	for _, p := range cy.s.c.PodsOnNode(n.Name) {
		if p.IsTerminal() {
			continue
		}
		ni.add(p)
	}
	cy.infos[n.Name] = ni
	return ni
}

// add mirrors NodeInfo.AddPod: the pod's requests, its slot and its host ports.
func (ni *nodeInfo) add(p *api.Pod) {
	cpu, mem := PodRequests(&p.Spec)
	ni.cpu = api.AddMilli(ni.cpu, cpu)
	ni.mem = api.AddMilli(ni.mem, mem)
	ni.pods = append(ni.pods, p)
	for _, hp := range podHostPorts(&p.Spec) {
		ni.ports[hp]++
	}
}

// remove mirrors NodeInfo.RemovePod (by UID); it is a no-op for a pod the
// node info does not hold.
func (ni *nodeInfo) remove(p *api.Pod) {
	for i, q := range ni.pods {
		if q.UID != p.UID {
			continue
		}
		ni.pods = append(ni.pods[:i:i], ni.pods[i+1:]...)
		cpu, mem := PodRequests(&p.Spec)
		if ni.cpu == math.MaxInt64 || ni.mem == math.MaxInt64 {
			// a saturated sum cannot be taken apart: count the rest again
			ni.cpu, ni.mem = 0, 0
			for _, q := range ni.pods {
				c, m := PodRequests(&q.Spec)
				ni.cpu, ni.mem = api.AddMilli(ni.cpu, c), api.AddMilli(ni.mem, m)
			}
		} else {
			ni.cpu -= cpu
			ni.mem -= mem
		}
		for _, hp := range podHostPorts(&p.Spec) {
			if ni.ports[hp]--; ni.ports[hp] <= 0 {
				delete(ni.ports, hp)
			}
		}
		return
	}
}

// clone mirrors NodeInfo.Snapshot: a copy that add and remove do not share.
func (ni *nodeInfo) clone() *nodeInfo {
	out := &nodeInfo{node: ni.node, cpu: ni.cpu, mem: ni.mem, pods: append([]*api.Pod(nil), ni.pods...), ports: make(map[hostPort]int, len(ni.ports))}
	for k, v := range ni.ports {
		out.ports[k] = v
	}
	return out
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
		cpu = api.AddMilli(cpu, req(&spec.Containers[i], api.ResourceCPU))
		mem = api.AddMilli(mem, req(&spec.Containers[i], api.ResourceMemory))
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
// alone, so the simulation reaches a fixed point. A preemptor whose victims
// are still terminating on its nominated node waits for them to go: their
// graceful deletion is no event that requeues it (the NodeResourcesFit and
// NodePorts queueing hints react to an assigned pod's delete, not to its
// deletionTimestamp); only the periodic flush retries it meanwhile, and
// PodEligibleToPreemptOthers then says it is "not eligible due to a
// terminating pod on the nominated node."
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
		a, seen := s.attempts[p.UID]
		flushed := seen && !now.Before(a.at.Add(PodMaxInUnschedulablePodsDuration))
		if seen && a.version == c.PlacementVersion() && !flushed {
			continue
		}
		if !flushed && s.waitingForVictims(p) {
			continue
		}
		pending = append(pending, p)
	}
	if len(pending) == 0 {
		s.gc()
		return
	}
	sort.SliceStable(pending, func(i, j int) bool {
		pi, pj := api.PodPriority(pending[i]), api.PodPriority(pending[j])
		if pi != pj {
			return pi > pj
		}
		if !pending[i].CreationTimestamp.Equal(pending[j].CreationTimestamp) {
			return pending[i].CreationTimestamp.Before(pending[j].CreationTimestamp)
		}
		return pending[i].Namespace+"/"+pending[i].Name < pending[j].Namespace+"/"+pending[j].Name
	})
	cy := &cycle{s: s, nodes: c.Nodes(), infos: map[string]*nodeInfo{}, nominated: map[string][]*api.Pod{}}
	for _, p := range c.PodsOnNode("") {
		if n := p.Status.NominatedNodeName; n != "" && p.DeletionTimestamp == nil && !p.IsTerminal() {
			cy.nominated[n] = append(cy.nominated[n], p)
		}
	}
	for _, p := range pending {
		s.schedulePod(cy, p)
	}
	s.gc()
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
// node, pick a node and bind; or run the PostFilter (DefaultPreemption) and
// record the FitError.
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
		fe := fitError{numAllNodes: len(cy.nodes), statuses: statuses, absent: absent, absentReason: ErrReasonPreFilterAffinity}
		post := s.runPostFilterPlugins(cy, p, &fe, affinity, cpu, mem, ports)
		fe.postFilterMsg = post.msg
		s.recordFailure(p, fe.Error(), post)
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
	cy.noteBound(p, best)
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
	return (frac(api.AddMilli(ni.cpu, cpu), a[api.ResourceCPU].Milli) + frac(api.AddMilli(ni.mem, mem), a[api.ResourceMemory].Milli)) / 2
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
// the first failing plugin's reasons (nil reasons when the node fits). The
// resource and port plugins see the node with the pods nominated to it of
// priority at least p's added (RunFilterPluginsWithNominatedPods), so a
// preemptor keeps the room its victims free.
func (s *Scheduler) filter(cy *cycle, p *api.Pod, n *api.Node, affinity api.RequiredNodeAffinity, cpu, mem int64, ports []hostPort) nodeStatus {
	if st := staticFilter(p, n, affinity); st.reasons != nil {
		return st
	}
	return cy.dynamicFilter(p, cy.info(n), cpu, mem, ports)
}

// staticFilter runs the plugins whose verdict no pod removal can change
// (all UnschedulableAndUnresolvable): NodeUnschedulable, TaintToleration
// (NoSchedule and NoExecute taints; "node(s) had untolerated taint(s)" as
// the plugin words it since v1.29) and NodeAffinity.
func staticFilter(p *api.Pod, n *api.Node, affinity api.RequiredNodeAffinity) nodeStatus {
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
	return nodeStatus{}
}

// fitFilter runs NodePorts and NodeResourcesFit against ni (both
// framework.Unschedulable: preemption may resolve them, unless a request
// alone exceeds the node's allocatable: UnschedulableAndUnresolvable,
// Fit.Filter with fitsRequest's Unresolvable).
func fitFilter(ni *nodeInfo, cpu, mem int64, ports []hostPort) nodeStatus {
	// NodePorts
	for _, hp := range ports {
		if portConflict(ni.ports, hp) {
			return nodeStatus{reasons: []string{ErrReasonPorts}, resolvable: true}
		}
	}
	// NodeResourcesFit
	var reasons []string
	resolvable := true
	for _, r := range ni.insufficientResources(cpu, mem) {
		reasons = append(reasons, r.Reason)
		resolvable = resolvable && !r.Unresolvable
	}
	if len(reasons) > 0 {
		return nodeStatus{reasons: reasons, resolvable: resolvable}
	}
	return nodeStatus{}
}

// withNominated mirrors addGENominatedPods: ni plus the pods nominated to
// its node (other than p, still unbound) whose priority is at least p's;
// ni itself when there are none.
func (cy *cycle) withNominated(ni *nodeInfo, p *api.Pod) *nodeInfo {
	out := ni
	for _, q := range cy.nominated[ni.node.Name] {
		if q.UID == p.UID || q.Spec.NodeName != "" || q.Status.NominatedNodeName != ni.node.Name || api.PodPriority(q) < api.PodPriority(p) {
			continue
		}
		if out == ni {
			out = ni.clone()
		}
		out.add(q)
	}
	return out
}

// insufficientResources mirrors noderesources.fitsRequest for the pod
// count, cpu and memory (in that order) of a pod requesting cpu and mem
// (milli-units) on this node: one entry per resource the node's
// allocatable cannot hold on top of what its pods already request, with
// amounts in the API unit (pods, millicores, bytes). Empty when it fits.
func (ni *nodeInfo) insufficientResources(cpu, mem int64) []InsufficientResource {
	var out []InsufficientResource
	alloc := ni.node.Status.Allocatable
	npods := int64(len(ni.pods))
	if q, ok := alloc[api.ResourcePods]; ok && npods+1 > q.Value() {
		out = append(out, InsufficientResource{api.ResourcePods, ErrReasonTooManyPods, 1, npods, q.Value(), false})
	}
	if cpu > 0 {
		if q := alloc[api.ResourceCPU]; api.AddMilli(ni.cpu, cpu) > q.Milli {
			out = append(out, InsufficientResource{api.ResourceCPU, "Insufficient cpu", cpu, ni.cpu, q.Milli, cpu > q.Milli})
		}
	}
	if mem > 0 {
		// memory is kept in milli-units like every quantity; the API unit is the byte.
		if q := alloc[api.ResourceMemory]; api.AddMilli(ni.mem, mem) > q.Milli {
			out = append(out, InsufficientResource{api.ResourceMemory, "Insufficient memory", mem / 1000, ni.mem / 1000, q.Milli / 1000, mem > q.Milli})
		}
	}
	return out
}

// portConflict mirrors HostPortInfo.CheckConflict: the same protocol and
// port on the same IP, or either side on 0.0.0.0.
func portConflict(used map[hostPort]int, hp hostPort) bool {
	if hp.ip == "0.0.0.0" {
		for u, n := range used {
			if n > 0 && u.protocol == hp.protocol && u.port == hp.port {
				return true
			}
		}
		return false
	}
	return used[hp] > 0 || used[hostPort{hp.protocol, "0.0.0.0", hp.port}] > 0
}

// fitError mirrors framework.FitError: the node statuses of one attempt
// (statuses, by node name), the count of nodes absent from them with the
// reason they share (absentReason: NodeToStatus.AbsentNodesStatus), and
// the PostFilter message.
type fitError struct {
	numAllNodes   int
	statuses      map[string]nodeStatus
	absent        int
	absentReason  string
	postFilterMsg string
}

// Error mirrors FitError.Error: "0/<N> nodes are available: <histogram>."
// where the histogram counts every reason of every node status (absent
// nodes under absentReason) as "<count> <reason>" strings sorted as
// strings and joined by ", "; then " <postFilterMsg>" when there is one.
func (f *fitError) Error() string {
	hist := map[string]int{}
	if f.absent > 0 {
		hist[f.absentReason] += f.absent
	}
	for _, st := range f.statuses {
		for _, r := range st.reasons {
			hist[r]++
		}
	}
	msg := fmt.Sprintf("0/%d nodes are available:", f.numAllNodes)
	if h := histogram(hist); h != "" {
		msg += " " + h + "."
	}
	if f.postFilterMsg != "" {
		msg += " " + f.postFilterMsg
	}
	return msg
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
// Unschedulable with the message, status.nominatedNodeName as the
// PostFilter left it (post), and the FailedScheduling event. The pod is
// written only when the condition or the nomination changes (updatePod
// skips an unchanged status). The event is recorded when the message
// changed, and again on every periodic retry
// (PodMaxInUnschedulablePodsDuration after the last attempt): the recorder
// folds identical events into one whose count grows, which `kubectl
// describe pod` shows as "(x3 over 10m)". Retries prompted by cluster
// changes that end with the same message record nothing new (the
// simulation's placement version moves far more often than the queueing
// hints of a real scheduler would requeue the pod); a successful
// preemption always records its event. The retry is queued with WakeAt.
func (s *Scheduler) recordFailure(p *api.Pod, msg string, post postFilterResult) {
	c := s.c
	now := c.Now()
	prev, seen := s.attempts[p.UID]
	periodic := seen && !now.Before(prev.at.Add(PodMaxInUnschedulablePodsDuration))
	c.WakeAt(now.Add(PodMaxInUnschedulablePodsDuration))
	cond := p.Condition(api.PodScheduled)
	nominationChanges := post.nominate && p.Status.NominatedNodeName != post.node
	same := seen && prev.message == msg && cond != nil && cond.Status == api.ConditionFalse && cond.Message == msg && !nominationChanges
	if same && !periodic {
		return
	}
	if !same {
		if cond == nil {
			p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodScheduled})
			cond = &p.Status.Conditions[len(p.Status.Conditions)-1]
		}
		stamp := c.Stamp() // stored condition times: whole seconds
		if cond.Status != api.ConditionFalse {
			cond.LastTransitionTime = stamp
		}
		cond.Status, cond.Reason, cond.Message = api.ConditionFalse, "Unschedulable", msg
		cond.LastProbeTime = stamp
		// handleSchedulingFailure: CalculatePodConditionObservedGeneration
		cond.ObservedGeneration = p.Generation
		if post.nominate {
			p.Status.NominatedNodeName = post.node
		}
		_ = c.UpdatePod(p)
	}
	c.Record("Pod", &p.ObjectMeta, "", api.EventTypeWarning, "FailedScheduling", msg, cluster.ComponentScheduler, "")
	reason := msg
	if same {
		reason = fmt.Sprintf("retried after %s in the unschedulable queue (podMaxInUnschedulablePodsDuration), still: %s", PodMaxInUnschedulablePodsDuration, msg)
	}
	if post.nominate && post.node != "" {
		reason += fmt.Sprintf(" Preempting %d pod(s) on %s: the pod is nominated there and binds once they are gone.", post.victims, post.node)
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
	now := c.Stamp() // lastTransitionTime is stored: whole seconds
	p.Spec.NodeName = ni.node.Name
	p.Status.NominatedNodeName = ""
	if cond := p.Condition(api.PodScheduled); cond != nil {
		// the binding's UpdatePodCondition replaces the condition with
		// one that has no observedGeneration (BindingREST
		// setPodNodeAndMetadata); the kubelet's status sets it again
		cond.Status, cond.Reason, cond.Message = api.ConditionTrue, "", ""
		cond.LastTransitionTime, cond.LastProbeTime = now, time0
		cond.ObservedGeneration = 0
	} else {
		p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: now})
	}
	_ = c.UpdatePod(p)
	ni.add(p)
	delete(s.attempts, p.UID)
	c.Record("Pod", &p.ObjectMeta, "", api.EventTypeNormal, "Scheduled",
		fmt.Sprintf("Successfully assigned %s/%s to %s", p.Namespace, p.Name, ni.node.Name), cluster.ComponentScheduler, "")
	c.Decide(cluster.Decision{Component: cluster.ComponentScheduler, Func: "bind", Object: podObject(p), Node: ni.node.Name,
		Action: "bind", Reason: fmt.Sprintf("node %s passes every filter (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, PodTopologySpread, InterPodAffinity)", ni.node.Name)})
}

var time0 = api.Pod{}.CreationTimestamp
