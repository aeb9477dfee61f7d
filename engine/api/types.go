// Package api is the object model of the simulated cluster: the parts of
// Kubernetes' core/v1 and apps/v1 types that the DaemonSet playground
// simulates (k8s.io/api/core/v1 and k8s.io/api/apps/v1, read at v0.37).
//
// Field names and JSON tags follow the upstream types so that printers can
// render objects as the API server would. Timestamps are virtual time from
// the simulation clock (see engine/cluster), never wall-clock time.
//
// The package imports nothing outside the standard library: it is shared by
// the engine, the browser build and the command-line tools.
package api

import (
	"strings"
	"time"
)

// Well-known label, annotation and taint keys used by the controllers.
const (
	// LabelHostname is set by the kubelet on every node: kubernetes.io/hostname=<node name>.
	LabelHostname = "kubernetes.io/hostname"
	// LabelOS and LabelArch are set by the kubelet (kubernetes.io/os=linux, kubernetes.io/arch=amd64).
	LabelOS   = "kubernetes.io/os"
	LabelArch = "kubernetes.io/arch"
	// LabelOSBeta and LabelArchBeta are the deprecated forms real manifests still select on.
	LabelOSBeta   = "beta.kubernetes.io/os"
	LabelArchBeta = "beta.kubernetes.io/arch"
	// LabelNodeRolePrefix prefixes role labels (node-role.kubernetes.io/control-plane="").
	LabelNodeRolePrefix = "node-role.kubernetes.io/"
	// LabelControlPlane marks control-plane nodes; kubeadm taints them with the same key.
	LabelControlPlane = "node-role.kubernetes.io/control-plane"

	// DefaultDaemonSetUniqueLabelKey is the pod label carrying the ControllerRevision hash
	// (apps/v1 ControllerRevisionHashLabelKey).
	ControllerRevisionHashLabelKey = "controller-revision-hash"
	// DaemonSetTemplateGenerationKey is the pod label carrying the template generation.
	DaemonSetTemplateGenerationKey = "pod-template-generation"
	// DeprecatedTemplateGenerationAnnotation is kept on every apps/v1 DaemonSet
	// (1 at create, +1 on every template change).
	DeprecatedTemplateGenerationAnnotation = "deprecated.daemonset.template.generation"
	// ChangeCauseAnnotation is copied to ControllerRevisions and shown by rollout history.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
	// LastAppliedConfigAnnotation is written by kubectl apply.
	LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

	// Taints the node lifecycle controller manages (k8s.io/api/core/v1 well_known_taints.go).
	TaintNodeNotReady           = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable        = "node.kubernetes.io/unreachable"
	TaintNodeUnschedulable      = "node.kubernetes.io/unschedulable"
	TaintNodeMemoryPressure     = "node.kubernetes.io/memory-pressure"
	TaintNodeDiskPressure       = "node.kubernetes.io/disk-pressure"
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
	TaintNodePIDPressure        = "node.kubernetes.io/pid-pressure"
	// TaintNodeOutOfService is the taint an administrator puts on a node
	// that is shut down for good (core/v1 TaintNodeOutOfService, non-graceful
	// node shutdown): pods stuck terminating there are force-deleted by the
	// pod GC (upstream pkg/controller/podgc/gc_controller.go gcTerminating).
	TaintNodeOutOfService = "node.kubernetes.io/out-of-service"

	// Deletion propagation finalizers (metav1.FinalizerOrphanDependents,
	// metav1.FinalizerDeleteDependents), handled by the garbage collector.
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"

	// DefaultNamespace is where namespaced objects land when metadata.namespace is empty.
	DefaultNamespace = "default"
	// DefaultSchedulerName is the scheduler that binds pods with an empty spec.schedulerName.
	DefaultSchedulerName = "default-scheduler"
)

// Taint effects (core/v1 TaintEffect).
const (
	TaintEffectNoSchedule       = "NoSchedule"
	TaintEffectPreferNoSchedule = "PreferNoSchedule"
	TaintEffectNoExecute        = "NoExecute"
)

// Toleration operators (core/v1 TolerationOperator).
const (
	TolerationOpExists = "Exists"
	TolerationOpEqual  = "Equal"
)

