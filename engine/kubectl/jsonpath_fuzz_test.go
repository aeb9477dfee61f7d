package kubectl

import (
	"strings"
	"testing"
)

// fuzzObjects are rendered fixture objects (a List of pods and a node)
// for the JSONPath fuzz targets.
func fuzzObjects(t testing.TB) []map[string]any {
	c := fixture()
	var out []map[string]any
	var items []map[string]any
	for _, p := range c.Pods() {
		m, err := RenderObject(p)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, m)
	}
	out = append(out, listObject(items))
	n, err := RenderObject(c.Node("node-1"))
	if err != nil {
		t.Fatal(err)
	}
	return append(out, n)
}

// jsonPathSeeds are templates from kubectl's documentation and tests,
// and malformed ones.
var jsonPathSeeds = []string{
	"{.items[*].metadata.name}", "{.metadata.name}", `{range .items[*]}{.metadata.name}{"\t"}{end}`,
	`{.items[?(@.status.phase=="Running")].metadata.name}`, "{.items[0:2].metadata.name}", "{.items[-1:]}",
	"{..name}", "{.spec.containers[*]['name','image']}", "{.items[*].metadata.labels.app}",
	`{.status.addresses[?(@.type=="InternalIP")].address}`, "{@}", "{$}", "{.a[}", "{range}", "{end}",
	"{.items[::0]}", "{.items[?(@.x>1)]}", `{"\n"}`, "{.items[*].spec.tolerations[?(@.tolerationSeconds > 100)].key}",
	"{{}}", "{.items[1:0]}", "{.items[99]}", "{.metadata.labels['app']}", "{.x}{.y", "text {.kind} text",
}

// FuzzJSONPath checks that -o jsonpath never panics, whatever the
// template: it is parsed as kubectl parses it and run on rendered objects.
func FuzzJSONPath(f *testing.F) {
	for _, s := range jsonPathSeeds {
		f.Add(s)
	}
	objs := fuzzObjects(f)
	f.Fuzz(func(t *testing.T, tmpl string) {
		for _, format := range []string{"jsonpath", "jsonpath-as-json"} {
			p, err := newJSONPathPrinter(format, tmpl)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "error parsing jsonpath") && !strings.HasPrefix(err.Error(), "template format specified") {
					t.Fatalf("%q: unexpected error shape %q", tmpl, err)
				}
				return
			}
			for _, o := range objs {
				p.print(o)
			}
		}
		// --sort-by goes through the relaxed form and the same parser
		objsForSort := []object{}
		c := fixture()
		for _, p := range c.Pods() {
			objsForSort = append(objsForSort, wrap(rtPods, p))
		}
		sortObjects(objsForSort, tmpl)
	})
}

// FuzzCustomColumns checks that -o custom-columns never panics: the spec
// is parsed as kubectl parses it and printed for rendered pods.
func FuzzCustomColumns(f *testing.F) {
	for _, s := range []string{
		"NAME:.metadata.name", "NAME:metadata.name,NODE:.spec.nodeName", "A:{.a}", "A:{.a}}", "NAME", "",
		"A:.items[", "IMG:.spec.containers[*].image", "X:..name,Y:$", ":,:", "A:.a,B", "A:{range .x}",
		"T:.spec.tolerations[?(@.effect==\"NoExecute\")].key",
	} {
		f.Add(s)
	}
	objs := fuzzObjects(f)
	items, _ := objs[0]["items"].([]any)
	var pods []map[string]any
	for _, it := range items {
		pods = append(pods, it.(map[string]any))
	}
	f.Fuzz(func(t *testing.T, spec string) {
		cols, err := ParseCustomColumns(spec)
		if err != nil {
			return
		}
		tb, err := customColumnsTable(cols, pods)
		if err != nil {
			return
		}
		if len(tb.rows) != len(pods) {
			t.Fatalf("%q: %d rows for %d objects", spec, len(tb.rows), len(pods))
		}
		tb.render(false)
		parseCustomColumnsFile(strings.ReplaceAll(spec, ",", "\n"))
	})
}

// FuzzEditFinish checks that saving any text in `kubectl edit` never
// panics and always ends in a result kubectl could print: an exit status
// of 0 or 1, and errors on stderr.
func FuzzEditFinish(f *testing.F) {
	c := fixture()
	r := Run(&Env{Cluster: c}, []string{"edit", "ds", "fluentd"})
	if r.Edit == nil {
		f.Fatal("no editor")
	}
	shown := r.Edit.Text
	for _, s := range []string{shown, "", "#", "kind: List\nitems: []\n", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd\n",
		strings.Replace(shown, "fluentd:v1.16", "fluentd:v2", 1), strings.Replace(shown, "spec:", "spec: 3", 1), "{]", "- a\n- b\n",
		strings.Replace(shown, "  selector:", "  selector: null\n  x:", 1)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := fixture()
		env := &Env{Cluster: c}
		r := Run(env, []string{"edit", "ds", "fluentd"})
		for i := 0; i < 2 && r.Edit != nil; i++ {
			r = r.Edit.Finish(text)
			if r.ExitCode != 0 && r.ExitCode != 1 {
				t.Fatalf("exit %d", r.ExitCode)
			}
			if r.ExitCode == 1 && r.Stderr == "" {
				t.Fatalf("failure without a message")
			}
		}
		if r.Edit != nil {
			t.Fatalf("the editor is still open after saving the same text twice")
		}
	})
}
