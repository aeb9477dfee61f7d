package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
)

func applyFlags() []*flagDef {
	return []*flagDef{
		{name: "filename", shorthand: "f", kind: flagStringSlice},
		boolFlag("recursive", "R"),
		{name: "kustomize", shorthand: "k", kind: flagString},
		stringFlag("output", "o", ""),
		dryRunFlag(),
		stringFlag("validate", "", "strict"),
		stringFlag("field-manager", "", "kubectl-client-side-apply"),
		boolFlag("server-side", ""),
		boolFlag("force-conflicts", ""),
		boolFlag("save-config", ""),
		boolFlag("overwrite", ""),
		boolFlag("prune", ""),
		boolFlag("force", ""),
		stringFlag("selector", "l", ""),
	}
}

func runApply(inv *invocation) error { return inv.applyFiles(manifest.ModeApply) }
func runCreate(inv *invocation) error {
	if isCreateNamespace(inv.args) && len(inv.flags.Strings("filename")) == 0 {
		return runCreateNamespace(inv, inv.args[1:])
	}
	if isCreateServiceAccount(inv.args) && len(inv.flags.Strings("filename")) == 0 {
		return runCreateServiceAccount(inv, inv.args[1:]) // configobjects.go
	}
	if isCreateConfigObject(inv.args) && len(inv.flags.Strings("filename")) == 0 {
		return runCreateConfigObject(inv, inv.args) // configobjects.go
	}
	return inv.applyFiles(manifest.ModeCreate)
}
func runReplace(inv *invocation) error { return inv.applyFiles(manifest.ModeReplace) }

// readFiles returns the documents of every -f file: a key of env.Files,
// or "-" for env.Files["-"] (standard input).
func (inv *invocation) readFiles(files []string) ([]manifest.Document, error) {
	return inv.readFilesWith(files, manifest.DecodeOptions{})
}

// readFilesWith is readFiles with decode options (apply, create and
// replace: the --validate directive and the verb of decode errors).
func (inv *invocation) readFilesWith(files []string, opts manifest.DecodeOptions) ([]manifest.Document, error) {
	var docs []manifest.Document
	for _, name := range files {
		text, ok := inv.env.Files[name]
		if !ok {
			if name == "-" {
				text = ""
			} else {
				return nil, &plainError{fmt.Sprintf("the path %q does not exist", name)}
			}
		}
		d, err := manifest.DecodeWith(name, text, opts)
		if err != nil {
			return nil, manifestError(err)
		}
		// the resource builder's DefaultNamespace, and RequireNamespace
		// when -n was given
		if err := manifest.SetNamespace(d, inv.namespace, inv.explicitNS); err != nil {
			return nil, err
		}
		docs = append(docs, d...)
	}
	return docs, nil
}

// manifestError passes a manifest error through as kubectl prints it.
func manifestError(err error) error {
	var me *manifest.Error
	if errors.As(err, &me) {
		return &rawError{text: me.Error()}
	}
	return err
}

// applyFiles is kubectl apply / create / replace -f: decode every file,
// write through manifest.ApplyTo, print its lines.
func (inv *invocation) applyFiles(mode manifest.Mode) error {
	f := inv.flags
	files := f.Strings("filename")
	directive, err := validationDirective(f)
	if err != nil {
		return err
	}
	if f.String("kustomize") != "" {
		return &plainError{"-k (kustomize) is not simulated in the playground"}
	}
	if len(files) == 0 {
		if mode == manifest.ModeApply {
			return &plainError{"must specify one of -f and -k"}
		}
		if mode == manifest.ModeReplace {
			return &usageError{msg: "Must specify --filename to replace", cmdPath: inv.cmd.path()}
		}
		// kubectl create without -f prints its help after the error.
		return &rawError{text: "Error: must specify one of -f and -k\n\n" + commandHelp(inv.cmd)}
	}
	if len(inv.args) > 0 {
		return &plainError{"Unexpected args: [" + strings.Join(inv.args, " ") + "]"}
	}
	if f.String("dry-run") != "none" {
		if _, err := dryRunStrategy(f); err != nil {
			return err
		}
		return &plainError{"--dry-run is not simulated in the playground for " + inv.cmd.name}
	}
	if out := f.String("output"); out != "" && out != "name" {
		return &plainError{fmt.Sprintf("-o %s is not simulated in the playground for %s (only -o name)", out, inv.cmd.name)}
	}
	opts := manifest.DecodeOptions{FieldValidation: directive, Verb: "creating"}
	if mode == manifest.ModeReplace {
		opts.Verb = "replacing" // replace.go: AddSourceToErr("replacing", ...)
	}
	res, err := ApplyManifests(inv.env.Cluster, inv.env.Files, files, mode, ApplyOptions{
		Decode: opts, Namespace: inv.namespace, EnforceNamespace: inv.explicitNS, Warned: inv.warningWriter()})
	if err != nil {
		return err
	}
	if res.NoObjects() {
		return &plainError{"no objects passed to " + inv.cmd.name}
	}
	var lines []string
	for _, d := range res.Documents {
		inv.errOut.WriteString(d.Warnings)
		if d.Line == "" {
			continue
		}
		l := d.Line
		if f.String("output") == "name" {
			if i := strings.LastIndex(l, " "); i > 0 {
				l = l[:i]
			}
		}
		inv.out.WriteString(l + "\n")
		lines = append(lines, d.Line)
	}
	if len(lines) > 0 {
		inv.env.Cluster.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "Run" + strings.ToUpper(inv.cmd.name[:1]) + inv.cmd.name[1:],
			Object: strings.Join(files, ","), Action: inv.cmd.name, Reason: inv.line + ": " + strings.Join(lines, "; ")})
	}
	return res.Err
}

