package kubectl

import (
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// fixture builds a store by hand, independent of the controllers: the
// default nodes, a DaemonSet "fluentd" with two Running pods on node-1 and
// node-2, a Pending pod, a ControllerRevision and a few events, at virtual
// time Epoch+4m11s.
func fixture() *cluster.Cluster {
	c := cluster.New(1)
	c.AddDefaultNodes()
	c.SetNow(cluster.Epoch.Add(10 * time.Second))
	ds := &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Name: "fluentd", Labels: map[string]string{"app": "fluentd"}},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "fluentd"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "fluentd"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "fluentd", Image: "fluentd:v1.16"}},
					TerminationGracePeriodSeconds: api.Int64Ptr(30)},
			},
			UpdateStrategy: api.DaemonSetUpdateStrategy{Type: "RollingUpdate"},
		},
		Status: api.DaemonSetStatus{DesiredNumberScheduled: 3, CurrentNumberScheduled: 3, NumberReady: 2,
			UpdatedNumberScheduled: 3, NumberAvailable: 2, NumberUnavailable: 1},
	}
	if err := c.CreateDaemonSet(ds); err != nil {
		panic(err)
	}
	rev := &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: "fluentd-6f7d8c9b5d", Labels: map[string]string{"app": "fluentd", "controller-revision-hash": "6f7d8c9b5d"},
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "fluentd", UID: ds.UID, Controller: api.BoolPtr(true)}}},
		Revision: 1,
	}
	if err := c.CreateControllerRevision(rev); err != nil {
		panic(err)
	}
	c.SetNow(cluster.Epoch.Add(11 * time.Second))
	mk := func(name, node, phase string, ready bool, ip string) *api.Pod {
		p := &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": "fluentd", "controller-revision-hash": "6f7d8c9b5d", "pod-template-generation": "1"},
				OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "fluentd", UID: ds.UID, Controller: api.BoolPtr(true), BlockOwnerDeletion: api.BoolPtr(true)}}},
			Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "fluentd", Image: "fluentd:v1.16"}},
				TerminationGracePeriodSeconds: api.Int64Ptr(30)},
		}
		if err := c.CreatePod(p); err != nil {
			panic(err)
		}
		p.Status.Phase = phase
		p.Status.PodIP = ip
		st := api.ContainerStatus{Name: "fluentd", Image: "fluentd:v1.16"}
		switch {
		case ready:
			st.Ready = true
			st.State.Running = &api.ContainerStateRunning{StartedAt: c.Now()}
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: c.Now()}}
		case node != "":
			st.State.Waiting = &api.ContainerStateWaiting{Reason: "ContainerCreating"}
		}
		if node != "" {
			p.Status.ContainerStatuses = []api.ContainerStatus{st}
		}
		c.UpdatePod(p)
		return p
	}
	mk("fluentd-7xkq2", "node-1", api.PodRunning, true, "10.244.1.5")
	mk("fluentd-bz9wd", "node-2", api.PodRunning, true, "10.244.2.7")
	mk("fluentd-q9z4m", "control-plane", api.PodPending, false, "")
	c.Record("DaemonSet", &ds.ObjectMeta, "", api.EventTypeNormal, "SuccessfulCreate", "Created pod: fluentd-7xkq2", cluster.ComponentDaemonSetController, "")
	c.Record("DaemonSet", &ds.ObjectMeta, "", api.EventTypeNormal, "SuccessfulCreate", "Created pod: fluentd-bz9wd", cluster.ComponentDaemonSetController, "")
	c.SetNow(cluster.Epoch.Add(4*time.Minute + 11*time.Second))
	return c
}

// testEnv wraps a store in an Env whose Advance moves the clock and runs
// a fake kubelet that removes terminating pods whose deletionTimestamp passed.
// As the engine's components do, the fake kubelet queues a wake-up
// (cluster.WakeAt) for each deletion still to come, and Advance stops at
// every wake-up on the way (engine.Simulation.Advance): waiting commands
// may skip ahead while nothing is queued.
func testEnv(c *cluster.Cluster, files map[string]string) *Env {
	kubelet := func() {
		for _, p := range c.Pods() {
			if p.DeletionTimestamp == nil {
				continue
			}
			if !c.Now().Before(*p.DeletionTimestamp) {
				c.RemovePod(p.Namespace, p.Name)
			} else {
				c.WakeAt(*p.DeletionTimestamp)
			}
		}
	}
	return &Env{
		Cluster: c,
		Files:   files,
		Settle:  kubelet,
		Advance: func(d time.Duration) {
			target := c.Now().Add(d)
			kubelet()
			for {
				t, ok := c.NextWakeup(target)
				if !ok {
					break
				}
				c.SetNow(t)
				kubelet()
			}
			c.SetNow(target)
			kubelet()
		},
	}
}
