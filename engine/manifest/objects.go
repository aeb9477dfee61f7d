package manifest

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/dsplayground/dsplay/engine/api"
)

// The functions below map YAML nodes onto the api types field by field,
// with the JSON names of k8s.io/api. Owner names ("ObjectMeta", "PodSpec")
// are the Go struct names the API server's decoder puts in its errors.

func (d *decoder) objectMeta(n *yaml.Node, path string, m *api.ObjectMeta) {
	const owner = "ObjectMeta"
	d.mapping(n, path, owner, "v1.ObjectMeta", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "name":
			m.Name = d.str(v, p, owner)
		case "generateName":
			m.GenerateName = d.str(v, p, owner)
		case "namespace":
			m.Namespace = d.str(v, p, owner)
		case "labels":
			m.Labels = d.stringMap(v, p, owner)
		case "annotations":
			m.Annotations = d.stringMap(v, p, owner)
		case "finalizers":
			m.Finalizers = d.strings(v, p, owner)
		case "ownerReferences":
			d.list(v, p, owner, "[]v1.OwnerReference", func(i int, n *yaml.Node, ip string) {
				m.OwnerReferences = append(m.OwnerReferences, d.ownerReference(n, ip))
			})
		case "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
			"deletionGracePeriodSeconds", "managedFields", "selfLink":
			// set by the server: a pasted `kubectl get -o yaml` carries them,
			// and the API server ignores or overwrites them
			d.record(p, v)
		default:
			return false
		}
		return true
	})
}

// ownerReference decodes one metav1.OwnerReference. A pasted pod may
// name its controller (a ReplicaSet, another DaemonSet): the DaemonSet
// controller leaves such pods alone (ClaimPods), and the garbage collector
// deletes a dependent whose owners are all gone.
func (d *decoder) ownerReference(n *yaml.Node, path string) api.OwnerReference {
	const owner = "OwnerReference"
	var r api.OwnerReference
	d.mapping(n, path, owner, "v1.OwnerReference", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "apiVersion":
			r.APIVersion = d.str(v, p, owner)
		case "kind":
			r.Kind = d.str(v, p, owner)
		case "name":
			r.Name = d.str(v, p, owner)
		case "uid":
			r.UID = d.str(v, p, owner)
		case "controller":
			b := d.boolean(v, p, owner)
			r.Controller = &b
		case "blockOwnerDeletion":
			b := d.boolean(v, p, owner)
			r.BlockOwnerDeletion = &b
		default:
			return false
		}
		return true
	})
	return r
}

func (d *decoder) labelSelector(n *yaml.Node, path string) *api.LabelSelector {
	return d.labelSelectorIn(n, path, "DaemonSetSpec")
}

// labelSelectorIn decodes a metav1.LabelSelector held by a field of parent
// (the Go struct named in type errors); null is nil.
func (d *decoder) labelSelectorIn(n *yaml.Node, path, parent string) *api.LabelSelector {
	const owner = "LabelSelector"
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	s := &api.LabelSelector{}
	ok := d.mapping(n, path, parent, "v1.LabelSelector", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "matchLabels":
			s.MatchLabels = d.stringMap(v, p, owner)
		case "matchExpressions":
			d.list(v, p, owner, "[]v1.LabelSelectorRequirement", func(i int, n *yaml.Node, ip string) {
				var r api.LabelSelectorRequirement
				d.mapping(n, ip, owner, "v1.LabelSelectorRequirement", func(ek string, ev *yaml.Node, ep string) bool {
					switch ek {
					case "key":
						r.Key = d.str(ev, ep, "LabelSelectorRequirement")
					case "operator":
						r.Operator = d.str(ev, ep, "LabelSelectorRequirement")
					case "values":
						r.Values = d.strings(ev, ep, "LabelSelectorRequirement")
					default:
						return false
					}
					return true
				})
				s.MatchExpressions = append(s.MatchExpressions, r)
			})
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	return s
}

func (d *decoder) daemonSetSpec(n *yaml.Node, path string, s *api.DaemonSetSpec) {
	const owner = "DaemonSetSpec"
	d.mapping(n, path, "DaemonSet", "v1.DaemonSetSpec", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "selector":
			s.Selector = d.labelSelector(v, p)
		case "template":
			d.podTemplate(v, p, &s.Template)
		case "updateStrategy":
			d.mapping(v, p, owner, "v1.DaemonSetUpdateStrategy", func(sk string, sv *yaml.Node, sp string) bool {
				switch sk {
				case "type":
					s.UpdateStrategy.Type = d.str(sv, sp, "DaemonSetUpdateStrategy")
				case "rollingUpdate":
					d.record(sp, sv)
					if sv.Kind == yaml.ScalarNode && scalarKind(sv) == "null" {
						break
					}
					ru := &api.RollingUpdateDaemonSet{}
					ok := d.mapping(sv, sp, "DaemonSetUpdateStrategy", "v1.RollingUpdateDaemonSet", func(rk string, rv *yaml.Node, rp string) bool {
						switch rk {
						case "maxUnavailable":
							ru.MaxUnavailable = d.intOrString(rv, rp, "RollingUpdateDaemonSet")
						case "maxSurge":
							ru.MaxSurge = d.intOrString(rv, rp, "RollingUpdateDaemonSet")
						default:
							return false
						}
						return true
					})
					if ok {
						s.UpdateStrategy.RollingUpdate = ru
					}
				default:
					return false
				}
				return true
			})
		case "minReadySeconds":
			s.MinReadySeconds = d.int32v(v, p, owner)
		case "revisionHistoryLimit":
			s.RevisionHistoryLimit = d.int32p(v, p, owner)
		default:
			return false
		}
		return true
	})
}

