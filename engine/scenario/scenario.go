// Package scenario runs txtar scenarios against a simulated cluster
// (DESIGN.md contracts 3 and 4).
//
// A scenario is a txtar archive (golang.org/x/tools/txtar). Its comment
// section is the script, one command per line, with `#` comments; its files
// are manifests that commands name with `-f NAME`. Commands:
//
//	kubectl ARGS...            as kubectl against the simulated cluster
//	! kubectl ARGS...          the same, expected to fail (non-zero exit)
//	advance DURATION           move virtual time (Go duration syntax: 30s, 2m)
//	wait rollout ds/NAME       advance until the DaemonSet is fully rolled out
//	wait idle                  advance until no component has anything scheduled
//	wait deleted KIND/NAME     advance until the object is gone
//	                           (waits take --timeout=DURATION, default 10m virtual)
//	node add NAME [--label k=v]... [--taint k=v:Effect]... [--control-plane]
//	         [--cpu Q] [--memory Q] [--pods N]   capacity (default 2, 4Gi, 110)
//	                           NAME may hold one range {A..B}: worker-{1..1000}
//	node remove NAME | node fail NAME | node recover NAME
//	node condition NAME TYPE=True|False...
//	                           the node reports the condition (Ready,
//	                           MemoryPressure, DiskPressure, PIDPressure,
//	                           NetworkUnavailable); the node lifecycle
//	                           controller taints it to match
//	pod fail POD               its container exits with an error (phase Failed)
//	pod succeed POD            its container exits 0 (phase Succeeded)
//	                           POD is a pod name, or [PREFIX]@NODE: the one
//	                           pod bound to NODE, not terminating and not
//	                           terminal, whose name starts with PREFIX
//	registry has REF...        declare the simulated registry's images: from
//	                           then on only declared references can be pulled
//	registry lacks REF...      make references unpullable (the registry is
//	                           open by default: every reference exists)
//	registry preloaded REF...|none
//	                           the images every node holds for imagePullPolicy
//	                           Never (default: all; others: ErrImageNeverPull)
//	pod unready POD [-n NS]    its readiness probe starts failing: the kubelet
//	                           marks it unready after failureThreshold probes
//	                           (at once for a container without readinessProbe)
//	pod ready POD [-n NS]      its readiness probe passes again
//	decisions [--component=C] [--action=A] [--func=F]
//	                           print the cluster's decision log since the
//	                           previous `decisions` (one per line:
//	                           `+ELAPSED COMPONENT FUNC ACTION OBJECT node=NODE: REASON`)
//	editor FILE | editor unchanged | editor replace OLD NEW
//	                           the editor opened by the previous `kubectl edit`
//	                           saves: the file FILE, the text as shown, or the
//	                           shown text with every OLD replaced by NEW (OLD
//	                           and NEW quoted with '...' or "..." when they
//	                           hold blanks, \n for a line break); the edit's output is this step's
//	                           (`! editor ...` expects it to fail); when the
//	                           editor reopens with errors, `editor` again
//	cluster empty              (first command only) start with no nodes
//	stdout REGEX / ! stdout REGEX / stderr REGEX / ! stderr REGEX
//	                           assertions on the previous command's output,
//	                           as in Go's script tests ((?m) is implied);
//	                           `stdout -count=N REGEX` wants exactly N matches
//
// Every scenario starts on the default cluster (control-plane, node-1,
// node-2) unless its first command is `cluster empty`.
//
// Watches: after `kubectl get ... -w` the watch keeps printing until the
// next `kubectl`, `editor` or `decisions` step. During the steps between
// (advance and wait run in one-second steps then), each change it prints
// is written to the transcript under the step that caused it and appended
// to the watching command's output, so `stdout` assertions after an
// `advance` test everything the watch printed so far.
package scenario

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"golang.org/x/tools/txtar"
)

// DefaultWaitTimeout bounds every wait command, in virtual time.
const DefaultWaitTimeout = 10 * time.Minute

// waitStep is the virtual-time step of wait commands.
const waitStep = time.Second

