package controller

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// The rolling-update tests follow upstream pkg/controller/daemon/update_test.go
// (TestDaemonSetUpdatesPods, TestDaemonSetUpdatesPodsWithMaxSurge and the
// tests after them). Upstream's fake pod control observes
// its creates and deletes at once, as the simulated store does, so each
// expectSync below is one upstream expectSyncDaemonSets.

// updateTemplate changes the image as the API server stores a template
// change: generation and the template-generation annotation go up by one.
func updateTemplate(ds *api.DaemonSet, image string) {
	ds.Spec.Template.Spec.Containers[0].Image = image
	ds.Generation++
	g := int64(1)
	if p := GetTemplateGeneration(ds); p != nil {
		g = *p + 1
	}
	ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] = fmt.Sprint(g)
}

func maxUnavailableStrategy(v *api.IntOrString) api.DaemonSetUpdateStrategy {
	return api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
		RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: v}}
}

// surgeStrategy mirrors upstream newUpdateSurge: maxUnavailable 0.
func surgeStrategy(v *api.IntOrString) api.DaemonSetUpdateStrategy {
	return api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
		RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: api.FromInt(0), MaxSurge: v}}
}

// livePods returns the DaemonSet's pods without a deletionTimestamp.
func (f *fixture) livePods(ds *api.DaemonSet) []*api.Pod {
	var out []*api.Pod
	for _, p := range f.c.PodsOwnedBy(ds.UID) {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// setPodReadiness mirrors the upstream helper: flip the Ready condition of
// up to count live pods that match fn and are not already in that state,
// with lastTransitionTime now. count < 0 means all.
func (f *fixture) setPodReadiness(ds *api.DaemonSet, ready bool, count int, fn func(*api.Pod) bool) {
	f.t.Helper()
	for _, p := range f.livePods(ds) {
		if count == 0 {
			break
		}
		if p.IsReady() == ready || (fn != nil && !fn(p)) {
			continue
		}
		st := api.ConditionFalse
		if ready {
			st = api.ConditionTrue
		}
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st, LastTransitionTime: f.c.Now()}}
		if err := f.c.UpdatePod(p); err != nil {
			f.t.Fatal(err)
		}
		count--
	}
	if count > 0 {
		f.t.Fatalf("could not mark %d pods ready=%v", count, ready)
	}
}

// markPodsReady mirrors upstream markPodsReady: every live pod Ready.
func (f *fixture) markPodsReady(ds *api.DaemonSet) { f.setPodReadiness(ds, true, -1, nil) }

func (f *fixture) readyPodNames(ds *api.DaemonSet) map[string]bool {
	out := map[string]bool{}
	for _, p := range f.livePods(ds) {
		if p.IsReady() {
			out[p.Name] = true
		}
	}
	return out
}

func (f *fixture) currentHash(ds *api.DaemonSet) string {
	sel, _ := api.LabelSelectorAsSelector(ds.Spec.Selector)
	cur, _, err := f.dsc.constructHistory(ds, sel)
	if err != nil {
		f.t.Fatal(err)
	}
	return cur.Labels[api.ControllerRevisionHashLabelKey]
}

// step is one sync with the creates and deletes it must make.
type step struct{ c, d int }

func (f *fixture) expectSteps(steps ...step) {
	f.t.Helper()
	for i, s := range steps {
		c, d, e := f.syncAndCount()
		if c != s.c || d != s.d || e != 0 {
			f.t.Errorf("step %d: creates/deletes/events = %d/%d/%d, want %d/%d/0", i, c, d, e, s.c, s.d)
		}
	}
}

