package examples

import (
	"io/fs"
	"testing"

	"github.com/dsplayground/dsplay/engine/manifest"
)

// TestEveryManifestListedAndValid keeps the menu in step with the folder
// and checks each manifest decodes and validates.
func TestEveryManifestListedAndValid(t *testing.T) {
	files, err := fs.Glob(manifests, "manifests/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range Manifests() {
		listed["manifests/"+m.File] = true
		if _, err := manifest.Decode(m.File, m.Text); err != nil {
			t.Errorf("%s: %v", m.File, err)
		}
	}
	for _, f := range files {
		if !listed[f] {
			t.Errorf("%s is not listed in order", f)
		}
	}
	if len(listed) != len(files) {
		t.Errorf("order lists %d files, the folder has %d", len(listed), len(files))
	}
}
