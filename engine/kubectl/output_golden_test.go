package kubectl

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// outputCases are golden transcripts of get's printers (yaml, json, name,
// jsonpath, custom-columns), --sort-by and --field-selector, each run on a
// fresh fixture store.
var outputCases = []goldenCase{
	{name: "get_yaml", setup: rolloutSetup, lines: []string{
		"kubectl get ds fluentd -o yaml",
		"kubectl get ds/fluentd -o json",
		"kubectl get pod fluentd-7xkq2 -o yaml",
		"kubectl get pods fluentd-q9z4m fluentd-bz9wd -o yaml",
		"kubectl get node control-plane -o yaml",
		"kubectl get controllerrevisions -o yaml",
		"kubectl get ns default -o json",
		"kubectl get events -o yaml",
		"kubectl get pods -l app=nothing -o yaml",
		"kubectl get pods -l app=nothing -o json",
		"kubectl get pods nope -o yaml",
		"kubectl get pods fluentd-7xkq2 nope -o name",
		"kubectl get pods nope --ignore-not-found -o yaml",
		"kubectl get ds,nodes -o name",
		"kubectl get all -o name",
	}},
	{name: "get_jsonpath", files: map[string]string{
		"names.jsonpath": `{range .items[*]}{.metadata.name}{"\t"}{.spec.nodeName}{"\n"}{end}`,
		"cols.txt":       "NAME NODE\n.metadata.name .spec.nodeName\n",
		"bad-cols.txt":   "NAME NODE\n.metadata.name\n",
	}, lines: []string{
		"kubectl get pods -o jsonpath={.items[*].metadata.name}",
		"kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name}{\" \"}{.status.phase}{\"\\n\"}{end}'",
		"kubectl get pod fluentd-7xkq2 -o jsonpath='{.spec.nodeName}'",
		"kubectl get pod fluentd-7xkq2 -o jsonpath='{.metadata.labels.app}{\"\\n\"}'",
		"kubectl get pod fluentd-7xkq2 -o jsonpath='{.spec.tolerations[?(@.effect==\"NoExecute\")].key}'",
		"kubectl get nodes -o jsonpath='{.items[*].status.addresses[?(@.type==\"InternalIP\")].address}'",
		"kubectl get pod fluentd-7xkq2 -o jsonpath='{.nothing.here}'",
		"kubectl get pod fluentd-7xkq2 -o jsonpath-as-json='{.metadata.labels}'",
		"kubectl get pods -o jsonpath-file=names.jsonpath",
		"kubectl get pods -o jsonpath-file=missing.jsonpath",
		"kubectl get pods -o jsonpath",
		"kubectl get pods -o jsonpath='{.items[}'",
		"kubectl get pods -o jsonpath='{.items[0].metadata.name'",
		"kubectl get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IP:.status.podIP",
		"kubectl get pods -o custom-columns=NAME:metadata.name,IMAGES:{.spec.containers[*].image},TOL:.spec.tolerations[*].key --no-headers",
		"kubectl get ds -o custom-columns='NAME:.metadata.name,SELECTOR:.spec.selector.matchLabels'",
		"kubectl get nodes -o custom-columns-file=cols.txt",
		"kubectl get nodes -o custom-columns-file=bad-cols.txt",
		"kubectl get pods -l app=nothing -o custom-columns=NAME:.metadata.name",
		"kubectl get pods -o custom-columns=NAME",
		"kubectl get pods -o custom-columns=",
		"kubectl get pods -o custom-columns=A:{.a}}",
		"kubectl get pods -o custom-columns=A:.items[",
		"kubectl get pods -o go-template={{.metadata.name}}",
		"kubectl get pods -o yaml --show-labels",
		"kubectl get pods --output-watch-events",
	}},
	{name: "describe_generic", setup: rolloutSetup, lines: []string{
		"kubectl describe controllerrevisions fluentd-6f7d8c9b5d",
		"kubectl describe controllerrevision.apps/fluentd-7c9f8d6b4 --show-events=false",
		"kubectl describe events fluentd",
	}},
	{name: "events_output", lines: []string{
		"kubectl events -o yaml",
		"kubectl events --for ds/fluentd -o json",
		"kubectl events -o name",
		"kubectl events -o jsonpath='{range .items[*]}{.reason}{\" \"}{.involvedObject.name}{\"\\n\"}{end}'",
		"kubectl events -A -o custom-columns=NS:.metadata.namespace,REASON:.reason",
		"kubectl events -o wide",
	}},
	{name: "get_sort_fields", lines: []string{
		"kubectl get pods --sort-by=.spec.nodeName",
		"kubectl get pods --sort-by=.status.podIP",
		"kubectl get pods --sort-by='{.metadata.name}' -o name",
		"kubectl get nodes --sort-by=.metadata.name -o wide",
		"kubectl get pods --sort-by=.status.containerStatuses[0].ready",
		"kubectl get pods --sort-by=.nothing",
		"kubectl get pods --sort-by=.items[",
		"kubectl get pods --field-selector status.phase=Running",
		"kubectl get pods --field-selector status.phase!=Running",
		"kubectl get pods --field-selector metadata.name=fluentd-bz9wd",
		"kubectl get pods --field-selector spec.nodeName=node-1,status.phase=Running -o name",
		"kubectl get pods --field-selector spec.restartPolicy=Always",
		"kubectl get pods -l 'app in (fluentd),pod-template-generation notin (2)' -o name",
		"kubectl get pods -l app,!nothing -o name",
		"kubectl get pods -L app -L pod-template-generation",
		"kubectl get nodes -L kubernetes.io/arch,kubernetes.io/os",
	}},
}

