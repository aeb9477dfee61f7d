package kubectl

import (
	"encoding/json"
	"fmt"

	"github.com/dsplayground/dsplay/engine/api"
	"sort"
	"strconv"

	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
	apischema "github.com/dsplayground/dsplay/engine/schema"
)

// ApplyOptions tune ApplyManifests.
type ApplyOptions struct {
	// Decode is the field validation directive and the verb of decode
	// errors.
	Decode manifest.DecodeOptions
	// Namespace is the namespace of documents that name none (-n, else
	// "default"); with EnforceNamespace a document naming another one is
	// an error (the resource builder's RequireNamespace).
	Namespace        string
	EnforceNamespace bool
	// Warned is the invocation's warning writer state (the API server's
	// warnings already printed, deduplicated per kubectl process); nil: a
	// new one.
	Warned map[string]bool
}

// DocumentResult is what kubectl apply, create or replace did with one
// object of a manifest file.
type DocumentResult struct {
	// File is the file the object was read from; Index its place among
	// the file's objects (0-based, a List's items counted one by one).
	File  string
	Index int
	// APIVersion, Kind, Name and Namespace are as written (Namespace as
	// defaulted for the kinds the engine simulates); Kind may be "" for a
	// document that did not parse.
	APIVersion, Kind, Name, Namespace string
	// StartLine and EndLine are the file lines of the object's document
	// (1-based, inclusive).
	StartLine, EndLine int
	// Line is kubectl's success line (`daemonset.apps/x created`), ""
	// when the object was not written.
	Line string
	// Warnings are the stderr lines kubectl prints before Line (apply's
	// missing last-applied annotation, unknown fields in Warn mode, the
	// API server's warnings).
	Warnings string
	// Inert is true for a kind stored as written that no component of
	// the playground acts on (api.GenericObject).
	Inert bool
	// NotRead is true for an object after a syntax error in its file:
	// kubectl stops reading the file there, so the object was neither
	// applied nor refused.
	NotRead bool
	// Err is the object's error (a *manifest.Error or an API error), as
	// kubectl reports it; nil when the object was applied, skipped or not
	// read.
	Err error
	// Diagnostics are Err's problems with positions and hints, when Err
	// is a manifest error.
	Diagnostics []manifest.Diagnostic
}

// Failed reports whether the object was refused.
func (d *DocumentResult) Failed() bool { return d.Err != nil }

// ApplyResult is the outcome of ApplyManifests.
type ApplyResult struct {
	// Documents are every object of the files, in order.
	Documents []DocumentResult
	// Err is the command's error as kubectl reports it, nil when every
	// object was applied: the errors of the objects in kubectl's order
	// (one error alone, several as an aggregate).
	Err error
}

// NoObjects reports whether the files held no object at all (kubectl's
// `no objects passed to apply`).
func (r *ApplyResult) NoObjects() bool { return len(r.Documents) == 0 && r.Err == nil }

// Applied counts the objects that were written or found unchanged.
func (r *ApplyResult) Applied() int {
	n := 0
	for _, d := range r.Documents {
		if d.Line != "" {
			n++
		}
	}
	return n
}

