package kubectl

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func deleteFlags() []*flagDef {
	return []*flagDef{
		boolFlag("all", ""),
		boolFlag("all-namespaces", "A"),
		{name: "cascade", kind: flagString, def: "background", noOptDef: "background"},
		{name: "grace-period", kind: flagInt, def: "-1"},
		boolFlag("force", ""),
		boolFlag("now", ""),
		boolFlagTrue("wait"),
		{name: "timeout", kind: flagDuration, def: "0s"},
		boolFlag("ignore-not-found", ""),
		stringFlag("selector", "l", ""),
		stringFlag("field-selector", "", ""),
		stringFlag("output", "o", ""),
		boolFlag("interactive", "i"),
		stringFlag("raw", "", ""),
		dryRunFlag(),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
		boolFlag("recursive", "R"),
		{name: "kustomize", shorthand: "k", kind: flagString},
	}
}

// parseCascadingFlag mirrors kubectl's delete_flags.go parseCascadingFlag:
// "background", "orphan", "foreground", or a deprecated boolean with a warning.
func parseCascadingFlag(inv *invocation, v string) (string, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		switch v {
		case "orphan", "foreground", "background":
			return v, nil
		}
		return "", &plainError{fmt.Sprintf(`invalid cascade value (%v). Must be "background", "foreground", or "orphan"`, v)}
	}
	repl := "orphan"
	if b {
		repl = "background"
	}
	fmt.Fprintf(&inv.errOut, "warning: --cascade=%v is deprecated (boolean value) and can be replaced with --cascade=%s.\n", v, repl)
	return repl, nil
}

// deleted remembers an object deleted by this command, for --wait.
type deleted struct {
	obj   object
	uid   string
	grace int64
}