func TestOutputGolden(t *testing.T) {
	runGoldenCases(t, outputCases)
}

// watchTranscript runs a command line that starts a watch, then each step
// (a change to the store and the virtual time it takes) followed by a
// poll, rendering what the terminal shows.
func watchTranscript(t *testing.T, c *cluster.Cluster, line string, steps []watchStep) string {
	t.Helper()
	env := testEnv(c, nil)
	var b strings.Builder
	b.WriteString(transcript(env, []string{line}))
	args, _ := ParseCommandLine(line)
	r := Run(env, args)
	if r.ExitCode != 0 {
		return b.String()
	}
	if r.Watch == nil {
		t.Fatalf("%s: no watch", line)
	}
	for _, st := range steps {
		c.SetNow(c.Now().Add(st.after))
		st.do(c)
		b.WriteString("# " + st.what + "\n")
		for _, ch := range r.Watch.Poll() {
			b.WriteString(ch.Text)
		}
	}
	r.Watch.Stop()
	if r.Watch.Active() || r.Watch.Poll() != nil {
		t.Errorf("%s: the watch still prints after Stop", line)
	}
	return b.String()
}

type watchStep struct {
	what  string
	after time.Duration
	do    func(c *cluster.Cluster)
}

// watchSteps change the fixture: the pending pod starts, a pod is
// deleted, a new pod is created and a node label changes.
var watchSteps = []watchStep{
	{"nothing changed", time.Second, func(c *cluster.Cluster) {}},
	{"fluentd-q9z4m starts running", 3 * time.Second, func(c *cluster.Cluster) {
		p := c.Pod("default", "fluentd-q9z4m")
		p.Status.Phase = api.PodRunning
		p.Status.PodIP = "10.244.0.12"
		p.Status.ContainerStatuses[0].State = api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: c.Now()}}
		p.Status.ContainerStatuses[0].Ready = true
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: c.Now()}}
		c.UpdatePod(p)
	}},
	{"fluentd-7xkq2 is deleted and a replacement created", 30 * time.Second, func(c *cluster.Cluster) {
		old := c.Pod("default", "fluentd-7xkq2")
		c.RemovePod("default", "fluentd-7xkq2")
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "fluentd-longername1", Labels: old.Labels, OwnerReferences: old.OwnerReferences},
			Spec: api.PodSpec{NodeName: "node-1", Containers: old.Spec.Containers}}
		if err := c.CreatePod(p); err != nil {
			panic(err)
		}
	}},
	{"node-2 is labelled, fluentd-bz9wd relabelled", 5 * time.Minute, func(c *cluster.Cluster) {
		n := c.Node("node-2")
		n.Labels["disk"] = "ssd"
		c.UpdateNode(n)
		p := c.Pod("default", "fluentd-bz9wd")
		p.Labels = map[string]string{"app": "other"}
		c.UpdatePod(p)
	}},
}

