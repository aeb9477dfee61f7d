package kubectl

import (
	"fmt"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// fieldRequirement is one term of a field selector: field, "=", "==" or "!=", value.
type fieldRequirement struct{ field, op, value string }

type fieldSelector []fieldRequirement

// parseFieldSelector mirrors fields.ParseSelector for the simple forms
// "a=b,c!=d" (no escaping).
func parseFieldSelector(s string) (fieldSelector, error) {
	var out fieldSelector
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	for _, part := range strings.Split(s, ",") {
		var r fieldRequirement
		switch {
		case strings.Contains(part, "!="):
			r.field, r.value, _ = strings.Cut(part, "!=")
			r.op = "!="
		case strings.Contains(part, "=="):
			r.field, r.value, _ = strings.Cut(part, "==")
			r.op = "=="
		case strings.Contains(part, "="):
			r.field, r.value, _ = strings.Cut(part, "=")
			r.op = "="
		default:
			return nil, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, part)
		}
		r.field = strings.TrimSpace(r.field)
		r.value = strings.TrimSpace(r.value)
		out = append(out, r)
	}
	return out, nil
}

// fieldValue returns the value of a selectable field of an object (the
// fields each type's registry strategy exposes); ok is false when the
// field is not supported, as the API server's "field label not supported".
func fieldValue(o object, field string) (string, bool) {
	switch field {
	case "metadata.name":
		return o.meta.Name, true
	case "metadata.namespace":
		if o.rt.namespaced {
			return o.meta.Namespace, true
		}
	}
	switch x := o.obj.(type) {
	case *api.Pod:
		switch field {
		case "spec.nodeName":
			return x.Spec.NodeName, true
		case "spec.restartPolicy":
			return x.Spec.RestartPolicy, true
		case "spec.schedulerName":
			return x.Spec.SchedulerName, true
		case "spec.serviceAccountName":
			return x.Spec.ServiceAccountName, true
		case "status.phase":
			return x.Status.Phase, true
		case "status.podIP":
			return x.Status.PodIP, true
		case "status.nominatedNodeName":
			return x.Status.NominatedNodeName, true
		}
	case *api.Node:
		if field == "spec.unschedulable" {
			return fmt.Sprint(x.Spec.Unschedulable), true
		}
	case *api.Event:
		switch field {
		case "involvedObject.kind":
			return x.InvolvedObject.Kind, true
		case "involvedObject.namespace":
			return x.InvolvedObject.Namespace, true
		case "involvedObject.name":
			return x.InvolvedObject.Name, true
		case "involvedObject.uid":
			return x.InvolvedObject.UID, true
		case "involvedObject.apiVersion":
			return x.InvolvedObject.APIVersion, true
		case "involvedObject.fieldPath":
			return x.InvolvedObject.FieldPath, true
		case "reason":
			return x.Reason, true
		case "source":
			return x.Source.Component, true
		case "type":
			return x.Type, true
		}
	}
	return "", false
}

// matches reports whether o satisfies every term; an unsupported field is
// the API server's `field label not supported: <field>` error.
func (s fieldSelector) matches(o object) (bool, error) {
	for _, r := range s {
		v, ok := fieldValue(o, r.field)
		if !ok {
			return false, fmt.Errorf("field label not supported: %s", r.field)
		}
		if (r.op == "!=") == (v == r.value) {
			return false, nil
		}
	}
	return true, nil
}
