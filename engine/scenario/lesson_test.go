package scenario

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

const lessonSrc = `# title: One pod per node
# kind: lesson
# summary: The controller runs one pod per node.
# order: 1
# level: 2
# Welcome: this lesson shows
# how the controller works.
kubectl get nodes

## Apply it
# The controller creates a pod
# per node.
#
# Then they start.
kubectl apply -f agent.yaml
stdout created
# a comment between commands
advance 30s

## Look
kubectl get pods
-- agent.yaml --
kind: DaemonSet
`

func TestMetaAndLesson(t *testing.T) {
	sc, err := Parse("l.txtar", []byte(lessonSrc))
	if err != nil {
		t.Fatal(err)
	}
	wantMeta := Meta{Kind: KindLesson, Title: "One pod per node", Summary: "The controller runs one pod per node.", Order: 1, Level: 2}
	if got := sc.Meta(); !reflect.DeepEqual(got, wantMeta) {
		t.Errorf("Meta = %+v, want %+v", got, wantMeta)
	}
	want := []LessonStep{
		{Title: "Setup", Text: "Welcome: this lesson shows\nhow the controller works.", Commands: []string{"kubectl get nodes"}},
		{Title: "Apply it", Text: "The controller creates a pod\nper node.\n\nThen they start.", Commands: []string{"kubectl apply -f agent.yaml", "stdout created", "advance 30s"}, Line: 10},
		{Title: "Look", Commands: []string{"kubectl get pods"}, Line: 20},
	}
	if got := sc.Lesson(); !reflect.DeepEqual(got, want) {
		t.Errorf("Lesson =\n%#v\nwant\n%#v", got, want)
	}
}