// Pod phases (core/v1 PodPhase).
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
	PodUnknown   = "Unknown"
)

// Condition types and statuses used on pods and nodes.
const (
	PodScheduled    = "PodScheduled"
	PodInitialized  = "Initialized"
	ContainersReady = "ContainersReady"
	PodReady        = "Ready"
	// DisruptionTarget is the pod condition set on pods about to be deleted
	// by a controller or evicted by the kubelet (core/v1 DisruptionTarget).
	DisruptionTarget = "DisruptionTarget"

	NodeReady              = "Ready"
	NodeMemoryPressure     = "MemoryPressure"
	NodeDiskPressure       = "DiskPressure"
	NodePIDPressure        = "PIDPressure"
	NodeNetworkUnavailable = "NetworkUnavailable"

	ConditionTrue    = "True"
	ConditionFalse   = "False"
	ConditionUnknown = "Unknown"
)

// DaemonSet update strategy types (apps/v1 DaemonSetUpdateStrategyType).
const (
	RollingUpdateDaemonSetStrategyType = "RollingUpdate"
	OnDeleteDaemonSetStrategyType      = "OnDelete"
)

// Resource names (core/v1 ResourceName) the scheduler fits.
const (
	ResourceCPU    = "cpu"
	ResourceMemory = "memory"
	ResourcePods   = "pods"
)

// TypeMeta is apiVersion and kind as written in a manifest.
type TypeMeta struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
}

// ObjectMeta mirrors metav1.ObjectMeta. ResourceVersion is a decimal counter
// kept by the store; timestamps are virtual time.
type ObjectMeta struct {
	Name                       string            `json:"name,omitempty"`
	GenerateName               string            `json:"generateName,omitempty"`
	Namespace                  string            `json:"namespace,omitempty"`
	UID                        string            `json:"uid,omitempty"`
	ResourceVersion            string            `json:"resourceVersion,omitempty"`
	Generation                 int64             `json:"generation,omitempty"`
	CreationTimestamp          time.Time         `json:"creationTimestamp"`
	DeletionTimestamp          *time.Time        `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64            `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string `json:"labels,omitempty"`
	Annotations                map[string]string `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference  `json:"ownerReferences,omitempty"`
	Finalizers                 []string          `json:"finalizers,omitempty"`
}

// OwnerReference mirrors metav1.OwnerReference.
type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

// GetObjectMeta returns the object's metadata (metav1.Object's accessor),
// so code can handle any API object through its embedded ObjectMeta.
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta { return m }

// ControllerRef returns the owner reference with controller=true, or nil
// (metav1.GetControllerOf).
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if r := &m.OwnerReferences[i]; r.Controller != nil && *r.Controller {
			return r
		}
	}
	return nil
}

// RemoveOwnerReference drops the owner references to uid (what the
// controller's release and the garbage collector's orphaning do), leaving
// nil rather than an empty list.
func (m *ObjectMeta) RemoveOwnerReference(uid string) {
	out := m.OwnerReferences[:0]
	for _, r := range m.OwnerReferences {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		out = nil
	}
	m.OwnerReferences = out
}

// Unmodeled holds the fields of a manifest that the engine does not simulate,
// as decoded generic YAML (map[string]any, []any, string, int, float64, bool,
// nil), keyed by the dotted field path of the map that held them (for example
// "spec.template.spec" -> {"dnsPolicy": "ClusterFirst"}). They are kept so
// that `kubectl get -o yaml` can show the object as written.
type Unmodeled map[string]map[string]any

// Node mirrors core/v1 Node.
type Node struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       NodeSpec   `json:"spec"`
	Status     NodeStatus `json:"status"`
	Extra      Unmodeled  `json:"-"`
}

// NodeSpec mirrors core/v1 NodeSpec.
type NodeSpec struct {
	PodCIDR       string  `json:"podCIDR,omitempty"`
	Unschedulable bool    `json:"unschedulable,omitempty"`
	Taints        []Taint `json:"taints,omitempty"`
}

// NodeStatus mirrors core/v1 NodeStatus.
type NodeStatus struct {
	Capacity    ResourceList     `json:"capacity,omitempty"`
	Allocatable ResourceList     `json:"allocatable,omitempty"`
	Conditions  []NodeCondition  `json:"conditions,omitempty"`
	Addresses   []NodeAddress    `json:"addresses,omitempty"`
	NodeInfo    NodeSystemInfo   `json:"nodeInfo"`
	Images      []ContainerImage `json:"images,omitempty"`
}

// NodeCondition mirrors core/v1 NodeCondition.
type NodeCondition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	LastHeartbeatTime  time.Time `json:"lastHeartbeatTime"`
	LastTransitionTime time.Time `json:"lastTransitionTime"`
	Reason             string    `json:"reason,omitempty"`
	Message            string    `json:"message,omitempty"`
}

// NodeAddress mirrors core/v1 NodeAddress (Type is InternalIP, Hostname, ...).
type NodeAddress struct {
	Type    string `json:"type"`
	Address string `json:"address"`
}

// NodeSystemInfo mirrors the parts of core/v1 NodeSystemInfo kubectl prints.
type NodeSystemInfo struct {
	KubeletVersion          string `json:"kubeletVersion"`
	OSImage                 string `json:"osImage"`
	KernelVersion           string `json:"kernelVersion"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion"`
	OperatingSystem         string `json:"operatingSystem"`
	Architecture            string `json:"architecture"`
}

