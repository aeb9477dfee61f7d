package examples

import (
	"io/fs"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

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

// TestScenariosCarryTheManifests keeps each scenario's copy of a manifest
// (examples/NAME.txtar's file NAME.yaml, which its commands apply) the same
// as the manifest the editor offers, so the scenarios test what the page
// shows.
func TestScenariosCarryTheManifests(t *testing.T) {
	for _, m := range Manifests() {
		name := strings.TrimSuffix(m.File, ".yaml") + ".txtar"
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Errorf("%s: %v", m.File, err)
			continue
		}
		found := false
		for _, f := range ar.Files {
			if f.Name == m.File {
				found = true
				if string(f.Data) != m.Text {
					t.Errorf("%s's copy of %s differs from manifests/%s", name, m.File, m.File)
				}
			}
		}
		if !found {
			t.Errorf("%s holds no file %s", name, m.File)
		}
	}
}
