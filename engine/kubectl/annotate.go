package kubectl

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/manifest"
)

func annotateFlags() []*flagDef { return metadataUpdateFlags("kubectl-annotate") }

// parseAnnotations mirrors kubectl annotate's parseAnnotations.
func parseAnnotations(args []string) (map[string]string, []string, error) {
	var invalid []string
	add := map[string]string{}
	var remove []string
	for _, a := range args {
		switch {
		case strings.Contains(a, "="):
			k, v, _ := strings.Cut(a, "=")
			add[k] = v
		case strings.HasSuffix(a, "-"):
			remove = append(remove, a[:len(a)-1])
		default:
			invalid = append(invalid, a)
		}
	}
	if len(invalid) > 0 {
		return nil, nil, &plainError{"invalid annotation format: " + strings.Join(invalid, ", ")}
	}
	// validateAnnotations
	var both []string
	for _, r := range remove {
		if _, ok := add[r]; ok {
			both = append(both, r)
		}
	}
	if len(both) > 0 {
		return nil, nil, &plainError{"can not both modify and remove the following annotation(s) in the same command: " + strings.Join(both, ", ")}
	}
	return add, remove, nil
}

// runAnnotate mirrors kubectl annotate (pkg/cmd/annotate AnnotateOptions.RunAnnotate).
func runAnnotate(inv *invocation) error {
	f := inv.flags
	resources, pairs, err := getResourcesAndPairs(inv.args, "annotation")
	if err != nil {
		return err
	}
	add, remove, err := parseAnnotations(pairs)
	if err != nil {
		return err
	}
	dry, err := dryRunStrategy(f)
	if err != nil {
		return err
	}
	u, err := inv.metadataTargets(f, resources, len(add)+len(remove), "annotation")
	if err != nil {
		return err
	}
	ts, one, record, cause, rv := u.targets, u.one, u.record, u.cause, u.rv
	c := inv.env.Cluster
	return visitTargets(ts, func(o object) error {
		if f.Bool("list") {
			inv.listMetadataMap(o, one, "annotations", o.meta.Annotations)
			return nil
		}
		if !f.Bool("overwrite") {
			var found []string
			for _, k := range sortedKeys(add) {
				if k == api.ChangeCauseAnnotation {
					continue // the change-cause annotation can always be overwritten
				}
				if v, ok := o.meta.Annotations[k]; ok {
					found = append(found, fmt.Sprintf("'%s' already has a value (%s)", k, v))
				}
			}
			if len(found) > 0 {
				return &plainError{"--overwrite is false but found the following declared annotation(s): " + strings.Join(found, "; ")}
			}
		}
		if rv != "" && rv != o.meta.ResourceVersion {
			return conflictError(o)
		}
		if verr := validateKeys(o, "metadata.annotations", add); verr != nil {
			return verr
		}
		if dry == "" {
			updated := map[string]string{}
			for k, v := range o.meta.Annotations {
				updated[k] = v
			}
			if record {
				updated[api.ChangeCauseAnnotation] = cause
			}
			for k, v := range add {
				updated[k] = v
			}
			for _, r := range remove {
				delete(updated, r)
			}
			if len(updated) == 0 {
				updated = nil
			}
			if manifest.AnnotationsTooLong(updated) { // ValidateAnnotationsSize on update
				return &invalidError{kind: o.rt.kind, name: o.meta.Name, causes: []string{manifest.AnnotationsTooLongCause}}
			}
			o.meta.Annotations = updated
			if err := updateObject(c, o); err != nil {
				return err
			}
			c.Decide(cluster.Decision{Component: cluster.ComponentUser, Func: "RunAnnotate",
				Object: decisionObject(o), Action: "annotate", Reason: inv.line})
		}
		nameOutput(inv, o.rt, o.meta.Name, "annotated"+dryRunSuffix(dry))
		return nil
	})
}