// MalformedError reports a scenario that cannot be run (exit status 2):
// an unknown command, a bad duration or regular expression, an assertion
// with no command before it. Line is 1-based in the scenario file.
type MalformedError struct {
	File string
	Line int
	Msg  string
}

func (e *MalformedError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// step is one parsed script line.
type step struct {
	line    int
	text    string
	negate  bool
	verb    string // kubectl, advance, wait, node, pod, cluster, stdout, stderr, comment
	args    []string
	dur     time.Duration
	re      *regexp.Regexp
	count   int // stdout/stderr -count=N: exactly N matches (0: at least one)
	comment string
}

// Scenario is a parsed scenario file.
type Scenario struct {
	Name  string
	Files map[string]string
	steps []step
	empty bool
}

// Parse reads a txtar scenario. Errors are *MalformedError.
func Parse(name string, data []byte) (*Scenario, error) {
	ar := txtar.Parse(data)
	sc := &Scenario{Name: name, Files: map[string]string{}}
	for _, f := range ar.Files {
		sc.Files[f.Name] = string(f.Data)
	}
	bad := func(line int, format string, a ...any) error {
		return &MalformedError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	lines := strings.Split(string(ar.Comment), "\n")
	sawCommand := false
	for i, raw := range lines {
		ln := i + 1
		text := strings.TrimSpace(raw)
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "#") {
			sc.steps = append(sc.steps, step{line: ln, text: text, verb: "comment", comment: text})
			continue
		}
		st := step{line: ln, text: text}
		rest := text
		if strings.HasPrefix(rest, "!") {
			st.negate = true
			rest = strings.TrimSpace(rest[1:])
		}
		verb, args, _ := strings.Cut(rest, " ")
		args = strings.TrimSpace(args)
		st.verb = verb
		switch verb {
		case "kubectl", "k":
			st.verb = "kubectl"
			st.args = []string{args}
			sawCommand = true
		case "advance":
			if st.negate {
				return nil, bad(ln, "advance cannot be negated")
			}
			d, err := time.ParseDuration(args)
			if err != nil || d < 0 {
				return nil, bad(ln, "advance wants a duration such as 30s or 2m, got %q", args)
			}
			st.dur = d
			sawCommand = true
		case "wait":
			if st.negate {
				return nil, bad(ln, "wait cannot be negated")
			}
			f := strings.Fields(args)
			st.dur = DefaultWaitTimeout
			var rest []string
			for _, a := range f {
				if v, ok := strings.CutPrefix(a, "--timeout="); ok {
					d, err := time.ParseDuration(v)
					if err != nil || d <= 0 {
						return nil, bad(ln, "bad --timeout %q", v)
					}
					st.dur = d
					continue
				}
				rest = append(rest, a)
			}
			switch {
			case len(rest) == 2 && rest[0] == "rollout" && strings.HasPrefix(rest[1], "ds/"):
			case len(rest) == 1 && rest[0] == "idle":
			case len(rest) == 2 && rest[0] == "deleted" && strings.Contains(rest[1], "/"):
				if kind, _, _ := strings.Cut(rest[1], "/"); !waitDeletedKinds[kind] {
					return nil, bad(ln, "wait deleted: unknown kind %q (want pod, ds or node)", kind)
				}
			default:
				return nil, bad(ln, "unknown wait %q: want `wait rollout ds/NAME`, `wait idle` or `wait deleted KIND/NAME`", args)
			}
			st.args = rest
			sawCommand = true
		case "node":
			if st.negate {
				return nil, bad(ln, "node commands cannot be negated")
			}
			f := strings.Fields(args)
			if len(f) < 2 {
				return nil, bad(ln, "usage: node add|remove|fail|recover|condition NAME")
			}
			switch f[0] {
			case "add":
				if _, err := parseNodeAdd(f[2:]); err != nil {
					return nil, bad(ln, "%v", err)
				}
				if _, err := expandRange(f[1]); err != nil {
					return nil, bad(ln, "%v", err)
				}
			case "remove", "fail", "recover":
				if len(f) != 2 {
					return nil, bad(ln, "usage: node %s NAME", f[0])
				}
			case "condition":
				if len(f) < 3 {
					return nil, bad(ln, "usage: node condition NAME TYPE=True|False...")
				}
				for _, kv := range f[2:] {
					if _, _, err := parseCondition(kv); err != nil {
						return nil, bad(ln, "%v", err)
					}
				}
			default:
				return nil, bad(ln, "unknown node command %q: want add, remove, fail, recover or condition", f[0])
			}
			st.args = f
			sawCommand = true
		case "pod":
			f, ok := podArgs(strings.Fields(args))
			if st.negate || !ok {
				return nil, bad(ln, "usage: pod fail|succeed|unready|ready NAME|[PREFIX]@NODE (unready, ready: [-n NAMESPACE])")
			}
			st.args = f
			sawCommand = true
		case "registry":
			f := strings.Fields(args)
			if st.negate || len(f) < 2 || (f[0] != "has" && f[0] != "lacks" && f[0] != "preloaded") {
				return nil, bad(ln, "usage: registry has|lacks|preloaded IMAGE... (registry preloaded none)")
			}
			st.args = f
			sawCommand = true
		case "decisions":
			if st.negate {
				return nil, bad(ln, "decisions cannot be negated")
			}
			f := strings.Fields(args)
			if _, err := parseDecisionFilter(f); err != nil {
				return nil, bad(ln, "%v", err)
			}
			st.args = f
			sawCommand = true
		case "editor":
			f, err := splitQuoted(args)
			switch {
			case err != nil:
				return nil, bad(ln, "editor: %v", err)
			case len(f) == 1 && f[0] == "unchanged":
			case len(f) == 3 && f[0] == "replace" && f[1] != "":
			case len(f) == 1 && f[0] != "replace":
				if _, ok := sc.Files[f[0]]; !ok {
					return nil, bad(ln, "editor: no file %q in the scenario", f[0])
				}
			default:
				return nil, bad(ln, "usage: editor FILE | editor unchanged | editor replace OLD NEW")
			}
			st.args = f
			sawCommand = true
		case "cluster":
			if args != "empty" {
				return nil, bad(ln, "usage: cluster empty")
			}
			if sawCommand {
				return nil, bad(ln, "cluster empty must be the first command")
			}
			sc.empty = true
			continue
		case "stdout", "stderr":
			if !sawCommand {
				return nil, bad(ln, "%s assertion before any command", verb)
			}
			if v, rest, ok := strings.Cut(args, " "); ok && strings.HasPrefix(v, "-count=") {
				n, err := strconv.Atoi(strings.TrimPrefix(v, "-count="))
				if err != nil || n < 0 || st.negate {
					return nil, bad(ln, "bad %s: -count=N wants N >= 0 and no !", verb)
				}
				st.count, args = n, strings.TrimSpace(rest)
				if n == 0 {
					st.negate = true // -count=0 means no match
				}
			}
			pat := unquote(args)
			re, err := regexp.Compile("(?m)" + pat)
			if err != nil {
				return nil, bad(ln, "bad regular expression %q: %v", pat, err)
			}
			st.re = re
		default:
			return nil, bad(ln, "unknown command %q (want kubectl, advance, wait, node, pod, registry, decisions, editor, cluster, stdout, stderr)", verb)
		}
		sc.steps = append(sc.steps, st)
	}
	if !slices.ContainsFunc(sc.steps, func(st step) bool { return st.verb != "comment" }) {
		// an empty file (or one holding only comments and files) would
		// "pass" without testing anything
		return nil, bad(1, "no commands: a scenario starts with its commands, before the first -- file --")
	}
	return sc, nil
}

// parseCondition splits a `node condition` argument TYPE=STATUS; the
// engine checks the type and status names.
func parseCondition(kv string) (typ, status string, err error) {
	typ, status, ok := strings.Cut(kv, "=")
	if !ok || typ == "" || status == "" {
		return "", "", fmt.Errorf("node condition: %q is not TYPE=True|False (e.g. MemoryPressure=True)", kv)
	}
	return typ, status, nil
}

// unquote strips one pair of matching quotes around an assertion pattern,
// so that `stdout 'a b'` and `stdout a b` mean the same.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

type nodeAdd struct {
	opts cluster.NodeOptions
}

func parseNodeAdd(args []string) (nodeAdd, error) {
	var na nodeAdd
	na.opts.Labels = map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := ""
		name := a
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "--") {
			name, val = k, v
		} else if a == "--label" || a == "--taint" || a == "--cpu" || a == "--memory" || a == "--pods" {
			if i+1 >= len(args) {
				return na, fmt.Errorf("%s needs a value", a)
			}
			i++
			val = args[i]
		}
		switch name {
		case "--control-plane":
			na.opts.ControlPlane = true
		case "--label":
			k, v, _ := strings.Cut(val, "=")
			if k == "" {
				return na, fmt.Errorf("bad --label %q: want key=value", val)
			}
			na.opts.Labels[k] = v
		case "--taint":
			t, err := parseTaint(val)
			if err != nil {
				return na, err
			}
			na.opts.Taints = append(na.opts.Taints, t)
		case "--cpu":
			if _, err := api.ParseQuantity(val); err != nil {
				return na, fmt.Errorf("bad --cpu %q", val)
			}
			na.opts.CPU = val
		case "--memory":
			if _, err := api.ParseQuantity(val); err != nil {
				return na, fmt.Errorf("bad --memory %q", val)
			}
			na.opts.Memory = val
		case "--pods":
			if q, err := api.ParseQuantity(val); err != nil || q.Value() < 0 {
				return na, fmt.Errorf("bad --pods %q", val)
			}
			na.opts.Pods = val
		default:
			return na, fmt.Errorf("unknown node add flag %q (want --label, --taint, --control-plane, --cpu, --memory, --pods)", a)
		}
	}
	return na, nil
}

