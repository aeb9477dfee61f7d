package kubectl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func rolloutFlags() []*flagDef {
	return []*flagDef{
		{name: "watch", shorthand: "w", kind: flagBool, def: "true"},
		{name: "timeout", kind: flagDuration, def: "0s"},
		{name: "revision", kind: flagInt, def: "0"},
		{name: "to-revision", kind: flagInt, def: "0"},
		stringFlag("selector", "l", ""),
		stringFlag("output", "o", ""),
		dryRunFlag(),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
	}
}

// rolloutHelp is `kubectl rollout -h` (and `kubectl rollout` alone) as
// kubectl 1.37 prints it: rollout's Long description after
// templates.LongDesc (heredoc, then kubectl's markdown ASCIIRenderer, which
// leaves the 8-space second line and the one-space indent of "Valid
// resource types"), its Examples after templates.Examples (every line,
// blank ones too, indented by two spaces), the subcommands as the
// templater's cmdGroupsString lays them out (name padded to 11, three
// spaces, Short), the usage line with [options], and the two footer tips
// of MainUsageTemplate (pkg/cmd/rollout/rollout.go,
// pkg/util/templates/{normalizers,markdown,templates,templater}.go).
const rolloutHelp = "Manage the rollout of one or many resources.\n" +
	"        \n" +
	" Valid resource types include:\n" +
	"\n" +
	"  *  deployments\n" +
	"  *  daemonsets\n" +
	"  *  statefulsets\n" +
	"\n" +
	"Examples:\n" +
	"  # Rollback to the previous deployment\n" +
	"  kubectl rollout undo deployment/abc\n" +
	"  \n" +
	"  # Check the rollout status of a daemonset\n" +
	"  kubectl rollout status daemonset/foo\n" +
	"  \n" +
	"  # Restart a deployment\n" +
	"  kubectl rollout restart deployment/abc\n" +
	"  \n" +
	"  # Restart deployments with the 'app=nginx' label\n" +
	"  kubectl rollout restart deployment --selector=app=nginx\n" +
	"\n" +
	"Available Commands:\n" +
	"  history       View rollout history\n" +
	"  pause         Mark the provided resource as paused\n" +
	"  restart       Restart a resource\n" +
	"  resume        Resume a paused resource\n" +
	"  status        Show the status of the rollout\n" +
	"  undo          Undo a previous rollout\n" +
	"\n" +
	"Usage:\n" +
	"  kubectl rollout SUBCOMMAND [options]\n" +
	"\n" +
	"Use \"kubectl rollout <command> --help\" for more information about a given command.\n" +
	"Use \"kubectl options\" for a list of global command-line options (applies to all commands).\n"

// rolloutSubcommands are kubectl rollout's subcommands.
var rolloutSubcommands = []string{"history", "pause", "restart", "resume", "status", "undo"}

