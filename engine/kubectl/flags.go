package kubectl

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// flagKind is the value type of a flag (pflag's Value types).
type flagKind int

const (
	flagBool flagKind = iota
	flagString
	flagInt
	flagStringSlice // comma-separated, repeatable (pflag StringSlice)
	flagStringArray // repeatable, no splitting (pflag StringArray)
	flagDuration
)

// flagDef describes one flag as pflag would define it.
type flagDef struct {
	name      string
	shorthand string
	kind      flagKind
	// def is the default value as text.
	def string
	// noOptDef is the value used when the flag is given without one
	// (pflag NoOptDefVal); bool flags default to "true".
	noOptDef string
}

// flagSet is a parsed set of flags: values by long name, and which were set.
type flagSet struct {
	defs    []*flagDef
	values  map[string][]string
	changed map[string]bool
	// order lists every flag given, by long name with its value as
	// written, in command-line order (what --record writes down).
	order []flagValue
}

// flagValue is one flag as given on the command line.
type flagValue struct{ name, value string }

func newFlagSet(defs []*flagDef) *flagSet {
	fs := &flagSet{defs: defs, values: map[string][]string{}, changed: map[string]bool{}}
	return fs
}

func (fs *flagSet) lookup(name string) *flagDef {
	for _, d := range fs.defs {
		if d.name == name {
			return d
		}
	}
	return nil
}

func (fs *flagSet) lookupShort(c string) *flagDef {
	for _, d := range fs.defs {
		if d.shorthand != "" && d.shorthand == c {
			return d
		}
	}
	return nil
}

// displayName is how pflag names a flag in "invalid argument" errors.
func (d *flagDef) displayName() string {
	if d.shorthand != "" {
		return "-" + d.shorthand + ", --" + d.name
	}
	return "--" + d.name
}

// set records a value, checking it parses as the flag's type
// (pflag FlagSet.set error wording).
func (fs *flagSet) set(d *flagDef, value string) error {
	var err error
	switch d.kind {
	case flagBool:
		_, err = strconv.ParseBool(value)
	case flagInt:
		_, err = strconv.ParseInt(value, 0, 64)
	case flagDuration:
		_, err = time.ParseDuration(value)
	}
	if err != nil {
		return fmt.Errorf("invalid argument %q for %q flag: %v", value, d.displayName(), err)
	}
	switch d.kind {
	case flagStringSlice:
		if !fs.changed[d.name] {
			fs.values[d.name] = nil
		}
		if value != "" {
			fs.values[d.name] = append(fs.values[d.name], strings.Split(value, ",")...)
		}
	case flagStringArray:
		fs.values[d.name] = append(fs.values[d.name], value)
	default:
		fs.values[d.name] = []string{value}
	}
	fs.changed[d.name] = true
	fs.order = append(fs.order, flagValue{d.name, value})
	return nil
}

// parse mirrors pflag's interspersed parsing: "--name=value", "--name value",
// "--bool", "-x value", "-xvalue", "-x=value", combined boolean shorthands
// ("-Aw"), and "--" ending the flags. It returns the positional arguments.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			return positional, nil
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			d := fs.lookup(name)
			if d == nil || name == "" {
				return nil, fmt.Errorf("unknown flag: --%s", name)
			}
			switch {
			case hasValue:
			case d.kind == flagBool:
				value = "true"
			case d.noOptDef != "":
				value = d.noOptDef
			case i+1 < len(args):
				i++
				value = args[i]
			default:
				return nil, fmt.Errorf("flag needs an argument: %s", a)
			}
			if err := fs.set(d, value); err != nil {
				return nil, err
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			shorts := a[1:]
			for len(shorts) > 0 {
				c := shorts[:1]
				d := fs.lookupShort(c)
				if d == nil {
					return nil, fmt.Errorf("unknown shorthand flag: '%s' in -%s", c, shorts)
				}
				var value string
				switch {
				case len(shorts) > 2 && shorts[1] == '=':
					value = shorts[2:]
					shorts = ""
				case d.kind == flagBool:
					value = "true"
					shorts = shorts[1:]
				case d.noOptDef != "":
					value = d.noOptDef
					shorts = shorts[1:]
				case len(shorts) > 1:
					value = shorts[1:]
					shorts = ""
				case i+1 < len(args):
					i++
					value = args[i]
					shorts = ""
				default:
					return nil, fmt.Errorf("flag needs an argument: '%s' in -%s", c, shorts)
				}
				if err := fs.set(d, value); err != nil {
					return nil, err
				}
			}
		default:
			positional = append(positional, a)
		}
	}
	return positional, nil
}

func (fs *flagSet) raw(name string) (string, bool) {
	if v, ok := fs.values[name]; ok && len(v) > 0 {
		return v[len(v)-1], true
	}
	if d := fs.lookup(name); d != nil {
		return d.def, false
	}
	return "", false
}

// String returns a string flag's value (or its default).
func (fs *flagSet) String(name string) string {
	v, _ := fs.raw(name)
	return v
}

// Bool returns a bool flag's value (or its default).
func (fs *flagSet) Bool(name string) bool {
	v, _ := fs.raw(name)
	b, _ := strconv.ParseBool(v)
	return b
}

// Int returns an int flag's value (or its default).
func (fs *flagSet) Int(name string) int {
	v, _ := fs.raw(name)
	n, _ := strconv.ParseInt(v, 0, 64)
	return int(n)
}

// Duration returns a duration flag's value (or its default).
func (fs *flagSet) Duration(name string) time.Duration {
	v, _ := fs.raw(name)
	d, _ := time.ParseDuration(v)
	return d
}

