package examples

import (
	"bytes"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/manifest"
	"github.com/dsplayground/dsplay/engine/scenario"
)

// TestEveryManifestListedAndValid keeps the menu in step with the folder
// and checks each manifest decodes and validates.
func TestEveryManifestListedAndValid(t *testing.T) {
	files, err := fs.Glob(manifests, "manifests/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range Manifests() {
		listed["manifests/"+m.File] = true
		if _, err := manifest.Decode(m.File, m.Text); err != nil {
			t.Errorf("%s: %v", m.File, err)
		}
	}
	for _, f := range files {
		if !listed[f] {
			t.Errorf("%s is not listed in order", f)
		}
	}
	if len(listed) != len(files) {
		t.Errorf("order lists %d files, the folder has %d", len(listed), len(files))
	}
}

// TestScenariosCarryTheManifests keeps each scenario's copy of a manifest
// (examples/NAME.txtar's file NAME.yaml, which its commands apply) the same
// as the manifest the editor offers, so the scenarios test what the page
// shows.
func TestScenariosCarryTheManifests(t *testing.T) {
	for _, m := range Manifests() {
		name := strings.TrimSuffix(m.File, ".yaml") + ".txtar"
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Errorf("%s: %v", m.File, err)
			continue
		}
		found := false
		for _, f := range ar.Files {
			if f.Name == m.File {
				found = true
				if string(f.Data) != m.Text {
					t.Errorf("%s's copy of %s differs from manifests/%s", name, m.File, m.File)
				}
			}
		}
		if !found {
			t.Errorf("%s holds no file %s", name, m.File)
		}
	}
}

// runCourseFile parses and runs one lesson or exercise as `dsplay run FILE`
// does (an exercise: setup, goal failing at the start, solution under the
// invariants, goal holding) and fails the test with the transcript when an
// assertion did not hold.
func runCourseFile(t *testing.T, f File) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(f.Name, f.Data)
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	var out bytes.Buffer
	if res := sc.Run(&out); !res.OK() {
		t.Errorf("%s failed:\n%s\n\ntranscript:\n%s", f.Name, strings.Join(res.Failures, "\n"), out.String())
	}
	return sc
}

// checkFiles reports archive files that no command names with -f, so a
// course file carries no dead manifests (a missing one fails the run).
func checkFiles(t *testing.T, f File) {
	t.Helper()
	ar := txtar.Parse(f.Data)
	script := string(ar.Comment)
	for _, file := range ar.Files {
		if !regexp.MustCompile(`(^|\s)-f\s+` + regexp.QuoteMeta(file.Name) + `(\s|$)`).MatchString(script) {
			t.Errorf("%s: file %s is never used (-f %s)", f.Name, file.Name, file.Name)
		}
	}
}

// checkList checks what every lesson or exercise list must satisfy:
// enough files, unique IDs matching the names, and `# order:` values that
// grow with the file names (the gallery's order is the course order).
func checkList(t *testing.T, kind string, fs []File, min int) {
	t.Helper()
	if len(fs) < min {
		t.Errorf("%d %ss, want at least %d", len(fs), kind, min)
	}
	ids := map[string]bool{}
	lastOrder := 0
	for _, f := range fs {
		if ids[f.ID] {
			t.Errorf("duplicate %s ID %s", kind, f.ID)
		}
		ids[f.ID] = true
		if f.Name != kind+"s/"+f.ID+".txtar" {
			t.Errorf("%s %q has name %q", kind, f.ID, f.Name)
		}
		sc, err := scenario.Parse(f.Name, f.Data)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		m := sc.Meta()
		if m.Kind != kind {
			t.Errorf("%s: kind %q, want %q", f.Name, m.Kind, kind)
		}
		if m.Title == "" || m.Summary == "" {
			t.Errorf("%s: want a # title: and a # summary:, got %q, %q", f.Name, m.Title, m.Summary)
		}
		if m.Order <= lastOrder {
			t.Errorf("%s: # order: %d does not come after %d (file names give the course order)", f.Name, m.Order, lastOrder)
		}
		lastOrder = m.Order
		checkFiles(t, f)
	}
}

// isAssertion reports whether a script line is a stdout/stderr assertion or
// an expect line (a check of what the text claims).
func isAssertion(line string) bool {
	w := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "! "))
	return len(w) > 0 && (w[0] == "stdout" || w[0] == "stderr" || w[0] == "expect")
}

