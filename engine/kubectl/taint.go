package kubectl

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func taintFlags() []*flagDef {
	return []*flagDef{
		stringFlag("selector", "l", ""),
		boolFlag("overwrite", ""),
		boolFlag("all", ""),
		dryRunFlag(),
		stringFlag("output", "o", ""),
		stringFlag("field-manager", "", "kubectl-taint"),
		stringFlag("validate", "", "strict"),
		boolFlag("allow-missing-template-keys", ""),
		boolFlag("show-managed-fields", ""),
	}
}

// dryRunFlag is cmdutil.AddDryRunFlag's --dry-run.
func dryRunFlag() *flagDef {
	return &flagDef{name: "dry-run", kind: flagString, def: "none", noOptDef: "unchanged"}
}

// dryRunStrategy mirrors cmdutil.GetDryRunStrategy: "", "client" or "server".
func dryRunStrategy(f *flagSet) (string, error) {
	switch v := f.String("dry-run"); v {
	case "none", "":
		return "", nil
	case "client", "server":
		return v, nil
	case "unchanged":
		return "", &plainError{`--dry-run flag without a value was specified. A value must be set: "none", "server", or "client".`}
	default:
		return "", &plainError{fmt.Sprintf(`Invalid dry-run value (%s). Must be "none", "server", or "client".`, v)}
	}
}

// dryRunSuffix is what PrintFlagsWithDryRunStrategy adds to the operation.
func dryRunSuffix(s string) string {
	switch s {
	case "client":
		return " (dry run)"
	case "server":
		return " (server dry run)"
	}
	return ""
}

// nameOutput mirrors the name printer: "<kind>/<name> <operation>", or just
// "<kind>/<name>" with -o name.
func nameOutput(inv *invocation, rt *resourceType, name, operation string) {
	if inv.flags.String("output") == "name" {
		inv.out.WriteString(rt.kindString() + "/" + name + "\n")
		return
	}
	inv.out.WriteString(rt.kindString() + "/" + name + " " + operation + "\n")
}

// checkNameOutput validates -o for commands that print through the name printer.
func checkNameOutput(f *flagSet) error {
	switch o := f.String("output"); o {
	case "", "name":
		return nil
	default:
		return &plainError{fmt.Sprintf("-o %s is not simulated in the playground for this command (only -o name)", o)}
	}
}

// parseTaints mirrors kubectl taint's parseTaints: taints to add and to
// remove ("KEY[=VALUE]:EFFECT-", "KEY:EFFECT-", "KEY-").
func parseTaints(specs []string) (add, remove []api.Taint, err error) {
	unique := map[string]bool{}
	for _, spec := range specs {
		if strings.HasSuffix(spec, "-") {
			t, err := parseTaint(strings.TrimSuffix(spec, "-"))
			if err != nil {
				return nil, nil, err
			}
			remove = append(remove, api.Taint{Key: t.Key, Effect: t.Effect})
			continue
		}
		t, err := parseTaint(spec)
		if err != nil {
			return nil, nil, err
		}
		if t.Effect == "" {
			return nil, nil, fmt.Errorf("invalid taint spec: %v", spec)
		}
		k := t.Effect + "\x00" + t.Key
		if unique[k] {
			return nil, nil, fmt.Errorf("duplicated taints with the same key and effect: %v", goTaint(t))
		}
		unique[k] = true
		add = append(add, t)
	}
	return add, remove, nil
}

// goTaint renders a taint as Go's %v of a core/v1 Taint value does.
func goTaint(t api.Taint) string {
	return fmt.Sprintf("{%s %s %s <nil>}", t.Key, t.Value, t.Effect)
}

