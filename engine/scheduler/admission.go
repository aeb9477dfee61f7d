package scheduler

import (
	"github.com/dsplayground/dsplay/engine/api"
)

// Filter plugin names, as the kubelet reports them in a rejected pod's
// status.reason (PredicateFailureError.PredicateName).
const (
	PluginNodeAffinity    = "NodeAffinity"
	PluginNodePorts       = "NodePorts"
	PluginTaintToleration = "TaintToleration"
)

// InsufficientResource mirrors noderesources.InsufficientResource: the
// resource ("cpu", "memory", "pods"), the scheduler's reason ("Insufficient
// cpu", "Too many pods") and the amounts in the resource's API unit (cpu in
// millicores, memory in bytes, pods in pods).
type InsufficientResource struct {
	ResourceName              string
	Reason                    string
	Requested, Used, Capacity int64
	// Unresolvable: the request alone exceeds the node's allocatable, so
	// preemption cannot help (fitsRequest; the Filter's status is then
	// UnschedulableAndUnresolvable).
	Unresolvable bool
}

// AdmissionResult mirrors scheduler.AdmissionResult: either an insufficient
// resource, or a failing plugin Name with its Reason.
type AdmissionResult struct {
	InsufficientResource *InsufficientResource
	Name, Reason         string
}

// AdmissionCheck mirrors scheduler.AdmissionCheck (pkg/scheduler/schedule_one.go)
// with includeAllFailures = true, as the kubelet calls it
// (lifecycle.generalFilter): noderesources.Fits (pods, then cpu, then
// memory, against allocatable minus the requests of others), the required
// node affinity, and NodePorts (host ports of others). others are the pods
// already admitted on node n. The result is empty when the pod fits.
func AdmissionCheck(p *api.Pod, n *api.Node, others []*api.Pod) []AdmissionResult {
	ni := &nodeInfo{node: n, ports: map[hostPort]int{}}
	for _, q := range others {
		ni.add(q)
	}
	var out []AdmissionResult
	// noderesources.Fits
	cpu, mem := PodRequests(&p.Spec)
	for _, r := range ni.insufficientResources(cpu, mem) {
		out = append(out, AdmissionResult{InsufficientResource: &r})
	}
	// NodeAffinity (nodename.Fits always holds: the pod is bound to n)
	if ok, _ := api.GetRequiredNodeAffinity(&p.Spec).Match(n); !ok {
		out = append(out, AdmissionResult{Name: PluginNodeAffinity, Reason: ErrReasonAffinityMismatch})
	}
	// NodePorts
	for _, hp := range podHostPorts(&p.Spec) {
		if portConflict(ni.ports, hp) {
			out = append(out, AdmissionResult{Name: PluginNodePorts, Reason: ErrReasonPorts})
			break
		}
	}
	return out
}
