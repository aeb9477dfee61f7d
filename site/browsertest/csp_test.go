package browsertest

import (
	"context"
	"strings"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dsplayground/dsplay/site/web"
)

// cspListener records every securitypolicyviolation of a document (and its
// frames) from before its first script: DevTools adds it to each new
// document, outside the page's policy.
const cspListener = `window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
	window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " + e.sourceFile + ":" + e.lineNumber + " (" + (e.sample || "") + ")");
}, true);`

// watchCSP makes the tab record CSP violations in every document it opens.
func (p *page) watchCSP() {
	p.t.Helper()
	err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspListener})
		return err
	}))
	if err != nil {
		p.t.Fatal(err)
	}
}

// violations returns the CSP violations the page recorded.
func (p *page) violations() []string {
	p.t.Helper()
	return eval[[]string](p, `window.__cspViolations || ["the CSP listener is missing"]`)
}

// Every page under its Content-Security-Policy loads, applies, runs
// kubectl, opens the compare view and the timeline without one violation:
// index.html and embed.html with site/web's header, the bundle with its
// <meta> policy.
func TestCSPHoldsEverywhere(t *testing.T) {
	setup(t)
	cases := []struct {
		name, url, wantCSP string
		bundle             bool
	}{
		{"index", baseURL + "/?paused", web.CSP("'self'"), false},
		{"embed", baseURL + "/embed.html?start=auto&paused&panes=editor,cluster,console,timeline", web.CSP("*"), false},
		{"bundle", "", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url
			if tc.bundle {
				url = "file://" + bundlePath(t) + "?paused"
			}
			p := newTab(t)
			p.watchCSP()
			if err := chromedp.Do(p.ctx, chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			p.waitJS(`document.documentElement.dataset.state === "ready"`, "the page to start")
			p.instant()

			// The policy is in force.
			if tc.bundle {
				meta := eval[string](p, `(document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {content: ""}).content`)
				if !strings.Contains(meta, "script-src 'sha256-") || strings.Contains(meta, "unsafe-inline") {
					t.Errorf("the bundle's policy is %q", meta)
				}
			} else {
				resp := evalAwait[string](p, `fetch(location.href).then(r => r.headers.get("Content-Security-Policy"))`)
				if tc.name == "index" {
					// fetch(location.href) has no ?embed: the full page's policy.
					if resp != tc.wantCSP {
						t.Errorf("CSP %q, want %q", resp, tc.wantCSP)
					}
				} else if resp != tc.wantCSP {
					t.Errorf("CSP %q, want %q", resp, tc.wantCSP)
				}
			}
			// An inline script is refused: the listener sees it.
			eval[chromedp.Void](p, `(function(){ const s = document.createElement("script"); s.textContent = "window.__inlineRan = true"; document.body.appendChild(s); })()`)
			p.waitJS(`window.__cspViolations.length === 1`, "the probe's violation")
			if eval[bool](p, `window.__inlineRan === true`) {
				t.Fatalf("an inline script ran under the policy")
			}
			eval[chromedp.Void](p, `window.__cspViolations.length = 0`)

			// Apply, kubectl, the node panel, the timeline, compare.
			if msg := eval[string](p, `dsplay.apply(document.getElementById("yaml").value)`); msg != "" {
				t.Errorf("apply: %s", msg)
			}
			p.advance(20)
			for _, cmd := range []string{"kubectl get pods -o wide", "kubectl describe ds fluentd-elasticsearch", "kubectl get ds -o yaml", "help"} {
				eval[map[string]any](p, `dsplay.run(`+jsString(cmd)+`)`)
			}
			if !tc.bundle && tc.name == "index" {
				p.runKubectl("kubectl get nodes")
				if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="control-plane"]`))); err != nil {
					t.Fatal(err)
				}
				p.waitJS(`!document.getElementById("panel").hidden`, "the node panel")
			}
			n := eval[int](p, `dsplay.steps().length`)
			if n < 2 {
				t.Errorf("%d timeline steps", n)
			}
			if msg := eval[string](p, `dsplay.seekStep(1)`); msg != "" {
				t.Errorf("seekStep: %s", msg)
			}
			p.waitJS(`dsplay.viewing().past`, "the timeline to show the past")
			eval[chromedp.Void](p, `dsplay.live()`)
			if msg := eval[string](p, `dsplay.compare("")`); msg != "" {
				t.Errorf("compare: %s", msg)
			}
			p.waitJS(`dsplay.compareState() !== null`, "the compare view")
			p.advance(30)
			eval[chromedp.Void](p, `dsplay.compareExit()`)
			// Let a few frames draw what changed.
			evalAwait[chromedp.Void](p, `new Promise(r => { let n = 0; const f = () => (++n < 5 ? requestAnimationFrame(f) : r()); requestAnimationFrame(f); })`)

			// The lessons, exercises and share UI (C1, C2), when present:
			// only their policy violations matter here, not their results.
			if eval[bool](p, `typeof dsplay.openLesson === "function" && typeof dsplay.lessons === "function"`) {
				eval[chromedp.Void](p, `(function(){ const l = dsplay.lessons().find(x => x.kind === "lesson"); if (l) { dsplay.openLesson(l.id); dsplay.nextStep(); } })()`)
				p.waitJS(`!dsplay.lessonState() || !dsplay.lessonState().busy`, "the lesson step to play")
				t.Logf("lesson played: %s", eval[string](p, `JSON.stringify(dsplay.lessonState() && [dsplay.lessonState().id, dsplay.lessonState().step])`))
				eval[chromedp.Void](p, `(function(){ const e = dsplay.lessons().find(x => x.kind === "exercise"); if (e && dsplay.openExercise) { dsplay.openExercise(e.id); dsplay.showHint(); dsplay.checkExercise(); } })()`)
				p.waitJS(`!dsplay.exerciseState || !dsplay.exerciseState() || !dsplay.exerciseState().busy`, "the exercise check")
				eval[chromedp.Void](p, `dsplay.closeLesson()`)
			}
			if eval[bool](p, `typeof dsplay.shareLink === "function"`) {
				evalAwait[chromedp.Void](p, `Promise.resolve(dsplay.shareLink()).then(() => undefined, () => undefined)`)
			}
			evalAwait[chromedp.Void](p, `new Promise(r => { let n = 0; const f = () => (++n < 5 ? requestAnimationFrame(f) : r()); requestAnimationFrame(f); })`)

			if v := p.violations(); len(v) != 0 {
				t.Errorf("%d CSP violations:\n%s", len(v), strings.Join(v, "\n"))
			}
			p.checkConsoleExcept("Content Security Policy") // the probe's refusal is logged
		})
	}
}

// evalAwait evaluates a JavaScript expression, awaits the promise it
// returns and decodes its value.
func evalAwait[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// checkConsoleExcept is checkConsole, ignoring errors that contain skip.
func (p *page) checkConsoleExcept(skip string) {
	p.t.Helper()
	var errs []string
	for _, e := range p.consoleErrors() {
		if !strings.Contains(e, skip) {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		p.t.Errorf("browser console has errors:\n%s", strings.Join(errs, "\n"))
	}
}
