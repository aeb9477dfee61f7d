package engine

import (
	"errors"
	"testing"

	"github.com/dsplayground/dsplay/engine/manifest"
)

// TestApplyEmpty: text with no object (the editor emptied, or only
// comments) is kubectl's `error: no objects passed to apply`, as a
// *manifest.Error with a hint, and writes nothing.
func TestApplyEmpty(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# just a comment\n", "---\n# a\n---\n", "apiVersion: v1\nkind: List\nitems: []\n"} {
		s := New(Options{})
		rv := s.store.ResourceVersion()
		r, err := s.Apply("editor.yaml", text)
		var me *manifest.Error
		if !errors.As(err, &me) || me.Error() != "error: no objects passed to apply" || r != nil {
			t.Errorf("%q: %v, %v", text, r, err)
			continue
		}
		if d := me.Diagnostics[0]; d.File != "editor.yaml" || d.Line != 1 || d.Hint == "" {
			t.Errorf("%q: diagnostic %+v", text, d)
		}
		if s.store.ResourceVersion() != rv {
			t.Errorf("%q: the store changed", text)
		}
	}
}
