package browsertest

import (
	"fmt"
	"strings"
	"testing"
)

// imagePullPolicy: Never with an image the nodes lack: the DaemonSet table
// and the node panel offer a one-click preload, after which the pods run,
// and a share link replays it.
func TestPreloadOneClick(t *testing.T) {
	p := open(t, "?paused")
	const ds = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: c, image: "busybox:1.36", imagePullPolicy: Never, command: [sleep, infinity]}]
`
	if msg := eval[string](p, fmt.Sprintf("dsplay.apply(%q)", ds)); msg != "" {
		t.Fatalf("apply: %s", msg)
	}
	p.advance(10)
	p.waitJS(`document.querySelector('#ds-rows tr.never-pulled button.preload[data-image="busybox:1.36"]') !== null`, "the DaemonSet table's preload offer")
	row := eval[string](p, `document.querySelector("#ds-rows tr.never-pulled").textContent`)
	if !strings.Contains(row, "imagePullPolicy: Never") {
		t.Errorf("the offer reads %q", row)
	}
	// the node panel offers it too
	p.click(`.node[data-node="node-1"]`)
	p.waitJS(`document.querySelector('#panel-body .stuck button.preload') !== null`, "the node panel's preload offer")
	p.screenshot("preload-offer")
	p.click(`#panel-body .stuck button.preload`)
	p.advance(10)
	p.waitJS(podsOn("node-1", "agent", "Running")+` === 1 && `+podsOn("node-2", "agent", "Running")+` === 1`, "the agent running once preloaded")
	// (the table follows the stage, which plays the starts first)
	p.waitJS(`document.querySelector("#ds-rows tr.never-pulled") === null`, "the offer to go once the pods run")
	if out := eval[string](p, `document.getElementById("kout").textContent`); !strings.Contains(out, "Preloaded busybox:1.36 on every node") {
		t.Errorf("no console note: %q", out[max(0, len(out)-300):])
	}
	q := p.shareAndReopen()
	q.waitJS(podsOn("node-1", "agent", "Running")+` === 1`, "the preload replayed by the share link")
	p.checkConsole()
	q.checkConsole()
}
