package kubectl

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// ServiceAccounts, ConfigMaps and Secrets: their resource types, tables
// (pkg/printers/internalversion printers.go printServiceAccount,
// printConfigMap, printSecret), rendering, update and delete.

var (
	rtConfigMaps = &resourceType{resource: "configmaps", version: "v1", kind: "ConfigMap", shortNames: []string{"cm"}, namespaced: true,
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}
	rtSecrets = &resourceType{resource: "secrets", version: "v1", kind: "Secret", namespaced: true,
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}
	rtServiceAccounts = &resourceType{resource: "serviceaccounts", version: "v1", kind: "ServiceAccount", shortNames: []string{"sa"}, namespaced: true,
		verbs: []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"}}
)

// objectResourceType is the resource type of a decoded manifest object
// (*api.DaemonSet, *api.Pod, *api.Node, *api.Namespace, *api.ServiceAccount,
// *api.ConfigMap or *api.Secret), or nil for a kind the playground does not
// store (the resource mapping kubectl's resource builder does per object).
func objectResourceType(o any) *resourceType {
	switch o.(type) {
	case *api.DaemonSet:
		return rtDaemonSets
	case *api.Pod:
		return rtPods
	case *api.Node:
		return rtNodes
	case *api.Namespace:
		return rtNamespaces
	}
	return configObjectType(o)
}

// configObjectType is the resource type of a ServiceAccount, ConfigMap or
// Secret object, or nil.
func configObjectType(o any) *resourceType {
	switch o.(type) {
	case *api.ServiceAccount:
		return rtServiceAccounts
	case *api.ConfigMap:
		return rtConfigMaps
	case *api.Secret:
		return rtSecrets
	case *api.GenericObject:
		return genericType(o.(*api.GenericObject))
	}
	return nil
}

// listConfigObjects lists rt's objects as listObjects does; ok is false
// for another type.
func listConfigObjects(c *cluster.Cluster, rt *resourceType, ns string, allNS bool) ([]object, bool) {
	if isGenericType(rt) {
		return listGeneric(c, rt, ns, allNS), true
	}
	switch rt {
	case rtServiceAccounts:
		return wrapListed(rt, ns, allNS, c.ServiceAccounts()), true
	case rtConfigMaps:
		return wrapListed(rt, ns, allNS, c.ConfigMaps()), true
	case rtSecrets:
		return wrapListed(rt, ns, allNS, c.Secrets()), true
	}
	return nil, false
}

// getConfigObject returns the stored object of rt named ns/name, or nil.
func getConfigObject(c *cluster.Cluster, rt *resourceType, ns, name string) any {
	if isGenericType(rt) {
		if o := getGeneric(c, rt, ns, name); o != nil {
			return o
		}
		return nil
	}
	switch rt {
	case rtServiceAccounts:
		if o := c.ServiceAccount(ns, name); o != nil {
			return o
		}
	case rtConfigMaps:
		if o := c.ConfigMap(ns, name); o != nil {
			return o
		}
	case rtSecrets:
		if o := c.Secret(ns, name); o != nil {
			return o
		}
	}
	return nil
}

// configObjectHeaders are the table columns of rt, or nil for another type.
func configObjectHeaders(rt *resourceType) []string {
	if isGenericType(rt) {
		return genericHeaders(rt)
	}
	switch rt {
	case rtServiceAccounts:
		// serviceAccountColumnDefinitions (printers.go, v1.37): NAME AGE, no SECRETS
		return []string{"NAME", "AGE"}
	case rtConfigMaps:
		return []string{"NAME", "DATA", "AGE"}
	case rtSecrets:
		return []string{"NAME", "TYPE", "DATA", "AGE"}
	}
	return nil
}

// configObjectRow is the table row of a ServiceAccount (NAME AGE,
// printServiceAccount), ConfigMap (NAME DATA AGE: data plus
// binaryData keys) or Secret (NAME TYPE DATA AGE), or nil.
func configObjectRow(o any, name, age string) []string {
	switch x := o.(type) {
	case *api.ServiceAccount:
		return []string{name, age}
	case *api.ConfigMap:
		return []string{name, strconv.Itoa(len(x.Data) + len(x.BinaryData)), age}
	case *api.Secret:
		return []string{name, x.Type, strconv.Itoa(len(x.Data)), age}
	case *api.GenericObject:
		return genericRow(x, name, age)
	}
	return nil
}

// deleteConfigObject deletes a ServiceAccount, ConfigMap or Secret at once
// (no finalizers); ok is false for another type.
func deleteConfigObject(c *cluster.Cluster, o any) (err error, ok bool) {
	switch x := o.(type) {
	case *api.ServiceAccount:
		return c.DeleteServiceAccount(x.Namespace, x.Name), true
	case *api.ConfigMap:
		return c.DeleteConfigMap(x.Namespace, x.Name), true
	case *api.Secret:
		return c.DeleteSecret(x.Namespace, x.Name), true
	case *api.GenericObject:
		return c.DeleteGenericObject(x.GroupResource(), x.Namespace, x.Name), true
	}
	return nil, false
}

// updateConfigObject stores a changed ServiceAccount, ConfigMap or Secret
// (label, annotate); ok is false for another type.
func updateConfigObject(c *cluster.Cluster, o any) (err error, ok bool) {
	switch x := o.(type) {
	case *api.ServiceAccount:
		return c.UpdateServiceAccount(x), true
	case *api.ConfigMap:
		return c.UpdateConfigMap(x), true
	case *api.Secret:
		return c.UpdateSecret(x), true
	case *api.GenericObject:
		return c.UpdateGenericObject(x), true
	}
	return nil, false
}

// renderConfigObject is RenderObject for a ServiceAccount, ConfigMap or
// Secret: []byte values marshal as base64 strings, as in the API's JSON.
func renderConfigObject(o any) (map[string]any, api.Unmodeled, error) {
	var extra api.Unmodeled
	var kind string
	switch x := o.(type) {
	case *api.ServiceAccount:
		extra, kind = x.Extra, "ServiceAccount"
	case *api.ConfigMap:
		extra, kind = x.Extra, "ConfigMap"
	case *api.Secret:
		extra, kind = x.Extra, "Secret"
	case *api.GenericObject:
		m, err := renderGeneric(x)
		return m, nil, err
	default:
		return nil, nil, fmt.Errorf("kubectl: cannot render %T", o)
	}
	m, err := toGeneric(o)
	if err != nil {
		return nil, nil, err
	}
	setTypeMeta(m, "v1", kind)
	return m, extra, nil
}

// isCreateServiceAccount reports whether kubectl create's arguments name
// the serviceaccount generator (`kubectl create serviceaccount NAME`,
// alias sa).
func isCreateServiceAccount(args []string) bool {
	return len(args) > 0 && (args[0] == "serviceaccount" || args[0] == "sa")
}

// runCreateServiceAccount mirrors `kubectl create serviceaccount NAME`
// (pkg/cmd/create/create_serviceaccount.go ServiceAccountOpts.Run):
// exactly one name; the server's errors are wrapped (fmt.Errorf, so
// kubectl prints them as `error: failed to create serviceaccount: ...`); then
// `serviceaccount/NAME created`.
func runCreateServiceAccount(inv *invocation, args []string) error {
	const path = "kubectl create serviceaccount"
	dry, err := createNameFlags(inv, args, path)
	if err != nil {
		return err
	}
	name, ns := args[0], inv.namespace
	c := inv.env.Cluster
	if dry != "client" {
		var causes []string
		for _, msg := range api.IsDNS1123Subdomain(name) {
			causes = append(causes, fmt.Sprintf("metadata.name: Invalid value: %q: %s", name, msg))
		}
		if len(causes) > 0 {
			return &plainError{"failed to create serviceaccount: " + (&invalidError{kind: "ServiceAccount", name: name, causes: causes}).Error()}
		}
		if err := c.AdmitNamespaced(ns, "serviceaccounts", name); err != nil {
			return &plainError{"failed to create serviceaccount: " + err.Error()}
		}
		if c.ServiceAccount(ns, name) != nil {
			return &plainError{"failed to create serviceaccount: " + cluster.AlreadyExists("serviceaccounts", name).Error()}
		}
	}
	if dry == "" {
		if err := c.CreateServiceAccount(&api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}}); err != nil {
			return &plainError{"failed to create serviceaccount: " + err.Error()}
		}
		c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "ServiceAccountOpts.Run", Object: "serviceaccount/" + ns + "/" + name,
			Action: "create", Reason: inv.line + ": service account created"})
	}
	nameOutput(inv, rtServiceAccounts, name, "created"+dryRunSuffix(dry))
	return nil
}

