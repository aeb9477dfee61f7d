package kubectl

import (
	"fmt"

	"github.com/dsplayground/dsplay/engine/cluster"
)

func cordonFlags() []*flagDef {
	return []*flagDef{
		stringFlag("selector", "l", ""),
		dryRunFlag(),
	}
}

func runCordon(inv *invocation) error   { return runCordonOrUncordon(inv, true) }
func runUncordon(inv *invocation) error { return runCordonOrUncordon(inv, false) }

// runCordonOrUncordon mirrors kubectl drain's RunCordonOrUncordon: set
// spec.unschedulable and print "node/<name> cordoned" (or "already
// cordoned"). The node lifecycle controller mirrors it as the
// node.kubernetes.io/unschedulable:NoSchedule taint.
func runCordonOrUncordon(inv *invocation, desired bool) error {
	verb := "cordon"
	if !desired {
		verb = "uncordon"
	}
	f := inv.flags
	selStr := f.String("selector")
	if len(inv.args) == 0 && !f.Changed("selector") {
		return &usageError{msg: fmt.Sprintf("USAGE: %s NODE [flags]", verb), cmdPath: "kubectl " + verb}
	}
	if inv.cmd != nil && inv.cmd.name == "drain" {
		verb = "cordon"
	}
	dry, err := dryRunStrategy(f)
	if err != nil {
		return err
	}
	names := inv.args
	if selStr != "" && len(names) > 0 {
		return &plainError{"error: cannot specify both a node name and a --selector option"}
	}
	nodes, errs, err := selectNodes(inv, names, selStr, selStr != "")
	if err != nil {
		return err
	}
	c := inv.env.Cluster
	for _, n := range nodes {
		if n.Spec.Unschedulable == desired {
			// ToPrinter applies PrintFlagsWithDryRunStrategy to every operation,
			// "already cordoned" included (drain.go RunCordonOrUncordon).
			nameOutput(inv, rtNodes, n.Name, "already "+verb+"ed"+dryRunSuffix(dry))
			continue
		}
		if dry == "" {
			n.Spec.Unschedulable = desired
			if err := c.UpdateNode(n); err != nil {
				errs = append(errs, err)
				continue
			}
			c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "RunCordonOrUncordon",
				Object: "node/" + n.Name, Node: n.Name, Action: verb,
				Reason: fmt.Sprintf("%s: spec.unschedulable=%v", inv.line, desired)})
		}
		nameOutput(inv, rtNodes, n.Name, verb+"ed"+dryRunSuffix(dry))
	}
	return visitErr(errs)
}