// ContainerImage mirrors core/v1 ContainerImage: an image present on a node.
type ContainerImage struct {
	Names     []string `json:"names"`
	SizeBytes int64    `json:"sizeBytes,omitempty"`
}

// Condition returns the node condition of the given type, or nil.
func (n *Node) Condition(t string) *NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

// Taint mirrors core/v1 Taint.
type Taint struct {
	Key       string     `json:"key"`
	Value     string     `json:"value,omitempty"`
	Effect    string     `json:"effect"`
	TimeAdded *time.Time `json:"timeAdded,omitempty"`
}

// Toleration mirrors core/v1 Toleration. TolerationSeconds is in seconds and
// only matters for NoExecute taints.
type Toleration struct {
	Key               string `json:"key,omitempty"`
	Operator          string `json:"operator,omitempty"`
	Value             string `json:"value,omitempty"`
	Effect            string `json:"effect,omitempty"`
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// Pod mirrors core/v1 Pod.
type Pod struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       PodSpec   `json:"spec"`
	Status     PodStatus `json:"status"`
	Extra      Unmodeled `json:"-"`
}

// PodTemplateSpec mirrors core/v1 PodTemplateSpec.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata"`
	Spec       PodSpec `json:"spec"`
}

// PodSpec mirrors the simulated part of core/v1 PodSpec. Fields the engine
// does not model stay in the owning object's Extra.
type PodSpec struct {
	Volumes                       []Volume          `json:"volumes,omitempty"`
	InitContainers                []Container       `json:"initContainers,omitempty"`
	Containers                    []Container       `json:"containers"`
	RestartPolicy                 string            `json:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty"`
	ActiveDeadlineSeconds         *int64            `json:"activeDeadlineSeconds,omitempty"`
	DNSPolicy                     string            `json:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty"`
	ServiceAccountName            string            `json:"serviceAccountName,omitempty"`
	NodeName                      string            `json:"nodeName,omitempty"`
	HostNetwork                   bool              `json:"hostNetwork,omitempty"`
	HostPID                       bool              `json:"hostPID,omitempty"`
	Affinity                      *Affinity         `json:"affinity,omitempty"`
	SchedulerName                 string            `json:"schedulerName,omitempty"`
	Tolerations                   []Toleration      `json:"tolerations,omitempty"`
	// TopologySpreadConstraints mirrors core/v1 PodSpec.topologySpreadConstraints.
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	PriorityClassName         string                     `json:"priorityClassName,omitempty"`
	Priority                  *int32                     `json:"priority,omitempty"`
	// PreemptionPolicy is set by the Priority admission plugin from the
	// pod's PriorityClass ("PreemptLowerPriority" or "Never").
	PreemptionPolicy *string `json:"preemptionPolicy,omitempty"`
}

