package scenario

// Command is one command line of a scenario's script, as Parse read it
// (comments, headings, assertions and `cluster` lines are not commands).
type Command struct {
	// Line is the 1-based line in the scenario file; Text the line as
	// written, trimmed (a leading `!` included).
	Line int
	Text string
	// Verb is kubectl (`k` included), advance, wait, node, pod, registry,
	// decisions, editor, file, expect or always.
	Verb string
	// Args are the words after the verb: for kubectl, split as kubectl
	// reads a command line (kubectl.ParseCommandLine; nil when the line
	// does not split); for node, pod, registry, decisions and file, the
	// fields (`node add NAME --label k=v` has Args add, NAME, --label,
	// k=v); for the other verbs, nil.
	Args []string
	// Negate is a leading `!` (the command must fail).
	Negate bool
}

// Commands returns the script's commands in order.
func (sc *Scenario) Commands() []Command {
	var out []Command
	for _, st := range sc.steps {
		if !st.isCommand() {
			continue
		}
		c := Command{Line: st.line, Text: st.text, Verb: st.verb, Negate: st.negate}
		switch st.verb {
		case "kubectl":
			if a, err := splitKubectl(st.args[0]); err == nil {
				c.Args = a
			}
		case "node", "pod", "registry", "decisions", "file":
			c.Args = append([]string(nil), st.args...)
		}
		out = append(out, c)
	}
	return out
}
