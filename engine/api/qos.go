package api

// Pod QoS classes (core/v1 PodQOSClass).
const (
	PodQOSGuaranteed = "Guaranteed"
	PodQOSBurstable  = "Burstable"
	PodQOSBestEffort = "BestEffort"
)

// GetPodQOS mirrors qos.GetPodQOS (pkg/apis/core/helper/qos) for cpu and
// memory: BestEffort when no container has requests or limits, Guaranteed
// when every container has cpu and memory limits equal to its requests
// (requests default to limits), Burstable otherwise.
func GetPodQOS(spec *PodSpec) string {
	any := false
	guaranteed := true
	all := append(append([]Container(nil), spec.InitContainers...), spec.Containers...)
	for _, c := range all {
		req, lim := c.Resources.Requests, c.Resources.Limits
		for _, r := range []string{ResourceCPU, ResourceMemory} {
			rq, hasReq := req[r]
			lq, hasLim := lim[r]
			if (hasReq && rq.Milli != 0) || (hasLim && lq.Milli != 0) {
				any = true
			}
			if !hasLim {
				guaranteed = false
				continue
			}
			if hasReq && rq.Milli != lq.Milli {
				guaranteed = false
			}
		}
	}
	switch {
	case !any:
		return PodQOSBestEffort
	case guaranteed:
		return PodQOSGuaranteed
	}
	return PodQOSBurstable
}
