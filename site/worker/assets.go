//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall/js"
	"time"
)

// assetFS is a read-only fs.FS over a Workers Static Assets binding
// (env.ASSETS in production, a workerd "disk" service in tests): every file
// of the built web root is one `binding.fetch("https://assets.invalid/NAME")`.
//
// The binding has no directory listing, so ReadDir is not supported, and its
// responses carry no modification time: files report modTime (the Worker's
// build time, see main.go), which is what the HTTP handler sends as
// Last-Modified.
//
// Fetches are kept to one per name and request: Stat issues the GET and keeps
// the unread Response (its Content-Length is the size), and a later Open of
// the same name reads that Response's body instead of fetching again. A fresh
// Go instance serves each request (syumai/workers), so the cache lives for one
// request only; Release cancels the bodies nobody read (the siblings the
// handler looked at but did not send).
type assetFS struct {
	binding js.Value
	modTime time.Time

	mu      sync.Mutex
	entries map[string]*assetEntry
	// fetches counts binding fetches (reported in the X-Dsplay-Asset-Fetches
	// response header, which the Worker test reads).
	fetches int
}

// assetEntry is what one fetch told about a name.
type assetEntry struct {
	exists bool
	size   int64      // -1 when the response had no Content-Length
	resp   js.Value   // the unread Response, or undefined once taken
	body   []byte     // the whole body once read (a second Open reuses it)
	err    error      // a fetch failure other than 404
	once   sync.Mutex // serialises the first fetch of this name
	done   bool
}

// newAssetFS wraps binding, an object with a Fetch-API fetch method.
func newAssetFS(binding js.Value, modTime time.Time) *assetFS {
	return &assetFS{binding: binding, modTime: modTime, entries: map[string]*assetEntry{}}
}

var (
	_ fs.FS         = (*assetFS)(nil)
	_ fs.StatFS     = (*assetFS)(nil)
	_ fs.ReadFileFS = (*assetFS)(nil)
)

// entry returns the (fetched) entry for name, fetching it on first use.
func (a *assetFS) entry(name string) *assetEntry {
	a.mu.Lock()
	e, ok := a.entries[name]
	if !ok {
		e = &assetEntry{size: -1}
		a.entries[name] = e
	}
	a.mu.Unlock()

	e.once.Lock()
	defer e.once.Unlock()
	if !e.done {
		a.fetch(name, e)
		e.done = true
	}
	return e
}

// assetURL is the URL the binding is asked for: the path is what counts
// (Workers Static Assets and workerd's disk service both ignore the host).
func assetURL(name string) string {
	return "https://assets.invalid/" + (&url.URL{Path: name}).EscapedPath()
}

func (a *assetFS) fetch(name string, e *assetEntry) {
	a.mu.Lock()
	a.fetches++
	a.mu.Unlock()
	resp, err := await(a.binding.Call("fetch", assetURL(name)))
	if err != nil {
		e.err = fmt.Errorf("fetching asset %s: %w", name, err)
		return
	}
	status := resp.Get("status").Int()
	switch {
	case status == 404:
		cancelBody(resp)
		return
	case status < 200 || status > 299:
		cancelBody(resp)
		e.err = fmt.Errorf("fetching asset %s: HTTP %d", name, status)
		return
	}
	// workerd's disk service answers a directory with a JSON listing and no
	// Content-Length (Workers Static Assets has no directories at all): a
	// directory is not an asset.
	hdrs := resp.Get("headers")
	if hdrs.Call("get", "Content-Length").IsNull() && path.Ext(name) != ".json" &&
		strings.HasPrefix(hdrs.Call("get", "Content-Type").String(), "application/json") {
		cancelBody(resp)
		return
	}
	e.exists = true
	e.resp = resp
	if cl := hdrs.Call("get", "Content-Length"); cl.Type() == js.TypeString {
		if n, err := strconv.ParseInt(cl.String(), 10, 64); err == nil && n >= 0 {
			e.size = n
		}
	}
}

// readAll takes the entry's body: the kept Response's bytes on first use,
// the same bytes afterwards.
func (e *assetEntry) readAll() ([]byte, error) {
	e.once.Lock()
	defer e.once.Unlock()
	if e.body != nil {
		return e.body, nil
	}
	if e.resp.IsUndefined() {
		return nil, errors.New("asset body already streamed")
	}
	resp := e.resp
	e.resp = js.Undefined()
	buf, err := await(resp.Call("arrayBuffer"))
	if err != nil {
		return nil, err
	}
	u8 := js.Global().Get("Uint8Array").New(buf)
	b := make([]byte, u8.Get("byteLength").Int())
	js.CopyBytesToGo(b, u8)
	e.body = b
	e.size = int64(len(b))
	return b, nil
}