// runRollout dispatches kubectl rollout SUBCOMMAND TYPE/NAME for DaemonSets
// (pkg/cmd/rollout, pkg/polymorphichelpers).
func runRollout(inv *invocation) error {
	if len(inv.args) == 0 {
		// cmdutil.DefaultSubCommandRun: the help on stdout, then
		// CheckErr(ErrExit): exit status 1 with no message
		inv.out.WriteString(rolloutHelp)
		return errExit
	}
	sub := inv.args[0]
	if !contains(rolloutSubcommands, sub) {
		// RequireNoArguments: the arguments went to rollout itself
		return &usageError{msg: fmt.Sprintf("unknown command %q", strings.Join(inv.args, " ")), cmdPath: "kubectl rollout"}
	}
	path := "kubectl rollout " + sub
	if len(inv.flags.Strings("filename")) > 0 || inv.flags.String("selector") != "" {
		return &plainError{"rollout -f and -l are not simulated in the playground"}
	}
	args := inv.args[1:]
	var err error
	if len(args) == 0 {
		return &usageError{msg: "required resource not specified", cmdPath: path}
	}
	var histOut *getOutput
	histPrinted := 0
	if sub == "history" {
		// RolloutHistoryOptions.Validate
		if rev := inv.flags.Int("revision"); rev < 0 {
			return &plainError{fmt.Sprintf("revision must be a positive integer: %d", rev)}
		}
		if histOut, err = historyOutput(inv); err != nil {
			return err
		}
	}
	rargs, err := parseResourceArgs(args)
	if err != nil {
		return err
	}
	c := inv.env.Cluster
	var errs []error
	for _, ra := range rargs {
		if ra.rt != rtDaemonSets && (ra.rt.kind == "Deployment" || ra.rt.kind == "StatefulSet") && isGenericType(ra.rt) {
			// kubectl has viewers and rollbackers for these: the builder
			// fetches the object first (a missing one is NotFound); no
			// controller of the playground rolls them out
			for _, n := range ra.names {
				if getGeneric(c, ra.rt, inv.namespace, n) == nil {
					return cluster.NotFound(ra.rt.groupResource(), n)
				}
			}
			return &plainError{fmt.Sprintf("rollout %s of %s is not simulated in the playground: the %s is stored, but no controller acts on it", sub, ra.rt.resource, ra.rt.kind)}
		}
		if ra.rt != rtDaemonSets {
			switch sub {
			case "status":
				return &plainError{"no status viewer has been implemented for " + ra.rt.kind}
			case "history":
				return &plainError{fmt.Sprintf("no history viewer has been implemented for %q", ra.rt.kind)}
			case "undo":
				return &plainError{fmt.Sprintf("no rollbacker has been implemented for %q", ra.rt.kind)}
			}
			return &plainError{fmt.Sprintf("%s is not supported for %s", sub, ra.rt.resource)}
		}
		if len(ra.names) == 0 {
			return &usageError{msg: "required resource not specified", cmdPath: path}
		}
		// one DaemonSet only may stream (the page's terminal): a command
		// naming several keeps waiting for each in turn
		stream := inv.env.StreamRolloutStatus && len(rargs) == 1 && len(ra.names) == 1
		for _, name := range ra.names {
			ds := c.DaemonSet(inv.namespace, name)
			if ds == nil {
				errs = append(errs, cluster.NotFound("daemonsets.apps", name))
				continue
			}
			var err error
			switch sub {
			case "status":
				err = inv.rolloutStatus(ds, stream)
				if _, stopped := err.(*stoppedError); stopped {
					return err // Env.Stop: no further waits
				}
			case "history":
				if histOut != nil {
					err = inv.rolloutHistoryObjects(ds, histOut, &histPrinted)
				} else {
					err = inv.rolloutHistory(ds)
				}
			case "undo":
				err = inv.rolloutUndo(ds)
			case "restart":
				err = inv.rolloutRestart(ds)
			case "pause":
				err = &plainError{fmt.Sprintf("daemonsets.apps %q pausing is not supported", ds.Name)}
			case "resume":
				err = &plainError{fmt.Sprintf("daemonsets.apps %q resuming is not supported", ds.Name)}
			}
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	return visitErr(errs)
}

// daemonSetStatus mirrors DaemonSetStatusViewer.Status.
func daemonSetStatus(ds *api.DaemonSet) (string, bool, error) {
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType {
		return "", true, &plainError{"rollout status is only available for RollingUpdate strategy type"}
	}
	st := ds.Status
	if ds.Generation <= st.ObservedGeneration {
		if st.UpdatedNumberScheduled < st.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n", ds.Name, st.UpdatedNumberScheduled, st.DesiredNumberScheduled), false, nil
		}
		if st.NumberAvailable < st.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n", ds.Name, st.NumberAvailable, st.DesiredNumberScheduled), false, nil
		}
		return fmt.Sprintf("daemon set %q successfully rolled out\n", ds.Name), true, nil
	}
	return "Waiting for daemon set spec update to be observed...\n", false, nil
}

// DaemonSetRolloutStatus is kubectl rollout status's verdict on ds, for
// the page's progress bar (DaemonSetStatusViewer.Status,
// k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go): the line it
// prints, with its trailing newline ("Waiting for daemon set \"x\" rollout
// to finish: 2 out of 5 new pods have been updated...\n"), and whether the
// rollout is done. For a strategy other than RollingUpdate err is
// "rollout status is only available for RollingUpdate strategy type" and
// done is true.
func DaemonSetRolloutStatus(ds *api.DaemonSet) (msg string, done bool, err error) {
	return daemonSetStatus(ds)
}

