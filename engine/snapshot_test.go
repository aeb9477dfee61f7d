package engine

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// snapshotFixture returns a default-cluster simulation with a DaemonSet
// "fluentd" and pods written straight into the store (no components run):
// a Running pod on node-1, a terminating pod on node-2, a pod on the tainted
// control-plane (misscheduled), a bare unbound pod.
func snapshotFixture(t testing.TB) *Simulation {
	t.Helper()
	s := New(Options{})
	c := s.store
	ds := &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "fluentd", Namespace: "default"},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"name": "fluentd"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"name": "fluentd"}},
				Spec: api.PodSpec{
					NodeSelector: map[string]string{"kubernetes.io/os": "linux"},
					Containers:   []api.Container{{Name: "fluentd", Image: "fluentd:v2.5.2"}},
				},
			},
			UpdateStrategy: api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType},
		},
		Status: api.DaemonSetStatus{DesiredNumberScheduled: 2, CurrentNumberScheduled: 3, NumberReady: 1, UpdatedNumberScheduled: 3, NumberAvailable: 1, NumberMisscheduled: 1},
	}
	if err := c.CreateDaemonSet(ds); err != nil {
		t.Fatal(err)
	}
	mk := func(name, node string, owned bool) *api.Pod {
		p := &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"name": "fluentd"}},
			Spec:       api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "fluentd", Image: "fluentd:v2.5.2"}}},
		}
		if owned {
			p.Labels[api.ControllerRevisionHashLabelKey] = "7d9c5b6f4"
			p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: api.BoolPtr(true)}}
		}
		if err := c.CreatePod(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	running := mk("fluentd-abcde", "node-1", true)
	running.Status.Phase = api.PodRunning
	running.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
	running.Status.ContainerStatuses = []api.ContainerStatus{{Name: "fluentd", Ready: true, State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}
	_ = c.UpdatePod(running)
	term := mk("fluentd-fghij", "node-2", true)
	now := c.Now()
	term.DeletionTimestamp = &now
	_ = c.UpdatePod(term)
	mk("fluentd-klmno", "control-plane", true)
	mk("bare", "", false)
	pinned := mk("fluentd-pqrst", "", true)
	pinned.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: "In", Values: []string{"node-2"}}}}},
	}}}
	_ = c.UpdatePod(pinned)
	return s
}

