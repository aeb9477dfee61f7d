package manifest

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// fieldErr mirrors apimachinery's field.Error: a path and the body printed
// after it (`Invalid value: "x": detail`, `Required value`, ...). pos, when
// set, is a finer path used only to find the YAML node.
type fieldErr struct {
	path, body, pos string
	// hint, when set, replaces validationHint's for this error.
	hint string
}

type errList []fieldErr

func renderValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case nil:
		return "null"
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case *api.IntOrString:
		if x == nil {
			return "null"
		}
		if x.IsString {
			return strconv.Quote(x.StrVal)
		}
		return strconv.Itoa(int(x.IntVal))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

func (l *errList) invalid(path string, v any, detail string) {
	*l = append(*l, fieldErr{path: path, body: "Invalid value: " + renderValue(v) + ": " + detail})
}

func (l *errList) required(path, detail string) {
	b := "Required value"
	if detail != "" {
		b += ": " + detail
	}
	*l = append(*l, fieldErr{path: path, body: b})
}

func (l *errList) notSupported(path string, v any, valid ...string) {
	q := make([]string, len(valid))
	for i, s := range valid {
		q[i] = strconv.Quote(s)
	}
	*l = append(*l, fieldErr{path: path, body: "Unsupported value: " + renderValue(v) + ": supported values: " + strings.Join(q, ", ")})
}

func (l *errList) forbidden(path, detail string) {
	*l = append(*l, fieldErr{path: path, body: "Forbidden: " + detail})
}

func (l *errList) duplicate(path string, v any, detail string) {
	b := "Duplicate value: " + renderValue(v)
	if detail != "" {
		b += ": " + detail
	}
	*l = append(*l, fieldErr{path: path, body: b})
}

func (l *errList) notFound(path string, v any) {
	*l = append(*l, fieldErr{path: path, body: "Not found: " + renderValue(v)})
}

// withHint sets the learner's hint of the last error.
func (l *errList) withHint(h string) {
	if len(*l) > 0 {
		(*l)[len(*l)-1].hint = h
	}
}

// at sets the position path of the last error.
func (l *errList) at(pos string) {
	if len(*l) > 0 {
		(*l)[len(*l)-1].pos = pos
	}
}

var percentRE = regexp.MustCompile(`^[0-9]+%$`)

// validateLabels mirrors unversioned ValidateLabels.
func (l *errList) validateLabels(m map[string]string, path string) {
	l.validateLabelsAt(m, path, path)
}

// validateLabelsAt is validateLabels for a map written at posPath in the
// manifest while the API server names it path: a pod template's labels are
// reported as spec.template.labels (ValidatePodTemplateSpec uses
// fldPath.Child("labels")) but are written under spec.template.metadata.labels.
func (l *errList) validateLabelsAt(m map[string]string, path, posPath string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		for _, msg := range api.IsQualifiedName(k) {
			l.invalid(path, k, msg)
			l.at(join(posPath, k) + "#key")
		}
		for _, msg := range api.IsValidLabelValue(m[k]) {
			l.invalid(path, m[k], msg)
			l.at(join(posPath, k))
		}
	}
}

// validateAnnotations mirrors ValidateAnnotations (keys only; the size limit is not simulated).
func (l *errList) validateAnnotations(m map[string]string, path string) {
	l.validateAnnotationsAt(m, path, path)
}

// validateAnnotationsAt is validateAnnotations with the manifest position
// taken under posPath (see validateLabelsAt).
func (l *errList) validateAnnotationsAt(m map[string]string, path, posPath string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		for _, msg := range api.IsQualifiedName(strings.ToLower(k)) {
			l.invalid(path, k, msg)
			l.at(join(posPath, k) + "#key")
		}
	}
}

