// Command serve builds the playground's web root and serves it:
//
//	go run ./site/cmd/serve                 # build into site/dist, serve on 127.0.0.1:8080
//	PORT=9000 go run ./site/cmd/serve       # another port
//	go run ./site/cmd/serve -build-only     # build site/dist and exit
//	go run ./site/cmd/serve -no-build -dir DIR   # serve an existing web root
//	go run ./site/cmd/serve -build-only -brotli 11   # the release web root (make build)
//
// It serves with package site/web (the handler the Worker runs too):
// pre-compressed brotli and gzip, immutable caching of the content-hashed
// wasm, scripts and style sheets, the Content-Security-Policy, and /api.
// It needs no network at run time: every file comes from the web root.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/dsplayground/dsplay/site"
	"github.com/dsplayground/dsplay/site/web"
)

func main() {
	dir := flag.String("dir", "", "web root to build into and serve (default: site/dist in the module)")
	noBuild := flag.Bool("no-build", false, "serve -dir as it is, without building")
	buildOnly := flag.Bool("build-only", false, "build the web root and exit")
	brotliQ := flag.Int("brotli", 5, "brotli quality of the .br files, 1-11 (5: under a second for the wasm; 11, what make build uses: about 10% smaller, 30-80 s, cached by content; 0: no .br files)")
	addr := flag.String("addr", "", "listen address (default 127.0.0.1:$PORT, PORT defaults to 8080)")
	flag.Parse()
	log.SetFlags(0)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	if *dir == "" {
		root, err := site.ModuleRoot(ctx)
		if err != nil {
			log.Fatalf("%v (or pass -dir)", err)
		}
		*dir = filepath.Join(root, "site", "dist")
	}
	if !*noBuild {
		q := *brotliQ
		if q == 0 {
			q = -1
		}
		res, err := site.BuildWith(ctx, *dir, site.BuildOptions{BrotliQuality: q})
		if err != nil {
			log.Fatal(err)
		}
		log.Printf("built %s in %.1fs: %s %.2f MB (gzip %.2f MB, brotli %.2f MB; %d data segments, %d as linked, merged in %d ms)", res.Dir, res.Took.Seconds(),
			res.WasmName, float64(res.WasmBytes)/1e6, float64(res.WasmGzipBytes)/1e6, float64(res.WasmBrotliBytes)/1e6,
			res.WasmMerge.Segments, res.WasmMerge.LinkedSegments, res.WasmMerge.Took.Milliseconds())
	} else if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		log.Fatalf("%s has no index.html: build it first (go run ./site/cmd/serve -build-only)", *dir)
	}
	if *buildOnly {
		return
	}

	if *addr == "" {
		port := os.Getenv("PORT")
		if port == "" {
			port = "8080"
		}
		*addr = net.JoinHostPort("127.0.0.1", port)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	srv := newServer(logRequests(web.New(os.DirFS(*dir), web.Options{})), defaultLimits)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	log.Printf("DaemonSet Playground: http://%s/", ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatal(err)
	}
}

// limits bound what one client may hold of the server: a client that trickles
// its request header, dawdles over a body or keeps an idle connection open is
// cut off instead of holding a connection (and its goroutine) for ever.
type limits struct {
	readHeader time.Duration // the request line and headers, from the first byte
	read       time.Duration // the whole request, body included (/api takes up to 256 KiB)
	idle       time.Duration // a keep-alive connection between requests
	maxHeader  int           // bytes of request line and headers (431 beyond)
}

// defaultLimits: generous for a browser on classroom Wi-Fi, short for a client
// that sends a byte every few seconds. There is no write timeout: the wasm (a
// few MB) may take long to reach a slow reader, and the handler streams it from
// the web root (an /api run stops by itself after 10 s).
var defaultLimits = limits{
	readHeader: 10 * time.Second,
	read:       30 * time.Second,
	idle:       60 * time.Second,
	maxHeader:  64 << 10,
}

func newServer(h http.Handler, l limits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.readHeader,
		ReadTimeout:       l.read,
		IdleTimeout:       l.idle,
		MaxHeaderBytes:    l.maxHeader,
	}
}

func logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if os.Getenv("DSPLAY_QUIET") == "" {
			log.Printf("%s %s", r.Method, r.URL.Path)
		}
		h.ServeHTTP(w, r)
	})
}
