package kubectl

import (
	"testing"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// podYAML is a bare pod on node-2, created through the manifest decoder so
// that it holds the API server's defaults (as every pod of a real cluster
// does; the fixture's pods are built by hand without them).
const podYAML = `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels:
    app: web
spec:
  nodeName: node-2
  containers:
  - name: nginx
    image: nginx:1.27
    ports:
    - containerPort: 80
  tolerations:
  - key: dedicated
    operator: Exists
`

// createPod applies podYAML to the store (kubectl create -f).
func createPod(c *cluster.Cluster) {
	docs, err := manifest.Decode("pod.yaml", podYAML)
	if err != nil {
		panic(err)
	}
	if _, err := manifest.ApplyTo(c, docs, manifest.ModeCreate); err != nil {
		panic(err)
	}
}

// mutateCases are golden transcripts of the mutating commands (patch,
// label, annotate, taint, delete, drain) and kubectl's errors, each on a
// fresh fixture store; testdata/<name>.golden, rewritten with -update.
var mutateCases = []goldenCase{
	{name: "patch", files: map[string]string{
		"image.yaml": "spec:\n  template:\n    spec:\n      containers:\n      - name: fluentd\n        image: fluentd:v2\n",
		"ds.yaml":    dsYAML,
		"ops.json":   `[{"op":"add","path":"/metadata/labels/tier","value":"logging"}]`,
	}, lines: []string{
		// strategic merge (the default): containers merge by name
		`kubectl patch ds fluentd -p '{"spec":{"template":{"spec":{"containers":[{"name":"fluentd","image":"fluentd:v1.17"}]}}}}'`,
		`kubectl get ds fluentd -o wide`,
		`kubectl patch ds fluentd -p '{"spec":{"template":{"spec":{"containers":[{"name":"fluentd","image":"fluentd:v1.17"}]}}}}'`,
		`kubectl patch ds/fluentd -p '{}'`,
		`kubectl patch daemonset fluentd -p '{"status":{"numberReady":9}}'`,
		// a YAML patch, a patch file
		`kubectl patch ds fluentd -p 'spec: {minReadySeconds: 5}'`,
		`kubectl patch ds fluentd --patch-file image.yaml`,
		`kubectl get ds fluentd -o wide`,
		// merge patch and JSON patch
		`kubectl patch ds fluentd --type merge -p '{"metadata":{"labels":{"team":"a"}}}'`,
		`kubectl patch ds fluentd --type=json -p '[{"op":"replace","path":"/metadata/labels/team","value":"b"}]'`,
		`kubectl patch ds fluentd --type json --patch-file ops.json -o name`,
		`kubectl get ds --show-labels`,
		`kubectl patch ds fluentd --type json -p '[{"op":"test","path":"/metadata/labels/team","value":"c"}]'`,
		`kubectl patch ds fluentd --type json -p '[{"op":"remove","path":"/spec/nope"}]'`,
		`kubectl patch ds fluentd --type json -p '{"op":"replace"}'`,
		`kubectl patch ds fluentd --type json -p '[{"op":"frob","path":"/x"}]'`,
		`kubectl patch ds fluentd --type merge -p '[1]'`,
		// dry runs and output
		`kubectl patch ds fluentd -p '{"metadata":{"labels":{"dry":"run"}}}' --dry-run=client`,
		`kubectl patch ds fluentd -p '{"metadata":{"labels":{"dry":"run"}}}' --dry-run=server`,
		`kubectl patch ds fluentd --type json -p '[{"op":"test","path":"/metadata/labels/team","value":"c"}]' --dry-run=client`,
		`kubectl patch ds fluentd --type json -p '[{"op":"replace","path":"/spec/template/spec/containers/3","value":{}}]' --dry-run=client`,
		`kubectl patch ds fluentd --type json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"fluentd:v3"}]' --dry-run=client -o yaml`,
		`kubectl get ds --show-labels`,
		`kubectl patch node node-1 -p '{"spec":{"unschedulable":true}}' -o yaml`,
		`kubectl get nodes`,
		`kubectl patch node node-1 --type merge -p '{"spec":{"taints":[{"key":"gpu","value":"true","effect":"NoSchedule"}],"unschedulable":null}}'`,
		`kubectl describe node node-1`,
		`kubectl patch ns default -p '{"metadata":{"labels":{"env":"dev"}}}'`,
		`kubectl patch ds fluentd -n default -p '{"spec":{"minReadySeconds":10}}' --record`,
		`kubectl annotate ds fluentd --list`,
		`kubectl label ds fluentd recorded=yes --record`,
		`kubectl annotate ds fluentd note=x --record=true`,
		`kubectl annotate ds fluentd --list`,
		`kubectl patch -f ds.yaml -p '{}'`,
		`kubectl patch -f ds.yaml ds fluentd -p '{}'`,
	}},
	{name: "patch_errors", lines: []string{
		`kubectl patch ds fluentd`,
		`kubectl patch ds fluentd -p '{}' --patch-file x.yaml`,
		`kubectl patch ds fluentd --patch-file x.yaml`,
		`kubectl patch ds fluentd -p '{}' --type foo`,
		`kubectl patch ds fluentd -p '{}' --subresource=foo`,
		`kubectl patch ds fluentd -p '{}' --local`,
		`kubectl patch ds fluentd -p '{}' --dry-run`,
		`kubectl patch ds fluentd -p '{}' -o wide`,
		`kubectl patch ds fluentd -p '{}' --foo`,
		`kubectl patch -p '{}'`,
		`kubectl patch ds -p '{}'`,
		`kubectl patch ds -l app=fluentd -p '{}'`,
		`kubectl patch foo bar -p '{}'`,
		`kubectl patch ds nope -p '{}'`,
		`kubectl patch ds nope fluentd -p '{"metadata":{"labels":{"a":"b"}}}'`,
		`kubectl patch controllerrevision fluentd-6f7d8c9b5d -p '{}'`,
		// the patch text
		`kubectl patch ds fluentd -p 'spec: ['`,
		`kubectl patch ds fluentd -p '{"spec":'`,
		`kubectl patch ds fluentd -p '[1]'`,
		`kubectl patch ds fluentd -p 'null'`,
		// strategic merge errors
		`kubectl patch ds fluentd -p '{"spec":{"template":{"spec":{"containers":[{"image":"x"}]}}}}'`,
		`kubectl patch ds fluentd -p '{"spec":{"$patch":"frob"}}'`,
		`kubectl patch ds fluentd -p '{"spec":{"template":{"spec":{"$retainKeys":["containers"],"hostNetwork":true}}}}'`,
		// what the server refuses after patching
		`kubectl patch ds fluentd -p '{"spec":{"foo":1,"template":{"spec":{"containers":[{"name":"fluentd","imagePullPolicy":"Always","bar":2}]}}}}'`,
		`kubectl patch ds fluentd -p '{"spec":{"minReadySeconds":"abc"}}'`,
		`kubectl patch ds fluentd -p '{"spec":{"template":{"spec":{"containers":"x"}}}}'`,
		`kubectl patch ds fluentd -p '{"spec":{"selector":{"matchLabels":{"app":"x"}},"template":{"metadata":{"labels":{"app":"x"}}}}}'`,
		`kubectl patch ds fluentd -p '{"spec":{"template":{"spec":{"containers":[{"name":"fluentd","image":""}]}}}}'`,
		`kubectl patch ds fluentd --type merge -p '{"spec":{"updateStrategy":{"type":"Sometimes"}}}'`,
		`kubectl patch ds fluentd -p '{"metadata":{"name":"other"}}'`,
		`kubectl patch ds fluentd -p '{"metadata":{"namespace":"kube-system"}}'`,
		`kubectl patch ds fluentd -p '{"metadata":{"resourceVersion":"1"}}'`,
		`kubectl patch ds fluentd -p '{"metadata":{"uid":"x"}}'`,
		`kubectl get ds fluentd -o wide`,
	}},
	{name: "patch_pod", setup: createPod, lines: []string{
		`kubectl patch pod web -p '{"metadata":{"labels":{"tier":"frontend"}}}'`,
		`kubectl patch pod web -p '{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}'`,
		`kubectl get pod web -o wide --show-labels`,
		`kubectl patch pod web --type=json -p '[{"op":"add","path":"/spec/tolerations/-","value":{"key":"gpu","operator":"Exists"}}]'`,
		`kubectl patch pod web --type=json -p '[{"op":"remove","path":"/spec/tolerations/0"}]'`,
		`kubectl patch pod web -p '{"spec":{"nodeName":"node-1"}}'`,
		`kubectl patch pod web -p '{"spec":{"nodeName":"node-1"}}' --dry-run=server`,
		`kubectl patch pod web -p '{"spec":{"nodeName":"node-1"}}' --dry-run=client -o name`,
		`kubectl patch pod web -p '{"spec":{"containers":[{"name":"nginx","image":"nginx:1.29"}]}}' --dry-run=server -o yaml`,
		`kubectl get pod web -o jsonpath='{.spec.containers[0].image}'`,
		`kubectl patch pod web -p '{"spec":{"containers":[{"name":"nginx","ports":[{"containerPort":8080}]}]}}'`,
		`kubectl patch pod web -p '{"spec":{"activeDeadlineSeconds":600}}'`,
		`kubectl patch pod web -p '{}'`,
	}},
	{name: "label_annotate_more", files: map[string]string{"ds.yaml": dsYAML, "node.yaml": "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-2\n"}, lines: []string{
		"kubectl label -f node.yaml disk=ssd",
		"kubectl label -f ds.yaml disk=ssd",
		"kubectl label -f node.yaml nodes node-1 disk=ssd",
		"kubectl annotate -f node.yaml --list",
		"kubectl label pods --field-selector spec.nodeName=node-1 zone=a",
		"kubectl get pods -L zone",
		"kubectl label pods --field-selector spec.nodeName=node-1 --all zone=b",
		"kubectl label pods fluentd-7xkq2 --field-selector spec.nodeName=node-1 zone=b",
		"kubectl annotate pods --field-selector status.phase=Pending note=waiting",
		"kubectl annotate pods --field-selector foo=bar note=x",
		"kubectl label nodes node-1 a=b --local",
		"kubectl label nodes node-1 a=1 --resource-version=1",
		"kubectl label nodes node-1 node-2 a=1 --resource-version=1",
		"kubectl label nodes -l kubernetes.io/os=linux a=1 --resource-version=1",
		"kubectl label pods fluentd-7xkq2 nope fluentd-bz9wd extra=yes",
		"kubectl label pods fluentd-7xkq2 app=other",
		"kubectl label pods fluentd-7xkq2 app=fluentd",
		"kubectl label pods fluentd-7xkq2 app=x pod-template-generation=2",
		"kubectl label pods fluentd-7xkq2 gone- --dry-run=server",
		"kubectl label pods --list fluentd-7xkq2 fluentd-bz9wd",
		"kubectl label node node-2 --list",
		"kubectl annotate ds fluentd team=infra",
		"kubectl annotate ds fluentd team=infra",
		"kubectl annotate ds fluentd team=infra --overwrite",
		"kubectl annotate ds fluentd a=1 b=2 a- b-",
		"kubectl annotate ds fluentd x=1 --resource-version=1",
		"kubectl annotate nodes --all note=hi --resource-version=1",
		"kubectl annotate nodes node-1 node-2 --list",
		"kubectl annotate ds fluentd a=1 =b c",
	}},
	{name: "delete_more", files: map[string]string{"ds.yaml": dsYAML}, lines: []string{
		"kubectl delete pods --field-selector status.phase=Pending --wait=false",
		"kubectl delete pod fluentd-7xkq2 nope fluentd-bz9wd --wait=false",
		"kubectl get pods",
		"kubectl delete pods nope --ignore-not-found",
		"kubectl delete -f ds.yaml",
		"kubectl delete -f ds.yaml --ignore-not-found",
		"kubectl delete -f ds.yaml fluentd",
		"kubectl delete pods --all -n kube-system",
		"kubectl delete pod fluentd-q9z4m --force",
		"kubectl delete ds fluentd --cascade=orphan --dry-run=client",
		"kubectl delete ds fluentd --cascade --wait=false -o name",
		"kubectl delete foo bar",
		"kubectl delete pods -l 'a b'",
		"kubectl delete pods --field-selector spec.nodeName=control-plane --wait=false",
		"kubectl delete pods --field-selector spec.nodeName=control-plane --ignore-not-found=false",
		"kubectl delete pods --all --field-selector spec.nodeName=node-1",
		"kubectl delete node nope node-2",
		"kubectl get nodes",
	}},
	{name: "errors", lines: []string{
		"kubectl",
		"kubectl fly",
		"kubectl lable nodes node-1 a=b",
		"kubectl pach ds fluentd -p '{}'",
		"kubectl taint",
		"kubectl label",
		"kubectl annotate",
		"kubectl delete --foo",
		"kubectl label nodes node-1 a=b --foo",
		"kubectl taint nodes node-1 a=b:NoSchedule --bar=1",
		"kubectl cordon node-1 --force",
		"kubectl drain node-1 --timeout=abc",
		"kubectl delete pod x --grace-period",
		"kubectl get deployments",
		"kubectl delete deployment web",
		"kubectl label foo x a=b",
		"kubectl get ds nope",
		"kubectl get ds.apps/nope",
		"kubectl describe ds nope",
		"kubectl create -f ds.yaml",
	}},
}

func TestMutateGolden(t *testing.T) {
	runGoldenCases(t, mutateCases)
}