// validateObjectMeta mirrors ValidateObjectMeta with a DNS-1123 subdomain name.
func (l *errList) validateObjectMeta(m *api.ObjectMeta, namespaced bool, path string) {
	if m.GenerateName != "" {
		for _, msg := range api.IsDNS1123Subdomain(strings.TrimSuffix(m.GenerateName, "-")) {
			l.invalid(join(path, "generateName"), m.GenerateName, msg)
		}
	}
	if m.Name == "" {
		l.required(join(path, "name"), "name or generateName is required")
	} else {
		for _, msg := range api.IsDNS1123Subdomain(m.Name) {
			l.invalid(join(path, "name"), m.Name, msg)
		}
	}
	if namespaced {
		if m.Namespace == "" {
			l.required(join(path, "namespace"), "")
		} else {
			for _, msg := range api.IsDNS1123Label(m.Namespace) {
				l.invalid(join(path, "namespace"), m.Namespace, msg)
			}
		}
	} else if m.Namespace != "" {
		l.forbidden(join(path, "namespace"), "not allowed on this type")
	}
	l.validateLabels(m.Labels, join(path, "labels"))
	l.validateAnnotations(m.Annotations, join(path, "annotations"))
}

// ---- label selectors (metav1 validation ValidateLabelSelector) ----

