package scenario

import (
	"errors"
	"strings"
	"testing"
)

func TestPodArgs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" = rejected
	}{
		{"fail web-abc", "fail web-abc "},
		{"succeed web@node-1", "succeed web@node-1 "},
		{"fail web -n kube-system", "fail web kube-system"},
		{"unready web-abc", "unready web-abc "},
		{"unready web-abc -n kube-system", "unready web-abc kube-system"},
		{"ready -n kube-system web-abc", "ready web-abc kube-system"},
		{"ready web-abc --namespace=logs", "ready web-abc logs"},
		{"ready web-abc --namespace logs", "ready web-abc logs"},
		{"ready web-abc -n", ""},
		{"ready web-abc other", ""},
		{"ready web-abc --bogus", ""},
		{"unready", ""},
		{"restart web", ""},
	} {
		got, ok := podArgs(strings.Fields(tc.in))
		if s := strings.Join(got, " "); (ok && s != tc.want) || ok != (tc.want != "") {
			t.Errorf("podArgs(%q) = %q, %v; want %q", tc.in, s, ok, tc.want)
		}
	}
}

func TestParseUpdateCommands(t *testing.T) {
	for _, tc := range []struct {
		script string
		bad    string // "" = parses
	}{
		{"registry has nginx:1.23 nginx:1.23.3", ""},
		{"registry lacks nginx:1.233", ""},
		{"registry preloaded none", ""},
		{"registry has", "usage: registry"},
		{"registry forget nginx", "usage: registry"},
		{"! registry lacks x", "usage: registry"},
		{"pod unready web@node-1 -n default", ""},
		{"! pod ready web", "usage: pod"},
	} {
		_, err := Parse("t.txtar", []byte(tc.script+"\n"))
		var me *MalformedError
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%q: %v", tc.script, err)
		case tc.bad != "" && (!errors.As(err, &me) || !strings.Contains(me.Msg, tc.bad)):
			t.Errorf("%q: error %v, want one containing %q", tc.script, err, tc.bad)
		}
	}
}

// The scenario commands reach the kubelet: a missing tag stalls a pod,
// `pod unready` / `pod ready` flip a pod without readinessProbe at once.
func TestRegistryAndReadinessCommands(t *testing.T) {
	sc, err := Parse("t.txtar", []byte(`registry lacks nginx:9
kubectl apply -f bad.yaml
kubectl apply -f good.yaml
advance 20s
kubectl get pods -o wide
stdout 'bad-\w{5}\s+0/1\s+(ErrImagePull|ImagePullBackOff).*node-1'
stdout 'good-\w{5}\s+1/1\s+Running.*node-2'
pod unready good@node-2
kubectl get pods -o wide
stdout 'good-\w{5}\s+0/1\s+Running.*node-2'
pod ready good@node-2
kubectl get pods -o wide
stdout 'good-\w{5}\s+1/1\s+Running.*node-2'
-- bad.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: bad}
spec:
  selector: {matchLabels: {app: bad}}
  template:
    metadata: {labels: {app: bad}}
    spec:
      nodeSelector: {kubernetes.io/hostname: node-1}
      containers: [{name: c, image: "nginx:9"}]
-- good.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: good}
spec:
  selector: {matchLabels: {app: good}}
  template:
    metadata: {labels: {app: good}}
    spec:
      nodeSelector: {kubernetes.io/hostname: node-2}
      containers: [{name: c, image: "nginx:1.23"}]
`))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if res := sc.Run(&out); !res.OK() {
		t.Fatalf("%v\n%s", res.Failures, out.String())
	}
}
