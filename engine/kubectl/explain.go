package kubectl

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/dsplayground/dsplay/engine/schema"
)

// kubectl explain, as kubectl 1.37 renders it from the server's OpenAPI v3
// document (staging/src/k8s.io/kubectl/pkg/cmd/explain/explain.go Run, then
// pkg/explain/v2 PrintModelDescription with the "plaintext" template,
// templates/plaintext.tmpl). The document here is engine/schema, generated
// from the k8s.io/api types the API server's OpenAPI is built from.
//
// Enum fields carry the values and the "Possible enum values" paragraph
// openapi-gen derives from the +enum types and their constants.

func explainFlags() []*flagDef {
	return []*flagDef{
		boolFlag("recursive", ""),
		stringFlag("api-version", "", ""),
		stringFlag("output", "", "plaintext"),
	}
}

// explainNoType is ExplainOptions.Validate's error for a missing argument
// (cmdutil.SuggestAPIResources("kubectl") appended).
const explainNoType = `You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.`

func runExplain(inv *invocation) error {
	if len(inv.args) == 0 {
		return &plainError{explainNoType}
	}
	if len(inv.args) > 1 {
		return &plainError{"We accept only this format: explain RESOURCE"}
	}
	f := inv.flags
	in := strings.TrimSuffix(inv.args[0], ".")
	parts := strings.Split(in, ".")
	// SplitAndParseResourceRequestWithMatchingPrefix: the first part names
	// the resource; when the argument starts with "<resource>.<group>" the
	// group is skipped, otherwise every further part is a field.
	rt, err := resolveType(parts[0])
	if err != nil {
		return err
	}
	fields := parts[1:]
	if gr := rt.groupResource(); rt.group != "" && strings.HasPrefix(in, gr) {
		fields = nil
		if rest := in[len(gr):]; rest != "" {
			fields = strings.Split(rest, ".")[1:]
		}
	}
	group, version := rt.group, rt.version
	switch o := f.String("output"); o {
	case "plaintext":
	case "plaintext-openapiv2":
		return &plainError{"explain --output=plaintext-openapiv2 is not simulated in the playground"}
	default:
		// generator.Render: no template of that name
		return fmt.Errorf("unrecognized format: %s", o)
	}
	if av := f.String("api-version"); av != "" {
		// schema.ParseGroupVersion
		switch strings.Count(av, "/") {
		case 0:
			group, version = "", av
		case 1:
			group, version, _ = strings.Cut(av, "/")
		default:
			return fmt.Errorf("unexpected GroupVersion string: %s", av)
		}
	}
	out, err := explain(group, version, rt.resource, fields, f.Bool("recursive"))
	if err != nil {
		return err
	}
	inv.out.WriteString(out)
	return nil
}

// explain renders the plaintext template for the resource of group/version
// and the field path. Errors are the template's and
// printModelDescriptionWithGenerator's.
func explain(group, version, resource string, fields []string, recursive bool) (string, error) {
	gvr := group + "/" + version + ", Resource=" + resource // GroupVersionResource.String()
	apiVersion := version
	if group != "" {
		apiVersion = group + "/" + version
	}
	served := false
	var kind *schema.Kind
	for _, k := range schema.Kinds() {
		if k.APIVersion() == apiVersion {
			served = true
			if k.Resource == resource {
				kind = k
			}
		}
	}
	if !served {
		return "", fmt.Errorf("couldn't find resource for %q", gvr)
	}
	if kind == nil {
		return "", fmt.Errorf("GVR (%s) not found in OpenAPI schema", gvr)
	}
	var b strings.Builder
	if group != "" {
		b.WriteString("GROUP:      " + group + "\n")
	}
	b.WriteString("KIND:       " + kind.Kind + "\n")
	b.WriteString("VERSION:    " + version + "\n\n")

	// "output": follow the field path; lists and maps are crossed to their items.
	var field *schema.Field
	t := kind.Type
	for i, name := range fields {
		f, ok := t.Object().Field(name)
		if !ok {
			// the template names the path's last element, whichever failed
			return "", fmt.Errorf("field %q does not exist", fields[len(fields)-1])
		}
		if i == len(fields)-1 {
			// FIELD line, the long enum view ("ENUM:" and one value a
			// line), then two newlines
			b.WriteString("FIELD: " + name + " <" + f.Type.Name + ">\n" + enumList(f.Type.Enum, true, 0, -1) + "\n\n")
		}
		field, t = f, f.Type
	}
	desc := ""
	if field != nil && field.Description != "" {
		desc = field.Description + "\n"
	}
	desc += typeDescription(t)
	if desc == "" {
		desc = "<empty>"
	}
	b.WriteString("DESCRIPTION:\n")
	b.WriteString(indentText(4, wordWrap(desc, 76)) + "\n")
	if list := fieldList(t.Object(), 1, recursive, nil); list != "" {
		b.WriteString("FIELDS:\n" + list)
	}
	b.WriteString("\n")
	return b.String(), nil
}

