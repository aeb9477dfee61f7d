package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

const rollingDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: web
spec:
  selector:
    matchLabels:
      app: web
  updateStrategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: %d
      maxSurge: %d
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: %s
`

// nodesWithoutAvailablePod returns those of nodes that have no Ready pod
// of ds without a deletionTimestamp (Ready is Available here:
// minReadySeconds is 0).
func nodesWithoutAvailablePod(s *Simulation, ds *api.DaemonSet, nodes []string) []string {
	var out []string
	for _, n := range nodes {
		ok := false
		for _, p := range s.store.PodsOnNode(n) {
			if r := p.ControllerRef(); r != nil && r.UID == ds.UID && p.DeletionTimestamp == nil && p.IsReady() {
				ok = true
			}
		}
		if !ok {
			out = append(out, n)
		}
	}
	return out
}

// TestRollingUpdateThroughFacade applies a DaemonSet on the default cluster,
// changes its image with a second apply and advances in small steps: at no
// step do more than maxUnavailable nodes lack a Ready pod (maxSurge 0), or
// any node lack one (maxSurge 1); at the end every pod runs the new image
// and the status reads 2/2/2/2/2.
func TestRollingUpdateThroughFacade(t *testing.T) {
	for _, tc := range []struct{ maxUnavailable, maxSurge, allowedGaps int }{
		{1, 0, 1},
		{0, 1, 0},
	} {
		t.Run(fmt.Sprintf("maxUnavailable=%d,maxSurge=%d", tc.maxUnavailable, tc.maxSurge), func(t *testing.T) {
			s := New(Options{})
			if _, err := s.Apply("web.yaml", fmt.Sprintf(rollingDS, tc.maxUnavailable, tc.maxSurge, "nginx:1.25")); err != nil {
				t.Fatal(err)
			}
			s.Advance(time.Minute)
			ds := s.store.DaemonSet("default", "web")
			workers := []string{"node-1", "node-2"}
			if st := ds.Status; st.NumberReady != 2 || st.NumberAvailable != 2 {
				t.Fatalf("before the update: %+v", st)
			}
			rep, err := s.Apply("web.yaml", fmt.Sprintf(rollingDS, tc.maxUnavailable, tc.maxSurge, "nginx:1.26"))
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Lines) != 1 || !strings.HasSuffix(rep.Lines[0], "configured") {
				t.Errorf("apply: %v", rep.Lines)
			}
			sawGap := false
			for i := 0; i < 240; i++ {
				if gaps := nodesWithoutAvailablePod(s, ds, workers); len(gaps) > tc.allowedGaps {
					t.Fatalf("after %ds: nodes without a Ready pod %v, more than %d", i/2, gaps, tc.allowedGaps)
				} else if len(gaps) > 0 {
					sawGap = true
				}
				s.Advance(500 * time.Millisecond)
			}
			if tc.allowedGaps > 0 && !sawGap {
				t.Error("no node ever lacked a Ready pod: the old pods were not replaced one by one")
			}
			pods := 0
			for _, p := range s.store.PodsOwnedBy(ds.UID) {
				pods++
				if img := p.Spec.Containers[0].Image; img != "nginx:1.26" || p.DeletionTimestamp != nil || !p.IsReady() {
					t.Errorf("pod %s: image %s, deleting %v, ready %v", p.Name, img, p.DeletionTimestamp != nil, p.IsReady())
				}
			}
			st := ds.Status
			got := fmt.Sprintf("%d/%d/%d/%d/%d", st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.UpdatedNumberScheduled, st.NumberAvailable)
			if pods != 2 || got != "2/2/2/2/2" {
				t.Errorf("pods %d, status desired/current/ready/up-to-date/available = %s, want 2/2/2/2/2", pods, got)
			}
			var ru int
			for _, d := range s.Decisions(0) {
				if d.Func == "rollingUpdate" {
					ru++
				}
			}
			if ru == 0 {
				t.Error("no rollingUpdate decision recorded")
			}
		})
	}
}
