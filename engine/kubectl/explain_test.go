package kubectl

import (
	"strings"
	"testing"
)

// TestExplainGolden: kubectl explain as kubectl 1.37's plaintext template
// prints it, for kinds, nested fields (through lists), --recursive,
// --api-version, and the errors.
func TestExplainGolden(t *testing.T) {
	runGoldenCases(t, []goldenCase{
		{name: "explain", lines: []string{
			"kubectl explain ds",
			"kubectl explain ds.spec",
			"kubectl explain daemonsets.apps.spec.updateStrategy.rollingUpdate.maxUnavailable",
			"kubectl explain ds.spec.template.spec.containers",
			"kubectl explain pods.spec.containers.resources.limits",
			"kubectl explain pod.metadata.creationTimestamp",
			"kubectl explain no.spec.taints",
			"kubectl explain pods.spec.containers.imagePullPolicy",
			"kubectl explain pods.spec.restartPolicy",
		}},
		{name: "explain_recursive", lines: []string{
			"kubectl explain pods.spec --recursive",
			"kubectl explain ds.spec.updateStrategy --recursive",
		}},
		{name: "explain_errors", lines: []string{
			"kubectl explain",
			"kubectl explain ds pods",
			"kubectl explain foo",
			"kubectl explain ds.spec.foo",
			"kubectl explain ds.spec.foo.bar",
			"kubectl explain deployments",
			"kubectl explain ds --api-version=apps/v1beta2",
			"kubectl explain ds --api-version=v1",
			"kubectl explain ds --api-version=a/b/c",
			"kubectl explain ds --api-version=apps/v1",
			"kubectl explain ds.kind --output=yaml",
		}},
	})
}

// TestWordWrap checks the go-wordwrap rules explain's descriptions follow.
func TestWordWrap(t *testing.T) {
	for _, c := range []struct {
		in   string
		lim  int
		want string
	}{
		{"aaa bbb ccc", 7, "aaa bbb\nccc"},
		{"aaa bbb ccc", 6, "aaa\nbbb\nccc"},
		{"a https://example.com/a/very/long/url b", 10, "a\nhttps://example.com/a/very/long/url\nb"},
		{"keep\nnewlines here", 20, "keep\nnewlines here"},
		{"trailing  ", 20, "trailing  "},
		{"", 5, ""},
	} {
		if got := wordWrap(c.in, c.lim); got != c.want {
			t.Errorf("wordWrap(%q, %d) = %q, want %q", c.in, c.lim, got, c.want)
		}
	}
}

// TestExplainEveryField: every field path of the simulated kinds can be
// explained (no path the schema holds answers "does not exist").
func TestExplainEveryField(t *testing.T) {
	for _, rt := range []string{"ds", "pods", "nodes"} {
		r, err := resolveType(rt)
		if err != nil {
			t.Fatal(err)
		}
		out, err := explain(r.group, r.version, r.resource, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		// rebuild each path from the recursive listing's indentation
		var stack []string
		n := 0
		for _, line := range strings.Split(out[strings.Index(out, "FIELDS:\n")+8:], "\n") {
			name, _, ok := strings.Cut(line, "\t")
			if !ok {
				continue
			}
			depth := (len(name) - len(strings.TrimLeft(name, " "))) / 2
			stack = append(stack[:depth-1], strings.TrimSpace(name))
			if _, err := explain(r.group, r.version, r.resource, stack, false); err != nil {
				t.Errorf("%s.%s: %v", rt, strings.Join(stack, "."), err)
			}
			n++
		}
		if n < 50 {
			t.Errorf("%s: only %d fields listed", rt, n)
		}
	}
}
