package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func labelFlags() []*flagDef { return metadataUpdateFlags("kubectl-label") }

// metadataUpdateFlags are the flags kubectl label and kubectl annotate
// both define (pkg/cmd/label, pkg/cmd/annotate), with --field-manager
// defaulting to fieldManager.
func metadataUpdateFlags(fieldManager string) []*flagDef {
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
		stringFlag("field-manager", "", fieldManager),
		boolFlag("record", ""),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
	}
}

// metadataUpdate is what label and annotate resolve before visiting their
// targets: the objects, whether the command named a single one, the
// --record change cause, and --resource-version.
type metadataUpdate struct {
	targets []target
	one     bool
	record  bool
	cause   string
	rv      string
}

// metadataTargets runs the checks label and annotate share, in kubectl's
// order (Complete/Validate of both commands): -o name only, the selection
// flags, at least one update unless --list ("at least one <what> update is
// required"), the targets, --record and --resource-version.
func (inv *invocation) metadataTargets(f *flagSet, resources []string, updates int, what string) (metadataUpdate, error) {
	var u metadataUpdate
	if err := checkNameOutput(f); err != nil {
		return u, err
	}
	sel, err := validateSelection(f, resources)
	if err != nil {
		return u, err
	}
	if updates < 1 && !f.Bool("list") {
		return u, &plainError{"at least one " + what + " update is required"}
	}
	if u.targets, u.one, err = inv.builderTargets(resources, f.Strings("filename"), sel); err != nil {
		return u, err
	}
	u.record, u.cause = inv.recordFlag()
	u.rv, err = resourceVersionFlag(f, u.one)
	return u, err
}

// resourceVersionFlag returns --resource-version; it may only lock a single
// resource (one), as label and annotate check in Validate/RunX.
func resourceVersionFlag(f *flagSet, one bool) (string, error) {
	rv := f.String("resource-version")
	if !one && rv != "" {
		return "", &plainError{"--resource-version may only be used with a single resource"}
	}
	return rv, nil
}