// typeDescription is the template's "description" of a type reached
// through $ref: the referenced schema's description, or its items' or
// additionalProperties' for lists and maps.
func typeDescription(t *schema.Type) string {
	for t != nil && (t.Kind == schema.KindArray || t.Kind == schema.KindMap) {
		t = t.Elem
	}
	if t == nil || t.Description == "" {
		return ""
	}
	return t.Description + "\n"
}

// fieldList is the template's "fieldList": the fields of t in name order,
// each as fieldDetail prints it; recursively with --recursive, where a type
// already being listed on the way down is not expanded again (the
// template's $ref history).
func fieldList(t *schema.Type, level int, recursive bool, history map[*schema.Type]bool) string {
	if t == nil || t.Kind != schema.KindObject || history[t] {
		return ""
	}
	next := make(map[*schema.Type]bool, len(history)+1)
	for k := range history {
		next[k] = true
	}
	next[t] = true
	var b strings.Builder
	indent := level * 2
	for _, f := range t.Fields {
		b.WriteString(strings.Repeat(" ", indent) + f.Name + "\t<" + f.Type.Name + ">")
		if f.Required {
			b.WriteString(" -required-")
		}
		b.WriteString(enumList(f.Type.Enum, false, indent, 4) + "\n")
		if recursive {
			b.WriteString(fieldList(f.Type.Object(), level+1, recursive, next))
			continue
		}
		d := f.Description
		if d == "" {
			d = "<no description>"
		}
		b.WriteString(indentText(indent+2, wordWrap(d, 78-indent)) + "\n\n")
	}
	return b.String()
}

// enumList is the template's "extractEnum": in the long view (a FIELD
// header) "ENUM:" then each value on its own line indented by four; in the
// short view (a field line) a new line indented like the field with
// "enum: " and the values comma-separated, cut after limit values with
// ", ....". An empty value prints as "". No enum prints nothing.
func enumList(values []string, long bool, indent, limit int) string {
	if len(values) == 0 {
		return ""
	}
	var b strings.Builder
	if long {
		b.WriteString("ENUM:")
	} else {
		b.WriteString("\n" + strings.Repeat(" ", indent) + "enum: ")
	}
	for i, v := range values {
		if limit > -1 && i >= limit {
			b.WriteString(", ....")
			break
		}
		if i > 0 && !long {
			b.WriteString(", ")
		} else if long {
			b.WriteString("\n    ")
		}
		if v == "" {
			v = `""`
		}
		b.WriteString(v)
	}
	return b.String()
}

// indentText is the template's indent: pad the first line and every line
// after a newline.
func indentText(n int, s string) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

// wordWrap mirrors github.com/mitchellh/go-wordwrap v1.0.1 WrapString, which
// kubectl's term.NewWordWrapWriter applies: breaks only at white space,
// existing newlines kept, a line is broken before the word that would pass
// lim (counted in runes) unless the word alone is that long, and the spaces
// at a break are dropped.
func wordWrap(s string, lim int) string {
	var buf, word, space strings.Builder
	current, wordLen, spaceLen := 0, 0, 0
	flushSpace := func() { buf.WriteString(space.String()); space.Reset(); spaceLen = 0 }
	flushWord := func() { buf.WriteString(word.String()); word.Reset(); wordLen = 0 }
	for _, r := range s {
		switch {
		case r == '\n':
			if wordLen == 0 {
				if current+spaceLen > lim {
					current = 0
				} else {
					current += spaceLen
					buf.WriteString(space.String())
				}
				space.Reset()
				spaceLen = 0
			} else {
				current += spaceLen + wordLen
				flushSpace()
				flushWord()
			}
			buf.WriteRune(r)
			current = 0
		case unicode.IsSpace(r) && r != '\u00a0':
			if spaceLen == 0 || wordLen > 0 {
				current += spaceLen + wordLen
				flushSpace()
				flushWord()
			}
			space.WriteRune(r)
			spaceLen++
		default:
			word.WriteRune(r)
			wordLen++
			if current+spaceLen+wordLen > lim && wordLen < lim {
				buf.WriteByte('\n')
				current = 0
				space.Reset()
				spaceLen = 0
			}
		}
	}
	if wordLen == 0 {
		if current+spaceLen <= lim {
			buf.WriteString(space.String())
		}
	} else {
		buf.WriteString(space.String())
		buf.WriteString(word.String())
	}
	return buf.String()
}
