package kubectl

import (
	"fmt"
	"hash/fnv"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func describeFlags() []*flagDef {
	return []*flagDef{
		stringFlag("selector", "l", ""),
		boolFlag("all-namespaces", "A"),
		boolFlagTrue("show-events"),
		{name: "chunk-size", kind: flagInt, def: "500"},
		{name: "filename", shorthand: "f", kind: flagStringSlice},
		boolFlag("recursive", "R"),
	}
}

// prefixWriter mirrors describe's PrefixWriter over a tab writer with
// describe's parameters (minwidth 0, tabwidth 8, padding 2, ' ').
type prefixWriter struct {
	tw  *tabwriter.Writer
	buf *strings.Builder
}

func newPrefixWriter() *prefixWriter { return newPrefixWriterParams(0, 8, 2) }

// newPrefixWriterParams is a prefix writer over a tab writer with the given
// minwidth, tabwidth and padding.
func newPrefixWriterParams(minwidth, tabwidth, padding int) *prefixWriter {
	b := &strings.Builder{}
	return &prefixWriter{tw: tabwriter.NewWriter(b, minwidth, tabwidth, padding, ' ', 0), buf: b}
}

// newRawPrefixWriter writes without a tab writer: tabs stay literal, as in
// rollout history --revision (printTemplate).
func newRawPrefixWriter() *prefixWriter { return &prefixWriter{buf: &strings.Builder{}} }

// write prints format at an indentation level of two spaces per level.
func (w *prefixWriter) write(level int, format string, a ...any) {
	fmt.Fprintf(w.out(), strings.Repeat("  ", level)+format, a...)
}

func (w *prefixWriter) out() io.Writer {
	if w.tw == nil {
		return w.buf
	}
	return w.tw
}

func (w *prefixWriter) writeLine(s string) { fmt.Fprintln(w.out(), s) }
func (w *prefixWriter) flush() {
	if w.tw != nil {
		w.tw.Flush()
	}
}
func (w *prefixWriter) String() string {
	w.flush()
	return w.buf.String()
}

// rfc1123z formats a timestamp as describe does (time.RFC1123Z).
func rfc1123z(t time.Time) string { return t.Format(time.RFC1123Z) }

// runDescribe mirrors kubectl describe (pkg/cmd/describe DescribeOptions.Run):
// exact names, or name prefixes when no object has that exact name, TYPE/NAME,
// all objects of a type, -l.
func runDescribe(inv *invocation) error {
	f := inv.flags
	if len(f.Strings("filename")) > 0 {
		return &plainError{"describe -f is not simulated in the playground"}
	}
	if len(inv.args) == 0 {
		inv.errOut.WriteString("You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.\n\n")
		return &usageError{msg: "Required resource not specified.", cmdPath: "kubectl describe"}
	}
	allNS := f.Bool("all-namespaces")
	rargs, err := parseResourceArgs(inv.args)
	if err != nil {
		return err
	}
	selStr := f.String("selector")
	sel, err := parseSelector(selStr)
	if err != nil {
		return labelSelectorError(rargs, selStr, "", err) // server-side (selector.go)
	}
	c := inv.env.Cluster
	showEvents := f.Bool("show-events")
	// Run: events default to on for one object only; several objects, a
	// name that was not found, and prefix matching turn them off unless
	// --show-events was given
	explicitEvents := f.Changed("show-events")
	var objs []object
	var errs []error
	for _, ra := range rargs {
		if len(ra.names) == 0 {
			objs = append(objs, listMatching(c, ra.rt, inv.namespace, allNS, sel)...)
			continue
		}
		for _, n := range ra.names {
			o, err := getObject(c, ra.rt, inv.namespace, n)
			if err != nil {
				// DescribeMatchingResources: "kubectl describe TYPE PREFIX".
				if len(inv.args) == 2 && !strings.Contains(inv.args[0], ",") && isNotFound(err) {
					found := false
					for _, m := range listObjects(c, ra.rt, inv.namespace, allNS) {
						if strings.HasPrefix(m.meta.Name, n) {
							found = true
							s, derr := describeObject(c, m, showEvents && explicitEvents, inv.env.KubeletStoppedSince)
							if derr != nil {
								return derr
							}
							inv.out.WriteString(s + "\n")
						}
					}
					if found {
						return nil
					}
				}
				errs = append(errs, err)
				continue
			}
			objs = append(objs, o)
		}
	}
	if (len(errs) > 0 || len(objs) > 1) && !explicitEvents {
		showEvents = false
	}
	first := true
	for _, o := range objs {
		s, err := describeObject(c, o, showEvents, inv.env.KubeletStoppedSince)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if first {
			first = false
			inv.out.WriteString(s)
		} else {
			inv.out.WriteString("\n\n" + s)
		}
	}
	if len(objs) == 0 && len(errs) == 0 {
		if allNS || !rargs[0].rt.namespaced {
			inv.errOut.WriteString("No resources found\n")
		} else {
			fmt.Fprintf(&inv.errOut, "No resources found in %s namespace.\n", inv.namespace)
		}
	}
	return visitErr(errs)
}

// describeObject renders one object; stopped is Env.KubeletStoppedSince.
func describeObject(c *cluster.Cluster, o object, showEvents bool, stopped func(string) (time.Time, bool)) (string, error) {
	switch x := o.obj.(type) {
	case *api.DaemonSet:
		return describeDaemonSet(c, x, showEvents), nil
	case *api.Pod:
		return describePod(c, x, showEvents), nil
	case *api.Node:
		return describeNode(c, x, showEvents, stopped), nil
	case *api.Namespace:
		return describeNamespace(x), nil
	case *api.ControllerRevision, *api.Event, *api.GenericObject:
		return describeGeneric(c, o, showEvents)
	case *api.ServiceAccount, *api.ConfigMap, *api.Secret:
		s, _ := describeConfigObject(c, o, showEvents) // configobjects.go
		return s, nil
	}
	return "", &plainError{fmt.Sprintf("describe %s is not simulated in the playground", o.rt.resource)}
}

// eventsFor mirrors describe's searchEvents: the events whose involved
// object has this name in this namespace and (when given) this UID or kind,
// sorted by lastTimestamp (SortableEvents).
func eventsFor(c *cluster.Cluster, kind, namespace, name string, uids ...string) []*api.Event {
	var out []*api.Event
	for _, e := range c.Events() {
		io := e.InvolvedObject
		if io.Name != name || (namespace != "" && io.Namespace != namespace) {
			continue
		}
		if kind != "" && io.Kind != kind {
			continue
		}
		if len(uids) > 0 && !contains(uids, io.UID) {
			continue
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastTimestamp.Before(out[j].LastTimestamp) })
	return out
}

// describeEvents mirrors describe.DescribeEvents.
func describeEvents(w *prefixWriter, events []*api.Event, now time.Time) {
	if len(events) == 0 {
		w.write(0, "Events:\t<none>\n")
		return
	}
	w.flush()
	w.write(0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	w.write(1, "----\t------\t----\t----\t-------\n")
	for _, e := range events {
		first := translateTimestampSince(e.FirstTimestamp, now)
		interval := first
		if e.Count > 1 {
			interval = fmt.Sprintf("%s (x%d over %s)", translateTimestampSince(e.LastTimestamp, now), e.Count, first)
		}
		// kubectl 1.37 puts the involved object's field path (a kubelet
		// event's spec.containers{web}) before the message
		msg := strings.TrimSpace(e.Message)
		if e.InvolvedObject.FieldPath != "" {
			msg = e.InvolvedObject.FieldPath + ": " + msg
		}
		w.write(1, "%v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, interval, e.Source.Component, msg)
	}
}

// printLabelsMultiline mirrors describe's printLabelsMultilineWithIndent.
func printLabelsMultiline(w *prefixWriter, title string, labels map[string]string) {
	w.write(0, "%s:\t", title)
	if len(labels) == 0 {
		w.writeLine("<none>")
		return
	}
	for i, k := range sortedKeys(labels) {
		if i != 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s=%s\n", k, labels[k])
	}
}

const maxAnnotationLen = 140

// printAnnotationsMultiline mirrors describe's printAnnotationsMultiline
// (kubectl.kubernetes.io/last-applied-configuration is skipped; long values
// are wrapped and shortened).
func printAnnotationsMultiline(w *prefixWriter, title string, annotations map[string]string) {
	w.write(0, "%s:\t", title)
	var keys []string
	for _, k := range sortedKeys(annotations) {
		if k != api.LastAppliedConfigAnnotation {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		w.writeLine("<none>")
		return
	}
	for i, k := range keys {
		if i != 0 {
			w.write(0, "\t")
		}
		v := strings.TrimSuffix(annotations[k], "\n")
		if len(v)+len(k)+2 > maxAnnotationLen || strings.Contains(v, "\n") {
			w.write(0, "%s:\n", k)
			for _, s := range strings.Split(v, "\n") {
				if len(s) > maxAnnotationLen-2 {
					s = s[:maxAnnotationLen-2] + "..."
				}
				w.write(0, "\t  %s\n", s)
			}
		} else {
			w.write(0, "%s: %s\n", k, v)
		}
	}
}

// printTolerationsMultiline mirrors describe's printTolerationsMultilineWithIndent.
func printTolerationsMultiline(w *prefixWriter, title string, tols []api.Toleration) {
	w.write(0, "%s:\t", title)
	if len(tols) == 0 {
		w.writeLine("<none>")
		return
	}
	ts := append([]api.Toleration(nil), tols...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Key < ts[j].Key })
	for i, t := range ts {
		if i != 0 {
			w.write(0, "\t")
		}
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		if t.Effect != "" {
			s += ":" + t.Effect
		}
		if t.Operator == api.TolerationOpExists && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				s += " op=Exists"
			} else {
				s += "op=Exists"
			}
		}
		if t.TolerationSeconds != nil {
			s += fmt.Sprintf(" for %ds", *t.TolerationSeconds)
		}
		w.write(0, "%s\n", s)
	}
}

// printTaintsMultiline mirrors describe's printTaintsMultilineWithIndent:
// sorted by effect then key.
func printTaintsMultiline(w *prefixWriter, title string, taints []api.Taint) {
	w.write(0, "%s:\t", title)
	if len(taints) == 0 {
		w.writeLine("<none>")
		return
	}
	ts := append([]api.Taint(nil), taints...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Effect+","+ts[i].Key < ts[j].Effect+","+ts[j].Key })
	for i, t := range ts {
		if i != 0 {
			w.write(0, "\t")
		}
		w.write(0, "%s\n", TaintString(t))
	}
}

