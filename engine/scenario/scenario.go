// Package scenario runs txtar scenarios against a simulated cluster
// (DESIGN.md contracts 3 and 4), and gives lessons and exercises, which are
// scenarios too, their structure.
//
// # Scenarios
//
// A scenario is a txtar archive (golang.org/x/tools/txtar). Its comment
// section is the script, one command per line, with `#` comments; its files
// are manifests that commands name with `-f NAME`. Commands:
//
//	kubectl ARGS...            as kubectl against the simulated cluster
//	! kubectl ARGS...          the same, expected to fail (non-zero exit)
//	advance DURATION           move virtual time (Go duration syntax: 30s, 2m;
//	                           at most 24h)
//	wait rollout ds/NAME       advance until the DaemonSet is fully rolled out
//	wait idle                  advance until no component has anything scheduled
//	wait deleted KIND/NAME     advance until the object is gone
//	                           (waits take --timeout=DURATION, default 10m
//	                           virtual, at most 24h)
//	node add NAME [--label k=v]... [--taint k=v:Effect]... [--control-plane]
//	         [--cpu Q] [--memory Q] [--pods N]   capacity (default 2, 4Gi, 110)
//	                           NAME may hold one range {A..B}: worker-{1..1000}
//	node remove NAME | node fail NAME | node recover NAME
//	node condition NAME TYPE=True|False...
//	                           the node reports the condition (Ready,
//	                           MemoryPressure, DiskPressure, PIDPressure,
//	                           NetworkUnavailable); the node lifecycle
//	                           controller taints it to match
//	pod fail POD [-n NS]       its container exits with an error (phase Failed)
//	pod succeed POD [-n NS]    its container exits 0 (phase Succeeded)
//	                           POD is a pod name, or [PREFIX]@NODE: the one
//	                           pod bound to NODE, not terminating and not
//	                           terminal, whose name starts with PREFIX
//	registry has REF...        declare the simulated registry's images: from
//	                           then on only declared references can be pulled
//	registry lacks REF...      make references unpullable (the registry is
//	                           open by default: every reference exists)
//	registry preloaded REF...|none
//	                           the images every node holds without pulling
//	                           (replacing the list; default: nginx:1.23 and
//	                           nginx:1.23.3): imagePullPolicy Never runs only
//	                           these and images the node pulled, others wait
//	                           in ErrImageNeverPull
//	pod unready POD [-n NS]    its readiness probe starts failing: the kubelet
//	                           marks it unready after failureThreshold probes
//	                           (at once for a container without readinessProbe)
//	pod ready POD [-n NS]      its readiness probe passes again
//	decisions [--component=C] [--action=A] [--func=F]
//	                           print the cluster's decision log since the
//	                           previous `decisions` (one per line:
//	                           `+ELAPSED COMPONENT FUNC ACTION OBJECT node=NODE: REASON`,
//	                           without node=NODE for a decision about a whole object)
//	editor FILE | editor unchanged | editor replace OLD NEW
//	                           the editor opened by the latest `kubectl edit`
//	                           saves: the file FILE, the text as shown, or the
//	                           shown text with every OLD replaced by NEW (OLD
//	                           and NEW quoted with '...' or "..." when they
//	                           hold blanks, \n for a line break); the edit's output is this step's
//	                           (`! editor ...` expects it to fail); when the
//	                           editor reopens with errors, `editor` again.
//	                           Other commands may run while the editor is
//	                           open, as on the page.
//	file NAME FROM             the file NAME (what `-f NAME` reads) now holds
//	                           the archive file FROM: the page's editor buffer
//	                           changing (Export writes it; FROM is usually
//	                           NAME@2, NAME@3, ...)
//	cluster empty              start with no nodes   } before any other
//	cluster seed N             seed pod names (default 1) } command
//	stdout REGEX / ! stdout REGEX / stderr REGEX / ! stderr REGEX
//	                           assertions on the previous command's output,
//	                           as in Go's script tests ((?m) is implied);
//	                           `stdout -count=N REGEX` wants exactly N matches
//	expect SUBJECT PREDICATE / ! expect SUBJECT PREDICATE
//	                           a check of the cluster's state (below); prints
//	                           ok, or FAIL with a sentence saying why
//	always SUBJECT PREDICATE   from here on, the check must hold after every
//	                           command and every virtual second of advance
//	                           and wait; the first time it breaks is a
//	                           failure naming the virtual time
//
// A scenario file is UTF-8 text (a UTF-8 byte-order mark is dropped; UTF-16
// and other encodings are malformed). Node names are DNS-1123 subdomains and
// taints KEY[=VALUE]:EFFECT with a qualified-name key, as the API server
// validates them.
//
// Every scenario starts on the default cluster (control-plane, node-1,
// node-2) unless it begins with `cluster empty`.
//
// Watches: after `kubectl get ... -w` the watch keeps printing until the
// next `kubectl`, `editor` or `decisions` step. During the steps between
// (advance and wait run in one-second steps then), each change it prints
// is written to the transcript under the step that caused it and appended
// to the watching command's output, so `stdout` assertions after an
// `advance` test everything the watch printed so far.
//
// # Checks: expect and always
//
// SUBJECT PREDICATE is one of (NAME may be NAMESPACE/NAME; default namespace
// otherwise):
//
//	ds/NAME MEASURE OP N      MEASURE is one of the DaemonSet's status numbers,
//	                          as the controller computes them (kubectl get ds):
//	                          desired, current, ready, available, updated,
//	                          misscheduled, unavailable (nodes that should run
//	                          a pod and have no available one), or pods (its
//	                          pods that are neither terminating nor finished);
//	                          OP is == != < <= > >=
//	ds/NAME on NODE...|all    each node runs a Ready, non-terminating pod of it
//	                          (all: every node of the cluster)
//	ds/NAME not-on NODE...    no non-terminating pod of it on those nodes
//	ds/NAME image [C=]IMAGE   its template and every non-terminating pod of
//	                          it run IMAGE (in container C when given)
//	ds/NAME rolled-out        `kubectl rollout status` would say "successfully
//	                          rolled out" (false for OnDelete, which it refuses)
//	ds/NAME exists
//	pod/NAME on NODE | pod/NAME phase PHASE | pod/NAME exists
//	                          (PHASE: Pending, Running, Succeeded, Failed, Unknown)
//	node/NAME taint KEY[=VALUE]:EFFECT   the node has exactly that taint
//	node/NAME exists
//
// Failure messages are plain sentences for learners, e.g.
// "ds/agent: 2 nodes without an available pod (at most 1 allowed), at t=34s".
// A check only reads the cluster. An `expect` line is echoed like a command
// and prints `ok`, or `FAIL: file:line: sentence`. An `always` line holds
// from where it stands (in an exercise: from the start of the learner's
// work) and is checked after every command and every virtual second of
// advance and wait, and of the waits of kubectl commands that wait by
// themselves (delete, drain, rollout status); a violation found inside
// such a command is printed after its output. Each invariant fails once,
// at the first time it breaks.
//
// # Header
//
// Comment lines before the first command (and before the first `##`
// heading) of the form `# KEY: text` describe the file:
//
//	# title: One pod per node        the title
//	# kind: lesson|exercise          absent: a plain scenario
//	# summary: ...                   one line for the gallery
//	# task: ...                      exercise: the task in plain words
//	                                 (several lines join with a space)
//	# hint: ...                      exercise: a hint; repeat, in reveal order
//	# order: 3                       integer: position in the gallery
//	# level: 1                       integer: difficulty
//
// Other header comments are free text (a lesson's introduction).
//
// # Lessons
//
// A lesson (`# kind: lesson`) is an ordinary scenario cut into steps: a line
// `## Title` starts a step; the `#` lines right after it (before its first
// command) are the step's explanation (markdown-lite: `code`; a bare `#`
// line separates paragraphs); the commands until the next `##` are the
// step's, and assertions hold there as anywhere. Commands before the first
// `##` are step 0, "Setup" (it may be empty). `dsplay run` runs a lesson as
// an ordinary scenario; the page plays it step by step (Player).
//
// # Exercises
//
// An exercise (`# kind: exercise`) has sections, started by the headings
// (case-insensitive):
//
//	## setup      (optional heading: everything before the first heading)
//	              commands that build the starting state
//	## goal       read-only checks of the learner's cluster, run on it
//	              without changing it: kubectl get/describe/events/explain/
//	              rollout status/rollout history (no -w) with their stdout/
//	              stderr assertions, and expect lines. The goal is reached
//	              when every check holds.
//	## always     always lines: invariants checked after every step of the
//	              learner's work and every virtual second
//	## solution   commands that solve it ("Show solution" on the page)
//
// A goal, and a solution with at least one command (not only expect lines),
// are required. `dsplay run exercise.txtar` runs
// the setup, checks that the goal does NOT hold yet (else the failure
// "exercise is already solved at the start"), runs the solution with the
// invariants observed after every command and every virtual second of its
// waits and advances, and checks that the goal holds. Its transcript marks
// the parts: `# --- setup`, `# --- goal (expected to fail at the start)`
// (failing checks print `not yet: ...` there), `# --- always ...`,
// `# --- solution`, `# --- goal` (failing checks print `FAIL: ...`). On the
// page, the setup runs on a fresh cluster, the goal is checked on the
// learner's cluster after each of their actions (CheckGoal) and the
// invariants are observed after each action and each frame (Invariants).
//
// Example:
//
//	# title: Tolerate the control plane
//	# kind: exercise
//	# task: Make the agent run on every node, the control plane included.
//	# hint: Which taint keeps it off? `kubectl describe node control-plane`
//	# hint: Add a toleration for node-role.kubernetes.io/control-plane.
//	kubectl apply -f agent.yaml
//	wait rollout ds/agent
//	## goal
//	expect ds/agent on all
//	## always
//	always ds/agent unavailable <= 1
//	## solution
//	kubectl apply -f agent-tolerant.yaml
//	wait rollout ds/agent
//	-- agent.yaml --
//	...
package scenario

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"golang.org/x/tools/txtar"
)

