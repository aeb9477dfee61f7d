package scenario

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/enginetest"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
)

// frames advances rec in n page frames of 16.7 ms.
func frames(rec *engine.Recorder, n int) {
	for range n {
		rec.Advance(16700 * time.Microsecond)
	}
}

// driveRecorder acts on rec through every kind of input, with frames of
// time passing between them as the page does.
func driveRecorder(t testing.TB, rec *engine.Recorder) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	run := func(line string) engine.Output {
		t.Helper()
		out := rec.Run(line)
		if out.ExitCode != 0 {
			t.Fatalf("%s: %s", line, out.Stderr)
		}
		return out
	}
	v1 := enginetest.DaemonSetYAML("", "agent", "busybox:1.36")
	rec.SetFile("manifest.yaml", v1)
	run("kubectl apply -f manifest.yaml")
	frames(rec, 300)
	must(rec.AddNode("node-3", cluster.NodeOptions{Labels: map[string]string{"disk": "ssd", "zone": ""}, Taints: []api.Taint{{Key: "gpu", Value: "true", Effect: api.TaintEffectNoSchedule}, {Key: "dedicated", Effect: api.TaintEffectPreferNoSchedule}}, CPU: "4", Memory: "8Gi", Pods: "20"}))
	must(rec.AddNode("cp-2", cluster.NodeOptions{ControlPlane: true}))
	frames(rec, 120)
	// the page's Apply button: the buffer, then Apply
	v2 := strings.Replace(v1, "busybox:1.36", "busybox:1.37", 1)
	rec.SetFile("manifest.yaml", v2)
	if _, err := rec.Apply("manifest.yaml", v2); err != nil {
		t.Fatal(err)
	}
	frames(rec, 200)
	// Apply of a text that is not in the buffer
	if _, err := rec.Apply("manifest.yaml", strings.Replace(v1, "busybox:1.36", "busybox:1.38", 1)); err != nil {
		t.Fatal(err)
	}
	run("kubectl rollout status ds/agent") // streams on the page
	frames(rec, 400)
	run("kubectl label node node-2 disk=hdd")
	run("kubectl get pods -w")
	frames(rec, 30)
	out := run("kubectl edit ds agent")
	if out.Edit == nil {
		t.Fatal("no editor")
	}
	run("kubectl get ds") // the console stays usable while the editor is open
	saved := rec.FinishEdit(out.Edit, strings.Replace(out.Edit.Text, "busybox:1.38", "busybox:1.39", 1))
	if saved.ExitCode != 0 {
		t.Fatal(saved.Stderr)
	}
	frames(rec, 300)
	must(rec.FailNode("node-1"))
	frames(rec, 3000) // 50 s: node-1 goes NotReady
	must(rec.RecoverNode("node-1"))
	frames(rec, 100)
	must(rec.SetNodeCondition("node-2", "MemoryPressure", "True"))
	frames(rec, 60)
	must(rec.SetNodeCondition("node-2", "MemoryPressure", "False"))
	pods := simstore.Cluster(rec.Live()).PodsOnNode("node-2")
	if len(pods) == 0 {
		t.Fatal("no pod on node-2")
	}
	p := pods[0]
	must(rec.SetPodReadiness(p.Namespace, p.Name, false))
	frames(rec, 200)
	must(rec.SetPodReadiness(p.Namespace, p.Name, true))
	must(rec.FailPod(p.Namespace, p.Name))
	frames(rec, 200)
	rec.RegistryLack("busybox:1.40")
	rec.RegistryPreloaded()
	rec.SetFile("manifest.yaml", strings.Replace(v1, "busybox:1.36", "busybox:1.40", 1))
	run("kubectl apply -f manifest.yaml")
	frames(rec, 600)
	rec.RegistryHave("busybox:1.40", "busybox:1.36")
	frames(rec, 600)
	run("kubectl rollout undo ds/agent")
	must(rec.RemoveNode("cp-2"))
	run("kubectl delete pod " + simstore.Cluster(rec.Live()).PodsOnNode("node-1")[0].Name)
	frames(rec, 500)
}

