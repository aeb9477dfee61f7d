//go:build js && wasm

package main

import (
	"math"
	"testing"
)

// The embed's URL and postMessage arguments. (The replay limits once
// tested here are engine/session's, tested natively: TestReplayLimits.)

func TestStepSecondsOK(t *testing.T) {
	for s, want := range map[float64]bool{math.NaN(): false, math.Inf(1): false, math.Inf(-1): false, 1e-12: false, 0: false, -1: false,
		0.0009: false, 0.001: true, 1: true, 3600: true, 3600.5: false} {
		if got := stepSecondsOK(s); got != want {
			t.Errorf("stepSecondsOK(%v) = %v, want %v", s, got, want)
		}
	}
}

func TestNormalizeOrigin(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"HTTP://LOCALHOST:8742", "http://localhost:8742", true},
		{"https://Example.COM:443/", "https://example.com", true},
		{"http://example.com:80", "http://example.com", true},
		{" https://a.example/path ", "https://a.example", true},
		{"example.com", "", false},
		{"localhost:8742", "", false},
		{"file:///tmp/x.html", "", false},
	} {
		got, ok := normalizeOrigin(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("normalizeOrigin(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
