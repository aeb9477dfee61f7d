//go:build js && wasm

package main

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
)

// A scenario exported with a context (an exercise or lesson open, the
// editor's text) gives it back after its replay, and names it in the
// script's header; one without gives nothing back (old links open as
// before).
func TestShareContextRoundTrip(t *testing.T) {
	defer func(f func(*engine.Recorder, shareContext)) { afterReplay = f }(afterReplay)
	cases := []struct {
		name   string
		ctx    *shareContext
		header string
	}{
		{"exercise", &shareContext{Exercise: "03-ssd-nodes", editorText: "kind: DaemonSet # mine\n"}, "# exercise: 03-ssd-nodes"},
		{"lesson", &shareContext{Lesson: "01-one-pod-per-node", Step: 2}, "# lesson: 01-one-pod-per-node step 2"},
		{"editor only", &shareContext{editorText: testDS}, ""},
		{"none", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
			sessions[1].do(t, r)
			data := exportScenarioCtx(r, "", false, tc.ctx)
			if tc.header != "" && !strings.Contains(string(txtar.Parse(data).Comment), tc.header+"\n") {
				t.Errorf("the script's header lacks %q:\n%s", tc.header, txtar.Parse(data).Comment)
			}
			var got *shareContext
			var on *engine.Recorder
			afterReplay = func(rec *engine.Recorder, c shareContext) { got, on = &c, rec }
			back := engine.NewRecorder(scenarioOptions("x.txtar", data))
			if err := replayScenario(back, "x.txtar", data); err != nil {
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
			if got == nil || on != back {
				t.Fatalf("no context after the replay (on %p, want %p)", on, back)
			}
			want := *tc.ctx
			if got.Exercise != want.Exercise || got.Lesson != want.Lesson || got.Step != want.Step || got.editorText != want.editorText {
				t.Errorf("context back %+v, want %+v", *got, want)
			}
		})
	}
}

// A context whose replay fails is not given back (the page keeps its
// cluster and opens nothing).
func TestShareContextNotAfterFailedReplay(t *testing.T) {
	defer func(f func(*engine.Recorder, shareContext)) { afterReplay = f }(afterReplay)
	called := false
	afterReplay = func(*engine.Recorder, shareContext) { called = true }
	r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	sessions[1].do(t, r)
	data := exportScenarioCtx(r, "", false, &shareContext{Exercise: "03-ssd-nodes"})
	ar := txtar.Parse(data)
	for i, f := range ar.Files {
		if f.Name == inputsFile {
			ar.Files[i].Data = []byte(strings.Replace(string(f.Data), `"at":`, `"at":1`, 1))
		}
	}
	bad := txtar.Format(ar)
	if err := replayScenario(engine.NewRecorder(scenarioOptions("x.txtar", bad)), "x.txtar", bad); err == nil {
		t.Fatal("a log whose clock disagrees replayed")
	}
	if called {
		t.Error("the context was given back after a failed replay")
	}
}
