package session

import "strings"

// The embed's URL parameters and postMessage arguments (embed.html in a
// tutorial's iframe; see site/README.md).

// DefaultPanes are the panes an embed (embed.html) shows without `panes=`.
var DefaultPanes = []string{"cluster", "console"}

// PaneNames are the pane names `panes=` takes ("kubectl" is a synonym of
// "console", "log" of "decisions").
var PaneNames = map[string]string{
	"editor": "editor", "cluster": "cluster", "console": "console", "kubectl": "console",
	"timeline": "timeline", "decisions": "decisions", "log": "decisions",
}

// ParsePanes turns `panes=` values into pane names, in the page's order,
// without duplicates; unknown names are returned apart. No value gives the
// default panes.
func ParsePanes(vals []string) (panes, unknown []string) {
	seen := map[string]bool{}
	for _, v := range vals {
		p, ok := PaneNames[strings.ToLower(v)]
		if !ok {
			unknown = append(unknown, v)
			continue
		}
		seen[p] = true
	}
	for _, p := range []string{"editor", "cluster", "timeline", "console", "decisions"} {
		if seen[p] {
			panes = append(panes, p)
		}
	}
	if len(panes) == 0 {
		panes = DefaultPanes
	}
	return panes, unknown
}

// MaxStepSeconds caps one dsplay:step (a long step freezes the page).
const MaxStepSeconds = 3600

// MinStepSeconds is the shortest dsplay:step (1 ms, the share log's unit:
// a shorter one would move the clock by nothing).
const MinStepSeconds = 0.001

// StepSecondsOK reports whether a dsplay:step's seconds are taken: from
// MinStepSeconds to MaxStepSeconds (NaN and ±Inf are not).
func StepSecondsOK(s float64) bool { return s >= MinStepSeconds && s <= MaxStepSeconds }

// StorageFrame is where a page runs, as far as its saved state goes: the
// facts StoragePrefix decides on.
type StorageFrame struct {
	// Framed: the page is in a frame (window.parent is another window);
	// Parent is then the parent's origin as the browser reports it
	// (location.ancestorOrigins, else the referrer's), "" when unknown.
	Framed bool
	Parent string
	// Own is the page's own origin; Embed is embed mode (embed.html,
	// ?embed); Drive is an `origin=` parameter given (any value): another
	// origin may drive the page through postMessage.
	Own          string
	Embed, Drive bool
}

// StoragePrefix is the prefix of the localStorage keys a page keeps the
// learner's state under (its kubectl history, lesson progress), ok false
// when it keeps nothing (the state lasts as long as the page):
//
//   - the full site, top-level and driven by no other origin: "dsplay."
//     (dsplay.kubectl.history, dsplay.progress.v1);
//   - a framed page (an embed, or any page in a frame): its own
//     partition, by the embedding origin: "dsplay.embed[ORIGIN]."; none
//     when that origin is unknown or opaque ("null");
//   - a top-level page opened with `origin=` (a popup a site drives):
//     none;
//   - a top-level embed (embed.html opened by itself):
//     "dsplay.embed[OWN]."
//
// So a page another origin can drive never reads what the learner did on
// the full site, and embeds on two sites never read each other's.
func StoragePrefix(f StorageFrame) (prefix string, ok bool) {
	switch {
	case f.Framed:
		if f.Parent == "" || f.Parent == "null" {
			return "", false
		}
		return "dsplay.embed[" + f.Parent + "].", true
	case f.Drive:
		return "", false
	case f.Embed:
		return "dsplay.embed[" + f.Own + "].", true
	}
	return "dsplay.", true
}
