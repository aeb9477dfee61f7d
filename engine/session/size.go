package session

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/manifest"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// huge is the count of anything unbounded (a product past it).
const huge = 1 << 30

// defaultNodes is the default cluster's node count (control-plane,
// node-1, node-2: engine/cluster AddDefaultNodes), where a scenario or a
// log starts unless its cluster is empty.
const defaultNodes = 3

// Size bounds what a scenario, or a share link's input log, may grow the
// simulated cluster to, counted before anything runs. Over-counting is
// fine: it is a bound, not the cluster's size.
type Size struct {
	// Nodes counts the starting cluster's nodes (3, none for `cluster
	// empty`), each `node add NAME` (B-A+1 for a NAME with a range
	// {A..B}), the Node documents of every file `kubectl create`, `apply`
	// or `replace` reads with -f (flags anywhere on the line; a `kind:
	// List` unpacked), each named Node once per file text (applying it
	// again adds no node) and each Node named by metadata.generateName
	// once per command (every create makes a new one). A script's files
	// that no command reads count too, their generateName Nodes once per
	// creating command of the script. In a log, an Apply input counts as
	// `kubectl apply -f` of its text, and console lines read the files
	// the log's SetFile inputs wrote.
	Nodes int
	// DaemonSets counts the DaemonSet documents the same way.
	DaemonSets int
	// marks are the running node count after each command or input that
	// adds nodes, in order (for Where).
	marks []mark
}

// mark is the node count reached by a command, as written.
type mark struct {
	nodes int
	at    string
}

// Pods is Nodes × max(1, DaemonSets), saturating at 2^30: a bound on the
// DaemonSet pods the scenario can create (every DaemonSet tolerating
// every node runs one pod per node), what a run costs.
func (z Size) Pods() int {
	p := z.Nodes * max(1, z.DaemonSets)
	if z.Nodes >= huge || z.DaemonSets >= huge || p > huge {
		return huge
	}
	return p
}

// Where is the command or input, as written, at which the node count
// first passes max ("" when it never does).
func (z Size) Where(max int) string {
	for _, m := range z.marks {
		if m.nodes > max {
			return m.at
		}
	}
	return ""
}

// sizer adds up a Size.
type sizer struct {
	z Size
	// counted are the file texts whose named objects were counted.
	counted map[string]bool
	// decoded caches fileKinds by file name and text.
	decoded map[[2]string]kinds
}

func newSizer(empty bool) *sizer {
	s := &sizer{counted: map[string]bool{}, decoded: map[[2]string]kinds{}}
	if !empty {
		s.z.Nodes = defaultNodes
	}
	return s
}

// add counts nodes and DaemonSets made by at.
func (s *sizer) add(nodes, daemonSets int, at string) {
	if nodes == 0 && daemonSets == 0 {
		return
	}
	s.z.Nodes = min(s.z.Nodes+nodes, huge)
	s.z.DaemonSets = min(s.z.DaemonSets+daemonSets, huge)
	if nodes > 0 {
		s.z.marks = append(s.z.marks, mark{s.z.Nodes, at})
	}
}

// file counts what one creating command reading the file name (text) may
// make: its named objects the first time the text is read, its
// generateName ones times times.
func (s *sizer) file(name, text string, times int, at string) {
	key := [2]string{name, text}
	k, ok := s.decoded[key]
	if !ok {
		k = fileKinds(name, text)
		s.decoded[key] = k
	}
	nodes := min(k.generatedNodes*times, huge)
	daemonSets := min(k.generatedDaemonSets*times, huge)
	if !s.counted[text] {
		s.counted[text] = true
		nodes += k.nodes
		daemonSets += k.daemonSets
	}
	s.add(nodes, daemonSets, at)
}