// TestLessons runs every lesson as `dsplay run` does and checks its shape:
// at least three steps after the setup, each with a title, an explanation
// of two lines or more, commands, and assertions, so that CI catches a
// lesson whose text the cluster contradicts.
func TestLessons(t *testing.T) {
	ls := Lessons()
	checkList(t, scenario.KindLesson, ls, 9)
	for _, f := range ls {
		t.Run(f.ID, func(t *testing.T) {
			sc := runCourseFile(t, f)
			st := sc.Lesson()
			if len(st) < 4 {
				t.Fatalf("%s: %d steps after the setup, want at least 3", f.Name, len(st)-1)
			}
			for _, s := range st[1:] {
				commands, assertions := 0, 0
				for _, c := range s.Commands {
					if isAssertion(c) {
						assertions++
					} else {
						commands++
					}
				}
				switch {
				case s.Title == "":
					t.Errorf("%s:%d: a step without a title", f.Name, s.Line)
				case strings.Count(strings.TrimSpace(s.Text), "\n") < 1:
					t.Errorf("%s: step %q: explanation %q, want at least 2 lines", f.Name, s.Title, s.Text)
				case commands == 0:
					t.Errorf("%s: step %q has no commands", f.Name, s.Title)
				case assertions == 0:
					t.Errorf("%s: step %q asserts nothing (add stdout/stderr checks for what the text claims)", f.Name, s.Title)
				}
			}
		})
	}
}

// sections returns the exercise headings (`## goal`, ...) of a script,
// lower-cased, with the number of command lines under each.
func sections(data []byte) map[string]int {
	out := map[string]int{}
	cur := "setup"
	for _, line := range strings.Split(string(txtar.Parse(data).Comment), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "## "):
			cur = strings.ToLower(strings.TrimSpace(line[3:]))
			out[cur] += 0
		case line == "" || strings.HasPrefix(line, "#"):
		default:
			out[cur]++
		}
	}
	return out
}

// TestExercises runs every exercise as `dsplay run` does (its goal must fail
// after the setup and hold after the solution, which keeps the always
// invariants) and checks its shape: a task, at least two hints, a setup, a
// goal and a solution.
func TestExercises(t *testing.T) {
	es := Exercises()
	checkList(t, scenario.KindExercise, es, 10)
	for _, f := range es {
		t.Run(f.ID, func(t *testing.T) {
			sc := runCourseFile(t, f)
			m := sc.Meta()
			if m.Task == "" {
				t.Errorf("%s: no # task:", f.Name)
			}
			if len(m.Hints) < 2 {
				t.Errorf("%s: %d hints, want at least 2", f.Name, len(m.Hints))
			}
			sec := sections(f.Data)
			for _, k := range []string{"setup", "goal", "solution"} {
				if sec[k] == 0 {
					t.Errorf("%s: no commands under ## %s", f.Name, k)
				}
			}
			for k := range sec {
				if k != "setup" && k != "goal" && k != "always" && k != "solution" {
					t.Errorf("%s: unknown section ## %s", f.Name, k)
				}
			}
			if sec["always"] > 0 {
				checkInvariantsDuringWaits(t, f)
			}
		})
	}
}

// rolloutStatus is a solution line a learner types to wait for a rollout.
var rolloutStatus = regexp.MustCompile(`(?m)^kubectl rollout status (ds|daemonset|daemonsets)[/ ](\S+)\s*$`)

// checkInvariantsDuringWaits runs the exercise again with every `kubectl
// rollout status ds/NAME` replaced by `wait rollout ds/NAME`, whose every
// virtual second the runner observes the `## always` invariants at (it does
// not inside kubectl's own wait), so that a solution which breaks an
// invariant half-way through its rollout fails here.
func checkInvariantsDuringWaits(t *testing.T, f File) {
	t.Helper()
	data := rolloutStatus.ReplaceAll(f.Data, []byte("wait rollout ds/$2"))
	sc, err := scenario.Parse(f.Name, data)
	if err != nil {
		t.Fatalf("%s (waits): %v", f.Name, err)
	}
	var out bytes.Buffer
	if res := sc.Run(&out); !res.OK() {
		t.Errorf("%s with wait rollout instead of rollout status failed:\n%s\n\ntranscript:\n%s", f.Name, strings.Join(res.Failures, "\n"), out.String())
	}
}

// TestReadmeListsTheCourse keeps examples/README.md's tables in step with
// the lesson and exercise files.
func TestReadmeListsTheCourse(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(Lessons(), Exercises()...) {
		if !strings.Contains(string(b), "| "+f.ID+" |") {
			t.Errorf("README.md does not list %s", f.Name)
		}
	}
}

