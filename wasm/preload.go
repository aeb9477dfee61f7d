//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// preloadButton is the one-click preload a pod waiting in
// ErrImageNeverPull offers (engine.PodView.NeverPulled): the image
// imported on every node, as the seed article's author did by hand with
// `ctr -n k8s.io image import` on each node (Recorder.PreloadImage, so a
// share link or an export replays it).
func (v *view) preloadButton(image string) js.Value {
	b := textEl("button", "ctl preload", "Preload "+image+" on every node")
	b.Set("type", "button")
	b.Get("dataset").Set("image", image)
	b.Set("title", "Import "+image+" into every node's image store, as `ctr -n k8s.io image import` on each node would: the pods waiting for it start (imagePullPolicy: Never never pulls)")
	v.a.listen(dom.WrapElement(b), "click", func(dom.Event) { v.a.preloadImage(image) })
	return b
}

// preloadImage preloads image on every node and says so in the console.
func (a *app) preloadImage(image string) {
	defer a.recoverAt("preload")
	if a.kc.waiting {
		a.kc.note("The preload waits until the kubectl command running returns (Ctrl+C ends it).\n")
		return
	}
	a.flushJobs()
	a.tl.leavePast()
	if err := a.rec.PreloadImage(image); err != nil {
		a.kc.note(fmt.Sprintf("Could not preload %s: %v\n", image, err))
		return
	}
	a.kc.note(fmt.Sprintf("Preloaded %s on every node (recorded as `registry preloaded`): the kubelets find it at their next sync, and pods waiting for it start.\n", image))
	a.view.render(true)
}
