package cluster

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// KubernetesVersion is the one release the simulated cluster runs: the API
// server's /version (kubectl version's Server Version), kubectl's own
// client version and every kubelet's status.nodeInfo.kubeletVersion (the
// kubelet reports its build's version.Get().String(), nodestatus
// VersionInfo). It is the release of the real control plane the
// playground is checked against (../shared/tools/realk8s: v1.37.2).
const KubernetesVersion = "v1.37.2"

// ControllerManagedAttachAnnotation is the annotation a kubelet sets on
// its Node when the attach/detach controller is to attach and detach the
// node's volumes (pkg/volume/util ControllerManagedAttachAnnotation; the
// kubelet's initialNode, and reconcileCMADAnnotationWithExistingNode for a
// Node that already exists).
const ControllerManagedAttachAnnotation = "volumes.kubernetes.io/controller-managed-attach-detach"

// NodeOptions describe a node joining the simulated cluster.
type NodeOptions struct {
	// Labels are added to the kubelet's own labels.
	Labels map[string]string
	// Taints are set on the node at registration.
	Taints []api.Taint
	// ControlPlane adds the kubeadm control-plane label and NoSchedule taint.
	ControlPlane bool
	// CPU and Memory are the node's capacity as quantities ("2", "4Gi");
	// empty means 2 CPUs and 4Gi. Pods defaults to 110.
	CPU, Memory, Pods string
}

// Validate checks a node joining as name with o as the API server checks
// the Node its kubelet registers (ValidateNode): the name a DNS-1123
// subdomain, quantities as resource.ParseQuantity takes them, label keys
// qualified names and values label values, taint keys qualified names,
// values label values and effects NoSchedule, PreferNoSchedule or
// NoExecute. The error names the field, as `spec.taints[0].effect:
// Unsupported value: "X"`; nil when all is well. NewNode panics on a bad
// quantity: callers that take options from outside (a share link, a hook)
// validate first (Simulation.AddNode does).
func (o NodeOptions) Validate(name string) error {
	if errs := api.IsDNS1123Subdomain(name); len(errs) > 0 {
		return fmt.Errorf("metadata.name: Invalid value: %q: %s", name, strings.Join(errs, "; "))
	}
	for _, q := range []struct{ field, v string }{{"cpu", o.CPU}, {"memory", o.Memory}, {"pods", o.Pods}} {
		if q.v == "" {
			continue
		}
		if _, err := api.ParseQuantity(q.v); err != nil {
			return fmt.Errorf("status.capacity.%s: Invalid value: %q: %v", q.field, q.v, err)
		}
	}
	for k, v := range o.Labels {
		if errs := api.IsQualifiedName(k); len(errs) > 0 {
			return fmt.Errorf("metadata.labels: Invalid value: %q: %s", k, strings.Join(errs, "; "))
		}
		if errs := api.IsValidLabelValue(v); len(errs) > 0 {
			return fmt.Errorf("metadata.labels: Invalid value: %q: %s", v, strings.Join(errs, "; "))
		}
	}
	for i, t := range o.Taints {
		if errs := api.IsQualifiedName(t.Key); len(errs) > 0 {
			return fmt.Errorf("spec.taints[%d].key: Invalid value: %q: %s", i, t.Key, strings.Join(errs, "; "))
		}
		if errs := api.IsValidLabelValue(t.Value); len(errs) > 0 {
			return fmt.Errorf("spec.taints[%d].value: Invalid value: %q: %s", i, t.Value, strings.Join(errs, "; "))
		}
		switch t.Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
		default:
			return fmt.Errorf("spec.taints[%d].effect: Unsupported value: %q: supported values: \"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"", i, t.Effect)
		}
	}
	return nil
}

