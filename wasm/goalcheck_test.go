//go:build js && wasm

package main

import (
	"reflect"
	"testing"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// Newcomer item 9: a goal's `kubectl get ... -o jsonpath` + `stdout RE`
// shows as one check per assertion, labelled in words, failing with the
// command's actual output.
func TestMergeGoalChecks(t *testing.T) {
	cmd := `kubectl get pods -o jsonpath='{.items[*].spec.containers[0].image}'`
	g := scenario.GoalResult{
		Checks: []scenario.Check{
			{Line: 3, Text: "expect ds/ds-demo on all", OK: true, Detail: "runs everywhere"},
			{Line: 4, Text: cmd, OK: true},
			{Line: 5, Text: `stdout '^nginx:1.25$'`, OK: false, Detail: `no match for "^nginx:1.25$" in stdout`},
			{Line: 6, Text: `! stdout 'busybox'`, OK: true},
			{Line: 7, Text: "kubectl get ds nope", OK: false, Detail: "command failed with exit status 1: Error from server (NotFound)"},
			{Line: 8, Text: `stdout -count=2 x`, OK: true},
			{Line: 9, Text: "kubectl get nodes", OK: true},
		},
		Entries: []scenario.Entry{
			{Line: 4, Command: cmd, Stdout: "nginx:1.23"},
			{Line: 7, Command: "kubectl get ds nope", Stderr: "Error from server (NotFound)\n", ExitCode: 1},
			{Line: 9, Command: "kubectl get nodes", Stdout: "NAME\n"},
		},
	}
	got := mergeGoalChecks(g).Checks
	want := []scenario.Check{
		{Line: 3, Text: "expect ds/ds-demo on all", OK: true, Detail: "runs everywhere"},
		{Line: 5, Text: cmd + ": output matches ^nginx:1.25$", OK: false, Detail: `the output was "nginx:1.23"`},
		{Line: 6, Text: cmd + ": output does not match busybox", OK: true},
		{Line: 8, Text: "kubectl get ds nope: output matches x 2 times", OK: false, Detail: "command failed with exit status 1: Error from server (NotFound)"},
		{Line: 9, Text: "kubectl get nodes", OK: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged checks:\n got %+v\nwant %+v", got, want)
	}
	if e := shortOutput("\n"); e != "empty" {
		t.Errorf("shortOutput of nothing = %q", e)
	}
}

// Newcomer item 12: a step title ending in "?" is not followed by ".".
func TestSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Step 3 of 6: Why not the control-plane?": "Step 3 of 6: Why not the control-plane?",
		"Step 1 of 6: Apply it":                   "Step 1 of 6: Apply it.",
		"Done.":                                   "Done.",
		"Wait…":                                   "Wait…",
	} {
		if got := sentence(in); got != want {
			t.Errorf("sentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// Newcomer item 7: an OnDelete DaemonSet with outdated pods is never
// "rolled out" (kubectl rollout status refuses OnDelete).
func TestRolloutShortOnDelete(t *testing.T) {
	for _, tc := range []struct {
		d    engine.DaemonSetView
		want string
		done bool
	}{
		{engine.DaemonSetView{Strategy: "OnDelete", UpToDate: 1, Desired: 3, Available: 3, RolloutDone: true}, "OnDelete · 1/3 updated", false},
		{engine.DaemonSetView{Strategy: "OnDelete", UpToDate: 3, Desired: 3, Available: 3, RolloutDone: true}, "OnDelete · 3/3 updated", true},
		{engine.DaemonSetView{Strategy: "RollingUpdate", UpToDate: 3, Desired: 3, Available: 3, RolloutDone: true}, "rolled out · 3/3", true},
		{engine.DaemonSetView{Strategy: "RollingUpdate", UpToDate: 1, Desired: 3, Available: 2}, "updated 1/3 · available 2/3", false},
	} {
		if got, done := rolloutShort(tc.d); got != tc.want || done != tc.done {
			t.Errorf("%+v: %q done=%v, want %q done=%v", tc.d, got, done, tc.want, tc.done)
		}
	}
}
