package kubectl

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestStrategicMergePatchReference compares the strategic merge with the
// real one: testdata/smp/<kind>.want holds, for each patch of <kind>.cases
// applied to <kind>.json, the output of k8s.io/apimachinery v0.37.2
// strategicpatch.StrategicMergePatch with the k8s.io/api v0.37.2 type
// (corev1.Pod, appsv1.DaemonSet, corev1.Node) as schema: the merged JSON,
// or "error: <message>". Generated once with a throwaway program outside
// this module (the engine must not import k8s.io packages).
func TestStrategicMergePatchReference(t *testing.T) {
	kinds := []struct{ file, apiVersion, kind string }{
		{"pod", "v1", "Pod"}, {"ds", "apps/v1", "DaemonSet"}, {"node", "v1", "Node"},
	}
	for _, k := range kinds {
		orig, err := os.ReadFile(filepath.Join("testdata", "smp", k.file+".json"))
		if err != nil {
			t.Fatal(err)
		}
		cases := readLines(t, filepath.Join("testdata", "smp", k.file+".cases"))
		wants := readLines(t, filepath.Join("testdata", "smp", k.file+".want"))
		if len(cases) != len(wants) || len(cases) == 0 {
			t.Fatalf("%s: %d cases, %d results", k.file, len(cases), len(wants))
		}
		for i, c := range cases {
			o, err := decodeJSONObject(orig)
			if err != nil {
				t.Fatal(err)
			}
			p, err := decodeJSONObject([]byte(c))
			if err != nil {
				t.Fatalf("%s case %d: %v", k.file, i+1, err)
			}
			res, err := strategicMergeMapPatch(o, p, patchSchemaFor(k.apiVersion, k.kind))
			got := ""
			if err != nil {
				got = "error: " + err.Error()
			} else {
				b, _ := json.Marshal(res)
				got = string(b)
			}
			if got != wants[i] {
				t.Errorf("%s case %d %s:\n got %s\nwant %s", k.file, i+1, c, got, wants[i])
			}
		}
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			out = append(out, sc.Text())
		}
	}
	return out
}

// TestJSONPatchReference compares the JSON patch and merge patch with
// gopkg.in/evanphx/json-patch.v4 v4.12.0, the library the API server
// applies them with: testdata/jsonpatch/want.txt holds, for each line
// "json|merge<TAB>document<TAB>patch" of cases.tsv, the library's result
// (Patch.Apply, MergePatch) or "error: <message>", generated once with a
// throwaway program outside this module. Results are compared as JSON
// values (the library keeps untouched members in their original order).
func TestJSONPatchReference(t *testing.T) {
	cases := readLines(t, filepath.Join("testdata", "jsonpatch", "cases.tsv"))
	wants := readLines(t, filepath.Join("testdata", "jsonpatch", "want.txt"))
	if len(cases) != len(wants) || len(cases) == 0 {
		t.Fatalf("%d cases, %d results", len(cases), len(wants))
	}
	for i, line := range cases {
		parts := strings.SplitN(line, "\t", 3)
		doc, err := decodeJSONObject([]byte(parts[1]))
		if err != nil {
			t.Fatal(err)
		}
		var res any
		if parts[0] == "merge" {
			res, err = mergePatchJSON(doc, []byte(parts[2]))
		} else {
			var ops []jsonPatchOperation
			if ops, err = decodeJSONPatch([]byte(parts[2])); err == nil {
				res, err = applyJSONPatch(doc, ops)
			}
		}
		want := wants[i]
		if strings.HasPrefix(want, "error: ") {
			if err == nil || "error: "+err.Error() != want {
				t.Errorf("case %d %s: got %v, want %s", i+1, parts[2], err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d %s: %v, want %s", i+1, parts[2], err, want)
			continue
		}
		w, err := decodeJSONValue([]byte(want))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, w) {
			got, _ := json.Marshal(res)
			t.Errorf("case %d %s:\n got %s\nwant %s", i+1, parts[2], got, want)
		}
	}
}

// FuzzPatch applies any patch text, as each patch type, to the reference
// DaemonSet and Pod: the merges must never panic, whatever the patch.
func FuzzPatch(f *testing.F) {
	for _, file := range []string{"ds.cases", "pod.cases", "node.cases"} {
		b, err := os.ReadFile(filepath.Join("testdata", "smp", file))
		if err != nil {
			f.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			f.Add(l)
		}
	}
	b, err := os.ReadFile(filepath.Join("testdata", "jsonpatch", "cases.tsv"))
	if err != nil {
		f.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if parts := strings.SplitN(l, "\t", 3); len(parts) == 3 {
			f.Add(parts[2])
		}
	}
	docs := map[string][]byte{}
	for _, k := range []string{"ds", "pod", "node"} {
		docs[k], _ = os.ReadFile(filepath.Join("testdata", "smp", k+".json"))
	}
	f.Fuzz(func(t *testing.T, patch string) {
		for k, kind := range map[string][2]string{"ds": {"apps/v1", "DaemonSet"}, "pod": {"v1", "Pod"}, "node": {"v1", "Node"}} {
			rt := &resourceType{kind: kind[1], version: "v1"}
			if kind[0] == "apps/v1" {
				rt.group = "apps"
			}
			for _, ptype := range []string{"strategic", "merge", "json"} {
				orig, _ := decodeJSONObject(docs[k])
				serverApplyPatch(ptype, orig, []byte(patch), rt)
				orig, _ = decodeJSONObject(docs[k])
				clientPatchedJSON(ptype, orig, []byte(patch), rt)
			}
		}
	})
}

// BenchmarkPatchDaemonSet measures one `kubectl patch ds` of the template
// image (render, strategic merge, decode, validation, store update), the
// image alternating so that every iteration changes the object.
func BenchmarkPatchDaemonSet(b *testing.B) {
	env := testEnv(fixture(), nil)
	images := []string{"fluentd:v1", "fluentd:v2"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := Run(env, []string{"patch", "ds", "fluentd", "-p",
			`{"spec":{"template":{"spec":{"containers":[{"name":"fluentd","image":"` + images[i%2] + `"}]}}}}`})
		if r.ExitCode != 0 {
			b.Fatal(r.Stderr)
		}
	}
}