func TestExerciseMeta(t *testing.T) {
	src := "# kind: Exercise\n# title: T\n# task: Make it\n# task:   run everywhere.\n# hint: first\n# hint: second\n# upstream: free text\nkubectl get ds\n## Goal\nexpect ds/a exists\n## SOLUTION\nkubectl get ds\n"
	sc, err := Parse("x.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Meta{Kind: KindExercise, Title: "T", Task: "Make it run everywhere.", Hints: []string{"first", "second"}}
	if got := sc.Meta(); !reflect.DeepEqual(got, want) {
		t.Errorf("Meta = %+v, want %+v", got, want)
	}
	// a plain scenario: no kind, ## headings are lesson steps
	sc, err = Parse("p.txtar", []byte("kubectl get ds\n## Later\nkubectl get pods\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m := sc.Meta(); m.Kind != "" || len(sc.Lesson()) != 2 {
		t.Errorf("plain: %+v %+v", m, sc.Lesson())
	}
}

func TestParseMalformedStructure(t *testing.T) {
	const ex = "# kind: exercise\n"
	for _, tc := range []struct {
		name, src, want string
		line            int
	}{
		{"bad kind", "# kind: tutorial\nkubectl get ds\n", `# kind: "tutorial": want lesson or exercise`, 1},
		{"bad order", "# order: first\nkubectl get ds\n", `# order: "first" is not an integer`, 1},
		{"bad level", "# title: x\n# level: 1.5\nkubectl get ds\n", `# level: "1.5" is not an integer`, 2},
		{"empty hint", "# hint:\nkubectl get ds\n", "# hint: is empty", 1},
		{"goal in a lesson", "# kind: lesson\nkubectl get ds\n## goal\nexpect ds/a exists\n", "## goal is an exercise section, but this file is a lesson", 3},
		{"solution in a plain scenario", "kubectl get ds\n## Solution\nkubectl get ds\n", "this file is a plain scenario", 2},
		{"empty heading", "kubectl get ds\n##\n", "## needs a title", 2},
		{"unknown section", ex + "kubectl get ds\n## Step one\n", `unknown exercise section "Step one"`, 3},
		{"duplicate section", ex + "kubectl get ds\n## goal\nexpect ds/a exists\n## solution\nkubectl get ds\n## goal\n", "second ## goal section (the first is on line 3)", 7},
		{"setup late", ex + "## goal\nexpect ds/a exists\n## setup\n", "## setup must come before", 4},
		{"setup after commands", ex + "kubectl get ds\n## setup\n", "## setup after setup commands", 3},
		{"no goal", ex + "kubectl get ds\n## solution\nkubectl get ds\n", "exercise without a ## goal section", 1},
		{"empty goal", ex + "kubectl get ds\n## goal\n# nothing\n## solution\nkubectl get ds\n", "## goal has no checks", 3},
		{"no solution", ex + "kubectl get ds\n## goal\nexpect ds/a exists\n", "exercise without a ## solution", 1},
		{"goal applies", ex + "## goal\nkubectl apply -f x.yaml\n", "the goal only reads the cluster, but `kubectl apply` changes it", 3},
		{"goal deletes", ex + "## goal\n! kubectl delete pod x\n", "`kubectl delete` changes it", 3},
		{"goal patches with -n first", ex + "## goal\nkubectl -n kube-system patch ds x -p '{}'\n", "`kubectl patch` changes it", 3},
		{"goal node add", ex + "## goal\nnode add n9\n", `the goal only reads the cluster: "node" changes it`, 3},
		{"goal advance", ex + "## goal\nadvance 5s\n", `"advance" changes it`, 3},
		{"goal wait", ex + "## goal\nwait idle\n", `"wait" changes it`, 3},
		{"goal edit", ex + "## goal\nkubectl edit ds x\n", "`kubectl edit`", 3},
		{"goal rollout undo", ex + "## goal\nkubectl rollout undo ds/x\n", "`kubectl rollout undo`", 3},
		{"goal watch", ex + "## goal\nkubectl get pods -w\n", "the goal cannot watch (-w)", 3},
		{"goal always", ex + "## goal\nalways ds/x exists\n", `"always" changes it`, 3},
		{"goal assertion first", ex + "kubectl get ds\n## goal\nstdout x\n", "stdout assertion before any command of the ## goal section", 4},
		{"always section command", ex + "## always\nkubectl get ds\n", "holds only `always SUBJECT PREDICATE` lines", 3},
		{"always in solution", ex + "## goal\nexpect ds/a exists\n## solution\nalways ds/a exists\n", "always lines go in the ## always section", 5},
		{"cluster in solution", ex + "## goal\nexpect ds/a exists\n## solution\ncluster empty\n", "must be the first command", 5},
		{"bad seed", "cluster seed x\nkubectl get ds\n", "cluster seed wants a positive integer", 1},
		{"file usage", "file a\n", "usage: file NAME FROM", 1},
		{"assertion after expect", "kubectl get ds\nexpect ds/a exists\nstdout a\n", "stdout assertion after expect", 3},
		{"assertion after always", "kubectl get ds\nalways ds/a exists\n! stderr a\n", "stderr assertion after always", 3},
		{"file missing", "file a b\n", `file: no file "b"`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.txtar", []byte(tc.src))
			var me *MalformedError
			if !errors.As(err, &me) {
				t.Fatalf("want MalformedError, got %v", err)
			}
			if me.Line != tc.line || !strings.Contains(me.Msg, tc.want) {
				t.Fatalf("got %v, want line %d containing %q", err, tc.line, tc.want)
			}
		})
	}
	// read-only goal commands parse
	ok := ex + "kubectl get ds\n## goal\nkubectl get ds -o wide\nstdout x\n! kubectl describe ds nope\nkubectl rollout status ds/x\nkubectl -n kube-system get pods\nkubectl events\nkubectl rollout history ds/x\n## solution\nkubectl get ds\n"
	if _, err := Parse("ok.txtar", []byte(ok)); err != nil {
		t.Errorf("read-only goal: %v", err)
	}
}
