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
		{name: "ideographic space and zero-width", text: "apiVersion: v1\nkind: Node\u200b\nmetadata:\n\u3000name: n1\n",
			kinds: []string{"spaces"}, lines: [][]int{{2, 4}}, all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"},
		{name: "tabs", text: "apiVersion: v1\nkind: Node\nmetadata:\n\tname: n1\n",
			kinds: []string{"tabs"}, lines: [][]int{{4}}, all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"},
		{name: "bullets", text: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  • name: c\n    image: nginx\n    args:\n    · a\n",
			kinds: []string{"bullets"}, lines: [][]int{{7, 10}},
			all: "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n    args:\n    - a\n"},
		{name: "curly quotes", text: "apiVersion: v1\nkind: Node\nmetadata:\n  name: “n1”\n  annotations:\n    note: ‘it’s fine’\n    a: “say \"hi\"”\n    b: don’t\n",
			kinds: []string{"quotes"}, lines: [][]int{{4, 6, 7}},
			all: "apiVersion: v1\nkind: Node\nmetadata:\n  name: \"n1\"\n  annotations:\n    note: \"it’s fine\"\n    a: 'say \"hi\"'\n    b: don’t\n"},
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

// TestRepairsKeepBlockScalars checks that the content of a block scalar
// (a script) keeps its bullets, quotes and colons.
func TestRepairsKeepBlockScalars(t *testing.T) {
	text := "apiVersion: v1\nkind: Pod\nmetadata:\n  name：p\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args:\n    - |\n      • “step one”\n      key：value\n\n      echo done\n    - >-\n      ‘folded’\n    env:\n    • name: A\n"
	repairs, all := Repairs(text)
	var kinds []string
	for _, r := range repairs {
		kinds = append(kinds, r.Kind)
	}
	if strings.Join(kinds, ",") != "bullets,punctuation" {
		t.Errorf("repairs %v, want bullets, punctuation", kinds)
	}
	want := strings.Replace(strings.Replace(text, "name：p", "name: p", 1), "    • name: A", "    - name: A", 1)
	if all != want {
		t.Errorf("repaired:\n%s\nwant:\n%s", all, want)
	}
}

// TestRepairsBreakers holds inputs found by trying to break Repairs: what
// Repair everything gives, and that nothing is left to repair after it.
func TestRepairsBreakers(t *testing.T) {
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n"
	for _, tc := range []struct{ name, text, all string }{
		{"bullet behind non-breaking spaces",
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n\u00a0\u00a0• name: c\n\u00a0\u00a0\u00a0\u00a0image: nginx\n",
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n"},
		{"full-width colon behind an ideographic space",
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n\u3000name：cm\n", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"},
		{"backslashes in curly quotes", cm + "  pattern: “\\d+”\n", cm + "  pattern: '\\d+'\n"},
		{"full-width brackets in prose", cm + "  note: ［重要］请勿删除，谢谢\n", ""},
		{"block scalar behind non-breaking spaces", cm + "\u00a0\u00a0run.sh:\u00a0|\n\u00a0\u00a0\u00a0\u00a0“quoted”\n",
			cm + "  run.sh: |\n    “quoted”\n"},
		{"CRLF", "apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: “cm”\r\ndata:\r\n  run.sh: |\r\n    • step\r\n    key：value\r\n",
			"apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: \"cm\"\r\ndata:\r\n  run.sh: |\r\n    • step\r\n    key：value\r\n"},
		{"bullet heading a block scalar",
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args:\n    • |\n      • step one\n      key：value\n",
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args:\n    - |\n      • step one\n      key：value\n"},
		{"tab-indented block scalar", cm + "\trun.sh: |\n\t\t• step one\n\t\tkey：value\n", cm + "  run.sh: |\n    • step one\n    key：value\n"},
		{"full-width commas in quotes and comments", cm + "  a: [\"你好，世界\"]\n  b: x # 注意，不要删除\n", ""},
		{"full-width colon in a list of strings",
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args:\n    - Note：请先安装\n", ""},
		{"two curly-quoted parts", cm + "  title: “Fast” or “Slow”\n", ""},
		{"joiners and spaces inside values", cm + "  team: 👩\u200d💻 devs\n  note: 第一章\u3000概要\n  sep: \"a\u00a0b\"\n", ""},
		{"flow mapping with full-width punctuation", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {app：web，tier：edge}\n",
			"apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {app: web, tier: edge}\n"},
		{"en-dash list item", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  – name: c\n    image: nginx\n",
			"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n"},
		{"soft hyphen in a key", "apiVersion: v1\nkind: Node\nmetadata:\n  na\u00adme: n1\n", "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, all := Repairs(tc.text)
			if all != tc.all {
				t.Errorf("Repair everything gives\n%q\nwant\n%q", all, tc.all)
			}
			if all == "" {
				return
			}
			if again, _ := Repairs(all); again != nil {
				t.Errorf("after Repair everything, still %+v", again)
			}
			if _, err := Decode("m.yaml", all); err != nil {
				t.Errorf("the repaired text does not decode: %v", err)
			}
		})
	}
}
