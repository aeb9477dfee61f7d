// Command wasmmerge merges the data segments of a GOOS=js wasm module
// (package site/internal/wasmdata, what site.Build does to every wasm it
// writes) and reports what it saved:
//
//	go run ./site/cmd/wasmmerge -o out.wasm in.wasm    # merge in.wasm into out.wasm
//	go run ./site/cmd/wasmmerge -sizes in.wasm         # raw, gzip -9 and brotli -q 11 before and after (make wasm-size)
//	go run ./site/cmd/wasmmerge -sizes -gaps 0,64,4096 in.wasm   # the same for several gaps
//	wasmmerge -exec prog.wasm ARGS...                  # merge, then run under Node with Go's go_js_wasm_exec
//
// With -exec it is a `go test -exec` wrapper: `make test-wasm-merged` runs
// the wasm package's tests from the merged test binary.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dsplayground/dsplay/site"
	"github.com/dsplayground/dsplay/site/internal/wasmdata"
)

func main() {
	gap := flag.Int("gap", wasmdata.DefaultMaxGap, "largest gap of zero bytes to fill between segments")
	gaps := flag.String("gaps", "", "with -sizes: a comma-separated list of gaps to measure")
	out := flag.String("o", "", "write the merged module to this file")
	sizes := flag.Bool("sizes", false, "print raw, gzip -9 and brotli sizes before and after")
	brotliQ := flag.Int("brotli", 11, "with -sizes: brotli quality, as the .br files are compressed (11: 30-80 s a module, cached by content; 0: no brotli)")
	execMode := flag.Bool("exec", false, "merge the module, then run it under Node with the remaining arguments")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("wasmmerge: ")
	if flag.NArg() < 1 {
		log.Fatal("usage: wasmmerge [-gap N] [-o out.wasm] [-sizes] in.wasm | wasmmerge -exec prog.wasm args...")
	}
	in, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	if *execMode {
		os.Exit(runMerged(flag.Arg(0), in, *gap, flag.Args()[1:]))
	}
	if *sizes {
		list := []int{*gap}
		if *gaps != "" {
			list = nil
			for _, f := range strings.Split(*gaps, ",") {
				n, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					log.Fatalf("-gaps: %v", err)
				}
				list = append(list, n)
			}
		}
		printSizes(in, list, *brotliQ)
	}
	if *out != "" {
		m, st, err := wasmdata.Merge(in, *gap)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(*out, m, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d segments → %d, %d → %d bytes\n", *out, st.SegmentsIn, st.SegmentsOut, st.SizeIn, st.SizeOut)
	}
}

// runMerged merges prog and runs the result under Node with Go's
// go_js_wasm_exec (from the go command's GOROOT), returning its exit
// status. A module that cannot be merged is an error: the point is to run
// the merged one.
func runMerged(prog string, in []byte, gap int, args []string) int {
	m, st, err := wasmdata.Merge(in, gap)
	if err != nil {
		log.Printf("%s: %v", prog, err)
		return 2
	}
	log.Printf("running %s with its data segments merged: %d → %d", filepath.Base(prog), st.SegmentsIn, st.SegmentsOut)
	tmp := filepath.Join(filepath.Dir(prog), "merged."+filepath.Base(prog))
	if err := os.WriteFile(tmp, m, 0o755); err != nil {
		log.Print(err)
		return 2
	}
	defer os.Remove(tmp)
	goroot := os.Getenv("GOROOT")
	if goroot == "" {
		b, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			log.Printf("go env GOROOT: %v", err)
			return 2
		}
		goroot = strings.TrimSpace(string(b))
	}
	cmd := exec.Command(filepath.Join(goroot, "lib", "wasm", "go_js_wasm_exec"), append([]string{tmp}, args...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		log.Print(err)
		return 2
	}
	return 0
}

// printSizes prints the module's sizes and segment count, then the same
// for each gap's merged module.
func printSizes(in []byte, gaps []int, brotliQ int) {
	segs, err := wasmdata.Segments(in)
	if err != nil {
		log.Fatal(err)
	}
	base := measure(in, brotliQ)
	fmt.Printf("%-22s %7d segments  raw %s  gzip -9 %s%s\n", "linked (go build)", len(segs), mb(int64(len(in))), mb(base.gz), brStr(base.br, brotliQ))
	for _, g := range gaps {
		t0 := time.Now()
		m, st, err := wasmdata.Merge(in, g)
		took := time.Since(t0)
		if err != nil {
			fmt.Printf("gap %d: %v\n", g, err)
			continue
		}
		s := measure(m, brotliQ)
		fmt.Printf("%-22s %7d segments  raw %s  gzip -9 %s%s  (%s raw, %s gzip%s; merge+verify %d ms)\n",
			fmt.Sprintf("merged, gap ≤ %d", g), st.SegmentsOut, mb(int64(len(m))), mb(s.gz), brStr(s.br, brotliQ),
			delta(int64(len(m))-int64(len(in))), delta(s.gz-base.gz), brDelta(s.br-base.br, brotliQ), took.Milliseconds())
	}
}

type compressed struct{ gz, br int64 }

func measure(b []byte, brotliQ int) compressed {
	var c compressed
	var wg sync.WaitGroup
	wg.Go(func() {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		c.gz = int64(buf.Len())
	})
	if brotliQ > 0 {
		wg.Go(func() {
			br, err := site.Brotli(b, brotliQ)
			if err != nil {
				log.Fatal(err)
			}
			c.br = int64(len(br))
		})
	}
	wg.Wait()
	return c
}

func mb(n int64) string { return fmt.Sprintf("%9d B (%.2f MB)", n, float64(n)/1e6) }

func delta(n int64) string { return fmt.Sprintf("%+.1f KB", float64(n)/1e3) }

func brStr(n int64, q int) string {
	if q <= 0 {
		return ""
	}
	return fmt.Sprintf("  brotli -q %d %s", q, mb(n))
}

func brDelta(n int64, q int) string {
	if q <= 0 {
		return ""
	}
	return ", " + delta(n) + " brotli"
}
