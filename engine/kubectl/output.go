package kubectl

import "strings"

// Chunk is a piece of a command's output in the order it was written:
// kubectl writes to stdout and stderr as it goes (a warning, then a result
// line, then another warning), and a terminal shows them interleaved.
// Adjacent writes to the same stream are merged into one chunk.
type Chunk struct {
	// Stderr is true for text written to standard error.
	Stderr bool
	// Text is the text written, usually whole lines ending in "\n".
	Text string
}

// stream is one of a command's output streams (stdout or stderr). It keeps
// the stream's own text and appends every write to the invocation's shared,
// ordered chunk list, like a terminal that shows both streams.
type stream struct {
	stderr bool
	chunks *[]Chunk
	text   []byte
}

// WriteString appends s to the stream and to the ordered chunks.
func (s *stream) WriteString(t string) (int, error) {
	if t == "" {
		return 0, nil
	}
	s.text = append(s.text, t...)
	if s.chunks != nil {
		AppendChunk(s.chunks, s.stderr, t)
	}
	return len(t), nil
}

// Write implements io.Writer (for fmt.Fprintf).
func (s *stream) Write(p []byte) (int, error) { return s.WriteString(string(p)) }

// String returns everything written to this stream.
func (s *stream) String() string { return string(s.text) }

// AppendChunk adds text to an ordered chunk list, merging it into the last
// chunk when that one is of the same stream. Empty text adds nothing.
func AppendChunk(chunks *[]Chunk, stderr bool, text string) {
	if text == "" {
		return
	}
	if n := len(*chunks); n > 0 && (*chunks)[n-1].Stderr == stderr {
		(*chunks)[n-1].Text += text
		return
	}
	*chunks = append(*chunks, Chunk{Stderr: stderr, Text: text})
}

// ChunkBuilder collects output in order like AppendChunk, without copying
// the text of a stream again for every piece added to it (a manifest of
// 1,000 nodes prints 1,000 lines into one chunk). The zero value is ready.
type ChunkBuilder struct {
	chunks []Chunk
	cur    strings.Builder
	stderr bool
	open   bool
}

// Add appends text (nothing when empty) to stderr or stdout.
func (b *ChunkBuilder) Add(stderr bool, text string) {
	if text == "" {
		return
	}
	if b.open && b.stderr != stderr {
		b.flush()
	}
	b.stderr, b.open = stderr, true
	b.cur.WriteString(text)
}

func (b *ChunkBuilder) flush() {
	if b.open {
		b.chunks = append(b.chunks, Chunk{Stderr: b.stderr, Text: b.cur.String()})
		b.cur.Reset()
		b.open = false
	}
}

// Chunks returns the chunks added so far, adjacent pieces of one stream
// merged, as AppendChunk would have built them.
func (b *ChunkBuilder) Chunks() []Chunk {
	b.flush()
	return b.chunks
}
