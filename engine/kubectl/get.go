package kubectl

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func getFlags() []*flagDef {
	return []*flagDef{
		stringFlag("output", "o", ""),
		stringFlag("selector", "l", ""),
		stringFlag("field-selector", "", ""),
		boolFlag("show-labels", ""),
		boolFlag("all-namespaces", "A"),
		boolFlag("no-headers", ""),
		boolFlag("watch", "w"),
		boolFlag("watch-only", ""),
		boolFlag("output-watch-events", ""),
		boolFlag("ignore-not-found", ""),
		stringFlag("sort-by", "", ""),
		{name: "label-columns", shorthand: "L", kind: flagStringSlice},
		{name: "filename", shorthand: "f", kind: flagStringSlice},
		{name: "chunk-size", kind: flagInt, def: "500"}, // accepted, no effect: lists come in one chunk
	}
}

// printOptions mirrors printers.GenerateOptions plus get's table options.
type printOptions struct {
	wide, withNamespace, withKind, showLabels, noHeaders bool
	labelColumns                                         []string
	now                                                  time.Time
}

// outputFormats is kubectl get's list in its "unable to match a printer" error.
const outputFormats = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml"

// getOutput is a parsed -o value: the printer kind and its argument.
type getOutput struct {
	// format is "" (table), "wide", "name", "yaml", "json", "jsonpath",
	// "jsonpath-as-json", "jsonpath-file", "custom-columns" or
	// "custom-columns-file".
	format, arg string
	jsonPath    *jsonPathPrinter
	columns     []customColumn
}

// humanReadable mirrors GetOptions.IsHumanReadablePrinter: the server's
// tables ("" and wide) rather than printGeneric.
func (o *getOutput) humanReadable() bool { return o.format == "" || o.format == "wide" }

// parseGetOutput mirrors PrintFlags.ToPrinter for get's -o value (and
// readFile for the -file variants, which read the playground's files).
// go-template printers are not simulated.
func parseGetOutput(output string, readFile func(string) (string, error)) (*getOutput, error) {
	format, arg, hasArg := strings.Cut(output, "=")
	o := &getOutput{format: format, arg: arg}
	switch format {
	case "", "wide", "name", "yaml", "json":
		if hasArg {
			break
		}
		return o, nil
	case "jsonpath", "jsonpath-as-json", "jsonpath-file":
		tmpl := arg
		if format == "jsonpath-file" && arg != "" {
			text, err := readFile(arg)
			if err != nil {
				return nil, &plainError{fmt.Sprintf("error reading --template %s, %v", arg, err)}
			}
			tmpl = text
		}
		p, err := newJSONPathPrinter(format, tmpl)
		if err != nil {
			return nil, err
		}
		o.jsonPath = p
		return o, nil
	case "custom-columns", "custom-columns-file":
		var cols []customColumn
		var err error
		if format == "custom-columns" {
			cols, err = ParseCustomColumns(arg)
		} else {
			if arg == "" {
				return nil, &plainError{"custom-columns-file format specified but no custom columns file given"}
			}
			text, rerr := readFile(arg)
			if rerr != nil {
				return nil, &plainError{fmt.Sprintf("error reading template %s, %v", arg, rerr)}
			}
			cols, err = parseCustomColumnsFile(text)
		}
		if err != nil {
			return nil, &plainError{err.Error()}
		}
		o.columns = cols
		return o, nil
	case "go-template", "go-template-file", "template", "templatefile":
		return nil, &plainError{fmt.Sprintf("-o %s is not simulated in the playground (use -o jsonpath=... or -o custom-columns=...)", format)}
	}
	return nil, &plainError{fmt.Sprintf("unable to match a printer suitable for the output format %q, allowed formats are: %s", output, outputFormats)}
}

// readEnvFile reads a playground file (a scenario file, the editor's
// manifest.yaml) as -o jsonpath-file / custom-columns-file would read a
// local file.
func (inv *invocation) readEnvFile(name string) (string, error) {
	if text, ok := inv.env.Files[name]; ok {
		return text, nil
	}
	return "", fmt.Errorf("open %s: no such file or directory", name)
}

