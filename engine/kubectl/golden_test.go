package kubectl

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// transcript runs command lines in order against one Env and renders what
// a terminal would show: "$ line", then the output in the order it was
// written (Result.Chunks), each stretch of stderr under "[stderr]" and each
// stretch of stdout after stderr under "[stdout]", and the exit status
// when it is not 0.
func transcript(env *Env, lines []string) string {
	var b strings.Builder
	for _, line := range lines {
		b.WriteString("$ " + line + "\n")
		args, err := ParseCommandLine(line)
		if err != nil {
			b.WriteString("[parse error] " + err.Error() + "\n")
			continue
		}
		r := Run(env, args)
		for i, c := range r.Chunks {
			switch {
			case c.Stderr:
				b.WriteString("[stderr]\n")
			case i > 0:
				b.WriteString("[stdout]\n")
			}
			b.WriteString(c.Text)
		}
		if r.ExitCode != 0 {
			b.WriteString("[exit " + string(rune('0'+r.ExitCode)) + "]\n")
		}
	}
	return b.String()
}

// checkGolden compares got with testdata/<name>.golden (rewritten with -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	enginetest.Golden(t, filepath.Join("testdata", name+".golden"), got, *update)
}

// goldenCase is one golden transcript: the command lines run in order on a
// fresh fixture store, after setup (nil = none) changes it, with files as
// the Env's readable files; compared with testdata/<name>.golden.
type goldenCase struct {
	name  string
	files map[string]string
	setup func(c *cluster.Cluster)
	lines []string
}

// runGoldenCases runs each case as a subtest: a fresh fixture, tc.setup,
// the transcript of tc.lines, checked against testdata/<tc.name>.golden.
func runGoldenCases(t *testing.T, cases []goldenCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fixture()
			if tc.setup != nil {
				tc.setup(c)
			}
			checkGolden(t, tc.name, transcript(testEnv(c, tc.files), tc.lines))
		})
	}
}

