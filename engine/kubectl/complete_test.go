package kubectl

import (
	"reflect"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

func TestComplete(t *testing.T) {
	c := fixture()
	if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "logging"}}); err != nil {
		t.Fatal(err)
	}
	other := &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "log-agent", Namespace: "logging"},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "log"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "log"}},
				Spec: api.PodSpec{InitContainers: []api.Container{{Name: "setup", Image: "busybox"}},
					Containers: []api.Container{{Name: "a", Image: "a"}}}},
		},
	}
	if err := c.CreateDaemonSet(other); err != nil {
		t.Fatal(err)
	}
	env := testEnv(c, map[string]string{"manifest.yaml": "", "ds.yaml": ""})
	nsNames := func() []string {
		var out []string
		for _, ns := range c.Namespaces() {
			out = append(out, ns.Name)
		}
		return out
	}()

	for _, tc := range []struct {
		line string
		want []string
		from int // -1: the start of the last word, len(line) when it ends in a space
	}{
		// verbs, kubectl optional, k as its alias
		{"kubectl ge", []string{"get"}, -1},
		{"k ge", []string{"get"}, -1},
		{"ge", []string{"get"}, -1},
		{"kub", []string{"kubectl"}, -1},
		{"kubectl de", []string{"delete", "describe"}, -1},
		{"kubectl cor", []string{"cordon"}, -1},
		{"kubectl -n logging ge", []string{"get"}, -1},
		{"kubectl --context kind ge", []string{"get"}, -1}, // an unknown global flag takes the next word, as dispatch reads it
		{"kubectl -A ge", []string{"get"}, -1},
		{"kubectl nosuch ", nil, -1},
		{"kubectl logs ", nil, -1}, // not simulated: nothing to offer
		// resource types with short and singular names
		{"kubectl get daemon", []string{"daemonset", "daemonsets"}, -1},
		{"kubectl get d", []string{"daemonset", "daemonsets", "deploy", "deployment", "deployments", "deviceclass", "deviceclasses", "devicetaintrule", "devicetaintrules", "ds"}, -1},
		{"kubectl describe no", []string{"no", "node", "nodes"}, -1},
		{"kubectl get po", []string{"po", "pod", "podcertificaterequest", "podcertificaterequests", "poddisruptionbudget", "poddisruptionbudgets", "pods", "podtemplate", "podtemplates"}, -1},
		// object names from the live cluster
		{"kubectl get pods fluentd-b", []string{"fluentd-bz9wd"}, -1},
		{"kubectl get po ", []string{"fluentd-7xkq2", "fluentd-bz9wd", "fluentd-q9z4m"}, -1},
		{"kubectl describe ds ", []string{"fluentd"}, -1},
		{"kubectl describe ds -n logging ", []string{"log-agent"}, -1},
		{"kubectl -n logging describe ds ", []string{"log-agent"}, -1},
		{"kubectl describe ds --namespace=logging ", []string{"log-agent"}, -1},
		{"kubectl get ds -A ", []string{"fluentd", "log-agent"}, -1},
		{"kubectl get ds -l app=x ", []string{"fluentd"}, -1},
		{"kubectl get ds/", []string{"ds/fluentd"}, -1},
		{"kubectl get ds/f", []string{"ds/fluentd"}, -1},
		{"kubectl get nodes/node", []string{"nodes/node-1", "nodes/node-2"}, -1},
		{"kubectl get ds/fluentd no", []string{"no/", "node/", "nodes/"}, -1},
		{"kubectl get nosuchtype ", nil, -1},
		{"kubectl delete pod fluentd-7xkq2 fluentd-q", []string{"fluentd-q9z4m"}, -1},
		{"kubectl label nodes node-", []string{"node-1", "node-2"}, -1},
		// node names for node commands; taint takes the node type first
		{"kubectl cordon ", []string{"control-plane", "node-1", "node-2"}, -1},
		{"kubectl drain node-2 --ignore-daemonsets n", []string{"node-1", "node-2"}, -1},
		{"kubectl taint ", []string{"no", "node", "nodes"}, -1},
		{"kubectl taint pods", nil, -1},
		{"kubectl taint nodes c", []string{"control-plane"}, -1},
		// rollout: subcommand, type, name
		{"kubectl rollout st", []string{"status"}, -1},
		{"kubectl rollout ", rolloutSubcommands, -1},
		{"kubectl rollout status ds/", []string{"ds/fluentd"}, -1},
		{"kubectl rollout history daemonset ", []string{"fluentd"}, -1},
		// set image: the simulated subcommand, then TYPE/NAME
		{"kubectl set i", []string{"image"}, -1},
		{"kubectl set image ds/", []string{"ds/fluentd"}, -1},
		// then CONTAINER= for the named object's containers and init
		// containers, those not given yet; after "=" the current image
		{"kubectl set image ds/fluentd ", []string{"fluentd="}, -1},
		{"kubectl set image ds/fluentd fl", []string{"fluentd="}, -1},
		{"kubectl set image ds/fluentd x", nil, -1},
		{"kubectl set image daemonset fluentd ", []string{"fluentd="}, -1},
		{"kubectl set image daemonset ", []string{"fluentd"}, -1},
		{"kubectl set image -n logging ds/log-agent ", []string{"a=", "setup="}, -1},
		{"kubectl set image -n logging ds/log-agent a=b:1 ", []string{"setup="}, -1},
		{"kubectl set image ds/fluentd fluentd=", []string{"fluentd=fluentd:v1.16"}, -1},
		{"kubectl set image ds/fluentd fluentd=x:1 ", nil, -1},
		{"kubectl set image ds/nosuch ", nil, -1},
		{"kubectl set image ds/fluentd ds/", []string{"ds/fluentd"}, -1},
		{"kubectl set image pod/fluentd-7xkq2 ", []string{"fluentd="}, -1},
		// explain: types, then field paths from the schema
		{"kubectl explain daemonset", []string{"daemonset", "daemonsets"}, -1},
		{"kubectl explain ds.sp", []string{"ds.spec."}, -1},
		{"kubectl explain ds.spec.template.spec.containers.imagePull", []string{"ds.spec.template.spec.containers.imagePullPolicy"}, -1},
		{"kubectl explain ds.spec.up", []string{"ds.spec.updateStrategy."}, -1},
		{"kubectl explain ds.nosuch.", nil, -1},
		{"kubectl explain ds.spec ", nil, -1},
		// flags of the verb
		{"kubectl get --show", []string{"--show-labels"}, -1},
		{"kubectl drain --ign", []string{"--ignore-daemonsets"}, -1},
		{"kubectl delete --cas", []string{"--cascade"}, -1},
		{"kubectl cordon --cas", nil, -1}, // not a cordon flag
		{"kubectl get -A", []string{"-A"}, -1},
		{"kubectl get --namesp", []string{"--namespace"}, -1},
		{"kubectl --names", []string{"--namespace"}, -1},
		// a flag already given is not offered again; a repeatable one is
		{"kubectl get pods --show-labels --show", nil, -1},
		{"kubectl apply -f a.yaml --filen", []string{"--filename"}, -1},
		// flag values
		{"kubectl get pods -n ", nsNames, -1},
		{"kubectl get pods -n l", []string{"logging"}, -1},
		{"kubectl get pods --namespace=l", []string{"--namespace=logging"}, -1},
		{"kubectl -n ", nsNames, -1},
		{"kubectl get pods -o w", []string{"wide"}, -1},
		{"kubectl get pods --output=y", []string{"--output=yaml"}, -1},
		{"kubectl get pods -o jsonpath", []string{"jsonpath", "jsonpath-as-json", "jsonpath-file"}, -1},
		{"kubectl label nodes node-1 a=b -o ", []string{"name"}, -1},
		{"kubectl apply -f ", []string{"ds.yaml", "manifest.yaml"}, -1},
		{"kubectl apply -f m", []string{"manifest.yaml"}, -1},
		{"kubectl events --for ds/", []string{"ds/fluentd"}, -1},
		{"kubectl events --types ", []string{"Normal", "Warning"}, -1},
		{"kubectl explain ds --output ", []string{"plaintext", "plaintext-openapiv2"}, -1},
		{"kubectl explain ds --recursive=", []string{"--recursive=FALSE", "--recursive=TRUE"}, -1},
		{"kubectl get pods --field-selector ", []string{"spec.nodeName="}, -1},
		{"kubectl get pods --field-selector spec.nodeName=node", []string{"spec.nodeName=node-1", "spec.nodeName=node-2"}, -1},
		{"kubectl get pods -A --field-selector=spec.nodeName=c", []string{"--field-selector=spec.nodeName=control-plane"}, -1},
		{"kubectl get ds --field-selector ", nil, -1},
		{"kubectl get --field-selector ", []string{"spec.nodeName="}, -1},
		{"kubectl get pods --sort-by ", nil, -1},
		{"kubectl explain ds --api-version ", nil, -1},                  // a placeholder, not a value
		{"kubectl label nodes node-1 a=b --resource-version ", nil, -1}, // likewise
		// after -- nothing is a flag or a name
		{"kubectl get -- ", nil, -1},
		// quotes: the word is read unquoted, replaced from its quote
		{`kubectl get pods 'fluentd-7`, []string{"fluentd-7xkq2"}, -1},
	} {
		got, from := Complete(env, tc.line, len(tc.line))
		wantFrom := tc.from
		if wantFrom < 0 {
			wantFrom = strings.LastIndexAny(tc.line, " ") + 1
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Complete(%q) = %q, want %q", tc.line, got, tc.want)
		}
		if from != wantFrom {
			t.Errorf("Complete(%q) replaces from %d, want %d", tc.line, from, wantFrom)
		}
	}
}

