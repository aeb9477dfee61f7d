package scenario

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"golang.org/x/tools/txtar"
)

// ExportOptions describe the header Export writes.
type ExportOptions struct {
	// Title and Summary become `# title:` and `# summary:` lines (left
	// out when empty).
	Title, Summary string
	// Comment lines are written after them as `# ` lines (free text).
	Comment []string
	// MarkFailures runs the exported script once on a new Simulation
	// (the cost of one replay of the whole log) and marks the commands
	// that failed: `! kubectl ...` and `! editor ...`; another failed
	// action (a node action on a missing node: it changed nothing) is
	// commented out as `# failed, changed nothing: LINE`. The export then
	// runs clean under dsplay run and Replay. Without it, commands are
	// written as given.
	MarkFailures bool
}

// Export writes the Recorder's input log as a txtar scenario that
// reproduces its state: Parse it and run it (Scenario.Run) or Replay it on
// a new Recorder created with Scenario.Options, and the cluster ends the
// same (the same objects, pod names, events and virtual time; tested by
// TestExportReplay). Each input kind becomes:
//
//	Run              the command line (kubectl ...); on a Recorder that
//	                 streams `rollout status` (Options.StreamRolloutStatus),
//	                 `kubectl rollout status` gets --watch=false, which
//	                 reaches the same state whether or not the runner
//	                 streams (without it, dsplay run would wait for the
//	                 rollout and move the clock)
//	Apply            the manifest as an archive file + kubectl apply -f FILE
//	SetFile          the archive file NAME (its first content) or, when it
//	                 changes, `file NAME NAME@2` with the archive file NAME@2
//	FinishEdit       `editor edit.yaml` (edit.yaml@2, ...) with the saved text
//	AddNode          node add NAME --label ... --taint ... [--control-plane]
//	                 [--cpu=Q] [--memory=Q] [--pods=N]
//	Remove/Fail/RecoverNode, FailPod, NodeCondition, PodReadiness,
//	Registry*        node remove|fail|recover, pod fail, node condition,
//	                 pod ready|unready, registry has|lacks|preloaded
//	Advance          advance D (the Recorder already merges consecutive
//	                 advances into one input)
//
// The header holds the options' lines, then `cluster empty` when the
// Recorder started with no nodes and `cluster seed N` for a seed other than
// the default. Commands whose outcome was an error are written as they
// were given unless o.MarkFailures: running the export then reports them
// as failures (the state reached is the same either way).
func Export(rec *engine.Recorder, o ExportOptions) []byte {
	ex := exporter{runtime: map[string]string{}, archive: map[string]string{}}
	var script strings.Builder
	line := func(format string, a ...any) { fmt.Fprintf(&script, format+"\n", a...) }
	if o.Title != "" {
		line("# title: %s", oneLine(o.Title))
	}
	if o.Summary != "" {
		line("# summary: %s", oneLine(o.Summary))
	}
	for _, c := range o.Comment {
		for _, l := range strings.Split(c, "\n") {
			line("# %s", l)
		}
	}
	opts := rec.Options()
	if opts.Empty {
		line("cluster empty")
	}
	if opts.Seed != 0 && opts.Seed != 1 {
		line("cluster seed %d", opts.Seed)
	}
	inputs := rec.Inputs()
	// openEdit is the index of the input whose output opened the editor
	// session an `editor` line finishes (the latest `kubectl edit`, or the
	// latest editor step); -1 when none.
	openEdit := -1
	for i, in := range inputs {
		switch in.Kind {
		case engine.InputRun:
			l := runLine(in.Line)
			args, err := splitKubectl(strings.TrimPrefix(strings.TrimPrefix(l, "kubectl "), "k "))
			verb := ""
			if err == nil {
				verb = kubectlVerb(args)
			}
			if verb == "edit" {
				openEdit = i
			}
			if opts.StreamRolloutStatus && verb == "rollout status" && !slices.ContainsFunc(args, func(a string) bool {
				return a == "-w" || a == "--watch" || strings.HasPrefix(a, "--watch=") || strings.HasPrefix(a, "-w=")
			}) {
				l += " --watch=false"
			}
			line("%s", l)
		case engine.InputApply:
			for _, c := range ex.setRuntime(in.Name, in.Text) {
				line("%s", c)
			}
			line("kubectl apply -f %s", in.Name)
		case engine.InputSetFile:
			for _, c := range ex.setRuntime(in.Name, in.Text) {
				line("%s", c)
			}
		case engine.InputFinishEdit:
			if in.Edit != openEdit {
				line("# note: this edit saved the editor opened by the action at t=%s, not the latest one; a replay saves the latest", inputs[in.Edit].At)
			}
			line("editor %s", ex.archiveFile("edit.yaml", in.Text))
			openEdit = i
		case engine.InputAddNode:
			line("node add %s", nodeAddArgs(in.Name, in.Node))
		case engine.InputRemoveNode:
			line("node remove %s", in.Name)
		case engine.InputFailNode:
			line("node fail %s", in.Name)
		case engine.InputRecoverNode:
			line("node recover %s", in.Name)
		case engine.InputFailPod:
			line("pod fail %s%s", in.Name, nsFlag(in.Namespace))
		case engine.InputNodeCondition:
			line("node condition %s %s=%s", in.Name, in.Type, in.Status)
		case engine.InputPodReadiness:
			verb := "unready"
			if in.Ready {
				verb = "ready"
			}
			line("pod %s %s%s", verb, in.Name, nsFlag(in.Namespace))
		case engine.InputRegistryHave:
			if len(in.Refs) > 0 {
				line("registry has %s", strings.Join(in.Refs, " "))
			}
		case engine.InputRegistryLack:
			if len(in.Refs) > 0 {
				line("registry lacks %s", strings.Join(in.Refs, " "))
			}
		case engine.InputRegistryPreload:
			if len(in.Refs) == 0 {
				line("registry preloaded none")
			} else {
				line("registry preloaded %s", strings.Join(in.Refs, " "))
			}
		case engine.InputAdvance:
			d := in.D
			// merge a run of consecutive advances (the Recorder merges
			// them already; a log built by hand may not)
			for i+1 < len(inputs) && inputs[i+1].Kind == engine.InputAdvance {
				i++
				d += inputs[i].D
			}
			if d > 0 {
				line("advance %s", d)
			}
		default:
			line("# note: input %d of kind %q cannot be exported", i, in.Kind)
		}
	}
	s := script.String()
	if !hasCommand(s) {
		// Parse wants a command; one that reads changes nothing
		s += "kubectl get nodes\n"
	}
	ar := &txtar.Archive{Comment: []byte(s)}
	for _, name := range ex.order {
		data := ex.archive[name]
		if data != "" && !strings.HasSuffix(data, "\n") {
			data += "\n" // txtar files end with a newline
		}
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
	}
	if o.MarkFailures {
		markFailures(ar)
	}
	return txtar.Format(ar)
}