// §6 cases 38-40 and 44: sync-by-sync creates and deletes after an image
// change; "ready" marks every live pod Ready before the next sync.
func TestRollingUpdateSteps(t *testing.T) {
	type phase struct {
		steps []step
		ready bool // mark all pods ready after these steps
	}
	cases := []struct {
		name       string
		strategy   api.DaemonSetUpdateStrategy
		readyFirst bool // old pods Ready before the update
		phases     []phase
	}{
		{"case 38: maxUnavailable=2, all Ready", maxUnavailableStrategy(api.FromInt(2)), true, []phase{
			{[]step{{0, 2}, {2, 0}}, true},
			{[]step{{0, 2}, {2, 0}}, true},
			{[]step{{0, 1}, {1, 0}}, true},
			{[]step{{0, 0}}, false},
		}},
		{"case 39: maxUnavailable=3, new pods never Ready", maxUnavailableStrategy(api.FromInt(3)), true, []phase{
			{[]step{{0, 3}, {3, 0}, {0, 0}, {0, 0}}, false},
		}},
		{"case 40: maxUnavailable=3, all old pods not Ready", maxUnavailableStrategy(api.FromInt(3)), false, []phase{
			{[]step{{0, 5}, {5, 0}, {0, 0}}, false},
		}},
		{"maxUnavailable=40% of 5 -> 2", maxUnavailableStrategy(api.FromString("40%")), true, []phase{
			{[]step{{0, 2}, {2, 0}}, true},
			{[]step{{0, 2}, {2, 0}}, true},
			{[]step{{0, 1}, {1, 0}}, true},
			{[]step{{0, 0}}, false},
		}},
		{"case 44: maxSurge=2", surgeStrategy(api.FromInt(2)), true, []phase{
			{[]step{{2, 0}, {0, 0}}, true},
			{[]step{{2, 2}, {0, 0}}, true},
			{[]step{{1, 2}, {0, 0}}, true},
			{[]step{{0, 1}, {0, 0}}, false},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.addNodes("node", 0, 5, nil)
			ds := f.createDS(newDaemonSet("foo"))
			f.expectSync(5, 0, 0)
			if tc.readyFirst {
				f.markPodsReady(ds)
			}
			updateTemplate(ds, "foo2/bar2")
			ds.Spec.UpdateStrategy = tc.strategy
			for _, ph := range tc.phases {
				f.expectSteps(ph.steps...)
				if ph.ready {
					f.markPodsReady(ds)
				}
			}
			if tc.name[:7] == "case 39" {
				return
			}
			// the rollout is complete
			f.expectSync(0, 0, 0)
			hash := f.currentHash(ds)
			for _, p := range f.livePods(ds) {
				if p.Labels[api.ControllerRevisionHashLabelKey] != hash {
					t.Errorf("pod %s still has hash %s", p.Name, p.Labels[api.ControllerRevisionHashLabelKey])
				}
			}
			if len(f.livePods(ds)) != 5 || ds.Status.UpdatedNumberScheduled != 5 {
				t.Errorf("pods %d, status %+v", len(f.livePods(ds)), ds.Status)
			}
		})
	}
}

// §6 case 41: with 10 new pods left unready, later updates with any
// maxUnavailable below 10 replace only those 10, never the Ready ones;
// maxUnavailable 11 replaces 11 and leaves 9 Ready.
func TestDaemonSetUpdatesSaveOldHealthyPods(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 20, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(20, 0, 0)
	f.markPodsReady(ds)

	updateTemplate(ds, "foo2/bar2")
	ds.Spec.UpdateStrategy = maxUnavailableStrategy(api.FromInt(10))
	f.expectSteps(step{0, 10}, step{10, 0}, step{0, 0})
	oldReady := f.readyPodNames(ds)
	if len(oldReady) != 10 {
		t.Fatalf("ready = %d, want 10", len(oldReady))
	}
	for i := 0; i < 10; i++ {
		ds.Spec.UpdateStrategy = maxUnavailableStrategy(api.FromInt(int32(i))) // 0 counts as 1
		updateTemplate(ds, fmt.Sprintf("foo2/bar3-%d", i))
		f.expectSteps(step{0, 10}, step{10, 0}, step{0, 0})
		ready := f.readyPodNames(ds)
		for name := range oldReady {
			if !ready[name] {
				t.Errorf("iteration %d (maxUnavailable %d): ready pod %s was replaced", i, i, name)
			}
		}
	}
	ds.Spec.UpdateStrategy = maxUnavailableStrategy(api.FromInt(11))
	updateTemplate(ds, "foo2/bar4")
	f.expectSteps(step{0, 11}, step{11, 0}, step{0, 0})
	if n := len(f.readyPodNames(ds)); n != 9 {
		t.Errorf("ready pods = %d, want 9", n)
	}
}

