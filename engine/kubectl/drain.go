package kubectl

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

func drainFlags() []*flagDef {
	return []*flagDef{
		boolFlag("ignore-daemonsets", ""),
		boolFlag("force", ""),
		boolFlag("delete-emptydir-data", ""),
		boolFlag("delete-local-data", ""),
		boolFlag("disable-eviction", ""),
		{name: "grace-period", kind: flagInt, def: "-1"},
		{name: "timeout", kind: flagDuration, def: "0s"},
		{name: "skip-wait-for-delete-timeout", kind: flagInt, def: "0"},
		stringFlag("selector", "l", ""),
		stringFlag("pod-selector", "", ""),
		{name: "chunk-size", kind: flagInt, def: "500"},
		dryRunFlag(),
	}
}

// Messages of k8s.io/kubectl/pkg/drain/filters.go.
const (
	daemonSetFatal      = "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)"
	daemonSetWarning    = "ignoring DaemonSet-managed Pods"
	localStorageFatal   = "Pods with local storage (use --delete-emptydir-data to override)"
	localStorageWarning = "deleting Pods with local storage"
	unmanagedFatal      = "cannot delete Pods that declare no controller (use --force to override)"
	unmanagedWarning    = "deleting Pods that declare no controller"
)

// podDeleteStatus mirrors drain.PodDeleteStatus.
type podDeleteStatus struct {
	delete  bool
	reason  string // "", "warning", "error"
	message string
}

// podDeleteList mirrors drain.PodDeleteList: pods with their status, in
// list order.
type podDeleteList []struct {
	pod    *api.Pod
	status podDeleteStatus
}

// groupedMessages mirrors PodDeleteList.Warnings / errors: one entry per
// message, in first-seen order, listing "<ns>/<pod>".
func (l podDeleteList) grouped(reason string) (msgs []string, pods map[string][]string) {
	pods = map[string][]string{}
	for _, p := range l {
		if p.status.reason != reason {
			continue
		}
		if _, ok := pods[p.status.message]; !ok {
			msgs = append(msgs, p.status.message)
		}
		pods[p.status.message] = append(pods[p.status.message], p.pod.Namespace+"/"+p.pod.Name)
	}
	return msgs, pods
}

// getPodsForDeletion mirrors drain.Helper.GetPodsForDeletion with its
// filters (filters.go): daemonSetFilter, localStorageFilter,
// unreplicatedFilter (the simulator has no mirror pods).
func getPodsForDeletion(c *cluster.Cluster, node string, f *flagSet, podSel selector) (podDeleteList, []error) {
	var list podDeleteList
	ignoreDS, force := f.Bool("ignore-daemonsets"), f.Bool("force")
	emptyDir := f.Bool("delete-emptydir-data") || f.Bool("delete-local-data")
	for _, p := range c.PodsOnNode(node) {
		if !podSel.matches(p.Labels) {
			continue
		}
		okay := podDeleteStatus{delete: true}
		terminal := p.IsTerminal()
		ref := p.ControllerRef()
		daemonSetFilter := func() podDeleteStatus {
			if ref == nil || ref.Kind != "DaemonSet" || terminal {
				return okay
			}
			if ds := c.DaemonSet(p.Namespace, ref.Name); ds == nil {
				msg := fmt.Sprintf("daemonsets.apps %q not found", ref.Name)
				if force {
					return podDeleteStatus{delete: true, reason: "warning", message: msg}
				}
				return podDeleteStatus{reason: "error", message: msg}
			}
			if !ignoreDS {
				return podDeleteStatus{reason: "error", message: daemonSetFatal}
			}
			return podDeleteStatus{reason: "warning", message: daemonSetWarning}
		}
		localStorageFilter := func() podDeleteStatus {
			local := false
			for _, v := range p.Spec.Volumes {
				if v.Source["emptyDir"] != nil {
					local = true
				}
			}
			if !local || terminal {
				return okay
			}
			if !emptyDir {
				return podDeleteStatus{reason: "error", message: localStorageFatal}
			}
			return podDeleteStatus{delete: true, reason: "warning", message: localStorageWarning}
		}
		unreplicatedFilter := func() podDeleteStatus {
			if terminal || ref != nil {
				return okay
			}
			if force {
				return podDeleteStatus{delete: true, reason: "warning", message: unmanagedWarning}
			}
			return podDeleteStatus{reason: "error", message: unmanagedFatal}
		}
		// The filters run in order; the first that refuses the pod decides,
		// otherwise the last one's status stands (drain.GetPodsForDeletion).
		var st podDeleteStatus
		for _, filter := range []func() podDeleteStatus{daemonSetFilter, localStorageFilter, unreplicatedFilter} {
			st = filter()
			if !st.delete {
				break
			}
		}
		list = append(list, struct {
			pod    *api.Pod
			status podDeleteStatus
		}{p, st})
	}
	msgs, pods := list.grouped("error")
	var errs []error
	// PodDeleteList.errors: "cannot delete <msg>: <pods>", except that a
	// message already starting with "cannot delete" (unmanagedFatal) is
	// not prefixed again.
	for _, m := range msgs {
		if strings.HasPrefix(strings.ToLower(m), "cannot delete") {
			errs = append(errs, fmt.Errorf("%s: %s", m, strings.Join(pods[m], ", ")))
		} else {
			errs = append(errs, fmt.Errorf("cannot delete %s: %s", m, strings.Join(pods[m], ", ")))
		}
	}
	return list, errs
}

