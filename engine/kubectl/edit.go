package kubectl

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/sigsyaml"
	"github.com/dsplayground/dsplay/engine/manifest"
)

// editHeader is the comment kubectl edit puts above the object
// (pkg/cmd/util/editor editHeader.writeTo, normal edit mode).
const editHeader = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`

func editFlags() []*flagDef {
	return []*flagDef{
		stringFlag("output", "o", "yaml"),
		stringFlag("selector", "l", ""),
		boolFlag("output-patch", ""),
		boolFlag("save-config", ""),
		boolFlag("windows-line-endings", ""),
		stringFlag("validate", "", "strict"),
		stringFlag("field-manager", "", "kubectl-edit"),
		stringFlag("subresource", "", ""),
		{name: "filename", shorthand: "f", kind: flagStringSlice},
	}
}

// missingResourceError is the resource builder's error when edit names
// nothing (cli-runtime resource.missingResourceError).
const missingResourceError = `You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`

// EditSession is an open `kubectl edit`: the editor holds Text (the live
// objects as YAML, or JSON with -o json, under kubectl's header comment);
// Finish takes the saved text and applies it, as kubectl does when the
// editor exits (pkg/cmd/util/editor/editoptions.go EditOptions.Run):
//
//   - text equal to what was shown once both are converted to JSON
//     (comments, indentation, key order and line ends aside; see
//     editComparable): stderr `Edit cancelled, no changes made.`, exit 0;
//   - an empty file: `Edit cancelled, saved file was empty.`;
//   - a change: the two-way diff between the shown and the saved object
//     is applied to the live object (a JSON merge patch: lists are
//     replaced whole where kubectl's strategic merge patch would merge
//     them by key) and stored as an update with the API server's checks;
//     stdout `daemonset.apps/x edited`, or `... skipped` when the saved
//     object equals the shown one;
//   - a validation error: stderr `error: daemonsets.apps "x" is invalid`,
//     and the editor reopens (Finish returns a Result whose Edit is the
//     same session with new Text: the header, then `# daemonsets.apps "x"
//     was not valid:` and one `# * field: message` line per cause, then
//     the saved text without its comments). Saving that unchanged ends
//     the edit with `A copy of your changes has been stored to
//     "/tmp/kubectl-edit-N.yaml"` and `error: Edit cancelled, no valid
//     changes were saved.` (exit 1); the file name is made up, as the
//     playground has no file system;
//   - a syntax error reopens the editor with `# The edited file had a
//     syntax error: ...`. Saving again a text equal (once converted to
//     JSON, or with its comment lines dropped where it is not YAML) to the
//     one saved before, after an error, also ends the edit so (upstream
//     compares with the previous save, editedDiff), so a file that can
//     never be valid cannot keep the editor open;
//   - changing apiVersion, kind or name is refused (`At least one of
//     apiVersion, kind and name was changed`), as kubectl's patch
//     preconditions do;
//   - a changed metadata.resourceVersion that no longer matches the live
//     object is a Conflict (`error: daemonsets.apps "x" could not be
//     patched: Operation cannot be fulfilled on ...`, then `You can run
//     `kubectl replace -f /tmp/kubectl-edit-N.yaml` to try this update
//     again.`, exit 1); an object deleted meanwhile is `error:
//     daemonsets.apps "x" could not be found on the server` and `The edits
//     you made on deleted resources have been saved to "..."`.
//
// A session is finished once Finish returned a Result without Edit.
type EditSession struct {
	// Text is the file the editor shows.
	Text string
	// Format is "yaml" or "json".
	Format string

	env       *Env
	targets   []editTarget
	original  string // the object text first shown (without the header)
	shown     string // the text of the latest editor round
	saved     string // the text saved in the previous round (upstream editedDiff)
	hadErrors bool
	done      bool
}

// editTarget is one edited object and its rendering when the editor opened.
type editTarget struct {
	rt        *resourceType
	ns, name  string
	original  map[string]any
	apiVer    string
	kind      string
	namespace bool
}

// Done reports whether the edit is over.
func (e *EditSession) Done() bool { return e == nil || e.done }

