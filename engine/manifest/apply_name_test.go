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

// TestClientNameErrorKeepsRepair checks a name lost with the line breaks
// (`metadata:name: n1`): kubectl's own error is all it prints, and the
// repair of the flattened line stays among the diagnostics, silent.
func TestClientNameErrorKeepsRepair(t *testing.T) {
	text := "apiVersion: v1\nkind: Node\nmetadata:name: n1\n"
	strict, fatal := DecodeParts("manifest.yaml", text, DecodeOptions{})
	if fatal != nil || len(strict) != 1 || strict[0].Err == nil {
		t.Fatalf("strict decode: parts %d, fatal %v", len(strict), fatal)
	}
	// kubectl apply looks at the object as decoded leniently
	lenient, _ := DecodeParts("manifest.yaml", text, DecodeOptions{FieldValidation: FieldValidationWarn})
	err := lenient[0].ClientNameError(ModeApply, "")
	if err == nil {
		t.Fatal("no error for an object without metadata.name")
	}
	if err.WithRepairs(nil) != err || err.WithRepairs(err) != err {
		t.Error("WithRepairs without repairs changed the error")
	}
	err = err.WithRepairs(strict[0].Err)
	if got := err.Error(); !strings.HasPrefix(got, "error: error when retrieving current configuration of:") || strings.Contains(got, "line breaks") {
		t.Errorf("kubectl's output %q", got)
	}
	var repair string
	for _, d := range err.Diagnostics {
		if i := strings.Index(d.Hint, flattenedRepair); i >= 0 {
			repair = d.Hint[i+len(flattenedRepair):]
			if d.Line != 3 {
				t.Errorf("the repair is on line %d, want 3", d.Line)
			}
		}
	}
	if repair != "metadata:\n  name: n1" {
		t.Errorf("repair %q, want metadata:\\n  name: n1", repair)
	}
}
