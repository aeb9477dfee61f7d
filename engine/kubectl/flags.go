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

// globalFlags are kubectl's persistent flags that the playground honours.
func globalFlags() []*flagDef {
	return []*flagDef{
		stringFlag("namespace", "n", ""),
	}
}
