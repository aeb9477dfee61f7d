package manifest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestRepairs checks each fix of pasted damage: which lines it changes,
// that it leaves the rest alone, and that the text with every fix applied
// decodes.
func TestRepairs(t *testing.T) {
	const clean = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    tier: \"edge\"\n"
	for _, tc := range []struct {
		name, text string
		kinds      []string // the repairs, in order
		lines      [][]int
		all        string
	}{
		{name: "clean", text: clean},
		{name: "non-breaking spaces", text: "apiVersion: v1\nkind: Node\nmetadata:\n\u00a0\u00a0name:\u00a0n1\n",
			kinds: []string{"spaces"}, lines: [][]int{{4}}, all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"},
		{name: "ideographic space and zero-width", text: "apiVersion: v1\nkind: Node\u200b\nmetadata:\n\u3000 name: n1\n",
			kinds: []string{"spaces"}, lines: [][]int{{2, 4}}, all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"},
		{name: "tabs", text: "apiVersion: v1\nkind: Node\nmetadata:\n\tname: n1\n",
			kinds: []string{"tabs"}, lines: [][]int{{4}}, all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"},
		{name: "bullets", text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  • name: c\n    image: nginx\n    args:\n    · a\n",
			kinds: []string{"bullets"}, lines: [][]int{{7, 10}},
			all: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n    args:\n    - a\n"},
		{name: "curly quotes", text: "apiVersion: v1\nkind: Node\nmetadata:\n  name: “n1”\n  annotations:\n    note: ‘it’s fine’\n    a: “say \"hi\"”\n    b: don’t\n",
			kinds: []string{"quotes"}, lines: [][]int{{4, 6}},
			all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: \"n1\"\n  annotations:\n    note: 'it’s fine'\n    a: “say \"hi\"”\n    b: don’t\n"},
		{name: "full-width colon and commas", text: "apiVersion：v1\nkind： Node\nmetadata:\n  name: n1\n  annotations:\n    note: 节点，边缘：一\n  finalizers: [a，b]\n",
			kinds: []string{"punctuation"}, lines: [][]int{{1, 2, 7}},
			all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  annotations:\n    note: 节点，边缘：一\n  finalizers: [a, b]\n"},
		{name: "several", text: "apiVersion：v1\nkind: Node\nmetadata:\n\tname:\u00a0“n1”\n",
			kinds: []string{"spaces", "tabs", "quotes", "punctuation"}, lines: [][]int{{4}, {4}, {4}, {1}},
			all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: \"n1\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repairs, all := Repairs(tc.text)
			if len(repairs) != len(tc.kinds) {
				t.Fatalf("repairs %+v, want kinds %v", repairs, tc.kinds)
			}
			for i, r := range repairs {
				if r.Kind != tc.kinds[i] || !equalInts(r.Lines, tc.lines[i]) {
					t.Errorf("repair %d: %s on lines %v, want %s on %v", i, r.Kind, r.Lines, tc.kinds[i], tc.lines[i])
				}
				if r.Text == tc.text || !strings.Contains(r.Title, "line") {
					t.Errorf("repair %d: text unchanged or title %q", i, r.Title)
				}
			}
			if all != tc.all {
				t.Errorf("all:\n%s\nwant:\n%s", all, tc.all)
			}
			if all != "" {
				if _, err := Decode("m.yaml", all); err != nil {
					t.Errorf("the repaired text does not decode: %v", err)
				}
			}
		})
	}
}

func TestLinesList(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{[]int{3}, "line 3"},
		{[]int{3, 4}, "lines 3, 4"},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9}, "lines 1, 2, 3, 4, 5 and 4 more"},
	} {
		if got := linesList(tc.in); got != tc.want {
			t.Errorf("linesList(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRepairsSeedCopies damages each seed article's manifest the ways a
// web page copy does and checks that Repair everything gives the manifest
// back; the article copies under testdata/mangled decode once repaired.
func TestRepairsSeedCopies(t *testing.T) {
	lead := regexp.MustCompile(`(?m)^( +)`)
	key := regexp.MustCompile(`(?m)^(\s*(?:- )?[A-Za-z0-9_./-]+): `)
	damages := map[string]func(string) string{
		"nbsp": func(s string) string {
			return lead.ReplaceAllStringFunc(s, func(m string) string { return strings.Repeat("\u00a0", len(m)) })
		},
		"tabs": func(s string) string {
			return lead.ReplaceAllStringFunc(s, func(m string) string {
				if len(m)%2 != 0 {
					return m
				}
				return strings.Repeat("\t", len(m)/2)
			})
		},
		"bullets": func(s string) string { return regexp.MustCompile(`(?m)^(\s*)- `).ReplaceAllString(s, "$1• ") },
		"quotes":  func(s string) string { return regexp.MustCompile(`: "([^"]*)"$`).ReplaceAllString(s, ": “$1”") },
		"colons":  func(s string) string { return key.ReplaceAllString(s, "$1：") },
	}
	seeds, err := filepath.Glob(filepath.Join("testdata", "seeds", "*.yaml"))
	if err != nil || len(seeds) == 0 {
		t.Fatalf("no seeds: %v", err)
	}
	for _, f := range seeds {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		clean := string(b)
		for name, damage := range damages {
			damaged := damage(clean)
			if damaged == clean {
				continue
			}
			if _, all := Repairs(damaged); all != clean {
				t.Errorf("%s, %s: repaired text differs from the seed:\n%s", filepath.Base(f), name, all)
			}
		}
	}
	// the article's copy with its non-breaking spaces is the article's
	// manifest once repaired (whose own problem, a volume named
	// configPath, stays for the learner)
	read := func(f string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "mangled", f))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if _, all := Repairs(read("logstash-article-nbsp.yaml")); all != read("logstash-article.yaml") {
		t.Errorf("logstash-article-nbsp.yaml repaired:\n%s", all)
	}
	if _, all := Repairs(read("fluentd-tabs.yaml")); all == "" {
		t.Error("fluentd-tabs.yaml: no repair offered")
	} else if _, err := Decode("fluentd-tabs.yaml", all); err != nil {
		t.Errorf("fluentd-tabs.yaml: the repaired copy does not decode: %v", err)
	}
}