func TestExportReplay(t *testing.T) {
	rec := engine.NewRecorder(engine.Options{Seed: 7, StreamRolloutStatus: true})
	driveRecorder(t, rec)
	data := Export(rec, ExportOptions{Title: "My session", Summary: "what I did", Comment: []string{"exported by a test"}})
	script := string(data)
	for _, want := range []string{
		"# title: My session\n# summary: what I did\n# exported by a test\ncluster seed 7\nkubectl apply -f manifest.yaml\nadvance 5.01s\n",
		"node add node-3 --label disk=ssd --label zone= --taint gpu=true:NoSchedule --taint dedicated:PreferNoSchedule --cpu=4 --memory=8Gi --pods=20\n",
		"node add cp-2 --control-plane\n",
		"file manifest.yaml manifest.yaml@2\nkubectl apply -f manifest.yaml\n",
		"kubectl rollout status ds/agent --watch=false\n",
		"kubectl edit ds agent\nkubectl get ds\neditor edit.yaml\n",
		"node fail node-1\nadvance 50.1s\nnode recover node-1\n",
		"node condition node-2 MemoryPressure=True\n",
		"pod unready agent-", "pod ready ", "pod fail ",
		"registry lacks busybox:1.40\nregistry preloaded none\n",
		"registry has busybox:1.40 busybox:1.36\n",
		"node remove cp-2\n",
		"-- manifest.yaml --\n", "-- manifest.yaml@2 --\n", "-- manifest.yaml@3 --\n", "-- edit.yaml --\n",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("export lacks %q", want)
		}
	}
	if n := strings.Count(script, "\nadvance "); n > 20 {
		t.Errorf("%d advance lines: consecutive advances are not merged", n)
	}
	if t.Failed() {
		t.Fatalf("export:\n%s", script)
	}
	sc, err := Parse("export.txtar", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, script)
	}
	if o := sc.Options(); o.Seed != 7 || o.Empty {
		t.Errorf("options %+v", o)
	}
	want := stateOf(rec.Live())
	// replayed on a page-like Recorder
	o := sc.Options()
	o.StreamRolloutStatus = true
	rec2 := engine.NewRecorder(o)
	if err := Replay(rec2, sc); err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if got := stateOf(rec2.Live()); got != want {
		t.Errorf("Replay differs:\n%s", lineDiff(want, got))
	}
	// run headless (dsplay run)
	var buf strings.Builder
	res := sc.Run(&buf)
	if !res.OK() {
		t.Errorf("Run: %v", res.Failures)
	}
	sim := runSim(t, sc)
	if got := stateOf(sim); got != want {
		t.Errorf("Run differs:\n%s", lineDiff(want, got))
	}
	// exporting the replay gives the same script (the files the Player
	// wrote first are already in the archive)
	if again := Export(rec2, ExportOptions{Title: "My session", Summary: "what I did", Comment: []string{"exported by a test"}}); !strings.Contains(string(again), script[strings.Index(script, "kubectl apply"):strings.Index(script, "-- ")]) {
		t.Errorf("re-export differs:\n%s\n---\n%s", again, script)
	}
}

// TestAdvanceMerging checks that merging consecutive advances changes
// nothing: the export's advances, split back into page frames, reach the
// same state.
func TestAdvanceMerging(t *testing.T) {
	rec := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	driveRecorder(t, rec)
	merged := string(Export(rec, ExportOptions{}))
	adv := regexp.MustCompile(`(?m)^advance (\S+)$`)
	split := adv.ReplaceAllStringFunc(merged, func(l string) string {
		d, _ := time.ParseDuration(strings.TrimPrefix(l, "advance "))
		var b strings.Builder
		for ; d > 16700*time.Microsecond; d -= 16700 * time.Microsecond {
			b.WriteString("advance 16.7ms\n")
		}
		fmt.Fprintf(&b, "advance %s", d)
		return b.String()
	})
	if strings.Count(split, "\nadvance ") < 5000 {
		t.Fatalf("split into only %d advances", strings.Count(split, "\nadvance "))
	}
	var states [2]string
	for i, src := range []string{merged, split} {
		sc, err := Parse("m.txtar", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		states[i] = stateOf(runSim(t, sc))
	}
	if states[0] != states[1] {
		t.Errorf("merged and split advances differ:\n%s", lineDiff(states[0], states[1]))
	}
	if want := stateOf(rec.Live()); states[0] != want {
		t.Errorf("the export differs from the recorder:\n%s", lineDiff(want, states[0]))
	}
}

// runSim runs sc on a Simulation (as Run does) and returns it.
func runSim(t *testing.T, sc *Scenario) *engine.Simulation {
	t.Helper()
	sim := engine.New(sc.Options())
	for k, v := range sc.Files {
		sim.Files[k] = v
	}
	r := newRunner(nil, sc, simTarget{sim}, &strings.Builder{})
	r.steps(sc.steps)
	r.stopWatch()
	if len(r.failures) > 0 {
		t.Errorf("failures: %v", r.failures)
	}
	return sim
}

func lineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y))
		}
		if len(out) > 10 {
			break
		}
	}
	return strings.Join(out, "\n")
}