// listMetadataMap prints o's labels or annotations (m, named what) for
// --list: "key=value" lines in key order; when the command selected more
// than one object (!one), under a "Listing <what> for kind.group/name:"
// header with each line indented by a space.
func (inv *invocation) listMetadataMap(o object, one bool, what string, m map[string]string) {
	indent := ""
	if !one {
		indent = " "
		fmt.Fprintf(&inv.out, "Listing %s for %s.%s/%s:\n", what, o.rt.kind, o.rt.group, o.meta.Name)
	}
	for _, k := range sortedKeys(m) {
		fmt.Fprintf(&inv.out, "%s%s=%s\n", indent, k, m[k])
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

// target is one object a command visits, or the error looking it up
// (resource.Info with its retrieval error).
type target struct {
	o   object
	err error
}

// visitTargets mirrors resource.ContinueOnErrorVisitor: it calls fn on
// each object found, in order, and goes on after an error; a target's
// lookup error counts as an error without calling fn. The result is
// visitErr of the errors: nil, the one error, or their aggregate.
func visitTargets(ts []target, fn func(o object) error) error {
	var errs []error
	for _, t := range ts {
		err := t.err
		if err == nil {
			err = fn(t.o)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return visitErr(errs)
}

// splitTargets separates the objects found from the lookup errors.
func splitTargets(ts []target) (objs []object, errs []error) {
	for _, t := range ts {
		if t.err != nil {
			errs = append(errs, t.err)
		} else {
			objs = append(objs, t.o)
		}
	}
	return objs, errs
}

// targetSelector is how the resource builder selects objects besides
// names: -l (LabelSelectorParam), --field-selector (FieldSelectorParam),
// --all (SelectAllParam) and -A (AllNamespaces).
type targetSelector struct {
	label, field string
	all, allNS   bool
}

// selects reports whether the selector lists objects (a type without names
// is then allowed).
func (s targetSelector) selects() bool { return s.label != "" || s.field != "" || s.all }

// targets resolves "TYPE NAME...", "TYPE/NAME ...", "TYPE -l sel", "TYPE
// --field-selector f", "TYPE --all" to objects (the resource builder's
// ResourceTypeOrNameArgs), in the order the builder's visitor meets them,
// each name with its NotFound error when it is missing (ContinueOnError:
// the other names are still visited). err is an error that stops the
// command before any visit; a field the server cannot select on is its
// BadRequest.
func (inv *invocation) targets(args []string, ts targetSelector) ([]target, error) {
	rargs, err := parseResourceArgs(args)
	if err != nil {
		return nil, err
	}
	sel, err := parseSelector(ts.label)
	if err != nil {
		return nil, labelSelectorError(rargs, ts.label, ts.field, err) // server-side (selector.go)
	}
	fsel, err := parseFieldSelector(ts.field)
	if err != nil {
		return nil, err
	}
	c := inv.env.Cluster
	var out []target
	for _, ra := range rargs {
		if len(ra.names) == 0 {
			if !ts.selects() {
				return nil, &plainError{"resource(s) were provided, but no name was specified"}
			}
			for _, o := range listObjects(c, ra.rt, inv.namespace, ts.allNS) {
				if !sel.matches(o.meta.Labels) {
					continue
				}
				ok, ferr := fsel.matches(o)
				if ferr != nil {
					return nil, &cluster.StatusError{Reason: "BadRequest", Message: ferr.Error()}
				}
				if ok {
					out = append(out, target{o: o})
				}
			}
			continue
		}
		if ts.label != "" || ts.field != "" {
			return nil, &plainError{"name cannot be provided when a selector is specified"}
		}
		for _, n := range ra.names {
			o, err := getObject(c, ra.rt, inv.namespace, n)
			out = append(out, target{o: o, err: err})
		}
	}
	return out, nil
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
	u, err := inv.metadataTargets(f, resources, len(newLabels)+len(remove), "label")
	if err != nil {
		return err
	}
	ts, one, record, cause, rv := u.targets, u.one, u.record, u.cause, u.rv
	c := inv.env.Cluster
	overwrite := f.Bool("overwrite")
	return visitTargets(ts, func(o object) error {
		if f.Bool("list") {
			inv.listMetadataMap(o, one, "labels", o.meta.Labels)
			return nil
		}
		if dry != "client" {
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
				return newAggregate(verrs)
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
		if rv != "" && rv != o.meta.ResourceVersion {
			return conflictError(o)
		}
		// The API server validates the new label keys (ValidateLabels).
		if verr := validateKeys(o, "metadata.labels", newLabels); verr != nil {
			return verr
		}
		ann := o.meta.Annotations
		if record && dry != "client" {
			ann = withChangeCause(ann, cause)
		}
		msg := updateDataChangeMsg(o.meta.Labels, updated)
		// The merge patch is sent whenever the object changed: the labels,
		// or only the change-cause annotation --record sets.
		changed := msg != "not labeled" || !sameMap(o.meta.Annotations, ann)
		if dry == "" && changed {
			o.meta.Labels = updated
			o.meta.Annotations = ann
			if err := updateObject(c, o); err != nil {
				return err
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
		return nil
	})
}

// validateSelection mirrors the Validate checks label and annotate share:
// --all excludes -l and --field-selector, --local is not simulated, and
// resources come from arguments or -f files.
func validateSelection(f *flagSet, resources []string) (targetSelector, error) {
	ts := targetSelector{label: f.String("selector"), field: f.String("field-selector"), all: f.Bool("all"), allNS: f.Bool("all-namespaces")}
	if ts.all && ts.label != "" {
		return ts, &plainError{"cannot set --all and --selector at the same time"}
	}
	if ts.all && ts.field != "" {
		return ts, &plainError{"cannot set --all and --field-selector at the same time"}
	}
	if f.Bool("local") {
		return ts, &plainError{"--local is not simulated in the playground (the objects are read from the simulated cluster)"}
	}
	if len(resources) < 1 && len(f.Strings("filename")) == 0 {
		return ts, &plainError{"one or more resources must be specified as <resource> <name> or <resource>/<name>"}
	}
	return ts, nil
}

// builderTargets is label's and annotate's resource builder: the objects
// named in -f files (looked up in the store, Latest()) or by the resource
// arguments and selectors, and IntoSingleItemImplied's answer: true for
// exactly one "TYPE NAME" or "TYPE/NAME", or one file naming one object.
func (inv *invocation) builderTargets(resources, files []string, sel targetSelector) ([]target, bool, error) {
	if len(files) > 0 {
		if len(resources) > 0 {
			// resource.Builder visitByPaths
			return nil, false, &plainError{"when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well"}
		}
		ts, err := inv.fileTargets(files, "")
		return ts, len(files) == 1 && len(ts) == 1, err
	}
	ts, err := inv.targets(resources, sel)
	if err != nil {
		return nil, false, err
	}
	one := false
	if !sel.selects() {
		rargs, err := parseResourceArgs(resources)
		one = err == nil && len(rargs) == 1 && len(rargs[0].names) == 1
	}
	return ts, one, nil
}

// conflictError is the API server's answer to a write whose
// resourceVersion precondition does not hold (409 Conflict).
func conflictError(o object) error {
	return &cluster.StatusError{Reason: "Conflict", Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", o.rt.groupResource(), o.meta.Name)}
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

// updateDataChangeMsg is kubectl label's result verb (pkg/cmd/label
// updateDataChangeMsg as changed by kubernetes/kubernetes#134849, kubectl
// 1.35+, which replaced the old comparison of the object's JSON lengths):
// "labeled" when labels were only added or changed, "unlabeled" when they
// were only removed, "modified" when both happened, and "not labeled" when
// the label set is unchanged. Only labels count: the change-cause
// annotation --record writes does not make a label change.
func updateDataChangeMsg(oldLabels, newLabels map[string]string) string {
	added, removed := false, false
	for k, v := range newLabels {
		if ov, ok := oldLabels[k]; !ok || ov != v {
			added = true
		}
	}
	for k := range oldLabels {
		if _, ok := newLabels[k]; !ok {
			removed = true
		}
	}
	switch {
	case added && removed:
		return "modified"
	case added:
		return "labeled"
	case removed:
		return "unlabeled"
	}
	return "not labeled"
}

// sameMap reports whether a and b hold the same pairs (nil equals empty).
func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
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
	if err, ok := updateConfigObject(c, o.obj); ok {
		return err
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

// decisionNode is the node a decision about o concerns, for
// cluster.Decision.Node: a Node's own name, a Pod's spec.nodeName, ""
// for every other kind.
func decisionNode(o object) string {
	switch x := o.obj.(type) {
	case *api.Node:
		return x.Name
	case *api.Pod:
		return x.Spec.NodeName
	}
	return ""
}

// recordFlag mirrors genericclioptions.RecordFlags: --record (deprecated;
// pflag prints the deprecation when the flag is given) asks for the
// command line to be recorded in the kubernetes.io/change-cause
// annotation. cause is parseCommandArguments' text: "kubectl", the
// positional arguments, then every flag given as --name=value in
// command-line order.
func (inv *invocation) recordFlag() (record bool, cause string) {
	f := inv.flags
	if f.Changed("record") {
		inv.errOut.WriteString("Flag --record has been deprecated, --record will be removed in the future\n")
	}
	if !f.Bool("record") {
		return false, ""
	}
	cause = "kubectl " + inv.cmd.name
	if len(inv.args) > 0 {
		cause += " " + strings.Join(inv.args, " ")
	}
	for _, fv := range f.order {
		cause += " --" + fv.name + "=" + fv.value
	}
	return true, cause
}

// withChangeCause returns a copy of annotations with the change-cause
// annotation set (ChangeCauseRecorder.Record).
func withChangeCause(annotations map[string]string, cause string) map[string]string {
	out := map[string]string{}
	for k, v := range annotations {
		out[k] = v
	}
	out[api.ChangeCauseAnnotation] = cause
	return out
}
