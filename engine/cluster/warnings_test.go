package cluster

import (
	"reflect"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestWarnings: the API server's create/update warnings in upstream's
// wording and order (pkg/api/pod/warnings.go warningsForPodSpecAndMeta,
// pkg/api/node/util.go, the daemonset and pod strategies).
func TestWarnings(t *testing.T) {
	tmpl := func(spec api.PodSpec, annotations map[string]string) *api.DaemonSet {
		return &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "x", Annotations: map[string]string{api.DeprecatedTemplateGenerationAnnotation: "1"}},
			Spec: api.DaemonSetSpec{Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Annotations: annotations}, Spec: spec}}}
	}
	c := func(name string) api.Container { return api.Container{Name: name, Image: "i"} }
	grace := int64(-5)
	for _, tc := range []struct {
		name string
		obj  any
		want []string
	}{
		{"template nodeSelector, sorted", tmpl(api.PodSpec{Containers: []api.Container{c("c")},
			NodeSelector: map[string]string{"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64", "disk": "ssd"}}, nil),
			[]string{
				`spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead`,
				`spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`,
			}},
		{"node affinity", tmpl(api.PodSpec{Containers: []api.Container{c("c")}, Affinity: &api.Affinity{NodeAffinity: &api.NodeAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
				{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "Exists"}}},
				{MatchExpressions: []api.NodeSelectorRequirement{{Key: "a", Operator: "Exists"}, {Key: "failure-domain.beta.kubernetes.io/zone", Operator: "In", Values: []string{"a b"}}}},
			}},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 1, Preference: api.NodeSelectorTerm{
				MatchExpressions: []api.NodeSelectorRequirement{{Key: "node-role.kubernetes.io/master", Operator: "In", Values: []string{"a b"}}}}}},
		}}}, nil),
			[]string{
				`spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[1].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead`,
				`spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: node-role.kubernetes.io/master is use "node-role.kubernetes.io/control-plane" instead`,
				`spec.template.spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].values[0]: a b is invalid, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			}},
		{"topology spread", tmpl(api.PodSpec{Containers: []api.Container{c("c")}, TopologySpreadConstraints: []api.TopologySpreadConstraint{
			{MaxSkew: 1, TopologyKey: "failure-domain.beta.kubernetes.io/region", WhenUnsatisfiable: api.DoNotSchedule}}}, nil),
			[]string{
				`spec.template.spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead`,
				`spec.template.spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod`,
			}},
		{"critical-pod annotation", tmpl(api.PodSpec{Containers: []api.Container{c("c")}}, map[string]string{"scheduler.alpha.kubernetes.io/critical-pod": ""}),
			[]string{`spec.template.metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead`}},
		{"volumes, env, ports, grace", tmpl(api.PodSpec{
			Volumes: []api.Volume{{Name: "g", Source: map[string]any{"gitRepo": map[string]any{"repository": "r"}}}},
			Containers: []api.Container{
				{Name: "a", Image: "i", Env: []api.EnvVar{{Name: "X", Value: "1"}, {Name: "X", Value: "$(X)2"}, {Name: "X", Value: "3"}},
					Ports: []api.ContainerPort{{Name: "web", ContainerPort: 80, Protocol: "TCP"}, {ContainerPort: 81, Protocol: "TCP", HostIP: "10.0.0.1"}}},
				{Name: "b", Image: "i", Ports: []api.ContainerPort{{Name: "web", ContainerPort: 80, Protocol: "TCP"}},
					Resources: api.ResourceRequirements{Requests: api.ResourceList{"memory": api.MustParseQuantity("1.5")}}},
			},
			TerminationGracePeriodSeconds: &grace,
		}, nil),
			[]string{
				`spec.template.spec.volumes[0].gitRepo: deprecated in v1.11, and disabled by default in v1.33+`,
				`spec.template.spec.containers[0].env[2]: hides previous definition of "X", which may be dropped when using apply`,
				`spec.template.spec.containers[1].resources.requests[memory]: fractional byte value "1500m" is invalid, must be an integer`,
				`spec.template.spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:81 Protocol:TCP HostIP:10.0.0.1}`,
				`spec.template.spec.containers[1].ports[0]: duplicate port definition with spec.template.spec.containers[0].ports[0]`,
				`spec.template.spec.containers[1].ports[0]: duplicate port name "web" with spec.template.spec.containers[0].ports[0], services and probes that select ports by name will use spec.template.spec.containers[0].ports[0]`,
				`spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`,
			}},
		{"pod: paths without a root, name", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "my.pod",
			Annotations: map[string]string{"scheduler.alpha.kubernetes.io/critical-pod": ""}},
			Spec: api.PodSpec{Containers: []api.Container{c("c")}, NodeSelector: map[string]string{"beta.kubernetes.io/os": "linux"}}},
			[]string{
				`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]`,
				`spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead`,
				`metadata.annotations[scheduler.alpha.kubernetes.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead`,
			}},
		{"pod: seccomp and AppArmor annotations", &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Annotations: map[string]string{
			"seccomp.security.alpha.kubernetes.io/pod":              "runtime/default",
			"container.apparmor.security.beta.kubernetes.io/c":      "runtime/default",
			"container.seccomp.security.alpha.kubernetes.io/c":      "runtime/default",
			"container.apparmor.security.beta.kubernetes.io/absent": "runtime/default",
		}}, Spec: api.PodSpec{Containers: []api.Container{c("c")}}},
			[]string{
				`metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead`,
				`metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead`,
				`metadata.annotations[container.seccomp.security.alpha.kubernetes.io/c]: non-functional in v1.27+; use the "seccompProfile" field instead`,
			}},
		{"no warnings", tmpl(api.PodSpec{Containers: []api.Container{c("c")}, NodeSelector: map[string]string{"kubernetes.io/os": "linux"}}, nil), nil},
		{"other kinds", &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{"beta.kubernetes.io/os": "linux"}}}, nil},
	} {
		if got := WarningsOnCreate(tc.obj); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
	}

	// updates: a DaemonSet's when its template changed; never a pod's
	old := tmpl(api.PodSpec{Containers: []api.Container{c("c")}, NodeSelector: map[string]string{"beta.kubernetes.io/os": "linux"}}, nil)
	same := tmpl(old.Spec.Template.Spec, nil)
	same.Spec.MinReadySeconds = 5
	changed := tmpl(old.Spec.Template.Spec, nil)
	changed.Annotations = map[string]string{api.DeprecatedTemplateGenerationAnnotation: "2"}
	if w := WarningsOnUpdate(same, old); w != nil {
		t.Errorf("update without a template change: %q", w)
	}
	if w := WarningsOnUpdate(changed, old); len(w) != 1 {
		t.Errorf("update with a template change: %q", w)
	}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}, Spec: old.Spec.Template.Spec}
	if w := WarningsOnUpdate(pod, pod); w != nil {
		t.Errorf("pod update: %q", w)
	}
}
