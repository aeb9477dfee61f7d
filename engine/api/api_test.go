package api

import (
	"strings"
	"testing"
	"time"
)

func TestNameValidation(t *testing.T) {
	tests := []struct {
		name  string
		fn    func(string) []string
		in    string
		valid bool
		want  string // substring of the first message
	}{
		{"subdomain ok", IsDNS1123Subdomain, "fluentd-elasticsearch.v1", true, ""},
		{"subdomain upper", IsDNS1123Subdomain, "My_DS", false, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
		{"subdomain long", IsDNS1123Subdomain, strings.Repeat("a", 254), false, "must be no more than 253 characters"},
		{"label ok", IsDNS1123Label, "config-path", true, ""},
		{"label camel", IsDNS1123Label, "configPath", false, "a lowercase RFC 1123 label must consist of"},
		{"label dot", IsDNS1123Label, "a.b", false, "must not contain dots"},
		{"label long", IsDNS1123Label, strings.Repeat("a", 64), false, "must be no more than 63 characters"},
		{"qualified ok", IsQualifiedName, "node-role.kubernetes.io/control-plane", true, ""},
		{"qualified plain", IsQualifiedName, "disk", true, ""},
		{"qualified bad", IsQualifiedName, "-disk", false, "name part must consist of alphanumeric characters"},
		{"qualified bad prefix", IsQualifiedName, "Example.com/disk", false, "prefix part"},
		{"label value empty", IsValidLabelValue, "", true, ""},
		{"label value ok", IsValidLabelValue, "ssd_1.0", true, ""},
		{"label value space", IsValidLabelValue, "a b", false, "a valid label must be an empty string or consist of alphanumeric characters"},
		{"label value long", IsValidLabelValue, strings.Repeat("v", 64), false, "must be no more than 63 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := tt.fn(tt.in)
			if tt.valid != (len(errs) == 0) {
				t.Fatalf("%q: errors %q, want valid=%v", tt.in, errs, tt.valid)
			}
			if !tt.valid && !strings.Contains(errs[0], tt.want) {
				t.Fatalf("%q: %q does not contain %q", tt.in, errs[0], tt.want)
			}
		})
	}
}

// TestScaledValue mirrors intstr.GetScaledValueFromIntOrPercent.
func TestScaledValue(t *testing.T) {
	tests := []struct {
		v       *IntOrString
		total   int
		roundUp bool
		want    int
		err     bool
	}{
		{FromInt(3), 10, true, 3, false},
		{FromString("50%"), 3, true, 2, false},
		{FromString("50%"), 3, false, 1, false},
		{FromString("10%"), 3, true, 1, false},
		{FromString("100%"), 2, true, 2, false},
		{FromString("0%"), 5, true, 0, false},
		{FromString("abc"), 5, true, 0, true},
		{FromString("x%"), 5, true, 0, true},
		{nil, 5, true, 0, true},
	}
	for _, tt := range tests {
		got, err := tt.v.ScaledValue(tt.total, tt.roundUp)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("%s of %d (up=%v) = %d, %v; want %d, err=%v", tt.v, tt.total, tt.roundUp, got, err, tt.want, tt.err)
		}
	}
	for in, want := range map[string]string{
		"abc": "invalid value for IntOrString: invalid type: string is not a percentage",
		"x%":  `invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax`,
	} {
		if _, err := FromString(in).ScaledValue(5, true); err == nil || err.Error() != want {
			t.Errorf("ScaledValue(%q) error %v, want %s", in, err, want)
		}
	}
	if FromInt(1).String() != "1" || FromString("25%").String() != "25%" {
		t.Error("String() does not print the value as written")
	}
}

// TestIsAvailable mirrors podutil.IsPodAvailable: Ready, and Ready for
// strictly longer than minReadySeconds.
func TestIsAvailable(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &Pod{Status: PodStatus{Conditions: []PodCondition{{Type: PodReady, Status: ConditionTrue, LastTransitionTime: t0}}}}
	if !p.IsReady() || !p.IsAvailable(0, t0) {
		t.Fatal("a Ready pod with minReadySeconds 0 is available at once")
	}
	if p.IsAvailable(10, t0.Add(10*time.Second)) {
		t.Error("available exactly at minReadySeconds: upstream wants strictly after")
	}
	if !p.IsAvailable(10, t0.Add(10*time.Second+time.Nanosecond)) {
		t.Error("not available after minReadySeconds")
	}
	p.Status.Conditions[0].Status = ConditionFalse
	if p.IsReady() || p.IsAvailable(0, t0) {
		t.Error("a pod that is not Ready is not available")
	}
	p.Status.Phase = PodFailed
	if !p.IsTerminal() {
		t.Error("Failed is terminal")
	}
}

func TestOwnerReferences(t *testing.T) {
	m := &ObjectMeta{OwnerReferences: []OwnerReference{
		{Kind: "ReplicaSet", UID: "a"},
		{Kind: "DaemonSet", UID: "b", Controller: BoolPtr(true)},
	}}
	if r := m.ControllerRef(); r == nil || r.UID != "b" {
		t.Fatalf("ControllerRef = %+v", r)
	}
	m.RemoveOwnerReference("b")
	if m.ControllerRef() != nil || len(m.OwnerReferences) != 1 || m.GetObjectMeta() != m {
		t.Fatalf("after removal: %+v", m.OwnerReferences)
	}
}

func TestPodPriority(t *testing.T) {
	p := func(v int32) *int32 { return &v }
	tests := []struct {
		name string
		prio *int32
		want int32
	}{
		{"unset", nil, 0},
		{"zero", p(0), 0},
		{"negative", p(-5), -5},
		{"system-node-critical", p(2000001000), 2000001000},
	}
	for _, tt := range tests {
		pod := &Pod{Spec: PodSpec{Priority: tt.prio}}
		if got := PodPriority(pod); got != tt.want {
			t.Errorf("%s: PodPriority = %d, want %d", tt.name, got, tt.want)
		}
	}
}
