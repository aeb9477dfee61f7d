package engine

import (
	"errors"
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The engine's package graph mirrors how a cluster is built: components
// meet only through the store (engine/cluster, the API server), never by
// importing one another, and every import points down the layers below.
// TestImportArrows pins it: a new arrow that goes up a layer, sideways
// between components, or from manifest to cluster fails the test, naming
// the arrow. Test files are not checked: the tests of what components do
// together wire them in engine/internal/componenttest.

// enginePath is the import path of this package.
const enginePath = "github.com/dsplayground/dsplay/engine"

// importLayers places every engine package (by path below engine/, "" for
// engine itself) on a layer: a package imports only packages on lower
// layers, except the arrows in allowedSideways. A package missing here
// fails the test until it is placed.
var importLayers = map[string]int{
	// the object model and the generated schema
	"api": 0, "schema/internal/wire": 0, "schema": 1, "schema/internal/gen": 1,
	"internal/enginetest": 0,
	// kubectl's YAML (sigs.k8s.io/yaml's behaviour over yaml.v3), for
	// kubectl and for the manifest decoder's kubectl messages
	"internal/sigsyaml": 0,
	// the API server and its store
	"cluster": 1,
	// the store of a Simulation, for engine packages only
	"internal/simstore": 2,
	// YAML to objects
	"manifest": 2,
	// the components (kube-controller-manager's controllers, the scheduler,
	// the kubelet) and the client (kubectl)
	"controller": 3, "nodelifecycle": 3, "ttl": 3, "tainteviction": 3, "podgc": 3, "garbagecollector": 3,
	"scheduler": 3, "kubelet": 3, "kubectl": 3,
	// what wires the components together
	"": 4, "internal/componenttest": 4,
	// what runs on the facade
	"scenario": 5, "conformance": 5,
	// what a learner's session is (share, export, replay, lessons,
	// exercises), over scenarios
	"session": 6,
}

// componentPackages are the packages that must not reach one another, directly
// or through any other package: each is one component of a cluster.
var componentPackages = []string{"controller", "nodelifecycle", "ttl", "tainteviction", "podgc", "garbagecollector", "scheduler", "kubelet", "kubectl"}

// allowedSideways are the arrows between packages of one layer, or up a
// layer, that are allowed, each with its reason.
var allowedSideways = map[[2]string]string{
	// The kubelet's admission runs the scheduler's filters on the pod it
	// is given, as upstream's does (pkg/kubelet/lifecycle/predicate.go
	// calls the scheduler framework's noderesources, nodeports, ...
	// plugins): a shared library, not a conversation between components.
	{"kubelet", "scheduler"}: "the kubelet's admission reuses the scheduler's filters (upstream pkg/kubelet/lifecycle/predicate.go)",
}

// knownExceptions are arrows the layers forbid that the code still has,
// each pointing at the work that removes it. The test fails when one goes
// away, so that the list shrinks with the code.
var knownExceptions = map[[2]string]string{
	// manifest writes the store (apply.go): issue 11's manifest
	// purification moves the server half to engine/cluster and
	// client-side apply to kubectl, after which manifest imports no cluster.
	{"manifest", "cluster"}: "manifest still applies to the store (issue 11: make manifest pure)",
}

// engineImports returns, for every package under engine/ (by path below
// engine/), the engine packages its non-test files import.
func engineImports(t *testing.T) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if err != nil {
			var noGo *build.NoGoError
			if errors.As(err, &noGo) {
				return nil
			}
			return err
		}
		rel := filepath.ToSlash(path)
		if rel == "." {
			rel = ""
		}
		var deps []string
		for _, imp := range pkg.Imports {
			if imp == enginePath {
				deps = append(deps, "")
			} else if r, ok := strings.CutPrefix(imp, enginePath+"/"); ok {
				deps = append(deps, r)
			}
		}
		sort.Strings(deps)
		graph[rel] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

func show(pkg string) string {
	if pkg == "" {
		return "engine"
	}
	return "engine/" + pkg
}

func TestImportArrows(t *testing.T) {
	graph := engineImports(t)
	for _, want := range []string{"", "api", "cluster", "kubelet", "nodelifecycle", "tainteviction", "podgc", "garbagecollector", "controller", "manifest"} {
		if _, ok := graph[want]; !ok {
			t.Fatalf("package %s not found: the walk over engine/ is broken", show(want))
		}
	}
	seen := map[[2]string]bool{}
	for pkg, deps := range graph {
		from, ok := importLayers[pkg]
		if !ok {
			t.Errorf("%s has no layer: add it to importLayers (engine/imports_test.go)", show(pkg))
			continue
		}
		for _, dep := range deps {
			arrow := [2]string{pkg, dep}
			to, ok := importLayers[dep]
			switch {
			case !ok:
				// reported as a package without a layer
			case allowedSideways[arrow] != "":
			case knownExceptions[arrow] != "":
				seen[arrow] = true
			case to >= from:
				t.Errorf("%s imports %s: an arrow up or across the layers (%d -> %d); components meet only through engine/cluster", show(pkg), show(dep), from, to)
			}
		}
	}
	// manifest never imports cluster, but for the known exception.
	if slices.Contains(graph["manifest"], "cluster") && knownExceptions[[2]string{"manifest", "cluster"}] == "" {
		t.Error("engine/manifest imports engine/cluster: manifest turns text into objects and never touches the store")
	}
	for arrow, why := range knownExceptions {
		if !seen[arrow] {
			t.Errorf("%s no longer imports %s: remove the known exception (%s)", show(arrow[0]), show(arrow[1]), why)
		}
	}
	// No component reaches another, even through a third package.
	var reach func(pkg string, into map[string]bool)
	reach = func(pkg string, into map[string]bool) {
		for _, dep := range graph[pkg] {
			if !into[dep] {
				into[dep] = true
				reach(dep, into)
			}
		}
	}
	for _, c := range componentPackages {
		deps := map[string]bool{}
		reach(c, deps)
		for _, other := range componentPackages {
			if other != c && deps[other] && allowedSideways[[2]string{c, other}] == "" {
				t.Errorf("%s depends on %s: components meet only through engine/cluster", show(c), show(other))
			}
		}
	}
}