// runDelete mirrors kubectl delete (pkg/cmd/delete DeleteOptions Complete,
// Validate, DeleteResult) followed by its wait for the objects to be gone.
// Pods are deleted gracefully: deletionTimestamp = now + grace period and
// deletionGracePeriodSeconds = grace (registry BeforeDelete); the kubelet
// removes them when their containers stopped. Unbound or terminated pods
// and --force --grace-period=0 remove them at once.
func runDelete(inv *invocation) error {
	f := inv.flags
	cascade, err := parseCascadingFlag(inv, f.String("cascade"))
	if err != nil {
		return err
	}
	grace := f.Int("grace-period")
	force := f.Bool("force")
	if f.Bool("now") {
		if grace != -1 {
			return &plainError{"--now and --grace-period cannot be specified together"}
		}
		grace = 1
	}
	if grace == 0 && !force {
		grace = 1
	}
	if force && grace < 0 {
		grace = 0
	}
	dry, err := dryRunStrategy(f)
	if err != nil {
		return err
	}
	if f.Bool("interactive") || f.String("raw") != "" || f.String("kustomize") != "" {
		return &plainError{"delete --interactive, --raw and -k are not simulated in the playground"}
	}
	selStr, all := f.String("selector"), f.Bool("all")
	var targets []object
	var errs []error
	if files := f.Strings("filename"); len(files) > 0 {
		if len(inv.args) > 0 {
			return &plainError{"Unexpected args: " + fmt.Sprint(inv.args)}
		}
		ts, err := inv.fileTargets(files, "deleting")
		if err != nil {
			return err
		}
		targets, errs = splitTargets(ts)
	} else {
		if len(inv.args) == 0 {
			return &plainError{"You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"}
		}
		ts, err := inv.targets(inv.args, targetSelector{label: selStr, field: f.String("field-selector"), all: all, allNS: f.Bool("all-namespaces")})
		if err != nil {
			return err
		}
		targets, errs = splitTargets(ts)
	}
	if out := f.String("output"); out != "" && out != "name" {
		return &plainError{fmt.Sprintf("unexpected -o output mode: %v. We only support '-o name'", out)}
	}
	if all && selStr != "" {
		return &plainError{"cannot set --all and --selector at the same time"}
	}
	if all && f.String("field-selector") != "" {
		return &plainError{"cannot set --all and --field-selector at the same time"}
	}
	switch {
	case grace == 0 && force:
		inv.errOut.WriteString("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n")
	case grace > 0 && force:
		return &plainError{"--force and --grace-period greater than 0 cannot be specified together"}
	}
	// With -f, kubectl does not look objects up before deleting them: one
	// already gone is found (DeleteResult counts it) and its NotFound from
	// the delete call is what --ignore-not-found drops.
	foundInFiles := 0
	// Complete: --all, -l and --field-selector default --ignore-not-found
	// to true unless it was given
	ignore := f.Bool("ignore-not-found")
	if !f.Changed("ignore-not-found") && (all || selStr != "" || f.String("field-selector") != "") {
		ignore = true
	}
	if ignore {
		var kept []error
		for _, e := range errs {
			if !cluster.IsNotFound(e) {
				kept = append(kept, e)
			} else if len(f.Strings("filename")) > 0 {
				foundInFiles++
			}
		}
		errs = kept
	}

	warnClusterScope := inv.explicitNS && !f.Bool("all-namespaces")
	var done []deleted
	deletedNamespaces := map[string]bool{}
	for _, o := range targets {
		if warnClusterScope && !o.rt.namespaced {
			inv.errOut.WriteString("Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n")
			warnClusterScope = false
		}
		var gp *int64
		if grace >= 0 {
			g := int64(grace)
			gp = &g
		}
		if dry == "" {
			d, err := inv.deleteObject(o, gp, cascade)
			switch {
			case err != nil && cluster.IsNotFound(err) && o.rt.namespaced && deletedNamespaces[o.meta.Namespace]:
				// Its namespace was deleted earlier in this command
				// (delete -f of an install file): on a real cluster the
				// namespace controller works asynchronously, so this
				// delete still finds the object.
			case err != nil:
				errs = append(errs, addSourceToErr("deleting", o.source, err))
				continue
			default:
				done = append(done, d)
			}
			if _, ok := o.obj.(*api.Namespace); ok {
				deletedNamespaces[o.meta.Name] = true
			}
		}
		op := "deleted"
		if grace == 0 {
			op = "force deleted"
		}
		if o.rt.namespaced {
			op += " from " + o.meta.Namespace + " namespace"
		}
		op += dryRunSuffix(dry)
		if f.String("output") == "name" {
			inv.out.WriteString(o.rt.kindString() + "/" + o.meta.Name + "\n")
		} else {
			fmt.Fprintf(&inv.out, "%s %q %s\n", o.rt.kindString(), o.meta.Name, op)
		}
	}
	if err := visitErr(errs); err != nil {
		return err
	}
	if len(targets) == 0 {
		if foundInFiles == 0 {
			inv.out.WriteString("No resources found\n")
		}
		return nil
	}
	if !f.Bool("wait") || dry != "" {
		return nil
	}
	return inv.waitForDeletion(done, f.Duration("timeout"))
}

