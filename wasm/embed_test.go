//go:build js && wasm

package main

import "testing"

// The embed's URL and postMessage arguments. (The replay limits once
// tested here are engine/session's, tested natively: TestReplayLimits.)

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
