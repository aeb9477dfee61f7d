package manifest

import (
	"gopkg.in/yaml.v3"

	"github.com/dsplayground/dsplay/engine/api"
)

// The functions below map YAML nodes onto the api types field by field,
// with the JSON names of k8s.io/api. Owner names ("ObjectMeta", "PodSpec")
// are the Go struct names the API server's decoder puts in its errors.

func (d *decoder) objectMeta(n *yaml.Node, path string, m *api.ObjectMeta) {
	const owner = "ObjectMeta"
	d.record(path, n)
	kvs, _ := d.fields(n, path, owner, "v1.ObjectMeta")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
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
		case "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
			"deletionGracePeriodSeconds", "managedFields", "selfLink":
			// set by the server: a pasted `kubectl get -o yaml` carries them,
			// and the API server ignores or overwrites them
			d.record(p, v)
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
}

func (d *decoder) labelSelector(n *yaml.Node, path string) *api.LabelSelector {
	const owner = "LabelSelector"
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	kvs, ok := d.fields(n, path, "DaemonSetSpec", "v1.LabelSelector")
	if !ok {
		return nil
	}
	s := &api.LabelSelector{}
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "matchLabels":
			s.MatchLabels = d.stringMap(v, p, owner)
		case "matchExpressions":
			d.list(v, p, owner, "[]v1.LabelSelectorRequirement", func(i int, n *yaml.Node, ip string) {
				var r api.LabelSelectorRequirement
				d.record(ip, n)
				ekvs, _ := d.fields(n, ip, owner, "v1.LabelSelectorRequirement")
				for _, ekv := range ekvs {
					ek, ev := ekv[0].Value, ekv[1]
					ep := join(ip, ek)
					switch ek {
					case "key":
						r.Key = d.str(ev, ep, "LabelSelectorRequirement")
					case "operator":
						r.Operator = d.str(ev, ep, "LabelSelectorRequirement")
					case "values":
						r.Values = d.strings(ev, ep, "LabelSelectorRequirement")
					default:
						d.record(ep, ev)
						d.keep(ip, ek, ev)
					}
				}
				s.MatchExpressions = append(s.MatchExpressions, r)
			})
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
	return s
}

func (d *decoder) daemonSetSpec(n *yaml.Node, path string, s *api.DaemonSetSpec) {
	const owner = "DaemonSetSpec"
	d.record(path, n)
	kvs, _ := d.fields(n, path, "DaemonSet", "v1.DaemonSetSpec")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "selector":
			s.Selector = d.labelSelector(v, p)
		case "template":
			d.podTemplate(v, p, &s.Template)
		case "updateStrategy":
			d.record(p, v)
			skvs, _ := d.fields(v, p, owner, "v1.DaemonSetUpdateStrategy")
			for _, skv := range skvs {
				sk, sv := skv[0].Value, skv[1]
				sp := join(p, sk)
				switch sk {
				case "type":
					s.UpdateStrategy.Type = d.str(sv, sp, "DaemonSetUpdateStrategy")
				case "rollingUpdate":
					d.record(sp, sv)
					if sv.Kind == yaml.ScalarNode && scalarKind(sv) == "null" {
						continue
					}
					ru := &api.RollingUpdateDaemonSet{}
					rkvs, ok := d.fields(sv, sp, "DaemonSetUpdateStrategy", "v1.RollingUpdateDaemonSet")
					if !ok {
						continue
					}
					for _, rkv := range rkvs {
						rk, rv := rkv[0].Value, rkv[1]
						rp := join(sp, rk)
						switch rk {
						case "maxUnavailable":
							ru.MaxUnavailable = d.intOrString(rv, rp, "RollingUpdateDaemonSet")
						case "maxSurge":
							ru.MaxSurge = d.intOrString(rv, rp, "RollingUpdateDaemonSet")
						default:
							d.record(rp, rv)
							d.keep(sp, rk, rv)
						}
					}
					s.UpdateStrategy.RollingUpdate = ru
				default:
					d.record(sp, sv)
					d.keep(p, sk, sv)
				}
			}
		case "minReadySeconds":
			s.MinReadySeconds = d.int32v(v, p, owner)
		case "revisionHistoryLimit":
			s.RevisionHistoryLimit = d.int32p(v, p, owner)
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
}

