package scenario

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts under testdata/")

// TestExamples runs every scenario under examples/ and compares its
// transcript with testdata/golden/<name>.txt. Run with -update to rewrite.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no scenarios under examples/")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txtar")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := Parse(filepath.Base(file), data)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			res := sc.Run(&buf)
			if !res.OK() {
				t.Errorf("assertions failed:\n%s\ntranscript:\n%s", strings.Join(res.Failures, "\n"), buf.String())
			}
			golden := filepath.Join("testdata", "golden", name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./engine/scenario -update to create it)", err)
			}
			if got := buf.String(); got != string(want) {
				t.Errorf("transcript differs from %s (run with -update if the change is intended)\n--- got\n%s\n--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestDeterministic runs the same scenario twice and expects the same bytes.
func TestDeterministic(t *testing.T) {
	src := `kubectl apply -f ds.yaml
advance 30s
kubectl get pods -o wide
kubectl delete pod --all
advance 30s
kubectl get pods
-- ds.yaml --
` + enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	var runs [2]bytes.Buffer
	for i := range runs {
		sc, err := Parse("det.txtar", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if res := sc.Run(&runs[i]); !res.OK() {
			t.Fatalf("run %d failed: %v\n%s", i, res.Failures, runs[i].String())
		}
	}
	if runs[0].String() != runs[1].String() {
		t.Fatalf("two runs differ:\n%s\n---\n%s", runs[0].String(), runs[1].String())
	}
	if !strings.Contains(runs[0].String(), "agent-") {
		t.Fatalf("expected agent pods in the transcript:\n%s", runs[0].String())
	}
}

func TestParseMalformed(t *testing.T) {
	tests := []struct {
		name, src, want string
		line            int
	}{
		{"unknown command", "kubectl get ds\nfrobnicate\n", `unknown command "frobnicate"`, 2},
		{"bad duration", "advance soon\n", "advance wants a duration", 1},
		{"negative duration", "advance -5s\n", "advance wants a duration", 1},
		{"assertion first", "stdout foo\n", "stdout assertion before any command", 1},
		{"bad regexp", "kubectl get ds\nstdout (\n", "bad regular expression", 2},
		{"cluster empty late", "kubectl get ds\ncluster empty\n", "must be the first command", 2},
		{"bad wait", "wait forever\n", "unknown wait", 1},
		{"bad wait deleted kind", "wait deleted svc/x\n", `wait deleted: unknown kind "svc"`, 1},
		{"bad wait timeout", "wait idle --timeout=x\n", "bad --timeout", 1},
		{"node usage", "node add\n", "usage: node", 1},
		{"node verb", "node explode n1\n", "unknown node command", 1},
		{"node flag", "node add n9 --colour=red\n", "unknown node add flag", 1},
		{"node taint effect", "node add n9 --taint a=b:Sometimes\n", "effect must be", 1},
		{"pod usage", "pod fail\n", "usage: pod fail|succeed", 1},
		{"pod verb", "pod explode x\n", "usage: pod fail|succeed", 1},
		{"decisions flag", "kubectl get ds\ndecisions --colour=red\n", "unknown decisions flag", 2},
		{"decisions bad flag", "kubectl get ds\ndecisions component\n", "bad decisions flag", 2},
		{"node range", "node add w-{3..1}\n", "bad node name range", 1},
		{"node range unclosed", "node add w-{1..3\n", "unclosed", 1},
		{"node range too long", "node add w-{1..9999}\n", "more than", 1},
		{"negated advance", "! advance 1s\n", "cannot be negated", 1},
		{"empty", "", "no commands", 1},
		{"only comments and files", "# nothing to run\n-- a.yaml --\nkind: Pod\n", "no commands", 1},
		{"unknown command lists cluster", "dance\n", "cluster, stdout", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.txtar", []byte(tt.src))
			var me *MalformedError
			if !errors.As(err, &me) {
				t.Fatalf("want MalformedError, got %v", err)
			}
			if me.Line != tt.line || !strings.Contains(me.Msg, tt.want) {
				t.Fatalf("got %v, want line %d containing %q", err, tt.line, tt.want)
			}
		})
	}
}

func TestParseNodeAdd(t *testing.T) {
	na, err := parseNodeAdd([]string{"--label", "disk=ssd", "--taint=gpu=true:NoSchedule", "--control-plane", "--cpu=4", "--memory", "8Gi"})
	if err != nil {
		t.Fatal(err)
	}
	o := na.opts
	if o.Labels["disk"] != "ssd" || !o.ControlPlane || o.CPU != "4" || o.Memory != "8Gi" {
		t.Fatalf("options: %+v", o)
	}
	if len(o.Taints) != 1 || o.Taints[0].Key != "gpu" || o.Taints[0].Value != "true" || o.Taints[0].Effect != "NoSchedule" {
		t.Fatalf("taints: %+v", o.Taints)
	}
}

func TestAssertionsFail(t *testing.T) {
	src := "kubectl get nodes\nstdout node-9\n! stdout node-1\n! kubectl get nodes\n"
	sc, err := Parse("f.txtar", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	res := sc.Run(&buf)
	if len(res.Failures) != 3 {
		t.Fatalf("want 3 failures, got %d: %v\n%s", len(res.Failures), res.Failures, buf.String())
	}
	for i, want := range []string{"f.txtar:2: no match", "f.txtar:3: stdout matched", "f.txtar:4: command succeeded"} {
		if !strings.HasPrefix(res.Failures[i], want) {
			t.Errorf("failure %d = %q, want prefix %q", i, res.Failures[i], want)
		}
	}
}

// TestReadmeExample keeps the README's complete scenario runnable.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```\n# Every node")
	if !ok {
		t.Fatal("README has no scenario block starting with '# Every node'")
	}
	block, _, ok := strings.Cut("# Every node"+rest, "```")
	if !ok {
		t.Fatal("unterminated scenario block in README")
	}
	sc, err := Parse("README.md", []byte(block))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if res := sc.Run(&buf); !res.OK() || len(sc.Files) == 0 {
		t.Fatalf("README scenario failed: %v\n%s", res.Failures, buf.String())
	}
}
