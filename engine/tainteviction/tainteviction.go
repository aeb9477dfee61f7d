// Package tainteviction is kube-controller-manager's taint eviction
// controller (upstream pkg/controller/tainteviction,
// taint_eviction.go; formerly the node lifecycle controller's taint
// manager): it deletes the pods that do not tolerate their node's NoExecute
// taints, at once or when their tolerationSeconds run out. It reads only
// the store: the nodes' taints and the pods' tolerations.
package tainteviction

import (
	"fmt"
	"sort"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// TaintEviction mirrors the taint eviction controller
// (upstream pkg/controller/tainteviction/taint_eviction.go Controller,
// formerly the node lifecycle controller's taint manager): a pod on a node with NoExecute taints is deleted at once
// when one of them is not tolerated, after the smallest tolerationSeconds
// of the tolerations used when all are, and never when none of those has
// seconds. A scheduled eviction is cancelled when the taints go away.
type TaintEviction struct {
	c *cluster.Cluster
	// scheduled maps pod UID to its pending eviction.
	scheduled map[string]eviction
	// done holds the pods (by UID) already evicted: the timed worker queue
	// keeps a finished key so the same pod is not handled twice
	// (TimedWorkerQueue.AddWork skips existing work).
	done map[string]eviction
}

type eviction struct {
	namespace, name string
	created, at     time.Time
}

// New returns the taint eviction controller of the cluster c (upstream
// tainteviction.New).
func New(c *cluster.Cluster) *TaintEviction {
	return &TaintEviction{c: c, scheduled: map[string]eviction{}, done: map[string]eviction{}}
}

// getMatchingTolerations mirrors the upstream helper: whether every taint is
// tolerated, and the first toleration used for each.
func getMatchingTolerations(taints []api.Taint, tols []api.Toleration) (bool, []api.Toleration) {
	var used []api.Toleration
	for i := range taints {
		j := api.TolerationFor(tols, &taints[i])
		if j < 0 {
			return false, nil
		}
		used = append(used, tols[j])
	}
	return true, used
}

// getMinTolerationTime mirrors the upstream helper: 0 for no tolerations or
// any seconds <= 0, the smallest positive seconds, or -1 (forever) when none
// has seconds.
func getMinTolerationTime(tols []api.Toleration) time.Duration {
	if len(tols) == 0 {
		return 0
	}
	minSecs := int64(-1)
	for _, t := range tols {
		if t.TolerationSeconds == nil {
			continue
		}
		s := *t.TolerationSeconds
		if s <= 0 {
			return 0
		}
		if minSecs < 0 || s < minSecs {
			minSecs = s
		}
	}
	if minSecs < 0 {
		return -1
	}
	return time.Duration(minSecs) * time.Second
}

// Sync runs processPodOnNode (upstream Controller.processPodOnNode) for the
// pods of every node with NoExecute taints, fires due evictions
// (the timed worker queue's work, deletePodHandler) and cancels stale ones
// (cancelWorkWithEvent).
func (te *TaintEviction) Sync() {
	c := te.c
	now := c.Now()
	live := map[string]bool{}
	for _, n := range c.Nodes() {
		var taints []api.Taint
		for _, t := range n.Spec.Taints {
			if t.Effect == api.TaintEffectNoExecute {
				taints = append(taints, t)
			}
		}
		if len(taints) == 0 {
			continue
		}
		for _, p := range c.PodsOnNode(n.Name) {
			if _, done := te.done[p.UID]; done {
				continue
			}
			ok, used := getMatchingTolerations(taints, p.Spec.Tolerations)
			if !ok {
				// A pod another controller is already deleting (the DaemonSet
				// controller reacts to the same node update) is still handled:
				// processPodOnNode does not look at deletionTimestamp, so a
				// real cluster shows both the DaemonSet's SuccessfulDelete and
				// the pod's TaintManagerEviction.
				// cancelWorkWithEvent, then AddWork(now, now): a pending timed
				// eviction is cancelled (with its event) before the immediate one.
				if _, had := te.scheduled[p.UID]; had {
					delete(te.scheduled, p.UID)
					te.cancelEvent(p)
				}
				te.evict(p, n, fmt.Sprintf("it does not tolerate the NoExecute taint(s) on %s", n.Name))
				continue
			}
			if p.DeletionTimestamp != nil {
				continue
			}
			d := getMinTolerationTime(used)
			if d < 0 {
				continue
			}
			// processPodOnNode: a new eviction fires at now+d. An existing one
			// is kept as it is (startTime.Add(minTolerationTime) is before
			// now+d whenever it was created earlier), so a second taint
			// tolerated for less time does not bring the eviction forward;
			// upstream replaces it only when it was created at this very
			// instant, which the simulation's repeated passes would turn
			// into spurious "Cancelling deletion" events.
			ev, exists := te.scheduled[p.UID]
			if !exists {
				ev = eviction{namespace: p.Namespace, name: p.Name, created: now, at: now.Add(d)}
				te.scheduled[p.UID] = ev
				c.WakeAt(ev.at)
			}
			live[p.UID] = true
			if !ev.at.After(now) {
				delete(te.scheduled, p.UID)
				te.evict(p, n, fmt.Sprintf("its toleration of the NoExecute taint(s) on %s ran out after %s", n.Name, d))
			}
		}
	}
	for uid, ev := range te.done {
		if p := c.Pod(ev.namespace, ev.name); p == nil || p.UID != uid {
			delete(te.done, uid) // the pod is gone: CancelWork on its delete
		}
	}
	uids := make([]string, 0, len(te.scheduled))
	for uid := range te.scheduled {
		if !live[uid] {
			uids = append(uids, uid)
		}
	}
	sort.Strings(uids)
	for _, uid := range uids {
		ev := te.scheduled[uid]
		delete(te.scheduled, uid)
		if p := c.Pod(ev.namespace, ev.name); p != nil && p.UID == uid && p.DeletionTimestamp == nil {
			te.cancelEvent(p)
			c.Decide(cluster.Decision{Component: cluster.ComponentTaintEviction, Func: "processPodOnNode", Object: podObject(p), Node: p.Spec.NodeName,
				Action: "cancel", Reason: "the NoExecute taint is gone (or now tolerated forever), so the scheduled eviction is cancelled"})
		}
	}
}

// cancelEvent mirrors emitCancelPodDeletionEvent: Normal TaintManagerEviction
// "Cancelling deletion of Pod <ns>/<name>".
func (te *TaintEviction) cancelEvent(p *api.Pod) {
	te.c.Record("Pod", &p.ObjectMeta, "", api.EventTypeNormal, "TaintManagerEviction",
		fmt.Sprintf("Cancelling deletion of Pod %s/%s", p.Namespace, p.Name), cluster.ComponentTaintEviction, "")
}

// evict mirrors deletePodHandler: the DisruptionTarget condition, the
// TaintManagerEviction event, and a graceful delete.
func (te *TaintEviction) evict(p *api.Pod, n *api.Node, why string) {
	c := te.c
	te.done[p.UID] = eviction{namespace: p.Namespace, name: p.Name, created: c.Now(), at: c.Now()}
	p.SetCondition(api.DisruptionTarget, api.ConditionTrue, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint", c.Stamp())
	_ = c.UpdatePod(p)
	c.Record("Pod", &p.ObjectMeta, "", api.EventTypeNormal, "TaintManagerEviction",
		fmt.Sprintf("Marking for deletion Pod %s/%s", p.Namespace, p.Name), cluster.ComponentTaintEviction, "")
	if p.DeletionTimestamp != nil {
		c.Decide(cluster.Decision{Component: cluster.ComponentTaintEviction, Func: "processPodOnNode", Object: podObject(p), Node: n.Name,
			Action: "evict", Reason: "the pod, already being deleted, is marked for deletion too because " + why})
		return
	}
	if err := c.DeletePod(p.Namespace, p.Name, nil); err != nil {
		return
	}
	c.Decide(cluster.Decision{Component: cluster.ComponentTaintEviction, Func: "processPodOnNode", Object: podObject(p), Node: n.Name,
		Action: "evict", Reason: "the pod is deleted because " + why})
}

func podObject(p *api.Pod) string { return "Pod/" + p.Namespace + "/" + p.Name }
