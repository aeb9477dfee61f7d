// Package wasmdata merges the data segments of a WebAssembly module after
// linking.
//
// The Go linker (GOOS=js GOARCH=wasm) writes the initial contents of linear
// memory as up to 100,000 small active data segments: it starts a new
// segment wherever 8 or more zero bytes follow, which keeps the raw file
// small but costs every segment a header (a flag, an i32.const offset
// expression and a length) that compresses badly. Merge rewrites the data
// section so that consecutive active segments of memory 0 separated by at
// most a few zero bytes become one segment, the gap written out as zeros:
// exactly what linear memory holds there, since memory starts zeroed. The
// served (gzip, brotli) module gets smaller; the memory image is the same
// byte for byte, and every other section is left byte-identical.
//
// References are to the WebAssembly Core Specification 2.0, chapter 5
// (binary format): 5.2.2 integers (LEB128), 5.4.9 expressions, 5.5.2
// sections, 5.5.5 import section, 5.5.12 data section, 5.5.13 data count
// section, 5.5.16 modules.
package wasmdata

import (
	"bytes"
	"errors"
	"fmt"
)

// DefaultMaxGap is the largest run of zero bytes between two segments that
// Merge fills in (bytes), chosen by measuring the playground's module
// (100,000 segments as linked; `go run ./site/cmd/wasmmerge -sizes -gaps
// 16,32,64,512,4096 FILE`): 16 merges to 90,875 segments (-34 KB gzip),
// 32 to 572 (-183 KB gzip, -113 KB brotli -q 11), 64 to 89 (-185 KB gzip,
// -118 KB brotli, +968 KB raw); wider gaps save under 1 KB more gzip and
// none brotli, and add raw bytes.
const DefaultMaxGap = 64

// Section ids (5.5.2).
const (
	secCustom    = 0
	secImport    = 2
	secCode      = 10
	secData      = 11
	secDataCount = 12
)

// Instruction opcodes that occur in offset expressions (5.4.9, 5.4.1).
const (
	opEnd       = 0x0b
	opGlobalGet = 0x23
	opI32Const  = 0x41
	opI64Const  = 0x42
	opI32Add    = 0x6a
	opI32Sub    = 0x6b
	opI32Mul    = 0x6c
	opI64Add    = 0x7c
	opI64Sub    = 0x7d
	opI64Mul    = 0x7e
	opPrefixFC  = 0xfc // memory.init is 0xFC 8, data.drop 0xFC 9 (5.4.6)
)

// Stats describes what Merge did. Sizes are in bytes.
type Stats struct {
	// SegmentsIn and SegmentsOut count the data segments before and after.
	SegmentsIn, SegmentsOut int
	// ZeroFill is the number of zero bytes written into the gaps.
	ZeroFill int64
	// SizeIn and SizeOut are the module's sizes before and after.
	SizeIn, SizeOut int
}

// Mode is a data segment's mode (5.5.12).
type Mode int

// The two modes of a data segment.
const (
	Active  Mode = iota // copied into memory at instantiation
	Passive             // copied only by memory.init
)

// Segment is one data segment of a module (5.5.12).
type Segment struct {
	// Mode says whether the segment is active or passive.
	Mode Mode
	// Memory is an active segment's memory index.
	Memory uint32
	// ConstOffset reports whether an active segment's offset expression
	// is a single i32.const; Offset is then the address of its first byte
	// (the constant read as unsigned, as the memory instructions do).
	ConstOffset bool
	Offset      uint32
	// Init is the segment's bytes (a slice of the module).
	Init []byte
	// raw is the segment's whole encoding, flags to the last byte of Init.
	raw []byte
}

// mergeable reports whether the segment is active in memory 0 at a
// constant address and ends below 2^32 (one that does not would trap at
// instantiation; it is kept as it is).
func (s *Segment) mergeable() bool {
	return s.Mode == Active && s.Memory == 0 && s.ConstOffset && uint64(s.Offset)+uint64(len(s.Init)) <= 1<<32
}

// end is the address after the segment's last byte.
func (s *Segment) end() uint64 { return uint64(s.Offset) + uint64(len(s.Init)) }

// section is one section of a module (5.5.2): raw is its whole encoding
// (id, size, contents), body its contents.
type section struct {
	id   byte
	raw  []byte
	body []byte
}

