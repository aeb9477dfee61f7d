package manifest

import (
	"fmt"

	"github.com/dsplayground/dsplay/engine/api"
)

// validatePodAffinities mirrors the pod (anti-)affinity half of core
// validation validateAffinity (validatePodAffinity, validatePodAntiAffinity;
// k8s.io/kubernetes/pkg/apis/core/validation/validation.go): required
// terms, then preferred terms (weight 1-100 and the term). path is
// "...spec.affinity".
func (l *errList) validatePodAffinities(a *api.Affinity, path string) {
	if a == nil {
		return
	}
	if pa := a.PodAffinity; pa != nil {
		p := join(path, "podAffinity")
		l.validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, join(p, "requiredDuringSchedulingIgnoredDuringExecution"))
		l.validateWeightedPodAffinityTerms(pa.PreferredDuringSchedulingIgnoredDuringExecution, join(p, "preferredDuringSchedulingIgnoredDuringExecution"))
	}
	if pa := a.PodAntiAffinity; pa != nil {
		p := join(path, "podAntiAffinity")
		l.validatePodAffinityTerms(pa.RequiredDuringSchedulingIgnoredDuringExecution, join(p, "requiredDuringSchedulingIgnoredDuringExecution"))
		l.validateWeightedPodAffinityTerms(pa.PreferredDuringSchedulingIgnoredDuringExecution, join(p, "preferredDuringSchedulingIgnoredDuringExecution"))
	}
}

func (l *errList) validatePodAffinityTerms(ts []api.PodAffinityTerm, path string) {
	for i := range ts {
		l.validatePodAffinityTerm(&ts[i], index(path, i))
	}
}

// validateWeightedPodAffinityTerms mirrors the upstream function.
func (l *errList) validateWeightedPodAffinityTerms(ts []api.WeightedPodAffinityTerm, path string) {
	for i := range ts {
		ip := index(path, i)
		if w := ts[i].Weight; w <= 0 || w > 100 {
			l.invalid(join(ip, "weight"), w, "must be in the range 1-100")
		}
		l.validatePodAffinityTerm(&ts[i].PodAffinityTerm, join(ip, "podAffinityTerm"))
	}
}

// validatePodAffinityTerm mirrors the upstream function, in its order:
// labelSelector and namespaceSelector (ValidatePodAffinityTermSelector),
// each namespace name (reported at the path "namespace", as upstream
// names it), matchLabelKeys / mismatchLabelKeys, a non-empty topologyKey
// that is a qualified name.
func (l *errList) validatePodAffinityTerm(t *api.PodAffinityTerm, path string) {
	l.validateLabelSelector(t.LabelSelector, join(path, "labelSelector"))
	l.validateLabelSelector(t.NamespaceSelector, join(path, "namespaceSelector"))
	for _, ns := range t.Namespaces {
		for _, msg := range api.IsDNS1123Label(ns) {
			l.invalid(join(path, "namespace"), ns, msg)
		}
	}
	l.validateMatchLabelKeysAndMismatchLabelKeys(path, t.MatchLabelKeys, t.MismatchLabelKeys, t.LabelSelector)
	if t.TopologyKey == "" {
		l.required(join(path, "topologyKey"), "can not be empty")
	}
	for _, msg := range api.IsQualifiedName(t.TopologyKey) {
		l.invalid(join(path, "topologyKey"), t.TopologyKey, msg)
	}
}

// validateMatchLabelKeysAndMismatchLabelKeys mirrors the upstream
// function: the keys are label names and need a labelSelector; a
// matchLabelKeys key the selector's matchExpressions use as well (after
// matchLabels or another expression with it) is refused; no key is in
// both lists. (Upstream checks the selector after the API server merged
// the keys into it; the playground keeps the pod as written and checks
// what the user wrote.)
func (l *errList) validateMatchLabelKeysAndMismatchLabelKeys(path string, match, mismatch []string, sel *api.LabelSelector) {
	l.validateLabelKeys(join(path, "matchLabelKeys"), match, sel)
	l.validateLabelKeys(join(path, "mismatchLabelKeys"), mismatch, sel)
	if sel != nil {
		idx := map[string]int{}
		for i, k := range match {
			idx[k] = i
		}
		seen := map[string]bool{}
		for k := range sel.MatchLabels {
			seen[k] = true
		}
		for _, e := range sel.MatchExpressions {
			if i, ok := idx[e.Key]; ok && seen[e.Key] {
				l.invalid(index(path, i), e.Key, "exists in both matchLabelKeys and labelSelector")
			}
			seen[e.Key] = true
		}
	}
	in := map[string]bool{}
	for _, k := range mismatch {
		in[k] = true
	}
	for i, k := range match {
		if in[k] {
			l.invalid(index(join(path, "matchLabelKeys"), i), k, "exists in both matchLabelKeys and mismatchLabelKeys")
		}
	}
}

