package manifest

import (
	"path/filepath"
	"strings"
	"testing"
)

func benchDecode(b *testing.B, text string) {
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		Decode("bench.yaml", text)
	}
}

// BenchmarkDecodeExample decodes the fluentd-elasticsearch example (valid).
func BenchmarkDecodeExample(b *testing.B) {
	benchDecode(b, readFileB(b, filepath.Join("testdata", "seeds", "fluentd-elasticsearch.yaml")))
}

// BenchmarkDecodeFlattened decodes the seed's flattened copy (errors and repair hints).
func BenchmarkDecodeFlattened(b *testing.B) {
	benchDecode(b, readFileB(b, filepath.Join("testdata", "mangled", "fluentd-flattened.yaml")))
}

// BenchmarkDecodeManyDocuments decodes 400 valid DaemonSets (~96 KB).
func BenchmarkDecodeManyDocuments(b *testing.B) {
	benchDecode(b, strings.Repeat(minimalDS+"---\n", 400))
}

// BenchmarkDecodeManyFlattenedLines decodes 20,000 flattened lines (~560 KB):
// the line hints must stay linear.
func BenchmarkDecodeManyFlattenedLines(b *testing.B) {
	benchDecode(b, strings.Repeat("metadata:name: xlabels:a: b\n", 20000))
}

func readFileB(b *testing.B, path string) string {
	data, err := readFileErr(path)
	if err != nil {
		b.Fatal(err)
	}
	return data
}
