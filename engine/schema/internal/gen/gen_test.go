package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/dsplayground/dsplay/engine/schema"
)

// TestCommittedSchemaIsCurrent fails when engine/schema/schema.bin is not
// what the generator produces from the pinned k8s.io/api now: run
// `go generate ./engine/schema` after changing the generator or the version.
func TestCommittedSchemaIsCurrent(t *testing.T) {
	committed, err := os.ReadFile("../../schema.bin")
	if err != nil {
		t.Fatal(err)
	}
	got, err := schema.Decompress(committed)
	if err != nil {
		t.Fatalf("schema.bin does not decompress: %v", err)
	}
	want, err := GenerateJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("engine/schema/schema.bin is stale (%d bytes of JSON committed, %d generated): run go generate ./engine/schema", len(got), len(want))
	}
}

func TestFmtRawDoc(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"One line\nand another.\n", "One line and another."},
		{"Para one.\n\nPara two.\n+optional\n", "Para one.\n\nPara two."},
		{"Intro:\n\tcode line\nafter\n", "Intro:\n\tcode line\nafter"},
		{"Kept.\n---\nDropped.\n", "Kept."},
		{"TODO: drop me\nKeep me.\n", "Keep me."},
	} {
		if got := fmtRawDoc(c.in); got != c.want {
			t.Errorf("fmtRawDoc(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