// parseTaint reads key[=value]:Effect.
func parseTaint(s string) (api.Taint, error) {
	kv, effect, ok := strings.Cut(s, ":")
	if !ok || kv == "" {
		return api.Taint{}, fmt.Errorf("bad --taint %q: want key[=value]:Effect", s)
	}
	switch effect {
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
	default:
		return api.Taint{}, fmt.Errorf("bad --taint %q: effect must be NoSchedule, PreferNoSchedule or NoExecute", s)
	}
	k, v, _ := strings.Cut(kv, "=")
	return api.Taint{Key: k, Value: v, Effect: effect}, nil
}

// Result is the outcome of running a scenario.
type Result struct {
	// Failures are the assertions that did not hold, as "file:line: message".
	Failures []string
}

// OK reports whether every assertion held.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// Run executes the scenario on a fresh simulation (seed 1) and writes the
// transcript to w: each command echoed as `$ command`, followed by its
// output, and each failed assertion as `FAIL: file:line: ...`.
func (sc *Scenario) Run(out io.Writer) *Result {
	// Output that does not end in a newline (kubectl's -o jsonpath) would
	// run into the next `$ command`: the transcript starts each echoed
	// command, comment and failure on a line of its own.
	lw := &lineWriter{w: out}
	var w io.Writer = lw
	sim := engine.New(engine.Options{Empty: sc.empty})
	for k, v := range sc.Files {
		sim.Files[k] = v
	}
	res := &Result{}
	var last engine.Output
	// watch is the running `kubectl get -w`; edit the open editor.
	var watch *kubectl.Watch
	var edit *kubectl.EditSession
	pollWatch := func() {
		for _, c := range watch.Poll() {
			io.WriteString(w, c.Text)
			if c.Stderr {
				last.Stderr += c.Text
			} else {
				last.Stdout += c.Text
			}
		}
	}
	// decisionsSeen is the Seq of the last decision a `decisions` printed.
	decisionsSeen := sim.Cluster.LastDecisionSeq()
	fail := func(st step, format string, a ...any) {
		msg := fmt.Sprintf("%s:%d: %s", sc.Name, st.line, fmt.Sprintf(format, a...))
		res.Failures = append(res.Failures, msg)
		lw.startLine()
		fmt.Fprintf(w, "FAIL: %s\n", msg)
	}
	for _, st := range sc.steps {
		switch st.verb {
		case "comment":
			lw.startLine()
			fmt.Fprintln(w, st.comment)
			continue
		case "stdout", "stderr":
			text := last.Stdout
			if st.verb == "stderr" {
				text = last.Stderr
			}
			if st.count > 0 {
				if n := len(st.re.FindAllStringIndex(text, -1)); n != st.count {
					fail(st, "%s has %d matches for %q, want %d", st.verb, n, st.re.String()[4:], st.count)
				}
				continue
			}
			matched := st.re.MatchString(text)
			if matched == st.negate {
				if st.negate {
					fail(st, "%s matched %q but should not", st.verb, st.re.String()[4:])
				} else {
					fail(st, "no match for %q in %s", st.re.String()[4:], st.verb)
				}
			}
			continue
		}
		lw.startLine()
		fmt.Fprintf(w, "$ %s\n", strings.TrimPrefix(st.text, "! "))
		if watch != nil && (st.verb == "kubectl" || st.verb == "editor" || st.verb == "decisions") {
			watch.Stop()
			watch = nil
		}
		if watch == nil {
			last = engine.Output{}
		}
		switch st.verb {
		case "kubectl", "editor":
			if st.verb == "kubectl" {
				edit = nil
				last = sim.Run("kubectl " + st.args[0])
			} else if edit == nil {
				fail(st, "no editor is open (run kubectl edit first)")
				continue
			} else {
				last = sim.FinishEdit(edit, editorText(edit.Text, st.args, sc.Files))
			}
			watch, edit = last.Watch, last.Edit
			// stdout and stderr interleaved, as a terminal shows them
			for _, c := range last.Chunks {
				io.WriteString(w, c.Text)
			}
			if st.negate && last.ExitCode == 0 {
				fail(st, "command succeeded but should have failed")
			} else if !st.negate && last.ExitCode != 0 {
				fail(st, "command failed with exit status %d", last.ExitCode)
			}
		case "advance":
			if watch == nil {
				sim.Advance(st.dur)
				break
			}
			for left := st.dur; left > 0; left -= waitStep {
				sim.Advance(min(waitStep, left))
				pollWatch()
			}
		case "wait":
			tick := func() {}
			if watch != nil {
				tick = pollWatch
			}
			if err := wait(sim, st.args, st.dur, tick); err != nil {
				fail(st, "%v", err)
			}
		case "node":
			var err error
			name := st.args[1]
			switch st.args[0] {
			case "add":
				na, _ := parseNodeAdd(st.args[2:])
				names, _ := expandRange(name)
				for _, n := range names {
					if err = sim.AddNode(n, na.opts); err != nil {
						break
					}
				}
			case "remove":
				err = sim.RemoveNode(name)
			case "fail":
				err = sim.FailNode(name)
			case "recover":
				err = sim.RecoverNode(name)
			case "condition":
				for _, kv := range st.args[2:] {
					typ, status, _ := parseCondition(kv)
					if err = sim.SetNodeCondition(name, typ, status); err != nil {
						break
					}
				}
			}
			if err != nil {
				last.Stderr = err.Error() + "\n"
				io.WriteString(w, last.Stderr)
				fail(st, "%v", err)
			}
		case "pod":
			var err error
			switch st.args[0] {
			case "unready", "ready":
				err = podReadiness(sim, st.args[0] == "ready", st.args[1], st.args[2])
			default:
				err = podPhase(sim, st.args[0], st.args[1])
			}
			if err != nil {
				last.Stderr = err.Error() + "\n"
				io.WriteString(w, last.Stderr)
				fail(st, "%v", err)
			}
		case "registry":
			switch refs := st.args[1:]; st.args[0] {
			case "has":
				sim.Registry().Have(refs...)
			case "lacks":
				sim.Registry().Lack(refs...)
			case "preloaded":
				if len(refs) == 1 && refs[0] == "none" {
					refs = nil
				}
				sim.Registry().SetPreloaded(refs...)
			}
		case "decisions":
			filter, _ := parseDecisionFilter(st.args)
			ds := sim.Decisions(decisionsSeen)
			if len(ds) > 0 {
				decisionsSeen = ds[len(ds)-1].Seq
			}
			var b strings.Builder
			for _, d := range ds {
				if filter.matches(d) {
					fmt.Fprintf(&b, "+%s %s %s %s %s node=%s: %s\n", d.Time.Sub(cluster.Epoch), d.Component, d.Func, d.Action, d.Object, d.Node, d.Reason)
				}
			}
			last.Stdout = b.String()
			io.WriteString(w, last.Stdout)
		}
		if watch != nil && st.verb != "kubectl" {
			pollWatch()
		}
	}
	return res
}

