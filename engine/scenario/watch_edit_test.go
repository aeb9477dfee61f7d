package scenario

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// watchEditScenario drives `kubectl get -w` through advance, wait and node
// steps, and `kubectl edit` through every kind of editor step.
var watchEditScenario = `kubectl apply -f agent.yaml
kubectl get pods -w
advance 10s
stdout '^agent-\w{5}\s+1/1\s+Running'
node add node-3
wait rollout ds/agent
stdout -count=3 '1/1\s+Running'
kubectl get ds agent -w --output-watch-events --no-headers
kubectl edit ds agent
editor replace 'image: busybox:1.36' 'image: busybox:1.37'
stdout '^daemonset.apps/agent edited$'
kubectl get ds agent -o jsonpath='{.spec.template.spec.containers[0].image}'
stdout '^busybox:1.37$'
kubectl edit ds agent
editor unchanged
stderr '^Edit cancelled, no changes made.$'
kubectl edit ds agent
editor replace '      labels:\n        app: agent' '      labels:\n        app: other'
stderr 'error: daemonsets.apps "agent" is invalid'
! editor unchanged
stderr 'Edit cancelled, no valid changes were saved.'
kubectl edit node node-1
editor node.yaml
stdout 'node/node-1 edited'
kubectl get nodes -l disk=ssd -o name
stdout '^node/node-1$'
-- node.yaml --
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels:
    disk: ssd
-- agent.yaml --
` + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")

func TestWatchAndEditSteps(t *testing.T) {
	sc, err := Parse("watch-edit.txtar", []byte(watchEditScenario))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res := sc.Run(&buf)
	out := buf.String()
	if !res.OK() {
		t.Fatalf("failures: %v\n%s", res.Failures, out)
	}
	// the watch's lines are under the step that caused them
	adv := out[strings.Index(out, "$ advance 10s"):strings.Index(out, "$ node add")]
	if !strings.Contains(adv, "ContainerCreating") || !strings.Contains(adv, "Running") {
		t.Errorf("advance shows no watch lines:\n%s", adv)
	}
	// the ds watch stopped at the next kubectl command: nothing after `kubectl edit`
	edit := out[strings.Index(out, "$ kubectl edit ds agent"):strings.Index(out, "$ editor replace 'image")]
	if strings.TrimSpace(strings.TrimPrefix(edit, "$ kubectl edit ds agent")) != "" {
		t.Errorf("output after the watch stopped:\n%s", edit)
	}
}

func TestEditorStepErrors(t *testing.T) {
	for _, tc := range []struct{ script, want string }{
		{"kubectl get pods\neditor nope.yaml\n", `editor: no file "nope.yaml"`},
		{"kubectl get pods\neditor replace\n", "usage: editor FILE"},
		{"kubectl get pods\neditor replace 'a\n", "unterminated quote"},
	} {
		_, err := Parse("x.txtar", []byte(tc.script))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.script, err, tc.want)
		}
	}
	// an editor step with no editor open fails the scenario
	sc, err := Parse("x.txtar", []byte("kubectl get pods\neditor unchanged\n"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if res := sc.Run(&buf); res.OK() || !strings.Contains(buf.String(), "no editor is open") {
		t.Errorf("want a failure for a closed editor:\n%s", buf.String())
	}
}
