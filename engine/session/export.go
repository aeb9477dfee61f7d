package session

import (
	"cmp"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// ExportOptions tune Export.
type ExportOptions struct {
	// Title is the scenario's title ("" for "DaemonSet Playground session").
	Title string
	// MarkFailures marks the commands that failed (scenario.Export), at the
	// cost of one replay, so that `dsplay run` runs the script clean.
	MarkFailures bool
	// Context is what the page has open (nil: none): recorded in
	// InputsFile (Log.Ctx, the editor's text as an archive file) and named
	// in the script's header comment.
	Context *Context
}

// Export writes rec's inputs as a txtar scenario: scenario.Export's script
// and files, plus InputsFile (the Log), the last file. Files the log needs
// that scenario.Export did not write (texts no script command names) are
// added under their own names, made unique as archiveName does.
func Export(rec *engine.Recorder, o ExportOptions) []byte {
	ctx := o.Context
	comment := []string{fmt.Sprintf("Exported by the DaemonSet Playground at t=%s of virtual time: `dsplay run FILE` runs it;", FormatElapsed(rec.Live().Elapsed())), "the page's Import (or a share link) replays " + InputsFile + ", the exact input log."}
	switch {
	case ctx != nil && ctx.Exercise != "":
		comment = append(comment, "exercise: "+ctx.Exercise)
	case ctx != nil && ctx.Lesson != "":
		comment = append(comment, fmt.Sprintf("lesson: %s step %d", ctx.Lesson, ctx.Step))
	}
	ar := txtar.Parse(scenario.Export(rec, scenario.ExportOptions{
		Title:        cmp.Or(o.Title, "DaemonSet Playground session"),
		Comment:      comment,
		MarkFailures: o.MarkFailures,
	}))
	opts := rec.Options()
	lg := Log{V: LogVersion, Seed: opts.Seed, Empty: opts.Empty, At: rec.Live().Elapsed().Seconds(), Build: Build(), Kubernetes: engine.KubernetesVersion}
	byText := map[string]string{}
	used := map[string]bool{InputsFile: true}
	for _, f := range ar.Files {
		used[f.Name] = true
		if _, ok := byText[string(f.Data)]; !ok {
			byText[string(f.Data)] = f.Name
		}
	}
	fileFor := func(name, text string) string {
		if f, ok := byText[text]; ok {
			return f
		}
		f := archiveName(name, used)
		used[f] = true
		byText[text] = f
		ar.Files = append(ar.Files, txtar.File{Name: f, Data: []byte(text)})
		return f
	}
	for _, in := range rec.Inputs() {
		si := LogInput{K: in.Kind, Line: in.Line, Name: in.Name, NS: in.Namespace, Type: in.Type, St: in.Status, Rdy: in.Ready, Refs: in.Refs, Edit: in.Edit}
		switch in.Kind {
		case engine.InputApply, engine.InputSetFile, engine.InputFinishEdit:
			si.F = fileFor(in.Name, in.Text)
		case engine.InputAdvance:
			si.Ms = in.D.Milliseconds()
		case engine.InputAddNode:
			n := in.Node
			si.Node = &n
		}
		lg.In = append(lg.In, si)
	}
	if ctx != nil {
		c := *ctx
		c.Editor, c.EditorText = "", ""
		if ctx.EditorText != "" {
			c.Editor = fileFor(".dsplay/editor.yaml", ctx.EditorText)
		}
		if c != (Context{}) {
			lg.Ctx = &c
		}
	}
	js, _ := json.Marshal(lg) // plain values only: cannot fail
	ar.Files = append(ar.Files, txtar.File{Name: InputsFile, Data: append(js, '\n')})
	return txtar.Format(ar)
}

// archiveName is a file name for the archive: name itself when unused,
// else name@2, name@3, ... (scenario.Export's convention); "" is
// edit.yaml, blanks become underscores.
func archiveName(name string, used map[string]bool) string {
	if name == "" {
		name = "edit.yaml"
	}
	name = strings.ReplaceAll(name, " ", "_")
	for n := 1; ; n++ {
		c := name
		if n > 1 {
			c = name + "@" + strconv.Itoa(n)
		}
		if !used[c] {
			return c
		}
	}
}

// ScenarioOptions are the engine.Options a scenario file asks for: those
// of its input log, or (a scenario without one) scenario.Scenario.Options
// (`cluster empty`, `cluster seed N`); a file that does not parse gets the
// defaults (Replay reports its error). name is the file's name, for
// scenario.Parse.
func ScenarioOptions(name string, data []byte) engine.Options {
	ar := txtar.Parse(data)
	for _, f := range ar.Files {
		if f.Name == InputsFile {
			var lg Log
			if json.Unmarshal(f.Data, &lg) == nil {
				return engine.Options{Seed: lg.Seed, Empty: lg.Empty}
			}
		}
	}
	if sc, err := scenario.Parse(name, data); err == nil {
		o := sc.Options()
		return engine.Options{Seed: o.Seed, Empty: o.Empty}
	}
	return engine.Options{}
}

// IsScenario tells a scenario from a YAML manifest, for an imported file:
// by its name's extension (.txtar; .yaml, .yml and .json are manifests),
// else by a txtar file marker line (`-- NAME --`) in text.
func IsScenario(name, text string) bool {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".txtar"):
		return true
	case strings.HasSuffix(lower, ".yaml"), strings.HasSuffix(lower, ".yml"), strings.HasSuffix(lower, ".json"):
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "-- ") && strings.HasSuffix(strings.TrimRight(l, "\r"), " --") {
			return true
		}
	}
	return false
}

