package api

import (
	"encoding/json"
	"testing"
)

func expr(key, op string, vals ...string) NodeSelectorRequirement {
	return NodeSelectorRequirement{Key: key, Operator: op, Values: vals}
}

func TestRequiredNodeAffinity(t *testing.T) {
	node := &Node{ObjectMeta: ObjectMeta{Name: "node-1", Labels: map[string]string{"zone": "a", "cores": "8", "disk": "ssd"}}}
	aff := func(terms ...NodeSelectorTerm) *Affinity {
		return &Affinity{NodeAffinity: &NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &NodeSelector{NodeSelectorTerms: terms}}}
	}
	cases := []struct {
		name    string
		spec    PodSpec
		want    bool
		wantErr bool
	}{
		{"nothing", PodSpec{}, true, false},
		{"nodeSelector match", PodSpec{NodeSelector: map[string]string{"zone": "a"}}, true, false},
		{"nodeSelector mismatch", PodSpec{NodeSelector: map[string]string{"zone": "b"}}, false, false},
		{"nodeSelector ANDed", PodSpec{NodeSelector: map[string]string{"zone": "a", "disk": "hdd"}}, false, false},
		{"In", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "In", "a", "b")}})}, true, false},
		{"NotIn absent key", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("gpu", "NotIn", "yes")}})}, true, false},
		{"Exists", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("disk", "Exists")}})}, true, false},
		{"DoesNotExist", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("disk", "DoesNotExist")}})}, false, false},
		{"Gt", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("cores", "Gt", "4")}})}, true, false},
		{"Lt", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("cores", "Lt", "4")}})}, false, false},
		{"Gt bad value is a parse error", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("cores", "Gt", "four")}})}, false, true},
		{"expressions ANDed in a term", PodSpec{Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "In", "a"), expr("disk", "In", "hdd")}})}, false, false},
		{"terms ORed", PodSpec{Affinity: aff(
			NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "In", "b")}},
			NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{expr("metadata.name", "In", "node-1")}})}, true, false},
		{"matchFields NotIn", PodSpec{Affinity: aff(NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{expr("metadata.name", "NotIn", "node-1")}})}, false, false},
		{"matchFields two values is an error", PodSpec{Affinity: aff(NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{expr("metadata.name", "In", "node-1", "node-2")}})}, false, true},
		{"matchFields Exists is an error", PodSpec{Affinity: aff(NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{expr("metadata.name", "Exists")}})}, false, true},
		{"expressions and fields ANDed", PodSpec{Affinity: aff(NodeSelectorTerm{
			MatchExpressions: []NodeSelectorRequirement{expr("zone", "In", "a")},
			MatchFields:      []NodeSelectorRequirement{expr("metadata.name", "In", "node-2")}})}, false, false},
		{"empty term matches nothing", PodSpec{Affinity: aff(NodeSelectorTerm{})}, false, false},
		{"no terms matches nothing", PodSpec{Affinity: aff()}, false, false},
		{"empty term dropped, other matches", PodSpec{Affinity: aff(NodeSelectorTerm{}, NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "Exists")}})}, true, false},
		{"parse error ignored when another term matches", PodSpec{Affinity: aff(
			NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "Like", "a")}},
			NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "In", "a")}})}, true, false},
		{"nodeSelector and affinity both needed", PodSpec{NodeSelector: map[string]string{"zone": "b"},
			Affinity: aff(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "In", "a")}})}, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := GetRequiredNodeAffinity(&tc.spec).Match(node)
			if got != tc.want || (err != nil) != tc.wantErr {
				t.Errorf("Match = %v, %v; want %v, error %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestQuantityJSON(t *testing.T) {
	b, err := json.Marshal(ResourceList{"cpu": MustParseQuantity("100m")})
	if err != nil || string(b) != `{"cpu":"100m"}` {
		t.Fatalf("marshal = %s, %v", b, err)
	}
	var rl ResourceList
	if err := json.Unmarshal([]byte(`{"cpu":"250m","memory":128}`), &rl); err != nil {
		t.Fatal(err)
	}
	if rl["cpu"].Milli != 250 || rl["memory"].Milli != 128000 {
		t.Errorf("unmarshal = %+v", rl)
	}
}
