package kubectl

import (
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/schema"
)

// Complete returns what a shell's Tab offers for the word at cursor in line,
// as kubectl's cobra completion (`kubectl __complete`, k8s.io/kubectl
// pkg/cmd/util/completion.go and cobra's completions.go) would: verbs, flags
// of the verb being typed (cobra leaves out a non-repeatable flag already
// given), resource types with their short names and singular names, the names
// of live objects of the type already typed (TYPE NAME or TYPE/NAME, in the
// -n namespace, or every namespace with -A), node names for cordon, uncordon,
// drain and taint, rollout's subcommands, and values of -n (namespaces), -o
// (the formats in the command's usage line, as PrintFlags.AllowedFormats),
// -f (the playground's files), --field-selector spec.nodeName= (node names,
// for pods), and of any flag whose values the usage line lists
// ("[--types=Normal,Warning]").
//
// line is the text of the input; cursor is a byte offset into it (the
// caret): only line[:cursor] is read. A leading "kubectl" or "k" is
// optional. candidates are sorted, without duplicates, and each starts with
// the (unquoted) text of the word being completed; replaceFrom is the byte
// offset where that word starts, so the caller replaces
// line[replaceFrom:cursor] with a chosen candidate. No candidates means
// nothing fits. env may be nil or have a nil Cluster (no object names then).
//
// Which positional arguments a verb takes is read from its usage line in the
// command table: TYPE or RESOURCE (a resource type, then names of that type),
// "NODE NAME" (taint: the node type, then node names), NODE (node names),
// SUBCOMMAND (rollout's and set's subcommands, then a type and names);
// explain completes TYPE.FIELD paths from the schema it reads.
func Complete(env *Env, line string, cursor int) (candidates []string, replaceFrom int) {
	if cursor < 0 || cursor > len(line) {
		cursor = len(line)
	}
	words, cur, from := completionWords(line[:cursor])
	c := &completer{env: env, namespace: api.DefaultNamespace}
	return c.complete(words, cur), from
}

// completer holds what the words before the one completed say.
type completer struct {
	env       *Env
	namespace string
	allNS     bool
	// positionals are the verb's positional arguments before the word.
	positionals []string
}

func (c *completer) complete(words []string, cur string) []string {
	if len(words) > 0 && (words[0] == "kubectl" || words[0] == "k") {
		words = words[1:]
	} else if len(words) == 0 {
		// The first word: kubectl itself is optional.
		return filterPrefix(append([]string{"kubectl"}, Verbs()...), cur)
	}
	// Find the verb as dispatch does: global flags may come before it.
	global := globalFlags()
	verbAt := -1
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			return nil
		}
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			// dispatch's rule (cobra's stripFlags) for flags it does not
			// know: "-x" and "--name" take the next word.
			takes := (len(w) == 2 || strings.HasPrefix(w, "--")) && !strings.Contains(w, "=") &&
				w != "-A" && w != "--all-namespaces"
			if d := flagOf(global, w); d != nil {
				takes = flagTakesNext(d, w)
			}
			value := ""
			if takes && i+1 < len(words) {
				i++
				value = words[i]
			}
			c.noteFlag(w, value)
			continue
		}
		verbAt = i
		break
	}
	if verbAt < 0 {
		if n := len(words); n > 0 {
			if d := flagOf(global, words[n-1]); d != nil && flagTakesNext(d, words[n-1]) {
				return c.flagValues(nil, d, cur)
			}
		}
		if strings.HasPrefix(cur, "-") {
			return c.flagNames(global, nil, cur)
		}
		return filterPrefix(Verbs(), cur)
	}
	cmd := findCommand(words[verbAt])
	if cmd == nil {
		return nil // a command the playground does not simulate
	}
	defs := append(cmd.flags(), global...)
	var positional, given []string
	var pending *flagDef // a flag whose value is the word being completed
	for i := verbAt + 1; i < len(words); i++ {
		w := words[i]
		pending = nil
		if w == "--" {
			return nil
		}
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			given = append(given, w)
			value := ""
			if d := flagOf(defs, w); d != nil && flagTakesNext(d, w) {
				if i+1 < len(words) {
					i++
					value = words[i]
				} else {
					pending = d
				}
			}
			c.noteFlag(w, value)
			continue
		}
		positional = append(positional, w)
	}
	c.positionals = positional
	if pending != nil {
		return c.flagValues(cmd, pending, cur)
	}
	if strings.HasPrefix(cur, "-") {
		if name, value, ok := strings.Cut(cur, "="); ok {
			if d := flagOf(defs, name); d != nil {
				return prefixAll(name+"=", c.flagValues(cmd, d, value))
			}
			return nil
		}
		return c.flagNames(defs, given, cur)
	}
	return c.positional(cmd, positional, cur)
}

