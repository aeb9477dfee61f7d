// Command build builds the Cloudflare Worker (what `make worker` runs):
//
//	go run ./site/worker/cmd/build              # into site/worker/build
//	go run ./site/worker/cmd/build -o DIR       # elsewhere
//
// and prints the sizes that matter for Cloudflare's limits. See
// site/worker/README.md and package site/worker/workerbuild.
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
	"github.com/dsplayground/dsplay/site/worker/workerbuild"
)

func main() {
	out := flag.String("o", "", "output directory (default: site/worker/build in the module)")
	flag.Parse()
	log.SetFlags(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *out == "" {
		root, err := site.ModuleRoot(ctx)
		if err != nil {
			log.Fatalf("%v (or pass -o)", err)
		}
		*out = filepath.Join(root, "site", "worker", "build")
	}
	res, err := workerbuild.Build(ctx, *out)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(res.Summary())
}