// goldenCases are transcripts, each run on a fresh fixture store.
var goldenCases = []goldenCase{
	{name: "get", lines: []string{
		"kubectl get ds",
		"kubectl get daemonsets",
		"kubectl get daemonset fluentd",
		"kubectl get ds.apps",
		"kubectl get daemonsets.apps -o wide",
		"kubectl get ds/fluentd",
		"kubectl get ds -o name",
		"k get pods",
		"kubectl get po -o wide",
		"kubectl get pod fluentd-7xkq2 fluentd-bz9wd",
		"kubectl get pods/fluentd-7xkq2 ds/fluentd",
		"kubectl get pods -o name",
		"kubectl get pods --show-labels",
		"kubectl get pods -A",
		"kubectl get pods --all-namespaces -o wide",
		"kubectl get pods -n default",
		"kubectl -n default get pods",
		"kubectl get pods --namespace=default --no-headers",
		"kubectl get pods -l app=fluentd",
		"kubectl get pods -l 'app in (fluentd,other)'",
		"kubectl get pods -l 'app notin (fluentd)'",
		"kubectl get pods -l app!=fluentd",
		"kubectl get pods -l '!app'",
		"kubectl get pods --selector=app,pod-template-generation=1",
		"kubectl get pods -L app",
		"kubectl get pods --field-selector spec.nodeName=node-1",
		"kubectl get nodes",
		"kubectl get no -o wide",
		"kubectl get node node-1 --show-labels",
		"kubectl get nodes -l node-role.kubernetes.io/control-plane",
		"kubectl get nodes -l '!node-role.kubernetes.io/control-plane'",
		"kubectl get nodes -A",
		"kubectl get controllerrevisions",
		"kubectl get controllerrevisions.apps -o wide",
		"kubectl get events",
		"kubectl get ev -o wide",
		"kubectl get events --sort-by=.lastTimestamp",
		"kubectl get pods,ds",
		"kubectl get ds,nodes",
		"kubectl get Pods",
		"kubectl get all",
		"kubectl get all -A",
		"kubectl get pods -n kube-system -o name",
	}},
	{name: "get_errors", lines: []string{
		"kubectl get",
		"kubectl get pods nope",
		"kubectl get pods nope nope2",
		"kubectl get pods fluentd-7xkq2 nope",
		"kubectl get pods nope --ignore-not-found",
		"kubectl get foo",
		"kubectl get deployments",
		"kubectl get pods -n kube-system",
		"kubectl get pods -A -l app=nothing",
		"kubectl get nodes -l nothing=here",
		"kubectl get pods -l 'a b'",
		"kubectl get pods -l app=fluentd fluentd-7xkq2",
		"kubectl get pods --field-selector foo=bar",
		"kubectl get pods -o go-template={{.metadata.name}}",
		"kubectl get pods -o bogus",
		"kubectl get pods,ds -w",
		"kubectl get pods pod/fluentd-7xkq2",
		"kubectl get pods/",
	}},
	{name: "parse", lines: []string{
		"kubectl foo",
		"kubectl gett pods",
		"kubectl rm pod x",
		"kubectl logs fluentd-7xkq2",
		"kubectl exec -it fluentd-7xkq2 -- sh",
		"kubectl port-forward pod/x 8080:80",
		"kubectl get pods --foo",
		"kubectl get pods -z",
		"kubectl get pods -n",
		"kubectl get pods --namespace",
		"kubectl --foo get pods",
		"kubectl -o wide get pods",
		"kubectl -A get pods",
		"kubectl --namespace kube-system get pods",
		"kubectl -A taint nodes node-1 a=b:NoSchedule",
		"kubectl delete pod x --grace-period=abc",
		"kubectl get pods --show-labels=maybe",
		"kubectl get pods -- -l",
		"kubectl get pods 'unterminated",
		"kubectl get pods \"unterminated",
		"kubectl get pods -l \"app=fluentd\" # a comment",
	}},
	{name: "taint", lines: []string{
		"kubectl taint nodes node-1 key=value:NoSchedule",
		"kubectl get nodes node-1 -o wide",
		"kubectl taint nodes node-1 key=value:NoSchedule",
		"kubectl taint nodes node-1 key=other:NoSchedule --overwrite",
		"kubectl taint nodes node-1 key=value:NoExecute",
		"kubectl taint nodes node-1 key:NoSchedule-",
		"kubectl taint nodes node-1 key-",
		"kubectl taint nodes node-1 key-",
		"kubectl taint nodes node-1 key:NoSchedule-",
		"kubectl taint node node-1 node-2 dedicated=gpu:PreferNoSchedule",
		"kubectl taint nodes node-1 dedicated- gpu=true:NoSchedule",
		"kubectl taint nodes -l kubernetes.io/os=linux team=a:NoSchedule",
		"kubectl taint nodes --all team-",
		"kubectl taint no node-1 bare:NoSchedule",
		"kubectl taint nodes node-1 key=value",
		"kubectl taint nodes node-1 key=value:Bad",
		"kubectl taint nodes node-1 a=b=c:NoSchedule",
		"kubectl taint nodes node-1 'bad key=v:NoSchedule'",
		"kubectl taint nodes node-1 k=v:NoSchedule k=w:NoSchedule",
		"kubectl taint nodes node-1 k=v:NoSchedule k-",
		"kubectl taint nodes node-1 k=v:NoSchedule node-2",
		"kubectl taint nodes node-1",
		"kubectl taint nodes k=v:NoSchedule",
		"kubectl taint pods fluentd-7xkq2 k=v:NoSchedule",
		"kubectl taint nodes nope k=v:NoSchedule",
		"kubectl taint nodes --all -l a=b k=v:NoSchedule",
		"kubectl taint nodes node-1 dry=run:NoSchedule --dry-run=client",
		"kubectl taint nodes node-1 k=v:NoSchedule -o name",
		"kubectl taint nodes control-plane node-role.kubernetes.io/control-plane:NoSchedule-",
		"kubectl get nodes",
	}},
	{name: "label", lines: []string{
		"kubectl label nodes node-2 disk=ssd",
		"kubectl get nodes -l disk=ssd",
		"kubectl label nodes node-2 disk=ssd",
		"kubectl label nodes node-2 disk=hdd --overwrite",
		"kubectl label nodes node-2 disk=hdd --overwrite",
		"kubectl label nodes node-2 disk-",
		"kubectl label nodes node-2 disk-",
		"kubectl label node/node-1 node/node-2 zone=a",
		"kubectl label nodes --all zone-",
		"kubectl label nodes -l kubernetes.io/hostname=node-1 tier=infra",
		// kubectl 1.35+ (kubernetes/kubernetes#134849): added and removed
		// in one command is "modified"; --record's annotation is no label.
		"kubectl label nodes node-1 tier- owner=me",
		"kubectl label nodes node-1 owner- --record",
		"kubectl label nodes node-1 owner=you zone=b --overwrite",
		"kubectl label pods fluentd-7xkq2 extra=yes",
		"kubectl label pod fluentd-7xkq2 app-",
		"kubectl label ds fluentd team=logging",
		"kubectl get ds --show-labels",
		"kubectl label nodes node-2 a=b=c",
		"kubectl label nodes node-2 'bad value=x y'",
		"kubectl label nodes node-2 disk",
		"kubectl label nodes node-2 a=1 a-",
		"kubectl label nodes node-2",
		"kubectl label disk=ssd",
		"kubectl label nodes node-2 x=1 node-1",
		"kubectl label nodes nope disk=ssd",
		"kubectl label nodes disk=ssd",
		"kubectl label nodes --all -l a=b disk=ssd",
		"kubectl label nodes node-2 'Bad_Key!=x'",
		"kubectl label nodes node-2 dry=run --dry-run=client",
		"kubectl label nodes node-2 --list",
	}},
	{name: "annotate", lines: []string{
		"kubectl annotate ds fluentd kubernetes.io/change-cause='upgrade to v1.17'",
		"kubectl annotate ds fluentd kubernetes.io/change-cause='again'",
		"kubectl annotate ds fluentd team=logging",
		"kubectl annotate ds fluentd team=infra",
		"kubectl annotate ds fluentd team=infra --overwrite",
		"kubectl annotate ds fluentd team=infra",
		"kubectl describe ds fluentd",
		"kubectl annotate ds fluentd team-",
		"kubectl annotate ds fluentd team-",
		"kubectl annotate node node-1 note",
		"kubectl annotate node node-1 a=1 a-",
		"kubectl annotate node node-1 Bad_Key!=1",
		"kubectl annotate node node-1",
		"kubectl annotate pods --all reviewed=yes",
		"kubectl annotate pod fluentd-7xkq2 --list",
	}},
	{name: "delete", lines: []string{
		"kubectl delete pod fluentd-7xkq2",
		"kubectl get pods",
		"kubectl delete pod fluentd-q9z4m --wait=false",
		"kubectl get pods",
		"kubectl delete pod nope",
		"kubectl delete pod nope --ignore-not-found",
		"kubectl delete pods",
		"kubectl delete",
		"kubectl delete pods -l app=nothing",
		"kubectl delete pod fluentd-bz9wd --cascade=maybe",
		"kubectl delete pod fluentd-bz9wd --grace-period=5 --force",
		"kubectl delete pod fluentd-bz9wd --now --grace-period=3",
		"kubectl delete pod fluentd-bz9wd -o yaml",
		"kubectl delete pod fluentd-bz9wd --dry-run=client",
		"kubectl delete pod fluentd-bz9wd --dry-run=server",
		"kubectl delete pod fluentd-bz9wd --grace-period=0 --force",
		"kubectl get pods",
		"kubectl delete controllerrevision fluentd-6f7d8c9b5d -o name",
		"kubectl delete ds fluentd",
		"kubectl get ds",
		"kubectl delete ds fluentd",
		"kubectl delete node node-2 -n default",
		"kubectl delete nodes node-1 control-plane",
		"kubectl get nodes",
	}},
	{name: "delete_pod_timing", lines: []string{
		"kubectl get pods",
		"kubectl delete pod fluentd-7xkq2 --grace-period=10",
		"kubectl get pods",
		"kubectl delete pods --all --now",
		"kubectl get pods",
	}},
	{name: "delete_pod_nowait", lines: []string{
		"kubectl delete pod fluentd-7xkq2 --wait=false",
		"kubectl get pods",
		"kubectl delete pod fluentd-7xkq2 --grace-period=1 --wait=false",
		"kubectl get pods",
		"kubectl delete po/fluentd-bz9wd --timeout=5s",
		"kubectl get pods",
	}},
	{name: "delete_ds_orphan", lines: []string{
		"kubectl delete ds fluentd --cascade=orphan",
		"kubectl get pods",
		"kubectl get controllerrevisions",
		"kubectl get ds",
	}},
	{name: "delete_ds_cascade_bool", lines: []string{
		"kubectl delete ds fluentd --cascade=false",
		"kubectl get controllerrevisions",
	}},
	{name: "delete_ds_foreground", lines: []string{
		"kubectl delete daemonset fluentd --cascade=foreground",
		"kubectl get ds",
		"kubectl get pods",
		"kubectl get controllerrevisions",
	}},
	{name: "delete_ds_foreground_nowait", lines: []string{
		"kubectl delete daemonsets.apps/fluentd --cascade=foreground --wait=false",
		"kubectl get ds",
		"kubectl get pods",
	}},
	{name: "delete_ds_cascade_true", lines: []string{
		"kubectl delete ds fluentd --cascade=true",
		"kubectl delete ds -l app=fluentd",
	}},
	{name: "cordon", lines: []string{
		"kubectl cordon node-1",
		"kubectl cordon node-1",
		"kubectl get nodes",
		"kubectl uncordon node-1",
		"kubectl uncordon node-1",
		"kubectl cordon",
		"kubectl cordon nope",
		"kubectl cordon -l kubernetes.io/os=linux",
		"kubectl uncordon node-1 --dry-run=client",
		"kubectl get nodes",
	}},
	{name: "apply", files: map[string]string{
		"ds.yaml":       dsYAML,
		"bad.yaml":      badYAML,
		"mixed.yaml":    "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: fluentd\n---\n" + dsYAML,
		"-":             dsYAML,
		"empty.yaml":    "# nothing here\n",
		"extv1.yaml":    strings.Replace(dsYAML, "apps/v1", "extensions/v1beta1", 1),
		"mismatch.yaml": strings.Replace(dsYAML, "app: node-exporter\n    spec", "app: other\n    spec", 1),
	}, lines: []string{
		"kubectl apply -f ds.yaml",
		"kubectl get ds node-exporter",
		"kubectl apply -f ds.yaml",
		"kubectl apply -f ds.yaml -o name",
		"kubectl create -f ds.yaml",
		"kubectl replace -f ds.yaml",
		"kubectl apply -f missing.yaml",
		"kubectl apply",
		"kubectl create",
		"kubectl replace",
		"kubectl create deployment x --image=nginx",
		"kubectl apply -f mixed.yaml",
		"kubectl delete -f ds.yaml",
		"kubectl create -f -",
		"kubectl apply -f - -n kube-system",
		"kubectl apply -k dir",
		"kubectl apply -f empty.yaml",
		"kubectl replace -f empty.yaml",
	}},
	{name: "describe", lines: []string{
		"kubectl describe ds fluentd",
		"kubectl describe daemonset/fluentd",
		"kubectl describe pod fluentd-7xkq2",
		"kubectl describe pod fluentd-q9z4m",
		"kubectl describe node node-1",
		"kubectl describe node control-plane",
		"kubectl describe pods fluentd-bz",
		"kubectl describe pod nope",
		"kubectl describe",
		"kubectl describe ds -n kube-system",
		"kubectl describe nodes -l node-role.kubernetes.io/control-plane",
		"kubectl delete pod fluentd-7xkq2 --wait=false",
		"kubectl describe po fluentd-7xkq2",
		"kubectl describe controllerrevision fluentd-6f7d8c9b5d",
	}},
	// describeContainerPorts names named ports; DescribeProbe's 1.37
	// threshold wording and the defaulted httpGet path "/"
	{name: "describe_ports_probes", files: map[string]string{"exporter.yaml": exporterYAML}, lines: []string{
		"kubectl apply -f exporter.yaml",
		"kubectl describe ds exporter",
		"kubectl describe pod env-demo",
	}},
	// DescribeOptions.Run: events for one object; several objects, a
	// prefix match or a missing name leave them out unless --show-events
	{name: "describe_show_events", lines: []string{
		"kubectl describe ds fluentd",
		"kubectl describe ds fluentd nope",
		"kubectl describe ds flu",
		"kubectl describe ds flu --show-events",
		"kubectl describe ds fluentd fluentd --show-events=true",
	}},
	{name: "rollout", setup: rolloutSetup, lines: []string{
		"kubectl rollout status ds/fluentd --watch=false",
		"kubectl rollout status daemonset fluentd --timeout=3s",
		"kubectl rollout history ds/fluentd",
		"kubectl rollout history ds/fluentd --revision=1",
		"kubectl rollout history ds/fluentd --revision=7",
		"kubectl rollout history ds/fluentd --revision=-1",
		"kubectl rollout history ds/fluentd -o name",
		"kubectl rollout history ds/fluentd -o yaml",
		"kubectl rollout history ds/fluentd -o json --revision=1",
		"kubectl rollout history ds/fluentd -o jsonpath='{.revision}{\"\\n\"}'",
		"kubectl rollout history ds/fluentd -o name --revision=7",
		"kubectl rollout history ds/fluentd -o wide",
		"kubectl rollout undo ds/fluentd --to-revision=-1",
		"kubectl rollout undo ds/fluentd --to-revision=9",
		"kubectl rollout undo ds/fluentd --to-revision=2",
		"kubectl rollout undo ds/fluentd --to-revision=2 --dry-run=client",
		"kubectl rollout undo ds/fluentd --to-revision=2 --dry-run=server",
		"kubectl rollout undo ds/fluentd --dry-run=server",
		"kubectl rollout undo ds/fluentd --dry-run=client",
		"kubectl rollout undo ds/fluentd",
		"kubectl get ds fluentd -o wide",
		"kubectl rollout restart ds/fluentd",
		"kubectl rollout restart ds/fluentd",
		"kubectl rollout pause ds/fluentd",
		"kubectl rollout resume ds/fluentd",
		"kubectl rollout status ds/nope",
		"kubectl rollout status deployment/web",
		"kubectl rollout status pod/fluentd-7xkq2",
		"kubectl rollout frobnicate ds/fluentd",
		"kubectl rollout",
		"kubectl rollout -h",
		"kubectl rollout status",
	}},
	{name: "rollout_ondelete", setup: func(c *cluster.Cluster) {
		c.DaemonSet("default", "fluentd").Spec.UpdateStrategy.Type = "OnDelete"
	}, lines: []string{
		"kubectl rollout status ds/fluentd",
		"kubectl rollout history ds/fluentd",
	}},
	{name: "drain", lines: []string{
		"kubectl drain node-1",
		"kubectl get nodes node-1",
		"kubectl drain node-1 --ignore-daemonsets",
		"kubectl get pods -o wide",
		"kubectl drain",
		"kubectl drain nope",
	}},
	{name: "drain_bare_pods", setup: func(c *cluster.Cluster) {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare"}, Spec: api.PodSpec{NodeName: "node-2",
			Containers: []api.Container{{Name: "c", Image: "busybox"}},
			Volumes:    []api.Volume{{Name: "scratch", Source: map[string]any{"emptyDir": map[string]any{}}}}}}
		if err := c.CreatePod(p); err != nil {
			panic(err)
		}
		p.Status.Phase = api.PodRunning
		c.UpdatePod(p)
		c.RemoveDaemonSet("default", "fluentd")
	}, lines: []string{
		"kubectl drain node-2",
		"kubectl drain node-2 --ignore-daemonsets --force",
		"kubectl drain node-2 --ignore-daemonsets --force --delete-emptydir-data --dry-run=client",
		"kubectl drain node-2 --ignore-daemonsets --force --delete-emptydir-data --grace-period=5",
		"kubectl get pods -o wide",
		"kubectl uncordon node-2",
	}},
	{name: "events", lines: []string{
		"kubectl events",
		"kubectl events -A",
		"kubectl events --for ds/fluentd",
		"kubectl events --for pod/fluentd-7xkq2",
		"kubectl events --types=Warning",
		"kubectl events --types=Bogus",
		"kubectl events -n kube-system",
	}},
	{name: "misc", lines: []string{
		"kubectl version",
		"kubectl version --client",
		"kubectl api-resources",
		"kubectl api-resources -o wide",
		"kubectl api-resources --namespaced=false",
		"kubectl api-resources --api-group=apps -o name",
		"kubectl api-resources --sort-by=kind --no-headers",
	}},
}

