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