// TestCoursePlaysOnARecorder plays every lesson and exercise the way the
// page does, through a scenario.Player on an engine.Recorder: each lesson
// step in order, and for an exercise the setup, the goal (not reached yet),
// the solution and the goal again (reached, invariants holding).
func TestCoursePlaysOnARecorder(t *testing.T) {
	for _, f := range append(Lessons(), Exercises()...) {
		t.Run(f.ID, func(t *testing.T) {
			sc, err := scenario.Parse(f.Name, f.Data)
			if err != nil {
				t.Fatal(err)
			}
			rec := engine.NewRecorder(sc.Options())
			p := scenario.NewPlayer(sc, rec)
			if sc.Meta().Kind == scenario.KindLesson {
				for i := 0; i < p.Steps(); i++ {
					if r := p.PlayStep(i); !r.OK() {
						t.Errorf("step %d: %s", i, strings.Join(r.Failures, "\n"))
					}
				}
				return
			}
			if r := p.Setup(); !r.OK() {
				t.Fatalf("setup: %s", strings.Join(r.Failures, "\n"))
			}
			if g := sc.CheckGoal(rec.Live()); g.OK {
				t.Errorf("the goal holds right after the setup")
			}
			iv := sc.Invariants()
			iv.Observe(rec.Live())
			if r := p.Solve(); !r.OK() {
				t.Fatalf("solution: %s", strings.Join(r.Failures, "\n"))
			}
			iv.Observe(rec.Live())
			if g := sc.CheckGoal(rec.Live()); !g.OK {
				for _, c := range g.Failed() {
					t.Errorf("goal after the solution: line %d %s: %s", c.Line, c.Text, c.Detail)
				}
			}
			for _, c := range iv.Violations() {
				t.Errorf("invariant broken: line %d %s: %s", c.Line, c.Text, c.Detail)
			}
		})
	}
}

