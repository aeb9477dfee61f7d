package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// invocation is one running command: its environment, parsed flags,
// positional arguments and output buffers.
type invocation struct {
	env   *Env
	cmd   *command
	flags *flagSet
	args  []string
	// line is the command line as given, for decision records.
	line string

	// namespace is -n or "default"; explicitNS is true when -n was given.
	namespace  string
	explicitNS bool

	// out and errOut are standard output and standard error; both also
	// append to chunks, which keeps their relative order.
	out, errOut stream
	chunks      []Chunk

	// watch is set by `get -w` (see Watch); edit by `edit` (see EditSession).
	watch *Watch
	edit  *EditSession
	// warned holds the API server warnings printed so far (see serverwarnings.go)
	warned warningSeen
}

// command is one kubectl subcommand the playground simulates.
type command struct {
	name  string
	use   string // cobra Use line, for usage errors
	short string
	flags func() []*flagDef
	run   func(inv *invocation) error
}

// path is the command path used in help pointers: "kubectl get".
func (c *command) path() string { return "kubectl " + c.name }

var commands []*command

func init() {
	commands = []*command{
		{name: "get", use: "get [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags]",
			short: "Display one or many resources", flags: getFlags, run: runGet},
		{name: "describe", use: "describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME)",
			short: "Show details of a specific resource or group of resources", flags: describeFlags, run: runDescribe},
		{name: "taint", use: "taint NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N",
			short: "Update the taints on one or more nodes", flags: taintFlags, run: runTaint},
		{name: "label", use: "label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]",
			short: "Update the labels on a resource", flags: labelFlags, run: runLabel},
		{name: "annotate", use: "annotate [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]",
			short: "Update the annotations on a resource", flags: annotateFlags, run: runAnnotate},
		{name: "edit", use: "edit (RESOURCE/NAME | -f FILENAME)",
			short: "Edit a resource on the server", flags: editFlags, run: runEdit},
		{name: "patch", use: "patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE]",
			short: "Update fields of a resource", flags: patchFlags, run: runPatch},
		{name: "delete", use: "delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)])",
			short: "Delete resources by file names, stdin, resources and names, or by resources and label selector", flags: deleteFlags, run: runDelete},
		{name: "apply", use: "apply (-f FILENAME | -k DIRECTORY)",
			short: "Apply a configuration to a resource by file name or stdin", flags: applyFlags, run: runApply},
		{name: "create", use: "create -f FILENAME",
			short: "Create a resource from a file or from stdin", flags: createFlags, run: runCreate},
		{name: "replace", use: "replace -f FILENAME",
			short: "Replace a resource by file name or stdin", flags: applyFlags, run: runReplace},
		{name: "cordon", use: "cordon NODE",
			short: "Mark node as unschedulable", flags: cordonFlags, run: runCordon},
		{name: "uncordon", use: "uncordon NODE",
			short: "Mark node as schedulable", flags: cordonFlags, run: runUncordon},
		{name: "drain", use: "drain NODE",
			short: "Drain node in preparation for maintenance", flags: drainFlags, run: runDrain},
		{name: "events", use: "events [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file] [--for TYPE/NAME] [--watch] [--types=Normal,Warning]",
			short: "List events", flags: eventsFlags, run: runEvents},
		{name: "set", use: "set SUBCOMMAND",
			short: "Set specific features on objects", flags: setFlags, run: runSet},
		{name: "rollout", use: "rollout SUBCOMMAND",
			short: "Manage the rollout of a resource", flags: rolloutFlags, run: runRollout},
		{name: "version", use: "version",
			short: "Print the client and server version information", flags: versionFlags, run: runVersion},
		{name: "api-resources", use: "api-resources",
			short: "Print the supported API resources on the server", flags: apiResourcesFlags, run: runAPIResources},
		{name: "scale", use: "scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME)",
			short: "Set a new size for a deployment, replica set, or replication controller", flags: scaleFlags, run: runScale},
		{name: "explain", use: "explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [--output=plaintext|plaintext-openapiv2]",
			short: "Get documentation for a resource", flags: explainFlags, run: runExplain},
		{name: "api-versions", use: "api-versions",
			short: "Print the supported API versions on the server, in the form of \"group/version\"", flags: apiVersionsFlags, run: runAPIVersions},
	}
}