// ApplyManifests is kubectl apply / create / replace -f over files (keys
// of files, "-" being standard input): every object of every file is
// decoded and written on its own, in order, as kubectl's resource builder
// visits them (ContinueOnError) and the command sends each in its own
// request. An object that fails changes nothing and does not stop the
// others; a YAML syntax error ends its file (StreamVisitor returns), the
// objects before it are still applied. The error of a file that does not
// exist is returned at once (the builder's error, before anything is
// sent).
//
// Error order mirrors the commands: apply collects its builder's errors
// (mapping, parse) first, as one error or a nested aggregate
// (GetObjects -> Result.Infos), then each object's error from the server
// (apply.go Run: errs); create and replace report each object's error
// from the server first, then the builder's (checked against a real
// v1.37.2 kubectl).
func ApplyManifests(c *cluster.Cluster, files map[string]string, names []string, mode manifest.Mode, o ApplyOptions) (*ApplyResult, error) {
	type entry struct {
		res     DocumentResult
		doc     *manifest.Document // to write
		builder bool               // Err is the resource builder's
	}
	var entries []entry
	for _, name := range names {
		text, ok := files[name]
		if !ok {
			if name != "-" {
				return nil, &plainError{fmt.Sprintf("the path %q does not exist", name)}
			}
			text = ""
		}
		if o.Decode.FieldValidation == "" {
			o.Decode.FieldValidation = manifest.FieldValidationStrict
		}
		parts, fatal := manifest.DecodeParts(name, text, o.Decode)
		if fatal != nil {
			return nil, &docError{fatal}
		}
		var warnParts []manifest.Part
		if mode == manifest.ModeApply && o.Decode.FieldValidation == manifest.FieldValidationStrict {
			wo := o.Decode
			wo.FieldValidation = manifest.FieldValidationWarn
			warnParts, _ = manifest.DecodeParts(name, text, wo)
		}
		stopped := false
		for i, p := range parts {
			e := entry{res: DocumentResult{File: name, Index: i, APIVersion: p.APIVersion, Kind: p.Kind, Name: p.Name,
				Namespace: p.Namespace, StartLine: p.StartLine, EndLine: p.EndLine}}
			ne := p.ClientNameError(mode, o.Namespace)
			if ne == nil && (p.Err == nil || p.Err.FromServer()) && warnParts != nil && len(warnParts) == len(parts) {
				// a strict decoding error leaves no object to look at:
				// the same object decoded leniently
				ne = warnParts[i].ClientNameError(mode, o.Namespace).WithRepairs(p.Err)
			}
			switch {
			case stopped:
				e.res.NotRead = true
			case ne != nil:
				// kubectl's own request fails before the server sees
				// the object (applyOneObject's info.Get): an error of
				// the object, reported after the builder's
				e.res.Err, e.res.Diagnostics = &docError{ne}, ne.Diagnostics
			case p.Err != nil:
				e.res.Err, e.res.Diagnostics = &docError{p.Err}, p.Err.Diagnostics
				e.builder = !p.Err.FromServer()
				stopped = p.Fatal
				if warnParts != nil && len(warnParts) == len(parts) && warnParts[i].Err == nil {
					wd := []manifest.Document{warnParts[i].Document}
					if manifest.SetNamespace(wd, o.Namespace, o.EnforceNamespace) == nil {
						if perr := patchStrictError(c, wd[0]); perr != nil {
							e.res.Err = perr
							// applyOneObject warns before it sends the patch
							e.res.Warnings = MissingLastAppliedWarnings(c, wd)[0]
						}
					}
				}
			default:
				d := []manifest.Document{p.Document}
				if err := manifest.SetNamespace(d, o.Namespace, o.EnforceNamespace); err != nil {
					e.res.Err, e.builder = err, true
					break
				}
				e.doc = &d[0]
				e.res.Namespace = d[0].Namespace
				_, e.res.Inert = d[0].Object.(*api.GenericObject)
			}
			entries = append(entries, e)
		}
	}
	// warnings: computed against the store before anything is written,
	// as each object's warnings come with its own response
	var docs []manifest.Document
	for _, e := range entries {
		if e.doc != nil {
			docs = append(docs, *e.doc)
		}
	}
	var missing []string
	if mode == manifest.ModeApply {
		missing = MissingLastAppliedWarnings(c, docs)
	}
	warn := map[int]string{} // entry index -> warnings
	j := 0
	for i, e := range entries {
		if e.doc == nil {
			continue
		}
		d := e.doc
		w := ""
		if j < len(missing) {
			w = missing[j]
		}
		j++
		unknown := d.UnknownFields
		if mode == manifest.ModeApply && len(unknown) > 1 && liveObject(c, *d) != nil {
			// a patch: FromUnstructuredWithValidation sorts its warnings
			unknown = append([]string(nil), unknown...)
			sort.Slice(unknown, func(a, b int) bool { return strconv.Quote(unknown[a]) < strconv.Quote(unknown[b]) })
		}
		for _, u := range unknown {
			w += fmt.Sprintf("Warning: unknown field %q\n", u)
		}
		warn[i] = w
	}
	// each document is sent on its own, against the store as the
	// documents before it left it
	var docEntry []int // docs index -> entries index
	for i, e := range entries {
		if e.doc != nil {
			docEntry = append(docEntry, i)
		}
	}
	seen := warningSeen(o.Warned)
	if seen == nil {
		seen = warningSeen{}
	}
	var outcomes []manifest.Outcome
	for i := range docs {
		if err := staleResourceVersion(c, docs[i], mode); err != nil {
			outcomes = append(outcomes, manifest.Outcome{Err: nil, Conflict: err})
			continue
		}
		before := liveObject(c, docs[i])
		out := manifest.ApplyEach(c, docs[i:i+1], mode)[0]
		if out.Err == nil {
			// the API server's warnings come with the write's response
			warn[docEntry[i]] += seen.format(writeWarnings(before, liveObject(c, docs[i])))
		}
		outcomes = append(outcomes, out)
	}
	res := &ApplyResult{}
	var builderErrs, serverErrs []error
	k := 0
	for i := range entries {
		e := &entries[i]
		if e.doc != nil {
			out := outcomes[k]
			k++
			// apply warns before it sends, whatever the answer
			e.res.Warnings = warn[i]
			if out.Conflict != nil {
				e.res.Err = out.Conflict
			} else if out.Err != nil {
				e.res.Err, e.res.Diagnostics = &docError{out.Err}, out.Err.Diagnostics
			} else {
				e.res.Line = out.Line
			}
		}
		if e.res.Err != nil {
			if e.builder {
				builderErrs = append(builderErrs, e.res.Err)
			} else {
				serverErrs = append(serverErrs, e.res.Err)
			}
		}
		res.Documents = append(res.Documents, e.res)
	}
	if mode == manifest.ModeApply {
		// apply.go Run: errs = [GetObjects' error, applyOneObject's ...]
		var errs []error
		if b := visitErr(builderErrs); b != nil {
			errs = append(errs, b)
		}
		res.Err = visitErr(append(errs, serverErrs...))
	} else {
		// create.go RunCreate, replace.go Run: r.Visit's outer
		// ContinueOnErrorVisitor collects each object's error as it is
		// sent; the mapping and parse errors the stream visitors collected
		// come last, as one error or a nested aggregate
		errs := append([]error(nil), serverErrs...)
		if b := visitErr(builderErrs); b != nil {
			errs = append(errs, b)
		}
		res.Err = visitErr(errs)
	}
	return res, nil
}

