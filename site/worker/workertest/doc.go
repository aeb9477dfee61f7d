// Package workertest tests the Cloudflare Worker of site/worker under
// workerd (from site/worker/node_modules, pinned by package-lock.json): it
// builds the Worker as `make worker` does into a temporary directory, serves
// it with site/worker/workerd.capnp (ASSETS bound to a disk service over the
// built web root) and checks the pages, the hashed and pre-compressed wasm,
// and /api, serves the same build with `wrangler dev --local` (TestWrangler),
// and opens the page and embed.html in headless Chromium (TestBrowser;
// DSPLAY_SKIP_BROWSER=1 skips it). Its tests log the Worker's
// size, workerd's start time, the per-request latency and the page's load
// time and transferred bytes; BenchmarkWorker measures requests.
//
// Needs npm (Debian's nodejs and npm) unless site/worker/node_modules is
// installed (`make worker-deps`); with npm absent and DSPLAY_SKIP_WORKER=1
// the tests skip.
package workertest
