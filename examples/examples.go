// Package examples embeds the seed manifests (re-indented copies of the
// manifests in the articles the playground grew from) so that the browser
// app and the tests use the same files as the scenarios under examples/.
package examples

import (
	"embed"
	"strings"
)

//go:embed manifests/*.yaml
var manifests embed.FS

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