func TestSnapshot(t *testing.T) {
	s := snapshotFixture(t)
	s.store.SetNow(cluster.Epoch.Add(90 * time.Second))
	snap := s.Snapshot()

	if snap.Elapsed != 90*time.Second {
		t.Errorf("Elapsed %v, want 90s", snap.Elapsed)
	}
	var names []string
	for _, n := range snap.Nodes {
		names = append(names, n.Name)
	}
	if got := strings.Join(names, ","); got != "control-plane,node-1,node-2" {
		t.Fatalf("nodes %s", got)
	}

	cp, n1, n2 := snap.Nodes[0], snap.Nodes[1], snap.Nodes[2]
	tests := []struct {
		name      string
		got, want string
	}{
		{"control-plane status", cp.Status, "Ready"},
		{"control-plane roles", cp.Roles, "control-plane"},
		{"control-plane taints", strings.Join(cp.Taints, ";"), "node-role.kubernetes.io/control-plane:NoSchedule"},
		{"node-1 roles", n1.Roles, "<none>"},
		{"node-1 taints", strings.Join(n1.Taints, ";"), ""},
		{"node-1 pods", podNames(n1.Pods), "fluentd-abcde"},
		{"node-2 pods", podNames(n2.Pods), "fluentd-fghij"},
		{"control-plane pods", podNames(cp.Pods), "fluentd-klmno"},
		{"pending", podNames(snap.Pending), "bare,fluentd-pqrst"},
		{"pending daemon pod target", snap.Pending[1].Target, "node-2"},
		{"bare pod target", snap.Pending[0].Target, ""},
		{"running status", n1.Pods[0].Status, "Running"},
		{"running ready", n1.Pods[0].Ready, "1/1"},
		{"running phase", n1.Pods[0].Phase, api.PodRunning},
		{"owner", n1.Pods[0].Owner, "fluentd"},
		{"revision", n1.Pods[0].Revision, "7d9c5b6f4"},
		{"image", n1.Pods[0].Image, "fluentd:v2.5.2"},
		{"terminating status", n2.Pods[0].Status, "Terminating"},
		{"bare owner", snap.Pending[0].Owner, ""},
		{"bare phase", snap.Pending[0].Phase, api.PodPending},
		{"ds node selector", snap.DaemonSets[0].NodeSelector, "kubernetes.io/os=linux"},
		{"ds images", strings.Join(snap.DaemonSets[0].Images, ","), "fluentd:v2.5.2"},
		{"ds counts", fmt.Sprint(snap.DaemonSets[0].Desired, snap.DaemonSets[0].Current, snap.DaemonSets[0].Ready, snap.DaemonSets[0].UpToDate, snap.DaemonSets[0].Available, snap.DaemonSets[0].Misscheduled), "2 3 1 3 1 1"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
	if !n1.Ready || n1.Unschedulable {
		t.Errorf("node-1 Ready=%v Unschedulable=%v", n1.Ready, n1.Unschedulable)
	}
	if !n2.Pods[0].Terminating || n1.Pods[0].Terminating {
		t.Errorf("terminating flags: node-2 %v node-1 %v", n2.Pods[0].Terminating, n1.Pods[0].Terminating)
	}
	if !contains(n1.Labels, "kubernetes.io/hostname=node-1") {
		t.Errorf("node-1 labels %v", n1.Labels)
	}

	// Per-node verdicts: one entry per DaemonSet on every node.
	for _, n := range snap.Nodes {
		if len(n.Daemons) != 1 || n.Daemons[0].Name != "fluentd" || n.Daemons[0].DaemonSet != "default/fluentd" {
			t.Fatalf("%s: daemons %+v", n.Name, n.Daemons)
		}
	}
	if d := n1.Daemons[0]; !d.ShouldRun || d.Pods != 1 || d.Misscheduled || d.Reason != "" {
		t.Errorf("node-1 verdict %+v", d)
	}
	d := cp.Daemons[0]
	if d.ShouldRun || d.Pods != 1 || !d.Misscheduled {
		t.Errorf("control-plane verdict %+v", d)
	}
	if !strings.Contains(d.Reason, "node-role.kubernetes.io/control-plane") {
		t.Errorf("misscheduled reason %q does not name the control-plane taint", d.Reason)
	}
	if len(d.Checks) == 0 {
		t.Errorf("control-plane verdict has no checks")
	}
}

func TestSnapshotReasonWithoutPod(t *testing.T) {
	s := snapshotFixture(t)
	if err := s.store.RemovePod("default", "fluentd-klmno"); err != nil {
		t.Fatal(err)
	}
	d := s.Snapshot().Nodes[0].Daemons[0]
	if d.ShouldRun || d.Pods != 0 || d.Misscheduled {
		t.Fatalf("control-plane verdict %+v", d)
	}
	if !strings.Contains(d.Reason, "node-role.kubernetes.io/control-plane") {
		t.Errorf("reason %q does not name the control-plane taint", d.Reason)
	}
}

// The Reason names the check that decided the verdict: with required node
// affinity terms ORed, a term that does not match while another does is
// not why the pod stays off the node; the untolerated taint is.
func TestSnapshotReasonSkipsORedAffinityTerms(t *testing.T) {
	s := snapshotFixture(t)
	d := s.store.DaemonSet("default", "fluentd")
	d.Spec.Template.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: "In", Values: []string{"ssd"}}}},
			{MatchExpressions: []api.NodeSelectorRequirement{{Key: "kubernetes.io/os", Operator: "In", Values: []string{"linux"}}}},
		},
	}}}
	if err := s.store.UpdateDaemonSet(d); err != nil {
		t.Fatal(err)
	}
	cp := s.Snapshot().Nodes[0]
	if cp.Name != "control-plane" || cp.Daemons[0].ShouldRun {
		t.Fatalf("%s verdict %+v", cp.Name, cp.Daemons[0])
	}
	if got := cp.Daemons[0].Reason; !strings.HasPrefix(got, "taint node-role.kubernetes.io/control-plane:NoSchedule is not tolerated") {
		t.Errorf("Reason = %q, want the control-plane taint", got)
	}
}

