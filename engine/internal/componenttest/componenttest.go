// Package componenttest runs the kubelets and kube-controller-manager's
// node-side controllers (node lifecycle, taint eviction, pod GC, garbage
// collector) together on one store, for the tests of what they do between
// them. They run in engine/loop.go's order, without the DaemonSet
// controller and the scheduler: the tests bind their pods themselves.
package componenttest

import (
	"fmt"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/garbagecollector"
	"github.com/dsplayground/dsplay/engine/kubelet"
	"github.com/dsplayground/dsplay/engine/nodelifecycle"
	"github.com/dsplayground/dsplay/engine/podgc"
	"github.com/dsplayground/dsplay/engine/tainteviction"
)

// World is a store with its kubelets and controllers. A nil component is
// left out of the passes.
type World struct {
	T  testing.TB
	C  *cluster.Cluster
	K  *kubelet.Kubelets
	NL *nodelifecycle.NodeLifecycle
	TE *tainteviction.TaintEviction
	PG *podgc.PodGC
	GC *garbagecollector.GarbageCollector
}

// New returns a world whose store holds the named nodes (cluster.NewNode
// with default options), at virtual time cluster.Epoch.
func New(t testing.TB, nodes ...string) *World {
	c := cluster.New(1)
	for i, n := range nodes {
		if err := c.CreateNode(c.NewNode(n, i, cluster.NodeOptions{})); err != nil {
			t.Fatal(err)
		}
	}
	return ForCluster(t, c)
}

// ForCluster returns a world over the store c. Its nodes hold Images
// (preloaded), so pods using imagePullPolicy Never with them start at once.
func ForCluster(t testing.TB, c *cluster.Cluster) *World {
	k := kubelet.New(c)
	k.Registry.Preload(Images...)
	return &World{T: t, C: c, K: k, NL: nodelifecycle.New(c), TE: tainteviction.New(c), PG: podgc.New(c), GC: garbagecollector.New(c)}
}

// Images are preloaded on every node of a World.
var Images = []string{"nginx:1.27", "busybox:1.36", "busybox"}

// Settle runs the components, in engine/loop.go's order, until a pass
// writes nothing.
func (w *World) Settle() {
	for i := 0; i < 50; i++ {
		rv := w.C.ResourceVersion()
		if w.NL != nil {
			w.NL.Sync()
		}
		w.K.Sync()
		if w.TE != nil {
			w.TE.Sync()
		}
		if w.PG != nil {
			w.PG.Sync()
		}
		if w.GC != nil {
			w.GC.Sync()
		}
		if w.C.ResourceVersion() == rv {
			return
		}
	}
	w.T.Fatal("no fixed point")
}

// Advance moves virtual time by d, stopping and settling at every wake-up.
func (w *World) Advance(d time.Duration) {
	target := w.C.Now().Add(d)
	w.Settle()
	for {
		t, ok := w.C.NextWakeup(target)
		if !ok {
			break
		}
		w.C.SetNow(t)
		w.Settle()
	}
	w.C.SetNow(target)
	w.Settle()
}

// Pod creates a pod bound to node running nginx:1.27 (imagePullPolicy
// Never, 30 s grace), changed by mut when not nil.
func (w *World) Pod(name, node string, mut func(p *api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "app", Image: "nginx:1.27", ImagePullPolicy: "Never"}},
			TerminationGracePeriodSeconds: api.Int64Ptr(30)}}
	if mut != nil {
		mut(p)
	}
	if err := w.C.CreatePod(p); err != nil {
		w.T.Fatal(err)
	}
	return p
}

// Events returns the pod's events as "+<offset from Epoch> <reason>
// [<field path>: ]<message>".
func (w *World) Events(p *api.Pod) []string {
	var out []string
	for _, e := range w.C.EventsFor("Pod", p.UID) {
		s := e.Reason + " " + e.Message
		if e.InvolvedObject.FieldPath != "" {
			s = e.Reason + " " + e.InvolvedObject.FieldPath + ": " + e.Message
		}
		out = append(out, fmt.Sprintf("+%s %s", e.FirstTimestamp.Sub(cluster.Epoch), s))
	}
	return out
}

// Taints returns the node's taints as key[=value]:effect, joined by commas.
func Taints(n *api.Node) string {
	s := ""
	for i, t := range n.Spec.Taints {
		if i > 0 {
			s += ","
		}
		s += t.ToString()
	}
	return s
}
