package kubectl

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/manifest"
)

// TestApplyErrorsPassThrough checks that apply/create/replace print the
// manifest package's error exactly as its Error() renders it (kubectl's
// words are that package's business), exit 1, and leave the store as it was.
func TestApplyErrorsPassThrough(t *testing.T) {
	files := map[string]string{
		"bad.yaml":      badYAML,
		"extv1.yaml":    strings.Replace(dsYAML, "apps/v1", "extensions/v1beta1", 1),
		"mismatch.yaml": strings.Replace(dsYAML, "app: node-exporter\n    spec", "app: other\n    spec", 1),
	}
	for _, verb := range []string{"apply", "create", "replace"} {
		for _, name := range []string{"bad.yaml", "extv1.yaml", "mismatch.yaml"} {
			c := fixture()
			rv := c.ResourceVersion()
			env := testEnv(c, files)
			r := Run(env, []string{"kubectl", verb, "-f", name})
			var want string
			docs, err := manifest.Decode(name, files[name])
			if err == nil {
				mode := map[string]manifest.Mode{"apply": manifest.ModeApply, "create": manifest.ModeCreate, "replace": manifest.ModeReplace}[verb]
				_, err = manifest.ApplyTo(fixture(), docs, mode)
			}
			if err == nil {
				t.Fatalf("%s %s: the manifest package accepted it", verb, name)
			}
			want = err.Error()
			if !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if r.ExitCode != 1 || r.Stderr != want || r.Stdout != "" {
				t.Errorf("%s -f %s: got %+v, want stderr %q", verb, name, r, want)
			}
			if c.ResourceVersion() != rv {
				t.Errorf("%s -f %s: the store changed", verb, name)
			}
		}
	}
}
