package browsertest

import (
	"fmt"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestScreenshots takes the screenshots a person looks at before a release
// (DSPLAY_SHOTS=1): the default page and the page after applying the
// ds-demo example and tainting node-1, at three window sizes, light and
// dark. The 1440x900 light default is docs/screenshot.png's source.
func TestScreenshots(t *testing.T) {
	if os.Getenv("DSPLAY_SHOTS") == "" {
		t.Skip("DSPLAY_SHOTS=1 takes the release screenshots")
	}
	for _, scheme := range []string{"light", "dark"} {
		for _, vp := range [][2]int64{{1440, 900}, {1280, 720}, {390, 844}} {
			t.Run(fmt.Sprintf("%s-%dx%d", scheme, vp[0], vp[1]), func(t *testing.T) {
				p := open(t, "?paused")
				p.colorScheme(scheme)
				p.viewport(vp[0], vp[1])
				p.advance(10)
				p.runKubectl("kubectl get pods -o wide")
				eval[bool](p, `(function(){ scrollTo(0, 0); document.activeElement.blur(); return true; })()`)
				p.screenshot(fmt.Sprintf("shot-default-%s-%dx%d", scheme, vp[0], vp[1]))
				// ds-demo from the examples menu, applied with the button
				eval[bool](p, `(function(){ const s = document.getElementById("examples"); const o = [...s.options].find(o => /ds-demo/i.test(o.textContent)); s.value = o.value; s.dispatchEvent(new Event("change")); return true; })()`)
				if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.ID("apply"))); err != nil {
					t.Fatal(err)
				}
				p.waitJS(`document.getElementById("apply-result").textContent.includes("created")`, "ds-demo applied")
				p.advance(10)
				p.runKubectl("kubectl taint nodes node-1 dedicated=infra:NoSchedule")
				p.advance(5)
				if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-1"] .node-head`))); err != nil {
					t.Fatal(err)
				}
				p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
				eval[bool](p, `(function(){ scrollTo(0, 0); return true; })()`)
				p.screenshot(fmt.Sprintf("shot-dsdemo-%s-%dx%d", scheme, vp[0], vp[1]))
				p.checkConsole()
			})
		}
	}
}