// parseSections splits a binary module (5.5.16: magic, version 1,
// sections) into its sections.
func parseSections(m []byte) ([]section, error) {
	if len(m) < 8 || string(m[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly binary module (no \\0asm magic)")
	}
	if !bytes.Equal(m[4:8], []byte{1, 0, 0, 0}) {
		return nil, fmt.Errorf("binary format version %x, want 1", m[4:8])
	}
	var secs []section
	seen := map[byte]bool{}
	for p := 8; p < len(m); {
		start := p
		id := m[p]
		p++
		size, n, err := readU32(m[p:])
		if err != nil {
			return nil, fmt.Errorf("section %d at byte %d: size: %v", id, start, err)
		}
		p += n
		if uint64(p)+uint64(size) > uint64(len(m)) {
			return nil, fmt.Errorf("section %d at byte %d: %d bytes run past the end of the module", id, start, size)
		}
		if id != secCustom {
			if seen[id] {
				return nil, fmt.Errorf("section %d appears twice", id)
			}
			seen[id] = true
		}
		secs = append(secs, section{id: id, raw: m[start : p+int(size)], body: m[p : p+int(size)]})
		p += int(size)
	}
	return secs, nil
}

// Segments returns the data segments of a binary module, in order (none
// when it has no data section).
func Segments(module []byte) ([]Segment, error) {
	secs, err := parseSections(module)
	if err != nil {
		return nil, err
	}
	for _, s := range secs {
		if s.id == secData {
			return parseData(s.body)
		}
	}
	return nil, nil
}

// parseData decodes a data section's contents: a vector of segments, each
// flags 0 (active, memory 0: offset expression, bytes), 1 (passive:
// bytes) or 2 (active: memory index, offset expression, bytes) (5.5.12).
func parseData(b []byte) ([]Segment, error) {
	count, p, err := readU32(b)
	if err != nil {
		return nil, fmt.Errorf("data section: segment count: %v", err)
	}
	if uint64(count) > uint64(len(b)) { // each segment takes at least a byte
		return nil, fmt.Errorf("data section: %d segments in %d bytes", count, len(b))
	}
	segs := make([]Segment, 0, count)
	for i := uint32(0); i < count; i++ {
		start := p
		fail := func(what string, err error) ([]Segment, error) {
			return nil, fmt.Errorf("data segment %d at byte %d of the section: %s: %v", i, start, what, err)
		}
		flags, n, err := readU32(b[p:])
		if err != nil {
			return fail("flags", err)
		}
		p += n
		var s Segment
		switch flags {
		case 0, 2:
			s.Mode = Active
			if flags == 2 {
				if s.Memory, n, err = readU32(b[p:]); err != nil {
					return fail("memory index", err)
				}
				p += n
			}
			n, c, ok, err := readOffset(b[p:])
			if err != nil {
				return fail("offset expression", err)
			}
			p += n
			s.ConstOffset, s.Offset = ok, c
		case 1:
			s.Mode = Passive
		default:
			return fail("flags", fmt.Errorf("%d is not 0, 1 or 2", flags))
		}
		size, n, err := readU32(b[p:])
		if err != nil {
			return fail("size", err)
		}
		p += n
		if uint64(p)+uint64(size) > uint64(len(b)) {
			return fail("bytes", fmt.Errorf("%d bytes run past the end of the section", size))
		}
		s.Init = b[p : p+int(size)]
		p += int(size)
		s.raw = b[start:p]
		segs = append(segs, s)
	}
	if p != len(b) {
		return nil, fmt.Errorf("data section: %d bytes after the last segment", len(b)-p)
	}
	return segs, nil
}

// readOffset reads an offset expression (5.4.9: instructions then end),
// returning its length in bytes and, when it is a single i32.const, the
// constant as an unsigned address. Other constant expressions (global.get,
// i64.const for 64-bit memories, the extended-const additions) are
// skipped over; anything else is an error.
func readOffset(b []byte) (n int, offset uint32, isConst bool, err error) {
	if len(b) > 0 && b[0] == opI32Const {
		v, m, err := readS32(b[1:])
		if err == nil && 1+m < len(b) && b[1+m] == opEnd {
			return 2 + m, uint32(v), true, nil
		}
	}
	p := 0
	for {
		if p >= len(b) {
			return 0, 0, false, errors.New("no end")
		}
		op := b[p]
		p++
		switch op {
		case opEnd:
			return p, 0, false, nil
		case opI32Const:
			_, m, err := readS32(b[p:])
			if err != nil {
				return 0, 0, false, err
			}
			p += m
		case opI64Const:
			_, m, err := readSLEB(b[p:], 64)
			if err != nil {
				return 0, 0, false, err
			}
			p += m
		case opGlobalGet:
			_, m, err := readU32(b[p:])
			if err != nil {
				return 0, 0, false, err
			}
			p += m
		case opI32Add, opI32Sub, opI32Mul, opI64Add, opI64Sub, opI64Mul:
		default:
			return 0, 0, false, fmt.Errorf("opcode 0x%02x is not supported in an offset expression", op)
		}
	}
}

// Merge rewrites module's data section (5.5.12): each run of consecutive
// active segments of memory 0 with i32.const offsets, in ascending order,
// where each starts at most maxGap bytes after the previous one ends,
// becomes one segment with the gaps filled with zero bytes. A segment that
// overlaps or precedes the previous one starts a new run, and so does any
// other segment (passive, another memory, another offset expression), which
// is kept as it is and where it is: the segments' order is unchanged. Gaps
// are filled only where nothing was written before, so only where memory
// is still zero: not when memory 0 is imported (its contents are the
// host's), nor after a segment whose address is not a constant (it may
// have written anywhere), nor where an earlier segment wrote into the gap.
// Adjacent segments (gap 0) are always merged.
//
// The data count section (5.5.13), if present, gets the new count. Merging
// renumbers segments, so when one is present and the code section may name
// a segment (memory.init or data.drop, 0xFC 8 and 0xFC 9; without a data
// count section the code cannot, 5.5.13) Merge refuses. Every other section
// is copied byte for byte.
//
// Merge verifies its result with Verify and returns an error rather than a
// module that does not pass; the caller should then use module as it is.
func Merge(module []byte, maxGap int) ([]byte, Stats, error) {
	st := Stats{SizeIn: len(module)}
	if maxGap < 0 {
		return nil, st, fmt.Errorf("negative gap %d", maxGap)
	}
	secs, err := parseSections(module)
	if err != nil {
		return nil, st, err
	}
	var data, dataCount, code *section
	for i := range secs {
		switch secs[i].id {
		case secData:
			data = &secs[i]
		case secDataCount:
			dataCount = &secs[i]
		case secCode:
			code = &secs[i]
		}
	}
	if data == nil {
		return nil, st, errors.New("no data section")
	}
	segs, err := parseData(data.body)
	if err != nil {
		return nil, st, err
	}
	st.SegmentsIn = len(segs)
	if dataCount != nil {
		c, n, err := readU32(dataCount.body)
		if err != nil || n != len(dataCount.body) {
			return nil, st, fmt.Errorf("data count section: malformed (%v)", err)
		}
		if int(c) != len(segs) {
			return nil, st, fmt.Errorf("data count section says %d segments, the data section has %d", c, len(segs))
		}
		if code != nil && mayUseDataIndex(code.body) {
			return nil, st, errors.New("the code may name data segments by index (memory.init or data.drop): merging would renumber them")
		}
	}
	imported, err := importsMemory(secs)
	if err != nil {
		return nil, st, err
	}

	body, n, zeros := mergeSegments(segs, maxGap, imported)
	st.SegmentsOut, st.ZeroFill = n, zeros
	var out bytes.Buffer
	out.Grow(len(module))
	out.Write(module[:8])
	for _, s := range secs {
		switch {
		case &s.raw[0] == &data.raw[0]:
			writeSection(&out, secData, body)
		case dataCount != nil && &s.raw[0] == &dataCount.raw[0]:
			writeSection(&out, secDataCount, appendU32(nil, uint32(n)))
		default:
			out.Write(s.raw)
		}
	}
	st.SizeOut = out.Len()
	if err := Verify(module, out.Bytes()); err != nil {
		return nil, st, fmt.Errorf("the merged module fails verification: %w", err)
	}
	return out.Bytes(), st, nil
}

// mergeSegments encodes the merged data section's contents and returns it
// with its number of segments and the zero bytes it added (see Merge).
func mergeSegments(segs []Segment, maxGap int, imported bool) (body []byte, count int, zeros int64) {
	var out []byte
	var (
		run      []byte   // the current run's bytes
		runStart uint32   // its address
		runSegs  int      // how many segments it holds
		first    *Segment // its first segment, written as it is when alone
		// written holds the addresses the segments so far write; unknown
		// is set once a segment may have written anywhere.
		written = coverage{}
		unknown = imported
	)
	flush := func() {
		switch {
		case runSegs == 1:
			out = append(out, first.raw...)
		case runSegs > 1:
			out = append(out, 0, opI32Const)
			out = appendS32(out, int32(runStart))
			out = append(out, opEnd)
			out = appendU32(out, uint32(len(run)))
			out = append(out, run...)
		}
		if runSegs > 0 {
			count++
		}
		run, runSegs, first = run[:0], 0, nil
	}
	for i := range segs {
		s := &segs[i]
		if !s.mergeable() {
			flush()
			out = append(out, s.raw...)
			count++
			if s.Mode == Active && s.Memory == 0 {
				if s.ConstOffset {
					written.add(s.Offset, min(uint64(len(s.Init)), 1<<32-uint64(s.Offset)))
				} else {
					unknown = true
				}
			}
			continue
		}
		if runSegs > 0 {
			end := uint64(runStart) + uint64(len(run))
			if uint64(s.Offset) >= end {
				gap := uint64(s.Offset) - end
				// The gap still holds zeros unless a segment before wrote there.
				if gap == 0 || (gap <= uint64(maxGap) && !unknown && !written.any(uint32(end), gap)) {
					run = append(run, make([]byte, gap)...)
					run = append(run, s.Init...)
					runSegs++
					zeros += int64(gap)
					written.add(s.Offset, uint64(len(s.Init)))
					continue
				}
			}
			flush()
		}
		runStart, runSegs, first = s.Offset, 1, s
		run = append(run[:0], s.Init...)
		written.add(s.Offset, uint64(len(s.Init)))
	}
	flush()
	return append(appendU32(nil, uint32(count)), out...), count, zeros
}

// mayUseDataIndex reports whether a code section's contents may hold
// memory.init or data.drop (0xFC followed by the u32 8 or 9, in any of
// its LEB128 encodings): a byte scan that finds every real one and
// sometimes bytes of other instructions.
func mayUseDataIndex(code []byte) bool {
	for i := 0; i+1 < len(code); i++ {
		if code[i] != opPrefixFC {
			continue
		}
		if v, _, err := readU32(code[i+1:]); err == nil && (v == 8 || v == 9) {
			return true
		}
	}
	return false
}

// importsMemory reports whether the module imports a memory (5.5.5):
// imports come first in the memory index space, so memory 0 is then the
// host's and need not start zeroed.
func importsMemory(secs []section) (bool, error) {
	for _, s := range secs {
		if s.id != secImport {
			continue
		}
		b := s.body
		count, p, err := readU32(b)
		if err != nil {
			return false, fmt.Errorf("import section: %v", err)
		}
		for i := uint32(0); i < count; i++ {
			for range 2 { // module name, field name
				l, n, err := readU32(b[p:])
				if err != nil || uint64(p+n)+uint64(l) > uint64(len(b)) {
					return false, fmt.Errorf("import %d: malformed name", i)
				}
				p += n + int(l)
			}
			if p >= len(b) {
				return false, fmt.Errorf("import %d: no description", i)
			}
			kind := b[p]
			p++
			var n int
			switch kind {
			case 0x00, 0x04: // function: type index; tag: 0x00, type index
				if kind == 0x04 {
					p++
				}
				_, n, err = readU32(safe(b, p))
			case 0x01: // table: reference type, limits
				if n, err = skipRefType(safe(b, p)); err == nil {
					p += n
					n, err = skipLimits(safe(b, p))
				}
			case 0x02: // memory
				return true, nil
			case 0x03: // global: value type, mutability
				if n, err = skipRefType(safe(b, p)); err == nil {
					n++
				}
			default:
				return false, fmt.Errorf("import %d: unknown kind 0x%02x", i, kind)
			}
			if err != nil {
				return false, fmt.Errorf("import %d: %v", i, err)
			}
			p += n
		}
	}
	return false, nil
}

func safe(b []byte, p int) []byte {
	if p > len(b) {
		return nil
	}
	return b[p:]
}

// skipRefType skips a value or reference type: one byte, or 0x63/0x64
// (ref null, ref) and a heap type (s33).
func skipRefType(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, errors.New("no type")
	}
	if b[0] == 0x63 || b[0] == 0x64 {
		_, n, err := readSLEB(b[1:], 33)
		return 1 + n, err
	}
	return 1, nil
}

// skipLimits skips limits: flags, a minimum and, with flag bit 0, a
// maximum (bit 2: 64-bit; bit 3: a page size exponent follows).
func skipLimits(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, errors.New("no limits")
	}
	flags, p := b[0], 1
	fields := 1
	if flags&1 != 0 {
		fields++
	}
	if flags&8 != 0 {
		fields++
	}
	for range fields {
		_, n, err := readULEB(safe(b, p), 64)
		if err != nil {
			return 0, err
		}
		p += n
	}
	return p, nil
}

// writeSection writes a section: its id, its size as a u32 and contents.
func writeSection(w *bytes.Buffer, id byte, body []byte) {
	w.WriteByte(id)
	w.Write(appendU32(nil, uint32(len(body))))
	w.Write(body)
}