// DefaultWaitTimeout bounds every wait command, in virtual time.
const DefaultWaitTimeout = 10 * time.Minute

// MaxVirtualWait is the most virtual time one `advance` or one `wait
// --timeout` may ask for: a scenario asking for more is malformed ("at most
// 24h of virtual time"), so that a run ends in bounded wall time (every
// lesson, exercise and example needs minutes).
const MaxVirtualWait = 24 * time.Hour

// waitStep is the virtual-time step of wait commands, and of advances
// while a watch runs, invariants are observed or the run can be stopped.
const waitStep = time.Second

// MalformedError reports a scenario that cannot be run (exit status 2):
// an unknown command, a bad duration or regular expression, an assertion
// with no command before it, a bad header value, a misplaced section or a
// goal that would change the cluster. Line is 1-based in the scenario file.
type MalformedError struct {
	File string
	Line int
	Msg  string
}

func (e *MalformedError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Kinds of scenario files (Meta.Kind).
const (
	KindLesson   = "lesson"
	KindExercise = "exercise"
)

// Exercise sections (step.section); "" in lessons and plain scenarios.
const (
	secSetup    = "setup"
	secGoal     = "goal"
	secAlways   = "always"
	secSolution = "solution"
)

// step is one parsed script line.
type step struct {
	line    int
	text    string
	negate  bool
	verb    string // kubectl, advance, wait, node, pod, registry, decisions, editor, file, expect, always, stdout, stderr, comment, heading
	args    []string
	dur     time.Duration
	re      *regexp.Regexp
	count   int // stdout/stderr -count=N: exactly N matches (0: at least one)
	comment string
	exp     *expectation // expect, always
	// section is the exercise section the line is in ("" outside exercises).
	section string
}

// isCommand reports whether the step acts or reads (echoed as `$ ...` in
// the transcript), as opposed to comments, headings and assertions.
func (st *step) isCommand() bool {
	switch st.verb {
	case "comment", "heading", "stdout", "stderr":
		return false
	}
	return true
}

// Scenario is a parsed scenario file.
type Scenario struct {
	Name  string
	Files map[string]string
	steps []step
	empty bool
	seed  int64
	meta  Meta
	// intro is the header's free-text comment lines (step 0's text).
	intro []string
}

// headerLine matches a header metadata line `# KEY: text`.
var headerLine = regexp.MustCompile(`^#\s*([A-Za-z]+)\s*:\s*(.*)$`)

// Parse reads a txtar scenario. Errors are *MalformedError.
func Parse(name string, data []byte) (*Scenario, error) {
	bad := func(line int, format string, a ...any) error {
		return &MalformedError{File: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	if line, msg := notUTF8(data); msg != "" {
		return nil, bad(line, "%s", msg)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte-order mark
	ar := txtar.Parse(data)
	sc := &Scenario{Name: name, Files: map[string]string{}}
	for _, f := range ar.Files {
		sc.Files[f.Name] = string(f.Data)
	}
	lines := strings.Split(string(ar.Comment), "\n")
	// the header: comment lines before the first command or heading
	kindLine := 0
	for i, raw := range lines {
		text := strings.TrimSpace(raw)
		if text == "" {
			continue
		}
		if !strings.HasPrefix(text, "#") || strings.HasPrefix(text, "##") {
			break
		}
		m := headerLine.FindStringSubmatch(text)
		key := ""
		if m != nil {
			key = strings.ToLower(m[1])
		}
		val := ""
		if m != nil {
			val = strings.TrimSpace(m[2])
		}
		switch key {
		case "title":
			sc.meta.Title = val
		case "kind":
			v := strings.ToLower(val)
			if v != KindLesson && v != KindExercise {
				return nil, bad(i+1, "# kind: %q: want lesson or exercise (leave it out for a plain scenario)", val)
			}
			sc.meta.Kind, kindLine = v, i+1
		case "summary":
			sc.meta.Summary = val
		case "task":
			sc.meta.Task = strings.TrimSpace(sc.meta.Task + " " + val)
		case "hint":
			if val == "" {
				return nil, bad(i+1, "# hint: is empty")
			}
			sc.meta.Hints = append(sc.meta.Hints, val)
		case "order", "level":
			n, err := strconv.Atoi(val)
			if err != nil {
				return nil, bad(i+1, "# %s: %q is not an integer", key, val)
			}
			if key == "order" {
				sc.meta.Order = n
			} else {
				sc.meta.Level = n
			}
		default:
			t := strings.TrimPrefix(text, "#")
			t = strings.TrimPrefix(t, " ")
			sc.intro = append(sc.intro, t)
		}
	}
	exercise := sc.meta.Kind == KindExercise
	section := ""
	if exercise {
		section = secSetup
	}
	seen := map[string]int{} // exercise section -> line of its heading
	// sawCommand: a command ran before (in this section, for the goal and
	// the solution, which run on their own); setupDone: a command other than
	// `cluster ...` was seen.
	sawCommand, setupDone := false, false
	lastVerb := "" // of the latest command, for assertions
	for i, raw := range lines {
		ln := i + 1
		text := strings.TrimSpace(raw)
		if text == "" {
			continue
		}
		if h, ok := strings.CutPrefix(text, "##"); ok {
			title := strings.TrimSpace(strings.TrimLeft(h, "#"))
			if title == "" {
				return nil, bad(ln, "## needs a title: `## Title` starts a lesson step or an exercise section")
			}
			sec := strings.ToLower(title)
			isSection := sec == secGoal || sec == secAlways || sec == secSolution || sec == secSetup
			switch {
			case exercise && !isSection:
				return nil, bad(ln, "unknown exercise section %q: want ## setup, ## goal, ## always or ## solution", title)
			case exercise:
				if prev, dup := seen[sec]; dup {
					return nil, bad(ln, "second ## %s section (the first is on line %d)", sec, prev)
				}
				if sec == secSetup && len(seen) > 0 {
					return nil, bad(ln, "## setup must come before the other sections")
				}
				if sec == secSetup && sawCommand {
					return nil, bad(ln, "## setup after setup commands: put them under the heading, or leave the heading out")
				}
				seen[sec] = ln
				section = sec
				sawCommand = sawCommand && sec == secSetup
			case sec == secGoal || sec == secAlways || sec == secSolution:
				what := "a plain scenario"
				if sc.meta.Kind == KindLesson {
					what = "a lesson (# kind: lesson)"
				}
				return nil, bad(ln, "## %s is an exercise section, but this file is %s: exercises say `# kind: exercise` in their header", sec, what)
			}
			sc.steps = append(sc.steps, step{line: ln, text: text, verb: "heading", comment: title, section: section})
			continue
		}
		if strings.HasPrefix(text, "#") {
			sc.steps = append(sc.steps, step{line: ln, text: text, verb: "comment", comment: text, section: section})
			continue
		}
		st := step{line: ln, text: text, section: section}
		if err := sc.parseCommand(&st, sawCommand, setupDone); err != nil {
			return nil, err
		}
		switch st.verb {
		case "cluster":
			continue
		case "stdout", "stderr":
			if lastVerb == "expect" || lastVerb == "always" {
				return nil, bad(ln, "%s assertion after %s: assertions check the output of the previous kubectl (or editor, decisions) command; %s checks the cluster itself", st.verb, lastVerb, lastVerb)
			}
		default:
			sawCommand = true
			setupDone = true
			lastVerb = st.verb
		}
		if err := checkSection(&st); err != nil {
			return nil, bad(ln, "%v", err)
		}
		sc.steps = append(sc.steps, st)
	}
	if !slices.ContainsFunc(sc.steps, func(st step) bool { return st.isCommand() }) {
		// an empty file (or one holding only comments and files) would
		// "pass" without testing anything
		return nil, bad(1, "no commands: a scenario starts with its commands, before the first -- file --")
	}
	if exercise {
		if _, ok := seen[secGoal]; !ok {
			return nil, bad(kindLine, "exercise without a ## goal section: the checks that say it is solved")
		}
		if !slices.ContainsFunc(sc.steps, func(st step) bool { return st.section == secGoal && st.isCommand() }) {
			return nil, bad(seen[secGoal], "## goal has no checks")
		}
		if _, ok := seen[secSolution]; !ok {
			return nil, bad(kindLine, "exercise without a ## solution section: the commands that solve it (dsplay run checks them)")
		}
		if !slices.ContainsFunc(sc.steps, func(st step) bool {
			return st.section == secSolution && st.isCommand() && st.verb != "expect"
		}) {
			return nil, bad(seen[secSolution], "## solution has no commands: write the commands that solve the exercise (dsplay run checks them)")
		}
	}
	return sc, nil
}

// notUTF8 reports a file that is not UTF-8 text: the message and the
// 1-based line of the first bad byte ("" when the file is fine). UTF-16
// (what some Windows editors save) is named by its byte-order mark.
func notUTF8(data []byte) (line int, msg string) {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return 1, "the file is not UTF-8 (it starts with a UTF-16 byte-order mark): save it as UTF-8"
	}
	if utf8.Valid(data) {
		return 0, ""
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return 1 + bytes.Count(data[:i], []byte("\n")), fmt.Sprintf("the file is not UTF-8 (byte 0x%02x at offset %d): save it as UTF-8", data[i], i)
		}
		i += size
	}
	return 1, "the file is not UTF-8: save it as UTF-8"
}

// readOnlyVerbs are the kubectl commands a goal may run: they read the
// cluster and never write it (without -w, and without an Advance function,
// rollout status returns at once).
var readOnlyVerbs = map[string]bool{
	"get": true, "describe": true, "events": true, "explain": true,
	"api-resources": true, "api-versions": true, "version": true, "cluster-info": true,
	"rollout status": true, "rollout history": true,
}

// kubectlVerb is the subcommand of a kubectl argument list (without the
// leading kubectl): "get", "rollout status", ... ("" when none). Flag values
// of -n/--namespace given before the verb are skipped.
func kubectlVerb(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-n" || a == "--namespace" || a == "--context" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if a == "rollout" {
			for _, b := range args[i+1:] {
				if !strings.HasPrefix(b, "-") {
					return "rollout " + b
				}
			}
		}
		return a
	}
	return ""
}

