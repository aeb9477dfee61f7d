package session

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// Share links and scenario files.
//
// A session's whole state is its Recorder's input log (engine.Recorder:
// the engine is deterministic, so the Options and the inputs give back the
// same cluster, pod names, clock and timeline). Export writes it with
// scenario.Export (a script `dsplay run` runs, the manifests as files) and
// adds the file InputsFile, the input log itself, which Replay replays
// input for input (the timeline comes back step for step, whatever the
// script's commands would do on another Recorder); a scenario without it
// (written by hand, or by `dsplay`) is replayed with scenario.ReplayContext.
//
// A share link is location.origin + pathname + "#s=" + base64url(raw
// DEFLATE(scenario)) (RFC 1951), without padding. The page compresses
// with the browser's CompressionStream("deflate-raw"); DecodeFragment
// decompresses with Go's compress/flate (synchronous, so a link opens
// without waiting). The fragment never reaches a server.

// InputsFile is the archive file holding the exact input log (JSON, see
// Log); the script's files hold the manifests it names.
const InputsFile = ".dsplay/inputs.json"

// LogVersion is the version of the Log format written (Log.V).
const LogVersion = 1

// MaxShareFragment is the longest share fragment put in a link
// (characters after "#s="); a longer state is offered as a file instead.
// Browsers take far longer URLs (Chromium 2 MB), but chat tools, mail
// clients and some servers' logs cut them around 8 KB.
const MaxShareFragment = 8000

// MaxScenarioBytes bounds a decompressed share fragment (1 MiB, the
// editor's own cap): a small link cannot unpack into a huge allocation.
const MaxScenarioBytes = 1 << 20

// Log is InputsFile's content: the Recorder's Options and its inputs.
type Log struct {
	V     int        `json:"v"`
	Seed  int64      `json:"seed,omitempty"`
	Empty bool       `json:"empty,omitempty"`
	At    float64    `json:"at"` // the live clock when exported, seconds of virtual time (a check on replay)
	In    []LogInput `json:"in"`
	// Ctx is what the page had open when the state was shared (absent in
	// links made before it was recorded: those open as before).
	Ctx *Context `json:"ctx,omitempty"`
	// Build and Kubernetes are the playground's Build and
	// engine.KubernetesVersion that wrote the log (absent in older logs):
	// a page of another build says so when it opens it (MadeBy).
	Build      string `json:"build,omitempty"`
	Kubernetes string `json:"kubernetes,omitempty"`
}

// MadeBy returns the Build and the Kubernetes release that wrote a
// scenario's input log ("" where the scenario has no log, or the log does
// not record them).
func MadeBy(data []byte) (build, kubernetes string) {
	for _, f := range txtar.Parse(data).Files {
		if f.Name == InputsFile {
			var lg Log
			if json.Unmarshal(f.Data, &lg) == nil {
				return lg.Build, lg.Kubernetes
			}
		}
	}
	return "", ""
}

// MadeByNote is what a page of build build says when it opens a scenario
// written by another build or release (MadeBy), or "" when it need say
// nothing (the same build, or a log that does not say).
func MadeByNote(data []byte, build string) string {
	b, k := MadeBy(data)
	switch {
	case k != "" && k != engine.KubernetesVersion:
		return fmt.Sprintf("It was made by a playground that behaves as Kubernetes %s; this one behaves as %s: the same inputs are replayed, and what they do follows %s.", k, engine.KubernetesVersion, engine.KubernetesVersion)
	case b != "" && b != build:
		return fmt.Sprintf("It was made by another build of the playground (%s; this page is %s): the same inputs are replayed, and where the playground changed since, what they do may differ.", b, build)
	}
	return ""
}

// Context is what a share link or an exported scenario records besides
// the cluster: the exercise or lesson open (its file's ID; for a lesson
// the step shown, 0 the introduction) and the editor's text (the archive
// file Editor). Replay returns it; the page then opens the exercise on the
// replayed cluster, without running its setup again (the replay holds
// it), and checks its goal; a lesson opens at that step.
type Context struct {
	Exercise string `json:"exercise,omitempty"`
	Lesson   string `json:"lesson,omitempty"`
	Step     int    `json:"step,omitempty"`
	// Editor is the archive file holding the editor's text.
	Editor string `json:"editor,omitempty"`
	// EditorText is the editor's text (Editor's content): given to
	// Export, filled in by Replay.
	EditorText string `json:"-"`
}

// LogInput is one engine.Input, compactly: a manifest, file or edit text
// is the archive file F (the file scenario.Export wrote with that text, or
// one Export adds), a duration is in milliseconds of virtual time.
type LogInput struct {
	K    engine.InputKind     `json:"k"`
	Ms   int64                `json:"ms,omitempty"`
	Line string               `json:"line,omitempty"`
	Name string               `json:"name,omitempty"`
	NS   string               `json:"ns,omitempty"`
	F    string               `json:"f,omitempty"`
	Node *cluster.NodeOptions `json:"node,omitempty"`
	Type string               `json:"type,omitempty"`
	St   string               `json:"status,omitempty"`
	Rdy  bool                 `json:"ready,omitempty"`
	Refs []string             `json:"refs,omitempty"`
	Edit int                  `json:"edit,omitempty"`
}

// ErrTooBig is DecodeFragment's error for a fragment unpacking to more
// than MaxScenarioBytes.
var ErrTooBig = fmt.Errorf("the shared scenario unpacks to more than %d KiB", MaxScenarioBytes>>10)

// DecodeFragment returns the scenario a share fragment (the text after
// "#s=") holds: base64url without padding of its raw DEFLATE compression.
// Padding and the standard alphabet's + and / are accepted too (a link
// retyped or re-encoded). Errors: "the link is damaged (...)", or
// ErrTooBig.
func DecodeFragment(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	s = strings.NewReplacer("+", "-", "/", "_").Replace(s)
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (base64: %v)", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, MaxScenarioBytes+1))
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (deflate: %v)", err)
	}
	if len(out) > MaxScenarioBytes {
		return nil, ErrTooBig
	}
	return out, nil
}