// parseTaint mirrors kubectl taint's parseTaint: "KEY=VALUE:EFFECT",
// "KEY:EFFECT" or "KEY".
func parseTaint(st string) (api.Taint, error) {
	var t api.Taint
	parts := strings.Split(st, ":")
	switch len(parts) {
	case 1:
		t.Key = parts[0]
	case 2:
		t.Effect = parts[1]
		if err := validateTaintEffect(t.Effect); err != nil {
			return t, err
		}
		kv := strings.Split(parts[0], "=")
		if len(kv) > 2 {
			return t, fmt.Errorf("invalid taint spec: %v", st)
		}
		t.Key = kv[0]
		if len(kv) == 2 {
			t.Value = kv[1]
			if errs := api.IsValidLabelValue(t.Value); len(errs) > 0 {
				return t, fmt.Errorf("invalid taint spec: %v, %s", st, strings.Join(errs, "; "))
			}
		}
	default:
		return t, fmt.Errorf("invalid taint spec: %v", st)
	}
	if errs := api.IsQualifiedName(t.Key); len(errs) > 0 {
		return t, fmt.Errorf("invalid taint spec: %v, %s", st, strings.Join(errs, "; "))
	}
	return t, nil
}

func validateTaintEffect(e string) error {
	if e != api.TaintEffectNoSchedule && e != api.TaintEffectPreferNoSchedule && e != api.TaintEffectNoExecute {
		return fmt.Errorf("invalid taint effect: %v, unsupported taint effect", e)
	}
	return nil
}

// matchTaint mirrors Taint.MatchTaint: same key and effect.
func matchTaint(a, b api.Taint) bool { return a.Key == b.Key && a.Effect == b.Effect }

// reorganizeTaints mirrors kubectl taint's reorganizeTaints: the new taint
// list (added taints first, then the old ones not replaced, minus removals)
// and the operation: "modified" (added and removed, or --overwrite),
// "tainted" (added) or "untainted".
func reorganizeTaints(node *api.Node, overwrite bool, add, remove []api.Taint) (string, []api.Taint, error) {
	newTaints := append([]api.Taint{}, add...)
	for _, old := range node.Spec.Taints {
		exists := false
		for _, t := range newTaints {
			if matchTaint(t, old) {
				exists = true
				break
			}
		}
		if !exists {
			newTaints = append(newTaints, old)
		}
	}
	added := len(node.Spec.Taints) != len(newTaints)
	var errs []error
	deleted := false
	for _, r := range remove {
		var kept []api.Taint
		for _, t := range newTaints {
			if (r.Effect != "" && matchTaint(r, t)) || (r.Effect == "" && r.Key == t.Key) {
				continue
			}
			kept = append(kept, t)
		}
		// upstream keeps only the last removal's result in "deleted"
		deleted = len(kept) != len(newTaints)
		if !deleted {
			errs = append(errs, fmt.Errorf("taint %q not found", TaintString(r)))
		}
		newTaints = kept
	}
	op := "untainted"
	if (added && deleted) || overwrite {
		op = "modified"
	} else if added {
		op = "tainted"
	}
	return op, newTaints, newAggregate(errs)
}