// runEdit mirrors `kubectl edit`: it opens the editor on the named objects
// (TYPE NAME, TYPE/NAME, TYPE -l selector).
func runEdit(inv *invocation) error {
	f := inv.flags
	format := f.String("output")
	if format != "yaml" && format != "json" {
		return &plainError{fmt.Sprintf("the edit mode doesn't support output the format %q", format)}
	}
	if len(f.Strings("filename")) > 0 {
		return &plainError{"edit -f is not simulated in the playground: edit the manifest and apply it"}
	}
	if len(inv.args) == 0 {
		return &plainError{missingResourceError}
	}
	rargs, err := parseResourceArgs(inv.args)
	if err != nil {
		return err
	}
	sel, err := parseSelector(f.String("selector"))
	if err != nil {
		return err
	}
	c := inv.env.Cluster
	var objs []object
	for _, ra := range rargs {
		switch ra.rt {
		case rtDaemonSets, rtPods, rtNodes, rtNamespaces:
		default:
			return &plainError{fmt.Sprintf("editing %s is not simulated in the playground (it edits daemonsets, pods, nodes and namespaces)", ra.rt.resource)}
		}
		if len(ra.names) == 0 {
			objs = append(objs, listMatching(c, ra.rt, inv.namespace, false, sel)...)
			continue
		}
		for _, n := range ra.names {
			o, err := getObject(c, ra.rt, inv.namespace, n)
			if err != nil {
				return err
			}
			objs = append(objs, o)
		}
	}
	if len(objs) == 0 {
		// kubectl edit on an empty list opens nothing and says nothing
		return nil
	}
	es := &EditSession{Format: format, env: inv.env}
	var rendered []map[string]any
	for _, o := range objs {
		m, err := RenderObject(o.obj)
		if err != nil {
			return err
		}
		rendered = append(rendered, m)
		es.targets = append(es.targets, editTarget{rt: o.rt, ns: o.meta.Namespace, name: o.meta.Name, original: m,
			apiVer: o.rt.apiVersion(), kind: o.rt.kind, namespace: o.rt.namespaced})
	}
	var top any = rendered[0]
	if len(rendered) > 1 {
		top = listObject(rendered)
	}
	body, err := es.marshal(top)
	if err != nil {
		return err
	}
	es.original = body
	es.shown = body
	es.Text = editHeader + body
	inv.edit = es
	return nil
}

func (e *EditSession) marshal(v any) (string, error) {
	if e.Format == "json" {
		return MarshalJSON(v)
	}
	return MarshalYAML(v)
}