// Bounds of a rollout status watch without --timeout (kubectl would wait
// for ever; a playground command must return): the watch gives up, with
// kubectl's timeout error, after MaxRolloutWait of virtual time, or sooner
// once the DaemonSet's status has not changed for RolloutStuckAfter (an
// image that cannot be pulled, a crash loop, a probe that never passes, a
// NotReady node eating the budget: nothing moves any more). A note on
// standard error says which bound ended the watch.
const (
	MaxRolloutWait    = 30 * time.Minute
	RolloutStuckAfter = 10 * time.Minute
)

// rolloutStatus mirrors kubectl rollout status (pkg/cmd/rollout/rollout_status.go):
// print the status (DaemonSetStatusViewer.Status), and with --watch (the
// default) print it again on every change of the DaemonSet while virtual
// time advances in one-second steps, until it is rolled out; --timeout
// expiry is `error: timed out waiting for the condition` (the watch's
// wait.ErrWaitTimeout), and so is reaching one of the bounds above, or
// MaxCommandWait with a longer --timeout (after CapNote). While the
// cluster is idle the wait skips to its next bound (waitStep); Env.Stop
// ends it.
//
// With stream (Env.StreamRolloutStatus, one DaemonSet named) and --watch,
// it prints the first line and returns at once; the invocation's Watch
// prints the later ones (see rolloutStatusWatch).
func (inv *invocation) rolloutStatus(ds *api.DaemonSet, stream bool) error {
	c := inv.env.Cluster
	watch := inv.flags.Bool("watch")
	timeout := inv.flags.Duration("timeout")
	if stream && watch {
		msg, done, err := daemonSetStatus(ds)
		if err != nil {
			return err
		}
		inv.out.WriteString(msg)
		if !done {
			inv.watch = rolloutStatusWatch(inv.env, ds, timeout)
		}
		return nil
	}
	start := c.Now()
	uid := ds.UID
	lastRV := ""
	var lastStatus api.DaemonSetStatus
	lastChange := start
	advanced := false
	for {
		cur := c.DaemonSet(ds.Namespace, ds.Name)
		if cur == nil || cur.UID != uid {
			return &plainError{"object has been deleted"}
		}
		if cur.ResourceVersion != lastRV {
			lastRV = cur.ResourceVersion
			msg, done, err := daemonSetStatus(cur)
			if err != nil {
				return err
			}
			inv.out.WriteString(msg)
			if done || !watch {
				return nil
			}
		}
		if !RolloutStatusEqual(cur.Status, lastStatus) || cur.Generation != cur.Status.ObservedGeneration {
			lastStatus, lastChange = cur.Status, c.Now()
		}
		elapsed := c.Now().Sub(start)
		if timeout > 0 && elapsed >= timeout {
			return &plainError{"timed out waiting for the condition"}
		}
		if inv.env.Advance == nil {
			fmt.Fprintf(&inv.errOut, "note: the playground cannot wait here (kubectl would keep watching)\n")
			return nil
		}
		// bound: when the loop must look again at the latest (the
		// timeout, or one of the playground's bounds)
		var bound time.Duration
		if timeout == 0 {
			stuck := c.Now().Sub(lastChange)
			if stuck >= RolloutStuckAfter {
				fmt.Fprintf(&inv.errOut, "note: the playground stopped watching: the rollout has not moved for %s of virtual time (kubectl would keep waiting; use --timeout to choose)\n", stuck)
				return &plainError{"timed out waiting for the condition"}
			}
			if elapsed >= MaxRolloutWait {
				fmt.Fprintf(&inv.errOut, "note: the playground stopped watching after %s of virtual time (kubectl would keep waiting; use --timeout to choose)\n", elapsed)
				return &plainError{"timed out waiting for the condition"}
			}
			bound = min(MaxRolloutWait, elapsed+RolloutStuckAfter-stuck)
		} else {
			if elapsed >= MaxCommandWait {
				inv.errOut.WriteString(CapNote)
				return &plainError{"timed out waiting for the condition"}
			}
			bound = min(timeout, MaxCommandWait)
		}
		if err := inv.waitStep(start, bound, advanced, false); err != nil {
			return err
		}
		advanced = true
	}
}