// runTaint mirrors kubectl taint (pkg/cmd/taint TaintOptions Complete,
// Validate, RunTaint). New NoExecute taints get timeAdded = now, as the
// taint eviction controller expects.
func runTaint(inv *invocation) error {
	f := inv.flags
	var resources, taintArgs []string
	met := false
	for _, s := range inv.args {
		isTaint := strings.Contains(s, "=") || strings.Contains(s, ":") || strings.HasSuffix(s, "-")
		switch {
		case isTaint:
			met = true
			taintArgs = append(taintArgs, s)
		case !met:
			resources = append(resources, s)
		default:
			return &plainError{"all resources must be specified before taint changes: " + s}
		}
	}
	dry, err := dryRunStrategy(f)
	if err != nil {
		return err
	}
	if err := checkNameOutput(f); err != nil {
		return err
	}
	if len(resources) < 1 {
		return &plainError{"one or more resources must be specified as <resource> <name>"}
	}
	if len(taintArgs) < 1 {
		return &plainError{"at least one taint update is required"}
	}
	add, remove, err := parseTaints(taintArgs)
	if err != nil {
		return &usageError{msg: err.Error(), cmdPath: "kubectl taint"}
	}
	rt, err := resolveType(resources[0])
	if err != nil {
		return err
	}
	if rt != rtNodes {
		return &plainError{fmt.Sprintf("invalid resource type %s, only node types are supported", strings.ToLower(resources[0]))}
	}
	var conflicts []string
	for _, a := range add {
		for _, r := range remove {
			if a.Key == r.Key && (r.Effect == "" || a.Effect == r.Effect) {
				conflicts = append(conflicts, fmt.Sprintf("{\"%s\":\"%s\"}", r.Key, r.Effect))
			}
		}
	}
	if len(conflicts) > 0 {
		return &plainError{"can not both modify and remove the following taint(s) in the same command: " + strings.Join(conflicts, ", ")}
	}
	selStr, all := f.String("selector"), f.Bool("all")
	if all && selStr != "" {
		return &plainError{"setting 'all' parameter with a non empty selector is prohibited"}
	}
	if !all && selStr == "" && len(resources) < 2 {
		return &plainError{"at least one resource name must be specified since 'all' parameter is not set"}
	}
	nodes, errs, err := selectNodes(inv, resources[1:], selStr, all)
	if err != nil {
		return err
	}
	c := inv.env.Cluster
	overwrite := f.Bool("overwrite")
	for _, n := range nodes {
		if !overwrite {
			var exists []string
			for _, a := range add {
				for _, old := range n.Spec.Taints {
					if a.Key == old.Key && a.Effect == old.Effect {
						exists = append(exists, a.Key)
					}
				}
			}
			if len(exists) > 0 {
				errs = append(errs, fmt.Errorf("node %s already has %v taint(s) with same effect(s) and --overwrite is false", n.Name, strings.Join(exists, ",")))
				continue
			}
		}
		toAdd := append([]api.Taint(nil), add...)
		for i := range toAdd {
			if toAdd[i].Effect == api.TaintEffectNoExecute {
				now := c.Stamp() // metav1.Time holds whole seconds
				toAdd[i].TimeAdded = &now
			}
		}
		op, newTaints, terr := reorganizeTaints(n, overwrite, toAdd, remove)
		if terr != nil {
			errs = append(errs, terr)
			continue
		}
		if dry == "" {
			n.Spec.Taints = newTaints
			if len(newTaints) == 0 {
				n.Spec.Taints = nil
			}
			if err := c.UpdateNode(n); err != nil {
				errs = append(errs, err)
				continue
			}
			c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "RunTaint",
				Object: "node/" + n.Name, Node: n.Name, Action: "taint",
				Reason: fmt.Sprintf("%s: node %s; taints now: %s", inv.line, op, taintList(newTaints))})
		}
		nameOutput(inv, rtNodes, n.Name, op+dryRunSuffix(dry))
	}
	return visitErr(errs)
}

func taintList(ts []api.Taint) string {
	if len(ts) == 0 {
		return "<none>"
	}
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = TaintString(t)
	}
	return strings.Join(s, ", ")
}

// selectNodes resolves node names, or a label selector, or --all, to nodes
// (the resource builder's ResourceNames / LabelSelectorParam / SelectAllParam).
// Names not found become NotFound errors in errs; err is a fatal error.
func selectNodes(inv *invocation, names []string, selStr string, all bool) (nodes []*api.Node, errs []error, err error) {
	c := inv.env.Cluster
	if selStr != "" || all {
		sel, err := parseSelector(selStr)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range c.Nodes() {
			if sel.matches(n.Labels) {
				nodes = append(nodes, n)
			}
		}
		return nodes, nil, nil
	}
	for _, name := range names {
		n := c.Node(name)
		if n == nil {
			errs = append(errs, cluster.NotFound("nodes", name))
			continue
		}
		nodes = append(nodes, n)
	}
	return nodes, errs, nil
}
