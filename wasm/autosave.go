//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// Autosave (session.Saved): the page keeps its session in localStorage as
// the learner works and gives it back at the next load. The records, the
// decision taken at load (session.PlanRestore) and the tab rule
// (session.Claimed) are engine/session's; this file holds the storage,
// the top bar's note and Start over. An embed keeps no session (its page
// decides what it shows), and neither does a page whose storage is
// blocked: the top bar then says the work is not saved.

// Storage keys, after the page's prefix (storageKey).
const (
	savedKey  = "session.v1"     // the page's current session
	ownKey    = "session.own.v1" // the learner's own cluster, set aside
	brokenKey = "session.broken" // a record that could not be restored, kept rather than lost
	tabKey    = "dsplay.tab"     // sessionStorage: this tab's token, kept across its reloads
)

// saveEvery is the least wall time between two saves while the session
// changes (virtual time passing changes it every frame), in milliseconds;
// hiding or leaving the page saves at once.
const saveEvery = 2000

// restoreBudget bounds the wall time of replaying a saved session at load
// (a long class session replays more than a share link's ReplayWallBudget).
const restoreBudget = 30 * time.Second

// autosave is the page's saving state.
type autosave struct {
	a   *app
	on  bool   // the page saves (not an embed, storage available)
	tab string // this tab's token (Saved.Tab)
	// yielded: another tab saved over this tab's record; this tab no longer
	// saves until the learner says so (claim).
	yielded bool
	// problem is why the last save failed ("" when it worked).
	problem string
	last    saveMark // what the last save wrote
	lastMs  float64  // performance.now() of the last save
	ownRec  *engine.Recorder
	status  js.Value // the top bar's note
	claim   js.Value // its "Save this tab instead" button
	// live: the address bar holds the session's share link, kept up to
	// date at each save (the Share panel's opt-in); liveTooLong: the
	// session has outgrown a link (said once).
	live, liveTooLong bool
	idle              bool // a save waits for idle time
}

// saveMark is what a save depends on: a save is needed when it changed.
type saveMark struct {
	rec    *engine.Recorder
	inputs int
	clock  time.Duration
	editor string
	ctx    session.Context
}

// initAutosave decides whether the page saves and wires the top bar's note
// and Start over. It runs before the page loads its starting state.
func (a *app) initAutosave() {
	s := &autosave{a: a, status: byID("autosave"), claim: byID("autosave-claim")}
	a.save = s
	if embedMode() || embedReadonly() {
		s.hide()
		return
	}
	if _, _, ok := storage(savedKey); !ok {
		const why = "This browser keeps no data for this page (storage is blocked, as in some private windows): a reload starts over. Share or Download scenario keeps your work."
		s.show("Not saved", why, true)
		if b := byID("share-live"); b.Truthy() {
			b.Get("parentElement").Set("hidden", true) // it follows the saves
		}
		if n := byID("autosave-note"); n.Truthy() {
			n.Set("textContent", why)
		}
		return
	}
	s.on = true
	s.tab = s.tabToken()
	a.listen(dom.WrapElement(global), "storage", func(ev dom.Event) { s.onStorage(ev.Underlying()) })
	a.listen(dom.GetWindow(), "pagehide", func(dom.Event) { s.saveNow() })
	a.listen(dom.GetWindow().Document(), "visibilitychange", func(dom.Event) {
		if document.Get("visibilityState").String() == "hidden" {
			s.saveNow()
		}
	})
	if s.claim.Truthy() {
		a.listen(dom.WrapElement(s.claim), "click", func(dom.Event) { s.takeOver() })
	}
	if b := byID("share-live"); b.Truthy() {
		if st, key, ok := storage(liveKey); ok {
			func() {
				defer func() { recover() }()
				s.live = st.Call("getItem", key).Type() == js.TypeString
			}()
		}
		b.Set("checked", s.live)
		a.listen(dom.WrapElement(b), "change", func(dom.Event) { s.setLive(b.Get("checked").Bool()) })
	}
	if b := byID("start-over"); b.Truthy() {
		b.Set("hidden", false)
		a.listen(dom.WrapElement(b), "click", func(dom.Event) { a.startOver() })
	}
	s.show(tr("save.saved"), savedTitle, false)
}

