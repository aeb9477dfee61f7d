package api

import (
	"fmt"
	"strconv"
)

// Toleration operators Lt and Gt compare integer values (feature gate
// TaintTolerationComparisonOperators).
const (
	TolerationOpLt = "Lt"
	TolerationOpGt = "Gt"
)

// TaintTolerationComparisonOperators mirrors the feature gate of that name
// (upstream pkg/features/kube_features.go; used by
// k8s.io/api/core/v1 toleration.go Toleration.ToleratesTaint). Its default
// was not verified, so it is treated as off: Lt/Gt tolerations then never
// match, in the DaemonSet controller's taint check
// (pkg/controller/daemon/daemon_controller.go predicates) as in the
// scheduler's TaintToleration filter.
var TaintTolerationComparisonOperators = false

// ToString renders the taint as upstream Taint.ToString: "key=value:Effect",
// or "key:Effect" when the value is empty.
func (t *Taint) ToString() string {
	if t.Value == "" {
		return fmt.Sprintf("%v:%v", t.Key, t.Effect)
	}
	return fmt.Sprintf("%v=%v:%v", t.Key, t.Value, t.Effect)
}

// MatchTaint reports whether two taints have the same key and effect
// (core/v1 Taint.MatchTaint): a node holds at most one such taint.
func (t *Taint) MatchTaint(o *Taint) bool { return t.Key == o.Key && t.Effect == o.Effect }

// ToleratesTaint mirrors core/v1 Toleration.ToleratesTaint: the effect is
// empty or equal, the key is empty or equal, and the operator Equal (or
// empty) needs equal values, Exists any value, Lt/Gt integer values with
// taint < / > toleration when TaintTolerationComparisonOperators is on.
// tolerationSeconds plays no part.
func (t *Toleration) ToleratesTaint(taint *Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", TolerationOpEqual:
		return t.Value == taint.Value
	case TolerationOpExists:
		return true
	case TolerationOpLt, TolerationOpGt:
		if !TaintTolerationComparisonOperators {
			return false
		}
		tv, err1 := strconv.ParseInt(taint.Value, 10, 64)
		ov, err2 := strconv.ParseInt(t.Value, 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if t.Operator == TolerationOpLt {
			return tv < ov
		}
		return tv > ov
	}
	return false
}

// MatchToleration mirrors core/v1 Toleration.MatchToleration: same key,
// effect, operator and value (tolerationSeconds is not compared).
func (t *Toleration) MatchToleration(o *Toleration) bool {
	return t.Key == o.Key && t.Effect == o.Effect && t.Operator == o.Operator && t.Value == o.Value
}

// String renders a toleration as kubectl describe does:
// key[=value][:effect][ op=Exists][ for Ns]. An empty key with Exists
// renders as "op=Exists".
func (t *Toleration) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	if t.Effect != "" {
		s += ":" + t.Effect
	}
	if t.Operator == TolerationOpExists {
		if s != "" {
			s += " "
		}
		s += "op=Exists"
	} else if t.Operator == TolerationOpLt || t.Operator == TolerationOpGt {
		s += " op=" + t.Operator
	}
	if t.TolerationSeconds != nil {
		s += fmt.Sprintf(" for %ds", *t.TolerationSeconds)
	}
	return s
}

// TolerationsTolerateTaint reports whether any toleration tolerates the
// taint (component-helpers TolerationsTolerateTaint).
func TolerationsTolerateTaint(tols []Toleration, taint *Taint) bool {
	return TolerationFor(tols, taint) >= 0
}

// TolerationFor returns the index of the first toleration that tolerates
// the taint, or -1.
func TolerationFor(tols []Toleration, taint *Taint) int {
	for i := range tols {
		if tols[i].ToleratesTaint(taint) {
			return i
		}
	}
	return -1
}

// FindMatchingUntoleratedTaint mirrors component-helpers
// FindMatchingUntoleratedTaint: the first taint that passes filter (nil =
// all) and that no toleration tolerates; ok is false when there is none.
func FindMatchingUntoleratedTaint(taints []Taint, tols []Toleration, filter func(*Taint) bool) (Taint, bool) {
	for i := range taints {
		t := &taints[i]
		if filter != nil && !filter(t) {
			continue
		}
		if !TolerationsTolerateTaint(tols, t) {
			return *t, true
		}
	}
	return Taint{}, false
}

// DoNotScheduleTaintsFilter keeps NoSchedule and NoExecute taints (the
// scheduler's TaintToleration filter and the DaemonSet controller).
func DoNotScheduleTaintsFilter(t *Taint) bool {
	return t.Effect == TaintEffectNoSchedule || t.Effect == TaintEffectNoExecute
}

// AddOrUpdateTolerationInPodSpec mirrors podutil.AddOrUpdateTolerationInPodSpec:
// a toleration matching t (MatchToleration) is replaced by t, otherwise t is
// appended. It reports whether the spec changed.
func AddOrUpdateTolerationInPodSpec(spec *PodSpec, t *Toleration) bool {
	for i := range spec.Tolerations {
		old := &spec.Tolerations[i]
		if old.MatchToleration(t) {
			if tolerationEqual(old, t) {
				return false
			}
			spec.Tolerations[i] = *t
			return true
		}
	}
	spec.Tolerations = append(spec.Tolerations, *t)
	return true
}

func tolerationEqual(a, b *Toleration) bool {
	if !a.MatchToleration(b) {
		return false
	}
	if (a.TolerationSeconds == nil) != (b.TolerationSeconds == nil) {
		return false
	}
	return a.TolerationSeconds == nil || *a.TolerationSeconds == *b.TolerationSeconds
}

// DefaultTolerationSeconds is the admission plugin's default (300 s) for the
// not-ready and unreachable NoExecute tolerations of ordinary pods.
const DefaultTolerationSeconds int64 = 300

// AddDefaultTolerationSeconds mirrors the DefaultTolerationSeconds admission
// plugin: unless the pod already tolerates node.kubernetes.io/not-ready:NoExecute
// (resp. unreachable), it gets an Exists toleration for it with
// tolerationSeconds 300. Call it when a user creates a pod; daemon pods
// already carry tolerations without seconds.
func AddDefaultTolerationSeconds(spec *PodSpec) {
	for _, key := range []string{TaintNodeNotReady, TaintNodeUnreachable} {
		taint := Taint{Key: key, Effect: TaintEffectNoExecute}
		if TolerationsTolerateTaint(spec.Tolerations, &taint) {
			continue
		}
		secs := DefaultTolerationSeconds
		spec.Tolerations = append(spec.Tolerations, Toleration{Key: key, Operator: TolerationOpExists, Effect: TaintEffectNoExecute, TolerationSeconds: &secs})
	}
}