// ScenarioSize is the Size of the cluster sc can build: what the page
// checks before replaying a scenario without an input log, and what the
// API checks before running one.
func ScenarioSize(sc *scenario.Scenario) Size {
	s := newSizer(sc.Options().Empty)
	files := map[string]string{}
	for n, t := range sc.Files {
		files[n] = t
	}
	read := map[string]bool{}
	creates := 0
	for _, c := range sc.Commands() {
		switch c.Verb {
		case "node":
			if len(c.Args) >= 2 && c.Args[0] == "add" {
				s.add(rangeSize(c.Args[1]), 0, c.Text)
			}
		case "file":
			// `file NAME FROM`: NAME gets FROM's content (counted where
			// NAME is read)
			if len(c.Args) == 2 {
				if t, ok := files[c.Args[1]]; ok {
					files[c.Args[0]] = t
					read[c.Args[1]] = true
				}
			}
		case "kubectl":
			names, ok := creatingFiles(c.Args)
			if !ok {
				continue
			}
			creates++
			for _, n := range names {
				if t, ok := files[n]; ok {
					read[n] = true
					s.file(n, t, 1, c.Text)
				}
			}
		}
	}
	// Files no command reads (a bound: nothing should reach them).
	var rest []string
	for n := range sc.Files {
		if !read[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	for _, n := range rest {
		s.file(n, sc.Files[n], max(1, creates), "kubectl apply -f "+n)
	}
	return s.z
}

// LogSize is the Size of the cluster a share link's or an exported
// scenario's input log can build (files: the archive's files, by name).
func LogSize(lg *Log, files map[string]string) Size {
	s := newSizer(lg.Empty)
	simFiles := map[string]string{} // Simulation.Files, as SetFile inputs write them
	for _, si := range lg.In {
		switch si.K {
		case engine.InputAddNode:
			s.add(1, 0, describeInput(si))
		case engine.InputApply:
			s.file(si.Name, files[si.F], 1, describeInput(si))
		case engine.InputSetFile:
			simFiles[si.Name] = files[si.F]
		case engine.InputRun:
			args, err := kubectl.ParseCommandLine(si.Line)
			if err != nil {
				continue
			}
			if len(args) > 0 && (args[0] == "kubectl" || args[0] == "k") {
				args = args[1:]
			}
			names, ok := creatingFiles(args)
			if !ok {
				continue
			}
			for _, n := range names {
				if t, ok := simFiles[n]; ok {
					s.file(n, t, 1, describeInput(si))
				}
			}
		}
	}
	return s.z
}

// kubectlValueFlags are the kubectl flags (global ones, and -f) whose
// value may be the next word: creatingFiles skips it when looking for
// the verb.
var kubectlValueFlags = map[string]bool{
	"-n": true, "--namespace": true, "--context": true, "--cluster": true, "--user": true,
	"--kubeconfig": true, "-s": true, "--server": true, "--token": true, "--as": true,
	"--as-group": true, "--request-timeout": true, "-v": true, "--v": true,
	"-f": true, "--filename": true, "-o": true, "--output": true, "-l": true, "--selector": true,
}

// creatingFiles reads a kubectl command line (the words after kubectl):
// ok is true when its verb creates objects from files (create, apply,
// replace), and files are what it reads with -f, --filename (`-f X`,
// `-f=X`, `-fX`, `-Rf X`, `--filename=X`; a comma-separated list as
// kubectl's string slice flags take it), wherever they stand on the line
// (flags are read as the engine's kubectl flag parser, pflag's, reads
// them).
func creatingFiles(args []string) (files []string, ok bool) {
	verb := ""
	addFiles := func(v string) {
		for _, f := range strings.Split(v, ",") {
			if f != "" {
				files = append(files, f)
			}
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if verb == "" && i+1 < len(args) {
				verb = args[i+1]
			}
			i = len(args)
		case a == "--filename":
			if i+1 < len(args) {
				i++
				addFiles(args[i])
			}
		case strings.HasPrefix(a, "--filename="):
			addFiles(strings.TrimPrefix(a, "--filename="))
		case kubectlValueFlags[a] && strings.HasPrefix(a, "--"):
			i++
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && len(a) > 1:
			// shorthands as pflag reads them: booleans combined (-Rf X),
			// a value joined (-fX, -f=X) or the next word
			for j := 1; j < len(a); j++ {
				c := "-" + a[j:j+1]
				if !kubectlValueFlags[c] {
					continue // a boolean
				}
				v := strings.TrimPrefix(a[j+1:], "=")
				if v == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				if c == "-f" {
					addFiles(v)
				}
				break
			}
		case strings.HasPrefix(a, "-"):
		case verb == "":
			verb = a
		}
	}
	switch verb {
	case "create", "apply", "replace":
		return files, len(files) > 0
	}
	return nil, false
}

// rangeSize is how many names a `node add` name with one {A..B} range
// makes (1 without a range, or for a malformed one, which the scenario's
// parser refuses).
func rangeSize(name string) int {
	open := strings.Index(name, "{")
	close := strings.Index(name, "}")
	if open < 0 || close < open {
		return 1
	}
	a, b, ok := strings.Cut(name[open+1:close], "..")
	from, err1 := strconv.Atoi(a)
	to, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || to < from {
		return 1
	}
	return min(to-from+1, huge)
}

// kinds counts the Node and DaemonSet documents of a file; generated*
// are those named by metadata.generateName only.
type kinds struct {
	nodes, daemonSets, generatedNodes, generatedDaemonSets int
}

// fileKinds counts a file's Node and DaemonSet objects as kubectl -f
// reads them (a `kind: List` unpacked, block and flow YAML and JSON
// alike). It reads the YAML as nodes only (readObjects: gopkg.in/yaml.v3,
// about 4 times faster than decoding and validating each object as
// manifest.DecodeWith does, which matters in the browser: 9,000 Nodes
// are refused in under 2 s, not 5); where that reading is not plain,
// or the text not YAML, it decodes the file as the engine does
// (manifest.DecodeWith, field validation Ignore). A file the engine would
// refuse (so that applying it makes nothing) is scanned instead
// (kindScan), a bound.
func fileKinds(name, text string) kinds {
	var k kinds
	if readObjects(text, k.count) == readPlain {
		return k
	}
	return decodeKinds(name, text)
}

// decodeKinds is fileKinds decoding the file as the engine does.
func decodeKinds(name, text string) kinds {
	var k kinds
	docs, err := manifest.DecodeWith(name, text, manifest.DecodeOptions{FieldValidation: manifest.FieldValidationIgnore})
	if err != nil {
		return scanKinds(text)
	}
	for _, d := range docs {
		k.count(d.Kind, d.Name)
	}
	return k
}

// count adds one object of kind named name ("": generateName).
func (k *kinds) count(kind, name string) {
	switch {
	case kind == "Node" && name == "":
		k.generatedNodes++
	case kind == "Node":
		k.nodes++
	case kind == "DaemonSet" && name == "":
		k.generatedDaemonSets++
	case kind == "DaemonSet":
		k.daemonSets++
	}
}

// scanKinds counts `kind: Node` and `kind: DaemonSet` in text (kindScan),
// all as named.
func scanKinds(text string) kinds {
	var k kinds
	for _, m := range kindScan.FindAllStringSubmatch(text, -1) {
		k.count(m[1], "?")
	}
	return k
}

// readResult is how readObjects read a text.
type readResult int

const (
	readPlain    readResult = iota // every object was given to f
	readNotPlain                   // an alias, a merge key (<<) or a key twice on the way to kind and metadata.name
	readNotYAML                    // a YAML syntax error
)

// readObjects gives f the kind and metadata.name ("" when absent) of
// each Node and DaemonSet object of a multi-document YAML text, the items
// of a `kind: List` unpacked, reading the YAML as nodes only. Where it
// reports other than readPlain, f may have been given some objects.
func readObjects(text string, f func(kind, name string)) readResult {
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if err == io.EOF {
				return readPlain
			}
			return readNotYAML
		}
		if len(doc.Content) == 0 {
			continue
		}
		top := doc.Content[0]
		kind, plain := scalar(top, "kind")
		if !plain {
			return readNotPlain
		}
		if kind != "List" {
			if !object(top, f) {
				return readNotPlain
			}
			continue
		}
		items, plain := field(top, "items")
		if !plain {
			return readNotPlain
		}
		if items == nil || items.Kind != yaml.SequenceNode {
			continue
		}
		for _, it := range items.Content {
			if !object(it, f) {
				return readNotPlain
			}
		}
	}
}

