package controller

import "github.com/dsplayground/dsplay/engine/api"

// defaultDaemonTolerations are the tolerations every daemon pod gets, in
// upstream order (util.AddOrUpdateDaemonPodTolerations); the last one only
// for hostNetwork pods. All are operator Exists with no tolerationSeconds.
var defaultDaemonTolerations = []api.Toleration{
	{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
	{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
	{Key: api.TaintNodeDiskPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
	{Key: api.TaintNodeMemoryPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
	{Key: api.TaintNodePIDPressure, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
	{Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule},
}

var networkUnavailableToleration = api.Toleration{Key: api.TaintNodeNetworkUnavailable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}

// AddOrUpdateDaemonPodTolerations mirrors util.AddOrUpdateDaemonPodTolerations
// (pkg/controller/daemon/util/daemonset_util.go): it adds (or replaces a
// user toleration with the same key, effect, operator and value by) the
// not-ready and unreachable NoExecute, the disk-, memory-, pid-pressure and
// unschedulable NoSchedule tolerations, and network-unavailable NoSchedule
// when spec.hostNetwork is true.
func AddOrUpdateDaemonPodTolerations(spec *api.PodSpec) {
	for i := range defaultDaemonTolerations {
		t := defaultDaemonTolerations[i]
		api.AddOrUpdateTolerationInPodSpec(spec, &t)
	}
	if spec.HostNetwork {
		t := networkUnavailableToleration
		api.AddOrUpdateTolerationInPodSpec(spec, &t)
	}
}

func isDefaultDaemonToleration(t *api.Toleration) bool {
	if t.TolerationSeconds != nil {
		return false
	}
	for i := range defaultDaemonTolerations {
		if defaultDaemonTolerations[i].MatchToleration(t) {
			return true
		}
	}
	return networkUnavailableToleration.MatchToleration(t)
}
