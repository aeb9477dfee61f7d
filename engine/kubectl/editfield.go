package kubectl

import (
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/manifest"
)

// What a page shows around an open edit: the object's name, and the
// reasons kubectl put at the top of a reopened file as diagnostics on the
// lines they name.

// EditTarget names what an edit holds, as kubectl names objects:
// "daemonset/x" from the YAML's top-level kind and metadata.name; for a
// List or JSON, the arguments of the edit command line (the line
// itself when it does not parse). The page's edit bar shows it.
func EditTarget(text, line string) string {
	var kind, name string
	inMeta := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "kind: "):
			kind = strings.TrimSpace(strings.TrimPrefix(l, "kind: "))
		case l == "metadata:":
			inMeta = true
		case inMeta && strings.HasPrefix(l, "  name: ") && name == "":
			name = strings.Trim(strings.TrimSpace(strings.TrimPrefix(l, "  name: ")), `"'`)
		case l != "" && !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "#"):
			inMeta = false
		}
	}
	if kind != "" && kind != "List" && name != "" {
		return strings.ToLower(kind) + "/" + name
	}
	args, err := ParseCommandLine(line)
	if err != nil {
		return line
	}
	for i, a := range args {
		if a == "edit" {
			var pos []string
			for _, p := range args[i+1:] {
				if !strings.HasPrefix(p, "-") {
					pos = append(pos, p)
				}
			}
			return strings.Join(pos, " ")
		}
	}
	return line
}

// EditErrors reads the header of a reopened edit file (text, an
// EditSession's Text after a rejected save): each `# * FIELD: MESSAGE`
// cause kubectl wrote is a Diagnostic in file, on the line that holds
// FIELD in text (EditFieldLine; Line 0 when not found, Field "" when the
// cause names no field); the header's other lines (a syntax error's
// message) are heads, in order. The fixed header (editHeader) and lines
// ending in ":" (the "... was not valid:" line) are left out.
func EditErrors(text, file string) (ds []manifest.Diagnostic, heads []string) {
	lines := strings.Split(text, "\n")
	headerLines := strings.Count(editHeader, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "#") {
			break // the header ends where the object starts
		}
		if i < headerLines {
			continue
		}
		body := strings.TrimSpace(strings.TrimPrefix(l, "#"))
		if cause, ok := strings.CutPrefix(body, "* "); ok {
			field, msg, found := strings.Cut(cause, ": ")
			if !found || strings.ContainsAny(field, " \t") {
				field, msg = "", cause
			}
			d := manifest.Diagnostic{File: file, Field: field, Message: msg}
			if field != "" {
				d.Line = EditFieldLine(lines, field)
			}
			ds = append(ds, d)
		} else if body != "" && !strings.HasSuffix(body, ":") {
			heads = append(heads, body)
		}
	}
	return ds, heads
}

// EditFieldLine is the 1-based line of lines (a YAML document under
// comment lines) holding the field path field, such as
// spec.template.spec.containers[0].image (keys, [index] into a list,
// [key] into a map): the line of the deepest part of the path found (its
// parent when the field itself is absent, as for a Required value), or 0.
// It follows indentation, as kubectl's YAML (sigs.k8s.io/yaml) lays it
// out, lists at their key's indentation or deeper.
func EditFieldLine(src []string, field string) int {
	lines := append([]string(nil), src...)
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	content := func(l string) bool {
		t := strings.TrimSpace(l)
		return t != "" && !strings.HasPrefix(t, "#") && t != "---"
	}
	start, end, found := 0, len(lines), 0
	for _, seg := range splitFieldPath(field) {
		first := -1 // the block's first content line
		for i := start; i < end; i++ {
			if content(lines[i]) {
				first = i
				break
			}
		}
		if first < 0 {
			return found
		}
		ci := indent(lines[first])
		if n, err := strconv.Atoi(seg); err == nil {
			// the n-th "- " item at the block's indentation
			k, at := -1, -1
			for i := first; i < end; i++ {
				if !content(lines[i]) || indent(lines[i]) != ci {
					continue
				}
				if !strings.HasPrefix(strings.TrimLeft(lines[i], " "), "-") {
					break
				}
				if k++; k == n {
					at = i
					break
				}
			}
			if at < 0 {
				return found
			}
			itemEnd := end
			for i := at + 1; i < end; i++ {
				if content(lines[i]) && indent(lines[i]) <= ci {
					itemEnd = i
					break
				}
			}
			// the item's keys: "- name: x" reads as "  name: x"
			l := lines[at]
			lines[at] = l[:ci] + " " + l[ci+1:]
			start, end, found = at, itemEnd, at+1
			continue
		}
		at := -1
		for i := first; i < end; i++ {
			if !content(lines[i]) || indent(lines[i]) != ci {
				continue
			}
			t := strings.TrimSpace(lines[i])
			key := strings.Trim(t[:max(0, strings.Index(t, ":"))], `"'`)
			if strings.Contains(t, ":") && key == seg {
				at = i
				break
			}
		}
		if at < 0 {
			return found
		}
		blockEnd := end
		for i := at + 1; i < end; i++ {
			if !content(lines[i]) {
				continue
			}
			d := indent(lines[i])
			if d < ci || d == ci && !strings.HasPrefix(strings.TrimLeft(lines[i], " "), "-") {
				blockEnd = i
				break
			}
		}
		start, end, found = at+1, blockEnd, at+1
	}
	return found
}

// splitFieldPath splits "a.b[0].c[key.x]" into "a", "b", "0", "c", "key.x".
func splitFieldPath(p string) []string {
	var out []string
	for p != "" {
		switch {
		case p[0] == '.':
			p = p[1:]
		case p[0] == '[':
			j := strings.IndexByte(p, ']')
			if j < 0 {
				return append(out, p[1:])
			}
			out = append(out, p[1:j])
			p = p[j+1:]
		default:
			j := strings.IndexAny(p, ".[")
			if j < 0 {
				return append(out, p)
			}
			out = append(out, p[:j])
			p = p[j:]
		}
	}
	return out
}
