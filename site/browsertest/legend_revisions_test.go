package browsertest

import (
	"strings"
	"testing"
)

// legendTags is a JS expression: the revision tags the legend shows ("" when hidden).
const legendTags = `(function(){ const b = document.getElementById("legend-rev"); return b.hidden ? "" : [...b.querySelectorAll(".rev-tag")].map(e => e.textContent).join(" "); })()`

// The legend's revision key follows the cluster: a new cluster (a lesson
// opened) without a DaemonSet shows none of the old cluster's revisions.
func TestLegendRevisionsFollowTheCluster(t *testing.T) {
	p := open(t, "?paused")
	p.advance(10)
	p.runKubectl("kubectl set image ds/fluentd-elasticsearch fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0")
	p.advance(1)
	p.waitJS(legendTags+` === "r2 r1"`, "the legend to show r2 and the outdated r1")
	if msg := eval[string](p, `dsplay.openLesson("01-one-pod-per-node")`); msg != "" {
		t.Fatalf("openLesson: %s", msg)
	}
	p.frames(3)
	if n := eval[int](p, `document.querySelectorAll("#ds-rows tr[data-ds]").length`); n != 0 {
		t.Fatalf("the lesson's introduction shows %d DaemonSets, want none", n)
	}
	if got := eval[string](p, legendTags); got != "" {
		t.Errorf("with no DaemonSet the legend shows %q", got)
	}
	// the lesson's first step applies a DaemonSet: the key shows its revision only
	p.click(`#lesson-nav button[data-act=next]`)
	p.waitJS(`!dsplay.lessonState().busy`, "the step")
	p.frames(3)
	if got := eval[string](p, legendTags); strings.TrimSpace(got) != "r1" {
		t.Errorf("after the lesson's first step the legend shows %q, want r1", got)
	}
	p.checkConsole()
}