func (l *errList) validateLabelSelector(s *api.LabelSelector, path string) {
	if s == nil {
		return
	}
	for i, r := range s.MatchExpressions {
		ip := index(join(path, "matchExpressions"), i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				l.required(join(ip, "values"), "must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				l.forbidden(join(ip, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		default:
			l.invalid(join(ip, "operator"), r.Operator, "not a valid selector operator")
		}
		for _, msg := range api.IsQualifiedName(r.Key) {
			l.invalid(join(ip, "key"), r.Key, msg)
		}
		for j, v := range r.Values {
			for _, msg := range api.IsValidLabelValue(v) {
				l.invalid(index(join(ip, "values"), j), v, msg)
			}
		}
	}
	l.validateLabels(s.MatchLabels, join(path, "matchLabels"))
}

// ---- pod spec (core validation ValidatePodSpec, the simulated subset) ----

func (l *errList) validatePodSpec(s *api.PodSpec, path string) {
	vols := map[string]bool{}
	for i, v := range s.Volumes {
		ip := index(join(path, "volumes"), i)
		if v.Name == "" {
			l.required(join(ip, "name"), "")
		} else {
			for _, msg := range api.IsDNS1123Label(v.Name) {
				l.invalid(join(ip, "name"), v.Name, msg)
			}
			if vols[v.Name] {
				l.duplicate(join(ip, "name"), v.Name, "")
			}
			vols[v.Name] = true
		}
		if len(v.Source) == 0 {
			l.required(ip, "must specify a volume type")
		} else if len(v.Source) > 1 {
			l.forbidden(join(ip, slices.Sorted(maps.Keys(v.Source))[1]), "may not specify more than 1 volume type")
		}
	}
	if len(s.Containers) == 0 {
		l.required(join(path, "containers"), "")
	}
	names := map[string]bool{}
	for _, group := range []struct {
		name string
		cs   []api.Container
	}{{"containers", s.Containers}, {"initContainers", s.InitContainers}} {
		for i := range group.cs {
			l.validateContainer(&group.cs[i], index(join(path, group.name), i), vols, names)
		}
	}
	switch s.RestartPolicy {
	case "Always", "OnFailure", "Never":
	case "":
		l.required(join(path, "restartPolicy"), "")
	default:
		l.notSupported(join(path, "restartPolicy"), s.RestartPolicy, "Always", "OnFailure", "Never")
	}
	switch s.DNSPolicy {
	case "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None":
	default:
		l.notSupported(join(path, "dnsPolicy"), s.DNSPolicy, "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
	}
	l.validateLabels(s.NodeSelector, join(path, "nodeSelector"))
	if s.ActiveDeadlineSeconds != nil {
		if v := *s.ActiveDeadlineSeconds; v < 1 || v > 2147483647 {
			l.invalid(join(path, "activeDeadlineSeconds"), v, "must be between 1 and 2147483647, inclusive")
		}
	}
	if s.NodeName != "" {
		for _, msg := range api.IsDNS1123Subdomain(s.NodeName) {
			l.invalid(join(path, "nodeName"), s.NodeName, msg)
		}
	}
	if s.Affinity != nil && s.Affinity.NodeAffinity != nil {
		l.validateNodeAffinity(s.Affinity.NodeAffinity, join(join(path, "affinity"), "nodeAffinity"))
	}
	l.validateTolerations(s.Tolerations, join(path, "tolerations"))
}

func (l *errList) validateContainer(c *api.Container, path string, vols, names map[string]bool) {
	if c.Name == "" {
		l.required(join(path, "name"), "")
	} else {
		for _, msg := range api.IsDNS1123Label(c.Name) {
			l.invalid(join(path, "name"), c.Name, msg)
		}
		if names[c.Name] {
			l.duplicate(join(path, "name"), c.Name, "")
		}
		names[c.Name] = true
	}
	if strings.TrimSpace(c.Image) == "" {
		l.required(join(path, "image"), "")
	}
	switch c.ImagePullPolicy {
	case "Always", "IfNotPresent", "Never":
	case "":
		l.required(join(path, "imagePullPolicy"), "")
	default:
		l.notSupported(join(path, "imagePullPolicy"), c.ImagePullPolicy, "Always", "IfNotPresent", "Never")
	}
	for i, p := range c.Ports {
		ip := index(join(path, "ports"), i)
		if p.ContainerPort == 0 {
			l.required(join(ip, "containerPort"), "")
		} else if p.ContainerPort < 1 || p.ContainerPort > 65535 {
			l.invalid(join(ip, "containerPort"), p.ContainerPort, "must be between 1 and 65535, inclusive")
		}
		if p.HostPort != 0 && (p.HostPort < 1 || p.HostPort > 65535) {
			l.invalid(join(ip, "hostPort"), p.HostPort, "must be between 1 and 65535, inclusive")
		}
		switch p.Protocol {
		case "TCP", "UDP", "SCTP":
		default:
			l.notSupported(join(ip, "protocol"), p.Protocol, "SCTP", "TCP", "UDP")
		}
	}
	for i, e := range c.Env {
		if e.Name == "" {
			l.required(join(index(join(path, "env"), i), "name"), "")
		}
	}
	for i, m := range c.VolumeMounts {
		ip := index(join(path, "volumeMounts"), i)
		if m.Name == "" {
			l.required(join(ip, "name"), "")
		} else if !vols[m.Name] {
			l.notFound(join(ip, "name"), m.Name)
		}
		if m.MountPath == "" {
			l.required(join(ip, "mountPath"), "")
		}
	}
	rp := join(path, "resources")
	for _, kind := range []string{"limits", "requests"} {
		rl := c.Resources.Limits
		if kind == "requests" {
			rl = c.Resources.Requests
		}
		for _, name := range slices.Sorted(maps.Keys(rl)) {
			if rl[name].Milli < 0 {
				l.invalid(join(join(rp, kind), name), rl[name].String(), "must be greater than or equal to 0")
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Resources.Requests)) {
		req := c.Resources.Requests[name]
		if lim, ok := c.Resources.Limits[name]; ok && req.Milli > lim.Milli {
			l.invalid(join(join(rp, "requests"), name), req.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, lim.String()))
		}
	}
}

// validateNodeAffinity mirrors validateNodeAffinity / ValidateNodeSelector.
func (l *errList) validateNodeAffinity(na *api.NodeAffinity, path string) {
	if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		rp := join(path, "requiredDuringSchedulingIgnoredDuringExecution")
		if len(r.NodeSelectorTerms) == 0 {
			l.required(join(rp, "nodeSelectorTerms"), "must have at least one node selector term")
		}
		for i, t := range r.NodeSelectorTerms {
			l.validateNodeSelectorTerm(t, index(join(rp, "nodeSelectorTerms"), i))
		}
	}
	for i, p := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		ip := index(join(path, "preferredDuringSchedulingIgnoredDuringExecution"), i)
		if p.Weight < 1 || p.Weight > 100 {
			l.invalid(join(ip, "weight"), p.Weight, "must be in the range 1-100")
		}
		l.validateNodeSelectorTerm(p.Preference, join(ip, "preference"))
	}
}