// markFailures runs the archive's script on a new Simulation and marks
// the lines that failed (see ExportOptions.MarkFailures).
func markFailures(ar *txtar.Archive) {
	sc, err := Parse("export.txtar", txtar.Format(ar))
	if err != nil {
		return // cannot happen for Export's own output; leave it as is
	}
	sim := engine.New(sc.options())
	for k, v := range sc.Files {
		sim.Files[k] = v
	}
	r := newRunner(context.Background(), sc, simTarget{sim}, io.Discard)
	r.steps(sc.steps)
	r.stopWatch()
	if len(r.failedLines) == 0 {
		return
	}
	byLine := map[int]*step{}
	for i := range sc.steps {
		byLine[sc.steps[i].line] = &sc.steps[i]
	}
	lines := strings.Split(string(ar.Comment), "\n")
	for ln := range r.failedLines {
		st := byLine[ln]
		if st == nil || ln > len(lines) {
			continue
		}
		switch st.verb {
		case "kubectl", "editor":
			lines[ln-1] = "! " + lines[ln-1]
		default:
			lines[ln-1] = "# failed, changed nothing: " + lines[ln-1]
		}
	}
	ar.Comment = []byte(strings.Join(lines, "\n"))
}

// runLine is a Run input's line as a script line: on one line (line
// breaks become blanks, as the shell-like tokenizer reads them), with the
// kubectl prefix (kubectl or k) that Simulation.Run lets one leave out.
func runLine(line string) string {
	l := strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(line))
	if f := strings.Fields(l); len(f) == 0 || (f[0] != "kubectl" && f[0] != "k") {
		l = "kubectl " + l
	}
	return l
}

// hasCommand reports whether a script has a line that is not a comment.
func hasCommand(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "cluster ") {
			return true
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func nsFlag(ns string) string {
	if ns == "" || ns == api.DefaultNamespace {
		return ""
	}
	return " -n " + ns
}

// exporter tracks the archive's files and what the runtime files (the
// simulation's Files, which `-f NAME` reads) hold while the script runs.
// The Player and Scenario.Run start with every archive file as a runtime
// file of the same name.
type exporter struct {
	archive map[string]string
	order   []string
	runtime map[string]string
}

// archiveFile returns the name of an archive file holding text: base when
// free or already holding it, else base@2, base@3, ...
func (ex *exporter) archiveFile(base, text string) string {
	for n := 1; ; n++ {
		name := base
		if n > 1 {
			name = base + "@" + strconv.Itoa(n)
		}
		old, ok := ex.archive[name]
		if ok && old == text {
			return name
		}
		if !ok {
			ex.archive[name] = text
			ex.order = append(ex.order, name)
			if _, set := ex.runtime[name]; !set {
				ex.runtime[name] = text
			}
			return name
		}
	}
}

// setRuntime makes the runtime file name hold text, returning the script
// lines needed (none when it already does or when the archive file name is
// new: it is a runtime file from the start).
func (ex *exporter) setRuntime(name, text string) []string {
	if cur, ok := ex.runtime[name]; ok && cur == text {
		return nil
	}
	if _, ok := ex.archive[name]; !ok {
		if _, ok := ex.runtime[name]; !ok {
			ex.archiveFile(name, text)
			return nil
		}
	}
	from := ex.archiveFile(name, text)
	ex.runtime[name] = text
	return []string{"file " + name + " " + from}
}

// nodeAddArgs is the `node add` argument list for AddNode(name, o).
func nodeAddArgs(name string, o cluster.NodeOptions) string {
	var b strings.Builder
	b.WriteString(name)
	keys := make([]string, 0, len(o.Labels))
	for k := range o.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, " --label %s=%s", k, o.Labels[k])
	}
	for _, t := range o.Taints {
		fmt.Fprintf(&b, " --taint %s", t.ToString())
	}
	if o.ControlPlane {
		b.WriteString(" --control-plane")
	}
	if o.CPU != "" {
		fmt.Fprintf(&b, " --cpu=%s", o.CPU)
	}
	if o.Memory != "" {
		fmt.Fprintf(&b, " --memory=%s", o.Memory)
	}
	if o.Pods != "" {
		fmt.Fprintf(&b, " --pods=%s", o.Pods)
	}
	return b.String()
}
