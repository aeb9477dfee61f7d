package engine

import (
	"fmt"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/kubelet"
	"github.com/dsplayground/dsplay/engine/nodelifecycle"
)

// AddNode registers a new Ready node the way a joining kubelet does
// (cluster.NewNode: hostname/os/arch labels, capacity, conditions, a free
// pod CIDR and InternalIP), then settles. Errors: AlreadyExists, or what
// NodeOptions.Validate finds (a bad name, quantity, label or taint).
func (s *Simulation) AddNode(name string, o cluster.NodeOptions) error {
	c := s.store
	if c.Node(name) != nil {
		return cluster.AlreadyExists("nodes", name)
	}
	if err := o.Validate(name); err != nil {
		return fmt.Errorf("node %s: %w", name, err)
	}
	used := map[string]bool{}
	for _, n := range c.Nodes() {
		used[n.Spec.PodCIDR] = true
	}
	idx := 0
	for used[cluster.PodCIDR(idx)] {
		idx++
	}
	n := c.NewNode(name, idx, o)
	if err := c.CreateNode(n); err != nil {
		return err
	}
	c.Decide(cluster.Decision{Component: cluster.ComponentKubelet, Func: "registerWithAPIServer", Object: "Node/" + name, Node: name,
		Action: "register", Reason: "a kubelet joined the cluster and registered its node"})
	s.Settle()
	return nil
}

// RemoveNode deletes the node object (as `kubectl delete node` does); the pod
// GC then removes the pods bound to it and the DaemonSet controller stops
// counting it. Errors: NotFound.
func (s *Simulation) RemoveNode(name string) error {
	if err := s.store.DeleteNode(name); err != nil {
		return err
	}
	s.comps.kubelets.Forget(name)
	s.store.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "DeleteNode", Object: "Node/" + name, Node: name,
		Action: "remove", Reason: "the node was removed from the cluster"})
	s.Settle()
	return nil
}

// FailNode stops the node's kubelet: it no longer posts status, renews its
// lease or runs pods.
// After the node-monitor grace period (nodelifecycle.NodeMonitorGracePeriod, 50 s
// of virtual time; call Advance) the node lifecycle controller sets
// Ready=Unknown (NodeStatusUnknown, "Kubelet stopped posting node
// status.") and adds the unreachable NoSchedule and
// NoExecute taints. Daemon pods tolerate them and stay (counted
// misscheduled); ordinary pods are evicted after their 300 s
// tolerationSeconds when they carry the DefaultTolerationSeconds
// tolerations (api.AddDefaultTolerationSeconds), at once otherwise.
// Errors: NotFound, or the node has already failed.
func (s *Simulation) FailNode(name string) error {
	if s.store.Node(name) == nil {
		return cluster.NotFound("nodes", name)
	}
	if !s.comps.kubelets.Stop(name) {
		return fmt.Errorf("node %q has already failed", name)
	}
	s.store.Decide(cluster.Decision{Component: cluster.ComponentKubelet, Func: "FailNode", Object: "Node/" + name, Node: name,
		Action: "fail", Reason: fmt.Sprintf("the kubelet stopped; the node controller notices after %s", nodelifecycle.NodeMonitorGracePeriod)})
	s.Settle()
	return nil
}

// RecoverNode restarts a failed node's kubelet: it posts Ready=True at once,
// the node lifecycle controller removes the unreachable taints, and pods on
// the node run again. Errors: NotFound, or the node has not failed.
func (s *Simulation) RecoverNode(name string) error {
	if s.store.Node(name) == nil {
		return cluster.NotFound("nodes", name)
	}
	if !s.comps.kubelets.Start(name) {
		return fmt.Errorf("node %q has not failed", name)
	}
	s.Settle()
	return nil
}

// FailPod makes the pod's containers exit with an error: the pod becomes
// Failed (as test/integration/daemonset TestSimpleDaemonSetRestartsPodsOnTerminalPhase
// does), and a DaemonSet then deletes and replaces it. Errors: NotFound, or
// the pod is already terminal.
func (s *Simulation) FailPod(namespace, name string) error {
	return s.terminatePod(namespace, name, podTermination{
		phase: api.PodFailed, exitCode: 1, containerReason: "Error", conditionReason: "PodFailed",
		fn: "FailPod", action: "fail", why: "the pod's containers exited with an error: phase Failed",
	})
}