func (l *errList) validateNodeSelectorTerm(t api.NodeSelectorTerm, path string) {
	for i, r := range t.MatchExpressions {
		ip := index(join(path, "matchExpressions"), i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				l.required(join(ip, "values"), "must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				l.forbidden(join(ip, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		case "Gt", "Lt":
			if len(r.Values) != 1 {
				l.required(join(ip, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'")
			}
		default:
			l.invalid(join(ip, "operator"), r.Operator, "not a valid selector operator")
		}
		for _, msg := range api.IsQualifiedName(r.Key) {
			l.invalid(join(ip, "key"), r.Key, msg)
		}
	}
	for i, r := range t.MatchFields {
		ip := index(join(path, "matchFields"), i)
		if r.Key != "metadata.name" {
			l.invalid(join(ip, "key"), r.Key, "not a valid field selector key")
		}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) != 1 {
				l.required(join(ip, "values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector")
			}
		default:
			l.invalid(join(ip, "operator"), r.Operator, "not a valid selector operator")
		}
	}
}

// validateTolerations mirrors core validation ValidateTolerations.
func (l *errList) validateTolerations(ts []api.Toleration, path string) {
	for i, t := range ts {
		ip := index(path, i)
		if t.Key != "" {
			for _, msg := range api.IsQualifiedName(t.Key) {
				l.invalid(join(ip, "key"), t.Key, msg)
			}
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			l.invalid(join(ip, "operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\"")
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			l.invalid(join(ip, "effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set")
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if errs := api.IsValidLabelValue(t.Value); len(errs) > 0 {
				l.invalid(join(ip, "operator"), t.Value, strings.Join(errs, ";"))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				l.invalid(join(ip, "operator"), t, "value must be empty when `operator` is 'Exists'")
			}
		default:
			l.notSupported(join(ip, "operator"), t.Operator, api.TolerationOpEqual, api.TolerationOpExists)
		}
		if t.Effect != "" {
			l.validateTaintEffect(t.Effect, join(ip, "effect"))
		}
	}
}

func (l *errList) validateTaintEffect(effect, path string) {
	switch effect {
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
	default:
		l.notSupported(path, effect, api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute)
	}
}

// ---- objects ----

// missingSelectorHint is the hint for a DaemonSet without spec.selector
// (an extensions/v1beta1 manifest defaulted it from the template labels;
// apps/v1 requires it).
const missingSelectorHint = "spec.selector is missing (apps/v1 requires it): add spec.selector.matchLabels with the same labels as spec.template.metadata.labels"

// validateDaemonSet mirrors apps validation ValidateDaemonSet (object meta,
// then ValidateDaemonSetSpec) and returns the field errors as kubectl would
// print them after `The DaemonSet "x" is invalid: `.
func validateDaemonSet(ds *api.DaemonSet) errList {
	var l errList
	l.validateObjectMeta(&ds.ObjectMeta, true, "metadata")
	spec := &ds.Spec
	l.validateLabelSelector(spec.Selector, "spec.selector")
	// upstream skips the match check when the selector does not convert
	if sel, err := api.LabelSelectorAsSelector(spec.Selector); err == nil && !sel.Matches(spec.Template.Labels) {
		labels := spec.Template.Labels
		if labels == nil {
			labels = map[string]string{}
		}
		l.invalid("spec.template.metadata.labels", labels, "`selector` does not match template `labels`")
		if spec.Selector == nil {
			// ValidateDaemonSetSpec has no Required error for a missing
			// selector: a nil selector matches nothing, so this mismatch
			// is all the API server reports.
			l.withHint(missingSelectorHint)
		}
	}
	if api.IsEmptyLabelSelector(spec.Selector) {
		l.invalid("spec.selector", map[string]any{}, "empty selector is invalid for daemonset")
	}
	// ValidatePodTemplateSpec: labels and annotations (under spec.template), then the pod spec
	l.validateLabelsAt(spec.Template.Labels, "spec.template.labels", "spec.template.metadata.labels")
	l.validateAnnotationsAt(spec.Template.Annotations, "spec.template.annotations", "spec.template.metadata.annotations")
	l.validatePodSpec(&spec.Template.Spec, "spec.template.spec")
	if rp := spec.Template.Spec.RestartPolicy; rp != "Always" {
		l.notSupported("spec.template.spec.restartPolicy", rp, "Always")
	}
	if spec.Template.Spec.ActiveDeadlineSeconds != nil {
		l.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in DaemonSet is not Supported")
	}
	if spec.MinReadySeconds < 0 {
		l.invalid("spec.minReadySeconds", spec.MinReadySeconds, "must be greater than or equal to 0")
	}
	l.validateUpdateStrategy(&spec.UpdateStrategy, "spec.updateStrategy")
	if spec.RevisionHistoryLimit != nil && *spec.RevisionHistoryLimit < 0 {
		l.invalid("spec.revisionHistoryLimit", *spec.RevisionHistoryLimit, "must be greater than or equal to 0")
	}
	return l
}

// validateUpdateStrategy mirrors ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet.
func (l *errList) validateUpdateStrategy(s *api.DaemonSetUpdateStrategy, path string) {
	switch s.Type {
	case api.OnDeleteDaemonSetStrategyType:
		return
	case api.RollingUpdateDaemonSetStrategyType:
	default:
		// field.NotSupported renders the whole (internal, untagged) strategy struct.
		type ru struct{ MaxUnavailable, MaxSurge any }
		v := struct {
			Type          string
			RollingUpdate *ru
		}{Type: s.Type}
		if s.RollingUpdate != nil {
			v.RollingUpdate = &ru{intOrStringJSON(s.RollingUpdate.MaxUnavailable), intOrStringJSON(s.RollingUpdate.MaxSurge)}
		}
		l.notSupported(path, v, api.RollingUpdateDaemonSetStrategyType, api.OnDeleteDaemonSetStrategyType)
		return
	}
	ru := s.RollingUpdate
	rp := join(path, "rollingUpdate")
	if ru == nil {
		l.required(rp, "")
		return
	}
	mu, ms := join(rp, "maxUnavailable"), join(rp, "maxSurge")
	l.validatePositiveIntOrPercent(ru.MaxUnavailable, mu)
	l.validatePositiveIntOrPercent(ru.MaxSurge, ms)
	l.notMoreThan100Percent(ru.MaxUnavailable, mu)
	l.notMoreThan100Percent(ru.MaxSurge, ms)
	hasUnavailable := intOrPercentValue(ru.MaxUnavailable) != 0
	hasSurge := intOrPercentValue(ru.MaxSurge) != 0
	switch {
	case hasUnavailable && hasSurge:
		l.invalid(ms, ru.MaxSurge, "may not be set when maxUnavailable is non-zero")
	case !hasUnavailable && !hasSurge:
		l.required(mu, "cannot be 0 when maxSurge is 0")
	}
}

func intOrStringJSON(v *api.IntOrString) any {
	if v == nil {
		return nil
	}
	if v.IsString {
		return v.StrVal
	}
	return v.IntVal
}

func (l *errList) validatePositiveIntOrPercent(v *api.IntOrString, path string) {
	if v == nil {
		return
	}
	if v.IsString {
		if !percentRE.MatchString(v.StrVal) {
			l.invalid(path, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")
		}
		return
	}
	if v.IntVal < 0 {
		l.invalid(path, v, "must be greater than or equal to 0")
	}
}

func percentValue(v *api.IntOrString) (int, bool) {
	if v == nil || !v.IsString || !percentRE.MatchString(v.StrVal) {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	if err != nil {
		return 0, false
	}
	return n, true
}

func (l *errList) notMoreThan100Percent(v *api.IntOrString, path string) {
	if p, ok := percentValue(v); ok && p > 100 {
		l.invalid(path, v, "must not be greater than 100%")
	}
}

// intOrPercentValue mirrors getIntOrPercentValue: a percent's number, an
// int, or 0 for anything else.
func intOrPercentValue(v *api.IntOrString) int {
	if v == nil {
		return 0
	}
	if p, ok := percentValue(v); ok {
		return p
	}
	if v.IsString {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// validatePod mirrors ValidatePodCreate (the simulated subset).
func validatePod(p *api.Pod) errList {
	var l errList
	l.validateObjectMeta(&p.ObjectMeta, true, "metadata")
	l.validatePodSpec(&p.Spec, "spec")
	return l
}

// validateNode mirrors ValidateNode: name, labels, taints (validateNodeTaints).
func validateNode(n *api.Node) errList {
	var l errList
	l.validateObjectMeta(&n.ObjectMeta, false, "metadata")
	type ke struct{ key, effect string }
	seen := map[ke]bool{}
	for i, t := range n.Spec.Taints {
		ip := index("spec.taints", i)
		for _, msg := range api.IsQualifiedName(t.Key) {
			l.invalid(join(ip, "key"), t.Key, msg)
		}
		if errs := api.IsValidLabelValue(t.Value); len(errs) > 0 {
			l.invalid(join(ip, "value"), t.Value, strings.Join(errs, ";"))
		}
		if t.Effect == "" {
			l.required(join(ip, "effect"), "")
		} else {
			l.validateTaintEffect(t.Effect, join(ip, "effect"))
		}
		if seen[ke{t.Key, t.Effect}] {
			l.duplicate(ip, t, "taints must be unique by key and effect pair")
			continue
		}
		seen[ke{t.Key, t.Effect}] = true
	}
	return l
}

// validateNamespace mirrors ValidateNamespace: the name is a DNS-1123
// label (ValidateNamespaceName), labels and annotations as everywhere.
func validateNamespace(ns *api.Namespace) errList {
	var l errList
	if ns.Name == "" {
		l.required("metadata.name", "name or generateName is required")
	} else {
		for _, msg := range api.IsDNS1123Label(ns.Name) {
			l.invalid("metadata.name", ns.Name, msg)
		}
	}
	l.validateLabels(ns.Labels, "metadata.labels")
	l.validateAnnotations(ns.Annotations, "metadata.annotations")
	return l
}

// validate runs the kind's validation on a decoded, defaulted document and
// returns its diagnostics (empty when valid).
func (doc *Document) validate() []Diagnostic {
	var l errList
	var kind, name string
	switch o := doc.Object.(type) {
	case *api.DaemonSet:
		l, kind, name = validateDaemonSet(o), "DaemonSet", o.Name
	case *api.Pod:
		l, kind, name = validatePod(o), "Pod", o.Name
	case *api.Node:
		l, kind, name = validateNode(o), "Node", o.Name
	case *api.Namespace:
		l, kind, name = validateNamespace(o), "Namespace", o.Name
	default:
		return nil
	}
	return doc.diagnostics(l, kind, name)
}

// diagnostics turns field errors into an Invalid group with positions.
func (doc *Document) diagnostics(l errList, kind, name string) []Diagnostic {
	if len(l) == 0 {
		return nil
	}
	group := fmt.Sprintf("The %s %q is invalid", kind, name)
	out := make([]Diagnostic, 0, len(l))
	for _, e := range l {
		p := e.pos
		if p == "" {
			p = e.path
		}
		pos := doc.position(p)
		hint := e.hint
		if hint == "" {
			hint = validationHint(e)
		}
		out = append(out, Diagnostic{File: doc.file, Line: pos.line, Column: pos.col, Field: e.path,
			Message: e.body, Hint: hint, group: group})
	}
	return out
}

// position finds the node of path or of its nearest recorded parent.
func (doc *Document) position(path string) position {
	if pos, ok := doc.pos[path]; ok {
		return pos
	}
	path = strings.TrimSuffix(path, "#key")
	for p := path; ; {
		if pos, ok := doc.pos[p]; ok {
			return pos
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	if pos, ok := doc.pos[""]; ok {
		return pos
	}
	return position{doc.Line, 1}
}

func validationHint(e fieldErr) string {
	switch {
	case strings.Contains(e.body, "`selector` does not match template `labels`"):
		return "every label in spec.selector.matchLabels must appear, with the same value, in spec.template.metadata.labels"
	case e.path == "spec.selector" && strings.Contains(e.body, "empty selector"):
		return "give spec.selector.matchLabels the labels of the pod template"
	case strings.HasSuffix(e.path, "containers") && strings.HasPrefix(e.body, "Required value"):
		return "a pod needs at least one container: `containers:` then `- name: ...` and `image: ...`"
	case e.path == "metadata.name" && (strings.Contains(e.body, "RFC 1123 label") || strings.Contains(e.body, "must not contain dots")):
		return "a namespace name uses lower-case letters, digits and '-' only, and starts and ends with a letter or digit (no '.')"
	case strings.HasSuffix(e.path, "metadata.name") && strings.Contains(e.body, "RFC 1123"):
		return "names use lower-case letters, digits, '-' and '.', and start and end with a letter or digit"
	case strings.HasSuffix(e.path, ".name") && (strings.Contains(e.body, "RFC 1123 label") || strings.Contains(e.body, "must not contain dots")):
		return "use lower-case letters, digits and '-' only (e.g. config-path)"
	}
	return ""
}
