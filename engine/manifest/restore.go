package manifest

import (
	"sort"
	"strings"
)

// RestoreLineBreaks re-indents one line of YAML whose line breaks were lost
// when it was copied from a web page, such as
// `metadata:name: fluentd-elasticsearchlabels:k8s-app: fluentd-logging`,
// using the field names of kind (DaemonSet, Pod, Node or Namespace; another
// kind is read as a DaemonSet) to find where each
// key begins. parents are the keys of the mappings enclosing the line (for
// `template:metadata:...` under `spec:`, ["spec"]); indent is the line's
// indentation. It returns the restored lines, or nil when the line does not
// look flattened. It is a best effort: values that run into a key of a
// free-form map (labels) cannot always be told apart.
func RestoreLineBreaks(line, kind string, parents []string, indent int) []string {
	root := kind
	if schema[root] == nil {
		root = "DaemonSet"
	}
	typ := root
	for _, p := range parents {
		t := schema[typ][p]
		t = strings.TrimPrefix(t, "[]")
		if schema[t] == nil {
			typ = ""
			break
		}
		typ = t
	}
	r := &restorer{s: strings.TrimSpace(line)}
	r.stack = []frame{{typ: typ, indent: indent}}
	r.run()
	if len(r.out) < 2 {
		return nil
	}
	return r.out
}

type frame struct {
	typ    string // schema type, "map", "resources", "[]T" (a list holder) or "" (unknown)
	indent int
	item   bool // a list item: its first key gets the "- " prefix
	first  bool // the item's first key is still to come
}

type restorer struct {
	s     string
	p     int
	stack []frame
	out   []string
}

func (r *restorer) top() *frame { return &r.stack[len(r.stack)-1] }

func (r *restorer) emit(text string) {
	f := r.top()
	ind := f.indent
	prefix := ""
	if f.item {
		if f.first {
			prefix = "- "
			f.first = false
		} else {
			ind += 2
		}
	}
	r.out = append(r.out, strings.Repeat(" ", ind)+prefix+text)
}

// childIndent is the indentation of fields nested under a key of the top frame.
func (r *restorer) childIndent() int {
	f := r.top()
	if f.item {
		return f.indent + 4
	}
	return f.indent + 2
}

func (r *restorer) run() {
	for steps := 0; r.p < len(r.s) && steps < 10000; steps++ {
		r.skipSpaces()
		if r.p >= len(r.s) {
			return
		}
		f := r.top()
		if strings.HasPrefix(f.typ, "[]") {
			if r.s[r.p] != '-' {
				if len(r.stack) == 1 {
					return
				}
				r.stack = r.stack[:len(r.stack)-1]
				continue
			}
			r.p++
			item := frame{typ: strings.TrimPrefix(f.typ, "[]"), indent: f.indent, item: true, first: true}
			r.stack = append(r.stack, item)
			continue
		}
		key := r.readKey()
		if key == "" {
			return
		}
		childType := ""
		if t, ok := schema[f.typ]; ok {
			childType = t[key]
		}
		// after the colon: a value, a comment, or nested fields
		if r.p < len(r.s) && r.s[r.p] == ' ' {
			r.skipSpaces()
			if r.p < len(r.s) && r.s[r.p] == '#' {
				end, depth, child := r.findContinuation(r.p, childType)
				r.emit(key + ":  " + strings.TrimSpace(r.s[r.p:end]))
				r.p = end
				if child {
					r.push(childType)
				} else {
					r.stack = r.stack[:depth+1]
				}
				continue
			}
			end, depth, _ := r.findContinuation(r.p, "")
			val := strings.TrimSpace(r.s[r.p:end])
			if i := strings.Index(val, " #"); i >= 0 {
				val = strings.TrimSpace(val[:i]) + "  " + strings.TrimSpace(val[i+1:])
			}
			r.emit(key + ": " + val)
			r.p = end
			r.stack = r.stack[:depth+1]
			continue
		}
		r.emit(key + ":")
		if r.p < len(r.s) && r.s[r.p] == '#' {
			end, depth, child := r.findContinuation(r.p, childType)
			r.out[len(r.out)-1] += "  " + strings.TrimSpace(r.s[r.p:end])
			r.p = end
			if !child {
				r.stack = r.stack[:depth+1]
				continue
			}
		}
		r.push(childType)
	}
}

func (r *restorer) push(childType string) {
	ind := r.childIndent()
	if strings.HasPrefix(childType, "[]") {
		ind -= 2 // list items at the key's own indentation, as kubectl writes them
	}
	r.stack = append(r.stack, frame{typ: childType, indent: ind})
}

func (r *restorer) skipSpaces() {
	for r.p < len(r.s) && (r.s[r.p] == ' ' || r.s[r.p] == '\t') {
		r.p++
	}
}

// readKey reads a key and its colon at r.p: the longest known field of the
// top frame, else everything up to the next colon.
func (r *restorer) readKey() string {
	rest := r.s[r.p:]
	if fields := schema[r.top().typ]; fields != nil {
		best := ""
		for k := range fields {
			if len(k) > len(best) && strings.HasPrefix(rest, k+":") {
				best = k
			}
		}
		if best != "" {
			r.p += len(best) + 1
			return best
		}
	}
	i := strings.IndexByte(rest, ':')
	if i <= 0 {
		r.p = len(r.s)
		return ""
	}
	r.p += i + 1
	return strings.TrimSpace(rest[:i])
}

// findContinuation finds where the value (or comment) starting at from ends:
// the earliest position where a known key of an enclosing frame begins
// (followed by a colon), or a new list item ("- key:"). child, when set, is
// the type of the key just read, whose own fields may follow a comment.
// depth is the index of the frame the continuation belongs to; isChild
// reports that it is a field of child instead.
func (r *restorer) findContinuation(from int, child string) (end, depth int, isChild bool) {
	type cand struct {
		text  string
		depth int
	}
	var cands []cand
	top := len(r.stack) - 1
	if child != "" {
		if strings.HasPrefix(child, "[]") {
			for k := range schema[strings.TrimPrefix(child, "[]")] {
				cands = append(cands, cand{"- " + k + ":", top + 1})
			}
		} else {
			for k := range schema[child] {
				cands = append(cands, cand{k + ":", top + 1})
			}
		}
	}
	for i := top; i >= 0; i-- {
		f := r.stack[i]
		switch {
		case strings.HasPrefix(f.typ, "[]"):
			for k := range schema[strings.TrimPrefix(f.typ, "[]")] {
				cands = append(cands, cand{"- " + k + ":", i}, cand{"-" + k + ":", i})
			}
		case f.typ == "resources":
			for _, k := range resourceNames {
				cands = append(cands, cand{k + ":", i})
			}
		default:
			for k := range schema[f.typ] {
				cands = append(cands, cand{k + ":", i})
			}
		}
	}
	// deterministic: innermost first, then longer keys first
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].depth != cands[b].depth {
			return cands[a].depth > cands[b].depth
		}
		return len(cands[a].text) > len(cands[b].text)
	})
	for q := from + 1; q < len(r.s); q++ {
		for _, c := range cands {
			if strings.HasPrefix(r.s[q:], c.text) {
				if c.depth > top {
					return q, top, true
				}
				return q, c.depth, false
			}
		}
	}
	return len(r.s), top, child != ""
}
