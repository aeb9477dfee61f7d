package kubectl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func labelFlags() []*flagDef {
	return []*flagDef{
		boolFlag("overwrite", ""),
		boolFlag("list", ""),
		boolFlag("local", ""),
		stringFlag("selector", "l", ""),
		stringFlag("field-selector", "", ""),
		boolFlag("all", ""),
		boolFlag("all-namespaces", "A"),
		stringFlag("resource-version", "", ""),
		dryRunFlag(),
		stringFlag("output", "o", ""),
		stringFlag("field-manager", "", "kubectl-label"),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
	}
}

// getResourcesAndPairs mirrors cmdutil.GetResourcesAndPairs: resource
// arguments first, then "k=v" / "k-" pairs.
func getResourcesAndPairs(args []string, pairType string) (resources, pairs []string, err error) {
	found := false
	for _, s := range args {
		nonResource := (strings.Contains(s, "=") && s[0] != '=') || (strings.HasSuffix(s, "-") && s != "-")
		switch {
		case nonResource:
			found = true
			pairs = append(pairs, s)
		case !found:
			resources = append(resources, s)
		default:
			return nil, nil, &plainError{fmt.Sprintf("all resources must be specified before %s changes: %s", pairType, s)}
		}
	}
	return resources, pairs, nil
}

// parseLabels mirrors kubectl label's parseLabels.
func parseLabels(spec []string) (map[string]string, []string, error) {
	labels := map[string]string{}
	var remove []string
	for _, s := range spec {
		switch {
		case strings.Contains(s, "="):
			parts := strings.Split(s, "=")
			if len(parts) != 2 {
				return nil, nil, &plainError{fmt.Sprintf("invalid label spec: %v", s)}
			}
			if errs := api.IsValidLabelValue(parts[1]); len(errs) != 0 {
				return nil, nil, &plainError{fmt.Sprintf("invalid label value: %q: %s", s, strings.Join(errs, ";"))}
			}
			labels[parts[0]] = parts[1]
		case strings.HasSuffix(s, "-"):
			remove = append(remove, s[:len(s)-1])
		default:
			return nil, nil, &plainError{fmt.Sprintf("unknown label spec: %v", s)}
		}
	}
	for _, r := range remove {
		if _, ok := labels[r]; ok {
			return nil, nil, &plainError{"can not both modify and remove a label in the same command"}
		}
	}
	return labels, remove, nil
}

// targets resolves "TYPE NAME...", "TYPE/NAME ...", "TYPE -l sel", "TYPE
// --all" to objects (the resource builder's ResourceTypeOrNameArgs), with
// NotFound errors for missing names.
func (inv *invocation) targets(args []string, selStr string, all, allNS bool) ([]object, []error, error) {
	rargs, err := parseResourceArgs(args)
	if err != nil {
		return nil, nil, err
	}
	sel, err := parseSelector(selStr)
	if err != nil {
		return nil, nil, err
	}
	c := inv.env.Cluster
	var objs []object
	var errs []error
	for _, ra := range rargs {
		if len(ra.names) == 0 {
			if selStr == "" && !all {
				return nil, nil, &plainError{"resource(s) were provided, but no name was specified"}
			}
			for _, o := range listObjects(c, ra.rt, inv.namespace, allNS) {
				if sel.matches(o.meta.Labels) {
					objs = append(objs, o)
				}
			}
			continue
		}
		if selStr != "" {
			return nil, nil, &plainError{"name cannot be provided when a selector is specified"}
		}
		for _, n := range ra.names {
			o, err := getObject(c, ra.rt, inv.namespace, n)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			objs = append(objs, o)
		}
	}
	return objs, errs, nil
}

