package examples

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/session"
)

// Every catalogue has every key of the English one, no other, and the
// same placeholders; every key is used (by the page's index.html, whose
// English text it must equal, or by the wasm's tr calls); every key the
// page names exists.
func TestCatalogues(t *testing.T) {
	cats := map[string]session.Catalogue{}
	for lang, data := range Catalogues() {
		c, err := session.ParseCatalogue(data)
		if err != nil {
			t.Fatalf("i18n/%s.json: %v", lang, err)
		}
		cats[lang] = c
	}
	en := cats["en"]
	if en == nil || cats["zh-CN"] == nil {
		t.Fatalf("catalogues %v, want en and zh-CN at least", slices.Sorted(func(yield func(string) bool) {
			for k := range cats {
				if !yield(k) {
					return
				}
			}
		}))
	}
	for lang, c := range cats {
		for _, p := range session.CheckCatalogue(en, c) {
			t.Errorf("i18n/%s.json: %s", lang, p)
		}
	}

	used := map[string]bool{session.NameKey: true}
	page, err := os.ReadFile(filepath.Join("..", "site", "static", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`data-i18n(?:-[a-z-]+)?="([^"]+)"`).FindAllSubmatch(page, -1) {
		k := string(m[1])
		used[k] = true
		if _, ok := en[k]; !ok {
			t.Errorf("index.html names key %s, which en.json lacks", k)
		}
	}
	// the English text is the page's own (a change to one is a change to both)
	for _, m := range regexp.MustCompile(`data-i18n="([^"]+)">([^<]*)<`).FindAllSubmatch(page, -1) {
		if k, text := string(m[1]), string(m[2]); en[k] != text {
			t.Errorf("index.html's %s reads %q, en.json %q", k, text, en[k])
		}
	}
	out, err := exec.Command("grep", "-rhoE", `(^|[^A-Za-z0-9_.])tr\("[a-z0-9.]+"`, filepath.Join("..", "wasm")).Output()
	if err != nil {
		t.Fatalf("grep wasm for tr calls: %v", err)
	}
	for _, l := range strings.Fields(string(out)) {
		k := strings.TrimSuffix(l[strings.Index(l, `tr("`)+len(`tr("`):], `"`)
		used[k] = true
		if _, ok := en[k]; !ok {
			t.Errorf("wasm calls tr(%q), which en.json lacks", k)
		}
	}
	for k := range en {
		if !used[k] {
			t.Errorf("en.json key %s is used nowhere", k)
		}
	}
}

func TestPickLanguage(t *testing.T) {
	av := []string{"en", "zh-CN"}
	for _, c := range []struct {
		stored  string
		browser []string
		want    string
	}{
		{"", nil, "en"},
		{"", []string{"zh-CN", "en"}, "zh-CN"},
		{"", []string{"zh-TW"}, "zh-CN"},
		{"", []string{"fr-FR", "zh"}, "zh-CN"},
		{"en", []string{"zh-CN"}, "en"},
		{"xx", []string{"de"}, "en"},
	} {
		if got := session.PickLanguage(c.stored, c.browser, av); got != c.want {
			t.Errorf("PickLanguage(%q, %v) = %q, want %q", c.stored, c.browser, got, c.want)
		}
	}
}
