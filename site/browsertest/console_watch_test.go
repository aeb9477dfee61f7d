package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A watch goes on while the learner types other commands, as a second
// terminal would: `kubectl get pods -w`, then a delete, shows the pod go
// and its replacement come; the delete's output and the watch's last line
// both show in the console. Another watch replaces it; Ctrl+C stops it;
// help says so.
func TestConsoleWatchOutlivesOtherCommands(t *testing.T) {
	p := open(t, "?paused")
	p.viewport(1440, 900)
	p.advance(10)
	p.waitJS(podsOn("node-1", fluentd, "Running")+" === 1", "fluentd Running on node-1")
	pod := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod[data-owner="fluentd-elasticsearch"]').dataset.pod`)
	p.runKubectl("kubectl get pods -w")
	watching := `(document.querySelector("#kout .block.watching") || {textContent: ""}).textContent`
	p.runKubectl("kubectl delete pod " + pod)
	if out, _ := p.lastOutput(); !strings.Contains(out, `pod "`+pod+`" deleted`) {
		// the last block is the watch: find the delete's
		out = eval[string](p, fmt.Sprintf(`[...document.querySelectorAll("#kout .block")].find(b => b.querySelector(".cmd").textContent.includes("delete pod")).textContent`))
		if !strings.Contains(out, `pod "`+pod+`" deleted`) {
			t.Errorf("the delete printed %q", out)
		}
	}
	p.advance(20)
	p.frames(2)
	got := eval[string](p, watching)
	if got == "" {
		t.Fatalf("the watch stopped at the next command\n%s", p.describe())
	}
	if !regexpMatch(pod+`\s+\S+\s+Terminating`, got) {
		t.Errorf("the watch does not show %s Terminating:\n%s", pod, got)
	}
	newPod := eval[string](p, `document.querySelector('.node[data-node="node-1"] .pod:not(.gone)[data-owner="fluentd-elasticsearch"]').dataset.pod`)
	if newPod == pod || !regexpMatch(newPod+`\s+1/1\s+Running`, got) {
		t.Errorf("the watch does not show the new pod %s Running:\n%s", newPod, got)
	}
	// both the delete's output and the watch's newest line are in view
	shown := eval[[]string](p, `(function(){
		const k = document.getElementById("kout").getBoundingClientRect(), out = [];
		const inView = (r) => r.height > 0 && r.top >= k.top - 0.5 && r.bottom <= k.bottom + 0.5;
		const del = [...document.querySelectorAll("#kout .block")].find(b => b.querySelector(".cmd").textContent.includes("delete pod"));
		const s = del.querySelector(".stdout");
		if (!s || !inView(s.getBoundingClientRect())) out.push("the delete's output is out of view");
		const w = document.querySelector("#kout .block.watching"), rg = document.createRange();
		rg.selectNodeContents(w.lastElementChild);
		const rs = [...rg.getClientRects()].filter(r => r.height > 0), last = rs[rs.length - 1];
		const wb = w.getBoundingClientRect();
		if (!last || !inView(last) || last.bottom > wb.bottom + 0.5) out.push("the watch's last line is out of view");
		return out;
	})()`)
	if len(shown) > 0 {
		t.Errorf("%s", strings.Join(shown, "; "))
	}
	// a viewport capture: the watching block's marker never stops moving
	if buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot()); err == nil {
		path := filepath.Join(shotDir, "console-watch-beside-delete.png")
		if err := os.WriteFile(path, buf, 0o644); err == nil {
			t.Logf("screenshot: %s", path)
		}
	}

	// another watch replaces it: one block watches, the first prints no more
	p.runKubectl("kubectl get ds -w")
	if n := eval[int](p, `document.querySelectorAll("#kout .block.watching").length`); n != 1 {
		t.Errorf("%d blocks watch after a second watch, want 1", n)
	}
	first := eval[string](p, `[...document.querySelectorAll("#kout .block")].find(b => b.querySelector(".cmd").textContent === "$ kubectl get pods -w\n").textContent`)
	p.runKubectl("kubectl delete pod " + newPod + " --wait=false")
	p.advance(20)
	if now := eval[string](p, `[...document.querySelectorAll("#kout .block")].find(b => b.querySelector(".cmd").textContent === "$ kubectl get pods -w\n").textContent`); now != first {
		t.Errorf("the replaced watch printed more:\n%s", strings.TrimPrefix(now, first))
	}
	// Ctrl+C stops the watch
	p.key("c", chromedp.ModifierCtrl)
	p.waitJS(`document.querySelector("#kout .block.watching") === null`, "Ctrl+C to stop the watch")
	// help says what stops a watch
	p.runKubectl("help")
	if out, _ := p.lastOutput(); !strings.Contains(out, "Ctrl+C or another watch") {
		t.Errorf("help does not say what stops a watch:\n%s", out[:min(len(out), 1500)])
	}
	p.checkConsole()
}