// §6 case 42: 100 nodes, maxUnavailable 10; 88 unavailable new pods, 2
// unavailable old pods and 10 available old pods: exactly the 2 unavailable
// old pods are replaced.
func TestDaemonSetUpdatesAllOldNotReadyPodsAndNewNotReadyPods(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 100, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(100, 0, 0)
	f.markPodsReady(ds)
	hash1 := f.livePods(ds)[0].Labels[api.ControllerRevisionHashLabelKey]

	updateTemplate(ds, "foo2/bar2")
	ds.Spec.UpdateStrategy = maxUnavailableStrategy(api.FromInt(10))
	for i := 0; i < 10; i++ {
		f.expectSteps(step{0, 10}, step{10, 0})
		f.markPodsReady(ds)
	}
	f.expectSync(0, 0, 0)

	oldUnavailable := map[string]bool{}
	for i, p := range f.livePods(ds) {
		if i >= 10 {
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: f.c.Now()}}
		}
		if i < 12 {
			p.Labels[api.ControllerRevisionHashLabelKey] = hash1
			p.Labels[api.DaemonSetTemplateGenerationKey] = "1" // as created before the update
			if i >= 10 {
				oldUnavailable[p.Name] = true
			}
		}
		_ = f.c.UpdatePod(p)
	}
	f.expectSteps(step{0, 2}, step{2, 0}, step{0, 0})
	for name := range oldUnavailable {
		if f.c.Pod("default", name) != nil {
			t.Errorf("old unavailable pod %s not replaced", name)
		}
	}
}

// §6 case 43 (and §2.4): changing only the strategy touches no pod.
func TestDaemonSetUpdatesNoTemplateChanged(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 5, nil)
	ds := newDaemonSet("foo")
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
	f.createDS(ds)
	f.expectSync(5, 0, 0)
	ds.Spec.UpdateStrategy = maxUnavailableStrategy(api.FromInt(3))
	ds.Generation++
	f.expectSteps(step{0, 0}, step{0, 0})
}

// §2.4: OnDelete replaces no pod until something deletes one; the
// replacement carries the new hash, the others keep the old one.
func TestOnDeleteReplacesOnlyDeletedPods(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 3, nil)
	ds := newDaemonSet("foo")
	ds.Spec.UpdateStrategy = api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}
	f.createDS(ds)
	f.expectSync(3, 0, 0)
	f.markPodsReady(ds)
	oldHash := f.currentHash(ds)
	updateTemplate(ds, "foo2/bar2")
	f.expectSteps(step{0, 0}, step{0, 0})
	f.setPodReadiness(ds, false, 1, nil) // even an unready old pod stays
	f.expectSync(0, 0, 0)
	newHash := f.currentHash(ds)
	if ds.Status.UpdatedNumberScheduled != 0 {
		t.Errorf("updated = %d, want 0", ds.Status.UpdatedNumberScheduled)
	}
	victim := f.livePods(ds)[1]
	victimNode, _ := GetTargetNodeName(victim)
	if err := f.c.DeletePod(victim.Namespace, victim.Name, nil); err != nil {
		t.Fatal(err)
	}
	f.expectSync(1, 0, 0)
	for _, p := range f.livePods(ds) {
		n, _ := GetTargetNodeName(p)
		want := oldHash
		if n == victimNode {
			want = newHash
		}
		if got := p.Labels[api.ControllerRevisionHashLabelKey]; got != want {
			t.Errorf("pod on %s has hash %s, want %s", n, got, want)
		}
	}
	if ds.Status.UpdatedNumberScheduled != 1 {
		t.Errorf("updated = %d, want 1", ds.Status.UpdatedNumberScheduled)
	}
}

