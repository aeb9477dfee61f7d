package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
)

// The one-file offline bundle (make bundle): the page with its style sheets
// and scripts inline and the wasm inside as base64 of its gzip, so it works
// opened from file:// with no network (a page from file:// cannot fetch
// its .wasm; browser-notes.md). The lessons and examples are in the wasm.

var (
	// stylesheetLink is a <link rel="stylesheet" href="X"> of the page.
	stylesheetLink = regexp.MustCompile(`<link rel="stylesheet" href="([^"]+)"\s*/?>`)
	// scriptSrc is a <script src="X" ...></script> of the page.
	scriptSrc = regexp.MustCompile(`<script src="([^"]+)"[^>]*></script>`)
	// dataWasm is the loader's data-wasm attribute.
	dataWasm = regexp.MustCompile(`data-wasm="([^"]+)"`)
	// charsetMeta is where the bundle's CSP goes: first thing in <head>.
	charsetMeta = regexp.MustCompile(`<meta charset="[^"]*">`)
)

// Bundle returns the one-file offline page built from a web root written
// by Build (its index.html, the files it references and the wasm its
// loader names):
//
//   - every <link rel="stylesheet"> becomes a <style> element and every
//     <script src> an inline <script> with the file's text;
//   - the wasm is a data block, <script type="application/octet-stream"
//     id="dsplay-wasm" data-encoding="gzip">, holding base64 of its gzip
//     (the .gz sibling when the root has one); boot.js decodes it with
//     DecompressionStream and instantiateStreaming;
//   - a <meta http-equiv="Content-Security-Policy"> allows exactly those
//     inline scripts and styles by their SHA-256, 'wasm-unsafe-eval', and
//     nothing from the network (connect-src 'none'), so the bundle keeps
//     the site's policy: no other inline script can run in it.
//
// It is about 1.35 times the size of the wasm's gzip.
func Bundle(root fs.FS) ([]byte, error) {
	page, err := fs.ReadFile(root, "index.html")
	if err != nil {
		return nil, fmt.Errorf("bundle: %w (build the web root first)", err)
	}
	m := dataWasm.FindSubmatch(page)
	if m == nil {
		return nil, fmt.Errorf("bundle: index.html names no wasm (data-wasm): is it a built web root?")
	}
	wasmName := string(m[1])
	gz, err := fs.ReadFile(root, wasmName+".gz")
	if err != nil {
		raw, err := fs.ReadFile(root, wasmName)
		if err != nil {
			return nil, fmt.Errorf("bundle: %w", err)
		}
		gz = gzipBytes(raw)
	}

	var scriptHashes, styleHashes []string
	hash := func(text string) string {
		sum := sha256.Sum256([]byte(text))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	var ferr error
	page = stylesheetLink.ReplaceAllFunc(page, func(tag []byte) []byte {
		name := string(stylesheetLink.FindSubmatch(tag)[1])
		css, err := fs.ReadFile(root, name)
		if err != nil {
			ferr = fmt.Errorf("bundle: style sheet %w", err)
			return tag
		}
		if bytes.Contains(bytes.ToLower(css), []byte("</style")) {
			ferr = fmt.Errorf("bundle: %s contains </style", name)
		}
		text := "\n" + string(css) + "\n"
		styleHashes = append(styleHashes, hash(text))
		return []byte("<style>" + text + "</style>")
	})
	first := true
	page = scriptSrc.ReplaceAllFunc(page, func(tag []byte) []byte {
		name := string(scriptSrc.FindSubmatch(tag)[1])
		js, err := fs.ReadFile(root, name)
		if err != nil {
			ferr = fmt.Errorf("bundle: script %w", err)
			return tag
		}
		if bytes.Contains(bytes.ToLower(js), []byte("</script")) {
			ferr = fmt.Errorf("bundle: %s contains </script", name)
		}
		text := "\n" + string(js) + "\n"
		scriptHashes = append(scriptHashes, hash(text))
		out := "<script>" + text + "</script>"
		if first {
			// The wasm goes before the first script: the loader finds it
			// parsed. A data block (unknown type) is never executed.
			first = false
			out = `<script type="application/octet-stream" id="dsplay-wasm" data-encoding="gzip">` +
				base64.StdEncoding.EncodeToString(gz) + "</script>\n" + out
		}
		return []byte(out)
	})
	if ferr != nil {
		return nil, ferr
	}
	if first {
		return nil, fmt.Errorf("bundle: index.html has no <script src>")
	}
	csp := BundleCSP(scriptHashes, styleHashes)
	loc := charsetMeta.FindIndex(page)
	if loc == nil {
		return nil, fmt.Errorf("bundle: index.html has no <meta charset>")
	}
	meta := "\n<meta http-equiv=\"Content-Security-Policy\" content=\"" + csp + "\">"
	page = append(page[:loc[1]:loc[1]], append([]byte(meta), page[loc[1]:]...)...)
	return page, nil
}

// BundleCSP is the bundle's policy: its own inline scripts and styles by
// hash (quoted 'sha256-...' sources), wasm compilation, the data: icon, and
// nothing else. frame-ancestors cannot be set from a <meta> element (the
// bundle may be framed by any page that has it).
func BundleCSP(scriptHashes, styleHashes []string) string {
	return "default-src 'none'; script-src " + strings.Join(scriptHashes, " ") + " 'wasm-unsafe-eval'; " +
		"style-src " + strings.Join(styleHashes, " ") + "; img-src data:; connect-src 'none'; " +
		"object-src 'none'; base-uri 'none'; form-action 'none'"
}
