package kubectl

import (
	"sort"
	"strings"
	"unicode"

	"github.com/dsplayground/dsplay/engine/cluster"
)

// describeGeneric mirrors describe.go's genericDescriber, which kubectl
// uses for kinds without a describer of their own (ControllerRevision,
// Event): name, namespace, labels and annotations, then every other field
// of the object as the API returns it (printUnstructuredContent), then the
// events about it.
func describeGeneric(c *cluster.Cluster, o object, showEvents bool) (string, error) {
	m, err := RenderObject(o.obj)
	if err != nil {
		return "", err
	}
	w := newPrefixWriter()
	w.write(0, "Name:\t%s\n", o.meta.Name)
	w.write(0, "Namespace:\t%s\n", o.meta.Namespace)
	printLabelsMultiline(w, "Labels", o.meta.Labels)
	printAnnotationsMultiline(w, "Annotations", o.meta.Annotations)
	printUnstructuredContent(w, 0, m, "", ".metadata.managedFields", ".metadata.name",
		".metadata.namespace", ".metadata.labels", ".metadata.annotations")
	if showEvents {
		describeEvents(w, eventsFor(c, o.rt.kind, o.meta.Namespace, o.meta.Name, o.meta.UID), c.Now())
	}
	return w.String(), nil
}

// printUnstructuredContent mirrors describe.go's function of that name:
// fields sorted, maps as "Label:" and their fields one level deeper, lists
// as "Label:" and their elements one level deeper (maps field by field,
// other values on their own line), other values as "Label:\tvalue";
// fields whose dotted path is in skip are left out.
func printUnstructuredContent(w *prefixWriter, level int, content map[string]any, skipPrefix string, skip ...string) {
	fields := make([]string, 0, len(content))
	for f := range content {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	skipped := func(expr string) bool {
		for _, s := range skip {
			if s == expr {
				return true
			}
		}
		return false
	}
	for _, field := range fields {
		expr := skipPrefix + "." + field
		if skipped(expr) {
			continue
		}
		switch v := content[field].(type) {
		case map[string]any:
			w.write(level, "%s:\n", smartLabelFor(field))
			printUnstructuredContent(w, level+1, v, expr, skip...)
		case []any:
			w.write(level, "%s:\n", smartLabelFor(field))
			for _, child := range v {
				if cm, ok := child.(map[string]any); ok {
					printUnstructuredContent(w, level+1, cm, expr, skip...)
				} else {
					w.write(level+1, "%v\n", child)
				}
			}
		default:
			w.write(level, "%s:\t%v\n", smartLabelFor(field), v)
		}
	}
}

// smartLabelFor mirrors describe.go's smartLabelFor: a camelCase field
// name as words with capitals ("creationTimestamp" -> "Creation
// Timestamp"), the acronyms API, URL, UID, OSB and GUID in capitals; a
// name with characters other than letters and '-' stays as it is.
func smartLabelFor(field string) string {
	if strings.IndexFunc(field, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) != -1 {
		return field
	}
	acronyms := map[string]bool{"API": true, "URL": true, "UID": true, "OSB": true, "GUID": true}
	var parts []string
	for _, p := range camelcaseSplit(field) {
		if p == "_" {
			continue
		}
		if acronyms[strings.ToUpper(p)] {
			p = strings.ToUpper(p)
		} else {
			r := []rune(p)
			r[0] = unicode.ToUpper(r[0])
			p = string(r)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// camelcaseSplit mirrors github.com/fatih/camelcase Split: runs of lower
// case, upper case, digits and other characters, an upper-case run
// followed by lower case giving its last letter to the next word
// ("PDFLoader" -> "PDF", "Loader").
func camelcaseSplit(src string) []string {
	class := func(r rune) int {
		switch {
		case unicode.IsLower(r):
			return 1
		case unicode.IsUpper(r):
			return 2
		case unicode.IsDigit(r):
			return 3
		}
		return 4
	}
	var runs [][]rune
	last := 0
	for _, r := range src {
		c := class(r)
		if c == last && len(runs) > 0 {
			runs[len(runs)-1] = append(runs[len(runs)-1], r)
		} else {
			runs = append(runs, []rune{r})
		}
		last = c
	}
	for i := 0; i < len(runs)-1; i++ {
		if unicode.IsUpper(runs[i][0]) && unicode.IsLower(runs[i+1][0]) && len(runs[i]) > 0 {
			runs[i+1] = append([]rune{runs[i][len(runs[i])-1]}, runs[i+1]...)
			runs[i] = runs[i][:len(runs[i])-1]
		}
	}
	var out []string
	for _, r := range runs {
		if len(r) > 0 {
			out = append(out, string(r))
		}
	}
	return out
}