// §6 case 45: all old pods unavailable with maxSurge 3: 5 creates at once,
// then the 5 unready old pods go; with minReadySeconds 15 a new pod counts
// only once Ready for more than 15s, and an old pod turning unready gets
// its replacement at once.
func TestDaemonSetUpdatesAllOldPodsNotReadyMaxSurge(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 5, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(5, 0, 0)
	at := func(sec int) { f.c.SetNow(cluster.Epoch.Add(time.Duration(sec) * time.Second)) }

	updateTemplate(ds, "foo2/bar2")
	ds.Spec.UpdateStrategy = surgeStrategy(api.FromInt(3))
	at(100)
	f.expectSync(5, 0, 0)
	at(200)
	f.expectSync(0, 5, 0)

	f.markPodsReady(ds) // Ready since 200
	ds.Spec.MinReadySeconds = 15
	updateTemplate(ds, "foo3/bar3")
	at(300)
	f.expectSync(3, 0, 0)

	hash := f.currentHash(ds)
	surged := map[string]bool{}
	for _, p := range f.livePods(ds) {
		if p.Labels[api.ControllerRevisionHashLabelKey] == hash {
			n, _ := GetTargetNodeName(p)
			surged[n] = true
		}
	}
	// two updated pods Ready at 300; one old pod on a node without an
	// updated pod turns unready
	f.setPodReadiness(ds, true, 2, func(p *api.Pod) bool { return p.Labels[api.ControllerRevisionHashLabelKey] == hash })
	f.setPodReadiness(ds, false, 1, func(p *api.Pod) bool {
		n, _ := GetTargetNodeName(p)
		return p.Labels[api.ControllerRevisionHashLabelKey] != hash && !surged[n]
	})
	at(310) // not yet available: only the unready old pod gets a replacement
	f.expectSync(1, 0, 0)
	// The controller asks to be woken when the new pods become available
	// (minReadySeconds+1s after they turned Ready, as upstream re-queues).
	if wake, ok := f.c.NextWakeup(cluster.Epoch.Add(time.Hour)); !ok || !wake.Equal(cluster.Epoch.Add(316*time.Second)) {
		t.Errorf("wake-up = %v %v, want 316s", wake.Sub(cluster.Epoch), ok)
	}
	at(320) // available: the two old pods beside them go, and the unready old pod beside a new one
	f.expectSync(1, 3, 0)
	f.setPodReadiness(ds, true, 3, func(p *api.Pod) bool { return p.Labels[api.ControllerRevisionHashLabelKey] == hash })
	at(340)
	f.expectSync(0, 2, 0)
	at(350)
	f.expectSync(0, 0, 0)
	if len(f.livePods(ds)) != 5 {
		t.Errorf("pods = %d", len(f.livePods(ds)))
	}
}

// §6 case 47: with minReadySeconds 15 and the new pod Ready since t=50,
// the oldest Ready old pod stays at t=60 and goes at t=70.
func TestSurgeMinReadySeconds(t *testing.T) {
	for _, tc := range []struct {
		at    int
		wantD int
	}{{60, 1}, {70, 2}} {
		f := newFixture(t)
		f.addNodes("node", 0, 4, nil)
		ds := newDaemonSet("foo")
		ds.Spec.UpdateStrategy = surgeStrategy(api.FromInt(1))
		ds.Spec.MinReadySeconds = 15
		f.createDS(ds)
		hash := f.currentHash(ds)
		old := map[string]string{"name": "simple-daemon", "type": "production", api.ControllerRevisionHashLabelKey: "old"}
		ready := func(p *api.Pod, sec int) {
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: cluster.Epoch.Add(time.Duration(sec) * time.Second)}}
		}
		o1 := f.addPods("node-0", old, ds, 1)[0]
		o2 := f.addPods("node-0", old, ds, 1)[0]
		nw := f.addPods("node-0", map[string]string{"name": "simple-daemon", "type": "production", api.ControllerRevisionHashLabelKey: hash}, ds, 1)[0]
		ready(o1, 1)
		ready(o2, 2)
		ready(nw, 50)
		f.c.SetNow(cluster.Epoch.Add(time.Duration(tc.at) * time.Second))
		f.expectSync(3, tc.wantD, 0)
		if f.c.Pod("default", o2.Name).DeletionTimestamp == nil || f.c.Pod("default", nw.Name).DeletionTimestamp != nil {
			t.Errorf("t=%d: wrong pods deleted", tc.at)
		}
		if (f.c.Pod("default", o1.Name).DeletionTimestamp != nil) != (tc.wantD == 2) {
			t.Errorf("t=%d: oldest old pod handled wrong", tc.at)
		}
	}
}

