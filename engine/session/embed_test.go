package session

import (
	"math"
	"reflect"
	"testing"
)

func TestStepSecondsOK(t *testing.T) {
	for s, want := range map[float64]bool{math.NaN(): false, math.Inf(1): false, math.Inf(-1): false, 1e-12: false, 0: false, -1: false,
		0.0009: false, 0.001: true, 1: true, 3600: true, 3600.5: false} {
		if got := StepSecondsOK(s); got != want {
			t.Errorf("StepSecondsOK(%v) = %v, want %v", s, got, want)
		}
	}
}

func TestParsePanes(t *testing.T) {
	tests := []struct {
		in            []string
		want, unknown []string
	}{
		{nil, []string{"cluster", "console"}, nil},
		{[]string{"timeline", "editor"}, []string{"editor", "timeline"}, nil},
		{[]string{"kubectl", "LOG", "cluster", "cluster"}, []string{"cluster", "console", "decisions"}, nil},
		{[]string{"gallery", "editor"}, []string{"editor"}, []string{"gallery"}},
		{[]string{"nope"}, []string{"cluster", "console"}, []string{"nope"}},
	}
	for _, tc := range tests {
		got, unknown := ParsePanes(tc.in)
		if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(unknown, tc.unknown) {
			t.Errorf("ParsePanes(%v) = %v, %v; want %v, %v", tc.in, got, unknown, tc.want, tc.unknown)
		}
	}
}