// deleteObject deletes one object as the API server would for the given
// grace period (nil = the object's default) and propagation policy.
func (inv *invocation) deleteObject(o object, grace *int64, cascade string) (deleted, error) {
	c := inv.env.Cluster
	d := deleted{obj: o, uid: o.meta.UID}
	reason := inv.line
	switch x := o.obj.(type) {
	case *api.Pod:
		g := markPodDeleted(c, x, grace)
		d.grace = g
		if g == 0 {
			reason += ": removed at once"
		} else {
			reason += fmt.Sprintf(": graceful deletion, %ds grace period", g)
		}
	case *api.DaemonSet:
		switch cascade {
		case "orphan":
			orphanDependents(c, x)
			if err := c.RemoveDaemonSet(x.Namespace, x.Name); err != nil {
				return d, err
			}
			reason += ": orphaned its pods and ControllerRevisions, then removed the DaemonSet"
		case "foreground":
			now := c.Stamp() // metav1.Time holds whole seconds
			x.DeletionTimestamp = &now
			zero := int64(0)
			x.DeletionGracePeriodSeconds = &zero
			if !contains(x.Finalizers, "foregroundDeletion") {
				x.Finalizers = append(x.Finalizers, "foregroundDeletion")
			}
			if err := c.UpdateDaemonSet(x); err != nil {
				return d, err
			}
			for _, p := range c.PodsOwnedBy(x.UID) {
				if g := markPodDeleted(c, p, nil); g > d.grace {
					d.grace = g
				}
			}
			for _, r := range c.ControllerRevisions() {
				if ref := r.ControllerRef(); ref != nil && ref.UID == x.UID {
					c.RemoveControllerRevision(r.Namespace, r.Name)
				}
			}
			finalizeForeground(c, x)
			reason += ": foreground deletion, dependents deleted first"
		default:
			if err := c.RemoveDaemonSet(x.Namespace, x.Name); err != nil {
				return d, err
			}
			reason += ": background deletion, the garbage collector deletes its pods and ControllerRevisions"
		}
	case *api.Node:
		if err := c.DeleteNode(x.Name); err != nil {
			return d, err
		}
	case *api.ControllerRevision:
		if err := c.RemoveControllerRevision(x.Namespace, x.Name); err != nil {
			return d, err
		}
	case *api.Namespace:
		// namespace REST Delete + the namespace controller
		// (cluster.DeleteNamespace): its contents go first, pods
		// gracefully; the wait lasts as long as their grace periods.
		var pods []*api.Pod
		for _, p := range c.Pods() {
			if p.Namespace == x.Name {
				pods = append(pods, p)
			}
		}
		if err := c.DeleteNamespace(x.Name); err != nil {
			return d, err
		}
		for _, p := range pods {
			if cur := c.Pod(p.Namespace, p.Name); cur != nil && cur.DeletionGracePeriodSeconds != nil && *cur.DeletionGracePeriodSeconds > d.grace {
				d.grace = *cur.DeletionGracePeriodSeconds
			}
		}
		reason += ": namespace Terminating; its DaemonSets, ControllerRevisions, pods and events are deleted, then the namespace"
	default:
		err, ok := deleteConfigObject(c, o.obj)
		if !ok {
			return d, &plainError{fmt.Sprintf("deleting %s is not simulated in the playground", o.rt.resource)}
		}
		if err != nil {
			return d, err
		}
	}
	c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "DeleteResult", Object: decisionObject(o),
		Node: decisionNode(o), Action: "delete", Reason: reason})
	return d, nil
}

// markPodDeleted deletes a pod as the API server does, through
// cluster.DeletePod (pod strategy CheckGracefulDelete + BeforeDelete): the
// grace period is the request's (nil = spec.terminationGracePeriodSeconds,
// default 30); an unbound or terminated pod, or grace 0, is removed at once;
// otherwise deletionTimestamp = now + grace and deletionGracePeriodSeconds
// = grace, and the kubelet removes the pod when its containers stopped. It
// returns the grace period in force afterwards (0 when the pod is gone).
func markPodDeleted(c *cluster.Cluster, p *api.Pod, grace *int64) int64 {
	if grace != nil && *grace < 0 {
		g := int64(1)
		grace = &g
	}
	if err := c.DeletePod(p.Namespace, p.Name, grace); err != nil {
		return 0
	}
	cur := c.Pod(p.Namespace, p.Name)
	if cur == nil || cur.UID != p.UID || cur.DeletionGracePeriodSeconds == nil {
		return 0
	}
	return *cur.DeletionGracePeriodSeconds
}