// The first word offers kubectl and every simulated verb, read from the
// command table (a command added there is offered without a change here).
func TestCompleteFirstWord(t *testing.T) {
	got, from := Complete(nil, "", 0)
	want := filterPrefix(append([]string{"kubectl"}, Verbs()...), "")
	if !reflect.DeepEqual(got, want) || from != 0 {
		t.Errorf("Complete(\"\") = %q from %d, want %q from 0", got, from, want)
	}
	for _, c := range commands {
		got, _ := Complete(nil, "kubectl "+c.name, len("kubectl "+c.name))
		if !contains(got, c.name) {
			t.Errorf("kubectl %s: completion %q lacks the verb", c.name, got)
		}
		// every flag of the verb is offered, by its long name
		line := "kubectl " + c.name + " --"
		got, _ = Complete(nil, line, len(line))
		for _, d := range c.flags() {
			if !contains(got, "--"+d.name) {
				t.Errorf("%q: completion lacks --%s", line, d.name)
			}
		}
	}
	for _, n := range NotSimulated() {
		if got, _ := Complete(nil, n, len(n)); contains(got, n) {
			t.Errorf("the not simulated %q is offered as a verb", n)
		}
	}
}

// The caret in the middle of a line: only the text before it counts, and
// a nil env offers no names.
func TestCompleteCursor(t *testing.T) {
	env := testEnv(fixture(), nil)
	line := "kubectl ge pods"
	got, from := Complete(env, line, len("kubectl ge"))
	if !reflect.DeepEqual(got, []string{"get"}) || from != len("kubectl ") {
		t.Errorf("caret after ge: %q from %d", got, from)
	}
	if got, _ := Complete(nil, "kubectl get pods ", 17); got != nil {
		t.Errorf("nil env offered names %q", got)
	}
	if got, _ := Complete(&Env{}, "kubectl get pods -n ", 20); got != nil {
		t.Errorf("env without a cluster offered namespaces %q", got)
	}
	// out-of-range carets mean the end of the line
	if got, _ := Complete(env, "kubectl cordon node-", 99); !reflect.DeepEqual(got, []string{"node-1", "node-2"}) {
		t.Errorf("caret past the end: %q", got)
	}
}

