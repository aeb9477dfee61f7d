package engine

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// TestOneKubernetesVersion: kubectl version's client and server, and the
// kubeletVersion of every node however it joined (the default cluster,
// `node add`, a Node manifest), name the one release the playground is
// checked against, v1.37.2 (the kubelet reports its own build's version,
// nodestatus VersionInfo; the API server its /version).
func TestOneKubernetesVersion(t *testing.T) {
	const want = "v1.37.2"
	if cluster.KubernetesVersion != want {
		t.Fatalf("KubernetesVersion = %s, want %s", cluster.KubernetesVersion, want)
	}
	s := New(Options{})
	if err := s.AddNode("node-3", cluster.NodeOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Files["node.yaml"] = "apiVersion: v1\nkind: Node\nmetadata: {name: node-4}\n"
	if out := s.Run("kubectl apply -f node.yaml"); out.ExitCode != 0 {
		t.Fatalf("apply: %+v", out)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"kubectl version", "Client Version: " + want + "\nKustomize Version: v5.7.1\nServer Version: " + want + "\n"},
		{"kubectl version --client", "Client Version: " + want + "\nKustomize Version: v5.7.1\n"},
		{"kubectl get nodes -o custom-columns=N:.metadata.name,V:.status.nodeInfo.kubeletVersion --no-headers",
			"control-plane   " + want + "\nnode-1          " + want + "\nnode-2          " + want + "\nnode-3          " + want + "\nnode-4          " + want + "\n"},
	} {
		out := s.Run(tc.cmd)
		if out.ExitCode != 0 || out.Stdout != tc.want {
			t.Errorf("%s:\n%s%s want\n%s", tc.cmd, out.Stdout, out.Stderr, tc.want)
		}
	}
	for _, node := range []string{"control-plane", "node-3", "node-4"} {
		out := s.Run("kubectl describe node " + node)
		if !strings.Contains(out.Stdout, "  Kubelet Version:            "+want+"\n") {
			t.Errorf("describe node %s: no Kubelet Version %s:\n%s", node, want, out.Stdout)
		}
	}
}
