package controller

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestVerdictCacheFollowsNodeAndTemplate: the per-DaemonSet verdict cache
// (cachedVerdicts) must not outlive a change to a node or to the parts of
// the template NodeShouldRunDaemonPod reads. Each case syncs once (filling
// the cache), makes one change through the store, syncs again without
// Invalidate and checks the pods per node.
func TestVerdictCacheFollowsNodeAndTemplate(t *testing.T) {
	cases := []struct {
		name   string
		change func(f *fixture, ds *api.DaemonSet)
		want   map[string]int
	}{
		{"label added to a node", func(f *fixture, ds *api.DaemonSet) {
			n := f.node("plain-0")
			n.Labels["color"] = "blue"
			if err := f.c.UpdateNode(n); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{"blue-0": 1, "plain-0": 1}},
		{"label removed from a node", func(f *fixture, ds *api.DaemonSet) {
			n := f.node("blue-0")
			delete(n.Labels, "color")
			if err := f.c.UpdateNode(n); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{}},
		{"NoExecute taint added", func(f *fixture, ds *api.DaemonSet) {
			n := f.node("blue-0")
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "k", Value: "v", Effect: api.TaintEffectNoExecute})
			if err := f.c.UpdateNode(n); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{}},
		{"node selector changed in the template", func(f *fixture, ds *api.DaemonSet) {
			ds.Spec.Template.Spec.NodeSelector = map[string]string{"kubernetes.io/hostname": "plain-0"}
			if err := f.c.UpdateDaemonSet(ds); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{"plain-0": 1}},
		{"toleration added in the template", func(f *fixture, ds *api.DaemonSet) {
			n := f.node("plain-0")
			n.Labels["color"] = "blue"
			n.Spec.Taints = []api.Taint{{Key: "k", Effect: api.TaintEffectNoSchedule}}
			if err := f.c.UpdateNode(n); err != nil {
				t.Fatal(err)
			}
			f.dsc.Sync() // verdicts cached with the taint untolerated
			ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists}}
			if err := f.c.UpdateDaemonSet(ds); err != nil {
				t.Fatal(err)
			}
		}, map[string]int{"blue-0": 1, "plain-0": 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.addNodes("blue", 0, 1, map[string]string{"color": "blue"})
			f.addNodes("plain", 0, 1, nil)
			ds := newDaemonSet("foo")
			ds.Spec.Template.Spec.NodeSelector = map[string]string{"color": "blue"}
			f.createDS(ds)
			f.dsc.Sync()
			if got := f.podsByNode(ds); len(got) != 1 || got["blue-0"] != 1 {
				t.Fatalf("before: pods per node = %v, want blue-0 only", got)
			}
			tc.change(f, ds)
			f.dsc.Sync()
			got := f.podsByNode(ds)
			if len(got) != len(tc.want) {
				t.Fatalf("after: pods per node = %v, want %v", got, tc.want)
			}
			for n, c := range tc.want {
				if got[n] != c {
					t.Fatalf("after: pods per node = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

// TestQuietSyncIsSkippedOnlyWhileInputsStay: once a sync of a DaemonSet
// changed nothing, later syncs are skipped (the quiet entry stays), and any
// write to what the sync reads — its pods, an orphan it could adopt, a
// node — makes the next Sync run it again. A DaemonSet with
// minReadySeconds depends on the clock and is never skipped.
func TestQuietSyncIsSkippedOnlyWhileInputsStay(t *testing.T) {
	cases := []struct {
		name   string
		change func(f *fixture, ds *api.DaemonSet)
		check  func(f *fixture, ds *api.DaemonSet) string
	}{
		{"own pod relabelled: released and replaced", func(f *fixture, ds *api.DaemonSet) {
			p := f.c.PodsOwnedBy(ds.UID)[0]
			p.Labels = map[string]string{"other": "x"}
			if err := f.c.UpdatePod(p); err != nil {
				t.Fatal(err)
			}
		}, func(f *fixture, ds *api.DaemonSet) string {
			if n := len(f.c.PodsOwnedBy("")); n != 1 {
				return "the relabelled pod was not released"
			}
			if got := f.podsByNode(ds); got["node-0"] != 1 {
				return "no replacement pod on node-0"
			}
			return ""
		}},
		{"orphan with matching labels appears: adopted", func(f *fixture, ds *api.DaemonSet) {
			f.addPods("node-1", simpleDaemonSetLabel, nil, 1)
		}, func(f *fixture, ds *api.DaemonSet) string {
			if n := len(f.c.PodsOwnedBy("")); n != 0 {
				return "the orphan was not adopted"
			}
			return ""
		}},
		{"node added: gets a pod", func(f *fixture, ds *api.DaemonSet) {
			f.addNodes("node", 2, 1, nil)
		}, func(f *fixture, ds *api.DaemonSet) string {
			if got := f.podsByNode(ds); got["node-2"] != 1 {
				return "no pod on the new node"
			}
			return ""
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.addNodes("node", 0, 2, nil)
			ds := f.createDS(newDaemonSet("foo"))
			for i := 0; i < 3; i++ {
				f.dsc.Sync()
			}
			if _, ok := f.dsc.quiet[ds.UID]; !ok {
				t.Fatal("steady DaemonSet: no quiet entry, the skip is never taken")
			}
			tc.change(f, ds)
			f.dsc.Sync()
			if msg := tc.check(f, ds); msg != "" {
				t.Fatal(msg)
			}
		})
	}

	// minReadySeconds: the clock matters only while a Ready pod waits out
	// minReadySeconds; the sync asks for a wake-up then and must not be
	// quiet, or the pod would never be counted available. Once every Ready
	// pod is Available the DaemonSet is quiet again.
	t.Run("minReadySeconds is quiet only once every Ready pod is Available", func(t *testing.T) {
		f := newFixture(t)
		f.addNodes("node", 0, 2, nil)
		ds := newDaemonSet("foo")
		ds.Spec.MinReadySeconds = 10
		f.createDS(ds)
		for i := 0; i < 3; i++ {
			f.dsc.Sync()
		}
		if _, ok := f.dsc.quiet[ds.UID]; !ok {
			t.Fatal("pods not Ready: nothing depends on the clock, yet the DaemonSet is not quiet")
		}
		t0 := f.c.Now()
		f.markPodsReady(ds)
		for i := 0; i < 3; i++ {
			f.dsc.Sync()
		}
		if _, ok := f.dsc.quiet[ds.UID]; ok {
			t.Fatal("Ready pods waiting out minReadySeconds: the DaemonSet was marked quiet")
		}
		// upstream updatePod: enqueueDaemonSetAfter(minReadySeconds+1s)
		if got, ok := f.c.NextWakeup(t0.Add(time.Hour)); !ok || !got.Equal(t0.Add(11*time.Second)) {
			t.Fatalf("wake-up at %v (ok %v), want ready time + 11s", got.Sub(t0), ok)
		}
		if ds.Status.NumberReady != 2 || ds.Status.NumberAvailable != 0 {
			t.Fatalf("status ready/available = %d/%d, want 2/0", ds.Status.NumberReady, ds.Status.NumberAvailable)
		}
		f.c.SetNow(f.c.Now().Add(11 * time.Second)) // the wake-up; no store write
		f.dsc.Sync()
		if ds.Status.NumberAvailable != 2 {
			t.Fatalf("after minReadySeconds: available = %d, want 2", ds.Status.NumberAvailable)
		}
		f.dsc.Sync()
		if _, ok := f.dsc.quiet[ds.UID]; !ok {
			t.Fatal("every Ready pod Available: the DaemonSet should be quiet")
		}
	})
}