// stripComments mirrors cmdutil.StripComments / ManualStrip: lines whose
// first non-blank character is '#' are dropped.
func stripComments(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// editComparable mirrors cmdutil.StripComments, which kubectl edit
// applies to both texts before comparing them (editoptions.go
// EditOptions.Run): apimachinery's yaml.ToJSON, so that comments,
// indentation, key order, line ends and the final newline do not count (a
// text starting with "{" is JSON and is compared as it is); a text that is
// not valid YAML falls back to ManualStrip, the lines without comments.
func editComparable(text string) string {
	if strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{") {
		return text
	}
	j, err := sigsyaml.YAMLToJSON([]byte(text))
	if err != nil {
		return stripComments(text)
	}
	return string(j)
}

// tempFileName is the made-up file kubectl would have kept the edit in.
func tempFileName(text, format string) string {
	h := fnv.New32a()
	h.Write([]byte(text))
	return fmt.Sprintf("/tmp/kubectl-edit-%d.%s", h.Sum32(), format)
}

// editReason is one block of the reopened file's header.
type editReason struct {
	head  string
	other []string
}

// hashOnLineBreak mirrors the editor's helper: continuation lines of a
// reason are commented too.
func hashOnLineBreak(s string) string {
	return strings.ReplaceAll(s, "\n", "\n# ")
}

// Finish applies the text saved in the editor and returns what kubectl
// prints; Result.Edit is set again when the editor reopens. Finishing a
// done session is an error.
func (e *EditSession) Finish(text string) Result {
	inv := &invocation{env: e.env, line: "kubectl edit"}
	inv.out = stream{chunks: &inv.chunks}
	inv.errOut = stream{stderr: true, chunks: &inv.chunks}
	err := e.finish(inv, text)
	exit := 0
	if err != nil {
		inv.errOut.WriteString(checkErr(err))
		exit = 1
	}
	r := Result{Stdout: inv.out.String(), Stderr: inv.errOut.String(), Chunks: inv.chunks, ExitCode: exit}
	if !e.done {
		r.Edit = e
	}
	return r
}

func (e *EditSession) finish(inv *invocation, text string) error {
	if e.done {
		return &plainError{"the edit is already finished"}
	}
	edited := stripComments(text)
	if e.hadErrors && (editComparable(text) == editComparable(e.shown) || editComparable(text) == editComparable(e.saved)) {
		e.done = true
		fmt.Fprintf(&inv.errOut, "A copy of your changes has been stored to %q\n", tempFileName(edited, e.Format))
		return &plainError{"Edit cancelled, no valid changes were saved."}
	}
	if editComparable(text) == editComparable(editHeader+e.original) {
		e.done = true
		inv.errOut.WriteString("Edit cancelled, no changes made.\n")
		return nil
	}
	if strings.TrimSpace(edited) == "" {
		e.done = true
		inv.errOut.WriteString("Edit cancelled, saved file was empty.\n")
		return nil
	}
	var reasons []editReason
	reopen := func() error {
		e.hadErrors = true
		e.saved = text
		var b strings.Builder
		b.WriteString(editHeader)
		for _, r := range reasons {
			if len(r.other) > 0 {
				fmt.Fprintf(&b, "# %s:\n", hashOnLineBreak(r.head))
			} else {
				fmt.Fprintf(&b, "# %s\n", hashOnLineBreak(r.head))
			}
			for _, o := range r.other {
				fmt.Fprintf(&b, "# * %s\n", hashOnLineBreak(o))
			}
			b.WriteString("#\n")
		}
		b.WriteString(edited)
		e.Text = b.String()
		e.shown = b.String()
		return nil
	}
	var parsed any
	if err := sigsyaml.Unmarshal([]byte(edited), &parsed); err != nil {
		reasons = append(reasons, editReason{head: fmt.Sprintf("The edited file had a syntax error: %v", err)})
		return reopen()
	}
	parsed = normalize(parsed)
	var items []map[string]any
	if m, ok := parsed.(map[string]any); ok {
		if m["kind"] == "List" && len(e.targets) > 1 {
			l, _ := m["items"].([]any)
			for _, it := range l {
				if im, ok := it.(map[string]any); ok {
					items = append(items, im)
				}
			}
		} else {
			items = append(items, m)
		}
	}
	if len(items) == 0 {
		reasons = append(reasons, editReason{head: "The edited file had a syntax error: the file does not hold an object"})
		return reopen()
	}
	c := e.env.Cluster
	notFound, retryable := 0, 0
	for _, it := range items {
		t := e.match(it)
		if t == nil {
			inv.errOut.WriteString("error: At least one of apiVersion, kind and name was changed\n")
			reasons = append(reasons, editReason{head: "At least one of apiVersion, kind and name was changed"})
			continue
		}
		res := t.rt.groupResource()
		patch := mergeDiff(t.original, it)
		if len(patch) == 0 {
			fmt.Fprintf(&inv.out, "%s/%s skipped\n", t.rt.kindString(), t.name)
			continue
		}
		live, err := getObject(c, t.rt, t.ns, t.name)
		if err != nil {
			notFound++
			fmt.Fprintf(&inv.errOut, "error: %s %q could not be found on the server\n", res, t.name)
			continue
		}
		if rv, ok := path(patch, "metadata", "resourceVersion").(string); ok && rv != live.meta.ResourceVersion {
			retryable++
			fmt.Fprintf(&inv.errOut, "error: %s %q could not be patched: Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again\n", res, t.name, res, t.name)
			continue
		}
		current, err := renderObject(live.obj, false)
		if err != nil {
			return err
		}
		applyMergePatch(current, patch)
		if ok, r := e.update(inv, t, current); !ok {
			inv.errOut.WriteString(fmt.Sprintf("error: %s %q is invalid\n", res, t.name))
			reasons = append(reasons, r)
		}
	}
	if notFound > 0 {
		e.done = true
		fmt.Fprintf(&inv.errOut, "The edits you made on deleted resources have been saved to %q\n", tempFileName(edited, e.Format))
		return errExit
	}
	if retryable > 0 {
		e.done = true
		fmt.Fprintf(&inv.errOut, "You can run `kubectl replace -f %s` to try this update again.\n", tempFileName(edited, e.Format))
		return errExit
	}
	if len(reasons) > 0 {
		return reopen()
	}
	e.done = true
	return nil
}

// match finds the target an edited item stands for; nil when its
// apiVersion, kind, name or namespace changed (kubectl's patch
// preconditions).
func (e *EditSession) match(it map[string]any) *editTarget {
	name, _ := path(it, "metadata", "name").(string)
	ns, _ := path(it, "metadata", "namespace").(string)
	av, _ := it["apiVersion"].(string)
	kind, _ := it["kind"].(string)
	for i := range e.targets {
		t := &e.targets[i]
		if t.name == name && t.apiVer == av && t.kind == kind && (!t.namespace || t.ns == ns) {
			return t
		}
	}
	return nil
}

// update stores the patched object through the manifest path (decode,
// defaults, validation, the registry's update rules), as the API server
// handles kubectl edit's patch. It returns false and the header reason
// when the server refuses it.
func (e *EditSession) update(inv *invocation, t *editTarget, obj map[string]any) (bool, editReason) {
	reason := editReason{head: fmt.Sprintf("%s %q was not valid", t.rt.groupResource(), t.name)}
	text, err := MarshalYAML(obj)
	if err == nil {
		var docs []manifest.Document
		docs, err = manifest.Decode("edited-file", text)
		if err == nil {
			_, err = inv.applyPrintingWarnings(docs, manifest.ModeReplace)
		}
	}
	if err != nil {
		if me, ok := err.(*manifest.Error); ok {
			for _, d := range me.Diagnostics {
				if d.Field != "" {
					reason.other = append(reason.other, d.Field+": "+d.Message)
				} else {
					reason.other = append(reason.other, d.Message)
				}
			}
		} else {
			reason.other = append(reason.other, err.Error())
		}
		return false, reason
	}
	if cur, err := getObject(e.env.Cluster, t.rt, t.ns, t.name); err == nil {
		e.env.Cluster.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "EditOptions.Run", Object: decisionObject(cur),
			Node: decisionNode(cur), Action: "edit", Reason: "kubectl edit " + t.rt.kindString() + "/" + t.name + ": the saved changes were applied"})
	}
	fmt.Fprintf(&inv.out, "%s/%s edited\n", t.rt.kindString(), t.name)
	return true, reason
}

