//go:build js && wasm

package main

import (
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// The page's context (shareContextFor) goes into the exported scenario,
// and comes back to afterReplay once a replay worked, never after one
// that failed. (The format's round trip is tested natively in
// engine/session.)
func TestShareContextHooks(t *testing.T) {
	defer func(f func(*engine.Recorder) *session.Context, g func(*engine.Recorder, session.Context)) {
		shareContextFor, afterReplay = f, g
	}(shareContextFor, afterReplay)
	r := testSession(t)
	shareContextFor = func(rec *engine.Recorder) *session.Context {
		if rec != r {
			return nil
		}
		return &session.Context{Exercise: "03-ssd-nodes", EditorText: "kind: DaemonSet # mine\n"}
	}
	data := exportScenario(r, "", false)
	if !strings.Contains(string(txtar.Parse(data).Comment), "# exercise: 03-ssd-nodes\n") {
		t.Errorf("the script's header lacks the exercise:\n%s", txtar.Parse(data).Comment)
	}
	ar := txtar.Parse(data)
	for i, f := range ar.Files {
		if f.Name == session.InputsFile {
			ar.Files[i].Data = []byte(strings.Replace(string(f.Data), `"at":`, `"at":1`, 1))
		}
	}
	bad := txtar.Format(ar)
	for _, tc := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"replayed", data, true},
		{"a log whose clock disagrees", bad, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *session.Context
			var on *engine.Recorder
			afterReplay = func(rec *engine.Recorder, c session.Context) { got, on = &c, rec }
			back := engine.NewRecorder(session.ScenarioOptions("x.txtar", tc.data))
			err := replayScenario(back, "x.txtar", tc.data)
			if (err == nil) != tc.ok {
				t.Fatalf("replay: %v, want ok %v", err, tc.ok)
			}
			if !tc.ok {
				if got != nil {
					t.Errorf("the context was given back after a failed replay")
				}
				return
			}
			if got == nil || on != back {
				t.Fatalf("no context after the replay (on %p, want %p)", on, back)
			}
			if got.Exercise != "03-ssd-nodes" || got.EditorText != "kind: DaemonSet # mine\n" {
				t.Errorf("context back %+v", *got)
			}
		})
	}
}
