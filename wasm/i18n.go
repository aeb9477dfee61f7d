//go:build js && wasm

package main

import (
	"slices"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine/session"
	"github.com/dsplayground/dsplay/examples"
)

// The page's chrome in the learner's language (session.Catalogue, the
// catalogues examples/i18n/*.json). Elements of index.html name their key:
// data-i18n (the text), data-i18n-title, data-i18n-aria-label,
// data-i18n-placeholder (attributes); the Go code's own chrome words go
// through tr. kubectl's output, the API server's and the engine's
// explanations are not translated here.

// langKey remembers the learner's choice of language (localStorage).
const langKey = "lang"

// lang is the language shown and its catalogue.
var lang struct {
	tag  string
	cat  session.Catalogue
	all  map[string]session.Catalogue
	tags []string
}

// tr returns the chrome text of key in the language shown (the English
// catalogue's when the key is missing there).
func tr(key string) string {
	if v, ok := lang.cat[key]; ok {
		return v
	}
	return lang.all["en"][key]
}

// initLanguage reads the catalogues, picks the language (the learner's
// remembered choice, else the browser's languages: session.PickLanguage),
// fills the language menu and translates the page.
func (a *app) initLanguage() {
	lang.all = map[string]session.Catalogue{}
	for tag, data := range examples.Catalogues() {
		if c, err := session.ParseCatalogue(data); err == nil {
			lang.all[tag] = c
			lang.tags = append(lang.tags, tag)
		}
	}
	slices.Sort(lang.tags)
	stored := ""
	if st, key, ok := storage(langKey); ok {
		func() {
			defer func() { recover() }()
			if v := st.Call("getItem", key); v.Type() == js.TypeString {
				stored = v.String()
			}
		}()
	}
	var browser []string
	if ls := global.Get("navigator").Get("languages"); ls.Truthy() {
		for i := 0; i < ls.Length(); i++ {
			browser = append(browser, ls.Index(i).String())
		}
	}
	setLanguage(session.PickLanguage(stored, browser, lang.tags))
	sel := byID("lang")
	if !sel.Truthy() {
		return
	}
	for _, tag := range lang.tags {
		o := textEl("option", "", lang.all[tag][session.NameKey])
		o.Set("value", tag)
		sel.Call("appendChild", o)
	}
	sel.Set("value", lang.tag)
	a.listen(dom.WrapElement(sel), "change", func(dom.Event) {
		tag := sel.Get("value").String()
		setLanguage(tag)
		if st, key, ok := storage(langKey); ok {
			func() {
				defer func() { recover() }()
				st.Call("setItem", key, tag)
			}()
		}
		a.setPlaying(a.playing) // its label
		if a.save != nil && a.save.problem == "" && a.save.on && !a.save.yielded {
			a.save.show(tr("save.saved"), savedTitle, false)
		}
	})
}

// setLanguage shows the page in tag: <html lang> and every element that
// names a key.
func setLanguage(tag string) {
	c, ok := lang.all[tag]
	if !ok {
		tag, c = "en", lang.all["en"]
	}
	lang.tag, lang.cat = tag, c
	document.Get("documentElement").Set("lang", tag)
	each := func(sel string, f func(e js.Value)) {
		list := document.Call("querySelectorAll", sel)
		for i, n := 0, list.Length(); i < n; i++ {
			f(list.Index(i))
		}
	}
	each("[data-i18n]", func(e js.Value) { e.Set("textContent", tr(e.Get("dataset").Get("i18n").String())) })
	for _, attr := range []string{"title", "aria-label", "placeholder"} {
		each("[data-i18n-"+attr+"]", func(e js.Value) {
			e.Call("setAttribute", attr, tr(e.Call("getAttribute", "data-i18n-"+attr).String()))
		})
	}
}
