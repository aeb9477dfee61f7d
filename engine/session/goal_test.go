package session

import (
	"reflect"
	"strings"
	"testing"
)

// A goal's `kubectl get ... -o jsonpath` + `stdout RE` shows as one check
// per assertion, labelled in words, failing with the command's actual
// output.
func TestMergeGoalChecks(t *testing.T) {
	cmd := `kubectl get pods -o jsonpath='{.items[*].spec.containers[0].image}'`
	g := GoalResult{
		Checks: []Check{
			{Line: 3, Text: "expect ds/ds-demo on all", OK: true, Detail: "runs everywhere"},
			{Line: 4, Text: cmd, OK: true},
			{Line: 5, Text: `stdout '^nginx:1.25$'`, OK: false, Detail: `no match for "^nginx:1.25$" in stdout`},
			{Line: 6, Text: `! stdout 'busybox'`, OK: true},
			{Line: 7, Text: "kubectl get ds nope", OK: false, Detail: "command failed with exit status 1: Error from server (NotFound)"},
			{Line: 8, Text: `stdout -count=2 x`, OK: true},
			{Line: 9, Text: "kubectl get nodes", OK: true},
		},
		Entries: []Entry{
			{Line: 4, Command: cmd, Stdout: "nginx:1.23"},
			{Line: 7, Command: "kubectl get ds nope", Stderr: "Error from server (NotFound)\n", ExitCode: 1},
			{Line: 9, Command: "kubectl get nodes", Stdout: "NAME\n"},
		},
	}
	got := MergeGoalChecks(g).Checks
	want := []Check{
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

func TestAssertionLabel(t *testing.T) {
	for in, want := range map[string]string{
		`stdout '^a$'`:         "output matches ^a$",
		`! stdout "b\tc"`:      "output does not match b\tc",
		`stderr NotFound`:      "error output matches NotFound",
		`stdout -count=3 'x'`:  "output matches x 3 times",
		`stdout 'it''s'`:       "output matches it's",
		`! stderr -count=0 re`: "error output matches re 0 times",
	} {
		if got := assertionLabel(in); got != want {
			t.Errorf("assertionLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShortOutput(t *testing.T) {
	long := strings.Repeat("é", 200)
	for in, want := range map[string]string{
		"":                "empty",
		"\n":              "empty",
		"a\nb\n":          `"a ⏎ b"`,
		long:              `"` + strings.Repeat("é", 160) + `…"`,
		`say "hi"` + "\n": `"say \"hi\""`,
	} {
		if got := shortOutput(in); got != want {
			t.Errorf("shortOutput(%q) = %q, want %q", in, got, want)
		}
	}
	e := &Entry{Stdout: "out", Stderr: "err"}
	if outputOf(e, "! stderr x") != "err" || outputOf(e, "stdout x") != "out" {
		t.Error("outputOf read the wrong stream")
	}
}

// A step title ending in "?" is not followed by ".".
func TestSentence(t *testing.T) {
	for in, want := range map[string]string{
		"Step 3 of 6: Why not the control-plane?": "Step 3 of 6: Why not the control-plane?",
		"Step 1 of 6: Apply it":                   "Step 1 of 6: Apply it.",
		"Done.":                                   "Done.",
		"Wait…":                                   "Wait…",
		"  ":                                      "",
	} {
		if got := Sentence(in); got != want {
			t.Errorf("Sentence(%q) = %q, want %q", in, got, want)
		}
	}
}