// §6 case 48: surge at its limit, a node whose only pod is terminating gets
// a new pod anyway.
func TestSurgeCreatesNewPodWhenAtMaxSurgeAndOldPodDeleted(t *testing.T) {
	f := newFixture(t)
	f.addNodes("node", 0, 5, nil)
	ds := f.createDS(newDaemonSet("foo"))
	f.expectSync(5, 0, 0)
	f.markPodsReady(ds)
	updateTemplate(ds, "foo2/bar2")
	ds.Spec.UpdateStrategy = surgeStrategy(api.FromInt(1))
	f.expectSync(1, 0, 0) // surge on node-0, new pod not ready: at the limit
	f.expectSync(0, 0, 0)
	var victim *api.Pod
	for _, p := range f.livePods(ds) {
		if n, _ := GetTargetNodeName(p); n == "node-3" {
			victim = p
		}
	}
	now := f.c.Now().Add(30 * time.Second)
	victim.DeletionTimestamp = &now
	_ = f.c.UpdatePod(victim)
	seq := f.c.LastDecisionSeq()
	f.expectSync(1, 0, 0)
	for _, d := range f.c.Decisions(seq) {
		if d.Action == "create" && d.Node != "node-3" {
			t.Errorf("created on %s, want node-3", d.Node)
		}
	}
}

// §6 case 49: node-0 carries the control-plane NoSchedule taint, which the
// DaemonSet tolerated; the update drops the toleration with maxSurge 1:
// node-0's pod goes only while more pods are available than desired.
func TestDaemonSetUpdatesPodsNotMatchTaintsWithMaxSurge(t *testing.T) {
	f := newFixture(t)
	ds := newDaemonSet("foo")
	ds.Spec.UpdateStrategy = surgeStrategy(api.FromInt(1))
	ds.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: api.LabelControlPlane, Operator: api.TolerationOpExists}}
	f.addNodes("node", 0, 5, nil)
	f.node("node-0").Spec.Taints = []api.Taint{{Key: api.LabelControlPlane, Effect: api.TaintEffectNoSchedule}}
	f.createDS(ds)
	f.expectSync(5, 0, 0)
	f.markPodsReady(ds)

	ds.Spec.Template.Spec.Tolerations = nil
	ds.Generation++
	ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] = "2"
	seq := f.c.LastDecisionSeq()
	f.expectSteps(step{1, 1}, step{0, 0})
	var sawNode0 bool
	for _, d := range f.c.Decisions(seq) {
		if d.Action == "delete" && d.Node == "node-0" {
			sawNode0 = d.Func == "rollingUpdate" && strings.Contains(d.Reason, "(5 available, 4 desired)") &&
				strings.Contains(d.Reason, "taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated")
			if !sawNode0 {
				t.Errorf("node-0 decision = %+v", d)
			}
		}
	}
	if !sawNode0 {
		t.Error("node-0's pod not deleted")
	}
	for i := 0; i < 3; i++ {
		f.markPodsReady(ds)
		f.expectSteps(step{1, 1}, step{0, 0})
	}
	f.markPodsReady(ds)
	f.expectSteps(step{0, 1}, step{0, 0})
	if n := len(f.livePods(ds)); n != 4 || ds.Status.UpdatedNumberScheduled != 4 || ds.Status.NumberMisscheduled != 0 {
		t.Errorf("pods %d, status %+v", n, ds.Status)
	}
}