func TestCommonPrefix(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"daemonset"}, "daemonset"},
		{[]string{"daemonset", "daemonsets"}, "daemonset"},
		{[]string{"node-1", "node-2", "nodes"}, "node"},
		{[]string{"a", "b"}, ""},
	} {
		if got := CommonPrefix(tc.in); got != tc.want {
			t.Errorf("CommonPrefix(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitCommands(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		rest string
	}{
		{"kubectl get ds\nkubectl get pods\n", []string{"kubectl get ds", "kubectl get pods"}, ""},
		{"kubectl get ds\nkubectl get pods", []string{"kubectl get ds"}, "kubectl get pods"},
		{"get ds\r\n\r\n  \nget po\r\n", []string{"get ds", "get po"}, ""},
		{"get ds\rget po\r", []string{"get ds", "get po"}, ""},
		// a trailing backslash joins lines, as a shell does
		{"kubectl get pods \\\n  -o wide\n", []string{"kubectl get pods   -o wide"}, ""},
		{"kubectl label nodes node-1 \\\n", nil, "kubectl label nodes node-1 "},
		{"kubectl get\\\npods\n", []string{"kubectl getpods"}, ""},
		// a new line inside quotes belongs to the argument
		{"kubectl annotate ds x note='a\nb'\nget ds\n", []string{"kubectl annotate ds x note='a\nb'", "get ds"}, ""},
		{"kubectl annotate ds x note='a\n", nil, "kubectl annotate ds x note='a\n"},
		// other escapes stay for ParseCommandLine
		{"kubectl get pods -l a\\ b\n", []string{"kubectl get pods -l a\\ b"}, ""},
		{"", nil, ""},
	} {
		got, rest := SplitCommands(tc.text)
		if !reflect.DeepEqual(got, tc.want) || rest != tc.rest {
			t.Errorf("SplitCommands(%q) = %q, rest %q; want %q, rest %q", tc.text, got, rest, tc.want, tc.rest)
		}
	}
	// The commands parse as ParseCommandLine reads the whole text.
	cmds, _ := SplitCommands("kubectl get pods \\\n  -o wide\n")
	args, err := ParseCommandLine(cmds[0])
	if err != nil || !reflect.DeepEqual(args, []string{"kubectl", "get", "pods", "-o", "wide"}) {
		t.Errorf("joined line parses as %q, %v", args, err)
	}
}

func FuzzComplete(f *testing.F) {
	for _, s := range []string{"kubectl get pods -n ", "k get ds/f", "'", "\\", "-n", "get --output=", "rollout status ds/"} {
		f.Add(s, len(s))
	}
	env := testEnv(fixture(), map[string]string{"manifest.yaml": ""})
	f.Fuzz(func(t *testing.T, line string, cursor int) {
		got, from := Complete(env, line, cursor)
		end := cursor
		if end < 0 || end > len(line) {
			end = len(line)
		}
		if from < 0 || from > end {
			t.Fatalf("Complete(%q, %d) replaces from %d", line, cursor, from)
		}
		_ = got
		SplitCommands(line)
	})
}