// runDrain mirrors kubectl drain (pkg/cmd/drain RunDrain): cordon, then
// evict the node's pods, DaemonSet-managed pods excepted with
// --ignore-daemonsets, waiting for each to be gone.
func runDrain(inv *invocation) error {
	f := inv.flags
	if len(inv.args) == 0 && !f.Changed("selector") {
		return &usageError{msg: "USAGE: drain NODE [flags]", cmdPath: "kubectl drain"}
	}
	if f.Bool("delete-local-data") {
		inv.errOut.WriteString("Flag --delete-local-data has been deprecated, This option is deprecated and will be deleted. Use --delete-emptydir-data.\n")
	}
	dry, err := dryRunStrategy(f)
	if err != nil {
		return err
	}
	podSel, err := parseSelector(f.String("pod-selector"))
	if err != nil {
		return &plainError{"--pod-selector=" + f.String("pod-selector") + " is not a valid label selector: " + err.Error()}
	}
	if err := runCordonOrUncordon(inv, true); err != nil {
		return err
	}
	nodes, _, err := selectNodes(inv, inv.args, f.String("selector"), f.String("selector") != "")
	if err != nil {
		return err
	}
	c := inv.env.Cluster
	var fatal []error
	var remaining []string
	for _, n := range nodes {
		list, errs := getPodsForDeletion(c, n.Name, f, podSel)
		if len(errs) > 0 {
			agg := newAggregate(errs)
			fmt.Fprintf(&inv.errOut, "error: unable to drain node %q due to error: %s, continuing command...\n", n.Name, agg.Error())
			fatal = append(fatal, agg)
			remaining = append(remaining, n.Name)
			continue
		}
		msgs, pods := list.grouped("warning")
		if len(msgs) > 0 {
			parts := make([]string, len(msgs))
			for i, m := range msgs {
				parts[i] = m + ": " + strings.Join(pods[m], ", ")
			}
			fmt.Fprintf(&inv.errOut, "Warning: %s\n", strings.Join(parts, "; "))
		}
		var evict []*api.Pod
		for _, p := range list {
			if p.status.delete {
				evict = append(evict, p.pod)
			}
		}
		if dry != "" {
			for _, p := range evict {
				fmt.Fprintf(&inv.out, "evicting pod %s/%s%s\n", p.Namespace, p.Name, dryRunSuffix(dry))
			}
			nameOutput(inv, rtNodes, n.Name, "drained"+dryRunSuffix(dry))
			continue
		}
		if err := inv.evictPods(evict, f); err != nil {
			if _, stopped := err.(*stoppedError); stopped {
				return err // Env.Stop: no further nodes
			}
			fmt.Fprintf(&inv.errOut, "error: unable to drain node %q due to error: %s, continuing command...\n", n.Name, err.Error())
			fatal = append(fatal, err)
			remaining = append(remaining, n.Name)
			continue
		}
		nameOutput(inv, rtNodes, n.Name, "drained")
	}
	if len(fatal) > 0 {
		inv.errOut.WriteString("There are pending nodes to be drained:\n")
		for _, n := range remaining {
			fmt.Fprintf(&inv.errOut, " %s\n", n)
		}
		return newAggregate(fatal)
	}
	return nil
}