// noteFlag remembers -n/--namespace and -A/--all-namespaces, which decide
// whose names are offered. w is the flag's word, next the word after it
// when the flag takes it as its value.
func (c *completer) noteFlag(w, next string) {
	switch {
	case w == "-A" || w == "--all-namespaces" || w == "--all-namespaces=true":
		c.allNS = true
	case w == "-n" || w == "--namespace":
		c.namespace = next
	case strings.HasPrefix(w, "--namespace="):
		c.namespace = strings.TrimPrefix(w, "--namespace=")
	case strings.HasPrefix(w, "-n") && !strings.HasPrefix(w, "--"):
		c.namespace = strings.TrimPrefix(w[2:], "=")
	}
	if c.namespace == "" {
		c.namespace = api.DefaultNamespace
	}
}

// positional completes the positional argument number len(done) of cmd.
func (c *completer) positional(cmd *command, done []string, cur string) []string {
	use := cmd.use
	switch {
	case cmd.name == "explain":
		if len(done) > 0 {
			return nil // explain takes one argument
		}
		return explainPaths(cur)
	case strings.Contains(use, "SUBCOMMAND"):
		subs := subcommandsOf(cmd.name)
		if len(done) == 0 {
			return filterPrefix(subs, cur)
		}
		if !contains(subs, done[0]) {
			return nil
		}
		if cmd.name == "set" && done[0] == "image" {
			if pairs, ok := c.setImageContainers(done[1:], cur); ok {
				return pairs
			}
		}
		return c.typeThenNames(resourceTypes, done[1:], cur)
	case strings.Contains(use, "NODE NAME"):
		return c.typeThenNames([]*resourceType{rtNodes}, done, cur)
	case strings.Contains(use, "TYPE") || strings.Contains(use, "RESOURCE"):
		return c.typeThenNames(resourceTypes, done, cur)
	case strings.Contains(use, "NODE"):
		return c.names(rtNodes, "", cur)
	}
	return nil
}

// typeThenNames completes "TYPE NAME..." or "TYPE/NAME...": a type from
// types first, then names of that type.
func (c *completer) typeThenNames(types []*resourceType, done []string, cur string) []string {
	if t, _, ok := strings.Cut(cur, "/"); ok {
		rt := resolveAmong(types, t)
		if rt == nil {
			return nil
		}
		return c.names(rt, t+"/", cur)
	}
	if len(done) == 0 {
		var all []string
		for _, rt := range types {
			all = append(all, typeNames(rt)...)
		}
		return filterPrefix(all, cur)
	}
	if strings.Contains(done[0], "/") {
		// TYPE/NAME form: every argument is TYPE/NAME; offer the types
		// with a slash.
		var all []string
		for _, rt := range types {
			for _, n := range typeNames(rt) {
				all = append(all, n+"/")
			}
		}
		return filterPrefix(all, cur)
	}
	first := strings.Split(done[0], ",")[0]
	rt := resolveAmong(types, first)
	if rt == nil {
		return nil
	}
	return c.names(rt, "", cur)
}

