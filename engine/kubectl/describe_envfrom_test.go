package kubectl

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// TestDescribeEnvFrom checks describe's "Environment Variables from:"
// block (describe.go describeContainerEnvFrom): ConfigMap and Secret
// sources, with and without a prefix and optional, before Environment:,
// for a DaemonSet's template and for a pod; absent without envFrom.
func TestDescribeEnvFrom(t *testing.T) {
	envFrom := []any{
		map[string]any{"configMapRef": map[string]any{"name": "cm"}},
		map[string]any{"prefix": "S_", "secretRef": map[string]any{"name": "creds", "optional": true}},
		map[string]any{"prefix": "C_", "configMapRef": map[string]any{"name": "cm2", "optional": false}},
	}
	setup := func(c *cluster.Cluster) {
		ds := c.DaemonSet("default", "fluentd")
		if ds.Extra == nil {
			ds.Extra = api.Unmodeled{}
		}
		ds.Extra["spec.template.spec.containers[0]"] = map[string]any{"envFrom": envFrom}
		ds.Spec.Template.Spec.Containers[0].Env = []api.EnvVar{{Name: "LEVEL", Value: "debug"}}
		if err := c.UpdateDaemonSet(ds); err != nil {
			t.Fatal(err)
		}
		p := c.Pod("default", "fluentd-7xkq2")
		if p.Extra == nil {
			p.Extra = api.Unmodeled{}
		}
		p.Extra["spec.containers[0]"] = map[string]any{"envFrom": envFrom[:1]}
		if err := c.UpdatePod(p); err != nil {
			t.Fatal(err)
		}
	}
	runGoldenCases(t, []goldenCase{{name: "describe_envfrom", setup: setup, lines: []string{
		"kubectl describe ds fluentd",
		"kubectl describe pod fluentd-7xkq2",
		"kubectl describe pod fluentd-q9z4m",
	}}})
}

// TestRevisionEnvFrom checks that `rollout history --revision=N` finds a
// revision's envFrom (revisionContainerExtra) where describePodTemplate
// looks for it.
func TestRevisionEnvFrom(t *testing.T) {
	r := &api.ControllerRevision{Revision: 1, Data: `{"spec":{"template":{"metadata":{"labels":{"app":"x"}},"spec":{"containers":[{"name":"c","image":"nginx","envFrom":[{"configMapRef":{"name":"cm"}}]}]}}}}`}
	tmpl, err := templateFromRevision(r)
	if err != nil {
		t.Fatal(err)
	}
	w := newRawPrefixWriter()
	describePodTemplate(w, &tmpl, revisionContainerExtra(r))
	if want := "    Environment Variables from:\n      cm\tConfigMap\tOptional: false\n    Environment:\t<none>\n"; !strings.Contains(w.String(), want) {
		t.Errorf("history template:\n%s\nwant it to contain:\n%s", w.String(), want)
	}
}
