package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/controller"
	"github.com/dsplayground/dsplay/engine/kubectl"
)

// expectation is a parsed `expect`/`always` check: SUBJECT PREDICATE.
type expectation struct {
	kind      string // ds, pod, node
	namespace string
	name      string
	pred      string // a MEASURE, on, not-on, image, rolled-out, phase, taint, exists
	op        string
	n         int
	args      []string
	taint     api.Taint
}

// dsMeasures describes each `ds/NAME MEASURE OP N` measure as a phrase
// taking the count: "2 nodes without an available pod".
var dsMeasures = map[string]func(n int) string{
	"desired":      func(n int) string { return nodes(n) + " should run a pod" },
	"current":      func(n int) string { return nodes(n) + " that should run a pod " + verb(n, "run") + " one" },
	"ready":        func(n int) string { return nodes(n) + " " + verb(n, "run") + " a ready pod" },
	"available":    func(n int) string { return nodes(n) + " " + verb(n, "run") + " an available pod" },
	"updated":      func(n int) string { return nodes(n) + " " + verb(n, "run") + " an updated pod" },
	"unavailable":  func(n int) string { return nodes(n) + " without an available pod" },
	"misscheduled": func(n int) string { return nodes(n) + " " + verb(n, "run") + " a pod but should not" },
	"pods":         func(n int) string { return plural(n, "pod") },
}

// verb agrees a verb with a count: 1 node runs, 2 nodes run.
func verb(n int, v string) string {
	if n == 1 {
		return v + "s"
	}
	return v
}

func nodes(n int) string { return plural(n, "node") }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// ops are the comparison operators and how a failure phrases the wish.
var ops = map[string]struct {
	cmp  func(a, b int) bool
	want string
}{
	"==": {func(a, b int) bool { return a == b }, "want exactly %d"},
	"!=": {func(a, b int) bool { return a != b }, "want any number but %d"},
	"<":  {func(a, b int) bool { return a < b }, "want fewer than %d"},
	"<=": {func(a, b int) bool { return a <= b }, "at most %d allowed"},
	">":  {func(a, b int) bool { return a > b }, "want more than %d"},
	">=": {func(a, b int) bool { return a >= b }, "want at least %d"},
}

// podPhases are the values of a pod's status.phase (core/v1 PodPhase).
var podPhases = []string{"Pending", "Running", "Succeeded", "Failed", "Unknown"}

const expectUsage = "want ds/NAME MEASURE OP N | ds/NAME on NODE...|all | ds/NAME not-on NODE... | ds/NAME image [CONTAINER=]IMAGE | ds/NAME rolled-out | ds/NAME exists | pod/NAME on NODE | pod/NAME phase PHASE | pod/NAME exists | node/NAME taint KEY[=VALUE]:EFFECT | node/NAME exists"

// parseExpectation reads SUBJECT PREDICATE (see the package doc).
func parseExpectation(s string) (*expectation, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return nil, fmt.Errorf("%s", expectUsage)
	}
	kind, name, ok := strings.Cut(f[0], "/")
	if !ok || name == "" {
		return nil, fmt.Errorf("subject %q: want ds/NAME, pod/NAME or node/NAME", f[0])
	}
	e := &expectation{pred: f[1], args: f[2:]}
	switch kind {
	case "ds", "daemonset", "daemonsets":
		e.kind = "ds"
	case "pod", "pods", "po":
		e.kind = "pod"
	case "node", "nodes", "no":
		e.kind = "node"
	default:
		return nil, fmt.Errorf("subject %q: unknown kind %q (want ds, pod or node)", f[0], kind)
	}
	if e.kind == "node" {
		e.name = name
	} else {
		e.namespace, e.name = splitNamespace(name)
	}
	nargs := func(n int) error {
		if len(e.args) != n {
			return fmt.Errorf("%s %s wants %d argument(s), got %d: %s", f[0], e.pred, n, len(e.args), expectUsage)
		}
		return nil
	}
	switch {
	case e.pred == "exists":
		return e, nargs(0)
	case e.kind == "ds" && dsMeasures[e.pred] != nil:
		if err := nargs(2); err != nil {
			return nil, err
		}
		e.op = e.args[0]
		if _, ok := ops[e.op]; !ok {
			return nil, fmt.Errorf("bad operator %q: want == != < <= > >=", e.op)
		}
		n, err := strconv.Atoi(e.args[1])
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s %s %s: %q is not a count (an integer >= 0)", f[0], e.pred, e.op, e.args[1])
		}
		e.n = n
	case e.kind == "ds" && (e.pred == "on" || e.pred == "not-on"):
		if len(e.args) == 0 {
			return nil, fmt.Errorf("%s %s wants node names", f[0], e.pred)
		}
		if e.pred == "not-on" && slices.Contains(e.args, "all") {
			return nil, fmt.Errorf("%s not-on all: say `pods == 0` instead", f[0])
		}
	case e.kind == "ds" && e.pred == "image":
		return e, nargs(1)
	case e.kind == "ds" && e.pred == "rolled-out":
		return e, nargs(0)
	case e.kind == "pod" && e.pred == "on":
		return e, nargs(1)
	case e.kind == "pod" && e.pred == "phase":
		if err := nargs(1); err != nil {
			return nil, err
		}
		// the pod phases of the API (core/v1 PodPhase); any case, as
		// the check compares them
		if !slices.ContainsFunc(podPhases, func(p string) bool { return strings.EqualFold(p, e.args[0]) }) {
			return nil, fmt.Errorf("phase %q: want %s", e.args[0], strings.Join(podPhases, ", "))
		}
		return e, nil
	case e.kind == "node" && e.pred == "taint":
		if err := nargs(1); err != nil {
			return nil, err
		}
		t, err := parseTaint(e.args[0])
		if err != nil {
			return nil, fmt.Errorf("taint %q: want KEY[=VALUE]:EFFECT with EFFECT NoSchedule, PreferNoSchedule or NoExecute", e.args[0])
		}
		e.taint = t
	default:
		if e.kind == "ds" {
			return nil, fmt.Errorf("unknown check %q for a DaemonSet: want a measure (desired current ready available updated unavailable misscheduled pods) with an operator, on, not-on, image, rolled-out or exists", e.pred)
		}
		return nil, fmt.Errorf("unknown check %q for %s/NAME: %s", e.pred, e.kind, expectUsage)
	}
	return e, nil
}