// setImageContainers completes the CONTAINER_NAME=IMAGE arguments of
// `kubectl set image (TYPE NAME | TYPE/NAME)... CONTAINER=IMAGE...` once
// an object is named (done are the arguments after "image"): "NAME=" for
// each container and init container of the named DaemonSets and pods
// (the containers set image's UpdatePodSpecForObject would change; kubectl's
// own completion offers nothing there), leaving out those already given;
// after "NAME=" the container's current image, to edit its tag. ok is
// false when the word is still a type or name (no object named yet, or
// cur has "/").
func (c *completer) setImageContainers(done []string, cur string) (cands []string, ok bool) {
	if c.env == nil || c.env.Cluster == nil || strings.Contains(cur, "/") || len(done) == 0 {
		return nil, false
	}
	type ref struct {
		rt   *resourceType
		name string
	}
	var refs []ref
	given := map[string]bool{}
	slashForm := strings.Contains(done[0], "/")
	for i, w := range done {
		switch {
		case strings.Contains(w, "="):
			name, _, _ := strings.Cut(w, "=")
			given[name] = true
		case slashForm:
			t, name, _ := strings.Cut(w, "/")
			refs = append(refs, ref{resolveAmong(resourceTypes, t), name})
		case i > 0:
			for _, name := range strings.Split(w, ",") {
				refs = append(refs, ref{resolveAmong(resourceTypes, strings.Split(done[0], ",")[0]), name})
			}
		}
	}
	if len(refs) == 0 {
		return nil, false
	}
	images := map[string]string{}
	for _, r := range refs {
		var spec *api.PodSpec
		switch r.rt {
		case rtDaemonSets:
			if ds := c.env.Cluster.DaemonSet(c.namespace, r.name); ds != nil {
				spec = &ds.Spec.Template.Spec
			}
		case rtPods:
			if p := c.env.Cluster.Pod(c.namespace, r.name); p != nil {
				spec = &p.Spec
			}
		}
		if spec == nil {
			continue
		}
		for _, ct := range append(append([]api.Container(nil), spec.InitContainers...), spec.Containers...) {
			if _, ok := images[ct.Name]; !ok {
				images[ct.Name] = ct.Image
			}
		}
	}
	var all []string
	if name, _, ok := strings.Cut(cur, "="); ok {
		if img, ok := images[name]; ok {
			all = append(all, name+"="+img)
		}
	} else {
		for name := range images {
			if !given[name] {
				all = append(all, name+"=")
			}
		}
	}
	return filterPrefix(all, cur), true
}

// names are the live objects of rt whose names start with the part of cur
// after prefix, each with prefix in front.
func (c *completer) names(rt *resourceType, prefix, cur string) []string {
	if c.env == nil || c.env.Cluster == nil {
		return nil
	}
	var all []string
	for _, o := range listObjects(c.env.Cluster, rt, c.namespace, c.allNS) {
		all = append(all, prefix+o.meta.Name)
	}
	return filterPrefix(all, cur)
}

// flagNames are the flags of defs starting with cur: "--name" for all,
// "-x" for shorthands. A flag already given is left out unless it may be
// repeated (cobra's completion does the same).
func (c *completer) flagNames(defs []*flagDef, given []string, cur string) []string {
	var all []string
	for _, d := range defs {
		if d.kind != flagStringSlice && d.kind != flagStringArray && flagGiven(d, given) {
			continue
		}
		all = append(all, "--"+d.name)
		if d.shorthand != "" {
			all = append(all, "-"+d.shorthand)
		}
	}
	return filterPrefix(all, cur)
}

func flagGiven(d *flagDef, given []string) bool {
	for _, g := range given {
		if fd := flagOf([]*flagDef{d}, g); fd != nil {
			return true
		}
	}
	return false
}

// flagValues completes the value of flag d.
func (c *completer) flagValues(cmd *command, d *flagDef, cur string) []string {
	var all []string
	switch d.name {
	case "namespace":
		if c.env != nil && c.env.Cluster != nil {
			for _, ns := range c.env.Cluster.Namespaces() {
				all = append(all, ns.Name)
			}
		}
	case "output":
		if cmd != nil {
			all = outputFormatsOf(cmd.use)
		}
	case "field-selector":
		// The field learners select pods by: spec.nodeName=NODE.
		const nodeField = "spec.nodeName="
		if len(c.positionals) > 0 && resolveAmong([]*resourceType{rtPods}, strings.Split(c.positionals[0], ",")[0]) == nil {
			return nil
		}
		if strings.HasPrefix(cur, nodeField) {
			return c.names(rtNodes, nodeField, cur)
		}
		all = []string{nodeField}
	case "filename":
		if c.env != nil {
			for name := range c.env.Files {
				all = append(all, name)
			}
		}
	case "for":
		return c.typeThenNames(resourceTypes, nil, cur)
	default:
		if cmd != nil {
			all = useValues(cmd.use, d.name)
		}
	}
	return filterPrefix(all, cur)
}

