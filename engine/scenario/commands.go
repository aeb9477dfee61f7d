package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
)

// maxRange bounds the names one `node add NAME{A..B}` creates.
const maxRange = 5000

// expandRange expands one {A..B} range in a node name (worker-{1..3} ->
// worker-1, worker-2, worker-3). A name without braces is returned alone.
// Errors: a malformed range, B < A, or more than maxRange names.
func expandRange(name string) ([]string, error) {
	open := strings.Index(name, "{")
	if open < 0 {
		return []string{name}, nil
	}
	close := strings.Index(name[open:], "}")
	if close < 0 {
		return nil, fmt.Errorf("bad node name %q: unclosed {", name)
	}
	close += open
	a, b, ok := strings.Cut(name[open+1:close], "..")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || from < 0 || to < from {
		return nil, fmt.Errorf("bad node name range %q: want {A..B} with 0 <= A <= B", name[open:close+1])
	}
	if to-from+1 > maxRange {
		return nil, fmt.Errorf("node name range %q names more than %d nodes", name[open:close+1], maxRange)
	}
	prefix, suffix := name[:open], name[close+1:]
	if strings.ContainsAny(suffix, "{}") {
		return nil, fmt.Errorf("bad node name %q: only one {A..B} range is allowed", name)
	}
	out := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		out = append(out, prefix+strconv.Itoa(i)+suffix)
	}
	return out, nil
}

// resolvePod finds the pod a scenario names: a pod name in the default
// namespace, or [PREFIX]@NODE, the single pod bound to NODE that is neither
// terminating nor terminal and whose name starts with PREFIX. Errors say
// how many pods matched.
func resolvePod(sim *engine.Simulation, ref string) (*api.Pod, error) {
	prefix, node, ok := strings.Cut(ref, "@")
	if !ok {
		p := simstore.Cluster(sim).Pod(api.DefaultNamespace, ref)
		if p == nil {
			return nil, cluster.NotFound("pods", ref)
		}
		return p, nil
	}
	var found []*api.Pod
	for _, p := range simstore.Cluster(sim).PodsOnNode(node) {
		if p.Namespace == api.DefaultNamespace && p.DeletionTimestamp == nil && !p.IsTerminal() && strings.HasPrefix(p.Name, prefix) {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		var names []string
		for _, p := range found {
			names = append(names, p.Name)
		}
		return nil, fmt.Errorf("pod %s: %d running pods on node %s start with %q, want exactly one %v", ref, len(found), node, prefix, names)
	}
	return found[0], nil
}

// podPhase runs `pod fail REF` (engine.Simulation.FailPod) or
// `pod succeed REF` (engine.Simulation.SucceedPod) on the pod REF names
// (in namespace ns when given).
func podPhase(t target, verb, ref, ns string) error {
	p, err := resolvePodIn(t.Sim(), ref, ns)
	if err != nil {
		return err
	}
	if verb == "fail" {
		return t.FailPod(p.Namespace, p.Name)
	}
	return t.SucceedPod(p.Namespace, p.Name)
}

// resolvePodIn is resolvePod, or with ns the pod named ref in namespace ns.
func resolvePodIn(sim *engine.Simulation, ref, ns string) (*api.Pod, error) {
	if ns == "" {
		return resolvePod(sim, ref)
	}
	p := simstore.Cluster(sim).Pod(ns, ref)
	if p == nil {
		return nil, cluster.NotFound("pods", ref)
	}
	return p, nil
}

// decisionFilter selects decisions by component, action and upstream
// function (empty = any).
type decisionFilter struct{ component, action, fn string }

func parseDecisionFilter(args []string) (decisionFilter, error) {
	var f decisionFilter
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || v == "" {
			return f, fmt.Errorf("bad decisions flag %q: want --component=C, --action=A or --func=F", a)
		}
		switch k {
		case "--component":
			f.component = v
		case "--action":
			f.action = v
		case "--func":
			f.fn = v
		default:
			return f, fmt.Errorf("unknown decisions flag %q: want --component, --action or --func", k)
		}
	}
	return f, nil
}

func (f decisionFilter) matches(d cluster.Decision) bool {
	return (f.component == "" || d.Component == f.component) &&
		(f.action == "" || d.Action == f.action) &&
		(f.fn == "" || d.Func == f.fn)
}

// podArgs reads the arguments of a pod command, `VERB POD [-n NS |
// --namespace NS | --namespace=NS]`, into [VERB, POD, NS] (NS empty when
// not given).
func podArgs(f []string) ([]string, bool) {
	if len(f) < 2 {
		return nil, false
	}
	switch f[0] {
	case "fail", "succeed", "unready", "ready":
	default:
		return nil, false
	}
	var name, ns string
	for i := 1; i < len(f); i++ {
		switch a := f[i]; {
		case a == "-n" || a == "--namespace":
			if i+1 >= len(f) {
				return nil, false
			}
			i++
			ns = f[i]
		case strings.HasPrefix(a, "--namespace="):
			ns = strings.TrimPrefix(a, "--namespace=")
		case strings.HasPrefix(a, "-") || name != "":
			return nil, false
		default:
			name = a
		}
	}
	return []string{f[0], name, ns}, name != ""
}

// podReadiness runs `pod unready POD [-n NS]` and `pod ready POD [-n NS]`
// (engine.Simulation.SetPodReadiness): the pod's readiness probes start
// failing or pass again, and the kubelet flips its readiness.
func podReadiness(t target, ready bool, ref, ns string) error {
	if ns != "" {
		return t.SetPodReadiness(ns, ref, ready)
	}
	p, err := resolvePod(t.Sim(), ref)
	if err != nil {
		return err
	}
	return t.SetPodReadiness(p.Namespace, p.Name, ready)
}