// wrongSolutions are, per exercise, attempts that miss the task in a way a
// learner might (each a `## solution` replacement): the exercise's goal or
// its invariants must reject every one, so a goal too loose to notice fails
// here. An entry may be a txtar archive: its comment is the solution, its
// files (a learner's own manifest) are added to the exercise's for that run.
var wrongSolutions = map[string][]string{
	"01-control-plane-too": {
		// the old master key only, as the logstash example does
		`kubectl patch ds fluentd-elasticsearch --type=json -p '[{"op":"add","path":"/spec/template/spec/tolerations","value":[{"key":"node-role.kubernetes.io/master","operator":"Exists","effect":"NoSchedule"}]}]'
wait rollout ds/fluentd-elasticsearch`,
		// removing the taint instead of tolerating it
		`kubectl taint nodes control-plane node-role.kubernetes.io/control-plane:NoSchedule-
wait rollout ds/fluentd-elasticsearch`,
	},
	"02-gpu-nodes-only": {
		// the toleration alone: the agent stays on node-1 and node-2 too
		`kubectl patch ds gpu-agent --type=json -p '[{"op":"add","path":"/spec/template/spec/tolerations","value":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]}]'
wait rollout ds/gpu-agent`,
		// the affinity alone: the GPU nodes' taint keeps it away
		`kubectl patch ds gpu-agent --type=json -p '[{"op":"add","path":"/spec/template/spec/affinity","value":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"accelerator","operator":"Exists"}]}]}}}}]'
advance 30s`,
	},
	"03-ssd-nodes": {
		// right nodes, but node-3 left unlabelled
		`kubectl patch ds ssd-monitor --type=json -p '[{"op":"add","path":"/spec/template/spec/affinity","value":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-1"]}]},{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-3"]}]}]}}}}]'
wait rollout ds/ssd-monitor`,
	},
	"04-node-2-keeps-its-pod": {
		// keeping the DaemonSet off node-2 before releasing the pod deletes it
		`kubectl apply -f agent-not-on-node-2.yaml
advance 5s
kubectl label pod legacy-agent app=legacy-agent --overwrite
advance 30s`,
		// a NoSchedule taint keeps legacy-agent, but the DaemonSet still owns it
		`kubectl taint nodes node-2 team=other:NoSchedule
advance 30s`,
	},
	"05-one-node-at-a-time": {
		// the image change alone: 50% of 4 nodes go down at once
		`kubectl set image ds/ds-demo nginx=nginx:1.23.3
wait rollout ds/ds-demo`,
	},
	"06-no-gap-with-maxsurge": {
		// the image change alone: each node is without a pod for a while
		`kubectl set image ds/net-agent proxy=registry.k8s.io/kube-proxy:v1.31.2
wait rollout ds/net-agent`,
	},
	"07-ondelete-canary": {
		// the pod deleted before the template changed comes back with nginx:1.23
		`kubectl delete pod -l name=app --field-selector spec.nodeName=node-1
kubectl set image ds/ds-demo nginx=nginx:1.25
advance 30s`,
		// RollingUpdate updates every node
		`kubectl patch ds ds-demo -p '{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1}}}}'
kubectl set image ds/ds-demo nginx=nginx:1.25
wait rollout ds/ds-demo`,
	},
	"08-undo-broken-rollout": {
		// forward to another version is not back to the one that ran before
		`kubectl set image ds/ds-demo nginx=nginx:1.23.3
wait rollout ds/ds-demo`,
	},
	"09-fix-forward": {
		// going back is not what was asked
		`kubectl rollout undo ds/web-agent
wait rollout ds/web-agent`,
		// dropping the probe finishes the rollout without a probe
		`kubectl patch ds web-agent --type=json -p '[{"op":"remove","path":"/spec/template/spec/containers/0/readinessProbe"}]'
wait rollout ds/web-agent`,
		// containerPort only documents the port: nginx still listens on 80,
		// and the probe still asks 8080
		`kubectl patch ds web-agent --type=json -p '[{"op":"replace","path":"/spec/template/spec/containers/0/ports/0/containerPort","value":8080}]'
advance 120s`,
	},
	"10-surge-with-hostport": {
		// dropping the hostPort lets the surge through, but the port was to be kept
		`kubectl patch ds node-exporter --type=json -p '[{"op":"remove","path":"/spec/template/spec/containers/0/ports/0/hostPort"}]'
wait rollout ds/node-exporter`,
	},
	"11-adopt-orphans": {
		// adopted, then a pod replaced by hand
		`kubectl apply -f ds-demo.yaml
wait rollout ds/ds-demo
kubectl delete pod -l name=app --field-selector spec.nodeName=node-1
wait rollout ds/ds-demo`,
		// orphans deleted and replaced by fresh pods
		`kubectl delete pods -l name=app
kubectl apply -f ds-demo.yaml
wait rollout ds/ds-demo`,
		// a different template with the same image: the adopted pods count as
		// up to date (template generation 1) but do not run it
		`kubectl apply -f ds-demo-env.yaml
advance 30s
-- ds-demo-env.yaml --
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ds-demo
spec:
  selector:
    matchLabels:
      name: app
  template:
    metadata:
      labels:
        name: app
    spec:
      tolerations:
      - key: node-role.kubernetes.io/control-plane
        operator: Exists
        effect: NoSchedule
      containers:
      - name: nginx
        image: nginx:1.23
        env:
        - name: LOG_LEVEL
          value: debug
`,
	},
	"12-drain-keep-daemon": {
		// cordon and delete by hand, the daemon pod included
		`kubectl cordon node-1
kubectl delete pod web
kubectl delete pod -l name=fluentd-elasticsearch --field-selector spec.nodeName=node-1
advance 30s`,
		// the web pod evicted, but the node left schedulable
		`kubectl delete pod web`,
	},
	"13-stay-on-noexecute": {
		// a toleration with tolerationSeconds: evicted again and again
		`kubectl patch ds log-collector --type=json -p '[{"op":"add","path":"/spec/template/spec/tolerations","value":[{"key":"dedicated","operator":"Equal","value":"db","effect":"NoExecute","tolerationSeconds":60}]}]'
wait rollout ds/log-collector`,
		// removing the taint is not allowed: the node stays reserved
		`kubectl taint nodes node-2 dedicated:NoExecute-
wait rollout ds/log-collector`,
	},
}

// TestExercisesRejectWrongSolutions runs each wrongSolutions entry in
// place of the exercise's solution and wants the run to fail.
func TestExercisesRejectWrongSolutions(t *testing.T) {
	ids := map[string]bool{}
	for _, f := range Exercises() {
		ids[f.ID] = true
		ar := txtar.Parse(f.Data)
		script := string(ar.Comment)
		i := strings.Index(strings.ToLower(script), "\n## solution\n")
		if i < 0 {
			t.Errorf("%s: no ## solution", f.Name)
			continue
		}
		files := ar.Files
		for k, wrong := range wrongSolutions[f.ID] {
			extra := txtar.Parse([]byte(wrong))
			ar.Comment = []byte(script[:i] + "\n## solution\n" + string(extra.Comment) + "\n")
			ar.Files = append(append([]txtar.File(nil), files...), extra.Files...)
			sc, err := scenario.Parse(f.Name, txtar.Format(ar))
			if err != nil {
				t.Errorf("%s wrong solution %d: %v", f.Name, k, err)
				continue
			}
			var out bytes.Buffer
			if sc.Run(&out).OK() {
				t.Errorf("%s accepts wrong solution %d:\n%s\n\ntranscript:\n%s", f.Name, k, wrong, out.String())
			}
		}
	}
	for id := range wrongSolutions {
		if !ids[id] {
			t.Errorf("wrongSolutions names %s, which is no exercise", id)
		}
	}
}
