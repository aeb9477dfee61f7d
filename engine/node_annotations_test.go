package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// TestNodeAnnotations: every node carries the annotations a real node
// has: the kubelet's volumes.kubernetes.io/controller-managed-attach-detach
// "true" (initialNode; for a Node created with kubectl,
// reconcileCMADAnnotationWithExistingNode, which sets the kubelet's value
// over the manifest's) and the TTL controller's node.alpha.kubernetes.io/ttl
// (pkg/controller/ttl: "0" up to 100 nodes); describe node shows them and
// the node controller's RegisteredNode event.
func TestNodeAnnotations(t *testing.T) {
	s := New(Options{})
	if err := s.AddNode("node-3", cluster.NodeOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Files["node.yaml"] = `apiVersion: v1
kind: Node
metadata:
  name: node-4
  annotations:
    example.com/owner: team-a
    volumes.kubernetes.io/controller-managed-attach-detach: "false"
`
	if out := s.Run("kubectl apply -f node.yaml"); out.ExitCode != 0 {
		t.Fatalf("apply: %+v", out)
	}
	for _, tc := range []struct {
		node string
		want string // describe node's Annotations field
	}{
		{"control-plane", "Annotations:        node.alpha.kubernetes.io/ttl: 0\n                    volumes.kubernetes.io/controller-managed-attach-detach: true\n"},
		{"node-1", "Annotations:        node.alpha.kubernetes.io/ttl: 0\n                    volumes.kubernetes.io/controller-managed-attach-detach: true\n"},
		{"node-3", "Annotations:        node.alpha.kubernetes.io/ttl: 0\n                    volumes.kubernetes.io/controller-managed-attach-detach: true\n"},
		// describe leaves out kubectl's last-applied-configuration
		{"node-4", "Annotations:        example.com/owner: team-a\n                    node.alpha.kubernetes.io/ttl: 0\n                    volumes.kubernetes.io/controller-managed-attach-detach: true\n"},
	} {
		out := s.Run("kubectl describe node " + tc.node)
		if out.ExitCode != 0 || !strings.Contains(out.Stdout, tc.want) {
			t.Errorf("describe node %s: want\n%s\ngot\n%s", tc.node, tc.want, out.Stdout)
		}
		if !strings.Contains(out.Stdout, fmt.Sprintf("node-controller  Node %s event: Registered Node %s in Controller\n", tc.node, tc.node)) {
			t.Errorf("describe node %s: no RegisteredNode event from node-controller:\n%s", tc.node, out.Stdout)
		}
		for _, path := range []string{`{.metadata.annotations.node\.alpha\.kubernetes\.io/ttl}`, `{.metadata.annotations.volumes\.kubernetes\.io/controller-managed-attach-detach}`} {
			got := s.Run("kubectl get node " + tc.node + " -o 'jsonpath=" + path + "'").Stdout
			if want := map[bool]string{true: "0", false: "true"}[strings.Contains(path, "ttl")]; got != want {
				t.Errorf("node %s: %s = %q, want %q", tc.node, path, got, want)
			}
		}
	}
}

// TestNodeTTLFollowsClusterSize: the TTL controller's annotation follows
// the node count through ttlBoundaries, moving up past sizeMax (100 -> 15
// s) and down below sizeMin (90) only, so a count between the two keeps
// the value it has.
func TestNodeTTLFollowsClusterSize(t *testing.T) {
	s := New(Options{})
	ttl := func() string {
		out := s.Run(`kubectl get nodes -o 'jsonpath={.items[*].metadata.annotations.node\.alpha\.kubernetes\.io/ttl}'`)
		vals := map[string]bool{}
		for _, v := range strings.Fields(out.Stdout) {
			vals[v] = true
		}
		if len(vals) != 1 || len(strings.Fields(out.Stdout)) != s.NodeCount() {
			t.Fatalf("nodes disagree or lack the annotation: %q", out.Stdout)
		}
		for v := range vals {
			return v
		}
		return ""
	}
	steps := []struct {
		nodes int
		want  string
	}{{3, "0"}, {100, "0"}, {101, "15"}, {95, "15"}, {89, "0"}, {95, "0"}}
	for _, st := range steps {
		for s.NodeCount() < st.nodes {
			if err := s.AddNode(fmt.Sprintf("extra-%03d", s.NodeCount()), cluster.NodeOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		for s.NodeCount() > st.nodes {
			if err := s.RemoveNode(fmt.Sprintf("extra-%03d", s.NodeCount()-1)); err != nil {
				t.Fatal(err)
			}
		}
		if got := ttl(); got != st.want {
			t.Errorf("%d nodes: ttl %s, want %s", st.nodes, got, st.want)
		}
	}
}

// TestRemovingNodeEvent: the node lifecycle controller records
// RemovingNode when a node it registered leaves (monitorNodeHealth's
// deleted nodes: "Node NAME event: Removing Node NAME from Controller",
// from node-controller), once.
func TestRemovingNodeEvent(t *testing.T) {
	s := New(Options{})
	if err := s.RemoveNode("node-2"); err != nil {
		t.Fatal(err)
	}
	s.Advance(10 * time.Second)
	out := s.Run("kubectl get events --field-selector reason=RemovingNode -o custom-columns=OBJ:.involvedObject.name,UID:.involvedObject.uid,FROM:.source.component,MSG:.message --no-headers")
	lines := strings.Split(strings.TrimSpace(out.Stdout), "\n")
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "node-2 ") ||
		!strings.HasSuffix(lines[0], "node-controller   Node node-2 event: Removing Node node-2 from Controller") ||
		strings.Contains(lines[0], "<none>") {
		t.Errorf("RemovingNode events:\n%s%s", out.Stdout, out.Stderr)
	}
}