func (d *decoder) podTemplate(n *yaml.Node, path string, t *api.PodTemplateSpec) {
	d.mapping(n, path, "DaemonSetSpec", "v1.PodTemplateSpec", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "metadata":
			d.objectMeta(v, p, &t.ObjectMeta)
		case "spec":
			d.podSpec(v, p, &t.Spec)
		default:
			return false
		}
		return true
	})
}

func (d *decoder) podSpec(n *yaml.Node, path string, s *api.PodSpec) {
	const owner = "PodSpec"
	d.mapping(n, path, "PodTemplateSpec", "v1.PodSpec", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "volumes":
			d.list(v, p, owner, "[]v1.Volume", func(i int, n *yaml.Node, ip string) {
				vol := api.Volume{}
				d.mapping(n, ip, owner, "v1.Volume", func(vk string, vv *yaml.Node, vp string) bool {
					if vk == "name" {
						vol.Name = d.str(vv, vp, "Volume")
						return true
					}
					d.record(vp, vv)
					if vol.Source == nil {
						vol.Source = map[string]any{}
					}
					vol.Source[vk] = d.toAny(vv)
					return true
				})
				s.Volumes = append(s.Volumes, vol)
			})
		case "initContainers", "containers":
			var cs []api.Container
			d.list(v, p, owner, "[]v1.Container", func(i int, n *yaml.Node, ip string) {
				cs = append(cs, d.container(n, ip))
			})
			if k == "containers" {
				s.Containers = cs
			} else {
				s.InitContainers = cs
			}
		case "restartPolicy":
			s.RestartPolicy = d.str(v, p, owner)
		case "terminationGracePeriodSeconds":
			s.TerminationGracePeriodSeconds = d.int64p(v, p, owner)
		case "activeDeadlineSeconds":
			s.ActiveDeadlineSeconds = d.int64p(v, p, owner)
		case "dnsPolicy":
			s.DNSPolicy = d.str(v, p, owner)
		case "nodeSelector":
			s.NodeSelector = d.stringMap(v, p, owner)
		case "serviceAccountName":
			s.ServiceAccountName = d.str(v, p, owner)
		case "nodeName":
			s.NodeName = d.str(v, p, owner)
		case "hostNetwork":
			s.HostNetwork = d.boolean(v, p, owner)
		case "hostPID":
			s.HostPID = d.boolean(v, p, owner)
		case "affinity":
			s.Affinity = d.affinity(v, p)
		case "schedulerName":
			s.SchedulerName = d.str(v, p, owner)
		case "tolerations":
			d.list(v, p, owner, "[]v1.Toleration", func(i int, n *yaml.Node, ip string) {
				s.Tolerations = append(s.Tolerations, d.toleration(n, ip))
			})
		case "topologySpreadConstraints":
			d.list(v, p, owner, "[]v1.TopologySpreadConstraint", func(i int, n *yaml.Node, ip string) {
				s.TopologySpreadConstraints = append(s.TopologySpreadConstraints, d.topologySpreadConstraint(n, ip))
			})
		case "priorityClassName":
			s.PriorityClassName = d.str(v, p, owner)
		case "priority":
			s.Priority = d.int32p(v, p, owner)
		case "preemptionPolicy":
			if pp := d.str(v, p, owner); pp != "" {
				s.PreemptionPolicy = &pp
			}
		default:
			return false
		}
		return true
	})
	// Convert_v1_PodSpec_To_core_PodSpec: the deprecated serviceAccount
	// names the account when serviceAccountName does not (old manifests
	// write only serviceAccount: fluentd).
	if sa, ok := d.extra[path]["serviceAccount"].(string); ok && s.ServiceAccountName == "" {
		s.ServiceAccountName = sa
	}
}