// evictPods mirrors drain.Helper.evictPods / deletePods: every pod is
// evicted (a graceful delete with its own grace period, or --grace-period),
// then the command waits for each to be gone, printing "pod/<name> evicted"
// (or "deleted" with --disable-eviction) as it goes. The wait is bounded
// by --timeout, else the longest grace period plus a minute, and in any
// case by MaxCommandWait (CapNote when --timeout is longer); Env.Stop
// ends it.
func (inv *invocation) evictPods(pods []*api.Pod, f *flagSet) error {
	c := inv.env.Cluster
	verb := "evicted"
	if f.Bool("disable-eviction") {
		verb = "deleted"
	}
	var gp *int64
	if g := f.Int("grace-period"); g >= 0 {
		g64 := int64(g)
		gp = &g64
	}
	type pending struct {
		pod *api.Pod
		uid string
	}
	var waiting []pending
	var maxGrace int64
	for _, p := range pods {
		if verb == "evicted" {
			fmt.Fprintf(&inv.out, "evicting pod %s/%s\n", p.Namespace, p.Name)
		}
		uid := p.UID
		g := markPodDeleted(c, p, gp)
		if g > maxGrace {
			maxGrace = g
		}
		c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "evictPods", Object: "pod/" + p.Namespace + "/" + p.Name,
			Node: p.Spec.NodeName, Action: "evict", Reason: fmt.Sprintf("%s: drained from node %s, %ds grace period", inv.line, p.Spec.NodeName, g)})
		waiting = append(waiting, pending{p, uid})
	}
	if inv.env.Settle != nil {
		inv.env.Settle()
	}
	timeout := f.Duration("timeout")
	limit := time.Duration(maxGrace)*time.Second + time.Minute
	if timeout > 0 {
		limit = timeout
	}
	start := c.Now()
	advanced := false
	for {
		var still []pending
		var gone []pending
		for _, w := range waiting {
			if p := c.Pod(w.pod.Namespace, w.pod.Name); p != nil && p.UID == w.uid {
				still = append(still, w)
			} else {
				gone = append(gone, w)
			}
		}
		sort.SliceStable(gone, func(i, j int) bool { return gone[i].pod.Name < gone[j].pod.Name })
		for _, g := range gone {
			nameOutput(inv, rtPods, g.pod.Name, verb)
		}
		waiting = still
		if len(waiting) == 0 {
			return nil
		}
		capped := timeout > 0 && timeout > MaxCommandWait && c.Now().Sub(start) >= MaxCommandWait
		if inv.env.Advance == nil || c.Now().Sub(start) >= min(limit, MaxCommandWait) {
			if timeout > 0 {
				if capped {
					inv.errOut.WriteString(CapNote)
				}
				return fmt.Errorf("drain did not complete within %v", timeout)
			}
			var names []string
			for _, w := range waiting {
				names = append(names, "pods/"+w.pod.Name)
			}
			fmt.Fprintf(&inv.errOut, "note: the playground stopped waiting after %s of virtual time; %s still exists (kubectl would keep waiting)\n",
				c.Now().Sub(start), strings.Join(names, ", "))
			return nil
		}
		if err := inv.waitStep(start, min(limit, MaxCommandWait), advanced, false); err != nil {
			return err
		}
		advanced = true
	}
}
