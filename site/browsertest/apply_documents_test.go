package browsertest

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestApplyPerDocument: the editor's Apply applies the documents it can, as
// kubectl does, and says so above the refused one's problem (its lines
// marked); the console shows kubectl's whole transcript; an object of a
// kind nothing in the playground acts on is stored, and the result says so
// quietly.
func TestApplyPerDocument(t *testing.T) {
	p := open(t, "?paused")
	const manifest = `apiVersion: v1
kind: ServiceAccount
metadata:
  name: legacy
---
apiVersion: extensions/v1beta1
kind: DaemonSet
metadata:
  name: legacy
spec: {}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: c
        image: nginx:1.23
`
	if err := chromedp.Do(p.ctx,
		chromedp.SetValue(chromedp.ID("yaml"), manifest),
		chromedp.Click(chromedp.ID("apply")),
	); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelector("#apply-result.err .applied") !== null`, "the applied documents above the error")
	got := eval[string](p, `document.querySelector("#apply-result .applied").textContent`)
	for _, want := range []string{"2 of 3 documents applied", "serviceaccount/legacy created", "deployment.apps/web created", "1 object is stored as the API server stores it, but nothing in the playground acts on its kind"} {
		if !strings.Contains(got, want) {
			t.Errorf("applied part %q lacks %q", got, want)
		}
	}
	if res := eval[string](p, `document.getElementById("apply-result").textContent`); !strings.Contains(res, `no matches for kind "DaemonSet" in version "extensions/v1beta1"`) {
		t.Errorf("apply result %q lacks the refusal", res)
	}
	if marked := eval[[]string](p, `[...document.querySelectorAll("#marks .mark")].map(m => m.dataset.line)`); len(marked) == 0 {
		t.Error("no line of the refused document marked")
	}
	out, errOut := p.lastOutput()
	if !strings.Contains(out, "serviceaccount/legacy created") || !strings.Contains(out, "deployment.apps/web created") || !strings.Contains(errOut, "ensure CRDs are installed first") {
		t.Errorf("console stdout %q stderr %q: want kubectl's whole transcript", out, errOut)
	}
	p.runKubectl("kubectl get deploy")
	if out, _ := p.lastOutput(); !strings.Contains(out, "web") {
		t.Errorf("kubectl get deploy printed %q", out)
	}
	p.screenshot("dsplay-apply-per-document")
	p.checkConsole()
}
