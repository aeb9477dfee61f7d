package manifest

// schema describes the field names of the simulated kinds, for the hints
// that repair copy-paste damage (lost line breaks, lost indentation). Each
// type maps a field name to its type: another entry of schema, "[]T" for a
// list of T, "map" for a free-form string map (labels), "resources" for a
// ResourceList, "any" for a value kept as written, "" for a scalar.
var schema = map[string]map[string]string{
	"DaemonSet":     {"apiVersion": "", "kind": "", "metadata": "ObjectMeta", "spec": "DaemonSetSpec", "status": "any"},
	"Pod":           {"apiVersion": "", "kind": "", "metadata": "ObjectMeta", "spec": "PodSpec", "status": "any"},
	"Node":          {"apiVersion": "", "kind": "", "metadata": "ObjectMeta", "spec": "NodeSpec", "status": "any"},
	"Namespace":     {"apiVersion": "", "kind": "", "metadata": "ObjectMeta", "spec": "NamespaceSpec", "status": "any"},
	"NamespaceSpec": {"finalizers": ""},
	"ObjectMeta": {"name": "", "generateName": "", "namespace": "", "labels": "map", "annotations": "map",
		"finalizers": "", "uid": "", "resourceVersion": "", "creationTimestamp": "", "generation": ""},
	"DaemonSetSpec": {"selector": "LabelSelector", "template": "PodTemplateSpec", "updateStrategy": "DaemonSetUpdateStrategy",
		"minReadySeconds": "", "revisionHistoryLimit": ""},
	"LabelSelector":           {"matchLabels": "map", "matchExpressions": "[]Requirement"},
	"Requirement":             {"key": "", "operator": "", "values": ""},
	"DaemonSetUpdateStrategy": {"type": "", "rollingUpdate": "RollingUpdateDaemonSet"},
	"RollingUpdateDaemonSet":  {"maxUnavailable": "", "maxSurge": ""},
	"PodTemplateSpec":         {"metadata": "ObjectMeta", "spec": "PodSpec"},
	"PodSpec": {"volumes": "[]Volume", "initContainers": "[]Container", "containers": "[]Container",
		"restartPolicy": "", "terminationGracePeriodSeconds": "", "activeDeadlineSeconds": "", "dnsPolicy": "",
		"nodeSelector": "map", "serviceAccountName": "", "serviceAccount": "", "nodeName": "", "hostNetwork": "",
		"hostPID": "", "hostIPC": "", "affinity": "Affinity", "schedulerName": "", "tolerations": "[]Toleration",
		"priorityClassName": "", "priority": "", "securityContext": "any", "imagePullSecrets": "any"},
	"Container": {"name": "", "image": "", "command": "", "args": "", "ports": "[]ContainerPort", "env": "[]EnvVar",
		"resources": "ResourceRequirements", "volumeMounts": "[]VolumeMount", "readinessProbe": "any",
		"livenessProbe": "any", "startupProbe": "any", "imagePullPolicy": "", "restartPolicy": "",
		"securityContext": "any", "workingDir": "", "envFrom": "any"},
	"ContainerPort":        {"name": "", "hostPort": "", "containerPort": "", "protocol": "", "hostIP": ""},
	"EnvVar":               {"name": "", "value": "", "valueFrom": "any"},
	"ResourceRequirements": {"limits": "resources", "requests": "resources"},
	"VolumeMount":          {"name": "", "readOnly": "", "mountPath": "", "subPath": ""},
	"Volume": {"name": "", "hostPath": "HostPath", "configMap": "any", "secret": "any", "emptyDir": "any",
		"persistentVolumeClaim": "any", "projected": "any", "downwardAPI": "any"},
	"HostPath":                {"path": "", "type": ""},
	"Toleration":              {"key": "", "operator": "", "value": "", "effect": "", "tolerationSeconds": ""},
	"Affinity":                {"nodeAffinity": "NodeAffinity", "podAffinity": "any", "podAntiAffinity": "any"},
	"NodeAffinity":            {"requiredDuringSchedulingIgnoredDuringExecution": "NodeSelector", "preferredDuringSchedulingIgnoredDuringExecution": "[]PreferredSchedulingTerm"},
	"NodeSelector":            {"nodeSelectorTerms": "[]NodeSelectorTerm"},
	"NodeSelectorTerm":        {"matchExpressions": "[]Requirement", "matchFields": "[]Requirement"},
	"PreferredSchedulingTerm": {"weight": "", "preference": "NodeSelectorTerm"},
	"NodeSpec":                {"podCIDR": "", "unschedulable": "", "taints": "[]Taint"},
	"Taint":                   {"key": "", "value": "", "effect": "", "timeAdded": ""},
}

// resourceNames are the usual keys of a ResourceList: the only free-form map
// whose next key can be recognised when line breaks are lost.
var resourceNames = []string{"cpu", "memory", "ephemeral-storage", "storage", "pods", "nvidia.com/gpu"}