func (d *decoder) podTemplate(n *yaml.Node, path string, t *api.PodTemplateSpec) {
	d.record(path, n)
	kvs, _ := d.fields(n, path, "DaemonSetSpec", "v1.PodTemplateSpec")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "metadata":
			d.objectMeta(v, p, &t.ObjectMeta)
		case "spec":
			d.podSpec(v, p, &t.Spec)
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
}

func (d *decoder) podSpec(n *yaml.Node, path string, s *api.PodSpec) {
	const owner = "PodSpec"
	d.record(path, n)
	kvs, _ := d.fields(n, path, "PodTemplateSpec", "v1.PodSpec")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "volumes":
			d.list(v, p, owner, "[]v1.Volume", func(i int, n *yaml.Node, ip string) {
				vol := api.Volume{}
				d.record(ip, n)
				vkvs, _ := d.fields(n, ip, owner, "v1.Volume")
				for _, vkv := range vkvs {
					vk, vv := vkv[0].Value, vkv[1]
					vp := join(ip, vk)
					if vk == "name" {
						vol.Name = d.str(vv, vp, "Volume")
						continue
					}
					d.record(vp, vv)
					if vol.Source == nil {
						vol.Source = map[string]any{}
					}
					vol.Source[vk] = d.toAny(vv)
				}
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
		case "priorityClassName":
			s.PriorityClassName = d.str(v, p, owner)
		case "priority":
			s.Priority = d.int32p(v, p, owner)
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
}

func (d *decoder) toleration(n *yaml.Node, path string) api.Toleration {
	const owner = "Toleration"
	var t api.Toleration
	d.record(path, n)
	kvs, _ := d.fields(n, path, "PodSpec", "v1.Toleration")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
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
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
	return t
}

func (d *decoder) container(n *yaml.Node, path string) api.Container {
	const owner = "Container"
	var c api.Container
	d.record(path, n)
	kvs, _ := d.fields(n, path, "PodSpec", "v1.Container")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
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
				d.record(ip, n)
				pkvs, _ := d.fields(n, ip, owner, "v1.ContainerPort")
				for _, pkv := range pkvs {
					pk, pv := pkv[0].Value, pkv[1]
					pp := join(ip, pk)
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
						d.record(pp, pv)
						d.keep(ip, pk, pv)
					}
				}
				c.Ports = append(c.Ports, cp)
			})
		case "env":
			d.list(v, p, owner, "[]v1.EnvVar", func(i int, n *yaml.Node, ip string) {
				var e api.EnvVar
				d.record(ip, n)
				ekvs, _ := d.fields(n, ip, owner, "v1.EnvVar")
				for _, ekv := range ekvs {
					ek, ev := ekv[0].Value, ekv[1]
					ep := join(ip, ek)
					switch ek {
					case "name":
						e.Name = d.str(ev, ep, "EnvVar")
					case "value":
						e.Value = d.str(ev, ep, "EnvVar")
					case "valueFrom":
						e.ValueFrom = d.anyMap(ev, ep, "EnvVar")
					default:
						d.record(ep, ev)
						d.keep(ip, ek, ev)
					}
				}
				c.Env = append(c.Env, e)
			})
		case "resources":
			d.record(p, v)
			rkvs, _ := d.fields(v, p, owner, "v1.ResourceRequirements")
			for _, rkv := range rkvs {
				rk, rv := rkv[0].Value, rkv[1]
				rp := join(p, rk)
				switch rk {
				case "limits":
					c.Resources.Limits = d.quantities(rv, rp, "ResourceRequirements")
				case "requests":
					c.Resources.Requests = d.quantities(rv, rp, "ResourceRequirements")
				default:
					d.record(rp, rv)
					d.keep(p, rk, rv)
				}
			}
		case "volumeMounts":
			d.list(v, p, owner, "[]v1.VolumeMount", func(i int, n *yaml.Node, ip string) {
				var m api.VolumeMount
				d.record(ip, n)
				mkvs, _ := d.fields(n, ip, owner, "v1.VolumeMount")
				for _, mkv := range mkvs {
					mk, mv := mkv[0].Value, mkv[1]
					mp := join(ip, mk)
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
						d.record(mp, mv)
						d.keep(ip, mk, mv)
					}
				}
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
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
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
	kvs, ok := d.fields(n, path, "Container", "v1.Probe")
	if !ok {
		return nil
	}
	pr := &api.Probe{}
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
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
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
	return pr
}