// useValues reads the values a usage line lists for a flag,
// "[--recursive=FALSE|TRUE]" or "[--types=Normal,Warning]"; none when the
// line lists none.
func useValues(use, name string) []string {
	i := strings.Index(use, "--"+name+"=")
	if i < 0 {
		return nil
	}
	rest := use[i+len(name)+3:]
	if j := strings.IndexAny(rest, "] )"); j >= 0 {
		rest = rest[:j]
	}
	var out []string
	for _, v := range strings.FieldsFunc(rest, func(r rune) bool { return r == '|' || r == ',' }) {
		if strings.Contains(v, name) || strings.Contains(name, v) || strings.Contains(v, "_") {
			// a placeholder: "--api-version=api-version-group",
			// "--resource-version=version", "KEY_1"
			continue
		}
		out = append(out, v)
	}
	return out
}

// outputFormatsOf reads the -o formats a usage line lists:
// "get [(-o|--output=)json|yaml|...|wide] ..." gives json, yaml, ..., wide;
// a line without such a list gives "name", the one format kubectl's
// mutating commands print (PrintFlags with only the name printer).
func outputFormatsOf(use string) []string {
	const marker = "(-o|--output=)"
	i := strings.Index(use, marker)
	if i < 0 {
		if v := useValues(use, "output"); v != nil {
			return v // explain: [--output=plaintext|plaintext-openapiv2]
		}
		return []string{"name"}
	}
	rest := use[i+len(marker):]
	if j := strings.IndexAny(rest, "] "); j >= 0 {
		rest = rest[:j]
	}
	return strings.Split(rest, "|")
}

// subcommandsOf are the simulated subcommands of a command whose usage
// line is "NAME SUBCOMMAND".
func subcommandsOf(name string) []string {
	switch name {
	case "rollout":
		return rolloutSubcommands
	case "set":
		return []string{"image"} // runSet simulates set image only
	}
	return nil
}

// explainPaths completes explain's TYPE[.FIELD...] argument from the
// schema explain reads (engine/schema): before the first dot the resource
// types; after it the fields of the type reached so far. A field whose
// type has fields of its own is offered with a trailing dot, to go on
// (explain accepts "ds.spec." as "ds.spec"); a leaf without.
func explainPaths(cur string) []string {
	parts := strings.Split(cur, ".")
	if len(parts) == 1 {
		var all []string
		for _, rt := range resourceTypes {
			all = append(all, typeNames(rt)...)
		}
		return filterPrefix(all, cur)
	}
	rt, err := resolveType(parts[0])
	if err != nil {
		return nil
	}
	var t *schema.Type
	for _, k := range schema.Kinds() {
		if k.APIVersion() == rt.apiVersion() && k.Resource == rt.resource {
			t = k.Type
		}
	}
	head := parts[0] + "."
	for _, name := range parts[1 : len(parts)-1] {
		f, ok := t.Object().Field(name)
		if !ok {
			return nil
		}
		t = f.Type
		head += name + "."
	}
	o := t.Object()
	if o == nil {
		return nil
	}
	var all []string
	for _, f := range o.Fields {
		c := head + f.Name
		if ft := f.Type.Object(); ft != nil && len(ft.Fields) > 0 {
			c += "."
		}
		all = append(all, c)
	}
	return filterPrefix(all, cur)
}

// typeNames are the names a resource type goes by on the command line:
// plural, singular (lower-case kind) and short names.
func typeNames(rt *resourceType) []string {
	return append([]string{rt.resource, strings.ToLower(rt.kind)}, rt.shortNames...)
}

// resolveAmong resolves a type argument and keeps it only if it is one of types.
func resolveAmong(types []*resourceType, arg string) *resourceType {
	rt, err := resolveType(arg)
	if err != nil {
		return nil
	}
	for _, t := range types {
		if t == rt {
			return rt
		}
	}
	return nil
}