func TestSnapshotIsACopy(t *testing.T) {
	s := snapshotFixture(t)
	snap := s.Snapshot()
	n := s.store.Node("node-1")
	n.Labels["disk"] = "ssd"
	n.Spec.Taints = append(n.Spec.Taints, api.Taint{Key: "k", Value: "v", Effect: api.TaintEffectNoSchedule})
	if contains(snap.Nodes[1].Labels, "disk=ssd") || len(snap.Nodes[1].Taints) != 0 {
		t.Errorf("snapshot shares node state with the store: %v %v", snap.Nodes[1].Labels, snap.Nodes[1].Taints)
	}
}

func podNames(ps []PodView) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Name)
	}
	return strings.Join(s, ",")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// BenchmarkSnapshot measures a snapshot of a cluster with one DaemonSet and
// one pod per node.
func BenchmarkSnapshot(b *testing.B) {
	for _, nodes := range []int{100, 1000, 5000} {
		b.Run(fmt.Sprint(nodes), func(b *testing.B) {
			s := New(Options{Empty: true})
			c := s.store
			ds := &api.DaemonSet{ObjectMeta: api.ObjectMeta{Name: "fluentd"}}
			ds.Spec.Template.Spec.Containers = []api.Container{{Name: "f", Image: "fluentd"}}
			if err := c.CreateDaemonSet(ds); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < nodes; i++ {
				name := fmt.Sprintf("node-%d", i)
				if err := c.CreateNode(c.NewNode(name, i, cluster.NodeOptions{})); err != nil {
					b.Fatal(err)
				}
				p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "fluentd-", OwnerReferences: []api.OwnerReference{{Kind: "DaemonSet", Name: "fluentd", UID: ds.UID, Controller: api.BoolPtr(true)}}}}
				p.Spec.NodeName = name
				p.Spec.Containers = ds.Spec.Template.Spec.Containers
				if err := c.CreatePod(p); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = s.Snapshot()
			}
		})
	}
}

// A pod the scheduler cannot place carries its FailedScheduling message; a
// Failed pod its status.reason.
func TestSnapshotPodReasons(t *testing.T) {
	s := snapshotFixture(t)
	c := s.store
	p := c.Pod("default", "bare")
	const msg = "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."
	p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: "Unschedulable", Message: msg}}
	_ = c.UpdatePod(p)
	f := c.Pod("default", "fluentd-abcde")
	f.Status.Phase, f.Status.Reason, f.Status.Message = api.PodFailed, "OutOfmemory", "Pod Node didn't have enough resource: memory"
	_ = c.UpdatePod(f)
	snap := s.Snapshot()
	if got := snap.Pending[0].Unschedulable; got != msg {
		t.Errorf("Unschedulable = %q, want %q", got, msg)
	}
	if got := snap.Pending[1].Unschedulable; got != "" {
		t.Errorf("a pod without PodScheduled=False has Unschedulable %q", got)
	}
	if got := snap.Nodes[1].Pods[0]; got.Reason != "OutOfmemory" || got.Message != "Pod Node didn't have enough resource: memory" {
		t.Errorf("failed pod Reason %q Message %q", got.Reason, got.Message)
	}
}

// End to end: a DaemonSet asking for more memory than the workers have.
func TestSnapshotInsufficientResources(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("big")
	ds.Spec.Template.Spec.Containers[0].Resources.Requests = api.ResourceList{api.ResourceMemory: api.MustParseQuantity("5Gi")}
	createDS(t, s, ds)
	s.Advance(30 * time.Second)
	var got []string
	for _, p := range s.Snapshot().Pending {
		if p.Owner == "big" {
			got = append(got, p.Target+": "+p.Unschedulable)
		}
	}
	if len(got) != 2 || !strings.Contains(got[0], "Insufficient memory") {
		t.Errorf("pending pods' reasons: %q", got)
	}
}