// runLabel mirrors kubectl label (pkg/cmd/label LabelOptions.RunLabel) for
// nodes, pods and DaemonSets.
func runLabel(inv *invocation) error {
	f := inv.flags
	resources, pairs, err := getResourcesAndPairs(inv.args, "label")
	if err != nil {
		return err
	}
	newLabels, remove, err := parseLabels(pairs)
	if err != nil {
		return err
	}
	dry, err := dryRunStrategy(f)
	if err != nil {
		return err
	}
	if f.Bool("list") && f.String("output") != "" {
		return &plainError{"--list and --output may not be specified together"}
	}
	if err := checkNameOutput(f); err != nil {
		return err
	}
	if f.Bool("local") || len(f.Strings("filename")) > 0 {
		return &plainError{"label --local and -f are not simulated in the playground"}
	}
	all, selStr := f.Bool("all"), f.String("selector")
	if all && selStr != "" {
		return &plainError{"cannot set --all and --selector at the same time"}
	}
	if len(resources) < 1 {
		return &plainError{"one or more resources must be specified as <resource> <name> or <resource>/<name>"}
	}
	if len(newLabels) < 1 && len(remove) < 1 && !f.Bool("list") {
		return &plainError{"at least one label update is required"}
	}
	objs, errs, err := inv.targets(resources, selStr, all, f.Bool("all-namespaces"))
	if err != nil {
		return err
	}
	if len(objs) == 1 && len(errs) == 0 && f.String("resource-version") != "" && f.String("resource-version") != objs[0].meta.ResourceVersion {
		return &cluster.StatusError{Reason: "Conflict", Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", objs[0].rt.groupResource(), objs[0].meta.Name)}
	}
	c := inv.env.Cluster
	overwrite := f.Bool("overwrite")
	for _, o := range objs {
		if f.Bool("list") {
			keys := sortedKeys(o.meta.Labels)
			indent := ""
			if len(objs) > 1 {
				indent = " "
				fmt.Fprintf(&inv.out, "Listing labels for %s.%s/%s:\n", o.rt.kind, o.rt.group, o.meta.Name)
			}
			for _, k := range keys {
				fmt.Fprintf(&inv.out, "%s%s=%s\n", indent, k, o.meta.Labels[k])
			}
			continue
		}
		if dry == "" {
			for _, r := range remove {
				if _, ok := o.meta.Labels[r]; !ok {
					fmt.Fprintf(&inv.out, "label %q not found.\n", r)
				}
			}
		}
		if !overwrite {
			var verrs []error
			for _, k := range sortedKeys(newLabels) {
				if v, ok := o.meta.Labels[k]; ok {
					verrs = append(verrs, fmt.Errorf("'%s' already has a value (%s), and --overwrite is false", k, v))
				}
			}
			if len(verrs) > 0 {
				errs = append(errs, newAggregate(verrs))
				continue
			}
		}
		updated := map[string]string{}
		for k, v := range o.meta.Labels {
			updated[k] = v
		}
		for k, v := range newLabels {
			updated[k] = v
		}
		for _, r := range remove {
			delete(updated, r)
		}
		// The API server validates the new label keys (ValidateLabels).
		if verr := validateKeys(o, "metadata.labels", newLabels); verr != nil {
			errs = append(errs, verr)
			continue
		}
		msg := updateDataChangeMsg(o.meta.Labels, updated, overwrite)
		if dry == "" && msg != "not labeled" {
			o.meta.Labels = updated
			if err := updateObject(c, o); err != nil {
				errs = append(errs, err)
				continue
			}
			node := ""
			if o.rt == rtNodes {
				node = o.meta.Name
			}
			c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "RunLabel",
				Object: decisionObject(o), Node: node, Action: "label",
				Reason: fmt.Sprintf("%s: %s %s; labels now: %s", inv.line, o.rt.kindString()+"/"+o.meta.Name, msg, formatLabels(updated))})
		}
		nameOutput(inv, o.rt, o.meta.Name, msg+dryRunSuffix(dry))
	}
	return visitErr(errs)
}

// validateKeys mirrors the API server's validation of the keys being set
// in metadata.labels or metadata.annotations (field): each must be a
// qualified name, else an Invalid error naming the object.
func validateKeys(o object, field string, m map[string]string) error {
	var causes []string
	for _, k := range sortedKeys(m) {
		for _, msg := range api.IsQualifiedName(k) {
			causes = append(causes, fmt.Sprintf("%s: Invalid value: %q: %s", field, k, msg))
		}
	}
	if len(causes) > 0 {
		return &invalidError{kind: o.rt.kind, name: o.meta.Name, causes: causes}
	}
	return nil
}

// updateDataChangeMsg mirrors kubectl label's updateDataChangeMsg:
// "not labeled" when nothing changed, "unlabeled" when the object got
// smaller without --overwrite, else "labeled".
func updateDataChangeMsg(old, updated map[string]string, overwrite bool) string {
	// Compare the "labels" member of the object's JSON: absent when nil.
	enc := func(m map[string]string) string {
		if m == nil {
			return ""
		}
		b, _ := json.Marshal(m)
		return `"labels":` + string(b)
	}
	ob, nb := enc(old), enc(updated)
	if ob == nb {
		return "not labeled"
	}
	if !overwrite && len(nb) < len(ob) {
		return "unlabeled"
	}
	return "labeled"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// updateObject writes a changed object through the store.
func updateObject(c *cluster.Cluster, o object) error {
	switch x := o.obj.(type) {
	case *api.Node:
		return c.UpdateNode(x)
	case *api.Pod:
		return c.UpdatePod(x)
	case *api.DaemonSet:
		return c.UpdateDaemonSet(x)
	case *api.ControllerRevision:
		return c.UpdateControllerRevision(x)
	case *api.Namespace:
		return c.UpdateNamespace(x)
	}
	return &plainError{fmt.Sprintf("%s cannot be changed in the playground", o.rt.resource)}
}

// decisionObject is a Decision's Object: "<kind>/<namespace>/<name>" or
// "<kind>/<name>" for cluster-scoped objects.
func decisionObject(o object) string {
	if o.rt.namespaced {
		return strings.ToLower(o.rt.kind) + "/" + o.meta.Namespace + "/" + o.meta.Name
	}
	return strings.ToLower(o.rt.kind) + "/" + o.meta.Name
}