// Volume mirrors core/v1 Volume: the name plus the source as written
// (for example {"hostPath": {"path": "/var/log"}}).
type Volume struct {
	Name   string         `json:"name"`
	Source map[string]any `json:"-"`
}

// Container mirrors the simulated part of core/v1 Container.
type Container struct {
	Name            string               `json:"name"`
	Image           string               `json:"image,omitempty"`
	Command         []string             `json:"command,omitempty"`
	Args            []string             `json:"args,omitempty"`
	Ports           []ContainerPort      `json:"ports,omitempty"`
	Env             []EnvVar             `json:"env,omitempty"`
	Resources       ResourceRequirements `json:"resources"`
	VolumeMounts    []VolumeMount        `json:"volumeMounts,omitempty"`
	ReadinessProbe  *Probe               `json:"readinessProbe,omitempty"`
	LivenessProbe   *Probe               `json:"livenessProbe,omitempty"`
	ImagePullPolicy string               `json:"imagePullPolicy,omitempty"`
	RestartPolicy   string               `json:"restartPolicy,omitempty"`
}

// ContainerPort mirrors core/v1 ContainerPort.
type ContainerPort struct {
	Name          string `json:"name,omitempty"`
	HostPort      int32  `json:"hostPort,omitempty"`
	ContainerPort int32  `json:"containerPort"`
	Protocol      string `json:"protocol,omitempty"`
	HostIP        string `json:"hostIP,omitempty"`
}

// EnvVar mirrors core/v1 EnvVar; ValueFrom is kept as written.
type EnvVar struct {
	Name      string         `json:"name"`
	Value     string         `json:"value,omitempty"`
	ValueFrom map[string]any `json:"valueFrom,omitempty"`
}

// VolumeMount mirrors core/v1 VolumeMount.
type VolumeMount struct {
	Name      string `json:"name"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
	MountPath string `json:"mountPath"`
	SubPath   string `json:"subPath,omitempty"`
}

// Probe mirrors core/v1 Probe; the handler is kept as written. Times are seconds.
type Probe struct {
	Handler             map[string]any `json:"-"`
	InitialDelaySeconds int32          `json:"initialDelaySeconds,omitempty"`
	TimeoutSeconds      int32          `json:"timeoutSeconds,omitempty"`
	PeriodSeconds       int32          `json:"periodSeconds,omitempty"`
	SuccessThreshold    int32          `json:"successThreshold,omitempty"`
	FailureThreshold    int32          `json:"failureThreshold,omitempty"`
}

// ResourceRequirements mirrors core/v1 ResourceRequirements.
type ResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// Affinity mirrors core/v1 Affinity. The DaemonSet controller evaluates
// only the node affinity; the scheduler's InterPodAffinity filter
// evaluates the required pod (anti-)affinity terms.
type Affinity struct {
	NodeAffinity    *NodeAffinity    `json:"nodeAffinity,omitempty"`
	PodAffinity     *PodAffinity     `json:"podAffinity,omitempty"`
	PodAntiAffinity *PodAntiAffinity `json:"podAntiAffinity,omitempty"`
}

// PodAffinity mirrors core/v1 PodAffinity: the pod wants to run in a
// topology domain (nodes sharing a label value) holding pods matched by
// the terms. Required terms are ANDed; preferred terms only score.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAntiAffinity mirrors core/v1 PodAntiAffinity: the pod must not (or
// would rather not) run in a topology domain holding pods matched by a term.
type PodAntiAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm mirrors core/v1 PodAffinityTerm: the pods selected by
// LabelSelector (nil selects none) in Namespaces plus the namespaces
// selected by NamespaceSelector (both empty: the pod's own namespace),
// co-located per the node label TopologyKey. MatchLabelKeys and
// MismatchLabelKeys name pod labels whose values the API server ANDs into
// LabelSelector (In / NotIn) when the pod is created.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `json:"labelSelector,omitempty"`
	Namespaces        []string       `json:"namespaces,omitempty"`
	TopologyKey       string         `json:"topologyKey"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	MatchLabelKeys    []string       `json:"matchLabelKeys,omitempty"`
	MismatchLabelKeys []string       `json:"mismatchLabelKeys,omitempty"`
}