// checkSection refuses commands that do not belong in their exercise
// section: a goal only reads, the always section holds only invariants, and
// invariants live only there.
func checkSection(st *step) error {
	switch st.section {
	case secGoal:
		switch st.verb {
		case "expect", "stdout", "stderr":
			return nil
		case "kubectl":
			args, err := splitKubectl(st.args[0])
			if err != nil {
				return err
			}
			verb := kubectlVerb(args)
			if !readOnlyVerbs[verb] {
				return fmt.Errorf("the goal only reads the cluster, but `kubectl %s` changes it or is not a read: use get, describe, events, explain, rollout status or rollout history (and expect lines); solving is the learner's job", verb)
			}
			for _, a := range args {
				if a == "-w" || a == "--watch" || a == "--watch-only" || strings.HasPrefix(a, "--watch=") || strings.HasPrefix(a, "--watch-only=") {
					if verb == "rollout status" && (a == "--watch=false") {
						continue
					}
					if verb != "rollout status" {
						return fmt.Errorf("the goal cannot watch (%s): it checks the cluster once", a)
					}
				}
			}
			return nil
		}
		return fmt.Errorf("the goal only reads the cluster: %q changes it (goal lines are kubectl get/describe/..., stdout/stderr assertions and expect lines)", st.verb)
	case secAlways:
		if st.verb != "always" {
			return fmt.Errorf("the ## always section holds only `always SUBJECT PREDICATE` lines, not %q", st.verb)
		}
	default:
		if st.verb == "always" && st.section != "" {
			return fmt.Errorf("in an exercise, always lines go in the ## always section")
		}
	}
	return nil
}

