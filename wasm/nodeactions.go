//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"

	"github.com/dsplayground/dsplay/engine"
)

// Node actions: what a learner can do to a node from its panel (and
// through window.dsplay.failNode / recoverNode / setCondition). Every
// action goes through the page's engine.Recorder (a.rec), so the timeline
// records it and a replay follows the same path; each is echoed in the
// kubectl console as what was done. Cordon, Uncordon and Delete node are
// the kubectl commands a learner would type (kubectl cordon NODE, kubectl
// delete node NODE), run as if typed. The panel's help says why applying
// a Node's status does not work: the API server keeps the old status on an
// update (pkg/registry/core/node/strategy.go, nodeStrategy.PrepareForUpdate;
// kubectl prints nothing about it), and a status given at creation is
// replaced by the kubelet's next report. Failing a node, recovering it and
// node conditions have no kubectl command (they are the kubelet's doing),
// so the console shows them as a "#" comment line with what happened.

// pressureConditions are the node conditions the panel toggles: the
// kubelet's eviction manager sets them (pkg/kubelet/eviction), and the node
// lifecycle controller taints the node for each
// (node.kubernetes.io/memory-pressure, disk-pressure, pid-pressure:
// NoSchedule). Daemon pods tolerate these taints (the DaemonSet controller
// adds the tolerations, pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations),
// other pods do not.
var pressureConditions = engine.PressureConditions

// kubeletStopped says whether the live node's kubelet was stopped by Fail
// node and not recovered since: the last fail-node or recover-node input
// the recorder holds for the node decides (a repeated one fails without
// changing the state, so the last one is right either way); removing the
// node forgets its kubelet.
func (a *app) kubeletStopped(name string) bool {
	stopped := false
	for _, in := range a.rec.Inputs() {
		if in.Name != name {
			continue
		}
		switch in.Kind {
		case engine.InputFailNode:
			stopped = true
		case engine.InputRecoverNode, engine.InputRemoveNode:
			stopped = false
		}
	}
	return stopped
}

// nodeCondition returns the status ("True", "False", "Unknown") of
// condition typ of node name in the cluster shown, "" when it has none.
func (a *app) nodeCondition(name, typ string) string {
	return a.shown().NodeCondition(name, typ)
}

// failNode stops node name's kubelet (engine.Simulation.FailNode) and says
// so in the console; it returns "" or the error.
func (a *app) failNode(name string) string {
	a.flushJobs()
	err := a.rec.FailNode(name)
	return a.echoNodeAction("# fail node "+name+": stop its kubelet", err,
		fmt.Sprintf("The kubelet on %s stopped posting node status. After the node-monitor grace period (50s) the node\n"+
			"lifecycle controller sets Ready to Unknown and taints the node unreachable (NoSchedule, NoExecute).\n"+
			"Daemon pods tolerate those taints and stay; see kubectl get nodes, kubectl describe node %s.", name, name))
}

// recoverNode restarts node name's kubelet (engine.Simulation.RecoverNode)
// and says so in the console; it returns "" or the error.
func (a *app) recoverNode(name string) string {
	a.flushJobs()
	err := a.rec.RecoverNode(name)
	return a.echoNodeAction("# recover node "+name+": start its kubelet again", err,
		fmt.Sprintf("The kubelet on %s posts Ready=True again; the node lifecycle controller removes the unreachable taints.", name))
}

// setNodeCondition makes node name report condition typ with status
// ("True" or "False") as its kubelet would
// (engine.Simulation.SetNodeCondition), and says so in the console; it
// returns "" or the error.
func (a *app) setNodeCondition(name, typ, status string) string {
	a.flushJobs()
	err := a.rec.SetNodeCondition(name, typ, status)
	what := fmt.Sprintf("The kubelet on %s reports %s=%s.", name, typ, status)
	if taint := engine.PressureTaint(typ); taint != "" {
		if status == engine.ConditionTrue {
			what += " The node lifecycle controller taints it " + taint + ":NoSchedule (daemon pods tolerate it; other new pods do not)."
		} else {
			what += " The node lifecycle controller removes the taint " + taint + ":NoSchedule."
		}
	}
	return a.echoNodeAction(fmt.Sprintf("# node %s reports %s=%s", name, typ, status), err, what)
}

