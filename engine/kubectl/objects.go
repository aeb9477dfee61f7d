package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// object is one stored object with its resource type.
type object struct {
	rt   *resourceType
	meta *api.ObjectMeta
	obj  any // *api.DaemonSet, *api.Pod, *api.Node, *api.Namespace, *api.ControllerRevision, *api.Event, *api.ServiceAccount, *api.ConfigMap, *api.Secret
	// source is the file the object was named in (delete -f), for
	// cmdutil.AddSourceToErr; "" otherwise.
	source string
}

// wrap pairs a stored object (one of object.obj's types) with its type.
func wrap(rt *resourceType, o any) object {
	x, ok := o.(interface{ GetObjectMeta() *api.ObjectMeta })
	if !ok {
		panic("kubectl: unknown object type")
	}
	return object{rt: rt, meta: x.GetObjectMeta(), obj: o}
}

// listMatching is listObjects (rt's objects in ns, or all namespaces) kept
// to those whose labels match sel, in listObjects' order.
func listMatching(c *cluster.Cluster, rt *resourceType, ns string, allNS bool, sel selector) []object {
	var objs []object
	for _, o := range listObjects(c, rt, ns, allNS) {
		if sel.matches(o.meta.Labels) {
			objs = append(objs, o)
		}
	}
	return objs
}

// listObjects returns the objects of a type in namespace ns (all namespaces
// when allNS; cluster-scoped types ignore ns), in the API server's order:
// namespace, then name.
func listObjects(c *cluster.Cluster, rt *resourceType, ns string, allNS bool) []object {
	if objs, ok := listConfigObjects(c, rt, ns, allNS); ok {
		return objs
	}
	switch rt {
	case rtDaemonSets:
		return wrapListed(rt, ns, allNS, c.DaemonSets())
	case rtPods:
		return wrapListed(rt, ns, allNS, c.Pods())
	case rtNodes:
		return wrapListed(rt, ns, allNS, c.Nodes())
	case rtNamespaces:
		return wrapListed(rt, ns, allNS, c.Namespaces())
	case rtControllerRevisions:
		return wrapListed(rt, ns, allNS, c.ControllerRevisions())
	case rtEvents:
		evs := append([]*api.Event(nil), c.Events()...)
		sort.SliceStable(evs, func(i, j int) bool {
			if evs[i].Namespace != evs[j].Namespace {
				return evs[i].Namespace < evs[j].Namespace
			}
			return evs[i].Name < evs[j].Name
		})
		return wrapListed(rt, ns, allNS, evs)
	}
	return nil
}

// wrapListed wraps the listed objects of rt that listObjects keeps: all of
// a cluster-scoped type, else those in ns unless allNS.
func wrapListed[T interface{ GetObjectMeta() *api.ObjectMeta }](rt *resourceType, ns string, allNS bool, list []T) []object {
	var out []object
	for _, o := range list {
		if !rt.namespaced || allNS || o.GetObjectMeta().Namespace == ns {
			out = append(out, wrap(rt, o))
		}
	}
	return out
}

// getObject returns one object or the API server's NotFound error.
func getObject(c *cluster.Cluster, rt *resourceType, ns, name string) (object, error) {
	if err := checkResourceName(name); err != nil {
		return object{}, err
	}
	var o any
	switch rt {
	case rtDaemonSets:
		if d := c.DaemonSet(ns, name); d != nil {
			o = d
		}
	case rtPods:
		if p := c.Pod(ns, name); p != nil {
			o = p
		}
	case rtNodes:
		if n := c.Node(name); n != nil {
			o = n
		}
	case rtNamespaces:
		if n := c.Namespace(name); n != nil {
			o = n
		}
	case rtControllerRevisions:
		if r := c.ControllerRevision(ns, name); r != nil {
			o = r
		}
	case rtEvents:
		for _, e := range c.Events() {
			if e.Namespace == ns && e.Name == name {
				o = e
			}
		}
	default:
		o = getConfigObject(c, rt, ns, name)
	}
	if o == nil {
		return object{}, cluster.NotFound(rt.groupResource(), name)
	}
	return wrap(rt, o), nil
}

// checkResourceName mirrors client-go's rest Request.Name, which fails a
// request before it is sent: an empty name ("resource name may not be
// empty") or one that is not a valid path segment
// (IsValidPathSegmentName: not "." or "..", no "/" or "%"). kubectl prints
// these as plain errors (`error: invalid resource name "..": [may not be '..']`).
func checkResourceName(name string) error {
	if name == "" {
		return &plainError{"resource name may not be empty"}
	}
	var msgs []string
	switch name {
	case ".", "..":
		msgs = append(msgs, fmt.Sprintf("may not be '%s'", name))
	default:
		for _, bad := range []string{"/", "%"} {
			if strings.Contains(name, bad) {
				msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
			}
		}
	}
	if len(msgs) > 0 {
		return &plainError{fmt.Sprintf("invalid resource name %q: [%s]", name, strings.Join(msgs, " "))}
	}
	return nil
}

// resourceArg is one TYPE with its names (none = list).
type resourceArg struct {
	rt    *resourceType
	names []string
}

// parseResourceArgs mirrors the resource builder's ResourceTypeOrNameArgs:
// "TYPE[,TYPE...] [NAME...]" or "TYPE/NAME ...".
func parseResourceArgs(args []string) ([]resourceArg, error) {
	if len(args) == 0 {
		return nil, nil
	}
	hasSlash := false
	for _, a := range args {
		if strings.Contains(a, "/") {
			hasSlash = true
		}
	}
	if hasSlash {
		var out []resourceArg
		for _, a := range args {
			if strings.Count(a, "/") > 1 {
				// resource builder splitResourceTypeName
				return nil, &plainError{"arguments in resource/name form may not have more than one slash"}
			}
			t, n, ok := strings.Cut(a, "/")
			if !ok {
				return nil, &plainError{"there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'"}
			}
			if t == "" || n == "" || strings.Contains(n, "/") {
				return nil, &plainError{"arguments in resource/name form must have a single resource and name"}
			}
			rt, err := resolveType(t)
			if err != nil {
				return nil, err
			}
			if len(out) > 0 && out[len(out)-1].rt == rt {
				out[len(out)-1].names = append(out[len(out)-1].names, n)
			} else {
				out = append(out, resourceArg{rt: rt, names: []string{n}})
			}
		}
		return out, nil
	}
	var out []resourceArg
	for _, t := range strings.Split(args[0], ",") {
		if t == "" {
			continue
		}
		if strings.ToLower(t) == "all" {
			// The "all" category, expanded from discovery in its order
			// (the core group, then apps, autoscaling, batch): pods and
			// daemonsets are simulated, the others stored as written.
			for _, rt := range allCategory() {
				out = append(out, resourceArg{rt: rt, names: append([]string(nil), args[1:]...)})
			}
			continue
		}
		rt, err := resolveType(t)
		if err != nil {
			return nil, err
		}
		out = append(out, resourceArg{rt: rt, names: append([]string(nil), args[1:]...)})
	}
	if len(out) == 0 {
		return nil, &noResourceMatchError{resource: args[0]}
	}
	return out, nil
}

// plainError is an error printed with kubectl's "error: " prefix.
type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }
