package browsertest

import (
	"os"
	"testing"
	"time"
)

// soakManifest keeps a cluster busy for as long as it plays: a DaemonSet
// whose container exits every time it starts (CrashLoopBackOff on every
// node: restarts, events and decisions without end).
const soakManifest = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: crasher
spec:
  selector:
    matchLabels: {app: crasher}
  template:
    metadata:
      labels: {app: crasher}
    spec:
      containers:
      - name: c
        image: busybox:1.36
        command: ["sh", "-c", "exit 1"]
`

// Issue 14 item 6: a page left playing at the highest speed (10×) with a
// busy cluster (the default example plus a crash-looping DaemonSet, and a
// rollout restart every wall minute) holds bounded state. It samples
// dsplay.memory() — the Go heap after a collection, the WebAssembly
// memory, the timeline's inputs, steps and checkpoints, the events and
// decisions, the DOM elements and the Go callbacks — and fails when what
// must be bounded is not: checkpoints, decisions, DOM elements and
// callbacks in the run's second half. The byte figures are logged, not judged
// (memory is not a timing, but a GC's moment is). DSPLAY_SOAK sets the
// wall time (default 20s; the note's figures come from DSPLAY_SOAK=30m).
func TestMemorySoak(t *testing.T) {
	d := 20 * time.Second
	if s := os.Getenv("DSPLAY_SOAK"); s != "" {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			t.Fatalf("DSPLAY_SOAK: %v", err)
		}
	}
	tabTimeout = d + 2*time.Minute
	defer func() { tabTimeout = 2 * time.Minute }()
	p := open(t, "?paused")
	p.viewport(1440, 900)
	if msg := eval[string](p, "dsplay.apply("+jsString(soakManifest)+")"); msg != "" {
		t.Fatalf("apply: %s", msg)
	}
	eval[bool](p, `(function(){ const s = document.getElementById("speed"); s.value = "10"; s.dispatchEvent(new Event("change")); dsplay.play(); return true; })()`)

	type sample = map[string]float64
	read := func() sample { return eval[sample](p, `dsplay.memory()`) }
	every := min(d/10, time.Minute)
	start := time.Now()
	var warm sample
	lastRestart := start
	for i := 0; time.Since(start) < d; i++ {
		time.Sleep(every)
		if time.Since(lastRestart) >= time.Minute {
			eval[float64](p, `dsplay.run("kubectl rollout restart ds/crasher").exitCode`)
			lastRestart = time.Now()
		}
		m := read()
		t.Logf("wall %5.0fs virtual %6.0fs: go heap %6.2f MB, go sys %5.1f MB, wasm %5.1f MB; inputs %v steps %v checkpoints %v events %v decisions %v dom %v callbacks %v",
			time.Since(start).Seconds(), eval[float64](p, `dsplay.elapsed()`), m["goHeapBytes"]/1e6, m["goSysBytes"]/1e6, m["wasmBytes"]/1e6,
			m["inputs"], m["steps"], m["checkpoints"], m["events"], m["decisions"], m["domNodes"], m["callbacks"])
		if m["wasmBytes"] <= 0 || m["goHeapBytes"] <= 0 {
			t.Fatalf("dsplay.memory() measures nothing: %v", m)
		}
		if m["checkpoints"] > 8 || m["decisions"] > 20000 {
			t.Errorf("unbounded timeline state: %v", m)
		}
		if i == int(d/every)/2 {
			warm = m // half-way: the bounded lists (decision log, console, marks) are full by then
		}
		if warm != nil && (m["domNodes"] > warm["domNodes"]*1.5+200 || m["callbacks"] > warm["callbacks"]+20) {
			t.Errorf("the page keeps growing: %v elements and %v callbacks, %v and %v after warm-up", m["domNodes"], m["callbacks"], warm["domNodes"], warm["callbacks"])
		}
	}
	if v := eval[float64](p, `dsplay.elapsed()`); v < d.Seconds()/2 {
		t.Errorf("virtual time hardly played: %v s in %v", v, d)
	}
	p.checkConsole()
}