// echoNodeAction shows a node action that has no kubectl command in the
// console: the comment line cmd, then what happened (or the error on
// stderr); it redraws the view and returns "" or the error text.
func (a *app) echoNodeAction(cmd string, err error, done string) string {
	msg := ""
	if err != nil {
		msg = err.Error()
		a.kc.echo(cmd, "", "error: "+msg)
	} else {
		a.kc.echo(cmd, done, "")
	}
	a.view.render(false)
	if a.view.panelNode != "" {
		a.view.drawPanel() // the kubelet's state is not in the store: redraw the buttons
	}
	return msg
}

// runNodeAction performs the action of a node panel button: act is the
// button's data-act ("fail", "recover", "cordon", "uncordon", "delete",
// "cond"), typ and status the condition of a "cond" button.
func (a *app) runNodeAction(name, act, typ, status string) {
	if a.tl.blocked() {
		return
	}
	switch act {
	case "fail":
		a.failNode(name)
	case "recover":
		a.recoverNode(name)
	case "cordon", "uncordon":
		a.kc.run("kubectl " + act + " " + name)
	case "delete":
		a.kc.run("kubectl delete node " + name)
	case "cond":
		a.setNodeCondition(name, typ, status)
	}
}

// nodeActions builds the node panel's action bar for node n: Fail node /
// Recover, Cordon / Uncordon, the pressure toggles and Delete node, with a
// help line. Buttons carry data-act (and data-type, data-status for a
// condition); view.panelClick runs them. In the past (timeline) they are
// disabled: the past is read only.
func (v *view) nodeActions(n *engine.NodeView) js.Value {
	past := v.a.tl != nil && v.a.tl.past
	box := el("section", "node-actions")
	box.Call("setAttribute", "aria-label", "Do something to node "+n.Name)
	row := el("div", "na-row")
	btn := func(label, act, title string) js.Value {
		b := textEl("button", "ctl", label)
		b.Set("type", "button")
		b.Get("dataset").Set("act", act)
		b.Set("title", title)
		b.Set("disabled", past)
		row.Call("appendChild", b)
		return b
	}
	stopped := v.a.kubeletStopped(n.Name) || v.a.nodeCondition(n.Name, engine.NodeReady) == engine.ConditionUnknown
	if stopped {
		btn("Recover", "recover", "Start the node's kubelet again: it posts Ready=True and the unreachable taints go")
	} else {
		btn("Fail node", "fail", "Stop the node's kubelet: after the 50s grace period the node controller sets Ready to Unknown and taints the node unreachable")
	}
	if n.Unschedulable {
		btn("Uncordon", "uncordon", "kubectl uncordon "+n.Name+": new pods may be scheduled here again")
	} else {
		btn("Cordon", "cordon", "kubectl cordon "+n.Name+": mark the node unschedulable (the DaemonSet controller still places its pods: they tolerate node.kubernetes.io/unschedulable)")
	}
	del := btn("Delete node", "delete", "kubectl delete node "+n.Name+": remove the Node object")
	del.Get("classList").Call("add", "danger")
	box.Call("appendChild", row)

	prow := el("div", "na-row")
	prow.Call("setAttribute", "role", "group")
	prow.Call("setAttribute", "aria-label", "Node pressure conditions")
	prow.Call("appendChild", textEl("span", "na-label", "Pressure:"))
	for _, typ := range pressureConditions {
		on := v.a.nodeCondition(n.Name, typ) == engine.ConditionTrue
		b := textEl("button", "ctl toggle", strings.TrimSuffix(typ, "Pressure"))
		b.Set("type", "button")
		ds := b.Get("dataset")
		ds.Set("act", "cond")
		ds.Set("type", typ)
		next := engine.ConditionTrue
		if on {
			next = engine.ConditionFalse
		}
		ds.Set("status", next)
		b.Call("setAttribute", "aria-pressed", fmt.Sprint(on))
		b.Call("setAttribute", "aria-label", typ)
		b.Set("title", fmt.Sprintf("%s is %s: make the kubelet report %s=%s", typ, map[bool]string{true: "True", false: "False"}[on], typ, next))
		b.Set("disabled", past || stopped)
		prow.Call("appendChild", b)
	}
	box.Call("appendChild", prow)
	box.Call("appendChild", textEl("p", "hint na-help",
		"A node's conditions come from its kubelet: applying a Node's status does not change them (an update keeps the old status, the status subresource's to change; a status set at creation is replaced by the kubelet's next report). Use Fail node or the pressure toggles here."))
	return box
}
