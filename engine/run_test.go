package engine

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

func TestSimulationRunKubectl(t *testing.T) {
	s := New(Options{})
	for _, tc := range []struct {
		line   string
		stdout string // substring
		stderr string // substring
		exit   int
	}{
		{"kubectl get nodes", "control-plane   Ready    control-plane", "", 0},
		{"k get nodes node-1 -o name", "node/node-1\n", "", 0},
		{"get nodes", "node-2", "", 0},
		{"kubectl get pods 'oops", "", "error: unterminated quoted string", 1},
		{"kubectl logs x", "", `error: "kubectl logs" is not simulated in the playground`, 1},
		{"kubectl label nodes node-2 disk=ssd", "node/node-2 labeled\n", "", 0},
		{"kubectl get nodes -l disk=ssd -o name", "node/node-2\n", "", 0},
	} {
		out := s.Run(tc.line)
		if !strings.Contains(out.Stdout, tc.stdout) || !strings.Contains(out.Stderr, tc.stderr) || out.ExitCode != tc.exit {
			t.Errorf("%q: got %+v", tc.line, out)
		}
	}
}

func TestSimulationRunKubectlApply(t *testing.T) {
	s := New(Options{})
	s.Files["ds.yaml"] = enginetest.DaemonSetYAML("", "agent", "busybox")
	out := s.Run("kubectl apply -f ds.yaml")
	if out.Stdout != "daemonset.apps/agent created\n" || out.ExitCode != 0 {
		t.Fatalf("apply: %+v", out)
	}
	if out := s.Run("kubectl get ds agent -o name"); out.Stdout != "daemonset.apps/agent\n" {
		t.Errorf("get after apply: %+v", out)
	}
}
