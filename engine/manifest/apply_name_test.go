package manifest

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// TestApplyGenerateName checks metadata.generateName: kubectl create gets a
// name from the API server (prefix + 5 random characters), kubectl apply
// refuses it before sending anything, kubectl replace has no name.
func TestApplyGenerateName(t *testing.T) {
	text := strings.Replace(minimalDS, "  name: web\n", "  generateName: web-\n", 1)
	c := newCluster()
	lines := mustApply(t, c, text, ModeCreate)
	if len(lines) != 1 || !regexp.MustCompile(`^daemonset\.apps/web-[a-z0-9]{5} created$`).MatchString(lines[0]) {
		t.Fatalf("create: %q", lines)
	}
	name := strings.TrimSuffix(strings.TrimPrefix(lines[0], "daemonset.apps/"), " created")
	if ds := c.DaemonSet("default", name); ds == nil || ds.GenerateName != "web-" {
		t.Fatalf("stored DaemonSet %q: %+v", name, ds)
	}
	// a second create makes a second DaemonSet
	if again := mustApply(t, c, text, ModeCreate); again[0] == lines[0] {
		t.Errorf("the same generated name twice: %q", again)
	}
	for mode, want := range map[Mode]string{
		ModeApply:   "error: from web-: cannot use generate name with apply",
		ModeReplace: `error: error when replacing "ds.yaml": resource name may not be empty`,
	} {
		rv := c.ResourceVersion()
		_, err := apply(t, c, text, mode)
		var me *Error
		if !errors.As(err, &me) {
			t.Fatalf("mode %d: error %T %v", mode, err, err)
		}
		if got := me.Error(); got != want {
			t.Errorf("mode %d: got %q, want %q", mode, got, want)
		}
		if d := me.Diagnostics[0]; d.Line != 4 || d.Field != "metadata.generateName" {
			t.Errorf("mode %d: diagnostic at %d:%d %s", mode, d.Line, d.Column, d.Field)
		}
		if c.ResourceVersion() != rv {
			t.Errorf("mode %d: store changed", mode)
		}
	}
}

// TestImmutableSelectorDiagnostic checks the update rule's diagnostic: the
// API server's text, the line of the selector, and a hint naming the way
// out.
func TestImmutableSelectorDiagnostic(t *testing.T) {
	c := newCluster()
	mustApply(t, c, minimalDS, ModeApply)
	_, err := apply(t, c, strings.ReplaceAll(minimalDS, "app: web", "app: api"), ModeApply)
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("error %T %v", err, err)
	}
	d := me.Diagnostics[0]
	if d.Field != "spec.selector" || d.Line != 7 || !strings.Contains(d.Hint, "kubectl delete ds web -n default") {
		t.Errorf("diagnostic %+v", d)
	}
}
