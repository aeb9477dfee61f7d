package tainteviction_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/internal/componenttest"
)

// TestTaintEviction: a pod not tolerating a NoExecute taint is evicted at
// once, one tolerating it for tolerationSeconds then, one tolerating it
// forever never; a taint that goes away cancels the scheduled eviction
// (processPodOnNode).
func TestTaintEviction(t *testing.T) {
	w := componenttest.New(t, "node-0")
	intolerant := w.Pod("intolerant", "node-0", nil)
	timed := w.Pod("timed", "node-0", func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(60)}}
	})
	forever := w.Pod("forever", "node-0", func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute"}}
	})
	w.Advance(5 * time.Second)
	n := w.C.Node("node-0")
	n.Spec.Taints = []api.Taint{{Key: "k", Effect: "NoExecute"}}
	_ = w.C.UpdateNode(n)
	w.Settle()
	if intolerant.DeletionTimestamp == nil {
		t.Fatal("intolerant pod not evicted at once")
	}
	c := intolerant.Condition("DisruptionTarget")
	if c == nil || c.Reason != "DeletionByTaintManager" || c.Message != "Taint manager: deleting due to NoExecute taint" {
		t.Errorf("condition %+v", c)
	}
	evs := w.Events(intolerant)
	found := false
	for _, e := range evs {
		if strings.HasSuffix(e, "TaintManagerEviction Marking for deletion Pod default/intolerant") {
			found = true
		}
	}
	if !found {
		t.Errorf("events %v", evs)
	}
	w.Advance(59 * time.Second)
	if timed.DeletionTimestamp != nil {
		t.Fatal("evicted before tolerationSeconds")
	}
	w.Advance(time.Second)
	if timed.DeletionTimestamp == nil {
		t.Fatal("not evicted after tolerationSeconds")
	}
	w.Advance(time.Hour)
	if forever.DeletionTimestamp != nil {
		t.Fatal("pod tolerating forever evicted")
	}
	// cancellation
	w2 := componenttest.New(t, "node-0")
	p := w2.Pod("timed", "node-0", func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(60)}}
	})
	n = w2.C.Node("node-0")
	n.Spec.Taints = []api.Taint{{Key: "k", Effect: "NoExecute"}}
	_ = w2.C.UpdateNode(n)
	w2.Advance(30 * time.Second)
	n.Spec.Taints = nil
	_ = w2.C.UpdateNode(n)
	w2.Advance(time.Minute)
	if p.DeletionTimestamp != nil {
		t.Fatal("evicted although the taint went away")
	}
	evs = w2.Events(p)
	if last := evs[len(evs)-1]; !strings.HasSuffix(last, "TaintManagerEviction Cancelling deletion of Pod default/timed") {
		t.Errorf("last event %q", last)
	}
}

// TestTaintEvictionKeepsScheduledWork mirrors processPodOnNode's handling
// of an eviction already scheduled: a later taint tolerated for less time
// does not bring it forward (the existing timed work is kept), and a taint
// the pod does not tolerate cancels it (with the "Cancelling deletion"
// event) before the immediate eviction.
func TestTaintEvictionKeepsScheduledWork(t *testing.T) {
	tols := func(p *api.Pod) {
		p.Spec.Tolerations = []api.Toleration{
			{Key: "slow", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(300)},
			{Key: "fast", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64Ptr(60)},
		}
	}
	taint := func(w *componenttest.World, keys ...string) {
		n := w.C.Node("n")
		n.Spec.Taints = nil
		for _, k := range keys {
			n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: k, Effect: api.TaintEffectNoExecute})
		}
		_ = w.C.UpdateNode(n)
	}
	w := componenttest.New(t, "n")
	p := w.Pod("p", "n", tols)
	w.Advance(5 * time.Second)
	taint(w, "slow")
	w.Advance(10 * time.Second)
	taint(w, "slow", "fast")
	w.Advance(2 * time.Minute)
	if p.DeletionTimestamp != nil {
		t.Fatal("the shorter toleration brought the scheduled eviction forward")
	}
	w.Advance(170 * time.Second) // 300 s after the first taint
	if p.DeletionTimestamp == nil {
		t.Fatal("not evicted 300 s after the first taint")
	}

	w = componenttest.New(t, "n")
	p = w.Pod("p", "n", tols)
	w.Advance(5 * time.Second)
	taint(w, "slow")
	w.Advance(10 * time.Second)
	taint(w, "slow", "other")
	w.Settle()
	if p.DeletionTimestamp == nil {
		t.Fatal("untolerated taint did not evict at once")
	}
	evs := w.Events(p)
	var te []string
	for _, e := range evs {
		if strings.Contains(e, "TaintManagerEviction") {
			te = append(te, e[strings.Index(e, "TaintManagerEviction"):])
		}
	}
	want := []string{"TaintManagerEviction Cancelling deletion of Pod default/p", "TaintManagerEviction Marking for deletion Pod default/p"}
	if strings.Join(te, "|") != strings.Join(want, "|") {
		t.Errorf("events %q, want %q", te, want)
	}
}
