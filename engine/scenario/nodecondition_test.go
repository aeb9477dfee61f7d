package scenario

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestNodeConditionCommand: `node condition NAME TYPE=STATUS...` is parsed
// with line numbers for malformed uses, runs through
// engine.Simulation.SetNodeCondition (the node gets the taint its condition
// calls for), and an engine refusal fails the scenario with its message.
func TestNodeConditionCommand(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"node condition node-1\n", "usage: node condition NAME TYPE=True|False"},
		{"node condition node-1 MemoryPressure\n", `"MemoryPressure" is not TYPE=True|False`},
		{"node condition node-1 =True\n", "is not TYPE=True|False"},
		{"node add n9 --pods=lots\n", "bad --pods"},
	} {
		_, err := Parse("x.txtar", []byte(tt.src))
		var me *MalformedError
		if !errors.As(err, &me) || me.Line != 1 || !strings.Contains(me.Msg, tt.want) {
			t.Errorf("%q: got %v, want line 1 containing %q", tt.src, err, tt.want)
		}
	}
	src := "node condition node-1 MemoryPressure=True PIDPressure=True\nkubectl describe node node-1\n" +
		"stdout 'node.kubernetes.io/memory-pressure:NoSchedule'\nstdout 'node.kubernetes.io/pid-pressure:NoSchedule'\n" +
		"node condition node-2 Ready=Unknown\n"
	sc, err := Parse("c.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res := sc.Run(&buf)
	if len(res.Failures) != 1 || !strings.Contains(res.Failures[0], "c.txtar:5:") || !strings.Contains(res.Failures[0], "use `node fail node-2`") {
		t.Fatalf("failures %q\n%s", res.Failures, buf.String())
	}
}

// TestParseNodeAddPods: --pods sets the node's pod capacity.
func TestParseNodeAddPods(t *testing.T) {
	na, err := parseNodeAdd([]string{"--pods", "2"})
	if err != nil || na.opts.Pods != "2" {
		t.Fatalf("opts %+v, err %v", na.opts, err)
	}
}