func (d *decoder) affinity(n *yaml.Node, path string) *api.Affinity {
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	kvs, ok := d.fields(n, path, "PodSpec", "v1.Affinity")
	if !ok {
		return nil
	}
	a := &api.Affinity{}
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "nodeAffinity":
			a.NodeAffinity = d.nodeAffinity(v, p)
		case "podAffinity":
			a.PodAffinity = d.anyMap(v, p, "Affinity")
		case "podAntiAffinity":
			a.PodAntiAffinity = d.anyMap(v, p, "Affinity")
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
	return a
}

func (d *decoder) nodeAffinity(n *yaml.Node, path string) *api.NodeAffinity {
	const owner = "NodeAffinity"
	d.record(path, n)
	if n.Kind == yaml.ScalarNode && scalarKind(n) == "null" {
		return nil
	}
	kvs, ok := d.fields(n, path, "Affinity", "v1.NodeAffinity")
	if !ok {
		return nil
	}
	na := &api.NodeAffinity{}
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "requiredDuringSchedulingIgnoredDuringExecution":
			d.record(p, v)
			if v.Kind == yaml.ScalarNode && scalarKind(v) == "null" {
				continue
			}
			ns := &api.NodeSelector{}
			skvs, ok := d.fields(v, p, owner, "v1.NodeSelector")
			if !ok {
				continue
			}
			for _, skv := range skvs {
				sk, sv := skv[0].Value, skv[1]
				sp := join(p, sk)
				if sk != "nodeSelectorTerms" {
					d.record(sp, sv)
					d.keep(p, sk, sv)
					continue
				}
				d.list(sv, sp, "NodeSelector", "[]v1.NodeSelectorTerm", func(i int, n *yaml.Node, ip string) {
					ns.NodeSelectorTerms = append(ns.NodeSelectorTerms, d.nodeSelectorTerm(n, ip))
				})
			}
			na.RequiredDuringSchedulingIgnoredDuringExecution = ns
		case "preferredDuringSchedulingIgnoredDuringExecution":
			d.list(v, p, owner, "[]v1.PreferredSchedulingTerm", func(i int, n *yaml.Node, ip string) {
				var t api.PreferredSchedulingTerm
				d.record(ip, n)
				tkvs, _ := d.fields(n, ip, owner, "v1.PreferredSchedulingTerm")
				for _, tkv := range tkvs {
					tk, tv := tkv[0].Value, tkv[1]
					tp := join(ip, tk)
					switch tk {
					case "weight":
						t.Weight = d.int32v(tv, tp, "PreferredSchedulingTerm")
					case "preference":
						t.Preference = d.nodeSelectorTerm(tv, tp)
					default:
						d.record(tp, tv)
						d.keep(ip, tk, tv)
					}
				}
				na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution, t)
			})
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
	return na
}