// addSourceToErr mirrors cmdutil.AddSourceToErr: an API error about an
// object read from a file names the file (`Error from server (NotFound):
// error when deleting "ds.yaml": daemonsets.apps "a" not found`).
func addSourceToErr(verb, source string, err error) error {
	var se *cluster.StatusError
	if source == "" || !errors.As(err, &se) {
		return err
	}
	return &cluster.StatusError{Reason: se.Reason, Message: fmt.Sprintf("error when %s %q: %s", verb, source, se.Message)}
}

// fileTargets resolves the objects named by -f files (kubectl delete -f,
// patch -f). verb, when not empty, names the file in NotFound errors as
// cmdutil.AddSourceToErr does ("deleting"); patch reports them bare.
func (inv *invocation) fileTargets(files []string, verb string) ([]target, error) {
	docs, err := inv.readFiles(files)
	if err != nil {
		return nil, err
	}
	var out []target
	c := inv.env.Cluster
	for _, d := range docs {
		rt := objectResourceType(d.Object)
		if rt == nil {
			continue // every kind Decode returns has one
		}
		ns := d.Namespace
		if ns == "" {
			ns = inv.namespace
		}
		o, err := getObject(c, rt, ns, d.Name)
		if err != nil {
			if verb != "" {
				err = addSourceToErr(verb, d.File(), err)
			}
			out = append(out, target{err: err})
			continue
		}
		o.source = d.File()
		out = append(out, target{o: o})
	}
	return out, nil
}

// warningNoLastAppliedConfigAnnotation is kubectl apply's warning for an
// existing object that apply did not create (apply.go, same name): %[1]s
// is info.ObjectName() (resource/name), %[2]s the annotation, %[3]s "kubectl".
const warningNoLastAppliedConfigAnnotation = "Warning: resource %[1]s is missing the %[2]s annotation which is required by %[3]s apply. %[3]s apply should only be used on resources created declaratively by either %[3]s create --save-config or %[3]s apply. The missing annotation will be patched automatically.\n"

// MissingLastAppliedWarnings returns, for every document manifest.ApplyTo
// writes (with an object; the order of its lines), kubectl
// apply's warning when the object exists without the
// last-applied-configuration annotation (applyOneObject), else "".
func MissingLastAppliedWarnings(c *cluster.Cluster, docs []manifest.Document) []string {
	var out []string
	for _, d := range docs {
		if d.Object == nil {
			continue
		}
		var meta *api.ObjectMeta
		resource := ""
		if d.Namespace == "" {
			d.Namespace = api.DefaultNamespace
		}
		switch o := d.Object.(type) {
		case *api.DaemonSet:
			resource = "daemonsets"
			if live := c.DaemonSet(d.Namespace, o.Name); live != nil {
				meta = &live.ObjectMeta
			}
		case *api.Pod:
			resource = "pods"
			if live := c.Pod(d.Namespace, o.Name); live != nil {
				meta = &live.ObjectMeta
			}
		case *api.Node:
			resource = "nodes"
			if live := c.Node(o.Name); live != nil {
				meta = &live.ObjectMeta
			}
		case *api.Namespace:
			resource = "namespaces"
			if live := c.Namespace(o.Name); live != nil {
				meta = &live.ObjectMeta
			}
		case *api.ServiceAccount, *api.ConfigMap, *api.Secret, *api.GenericObject:
			rt := configObjectType(o)
			resource = rt.resource
			if live, ok := getConfigObject(c, rt, d.Namespace, d.Name).(interface{ GetObjectMeta() *api.ObjectMeta }); ok {
				meta = live.GetObjectMeta()
			}
		}
		w := ""
		if meta != nil {
			if _, ok := meta.Annotations[api.LastAppliedConfigAnnotation]; !ok {
				w = fmt.Sprintf(warningNoLastAppliedConfigAnnotation, resource+"/"+meta.Name, api.LastAppliedConfigAnnotation, "kubectl")
			}
		}
		out = append(out, w)
	}
	return out
}
