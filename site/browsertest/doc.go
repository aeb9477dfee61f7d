// Package browsertest drives the playground in headless Chromium (Debian's
// chromium package) with github.com/chromedp/chromedp: it builds the web
// root (site.Build), serves it on 127.0.0.1 with site/web.New, and checks
// what a user sees. Virtual time is driven explicitly through
// window.dsplay.advance; the tests poll for conditions with a timeout and
// never sleep for fixed times.
//
// DSPLAY_SKIP_BROWSER=1 skips them; DSPLAY_CHROMIUM names another browser
// binary; DSPLAY_SCREENSHOTS=DIR writes screenshots there (default: a
// temporary directory, named in the log).
package browsertest
