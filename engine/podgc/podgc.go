// Package podgc is kube-controller-manager's pod garbage collector
// (upstream pkg/controller/podgc, gc_controller.go): it deletes the pods
// bound to nodes that no longer exist, after a quarantine, and the pods
// left terminating on out-of-service nodes. It reads only the store.
package podgc

import (
	"fmt"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// PodGC mirrors the pod garbage collector (upstream
// pkg/controller/podgc/gc_controller.go PodGCController) and its
// gcOrphaned: a node name that bound pods
// refer to but that no longer exists is put in quarantine
// (nodeQueue.AddAfter(node, quarantineTime)); once Quarantine has
// passed and the node is still missing (discoverDeletedNodes), its pods are
// marked Failed with the DisruptionTarget condition (DeletionByPodGC,
// "PodGC: node no longer exists") and force-deleted
// (markFailedAndDeletePodWithCondition). Until then the pods stay listed
// with the status their kubelet last reported. Upstream runs gc every 20 s
// (gcCheckPeriod), so it notices a vanished node up to 20 s late; the
// simulation notices it on the next pass.
type PodGC struct {
	c *cluster.Cluster
	// missing holds, per vanished node name, when the GC first saw it missing.
	missing map[string]time.Time
	// outOfService caches the not-Ready nodes tainted
	// node.kubernetes.io/out-of-service, as of NodeVersion oosVersion
	// (oosOK: computed once), so a quiet cluster is not rescanned.
	outOfService []string
	oosVersion   int64
	oosOK        bool
}

// Quarantine is how long a vanished node's pods are kept before the pod
// GC deletes them (upstream gc_controller.go quarantineTime, 40 s).
const Quarantine = 40 * time.Second

// New returns the pod GC of the cluster c (upstream NewPodGC).
func New(c *cluster.Cluster) *PodGC { return &PodGC{c: c, missing: map[string]time.Time{}} }

// Sync mirrors one run of upstream PodGCController.gc: gcTerminating, then quarantines newly vanished nodes and
// deletes the pods bound to nodes whose quarantine is over (gcOrphaned). It
// writes only when it deletes.
func (g *PodGC) Sync() {
	g.gcTerminating()
	c := g.c
	now := c.Now()
	seen := map[string]bool{}
	for _, name := range c.PodNodeNames() {
		if c.Node(name) != nil {
			continue
		}
		seen[name] = true
		since, ok := g.missing[name]
		if !ok {
			// gcOrphaned: add newly found unknown nodes to quarantine.
			since = now
			g.missing[name] = now
			c.WakeAt(now.Add(Quarantine))
			c.Decide(cluster.Decision{Component: cluster.ComponentPodGC, Func: "gcOrphaned", Object: "Node/" + name, Node: name,
				Action: "quarantine", Reason: fmt.Sprintf("node %s no longer exists but %d pod(s) are still bound to it: they are kept for the %s quarantine (the node may come back) and deleted after", name, len(c.PodsOnNode(name)), Quarantine)})
		}
		if now.Before(since.Add(Quarantine)) {
			continue
		}
		// discoverDeletedNodes: still missing after the quarantine.
		for _, p := range c.PodsOnNode(name) {
			if !p.IsTerminal() {
				p.Status.Phase = api.PodFailed
				p.SetCondition(api.DisruptionTarget, api.ConditionTrue, "DeletionByPodGC", "PodGC: node no longer exists", c.Stamp())
				_ = c.UpdatePod(p)
			}
			if err := c.RemovePod(p.Namespace, p.Name); err == nil {
				c.Decide(cluster.Decision{Component: cluster.ComponentPodGC, Func: "gcOrphaned", Object: podObject(p), Node: name,
					Action: "delete", Reason: fmt.Sprintf("the pod is bound to node %s, which has been gone for %s (quarantine %s): marked Failed (DeletionByPodGC) and force-deleted", name, now.Sub(since), Quarantine)})
			}
		}
	}
	// Forget nodes that came back or have no pods left.
	for name := range g.missing {
		if !seen[name] {
			delete(g.missing, name)
		}
	}
}

// gcTerminating mirrors the pod GC's gcTerminating: a terminating pod on a
// node that is not Ready and carries the node.kubernetes.io/out-of-service
// taint (any effect) is marked Failed and force-deleted
// (markFailedAndDeletePod, no condition): no kubelet is left to finish its
// termination. Upstream runs every 20 s (gcCheckPeriod); the simulation acts
// on the next pass.
func (g *PodGC) gcTerminating() {
	c := g.c
	if v := c.NodeVersion(); !g.oosOK || v != g.oosVersion {
		g.outOfService, g.oosVersion, g.oosOK = g.outOfService[:0], v, true
		for _, n := range c.Nodes() {
			ready := n.Condition(api.NodeReady)
			if ready != nil && ready.Status == api.ConditionTrue {
				continue
			}
			for _, t := range n.Spec.Taints {
				if t.Key == api.TaintNodeOutOfService {
					g.outOfService = append(g.outOfService, n.Name)
					break
				}
			}
		}
	}
	for _, name := range g.outOfService {
		for _, p := range c.PodsOnNode(name) {
			if p.DeletionTimestamp == nil {
				continue
			}
			if !p.IsTerminal() {
				p.Status.Phase = api.PodFailed
				_ = c.UpdatePod(p)
			}
			if err := c.RemovePod(p.Namespace, p.Name); err == nil {
				c.Decide(cluster.Decision{Component: cluster.ComponentPodGC, Func: "gcTerminating", Object: podObject(p), Node: name,
					Action: "delete", Reason: fmt.Sprintf("the pod is terminating on node %s, which is not Ready and is tainted %s: marked Failed and force-deleted", name, api.TaintNodeOutOfService)})
			}
		}
	}
}

func podObject(p *api.Pod) string { return "Pod/" + p.Namespace + "/" + p.Name }