// eventSteps record events while `kubectl events -w` runs.
var eventSteps = []watchStep{
	{"nothing changed", time.Second, func(c *cluster.Cluster) {}},
	{"a pod is scheduled", 2 * time.Second, func(c *cluster.Cluster) {
		p := c.Pod("default", "fluentd-q9z4m")
		c.Record("Pod", &p.ObjectMeta, "", api.EventTypeNormal, "Scheduled", "Successfully assigned default/fluentd-q9z4m to control-plane", cluster.ComponentScheduler, "")
	}},
	{"the same event again (count 2)", time.Minute, func(c *cluster.Cluster) {
		p := c.Pod("default", "fluentd-q9z4m")
		c.Record("Pod", &p.ObjectMeta, "", api.EventTypeNormal, "Scheduled", "Successfully assigned default/fluentd-q9z4m to control-plane", cluster.ComponentScheduler, "")
	}},
}

func TestWatchGolden(t *testing.T) {
	var b strings.Builder
	for _, line := range []string{
		"kubectl get pods -w",
		"kubectl get pods -l app=fluentd --watch -o wide",
		"kubectl get pods --watch-only",
		"kubectl get pods -w --output-watch-events --no-headers",
		"kubectl get pod fluentd-q9z4m -w",
		"kubectl get pods -w -o name",
		"kubectl get pods -A -w -o custom-columns=NAME:.metadata.name,PHASE:.status.phase",
		"kubectl get pod fluentd-q9z4m -w -o jsonpath='{.status.phase}{\"\\n\"}'",
		"kubectl get pod fluentd-q9z4m -w -o yaml --output-watch-events",
		"kubectl get nodes -w",
		"kubectl get ds -w --sort-by=.metadata.name",
		"kubectl get pods,ds -w",
		"kubectl get pods nope -w",
		"kubectl get pods --field-selector spec.nodeName=node-1 -w",
	} {
		b.WriteString(watchTranscript(t, fixture(), line, watchSteps))
	}
	for _, line := range []string{
		"kubectl events -w",
		"kubectl events --watch --types=Warning",
		"kubectl events -w -o name",
	} {
		b.WriteString(watchTranscript(t, fixture(), line, eventSteps))
	}
	checkGolden(t, "get_watch", b.String())
}

// editStep is one editor save in an edit transcript: the text saved is the
// shown text with old replaced by new (unchanged when old is "", new
// alone when old is "<all>").
type editStep struct{ old, new string }

func editTranscript(t *testing.T, c *cluster.Cluster, line string, saves []editStep, between func(c *cluster.Cluster)) string {
	t.Helper()
	env := testEnv(c, nil)
	var b strings.Builder
	b.WriteString("$ " + line + "\n")
	args, _ := ParseCommandLine(line)
	r := Run(env, args)
	for _, ch := range r.Chunks {
		b.WriteString(ch.Text)
	}
	es := r.Edit
	if between != nil {
		between(c)
	}
	for _, s := range saves {
		if es == nil {
			break
		}
		b.WriteString("[editor]\n" + es.Text + "[saved")
		text := es.Text
		if s.old == "<all>" {
			b.WriteString(": the whole file -> " + s.new)
			text = s.new
		} else if s.old != "" {
			b.WriteString(": " + s.old + " -> " + s.new)
			if !strings.Contains(text, s.old) {
				t.Errorf("%s: %q is not in the editor", line, s.old)
			}
			text = strings.Replace(text, s.old, s.new, 1)
		}
		b.WriteString("]\n")
		r = es.Finish(text)
		for _, ch := range r.Chunks {
			if ch.Stderr {
				b.WriteString("[stderr]\n")
			}
			b.WriteString(ch.Text)
		}
		if r.ExitCode != 0 {
			b.WriteString("[exit 1]\n")
		}
		es = r.Edit
	}
	if es != nil {
		t.Errorf("%s: the editor is still open", line)
	}
	return b.String()
}