// SucceedPod makes the pod's containers exit 0: the pod becomes Succeeded,
// as test/integration/daemonset TestSimpleDaemonSetRestartsPodsOnTerminalPhase
// sets it through the status API (the kubelet would restart a restartPolicy
// Always container instead), and a DaemonSet then deletes and replaces it.
// Errors: NotFound, or the pod is already terminal.
func (s *Simulation) SucceedPod(namespace, name string) error {
	return s.terminatePod(namespace, name, podTermination{
		phase: api.PodSucceeded, exitCode: 0, containerReason: "Completed", conditionReason: "PodCompleted",
		fn: "SucceedPod", action: "succeed", why: "the pod's containers exited 0: phase Succeeded",
	})
}

// podTermination describes how terminatePod ends a pod: the terminal phase,
// the containers' exit code and Terminated reason, the reason set on the
// Ready/ContainersReady conditions, and the recorded kubelet decision
// (upstream-style function name, action, explanation).
type podTermination struct {
	phase                            string
	exitCode                         int32
	containerReason, conditionReason string
	fn, action, why                  string
}

// terminatePod moves pod namespace/name (namespace "" = default) to
// t.phase: every container becomes Terminated (t.exitCode, t.containerReason;
// StartedAt kept from its Running state), Ready and ContainersReady turn
// False with t.conditionReason, the pod is written, a kubelet decision is
// recorded and the simulation settles. Errors: NotFound, or the pod is
// already terminal.
func (s *Simulation) terminatePod(namespace, name string, t podTermination) error {
	if namespace == "" {
		namespace = api.DefaultNamespace
	}
	c := s.store
	p := c.Pod(namespace, name)
	if p == nil {
		return cluster.NotFound("pods", name)
	}
	if p.IsTerminal() {
		return fmt.Errorf("pod %q is already %s", name, p.Status.Phase)
	}
	now := c.Stamp() // stored in the pod: whole seconds, as metav1.Time
	p.Status.Phase = t.phase
	for i := range p.Status.ContainerStatuses {
		cs := &p.Status.ContainerStatuses[i]
		started := now
		if cs.State.Running != nil {
			started = cs.State.Running.StartedAt
		}
		cs.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: t.exitCode, Reason: t.containerReason, StartedAt: started, FinishedAt: now, ContainerID: cs.ContainerID}}
		cs.Ready = false
		cs.Started = api.BoolPtr(false)
	}
	for i := range p.Status.Conditions {
		cd := &p.Status.Conditions[i]
		if (cd.Type == api.PodReady || cd.Type == api.ContainersReady) && cd.Status != api.ConditionFalse {
			cd.Status, cd.Reason, cd.LastTransitionTime = api.ConditionFalse, t.conditionReason, now
		}
	}
	kubelet.ObserveGeneration(p) // the kubelet posts this status
	if err := c.UpdatePod(p); err != nil {
		return err
	}
	c.Decide(cluster.Decision{Component: cluster.ComponentKubelet, Func: t.fn, Object: "Pod/" + namespace + "/" + name, Node: p.Spec.NodeName,
		Action: t.action, Reason: t.why})
	s.Settle()
	return nil
}

// SetNodeCondition makes node name report condition typ ("Ready",
// "MemoryPressure", "DiskPressure", "PIDPressure", "NetworkUnavailable")
// with status "True" or "False", as its kubelet (or, for
// NetworkUnavailable, the route controller) would
// (kubelet.Kubelets.SetNodeCondition), then settles: the node lifecycle
// controller adds or removes the matching taints (memory-pressure,
// disk-pressure, pid-pressure, network-unavailable NoSchedule; for
// Ready=False not-ready NoSchedule and NoExecute), which the DaemonSet
// controller and the scheduler then act on. Errors: NotFound, an unknown
// type or status, Ready=Unknown (use FailNode), or a failed node.
func (s *Simulation) SetNodeCondition(name, typ, status string) error {
	if err := s.comps.kubelets.SetNodeCondition(name, typ, status); err != nil {
		return err
	}
	s.Settle()
	return nil
}
