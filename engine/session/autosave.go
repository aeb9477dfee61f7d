package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// Autosave: the page keeps its session in the browser's storage as the
// learner works, so a reload, a closed tab or a crash gives it back
// exactly (same pods, names and clock: the Recorder's input log replayed,
// as a share link is). Two records are kept, each a Saved as JSON:
// the page's current session, and the learner's own cluster while
// something (a lesson, a share link, an import) is opened over it
// (Aside). This file holds the records' format and the decisions taken on
// them; storage itself is the page's (wasm/autosave.go).

// SavedVersion is the version of the Saved format written (Saved.V).
const SavedVersion = 1

// Saved is one autosave record.
type Saved struct {
	V int `json:"v"`
	// Build is the Build of the page that wrote it.
	Build string `json:"build,omitempty"`
	// Tab identifies the browser tab that wrote it (a random token the
	// page makes at load): a tab that sees another tab's record stops
	// saving over it (Claimed).
	Tab string `json:"tab"`
	// SavedAt is when it was written, in wall-clock milliseconds since the
	// Unix epoch (Date.now()).
	SavedAt float64 `json:"savedAt"`
	// Origin is OriginKey of the address the page had when it saved: a
	// reload of that address gives back this session rather than opening
	// the address's link or lesson anew.
	Origin string `json:"origin,omitempty"`
	// Clock is the session's virtual time at the save, in seconds, and
	// Inputs its number of inputs (for the page's notes).
	Clock  float64 `json:"clock"`
	Inputs int     `json:"inputs"`
	// Work says the session holds an action of the learner's (HasWork):
	// only such a session is kept aside when an address opens something
	// over it.
	Work bool `json:"work,omitempty"`
	// Scenario is the session as Export writes it (with its Context: the
	// editor's text and the lesson or exercise open).
	Scenario string `json:"scenario"`
}

// MaxSavedBytes bounds a record the page writes: the scenario cap
// (MaxScenarioBytes) plus room for the fields around it. A longer
// session is not saved, and the page says so.
const MaxSavedBytes = MaxScenarioBytes + 4096

// ErrSavedTooBig is EncodeSaved's error for a record over MaxSavedBytes.
var ErrSavedTooBig = fmt.Errorf("the session is longer than %d KiB: download it as a scenario to keep it", MaxScenarioBytes>>10)

// EncodeSaved returns s as JSON, with V set to SavedVersion. Errors:
// ErrSavedTooBig.
func EncodeSaved(s Saved) (string, error) {
	s.V = SavedVersion
	b, err := json.Marshal(s)
	if err != nil {
		return "", err
	}
	if len(b) > MaxSavedBytes {
		return "", ErrSavedTooBig
	}
	return string(b), nil
}

// DecodeSaved reads a record EncodeSaved wrote. Errors say what is wrong
// with it ("not a saved session (...)", another version, no scenario);
// the page then keeps the text aside rather than lose it.
func DecodeSaved(text string) (Saved, error) {
	var s Saved
	if len(text) > MaxSavedBytes {
		return Saved{}, errors.New("the saved session is larger than this page reads")
	}
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return Saved{}, fmt.Errorf("not a saved session (%v)", err)
	}
	switch {
	case s.V != SavedVersion:
		return Saved{}, fmt.Errorf("a saved session of format %d; this page reads format %d", s.V, SavedVersion)
	case strings.TrimSpace(s.Scenario) == "":
		return Saved{}, errors.New("the saved session holds no scenario")
	}
	return s, nil
}

// OriginKey is what an address asks the page to open, as a short key: ""
// when it asks for nothing (the page then restores its saved session, or
// opens the default example), else a hash of the share fragment (#s=...)
// or of the query's lesson, exercise, example and yaml parameters.
// search and hash are location.search and location.hash. Other parameters
// (paused, instant, compare, ...) do not change what is opened.
func OriginKey(search, hash string) string {
	if v, ok := FragmentParam(hash, "s"); ok && v != "" {
		return "s:" + shortHash(v)
	}
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		return ""
	}
	var parts []string
	for _, k := range []string{"lesson", "exercise", "example", "yaml"} {
		if vs, ok := q[k]; ok && len(vs) > 0 {
			parts = append(parts, k+"="+vs[0])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "q:" + shortHash(strings.Join(parts, "&"))
}

// FragmentParam returns the value of key in a URL fragment of the form
// "#k=v&k2=v2" ("" and false when absent).
func FragmentParam(hash, key string) (string, bool) {
	for _, part := range strings.Split(strings.TrimPrefix(hash, "#"), "&") {
		if k, v, ok := strings.Cut(part, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// shortHash is a 64-bit FNV-1a of s in hex: an address's key without
// storing the (up to 8 KB) share fragment a second time.
func shortHash(s string) string {
	h := fnv.New64a()
	h.Write([]byte(s))
	return strconv.FormatUint(h.Sum64(), 16)
}

// RestorePlan is what the page does at load with its saved session.
type RestorePlan int

const (
	// OpenAddress: no saved session to give back; the page opens what
	// its address asks for (or the default example).
	OpenAddress RestorePlan = iota
	// RestoreSaved: the saved session is the page's (a reload, or the
	// page opened with an address that asks for nothing).
	RestoreSaved
	// KeepAndOpenAddress: the address asks for something else; the saved
	// session, which holds the learner's work, is kept as their own
	// cluster (offered back with "Restore my cluster") and the address is
	// opened.
	KeepAndOpenAddress
)

// PlanRestore decides what a page loaded at an address with origin key
// origin (OriginKey) does with its saved session cur (nil: none), given
// whether it already keeps the learner's own cluster aside (ownKept).
func PlanRestore(origin string, cur *Saved, ownKept bool) RestorePlan {
	switch {
	case cur == nil:
		return OpenAddress
	case origin == "" || origin == cur.Origin:
		return RestoreSaved
	case cur.Work && !ownKept:
		return KeepAndOpenAddress
	default:
		// what was opened over the learner's own cluster (kept already),
		// or a session without work of theirs, gives way to the address
		return OpenAddress
	}
}

// Claimed reports whether a record another writer put in storage (other)
// takes the slot from this tab (tab): it was written by another tab. The
// page then stops saving over it, says so, and offers to save this tab's
// session instead.
func Claimed(other *Saved, tab string) bool {
	return other != nil && other.Tab != "" && other.Tab != tab
}

// Build is the playground's build: the VCS revision the binary was built
// from (12 hex digits, "+dirty" when the tree had changes), or "dev"
// when the build recorded none.
func Build() string {
	buildOnce.Do(func() {
		build = "dev"
		info, ok := debug.ReadBuildInfo()
		if !ok {
			return
		}
		var rev, modified string
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev == "" {
			return
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		build = rev
		if modified == "true" {
			build += "+dirty"
		}
	})
	return build
}

var (
	buildOnce sync.Once
	build     string
)
