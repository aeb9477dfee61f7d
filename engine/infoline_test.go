package engine

import "testing"

// kubectl's "No resources found" lines go to stderr but are not errors: the
// console shows them without the error colour.
func TestIsInfoLine(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"No resources found in default namespace.\n", true},
		{"No resources found in kube-system namespace.", true},
		{"No resources found.\n", true},
		{`Error from server (NotFound): pods "x" not found` + "\n", false},
		{"error: the server doesn't have a resource type \"nosuch\"\n", false},
		{"No resources found in default namespace.\nerror: something else\n", false},
	} {
		if got := IsInfoLine(tc.text); got != tc.want {
			t.Errorf("IsInfoLine(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