// Strings returns a slice or array flag's values.
func (fs *flagSet) Strings(name string) []string { return fs.values[name] }

// Changed reports whether the flag was given.
func (fs *flagSet) Changed(name string) bool { return fs.changed[name] }

// Common flag definitions.
func boolFlag(name, short string) *flagDef {
	return &flagDef{name: name, shorthand: short, kind: flagBool, def: "false"}
}
func boolFlagTrue(name string) *flagDef {
	return &flagDef{name: name, kind: flagBool, def: "true"}
}
func stringFlag(name, short, def string) *flagDef {
	return &flagDef{name: name, shorthand: short, kind: flagString, def: def}
}

// PlaygroundContext is the name of the one context (and of its cluster
// and user) in the playground's kubeconfig: --context, --cluster and
// --user accept only it.
const PlaygroundContext = "dsplay"

// globalFlags are kubectl's persistent flags (genericclioptions.ConfigFlags,
// klog's -v, --warnings-as-errors ...), accepted anywhere on the line.
// -n is honoured; the ones that pick another kubeconfig, context,
// cluster, user, server or credentials are checked by checkGlobalFlags;
// the others (verbosity, timeouts, TLS and cache settings) change nothing
// the playground shows and are ignored.
func globalFlags() []*flagDef {
	return []*flagDef{
		stringFlag("namespace", "n", ""),
		stringFlag("kubeconfig", "", ""),
		stringFlag("context", "", ""),
		stringFlag("cluster", "", ""),
		stringFlag("user", "", ""),
		stringFlag("server", "s", ""),
		stringFlag("token", "", ""),
		stringFlag("username", "", ""),
		stringFlag("password", "", ""),
		stringFlag("as", "", ""),
		{name: "as-group", kind: flagStringArray},
		stringFlag("as-uid", "", ""),
		stringFlag("certificate-authority", "", ""),
		stringFlag("client-certificate", "", ""),
		stringFlag("client-key", "", ""),
		stringFlag("tls-server-name", "", ""),
		boolFlag("insecure-skip-tls-verify", ""),
		stringFlag("request-timeout", "", "0"),
		stringFlag("cache-dir", "", ""),
		boolFlag("match-server-version", ""),
		boolFlag("disable-compression", ""),
		boolFlag("warnings-as-errors", ""),
		{name: "v", shorthand: "v", kind: flagInt, def: "0"},
		{name: "log-flush-frequency", kind: flagDuration, def: "5s"},
		stringFlag("profile", "", "none"),
		stringFlag("profile-output", "", "profile.pprof"),
	}
}

// globalBoolFlag reports whether arg is a global boolean flag without a
// value ("--insecure-skip-tls-verify"), which cobra's stripFlags does not
// let take the next argument as its value.
func globalBoolFlag(arg string) bool {
	name, ok := strings.CutPrefix(arg, "--")
	if !ok || strings.Contains(name, "=") {
		return false
	}
	for _, d := range globalFlags() {
		if d.name == name && d.kind == flagBool {
			return true
		}
	}
	return false
}

// checkGlobalFlags answers the global flags that would point kubectl at
// another cluster or identity as kubectl would with the playground's
// kubeconfig, which holds one context, cluster and user, all named
// PlaygroundContext, and no file other than the default one:
//   - --context X: clientcmd's errContextNotFound, printed by checkErr as
//     "Error in configuration: context was not found for specified context: X";
//   - --cluster X: "Error in configuration: no server found for cluster \"X\"";
//   - --user X: "Error in configuration: auth info \"X\" does not exist";
//   - --kubeconfig PATH: the loader's "stat PATH: no such file or directory";
//   - --request-timeout: clientcmd's ParseTimeout error for a bad value.
//
// --server, --token, --username/--password, client certificates and
// impersonation (--as ...) would reach another API server or identity:
// they are refused as not simulated.
func checkGlobalFlags(fs *flagSet) error {
	if fs.Changed("kubeconfig") {
		p := fs.String("kubeconfig")
		if !strings.HasSuffix(p, ".kube/config") {
			return &plainError{fmt.Sprintf("stat %s: no such file or directory", p)}
		}
	}
	if fs.Changed("context") && fs.String("context") != "" && fs.String("context") != PlaygroundContext {
		return &rawError{text: "Error in configuration: context was not found for specified context: " + fs.String("context") + "\n"}
	}
	if fs.Changed("cluster") && fs.String("cluster") != "" && fs.String("cluster") != PlaygroundContext {
		return &rawError{text: fmt.Sprintf("Error in configuration: no server found for cluster %q\n", fs.String("cluster"))}
	}
	if fs.Changed("user") && fs.String("user") != "" && fs.String("user") != PlaygroundContext {
		return &rawError{text: fmt.Sprintf("Error in configuration: auth info %q does not exist\n", fs.String("user"))}
	}
	if t := fs.String("request-timeout"); fs.Changed("request-timeout") && !validTimeout(t) {
		return &plainError{"Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)"}
	}
	for _, n := range []string{"server", "token", "username", "password", "as", "as-group", "as-uid", "client-certificate", "client-key"} {
		if fs.Changed(n) {
			return &plainError{fmt.Sprintf("--%s is not simulated in the playground: it has one API server and one user (context %q)", n, PlaygroundContext)}
		}
	}
	return nil
}

// validTimeout mirrors clientcmd's ParseTimeout: "0", an integer of
// seconds, or a Go duration.
func validTimeout(s string) bool {
	if s == "" {
		return true
	}
	if _, err := strconv.Atoi(s); err == nil {
		return true
	}
	_, err := time.ParseDuration(s)
	return err == nil
}