// describeConfigObject mirrors kubectl's describers of the three kinds
// (pkg/describe describe.go ServiceAccountDescriber, ConfigMapDescriber,
// SecretDescriber); ok is false for another type. Map keys are printed
// sorted (upstream ranges over the Go map).
func describeConfigObject(c *cluster.Cluster, o object, showEvents bool) (string, bool) {
	w := newPrefixWriter()
	w.write(0, "Name:\t%s\n", o.meta.Name)
	w.write(0, "Namespace:\t%s\n", o.meta.Namespace)
	printLabelsMultiline(w, "Labels", o.meta.Labels)
	printAnnotationsMultiline(w, "Annotations", o.meta.Annotations)
	events := func() {
		if showEvents {
			describeEvents(w, eventsFor(c, o.rt.kind, o.meta.Namespace, o.meta.Name, o.meta.UID), c.Now())
		}
	}
	switch x := o.obj.(type) {
	case *api.ServiceAccount:
		// describeServiceAccount (v1.37): only the image pull secrets,
		// by name, under a 19-character header; no mountable secrets or
		// tokens
		if len(x.ImagePullSecrets) == 0 {
			w.write(0, "Image pull secrets:\t<none>\n")
		}
		prefix := "Image pull secrets:"
		for _, s := range x.ImagePullSecrets {
			w.write(0, "%s\t%s\n", prefix, s.Name)
			prefix = "                   "
		}
		events()
	case *api.ConfigMap:
		w.write(0, "\nData\n====\n")
		for _, k := range slices.Sorted(maps.Keys(x.Data)) {
			w.write(0, "%s:\n----\n", k)
			w.write(0, "%s\n", x.Data[k])
		}
		w.write(0, "\nBinaryData\n====\n")
		for _, k := range slices.Sorted(maps.Keys(x.BinaryData)) {
			w.write(0, "%s: %d bytes\n", k, len(x.BinaryData[k]))
		}
		w.write(0, "\n")
		events()
	case *api.Secret:
		w.write(0, "\nType:\t%s\n", x.Type)
		w.write(0, "\nData\n====\n")
		for _, k := range slices.Sorted(maps.Keys(x.Data)) {
			if k == "token" && x.Type == api.SecretTypeServiceAccountToken {
				w.write(0, "%s:\t%s\n", k, x.Data[k])
			} else {
				w.write(0, "%s:\t%d bytes\n", k, len(x.Data[k]))
			}
		}
	default:
		return "", false
	}
	return w.String(), true
}

