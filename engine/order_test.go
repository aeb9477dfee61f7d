package engine

import (
	"reflect"
	"testing"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// TestRunChunksOrder checks that Output.Chunks keeps stdout and stderr in
// the order kubectl writes them, and that Stdout and Stderr stay the
// concatenations of each stream.
func TestRunChunksOrder(t *testing.T) {
	s := New(Options{})
	s.Files["r.yaml"] = enginetest.DaemonSetYAML("", "r", "busybox:1.36")
	s.Files["r2.yaml"] = enginetest.DaemonSetYAML("", "r", "busybox:1.37")
	s.Files["bare.yaml"] = `apiVersion: v1
kind: Pod
metadata:
  name: bare
spec:
  nodeName: node-2
  terminationGracePeriodSeconds: 0
  containers:
  - name: c
    image: busybox
    command: ["sleep", "infinity"]
`
	for _, line := range []string{"kubectl apply -f r.yaml", "kubectl apply -f r2.yaml", "kubectl rollout status ds/r"} {
		if out := s.Run(line); out.ExitCode != 0 {
			t.Fatalf("%s: %+v", line, out)
		}
	}
	s.Advance(60e9)
	undoWarning := "Warning: resource daemonsets/r was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n"
	forceWarning := "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n"

	out := s.Run("kubectl rollout undo ds/r")
	want := []Chunk{{Stderr: true, Text: undoWarning}, {Text: "daemonset.apps/r rolled back\n"}}
	check := func(line string, out Output, want []Chunk) {
		t.Helper()
		if !reflect.DeepEqual(out.Chunks, want) {
			t.Errorf("%s: chunks\n%#v\nwant\n%#v", line, out.Chunks, want)
		}
		var so, se string
		for _, c := range out.Chunks {
			if c.Stderr {
				se += c.Text
			} else {
				so += c.Text
			}
		}
		if so != out.Stdout || se != out.Stderr {
			t.Errorf("%s: Stdout/Stderr %q / %q are not the concatenations of the chunks", line, out.Stdout, out.Stderr)
		}
	}
	check("rollout undo", out, want)

	if out := s.Run("kubectl apply -f bare.yaml"); out.ExitCode != 0 {
		t.Fatalf("apply bare: %+v", out)
	}
	s.Advance(10e9)
	out = s.Run("kubectl drain node-2 --ignore-daemonsets --force")
	pods := s.store.PodsOnNode("node-2")
	var dsPod string
	for _, p := range pods {
		if p.Name != "bare" {
			dsPod = p.Name
		}
	}
	check("drain", out, []Chunk{
		{Text: "node/node-2 cordoned\n"},
		{Stderr: true, Text: "Warning: deleting Pods that declare no controller: default/bare; ignoring DaemonSet-managed Pods: default/" + dsPod + "\n"},
		{Text: "evicting pod default/bare\npod/bare evicted\nnode/node-2 drained\n"},
	})

	out = s.Run("kubectl delete pod " + dsPod + " --grace-period=0 --force")
	check("delete --force", out, []Chunk{
		{Stderr: true, Text: forceWarning},
		{Text: `pod "` + dsPod + `" force deleted from default namespace` + "\n"},
	})

	out = s.Run("kubectl get pods 'oops")
	check("parse error", out, []Chunk{{Stderr: true, Text: "error: unterminated quoted string: missing closing ' (single quote)\n"}})
	// a table, then the NotFound error: cmdutil.CheckErr prints it last
	out = s.Run("kubectl get nodes node-1 nope")
	if n := len(out.Chunks); n != 2 || out.Chunks[0].Stderr || !out.Chunks[1].Stderr {
		t.Errorf("get node-1 nope: %#v", out.Chunks)
	}
}
