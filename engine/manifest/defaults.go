package manifest

import (
	"github.com/dsplayground/dsplay/engine/api"
)

// SetDefaults fills the fields the API server defaults on create and update
// (SetObjectDefaults_DaemonSet / _Pod / _Node from pkg/apis/apps/v1 and
// pkg/apis/core/v1 defaults.go). obj is *api.DaemonSet, *api.Pod,
// *api.Node or *api.Namespace; other values are ignored. Namespaced objects
// land in "default" when metadata.namespace is empty; cluster-scoped ones
// (Node, Namespace) lose a metadata.namespace, as the API server clears it.
func SetDefaults(obj any) {
	switch o := obj.(type) {
	case *api.DaemonSet:
		setDefaultsDaemonSet(o)
	case *api.Pod:
		if o.Namespace == "" {
			o.Namespace = api.DefaultNamespace
		}
		setDefaultsPodSpec(&o.Spec)
		// SetDefaults_Pod: requests default to limits for pods (not templates).
		for _, cs := range [][]api.Container{o.Spec.InitContainers, o.Spec.Containers} {
			for i := range cs {
				r := &cs[i].Resources
				for name, q := range r.Limits {
					if _, ok := r.Requests[name]; !ok {
						if r.Requests == nil {
							r.Requests = api.ResourceList{}
						}
						r.Requests[name] = q
					}
				}
			}
		}
	case *api.Namespace:
		// cluster-scoped: the API server clears metadata.namespace (BeforeCreate)
		o.Namespace = ""
	case *api.ServiceAccount, *api.ConfigMap, *api.Secret:
		setDefaultsConfigObject(o)
	case *api.Node:
		o.Namespace = ""
		// SetDefaults_NodeStatus: allocatable defaults to capacity.
		if o.Status.Allocatable == nil && o.Status.Capacity != nil {
			o.Status.Allocatable = api.ResourceList{}
			for k, v := range o.Status.Capacity {
				o.Status.Allocatable[k] = v
			}
		}
	}
}

// setDefaultsDaemonSet mirrors apps/v1 SetDefaults_DaemonSet: updateStrategy
// RollingUpdate with maxUnavailable 1 and maxSurge 0 (only for
// RollingUpdate), revisionHistoryLimit 10, and the pod template's defaults.
func setDefaultsDaemonSet(ds *api.DaemonSet) {
	if ds.Namespace == "" {
		ds.Namespace = api.DefaultNamespace
	}
	us := &ds.Spec.UpdateStrategy
	if us.Type == "" {
		us.Type = api.RollingUpdateDaemonSetStrategyType
	}
	if us.Type == api.RollingUpdateDaemonSetStrategyType {
		if us.RollingUpdate == nil {
			us.RollingUpdate = &api.RollingUpdateDaemonSet{}
		}
		if us.RollingUpdate.MaxUnavailable == nil {
			us.RollingUpdate.MaxUnavailable = api.FromInt(1)
		}
		if us.RollingUpdate.MaxSurge == nil {
			us.RollingUpdate.MaxSurge = api.FromInt(0)
		}
	}
	if ds.Spec.RevisionHistoryLimit == nil {
		ds.Spec.RevisionHistoryLimit = api.Int32Ptr(10)
	}
	setDefaultsPodSpec(&ds.Spec.Template.Spec)
}

// setDefaultsPodSpec mirrors core/v1 SetDefaults_PodSpec, SetDefaults_Container,
// SetDefaults_ContainerPort, SetDefaults_Probe and SetDefaults_HostPathVolumeSource.
func setDefaultsPodSpec(s *api.PodSpec) {
	if s.DNSPolicy == "" {
		s.DNSPolicy = "ClusterFirst"
	}
	if s.RestartPolicy == "" {
		s.RestartPolicy = "Always"
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = api.Int64Ptr(30)
	}
	if s.SchedulerName == "" {
		s.SchedulerName = api.DefaultSchedulerName
	}
	for _, cs := range [][]api.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			c := &cs[i]
			if c.ImagePullPolicy == "" {
				c.ImagePullPolicy = api.DefaultPullPolicy(c.Image)
			}
			for j := range c.Ports {
				if c.Ports[j].Protocol == "" {
					c.Ports[j].Protocol = "TCP"
				}
				// Deviation: since 1.28 (PR 117696) the API server sets
				// hostPort = containerPort for hostNetwork ports only in
				// SetDefaults_Pod, not in pod templates. The simulator does
				// it here, in templates too, because the DaemonSet
				// controller's pods are stored without SetDefaults_Pod and
				// the scheduler's host-port check needs the port.
				if s.HostNetwork && c.Ports[j].HostPort == 0 {
					c.Ports[j].HostPort = c.Ports[j].ContainerPort
				}
			}
			for _, p := range []*api.Probe{c.ReadinessProbe, c.LivenessProbe} {
				if p == nil {
					continue
				}
				if p.TimeoutSeconds == 0 {
					p.TimeoutSeconds = 1
				}
				if p.PeriodSeconds == 0 {
					p.PeriodSeconds = 10
				}
				if p.SuccessThreshold == 0 {
					p.SuccessThreshold = 1
				}
				if p.FailureThreshold == 0 {
					p.FailureThreshold = 3
				}
			}
		}
	}
	for i := range s.Volumes {
		if hp, ok := s.Volumes[i].Source["hostPath"].(map[string]any); ok {
			if _, set := hp["type"]; !set {
				hp["type"] = ""
			}
		}
	}
}
