package browsertest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The <dsplay-playground> element (static/dsplay-element.js) drives an
// embed: its attributes make the iframe's URL, its methods post the
// messages and return the replies, its events are the embed's.
func TestCustomElementDrivesEmbed(t *testing.T) {
	setup(t)
	parent := serveHTML(t, func(*http.Request) string {
		return fmt.Sprintf(`<!doctype html><html><head><meta charset="utf-8"><title>tutorial</title>
<script src="%s/dsplay-element.js"></script></head><body>
<dsplay-playground id="pg" panes="cluster,console" example="none" paused start="auto" height="400"></dsplay-playground>
<script>
window.events = [];
const pg = document.getElementById("pg");
for (const ty of ["dsplay:ready", "dsplay:decisions", "dsplay:resize"]) pg.addEventListener(ty, (ev) => window.events.push(ev.type));
</script></body></html>`, baseURL)
	})
	q := openParent(t, parent.URL+"/tutorial.html")
	q.waitJS(`window.events.includes("dsplay:ready")`, "dsplay:ready from the element")
	src := eval[string](q, `document.getElementById("pg").shadowRoot.querySelector("iframe").src`)
	for _, want := range []string{baseURL + "/embed.html?", "panes=cluster%2Cconsole", "example=none", "paused=", "origin=" + strings.ReplaceAll(strings.ReplaceAll(parent.URL, ":", "%3A"), "/", "%2F")} {
		if !strings.Contains(src, want) {
			t.Errorf("iframe src %s lacks %s", src, want)
		}
	}
	out := evalAwait[string](q, `(async () => {
		const pg = document.getElementById("pg");
		await pg.apply(`+jsString(dsDemo)+`);
		await pg.step(15);
		const r = await pg.run("kubectl get ds");
		return r.stdout;
	})()`)
	if !strings.Contains(out, "ds-demo") {
		t.Errorf("kubectl get ds through the element printed %q", out)
	}
	bad := evalAwait[string](q, `document.getElementById("pg").apply("kind: Nope\n").then(() => "resolved", (e) => e.type + " " + e.error)`)
	if !strings.HasPrefix(bad, "dsplay:error ") {
		t.Errorf("a bad manifest through the element: %q, want a dsplay:error rejection", bad)
	}
	q.waitJS(`window.events.includes("dsplay:decisions")`, "dsplay:decisions from the element")
	q.checkConsole()
}

// An embed whose yaml= does not apply shows why over the panes, even with
// the editor and the console hidden; a read-only embed's console does not
// invite typing.
func TestEmbedFailsWell(t *testing.T) {
	p := openURL(t, embedURL("panes=cluster&start=auto&paused&yaml="+strings.ReplaceAll("kind: Nope\n", " ", "%20")))
	p.waitJS(`(document.getElementById("embed-warning") || {textContent: ""}).textContent.includes("Could not load")`, "the error over the panes")
	if !eval[bool](p, `(() => { const r = document.getElementById("embed-warning").getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`) {
		t.Error("the embed's error is not visible")
	}
	r := openURL(t, embedURL("panes=console&start=auto&paused&readonly"))
	if out := eval[string](r, `document.getElementById("kout").textContent`); strings.Contains(out, "Type a kubectl command") || !strings.Contains(out, "read-only") {
		t.Errorf("read-only console says %q", out)
	}
	p.checkConsoleExcept("Could not load")
	r.checkConsole()
}
