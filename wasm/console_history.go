//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/dsplayground/dsplay/engine/session"
)

// historyKey names the console's command history in localStorage, after
// the page's prefix (storageKey: dsplay.kubectl.history on the full site).
const historyKey = "kubectl.history"

// maxHistory bounds the history kept (in memory and in localStorage).
const maxHistory = 500

// history is the console's command history, browsed with the arrow keys
// and kept across reloads in localStorage when the page may use it (a
// sandboxed frame or blocked storage throws on access: the history then
// lives for the page only). Consecutive duplicates are stored once.
type history struct {
	items []string
	// loaded counts the items at the start of items that came from
	// storage: the `history` a parent page runs through postMessage shows
	// only the others (this page's own commands).
	loaded int
	// pos is the entry shown while browsing; len(items) when not browsing.
	pos int
	// draft is the line being typed when browsing started, given back
	// when browsing goes past the newest entry.
	draft string
}

// storage returns window.localStorage and the full key of name in it (the
// page's prefix, session.StoragePrefix: an embed has keys of its own,
// partitioned by the embedding origin, and a page another origin may drive
// none of the full site's), or false when the page keeps nothing: storage
// blocked, or no partition for it.
func storage(name string) (s js.Value, key string, ok bool) {
	prefix, ok := storagePrefix()
	if !ok {
		return js.Undefined(), "", false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	// Reflect.get, not Value.Get: a getter that throws (storage blocked)
	// becomes a recoverable panic through Call, while a throw inside Get
	// would stop the Go program.
	s = global.Get("Reflect").Call("get", global, "localStorage")
	return s, prefix + name, s.Truthy()
}

// storageScope is the page's storage prefix, decided once.
var storageScope struct {
	done   bool
	prefix string
	ok     bool
}

// storagePrefix is session.StoragePrefix for this page, read from the URL
// and the frame it is in (before initEmbed runs: the console loads its
// history first).
func storagePrefix() (string, bool) {
	if !storageScope.done {
		storageScope.done = true
		storageScope.prefix, storageScope.ok = session.StoragePrefix(storageFrame())
	}
	return storageScope.prefix, storageScope.ok
}

// storageFrame reads the facts session.StoragePrefix decides on.
func storageFrame() session.StorageFrame {
	q := urlQuery()
	f := session.StorageFrame{
		Own:   global.Get("location").Get("origin").String(),
		Embed: q.Call("has", "embed").Bool() || document.Get("documentElement").Get("dataset").Get("mode").String() == "embed",
		Drive: q.Call("has", "origin").Bool(),
	}
	parent := global.Get("parent")
	f.Framed = parent.Truthy() && !parent.Equal(global)
	if f.Framed {
		f.Parent = embeddingOrigin()
	}
	return f
}

// load reads the stored history; anything unreadable is ignored.
func (h *history) load() {
	defer func() { recover() }() // a throwing storage or malformed JSON: start empty
	h.pos = len(h.items)
	s, key, ok := storage(historyKey)
	if !ok {
		return
	}
	v := s.Call("getItem", key)
	if v.Type() != js.TypeString {
		return
	}
	arr := global.Get("JSON").Call("parse", v)
	if !global.Get("Array").Call("isArray", arr).Bool() {
		return
	}
	n := arr.Length()
	for i := max(0, n-maxHistory); i < n; i++ {
		if e := arr.Index(i); e.Type() == js.TypeString && e.String() != "" {
			h.items = append(h.items, e.String())
		}
	}
	h.loaded = len(h.items)
	h.pos = len(h.items)
}

// save writes the history; a full or refused storage keeps it in memory only.
func (h *history) save() {
	defer func() { recover() }()
	s, key, ok := storage(historyKey)
	if !ok {
		return
	}
	arr := make([]any, len(h.items))
	for i, e := range h.items {
		arr[i] = e
	}
	s.Call("setItem", key, global.Get("JSON").Call("stringify", js.ValueOf(arr)))
}

// add appends a line run (not when it repeats the newest entry) and ends browsing.
func (h *history) add(line string) {
	if len(h.items) == 0 || h.items[len(h.items)-1] != line {
		h.items = append(h.items, line)
		if len(h.items) > maxHistory {
			cut := len(h.items) - maxHistory
			h.items = append([]string(nil), h.items[cut:]...)
			h.loaded = max(0, h.loaded-cut)
		}
		h.save()
	}
	h.reset()
}

// reset ends browsing.
func (h *history) reset() {
	h.pos = len(h.items)
	h.draft = ""
}

// prev returns the entry before the one shown (cur is the input's text,
// kept as the draft when browsing starts); false at the oldest.
func (h *history) prev(cur string) (string, bool) {
	if h.pos <= 0 {
		return "", false
	}
	if h.pos == len(h.items) {
		h.draft = cur
	}
	h.pos--
	return h.items[h.pos], true
}

// next returns the entry after the one shown, or the draft past the
// newest; false when not browsing.
func (h *history) next() (string, bool) {
	if h.pos >= len(h.items) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.items) {
		return h.draft, true
	}
	return h.items[h.pos], true
}
