package kubectl

import (
	"strings"
	"testing"
)

// FuzzParseCommandLine checks that tokenizing any line, parsing its flags
// for every command, and running it against a small store never panics,
// and that every failure is reported on stderr with exit status 1.
func FuzzParseCommandLine(f *testing.F) {
	for _, tc := range goldenCases {
		for _, l := range tc.lines {
			f.Add(l)
		}
	}
	for _, tc := range mutateCases {
		for _, l := range tc.lines {
			f.Add(l)
		}
	}
	for _, tc := range round2Cases {
		for _, l := range tc.lines {
			f.Add(l)
		}
	}
	for _, s := range []string{
		`kubectl get pods -l 'a in (b,c)'`, `k -n x get -A ds -owide`, `"`, `'`, `\`, `a\`,
		`get pods -l '!a,b!=c,d notin (e)'`, `taint nodes --all a-`, `delete pod x --cascade`,
		`get pods --sort-by={.metadata.name}`, `label nodes -l x y=z`, `get -- --`,
		"get\x00pods", "get pods -l '(((('", "delete ds -l a=b --cascade=foreground --timeout=1s",
		`patch ds fluentd -p '{"spec":{"$setElementOrder/x":[1]}}'`, `patch ds fluentd --type json -p '[{"op":"move","from":"/spec","path":"/spec/x"}]'`,
		`patch ds fluentd -p '{"metadata":{"$deleteFromPrimitiveList/finalizers":[null]}}'`, `patch node node-1 --type merge -p null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args, err := ParseCommandLine(line)
		if err != nil {
			return
		}
		for _, c := range commands {
			fs := newFlagSet(append(c.flags(), globalFlags()...))
			fs.parse(args)
		}
		parseSelector(line)
		parseFieldSelector(line)
		env := testEnv(fixture(), map[string]string{"ds.yaml": dsYAML, "-": line})
		r := Run(env, args)
		// (kubectl rollout alone prints its help on stdout and exits 1
		// with nothing on stderr: cmdutil.ErrExit)
		if r.ExitCode != 0 && r.Stderr == "" && r.Stdout == "" {
			t.Errorf("%q: exit %d with empty stderr", line, r.ExitCode)
		}
		var so, se strings.Builder
		for i, c := range r.Chunks {
			if c.Text == "" || (i > 0 && r.Chunks[i-1].Stderr == c.Stderr) {
				t.Errorf("%q: chunk %d is empty or not merged with the previous one", line, i)
			}
			if c.Stderr {
				se.WriteString(c.Text)
			} else {
				so.WriteString(c.Text)
			}
		}
		if so.String() != r.Stdout || se.String() != r.Stderr {
			t.Errorf("%q: Stdout/Stderr are not the concatenations of the chunks", line)
		}
		if r.ExitCode == 0 && strings.HasPrefix(r.Stderr, "error:") {
			t.Errorf("%q: exit 0 with error %q", line, r.Stderr)
		}
	})
}
