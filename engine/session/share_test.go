package session

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
	"sort"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/scenario"
	"github.com/dsplayground/dsplay/examples"
)

// manifestFile is the page's editor file.
const manifestFile = "manifest.yaml"

const testDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: busybox:1.36
        command: ["sleep", "infinity"]
`

// learner is a learner's session on a Recorder.
type learner struct {
	name string
	opts engine.Options
	do   func(t *testing.T, r *engine.Recorder)
}

var learners = []learner{
	{"apply and wait", engine.Options{StreamRolloutStatus: true}, func(t *testing.T, r *engine.Recorder) {
		r.SetFile(manifestFile, testDS)
		mustApply(t, r, manifestFile, testDS)
		r.Advance(30 * time.Second)
	}},
	{"console, nodes, image change, edit", engine.Options{StreamRolloutStatus: true}, func(t *testing.T, r *engine.Recorder) {
		r.SetFile(manifestFile, testDS)
		mustApply(t, r, manifestFile, testDS)
		r.Advance(12 * time.Second)
		r.Run("kubectl label nodes node-2 disk=ssd")
		r.Run("get pods -o wide") // read-only: no step, still an input
		if err := r.AddNode("node-3", cluster.NodeOptions{Labels: map[string]string{"zone": "b"}, Taints: []api.Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}}}); err != nil {
			t.Fatal(err)
		}
		r.Advance(5 * time.Second)
		// the editor's text changes, then the console applies it
		changed := strings.Replace(testDS, "busybox:1.36", "busybox:1.37", 1)
		r.SetFile(manifestFile, changed)
		r.Run("kubectl apply -f manifest.yaml")
		r.Advance(40 * time.Second)
		out := r.Run("kubectl edit ds agent")
		if out.Edit == nil {
			t.Fatalf("kubectl edit opened no editor: %q %q", out.Stdout, out.Stderr)
		}
		r.FinishEdit(out.Edit, strings.Replace(out.Edit.Text, "busybox:1.37", "busybox:1.38", 1))
		if err := r.FailNode("node-1"); err != nil {
			t.Fatal(err)
		}
		r.Advance(70 * time.Second)
		r.RegistryLack("nginx:9.9")
		r.Run("kubectl rollout status ds/agent")
		r.Advance(1500 * time.Millisecond)
	}},
	{"empty cluster, seed 7", engine.Options{Empty: true, Seed: 7, StreamRolloutStatus: true}, func(t *testing.T, r *engine.Recorder) {
		if err := r.AddNode("w-1", cluster.NodeOptions{ControlPlane: true, CPU: "4", Memory: "8Gi", Pods: "30"}); err != nil {
			t.Fatal(err)
		}
		if err := r.AddNode("w-2", cluster.NodeOptions{}); err != nil {
			t.Fatal(err)
		}
		mustApply(t, r, "agent.yaml", testDS)
		r.Advance(20 * time.Second)
		if err := r.SetNodeCondition("w-2", "MemoryPressure", "True"); err != nil {
			t.Fatal(err)
		}
		r.Advance(3 * time.Second)
	}},
}

func mustApply(t *testing.T, r *engine.Recorder, name, text string) {
	t.Helper()
	if _, err := r.Apply(name, text); err != nil {
		t.Fatal(err)
	}
}

// replay is Replay without the Context.
func replay(rec *engine.Recorder, name string, data []byte) error {
	_, err := Replay(rec, name, data)
	return err
}

// picture is what a learner sees of a Recorder: the clock, every pod
// (name, node, phase), every node's taints, and the timeline's steps.
func picture(r *engine.Recorder) string {
	var b strings.Builder
	live := r.Live()
	fmt.Fprintf(&b, "t=%s\n", live.Elapsed())
	var pods []string
	for _, p := range simstore.Cluster(live).Pods() {
		pods = append(pods, fmt.Sprintf("%s/%s on %q %s %v", p.Namespace, p.Name, p.Spec.NodeName, p.Status.Phase, p.DeletionTimestamp != nil))
	}
	sort.Strings(pods)
	b.WriteString(strings.Join(pods, "\n") + "\n")
	for _, n := range simstore.Cluster(live).Nodes() {
		fmt.Fprintf(&b, "node %s %v %v\n", n.Name, n.Labels, len(n.Spec.Taints))
	}
	for _, d := range simstore.Cluster(live).DaemonSets() {
		fmt.Fprintf(&b, "ds %s %+v %s\n", d.Name, d.Status, d.Spec.Template.Spec.Containers[0].Image)
	}
	for i, st := range r.Steps() {
		fmt.Fprintf(&b, "step %d at %s input %d: %s (%d decisions)\n", i, st.At, st.Input, st.Label, st.NumDecisions)
	}
	return b.String()
}

// An exported session replays to the same picture: pods (names included),
// clock, nodes, DaemonSets and timeline steps.
func TestExportReplaySamePicture(t *testing.T) {
	for _, s := range learners {
		for _, mark := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/markFailures=%v", s.name, mark), func(t *testing.T) {
				r := engine.NewRecorder(s.opts)
				s.do(t, r)
				data := Export(r, ExportOptions{Title: "test", MarkFailures: mark})
				o := ScenarioOptions("test.txtar", data)
				if o.Seed != s.opts.Seed || o.Empty != s.opts.Empty {
					t.Errorf("ScenarioOptions = %+v, want seed %d empty %v", o, s.opts.Seed, s.opts.Empty)
				}
				o.StreamRolloutStatus = true
				r2 := engine.NewRecorder(o)
				if err := replay(r2, "test.txtar", data); err != nil {
					t.Fatalf("replay: %v\n%s", err, data)
				}
				if want, got := picture(r), picture(r2); want != got {
					t.Errorf("the replay differs.\nrecorded:\n%s\nreplayed:\n%s", want, got)
				}
				if len(r2.Inputs()) != len(r.Inputs()) {
					t.Errorf("replay has %d inputs, the recording %d", len(r2.Inputs()), len(r.Inputs()))
				}
				// The archive is a readable scenario: a script and the manifests.
				ar := txtar.Parse(data)
				if !strings.HasPrefix(string(ar.Comment), "# title: test\n") {
					t.Errorf("script starts %q", strings.SplitN(string(ar.Comment), "\n", 2)[0])
				}
				if s.opts.Empty && !strings.Contains(string(ar.Comment), "\ncluster empty\n") {
					t.Errorf("an empty cluster's script lacks `cluster empty`:\n%s", ar.Comment)
				}
				// Without the input log, the script alone (scenario.Replay)
				// reaches the same cluster and clock.
				var noLog txtar.Archive
				noLog.Comment = ar.Comment
				for _, f := range ar.Files {
					if f.Name != InputsFile {
						noLog.Files = append(noLog.Files, f)
					}
				}
				r3 := engine.NewRecorder(o)
				err := replay(r3, "test.txtar", txtar.Format(&noLog))
				if mark && err != nil {
					t.Errorf("the marked script does not replay clean: %v", err)
				}
				if want, got := clusterOnly(picture(r)), clusterOnly(picture(r3)); want != got {
					t.Errorf("the script alone replays to another cluster.\nrecorded:\n%s\nscript:\n%s\n%s", want, got, ar.Comment)
				}
			})
		}
	}
}

// clusterOnly is a picture without its timeline steps.
func clusterOnly(pic string) string {
	var keep []string
	for _, l := range strings.Split(pic, "\n") {
		if !strings.HasPrefix(l, "step ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// The script is scenario.Export's; the input log names only its files.
func TestExportScript(t *testing.T) {
	r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	learners[1].do(t, r)
	ar := txtar.Parse(Export(r, ExportOptions{MarkFailures: true}))
	script := string(ar.Comment)
	for _, want := range []string{
		"# title: DaemonSet Playground session\n",
		"kubectl apply -f manifest.yaml\nadvance 12s\nkubectl label nodes node-2 disk=ssd\nkubectl get pods -o wide\n",
		"node fail node-1\n",
		"registry lacks nginx:9.9\n",
		"kubectl rollout status ds/agent --watch=false\n",
		"advance 1.5s\n",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q:\n%s", want, script)
		}
	}
	n := 0
	for _, f := range ar.Files {
		if f.Name == InputsFile {
			n++
		}
	}
	if n != 1 || ar.Files[len(ar.Files)-1].Name != InputsFile {
		t.Errorf("%s is not the one last file", InputsFile)
	}
	// scenario.Export wrote every text the log needs: no file of ours.
	exported := txtar.Parse(scenario.Export(r, scenario.ExportOptions{}))
	if len(ar.Files) != len(exported.Files)+1 {
		t.Errorf("%d files, scenario.Export wrote %d (+ %s)", len(ar.Files), len(exported.Files), InputsFile)
	}
}

func TestReplayErrors(t *testing.T) {
	r := engine.NewRecorder(engine.Options{})
	mustApply(t, r, manifestFile, testDS)
	good := string(Export(r, ExportOptions{}))
	withNode := engine.NewRecorder(engine.Options{})
	if err := withNode.AddNode("w-1", cluster.NodeOptions{CPU: "4", Labels: map[string]string{"disk": "ssd"}}); err != nil {
		t.Fatal(err)
	}
	node := string(Export(withNode, ExportOptions{}))
	if !strings.Contains(node, `"CPU":"4"`) || !strings.Contains(node, `"disk":"ssd"`) {
		t.Fatalf("the export does not hold the node options as expected:\n%s", node)
	}
	tests := []struct {
		name, data, want string
	}{
		// a link the page could not have made: refused before anything runs
		{"node cpu", strings.Replace(node, `"CPU":"4"`, `"CPU":"abc"`, 1), `input 1 (node add w-1): status.capacity.cpu: Invalid value: "abc": quantities must match`},
		{"node label", strings.Replace(node, `"disk":"ssd"`, `"bad key":"ssd"`, 1), `input 1 (node add w-1): metadata.labels: Invalid value: "bad key"`},
		{"node name", strings.Replace(node, `"name":"w-1"`, `"name":"W 1"`, 1), `metadata.name: Invalid value: "W 1"`},
		{"missing file", strings.Replace(good, "-- manifest.yaml --", "-- other.yaml --", 1), `names the file "manifest.yaml", which the archive lacks`},
		{"bad json", strings.Replace(good, `{"v":1`, `{"v":1,,`, 1), "inputs.json: invalid character"},
		{"version", strings.Replace(good, `{"v":1`, `{"v":9`, 1), "version 9, this page reads version 1"},
		{"unknown kind", strings.Replace(good, `"k":"apply"`, `"k":"teleport"`, 1), `unknown kind "teleport"`},
		{"script: unknown command", "kubectl get pods\nadvance 3s\nteleport node-1\n", "x.txtar:3: unknown command"},
		{"script: bad advance", "advance soon\n", `x.txtar:1: advance wants a duration`},
		{"script: node error", "node fail nosuch\n", "x.txtar:1: "},
		{"script: no commands", "# only a comment\n-- a.yaml --\nx: 1\n", "no commands"},
		{"script: failed assertion", "kubectl get pods\nstdout nothing-like-this\n", "x.txtar:2: no match"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := replay(engine.NewRecorder(engine.Options{}), "x.txtar", []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// A hand-written scenario (no input log) replays command by command.
func TestReplayScript(t *testing.T) {
	data := "# a lesson's setup\ncluster empty\nnode add a --label disk=ssd\nnode add b\nkubectl apply -f agent.yaml\nstdout created\nwait rollout ds/agent\nadvance 30s\nkubectl label nodes b disk=ssd\n-- agent.yaml --\n" + testDS
	o := ScenarioOptions("x.txtar", []byte(data))
	if !o.Empty {
		t.Fatalf("ScenarioOptions missed cluster empty: %+v", o)
	}
	r := engine.NewRecorder(o)
	if err := replay(r, "x.txtar", []byte(data)); err != nil {
		t.Fatal(err)
	}
	if got := r.Live().Elapsed(); got <= 30*time.Second || got > 60*time.Second {
		t.Errorf("clock %s, want 30s after the rollout", got)
	}
	var on []string
	for _, p := range simstore.Cluster(r.Live()).Pods() {
		on = append(on, p.Spec.NodeName)
	}
	sort.Strings(on)
	if strings.Join(on, ",") != "a,b" {
		t.Errorf("agent pods on %v, want a and b", on)
	}
}

// encode is the page's encodeFragment done natively (the page
// compresses with the browser's CompressionStream("deflate-raw"), the
// same RFC 1951 format): base64url without padding of raw DEFLATE.
func encode(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.DefaultCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestFragmentRoundTrip(t *testing.T) {
	r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	learners[1].do(t, r)
	data := Export(r, ExportOptions{})
	frag := encode(t, data)
	if strings.ContainsAny(frag, "+/=#&") {
		t.Errorf("the fragment is not base64url without padding: %q", frag[:40])
	}
	back, err := DecodeFragment(frag)
	if err != nil || string(back) != string(data) {
		t.Fatalf("round trip: %v", err)
	}
	t.Logf("a session of %d inputs: scenario %d bytes, fragment %d characters", len(r.Inputs()), len(data), len(frag))
	if len(frag) > MaxShareFragment {
		t.Errorf("a typical session needs a %d-character fragment, over the %d guard", len(frag), MaxShareFragment)
	}
	for _, tc := range []struct {
		name, frag string
		want       string // in the error; "" for none
		tooBig     bool
	}{
		// the standard alphabet with padding is accepted too
		{name: "standard base64", frag: strings.NewReplacer("-", "+", "_", "/").Replace(frag) + "=="},
		{name: "garbage", frag: "!!!", want: "damaged"},
		{name: "a cut link", frag: frag[:len(frag)/2], want: "damaged"},
		{name: "a bomb", frag: encode(t, make([]byte, MaxScenarioBytes+10)), tooBig: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			back, err := DecodeFragment(tc.frag)
			switch {
			case tc.tooBig:
				if !errors.Is(err, ErrTooBig) {
					t.Errorf("a fragment unpacking past %d bytes: %v", MaxScenarioBytes, err)
				}
			case tc.want != "":
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("error %v, want %q", err, tc.want)
				}
			case err != nil || string(back) != string(data):
				t.Errorf("decoded %d bytes, %v", len(back), err)
			}
		})
	}
}

func TestArchiveName(t *testing.T) {
	used := map[string]bool{"manifest.yaml": true, "manifest.yaml@2": true, "edit.yaml": true}
	for in, want := range map[string]string{"manifest.yaml": "manifest.yaml@3", "new.yaml": "new.yaml", "": "edit.yaml@2", "a b.yaml": "a_b.yaml"} {
		if got := archiveName(in, used); got != want {
			t.Errorf("archiveName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsScenario(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"a.txtar", "kind: x", true},
		{"a.yaml", "-- a --\n", false},
		{"A.YML", "", false},
		{"pasted", "kubectl get pods\n-- a.yaml --\nx: 1\n", true},
		{"pasted", "apiVersion: v1\nkind: Node\n", false},
	} {
		if got := IsScenario(tc.name, tc.text); got != tc.want {
			t.Errorf("IsScenario(%q, %q) = %v", tc.name, tc.text, got)
		}
	}
}

// The YAML export holds the learner's objects without what the API server
// sets, and applies to a fresh cluster to the same objects.
func TestObjectsYAML(t *testing.T) {
	r := engine.NewRecorder(engine.Options{})
	mustApply(t, r, manifestFile, testDS)
	r.Run("kubectl label nodes node-2 disk=ssd")
	r.Run("kubectl taint nodes node-1 k=v:NoSchedule")
	r.Advance(20 * time.Second)
	y := ObjectsYAML(r.Live())
	for _, bad := range []string{"\nstatus:", "uid:", "resourceVersion:", "creationTimestamp:", "managedFields", "timeAdded", "podCIDR", "deprecated.daemonset.template.generation", "last-applied-configuration"} {
		if strings.Contains(y, bad) {
			t.Errorf("the export holds %q:\n%s", bad, y)
		}
	}
	for _, tc := range []struct {
		kind string
		want int
	}{{"DaemonSet", 1}, {"Node", 3}, {"Pod", 0}} {
		if n := strings.Count(y, "\nkind: "+tc.kind+"\n"); n != tc.want {
			t.Errorf("%d %ss exported, want %d (a DaemonSet's pods are not exported)", n, tc.kind, tc.want)
		}
	}
	fresh := engine.New(engine.Options{})
	if _, err := fresh.Apply("objects.yaml", y); err != nil {
		t.Fatalf("the export does not apply: %v\n%s", err, y)
	}
	fresh.Advance(20 * time.Second)
	n2 := simstore.Cluster(fresh).Nodes()[2]
	if n2.Labels["disk"] != "ssd" {
		t.Errorf("node-2's label was not carried over: %v", n2.Labels)
	}
	if ds := simstore.Cluster(fresh).DaemonSets(); len(ds) != 1 || ds[0].Status.DesiredNumberScheduled != 1 {
		t.Errorf("the re-applied DaemonSet: %+v (want 1 desired: node-1 is tainted, control-plane too)", ds)
	}
}

// Typical sessions fit in a link (the figures are logged: go test -v).
func TestTypicalFragmentSizes(t *testing.T) {
	example := examples.Manifests()[0].Text
	tests := []struct {
		name string
		do   func(r *engine.Recorder)
	}{
		{"the page at load, 30 s later", func(r *engine.Recorder) {
			r.SetFile(manifestFile, example)
			r.Apply(manifestFile, example)
			r.Advance(30 * time.Second)
		}},
		{"the example, ds-demo, 5 kubectl commands, 2 node actions", func(r *engine.Recorder) {
			r.SetFile(manifestFile, example)
			r.Apply(manifestFile, example)
			r.Advance(10 * time.Second)
			r.SetFile(manifestFile, testDS)
			r.Apply(manifestFile, testDS)
			for _, c := range []string{"get pods -o wide", "label nodes node-2 disk=ssd", "taint nodes node-1 k=v:NoExecute", "set image ds/agent agent=busybox:1.37", "rollout status ds/agent"} {
				r.Run("kubectl " + c)
				r.Advance(7 * time.Second)
			}
			r.FailNode("node-2")
			r.Advance(60 * time.Second)
			r.RecoverNode("node-2")
			r.Advance(10 * time.Second)
		}},
		{"100 nodes added (dsplay.addNodes)", func(r *engine.Recorder) {
			r.SetFile(manifestFile, example)
			r.Apply(manifestFile, example)
			r.Apply("w-nodes.yaml", NodesManifest("w", 100))
			r.Advance(30 * time.Second)
		}},
	}
	for _, tc := range tests {
		r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
		tc.do(r)
		data := Export(r, ExportOptions{})
		frag := encode(t, data)
		t.Logf("%s: %d inputs, scenario %d bytes, fragment %d characters", tc.name, len(r.Inputs()), len(data), len(frag))
		if len(frag) > MaxShareFragment {
			t.Errorf("%s: %d characters, over the %d guard", tc.name, len(frag), MaxShareFragment)
		}
	}
}

// A scenario exported with a context (an exercise or lesson open, the
// editor's text) gives it back from its replay, and names it in the
// script's header; one without gives nothing back (old links open as
// before).
func TestShareContextRoundTrip(t *testing.T) {
	cases := []struct {
		name   string
		ctx    *Context
		header string
	}{
		{"exercise", &Context{Exercise: "03-ssd-nodes", EditorText: "kind: DaemonSet # mine\n"}, "# exercise: 03-ssd-nodes"},
		{"lesson", &Context{Lesson: "01-one-pod-per-node", Step: 2}, "# lesson: 01-one-pod-per-node step 2"},
		{"editor only", &Context{EditorText: testDS}, ""},
		{"none", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
			learners[1].do(t, r)
			data := Export(r, ExportOptions{Context: tc.ctx})
			if tc.header != "" && !strings.Contains(string(txtar.Parse(data).Comment), tc.header+"\n") {
				t.Errorf("the script's header lacks %q:\n%s", tc.header, txtar.Parse(data).Comment)
			}
			back := engine.NewRecorder(ScenarioOptions("x.txtar", data))
			got, err := Replay(back, "x.txtar", data)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ctx == nil {
				if got != nil {
					t.Errorf("a scenario without a context gave back %+v", *got)
				}
				if strings.Contains(string(data), `"ctx"`) {
					t.Errorf("a scenario without a context records one")
				}
				return
			}
			if got == nil {
				t.Fatal("no context from the replay")
			}
			want := *tc.ctx
			if got.Exercise != want.Exercise || got.Lesson != want.Lesson || got.Step != want.Step || got.EditorText != want.EditorText {
				t.Errorf("context back %+v, want %+v", *got, want)
			}
		})
	}
}

// A context whose replay fails is not given back (the page keeps its
// cluster and opens nothing).
func TestShareContextNotAfterFailedReplay(t *testing.T) {
	r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	learners[1].do(t, r)
	data := Export(r, ExportOptions{Context: &Context{Exercise: "03-ssd-nodes"}})
	ar := txtar.Parse(data)
	for i, f := range ar.Files {
		if f.Name == InputsFile {
			ar.Files[i].Data = []byte(strings.Replace(string(f.Data), `"at":`, `"at":1`, 1))
		}
	}
	bad := txtar.Format(ar)
	c, err := Replay(engine.NewRecorder(ScenarioOptions("x.txtar", bad)), "x.txtar", bad)
	if err == nil {
		t.Fatal("a log whose clock disagrees replayed")
	}
	if c != nil {
		t.Errorf("the context %+v was given back after a failed replay", *c)
	}
}
