package kubectl

import (
	"strings"
	"testing"
)

const nsYAML = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: logging\n"

// loggingDSYAML is dsYAML in the logging namespace.
var loggingDSYAML = strings.Replace(dsYAML, "  name: node-exporter\n", "  name: node-exporter\n  namespace: logging\n", 1)

// round2Cases are golden transcripts of the round-2 fixes (namespaces,
// kind: List, delete -f naming its file, rollout help, empty apply,
// api-versions), each on a fresh fixture store.
var round2Cases = []goldenCase{
	{name: "namespaces", files: map[string]string{
		"ds.yaml":       loggingDSYAML,
		"install.yaml":  "# install file: the namespace first\n" + nsYAML + "---\n" + loggingDSYAML,
		"reversed.yaml": loggingDSYAML + "---\n" + nsYAML,
		"plain.yaml":    dsYAML,
	}, lines: []string{
		"kubectl get namespaces",
		"kubectl get ns -o name",
		"kubectl get namespace default",
		"kubectl get ns nosuch",
		"kubectl apply -f ds.yaml",
		"kubectl apply -f reversed.yaml",
		"kubectl get ns logging",
		"kubectl apply -f install.yaml",
		"kubectl apply -f install.yaml",
		"kubectl get ds -n logging",
		"kubectl get pods -n nosuch",
		"kubectl get ds -n nosuch",
		"kubectl get ds node-exporter -n nosuch",
		"kubectl create namespace",
		"kubectl create namespace web",
		"kubectl create ns web",
		"kubectl create namespace My_NS",
		"kubectl create namespace a b",
		"kubectl create namespace dry --dry-run=client",
		"kubectl apply -f plain.yaml -n web",
		"kubectl apply -f plain.yaml -n nosuch",
		"kubectl apply -f ds.yaml -n web",
		"kubectl get ds -A",
		"kubectl delete namespace default",
		"kubectl delete namespace nosuch",
		"kubectl delete ns web -n default",
		"kubectl delete namespace logging",
		"kubectl get ns",
		"kubectl get ds -A",
		"kubectl api-resources --namespaced=false",
		"kubectl describe namespace default",
		"kubectl create namespace labelled",
		"kubectl label namespace labelled team=obs",
		"kubectl describe ns labelled",
	}},
	{name: "files", files: map[string]string{
		"list.yaml":  listYAML,
		"ds.yaml":    dsYAML,
		"empty.yaml": "# only a comment\n\n---\n# and another\n",
		"blank.yaml": "",
	}, lines: []string{
		"kubectl apply -f list.yaml",
		"kubectl apply -f list.yaml",
		"kubectl get ns logging",
		"kubectl get ds -n logging -o name",
		"kubectl delete -f ds.yaml",
		"kubectl apply -f ds.yaml",
		"kubectl delete -f ds.yaml",
		"kubectl delete -f ds.yaml",
		"kubectl delete -f ds.yaml --ignore-not-found",
		"kubectl delete -f list.yaml",
		"kubectl get ns logging",
		"kubectl apply -f empty.yaml",
		"kubectl apply -f blank.yaml",
		"kubectl create -f empty.yaml",
		"kubectl api-versions",
		"kubectl api-versions apps",
	}},
}

// listYAML is what `kubectl get ns,ds -o yaml` prints for two objects.
const listYAML = `apiVersion: v1
items:
- apiVersion: v1
  kind: Namespace
  metadata:
    name: logging
    resourceVersion: "812"
  spec:
    finalizers:
    - kubernetes
  status:
    phase: Active
- apiVersion: apps/v1
  kind: DaemonSet
  metadata:
    name: fluentd
    namespace: logging
  spec:
    selector:
      matchLabels: {app: fluentd}
    template:
      metadata:
        labels: {app: fluentd}
      spec:
        containers:
        - name: fluentd
          image: fluentd:v1
kind: List
metadata:
  resourceVersion: ""
`

func TestGoldenRound2(t *testing.T) {
	runGoldenCases(t, round2Cases)
}
