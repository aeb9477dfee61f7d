//go:build js && wasm

package main

import (
	"io/fs"
	"net/http"

	"github.com/dsplayground/dsplay/site/web"
)

// newHandler is the playground's handler (site/web, the same one `make
// serve` runs) over the Worker's assets, with /api.
func newHandler(root fs.FS) http.Handler {
	return web.New(root, web.Options{})
}