func TestExportEmptyAndReplayErrors(t *testing.T) {
	rec := engine.NewRecorder(engine.Options{Empty: true})
	data := Export(rec, ExportOptions{})
	if string(data) != "cluster empty\nkubectl get nodes\n" {
		t.Errorf("empty export: %q", data)
	}
	sc, err := Parse("e.txtar", data)
	if err != nil || !sc.Options().Empty {
		t.Fatalf("%v %+v", err, sc)
	}
	// a failed command replays, and is reported
	rec = engine.NewRecorder(engine.Options{})
	rec.Run("kubectl get pod nope")
	rec.Advance(time.Second)
	sc, err = Parse("f.txtar", Export(rec, ExportOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	rec2 := engine.NewRecorder(sc.Options())
	err = Replay(rec2, sc)
	if re, ok := err.(*ReplayError); !ok || len(re.Failures) != 1 || !strings.Contains(err.Error(), "f.txtar:1: command failed with exit status 1") {
		t.Errorf("Replay error: %v", err)
	}
	if rec2.Live().Elapsed() != time.Second {
		t.Errorf("the replay stopped: t=%s", rec2.Live().Elapsed())
	}
}

func TestExportMarkFailures(t *testing.T) {
	rec := engine.NewRecorder(engine.Options{})
	rec.Run("kubectl get pod nope")
	rec.Run("kubectl\nget nodes")
	rec.FailNode("node-9")
	rec.SetFile("ds.yaml", enginetest.DaemonSetYAML("", "agent", "busybox:1.36"))
	rec.Run("kubectl apply -f ds.yaml")
	out := rec.Run("kubectl edit ds agent")
	rec.FinishEdit(out.Edit, "not: [yaml") // the editor reopens with the error: exit status 0
	rec.Advance(time.Second)
	data := Export(rec, ExportOptions{MarkFailures: true})
	script, _, _ := strings.Cut(string(data), "\n-- ")
	want := "! kubectl get pod nope\nkubectl get nodes\n# failed, changed nothing: node fail node-9\nkubectl apply -f ds.yaml\nkubectl edit ds agent\neditor edit.yaml\nadvance 1s"
	if script != want {
		t.Errorf("script:\n%s\nwant:\n%s", script, want)
	}
	sc, err := Parse("m.txtar", data)
	if err != nil {
		t.Fatal(err)
	}
	var buf strings.Builder
	if res := sc.Run(&buf); !res.OK() {
		t.Errorf("marked export fails: %v\n%s", res.Failures, buf.String())
	}
	if err := Replay(engine.NewRecorder(sc.Options()), sc); err != nil {
		t.Errorf("Replay: %v", err)
	}
}

// BenchmarkExport measures Export of a page session (every input kind,
// about 7,000 frames) and Parse+Replay of the result on a new Recorder.
func BenchmarkExport(b *testing.B) {
	rec := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	driveRecorder(b, rec)
	b.Run("export", func(b *testing.B) {
		for b.Loop() {
			Export(rec, ExportOptions{})
		}
	})
	b.Run("export-mark-failures", func(b *testing.B) {
		for b.Loop() {
			Export(rec, ExportOptions{MarkFailures: true})
		}
	})
	data := Export(rec, ExportOptions{})
	b.Run("parse-replay", func(b *testing.B) {
		for b.Loop() {
			sc, err := Parse("x.txtar", data)
			if err != nil {
				b.Fatal(err)
			}
			o := sc.Options()
			o.StreamRolloutStatus = true
			if err := Replay(engine.NewRecorder(o), sc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