// subject is how messages name the object: ds/agent, ds/logs/agent.
func (e *expectation) subject() string {
	if e.kind == "node" || e.namespace == api.DefaultNamespace {
		return e.kind + "/" + e.name
	}
	return e.kind + "/" + e.namespace + "/" + e.name
}

// eval checks the expectation on the cluster's current state: ok, and a
// sentence for learners saying what it found (why it fails, or what holds).
// It only reads the store.
func (e *expectation) eval(c *cluster.Cluster) (bool, string) {
	subj := e.subject()
	switch e.kind {
	case "node":
		n := c.Node(e.name)
		if n == nil {
			return false, fmt.Sprintf("%s does not exist", subj)
		}
		if e.pred == "exists" {
			return true, subj + " exists"
		}
		t := e.taint
		for _, have := range n.Spec.Taints {
			if have.Key == t.Key && have.Value == t.Value && have.Effect == t.Effect {
				return true, fmt.Sprintf("%s has the taint %s", subj, t.ToString())
			}
		}
		var have []string
		for _, t := range n.Spec.Taints {
			have = append(have, t.ToString())
		}
		if len(have) == 0 {
			return false, fmt.Sprintf("%s has no taint %s (it has no taints)", subj, t.ToString())
		}
		return false, fmt.Sprintf("%s has no taint %s (it has %s)", subj, t.ToString(), strings.Join(have, ", "))
	case "pod":
		p := c.Pod(e.namespace, e.name)
		if p == nil {
			return false, fmt.Sprintf("%s does not exist", subj)
		}
		switch e.pred {
		case "exists":
			return true, subj + " exists"
		case "on":
			if p.Spec.NodeName == e.args[0] {
				return true, fmt.Sprintf("%s is on %s", subj, e.args[0])
			}
			if p.Spec.NodeName == "" {
				return false, fmt.Sprintf("%s is not bound to a node yet (want %s)", subj, e.args[0])
			}
			return false, fmt.Sprintf("%s is on %s, not %s", subj, p.Spec.NodeName, e.args[0])
		case "phase":
			if strings.EqualFold(string(p.Status.Phase), e.args[0]) {
				return true, fmt.Sprintf("%s is %s", subj, p.Status.Phase)
			}
			return false, fmt.Sprintf("%s is %s, not %s", subj, p.Status.Phase, e.args[0])
		}
	}
	ds := c.DaemonSet(e.namespace, e.name)
	if ds == nil {
		return false, fmt.Sprintf("%s does not exist", subj)
	}
	if e.pred == "exists" {
		return true, subj + " exists"
	}
	if phrase := dsMeasures[e.pred]; phrase != nil {
		v := dsMeasure(c, ds, e.pred)
		op := ops[e.op]
		if op.cmp(v, e.n) {
			return true, fmt.Sprintf("%s: %s", subj, phrase(v))
		}
		return false, fmt.Sprintf("%s: %s (%s)", subj, phrase(v), fmt.Sprintf(op.want, e.n))
	}
	pods := livePods(c, ds)
	switch e.pred {
	case "on":
		names := e.args
		if slices.Contains(names, "all") {
			names = nil
			for _, n := range c.Nodes() {
				names = append(names, n.Name)
			}
		}
		var missing []string
		for _, node := range names {
			if c.Node(node) == nil {
				missing = append(missing, node+" (no such node)")
				continue
			}
			ps := pods[node]
			switch {
			case len(ps) == 0:
				missing = append(missing, node+" (no pod)")
			case !slices.ContainsFunc(ps, (*api.Pod).IsReady):
				missing = append(missing, node+" ("+ps[0].Name+" is not ready)")
			}
		}
		if len(missing) > 0 {
			return false, fmt.Sprintf("%s has no ready pod on %s", subj, strings.Join(missing, ", "))
		}
		return true, fmt.Sprintf("%s runs a ready pod on %s", subj, strings.Join(names, ", "))
	case "not-on":
		var found []string
		for _, node := range e.args {
			for _, p := range pods[node] {
				if p.Spec.NodeName == "" {
					found = append(found, p.Name+" for "+node+" (Pending)")
				} else {
					found = append(found, p.Name+" on "+node)
				}
			}
		}
		if len(found) > 0 {
			return false, fmt.Sprintf("%s still runs %s", subj, strings.Join(found, ", "))
		}
		return true, fmt.Sprintf("%s runs no pod on %s", subj, strings.Join(e.args, ", "))
	case "image":
		container, image, ok := strings.Cut(e.args[0], "=")
		if !ok {
			container, image = "", e.args[0]
		}
		if !runsImage(ds.Spec.Template.Spec.Containers, container, image) {
			return false, fmt.Sprintf("%s's pod template does not run %s (it runs %s)", subj, e.args[0], images(ds.Spec.Template.Spec.Containers))
		}
		var old []string
		for _, node := range sortedKeys(pods) {
			for _, p := range pods[node] {
				if !runsImage(p.Spec.Containers, container, image) {
					old = append(old, fmt.Sprintf("%s on %s runs %s", p.Name, node, images(p.Spec.Containers)))
				}
			}
		}
		if len(old) > 0 {
			return false, fmt.Sprintf("%s: not every pod runs %s yet: %s", subj, image, strings.Join(old, "; "))
		}
		return true, fmt.Sprintf("%s and all its pods run %s", subj, image)
	case "rolled-out":
		// kubectl rollout status's own verdict (DaemonSetStatusViewer.Status)
		msg, done, err := kubectl.DaemonSetRolloutStatus(ds)
		if err != nil {
			return false, fmt.Sprintf("%s: %v (its update strategy is %s)", subj, err, ds.Spec.UpdateStrategy.Type)
		}
		msg = strings.TrimSuffix(msg, "\n")
		if done {
			return true, fmt.Sprintf("%s: %s", subj, msg)
		}
		return false, fmt.Sprintf("%s is not rolled out: %s", subj, msg)
	}
	return false, fmt.Sprintf("%s: unknown check %q", subj, e.pred)
}