// NewNode builds a registered, Ready node the way a kubelet registers one:
// the kubernetes.io/hostname, os and arch labels (and their deprecated beta
// forms), the controller-managed-attach-detach annotation, capacity and allocatable, Ready and pressure conditions, an
// InternalIP, node info, and a pod CIDR. index numbers the node (0, 1, 2 ...)
// and picks its addresses. Timestamps are the store's current virtual time.
func (c *Cluster) NewNode(name string, index int, o NodeOptions) *api.Node {
	labels := map[string]string{
		api.LabelHostname: name,
		api.LabelOS:       "linux",
		api.LabelArch:     "amd64",
		api.LabelOSBeta:   "linux",
		api.LabelArchBeta: "amd64",
	}
	var taints []api.Taint
	if o.ControlPlane {
		labels[api.LabelControlPlane] = ""
		labels["node.kubernetes.io/exclude-from-external-load-balancers"] = ""
		taints = append(taints, api.Taint{Key: api.LabelControlPlane, Effect: api.TaintEffectNoSchedule})
	}
	for k, v := range o.Labels {
		labels[k] = v
	}
	taints = append(taints, o.Taints...)
	cpu, mem, pods := o.CPU, o.Memory, o.Pods
	if cpu == "" {
		cpu = "2"
	}
	if mem == "" {
		mem = "4Gi"
	}
	if pods == "" {
		pods = "110"
	}
	// the kubelet's setters (nodestatus MachineInfo) also report the
	// node's ephemeral storage and its (here empty) huge page pools
	rl := api.ResourceList{
		api.ResourceCPU:     api.MustParseQuantity(cpu),
		api.ResourceMemory:  api.MustParseQuantity(mem),
		api.ResourcePods:    api.MustParseQuantity(pods),
		"ephemeral-storage": api.MustParseQuantity("102350Mi"),
		"hugepages-1Gi":     api.MustParseQuantity("0"),
		"hugepages-2Mi":     api.MustParseQuantity("0"),
	}
	alloc := api.ResourceList{}
	for k, v := range rl {
		alloc[k] = v
	}
	conds := HealthyNodeConditions()
	for i := range conds {
		conds[i].LastHeartbeatTime, conds[i].LastTransitionTime = c.stamp(), c.stamp()
	}
	return &api.Node{
		// the kubelet's initialNode: with --enable-controller-attach-detach
		// (the default) it asks the attach/detach controller to manage the
		// node's volumes (volumeutil.ControllerManagedAttachAnnotation)
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels, Annotations: map[string]string{
			ControllerManagedAttachAnnotation: "true",
		}},
		Spec: api.NodeSpec{PodCIDR: PodCIDR(index), Taints: taints},
		Status: api.NodeStatus{
			Capacity:    rl,
			Allocatable: alloc,
			Conditions:  conds,
			Addresses: []api.NodeAddress{
				{Type: "InternalIP", Address: "172.18." + strconv.Itoa(index/250) + "." + strconv.Itoa(index%250+2)},
				{Type: "Hostname", Address: name},
			},
			NodeInfo: api.NodeSystemInfo{
				KubeletVersion:          KubernetesVersion,
				OSImage:                 "Debian GNU/Linux 12 (bookworm)",
				KernelVersion:           "6.1.0-28-amd64",
				ContainerRuntimeVersion: "containerd://2.1.4",
				OperatingSystem:         "linux",
				Architecture:            "amd64",
			},
		},
	}
}

// HealthyNodeConditions returns, in the kubelet's order, the conditions a
// working kubelet posts for a healthy node (the node status setters
// MemoryPressureCondition, DiskPressureCondition, PIDPressureCondition and
// ReadyCondition): the pressure conditions False and Ready True, with the
// kubelet's reasons and messages. The times are left zero for the caller.
func HealthyNodeConditions() []api.NodeCondition {
	return []api.NodeCondition{
		{Type: api.NodeMemoryPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"},
		{Type: api.NodeDiskPressure, Status: api.ConditionFalse, Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"},
		{Type: api.NodePIDPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available"},
		{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"},
	}
}

// PodCIDR is the /24 of pod addresses the node IPAM controller gives the
// node numbered index. The simulated cluster CIDR is 10.224.0.0/11 (8,192
// node subnets, enough for the 5,000-node clusters learners try); the
// first 2,816 nodes get 10.244.0.0/24, 10.244.1.0/24 ... as on a kind or
// kubeadm cluster with the usual 10.244.0.0/16, the rest wrap to
// 10.224.0.0/24 onwards.
func PodCIDR(index int) string {
	k := (index + 20*256) % 8192
	return "10." + strconv.Itoa(224+k/256) + "." + strconv.Itoa(k%256) + ".0/24"
}

// AddDefaultNodes registers the default cluster of the playground:
// control-plane (labelled and tainted node-role.kubernetes.io/control-plane),
// node-1 and node-2 (DESIGN.md contract 4).
func (c *Cluster) AddDefaultNodes() {
	for i, name := range []string{"control-plane", "node-1", "node-2"} {
		n := c.NewNode(name, i, NodeOptions{ControlPlane: i == 0})
		if err := c.CreateNode(n); err != nil {
			panic(err) // cannot happen on a fresh store
		}
	}
}
