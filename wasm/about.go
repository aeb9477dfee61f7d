//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/session"
)

// initAbout fills in the top bar's Kubernetes release (engine.KubernetesVersion)
// and wires its dialog, which says the release, the build (session.Build)
// and what is simulated.
func (a *app) initAbout() {
	for _, id := range []string{"k8s-version", "about-version"} {
		if e := byID(id); e.Truthy() {
			e.Set("textContent", engine.KubernetesVersion)
		}
	}
	if e := byID("about-build"); e.Truthy() {
		e.Set("textContent", session.Build())
	}
	d, open := byID("about"), byID("about-open")
	if !d.Truthy() || !open.Truthy() {
		return
	}
	a.listen(dom.WrapElement(open), "click", func(dom.Event) {
		if d.Get("showModal").Truthy() {
			d.Call("showModal")
		} else {
			d.Set("open", true)
		}
	})
	if c := byID("about-close"); c.Truthy() {
		a.listen(dom.WrapElement(c), "click", func(dom.Event) { d.Call("close") })
	}
}