// getInfo is one group of get's results: a list (possibly empty) or one
// named object.
type getInfo struct {
	rt   *resourceType
	objs []object
}

// runGet mirrors kubectl get (pkg/cmd/get/get.go GetOptions.Run): the
// server-side tables for "" and wide, printGeneric for the other printers,
// and watch for -w / --watch-only.
func runGet(inv *invocation) error {
	f := inv.flags
	output := f.String("output")
	outp, err := parseGetOutput(output, inv.readEnvFile)
	if err != nil {
		return err
	}
	if f.Bool("show-labels") && !outp.humanReadable() {
		return &plainError{fmt.Sprintf("--show-labels option cannot be used with %s printer", output)}
	}
	watching := f.Bool("watch") || f.Bool("watch-only")
	if f.Bool("output-watch-events") && !watching {
		return &usageError{msg: "--output-watch-events option can only be used with --watch or --watch-only", cmdPath: "kubectl get"}
	}
	if len(f.Strings("filename")) > 0 {
		return &plainError{"get -f is not simulated in the playground"}
	}
	if watching && f.String("sort-by") != "" {
		inv.errOut.WriteString("warning: --watch or --watch-only requested, --sort-by will be ignored\n")
	}
	if len(inv.args) == 0 {
		inv.errOut.WriteString("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\n")
		return &usageError{msg: "Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).", cmdPath: "kubectl get"}
	}
	rargs, err := parseResourceArgs(inv.args)
	if err != nil {
		return err
	}
	selStr := f.String("selector")
	sel, err := parseSelector(selStr)
	if err != nil {
		return labelSelectorError(rargs, selStr, f.String("field-selector"), err) // server-side (selector.go)
	}
	fieldStr := f.String("field-selector")
	fsel, err := parseFieldSelector(fieldStr)
	if err != nil {
		return err
	}
	hasNames := false
	for _, ra := range rargs {
		if len(ra.names) > 0 {
			hasNames = true
		}
	}
	if hasNames && selStr != "" {
		return &plainError{"name cannot be provided when a selector is specified"}
	}
	allNS := f.Bool("all-namespaces")
	c := inv.env.Cluster

	var infos []getInfo
	var errs []error
	for _, ra := range rargs {
		if len(ra.names) == 0 {
			objs, err := selectObjects(c, ra.rt, inv.namespace, allNS, sel, fsel, selStr, fieldStr)
			if err != nil {
				return err
			}
			infos = append(infos, getInfo{ra.rt, objs})
			continue
		}
		for _, n := range ra.names {
			o, gerr := getObject(c, ra.rt, inv.namespace, n)
			if gerr != nil {
				if !f.Bool("ignore-not-found") || !isNotFound(gerr) {
					errs = append(errs, gerr)
				}
				continue
			}
			infos = append(infos, getInfo{ra.rt, []object{o}})
		}
	}
	if watching {
		return startWatch(inv, outp, rargs, infos, errs, watchQuery{sel: sel, fsel: fsel, allNS: allNS})
	}
	if !outp.humanReadable() {
		singleItemImplied := len(rargs) == 1 && len(rargs[0].names) == 1 && !strings.EqualFold(inv.args[0], "all")
		return printGeneric(inv, outp, infos, errs, singleItemImplied)
	}
	kinds := map[*resourceType]bool{}
	for _, in := range infos {
		kinds[in.rt] = true
	}
	opts := printOptions{
		wide:         outp.format == "wide",
		withKind:     len(kinds) > 1,
		showLabels:   f.Bool("show-labels"),
		noHeaders:    f.Bool("no-headers"),
		labelColumns: f.Strings("label-columns"),
		now:          c.Now(),
	}
	if sortBy := f.String("sort-by"); sortBy != "" {
		var all []object
		for _, in := range infos {
			all = append(all, in.objs...)
		}
		if err := sortObjects(all, sortBy); err != nil {
			return err
		}
		// Sorting merges the groups: print them in sorted order, a new
		// table whenever the type changes (as get's RuntimeSorter does).
		infos = nil
		for _, o := range all {
			infos = append(infos, getInfo{o.rt, []object{o}})
		}
	}

	written := false
	allNamespaced := !allNS
	var lastRT *resourceType
	var cur *table
	flush := func() {
		if cur != nil && len(cur.rows) > 0 {
			if written && !opts.noHeaders {
				inv.out.WriteString("\n")
			}
			inv.out.WriteString(cur.render(opts.noHeaders))
			written = true
		}
		cur = nil
	}
	for _, in := range infos {
		allNamespaced = allNamespaced && in.rt.namespaced
		if in.rt != lastRT {
			flush()
			o := opts
			o.withNamespace = allNS && in.rt.namespaced
			cur = &table{headers: tableHeaders(in.rt, o)}
			lastRT = in.rt
		}
		o := opts
		o.withNamespace = allNS && in.rt.namespaced
		for _, obj := range in.objs {
			cur.rows = append(cur.rows, tableRow(obj, o))
		}
	}
	flush()
	if !written && !f.Bool("ignore-not-found") && len(errs) == 0 {
		if allNamespaced {
			fmt.Fprintf(&inv.errOut, "No resources found in %s namespace.\n", inv.namespace)
		} else {
			inv.errOut.WriteString("No resources found\n")
		}
	}
	return visitErr(errs)
}