func (d *decoder) toleration(n *yaml.Node, path string) api.Toleration {
	const owner = "Toleration"
	var t api.Toleration
	d.mapping(n, path, "PodSpec", "v1.Toleration", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "key":
			t.Key = d.str(v, p, owner)
		case "operator":
			t.Operator = d.str(v, p, owner)
		case "value":
			t.Value = d.str(v, p, owner)
		case "effect":
			t.Effect = d.str(v, p, owner)
		case "tolerationSeconds":
			t.TolerationSeconds = d.int64p(v, p, owner)
		default:
			return false
		}
		return true
	})
	return t
}

func (d *decoder) container(n *yaml.Node, path string) api.Container {
	const owner = "Container"
	var c api.Container
	d.mapping(n, path, "PodSpec", "v1.Container", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "name":
			c.Name = d.str(v, p, owner)
		case "image":
			c.Image = d.str(v, p, owner)
		case "command":
			c.Command = d.strings(v, p, owner)
		case "args":
			c.Args = d.strings(v, p, owner)
		case "ports":
			d.list(v, p, owner, "[]v1.ContainerPort", func(i int, n *yaml.Node, ip string) {
				var cp api.ContainerPort
				d.mapping(n, ip, owner, "v1.ContainerPort", func(pk string, pv *yaml.Node, pp string) bool {
					switch pk {
					case "name":
						cp.Name = d.str(pv, pp, "ContainerPort")
					case "hostPort":
						cp.HostPort = d.int32v(pv, pp, "ContainerPort")
					case "containerPort":
						cp.ContainerPort = d.int32v(pv, pp, "ContainerPort")
					case "protocol":
						cp.Protocol = d.str(pv, pp, "ContainerPort")
					case "hostIP":
						cp.HostIP = d.str(pv, pp, "ContainerPort")
					default:
						return false
					}
					return true
				})
				c.Ports = append(c.Ports, cp)
			})
		case "env":
			d.list(v, p, owner, "[]v1.EnvVar", func(i int, n *yaml.Node, ip string) {
				var e api.EnvVar
				d.mapping(n, ip, owner, "v1.EnvVar", func(ek string, ev *yaml.Node, ep string) bool {
					switch ek {
					case "name":
						e.Name = d.str(ev, ep, "EnvVar")
					case "value":
						e.Value = d.str(ev, ep, "EnvVar")
					case "valueFrom":
						e.ValueFrom = d.anyMap(ev, ep, "EnvVar")
					default:
						return false
					}
					return true
				})
				c.Env = append(c.Env, e)
			})
		case "resources":
			d.mapping(v, p, owner, "v1.ResourceRequirements", func(rk string, rv *yaml.Node, rp string) bool {
				switch rk {
				case "limits":
					c.Resources.Limits = d.quantities(rv, rp, "ResourceRequirements")
				case "requests":
					c.Resources.Requests = d.quantities(rv, rp, "ResourceRequirements")
				default:
					return false
				}
				return true
			})
		case "volumeMounts":
			d.list(v, p, owner, "[]v1.VolumeMount", func(i int, n *yaml.Node, ip string) {
				var m api.VolumeMount
				d.mapping(n, ip, owner, "v1.VolumeMount", func(mk string, mv *yaml.Node, mp string) bool {
					switch mk {
					case "name":
						m.Name = d.str(mv, mp, "VolumeMount")
					case "readOnly":
						m.ReadOnly = d.boolean(mv, mp, "VolumeMount")
					case "mountPath":
						m.MountPath = d.str(mv, mp, "VolumeMount")
					case "subPath":
						m.SubPath = d.str(mv, mp, "VolumeMount")
					default:
						return false
					}
					return true
				})
				c.VolumeMounts = append(c.VolumeMounts, m)
			})
		case "readinessProbe":
			c.ReadinessProbe = d.probe(v, p)
		case "livenessProbe":
			c.LivenessProbe = d.probe(v, p)
		case "imagePullPolicy":
			c.ImagePullPolicy = d.str(v, p, owner)
		case "restartPolicy":
			c.RestartPolicy = d.str(v, p, owner)
		default:
			return false
		}
		return true
	})
	return c
}

