// Command hello prints a digest of data the linker lays out in memory (the
// Unicode tables, a composite literal, strings): the same line natively and,
// merged or not, as GOOS=js wasm under Node.
package main

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"unicode"
)

var table = []struct {
	name string
	n    int64
	f    float64
}{{"one", 1, 1.5}, {"", 0, 0}, {"two", 2, -2.25}, {"zeros\x00\x00\x00\x00\x00\x00\x00\x00\x00", 0, 0}, {"last", 1 << 40, 3}}

func main() {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(unicode.Categories)) {
		t := unicode.Categories[name]
		for _, r := range t.R16 {
			fmt.Fprint(h, r.Lo, r.Hi, r.Stride)
		}
		for _, r := range t.R32 {
			fmt.Fprint(h, r.Lo, r.Hi, r.Stride)
		}
	}
	for _, e := range table {
		fmt.Fprint(h, e.name, e.n, e.f)
	}
	fmt.Printf("wasmdata hello: %x\n", h.Sum(nil))
}
