package browsertest

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestRefusedPodsShown: a DaemonSet whose pods the API server refuses (its
// ServiceAccount does not exist) says why on the DaemonSet's row and on
// every node that should run its pod, not only in the decisions pane; the
// note goes once the ServiceAccount exists and the controller's retry
// creates the pods.
func TestRefusedPodsShown(t *testing.T) {
	p := open(t, "?paused")
	const manifest = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      serviceAccountName: agent-sa
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
	p.waitJS(`document.getElementById("apply-result").textContent.includes("daemonset.apps/agent created")`, "the apply report")
	p.advance(3)
	const cause = `serviceaccount \"agent-sa\" not found`
	p.waitJS(`(document.querySelector('#ds-rows tr.refused[data-ds-key="default/agent"]')||{}).textContent?.includes("`+cause+`")`, "the refusal under the DaemonSet's row")
	for _, n := range []string{"node-1", "node-2"} {
		p.waitJS(`[...document.querySelectorAll('.node[data-node="`+n+`"] .why li.refused')].some(l => l.textContent.includes("no agent pod: the API server refuses it") && l.textContent.includes("`+cause+`"))`, "the refusal on "+n)
	}
	if got := eval[int](p, `document.querySelectorAll('.node[data-node="control-plane"] .why li.refused').length`); got != 0 {
		t.Errorf("control-plane (tainted: shouldRun false) shows %d refusal lines", got)
	}
	// the node panel says which step refused it
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(`.node[data-node="node-1"] .node-head`))); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`(document.querySelector('#panel-body .verdict[data-ds="agent"] p.refused')||{}).textContent?.includes("syncNodes: the API server refused the pod")`, "the refusal in node-1's panel")
	p.screenshot("dsplay-refused")
	p.runKubectl("kubectl create serviceaccount agent-sa")
	p.advance(10)
	p.waitJS(`!document.querySelector('#ds-rows tr.refused') && !document.querySelector('.why li.refused')`, "the refusal notes to go once the pods are created")
	p.waitJS(podsOn("node-1", "agent", "")+" === 1 && "+podsOn("node-2", "agent", "")+" === 1", "agent pods on node-1 and node-2")
	p.checkConsole()
}