// validateLabelKeys mirrors the upstream function.
func (l *errList) validateLabelKeys(path string, keys []string, sel *api.LabelSelector) {
	if len(keys) == 0 {
		return
	}
	if sel == nil {
		l.forbidden(path, "must not be specified when labelSelector is not set")
		return
	}
	for i, k := range keys {
		for _, msg := range api.IsQualifiedName(k) {
			l.invalid(index(path, i), k, msg)
		}
	}
}

// validateTopologySpreadConstraints mirrors the upstream function, per
// constraint in its order: maxSkew > 0 (ValidateMaxSkew), a topologyKey
// (ValidateTopologyKey), whenUnsatisfiable DoNotSchedule or ScheduleAnyway,
// no later constraint with the same {topologyKey, whenUnsatisfiable}
// (ValidateSpreadConstraintNotRepeat), minDomains > 0 and only with
// DoNotSchedule, nodeAffinityPolicy / nodeTaintsPolicy Honor or Ignore,
// matchLabelKeys (validateMatchLabelKeysInTopologySpread), labelSelector.
func (l *errList) validateTopologySpreadConstraints(cs []api.TopologySpreadConstraint, path string) {
	for i := range cs {
		c := &cs[i]
		ip := index(path, i)
		if c.MaxSkew <= 0 {
			l.invalid(join(ip, "maxSkew"), c.MaxSkew, "must be greater than zero")
		}
		if c.TopologyKey == "" {
			l.required(join(ip, "topologyKey"), "can not be empty")
		}
		if c.WhenUnsatisfiable != api.DoNotSchedule && c.WhenUnsatisfiable != api.ScheduleAnyway {
			l.notSupported(join(ip, "whenUnsatisfiable"), c.WhenUnsatisfiable, api.DoNotSchedule, api.ScheduleAnyway)
		}
		for _, o := range cs[i+1:] {
			if o.TopologyKey == c.TopologyKey && o.WhenUnsatisfiable == c.WhenUnsatisfiable {
				l.duplicate(join(ip, "{topologyKey, whenUnsatisfiable}"), fmt.Sprintf("{%s, %s}", c.TopologyKey, c.WhenUnsatisfiable), "")
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				l.invalid(join(ip, "minDomains"), *c.MinDomains, "must be greater than zero")
			}
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				l.invalid(join(ip, "minDomains"), *c.MinDomains, fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", api.DoNotSchedule, c.WhenUnsatisfiable))
			}
		}
		for _, f := range []struct {
			name string
			v    *string
		}{{"nodeAffinityPolicy", c.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy}} {
			if f.v != nil && *f.v != api.NodeInclusionPolicyHonor && *f.v != api.NodeInclusionPolicyIgnore {
				l.notSupported(join(ip, f.name), *f.v, api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore)
			}
		}
		if len(c.MatchLabelKeys) > 0 {
			mp := join(ip, "matchLabelKeys")
			keys := map[string]bool{}
			if c.LabelSelector != nil {
				for k := range c.LabelSelector.MatchLabels {
					keys[k] = true
				}
				for _, e := range c.LabelSelector.MatchExpressions {
					keys[e.Key] = true
				}
			} else {
				l.forbidden(mp, "must not be specified when labelSelector is not set")
			}
			for j, k := range c.MatchLabelKeys {
				for _, msg := range api.IsQualifiedName(k) {
					l.invalid(index(mp, j), k, msg)
				}
				if keys[k] {
					l.invalid(index(mp, j), k, "exists in both matchLabelKeys and labelSelector")
				}
			}
		}
		l.validateLabelSelector(c.LabelSelector, join(ip, "labelSelector"))
	}
}
