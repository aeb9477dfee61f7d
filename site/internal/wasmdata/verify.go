package wasmdata

import (
	"bytes"
	"fmt"
)

// Verify checks that merged is module with only its data segments merged:
//
//   - both parse (5.5.16), with the same sections in the same order, each
//     byte-identical except the data section (5.5.12) and the data count
//     section (5.5.13), which must hold merged's number of segments;
//   - every segment that is not active in memory 0 at an i32.const address
//     is kept byte for byte and in order, and between two of them (and
//     before the first, after the last) the constant-address segments
//     leave memory 0 exactly as module's do, byte for byte from zeroed
//     memory;
//   - when memory 0 is imported or a segment of memory 0 has a computed
//     address, merged writes no address module does not write.
func Verify(module, merged []byte) error {
	a, err := parseSections(module)
	if err != nil {
		return fmt.Errorf("the input: %w", err)
	}
	b, err := parseSections(merged)
	if err != nil {
		return fmt.Errorf("the output: %w", err)
	}
	if len(a) != len(b) {
		return fmt.Errorf("%d sections, the input has %d", len(b), len(a))
	}
	var segsA, segsB []Segment
	for i := range a {
		if a[i].id != b[i].id {
			return fmt.Errorf("section %d has id %d, the input's %d", i, b[i].id, a[i].id)
		}
		switch a[i].id {
		case secData:
			if segsA, err = parseData(a[i].body); err != nil {
				return fmt.Errorf("the input: %w", err)
			}
			if segsB, err = parseData(b[i].body); err != nil {
				return fmt.Errorf("the output: %w", err)
			}
		case secDataCount:
		default:
			if !bytes.Equal(a[i].raw, b[i].raw) {
				return fmt.Errorf("section %d (id %d) differs", i, a[i].id)
			}
		}
	}
	for i := range b {
		if b[i].id == secDataCount {
			c, n, err := readU32(b[i].body)
			if err != nil || n != len(b[i].body) || int(c) != len(segsB) {
				return fmt.Errorf("the data count section does not say %d segments", len(segsB))
			}
		}
	}
	imported, err := importsMemory(a)
	if err != nil {
		return err
	}

	memA, memB := newImage(), newImage()
	strict := imported // no address may be written that was not
	ia, ib := 0, 0
	for {
		// Apply both sides up to their next kept segment.
		for ; ia < len(segsA) && segsA[ia].mergeable(); ia++ {
			memA.write(segsA[ia].Offset, segsA[ia].Init)
		}
		for ; ib < len(segsB) && segsB[ib].mergeable(); ib++ {
			memB.write(segsB[ib].Offset, segsB[ib].Init)
		}
		if err := memA.compare(memB, strict); err != nil {
			return err
		}
		if ia == len(segsA) || ib == len(segsB) {
			if ia != len(segsA) || ib != len(segsB) {
				return fmt.Errorf("the segments kept as they are differ in number")
			}
			return nil
		}
		if !bytes.Equal(segsA[ia].raw, segsB[ib].raw) {
			return fmt.Errorf("data segment %d of the input, kept as it is, differs in the output (segment %d)", ia, ib)
		}
		if s := segsA[ia]; s.Mode == Active && s.Memory == 0 {
			if s.ConstOffset { // out of range: traps at instantiation, on both sides
				memA.write(s.Offset, s.Init[:min(uint64(len(s.Init)), 1<<32-uint64(s.Offset))])
				memB.write(s.Offset, s.Init[:min(uint64(len(s.Init)), 1<<32-uint64(s.Offset))])
			} else if !strict {
				// From here on no address may be written that was not:
				// start counting them.
				strict = true
				memA.resetWritten()
				memB.resetWritten()
			}
		}
		ia++
		ib++
	}
}

// pageBits sizes the pages of an image: 64 KiB, WebAssembly's page.
const pageBits = 16

// page is 64 KiB of an image and which of its bytes were written.
type page struct {
	data    [1 << pageBits]byte
	written [1 << pageBits / 8]byte
}

// image is a sparse memory: the pages written so far, and those written
// since the last compare.
type image struct {
	pages map[uint32]*page
	dirty map[uint32]bool
}

func newImage() *image {
	return &image{pages: map[uint32]*page{}, dirty: map[uint32]bool{}}
}

// write copies b to address addr (addr+len(b) is at most 2^32).
func (m *image) write(addr uint32, b []byte) {
	for len(b) > 0 {
		k, off := addr>>pageBits, addr&(1<<pageBits-1)
		pg := m.pages[k]
		if pg == nil {
			pg = new(page)
			m.pages[k] = pg
		}
		n := copy(pg.data[off:], b)
		for i := off; i < off+uint32(n); i++ {
			pg.written[i/8] |= 1 << (i % 8)
		}
		m.dirty[k] = true
		b = b[n:]
		addr += uint32(n)
	}
}

// resetWritten forgets which bytes were written (not what they hold).
func (m *image) resetWritten() {
	for _, pg := range m.pages {
		clear(pg.written[:])
	}
}

// compare checks that the pages written since the last compare, on either
// side, hold the same bytes (and, if strict, the same bytes were written),
// and starts a new round.
func (m *image) compare(o *image, strict bool) error {
	var zero page
	for _, d := range []map[uint32]bool{m.dirty, o.dirty} {
		for k := range d {
			pa, pb := m.pages[k], o.pages[k]
			if pa == nil {
				pa = &zero
			}
			if pb == nil {
				pb = &zero
			}
			if pa.data != pb.data {
				i := 0
				for pa.data[i] == pb.data[i] {
					i++
				}
				addr := k<<pageBits | uint32(i)
				return fmt.Errorf("memory at 0x%x is 0x%02x after merging, 0x%02x before", addr, pb.data[i], pa.data[i])
			}
			if strict && pa.written != pb.written {
				return fmt.Errorf("the merged segments write other addresses of page 0x%x than the input's", k<<pageBits)
			}
		}
	}
	clear(m.dirty)
	clear(o.dirty)
	return nil
}