// object gives f the object o if it is a Node or a DaemonSet; false where
// its reading is not plain.
func object(o *yaml.Node, f func(kind, name string)) bool {
	kind, plain := scalar(o, "kind")
	if !plain {
		return false
	}
	if kind != "Node" && kind != "DaemonSet" {
		return true
	}
	md, plain := field(o, "metadata")
	if !plain {
		return false
	}
	name := ""
	if md != nil {
		if name, plain = scalar(md, "name"); !plain {
			return false
		}
	}
	f(kind, name)
	return true
}

// field is the value of key in the mapping m (nil when m is no mapping
// or lacks the key); plain is false when the value is an alias, or m has
// a merge key (<<) or the key twice.
func field(m *yaml.Node, key string) (v *yaml.Node, plain bool) {
	if m.Kind == yaml.AliasNode {
		return nil, false
	}
	if m.Kind != yaml.MappingNode {
		return nil, true
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "<<":
			return nil, false
		case key:
			if v != nil || m.Content[i+1].Kind == yaml.AliasNode {
				return nil, false
			}
			v = m.Content[i+1]
		}
	}
	return v, true
}

// scalar is field's value as a string ("" when absent or not a scalar).
func scalar(m *yaml.Node, key string) (string, bool) {
	v, plain := field(m, key)
	if v == nil || v.Kind != yaml.ScalarNode {
		return "", plain
	}
	return v.Value, plain
}