// ErrorText is what kubectl prints on stderr for err (cmdutil.CheckErr),
// ending in a newline; "" for nil.
func ErrorText(err error) string { return checkErr(err) }

// ManifestError returns the *manifest.Error behind an error of
// ApplyManifests (a file too large to read), if it is one.
func ManifestError(err error) (*manifest.Error, bool) {
	if de, ok := err.(*docError); ok {
		return de.e, true
	}
	return nil, false
}

// staleResourceVersion is the API server's optimistic concurrency check
// for a document that carries metadata.resourceVersion (a `kubectl get -o
// yaml` dump) against the stored object: kubectl apply patches an
// existing object with the patch holding the document's resourceVersion,
// kubectl replace puts it, and when it is not the stored one the update
// is a Conflict (storage GuaranteedUpdate: OptimisticLockErrorMsg). apply
// retries the patch (Patcher.Patch, maxPatchRetry) and then reports it,
// wrapped by its patcher ("patching") and applyOneObject ("applying
// patch: <patch> to: <info> for:"); replace wraps it "replacing".
// kubectl create, and apply of an object that does not exist, clear the
// resourceVersion before they send (resource.Helper.Create with modify).
func staleResourceVersion(c *cluster.Cluster, d manifest.Document, mode manifest.Mode) error {
	if mode == manifest.ModeCreate || d.Object == nil {
		return nil
	}
	v, ok := manifest.RawField(d.Raw(), "metadata", "resourceVersion")
	rv, _ := v.(string)
	if !ok || rv == "" {
		return nil
	}
	live := liveObject(c, d)
	if live == nil {
		return nil
	}
	meta := objectMeta(live)
	if meta == nil || meta.ResourceVersion == rv {
		return nil
	}
	r, ok := apischema.ServedKind(d.APIVersion, d.Kind)
	if !ok {
		return nil
	}
	conflict := fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", r.GroupResource(), meta.Name)
	if mode == manifest.ModeReplace {
		// a PUT carries the object's UID as a precondition, checked by the
		// storage before its resourceVersion (GuaranteedUpdate ->
		// Preconditions.Check: NewInvalidObjectError, Code 4)
		if v, _ := manifest.RawField(d.Raw(), "metadata", "uid"); v != nil {
			if uid, _ := v.(string); uid != "" && uid != meta.UID {
				key := "/registry/" + r.Resource + "/" // the storage prefix of built-in kinds
				if meta.Namespace != "" {
					key += meta.Namespace + "/"
				}
				key += meta.Name
				conflict = fmt.Sprintf("Operation cannot be fulfilled on %s %q: StorageError: invalid object, Code: 4, Key: %s, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s",
					r.GroupResource(), meta.Name, key, uid, meta.UID)
			}
		}
		return &cluster.StatusError{Reason: "Conflict", Message: fmt.Sprintf("error when replacing %q: %s", d.File(), conflict)}
	}
	patch, err := json.Marshal(applyPatchFor(d, live))
	if err != nil {
		patch = []byte("{}")
	}
	// resource.Info.String: the mapping's resource and kind, then the name
	group := r.Group
	info := fmt.Sprintf("Resource: %q, GroupVersionKind: %q\nName: %q, Namespace: %q",
		group+"/"+r.Version+", Resource="+r.Resource, group+"/"+r.Version+", Kind="+r.Kind, meta.Name, meta.Namespace)
	return &cluster.StatusError{Reason: "Conflict", Message: fmt.Sprintf("error when applying patch:\n%s\nto:\n%s\nfor: %q: error when patching %q: %s",
		patch, info, d.File(), d.File(), conflict)}
}
