package manifest

import (
	"strings"
	"testing"
)

// TestUpdateStrategyTypeHint: a strategy type that differs from a supported
// one only in case gets "did you mean ...?" as the learner's hint, while the
// API server's error text stays as kubectl prints it; other values keep the
// general hint.
func TestUpdateStrategyTypeHint(t *testing.T) {
	tests := []struct{ typ, wantHint, wantNot string }{
		{"Ondelete", "did you mean OnDelete?", ""},
		{"ondelete", "did you mean OnDelete?", ""},
		{"rollingupdate", "did you mean RollingUpdate?", ""},
		{"ROLLINGUPDATE", "did you mean RollingUpdate?", ""},
		{"Recreate", "Recreate is a Deployment strategy", "did you mean"},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			text := strings.Replace(minimalDS, "  template:\n", "  updateStrategy:\n    type: "+tc.typ+"\n  template:\n", 1)
			e := decodeErr(t, text)
			want := dsInvalid + `spec.updateStrategy: Unsupported value: {"Type":"` + tc.typ + `","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"`
			if got := e.Error(); got != want {
				t.Errorf("Error() = %q, want %q", got, want)
			}
			if len(e.Diagnostics) != 1 {
				t.Fatalf("%d diagnostics, want 1", len(e.Diagnostics))
			}
			h := e.Diagnostics[0].Hint
			if !strings.Contains(h, tc.wantHint) || (tc.wantNot != "" && strings.Contains(h, tc.wantNot)) {
				t.Errorf("hint %q, want it to contain %q (and not %q)", h, tc.wantHint, tc.wantNot)
			}
		})
	}
}