// editorText is what the editor saves for an `editor` step: the file
// named, the shown text, or the shown text with OLD replaced by NEW.
func editorText(shown string, args []string, files map[string]string) string {
	switch {
	case args[0] == "unchanged":
		return shown
	case args[0] == "replace" && len(args) == 3:
		nl := strings.NewReplacer(`\n`, "\n")
		return strings.ReplaceAll(shown, nl.Replace(args[1]), nl.Replace(args[2]))
	}
	return files[args[0]]
}

// splitQuoted splits an `editor` line into words; '...' and "..." quote
// words with blanks.
func splitQuoted(s string) ([]string, error) {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out, nil
		}
		if q := s[0]; q == '\'' || q == '"' {
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return nil, fmt.Errorf("unterminated quote in %q", s)
			}
			out = append(out, s[1:1+end])
			s = s[2+end:]
			continue
		}
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			end = len(s)
		}
		out = append(out, s[:end])
		s = s[end:]
	}
}

// waitDeletedKinds are the KIND spellings `wait deleted KIND/NAME` accepts.
var waitDeletedKinds = map[string]bool{
	"pod": true, "pods": true, "po": true,
	"ds": true, "daemonset": true, "daemonsets": true,
	"node": true, "nodes": true, "no": true,
}

// wait advances the simulation in one-second steps until the condition
// holds, failing after timeout of virtual time.
func wait(sim *engine.Simulation, args []string, timeout time.Duration, tick func()) error {
	var cond func() bool
	var what string
	switch args[0] {
	case "rollout":
		name := strings.TrimPrefix(args[1], "ds/")
		what = "daemon set " + name + " to roll out"
		cond = func() bool {
			ds := sim.Cluster.DaemonSet(api.DefaultNamespace, name)
			if ds == nil {
				return false
			}
			st := ds.Status
			return st.ObservedGeneration >= ds.Generation &&
				st.UpdatedNumberScheduled >= st.DesiredNumberScheduled &&
				st.NumberAvailable >= st.DesiredNumberScheduled &&
				st.CurrentNumberScheduled == st.DesiredNumberScheduled
		}
	case "idle":
		what = "the cluster to be idle"
		cond = func() bool { return sim.Cluster.PendingWakeups() == 0 }
	case "deleted":
		kind, name, _ := strings.Cut(args[1], "/")
		what = args[1] + " to be deleted"
		switch kind {
		case "pod", "pods", "po":
			cond = func() bool { return sim.Cluster.Pod(api.DefaultNamespace, name) == nil }
		case "ds", "daemonset", "daemonsets":
			cond = func() bool { return sim.Cluster.DaemonSet(api.DefaultNamespace, name) == nil }
		case "node", "nodes", "no":
			cond = func() bool { return sim.Cluster.Node(name) == nil }
		}
	}
	deadline := sim.Now().Add(timeout)
	for !cond() {
		if !sim.Now().Before(deadline) {
			return fmt.Errorf("timed out after %s waiting for %s", timeout, what)
		}
		sim.Advance(waitStep)
		tick()
	}
	return nil
}

// lineWriter passes writes through and remembers whether the last one
// ended mid-line, so startLine can end that line first.
type lineWriter struct {
	w   io.Writer
	mid bool
}

func (l *lineWriter) Write(p []byte) (int, error) {
	if len(p) > 0 {
		l.mid = p[len(p)-1] != '\n'
	}
	return l.w.Write(p)
}

// startLine ends a line left open by the previous write.
func (l *lineWriter) startLine() {
	if l.mid {
		l.mid = false
		io.WriteString(l.w, "\n")
	}
}
