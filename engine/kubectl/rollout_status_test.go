package kubectl

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// statusScript is an Env whose virtual time drives the fixture DaemonSet
// through a rollout, as the controller would: at each listed second its
// status (or generation) changes, or it is deleted.
func statusScript(c *cluster.Cluster, steps map[int]func()) *Env {
	env := testEnv(c, nil)
	start := c.Now()
	// each change is a queued wake-up, as the controller's would be, so
	// that a waiting command sees the cluster busy until the last one
	for sec := range steps {
		c.WakeAt(start.Add(time.Duration(sec) * time.Second))
	}
	ran := map[int]bool{}
	at := func() {
		sec := int(c.Now().Sub(start) / time.Second)
		if f := steps[sec]; f != nil && !ran[sec] {
			ran[sec] = true
			f()
		}
	}
	env.Advance = func(d time.Duration) {
		target := c.Now().Add(d)
		for {
			t, ok := c.NextWakeup(target)
			if !ok {
				break
			}
			c.SetNow(t)
			at()
		}
		c.SetNow(target)
		at()
	}
	return env
}

// TestRolloutStatusVariantsGolden prints every DaemonSetStatusViewer
// message in the order a watch meets them: spec update not observed yet,
// N out of M updated, N of M available, rolled out; then --watch=false,
// and a DaemonSet deleted while watched.
func TestRolloutStatusVariantsGolden(t *testing.T) {
	c := fixture()
	rolloutSetup(c)
	ds := c.DaemonSet("default", "fluentd")
	set := func(f func()) func() {
		return func() { f(); _ = c.UpdateDaemonSet(ds) }
	}
	ds.Generation = 2
	ds.Status.UpdatedNumberScheduled, ds.Status.NumberAvailable = 0, 3
	_ = c.UpdateDaemonSet(ds)
	env := statusScript(c, map[int]func(){
		2: set(func() { ds.Status.ObservedGeneration = 2 }),
		3: set(func() { ds.Status.UpdatedNumberScheduled, ds.Status.NumberAvailable = 1, 2 }),
		5: set(func() { ds.Status.UpdatedNumberScheduled = 2 }),
		6: set(func() { ds.Status.UpdatedNumberScheduled = 3 }),
		8: set(func() { ds.Status.NumberAvailable = 3 }),
	})
	got := transcript(env, []string{
		"kubectl rollout status ds/fluentd",
		"kubectl rollout status ds/fluentd --watch=false",
	})
	ds.Status.NumberAvailable = 1
	_ = c.UpdateDaemonSet(ds)
	del := statusScript(c, map[int]func(){
		3: func() { _ = c.RemoveDaemonSet("default", "fluentd") },
	})
	got += transcript(del, []string{
		"kubectl rollout status ds/fluentd --watch=false",
		"kubectl rollout status ds/fluentd",
	})
	checkGolden(t, "rollout_status_variants", got)
}
