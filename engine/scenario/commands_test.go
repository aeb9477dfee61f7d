package scenario

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

func TestExpandRange(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"node-1", []string{"node-1"}, ""},
		{"w-{1..3}", []string{"w-1", "w-2", "w-3"}, ""},
		{"w{0..1}-x", []string{"w0-x", "w1-x"}, ""},
		{"w-{2..2}", []string{"w-2"}, ""},
		{"w-{a..b}", nil, "bad node name range"},
		{"w-{1..2}-{1..2}", nil, "only one"},
	}
	for _, tt := range tests {
		got, err := expandRange(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("expandRange(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("expandRange(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

// TestPodCommandsAndDecisions runs the pod succeed/fail commands with a
// node reference and checks what `decisions` prints for them.
func TestPodCommandsAndDecisions(t *testing.T) {
	src := "kubectl apply -f ds.yaml\nadvance 30s\ndecisions --action=create\n" +
		"stdout '^\\+0s daemonset-controller syncNodes create Pod/default/agent-\\w{5} node=node-1: '\n" +
		"pod succeed agent-@node-1\n" +
		"decisions --component=daemonset-controller\n" +
		"stdout 'podsShouldBeOnNode delete Pod/default/agent-\\w{5} node=node-1: the pod succeeded'\n" +
		"! stdout 'node=node-2'\n" +
		"advance 30s\n" +
		"pod fail @node-2\n" +
		"kubectl get events --field-selector reason=FailedDaemonPod\n" +
		"stdout 'Found failed daemon pod default/agent-\\w{5} on node node-2, will try to kill it'\n" +
		"kubectl get events --field-selector reason=SucceededDaemonPod\n" +
		"stdout 'Found succeeded daemon pod default/agent-\\w{5} on node node-1, will try to delete it'\n" +
		"-- ds.yaml --\n" + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	sc, err := Parse("p.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if res := sc.Run(&buf); !res.OK() {
		t.Fatalf("%v\n%s", res.Failures, buf.String())
	}
	// an ambiguous or missing node reference fails
	sc, err = Parse("q.txtar", []byte("pod fail @node-1\nnode add w-{1..2}\nkubectl get nodes\nstdout '^w-2 '\n"))
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	res := sc.Run(&buf)
	if len(res.Failures) != 1 || !strings.Contains(res.Failures[0], "0 running pods on node node-1") {
		t.Fatalf("want one failure for the missing pod, got %v\n%s", res.Failures, buf.String())
	}
}

// TestAssertionCount checks `stdout -count=N`: exactly N matches.
func TestAssertionCount(t *testing.T) {
	src := "kubectl get nodes\nstdout -count=3 ' Ready '\nstdout -count=2 ' Ready '\nstdout -count=0 'node-9'\nstdout -count=0 'node-1'\n"
	sc, err := Parse("c.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res := sc.Run(&buf)
	if len(res.Failures) != 2 || !strings.Contains(res.Failures[0], "c.txtar:3: stdout has 3 matches") || !strings.Contains(res.Failures[1], "c.txtar:5:") {
		t.Fatalf("want failures on lines 3 and 5, got %v\n%s", res.Failures, buf.String())
	}
	if _, err := Parse("d.txtar", []byte("kubectl get nodes\n! stdout -count=1 x\n")); err == nil {
		t.Fatal("! with -count should be malformed")
	}
}
