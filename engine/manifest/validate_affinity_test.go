package manifest

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

// qualifiedNameMsg is IsQualifiedName's message for a bad name part.
const qualifiedNameMsg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

// TestValidatePodAffinityAndSpread checks validatePodAffinity,
// validatePodAntiAffinity and validateTopologySpreadConstraints
// (pkg/apis/core/validation) with the text kubectl prints, and that valid
// terms decode into the typed fields.
func TestValidatePodAffinityAndSpread(t *testing.T) {
	const aff = tpl + "affinity."
	const tsc = tpl + "topologySpreadConstraints[0]."
	tests := []struct {
		name, spec, want string
	}{
		{"valid required and preferred terms", `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: db}}
            namespaces: [other]
            namespaceSelector: {}
            topologyKey: zone
            matchLabelKeys: [ver]
            mismatchLabelKeys: [tenant]
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm: {labelSelector: {matchLabels: {app: web}}, topologyKey: kubernetes.io/hostname}
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, minDomains: 2, nodeAffinityPolicy: Ignore, nodeTaintsPolicy: Honor, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [pod-template-hash]}
      - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}
`, ""},
		{"empty topologyKey", `      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: db}}
`, dsInvalid + "\n* " + aff + "podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty\n* " +
			// upstream also runs ValidateLabelName on the empty key
			aff + `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty` + "\n* " +
			aff + `podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ` + qualifiedNameMsg},
		{"bad topologyKey", `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector: {matchLabels: {app: db}}
            topologyKey: "zone!"
`, dsInvalid + aff + `podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "zone!": ` + qualifiedNameMsg},
		{"weight out of range and bad namespace", `      affinity:
        podAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 0
            podAffinityTerm: {labelSelector: {matchLabels: {app: db}}, namespaces: [Other], topologyKey: zone}
`, dsInvalid + "\n* " + aff + "podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100\n* " +
			aff + `podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.namespace: Invalid value: "Other": ` + dns1123LabelMsg},
		{"matchLabelKeys without labelSelector", `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {topologyKey: zone, matchLabelKeys: [ver]}
`, dsInvalid + aff + "podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set"},
		{"key in matchLabelKeys and mismatchLabelKeys", `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: db}}, topologyKey: zone, matchLabelKeys: [ver], mismatchLabelKeys: [ver]}
`, dsInvalid + aff + `podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].matchLabelKeys[0]: Invalid value: "ver": exists in both matchLabelKeys and mismatchLabelKeys`},
		{"bad selector operator", `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchExpressions: [{key: app, operator: Equals}]}, topologyKey: zone}
`, dsInvalid + aff + `podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator`},
		{"maxSkew, whenUnsatisfiable, minDomains", `      topologySpreadConstraints:
      - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: Sometimes, minDomains: 0}
`, dsInvalid + "\n* " + tsc + "maxSkew: Invalid value: 0: must be greater than zero\n* " +
			tsc + `whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"` + "\n* " +
			tsc + "minDomains: Invalid value: 0: must be greater than zero\n* " +
			tsc + "minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not Sometimes"},
		{"missing topologyKey", `      topologySpreadConstraints:
      - {maxSkew: 1, whenUnsatisfiable: DoNotSchedule}
`, dsInvalid + tsc + "topologyKey: Required value: can not be empty"},
		{"repeated {topologyKey, whenUnsatisfiable}", `      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
      - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
`, dsInvalid + tsc + `{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`},
		{"bad node inclusion policy", `      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeTaintsPolicy: Always}
`, dsInvalid + tsc + `nodeTaintsPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"`},
		{"matchLabelKeys in labelSelector too", `      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [app]}
`, dsInvalid + tsc + `matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(minimalDS, "      containers:\n", tc.spec+"      containers:\n", 1)
			if tc.want == "" {
				docs := mustDecode(t, text)
				s := docs[0].Object.(*api.DaemonSet).Spec.Template.Spec
				if s.Affinity == nil || s.Affinity.PodAffinity == nil || len(s.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution) != 1 ||
					s.Affinity.PodAntiAffinity == nil || s.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Weight != 100 || len(s.TopologySpreadConstraints) != 2 {
					t.Errorf("not decoded: %+v", s)
				}
				term := s.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0]
				if term.TopologyKey != "zone" || term.NamespaceSelector == nil || term.Namespaces[0] != "other" || term.MatchLabelKeys[0] != "ver" || term.MismatchLabelKeys[0] != "tenant" {
					t.Errorf("term = %+v", term)
				}
				c := s.TopologySpreadConstraints[0]
				if *c.MinDomains != 2 || *c.NodeAffinityPolicy != "Ignore" || *c.NodeTaintsPolicy != "Honor" || c.MatchLabelKeys[0] != "pod-template-hash" {
					t.Errorf("constraint = %+v", c)
				}
				return
			}
			checkDecodeErr(t, text, tc.want)
		})
	}
}

// TestPodAffinityTypeErrors: wrong JSON types in the typed fields are
// BadRequest decode errors naming the Go struct field, as the API server's
// decoder words them.
func TestPodAffinityTypeErrors(t *testing.T) {
	tests := []struct{ name, spec, want string }{
		{"topologyKey as a list", `      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - {labelSelector: {matchLabels: {app: db}}, topologyKey: [zone]}
`, "json: cannot unmarshal array into Go struct field PodAffinityTerm.spec.template.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution.topologyKey of type string"},
		{"maxSkew as a string", `      topologySpreadConstraints:
      - {maxSkew: "1", topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
`, "json: cannot unmarshal string into Go struct field TopologySpreadConstraint.spec.template.spec.topologySpreadConstraints.maxSkew of type int32"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := decodeErr(t, strings.Replace(minimalDS, "      containers:\n", tc.spec+"      containers:\n", 1))
			if !strings.Contains(e.Error(), tc.want) {
				t.Errorf("got\n%s\nwant it to contain\n%s", e.Error(), tc.want)
			}
		})
	}
}
