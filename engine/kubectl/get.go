package kubectl

import (
	"fmt"
	"sort"
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
		boolFlag("ignore-not-found", ""),
		stringFlag("sort-by", "", ""),
		{name: "label-columns", shorthand: "L", kind: flagStringSlice},
		{name: "filename", shorthand: "f", kind: flagStringSlice},
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

// runGet mirrors kubectl get (pkg/cmd/get/get.go GetOptions.Run) for the
// human-readable and name printers.
func runGet(inv *invocation) error {
	f := inv.flags
	output := f.String("output")
	switch output {
	case "", "wide", "name":
	case "json", "yaml", "jsonpath", "jsonpath-as-json", "jsonpath-file", "go-template", "go-template-file",
		"template", "templatefile", "custom-columns", "custom-columns-file":
		return &plainError{fmt.Sprintf("-o %s is not simulated in the playground (it prints tables, -o wide and -o name)", output)}
	default:
		if strings.HasPrefix(output, "jsonpath=") || strings.HasPrefix(output, "custom-columns=") ||
			strings.HasPrefix(output, "go-template=") || strings.HasPrefix(output, "template=") {
			return &plainError{fmt.Sprintf("-o %s is not simulated in the playground (it prints tables, -o wide and -o name)", strings.SplitN(output, "=", 2)[0])}
		}
		return &plainError{fmt.Sprintf("unable to match a printer suitable for the output format %q, allowed formats are: %s", output, outputFormats)}
	}
	if f.Bool("watch") || f.Bool("watch-only") {
		return &plainError{"--watch is not simulated in the playground: run the command again, or watch the cluster view"}
	}
	if len(f.Strings("filename")) > 0 {
		return &plainError{"get -f is not simulated in the playground"}
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
		return err
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

	// infos: one group per list (possibly empty) or per named object.
	type info struct {
		rt   *resourceType
		objs []object
	}
	var infos []info
	var errs []error
	for _, ra := range rargs {
		if len(ra.names) == 0 {
			var objs []object
			for _, o := range listObjects(c, ra.rt, inv.namespace, allNS) {
				if !sel.matches(o.meta.Labels) {
					continue
				}
				ok, ferr := fsel.matches(o)
				if ferr != nil {
					return &cluster.StatusError{Reason: "BadRequest", Message: fmt.Sprintf("Unable to find %q that match label selector %q, field selector %q: %v", ra.rt.gvrString(), selStr, fieldStr, ferr)}
				}
				if ok {
					objs = append(objs, o)
				}
			}
			infos = append(infos, info{ra.rt, objs})
			continue
		}
		for _, n := range ra.names {
			o, gerr := getObject(c, ra.rt, inv.namespace, n)
			if gerr != nil {
				if !f.Bool("ignore-not-found") {
					errs = append(errs, gerr)
				}
				continue
			}
			infos = append(infos, info{ra.rt, []object{o}})
		}
	}
	kinds := map[*resourceType]bool{}
	for _, in := range infos {
		kinds[in.rt] = true
	}
	opts := printOptions{
		wide:         output == "wide",
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
			infos = append(infos, info{o.rt, []object{o}})
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
		if output == "name" {
			for _, o := range in.objs {
				inv.out.WriteString(o.rt.kindString() + "/" + o.meta.Name + "\n")
				written = true
			}
			continue
		}
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
	if !written && !f.Bool("ignore-not-found") && len(errs) == 0 && output != "name" {
		if allNamespaced {
			fmt.Fprintf(&inv.errOut, "No resources found in %s namespace.\n", inv.namespace)
		} else {
			inv.errOut.WriteString("No resources found\n")
		}
	}
	return visitErr(errs)
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

// sortObjects mirrors get's --sort-by for the JSONPath fields the playground
// knows: names, namespaces, creation and event timestamps, counts.
func sortObjects(objs []object, path string) error {
	p := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(path, "{"), "."), "}")
	p = strings.TrimPrefix(p, ".")
	key := func(o object) (string, time.Time, int64, bool) {
		switch p {
		case "metadata.name":
			return o.meta.Name, time.Time{}, 0, true
		case "metadata.namespace":
			return o.meta.Namespace, time.Time{}, 0, true
		case "metadata.creationTimestamp":
			return "", o.meta.CreationTimestamp, 0, true
		case "lastTimestamp", "firstTimestamp", "count":
			if e, ok := o.obj.(*api.Event); ok {
				switch p {
				case "lastTimestamp":
					return "", e.LastTimestamp, 0, true
				case "firstTimestamp":
					return "", e.FirstTimestamp, 0, true
				default:
					return "", time.Time{}, int64(e.Count), true
				}
			}
			return "", time.Time{}, 0, true
		case "spec.nodeName":
			if pod, ok := o.obj.(*api.Pod); ok {
				return pod.Spec.NodeName, time.Time{}, 0, true
			}
			return "", time.Time{}, 0, true
		}
		return "", time.Time{}, 0, false
	}
	if len(objs) > 0 {
		if _, _, _, ok := key(objs[0]); !ok {
			return &plainError{fmt.Sprintf("--sort-by=%s is not simulated in the playground (it sorts by .metadata.name, .metadata.namespace, .metadata.creationTimestamp, .spec.nodeName, .lastTimestamp, .firstTimestamp, .count)", path)}
		}
	}
	sort.SliceStable(objs, func(i, j int) bool {
		si, ti, ni, _ := key(objs[i])
		sj, tj, nj, _ := key(objs[j])
		if !ti.Equal(tj) {
			return ti.Before(tj)
		}
		if ni != nj {
			return ni < nj
		}
		return si < sj
	})
	return nil
}