// isNotFound reports whether err is the API server's NotFound.
func isNotFound(err error) bool {
	var se *cluster.StatusError
	return errors.As(err, &se) && se.Reason == "NotFound"
}

// selectObjects lists rt's objects that match the label and field
// selectors. An unsupported field is the API server's BadRequest.
func selectObjects(c *cluster.Cluster, rt *resourceType, ns string, allNS bool, sel selector, fsel fieldSelector, selStr, fieldStr string) ([]object, error) {
	var objs []object
	for _, o := range listObjects(c, rt, ns, allNS) {
		if !sel.matches(o.meta.Labels) {
			continue
		}
		ok, ferr := fsel.matches(o)
		if ferr != nil {
			return nil, &cluster.StatusError{Reason: "BadRequest", Message: fmt.Sprintf("Unable to find %q that match label selector %q, field selector %q: %v", rt.gvrString(), selStr, fieldStr, ferr)}
		}
		if ok {
			objs = append(objs, o)
		}
	}
	return objs, nil
}

// printGeneric mirrors GetOptions.printGeneric: one named object is printed
// as itself, anything else as a v1 List of the items (an empty List when
// nothing matched; no "No resources found" line), followed by the errors.
// --sort-by sorts the list's items (SortingPrinter).
func printGeneric(inv *invocation, outp *getOutput, infos []getInfo, errs []error, singleItemImplied bool) error {
	if singleItemImplied && len(errs) > 0 {
		return errs[0]
	}
	var objs []object
	for _, in := range infos {
		objs = append(objs, in.objs...)
	}
	if len(objs) == 0 && inv.flags.Bool("ignore-not-found") {
		return visitErr(errs)
	}
	if sortBy := inv.flags.String("sort-by"); sortBy != "" && !(singleItemImplied && len(objs) == 1) {
		if err := sortObjects(objs, sortBy); err != nil {
			return err
		}
	}
	rendered := make([]map[string]any, 0, len(objs))
	for _, o := range objs {
		m, err := RenderObject(inv.outputView(o.obj)) // nodes: derived heartbeats
		if err != nil {
			return err
		}
		rendered = append(rendered, m)
	}
	var top map[string]any
	single := singleItemImplied && len(rendered) == 1
	if single {
		top = rendered[0]
	} else {
		top = listObject(rendered)
	}
	text, err := formatGeneric(outp, top, rendered, single, inv.flags.Bool("no-headers"))
	inv.out.WriteString(text)
	if err != nil {
		errs = append(errs, err)
	}
	return visitErr(errs)
}

