package session

import (
	"fmt"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// jsonNodeList is a JSON List of n Nodes on one line.
func jsonNodeList(n int) string {
	var items []string
	for i := range n {
		items = append(items, fmt.Sprintf(`{"apiVersion":"v1","kind":"Node","metadata":{"name":"j-%d"}}`, i))
	}
	return `{"apiVersion":"v1","kind":"List","items":[` + strings.Join(items, ",") + "]}\n"
}

// daemonSets is n tolerate-everything DaemonSets agent-1 ... agent-n.
func daemonSets(n int) string {
	var docs []string
	for i := 1; i <= n; i++ {
		docs = append(docs, strings.ReplaceAll(testDS, "agent", fmt.Sprintf("agent-%d", i))+"      tolerations: [{operator: Exists}]\n")
	}
	return strings.Join(docs, "---\n")
}

func TestScenarioSize(t *testing.T) {
	generated := "apiVersion: v1\nkind: Node\nmetadata: {generateName: n-}\n---\n" + strings.Replace(daemonSets(1), "name: agent-1\n", "generateName: agent-\n", 1)
	tests := []struct {
		name, scenario string
		nodes, ds      int
		// where: the command at which the count passes 1,000 ("" never)
		where string
	}{
		{name: "default cluster", scenario: "kubectl get nodes\n", nodes: 3},
		{name: "empty cluster", scenario: "cluster empty\nkubectl get nodes\n"},
		{name: "one", scenario: "cluster empty\nnode add n1 --label a=b\n", nodes: 1},
		{name: "range", scenario: "cluster empty\nnode add worker-{1..1000}\nnode add w-{5..5}\n", nodes: 1001, where: "node add w-{5..5}"},
		{name: "not a node", scenario: "cluster empty\nkubectl get node add\n# node add x-{1..9}\n"},
		{name: "block manifests", scenario: "cluster empty\nkubectl apply -f n.yaml\n-- n.yaml --\napiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: \"Node\"\nmetadata: {name: b}\n---\n" + daemonSets(1), nodes: 2, ds: 1},
		{name: "block list items", scenario: "cluster empty\nkubectl get nodes\n-- l.yaml --\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n- apiVersion: v1\n  kind: Node\n  metadata: {name: b}\n", nodes: 2},
		{name: "flow list items", scenario: "cluster empty\nkubectl get nodes\n-- l.yaml --\n" + nodeList("f", 40), nodes: 40},
		{name: "JSON list", scenario: "cluster empty\nkubectl get nodes\n-- l.json --\n" + jsonNodeList(30), nodes: 30},
		{name: "JSON documents", scenario: "cluster empty\nkubectl get nodes\n-- n.json --\n" + `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}}` + "\n", nodes: 1},
		{name: "DaemonSets", scenario: "cluster empty\nnode add w-{1..10}\n-- ds.yaml --\n" + daemonSets(7), nodes: 10, ds: 7},
		{name: "generateName per create", scenario: "cluster empty\nkubectl create -f g.yaml\nkubectl create -f g.yaml\n! k create -f g.yaml\n-- g.yaml --\n" + generated, nodes: 3, ds: 3},
		{name: "refused file is scanned", scenario: "cluster empty\nkubectl get nodes\n-- bad.yaml --\nkind: Node\nmetadata: {name: a}\nspec: {bogus: [\n---\n{\"kind\":\"Node\"}\n---\n{kind: DaemonSet, x: 1}\n", nodes: 2, ds: 1},
		{name: "script only counts script", scenario: "cluster empty\nnode add a\n-- f.yaml --\nnode add w-{1..100}\n", nodes: 1},
		// every way a replay creates nodes, flags anywhere on the line
		{name: "generateName, -n before the verb", scenario: "cluster empty\n" + strings.Repeat("kubectl -n default create -f g.yaml\n", 1001) + "-- g.yaml --\n" + generatedNode,
			nodes: 1001, where: "kubectl -n default create -f g.yaml"},
		{name: "generateName, every spelling of -f", scenario: "cluster empty\nkubectl create -fg.yaml\nkubectl create -f=g.yaml\nkubectl create -Rf g.yaml -n=x\nk create --filename g.yaml\nkubectl --context x create --filename=g.yaml,g.yaml\nkubectl apply -f g.yaml\nkubectl replace -f g.yaml -n default\n-- g.yaml --\n" + generatedNode, nodes: 8},
		{name: "reading is not creating", scenario: "cluster empty\nkubectl get -f g.yaml\nkubectl delete -f g.yaml\nkubectl -n default describe -f g.yaml\nkubectl create -f g.yaml\n-- g.yaml --\n" + generatedNode, nodes: 1},
		{name: "a List of Nodes created", scenario: "cluster empty\nnode add w-{1..999}\nkubectl -n default create -f l.yaml\n-- l.yaml --\n" + nodeList("l", 2),
			nodes: 1001, where: "kubectl -n default create -f l.yaml"},
		{name: "named nodes once per file", scenario: "kubectl apply -f n.yaml\nkubectl apply -f n.yaml\n-- n.yaml --\n" + nodeList("n", 10), nodes: 13},
		{name: "file NAME FROM, then created", scenario: "cluster empty\nfile copy.yaml g.yaml\nkubectl create -f copy.yaml\nkubectl create -f copy.yaml\n-- g.yaml --\n" + generatedNode, nodes: 2},
		{name: "a file no command reads counts once per create", scenario: "cluster empty\nkubectl create -f a.yaml\nkubectl create -f a.yaml\n-- a.yaml --\nkind: ConfigMap\n-- g.yaml --\n" + generatedNode, nodes: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Parse("s.txtar", []byte(tc.scenario))
			if err != nil {
				t.Fatal(err)
			}
			got := ScenarioSize(sc)
			if got.Nodes != tc.nodes || got.DaemonSets != tc.ds {
				t.Errorf("ScenarioSize = %d nodes, %d DaemonSets; want %d nodes, %d DaemonSets", got.Nodes, got.DaemonSets, tc.nodes, tc.ds)
			}
			if w := got.Where(1000); w != tc.where {
				t.Errorf("Where(1000) = %q, want %q", w, tc.where)
			}
		})
	}
}

