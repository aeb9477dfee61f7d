package engine

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestNodeHeartbeatDerived checks the kubelet heartbeats kubectl shows
// (kubectl.deriveNodeHeartbeat): the Lease renewTime moves in 10 s steps
// and the conditions' lastHeartbeatTime in 5 min steps from the last
// status post while the kubelet runs, both freeze at the failure instant
// after `node fail`, and move again after `node recover`; -o yaml shows
// the same lastHeartbeatTime as describe, and nodeInfo the machine IDs.
func TestNodeHeartbeatDerived(t *testing.T) {
	s := New(Options{})
	field := func(out, re string) string {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no %q in:\n%s", re, out)
		}
		return m[1]
	}
	check := func(step string, wantRenew, wantBeat string) {
		t.Helper()
		d := s.Run("kubectl describe node node-1").Stdout
		if got := field(d, `RenewTime:\s+(.*)\n`); got != wantRenew {
			t.Errorf("%s: RenewTime %q, want %q", step, got, wantRenew)
		}
		if got := field(d, `\n  Ready\s+\S+\s+(.*?) \s+`); got != wantBeat {
			t.Errorf("%s: Ready LastHeartbeatTime %q, want %q", step, got, wantBeat)
		}
		y := s.Run(`kubectl get node node-1 -o jsonpath='{.status.conditions[?(@.type=="Ready")].lastHeartbeatTime}'`).Stdout
		if want := mustRFC3339(t, wantBeat); y != want {
			t.Errorf("%s: -o jsonpath lastHeartbeatTime %q, want %q", step, y, want)
		}
	}
	base := s.store.Now() // the default nodes registered at the epoch
	rfc := func(d time.Duration) string { return base.Add(d).Format(time.RFC1123Z) }

	s.Advance(7*time.Minute + 35*time.Second)
	check("running 7m35s", rfc(7*time.Minute+30*time.Second), rfc(5*time.Minute))

	if err := s.FailNode("node-1"); err != nil {
		t.Fatal(err)
	}
	s.Advance(11*time.Minute + 3*time.Second)
	check("failed at 7m35s", rfc(7*time.Minute+30*time.Second), rfc(5*time.Minute))

	if err := s.RecoverNode("node-1"); err != nil {
		t.Fatal(err)
	}
	recovered := s.store.Now().Sub(base).Truncate(time.Second)
	s.Advance(25 * time.Second)
	check("recovered 25s ago", rfc(recovered+20*time.Second), rfc(recovered))

	y := s.Run("kubectl get node node-1 -o yaml").Stdout
	for _, re := range []string{`\n    machineID: [0-9a-f]{32}\n`, `\n    systemUUID: [0-9a-f-]{36}\n`, `\n    bootID: [0-9a-f-]{36}\n`, `\n    kubeProxyVersion: ""\n`} {
		if !regexp.MustCompile(re).MatchString(y) {
			t.Errorf("get node -o yaml: no %s in nodeInfo", re)
		}
	}
	if a, b := s.Run("kubectl get node node-1 -o jsonpath={.status.nodeInfo.machineID}").Stdout, s.Run("kubectl get node node-2 -o jsonpath={.status.nodeInfo.machineID}").Stdout; a == b || !strings.Contains(s.Run("kubectl describe node node-1").Stdout, "Machine ID:                 "+a) {
		t.Errorf("machine IDs: node-1 %q, node-2 %q (want distinct, and describe showing node-1's)", a, b)
	}
}

func mustRFC3339(t *testing.T, rfc1123z string) string {
	t.Helper()
	tm, err := time.Parse(time.RFC1123Z, rfc1123z)
	if err != nil {
		t.Fatal(err)
	}
	return tm.UTC().Format(time.RFC3339)
}