// kindScan finds `kind: Node` and `kind: DaemonSet` in block YAML, flow
// YAML ({kind: Node, ...}) and JSON ("kind":"Node"), quoted or not.
var kindScan = regexp.MustCompile(`(?m)(?:^|[\s{,\[])["']?kind["']?\s*:\s*["']?(Node|DaemonSet)["']?\s*(?:$|[,}\]\s#])`)

// nodeDocsMinBytes: under it a manifest cannot hold 1,000 Node documents
// (each takes at least about 45 bytes, the flow style `{kind: Node,
// apiVersion: v1, metadata: {name: a}}`), see NewNodes.
const nodeDocsMinBytes = 45 * 1000

// NewNodes counts the Node documents a manifest holds that name no node of
// c (any node when c is nil), as fileKinds reads them (generateName ones
// included; a manifest the engine refuses adds none). Short texts are not read: under nodeDocsMinBytes a manifest
// cannot hold 1,000 Node documents, so the cap is not near (unless c has
// more than 4,000 nodes) and the time is saved: 0.
func NewNodes(c *cluster.Cluster, text string) int {
	if len(text) < nodeDocsMinBytes && (c == nil || c.NodeCount() <= MaxReplayNodes-nodeDocsMinBytes/45) {
		return 0
	}
	n := 0
	count := func(kind, name string) {
		if kind == "Node" && (c == nil || name == "" || c.Node(name) == nil) {
			n++
		}
	}
	if readObjects(text, count) == readPlain {
		return n
	}
	n = 0
	docs, err := manifest.DecodeWith("manifest.yaml", text, manifest.DecodeOptions{FieldValidation: manifest.FieldValidationIgnore})
	if err != nil {
		return 0 // applying it fails: it adds nothing
	}
	for _, d := range docs {
		count(d.Kind, d.Name)
	}
	return n
}

// CheckApply refuses a manifest that would take sim over MaxReplayNodes
// nodes (thousands of nodes take the page's thread for seconds: 9,000
// flow-style nodes, 13 s), before it is applied: "it adds N nodes to the
// cluster's M; the playground runs at most 5,000 nodes".
func CheckApply(sim *engine.Simulation, text string) error {
	c := simstore.Cluster(sim)
	if n := NewNodes(c, text); n > 0 && c.NodeCount()+n > MaxReplayNodes {
		return fmt.Errorf("it adds %s nodes to the cluster's %s; the playground runs at most %s nodes", thousands(n), thousands(c.NodeCount()), thousands(MaxReplayNodes))
	}
	return nil
}

// NodesManifest is the manifest that adds n Node objects prefix-1 ...
// prefix-n (a Node manifest joins like a kubelet registering, see
// engine/manifest planNode), so adding them is one recorded input.
func NodesManifest(prefix string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: %s-%d\n", prefix, i)
	}
	return b.String()
}