// WeightedPodAffinityTerm mirrors core/v1 WeightedPodAffinityTerm (weight 1-100).
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
}

// Topology spread values (core/v1 UnsatisfiableConstraintAction and
// NodeInclusionPolicy).
const (
	DoNotSchedule             = "DoNotSchedule"
	ScheduleAnyway            = "ScheduleAnyway"
	NodeInclusionPolicyHonor  = "Honor"
	NodeInclusionPolicyIgnore = "Ignore"
)

// TopologySpreadConstraint mirrors core/v1 TopologySpreadConstraint: pods
// matched by LabelSelector (in the pod's namespace) are spread over the
// values of the node label TopologyKey with at most MaxSkew difference.
// MinDomains (nil: 1) applies to DoNotSchedule only. NodeAffinityPolicy
// (nil: Honor) and NodeTaintsPolicy (nil: Ignore) say which nodes count.
type TopologySpreadConstraint struct {
	MaxSkew            int32          `json:"maxSkew"`
	TopologyKey        string         `json:"topologyKey"`
	WhenUnsatisfiable  string         `json:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector `json:"labelSelector,omitempty"`
	MinDomains         *int32         `json:"minDomains,omitempty"`
	NodeAffinityPolicy *string        `json:"nodeAffinityPolicy,omitempty"`
	NodeTaintsPolicy   *string        `json:"nodeTaintsPolicy,omitempty"`
	MatchLabelKeys     []string       `json:"matchLabelKeys,omitempty"`
}

// NodeAffinity mirrors core/v1 NodeAffinity.
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  *NodeSelector             `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []PreferredSchedulingTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector mirrors core/v1 NodeSelector: terms are ORed.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms"`
}

// NodeSelectorTerm mirrors core/v1 NodeSelectorTerm: requirements are ANDed.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty"`
}

// NodeSelectorRequirement mirrors core/v1 NodeSelectorRequirement
// (operators In, NotIn, Exists, DoesNotExist, Gt, Lt).
type NodeSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// PreferredSchedulingTerm mirrors core/v1 PreferredSchedulingTerm.
type PreferredSchedulingTerm struct {
	Weight     int32            `json:"weight"`
	Preference NodeSelectorTerm `json:"preference"`
}