// formatGeneric prints top (an object, or a List of items) with a
// non-table printer: yaml, json, name, jsonpath and custom-columns.
func formatGeneric(outp *getOutput, top map[string]any, items []map[string]any, single, noHeaders bool) (string, error) {
	switch outp.format {
	case "yaml":
		return MarshalYAML(top)
	case "json":
		return MarshalJSON(top)
	case "name":
		var b strings.Builder
		for _, it := range items {
			b.WriteString(nameOf(it) + "\n")
		}
		return b.String(), nil
	case "jsonpath", "jsonpath-as-json", "jsonpath-file":
		return outp.jsonPath.print(top)
	case "custom-columns", "custom-columns-file":
		t, err := customColumnsTable(outp.columns, items)
		if err != nil {
			return "", err
		}
		return t.render(noHeaders), nil
	}
	return "", fmt.Errorf("unknown output format %q", outp.format)
}

// nameOf is the name printer's "<kind>[.<group>]/<name>" for a rendered object.
func nameOf(m map[string]any) string {
	kind, _ := m["kind"].(string)
	apiVersion, _ := m["apiVersion"].(string)
	name, _ := path(m, "metadata", "name").(string)
	s := strings.ToLower(kind)
	if g, _, ok := strings.Cut(apiVersion, "/"); ok {
		s += "." + g
	}
	return s + "/" + name
}

// tableHeaders are the column names of a type's table (printers.go
// AddHandlers column definitions), with NAMESPACE, wide, label columns and
// LABELS as requested.
func tableHeaders(rt *resourceType, o printOptions) []string {
	var h []string
	switch rt {
	case rtDaemonSets:
		h = []string{"NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE SELECTOR", "AGE"}
		if o.wide {
			h = append(h, "CONTAINERS", "IMAGES", "SELECTOR")
		}
	case rtPods:
		h = []string{"NAME", "READY", "STATUS", "RESTARTS", "AGE"}
		if o.wide {
			h = append(h, "IP", "NODE", "NOMINATED NODE", "READINESS GATES")
		}
	case rtNodes:
		h = []string{"NAME", "STATUS", "ROLES", "AGE", "VERSION"}
		if o.wide {
			h = append(h, "INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME")
		}
	case rtNamespaces:
		h = []string{"NAME", "STATUS", "AGE"}
	case rtControllerRevisions:
		h = []string{"NAME", "CONTROLLER", "REVISION", "AGE"}
	case rtServiceAccounts, rtConfigMaps, rtSecrets:
		h = configObjectHeaders(rt)
	default: // the kinds stored as written (generic.go)
		h = configObjectHeaders(rt)
	case rtEvents:
		if o.wide {
			h = []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "SUBOBJECT", "SOURCE", "MESSAGE", "FIRST SEEN", "COUNT", "NAME"}
		} else {
			h = []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}
		}
	}
	if o.withNamespace {
		h = append([]string{"NAMESPACE"}, h...)
	}
	for _, l := range o.labelColumns {
		h = append(h, strings.ToUpper(labelColumnName(l)))
	}
	if o.showLabels {
		h = append(h, "LABELS")
	}
	return h
}

// labelColumnName is the header of a -L column: the last path segment of the key.
func labelColumnName(key string) string {
	parts := strings.Split(key, "/")
	return parts[len(parts)-1]
}

