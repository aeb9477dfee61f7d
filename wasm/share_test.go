//go:build js && wasm

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// The share link's formats, replay and limits are tested natively in
// engine/session; what is tested here needs the browser (or Node): the
// fragment's compression through CompressionStream, and the page's
// parsing of its URL.

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

// testSession is a learner's session: the editor's manifest applied, a
// console command, a node added, 30 s of virtual time.
func testSession(t *testing.T) *engine.Recorder {
	t.Helper()
	r := engine.NewRecorder(engine.Options{StreamRolloutStatus: true})
	r.SetFile(manifestFile, testDS)
	if _, err := r.Apply(manifestFile, testDS); err != nil {
		t.Fatal(err)
	}
	r.Run("kubectl label nodes node-2 disk=ssd")
	r.Apply("w-nodes.yaml", addNodesYAML("w", 3))
	r.Advance(30 * time.Second)
	return r
}

// The fragment the browser's compressor makes is base64url without
// padding, and session.DecodeFragment (Go's compress/flate) gives the
// scenario back; its size stays under the link's guard.
func TestEncodeFragment(t *testing.T) {
	for _, tc := range []struct {
		name string
		data func(t *testing.T) []byte
	}{
		{"a session", func(t *testing.T) []byte { return exportScenario(testSession(t), "", false) }},
		{"empty", func(*testing.T) []byte { return nil }},
		{"1 MiB of zeros", func(*testing.T) []byte { return make([]byte, session.MaxScenarioBytes) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data(t)
			frag := encodeSync(t, data)
			if strings.ContainsAny(frag, "+/=#&") {
				t.Errorf("the fragment is not base64url without padding: %q", frag[:min(40, len(frag))])
			}
			back, err := session.DecodeFragment(frag)
			if err != nil || string(back) != string(data) {
				t.Fatalf("round trip: %v (%d bytes back of %d)", err, len(back), len(data))
			}
			t.Logf("scenario %d bytes, fragment %d characters", len(data), len(frag))
			if len(frag) > session.MaxShareFragment {
				t.Errorf("a %d-character fragment, over the %d guard", len(frag), session.MaxShareFragment)
			}
		})
	}
}

// encodeSync waits for encodeFragment (CompressionStream runs in a later task).
func encodeSync(t *testing.T, data []byte) string {
	t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	encodeFragment(data, func(s string, err error) { ch <- res{s, err} })
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.s
	case <-time.After(10 * time.Second):
		t.Fatal("CompressionStream never finished")
	}
	return ""
}

// hasFragment tells a share link's fragment (session.FragmentParam is
// tested natively, as are the cases of isScenario, session.IsScenario).
func TestHasFragment(t *testing.T) {
	if hasFragment("#s=") || !hasFragment("#s=a") {
		t.Errorf("hasFragment")
	}
}