// PodStatus mirrors core/v1 PodStatus.
type PodStatus struct {
	Phase             string            `json:"phase,omitempty"`
	Conditions        []PodCondition    `json:"conditions,omitempty"`
	Message           string            `json:"message,omitempty"`
	Reason            string            `json:"reason,omitempty"`
	NominatedNodeName string            `json:"nominatedNodeName,omitempty"`
	HostIP            string            `json:"hostIP,omitempty"`
	PodIP             string            `json:"podIP,omitempty"`
	StartTime         *time.Time        `json:"startTime,omitempty"`
	ContainerStatuses []ContainerStatus `json:"containerStatuses,omitempty"`
	// InitContainerStatuses are the statuses of spec.initContainers, in
	// order (the kubelet reports them only for pods with init containers).
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty"`
	QOSClass              string            `json:"qosClass,omitempty"`
	// ObservedGeneration is the metadata.generation of the pod the
	// kubelet last reported the status of (core/v1 v1.33+; status_manager
	// SetPodStatus: CalculatePodStatusObservedGeneration).
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// PodCondition mirrors core/v1 PodCondition.
type PodCondition struct {
	Type               string    `json:"type"`
	Status             string    `json:"status"`
	LastProbeTime      time.Time `json:"lastProbeTime"`
	LastTransitionTime time.Time `json:"lastTransitionTime"`
	Reason             string    `json:"reason,omitempty"`
	Message            string    `json:"message,omitempty"`
	// ObservedGeneration is the pod's metadata.generation when the
	// condition was set (core/v1 v1.33+).
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// ContainerStatus mirrors core/v1 ContainerStatus.
type ContainerStatus struct {
	Name         string         `json:"name"`
	State        ContainerState `json:"state"`
	LastState    ContainerState `json:"lastTerminationState"`
	Ready        bool           `json:"ready"`
	RestartCount int32          `json:"restartCount"`
	Image        string         `json:"image"`
	ImageID      string         `json:"imageID"`
	ContainerID  string         `json:"containerID,omitempty"`
	Started      *bool          `json:"started,omitempty"`
	// AllocatedResources and Resources are what the kubelet reports for a
	// container the runtime created (InPlacePodVerticalScaling,
	// convertToAPIContainerStatuses): its allocated requests, and the
	// resources it runs with ({} when it has none).
	AllocatedResources ResourceList          `json:"allocatedResources,omitempty"`
	Resources          *ResourceRequirements `json:"resources,omitempty"`
	// User is the identity the container's first process runs as, as
	// the runtime reports it once the container was created
	// (SupplementalGroupsPolicy, GA-bound since v1.33).
	User *ContainerUser `json:"user,omitempty"`
}

// ContainerUser mirrors core/v1 ContainerUser.
type ContainerUser struct {
	Linux *LinuxContainerUser `json:"linux,omitempty"`
}

// LinuxContainerUser mirrors core/v1 LinuxContainerUser: the uid and gid
// of the first process and its supplemental groups.
type LinuxContainerUser struct {
	UID                int64   `json:"uid"`
	GID                int64   `json:"gid"`
	SupplementalGroups []int64 `json:"supplementalGroups,omitempty"`
}

// ContainerState mirrors core/v1 ContainerState: at most one member is set.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty"`
}

// ContainerStateWaiting mirrors core/v1 ContainerStateWaiting (Reason such as
// ContainerCreating, ErrImagePull, CrashLoopBackOff).
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// ContainerStateRunning mirrors core/v1 ContainerStateRunning.
type ContainerStateRunning struct {
	StartedAt time.Time `json:"startedAt"`
}

// ContainerStateTerminated mirrors core/v1 ContainerStateTerminated.
type ContainerStateTerminated struct {
	ExitCode   int32     `json:"exitCode"`
	Signal     int32     `json:"signal,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Message    string    `json:"message,omitempty"`
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt"`
	// ContainerID is the runtime's ID of the container that ended.
	ContainerID string `json:"containerID,omitempty"`
}

// Condition returns the pod condition of the given type, or nil.
func (p *Pod) Condition(t string) *PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// SetCondition sets the pod condition typ to status, reason and msg, as
// pkg/api/v1/pod UpdatePodCondition does: an existing condition's
// lastTransitionTime moves to now only when its status changes; a missing
// condition is appended with lastTransitionTime now. The condition's
// observedGeneration is the pod's generation: every component that sets a
// pod condition in v1.37 (the kubelet's GeneratePod*Condition, the
// scheduler's handleSchedulingFailure and prepareCandidate, taint
// eviction, the pod GC) passes CalculatePodConditionObservedGeneration,
// which with PodObservedGenerationTracking on is pod.Generation.
func (p *Pod) SetCondition(typ, status, reason, msg string, now time.Time) {
	if c := p.Condition(typ); c != nil {
		if c.Status != status {
			c.LastTransitionTime = now
		}
		c.Status, c.Reason, c.Message = status, reason, msg
		c.ObservedGeneration = p.Generation
		return
	}
	p.Status.Conditions = append(p.Status.Conditions, PodCondition{Type: typ, Status: status, Reason: reason, Message: msg, LastTransitionTime: now,
		ObservedGeneration: p.Generation})
}

// PodPriority is the pod's spec.priority, 0 when unset
// (k8s.io/component-helpers/scheduling/corev1 PodPriority: a pod admitted
// before the Priority admission plugin resolved its class has none).
func PodPriority(p *Pod) int32 {
	if p.Spec.Priority != nil {
		return *p.Spec.Priority
	}
	return 0
}

// IsReady reports whether the pod's Ready condition is True (podutil.IsPodReady).
func (p *Pod) IsReady() bool {
	c := p.Condition(PodReady)
	return c != nil && c.Status == ConditionTrue
}

// IsAvailable reports whether the pod has been Ready for at least
// minReadySeconds at virtual time now (podutil.IsPodAvailable: Ready and
// either minReadySeconds == 0 or lastTransitionTime+minReadySeconds < now).
func (p *Pod) IsAvailable(minReadySeconds int32, now time.Time) bool {
	c := p.Condition(PodReady)
	if c == nil || c.Status != ConditionTrue {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	return c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second).Before(now)
}

// IsTerminal reports whether the pod is Succeeded or Failed.
func (p *Pod) IsTerminal() bool {
	return p.Status.Phase == PodSucceeded || p.Status.Phase == PodFailed
}

// DaemonSet mirrors apps/v1 DaemonSet.
type DaemonSet struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Spec       DaemonSetSpec   `json:"spec"`
	Status     DaemonSetStatus `json:"status"`
	Extra      Unmodeled       `json:"-"`
}