// A Snapshotter's snapshots equal fresh ones at every step of a story that
// changes nodes, pods and DaemonSets; unchanged nodes are reused.
func TestSnapshotterMatchesSnapshot(t *testing.T) {
	s := New(Options{})
	sn := s.NewSnapshotter()
	check := func(step string) {
		t.Helper()
		got, want := sn.Snapshot(), s.Snapshot()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the Snapshotter's snapshot differs from Snapshot():\ngot  %+v\nwant %+v", step, got.Nodes, want.Nodes)
		}
	}
	check("start")
	ds := newTestDS("agent")
	createDS(t, s, ds)
	check("DaemonSet created")
	for i := 0; i < 6; i++ {
		s.Advance(2 * time.Second)
		check(fmt.Sprintf("t+%ds", 2*(i+1)))
	}
	// nothing changes: every view is reused
	check("quiet")
	if sn.Built != 0 || sn.Reused != 3 {
		t.Errorf("a quiet snapshot built %d views and reused %d, want 0 and 3", sn.Built, sn.Reused)
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"taint node-1", func() { s.Run("kubectl taint nodes node-1 k=v:NoExecute") }},
		{"label node-2", func() { s.Run("kubectl label nodes node-2 disk=ssd") }},
		{"add node-3", func() { _ = s.AddNode("node-3", cluster.NodeOptions{}) }},
		{"selector disk=ssd", func() {
			d := s.store.DaemonSet("default", "agent")
			d.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
			_ = s.store.UpdateDaemonSet(d)
			s.Settle()
		}},
		{"remove node-3", func() { _ = s.RemoveNode("node-3") }},
		{"delete a pod", func() { s.Run("kubectl delete pods --all") }},
	}
	for _, st := range steps {
		st.do()
		check(st.name)
		for i := 0; i < 3; i++ {
			s.Advance(5 * time.Second)
			check(fmt.Sprintf("%s +%ds", st.name, 5*(i+1)))
		}
	}
}

// BenchmarkSnapshotter measures a snapshot of a 5,000-node cluster after one
// node changed.
func BenchmarkSnapshotter(b *testing.B) {
	s := New(Options{Empty: true})
	c := s.store
	for i := 0; i < 5000; i++ {
		if err := c.CreateNode(c.NewNode(fmt.Sprintf("node-%d", i), i, cluster.NodeOptions{})); err != nil {
			b.Fatal(err)
		}
	}
	createDS(b, s, newTestDS("agent"))
	s.Advance(30 * time.Second)
	sn := s.NewSnapshotter()
	sn.Snapshot()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := c.Node(fmt.Sprintf("node-%d", i%5000))
		n.Labels["touch"] = fmt.Sprint(i)
		_ = c.UpdateNode(n)
		_ = sn.Snapshot()
	}
}

// webView returns the snapshot's DaemonSet "web" and its pods (bound and
// not), failing the test when it is missing.
func webView(t *testing.T, snap Snapshot) (DaemonSetView, []PodView) {
	t.Helper()
	var pods []PodView
	for _, n := range snap.Nodes {
		for _, p := range n.Pods {
			if p.Owner == "web" {
				pods = append(pods, p)
			}
		}
	}
	for _, p := range snap.Pending {
		if p.Owner == "web" {
			pods = append(pods, p)
		}
	}
	for _, d := range snap.DaemonSets {
		if d.Name == "web" {
			return d, pods
		}
	}
	t.Fatal("no DaemonSet web in the snapshot")
	return DaemonSetView{}, nil
}

// revisionLine renders a DaemonSetView's legend compactly for assertions:
// "1 nginx:1.25 pods=0; *2 nginx:1.26 pods=2" (* marks the current one).
func revisionLine(d DaemonSetView) string {
	var parts []string
	for _, r := range d.Revisions {
		cur := ""
		if r.Current {
			cur = "*"
		}
		parts = append(parts, fmt.Sprintf("%s%d %s pods=%d", cur, r.Number, strings.Join(r.Images, ","), r.Pods))
	}
	return strings.Join(parts, "; ")
}

