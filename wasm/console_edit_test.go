//go:build js && wasm

package main

import (
	"strings"
	"testing"
	"time"
)

// Run with: GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./wasm

const editedDS = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
# daemonsets.apps "x" was not valid:
# * spec.template.spec.containers[0].image: Required value
#
apiVersion: apps/v1
kind: DaemonSet
metadata:
  labels:
    app.kubernetes.io/name: x
  name: x
spec:
  selector:
    matchLabels:
      app: x
  template:
    metadata:
      labels:
        app: x
    spec:
      initContainers:
      - name: setup
        image: busybox
      containers:
      - image: ""
        name: a
        ports:
        - containerPort: 80
          name: http
      - name: b
        image: "nginx"
        resources:
          limits:
            memory: 10Mi
  updateStrategy:
    rollingUpdate:
      maxUnavailable: 0
    type: RollingUpdate
`

func TestEditFieldLine(t *testing.T) {
	lines := strings.Split(editedDS, "\n")
	lineOf := func(s string, nth int) int {
		for i, l := range lines {
			if strings.TrimSpace(l) == s {
				if nth == 0 {
					return i + 1
				}
				nth--
			}
		}
		t.Fatalf("no line %q", s)
		return 0
	}
	for _, tc := range []struct {
		field string
		want  int
	}{
		{"spec.template.spec.containers[0].image", lineOf(`- image: ""`, 0)},
		{"spec.template.spec.containers[0].name", lineOf("name: a", 0)},
		{"spec.template.spec.containers[1].image", lineOf(`image: "nginx"`, 0)},
		{"spec.template.spec.containers[1].resources.limits.memory", lineOf("memory: 10Mi", 0)},
		{"spec.template.spec.containers[0].ports[0].name", lineOf("name: http", 0)},
		{"spec.template.spec.initContainers[0].image", lineOf("image: busybox", 0)},
		{"spec.updateStrategy.rollingUpdate.maxUnavailable", lineOf("maxUnavailable: 0", 0)},
		{"spec.selector", lineOf("selector:", 0)},
		{"metadata.labels[app.kubernetes.io/name]", lineOf("app.kubernetes.io/name: x", 0)},
		// absent: the deepest parent found
		{"spec.template.spec.containers[0].command", lineOf(`- image: ""`, 0)},
		{"spec.template.spec.containers[5].image", lineOf("containers:", 0)},
		{"spec.minReadySeconds", lineOf("spec:", 0)},
		{"status.numberReady", 0},
	} {
		if got := editFieldLine(lines, tc.field); got != tc.want {
			t.Errorf("editFieldLine(%s) = %d, want %d", tc.field, got, tc.want)
		}
	}
}

func TestLagMeter(t *testing.T) {
	for _, tc := range []struct {
		name    string
		frameMs float64       // wall time between frames
		step    time.Duration // virtual time each frame advances
		speed   float64
		want    bool
	}{
		{"keeps up at 1x", 16, 16 * time.Millisecond, 1, false},
		{"keeps up at 60x", 16, 960 * time.Millisecond, 60, false},
		{"capped step at 60x", 16, 100 * time.Millisecond, 60, true},
		{"frames clamped to 100 ms", 150, 100 * time.Millisecond, 1, true},
		{"a little slow is fine", 16, 13 * time.Millisecond, 1, false},
		// 1,000 nodes at 10x: 1.7 s stalls, each advancing maxFrameStep
		{"long frames are lag", 1700, 100 * time.Millisecond, 10, true},
	} {
		var m lagMeter
		got := false
		for ts := 0.0; ts < 3000; ts += tc.frameMs {
			got = m.frame(ts, tc.step, tc.speed)
		}
		if got != tc.want {
			t.Errorf("%s: lagging = %v, want %v", tc.name, got, tc.want)
		}
	}
	// a background tab: the page resets the meter on visibilitychange, so
	// the gap does not count
	var m lagMeter
	for ts := 0.0; ts < 2000; ts += 16 {
		m.frame(ts, 16*time.Millisecond, 1)
	}
	m.reset()
	if m.frame(60000, 0, 1) {
		t.Errorf("a frame after a hidden page's gap counts as lag")
	}
	// without the reset, a long gap with no virtual time is lag
	for ts := 0.0; ts < 2000; ts += 16 {
		m.frame(ts, 16*time.Millisecond, 1)
	}
	if !m.frame(3700, 0, 1) {
		t.Errorf("a 1.7 s frame that advanced nothing is not lag")
	}
}
