package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Watch from the start: the session plays again from an empty cluster on
// the stage — pods appear and animate, virtual time takes wall time — with
// the controls that change the cluster disabled; "Skip to the end" is the
// live cluster. A share link made with "Play it from the start" starts
// the playback for whoever opens it, and its console note offers the same.
func TestWatchFromTheStart(t *testing.T) {
	p := stageReady(t, stageDS("{type: RollingUpdate}", 3))
	p.runKubectl("kubectl taint nodes node-1 dedicated=infra:NoExecute")
	p.advance(10)
	live := eval[float64](p, `dsplay.watchState().live`)
	if msg := eval[string](p, `dsplay.watch()`); msg != "" {
		t.Fatal(msg)
	}
	if !eval[bool](p, `dsplay.watchState().watching && document.getElementById("apply").disabled && document.getElementById("kubectl").disabled`) {
		t.Fatal("watching, but the controls that change the cluster are not disabled")
	}
	if n := eval[int](p, `document.querySelectorAll('#nodes .pod[data-owner="agent"]').length`); n != 0 {
		t.Errorf("the playback starts with %d agent pods: it should start from an empty cluster", n)
	}
	p.waitJS(podAnimations+` > 0`, "animations on the pods as the playback places them")
	start, at0 := time.Now(), eval[float64](p, `dsplay.watchState().at`)
	p.waitJS(fmt.Sprintf(`dsplay.watchState().at >= %g`, at0+3), "the playback clock to move on")
	if d := time.Since(start); d < 1500*time.Millisecond {
		t.Errorf("3 s of the playback took %s of wall time at 1×: it is not watchable", d)
	}
	if got := eval[string](p, `document.getElementById("tl-past-text").textContent`); !strings.HasPrefix(got, "Watching from the start: t = ") {
		t.Errorf("past bar %q", got)
	}
	p.shotNow("watch-from-start")
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("tl-back"))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`!dsplay.watchState().watching && !document.getElementById("apply").disabled`, "the live cluster after Skip to the end")
	if got := eval[float64](p, `dsplay.elapsed()`); got != live {
		t.Errorf("after the playback the clock is at %gs, the live cluster at %gs", got, live)
	}

	// a link that plays itself
	eval[bool](p, `document.getElementById("share-watch").checked = true, true`)
	link := evalAwait[map[string]any](p, `dsplay.shareLink()`)["url"].(string)
	if !strings.HasSuffix(link, "&watch=1") {
		t.Fatalf("share link with Play it from the start: %q", link)
	}
	q := openURL(t, strings.Replace(link, "/#s=", "/?paused#s=", 1))
	q.waitJS(`dsplay.watchState().watching`, "the shared link playing from the start")
	if !eval[bool](q, `[...document.querySelectorAll('#kout .watch-note button')].some(b => b.textContent === "▶ Watch it happen")`) {
		t.Error(`no "Watch it happen" button in the share link's console note`)
	}
	eval[bool](q, `document.getElementById("tl-back").click(), true`)
	q.waitJS(`!dsplay.watchState().watching`, "the playback ended")
	q.checkConsole()
	p.checkConsole()
}
