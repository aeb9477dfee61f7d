package api

// Pod QoS classes (core/v1 PodQOSClass).
const (
	PodQOSGuaranteed = "Guaranteed"
	PodQOSBurstable  = "Burstable"
	PodQOSBestEffort = "BestEffort"
)

// GetPodQOS mirrors qos.ComputePodQOS (pkg/apis/core/helper/qos) for cpu
// and memory, without pod-level resources. Positive requests and limits are
// summed over containers and init containers (a request left out counts as
// its limit, as API defaulting sets it). BestEffort when both sums are
// empty; Guaranteed when every container has positive cpu and memory
// limits and the summed requests equal the summed limits; Burstable
// otherwise.
func GetPodQOS(spec *PodSpec) string {
	requests, limits := map[string]int64{}, map[string]int64{}
	guaranteed := true
	for _, cs := range [][]Container{spec.Containers, spec.InitContainers} {
		for _, c := range cs {
			found := 0
			for _, r := range []string{ResourceCPU, ResourceMemory} {
				lim, hasLim := c.Resources.Limits[r]
				req, hasReq := c.Resources.Requests[r]
				if !hasReq && hasLim {
					req, hasReq = lim, true
				}
				if hasReq && req.Milli > 0 {
					requests[r] = AddMilli(requests[r], req.Milli)
				}
				if hasLim && lim.Milli > 0 {
					limits[r] = AddMilli(limits[r], lim.Milli)
					found++
				}
			}
			if found < 2 {
				guaranteed = false
			}
		}
	}
	if len(requests) == 0 && len(limits) == 0 {
		return PodQOSBestEffort
	}
	for r, req := range requests {
		if lim, ok := limits[r]; !ok || lim != req {
			guaranteed = false
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return PodQOSGuaranteed
	}
	return PodQOSBurstable
}
