package engine

import (
	"testing"
)

// TestRolloutSummary: an OnDelete DaemonSet with outdated pods is never
// "rolled out" (kubectl rollout status refuses OnDelete).
func TestRolloutSummary(t *testing.T) {
	for _, tc := range []struct {
		d    DaemonSetView
		want string
		done bool
	}{
		{DaemonSetView{Strategy: "OnDelete", UpToDate: 1, Desired: 3, Available: 3, RolloutDone: true}, "OnDelete · 1/3 updated", false},
		{DaemonSetView{Strategy: "OnDelete", UpToDate: 3, Desired: 3, Available: 3, RolloutDone: true}, "OnDelete · 3/3 updated", true},
		{DaemonSetView{Strategy: "RollingUpdate", UpToDate: 3, Desired: 3, Available: 3, RolloutDone: true}, "rolled out · 3/3", true},
		{DaemonSetView{Strategy: "RollingUpdate", UpToDate: 1, Desired: 3, Available: 2}, "updated 1/3 · available 2/3", false},
	} {
		if got, done := tc.d.RolloutSummary(); got != tc.want || done != tc.done {
			t.Errorf("%+v: %q done=%v, want %q done=%v", tc.d, got, done, tc.want, tc.done)
		}
	}
}
