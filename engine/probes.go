package engine

import "github.com/dsplayground/dsplay/engine/kubelet"

// SetPodReadiness makes the readiness probes of pod namespace/name start
// failing (ready false) or pass again (ready true), as when the application
// stops or resumes answering its probe; the kubelet then flips the
// container's ready flag and the pod's Ready condition at the next probe(s)
// (after failureThreshold failures or successThreshold successes, each
// periodSeconds apart; at once for a container without readinessProbe),
// recording Warning Unhealthy "Readiness probe failed: ..." events. See
// kubelet.Kubelets.SetProbeResult. The simulation then settles. Errors:
// NotFound; the pod is unscheduled, terminating or finished.
func (s *Simulation) SetPodReadiness(namespace, name string, ready bool) error {
	if err := s.comps.kubelets.SetProbeResult(namespace, name, ready); err != nil {
		return err
	}
	s.Settle()
	return nil
}

// Registry returns the simulated image registry the kubelets pull from
// (kubelet.Registry: open by default; Have / Lack change its content).
func (s *Simulation) Registry() *kubelet.Registry { return s.comps.kubelets.Registry }
