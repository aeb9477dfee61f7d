package schema

import (
	"os/exec"
	"strings"
	"testing"
)

func TestFieldAt(t *testing.T) {
	for _, c := range []struct {
		apiVersion, kind, path     string
		typ                        string
		required                   bool
		strategy, mergeKey, goType string
		descPrefix                 string
	}{
		{"apps/v1", "DaemonSet", "spec", "DaemonSetSpec", true, "", "", "v1.DaemonSetSpec", "The desired behavior of this daemon set."},
		{"apps/v1", "DaemonSet", "spec.selector", "LabelSelector", true, "", "", "v1.LabelSelector", "A label query over pods"},
		{"apps/v1", "DaemonSet", "spec.template.spec.containers", "[]Container", true, "merge", "name", "[]v1.Container", "List of containers"},
		{"apps/v1", "DaemonSet", "spec.template.spec.containers.ports", "[]ContainerPort", false, "merge", "containerPort", "[]v1.ContainerPort", "List of ports"},
		{"apps/v1", "DaemonSet", "spec.template.spec.volumes", "[]Volume", false, "merge,retainKeys", "name", "[]v1.Volume", "List of volumes"},
		{"apps/v1", "DaemonSet", "spec.updateStrategy.rollingUpdate.maxSurge", "IntOrString", false, "", "", "intstr.IntOrString", "The maximum number"},
		{"v1", "Pod", "spec.containers.resources.limits", "map[string]Quantity", false, "", "", "v1.ResourceList", "Limits describes"},
		{"v1", "Pod", "metadata.labels", "map[string]string", false, "", "", "map[string]string", "Map of string keys"},
		{"v1", "Pod", "metadata.creationTimestamp", "string", false, "", "", "v1.Time", "CreationTimestamp"},
		{"v1", "Pod", "spec.hostNetwork", "boolean", false, "", "", "bool", "Host networking"},
		{"v1", "Pod", "spec.priority", "integer", false, "", "", "int32", "The priority value"},
		{"v1", "Pod", "spec.volumes.hostPath.path", "string", true, "", "", "string", "path of the directory"},
		{"v1", "Node", "spec.taints", "[]Taint", false, "", "", "[]v1.Taint", "If specified, the node's taints."},
		{"v1", "Node", "spec.taints.effect", "string", true, "", "", "v1.TaintEffect", "Required. The effect"},
		{"apps/v1", "ControllerRevision", "data", "RawExtension", true, "", "", "runtime.RawExtension", "Data is the serialized"},
		{"scheduling.k8s.io/v1", "PriorityClass", "value", "integer", false, "", "", "int32", "value represents"},
	} {
		f, err := FieldAt(c.apiVersion, c.kind, strings.Split(c.path, "."))
		if err != nil {
			t.Errorf("%s %s: %v", c.kind, c.path, err)
			continue
		}
		if f.Type.Name != c.typ || f.Required != c.required || f.PatchStrategy != c.strategy ||
			f.PatchMergeKey != c.mergeKey || f.Type.Go != c.goType || !strings.HasPrefix(f.Description, c.descPrefix) {
			t.Errorf("%s %s = {%s required=%v %q %q %s %.40q}, want {%s %v %q %q %s %q...}", c.kind, c.path,
				f.Type.Name, f.Required, f.PatchStrategy, f.PatchMergeKey, f.Type.Go, f.Description,
				c.typ, c.required, c.strategy, c.mergeKey, c.goType, c.descPrefix)
		}
	}
}

