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

func TestStoragePrefix(t *testing.T) {
	const own = "https://playground.example"
	for _, tc := range []struct {
		name string
		f    StorageFrame
		want string // "" for no storage
	}{
		{"full site", StorageFrame{Own: own}, "dsplay."},
		{"full site from file://", StorageFrame{Own: "null"}, "dsplay."},
		{"embed in a tutorial", StorageFrame{Framed: true, Parent: "https://tutorial.example", Own: own, Embed: true, Drive: true}, "dsplay.embed[https://tutorial.example]."},
		{"embed, no origin=", StorageFrame{Framed: true, Parent: "https://tutorial.example", Own: own, Embed: true}, "dsplay.embed[https://tutorial.example]."},
		{"embed framed by the site itself", StorageFrame{Framed: true, Parent: own, Own: own, Embed: true}, "dsplay.embed[" + own + "]."},
		{"the full page in a frame", StorageFrame{Framed: true, Parent: own, Own: own}, "dsplay.embed[" + own + "]."},
		{"parent unknown", StorageFrame{Framed: true, Own: own, Embed: true}, ""},
		{"parent opaque", StorageFrame{Framed: true, Parent: "null", Own: own, Embed: true}, ""},
		{"top-level, driven by origin=", StorageFrame{Own: own, Drive: true}, ""},
		{"top-level embed, driven", StorageFrame{Own: own, Embed: true, Drive: true}, ""},
		{"top-level embed", StorageFrame{Own: own, Embed: true}, "dsplay.embed[" + own + "]."},
	} {
		got, ok := StoragePrefix(tc.f)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("%s: StoragePrefix = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
		if tc.f.Framed || tc.f.Drive || tc.f.Embed {
			if got == "dsplay." {
				t.Errorf("%s: a page another origin may drive reads the full site's keys", tc.name)
			}
		}
	}
}