// probeHandlers are the ProbeHandler members kept as written in Probe.Handler.
var probeHandlers = map[string]bool{"exec": true, "httpGet": true, "tcpSocket": true, "grpc": true}

func (d *decoder) probe(n *yaml.Node, path string) *api.Probe {
	const owner = "Probe"
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	pr := &api.Probe{}
	ok := d.mapping(n, path, "Container", "v1.Probe", func(k string, v *yaml.Node, p string) bool {
		switch {
		case probeHandlers[k]:
			d.record(p, v)
			if pr.Handler == nil {
				pr.Handler = map[string]any{}
			}
			pr.Handler[k] = d.toAny(v)
		case k == "initialDelaySeconds":
			pr.InitialDelaySeconds = d.int32v(v, p, owner)
		case k == "timeoutSeconds":
			pr.TimeoutSeconds = d.int32v(v, p, owner)
		case k == "periodSeconds":
			pr.PeriodSeconds = d.int32v(v, p, owner)
		case k == "successThreshold":
			pr.SuccessThreshold = d.int32v(v, p, owner)
		case k == "failureThreshold":
			pr.FailureThreshold = d.int32v(v, p, owner)
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	return pr
}

func (d *decoder) affinity(n *yaml.Node, path string) *api.Affinity {
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	a := &api.Affinity{}
	ok := d.mapping(n, path, "PodSpec", "v1.Affinity", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "nodeAffinity":
			a.NodeAffinity = d.nodeAffinity(v, p)
		case "podAffinity":
			d.record(p, v)
			if v.Kind == yaml.ScalarNode && scalarKind(v) == "null" {
				break
			}
			pa := &api.PodAffinity{}
			if d.podAffinityTerms(v, p, "v1.PodAffinity", &pa.RequiredDuringSchedulingIgnoredDuringExecution, &pa.PreferredDuringSchedulingIgnoredDuringExecution) {
				a.PodAffinity = pa
			}
		case "podAntiAffinity":
			d.record(p, v)
			if v.Kind == yaml.ScalarNode && scalarKind(v) == "null" {
				break
			}
			pa := &api.PodAntiAffinity{}
			if d.podAffinityTerms(v, p, "v1.PodAntiAffinity", &pa.RequiredDuringSchedulingIgnoredDuringExecution, &pa.PreferredDuringSchedulingIgnoredDuringExecution) {
				a.PodAntiAffinity = pa
			}
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	return a
}

func (d *decoder) nodeAffinity(n *yaml.Node, path string) *api.NodeAffinity {
	const owner = "NodeAffinity"
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	na := &api.NodeAffinity{}
	ok := d.mapping(n, path, "Affinity", "v1.NodeAffinity", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "requiredDuringSchedulingIgnoredDuringExecution":
			d.record(p, v)
			if v.Kind == yaml.ScalarNode && scalarKind(v) == "null" {
				break
			}
			ns := &api.NodeSelector{}
			ok := d.mapping(v, p, owner, "v1.NodeSelector", func(sk string, sv *yaml.Node, sp string) bool {
				if sk != "nodeSelectorTerms" {
					return false
				}
				d.list(sv, sp, "NodeSelector", "[]v1.NodeSelectorTerm", func(i int, n *yaml.Node, ip string) {
					ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, d.nodeSelectorTerm(n, ip))
				})
				return true
			})
			if ok {
				na.RequiredDuringSchedulingIgnoredDuringExecution = ns
			}
		case "preferredDuringSchedulingIgnoredDuringExecution":
			d.list(v, p, owner, "[]v1.PreferredSchedulingTerm", func(i int, n *yaml.Node, ip string) {
				var t api.PreferredSchedulingTerm
				d.mapping(n, ip, owner, "v1.PreferredSchedulingTerm", func(tk string, tv *yaml.Node, tp string) bool {
					switch tk {
					case "weight":
						t.Weight = d.int32v(tv, tp, "PreferredSchedulingTerm")
					case "preference":
						t.Preference = d.nodeSelectorTerm(tv, tp)
					default:
						return false
					}
					return true
				})
				na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution, t)
			})
		default:
			return false
		}
		return true
	})
	if !ok {
		return nil
	}
	return na
}