// notSimulated are kubectl 1.37's other commands: the playground names them
// honestly instead of faking a result.
var notSimulated = []string{
	"alpha", "attach", "auth", "autoscale", "certificate", "cluster-info",
	"completion", "config", "cp", "debug", "diff", "exec",
	"expose", "kustomize", "logs", "options", "plugin", "port-forward",
	"proxy", "run", "top", "wait",
}

// createSubcommands are kubectl create's generators, not simulated.
var createSubcommands = map[string]bool{
	"clusterrole": true, "clusterrolebinding": true, "cronjob": true, "cj": true,
	"deployment": true, "deploy": true, "ingress": true, "ing": true, "job": true,
	"poddisruptionbudget": true, "pdb": true, "priorityclass": true, "pc": true, "quota": true,
	"resourcequota": true, "role": true, "rolebinding": true, "service": true, "svc": true,
	"token": true,
}

// suggestFor mirrors cobra's SuggestFor entries of kubectl's commands.
var suggestFor = map[string][]string{
	"delete": {"rm"},
	"get":    {"list", "ps"},
}

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run is Run's body: strip the "kubectl"/"k" prefix, find the command (global
// flags may come before it), parse flags, run, and render errors as kubectl.
func run(env *Env, args []string) Result {
	if len(args) > 0 && (args[0] == "kubectl" || args[0] == "k") {
		args = args[1:]
	}
	inv := &invocation{env: env, line: "kubectl " + strings.Join(args, " ")}
	inv.out = stream{chunks: &inv.chunks}
	inv.errOut = stream{stderr: true, chunks: &inv.chunks}
	err := dispatch(inv, args)
	exit := 0
	if err != nil {
		// cmdutil.CheckErr prints the error last, after whatever the
		// command wrote before failing.
		inv.errOut.WriteString(checkErr(err))
		exit = 1
	}
	return Result{Stdout: inv.out.String(), Stderr: inv.errOut.String(), Chunks: inv.chunks, ExitCode: exit,
		Watch: inv.watch, Edit: inv.edit}
}

