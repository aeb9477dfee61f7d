package browsertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// rolloutDoc is a DaemonSet "NAME" running IMAGE on every untainted node
// (node-1 and node-2 of the default cluster) with the given
// updateStrategy (a flow mapping).
func rolloutDoc(name, strategy, image, extra string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: %[1]s
spec:
  selector:
    matchLabels:
      app: %[1]s
  updateStrategy: %[2]s
  template:
    metadata:
      labels:
        app: %[1]s
    spec:
      containers:
      - name: main
        image: %[3]s
%[4]s`, name, strategy, image, extra)
}

// rolloutState is a JS expression: what the rollout view and the chips
// show for DaemonSet ds.
func rolloutState(ds string) string {
	return fmt.Sprintf(`(function(){
		const b = document.querySelector('#rollout .ro-ds[data-ds=%[1]q]');
		const chips = [...document.querySelectorAll('#nodes .pod:not(.gone)[data-owner=%[1]q]')];
		const bar = b && b.querySelector(".ro-bar");
		return {
			revs: b ? [...b.querySelectorAll(".ro-rev")].map(l => l.dataset.rev + (l.dataset.current ? "*" : "") + " " + l.querySelector(".ro-img").textContent + " " + l.querySelector(".ro-hash").textContent) : [],
			msg: b && b.querySelector(".ro-msg") ? b.querySelector(".ro-msg").textContent : "",
			note: b && b.querySelector(".ro-note") ? b.querySelector(".ro-note").textContent : "",
			bar: bar ? [bar.dataset.updated, bar.dataset.desired, bar.dataset.available].join("/") : "",
			pods: chips.filter(c => !c.classList.contains("phase-terminating")).map(c => c.dataset.rev + ":" + [...c.classList].filter(k => /^rv/.test(k) || k === "rev-old").join(",") + ":" + c.querySelector(".rev-tag").textContent).sort(),
		};
	})()`, ds)
}

type rolloutSeen struct {
	Revs []string `json:"revs"`
	Msg  string   `json:"msg"`
	Note string   `json:"note"`
	Bar  string   `json:"bar"`
	Pods []string `json:"pods"`
}

// Issue 4, Browser: a RollingUpdate seen on the page. The legend gains the
// new revision (number, image, hash, marked current), the pods change
// revision tag and colour, the progress bar and kubectl rollout status's
// message advance to "successfully rolled out".
func TestRolloutRollingUpdate(t *testing.T) {
	p := open(t, "?paused")
	p.apply(rolloutDoc("web", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}", "nginx:1.25", ""))
	p.advance(60)
	st := eval[rolloutSeen](p, rolloutState("web"))
	if len(st.Revs) != 1 || !strings.HasPrefix(st.Revs[0], "1* nginx:1.25 ") || st.Msg != `daemon set "web" successfully rolled out` || st.Bar != "2/2/2" {
		t.Fatalf("before the update: %+v", st)
	}
	if strings.Join(st.Pods, " ") != "1:rv0:r1 1:rv0:r1" {
		t.Fatalf("before the update, the pods show %v", st.Pods)
	}
	if r := eval[map[string]any](p, `dsplay.run("kubectl set image ds/web main=nginx:1.26")`); r["exitCode"].(float64) != 0 {
		t.Fatalf("set image: %v", r)
	}
	p.frames(2)
	st = eval[rolloutSeen](p, rolloutState("web"))
	if len(st.Revs) != 2 || !strings.HasPrefix(st.Revs[0], "1 nginx:1.25 ") || !strings.HasPrefix(st.Revs[1], "2* nginx:1.26 ") {
		t.Fatalf("after set image, the legend shows %v", st.Revs)
	}
	if h1, h2 := strings.Fields(st.Revs[0])[2], strings.Fields(st.Revs[1])[2]; h1 == h2 || h1 == "" {
		t.Errorf("revision hashes %q and %q", h1, h2)
	}
	messages := map[string]bool{st.Msg: true}
	bars := map[string]bool{st.Bar: true}
	sawOld, sawMixed := false, false
	for i := 0; i < 120 && !strings.HasSuffix(st.Msg, "successfully rolled out"); i++ {
		p.advance(1)
		p.frames(1)
		st = eval[rolloutSeen](p, rolloutState("web"))
		messages[st.Msg] = true
		bars[st.Bar] = true
		joined := strings.Join(st.Pods, " ")
		sawOld = sawOld || strings.Contains(joined, "rev-old")
		sawMixed = sawMixed || (strings.Contains(joined, "1:rv0,rev-old:r1") && strings.Contains(joined, "2:rv1:r2"))
		if i == 1 {
			p.screenshot("rollout-mid")
		}
	}
	if st.Msg != `daemon set "web" successfully rolled out` || st.Bar != "2/2/2" {
		t.Fatalf("the rollout did not finish on the page: %+v", st)
	}
	if strings.Join(st.Pods, " ") != "2:rv1:r2 2:rv1:r2" {
		t.Errorf("after the rollout, the pods show %v", st.Pods)
	}
	if !messages[`Waiting for daemon set "web" rollout to finish: 0 out of 2 new pods have been updated...`] ||
		!messages[`Waiting for daemon set "web" rollout to finish: 1 out of 2 new pods have been updated...`] {
		t.Errorf("the message never showed the rollout's progress: %v", messages)
	}
	if !bars["1/2/1"] && !bars["1/2/2"] {
		t.Errorf("the bar never stood half way: %v", bars)
	}
	if !sawOld || !sawMixed {
		t.Errorf("never saw an outdated pod (%v) or both revisions at once (%v)", sawOld, sawMixed)
	}
	// what kubectl rollout status prints, the page printed
	out := eval[map[string]any](p, `dsplay.run("kubectl rollout status ds/web --watch=false")`)
	if got := strings.TrimSpace(out["stdout"].(string)); got != st.Msg {
		t.Errorf("kubectl rollout status prints %q, the page %q", got, st.Msg)
	}
	p.checkConsole()
}

// maxSurge 1: the new pod starts beside the old one on the same node, the
// two chips side by side; the old one then terminates (struck through).
func TestRolloutSurgeSideBySide(t *testing.T) {
	p := open(t, "?paused")
	p.apply(rolloutDoc("web", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 1}}", "nginx:1.25", ""))
	p.advance(60)
	eval[map[string]any](p, `dsplay.run("kubectl set image ds/web main=nginx:1.26")`)
	sawPair, sawTerminating := false, false
	for i := 0; i < 60 && !(sawPair && sawTerminating); i++ {
		p.advance(0.5)
		p.frames(1)
		r := eval[[]bool](p, `(function(){
			const pairs = [...document.querySelectorAll('#nodes .pods.surge')].filter(box => {
				const cs = [...box.querySelectorAll('.pod.pair:not(.gone)[data-owner="web"]')];
				if (cs.length < 2) return false;
				const a = cs[0].getBoundingClientRect(), b = cs[1].getBoundingClientRect();
				return Math.abs(a.top - b.top) < 2 && a.left !== b.left && new Set(cs.map(c => c.dataset.rev)).size === 2;
			});
			const term = [...document.querySelectorAll('#nodes .pod.phase-terminating[data-owner="web"] .pod-name')]
				.some(n => getComputedStyle(n).textDecorationLine.includes("line-through"));
			return [pairs.length > 0, term];
		})()`)
		if r[0] && !sawPair {
			p.screenshot("rollout-surge")
		}
		sawPair = sawPair || r[0]
		sawTerminating = sawTerminating || r[1]
	}
	if !sawPair {
		t.Error("never saw an old and a new pod of web side by side on one node")
	}
	if !sawTerminating {
		t.Error("never saw an old pod terminating (struck through)")
	}
	p.checkConsole()
}

// OnDelete: the note instead of a bar; changing the image adds revision 2
// and changes no pod, however long; a deleted pod comes back on revision 2.
func TestRolloutOnDelete(t *testing.T) {
	p := open(t, "?paused")
	p.apply(rolloutDoc("od", "{type: OnDelete}", "busybox:1.36", "        command: [sleep, '3600']\n"))
	p.advance(30)
	st := eval[rolloutSeen](p, rolloutState("od"))
	if !strings.Contains(st.Note, "only when you delete it") || st.Bar != "" || len(st.Revs) != 1 {
		t.Fatalf("OnDelete view: %+v", st)
	}
	eval[map[string]any](p, `dsplay.run("kubectl set image ds/od main=busybox:1.37")`)
	p.advance(120)
	p.frames(1)
	st = eval[rolloutSeen](p, rolloutState("od"))
	if len(st.Revs) != 2 || !strings.HasPrefix(st.Revs[1], "2* busybox:1.37") {
		t.Fatalf("after set image: legend %v", st.Revs)
	}
	if strings.Join(st.Pods, " ") != "1:rv0,rev-old:r1 1:rv0,rev-old:r1" {
		t.Fatalf("OnDelete changed pods without a delete: %v", st.Pods)
	}
	if !strings.Contains(st.Note, "0 of 2 on the current revision") {
		t.Errorf("note %q", st.Note)
	}
	name := eval[string](p, `dsplay.pods().find(p => p.owner === "od" && p.node === "node-1").name`)
	if r := eval[map[string]any](p, fmt.Sprintf(`dsplay.run("kubectl delete pod %s")`, name)); r["exitCode"].(float64) != 0 {
		t.Fatalf("delete: %v", r)
	}
	p.advance(30)
	p.frames(1)
	st = eval[rolloutSeen](p, rolloutState("od"))
	if strings.Join(st.Pods, " ") != "1:rv0,rev-old:r1 2:rv1:r2" {
		t.Errorf("after deleting %s: pods %v", name, st.Pods)
	}
	if !strings.Contains(st.Note, "1 of 2 on the current revision") {
		t.Errorf("note %q", st.Note)
	}
	p.checkConsole()
}

// A rollout stalls on a crashing template: the new pod shows its
// CrashLoopBackOff and the kubelet's back-off message on the chip; the
// message stays at 1 of 2 updated... and the old pod keeps revision 1.
func TestRolloutStallShownOnPod(t *testing.T) {
	p := open(t, "?paused")
	p.apply(rolloutDoc("web", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}", "busybox:1.36", "        command: [sleep, '3600']\n"))
	p.advance(60)
	p.apply(rolloutDoc("web", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1}}", "busybox:1.36", "        command: ['false']\n"))
	p.advance(90)
	p.frames(1)
	why := eval[[]string](p, `[...document.querySelectorAll('#nodes .pod.stalled[data-owner="web"]')].map(c => c.dataset.status + "|" + c.dataset.rev + "|" + c.querySelector(".pod-why").textContent)`)
	if len(why) != 1 || !strings.HasPrefix(why[0], "CrashLoopBackOff|2|back-off ") {
		t.Errorf("stalled chips: %q", why)
	}
	st := eval[rolloutSeen](p, rolloutState("web"))
	if !strings.HasPrefix(st.Msg, `Waiting for daemon set "web" rollout to finish: 1 out of 2 new pods have been updated...`) && !strings.Contains(st.Msg, "updated pods are available") {
		t.Errorf("message %q", st.Msg)
	}
	p.viewport(1440, 1300)
	p.screenshot("rollout-stall")
	p.checkConsole()
}

// More than 300 nodes: tiles take their pods' revision colour; a tile
// whose pod is outdated is round, and none is once rolled out.
func TestRolloutTiles(t *testing.T) {
	p := open(t, "?paused")
	if msg := eval[string](p, `dsplay.addNodes("w", 320)`); msg != "" {
		t.Fatal(msg)
	}
	p.apply(rolloutDoc("big", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%}}", "nginx:1.25", ""))
	p.advance(60)
	count := func(sel string) int {
		p.frames(1)
		return eval[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, "#nodes "+sel))
	}
	p.waitJS(`document.querySelectorAll("#nodes .tile").length === 323`, "323 tiles")
	if n := count(".tile.rv-old"); n != 0 {
		t.Fatalf("%d outdated tiles before any update", n)
	}
	eval[map[string]any](p, `dsplay.run("kubectl set image ds/big main=nginx:1.26")`)
	p.advance(3)
	p.waitJS(`document.querySelectorAll("#nodes .tile.rv-old").length > 0`, "outdated tiles during the rollout")
	if title := eval[string](p, `document.querySelector("#nodes .tile.rv-old").title`); !strings.Contains(title, "outdated: big is on revision 2") {
		t.Errorf("an outdated tile's title: %q", title)
	}
	// the summary counts the tiles per revision shown: some outdated on
	// revision 1, some already on revision 2 (once their new pods start)
	sum := ""
	for i := 0; i < 30; i++ {
		sum = eval[string](p, `document.getElementById("node-summary").textContent`)
		if strings.Contains(sum, "on revision 1 (outdated, round)") && strings.Contains(sum, "on revision 2") {
			break
		}
		p.advance(1)
		p.frames(1)
	}
	if !strings.Contains(sum, "on revision 1 (outdated, round)") || !strings.Contains(sum, "on revision 2") {
		t.Errorf("summary during the rollout: %q", sum)
	}
	p.screenshot("rollout-tiles")
	msg := func() string {
		return eval[string](p, `document.querySelector('#rollout .ro-ds[data-ds="big"] .ro-msg').textContent`)
	}
	for i := 0; i < 60 && !strings.HasSuffix(msg(), "successfully rolled out"); i++ {
		p.advance(5)
		p.frames(1)
	}
	if n := count(".tile.rv-old"); n != 0 {
		t.Errorf("%d tiles still outdated after the rollout", n)
	}
	if sum := eval[string](p, `document.getElementById("node-summary").textContent`); strings.Contains(sum, "outdated") {
		t.Errorf("summary after the rollout: %q", sum)
	}
	if got := msg(); got != `daemon set "big" successfully rolled out` {
		t.Errorf("message %q", got)
	}
	p.checkConsole()
}

// The revision tags' text is readable on their colour (WCAG AA, 4.5:1) for
// every colour of the palette, in the light and the dark scheme.
func TestRolloutColoursReadable(t *testing.T) {
	p := open(t, "?paused")
	for _, scheme := range []string{"light", "dark"} {
		p.colorScheme(scheme)
		got := eval[[]string](p, `(function(){
			const lum = (c) => {
				const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map(v => v / 255).map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
				return 0.2126 * r + 0.7152 * g + 0.0722 * b;
			};
			const box = document.getElementById("rollout");
			const out = [];
			for (const k of ["rv0", "rv1", "rv2", "rv3", "rv4", "rv5", "rvx"]) {
				const e = document.createElement("span");
				e.className = "rev-tag " + k;
				e.textContent = "r1";
				box.parentNode.appendChild(e);
				const cs = getComputedStyle(e);
				const a = lum(cs.color), b = lum(cs.backgroundColor);
				const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
				out.push(k + " " + cs.color + " on " + cs.backgroundColor + " " + ratio.toFixed(2));
				e.remove();
			}
			return out;
		})()`)
		for _, g := range got {
			f := strings.Fields(g)
			ratio, _ := strconv.ParseFloat(f[len(f)-1], 64)
			if ratio < 4.5 {
				t.Errorf("%s scheme: %s (contrast below 4.5)", scheme, g)
			}
		}
		if scheme == "dark" {
			if bg := eval[string](p, `getComputedStyle(document.body).backgroundColor`); bg == "rgb(244, 246, 249)" {
				t.Errorf("dark scheme not applied")
			}
		}
	}
	p.checkConsole()
}