func TestFieldAtErrors(t *testing.T) {
	if _, err := FieldAt("apps/v1", "DaemonSet", []string{"spec", "template", "spec", "containers", "imagePullPolic"}); err == nil ||
		err.Error() != `field "imagePullPolic" does not exist` {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := FieldAt("apps/v1beta2", "DaemonSet", []string{"spec"}); err == nil {
		t.Error("unknown version accepted")
	}
	if _, ok := Lookup("v1", "PersistentVolumeClaimTemplate"); ok {
		t.Error("a type that is not a kind was found as one")
	}
	if _, ok := Lookup("v1", "ComponentStatus"); ok {
		t.Error("ComponentStatus is not in the schema")
	}
}

// TestWholePodSpec checks that the whole reachable type graph is there:
// every volume source, probes, security contexts, ephemeral containers.
func TestWholePodSpec(t *testing.T) {
	for _, p := range []string{
		"spec.volumes.csi.driver", "spec.volumes.projected.sources.serviceAccountToken.audience",
		"spec.volumes.ephemeral.volumeClaimTemplate.spec.resources.requests", "spec.volumes.nfs.server",
		"spec.volumes.image.reference", "spec.containers.livenessProbe.httpGet.port",
		"spec.containers.startupProbe.grpc.service", "spec.containers.securityContext.capabilities.add",
		"spec.securityContext.seccompProfile.type", "spec.ephemeralContainers.targetContainerName",
		"spec.initContainers.restartPolicy", "spec.topologySpreadConstraints.labelSelector.matchExpressions.values",
		"spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution.podAffinityTerm.topologyKey",
		"spec.containers.env.valueFrom.fieldRef.fieldPath", "spec.dnsConfig.options.value", "status.conditions.lastTransitionTime",
		"metadata.ownerReferences.controller", "metadata.managedFields.fieldsV1",
	} {
		if _, err := FieldAt("v1", "Pod", strings.Split(p, ".")); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	pod, _ := Lookup("v1", "Pod")
	if names := strings.Join(pod.FieldNames(), ","); names != "apiVersion,kind,metadata,spec,status" {
		t.Errorf("Pod fields = %s", names)
	}
}

func TestKinds(t *testing.T) {
	var got []string
	for _, k := range Kinds() {
		got = append(got, k.APIVersion()+" "+k.Kind+" "+k.Resource)
	}
	want := "v1 ConfigMap configmaps|v1 Endpoints endpoints|v1 Event events|v1 LimitRange limitranges|v1 List |v1 Namespace namespaces|v1 Node nodes|v1 PersistentVolume persistentvolumes|v1 PersistentVolumeClaim persistentvolumeclaims|v1 Pod pods|v1 PodTemplate podtemplates|v1 ReplicationController replicationcontrollers|v1 ResourceQuota resourcequotas|v1 Secret secrets|v1 Service services|v1 ServiceAccount serviceaccounts|" +
		"apps/v1 ControllerRevision controllerrevisions|apps/v1 DaemonSet daemonsets|apps/v1 Deployment deployments|apps/v1 ReplicaSet replicasets|apps/v1 StatefulSet statefulsets|" +
		"autoscaling/v2 HorizontalPodAutoscaler horizontalpodautoscalers|batch/v1 CronJob cronjobs|batch/v1 Job jobs|coordination.k8s.io/v1 Lease leases|" +
		"networking.k8s.io/v1 Ingress ingresses|networking.k8s.io/v1 IngressClass ingressclasses|networking.k8s.io/v1 NetworkPolicy networkpolicies|node.k8s.io/v1 RuntimeClass runtimeclasses|" +
		"policy/v1 PodDisruptionBudget poddisruptionbudgets|rbac.authorization.k8s.io/v1 ClusterRole clusterroles|rbac.authorization.k8s.io/v1 ClusterRoleBinding clusterrolebindings|" +
		"rbac.authorization.k8s.io/v1 Role roles|rbac.authorization.k8s.io/v1 RoleBinding rolebindings|scheduling.k8s.io/v1 PriorityClass priorityclasses|" +
		"storage.k8s.io/v1 CSIDriver csidrivers|storage.k8s.io/v1 StorageClass storageclasses"
	if strings.Join(got, "|") != want {
		t.Errorf("Kinds() = %s", strings.Join(got, "|"))
	}
}

// TestWasmBuildHasNoK8sDeps fails when the wasm build (which links this
// package) depends on k8s.io/api or k8s.io/apimachinery: the schema must come from the
// embedded blob only.
func TestWasmBuildHasNoK8sDeps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	cmd := exec.Command("go", "list", "-deps", "../../wasm")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "k8s.io/api/") || strings.HasPrefix(p, "k8s.io/apimachinery/") {
			t.Errorf("the wasm build depends on %s", p)
		}
	}
	if !strings.Contains(string(out), "github.com/dsplayground/dsplay/engine/schema") {
		t.Log("note: the wasm build does not link engine/schema yet")
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := decode(blob); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEnums: +enum string types carry their sorted constants, and their
// fields the "Possible enum values" paragraph openapi-gen adds.
func TestEnums(t *testing.T) {
	for _, c := range []struct{ path, want string }{
		{"spec.containers.imagePullPolicy", "Always,IfNotPresent,Never"},
		{"spec.restartPolicy", "Always,Never,OnFailure"},
		{"spec.tolerations.operator", "Equal,Exists,Gt,Lt"},
		{"spec.containers.name", ""},
	} {
		f, err := FieldAt("v1", "Pod", strings.Split(c.path, "."))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(f.Type.Enum, ","); got != c.want {
			t.Errorf("%s enum = %q, want %q", c.path, got, c.want)
		}
		if has := strings.Contains(f.Description, "\n\nPossible enum values:\n - `\""); has != (c.want != "") {
			t.Errorf("%s description: enum paragraph present = %v:\n%s", c.path, has, f.Description)
		}
	}
}
