package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// fidelityDS is fluentd's manifest with an unknown field (spec.foo) and a
// misspelt container field, for --validate and error framing.
const fidelityDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd
spec:
  foo: bar
  selector:
    matchLabels:
      app: fluentd
  template:
    metadata:
      labels:
        app: fluentd
    spec:
      containers:
      - name: fluentd
        image: fluentd:v1.17
        imagePullPolic: Always
`

// fidelityNewDS is a new DaemonSet with an unknown field.
const fidelityNewDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  foo: bar
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - name: agent
        image: agent:v1
`

// fidelityInvalidDS changes fluentd's selector (immutable): a 422 on apply.
const fidelityInvalidDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluentd
spec:
  selector:
    matchLabels:
      app: other
  template:
    metadata:
      labels:
        app: other
    spec:
      containers:
      - name: fluentd
        image: fluentd:v1.16
`

// TestFidelityGolden covers kubectl behaviours checked against kubectl 1.37:
// --validate (cmdutil.GetValidationDirective), AddSourceToErr framing per
// command, label selector parse errors (apiserver DecodeParameters), resource
// name checks (client-go rest IsValidPathSegmentName), global flags, scale on
// a DaemonSet, and the annotation size limit.
func TestFidelityGolden(t *testing.T) {
	bigValue := strings.Repeat("x", 262144)
	files := map[string]string{
		"bad.yaml":     fidelityDS,
		"new.yaml":     fidelityNewDS,
		"invalid.yaml": fidelityInvalidDS,
		"big.yaml":     "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-9\n  annotations:\n    big: " + bigValue + "\n",
	}
	runGoldenCases(t, []goldenCase{
		{name: "fidelity_validate", files: files, lines: []string{
			"kubectl apply -f new.yaml",
			"kubectl apply -f new.yaml --validate=warn",
			"kubectl get ds agent -o jsonpath={.spec}",
			"kubectl delete ds agent",
			"kubectl create -f new.yaml --validate=false",
			"kubectl replace -f new.yaml --validate=ignore",
			"kubectl apply -f new.yaml --validate=bogus",
			"kubectl apply -f new.yaml --validate=true",
			"kubectl create -f new.yaml --validate=strict",
		}},
		{name: "fidelity_error_framing", files: files, lines: []string{
			"kubectl apply -f bad.yaml",
			"kubectl replace -f bad.yaml",
			"kubectl create -f bad.yaml",
			"kubectl apply -f invalid.yaml",
			"kubectl replace -f invalid.yaml",
			"kubectl apply -f bad.yaml --validate=warn",
			"kubectl get ds fluentd -o jsonpath={.spec.template.spec.containers[0].image}",
		}},
		{name: "fidelity_selectors_names", lines: []string{
			"kubectl get pods -l 'a b'",
			"kubectl get ds -l 'x in'",
			"kubectl delete pods -l 'a b'",
			"kubectl get pods ''",
			"kubectl delete pod ''",
			"kubectl describe pod ''",
			"kubectl get pods ..",
			"kubectl get pods a%b",
			"kubectl get pods/a/b",
			"kubectl delete pod .",
		}},
		{name: "fidelity_global_flags", lines: []string{
			"kubectl get nodes -v=6",
			"kubectl --v 4 get nodes --request-timeout=5s --chunk-size=100",
			"kubectl get nodes --context foo",
			"kubectl --kubeconfig /tmp/other get nodes",
			"kubectl get nodes --cluster other",
			"kubectl get nodes --user admin",
			"kubectl get nodes --server https://1.2.3.4:6443",
			"kubectl get nodes --token abc",
			"kubectl get nodes --insecure-skip-tls-verify",
			"kubectl get nodes --request-timeout=abc",
		}},
		{name: "fidelity_scale", lines: []string{
			"kubectl scale ds/fluentd --replicas=2",
			"kubectl scale ds fluentd",
			"kubectl scale ds/nope --replicas=2",
			"kubectl scale ds/fluentd --replicas=-1",
		}},
		{name: "fidelity_annotations_size", files: files, lines: []string{
			"kubectl apply -f big.yaml",
			"kubectl create -f big.yaml",
			"kubectl annotate node node-2 big=" + bigValue[:262140] + " small=12345",
			"kubectl annotate node node-2 big=" + bigValue[:100],
			"kubectl patch node node-2 -p '{\"metadata\":{\"annotations\":{\"big\":\"" + bigValue + "\"}}}'",
		}},
		// An event and a namespace stamped at 4m11.7s, listed at 4m51s:
		// metav1.Time holds whole seconds, so LAST SEEN and AGE are 40s
		// (39s if the store kept the fraction) and agree with the timestamps.
		{name: "fidelity_timestamps", setup: func(c *cluster.Cluster) {
			t0 := c.Now()
			c.SetNow(t0.Add(700 * time.Millisecond))
			ds := c.DaemonSet("default", "fluentd")
			c.Record("DaemonSet", &ds.ObjectMeta, "", api.EventTypeNormal, "Stamped", "at 4m11.7s", cluster.ComponentDaemonSetController, "")
			if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "ts"}}); err != nil {
				panic(err)
			}
			c.SetNow(t0.Add(40 * time.Second))
		}, lines: []string{
			"kubectl get events --field-selector reason=Stamped",
			"kubectl get events --field-selector reason=Stamped -o jsonpath={.items[0].lastTimestamp}",
			"kubectl get ns ts",
			"kubectl get ns ts -o jsonpath={.metadata.creationTimestamp}",
		}},
	})
}