// defaultPods gives the fixture's pods the defaults the API server sets
// on create, as pods of a real cluster have them.
func defaultPods(c *cluster.Cluster) {
	for _, p := range c.Pods() {
		p.Spec.DNSPolicy, p.Spec.RestartPolicy, p.Spec.SchedulerName = "ClusterFirst", "Always", api.DefaultSchedulerName
		for i := range p.Spec.Containers {
			p.Spec.Containers[i].ImagePullPolicy = "IfNotPresent"
		}
	}
}

func TestEditGolden(t *testing.T) {
	var b strings.Builder
	c := fixture()
	b.WriteString(editTranscript(t, c, "kubectl edit ds fluentd", []editStep{{"image: fluentd:v1.16", "image: fluentd:v1.17"}}, nil))
	b.WriteString(transcript(testEnv(c, nil), []string{
		"kubectl get ds fluentd -o jsonpath='{.spec.template.spec.containers[0].image}{\" \"}{.metadata.generation}{\"\\n\"}'",
	}))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds/fluentd", []editStep{{}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds fluentd", []editStep{
		{"      labels:\n        app: fluentd", "      labels:\n        app: other"}, {}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds fluentd", []editStep{
		{"      labels:\n        app: fluentd", "      labels:\n        app: other"},
		{"      labels:\n        app: other", "      labels:\n        app: fluentd\n        tier: logging"}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds fluentd", []editStep{{"  name: fluentd\n  namespace", "  name: fluentd2\n  namespace"}, {}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds fluentd", []editStep{{"spec:\n", "spec: [\n"}, {}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds fluentd", []editStep{{"apiVersion: apps/v1", "# apiVersion: apps/v1"}, {}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds fluentd", []editStep{{"resourceVersion: \"", "resourceVersion: \"9"}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ds fluentd", []editStep{{"image: fluentd:v1.16", "image: fluentd:v2"}},
		func(c *cluster.Cluster) { c.RemoveDaemonSet("default", "fluentd") }))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit no node-1", []editStep{{"kubernetes.io/os: linux\n", "kubernetes.io/os: linux\n    disk: ssd\n"}}, nil))
	c = fixture()
	defaultPods(c)
	b.WriteString(editTranscript(t, c, "kubectl edit pod fluentd-7xkq2", []editStep{{"image: fluentd:v1.16", "image: fluentd:v1.17"}}, nil))
	b.WriteString(editTranscript(t, c, "kubectl edit pod fluentd-7xkq2", []editStep{{"nodeName: node-1", "nodeName: node-2"}, {}}, nil))
	b.WriteString(editTranscript(t, c, "kubectl edit pods -l app=fluentd", []editStep{{"image: fluentd:v1.16", "image: fluentd:v1.18"}}, nil))
	b.WriteString(transcript(testEnv(c, nil), []string{
		"kubectl get pods -o custom-columns=NAME:.metadata.name,IMAGE:.spec.containers[0].image",
	}))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ns default -o json", []editStep{{}}, nil))
	b.WriteString(editTranscript(t, fixture(), "kubectl edit ns default", []editStep{{"<all>", "# nothing\n"}}, nil))
	b.WriteString(transcript(testEnv(fixture(), nil), []string{
		"kubectl edit",
		"kubectl edit pod nope",
		"kubectl edit controllerrevisions fluentd-6f7d8c9b5d",
		"kubectl edit ds fluentd -o wide",
		"kubectl edit pods -l app=nothing",
	}))
	checkGolden(t, "edit", b.String())
}
