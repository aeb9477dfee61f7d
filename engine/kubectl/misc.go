package kubectl

import (
	"fmt"

	"github.com/dsplayground/dsplay/engine/cluster"
	apischema "github.com/dsplayground/dsplay/engine/schema"
	"sort"
	"strings"
)

// Version is the Kubernetes version the playground's client and server
// report (kubectl version: the client's and the API server's gitVersion),
// the same release as every node's kubeletVersion.
const Version = cluster.KubernetesVersion

// KustomizeVersion is the kustomize version kubectl prints alongside its own.
// kubectl 1.34 embeds kustomize v5.7.1; the 1.37 value is assumed unchanged.
const KustomizeVersion = "v5.7.1"

func versionFlags() []*flagDef {
	return []*flagDef{
		boolFlag("client", ""),
		stringFlag("output", "o", ""),
	}
}

// runVersion mirrors kubectl version's default output (client and server
// git versions, and the embedded kustomize version).
func runVersion(inv *invocation) error {
	f := inv.flags
	switch o := f.String("output"); o {
	case "":
	case "json", "yaml":
		return &plainError{"version -o " + o + " is not simulated in the playground"}
	default:
		return &plainError{"--output must be 'yaml' or 'json'"}
	}
	fmt.Fprintf(&inv.out, "Client Version: %s\n", Version)
	fmt.Fprintf(&inv.out, "Kustomize Version: %s\n", KustomizeVersion)
	if !f.Bool("client") {
		fmt.Fprintf(&inv.out, "Server Version: %s\n", Version)
	}
	return nil
}

func apiResourcesFlags() []*flagDef {
	return []*flagDef{
		boolFlag("no-headers", ""),
		stringFlag("output", "o", ""),
		stringFlag("api-group", "", ""),
		boolFlagTrue("namespaced"),
		stringFlag("sort-by", "", ""),
		{name: "verbs", kind: flagStringSlice},
		boolFlagTrue("cached"),
		{name: "categories", kind: flagStringSlice},
	}
}

// runAPIResources mirrors kubectl api-resources for the types the playground
// serves: NAME SHORTNAMES APIVERSION NAMESPACED KIND (wide adds VERBS and
// CATEGORIES), sorted by group then name.
func runAPIResources(inv *invocation) error {
	f := inv.flags
	out := f.String("output")
	if out != "" && out != "wide" && out != "name" {
		return &plainError{fmt.Sprintf("--output %v is not available", out)}
	}
	if sb := f.String("sort-by"); sb != "" && sb != "name" && sb != "kind" {
		return &plainError{"--sort-by accepts only name or kind"}
	}
	rts := append([]*resourceType(nil), resourceTypes...)
	switch f.String("sort-by") {
	case "name":
		sort.SliceStable(rts, func(i, j int) bool { return rts[i].resource < rts[j].resource })
	case "kind":
		sort.SliceStable(rts, func(i, j int) bool { return rts[i].kind < rts[j].kind })
	}
	t := &table{headers: []string{"NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"}}
	if out == "wide" {
		t.headers = append(t.headers, "VERBS", "CATEGORIES")
	}
	for _, rt := range rts {
		if f.Changed("namespaced") && rt.namespaced != f.Bool("namespaced") {
			continue
		}
		if g := f.String("api-group"); f.Changed("api-group") && g != rt.group {
			continue
		}
		if vs := f.Strings("verbs"); len(vs) > 0 {
			ok := true
			for _, v := range vs {
				ok = ok && contains(rt.verbs, v)
			}
			if !ok {
				continue
			}
		}
		if cs := f.Strings("categories"); len(cs) > 0 {
			ok := true
			for _, c := range cs {
				ok = ok && contains(rt.categories, c)
			}
			if !ok {
				continue
			}
		}
		if out == "name" {
			name := rt.resource
			if rt.group != "" {
				name += "." + rt.group
			}
			inv.out.WriteString(name + "\n")
			continue
		}
		row := []string{rt.resource, strings.Join(rt.shortNames, ","), rt.apiVersion(), fmt.Sprint(rt.namespaced), rt.kind}
		if out == "wide" {
			row = append(row, "["+strings.Join(rt.verbs, " ")+"]", strings.Join(rt.categories, ","))
		}
		t.rows = append(t.rows, row)
	}
	if out != "name" {
		inv.out.WriteString(t.render(f.Bool("no-headers")))
	}
	return nil
}

func apiVersionsFlags() []*flagDef { return nil }

// runAPIVersions mirrors kubectl api-versions (pkg/cmd/apiresources
// APIVersionsOptions.RunAPIVersions): every group/version the server
// serves, sorted, one per line: every group version of engine/schema's
// served resources (autoscaling/v1 beside the preferred v2).
func runAPIVersions(inv *invocation) error {
	if len(inv.args) != 0 {
		return &usageError{msg: fmt.Sprintf("unexpected arguments: %v", inv.args), cmdPath: "kubectl api-versions"}
	}
	seen := map[string]bool{}
	var gvs []string
	for _, r := range apischema.Served() {
		if gv := r.APIVersion(); !seen[gv] {
			seen[gv] = true
			gvs = append(gvs, gv)
		}
	}
	sort.Strings(gvs)
	for _, gv := range gvs {
		inv.out.WriteString(gv + "\n")
	}
	return nil
}