// UP TestGetUnavailableNumbers (§6 "maxUnavailable/maxSurge arithmetic",
// §2.1): scaling against desiredNumberScheduled, percentages rounded up,
// both zero -> maxUnavailable 1, and empty entries for nodes without pods.
func TestGetUnavailableNumbers(t *testing.T) {
	readyPod := func(name, node string, terminating bool) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Labels: copyMap(simpleDaemonSetLabel)}, Spec: api.PodSpec{NodeName: node},
			Status: api.PodStatus{Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}}
		if terminating {
			now := cluster.Epoch
			p.DeletionTimestamp = &now
		}
		return p
	}
	cases := []struct {
		name                              string
		nodes                             int
		strategy                          api.DaemonSetUpdateStrategy
		pods                              []string // nodes with a ready pod; "!" prefix: terminating
		maxSurge, maxUnavailable, desired int
		emptyNodes                        int
	}{
		{"no nodes", 0, maxUnavailableStrategy(api.FromInt(0)), nil, 0, 0, 0, 0},
		{"two nodes with ready pods", 2, maxUnavailableStrategy(api.FromInt(1)), []string{"node-0", "node-1"}, 0, 1, 2, 0},
		{"two nodes, one without pods", 2, maxUnavailableStrategy(api.FromInt(0)), []string{"node-0"}, 0, 1, 2, 1},
		{"two nodes, one without pods, surge 0", 2, surgeStrategy(api.FromInt(0)), []string{"node-0"}, 0, 1, 2, 1},
		{"maxUnavailable 50% of 2", 2, maxUnavailableStrategy(api.FromString("50%")), []string{"node-0", "node-1"}, 0, 1, 2, 0},
		{"maxSurge 50% of 2", 2, surgeStrategy(api.FromString("50%")), []string{"node-0", "node-1"}, 1, 0, 2, 0},
		{"maxSurge 100% of 2", 2, surgeStrategy(api.FromString("100%")), []string{"node-0", "node-1"}, 2, 0, 2, 0},
		{"maxUnavailable 50% of 3, one pod terminating", 3, maxUnavailableStrategy(api.FromString("50%")), []string{"node-0", "!node-1"}, 0, 2, 3, 1},
		{"maxUnavailable 10% of 3 rounds up", 3, maxUnavailableStrategy(api.FromString("10%")), nil, 0, 1, 3, 3},
		{"maxSurge nil and maxUnavailable 0", 2, api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType,
			RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: api.FromInt(0)}}, nil, 0, 1, 2, 2},
		{"OnDelete", 2, api.DaemonSetUpdateStrategy{Type: api.OnDeleteDaemonSetStrategyType}, nil, 0, 1, 2, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.addNodes("node", 0, tc.nodes, nil)
			ds := newDaemonSet("x")
			ds.Spec.UpdateStrategy = tc.strategy
			m := map[string][]*api.Pod{}
			for i, n := range tc.pods {
				term := strings.HasPrefix(n, "!")
				n = strings.TrimPrefix(n, "!")
				m[n] = []*api.Pod{readyPod(fmt.Sprintf("pod-%d", i), n, term)}
			}
			nodes := f.c.Nodes()
			surge, unavail, desired, err := updatedDesiredNodeCounts(ds, nodes, newPodPlan(ds).evalAll(nodes), m)
			if err != nil {
				t.Fatal(err)
			}
			if surge != tc.maxSurge || unavail != tc.maxUnavailable || desired != tc.desired {
				t.Errorf("(surge, unavailable, desired) = (%d, %d, %d), want (%d, %d, %d)", surge, unavail, desired, tc.maxSurge, tc.maxUnavailable, tc.desired)
			}
			empty := 0
			for _, pods := range m {
				if len(pods) == 0 {
					empty++
				}
			}
			if empty != tc.emptyNodes {
				t.Errorf("empty nodes = %d, want %d", empty, tc.emptyNodes)
			}
		})
	}
	// a percentage that is not one is an error
	ds := newDaemonSet("x")
	ds.Spec.UpdateStrategy = maxUnavailableStrategy(api.FromString("abc"))
	if _, _, _, err := updatedDesiredNodeCounts(ds, nil, nil, map[string][]*api.Pod{}); err == nil {
		t.Error("no error for maxUnavailable \"abc\"")
	}
	if AllowsSurge(newDaemonSet("x")) {
		t.Error("maxSurge 0 allows surge")
	}
	ds.Spec.UpdateStrategy = surgeStrategy(api.FromString("1%"))
	if !AllowsSurge(ds) {
		t.Error("maxSurge 1% (rounded up to 1) does not allow surge")
	}
}

