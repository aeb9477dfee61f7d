package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunExitStatus checks DESIGN.md contract 3: 0 when every assertion
// held, 1 when one failed, 2 for bad usage or a malformed scenario.
func TestRunExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.txtar", "kubectl get nodes\nstdout node-1\n")
	bad := write("fail.txtar", "kubectl get nodes\nstdout node-9\n")
	malformed := write("malformed.txtar", "frobnicate\n")
	const ds = "-- ds.yaml --\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: a}\nspec:\n  selector: {matchLabels: {app: a}}\n  template:\n    metadata: {labels: {app: a}}\n    spec: {containers: [{name: a, image: nginx:1.25}]}\n"
	exercise := write("exercise.txtar", "# kind: exercise\n## goal\nexpect ds/a on node-1 node-2\n## solution\nkubectl apply -f ds.yaml\nwait rollout ds/a\n"+ds)
	solved := write("solved.txtar", "# kind: exercise\nkubectl apply -f ds.yaml\nwait rollout ds/a\n## goal\nexpect ds/a on node-1\n## solution\nkubectl get ds\n"+ds)
	unsolved := write("unsolved.txtar", "# kind: exercise\n## goal\nexpect ds/a on all\n## solution\nkubectl apply -f ds.yaml\nwait rollout ds/a\n"+ds)
	badExercise := write("bad-exercise.txtar", "# kind: exercise\n## goal\nkubectl delete ds a\n## solution\nkubectl get ds\n")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{"no args", nil, 2, "", "usage: dsplay run"},
		{"not run", []string{"play", ok}, 2, "", "usage: dsplay run"},
		{"ok", []string{"run", ok}, 0, "--- ok " + ok, ""},
		{"assertion failed", []string{"run", ok, bad}, 1, "--- FAIL " + bad + " (1 failed)", ""},
		{"malformed", []string{"run", malformed}, 2, "", malformed + ":1: unknown command"},
		{"exercise", []string{"run", exercise}, 0, "# --- goal\n$ expect ds/a on node-1 node-2\nok\n--- ok " + exercise, ""},
		{"exercise solved at the start", []string{"run", solved}, 1, solved + ":4: exercise is already solved at the start", ""},
		{"exercise goal not reached", []string{"run", unsolved}, 1, "FAIL: " + unsolved + ":3: ds/a has no ready pod on control-plane (no pod)", ""},
		{"exercise with a mutating goal", []string{"run", badExercise}, 2, "", badExercise + ":3: the goal only reads the cluster"},
		{"missing file", []string{"run", filepath.Join(dir, "nope.txtar")}, 2, "", "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tc.args, &out, &errOut)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("run(%q) = %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, out.String(), errOut.String())
			}
		})
	}
}