// rolloutStatusWatch is the rest of a streaming `rollout status` of ds,
// whose first line was printed at the current virtual time: each Poll
// prints DaemonSetStatusViewer.Status once for every change of the
// DaemonSet since the previous poll (kubectl prints on every watch event
// of the object, pkg/cmd/rollout/rollout_status.go RunStatus; changes
// between two polls show as one line with the latest state, as in Watch),
// and the watch stops once it printed the rolled-out line, when the
// DaemonSet is deleted (`error: object has been deleted`) or replaced,
// or when timeout (> 0) of virtual time has passed since the start
// (`error: timed out waiting for the condition`, the watch's
// wait.ErrWaitTimeout). Without a timeout it watches until stopped, as
// kubectl waits until interrupted.
func rolloutStatusWatch(env *Env, ds *api.DaemonSet, timeout time.Duration) *Watch {
	w := &Watch{env: env}
	ns, name, uid := ds.Namespace, ds.Name, ds.UID
	lastRV := ds.ResourceVersion
	start := env.Cluster.Now()
	fail := func(chunks *[]Chunk, err error) {
		AppendChunk(chunks, true, checkErr(err))
		w.stopped = true
	}
	w.pollFn = func() []Chunk {
		var chunks []Chunk
		c := env.Cluster
		cur := c.DaemonSet(ns, name)
		if cur == nil || cur.UID != uid {
			fail(&chunks, &plainError{"object has been deleted"})
			return chunks
		}
		if cur.ResourceVersion != lastRV {
			lastRV = cur.ResourceVersion
			msg, done, err := daemonSetStatus(cur)
			if err != nil {
				fail(&chunks, err)
				return chunks
			}
			AppendChunk(&chunks, false, msg)
			if done {
				w.stopped = true
				return chunks
			}
		}
		if timeout > 0 && c.Now().Sub(start) >= timeout {
			fail(&chunks, &plainError{"timed out waiting for the condition"})
		}
		return chunks
	}
	return w
}

// RolloutStatusEqual compares the counts rollout status and the stuck bound look at.
func RolloutStatusEqual(a, b api.DaemonSetStatus) bool {
	return a.DesiredNumberScheduled == b.DesiredNumberScheduled && a.CurrentNumberScheduled == b.CurrentNumberScheduled &&
		a.UpdatedNumberScheduled == b.UpdatedNumberScheduled && a.NumberAvailable == b.NumberAvailable &&
		a.NumberReady == b.NumberReady && a.NumberMisscheduled == b.NumberMisscheduled && a.ObservedGeneration == b.ObservedGeneration
}

// controlledRevisions mirrors controlledHistories: the ControllerRevisions
// in the DaemonSet's namespace matching its selector and controlled by it,
// by revision.
func controlledRevisions(c *cluster.Cluster, ds *api.DaemonSet) []*api.ControllerRevision {
	sel := dsSelector(ds)
	var out []*api.ControllerRevision
	for _, r := range c.ControllerRevisions() {
		if r.Namespace != ds.Namespace || !sel(r.Labels) {
			continue
		}
		if ref := r.ControllerRef(); ref == nil || ref.UID != ds.UID {
			continue
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Revision < out[j].Revision })
	return out
}

