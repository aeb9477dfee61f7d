package tainteviction

import (
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestGetMinTolerationTime mirrors upstream getMinTolerationTime's cases.
func TestGetMinTolerationTime(t *testing.T) {
	s := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		tols []api.Toleration
		want time.Duration
	}{
		{nil, 0},
		{[]api.Toleration{{}}, -1},
		{[]api.Toleration{{TolerationSeconds: s(30)}, {TolerationSeconds: s(10)}, {}}, 10 * time.Second},
		{[]api.Toleration{{TolerationSeconds: s(-5)}}, 0},
	} {
		if got := getMinTolerationTime(tc.tols); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.tols, got, tc.want)
		}
	}
}