// flagOf finds the flag a word names: "--name", "--name=v", "-x", "-x=v".
func flagOf(defs []*flagDef, w string) *flagDef {
	if strings.HasPrefix(w, "--") {
		name, _, _ := strings.Cut(w[2:], "=")
		for _, d := range defs {
			if d.name == name {
				return d
			}
		}
		return nil
	}
	if strings.HasPrefix(w, "-") && len(w) >= 2 {
		for _, d := range defs {
			if d.shorthand == w[1:2] {
				return d
			}
		}
	}
	return nil
}

// flagTakesNext reports whether the word w naming flag d takes the next
// word as its value (pflag: not a bool, no "=", no NoOptDefVal, and for a
// shorthand nothing attached: "-ojson" carries its value).
func flagTakesNext(d *flagDef, w string) bool {
	if d.kind == flagBool || d.noOptDef != "" || strings.Contains(w, "=") {
		return false
	}
	if !strings.HasPrefix(w, "--") && len(w) > 2 {
		return false
	}
	return true
}

// Verbs are the kubectl commands the playground simulates, in the order of
// its command table (what `kubectl help` lists).
func Verbs() []string {
	out := make([]string, 0, len(commands))
	for _, c := range commands {
		out = append(out, c.name)
	}
	return out
}

// NotSimulated are the other kubectl commands: they answer that they are
// not simulated in the playground.
func NotSimulated() []string { return append([]string(nil), notSimulated...) }

// CommonPrefix is the longest prefix all of words share ("" for none).
func CommonPrefix(words []string) string {
	if len(words) == 0 {
		return ""
	}
	p := words[0]
	for _, w := range words[1:] {
		for !strings.HasPrefix(w, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// filterPrefix keeps the words starting with prefix, sorted, without duplicates.
func filterPrefix(words []string, prefix string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if strings.HasPrefix(w, prefix) && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

func prefixAll(p string, words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = p + w
	}
	return out
}

// completionWords splits the text before the caret into the finished words
// (unquoted, as ParseCommandLine would give them) and the word being typed,
// with the byte offset where that word starts. Quotes and backslashes are
// honoured; an unterminated quote belongs to the current word.
func completionWords(s string) (words []string, cur string, from int) {
	var b strings.Builder
	inWord := false
	start := len(s)
	var quote byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\\' && quote == '"' && i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			} else {
				b.WriteByte(ch)
			}
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		case ch == '\'' || ch == '"':
			if !inWord {
				inWord, start = true, i
			}
			quote = ch
		case ch == '\\':
			if !inWord {
				inWord, start = true, i
			}
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
				}
			}
		default:
			if !inWord {
				inWord, start = true, i
			}
			b.WriteByte(ch)
		}
	}
	if inWord {
		return words, b.String(), start
	}
	return words, "", len(s)
}

// SplitCommands splits pasted text into the command lines a shell would run
// one after another: a new line ends a command unless it is escaped by a
// backslash (the backslash and the new line are dropped, joining the lines)
// or inside a quoted string (it stays part of the string). Blank lines are
// dropped; "\r\n" and a lone "\r" count as "\n". rest is what follows the last new line
// that ends a command (an unfinished line, or text ending in a backslash or
// an open quote), for the caller to keep in its input. Each command keeps
// its quotes, so ParseCommandLine reads it as the shell would.
func SplitCommands(text string) (commands []string, rest string) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	var b strings.Builder
	var quote byte
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\\' && quote == '"' && i+1 < len(text) && text[i+1] == '\n' {
				i++ // backslash-newline inside double quotes is dropped too
				continue
			}
			b.WriteByte(ch)
		case ch == '\\' && i+1 < len(text) && text[i+1] == '\n':
			i++
		case ch == '\\' && i+1 < len(text):
			b.WriteByte(ch)
			i++
			b.WriteByte(text[i])
		case ch == '\'' || ch == '"':
			quote = ch
			b.WriteByte(ch)
		case ch == '\n':
			if line := strings.TrimSpace(b.String()); line != "" {
				commands = append(commands, line)
			}
			b.Reset()
		default:
			b.WriteByte(ch)
		}
	}
	return commands, strings.TrimLeft(b.String(), " \t")
}
