package manifest

import (
	"strings"
	"testing"
)

// TestOneDiagnosticPerFlattenedLine: a flattened line yields one
// diagnostic (the one with the repair hint), and a manifest flattened onto
// one line shows the "line breaks were lost" item instead of the raw YAML
// error, while Error() still prints kubectl's line.
func TestOneDiagnosticPerFlattenedLine(t *testing.T) {
	tests := []struct {
		name, text, kubectl, msg string
	}{
		{"flattened key", "apiVersion: v1\nkind: Node\nmetadata:name: n1\n",
			`Error from server (BadRequest): error when creating "test.yaml": Node in version "v1" cannot be handled as a Node: strict decoding error: unknown field "metadata:name"`,
			`strict decoding error: unknown field "metadata:name"`},
		{"one line", "apiVersion: apps/v1 kind: DaemonSet metadata: name: x spec: selector: matchLabels: app: x",
			"error: error parsing test.yaml: error converting YAML to JSON: yaml: mapping values are not allowed in this context",
			"the line breaks of this line were lost"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := decodeErr(t, tc.text)
			if got := e.Error(); got != tc.kubectl {
				t.Errorf("Error() = %q, want %q", got, tc.kubectl)
			}
			if len(e.Diagnostics) != 1 {
				t.Fatalf("%d diagnostics, want 1:\n%s", len(e.Diagnostics), e.Detailed())
			}
			d := e.Diagnostics[0]
			if d.Message != tc.msg || !strings.Contains(d.Hint, "it should read:") {
				t.Errorf("diagnostic %+v", d)
			}
		})
	}
}

// TestTypeHintFitsType: a list where one string (or number) belongs gets a
// hint about that type, not the mapping hint.
func TestTypeHintFitsType(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: [1,2]\n", "holds one string, not a list"},
		{"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: i\n    ports:\n    - containerPort: [80]\n", "holds one number, not a list"},
		{"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  affinity:\n  - nodeAffinity: {}\n  containers:\n  - name: c\n    image: i\n", "is a mapping (key: value lines), not a list"},
	} {
		e := decodeErr(t, tc.text)
		if h := e.Diagnostics[0].Hint; !strings.Contains(h, tc.want) {
			t.Errorf("hint %q, want it to contain %q", h, tc.want)
		}
	}
}