// dsMeasure reads a DaemonSet measure. The status numbers are the ones the
// DaemonSet controller wrote (controller.updateDaemonSetStatus, mirroring
// upstream updateDaemonSetStatus), which the engine keeps current: every
// command and every wake-up settles the components, and a pod becoming
// available after minReadySeconds wakes the controller up. pods counts the
// DaemonSet's pods (controller ownerReference) that are neither
// terminating nor finished.
func dsMeasure(c *cluster.Cluster, ds *api.DaemonSet, m string) int {
	st := ds.Status
	switch m {
	case "desired":
		return int(st.DesiredNumberScheduled)
	case "current":
		return int(st.CurrentNumberScheduled)
	case "ready":
		return int(st.NumberReady)
	case "available":
		return int(st.NumberAvailable)
	case "updated":
		return int(st.UpdatedNumberScheduled)
	case "unavailable":
		return int(st.NumberUnavailable)
	case "misscheduled":
		return int(st.NumberMisscheduled)
	}
	n := 0
	for _, ps := range livePods(c, ds) {
		n += len(ps)
	}
	return n
}

// livePods maps node name to the DaemonSet's pods for that node that are
// neither terminating nor finished, in the store's name order. A pod's node
// is the one the controller assigns it to (controller.GetTargetNodeName,
// as in getNodesToDaemonPods): spec.nodeName, or for a pod not bound yet
// the node its required node affinity names; a pod with neither is under
// "".
func livePods(c *cluster.Cluster, ds *api.DaemonSet) map[string][]*api.Pod {
	m := map[string][]*api.Pod{}
	for _, p := range c.PodsOwnedByShared(string(ds.UID)) {
		if p.Namespace != ds.Namespace || p.DeletionTimestamp != nil || p.IsTerminal() {
			continue
		}
		node, _ := controller.GetTargetNodeName(p)
		m[node] = append(m[node], p)
	}
	return m
}

func sortedKeys(m map[string][]*api.Pod) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// runsImage reports whether a container (named container, or any when
// container is "") runs image.
func runsImage(cs []api.Container, container, image string) bool {
	return slices.ContainsFunc(cs, func(c api.Container) bool {
		return (container == "" || c.Name == container) && c.Image == image
	})
}

func images(cs []api.Container) string {
	var s []string
	for _, c := range cs {
		s = append(s, c.Image)
	}
	return strings.Join(s, ", ")
}