// ObjectsYAML renders sim's objects for the YAML export ("Export objects"),
// ready for `kubectl apply -f` on a fresh playground or a real cluster: a
// header comment, then one document each (as `kubectl get -o yaml`
// renders it, without what the API server sets, see stripServerFields)
// of the objects Simulation.ExportObjects lists (pods a DaemonSet owns are
// left out: its controller makes them again). Objects that cannot be
// rendered are named in a last comment.
func ObjectsYAML(sim *engine.Simulation) string {
	objs := sim.ExportObjects()
	var b strings.Builder
	fmt.Fprintf(&b, "# The DaemonSet Playground's objects at t=%s of virtual time, ready for\n", FormatElapsed(sim.Elapsed()))
	b.WriteString("# `kubectl apply -f` (what the API server sets is left out; pods a DaemonSet owns\n# are made again by its controller).\n")
	var skipped []string
	for _, o := range objs {
		m, err := kubectl.RenderObject(o)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%T", o))
			continue
		}
		stripServerFields(m)
		y, err := kubectl.MarshalYAML(m)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%T", o))
			continue
		}
		b.WriteString("---\n")
		b.WriteString(y)
	}
	if len(skipped) > 0 {
		sort.Strings(skipped)
		fmt.Fprintf(&b, "# (not exported, the playground cannot render them yet: %s)\n", strings.Join(skipped, ", "))
	}
	return b.String()
}

// stripServerFields removes from a rendered object what the API server
// sets: status, metadata's uid, resourceVersion, generation,
// creationTimestamp, managedFields and selfLink, the DaemonSet
// controller's and kubectl's annotations
// (deprecated.daemonset.template.generation,
// kubectl.kubernetes.io/last-applied-configuration), a node's pod CIDRs
// and its taints' timeAdded.
func stripServerFields(m map[string]any) {
	delete(m, "status")
	if md, ok := m["metadata"].(map[string]any); ok {
		for _, k := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"} {
			delete(md, k)
		}
		if an, ok := md["annotations"].(map[string]any); ok {
			delete(an, "deprecated.daemonset.template.generation")
			delete(an, "kubectl.kubernetes.io/last-applied-configuration")
			if len(an) == 0 {
				delete(md, "annotations")
			}
		}
	}
	if m["kind"] == "Node" {
		if sp, ok := m["spec"].(map[string]any); ok {
			delete(sp, "podCIDR")
			delete(sp, "podCIDRs")
			if ts, ok := sp["taints"].([]any); ok {
				for _, t := range ts {
					if tm, ok := t.(map[string]any); ok {
						delete(tm, "timeAdded")
					}
				}
			}
			if len(sp) == 0 {
				delete(m, "spec")
			}
		}
	}
}

// FormatElapsed renders virtual time as the page's clock does: "12.3 s",
// "2m 03.4s", "1h 02m 03.4s" (tenths of a second, truncated).
func FormatElapsed(d time.Duration) string {
	tenths := int64(d / (100 * time.Millisecond))
	s := float64(tenths) / 10
	if s < 60 {
		return strconv.FormatFloat(s, 'f', 1, 64) + " s"
	}
	m := int64(s) / 60
	rest := s - float64(m*60)
	if m < 60 {
		return fmt.Sprintf("%dm %04.1fs", m, rest)
	}
	return fmt.Sprintf("%dh %02dm %04.1fs", m/60, m%60, rest)
}
