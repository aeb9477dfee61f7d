package scheduler

import "github.com/dsplayground/dsplay/engine/api"

// ReasonNoNewClaimsToDeallocate is the DynamicResources PostFilter's
// status for a pod that holds no ResourceClaim (user claims or the
// extended-resource claim): pkg/scheduler/framework/plugins/dynamicresources
// PostFilter returns Unschedulable "no new claims to deallocate" when
// state.claims.empty(). Its PreFilter writes an empty state for every pod
// before looking at claims, so the branch is reached by every pod that
// fits no node. (v1.33 returned early without a reason for pods without
// spec.resourceClaims, kubernetes PR #129823; the extended-resource rework
// of v1.34 replaced that fast path with the claims.empty() check above,
// which keeps the reason.)
const ReasonNoNewClaimsToDeallocate = "no new claims to deallocate"

// runPostFilterPlugins mirrors frameworkImpl.RunPostFilterPlugins over the
// default profile's PostFilter plugins, in order: DynamicResources (the
// DynamicResourceAllocation feature is GA and on since v1.34, and
// applyFeatureGates puts the plugin before DefaultPreemption), then
// DefaultPreemption (postFilter). A Success ends the run with no message;
// otherwise the Unschedulable reasons are joined with ", " (Status.Message),
// which the FitError prints after the histogram: "... no new claims to
// deallocate, preemption: 0/3 nodes are available: ...". ResourceClaims
// are not simulated, so DynamicResources always takes the no-claims branch.
func (s *Scheduler) runPostFilterPlugins(cy *cycle, p *api.Pod, fe *fitError, affinity api.RequiredNodeAffinity, cpu, mem int64, ports []hostPort) postFilterResult {
	post := s.postFilter(cy, p, fe, affinity, cpu, mem, ports)
	if post.msg != "" {
		post.msg = ReasonNoNewClaimsToDeallocate + ", " + post.msg
	}
	return post
}