// describeContainers mirrors describe's describeContainers for the fields
// the simulator keeps.
//
// extra and base locate the containers' unmodeled fields (envFrom):
// extra[base+"[i]"] holds container i's, for example base
// "spec.template.spec.containers" in a DaemonSet's Extra; extra may be nil.
func describeContainers(w *prefixWriter, label string, cs []api.Container, statuses []api.ContainerStatus, pod *api.Pod, space string, extra api.Unmodeled, base string) {
	byName := map[string]api.ContainerStatus{}
	for _, s := range statuses {
		byName[s.Name] = s
	}
	none := ""
	if len(cs) == 0 {
		none = " <none>"
	}
	w.write(0, "%s%s:%s\n", space, label, none)
	for i, c := range cs {
		st, ok := byName[c.Name]
		nameIndent := ""
		if space != "" {
			nameIndent = " "
		}
		w.write(1, "%s%v:\n", nameIndent, c.Name)
		if ok {
			w.write(2, "Container ID:\t%s\n", st.ContainerID)
		}
		w.write(2, "Image:\t%s\n", c.Image)
		if ok {
			w.write(2, "Image ID:\t%s\n", st.ImageID)
		}
		// describeContainerPorts, describeContainerHostPorts: a named
		// port reads "9100/TCP (https)"
		var ports, hostPorts []string
		for _, p := range c.Ports {
			name := ""
			if p.Name != "" {
				name = " (" + p.Name + ")"
			}
			ports = append(ports, fmt.Sprintf("%d/%s%s", p.ContainerPort, p.Protocol, name))
			hostPorts = append(hostPorts, fmt.Sprintf("%d/%s%s", p.HostPort, p.Protocol, name))
		}
		if ps := strings.Join(ports, ", "); strings.Contains(ps, ",") {
			w.write(2, "Ports:\t%s\n", ps)
		} else {
			w.write(2, "Port:\t%s\n", stringOrNone(ps))
		}
		if hs := strings.Join(hostPorts, ", "); strings.Contains(hs, ",") {
			w.write(2, "Host Ports:\t%s\n", hs)
		} else {
			w.write(2, "Host Port:\t%s\n", stringOrNone(hs))
		}
		if len(c.Command) > 0 {
			w.write(2, "Command:\n")
			for _, s := range c.Command {
				for _, line := range strings.Split(s, "\n") {
					w.write(3, "%s\n", line)
				}
			}
		}
		if len(c.Args) > 0 {
			w.write(2, "Args:\n")
			for _, s := range c.Args {
				for _, line := range strings.Split(s, "\n") {
					w.write(3, "%s\n", line)
				}
			}
		}
		if ok {
			describeContainerStatus(w, "State", st.State)
			if st.LastState.Terminated != nil {
				describeContainerStatus(w, "Last State", st.LastState)
			}
			ready := "False"
			if st.Ready {
				ready = "True"
			}
			w.write(2, "Ready:\t%s\n", ready)
			w.write(2, "Restart Count:\t%d\n", st.RestartCount)
		}
		describeResources(w, c.Resources)
		if c.LivenessProbe != nil {
			w.write(2, "Liveness:\t%s\n", describeProbe(c.LivenessProbe))
		}
		if c.ReadinessProbe != nil {
			w.write(2, "Readiness:\t%s\n", describeProbe(c.ReadinessProbe))
		}
		if envFrom, _ := extra[fmt.Sprintf("%s[%d]", base, i)]["envFrom"].([]any); len(envFrom) > 0 {
			describeContainerEnvFrom(w, envFrom)
		}
		if len(c.Env) == 0 {
			w.write(2, "Environment:\t<none>\n")
		} else {
			w.write(2, "Environment:\n")
		}
		for _, e := range c.Env {
			if e.ValueFrom == nil {
				for i, s := range strings.Split(e.Value, "\n") {
					if i == 0 {
						w.write(3, "%s:\t%s\n", e.Name, s)
					} else {
						w.write(3, "\t%s\n", s)
					}
				}
				continue
			}
			w.write(3, "%s:\t%s\n", e.Name, describeEnvFrom(e.ValueFrom, pod, &c))
		}
		if len(c.VolumeMounts) == 0 {
			w.write(2, "Mounts:\t<none>\n")
		} else {
			w.write(2, "Mounts:\n")
			ms := append([]api.VolumeMount(nil), c.VolumeMounts...)
			sort.SliceStable(ms, func(i, j int) bool { return ms[i].MountPath < ms[j].MountPath })
			for _, m := range ms {
				flags := []string{"rw"}
				if m.ReadOnly {
					flags = []string{"ro"}
				}
				if m.SubPath != "" {
					flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
				}
				w.write(3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
			}
		}
	}
}

// describeContainerEnvFrom mirrors describe.go describeContainerEnvFrom
// (called by DescribeContainers only when the container has envFrom, just
// before the Environment block): one line per source, "<name>\tConfigMap"
// or "Secret", " with prefix '<prefix>'" when a prefix is set, then
// "\tOptional: <bool>". envFrom is the container's envFrom list as written.
func describeContainerEnvFrom(w *prefixWriter, envFrom []any) {
	w.write(2, "Environment Variables from:\n")
	for _, e := range envFrom {
		em, _ := e.(map[string]any)
		from, name, optional := "", "", false
		ref := func(key, kind string) bool {
			r, ok := em[key].(map[string]any)
			if !ok {
				return false
			}
			from = kind
			name, _ = r["name"].(string)
			optional, _ = r["optional"].(bool)
			return true
		}
		if !ref("configMapRef", "ConfigMap") {
			ref("secretRef", "Secret")
		}
		if prefix, _ := em["prefix"].(string); prefix != "" {
			w.write(3, "%s\t%s with prefix '%s'\tOptional: %t\n", name, from, prefix, optional)
		} else {
			w.write(3, "%s\t%s\tOptional: %t\n", name, from, optional)
		}
	}
}

func stringOrNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// describeEnvFrom renders an env var's valueFrom as
// describeContainerEnvVars does: a fieldRef with the value
// EnvValueRetriever resolves on a pod (fieldpath.ExtractFieldPathAsString:
// metadata name, namespace, uid, labels and annotations; nothing for other
// paths, nor for a template), a resourceFieldRef with the container's
// value (ExtractContainerResourceValue: the ceiling in divisor units;
// "node allocatable" for an unset cpu or memory limit).
func describeEnvFrom(vf map[string]any, pod *api.Pod, c *api.Container) string {
	str := func(m any, k string) string {
		if mm, ok := m.(map[string]any); ok {
			if v, ok := mm[k]; ok {
				return fmt.Sprint(v)
			}
		}
		return ""
	}
	optional := func(m any) bool { return str(m, "optional") == "true" }
	switch {
	case vf["fieldRef"] != nil:
		ref := vf["fieldRef"]
		apiVersion := str(ref, "apiVersion")
		if apiVersion == "" {
			apiVersion = "v1"
		}
		path := str(ref, "fieldPath")
		value := ""
		if pod != nil {
			value = extractFieldPathAsString(pod, path)
		}
		return fmt.Sprintf("%s (%s:%s)", value, apiVersion, path)
	case vf["resourceFieldRef"] != nil:
		ref := vf["resourceFieldRef"]
		res := str(ref, "resource")
		value := containerResourceValue(c, res, str(ref, "divisor"))
		if value == "0" && (res == "limits.cpu" || res == "limits.memory") {
			value = "node allocatable"
		}
		return fmt.Sprintf("%s (%s)", value, res)
	case vf["secretKeyRef"] != nil:
		r := vf["secretKeyRef"]
		return fmt.Sprintf("<set to the key '%s' in secret '%s'>\tOptional: %t", str(r, "key"), str(r, "name"), optional(r))
	case vf["configMapKeyRef"] != nil:
		r := vf["configMapKeyRef"]
		return fmt.Sprintf("<set to the key '%s' of config map '%s'>\tOptional: %t", str(r, "key"), str(r, "name"), optional(r))
	}
	return ""
}

func describeContainerStatus(w *prefixWriter, name string, s api.ContainerState) {
	switch {
	case s.Running != nil:
		w.write(2, "%s:\tRunning\n", name)
		w.write(3, "Started:\t%v\n", rfc1123z(s.Running.StartedAt))
	case s.Waiting != nil:
		w.write(2, "%s:\tWaiting\n", name)
		if s.Waiting.Reason != "" {
			w.write(3, "Reason:\t%s\n", s.Waiting.Reason)
		}
	case s.Terminated != nil:
		t := s.Terminated
		w.write(2, "%s:\tTerminated\n", name)
		if t.Reason != "" {
			w.write(3, "Reason:\t%s\n", t.Reason)
		}
		if t.Message != "" {
			w.write(3, "Message:\t%s\n", t.Message)
		}
		w.write(3, "Exit Code:\t%d\n", t.ExitCode)
		if t.Signal > 0 {
			w.write(3, "Signal:\t%d\n", t.Signal)
		}
		w.write(3, "Started:\t%s\n", rfc1123z(t.StartedAt))
		w.write(3, "Finished:\t%s\n", rfc1123z(t.FinishedAt))
	default:
		w.write(2, "%s:\tWaiting\n", name)
	}
}

func describeResources(w *prefixWriter, r api.ResourceRequirements) {
	if len(r.Limits) > 0 {
		w.write(2, "Limits:\n")
	}
	for _, k := range sortedResourceNames(r.Limits) {
		w.write(3, "%s:\t%s\n", k, r.Limits[k].String())
	}
	if len(r.Requests) > 0 {
		w.write(2, "Requests:\n")
	}
	for _, k := range sortedResourceNames(r.Requests) {
		w.write(3, "%s:\t%s\n", k, r.Requests[k].String())
	}
}

func sortedResourceNames(l api.ResourceList) []string {
	out := make([]string, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// describeProbe mirrors describe.DescribeProbe (kubectl 1.37 spells the
// thresholds successThreshold= and failureThreshold=).
func describeProbe(p *api.Probe) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds successThreshold=%d failureThreshold=%d", p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold)
	get := func(m any, k string) string {
		if mm, ok := m.(map[string]any); ok && mm[k] != nil {
			return fmt.Sprint(mm[k])
		}
		return ""
	}
	switch {
	case p.Handler["exec"] != nil:
		var cmd []string
		if m, ok := p.Handler["exec"].(map[string]any); ok {
			if l, ok := m["command"].([]any); ok {
				for _, x := range l {
					cmd = append(cmd, fmt.Sprint(x))
				}
			}
		}
		return fmt.Sprintf("exec [%s] %s", strings.Join(cmd, " "), attrs)
	case p.Handler["httpGet"] != nil:
		h := p.Handler["httpGet"]
		scheme := strings.ToLower(get(h, "scheme"))
		if scheme == "" {
			scheme = "http"
		}
		// the API server defaults the path to "/" (SetDefaults_HTTPGetAction)
		path := get(h, "path")
		if path == "" {
			path = "/"
		}
		return fmt.Sprintf("http-get %s://%s:%s%s %s", scheme, get(h, "host"), get(h, "port"), path, attrs)
	case p.Handler["tcpSocket"] != nil:
		h := p.Handler["tcpSocket"]
		return fmt.Sprintf("tcp-socket %s:%s %s", get(h, "host"), get(h, "port"), attrs)
	case p.Handler["grpc"] != nil:
		h := p.Handler["grpc"]
		return fmt.Sprintf("grpc <pod>:%s %s %s", get(h, "port"), get(h, "service"), attrs)
	}
	return "unknown " + attrs
}

// describeVolumes mirrors describe's describeVolumes for the common sources.
func describeVolumes(w *prefixWriter, vols []api.Volume, space string) {
	if len(vols) == 0 {
		w.write(0, "%sVolumes:\t<none>\n", space)
		return
	}
	w.write(0, "%sVolumes:\n", space)
	get := func(m any, k string) string {
		if mm, ok := m.(map[string]any); ok && mm[k] != nil {
			return fmt.Sprint(mm[k])
		}
		return ""
	}
	for _, v := range vols {
		nameIndent := ""
		if space != "" {
			nameIndent = " "
		}
		w.write(1, "%s%v:\n", nameIndent, v.Name)
		switch {
		case v.Source["hostPath"] != nil:
			// printHostPathVolumeSource: <none> only when type is unset; the
			// API server defaults it to "" (SetDefaults_HostPathVolumeSource)
			h := v.Source["hostPath"]
			t := "<none>"
			if hm, ok := h.(map[string]any); ok {
				if tv, set := hm["type"]; set && tv != nil {
					t = fmt.Sprint(tv)
				}
			}
			w.write(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%v\n    HostPathType:\t%v\n", get(h, "path"), t)
		case v.Source["emptyDir"] != nil:
			h := v.Source["emptyDir"]
			size := get(h, "sizeLimit")
			if size == "" {
				size = "<unset>"
			}
			w.write(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%v\n    SizeLimit:\t%v\n", get(h, "medium"), size)
		case v.Source["secret"] != nil:
			h := v.Source["secret"]
			w.write(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%v\n    Optional:\t%v\n", get(h, "secretName"), get(h, "optional") == "true")
		case v.Source["configMap"] != nil:
			h := v.Source["configMap"]
			w.write(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%v\n    Optional:\t%v\n", get(h, "name"), get(h, "optional") == "true")
		case v.Source["projected"] != nil:
			printProjectedVolumeSource(w, v.Source["projected"])
		case v.Source["downwardAPI"] != nil:
			// printDownwardAPIVolumeSource
			w.write(2, "Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n")
			dm, _ := v.Source["downwardAPI"].(map[string]any)
			items, _ := dm["items"].([]any)
			for _, it := range items {
				if fr := get(it, "fieldRef"); fr != "" {
					w.write(3, "%v -> %v\n", get(asMap(it)["fieldRef"], "fieldPath"), get(it, "path"))
				}
				if rf := get(it, "resourceFieldRef"); rf != "" {
					w.write(3, "%v -> %v\n", get(asMap(it)["resourceFieldRef"], "resource"), get(it, "path"))
				}
			}
		case v.Source["persistentVolumeClaim"] != nil:
			h := v.Source["persistentVolumeClaim"]
			w.write(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%v\n    ReadOnly:\t%v\n", get(h, "claimName"), get(h, "readOnly") == "true")
		default:
			w.write(1, "<unknown>\n")
		}
	}
}

// printProjectedVolumeSource mirrors describe's printProjectedVolumeSource:
// one line (or two) per source; Optional is false when unset.
func printProjectedVolumeSource(w *prefixWriter, projected any) {
	w.write(2, "Type:\tProjected (a volume that contains injected data from multiple sources)\n")
	pm, _ := projected.(map[string]any)
	sources, _ := pm["sources"].([]any)
	optional := func(m map[string]any) bool {
		b, _ := m["optional"].(bool)
		return b
	}
	str := func(m map[string]any, k string) string {
		if m[k] == nil {
			return ""
		}
		return fmt.Sprint(m[k])
	}
	for _, src := range sources {
		sm, _ := src.(map[string]any)
		if m, ok := sm["secret"].(map[string]any); ok {
			w.write(2, "SecretName:\t%v\n    Optional:\t%v\n", str(m, "name"), optional(m))
		} else if _, ok := sm["downwardAPI"].(map[string]any); ok {
			w.write(2, "DownwardAPI:\ttrue\n")
		} else if m, ok := sm["configMap"].(map[string]any); ok {
			w.write(2, "ConfigMapName:\t%v\n    Optional:\t%v\n", str(m, "name"), optional(m))
		} else if m, ok := sm["serviceAccountToken"].(map[string]any); ok {
			// expirationSeconds defaults to 3600 (SetDefaults_ServiceAccountTokenProjection)
			exp := str(m, "expirationSeconds")
			if exp == "" {
				exp = "3600"
			}
			w.write(2, "TokenExpirationSeconds:\t%v\n", exp)
		}
	}
}

// describePodTemplate mirrors describe.DescribePodTemplate.
// extra holds the template's unmodeled fields at the paths
// "spec.template.spec.(init)containers[i]" (a DaemonSet's Extra), or nil.
func describePodTemplate(w *prefixWriter, t *api.PodTemplateSpec, extra api.Unmodeled) {
	w.write(0, "Pod Template:\n")
	printLabelsMultiline(w, "  Labels", t.Labels)
	if len(t.Annotations) > 0 {
		printAnnotationsMultiline(w, "  Annotations", t.Annotations)
	}
	if t.Spec.ServiceAccountName != "" {
		w.write(1, "Service Account:\t%s\n", t.Spec.ServiceAccountName)
	}
	if len(t.Spec.InitContainers) > 0 {
		describeContainers(w, "Init Containers", t.Spec.InitContainers, nil, nil, "  ", extra, "spec.template.spec.initContainers")
	}
	describeContainers(w, "Containers", t.Spec.Containers, nil, nil, "  ", extra, "spec.template.spec.containers")
	describeVolumes(w, t.Spec.Volumes, "  ")
	if t.Spec.PriorityClassName != "" {
		w.write(1, "Priority Class Name:\t%s\n", t.Spec.PriorityClassName)
	}
	printLabelsMultiline(w, "  Node-Selectors", t.Spec.NodeSelector)
	printTolerationsMultiline(w, "  Tolerations", t.Spec.Tolerations)
}

// selectorString is a label selector as labels.Selector.String(): like
// FormatLabelSelector but empty instead of "<none>".
func selectorString(s *api.LabelSelector) string {
	if f := FormatLabelSelector(s); f != "<none>" {
		return f
	}
	return ""
}

// describeDaemonSet mirrors describe's describeDaemonSet.
func describeDaemonSet(c *cluster.Cluster, ds *api.DaemonSet, showEvents bool) string {
	w := newPrefixWriter()
	var running, waiting, succeeded, failed int
	sel := dsSelector(ds)
	for _, p := range c.PodsOwnedBy(ds.UID) {
		if p.Namespace != ds.Namespace || !sel(p.Labels) {
			continue
		}
		switch p.Status.Phase {
		case api.PodRunning:
			running++
		case api.PodPending:
			waiting++
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
	}
	w.write(0, "Name:\t%s\n", ds.Name)
	w.write(0, "Namespace:\t%s\n", ds.Namespace)
	w.write(0, "Selector:\t%s\n", selectorString(ds.Spec.Selector))
	w.write(0, "Node-Selector:\t%s\n", formatLabels(ds.Spec.Template.Spec.NodeSelector))
	printLabelsMultiline(w, "Labels", ds.Labels)
	printAnnotationsMultiline(w, "Annotations", ds.Annotations)
	st := ds.Status
	w.write(0, "Desired Number of Nodes Scheduled: %d\n", st.DesiredNumberScheduled)
	w.write(0, "Current Number of Nodes Scheduled: %d\n", st.CurrentNumberScheduled)
	w.write(0, "Number of Nodes Scheduled with Up-to-date Pods: %d\n", st.UpdatedNumberScheduled)
	w.write(0, "Number of Nodes Scheduled with Available Pods: %d\n", st.NumberAvailable)
	w.write(0, "Number of Nodes Misscheduled: %d\n", st.NumberMisscheduled)
	w.write(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", running, waiting, succeeded, failed)
	describePodTemplate(w, &ds.Spec.Template, ds.Extra)
	if showEvents {
		describeEvents(w, eventsFor(c, "DaemonSet", ds.Namespace, ds.Name, ds.UID), c.Now())
	}
	return w.String()
}

// dsSelector returns a matcher for the DaemonSet's selector (a nil or
// invalid selector matches nothing).
func dsSelector(ds *api.DaemonSet) func(map[string]string) bool {
	s := FormatLabelSelector(ds.Spec.Selector)
	if ds.Spec.Selector == nil || s == "<error>" {
		return func(map[string]string) bool { return false }
	}
	if s == "<none>" {
		return func(map[string]string) bool { return true }
	}
	sel, err := parseSelector(s)
	if err != nil {
		return func(map[string]string) bool { return false }
	}
	return sel.matches
}

// describePod mirrors describe's describePod.
func describePod(c *cluster.Cluster, p *api.Pod, showEvents bool) string {
	w := newPrefixWriter()
	now := c.Now()
	w.write(0, "Name:\t%s\n", p.Name)
	w.write(0, "Namespace:\t%s\n", p.Namespace)
	if p.Spec.Priority != nil {
		w.write(0, "Priority:\t%d\n", *p.Spec.Priority)
	}
	if p.Spec.PriorityClassName != "" {
		w.write(0, "Priority Class Name:\t%s\n", p.Spec.PriorityClassName)
	}
	if p.Spec.ServiceAccountName != "" {
		w.write(0, "Service Account:\t%s\n", p.Spec.ServiceAccountName)
	}
	if p.Spec.NodeName == "" {
		w.write(0, "Node:\t<none>\n")
	} else {
		w.write(0, "Node:\t%s\n", p.Spec.NodeName+"/"+p.Status.HostIP)
	}
	if p.Status.StartTime != nil {
		w.write(0, "Start Time:\t%s\n", rfc1123z(*p.Status.StartTime))
	}
	printLabelsMultiline(w, "Labels", p.Labels)
	printAnnotationsMultiline(w, "Annotations", p.Annotations)
	if p.DeletionTimestamp != nil && !p.IsTerminal() {
		w.write(0, "Status:\tTerminating (lasts %s)\n", translateTimestampSince(*p.DeletionTimestamp, now))
		var g int64
		if p.DeletionGracePeriodSeconds != nil {
			g = *p.DeletionGracePeriodSeconds
		}
		w.write(0, "Termination Grace Period:\t%ds\n", g)
	} else {
		w.write(0, "Status:\t%s\n", p.Status.Phase)
	}
	if p.Status.Reason != "" {
		w.write(0, "Reason:\t%s\n", p.Status.Reason)
	}
	if p.Status.Message != "" {
		w.write(0, "Message:\t%s\n", p.Status.Message)
	}
	w.write(0, "IP:\t%s\n", p.Status.PodIP)
	if p.Status.PodIP == "" {
		w.write(0, "IPs:\t<none>\n")
	} else {
		w.write(0, "IPs:\n")
		w.write(1, "IP:\t%s\n", p.Status.PodIP)
	}
	if ref := p.ControllerRef(); ref != nil {
		w.write(0, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	if p.Status.NominatedNodeName != "" {
		w.write(0, "NominatedNodeName:\t%s\n", p.Status.NominatedNodeName)
	}
	if len(p.Spec.InitContainers) > 0 {
		describeContainers(w, "Init Containers", p.Spec.InitContainers, p.Status.InitContainerStatuses, p, "", p.Extra, "spec.initContainers")
	}
	describeContainers(w, "Containers", p.Spec.Containers, p.Status.ContainerStatuses, p, "", p.Extra, "spec.containers")
	if len(p.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n  Type\tStatus\n")
		for _, cond := range p.Status.Conditions {
			w.write(1, "%v \t%v \n", cond.Type, cond.Status)
		}
	}
	describeVolumes(w, p.Spec.Volumes, "")
	w.write(0, "QoS Class:\t%s\n", api.GetPodQOS(&p.Spec))
	printLabelsMultiline(w, "Node-Selectors", p.Spec.NodeSelector)
	printTolerationsMultiline(w, "Tolerations", p.Spec.Tolerations)
	if showEvents {
		describeEvents(w, eventsFor(c, "", p.Namespace, p.Name, p.UID), now)
	}
	return w.String()
}

// hexID derives a stable identifier from a node's UID for the fields a real
// node reports from its machine (machine-id, system UUID, boot ID).
func hexID(seed string) string {
	h := fnv.New128a() // FNV, not a crypto hash: keeps crypto/* out of the wasm build
	h.Write([]byte(seed))
	return fmt.Sprintf("%x", h.Sum(nil))
}

func uuidFrom(h string) string {
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// describeNode mirrors describe's describeNode and describeNodeResource.
//
// stopped reports when a node's kubelet stopped (Env.KubeletStoppedSince;
// may be nil).
func describeNode(c *cluster.Cluster, n *api.Node, showEvents bool, stopped func(string) (time.Time, bool)) string {
	w := newPrefixWriter()
	now := c.Now()
	w.write(0, "Name:\t%s\n", n.Name)
	w.write(0, "Roles:\t%s\n", NodeRolesColumn(n))
	printLabelsMultiline(w, "Labels", n.Labels)
	printAnnotationsMultiline(w, "Annotations", n.Annotations)
	w.write(0, "CreationTimestamp:\t%s\n", rfc1123z(n.CreationTimestamp))
	printTaintsMultiline(w, "Taints", n.Spec.Taints)
	w.write(0, "Unschedulable:\t%v\n", n.Spec.Unschedulable)
	// The kubelet's lease in kube-node-lease: held by the node, renewed
	// every 10 s while the kubelet runs; the conditions' heartbeats move
	// with the kubelet's status posts (deriveNodeHeartbeat).
	hb := deriveNodeHeartbeat(c, n, stopped)
	n = withHeartbeat(n, hb)
	w.write(0, "Lease:\n")
	w.write(1, "HolderIdentity:\t%s\n", n.Name)
	w.write(1, "AcquireTime:\t%s\n", "<unset>")
	renew := "<unset>"
	if !hb.renew.IsZero() {
		renew = rfc1123z(hb.renew)
	}
	w.write(1, "RenewTime:\t%s\n", renew)
	if len(n.Status.Conditions) > 0 {
		w.write(0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
		w.write(1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, cond := range n.Status.Conditions {
			w.write(1, "%v \t%v \t%s \t%s \t%v \t%v\n", cond.Type, cond.Status, rfc1123z(cond.LastHeartbeatTime), rfc1123z(cond.LastTransitionTime), cond.Reason, cond.Message)
		}
	}
	w.write(0, "Addresses:\n")
	for _, a := range n.Status.Addresses {
		w.write(1, "%s:\t%s\n", a.Type, a.Address)
	}
	printList := func(l api.ResourceList) {
		for _, k := range sortedResourceNames(l) {
			w.write(0, "  %s:\t%s\n", k, l[k].String())
		}
	}
	if len(n.Status.Capacity) > 0 {
		w.write(0, "Capacity:\n")
		printList(n.Status.Capacity)
	}
	if len(n.Status.Allocatable) > 0 {
		w.write(0, "Allocatable:\n")
		printList(n.Status.Allocatable)
	}
	machineID, systemUUID, bootID := nodeIdentity(n)
	info := n.Status.NodeInfo
	w.write(0, "System Info:\n")
	w.write(0, "  Machine ID:\t%s\n", machineID)
	w.write(0, "  System UUID:\t%s\n", systemUUID)
	w.write(0, "  Boot ID:\t%s\n", bootID)
	w.write(0, "  Kernel Version:\t%s\n", info.KernelVersion)
	w.write(0, "  OS Image:\t%s\n", info.OSImage)
	w.write(0, "  Operating System:\t%s\n", info.OperatingSystem)
	w.write(0, "  Architecture:\t%s\n", info.Architecture)
	w.write(0, "  Container Runtime Version:\t%s\n", info.ContainerRuntimeVersion)
	w.write(0, "  Kubelet Version:\t%s\n", info.KubeletVersion)
	// describeNode (kubectl 1.37) prints no Kube-Proxy Version line
	if n.Spec.PodCIDR != "" {
		w.write(0, "PodCIDR:\t%s\n", n.Spec.PodCIDR)
		w.write(0, "PodCIDRs:\t%s\n", n.Spec.PodCIDR)
	}
	var pods []*api.Pod
	for _, p := range c.PodsOnNode(n.Name) {
		if !p.IsTerminal() {
			pods = append(pods, p)
		}
	}
	describeNodeResource(w, n, pods, now)
	if showEvents {
		describeEvents(w, eventsFor(c, "Node", "", n.Name, n.UID, n.Name), now)
	}
	return w.String()
}

// podRequestsAndLimits mirrors resourcehelper.PodRequestsAndLimits for cpu
// and memory: the sum over containers, or the largest init container when
// that is more.
func podRequestsAndLimits(p *api.Pod) (req, lim map[string][]api.Quantity) {
	req, lim = map[string][]api.Quantity{}, map[string][]api.Quantity{}
	for _, r := range []string{api.ResourceCPU, api.ResourceMemory, "ephemeral-storage"} {
		var sumReq, sumLim int64
		for _, c := range p.Spec.Containers {
			if q, ok := c.Resources.Requests[r]; ok {
				req[r] = append(req[r], q)
				sumReq = api.AddMilli(sumReq, q.Milli)
			}
			if q, ok := c.Resources.Limits[r]; ok {
				lim[r] = append(lim[r], q)
				sumLim = api.AddMilli(sumLim, q.Milli)
			}
		}
		for _, c := range p.Spec.InitContainers {
			if q, ok := c.Resources.Requests[r]; ok && q.Milli > sumReq {
				req[r] = []api.Quantity{q}
				sumReq = q.Milli
			}
			if q, ok := c.Resources.Limits[r]; ok && q.Milli > sumLim {
				lim[r] = []api.Quantity{q}
				sumLim = q.Milli
			}
		}
	}
	return req, lim
}

// sumQuantities adds quantities and renders the sum the way
// resource.Quantity prints a sum: in the unit suffix the terms share, else
// canonical decimal form.
func sumQuantities(qs []api.Quantity) (string, int64) {
	var milli int64
	for _, q := range qs {
		milli = api.AddMilli(milli, q.Milli)
	}
	if len(qs) == 0 || milli == 0 {
		return "0", 0
	}
	if len(qs) == 1 {
		return qs[0].String(), milli
	}
	suffix := ""
	same := true
	var total int64
	for i, q := range qs {
		num := strings.TrimRight(q.Text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
		suf := q.Text[len(num):]
		v, err := strconv.ParseInt(num, 10, 64)
		if err != nil || (i > 0 && suf != suffix) {
			same = false
			break
		}
		suffix = suf
		total += v
	}
	if same {
		return strconv.FormatInt(total, 10) + suffix, milli
	}
	return api.MilliQuantity(milli).String(), milli
}

func describeNodeResource(w *prefixWriter, n *api.Node, pods []*api.Pod, now time.Time) {
	w.write(0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	w.write(1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	w.write(1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	alloc := n.Status.Capacity
	if len(n.Status.Allocatable) > 0 {
		alloc = n.Status.Allocatable
	}
	allocCPU := alloc[api.ResourceCPU].Milli
	allocMem := alloc[api.ResourceMemory].Value()
	frac := func(v, total int64) int64 {
		if total == 0 {
			return 0
		}
		return int64(float64(v) / float64(total) * 100)
	}
	var allReq, allLim = map[string][]api.Quantity{}, map[string][]api.Quantity{}
	for _, p := range pods {
		req, lim := podRequestsAndLimits(p)
		cr, crm := sumQuantities(req[api.ResourceCPU])
		cl, clm := sumQuantities(lim[api.ResourceCPU])
		mr, mrm := sumQuantities(req[api.ResourceMemory])
		ml, mlm := sumQuantities(lim[api.ResourceMemory])
		w.write(1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", p.Namespace, p.Name,
			cr, frac(crm, allocCPU), cl, frac(clm, allocCPU),
			mr, frac((mrm+999)/1000, allocMem), ml, frac((mlm+999)/1000, allocMem),
			translateTimestampSince(p.CreationTimestamp, now))
		for k, v := range req {
			allReq[k] = append(allReq[k], v...)
		}
		for k, v := range lim {
			allLim[k] = append(allLim[k], v...)
		}
	}
	w.write(0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	w.write(1, "Resource\tRequests\tLimits\n")
	w.write(1, "--------\t--------\t------\n")
	cr, crm := sumQuantities(allReq[api.ResourceCPU])
	cl, clm := sumQuantities(allLim[api.ResourceCPU])
	mr, mrm := sumQuantities(allReq[api.ResourceMemory])
	ml, mlm := sumQuantities(allLim[api.ResourceMemory])
	w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", api.ResourceCPU, cr, frac(crm, allocCPU), cl, frac(clm, allocCPU))
	w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", api.ResourceMemory, mr, frac((mrm+999)/1000, allocMem), ml, frac((mlm+999)/1000, allocMem))
	allocEph := alloc["ephemeral-storage"].Value()
	er, erm := sumQuantities(allReq["ephemeral-storage"])
	el, elm := sumQuantities(allLim["ephemeral-storage"])
	w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", "ephemeral-storage", er, frac((erm+999)/1000, allocEph), el, frac((elm+999)/1000, allocEph))
	var ext, huge []string
	for k := range alloc {
		switch {
		case strings.HasPrefix(k, "hugepages-"):
			huge = append(huge, k)
		case k != api.ResourceCPU && k != api.ResourceMemory && k != api.ResourcePods && k != "ephemeral-storage":
			ext = append(ext, k)
		}
	}
	sort.Strings(ext)
	sort.Strings(huge)
	for _, k := range huge {
		w.write(1, "%s\t%s (%d%%)\t%s (%d%%)\n", k, "0", 0, "0", 0)
	}
	for _, k := range ext {
		w.write(1, "%s\t%s\t%s\n", k, "0", "0")
	}
}

// extractFieldPathAsString mirrors fieldpath.ExtractFieldPathAsString for
// a pod: metadata.name, namespace and uid, metadata.labels and
// annotations (FormatMap: key="value" lines, sorted) or one of them by
// subscript (metadata.labels['k']); "" for any other path (an error
// upstream, which describe prints as nothing).
func extractFieldPathAsString(p *api.Pod, path string) string {
	for _, m := range []struct {
		name string
		kv   map[string]string
	}{{"metadata.labels", p.Labels}, {"metadata.annotations", p.Annotations}} {
		if path == m.name {
			keys := make([]string, 0, len(m.kv))
			for k := range m.kv {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				fmt.Fprintf(&b, "%s=%q\n", k, m.kv[k])
			}
			return strings.TrimSuffix(b.String(), "\n")
		}
		if rest, ok := strings.CutPrefix(path, m.name+"['"); ok && strings.HasSuffix(rest, "']") {
			return m.kv[strings.TrimSuffix(rest, "']")]
		}
	}
	switch path {
	case "metadata.name":
		return p.Name
	case "metadata.namespace":
		return p.Namespace
	case "metadata.uid":
		return p.UID
	}
	return ""
}

// containerResourceValue mirrors resource.ExtractContainerResourceValue:
// the container's request or limit of res ("limits.cpu",
// "requests.memory" ...) divided by divisor (1 when unset or 0), rounded
// up; "" for a resource it does not know.
func containerResourceValue(c *api.Container, res, divisor string) string {
	kind, name, ok := strings.Cut(res, ".")
	if !ok || (name != api.ResourceCPU && name != api.ResourceMemory && name != "ephemeral-storage" && !strings.HasPrefix(name, "hugepages-")) {
		return ""
	}
	var list api.ResourceList
	switch kind {
	case "limits":
		list = c.Resources.Limits
	case "requests":
		list = c.Resources.Requests
	default:
		return ""
	}
	d := int64(1000) // milli-units of the divisor
	if q, err := api.ParseQuantity(divisor); err == nil && q.Milli != 0 {
		d = q.Milli
	}
	v := list[name].Milli
	if name != api.ResourceCPU {
		// memory, storage, huge pages: whole units on both sides (Value)
		v, d = (v+999)/1000*1000, (d+999)/1000*1000
	}
	return strconv.FormatInt((v+d-1)/d, 10)
}
