package engine

import (
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// TestEditUnchangedCancels checks kubectl edit's first comparison
// (editoptions.go EditOptions.Run: bytes.Equal of cmdutil.StripComments of
// the original and the edited file, StripComments being yaml.ToJSON): a
// file saved as shown, with its comments removed, re-indented, its keys
// reordered or its trailing newline dropped converts to the same JSON and
// ends with "Edit cancelled, no changes made." and no write; only a real
// change is "edited".
func TestEditUnchangedCancels(t *testing.T) {
	reindent := func(s string) string {
		// the same document, key order kept, indented by four spaces
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(4)
		if err := enc.Encode(&doc); err != nil {
			t.Fatal(err)
		}
		if b.String() == s || !strings.Contains(b.String(), "\n            - ") && !strings.Contains(b.String(), "\n        ") {
			t.Fatalf("re-indenting changed nothing:\n%s", b.String())
		}
		return b.String()
	}
	reorder := func(s string) string {
		// move the top-level "kind:" line to the end of the file
		lines := strings.SplitAfter(s, "\n")
		var kind string
		var rest []string
		for _, l := range lines {
			if strings.HasPrefix(l, "kind: ") {
				kind = l
				continue
			}
			rest = append(rest, l)
		}
		out := strings.Join(rest, "")
		if !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		return out + kind
	}
	noComments := func(s string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(s, "\n") {
			if !strings.HasPrefix(l, "#") {
				b.WriteString(l)
			}
		}
		return b.String()
	}
	cases := []struct {
		name       string
		edit       func(string) string
		wantStdout string
		wantStderr string
	}{
		{"unchanged", func(s string) string { return s }, "", "Edit cancelled, no changes made.\n"},
		{"no trailing newline", func(s string) string { return strings.TrimSuffix(s, "\n") }, "", "Edit cancelled, no changes made.\n"},
		{"CRLF line ends", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }, "", "Edit cancelled, no changes made.\n"},
		{"comments removed", noComments, "", "Edit cancelled, no changes made.\n"},
		{"re-indented", reindent, "", "Edit cancelled, no changes made.\n"},
		{"keys reordered", reorder, "", "Edit cancelled, no changes made.\n"},
		{"changed", func(s string) string { return strings.Replace(s, "image: busybox:1.36", "image: busybox:1.37", 1) }, "daemonset.apps/agent edited\n", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{})
			s.Files["a.yaml"] = agentYAML
			s.Run("kubectl apply -f a.yaml")
			s.Advance(30 * time.Second)
			rv := s.Run("kubectl get ds agent -o jsonpath={.metadata.resourceVersion}").Stdout
			out := s.Run("kubectl edit ds agent")
			if out.Edit == nil {
				t.Fatalf("editor did not open: %+v", out)
			}
			done := s.FinishEdit(out.Edit, tc.edit(out.Edit.Text))
			if done.Stdout != tc.wantStdout || done.Stderr != tc.wantStderr || done.ExitCode != 0 || done.Edit != nil {
				t.Errorf("FinishEdit = stdout %q stderr %q exit %d reopen %v; want stdout %q stderr %q", done.Stdout, done.Stderr, done.ExitCode, done.Edit != nil, tc.wantStdout, tc.wantStderr)
			}
			after := s.Run("kubectl get ds agent -o jsonpath={.metadata.resourceVersion}").Stdout
			if changed := after != rv; changed != (tc.wantStdout != "") {
				t.Errorf("resourceVersion %s -> %s; want a write only for a real change", rv, after)
			}
		})
	}
}

// TestEditSameInvalidSaveEnds: a file saved again as it was saved before,
// after an error, ends the edit (upstream EditOptions.Run compares the
// save with the previous one, editedDiff), even when comments in it make
// the text shown differ from the text saved (fuzz inputs that kept the
// editor open for ever).
func TestEditSameInvalidSaveEnds(t *testing.T) {
	for _, text := range []string{"#\x8c\nA", "0\n#\n0", "kind: [\n# x\n"} {
		s := New(Options{})
		if _, err := s.Apply("ds.yaml", sceneDS("")); err != nil {
			t.Fatal(err)
		}
		e := s.Run("kubectl edit ds/ds-demo").Edit
		saves := 0
		var last Output
		for ; e != nil && !e.Done() && saves < 5; saves++ {
			last = s.FinishEdit(e, text)
			e = last.Edit
		}
		if saves != 2 || last.ExitCode != 1 || !strings.Contains(last.Stderr, "error: Edit cancelled, no valid changes were saved.") {
			t.Errorf("%q: %d saves, the last exit %d stderr %q; want the second to end the edit", text, saves, last.ExitCode, last.Stderr)
		}
	}
}
