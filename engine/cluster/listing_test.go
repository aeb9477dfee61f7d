package cluster

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestPodListingsFollowEveryWrite drives the pod indexes through random
// creates, binds, owner changes, replacements and removals, reading the
// cached listings in between, and checks after every write that the
// owner listing (kept up to date by edits, not re-sorted), the node
// listings, PodNodeNames, PodOwnerUIDs and the per-owner and per-node
// change counters agree with what a fresh scan of the store gives.
func TestPodListingsFollowEveryWrite(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			c := New(seed)
			r := rand.New(rand.NewSource(seed))
			owners := []string{"", "uid-a", "uid-b"}
			nodes := []string{"", "n1", "n2", "n3"}
			var names []string
			ownerV := map[string]int64{}
			nodeV := map[string]int64{}
			for step := 0; step < 600; step++ {
				// read some listings so that they are cached when the write comes
				for _, o := range owners[r.Intn(len(owners)):] {
					c.PodsOwnedByShared(o)
				}
				c.PodNodeNames()
				c.PodOwnerUIDs()
				for _, o := range owners {
					ownerV[o] = c.OwnerPodVersion(o)
				}
				for _, n := range nodes {
					nodeV[n] = c.NodePodVersion(n)
				}
				var touchedOwners, touchedNodes []string
				switch op := r.Intn(10); {
				case op < 4 || len(names) == 0: // create
					name := fmt.Sprintf("p%03d", r.Intn(1000))
					if c.Pod("default", name) != nil {
						continue
					}
					p := newPod(name, nodes[r.Intn(len(nodes))], owners[r.Intn(len(owners))])
					if err := c.CreatePod(p); err != nil {
						t.Fatal(err)
					}
					names = append(names, name)
					touchedOwners, touchedNodes = []string{ownerUID(p)}, []string{p.Spec.NodeName}
				case op < 6: // bind or move, in place
					p := c.Pod("default", names[r.Intn(len(names))])
					touchedNodes = []string{p.Spec.NodeName}
					p.Spec.NodeName = nodes[r.Intn(len(nodes))]
					touchedNodes = append(touchedNodes, p.Spec.NodeName)
					touchedOwners = []string{ownerUID(p)}
					if err := c.UpdatePod(p); err != nil {
						t.Fatal(err)
					}
				case op < 7: // change the controller
					p := c.Pod("default", names[r.Intn(len(names))])
					touchedOwners = []string{ownerUID(p)}
					p.OwnerReferences = nil
					if o := owners[r.Intn(len(owners))]; o != "" {
						p.OwnerReferences = []api.OwnerReference{{Kind: "DaemonSet", Name: o, UID: o, Controller: api.BoolPtr(true)}}
					}
					touchedOwners = append(touchedOwners, ownerUID(p))
					touchedNodes = []string{p.Spec.NodeName}
					if err := c.UpdatePod(p); err != nil {
						t.Fatal(err)
					}
				case op < 8: // replace the object
					old := c.Pod("default", names[r.Intn(len(names))])
					p := *old
					p.Labels = map[string]string{"replaced": "yes"}
					touchedOwners, touchedNodes = []string{ownerUID(old)}, []string{old.Spec.NodeName}
					if err := c.UpdatePod(&p); err != nil {
						t.Fatal(err)
					}
				default: // remove
					i := r.Intn(len(names))
					p := c.Pod("default", names[i])
					touchedOwners, touchedNodes = []string{ownerUID(p)}, []string{p.Spec.NodeName}
					if err := c.RemovePod("default", names[i]); err != nil {
						t.Fatal(err)
					}
					names = slices.Delete(names, i, i+1)
				}
				for _, o := range touchedOwners {
					if c.OwnerPodVersion(o) == ownerV[o] {
						t.Fatalf("step %d: OwnerPodVersion(%q) did not move on a write to its pod", step, o)
					}
				}
				for _, n := range touchedNodes {
					if c.NodePodVersion(n) == nodeV[n] {
						t.Fatalf("step %d: NodePodVersion(%q) did not move on a write to its pod", step, n)
					}
				}
				wantOwner := map[string][]string{}
				wantNode := map[string][]string{}
				for _, p := range c.Pods() {
					wantOwner[ownerUID(p)] = append(wantOwner[ownerUID(p)], p.Name)
					wantNode[p.Spec.NodeName] = append(wantNode[p.Spec.NodeName], p.Name)
				}
				var wantNodeNames, wantOwnerUIDs []string
				for _, n := range nodes {
					if n != "" && len(wantNode[n]) > 0 {
						wantNodeNames = append(wantNodeNames, n)
					}
					if got, want := podNames(c.PodsOnNode(n)), strings.Join(wantNode[n], ","); got != want {
						t.Fatalf("step %d: PodsOnNode(%q) = %s, want %s", step, n, got, want)
					}
				}
				for _, o := range owners {
					if o != "" && len(wantOwner[o]) > 0 {
						wantOwnerUIDs = append(wantOwnerUIDs, o)
					}
					want := strings.Join(wantOwner[o], ",")
					if got := podNames(c.PodsOwnedByShared(o)); got != want {
						t.Fatalf("step %d: PodsOwnedByShared(%q) = %s, want %s", step, o, got, want)
					}
					if got := podNames(c.PodsOwnedBy(o)); got != want {
						t.Fatalf("step %d: PodsOwnedBy(%q) = %s, want %s", step, o, got, want)
					}
					for _, p := range c.PodsOwnedByShared(o) {
						if c.Pod(p.Namespace, p.Name) != p {
							t.Fatalf("step %d: owner listing of %q holds a replaced object of %s", step, o, p.Name)
						}
					}
				}
				if got, want := strings.Join(c.PodNodeNames(), ","), strings.Join(wantNodeNames, ","); got != want {
					t.Fatalf("step %d: PodNodeNames = %s, want %s", step, got, want)
				}
				if got, want := strings.Join(c.PodOwnerUIDs(), ","), strings.Join(wantOwnerUIDs, ","); got != want {
					t.Fatalf("step %d: PodOwnerUIDs = %s, want %s", step, got, want)
				}
			}
		})
	}
}

// TestSharedListingIsASnapshot: a listing handed out by PodsOwnedByShared
// is not changed by later writes (callers iterate it while writing).
func TestSharedListingIsASnapshot(t *testing.T) {
	c := New(1)
	for _, n := range []string{"a", "c"} {
		if err := c.CreatePod(newPod(n, "n1", "uid")); err != nil {
			t.Fatal(err)
		}
	}
	l := c.PodsOwnedByShared("uid")
	if err := c.CreatePod(newPod("b", "n1", "uid")); err != nil {
		t.Fatal(err)
	}
	if err := c.RemovePod("default", "a"); err != nil {
		t.Fatal(err)
	}
	if got := podNames(l); got != "a,c" {
		t.Errorf("old listing = %s, want a,c", got)
	}
	if got := podNames(c.PodsOwnedByShared("uid")); got != "b,c" {
		t.Errorf("new listing = %s, want b,c", got)
	}
}