// savedTitle explains the top bar's note while saving works.
const savedTitle = "Saved in this browser: your session (manifests, commands, clock, the lesson open) is kept as you work, and a reload or a closed tab gives it back. Share → Start over clears it."

// tabToken returns this tab's token: kept in sessionStorage, so a reload
// of the tab is the same tab, else new.
func (s *autosave) tabToken() string {
	defer func() { recover() }()
	ss := global.Get("Reflect").Call("get", global, "sessionStorage")
	if ss.Truthy() {
		if v := ss.Call("getItem", tabKey); v.Type() == js.TypeString && v.String() != "" {
			return v.String()
		}
	}
	t := strconv.FormatInt(int64(global.Get("Math").Call("random").Float()*1e15), 36) + strconv.FormatInt(int64(global.Get("Date").Call("now").Float()), 36)
	if ss.Truthy() {
		ss.Call("setItem", tabKey, t)
	}
	return t
}

// read returns the record under key (nil, "" when there is none; nil and
// the error when it cannot be read).
func (s *autosave) read(key string) (*session.Saved, string, error) {
	st, full, ok := storage(key)
	if !ok {
		return nil, "", nil
	}
	var text js.Value
	func() {
		defer func() {
			if recover() != nil {
				text = js.Null()
			}
		}()
		text = st.Call("getItem", full)
	}()
	if text.Type() != js.TypeString {
		return nil, "", nil
	}
	rec, err := session.DecodeSaved(text.String())
	if err != nil {
		return nil, text.String(), err
	}
	return &rec, text.String(), nil
}

// write stores value under key ("" removes it); the error is the
// browser's (full, blocked).
func (s *autosave) write(key, value string) (err error) {
	st, full, ok := storage(key)
	if !ok {
		return errors.New("storage is blocked")
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if value == "" {
		st.Call("removeItem", full)
	} else {
		st.Call("setItem", full, value)
	}
	return nil
}

// mark is what the page would save now.
func (s *autosave) mark() saveMark {
	a := s.a
	m := saveMark{rec: a.rec, inputs: len(a.rec.Inputs()), clock: a.rec.Live().Elapsed(), editor: a.ed.ta.Get("value").String()}
	if c := a.currentShareContext(); c != nil {
		m.ctx = *c
		m.ctx.EditorText = ""
	}
	return m
}

// frame saves when the session changed and saveEvery has passed (not while
// a command runs: the Recorder is mid-input), in the browser's next idle
// time (requestIdleCallback, within a second): exporting a long session
// takes milliseconds a frame should not spend.
func (s *autosave) frame() {
	if s == nil || !s.on || s.yielded || s.idle || s.a.kc.waiting || nowMs()-s.lastMs < saveEvery {
		return
	}
	ric := global.Get("requestIdleCallback")
	if !ric.Truthy() {
		s.saveIfChanged()
		return
	}
	s.idle = true
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		s.idle = false
		if !s.yielded && !s.a.kc.waiting && !s.a.stopped {
			defer s.a.recoverAt("autosave")
			s.saveIfChanged()
		}
		return nil
	})
	global.Call("requestIdleCallback", f, map[string]any{"timeout": 1000})
}

// saveNow saves at once if the session changed (the page is hidden or
// left).
func (s *autosave) saveNow() {
	if !s.on || s.yielded || s.a.kc.waiting {
		return
	}
	defer s.a.recoverAt("autosave")
	s.saveIfChanged()
}

// saveIfChanged saves what changed since the last save (looked at most
// every saveEvery from frames).
func (s *autosave) saveIfChanged() {
	s.lastMs = nowMs()
	m := s.mark()
	if m == s.last {
		s.saveOwn()
		return
	}
	s.last = m
	s.save()
	s.saveOwn()
	if s.live {
		s.updateAddress()
	}
}