func validName(op, name string) error {
	if !fs.ValidPath(name) || name == "." || strings.HasSuffix(name, "/") {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return nil
}

// Stat reports name's size (from Content-Length; the body is read when the
// response had none) and the FS's modTime. Directories are not known: the
// root "." is reported as a directory, everything else either exists as a
// file or does not exist.
func (a *assetFS) Stat(name string) (fs.FileInfo, error) {
	if name == "." {
		return assetInfo{name: ".", dir: true, modTime: a.modTime}, nil
	}
	if err := validName("stat", name); err != nil {
		return nil, err
	}
	e := a.entry(name)
	if e.err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: e.err}
	}
	if !e.exists {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if e.size < 0 {
		if _, err := e.readAll(); err != nil {
			return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
		}
	}
	return assetInfo{name: path.Base(name), size: e.size, modTime: a.modTime}, nil
}

// ReadFile returns name's bytes.
func (a *assetFS) ReadFile(name string) ([]byte, error) {
	if err := validName("readfile", name); err != nil {
		return nil, err
	}
	e := a.entry(name)
	if e.err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: e.err}
	}
	if !e.exists {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrNotExist}
	}
	b, err := e.readAll()
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
	}
	return append([]byte(nil), b...), nil
}

// Open returns name as an fs.File that is also an io.ReadSeeker (what
// http.ServeContent wants). Its bytes are read from the binding on the first
// Read or Seek that needs them.
func (a *assetFS) Open(name string) (fs.File, error) {
	if name == "." {
		return &assetFile{fsys: a, info: assetInfo{name: ".", dir: true, modTime: a.modTime}}, nil
	}
	info, err := a.Stat(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.Unwrap(err)}
	}
	return &assetFile{fsys: a, name: name, info: info.(assetInfo)}, nil
}

// Release cancels the bodies of responses that were fetched but never read
// and reports how many fetches this FS made.
func (a *assetFS) Release() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, e := range a.entries {
		if e.resp.Type() == js.TypeObject {
			cancelBody(e.resp)
			e.resp = js.Undefined()
		}
	}
	return a.fetches
}

// assetFile is an open asset: Stat, Read, Seek, Close.
type assetFile struct {
	fsys *assetFS
	name string
	info assetInfo
	data []byte
	off  int64
}

func (f *assetFile) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *assetFile) load() error {
	if f.data != nil || f.info.dir {
		return nil
	}
	b, err := f.fsys.entry(f.name).readAll()
	if err != nil {
		return &fs.PathError{Op: "read", Path: f.name, Err: err}
	}
	f.data = b
	return nil
}

func (f *assetFile) Read(p []byte) (int, error) {
	if f.info.dir {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: errors.New("is a directory")}
	}
	if err := f.load(); err != nil {
		return 0, err
	}
	if f.off >= int64(len(f.data)) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += int64(n)
	return n, nil
}

// Seek moves the offset; seeking needs only the size, which Stat already
// knows, so http.ServeContent's size probe (Seek to the end and back) reads
// nothing.
func (f *assetFile) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = f.off + offset
	case io.SeekEnd:
		abs = f.info.size + offset
	default:
		return 0, errors.New("assetFile.Seek: invalid whence")
	}
	if abs < 0 {
		return 0, errors.New("assetFile.Seek: negative position")
	}
	f.off = abs
	return abs, nil
}

func (f *assetFile) Close() error { return nil }

// assetInfo is the fs.FileInfo of an asset.
type assetInfo struct {
	name    string
	size    int64
	dir     bool
	modTime time.Time
}

func (i assetInfo) Name() string       { return i.name }
func (i assetInfo) Size() int64        { return i.size }
func (i assetInfo) ModTime() time.Time { return i.modTime }
func (i assetInfo) IsDir() bool        { return i.dir }
func (i assetInfo) Sys() any           { return nil }
func (i assetInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

// cancelBody discards a Response's body without reading it.
func cancelBody(resp js.Value) {
	if body := resp.Get("body"); body.Type() == js.TypeObject {
		body.Call("cancel")
	}
}

// await waits for a JS promise; a rejection becomes an error.
func await(p js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	var then, catch js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		catch.Release()
		ch <- result{v: args[0]}
		return nil
	})
	catch = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		catch.Release()
		ch <- result{err: errors.New(js.Global().Get("String").Invoke(args[0]).String())}
		return nil
	})
	p.Call("then", then, catch)
	r := <-ch
	return r.v, r.err
}
