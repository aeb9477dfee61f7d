package kubectl

import (
	"fmt"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// isCreateNamespace reports whether kubectl create's arguments name the
// namespace generator (`kubectl create namespace NAME`, alias ns).
func isCreateNamespace(args []string) bool {
	return len(args) > 0 && (args[0] == "namespace" || args[0] == "ns")
}

// createNameFlags does the checks every `kubectl create <generator> NAME`
// makes before it builds its object (create_namespace.go,
// create_serviceaccount.go, create_configmap.go, create_secret.go Complete
// and Validate): exactly one NAME in args (a usage error naming cmdPath
// otherwise), -o limited to the name printer, and a valid --dry-run. It
// returns the dry-run strategy ("", "client" or "server").
func createNameFlags(inv *invocation, args []string, cmdPath string) (string, error) {
	if len(args) != 1 {
		return "", &usageError{msg: fmt.Sprintf("exactly one NAME is required, got %d", len(args)), cmdPath: cmdPath}
	}
	if err := checkNameOutput(inv.flags); err != nil {
		return "", err
	}
	return dryRunStrategy(inv.flags)
}

// runCreateNamespace mirrors `kubectl create namespace NAME`
// (pkg/cmd/create/create_namespace.go NamespaceOptions.Run): exactly one
// name, the server's validation (ValidateNamespaceName) and AlreadyExists,
// then `namespace/NAME created` from the name printer.
func runCreateNamespace(inv *invocation, args []string) error {
	const path = "kubectl create namespace"
	dry, err := createNameFlags(inv, args, path)
	if err != nil {
		return err
	}
	name := args[0]
	var causes []string
	for _, msg := range api.IsDNS1123Label(name) {
		causes = append(causes, fmt.Sprintf("metadata.name: Invalid value: %q: %s", name, msg))
	}
	c := inv.env.Cluster
	if dry != "client" {
		if len(causes) > 0 {
			return &invalidError{kind: "Namespace", name: name, causes: causes}
		}
		if c.Namespace(name) != nil {
			return cluster.AlreadyExists("namespaces", name)
		}
	}
	if dry == "" {
		if err := c.CreateNamespace(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}); err != nil {
			return err
		}
		c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "NamespaceOptions.Run", Object: "namespace/" + name,
			Action: "create", Reason: inv.line + ": namespace created (Active)"})
	}
	nameOutput(inv, rtNamespaces, name, "created"+dryRunSuffix(dry))
	return nil
}

// describeNamespace mirrors describe's describeNamespace: name, labels,
// annotations and phase, then the namespace's ResourceQuotas and
// LimitRanges, of which the playground has none.
func describeNamespace(ns *api.Namespace) string {
	w := newPrefixWriter()
	w.write(0, "Name:\t%s\n", ns.Name)
	printLabelsMultiline(w, "Labels", ns.Labels)
	printAnnotationsMultiline(w, "Annotations", ns.Annotations)
	w.write(0, "Status:\t%s\n", ns.Status.Phase)
	w.write(0, "\n")
	w.write(0, "No resource quota.\n")
	w.write(0, "\n")
	w.write(0, "No LimitRange resource.\n")
	return w.String()
}
