package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/scenario"
)

// upstreamLine is the header line naming what a scenario mirrors: a Go test
// (`# upstream: DC TestFoo`) or a section of the reference notes
// (`# reference: k8s-semantics.md §3.6`).
var upstreamLine = regexp.MustCompile(`^#\s*(upstream|reference)\s*:.*(\bTest[A-Z]\w*|k8s-semantics\.md\s*(§|section\s*)?\d+(\.\d+)*)`)

// prefixes are the file name prefixes doc.go lists: which part of the
// simulator a scenario covers.
var prefixes = []string{
	"placement-", "taints-", "tolerations-", "existing-", "failed-", "status-", "history-",
	"nodes-", "lifecycle-", "sched-", "validation-", "realworld-", "update-", "objects-", "apply-",
}

func knownPrefix(name string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// headerNamesUpstream reports whether the leading comment lines of a
// scenario (those before its first command or file) include an upstream
// line.
func headerNamesUpstream(data []byte) bool {
	for _, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "#") {
			return false
		}
		if upstreamLine.MatchString(line) {
			return true
		}
	}
	return false
}

// TestConformance runs every testdata/*.txtar scenario; see doc.go.
func TestConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios under testdata/")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !knownPrefix(name) {
				t.Errorf("%s: the file name starts with none of the prefixes %v (add a new one to the list and to doc.go)", file, prefixes)
			}
			if !headerNamesUpstream(data) {
				t.Errorf("%s: the header (comment lines before the first command) names no upstream test or reference section: want a line such as `# upstream: DC TestDealsWithExistingPods` or `# reference: k8s-semantics.md §3.6`", file)
			}
			sc, err := scenario.Parse(filepath.Base(file), data)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if res := sc.Run(&buf); !res.OK() {
				t.Errorf("assertions failed:\n%s\ntranscript:\n%s", strings.Join(res.Failures, "\n"), buf.String())
			}
		})
	}
}

// TestHeaderRule checks the header rule itself.
func TestHeaderRule(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"upstream test", "# Adoption.\n# upstream: DC TestDealsWithExistingPods\nkubectl get ds\n", true},
		{"reference section", "# reference: k8s-semantics.md §3.6\nkubectl get ds\n", true},
		{"reference section word", "# reference: k8s-semantics.md section 3.2 rule 1\nkubectl get ds\n", true},
		{"integration test", "#upstream: IT TestTaintedNode\n", true},
		{"no header", "kubectl get ds\n# upstream: DC TestFoo\n", false},
		{"header without upstream", "# Nodes get pods.\nkubectl get ds\n", false},
		{"upstream word without a test", "# upstream: the daemon controller\nkubectl get ds\n", false},
		{"reference without a section", "# reference: k8s-semantics.md\nkubectl get ds\n", false},
		{"test named outside the upstream line", "# like TestFoo upstream\nkubectl get ds\n", false},
		{"empty file", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := headerNamesUpstream([]byte(tt.src)); got != tt.want {
				t.Errorf("headerNamesUpstream(%q) = %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

// TestPrefixRule checks the file name prefix rule.
func TestPrefixRule(t *testing.T) {
	for name, want := range map[string]bool{
		"placement-simple": true, "update-maxsurge": true, "history-x": true,
		"misc-thing": false, "placement": false, "Placement-x": false,
	} {
		if got := knownPrefix(name); got != want {
			t.Errorf("knownPrefix(%q) = %v, want %v", name, got, want)
		}
	}
}