// liveKey remembers the Share panel's "Keep the link in the address bar".
const liveKey = "share.live"

// setLive turns the live address on or off (and remembers it); on, the
// address is brought up to date at once.
func (s *autosave) setLive(on bool) {
	s.live = on
	v := ""
	if on {
		v = "1"
	}
	s.write(liveKey, v)
	if on {
		s.updateAddress()
	}
}

// updateAddress puts the session's share link in the address bar
// (history.replaceState: no new history entry, no reload) and saves again,
// so the saved record's Origin is the new address. A session too long for
// a link leaves the address without a fragment, said once.
func (s *autosave) updateAddress() {
	a := s.a
	a.linkOf(exportScenario(a.rec, "", false), func(link string, frag, _ int, err error) {
		defer a.recoverAt("live share link")
		if err != nil {
			return
		}
		if frag > session.MaxShareFragment {
			link = global.Get("location").Get("href").String()
			if i := strings.IndexByte(link, '#'); i >= 0 {
				link = link[:i]
			}
			if !s.liveTooLong {
				s.liveTooLong = true
				a.kc.note("The cluster's history is now too long for the address bar: the address no longer holds a link (Share → Download scenario keeps it).\n")
			}
		} else {
			s.liveTooLong = false
			// the address keeps its query (paused, a lesson named: a
			// fragment takes precedence over what the query opens)
			if q := global.Get("location").Get("search").String(); q != "" && !strings.Contains(strings.SplitN(link, "#", 2)[0], "?") {
				link = strings.Replace(link, "#s=", q+"#s=", 1)
			}
		}
		if link == global.Get("location").Get("href").String() {
			return
		}
		global.Get("history").Call("replaceState", global.Get("history").Get("state"), "", link)
		if s.on && !s.yielded {
			s.save()
		}
	})
}

// save writes the page's session (session.EncodeSaved), and says in the top
// bar when that fails.
func (s *autosave) save() {
	a := s.a
	loc := global.Get("location")
	rec := session.Saved{
		Build:    session.Build(),
		Tab:      s.tab,
		SavedAt:  global.Get("Date").Call("now").Float(),
		Origin:   session.OriginKey(loc.Get("search").String(), loc.Get("hash").String()),
		Clock:    a.rec.Live().Elapsed().Seconds(),
		Inputs:   len(a.rec.Inputs()),
		Work:     lessons == nil || lessons.hasWork(a.rec),
		Scenario: string(exportScenario(a.rec, "", false)),
	}
	text, err := session.EncodeSaved(rec)
	if err == nil {
		err = s.write(savedKey, text)
		if err != nil {
			err = fmt.Errorf("the browser refused to store it (%v): storage may be full", err)
		}
	}
	s.failed(err)
}

// saveOwn keeps the learner's own cluster, set aside while something is
// opened over it (lessonsUI.aside), or removes it once it is restored.
func (s *autosave) saveOwn() {
	var held *engine.Recorder
	text := ""
	if lessons != nil {
		held, text = lessons.aside.Peek()
	}
	if held == s.ownRec {
		return
	}
	s.ownRec = held
	if held == nil {
		s.write(ownKey, "")
		return
	}
	sc := session.Export(held, session.ExportOptions{Context: &session.Context{EditorText: text}})
	v, err := session.EncodeSaved(session.Saved{Build: session.Build(), Tab: s.tab, SavedAt: global.Get("Date").Call("now").Float(), Clock: held.Live().Elapsed().Seconds(), Inputs: len(held.Inputs()), Work: true, Scenario: string(sc)})
	if err == nil {
		err = s.write(ownKey, v)
	}
	if err != nil {
		s.failed(fmt.Errorf("your own cluster, set aside, could not be kept: %v", err))
	}
}