func TestFindUpdatedPodsOnNode(t *testing.T) {
	ds := newDaemonSet("foo")
	mk := func(hash string, terminating bool) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: hash, Labels: map[string]string{api.ControllerRevisionHashLabelKey: hash}}}
		if terminating {
			now := cluster.Epoch
			p.DeletionTimestamp = &now
		}
		return p
	}
	cases := []struct {
		pods             []*api.Pod
		wantNew, wantOld string
		ok               bool
	}{
		{nil, "", "", true},
		{[]*api.Pod{mk("cur", false)}, "cur", "", true},
		{[]*api.Pod{mk("old", false), mk("cur", false)}, "cur", "old", true},
		{[]*api.Pod{mk("old", true), mk("cur", false)}, "cur", "", true},
		{[]*api.Pod{mk("cur", false), mk("cur", false)}, "", "", false},
		{[]*api.Pod{mk("old", false), mk("old2", false)}, "", "", false},
	}
	for i, tc := range cases {
		n, o, ok := findUpdatedPods(newTemplateGeneration(GetTemplateGeneration(ds)), tc.pods, "cur")
		name := func(p *api.Pod) string {
			if p == nil {
				return ""
			}
			return p.Name
		}
		if name(n) != tc.wantNew || name(o) != tc.wantOld || ok != tc.ok {
			t.Errorf("case %d: (%s, %s, %v)", i, name(n), name(o), ok)
		}
	}
}

// Rolling-update decisions say which revision goes and how much of the
// budget is used.
func TestRollingUpdateDecisions(t *testing.T) {
	for _, tc := range []struct {
		unready string // node whose old pod is not Ready
		want    string
	}{
		{"", "delete node-0: old revision 1 pod, 1 of maxUnavailable=1 used; the revision 2 pod is created once it has gone"},
		{"node-2", "delete node-2: the old revision 1 pod is not available (not Ready), so it is replaced at once without counting against maxUnavailable=1; the revision 2 pod is created once it has gone"},
	} {
		f := newFixture(t)
		f.addNodes("node", 0, 3, nil)
		ds := f.createDS(newDaemonSet("foo"))
		f.expectSync(3, 0, 0)
		f.markPodsReady(ds)
		if tc.unready != "" {
			f.setPodReadiness(ds, false, 1, func(p *api.Pod) bool { n, _ := GetTargetNodeName(p); return n == tc.unready })
		}
		updateTemplate(ds, "foo2/bar2")
		seq := f.c.LastDecisionSeq()
		f.expectSync(0, 1, 0)
		var got []string
		for _, d := range f.c.Decisions(seq) {
			if d.Func == "rollingUpdate" {
				got = append(got, d.Action+" "+d.Node+": "+d.Reason)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("decisions = %q, want %q", got, tc.want)
		}
	}
}

// A stalled rollout is explained by one "wait" decision, recorded again
// only when the reason changes.
func TestRollingUpdateWaitDecision(t *testing.T) {
	for _, tc := range []struct {
		name     string
		strategy api.DaemonSetUpdateStrategy
		steps    []step
		want     string
	}{
		{"maxUnavailable", maxUnavailableStrategy(api.FromInt(3)), []step{{0, 3}, {3, 0}, {0, 0}, {0, 0}},
			"the rolling update waits: 2 old pod(s) left, but 3 node(s) are already without an available pod (node-0, node-1, node-2) and maxUnavailable=3"},
		{"maxSurge", surgeStrategy(api.FromInt(1)), []step{{1, 0}, {0, 0}, {0, 0}},
			"the rolling update waits: 5 old pod(s) left, 1 updated pod(s) not available yet (node-0) and maxSurge=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.addNodes("node", 0, 5, nil)
			ds := f.createDS(newDaemonSet("foo"))
			f.expectSync(5, 0, 0)
			f.markPodsReady(ds)
			updateTemplate(ds, "foo2/bar2")
			ds.Spec.UpdateStrategy = tc.strategy
			seq := f.c.LastDecisionSeq()
			f.expectSteps(tc.steps...)
			var waits []string
			for _, d := range f.c.Decisions(seq) {
				if d.Action == "wait" {
					waits = append(waits, d.Reason)
				}
			}
			if len(waits) != 1 || waits[0] != tc.want {
				t.Errorf("wait decisions = %q, want [%q]", waits, tc.want)
			}
			// progress forgets the reason; a later stall is explained again
			f.markPodsReady(ds)
			f.syncAndCount()
			if _, ok := f.dsc.lastWait[ds.UID]; ok {
				t.Error("the wait reason survived progress")
			}
		})
	}
}