func (d *decoder) nodeSelectorTerm(n *yaml.Node, path string) api.NodeSelectorTerm {
	const owner = "NodeSelectorTerm"
	var t api.NodeSelectorTerm
	d.record(path, n)
	kvs, _ := d.fields(n, path, "NodeSelector", "v1.NodeSelectorTerm")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "matchExpressions", "matchFields":
			var rs []api.NodeSelectorRequirement
			d.list(v, p, owner, "[]v1.NodeSelectorRequirement", func(i int, n *yaml.Node, ip string) {
				var r api.NodeSelectorRequirement
				d.record(ip, n)
				rkvs, _ := d.fields(n, ip, owner, "v1.NodeSelectorRequirement")
				for _, rkv := range rkvs {
					rk, rv := rkv[0].Value, rkv[1]
					rp := join(ip, rk)
					switch rk {
					case "key":
						r.Key = d.str(rv, rp, "NodeSelectorRequirement")
					case "operator":
						r.Operator = d.str(rv, rp, "NodeSelectorRequirement")
					case "values":
						r.Values = d.strings(rv, rp, "NodeSelectorRequirement")
					default:
						d.record(rp, rv)
						d.keep(ip, rk, rv)
					}
				}
				rs = append(rs, r)
			})
			if k == "matchExpressions" {
				t.MatchExpressions = rs
			} else {
				t.MatchFields = rs
			}
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
	return t
}

func (d *decoder) nodeSpec(n *yaml.Node, path string, s *api.NodeSpec) {
	const owner = "NodeSpec"
	d.record(path, n)
	kvs, _ := d.fields(n, path, "Node", "v1.NodeSpec")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "podCIDR":
			s.PodCIDR = d.str(v, p, owner)
		case "unschedulable":
			s.Unschedulable = d.boolean(v, p, owner)
		case "taints":
			d.list(v, p, owner, "[]v1.Taint", func(i int, n *yaml.Node, ip string) {
				var t api.Taint
				d.record(ip, n)
				tkvs, _ := d.fields(n, ip, owner, "v1.Taint")
				for _, tkv := range tkvs {
					tk, tv := tkv[0].Value, tkv[1]
					tp := join(ip, tk)
					switch tk {
					case "key":
						t.Key = d.str(tv, tp, "Taint")
					case "value":
						t.Value = d.str(tv, tp, "Taint")
					case "effect":
						t.Effect = d.str(tv, tp, "Taint")
					default: // timeAdded is set by the server
						d.record(tp, tv)
						d.keep(ip, tk, tv)
					}
				}
				s.Taints = append(s.Taints, t)
			})
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
}

// nodeStatus keeps status.capacity and status.allocatable (so a Node
// manifest can size the simulated node); the rest is kept as written.
func (d *decoder) nodeStatus(n *yaml.Node, path string, s *api.NodeStatus) {
	d.record(path, n)
	kvs, _ := d.fields(n, path, "Node", "v1.NodeStatus")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "capacity":
			s.Capacity = d.quantities(v, p, "NodeStatus")
		case "allocatable":
			s.Allocatable = d.quantities(v, p, "NodeStatus")
		case "conditions", "addresses", "nodeInfo", "images", "daemonEndpoints", "volumesInUse", "volumesAttached", "phase":
			// reported by the (simulated) kubelet, not taken from a manifest
			d.record(p, v)
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
}

// namespaceSpec decodes a Namespace's spec (finalizers; the server sets
// them anyway).
func (d *decoder) namespaceSpec(n *yaml.Node, path string, s *api.NamespaceSpec) {
	const owner = "NamespaceSpec"
	d.record(path, n)
	kvs, _ := d.fields(n, path, "Namespace", "v1.NamespaceSpec")
	for _, kv := range kvs {
		k, v := kv[0].Value, kv[1]
		p := join(path, k)
		switch k {
		case "finalizers":
			s.Finalizers = d.strings(v, p, owner)
		default:
			d.record(p, v)
			d.keep(path, k, v)
		}
	}
}
