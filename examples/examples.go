// Package examples embeds the seed manifests (re-indented copies of the
// manifests in the articles the playground grew from) so that the browser
// app and the tests use the same files as the scenarios under examples/,
// and the course: the lessons (examples/lessons/*.txtar) and exercises
// (examples/exercises/*.txtar), txtar scenarios whose header comments
// (`# title:`, `# kind:`, ...) engine/scenario reads. This package imports
// nothing from engine/, so that any package may use it; callers parse
// File.Data with scenario.Parse to get a file's metadata (Meta, Lesson).
package examples

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed manifests/*.yaml
var manifests embed.FS

//go:embed lessons/*.txtar exercises/*.txtar
var course embed.FS

//go:embed i18n/*.json
var catalogues embed.FS

// Catalogues returns the page's translation catalogues (i18n/LANG.json,
// session.ParseCatalogue's format) by language tag ("en", "zh-CN").
func Catalogues() map[string][]byte {
	out := map[string][]byte{}
	entries, _ := catalogues.ReadDir("i18n")
	for _, e := range entries {
		b, err := catalogues.ReadFile("i18n/" + e.Name())
		if err == nil {
			out[strings.TrimSuffix(e.Name(), ".json")] = b
		}
	}
	return out
}

// Manifest is one example manifest the editor can load.
type Manifest struct {
	// File is the file name under examples/manifests, e.g. "ds-demo.yaml".
	File string
	// Title is the label of the editor's example menu.
	Title string
	// Text is the YAML, comments included.
	Text string
}

// order lists the manifests in the order a course would show them; the
// first is the one the page applies on load.
var order = []struct{ file, title string }{
	{"fluentd-elasticsearch.yaml", "fluentd-elasticsearch (DaemonSet)"},
	{"ds-demo.yaml", "ds-demo (tolerates the control plane)"},
	{"logstash.yaml", "logstash (tolerates only the old master taint)"},
	{"with-node-affinity.yaml", "with-node-affinity (Pod: a common affinity mistake)"},
	{"pod-taints.yaml", "pod-taints (Pod with a toleration)"},
}

// Manifests returns the example manifests in course order.
func Manifests() []Manifest {
	out := make([]Manifest, 0, len(order))
	for _, o := range order {
		b, err := manifests.ReadFile("manifests/" + o.file)
		if err != nil {
			panic(err) // cannot happen: the files are embedded and listed by a test
		}
		out = append(out, Manifest{File: o.file, Title: o.title, Text: strings.TrimLeft(string(b), "\n")})
	}
	return out
}

// File is one embedded lesson or exercise.
type File struct {
	// Name is the path inside examples/, e.g. "lessons/01-one-pod-per-node.txtar".
	Name string
	// ID is the file name without directory and extension, e.g.
	// "01-one-pod-per-node": unique among lessons and among exercises, and
	// what the page's `lesson=` / `exercise=` parameters name.
	ID string
	// Data is the txtar archive as written (script comment, then files).
	Data []byte
}

// Lessons returns the lessons (examples/lessons/*.txtar) sorted by name,
// which is course order (NN- prefixes).
func Lessons() []File { return courseFiles("lessons") }

// Exercises returns the exercises (examples/exercises/*.txtar) sorted by
// name.
func Exercises() []File { return courseFiles("exercises") }

// courseFiles lists dir/*.txtar of the embedded course, sorted by name.
func courseFiles(dir string) []File {
	names, err := fs.Glob(course, dir+"/*.txtar")
	if err != nil {
		panic(err) // cannot happen: the pattern is well-formed
	}
	sort.Strings(names)
	out := make([]File, 0, len(names))
	for _, n := range names {
		b, err := course.ReadFile(n)
		if err != nil {
			panic(err) // cannot happen: the name came from the embedded FS
		}
		out = append(out, File{Name: n, ID: strings.TrimSuffix(path.Base(n), ".txtar"), Data: b})
	}
	return out
}