func TestLogSize(t *testing.T) {
	files := map[string]string{"g.yaml": generatedNode, "l.yaml": nodeList("l", 10), "ds.yaml": daemonSets(2)}
	tests := []struct {
		name      string
		lg        Log
		nodes, ds int
		where     string // at 10 nodes
	}{
		{name: "default cluster", lg: Log{}, nodes: 3},
		{name: "node inputs", lg: Log{Empty: true, In: []LogInput{{K: engine.InputAddNode, Name: "a"}, {K: engine.InputAddNode, Name: "b"}}}, nodes: 2},
		{name: "applied List", lg: Log{In: []LogInput{{K: engine.InputApply, Name: "l.yaml", F: "l.yaml"}, {K: engine.InputApply, Name: "l.yaml", F: "l.yaml"}}}, nodes: 13, where: "apply l.yaml"},
		{name: "console creates a file the log wrote", lg: Log{Empty: true, In: []LogInput{
			{K: engine.InputSetFile, Name: "manifest.yaml", F: "g.yaml"},
			{K: engine.InputRun, Line: "create -f manifest.yaml"},
			{K: engine.InputRun, Line: "kubectl -n default create -f manifest.yaml"},
			{K: engine.InputRun, Line: "k create -f manifest.yaml -o name"},
			{K: engine.InputRun, Line: "kubectl get -f manifest.yaml"},
			{K: engine.InputRun, Line: "kubectl create -f other.yaml"},
		}}, nodes: 3},
		{name: "the editor's DaemonSets", lg: Log{Empty: true, In: []LogInput{
			{K: engine.InputApply, Name: "manifest.yaml", F: "ds.yaml"},
			{K: engine.InputSetFile, Name: "manifest.yaml", F: "ds.yaml"},
			{K: engine.InputRun, Line: "kubectl apply -f manifest.yaml"},
		}}, ds: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := LogSize(&tc.lg, files)
			if got.Nodes != tc.nodes || got.DaemonSets != tc.ds {
				t.Errorf("LogSize = %d nodes, %d DaemonSets; want %d, %d", got.Nodes, got.DaemonSets, tc.nodes, tc.ds)
			}
			if w := got.Where(10); w != tc.where {
				t.Errorf("Where(10) = %q, want %q", w, tc.where)
			}
		})
	}
}

func TestSizePods(t *testing.T) {
	for _, tc := range []struct {
		z    Size
		want int
	}{
		{Size{Nodes: 3000, DaemonSets: 50}, 150000},
		{Size{Nodes: 3000}, 3000},
		{Size{Nodes: 1 << 30, DaemonSets: 1 << 30}, 1 << 30},
		{Size{Nodes: 1 << 20, DaemonSets: 1 << 20}, 1 << 30},
	} {
		if got := tc.z.Pods(); got != tc.want {
			t.Errorf("%+v.Pods() = %d, want %d", tc.z, got, tc.want)
		}
	}
}