// orphanDependents mirrors the garbage collector's orphan finalizer: the
// DaemonSet's ownerReferences are removed from its pods and ControllerRevisions.
func orphanDependents(c *cluster.Cluster, ds *api.DaemonSet) {
	strip := func(m *api.ObjectMeta) bool {
		var kept []api.OwnerReference
		changed := false
		for _, r := range m.OwnerReferences {
			if r.UID == ds.UID {
				changed = true
				continue
			}
			kept = append(kept, r)
		}
		m.OwnerReferences = kept
		return changed
	}
	for _, p := range c.Pods() {
		if p.Namespace == ds.Namespace && strip(&p.ObjectMeta) {
			c.UpdatePod(p)
		}
	}
	for _, r := range c.ControllerRevisions() {
		if r.Namespace == ds.Namespace && strip(&r.ObjectMeta) {
			c.UpdateControllerRevision(r)
		}
	}
}

// finalizeForeground removes a DaemonSet being deleted in the foreground
// once it has no dependents left (the garbage collector's
// foregroundDeletion finalizer). It reports whether the DaemonSet is gone.
func finalizeForeground(c *cluster.Cluster, ds *api.DaemonSet) bool {
	cur := c.DaemonSet(ds.Namespace, ds.Name)
	if cur == nil || cur.UID != ds.UID {
		return true
	}
	if len(c.PodsOwnedBy(ds.UID)) > 0 {
		return false
	}
	c.RemoveDaemonSet(ds.Namespace, ds.Name)
	return true
}

// exists reports whether the deleted object (same UID) is still stored.
func stillExists(c *cluster.Cluster, d deleted) bool {
	o, err := getObject(c, d.obj.rt, d.obj.meta.Namespace, d.obj.meta.Name)
	return err == nil && o.meta.UID == d.uid
}

// maxStepwiseWait bounds the part of a wait done in one-second steps.
const maxStepwiseWait = 10 * time.Minute

// waitForDeletion mirrors delete's wait (cmdwait IsDeleted): virtual time
// advances in one-second steps until every deleted object is gone. The wait
// is bounded by --timeout, or by the longest grace period plus a minute,
// and in any case by MaxCommandWait (CapNote when --timeout is longer);
// Env.Stop ends it.
func (inv *invocation) waitForDeletion(done []deleted, timeout time.Duration) error {
	c := inv.env.Cluster
	if inv.env.Settle != nil {
		inv.env.Settle()
	}
	var maxGrace int64
	for _, d := range done {
		if d.grace > maxGrace {
			maxGrace = d.grace
		}
	}
	limit := time.Duration(maxGrace)*time.Second + time.Minute
	explicit := timeout > 0
	if explicit {
		limit = timeout
	}
	start := c.Now()
	advanced := false
	for {
		var pending []deleted
		for _, d := range done {
			if ds, ok := d.obj.obj.(*api.DaemonSet); ok && ds.DeletionTimestamp != nil {
				finalizeForeground(c, ds)
			}
			if stillExists(c, d) {
				pending = append(pending, d)
			}
		}
		if len(pending) == 0 {
			return nil
		}
		if inv.env.Advance == nil || c.Now().Sub(start) >= min(limit, MaxCommandWait) {
			p := pending[0]
			if explicit {
				if limit > MaxCommandWait && inv.env.Advance != nil {
					inv.errOut.WriteString(CapNote)
				}
				return &plainError{fmt.Sprintf("timed out waiting for the condition on %s/%s", p.obj.rt.resource, p.obj.meta.Name)}
			}
			var names []string
			for _, p := range pending {
				names = append(names, p.obj.rt.resource+"/"+p.obj.meta.Name)
			}
			fmt.Fprintf(&inv.errOut, "note: the playground stopped waiting after %s of virtual time; %s still exists (kubectl would keep waiting)\n",
				c.Now().Sub(start), strings.Join(names, ", "))
			return nil
		}
		// One-second steps (kubectl's watch sees the deletion within the
		// second) for the first ten minutes; beyond that, the rest of the
		// wait at once, so a long --timeout costs no more work; at once
		// too when the cluster is idle (waitStep).
		bound := min(limit, MaxCommandWait)
		if err := inv.waitStep(start, bound, advanced, c.Now().Sub(start) >= maxStepwiseWait); err != nil {
			return err
		}
		advanced = true
	}
}