// generatorFlags are the flags createFlags adds for the generators;
// `kubectl create --help` lists only its own (they belong to the
// subcommands' help).
var generatorFlags = map[string]bool{"from-literal": true, "from-file": true, "type": true}

// createFlags are kubectl create's flags: apply's (-f ...) plus those of
// the configmap and secret generic generators
// (pkg/cmd/create/create_configmap.go, create_secret.go).
func createFlags() []*flagDef {
	return append(applyFlags(),
		&flagDef{name: "from-literal", kind: flagStringArray},
		&flagDef{name: "from-file", kind: flagStringSlice},
		stringFlag("type", "", ""),
	)
}

// isCreateConfigObject reports whether kubectl create's arguments name the
// configmap generator (`create configmap|cm NAME`) or the generic secret
// one (`create secret generic NAME`).
func isCreateConfigObject(args []string) bool {
	return len(args) > 0 && (args[0] == "configmap" || args[0] == "cm" || args[0] == "secret")
}

// runCreateConfigObject mirrors `kubectl create configmap NAME
// [--from-literal=key=value]... [--from-file=[key=]FILE]...` and
// `kubectl create secret generic NAME [--type=T] ...`
// (pkg/cmd/create/create_configmap.go, create_secret.go; literals are
// util.ParseLiteralSource's `key=value`, a file's key is its base name
// unless written `key=FILE`; FILE is one of the playground's files). Keys
// are checked with IsConfigMapKey and may not repeat; the server's errors
// are wrapped (`error: failed to create configmap: ...`).
func runCreateConfigObject(inv *invocation, args []string) error {
	kind, rt := "configmap", rtConfigMaps
	path := "kubectl create configmap"
	if args[0] == "secret" {
		if len(args) < 2 || args[1] != "generic" {
			sub := ""
			if len(args) > 1 {
				sub = " " + args[1]
			}
			return &plainError{fmt.Sprintf("%q is not simulated in the playground (use kubectl create secret generic, or kubectl create -f FILE)", "kubectl create secret"+sub)}
		}
		kind, rt, path, args = "secret", rtSecrets, "kubectl create secret generic", args[1:]
	}
	args = args[1:]
	dry, err := createNameFlags(inv, args, path)
	if err != nil {
		return err
	}
	name, ns := args[0], inv.namespace
	data := map[string]string{}
	what := map[string]string{"configmap": "ConfigMap", "secret": "Secret"}[kind]
	add := func(key, value string) error {
		if errs := api.IsConfigMapKey(key); len(errs) != 0 {
			if kind == "secret" {
				return &plainError{fmt.Sprintf("%q is not valid key name for a Secret %s", key, strings.Join(errs, ";"))}
			}
			return &plainError{fmt.Sprintf("%q is not a valid key name for a ConfigMap: %s", key, strings.Join(errs, ","))}
		}
		if _, dup := data[key]; dup {
			return &plainError{fmt.Sprintf("cannot add key %q, another key by that name already exists in Data for %s %q", key, what, name)}
		}
		data[key] = value
		return nil
	}
	for _, f := range inv.flags.Strings("from-file") {
		key, file, ok := strings.Cut(f, "=")
		if !ok {
			file = f
			key = file[strings.LastIndex(file, "/")+1:]
		}
		text, exists := inv.env.Files[file]
		if !exists {
			return &plainError{fmt.Sprintf("error reading %s: no such file or directory", file)}
		}
		if err := add(key, text); err != nil {
			return err
		}
	}
	for _, l := range inv.flags.Strings("from-literal") {
		key, value, ok := strings.Cut(l, "=")
		if !ok {
			return &plainError{fmt.Sprintf("invalid literal source %v, expected key=value", l)}
		}
		if err := add(key, value); err != nil {
			return err
		}
	}
	c := inv.env.Cluster
	failed := func(err error) error { return &plainError{"failed to create " + kind + ": " + err.Error()} }
	var obj any
	meta := api.ObjectMeta{Name: name, Namespace: ns}
	if kind == "configmap" {
		obj = &api.ConfigMap{ObjectMeta: meta, Data: data}
	} else {
		s := &api.Secret{ObjectMeta: meta, Type: cmpOr(inv.flags.String("type"), api.SecretTypeOpaque)}
		for k, v := range data {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			s.Data[k] = []byte(v)
		}
		obj = s
	}
	if dry != "client" {
		if err := c.AdmitNamespaced(ns, rt.resource, name); err != nil {
			return failed(err)
		}
		if getConfigObject(c, rt, ns, name) != nil {
			return failed(cluster.AlreadyExists(rt.resource, name))
		}
		// the server's validation (ValidateConfigMap, ValidateSecret)
		if err := manifest.ValidateObject(obj); err != nil {
			return failed(err)
		}
	}
	if dry == "" {
		var err error
		switch o := obj.(type) {
		case *api.ConfigMap:
			err = c.CreateConfigMap(o)
		case *api.Secret:
			err = c.CreateSecret(o)
		}
		if err != nil {
			return failed(err)
		}
		c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "Run", Object: kind + "/" + ns + "/" + name,
			Action: "create", Reason: inv.line + ": " + kind + " created"})
	}
	nameOutput(inv, rt, name, "created"+dryRunSuffix(dry))
	return nil
}

// cmpOr returns a unless it is empty, else b.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