func (d *decoder) nodeSelectorTerm(n *yaml.Node, path string) api.NodeSelectorTerm {
	const owner = "NodeSelectorTerm"
	var t api.NodeSelectorTerm
	d.mapping(n, path, "NodeSelector", "v1.NodeSelectorTerm", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "matchExpressions", "matchFields":
			var rs []api.NodeSelectorRequirement
			d.list(v, p, owner, "[]v1.NodeSelectorRequirement", func(i int, n *yaml.Node, ip string) {
				var r api.NodeSelectorRequirement
				d.mapping(n, ip, owner, "v1.NodeSelectorRequirement", func(rk string, rv *yaml.Node, rp string) bool {
					switch rk {
					case "key":
						r.Key = d.str(rv, rp, "NodeSelectorRequirement")
					case "operator":
						r.Operator = d.str(rv, rp, "NodeSelectorRequirement")
					case "values":
						r.Values = d.strings(rv, rp, "NodeSelectorRequirement")
					default:
						return false
					}
					return true
				})
				rs = append(rs, r)
			})
			if k == "matchExpressions" {
				t.MatchExpressions = rs
			} else {
				t.MatchFields = rs
			}
		default:
			return false
		}
		return true
	})
	return t
}

func (d *decoder) nodeSpec(n *yaml.Node, path string, s *api.NodeSpec) {
	const owner = "NodeSpec"
	d.mapping(n, path, "Node", "v1.NodeSpec", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "podCIDR":
			s.PodCIDR = d.str(v, p, owner)
		case "unschedulable":
			s.Unschedulable = d.boolean(v, p, owner)
		case "taints":
			d.list(v, p, owner, "[]v1.Taint", func(i int, n *yaml.Node, ip string) {
				var t api.Taint
				d.mapping(n, ip, owner, "v1.Taint", func(tk string, tv *yaml.Node, tp string) bool {
					switch tk {
					case "key":
						t.Key = d.str(tv, tp, "Taint")
					case "value":
						t.Value = d.str(tv, tp, "Taint")
					case "effect":
						t.Effect = d.str(tv, tp, "Taint")
					default: // timeAdded is set by the server
						return false
					}
					return true
				})
				s.Taints = append(s.Taints, t)
			})
		default:
			return false
		}
		return true
	})
}

// nodeStatus keeps status.capacity and status.allocatable (so a Node
// manifest can size the simulated node); the rest is kept as written.
func (d *decoder) nodeStatus(n *yaml.Node, path string, s *api.NodeStatus) {
	d.mapping(n, path, "Node", "v1.NodeStatus", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "capacity":
			s.Capacity = d.quantities(v, p, "NodeStatus")
		case "allocatable":
			s.Allocatable = d.quantities(v, p, "NodeStatus")
		case "conditions", "addresses", "nodeInfo", "images", "daemonEndpoints", "volumesInUse", "volumesAttached", "phase":
			// reported by the (simulated) kubelet, not taken from a manifest
			d.record(p, v)
		default:
			return false
		}
		return true
	})
}

// namespaceSpec decodes a Namespace's spec (finalizers; the server sets
// them anyway).
func (d *decoder) namespaceSpec(n *yaml.Node, path string, s *api.NamespaceSpec) {
	const owner = "NamespaceSpec"
	d.mapping(n, path, "Namespace", "v1.NamespaceSpec", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "finalizers":
			s.Finalizers = d.strings(v, p, owner)
		default:
			return false
		}
		return true
	})
}