const dsYAML = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-exporter
spec:
  selector:
    matchLabels:
      app: node-exporter
  template:
    metadata:
      labels:
        app: node-exporter
    spec:
      containers:
      - name: node-exporter
        image: prom/node-exporter:v1.8.2
`

const badYAML = `apiVersion: apps/v1
kind: DaemonSet
metadata:
	name: tabbed
`

const exporterYAML = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: exporter
spec:
  selector:
    matchLabels: {app: exporter}
  template:
    metadata:
      labels: {app: exporter}
    spec:
      containers:
      - name: exporter
        image: prom/node-exporter:v1.8.2
        ports:
        - {name: https, containerPort: 9100, hostPort: 9100}
        - {containerPort: 9101}
        readinessProbe:
          httpGet: {port: 9100}
        livenessProbe:
          tcpSocket: {port: https}
          initialDelaySeconds: 5
          failureThreshold: 4
---
apiVersion: v1
kind: Pod
metadata:
  name: env-demo
  labels: {app: demo, tier: node}
spec:
  containers:
  - name: c
    image: busybox:1.36
    resources:
      requests: {memory: 100Mi}
    env:
    - name: POD
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: TIER
      valueFrom: {fieldRef: {fieldPath: "metadata.labels['tier']"}}
    - name: NODE
      valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
    - name: CPU
      valueFrom: {resourceFieldRef: {resource: limits.cpu}}
    - name: MEM_MI
      valueFrom: {resourceFieldRef: {resource: requests.memory, divisor: 1Mi}}
  volumes:
  - name: info
    downwardAPI:
      items:
      - path: podname
        fieldRef: {fieldPath: metadata.name}
      - path: cpu
        resourceFieldRef: {containerName: c, resource: limits.cpu}
  - name: token
    projected:
      sources:
      - serviceAccountToken: {path: t}
      - secret: {name: s}
`