// parseCommand parses the command line st.text into st. sawCommand says a
// command came before in the same run (for assertions); setupDone that a
// command other than `cluster ...` came before.
func (sc *Scenario) parseCommand(st *step, sawCommand, setupDone bool) error {
	ln := st.line
	bad := func(line int, format string, a ...any) error {
		return &MalformedError{File: sc.Name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	rest := st.text
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
	case "advance":
		if st.negate {
			return bad(ln, "advance cannot be negated")
		}
		d, err := time.ParseDuration(args)
		if err != nil || d < 0 {
			return bad(ln, "advance wants a duration such as 30s or 2m, got %q", args)
		}
		if d > MaxVirtualWait {
			return bad(ln, "advance %s: at most %s of virtual time", args, kubectl.ShortDuration(MaxVirtualWait))
		}
		st.dur = d
	case "wait":
		if st.negate {
			return bad(ln, "wait cannot be negated")
		}
		f := strings.Fields(args)
		st.dur = DefaultWaitTimeout
		var rest []string
		for _, a := range f {
			if v, ok := strings.CutPrefix(a, "--timeout="); ok {
				d, err := time.ParseDuration(v)
				if err != nil || d <= 0 {
					return bad(ln, "bad --timeout %q", v)
				}
				if d > MaxVirtualWait {
					return bad(ln, "wait --timeout=%s: at most %s of virtual time", v, kubectl.ShortDuration(MaxVirtualWait))
				}
				st.dur = d
				continue
			}
			rest = append(rest, a)
		}
		switch {
		case len(rest) == 2 && rest[0] == "rollout" && strings.HasPrefix(rest[1], "ds/"):
			if ns, name := splitNamespace(strings.TrimPrefix(rest[1], "ds/")); ns == "" || name == "" {
				return bad(ln, "wait rollout %s: want ds/NAME or ds/NAMESPACE/NAME", rest[1])
			}
		case len(rest) == 1 && rest[0] == "idle":
		case len(rest) == 2 && rest[0] == "deleted" && strings.Contains(rest[1], "/"):
			kind, obj, _ := strings.Cut(rest[1], "/")
			if !waitDeletedKinds[kind] {
				return bad(ln, "wait deleted: unknown kind %q (want pod, ds or node)", kind)
			}
			if ns, name := splitNamespace(obj); ns == "" || name == "" {
				return bad(ln, "wait deleted %s: want KIND/NAME or KIND/NAMESPACE/NAME", rest[1])
			}
		default:
			return bad(ln, "unknown wait %q: want `wait rollout ds/NAME`, `wait idle` or `wait deleted KIND/NAME`", args)
		}
		st.args = rest
	case "node":
		if st.negate {
			return bad(ln, "node commands cannot be negated")
		}
		f := strings.Fields(args)
		if len(f) < 2 {
			return bad(ln, "usage: node add|remove|fail|recover|condition NAME")
		}
		switch f[0] {
		case "add":
			if _, err := parseNodeAdd(f[2:]); err != nil {
				return bad(ln, "%v", err)
			}
			names, err := expandRange(f[1])
			if err != nil {
				return bad(ln, "%v", err)
			}
			for _, n := range names {
				// the API server's check of a node's name (metadata.name:
				// a DNS-1123 subdomain, ValidateNodeName)
				if msgs := api.IsDNS1123Subdomain(n); len(msgs) > 0 {
					return bad(ln, "node add: invalid node name %q: %s", n, strings.Join(msgs, "; "))
				}
			}
		case "remove", "fail", "recover":
			if len(f) != 2 {
				return bad(ln, "usage: node %s NAME", f[0])
			}
		case "condition":
			if len(f) < 3 {
				return bad(ln, "usage: node condition NAME TYPE=True|False...")
			}
			for _, kv := range f[2:] {
				if _, _, err := parseCondition(kv); err != nil {
					return bad(ln, "%v", err)
				}
			}
		default:
			return bad(ln, "unknown node command %q: want add, remove, fail, recover or condition", f[0])
		}
		st.args = f
	case "pod":
		f, ok := podArgs(strings.Fields(args))
		if st.negate || !ok {
			return bad(ln, "usage: pod fail|succeed|unready|ready NAME|[PREFIX]@NODE [-n NAMESPACE]")
		}
		st.args = f
	case "registry":
		f := strings.Fields(args)
		if st.negate || len(f) < 2 || (f[0] != "has" && f[0] != "lacks" && f[0] != "preloaded") {
			return bad(ln, "usage: registry has|lacks|preloaded IMAGE... (registry preloaded none)")
		}
		st.args = f
	case "decisions":
		if st.negate {
			return bad(ln, "decisions cannot be negated")
		}
		f := strings.Fields(args)
		if _, err := parseDecisionFilter(f); err != nil {
			return bad(ln, "%v", err)
		}
		st.args = f
	case "editor":
		f, err := splitQuoted(args)
		switch {
		case err != nil:
			return bad(ln, "editor: %v", err)
		case len(f) == 1 && f[0] == "unchanged":
		case len(f) == 3 && f[0] == "replace" && f[1] != "":
		case len(f) == 1 && f[0] != "replace":
			if _, ok := sc.Files[f[0]]; !ok {
				return bad(ln, "editor: no file %q in the scenario", f[0])
			}
		default:
			return bad(ln, "usage: editor FILE | editor unchanged | editor replace OLD NEW")
		}
		st.args = f
	case "file":
		f := strings.Fields(args)
		if st.negate || len(f) != 2 {
			return bad(ln, "usage: file NAME FROM (the file NAME gets the content of the archive file FROM)")
		}
		if _, ok := sc.Files[f[1]]; !ok {
			return bad(ln, "file: no file %q in the scenario", f[1])
		}
		st.args = f
	case "cluster":
		f := strings.Fields(args)
		switch {
		case st.negate:
			return bad(ln, "cluster cannot be negated")
		case setupDone || st.section != "" && st.section != secSetup:
			return bad(ln, "cluster %s must be the first command (cluster lines come before any other)", args)
		case len(f) == 1 && f[0] == "empty":
			sc.empty = true
		case len(f) == 2 && f[0] == "seed":
			n, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || n <= 0 {
				return bad(ln, "cluster seed wants a positive integer, got %q", f[1])
			}
			sc.seed = n
		default:
			return bad(ln, "usage: cluster empty | cluster seed N")
		}
	case "expect", "always":
		if verb == "always" && st.negate {
			return bad(ln, "always cannot be negated: say what must always hold")
		}
		e, err := parseExpectation(args)
		if err != nil {
			return bad(ln, "%s: %v", verb, err)
		}
		st.exp = e
	case "stdout", "stderr":
		if !sawCommand {
			if st.section == secGoal || st.section == secSolution {
				return bad(ln, "%s assertion before any command of the ## %s section", verb, st.section)
			}
			return bad(ln, "%s assertion before any command", verb)
		}
		if v, rest, ok := strings.Cut(args, " "); ok && strings.HasPrefix(v, "-count=") {
			n, err := strconv.Atoi(strings.TrimPrefix(v, "-count="))
			if err != nil || n < 0 || st.negate {
				return bad(ln, "bad %s: -count=N wants N >= 0 and no !", verb)
			}
			st.count, args = n, strings.TrimSpace(rest)
			if n == 0 {
				st.negate = true // -count=0 means no match
			}
		}
		pat := unquote(args)
		re, err := regexp.Compile("(?m)" + pat)
		if err != nil {
			return bad(ln, "bad regular expression %q: %v", pat, err)
		}
		st.re = re
	default:
		return bad(ln, "unknown command %q (want kubectl, advance, wait, node, pod, registry, decisions, editor, file, expect, always, cluster, stdout, stderr)", verb)
	}
	return nil
}

// splitKubectl splits the arguments of a kubectl line as kubectl would
// (quotes and all), without the leading kubectl.
func splitKubectl(args string) ([]string, error) {
	a, err := kubectl.ParseCommandLine("kubectl " + args)
	if err != nil {
		return nil, err
	}
	if len(a) > 0 && (a[0] == "kubectl" || a[0] == "k") {
		a = a[1:]
	}
	return a, nil
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
	// the API server's checks of a taint (validateNodeTaints,
	// pkg/apis/core/validation/validation.go): the key is a qualified
	// name, the value a label value
	if msgs := api.IsQualifiedName(k); len(msgs) > 0 {
		return api.Taint{}, fmt.Errorf("bad --taint %q: key %q: %s", s, k, strings.Join(msgs, "; "))
	}
	if msgs := api.IsValidLabelValue(v); len(msgs) > 0 {
		return api.Taint{}, fmt.Errorf("bad --taint %q: value %q: %s", s, v, strings.Join(msgs, "; "))
	}
	return api.Taint{Key: k, Value: v, Effect: effect}, nil
}