// rolloutHistory mirrors DaemonSetHistoryViewer.ViewHistory printed
// through the name printer.
func (inv *invocation) rolloutHistory(ds *api.DaemonSet) error {
	c := inv.env.Cluster
	revs := controlledRevisions(c, ds)
	want := int64(inv.flags.Int("revision"))
	if want > 0 {
		for _, r := range revs {
			if r.Revision == want {
				tmpl, err := templateFromRevision(r)
				if err != nil {
					return err
				}
				w := newRawPrefixWriter()
				describePodTemplate(w, &tmpl, revisionContainerExtra(r))
				fmt.Fprintf(&inv.out, "daemonset.apps/%s with revision #%d\n%s\n", ds.Name, want, w.String())
				return nil
			}
		}
		return &plainError{"unable to find the specified revision"}
	}
	var body string
	if len(revs) == 0 {
		body = "No rollout history found."
	} else {
		var b strings.Builder
		w := newPrefixWriterParams(0, 8, 2)
		w.write(0, "REVISION\tCHANGE-CAUSE\n")
		for _, r := range revs {
			cause := r.Annotations[api.ChangeCauseAnnotation]
			if cause == "" {
				cause = "<none>"
			}
			w.write(0, "%d\t%s\n", r.Revision, cause)
		}
		b.WriteString(w.String())
		body = b.String()
	}
	fmt.Fprintf(&inv.out, "daemonset.apps/%s \n%s\n", ds.Name, body)
	return nil
}

// historyOutput is rollout history's printer for -o (PrintFlags with no
// operation: json, yaml, name, the jsonpath variants; go-templates are not
// simulated): nil when -o was not given (OutputFlagSpecified false), an
// "unable to match a printer" error for any other format.
func historyOutput(inv *invocation) (*getOutput, error) {
	o := inv.flags.String("output")
	if o == "" {
		return nil, nil
	}
	format, _, _ := strings.Cut(o, "=")
	switch format {
	case "wide", "custom-columns", "custom-columns-file":
		return nil, &plainError{fmt.Sprintf("unable to match a printer suitable for the output format %q, allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml", o)}
	}
	return parseGetOutput(o, inv.readEnvFile)
}

// rolloutHistoryObjects mirrors RolloutHistoryOptions.Run's
// OutputFlagSpecified branch (pkg/cmd/rollout/rollout_history.go): the
// DaemonSet's ControllerRevisions (HistoryViewer.GetHistory) printed one
// by one through the printer in revision order, or with --revision=N only
// that one ("unable to find the specified revision" when it is missing).
// Each object is a separate PrintObj call: yaml documents after the first
// start with "---", json objects follow each other, no List is built.
// printed counts the objects printed so far across the DaemonSets visited
// (the YAML printer's printCount).
func (inv *invocation) rolloutHistoryObjects(ds *api.DaemonSet, outp *getOutput, printed *int) error {
	revs := controlledRevisions(inv.env.Cluster, ds)
	if want := int64(inv.flags.Int("revision")); want > 0 {
		var only []*api.ControllerRevision
		for _, r := range revs {
			if r.Revision == want {
				only = append(only, r)
			}
		}
		if len(only) == 0 {
			return &plainError{"unable to find the specified revision"}
		}
		revs = only[:1]
	}
	for _, r := range revs {
		m, err := RenderObject(r)
		if err != nil {
			return err
		}
		if outp.format == "yaml" && *printed > 0 {
			inv.out.WriteString("---\n")
		}
		*printed++
		text, err := formatGeneric(outp, m, []map[string]any{m}, true, false)
		inv.out.WriteString(text)
		if err != nil {
			return err
		}
	}
	return nil
}

