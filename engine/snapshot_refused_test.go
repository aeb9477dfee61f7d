package engine

import (
	"strings"
	"testing"
	"time"
)

// TestSnapshotCreateRefused: a DaemonSet whose pods the API server refuses
// (a missing ServiceAccount) says so on the DaemonSet and on every node that
// should run its pod, and stops saying so once a create succeeds.
func TestSnapshotCreateRefused(t *testing.T) {
	s := New(Options{})
	const manifest = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      serviceAccountName: agent-sa
      containers:
      - name: c
        image: nginx:1.23
`
	if _, err := s.Apply("agent.yaml", manifest); err != nil {
		t.Fatal(err)
	}
	s.Advance(3 * time.Second)
	const want = `serviceaccount "agent-sa" not found`
	snap := s.Snapshot()
	if got := snap.DaemonSets[0].CreateRefused; !strings.Contains(got, want) || strings.HasPrefix(got, "Error creating") {
		t.Fatalf("CreateRefused = %q, want the refusal without its event prefix", got)
	}
	for _, n := range snap.Nodes {
		got := n.Daemons[0].Refused
		switch n.Name {
		case "control-plane": // tainted: shouldRun is false, nothing is refused there
			if got != "" {
				t.Errorf("%s: Refused = %q, want none", n.Name, got)
			}
		default:
			if !strings.Contains(got, want) {
				t.Errorf("%s: Refused = %q, want %q", n.Name, got, want)
			}
		}
	}
	// The cached node views stay as they were: a second Snapshotter pass
	// after the ServiceAccount exists clears the refusal.
	sn := s.NewSnapshotter()
	_ = sn.Snapshot()
	if out := s.Run("kubectl create serviceaccount agent-sa"); out.ExitCode != 0 {
		t.Fatalf("create sa: %+v", out)
	}
	s.Advance(10 * time.Second)
	snap = sn.Snapshot()
	if got := snap.DaemonSets[0].CreateRefused; got != "" {
		t.Errorf("after the ServiceAccount exists: CreateRefused = %q", got)
	}
	for _, n := range snap.Nodes {
		if got := n.Daemons[0].Refused; got != "" {
			t.Errorf("%s: after the ServiceAccount exists: Refused = %q", n.Name, got)
		}
	}
}
