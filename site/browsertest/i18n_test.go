package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The language switch: the page's chrome in 简体中文, remembered across a
// reload, and kubectl's output exactly as in English.
func TestLanguageSwitch(t *testing.T) {
	p := open(t, "?paused")
	p.advance(12)
	enOut, _ := p.lastOutputOf("kubectl get nodes")
	if got := eval[string](p, `document.getElementById("cluster-title").textContent`); got != "Cluster" {
		t.Errorf("English page: cluster title %q", got)
	}
	if err := chromedp.Do(p.ctx, chromedp.SetValue(chromedp.ID("lang"), "zh-CN"), chromedp.Evaluate[chromedp.Void](`document.getElementById("lang").dispatchEvent(new Event("change"))`)); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"cluster-title": "集群", "editor-title": "清单", "apply": "应用", "play": "播放", "log-title": "决策"} {
		if got := eval[string](p, `document.getElementById("`+id+`").textContent`); got != want {
			t.Errorf("#%s in 简体中文: %q, want %q", id, got, want)
		}
	}
	if got := eval[string](p, `document.documentElement.lang`); got != "zh-CN" {
		t.Errorf("<html lang> %q", got)
	}
	zhOut, _ := p.lastOutputOf("kubectl get nodes")
	if zhOut != enOut || !strings.Contains(zhOut, "STATUS") {
		t.Errorf("kubectl output changed with the language:\nen %q\nzh %q", enOut, zhOut)
	}
	p.screenshot("i18n-zh")
	p.reload()
	if got := eval[string](p, `document.getElementById("cluster-title").textContent`); got != "集群" {
		t.Errorf("after a reload: %q, want the remembered 简体中文", got)
	}
	p.viewport(390, 844)
	p.frames(3)
	p.screenshot("i18n-zh-phone")
	if w := eval[float64](p, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 1 {
		t.Errorf("the page scrolls sideways by %v px on a phone in 简体中文", w)
	}
	p.checkConsole()
}

// lastOutputOf runs line in the console and returns its stdout and stderr.
func (p *page) lastOutputOf(line string) (stdout, stderr string) {
	p.t.Helper()
	p.runKubectl(line)
	return p.lastOutput()
}
