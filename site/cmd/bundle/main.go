// Command bundle writes the playground as one self-contained HTML file
// (the offline classroom: copy it to a USB stick, open it from file://):
//
//	go run ./site/cmd/bundle                       # writes bin/dsplay-playground.html
//	go run ./site/cmd/bundle -o /media/usb/dsplay.html
//	go run ./site/cmd/bundle -dir site/dist        # bundle an already built web root
//
// It builds the web root into a temporary directory (site.Build), then
// inlines it with site.Bundle, and prints the file's path and size.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/dsplayground/dsplay/site"
)

func main() {
	out := flag.String("o", "", "output file (default: bin/dsplay-playground.html in the module)")
	dir := flag.String("dir", "", "bundle this built web root instead of building one")
	flag.Parse()
	log.SetFlags(0)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	if *out == "" {
		root, err := site.ModuleRoot(ctx)
		if err != nil {
			log.Fatalf("%v (or pass -o)", err)
		}
		*out = filepath.Join(root, "bin", "dsplay-playground.html")
	}
	web := *dir
	if web == "" {
		tmp, err := os.MkdirTemp("", "dsplay-bundle-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		// The bundle needs the gzip of the wasm only: no brotli.
		if _, err := site.BuildWith(ctx, tmp, site.BuildOptions{BrotliQuality: -1}); err != nil {
			log.Fatal(err)
		}
		web = tmp
	}
	b, err := site.Bundle(os.DirFS(web))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		log.Fatal(err)
	}
	abs, _ := filepath.Abs(*out)
	fmt.Printf("%s (%.2f MB): open it from file:// (no server, no network)\n", abs, float64(len(b))/1e6)
}