// The page's rollout view: revisions with image and hash, each pod's
// revision number, the per-revision pod counts and kubectl rollout
// status's message, through a RollingUpdate (maxSurge 0 and 1) and a
// rollout undo; the Snapshotter (whose cached node views carry revision
// numbers) agrees with fresh snapshots at every step.
func TestSnapshotRollout(t *testing.T) {
	for _, tc := range []struct {
		maxUnavailable, maxSurge int
		wantSurge                bool // some node runs an old and a new pod at once
	}{
		{1, 0, false},
		{0, 1, true},
	} {
		t.Run(fmt.Sprintf("maxUnavailable=%d,maxSurge=%d", tc.maxUnavailable, tc.maxSurge), func(t *testing.T) {
			s := New(Options{})
			sn := s.NewSnapshotter()
			take := func(step string) (DaemonSetView, []PodView) {
				t.Helper()
				got, want := sn.Snapshot(), s.Snapshot()
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the Snapshotter's snapshot differs from Snapshot():\ngot  %+v\nwant %+v", step, got, want)
				}
				d, pods := webView(t, got)
				// the message is kubectl's, word for word
				out := s.Run("kubectl rollout status ds/web --watch=false")
				if kc := strings.TrimSuffix(out.Stdout, "\n"); d.RolloutMessage != kc {
					t.Fatalf("%s: RolloutMessage %q, kubectl rollout status prints %q", step, d.RolloutMessage, kc)
				}
				// each pod's number is that of the revision with its hash,
				// and the legend counts the live pods of each revision
				counts := map[int64]int{}
				for _, p := range pods {
					var want int64
					for _, r := range d.Revisions {
						if r.Hash == p.Revision {
							want = r.Number
						}
					}
					if p.RevisionNumber != want || want == 0 {
						t.Fatalf("%s: pod %s hash %s has revision %d, want %d (revisions %+v)", step, p.Name, p.Revision, p.RevisionNumber, want, d.Revisions)
					}
					if !p.Terminating {
						counts[p.RevisionNumber]++
					}
				}
				for _, r := range d.Revisions {
					if r.Pods != counts[r.Number] {
						t.Fatalf("%s: revision %d counts %d pods, want %d", step, r.Number, r.Pods, counts[r.Number])
					}
					if r.Name != "web-"+r.Hash || r.Hash == "" {
						t.Fatalf("%s: revision %d named %q with hash %q", step, r.Number, r.Name, r.Hash)
					}
				}
				return d, pods
			}
			if _, err := s.Apply("web.yaml", fmt.Sprintf(rollingDS, tc.maxUnavailable, tc.maxSurge, "nginx:1.25")); err != nil {
				t.Fatal(err)
			}
			s.Advance(time.Minute)
			d, _ := take("created")
			if got := revisionLine(d); got != "*1 nginx:1.25 pods=2" {
				t.Errorf("created: revisions %q", got)
			}
			if d.UpdateRevision != 1 || !d.RolloutDone || d.RolloutMessage != `daemon set "web" successfully rolled out` {
				t.Errorf("created: update revision %d, done %v, message %q", d.UpdateRevision, d.RolloutDone, d.RolloutMessage)
			}
			if d.MaxUnavailable != fmt.Sprint(tc.maxUnavailable) || d.MaxSurge != fmt.Sprint(tc.maxSurge) {
				t.Errorf("maxUnavailable %q maxSurge %q", d.MaxUnavailable, d.MaxSurge)
			}

			if _, err := s.Apply("web.yaml", fmt.Sprintf(rollingDS, tc.maxUnavailable, tc.maxSurge, "nginx:1.26")); err != nil {
				t.Fatal(err)
			}
			messages := map[string]bool{}
			sawMixed, sawSurge := false, false
			for i := 0; i < 120; i++ {
				d, pods := take(fmt.Sprintf("update +%ds", i))
				messages[d.RolloutMessage] = true
				if len(d.Revisions) != 2 || d.UpdateRevision != 2 || !d.Revisions[1].Current || d.Revisions[0].Current ||
					strings.Join(d.Revisions[1].Images, ",") != "nginx:1.26" || strings.Join(d.Revisions[0].Images, ",") != "nginx:1.25" {
					t.Fatalf("update +%ds: revisions %+v", i, d.Revisions)
				}
				perNode := map[string]map[int64]bool{}
				revs := map[int64]bool{}
				for _, p := range pods {
					if p.Terminating {
						continue
					}
					revs[p.RevisionNumber] = true
					if perNode[p.Node] == nil {
						perNode[p.Node] = map[int64]bool{}
					}
					perNode[p.Node][p.RevisionNumber] = true
				}
				sawMixed = sawMixed || len(revs) == 2
				for node, r := range perNode {
					sawSurge = sawSurge || (node != "" && len(r) == 2)
				}
				if d.RolloutDone {
					break
				}
				s.Advance(time.Second)
			}
			d, pods := take("rolled out")
			if got := revisionLine(d); got != "1 nginx:1.25 pods=0; *2 nginx:1.26 pods=2" {
				t.Errorf("rolled out: revisions %q", got)
			}
			if !d.RolloutDone || d.RolloutMessage != `daemon set "web" successfully rolled out` {
				t.Errorf("rolled out: done %v, message %q", d.RolloutDone, d.RolloutMessage)
			}
			if !messages[`Waiting for daemon set "web" rollout to finish: 0 out of 2 new pods have been updated...`] && !messages[`Waiting for daemon set "web" rollout to finish: 1 out of 2 new pods have been updated...`] {
				t.Errorf("no \"N out of 2 new pods have been updated\" message seen: %v", messages)
			}
			if !sawMixed {
				t.Error("never saw pods of both revisions at once")
			}
			if sawSurge != tc.wantSurge {
				t.Errorf("a node ran pods of both revisions at once: %v, want %v", sawSurge, tc.wantSurge)
			}
			for _, p := range pods {
				if !p.Terminating && p.RevisionNumber != 2 {
					t.Errorf("rolled out: pod %s on revision %d", p.Name, p.RevisionNumber)
				}
			}

			// rollout undo: revision 1 comes back as revision 3 (same hash),
			// and the pods carrying it are redrawn with the new number
			if out := s.Run("kubectl rollout undo ds/web"); out.ExitCode != 0 {
				t.Fatalf("rollout undo: %s%s", out.Stdout, out.Stderr)
			}
			s.Advance(2 * time.Minute)
			d, _ = take("undone")
			if got := revisionLine(d); got != "2 nginx:1.26 pods=0; *3 nginx:1.25 pods=2" {
				t.Errorf("undone: revisions %q", got)
			}
		})
	}
}