// tableRow renders one object's cells (printers.go printDaemonSet,
// printPod, printNode, printControllerRevision, printEvent).
func tableRow(obj object, o printOptions) []string {
	var cells []string
	age := translateTimestampSince(obj.meta.CreationTimestamp, o.now)
	name := obj.meta.Name
	if o.withKind {
		name = obj.rt.kindString() + "/" + name
	}
	switch x := obj.obj.(type) {
	case *api.DaemonSet:
		st := x.Status
		cells = []string{name, fmt.Sprint(st.DesiredNumberScheduled), fmt.Sprint(st.CurrentNumberScheduled),
			fmt.Sprint(st.NumberReady), fmt.Sprint(st.UpdatedNumberScheduled), fmt.Sprint(st.NumberAvailable),
			formatLabels(x.Spec.Template.Spec.NodeSelector), age}
		if o.wide {
			names, images := layoutContainerCells(x.Spec.Template.Spec.Containers)
			cells = append(cells, names, images, FormatLabelSelector(x.Spec.Selector))
		}
	case *api.Pod:
		cells = []string{name, PodReadyColumn(x), PodStatusColumn(x), podRestartsColumn(x, o.now), age}
		if o.wide {
			ip, node, nominated := x.Status.PodIP, x.Spec.NodeName, x.Status.NominatedNodeName
			if ip == "" {
				ip = "<none>"
			}
			if node == "" {
				node = "<none>"
			}
			if nominated == "" {
				nominated = "<none>"
			}
			cells = append(cells, ip, node, nominated, "<none>")
		}
	case *api.Node:
		version := x.Status.NodeInfo.KubeletVersion
		cells = []string{name, NodeStatusColumn(x), NodeRolesColumn(x), age, version}
		if o.wide {
			osImage, kernel, cr := x.Status.NodeInfo.OSImage, x.Status.NodeInfo.KernelVersion, x.Status.NodeInfo.ContainerRuntimeVersion
			if osImage == "" {
				osImage = "<unknown>"
			}
			if kernel == "" {
				kernel = "<unknown>"
			}
			if cr == "" {
				cr = "<unknown>"
			}
			cells = append(cells, nodeAddress(x, "InternalIP"), nodeAddress(x, "ExternalIP"), osImage, kernel, cr)
		}
	case *api.Namespace:
		// printNamespace
		cells = []string{name, x.Status.Phase, age}
	case *api.ServiceAccount, *api.ConfigMap, *api.Secret, *api.GenericObject:
		cells = configObjectRow(x, name, age)
	case *api.ControllerRevision:
		controller := "<none>"
		if ref := x.ControllerRef(); ref != nil {
			group := ""
			if i := strings.Index(ref.APIVersion, "/"); i >= 0 {
				group = ref.APIVersion[:i]
			}
			controller = strings.ToLower(ref.Kind)
			if group != "" {
				controller += "." + group
			}
			controller += "/" + ref.Name
		}
		cells = []string{name, controller, fmt.Sprint(x.Revision), age}
	case *api.Event:
		first := translateTimestampSince(x.FirstTimestamp, o.now)
		last := translateTimestampSince(x.LastTimestamp, o.now)
		if x.LastTimestamp.IsZero() {
			last = first
		}
		count := x.Count
		if count == 0 {
			count = 1
		}
		target := strings.ToLower(x.InvolvedObject.Kind)
		if x.InvolvedObject.Name != "" {
			target += "/" + x.InvolvedObject.Name
		}
		msg := strings.TrimSpace(x.Message)
		if o.wide {
			source := x.Source.Component
			if x.Source.Host != "" {
				source += ", " + x.Source.Host
			}
			cells = []string{last, x.Type, x.Reason, target, x.InvolvedObject.FieldPath, source, msg, first, fmt.Sprint(count), name}
		} else {
			cells = []string{last, x.Type, x.Reason, target, msg}
		}
	}
	if o.withNamespace {
		cells = append([]string{obj.meta.Namespace}, cells...)
	}
	for _, l := range o.labelColumns {
		cells = append(cells, obj.meta.Labels[l])
	}
	if o.showLabels {
		cells = append(cells, formatLabels(obj.meta.Labels))
	}
	return cells
}

// layoutContainerCells mirrors printers.go layoutContainerCells: names and
// images comma-joined.
func layoutContainerCells(cs []api.Container) (string, string) {
	names := make([]string, len(cs))
	images := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.Name
		images[i] = c.Image
	}
	return strings.Join(names, ","), strings.Join(images, ",")
}

// nodeAddress mirrors getNodeInternalIP/getNodeExternalIP: the first
// address of that type or "<none>".
func nodeAddress(n *api.Node, typ string) string {
	for _, a := range n.Status.Addresses {
		if a.Type == typ {
			return a.Address
		}
	}
	return "<none>"
}
