package engine

import (
	"strings"
	"testing"
	"time"
)

// TryApply returns Apply's error, decoding or admission, and writes
// nothing either way.
func TestTryApply(t *testing.T) {
	s := New(Options{})
	for _, tc := range []struct {
		name, text string
		ok         bool
	}{
		{"good", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", true},
		{"decode", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1\n", false},
		{"unknown field", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nspec: {}\n", false},
		{"empty", "# nothing\n", false},
		{"admission", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: nope}\n", false},
	} {
		rv, now := s.store.ResourceVersion(), s.Now()
		err := s.TryApply("x.yaml", tc.text)
		if rv2 := s.store.ResourceVersion(); rv2 != rv || !s.Now().Equal(now) {
			t.Errorf("%s: TryApply wrote (resourceVersion %d -> %d)", tc.name, rv, rv2)
		}
		c := New(Options{})
		_, want := c.Apply("x.yaml", tc.text)
		if (err == nil) != tc.ok || (err == nil) != (want == nil) || err != nil && err.Error() != want.Error() {
			t.Errorf("%s: TryApply %v, Apply %v (want ok %v)", tc.name, err, want, tc.ok)
		}
	}
	if s.store.ConfigMap("default", "c") != nil {
		t.Error("TryApply stored a ConfigMap")
	}
}

// Truncate forgets the inputs after the first n, even several at one
// instant (which Branch, taking a time, cannot tell apart).
func TestRecorderTruncate(t *testing.T) {
	r := NewRecorder(Options{})
	r.Advance(2 * time.Second)
	r.Run("kubectl label nodes node-1 a=1")
	n := len(r.Inputs())
	steps := len(r.Steps())
	r.SetFile("manifest.yaml", "x")
	r.Run("kubectl label nodes node-2 b=2")
	if err := r.Truncate(n); err != nil {
		t.Fatal(err)
	}
	if len(r.Inputs()) != n || len(r.Steps()) != steps {
		t.Fatalf("%d inputs, %d steps after Truncate(%d), want %d and %d", len(r.Inputs()), len(r.Steps()), n, n, steps)
	}
	out := r.Run("kubectl get nodes --show-labels").Stdout
	if !strings.Contains(out, "a=1") || strings.Contains(out, "b=2") {
		t.Errorf("after Truncate:\n%s", out)
	}
	if _, ok := r.Live().Files["manifest.yaml"]; ok {
		t.Error("the truncated SetFile is still live")
	}
	if err := r.Truncate(99); err == nil {
		t.Error("Truncate past the log: no error")
	}
}