// listPatch patches a list element by element (the list kept its length
// and its elements their names), as a strategic merge patch merges lists
// of objects by key; full is the edited list, used when the live list no
// longer has that shape.
type listPatch struct {
	elems []map[string]any
	full  []any
}

// mergeDiff is the patch that turns from into to: a JSON merge patch
// (RFC 7386: changed values, nil for removed keys, nested maps diffed key
// by key) in which a list of objects that kept its length and names is
// diffed element by element (listPatch).
func mergeDiff(from, to map[string]any) map[string]any {
	patch := map[string]any{}
	for k, tv := range to {
		fv, ok := from[k]
		if ok && reflect.DeepEqual(fv, tv) {
			continue
		}
		fm, fIsMap := fv.(map[string]any)
		tm, tIsMap := tv.(map[string]any)
		if ok && fIsMap && tIsMap {
			if d := mergeDiff(fm, tm); len(d) > 0 {
				patch[k] = d
			}
			continue
		}
		if lp, ok := diffList(fv, tv); ok {
			patch[k] = lp
			continue
		}
		patch[k] = tv
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			patch[k] = nil
		}
	}
	return patch
}

// diffList diffs two lists of objects element by element when they have
// the same length and each pair has the same name (or neither has one).
func diffList(from, to any) (*listPatch, bool) {
	fl, ok1 := from.([]any)
	tl, ok2 := to.([]any)
	if !ok1 || !ok2 || len(fl) != len(tl) || len(fl) == 0 {
		return nil, false
	}
	lp := &listPatch{full: tl}
	for i := range fl {
		fm, ok1 := fl[i].(map[string]any)
		tm, ok2 := tl[i].(map[string]any)
		if !ok1 || !ok2 || fm["name"] != tm["name"] {
			return nil, false
		}
		lp.elems = append(lp.elems, mergeDiff(fm, tm))
	}
	return lp, true
}

// applyMergePatch applies a mergeDiff patch to target in place.
func applyMergePatch(target, patch map[string]any) {
	for k, pv := range patch {
		if pv == nil {
			delete(target, k)
			continue
		}
		if lp, ok := pv.(*listPatch); ok {
			tl, isList := target[k].([]any)
			same := isList && len(tl) == len(lp.elems)
			for i := 0; same && i < len(tl); i++ {
				tm, ok := tl[i].(map[string]any)
				same = ok && tm["name"] == lp.full[i].(map[string]any)["name"]
			}
			if !same {
				target[k] = lp.full
				continue
			}
			for i, ep := range lp.elems {
				applyMergePatch(tl[i].(map[string]any), ep)
			}
			continue
		}
		pm, pIsMap := pv.(map[string]any)
		tm, tIsMap := target[k].(map[string]any)
		if pIsMap && tIsMap {
			applyMergePatch(tm, pm)
			continue
		}
		if pIsMap {
			nm := map[string]any{}
			applyMergePatch(nm, pm)
			target[k] = nm
			continue
		}
		target[k] = pv
	}
}
