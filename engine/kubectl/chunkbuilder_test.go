package kubectl

import (
	"reflect"
	"testing"
)

// TestChunkBuilderMatchesAppendChunk: the builder gives the chunks
// AppendChunk builds, for every interleaving of the streams and empty text.
func TestChunkBuilderMatchesAppendChunk(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces []Chunk
	}{
		{"empty", nil},
		{"only empty text", []Chunk{{Text: ""}, {Stderr: true, Text: ""}}},
		{"one stream", []Chunk{{Text: "a\n"}, {Text: "b\n"}, {Text: "c\n"}}},
		{"interleaved", []Chunk{{Stderr: true, Text: "w1\n"}, {Text: "a\n"}, {Text: "b\n"}, {Stderr: true, Text: "w2\n"}, {Text: "c\n"}}},
		{"empty between same stream", []Chunk{{Text: "a\n"}, {Stderr: true, Text: ""}, {Text: "b\n"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []Chunk
			var b ChunkBuilder
			for _, p := range tc.pieces {
				AppendChunk(&want, p.Stderr, p.Text)
				b.Add(p.Stderr, p.Text)
			}
			if got := b.Chunks(); !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
	}
}