// podAffinityTerms decodes the body of a v1.PodAffinity or
// v1.PodAntiAffinity (goType) into its required and preferred terms. It
// returns false when n is not a mapping (the type error is recorded).
func (d *decoder) podAffinityTerms(n *yaml.Node, path, goType string, required *[]api.PodAffinityTerm, preferred *[]api.WeightedPodAffinityTerm) bool {
	owner := strings.TrimPrefix(goType, "v1.")
	return d.mapping(n, path, "Affinity", goType, func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "requiredDuringSchedulingIgnoredDuringExecution":
			d.list(v, p, owner, "[]v1.PodAffinityTerm", func(i int, n *yaml.Node, ip string) {
				*required = append(*required, d.podAffinityTerm(n, ip, owner))
			})
		case "preferredDuringSchedulingIgnoredDuringExecution":
			d.list(v, p, owner, "[]v1.WeightedPodAffinityTerm", func(i int, n *yaml.Node, ip string) {
				var w api.WeightedPodAffinityTerm
				d.mapping(n, ip, owner, "v1.WeightedPodAffinityTerm", func(wk string, wv *yaml.Node, wp string) bool {
					switch wk {
					case "weight":
						w.Weight = d.int32v(wv, wp, "WeightedPodAffinityTerm")
					case "podAffinityTerm":
						w.PodAffinityTerm = d.podAffinityTerm(wv, wp, "WeightedPodAffinityTerm")
					default:
						return false
					}
					return true
				})
				*preferred = append(*preferred, w)
			})
		default:
			return false
		}
		return true
	})
}

// podAffinityTerm decodes one v1.PodAffinityTerm held by parent.
func (d *decoder) podAffinityTerm(n *yaml.Node, path, parent string) api.PodAffinityTerm {
	const owner = "PodAffinityTerm"
	var t api.PodAffinityTerm
	d.mapping(n, path, parent, "v1.PodAffinityTerm", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "labelSelector":
			t.LabelSelector = d.labelSelectorIn(v, p, owner)
		case "namespaces":
			t.Namespaces = d.strings(v, p, owner)
		case "topologyKey":
			t.TopologyKey = d.str(v, p, owner)
		case "namespaceSelector":
			t.NamespaceSelector = d.labelSelectorIn(v, p, owner)
		case "matchLabelKeys":
			t.MatchLabelKeys = d.strings(v, p, owner)
		case "mismatchLabelKeys":
			t.MismatchLabelKeys = d.strings(v, p, owner)
		default:
			return false
		}
		return true
	})
	return t
}

// topologySpreadConstraint decodes one v1.TopologySpreadConstraint.
func (d *decoder) topologySpreadConstraint(n *yaml.Node, path string) api.TopologySpreadConstraint {
	const owner = "TopologySpreadConstraint"
	var c api.TopologySpreadConstraint
	d.mapping(n, path, "PodSpec", "v1.TopologySpreadConstraint", func(k string, v *yaml.Node, p string) bool {
		switch k {
		case "maxSkew":
			c.MaxSkew = d.int32v(v, p, owner)
		case "topologyKey":
			c.TopologyKey = d.str(v, p, owner)
		case "whenUnsatisfiable":
			c.WhenUnsatisfiable = d.str(v, p, owner)
		case "labelSelector":
			c.LabelSelector = d.labelSelectorIn(v, p, owner)
		case "minDomains":
			c.MinDomains = d.int32p(v, p, owner)
		case "nodeAffinityPolicy":
			d.record(p, v)
			if !(v.Kind == yaml.ScalarNode && scalarKind(v) == "null") {
				s := d.str(v, p, owner)
				c.NodeAffinityPolicy = &s
			}
		case "nodeTaintsPolicy":
			d.record(p, v)
			if !(v.Kind == yaml.ScalarNode && scalarKind(v) == "null") {
				s := d.str(v, p, owner)
				c.NodeTaintsPolicy = &s
			}
		case "matchLabelKeys":
			c.MatchLabelKeys = d.strings(v, p, owner)
		default:
			return false
		}
		return true
	})
	return c
}