// DaemonSetSpec mirrors apps/v1 DaemonSetSpec. MinReadySeconds is seconds.
type DaemonSetSpec struct {
	Selector             *LabelSelector          `json:"selector"`
	Template             PodTemplateSpec         `json:"template"`
	UpdateStrategy       DaemonSetUpdateStrategy `json:"updateStrategy"`
	MinReadySeconds      int32                   `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit *int32                  `json:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategy mirrors apps/v1 DaemonSetUpdateStrategy.
type DaemonSetUpdateStrategy struct {
	Type          string                  `json:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet mirrors apps/v1 RollingUpdateDaemonSet.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus mirrors apps/v1 DaemonSetStatus.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32  `json:"currentNumberScheduled"`
	NumberMisscheduled     int32  `json:"numberMisscheduled"`
	DesiredNumberScheduled int32  `json:"desiredNumberScheduled"`
	NumberReady            int32  `json:"numberReady"`
	ObservedGeneration     int64  `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32  `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32  `json:"numberAvailable,omitempty"`
	NumberUnavailable      int32  `json:"numberUnavailable,omitempty"`
	CollisionCount         *int32 `json:"collisionCount,omitempty"`
}

// ControllerRevision mirrors apps/v1 ControllerRevision. Data is the JSON
// patch the DaemonSet controller stores (update.go getPatch).
type ControllerRevision struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata"`
	Data       string `json:"data"`
	Revision   int64  `json:"revision"`
}

// LabelSelector mirrors metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// LabelSelectorRequirement mirrors metav1.LabelSelectorRequirement
// (operators In, NotIn, Exists, DoesNotExist).
type LabelSelectorRequirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Event mirrors core/v1 Event as the client-go recorder writes it.
type Event struct {
	TypeMeta       `json:",inline"`
	ObjectMeta     `json:"metadata"`
	InvolvedObject ObjectReference `json:"involvedObject"`
	Reason         string          `json:"reason,omitempty"`
	Message        string          `json:"message,omitempty"`
	Source         EventSource     `json:"source"`
	FirstTimestamp time.Time       `json:"firstTimestamp"`
	LastTimestamp  time.Time       `json:"lastTimestamp"`
	Count          int32           `json:"count,omitempty"`
	Type           string          `json:"type,omitempty"`
}

// ObjectReference mirrors core/v1 ObjectReference.
type ObjectReference struct {
	Kind       string `json:"kind,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
	UID        string `json:"uid,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
	FieldPath  string `json:"fieldPath,omitempty"`
}

// EventSource mirrors core/v1 EventSource (Component such as daemonset-controller).
type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

// Event types.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// DefaultPullPolicy is the imagePullPolicy the API server defaults a
// container to (SetDefaults_Container): Always when the image has no tag or
// the tag "latest", IfNotPresent otherwise (and for images by digest).
func DefaultPullPolicy(image string) string {
	if strings.Contains(image, "@") {
		return "IfNotPresent"
	}
	name := image
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	tag := ""
	if i := strings.LastIndex(name, ":"); i >= 0 {
		tag = name[i+1:]
	}
	if tag == "" || tag == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// BoolPtr returns a pointer to b.
func BoolPtr(b bool) *bool { return &b }

// Int32Ptr returns a pointer to i.
func Int32Ptr(i int32) *int32 { return &i }

// Int64Ptr returns a pointer to i.
func Int64Ptr(i int64) *int64 { return &i }