// revisionRawPodSpec decodes the pod spec stored in a ControllerRevision's
// data ({"spec":{"template":{"spec":{...}}}}) as untyped JSON, so that the
// fields the typed structs do not hold can be read back; the map is nil
// when the data has no pod spec, and err is json.Unmarshal's (with what it
// could decode before the error).
func revisionRawPodSpec(r *api.ControllerRevision) (map[string]any, error) {
	var raw struct {
		Spec struct {
			Template struct {
				Spec map[string]any `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	err := json.Unmarshal([]byte(r.Data), &raw)
	return raw.Spec.Template.Spec, err
}

// revisionContainerExtra is the unmodeled part of a revision's containers
// that describePodTemplate shows (envFrom), at the paths a DaemonSet's
// Extra uses ("spec.template.spec.containers[i]"): a revision's data has
// the same {"spec":{"template":...}} shape.
func revisionContainerExtra(r *api.ControllerRevision) api.Unmodeled {
	spec, err := revisionRawPodSpec(r)
	if err != nil {
		return nil
	}
	extra := api.Unmodeled{}
	for _, key := range []string{"initContainers", "containers"} {
		arr, _ := spec[key].([]any)
		for i, c := range arr {
			if ef, ok := c.(map[string]any)["envFrom"]; ok {
				extra[fmt.Sprintf("spec.template.spec.%s[%d]", key, i)] = map[string]any{"envFrom": ef}
			}
		}
	}
	return extra
}

// templateFromRevision decodes the pod template stored in a
// ControllerRevision's data ({"spec":{"template":{...}}}), restoring the
// volume sources and probe handlers the typed struct does not hold.
func templateFromRevision(r *api.ControllerRevision) (api.PodTemplateSpec, error) {
	var typed struct {
		Spec struct {
			Template api.PodTemplateSpec `json:"template"`
		} `json:"spec"`
	}
	if err := json.Unmarshal([]byte(r.Data), &typed); err != nil {
		return api.PodTemplateSpec{}, fmt.Errorf("failed to decode revision %d: %v", r.Revision, err)
	}
	t := typed.Spec.Template
	spec, _ := revisionRawPodSpec(r)
	if vols, ok := spec["volumes"].([]any); ok {
		for i, v := range vols {
			m, ok := v.(map[string]any)
			if !ok || i >= len(t.Spec.Volumes) {
				continue
			}
			src := map[string]any{}
			for k, x := range m {
				if k != "name" {
					src[k] = x
				}
			}
			t.Spec.Volumes[i].Source = src
		}
	}
	probeFields := map[string]bool{"initialDelaySeconds": true, "timeoutSeconds": true, "periodSeconds": true, "successThreshold": true, "failureThreshold": true}
	for _, list := range []struct {
		key string
		cs  []api.Container
	}{{"initContainers", t.Spec.InitContainers}, {"containers", t.Spec.Containers}} {
		arr, _ := spec[list.key].([]any)
		for i, c := range arr {
			m, ok := c.(map[string]any)
			if !ok || i >= len(list.cs) {
				continue
			}
			for name, p := range map[string]*api.Probe{"readinessProbe": list.cs[i].ReadinessProbe, "livenessProbe": list.cs[i].LivenessProbe} {
				pm, ok := m[name].(map[string]any)
				if !ok || p == nil {
					continue
				}
				p.Handler = map[string]any{}
				for k, x := range pm {
					if !probeFields[k] {
						p.Handler[k] = x
					}
				}
			}
		}
	}
	delete(t.Labels, api.ControllerRevisionHashLabelKey)
	return t, nil
}

// updateTemplate writes a DaemonSet whose template changed, as the
// registry's PrepareForUpdate does: generation and the
// deprecated.daemonset.template.generation annotation go up by one; the
// server's warnings on the update (daemonSetStrategy.WarningsOnUpdate)
// go to stderr.
func (inv *invocation) updateTemplate(ds *api.DaemonSet) error {
	c := inv.env.Cluster
	n, _ := strconv.ParseInt(ds.Annotations[api.DeprecatedTemplateGenerationAnnotation], 10, 64)
	if ds.Annotations == nil {
		ds.Annotations = map[string]string{}
	}
	ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] = strconv.FormatInt(n+1, 10)
	ds.Generation++
	if err := c.UpdateDaemonSet(ds); err != nil {
		return err
	}
	// the template changed: WarningsOnUpdate is the template's warnings,
	// as on create
	inv.serverWarnings(cluster.WarningsOnCreate(ds))
	return nil
}

// rolloutUndo mirrors DaemonSetRollbacker.Rollback. UndoOptions.RunUndo
// warns about an object kubectl apply manages before it calls the
// rollbacker, so the warning comes whatever the rollback does (fails,
// is skipped, is a dry run).
func (inv *invocation) rolloutUndo(ds *api.DaemonSet) error {
	c := inv.env.Cluster
	if _, ok := ds.Annotations[api.LastAppliedConfigAnnotation]; ok {
		fmt.Fprintf(&inv.errOut, "Warning: resource daemonsets/%s was previously managed with 'kubectl apply'. Rolling back will not update the kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n", ds.Name)
	}
	to := int64(inv.flags.Int("to-revision"))
	if to < 0 {
		return &plainError{fmt.Sprintf("unable to find specified revision %d in history", to)}
	}
	revs := controlledRevisions(c, ds)
	var target, current *api.ControllerRevision
	if len(revs) > 0 {
		current = revs[len(revs)-1]
	}
	if to == 0 {
		if len(revs) <= 1 {
			return &plainError{"no last revision to roll back to"}
		}
		target = revs[len(revs)-2]
	} else {
		for _, r := range revs {
			if r.Revision == to {
				target = r
			}
		}
		if target == nil {
			return &plainError{fmt.Sprintf("unable to find specified revision %d in history", to)}
		}
	}
	tmpl, err := templateFromRevision(target)
	if err != nil {
		return err
	}
	dry, err := dryRunStrategy(inv.flags)
	if err != nil {
		return err
	}
	if dry == "client" {
		// DaemonSetRollbacker.Rollback returns "will roll back to <template>"
		// before its "already matches" check, and undo's name printer
		// prints "<kind>/<name> <operation> (dry run)\n": the template's
		// own last newline puts " (dry run)" on a line of its own.
		w := newRawPrefixWriter()
		describePodTemplate(w, &tmpl, revisionContainerExtra(target))
		fmt.Fprintf(&inv.out, "daemonset.apps/%s will roll back to %s (dry run)\n", ds.Name, w.String())
		return nil
	}
	if target == current {
		fmt.Fprintf(&inv.out, "daemonset.apps/%s skipped rollback (current template already matches revision %d)%s\n", ds.Name, to, dryRunSuffix(dry))
		return nil
	}
	if dry == "server" {
		fmt.Fprintf(&inv.out, "daemonset.apps/%s rolled back (server dry run)\n", ds.Name)
		return nil
	}
	ds.Spec.Template = tmpl
	for k := range ds.Extra {
		if strings.HasPrefix(k, "spec.template") {
			delete(ds.Extra, k)
		}
	}
	if err := inv.updateTemplate(ds); err != nil {
		return err
	}
	c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "DaemonSetRollbacker.Rollback",
		Object: "daemonset/" + ds.Namespace + "/" + ds.Name, Action: "rollback",
		Reason: fmt.Sprintf("%s: template of revision %d restored", inv.line, target.Revision)})
	fmt.Fprintf(&inv.out, "daemonset.apps/%s rolled back\n", ds.Name)
	return nil
}

// rolloutRestart mirrors the restart ObjectRestarter: the template gets
// the kubectl.kubernetes.io/restartedAt annotation (RFC 3339, virtual now).
func (inv *invocation) rolloutRestart(ds *api.DaemonSet) error {
	c := inv.env.Cluster
	now := c.Now().Format(time.RFC3339)
	if ds.Spec.Template.Annotations[restartedAtAnnotation] == now {
		return &plainError{fmt.Sprintf("failed to create patch for %s: if restart has already been triggered within the past second, please wait before attempting to trigger another", ds.Name)}
	}
	dry, err := dryRunStrategy(inv.flags)
	if err != nil {
		return err
	}
	if dry == "" {
		if ds.Spec.Template.Annotations == nil {
			ds.Spec.Template.Annotations = map[string]string{}
		}
		ds.Spec.Template.Annotations[restartedAtAnnotation] = now
		if err := inv.updateTemplate(ds); err != nil {
			return err
		}
		c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "defaultObjectRestarter",
			Object: "daemonset/" + ds.Namespace + "/" + ds.Name, Action: "restart",
			Reason: inv.line + ": template annotated " + restartedAtAnnotation + "=" + now})
	}
	fmt.Fprintf(&inv.out, "daemonset.apps/%s restarted%s\n", ds.Name, dryRunSuffix(dry))
	return nil
}

const restartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"

// hasRolloutSubcommand reports whether the arguments after "rollout" name
// one of its subcommands (so that -h is the subcommand's help).
func hasRolloutSubcommand(args []string) bool {
	for _, a := range args {
		if contains(rolloutSubcommands, a) {
			return true
		}
	}
	return false
}
