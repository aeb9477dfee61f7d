package session

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/examples"
)

// The "changed in" notes show where the cluster shows the change, and
// only there.
func TestChangeNotes(t *testing.T) {
	rec := engine.NewRecorder(engine.Options{})
	if _, err := rec.Apply("manifest.yaml", examples.Manifests()[0].Text); err != nil {
		t.Fatal(err)
	}
	rec.Advance(20 * time.Second)
	keys := func(line string) []string {
		out := rec.Run(line)
		snap := func() *engine.Snapshot { s := rec.Live().Snapshot(); return &s }
		var ks []string
		for _, c := range ChangeNotes(out.Stdout, snap, nil) {
			ks = append(ks, c.Key+" "+c.Since)
		}
		return ks
	}
	if got := keys("kubectl get ds"); len(got) != 0 {
		t.Errorf("a settled get ds: notes %v", got)
	}
	rec.Run("kubectl taint nodes node-1 team=a:NoSchedule")
	rec.Advance(time.Second)
	if got := keys("kubectl get ds"); strings.Join(got, ",") != "desired-after-noschedule v1.33" {
		t.Errorf("get ds after a NoSchedule taint under a running pod: notes %v", got)
	}
	if got := keys("kubectl get pods"); len(got) != 0 {
		t.Errorf("get pods: notes %v", got)
	}
	pods := rec.Live().Snapshot().Nodes[1].Pods
	if len(pods) == 0 {
		t.Fatal("no pod on node-1")
	}
	if got := keys("kubectl delete pod --wait=false " + pods[0].Name); strings.Join(got, ",") != "delete-namespace v1.34" {
		t.Errorf("delete pod: notes %v", got)
	}
	seen := func(k string) bool { return k == "delete-namespace" }
	if got := ChangeNotes(`pod "x" deleted from default namespace`+"\n", nil, seen); len(got) != 0 {
		t.Errorf("a change noted already: %v", got)
	}
}