// failed shows why saving failed (nil: saving works again).
func (s *autosave) failed(err error) {
	switch {
	case err == nil && s.problem != "":
		s.problem = ""
		s.show(tr("save.saved"), savedTitle, false)
	case err != nil && err.Error() != s.problem:
		s.problem = err.Error()
		s.show("Not saved", "The last change was not saved in this browser: "+s.problem+". Share or Download scenario keeps your work.", true)
	}
}

// onStorage follows another tab's writes: when it saved its own session
// over this tab's (session.Claimed), this tab stops saving and says so.
func (s *autosave) onStorage(ev js.Value) {
	defer s.a.recoverAt("autosave: another tab")
	_, full, ok := storage(savedKey)
	if !ok || ev.Get("key").String() != full || s.yielded {
		return
	}
	nv := ev.Get("newValue")
	if nv.Type() != js.TypeString {
		return // cleared (Start over in another tab): this tab saves again at its next change
	}
	other, err := session.DecodeSaved(nv.String())
	if err != nil || !session.Claimed(&other, s.tab) {
		return
	}
	s.yielded = true
	s.show("Open in another tab", "This session is also open in another tab, which saved its own work: changes made here are not saved, so neither tab's work is overwritten. Save this tab instead keeps this one (the other tab then stops saving).", true)
	if s.claim.Truthy() {
		s.claim.Set("hidden", false)
	}
}

// takeOver makes this tab the one that saves again (the other tab sees
// the write and stops).
func (s *autosave) takeOver() {
	s.yielded = false
	if s.claim.Truthy() {
		s.claim.Set("hidden", true)
	}
	s.show(tr("save.saved"), savedTitle, false)
	s.last = saveMark{}
	s.saveNow()
}

// show sets the top bar's note (warn: in the warning colour).
func (s *autosave) show(text, title string, warn bool) {
	if !s.status.Truthy() {
		return
	}
	s.status.Set("hidden", false)
	s.status.Set("textContent", text)
	s.status.Set("title", title)
	cls := "autosave"
	if warn {
		cls += " warn"
	}
	s.status.Set("className", cls)
}

func (s *autosave) hide() {
	if s.status.Truthy() {
		s.status.Set("hidden", true)
	}
}

// restoreAtLoad gives the page its saved session back when the address
// allows it (session.PlanRestore) and reports whether it did; it keeps
// the saved session aside when the address opens something over it. A
// record that cannot be restored is kept under brokenKey, said in the
// console, and the page opens as if none was saved.
func (a *app) restoreAtLoad() bool {
	s := a.save
	if s == nil || !s.on {
		return false
	}
	cur, raw, err := s.read(savedKey)
	if err != nil {
		s.keepBroken(raw, err)
		return false
	}
	own, ownRaw, ownErr := s.read(ownKey)
	if ownErr != nil {
		s.keepBroken(ownRaw, ownErr)
		own = nil
	}
	loc := global.Get("location")
	origin := session.OriginKey(loc.Get("search").String(), loc.Get("hash").String())
	plan := session.PlanRestore(origin, cur, own != nil)
	if own != nil {
		a.deferOwnRestore(*own)
	}
	switch plan {
	case session.RestoreSaved:
		if err := a.restoreSaved(*cur); err != nil {
			s.keepBroken(raw, err)
			a.resetCluster(engine.Options{})
			return false
		}
		return true
	case session.KeepAndOpenAddress:
		// the learner's work becomes their own cluster, set aside
		if err := s.write(ownKey, raw); err == nil {
			a.deferOwnRestore(*cur)
		}
	}
	return false
}

