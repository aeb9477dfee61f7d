package scheduler

import "github.com/dsplayground/dsplay/engine/api"

// runPostFilterPlugins mirrors frameworkImpl.RunPostFilterPlugins over the
// default profile's PostFilter plugins, in order: DynamicResources (the
// DynamicResourceAllocation feature is GA and on since v1.34, and
// applyFeatureGates puts the plugin before DefaultPreemption), then
// DefaultPreemption (postFilter). A Success ends the run with no message;
// otherwise the Unschedulable reasons are joined with ", " (Status.Message),
// which the FitError prints after the histogram. ResourceClaims are not
// simulated, so DynamicResources always takes PostFilter's no-claims fast
// path (state.claims.empty()), whose Unschedulable status carries no
// message in v1.37: only preemption's reason is printed
// ("... [NodeAffinity]. preemption: 0/3 nodes are available: ...").
func (s *Scheduler) runPostFilterPlugins(cy *cycle, p *api.Pod, fe *fitError, affinity api.RequiredNodeAffinity, cpu, mem int64, ports []hostPort) postFilterResult {
	return s.postFilter(cy, p, fe, affinity, cpu, mem, ports)
}
