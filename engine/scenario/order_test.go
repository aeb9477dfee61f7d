package scenario

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

// TestTranscriptOrder checks that a command's stdout and stderr appear in
// the transcript in the order kubectl writes them (engine.Output.Chunks),
// not stdout first and stderr after.
func TestTranscriptOrder(t *testing.T) {
	src := "kubectl apply -f v1.yaml\nwait rollout ds/r\nkubectl apply -f v2.yaml\nwait rollout ds/r\n" +
		"kubectl rollout undo ds/r\n" +
		"-- v1.yaml --\n" + enginetest.DaemonSetYAML("", "r", "busybox:1.36") + "-- v2.yaml --\n" + enginetest.DaemonSetYAML("", "r", "busybox:1.37")
	sc, err := Parse("order.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if res := sc.Run(&buf); !res.OK() {
		t.Fatalf("%v\n%s", res.Failures, buf.String())
	}
	want := "$ kubectl rollout undo ds/r\n" +
		"Warning: resource daemonsets/r was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n" +
		"daemonset.apps/r rolled back\n"
	if !strings.HasSuffix(buf.String(), want) {
		t.Errorf("transcript ends\n%s\nwant it to end\n%s", buf.String(), want)
	}
}