// restoreSaved replays rec on a new cluster (within restoreBudget) and
// says so in the console.
func (a *app) restoreSaved(rec session.Saved) error {
	data := []byte(rec.Scenario)
	if err := a.resetCluster(session.ScenarioOptions("saved session", data)); err != nil {
		return err
	}
	if err := replayScenarioWithin(a.rec, "saved session", data, restoreBudget); err != nil {
		return err
	}
	dropResetNotes()
	when := global.Get("Date").New(rec.SavedAt).Call("toLocaleString").String()
	defer a.madeByNote(data)
	a.showReplayedSaying(fmt.Sprintf("Restored your session from this browser (saved %s): %s, now at t=%s. Share → Start over clears it.", when, plural(len(a.rec.Inputs()), "action"), formatElapsed(a.rec.Live().Elapsed())))
	a.save.last = a.save.mark()
	a.save.lastMs = nowMs()
	return nil
}

// keepBroken keeps a record that could not be restored under brokenKey and
// says so: the learner's work is not lost, and the page does not fail on
// it again.
func (s *autosave) keepBroken(raw string, err error) {
	s.write(brokenKey, raw)
	s.write(savedKey, "")
	msg := fmt.Sprintf("Your saved session could not be restored (%v). The page starts over; the saved text is kept in this browser's storage under %q.", err, brokenKey)
	s.a.kc.note(msg + "\n")
	global.Get("console").Call("warn", msg)
}

// deferOwnRestore replays the learner's own cluster (rec, kept in storage)
// after the page is up and sets it aside, so "Restore my cluster" brings
// it back.
func (a *app) deferOwnRestore(rec session.Saved) {
	var f js.Func
	f = js.FuncOf(func(js.Value, []js.Value) any {
		f.Release()
		defer a.recoverAt("autosave: your own cluster")
		if lessons == nil || lessons.aside.Held() != nil {
			return nil
		}
		data := []byte(rec.Scenario)
		r := engine.NewRecorder(session.ScenarioOptions("your own cluster", data))
		setCheckpoints(r)
		c, err := session.ReplayUntil(r, "your own cluster", data, time.Now().Add(restoreBudget))
		if err != nil {
			a.save.keepBroken(rec.Scenario, err)
			return nil
		}
		text := ""
		if c != nil {
			text = c.EditorText
		}
		lessons.aside.Hold(r, text)
		a.save.ownRec = r
		a.restoreNote(r, fmt.Sprintf("Your own cluster (t = %s, saved in this browser) is set aside while this page shows what its address opens. ", formatElapsed(r.Live().Elapsed())))
		return nil
	})
	global.Call("setTimeout", f, 0)
}

// startOver clears the saved session and starts the page over on the
// default example; the console's Undo brings the session back.
func (a *app) startOver() {
	defer a.recoverAt("Start over")
	if a.kc.waiting {
		a.kc.note("Start over waits until the kubectl command running returns (Ctrl+C ends it).\n")
		return
	}
	a.flushJobs()
	if sp := byID("share-panel"); sp.Truthy() {
		sp.Set("hidden", true)
		byID("share").Call("setAttribute", "aria-expanded", "false")
	}
	prev, text := a.rec, a.ed.ta.Get("value").String()
	if lessons != nil && lessons.cur != nil {
		lessons.close()
	}
	if err := a.resetCluster(engine.Options{}); err != nil {
		return
	}
	a.ed.setText(exampleManifests[0].Text)
	a.applyNow()
	a.view.render(true)
	if s := a.save; s != nil && s.on {
		s.write(savedKey, "")
		s.last = s.mark()
	}
	n := textEl("div", "note", "Started over: a new cluster with the example, and this browser's saved session cleared. ")
	b := textEl("button", "ctl", "Undo")
	b.Set("type", "button")
	b.Set("id", "start-over-undo")
	n.Call("appendChild", b)
	a.kc.push(n)
	a.listen(dom.WrapElement(b), "click", func(dom.Event) {
		b.Set("disabled", true)
		a.installRecorder(prev)
		for _, h := range resetHooks {
			h(a)
		}
		a.ed.setText(text)
		a.kc.note("Undid Start over: your session is back.\n")
		if s := a.save; s != nil {
			s.last = saveMark{}
			s.saveNow()
		}
	})
}