// rolloutSetup gives the fixture DaemonSet an observed generation and a
// second revision (image v2, with a change-cause) as the controller would.
func rolloutSetup(c *cluster.Cluster) {
	ds := c.DaemonSet("default", "fluentd")
	ds.Status.ObservedGeneration = 1
	ds.Annotations = map[string]string{api.DeprecatedTemplateGenerationAnnotation: "1"}
	tmpl := func(image string) string {
		return `{"spec":{"template":{"metadata":{"labels":{"app":"fluentd"}},"spec":{"containers":[{"name":"fluentd","image":"` + image +
			`","resources":{},"ports":[{"containerPort":24224,"protocol":"TCP"}]}],"volumes":[{"name":"varlog","hostPath":{"path":"/var/log","type":""}}],"terminationGracePeriodSeconds":30},"$patch":"replace"}}}`
	}
	c.ControllerRevision("default", "fluentd-6f7d8c9b5d").Data = tmpl("fluentd:v1.16")
	r2 := &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: "fluentd-7c9f8d6b4", Labels: map[string]string{"app": "fluentd"},
			Annotations:     map[string]string{api.ChangeCauseAnnotation: "kubectl set image ds/fluentd fluentd=fluentd:v1.17"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "fluentd", UID: ds.UID, Controller: api.BoolPtr(true)}}},
		Revision: 2,
		Data:     tmpl("fluentd:v1.17"),
	}
	if err := c.CreateControllerRevision(r2); err != nil {
		panic(err)
	}
}

func TestGolden(t *testing.T) {
	runGoldenCases(t, goldenCases)
}
