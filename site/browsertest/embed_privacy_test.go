package browsertest

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The full page keeps a kubectl history holding a secret; an embed framed
// by another origin (allowed with origin=) and driven through postMessage
// never returns it: the embed keeps its own storage, partitioned by the
// embedding origin, and a reply carries nothing from storage.
func TestEmbedForeignOriginNeverReadsHistory(t *testing.T) {
	secret := fmt.Sprintf("s3cr3t-%d", time.Now().UnixNano()%1e9)
	p := open(t, "?paused")
	p.runKubectl("kubectl label nodes node-1 token=" + secret)
	stored := eval[string](p, `localStorage.getItem("dsplay.kubectl.history") || ""`)
	if !strings.Contains(stored, secret) {
		t.Fatalf("the full page did not store its history: %q", stored)
	}

	var parentOrigin string
	parent := serveHTML(t, func(*http.Request) string {
		return fmt.Sprintf(parentHTML, iframe(embedURL("paused&start=auto&panes=console&origin="+url.QueryEscape(parentOrigin)), 600, 400), baseURL)
	})
	parentOrigin = parent.URL
	q := openParentBeside(t, parent.URL+"/evil.html", p) // the same visitor's storage
	q.waitJS(`events(0, "dsplay:ready").length === 1`, "dsplay:ready from the embed")
	for i, cmd := range []string{"history", "kubectl get nodes --show-labels", "help"} {
		id := fmt.Sprintf("r%d", i)
		eval[chromedp.Void](q, fmt.Sprintf(`send(0, {type: "dsplay:run", id: %q, command: %q})`, id, cmd))
		replyOf[map[string]any](q, id)
	}
	for _, typ := range []string{"dsplay:state", "dsplay:hello", "dsplay:step"} {
		eval[chromedp.Void](q, fmt.Sprintf(`send(0, {type: %q, id: %q})`, typ, typ))
		replyOf[map[string]any](q, typ)
	}
	hist := replyOf[map[string]any](q, "r0")
	if out := fmt.Sprint(hist["stdout"]); !strings.Contains(out, "history") {
		t.Errorf("the embed's history reply %q does not list the page's own command", out)
	}
	all := eval[string](q, `JSON.stringify(msgs)`)
	if strings.Contains(all, secret) {
		t.Fatalf("a message to the foreign parent carries the full site's history:\n%s", all)
	}

	// The embed kept its history under a key of its own, by the embedding
	// origin; the full site's key is as it was.
	key := "dsplay.embed[" + parentOrigin + "].kubectl.history"
	p.waitJS(fmt.Sprintf(`(localStorage.getItem(%q) || "").includes("history")`, key), "the embed's own history key")
	if got := eval[string](p, fmt.Sprintf(`localStorage.getItem(%q)`, key)); strings.Contains(got, secret) {
		t.Errorf("the embed's key holds the full site's history: %q", got)
	}
	if got := eval[string](p, `localStorage.getItem("dsplay.kubectl.history")`); got != stored {
		t.Errorf("the full site's history changed under the embed:\nbefore %q\nafter  %q", stored, got)
	}
	p.checkConsole()
}
