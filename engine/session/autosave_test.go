package session

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine"
)

func TestFragmentParam(t *testing.T) {
	for hash, want := range map[string]string{"#s=abc": "abc", "#x=1&s=q_-": "q_-", "#s=": "", "": "", "#sx=1": "", "s=z": "z"} {
		if got, _ := FragmentParam(hash, "s"); got != want {
			t.Errorf("FragmentParam(%q) = %q, want %q", hash, got, want)
		}
	}
}

func TestOriginKey(t *testing.T) {
	cases := []struct {
		name, search, hash string
		same               string // another address that must give the same key ("" none)
		empty              bool
	}{
		{name: "bare page", empty: true},
		{name: "display flags only", search: "?paused&instant=1&compare", empty: true},
		{name: "share link", hash: "#s=abc", same: "#s=abc&watch=1"},
		{name: "lesson", search: "?lesson=03-taints", same: "?paused&lesson=03-taints"},
		{name: "exercise", search: "?exercise=e1"},
		{name: "example", search: "?example=node-exporter.yaml"},
		{name: "yaml", search: "?yaml=kind%3A%20Pod"},
		{name: "empty fragment", hash: "#s=", empty: true},
	}
	seen := map[string]string{}
	for _, c := range cases {
		k := OriginKey(c.search, c.hash)
		if c.empty != (k == "") {
			t.Errorf("%s: OriginKey(%q, %q) = %q, want empty=%v", c.name, c.search, c.hash, k, c.empty)
			continue
		}
		if k == "" {
			continue
		}
		if prev, dup := seen[k]; dup {
			t.Errorf("%s: key %q already given to %s", c.name, k, prev)
		}
		seen[k] = c.name
		if c.same != "" {
			s, h := c.search, c.hash
			if strings.HasPrefix(c.same, "#") {
				h = c.same
			} else {
				s = c.same
			}
			if got := OriginKey(s, h); got != k {
				t.Errorf("%s: %q gives %q, want %q", c.name, c.same, got, k)
			}
		}
	}
	if OriginKey("", "#s=abc") == OriginKey("", "#s=abd") {
		t.Error("two share links share a key")
	}
}

func TestSavedRoundTrip(t *testing.T) {
	in := Saved{Tab: "t1", SavedAt: 1.5e12, Origin: "s:1", Clock: 12.5, Inputs: 3, Work: true, Scenario: "-- a --\nx\n", Build: "abc"}
	text, err := EncodeSaved(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := DecodeSaved(text)
	if err != nil {
		t.Fatal(err)
	}
	in.V = SavedVersion
	if out != in {
		t.Errorf("round trip: got %+v, want %+v", out, in)
	}
	if _, err := EncodeSaved(Saved{Scenario: strings.Repeat("x", MaxSavedBytes)}); err != ErrSavedTooBig {
		t.Errorf("a huge session: err = %v, want ErrSavedTooBig", err)
	}
}

func TestDecodeSavedRefuses(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "not a saved session"},
		{"{", "not a saved session"},
		{"[1,2]", "not a saved session"},
		{`{"v":2,"scenario":"x"}`, "format 2; this page reads format 1"},
		{`{"v":1,"scenario":"  "}`, "holds no scenario"},
		{`{"v":1,"scenario":7}`, "not a saved session"},
	} {
		_, err := DecodeSaved(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("DecodeSaved(%q): err = %v, want it to say %q", c.text, err, c.want)
		}
	}
}

func TestPlanRestore(t *testing.T) {
	work := &Saved{Origin: "", Work: true}
	fromLink := &Saved{Origin: "s:1", Work: true}
	idle := &Saved{Origin: "", Work: false}
	for _, c := range []struct {
		name    string
		origin  string
		cur     *Saved
		ownKept bool
		want    RestorePlan
	}{
		{"nothing saved", "", nil, false, OpenAddress},
		{"nothing saved, a link", "s:1", nil, false, OpenAddress},
		{"bare page restores", "", work, false, RestoreSaved},
		{"bare page restores a link's session", "", fromLink, false, RestoreSaved},
		{"reload of the link", "s:1", fromLink, false, RestoreSaved},
		{"another link keeps the work", "s:2", work, false, KeepAndOpenAddress},
		{"another link over a link's work", "s:2", fromLink, false, KeepAndOpenAddress},
		{"own already kept", "s:2", fromLink, true, OpenAddress},
		{"nothing of the learner's", "s:2", idle, false, OpenAddress},
	} {
		if got := PlanRestore(c.origin, c.cur, c.ownKept); got != c.want {
			t.Errorf("%s: PlanRestore = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestClaimed(t *testing.T) {
	if Claimed(nil, "a") || Claimed(&Saved{Tab: "a"}, "a") || Claimed(&Saved{}, "a") {
		t.Error("a tab's own record, or none, claims nothing")
	}
	if !Claimed(&Saved{Tab: "b"}, "a") {
		t.Error("another tab's record claims the slot")
	}
}

func TestMadeByNote(t *testing.T) {
	log := func(build, k8s string) []byte {
		return []byte("-- " + InputsFile + " --\n" + `{"v":1,"at":0,"in":[],"build":"` + build + `","kubernetes":"` + k8s + `"}` + "\n")
	}
	for _, c := range []struct {
		name string
		data []byte
		want string // "" no note
	}{
		{"same build", log("abc", engine.KubernetesVersion), ""},
		{"a log that does not say", log("", ""), ""},
		{"no log", []byte("# a script\nkubectl get nodes\n"), ""},
		{"another build", log("old123", engine.KubernetesVersion), "another build of the playground (old123; this page is abc)"},
		{"another release", log("old123", "v1.36.1"), "behaves as Kubernetes v1.36.1; this one behaves as " + engine.KubernetesVersion},
	} {
		got := MadeByNote(c.data, "abc")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: MadeByNote = %q, want %q", c.name, got, c.want)
		}
	}
}

// Export records the build and the release it was made by.
func TestExportRecordsMadeBy(t *testing.T) {
	rec := engine.NewRecorder(engine.Options{})
	rec.Run("kubectl get nodes")
	b, k := MadeBy(Export(rec, ExportOptions{}))
	if b != Build() || k != engine.KubernetesVersion {
		t.Errorf("MadeBy(Export) = %q, %q; want %q, %q", b, k, Build(), engine.KubernetesVersion)
	}
}