func dispatch(inv *invocation, args []string) error {
	// Find the command word, skipping global flags and their values
	// (cobra's stripFlags).
	cmdIdx := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			// cobra's stripFlags: "-x" and "--name" without "=" take the
			// next argument as their value, except known boolean flags.
			takesValue := (len(a) == 2 || strings.HasPrefix(a, "--")) && !strings.Contains(a, "=")
			if a == "-A" || a == "--all-namespaces" || globalBoolFlag(a) {
				takesValue = false
			}
			if takesValue {
				i++
			}
			continue
		}
		cmdIdx = i
		break
	}
	if cmdIdx < 0 {
		for _, a := range args {
			if a == "-h" || a == "--help" {
				inv.out.WriteString(rootHelp())
				return nil
			}
		}
		// Parse flags anyway so that unknown flags are reported as kubectl does.
		fs := newFlagSet(globalFlags())
		if _, err := fs.parse(args); err != nil {
			return &flagError{msg: err.Error(), cmdPath: "kubectl"}
		}
		inv.out.WriteString(rootHelp())
		return nil
	}
	name := args[cmdIdx]
	rest := append(append([]string(nil), args[:cmdIdx]...), args[cmdIdx+1:]...)
	cmd := findCommand(name)
	if cmd == nil {
		for _, n := range notSimulated {
			if n == name {
				return fmt.Errorf("%q is not simulated in the playground", "kubectl "+name)
			}
		}
		if name == "help" {
			inv.out.WriteString(rootHelp())
			return nil
		}
		return unknownCommand(name)
	}
	inv.cmd = cmd
	if cmd.name == "create" {
		for i, a := range rest {
			if createSubcommands[a] {
				return fmt.Errorf("%q is not simulated in the playground (use kubectl create -f FILE)", "kubectl create "+a)
			}
			// of the secret generators only generic is simulated (configobjects.go)
			if a == "secret" && i+1 < len(rest) && rest[i+1] != "generic" && !strings.HasPrefix(rest[i+1], "-") {
				return fmt.Errorf("%q is not simulated in the playground (use kubectl create secret generic, or kubectl create -f FILE)", "kubectl create secret "+rest[i+1])
			}
		}
	}
	for _, a := range rest {
		if a == "--" {
			break
		}
		if a == "-h" || a == "--help" {
			if cmd.name == "rollout" && !hasRolloutSubcommand(rest) {
				inv.out.WriteString(rolloutHelp)
				return nil
			}
			inv.out.WriteString(commandHelp(cmd))
			return nil
		}
	}
	fs := newFlagSet(append(cmd.flags(), globalFlags()...))
	pos, err := fs.parse(rest)
	if err != nil {
		return &flagError{msg: err.Error(), cmdPath: cmd.path()}
	}
	if err := checkGlobalFlags(fs); err != nil {
		return err
	}
	inv.flags = fs
	inv.args = pos
	inv.namespace = api.DefaultNamespace
	if fs.Changed("namespace") {
		inv.namespace = fs.String("namespace")
		inv.explicitNS = true
		if inv.namespace == "" {
			inv.namespace = api.DefaultNamespace
		}
	}
	return cmd.run(inv)
}

// unknownCommand mirrors cobra's "unknown command" error with its
// "Did you mean this?" suggestions (Levenshtein distance <= 2, prefixes,
// SuggestFor).
func unknownCommand(name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", name, "kubectl")
	var all []string
	for _, c := range commands {
		all = append(all, c.name)
	}
	all = append(all, notSimulated...)
	sort.Strings(all)
	var sugg []string
	for _, c := range all {
		close := levenshtein(strings.ToLower(name), strings.ToLower(c)) <= 2 ||
			strings.HasPrefix(strings.ToLower(c), strings.ToLower(name))
		for _, s := range suggestFor[c] {
			if strings.EqualFold(s, name) {
				close = true
			}
		}
		if close {
			sugg = append(sugg, c)
		}
	}
	if len(sugg) > 0 {
		msg += "\n\nDid you mean this?\n"
		for _, s := range sugg {
			msg += "\t" + s + "\n"
		}
	}
	return fmt.Errorf("%s", msg)
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func rootHelp() string {
	var b strings.Builder
	b.WriteString("kubectl controls the Kubernetes cluster manager.\n\n")
	b.WriteString("This is the DaemonSet playground's kubectl: it runs against the simulated cluster.\n\n")
	b.WriteString("Simulated commands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-15s%s\n", c.name, c.short)
	}
	b.WriteString("\nUsage:\n  kubectl [flags] [options]\n\n")
	b.WriteString("Use \"kubectl <command> --help\" for more information about a given command.\n")
	return b.String()
}

func commandHelp(c *command) string {
	var b strings.Builder
	b.WriteString(c.short + ".\n\nUsage:\n  kubectl " + c.use + "\n\nOptions:\n")
	for _, d := range c.flags() {
		if c.name == "create" && generatorFlags[d.name] {
			continue // the generators' own flags (configobjects.go)
		}
		name := "    --" + d.name
		if d.shorthand != "" {
			name = "-" + d.shorthand + ", --" + d.name
		}
		def := d.def
		switch d.kind {
		case flagString:
			def = "'" + def + "'"
		case flagStringSlice, flagStringArray:
			def = "[]"
		}
		fmt.Fprintf(&b, "    %s=%s\n", name, def)
	}
	b.WriteString("\nUse \"kubectl options\" for a list of global command-line options (applies to all commands).\n")
	return b.String()
}