// NewNodes counts the Node documents of a manifest the cluster lacks;
// CheckApply refuses one taking it past MaxReplayNodes.
func TestNewNodes(t *testing.T) {
	many := flowNodeDocs("node", 1200) + "---\n" + testDS
	rec := engine.NewRecorder(engine.Options{}) // node-1, node-2, control-plane
	c := simstore.Cluster(rec.Live())
	for _, tc := range []struct {
		name string
		nilC bool
		text string
		want int
	}{
		{name: "nil cluster", nilC: true, text: many, want: 1200},
		{name: "node-1 and node-2 exist", text: many, want: 1198},
		{name: "a short or broken manifest", nilC: true, text: "{kind: Node", want: 0},
		{name: "a List", text: nodeList("l", 1200), want: 1200},
		{name: "a broken long manifest adds nothing", text: many + "---\nkind: [\n", want: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cc := c
			if tc.nilC {
				cc = nil
			}
			if got := NewNodes(cc, tc.text); got != tc.want {
				t.Errorf("NewNodes = %d, want %d", got, tc.want)
			}
		})
	}
	if err := CheckApply(rec.Live(), many); err != nil {
		t.Errorf("1,198 new nodes refused: %v", err)
	}
	err := CheckApply(rec.Live(), flowNodeDocs("f", 5001))
	if want := "it adds 5,001 nodes to the cluster's 3; the playground runs at most 5,000 nodes"; err == nil || err.Error() != want {
		t.Errorf("CheckApply = %v, want %q", err, want)
	}
}

func TestNodesManifest(t *testing.T) {
	y := NodesManifest("w", 3)
	if want := "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: w-1\n"; !strings.HasPrefix(y, want) || strings.Count(y, "kind: Node") != 3 || !strings.Contains(y, "name: w-3\n") {
		t.Errorf("NodesManifest:\n%s", y)
	}
	if n := NewNodes(nil, NodesManifest("w", 1000)); n != 1000 {
		t.Errorf("NewNodes(NodesManifest(1000)) = %d", n)
	}
}

// fileKinds' fast reading (YAML nodes only) counts what decoding every
// object as the engine does counts; where it cannot read plainly
// (aliases, merge keys, a key twice) it decodes.
func TestFileKindsAgreesWithDecode(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       kinds
		plain      bool // read without decoding
	}{
		{name: "block", text: "apiVersion: v1\nkind: Node\nmetadata:\n  name: a\n---\n" + testDS, want: kinds{nodes: 1, daemonSets: 1}, plain: true},
		{name: "flow documents", text: flowNodeDocs("f", 20), want: kinds{nodes: 20}, plain: true},
		{name: "flow List", text: nodeList("l", 20), want: kinds{nodes: 20}, plain: true},
		{name: "JSON List", text: jsonNodeList(20), want: kinds{nodes: 20}, plain: true},
		{name: "generateName", text: generatedNode + "---\n" + generatedNode, want: kinds{generatedNodes: 2}, plain: true},
		{name: "quoted kind", text: "apiVersion: v1\nkind: \"Node\"\nmetadata: {name: 'a'}\n", want: kinds{nodes: 1}, plain: true},
		{name: "other kinds", text: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: nginx}]}\n", plain: true},
		{name: "empty documents", text: "---\n---\n# nothing\n", plain: true},
		{name: "an aliased kind", text: "apiVersion: v1\nkind: &k Node\nmetadata: {name: a}\n", want: kinds{nodes: 1}, plain: false},
		{name: "a List of aliased items", text: "apiVersion: v1\nkind: List\nitems:\n- &n {apiVersion: v1, kind: Node, metadata: {name: a}}\n- *n\n", want: kinds{nodes: 2}},
		{name: "a merge key", text: "apiVersion: v1\nkind: Node\nmetadata:\n  <<: {name: a}\n", want: kinds{nodes: 1}},
		{name: "not YAML: scanned", text: "kind: Node\nmetadata: {name: a}\nspec: {bogus: [\n", want: kinds{nodes: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var k kinds
			plain := readObjects(tc.text, k.count) == readPlain
			if tc.plain && !plain {
				t.Errorf("not read plainly")
			}
			if got, slow := fileKinds("f.yaml", tc.text), decodeKinds("f.yaml", tc.text); got != slow {
				t.Errorf("fileKinds = %+v, decoding counts %+v", got, slow)
			} else if got != tc.want {
				t.Errorf("fileKinds = %+v, want %+v", got, tc.want)
			}
		})
	}
}