// OnDelete: the template change records revision 2 and no pod moves; the
// message is kubectl's error; a deleted pod comes back on revision 2.
func TestSnapshotOnDelete(t *testing.T) {
	s := New(Options{})
	if _, err := s.Apply("web.yaml", tlDS(-1, 0, "nginx:1.25")); err != nil {
		t.Fatal(err)
	}
	s.Advance(time.Minute)
	if _, err := s.Apply("web.yaml", tlDS(-1, 0, "nginx:1.26")); err != nil {
		t.Fatal(err)
	}
	s.Advance(time.Minute)
	d, pods := webView(t, s.Snapshot())
	if got := revisionLine(d); got != "1 nginx:1.25 pods=2; *2 nginx:1.26 pods=0" {
		t.Errorf("after the change: revisions %q", got)
	}
	if d.Strategy != "OnDelete" || d.MaxUnavailable != "" || d.MaxSurge != "" || !d.RolloutDone ||
		d.RolloutMessage != "error: rollout status is only available for RollingUpdate strategy type" {
		t.Errorf("strategy %q maxUnavailable %q maxSurge %q done %v message %q", d.Strategy, d.MaxUnavailable, d.MaxSurge, d.RolloutDone, d.RolloutMessage)
	}
	if len(pods) != 2 {
		t.Fatalf("%d pods", len(pods))
	}
	if out := s.Run("kubectl delete pod " + pods[0].Name); out.ExitCode != 0 {
		t.Fatalf("delete: %s", out.Stderr)
	}
	s.Advance(time.Minute)
	d, pods = webView(t, s.Snapshot())
	if got := revisionLine(d); got != "1 nginx:1.25 pods=1; *2 nginx:1.26 pods=1" {
		t.Errorf("after deleting a pod: revisions %q", got)
	}
	revs := map[int64]int{}
	for _, p := range pods {
		revs[p.RevisionNumber]++
	}
	if revs[1] != 1 || revs[2] != 1 {
		t.Errorf("pods per revision %v, want one on 1 and one on 2", revs)
	}
}

func TestRevisionImages(t *testing.T) {
	for _, tc := range []struct {
		data string
		want []string
	}{
		{`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"nginx:1.25"}],"$patch":"replace"}}}}`, []string{"nginx:1.25"}},
		{`{"spec":{"template":{"spec":{"initContainers":[{"image":"init:1"}],"containers":[{"image":"a:1"},{"image":"b:2"}]}}}}`, []string{"a:1", "b:2"}},
		{`{"spec":{"template":{}}}`, []string{}},
		{`not json`, nil},
	} {
		if got := revisionImages(tc.data); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("revisionImages(%s) = %#v, want %#v", tc.data, got, tc.want)
		}
	}
}
