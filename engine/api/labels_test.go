package api

import (
	"strings"
	"testing"
)

func TestLabelSelectorAsSelector(t *testing.T) {
	node := map[string]string{"color": "blue", "speed": "fast", "cores": "8"}
	cases := []struct {
		name    string
		sel     *LabelSelector
		labels  map[string]string
		want    bool
		wantErr string
	}{
		{"nil selects nothing", nil, node, false, ""},
		{"empty selects everything", &LabelSelector{}, node, true, ""},
		{"empty selects empty labels", &LabelSelector{}, nil, true, ""},
		{"matchLabels match", &LabelSelector{MatchLabels: map[string]string{"color": "blue"}}, node, true, ""},
		{"matchLabels value differs", &LabelSelector{MatchLabels: map[string]string{"color": "red"}}, node, false, ""},
		{"matchLabels key missing", &LabelSelector{MatchLabels: map[string]string{"disk": "ssd"}}, node, false, ""},
		{"matchLabels ANDed", &LabelSelector{MatchLabels: map[string]string{"color": "blue", "speed": "slow"}}, node, false, ""},
		{"In match", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "In", Values: []string{"red", "blue"}}}}, node, true, ""},
		{"In no match", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "In", Values: []string{"red"}}}}, node, false, ""},
		{"In key absent", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "disk", Operator: "In", Values: []string{"ssd"}}}}, node, false, ""},
		{"NotIn key absent matches", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "disk", Operator: "NotIn", Values: []string{"ssd"}}}}, node, true, ""},
		{"NotIn listed value", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "NotIn", Values: []string{"blue"}}}}, node, false, ""},
		{"NotIn other value", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "NotIn", Values: []string{"red"}}}}, node, true, ""},
		{"Exists", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "Exists"}}}, node, true, ""},
		{"Exists absent", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "disk", Operator: "Exists"}}}, node, false, ""},
		{"DoesNotExist", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "disk", Operator: "DoesNotExist"}}}, node, true, ""},
		{"DoesNotExist present", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "DoesNotExist"}}}, node, false, ""},
		{"labels and expressions ANDed", &LabelSelector{MatchLabels: map[string]string{"color": "blue"}, MatchExpressions: []LabelSelectorRequirement{{Key: "speed", Operator: "In", Values: []string{"slow"}}}}, node, false, ""},
		{"Gt not allowed in label selectors", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "cores", Operator: "Gt", Values: []string{"4"}}}}, node, false, `"Gt" is not a valid label selector operator`},
		{"In without values", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "In"}}}, node, false, "values set can't be empty"},
		{"Exists with values", &LabelSelector{MatchExpressions: []LabelSelectorRequirement{{Key: "color", Operator: "Exists", Values: []string{"x"}}}}, node, false, "values set must be empty"},
		{"bad key", &LabelSelector{MatchLabels: map[string]string{"-bad": "x"}}, node, false, "name part"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := LabelSelectorAsSelector(tc.sel)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Matches(tc.labels); got != tc.want {
				t.Errorf("Matches = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRequirementGtLt(t *testing.T) {
	cases := []struct {
		op, val string
		labels  map[string]string
		want    bool
	}{
		{"Gt", "4", map[string]string{"cores": "8"}, true},
		{"Gt", "8", map[string]string{"cores": "8"}, false},
		{"Lt", "10", map[string]string{"cores": "8"}, true},
		{"Lt", "8", map[string]string{"cores": "8"}, false},
		{"Gt", "4", map[string]string{"cores": "eight"}, false},
		{"Gt", "4", map[string]string{}, false},
	}
	for _, tc := range cases {
		r, err := NewRequirement("cores", tc.op, []string{tc.val})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Matches(tc.labels); got != tc.want {
			t.Errorf("cores %s %s on %v = %v, want %v", tc.op, tc.val, tc.labels, got, tc.want)
		}
	}
	// "-1" parses as an integer but is not a valid label value (upstream too).
	for _, bad := range [][]string{nil, {"1", "2"}, {"x"}, {"-1"}} {
		if _, err := NewRequirement("cores", "Gt", bad); err == nil {
			t.Errorf("Gt %v: no error", bad)
		}
	}
}

// TestRequirementKeyAndValueErrors: bad keys and values get the shared
// name validation's messages, as field errors on key and values[i][key].
func TestRequirementKeyAndValueErrors(t *testing.T) {
	for _, tc := range []struct {
		key, val, want string
	}{
		{"-disk", "ssd", `key: Invalid value: "-disk": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{"disk", "a b", `values[0][disk]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
	} {
		_, err := NewRequirement(tc.key, SelectorOpIn, []string{tc.val})
		if err == nil || err.Error() != tc.want {
			t.Errorf("NewRequirement(%q In [%q]):\n got %v\nwant %s", tc.key, tc.val, err, tc.want)
		}
	}
}

func TestSelectorFromSet(t *testing.T) {
	if !SelectorFromSet(nil).Matches(map[string]string{"a": "b"}) {
		t.Error("empty set should match everything")
	}
	s := SelectorFromSet(map[string]string{"a": "b", "c": "d"})
	if !s.Matches(map[string]string{"a": "b", "c": "d", "e": "f"}) || s.Matches(map[string]string{"a": "b"}) {
		t.Error("set selector wrong")
	}
	if !IsEmptyLabelSelector(&LabelSelector{}) || IsEmptyLabelSelector(nil) || IsEmptyLabelSelector(&LabelSelector{MatchLabels: map[string]string{"a": "b"}}) {
		t.Error("IsEmptyLabelSelector wrong")
	}
}
