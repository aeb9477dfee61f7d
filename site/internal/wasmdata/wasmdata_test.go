package wasmdata

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Hand-made modules (5.5.16): the magic and version, then sections.

func module(sections ...[]byte) []byte {
	return append([]byte("\x00asm\x01\x00\x00\x00"), bytes.Join(sections, nil)...)
}

func sec(id byte, body []byte) []byte {
	return append(append([]byte{id}, appendU32(nil, uint32(len(body)))...), body...)
}

// paddedSec writes the section size as a 5-byte u32, as the Go linker does.
func paddedSec(id byte, body []byte) []byte {
	n := uint32(len(body))
	return append([]byte{id, byte(n) | 0x80, byte(n>>7) | 0x80, byte(n>>14) | 0x80, byte(n>>21) | 0x80, byte(n >> 28)}, body...)
}

func vec(items ...[]byte) []byte {
	return append(appendU32(nil, uint32(len(items))), bytes.Join(items, nil)...)
}

func name(s string) []byte { return append(appendU32(nil, uint32(len(s))), s...) }

func dataSec(segs ...[]byte) []byte { return sec(secData, vec(segs...)) }

func dataCountSec(n uint32) []byte { return sec(secDataCount, appendU32(nil, n)) }

func customSec(n, content string) []byte { return paddedSec(secCustom, append(name(n), content...)) }

// active is a flags-0 segment at an i32.const address.
func active(off uint32, init string) []byte {
	b := append([]byte{0, opI32Const}, appendS32(nil, int32(off))...)
	return append(append(append(b, opEnd), appendU32(nil, uint32(len(init)))...), init...)
}

// activeMem is a flags-2 segment of memory mem.
func activeMem(mem, off uint32, init string) []byte {
	b := append([]byte{2}, appendU32(nil, mem)...)
	return append(b, active(off, init)[1:]...)
}

// activeGlobal is a segment at the address held by global 0.
func activeGlobal(init string) []byte {
	return append([]byte{0, opGlobalGet, 0, opEnd}, append(appendU32(nil, uint32(len(init))), init...)...)
}

func passive(init string) []byte {
	return append(append([]byte{1}, appendU32(nil, uint32(len(init)))...), init...)
}

// memSec defines one memory of one page; exportMem exports memory 0 as
// "mem"; importMem imports it (env.mem, one page); importGlobal imports an
// immutable i32 (env.g).
var (
	memSec       = sec(5, vec([]byte{0, 1}))
	exportMem    = sec(7, vec(append(name("mem"), 2, 0)))
	importMem    = sec(secImport, vec(append(append(name("env"), name("mem")...), 2, 0, 1)))
	importGlobal = sec(secImport, vec(append(append(name("env"), name("g")...), 3, 0x7f, 0)))
	importBoth   = sec(secImport, vec(append(append(name("env"), name("g")...), 3, 0x7f, 0),
		append(append(name("env"), name("mem")...), 2, 0, 1)))
)

// describe lists a module's segments as strings: "0x10:ab" for an active
// segment of memory 0 at a constant address, "passive:ab", "mem1@0x10:ab",
// "computed:ab", with zero bytes shown as ".".
func describe(t *testing.T, m []byte) []string {
	t.Helper()
	segs, err := Segments(m)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range segs {
		init := strings.ReplaceAll(string(s.Init), "\x00", ".")
		switch {
		case s.Mode == Passive:
			out = append(out, "passive:"+init)
		case !s.ConstOffset:
			out = append(out, "computed:"+init)
		case s.Memory != 0:
			out = append(out, fmt.Sprintf("mem%d@%#x:%s", s.Memory, s.Offset, init))
		default:
			out = append(out, fmt.Sprintf("%#x:%s", s.Offset, init))
		}
	}
	return out
}

// mergeCase is a module to merge, what its segments should become (nil:
// Merge fails with err) and whether Node can instantiate it (it defines or
// imports one page of memory and exports it).
type mergeCase struct {
	name   string
	in     []byte
	gap    int
	want   []string
	err    string
	node   bool
	global int32 // env.g, for computed addresses
}

func mergeCases() []mergeCase {
	mem := func(data ...[]byte) []byte { // a module with memory 0 defined and exported
		return module(append([][]byte{memSec, exportMem}, data...)...)
	}
	return []mergeCase{
		{name: "adjacent", in: mem(dataSec(active(0x10, "ab"), active(0x12, "cd"), active(0x14, "e"))), gap: 0,
			want: []string{"0x10:abcde"}, node: true},
		{name: "gap filled", in: mem(dataSec(active(0x10, "ab"), active(0x15, "cd"))), gap: 3,
			want: []string{"0x10:ab...cd"}, node: true},
		{name: "gap too wide", in: mem(dataSec(active(0x10, "ab"), active(0x16, "cd"), active(0x18, "ef"))), gap: 3,
			want: []string{"0x10:ab", "0x16:cdef"}, node: true},
		{name: "overlap kept", in: mem(dataSec(active(0x10, "abcd"), active(0x12, "xy"), active(0x14, "z"))), gap: 8,
			want: []string{"0x10:abcd", "0x12:xyz"}, node: true},
		{name: "descending kept", in: mem(dataSec(active(0x20, "ab"), active(0x10, "cd"))), gap: 64,
			want: []string{"0x20:ab", "0x10:cd"}, node: true},
		{name: "gap written before is not filled", in: mem(dataSec(active(0x20, "zz"), active(0x10, "ab"), active(0x30, "cd"), active(0x33, "ef"))), gap: 64,
			want: []string{"0x20:zz", "0x10:ab", "0x30:cd.ef"}, node: true},
		{name: "gap next to an earlier write is filled", in: mem(dataSec(active(0x20, "zz"), active(0x10, "ab"), active(0x1c, "cd"), active(0x22, "ef"))), gap: 64,
			want: []string{"0x20:zz", "0x10:ab..........cd", "0x22:ef"}, node: true},
		{name: "passive kept in place", in: mem(dataCountSec(6), dataSec(active(0x10, "a"), active(0x11, "b"), passive("pp"), active(0x12, "c"), active(0x14, "d"), passive("qq"))), gap: 4,
			want: []string{"0x10:ab", "passive:pp", "0x12:c.d", "passive:qq"}, node: true},
		{name: "data count updated", in: mem(dataCountSec(3), dataSec(active(0x10, "a"), active(0x18, "b"), active(0x20, "c"))), gap: 8,
			want: []string{"0x10:a.......b.......c"}, node: true},
		{name: "data count wrong", in: mem(dataCountSec(2), dataSec(active(0x10, "a"), active(0x11, "b"), active(0x12, "c"))),
			err: "data count section says 2"},
		{name: "memory.init in the code", in: module(sec(1, vec([]byte{0x60, 0, 0})), sec(3, vec([]byte{0})), memSec, dataCountSec(2),
			sec(secCode, vec(append([]byte{9, 0}, 0x41, 0, 0x41, 0, 0x41, 0, opPrefixFC, 8, 1, 0, opEnd))), dataSec(active(0x10, "a"), passive("b"))),
			err: "memory.init or data.drop"},
		{name: "flags 2, memory 0, merged", in: mem(dataSec(activeMem(0, 0x10, "ab"), activeMem(0, 0x12, "cd"))),
			want: []string{"0x10:abcd"}, node: true},
		{name: "flags 2, memory 0, alone, kept", in: mem(dataSec(activeMem(0, 0x10, "ab"), active(0x40, "cd"))),
			want: []string{"0x10:ab", "0x40:cd"}, node: true},
		{name: "another memory kept", in: module(dataSec(active(0x10, "ab"), activeMem(1, 0x12, "cd"), active(0x12, "ef"))), gap: 8,
			want: []string{"0x10:ab", "mem1@0x12:cd", "0x12:ef"}},
		{name: "computed address: adjacent only after it", in: module(importGlobal, memSec, exportMem,
			dataSec(active(0x10, "ab"), active(0x13, "cd"), activeGlobal("gg"), active(0x30, "ef"), active(0x32, "gh"), active(0x36, "ij"))), gap: 8,
			want: []string{"0x10:ab.cd", "computed:gg", "0x30:efgh", "0x36:ij"}, node: true, global: 0x34},
		{name: "imported memory: adjacent only", in: module(importMem, exportMem, dataSec(active(0x10, "ab"), active(0x12, "cd"), active(0x16, "ef"))), gap: 8,
			want: []string{"0x10:abcd", "0x16:ef"}, node: true},
		{name: "imported memory after a global", in: module(importBoth, exportMem, dataSec(active(0x10, "ab"), active(0x14, "cd"))), gap: 8,
			want: []string{"0x10:ab", "0x14:cd"}, node: true},
		{name: "high and negative addresses", in: module(dataSec(active(0x7ffffffe, "ab"), active(0x80000000, "cd"), active(0xfffffff0, "ef"), active(0xfffffff4, "gh"))), gap: 8,
			want: []string{"0x7ffffffe:abcd", "0xfffffff0:ef..gh"}},
		{name: "past 2^32 kept", in: module(dataSec(active(0xfffffff0, "ab"), active(0xfffffffe, "cdef"))), gap: 64,
			want: []string{"0xfffffff0:ab", "0xfffffffe:cdef"}},
		{name: "other sections byte-identical", in: module(customSec("a", "x"), memSec, exportMem, customSec("b", "y"),
			paddedSec(secData, vec(active(0x10, "ab"), active(0x12, "cd"))), customSec("c", "z")),
			want: []string{"0x10:abcd"}, node: true},
		{name: "no data section", in: mem(), err: "no data section"},
		{name: "not wasm", in: []byte("\x7fELF...."), err: "not a WebAssembly"},
		{name: "truncated", in: mem(dataSec(active(0x10, "ab")))[:30], err: "past the end"},
	}
}

func TestMerge(t *testing.T) {
	for _, tc := range mergeCases() {
		t.Run(tc.name, func(t *testing.T) {
			out, st, err := Merge(tc.in, tc.gap)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := describe(t, out); !equal(got, tc.want) {
				t.Errorf("segments\n%q\nwant\n%q", got, tc.want)
			}
			if st.SegmentsIn != len(describe(t, tc.in)) || st.SegmentsOut != len(tc.want) || st.SizeOut != len(out) || st.SizeIn != len(tc.in) {
				t.Errorf("stats %+v", st)
			}
			// Merging again changes nothing more.
			again, _, err := Merge(out, tc.gap)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("merging the output again: %v, changed %v", err, !bytes.Equal(again, out))
			}
		})
	}
}

func equal(a, b []string) bool { return strings.Join(a, "|") == strings.Join(b, "|") }

// TestMergeKeepsOtherSections checks the bytes around the data section and
// the data count section are copied.
func TestMergeKeepsOtherSections(t *testing.T) {
	before := module(customSec("a", "x"), memSec, exportMem, dataCountSec(2))
	after := customSec("c", "z")
	in := append(append(bytes.Clone(before), paddedSec(secData, vec(active(0x10, "ab"), active(0x12, "cd")))...), after...)
	out, _, err := Merge(in, 0)
	if err != nil {
		t.Fatal(err)
	}
	wantPrefix := module(customSec("a", "x"), memSec, exportMem, dataCountSec(1))
	want := append(append(wantPrefix, dataSec(active(0x10, "abcd"))...), after...)
	if !bytes.Equal(out, want) {
		t.Errorf("got  %x\nwant %x", out, want)
	}
}

// TestVerifyRefuses checks Verify against outputs Merge must never write.
func TestVerifyRefuses(t *testing.T) {
	in := module(customSec("a", "x"), memSec, exportMem, dataCountSec(4),
		dataSec(active(0x20, "zz"), active(0x10, "ab"), passive("pp"), active(0x30, "cd")))
	for _, tc := range []struct{ name, out, err string }{
		{"another custom section", string(module(customSec("a", "X"), memSec, exportMem, dataCountSec(4),
			dataSec(active(0x20, "zz"), active(0x10, "ab"), passive("pp"), active(0x30, "cd")))), "differs"},
		{"a byte changed", string(module(customSec("a", "x"), memSec, exportMem, dataCountSec(4),
			dataSec(active(0x20, "zz"), active(0x10, "aB"), passive("pp"), active(0x30, "cd")))), "memory at 0x11"},
		{"zeros over an earlier write", string(module(customSec("a", "x"), memSec, exportMem, dataCountSec(4),
			dataSec(active(0x20, "zz"), active(0x10, "ab\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), passive("pp"), active(0x30, "cd")))), "memory at 0x20"},
		{"a segment dropped", string(module(customSec("a", "x"), memSec, exportMem, dataCountSec(3),
			dataSec(active(0x20, "zz"), active(0x10, "ab"), passive("pp")))), "memory at 0x30"},
		{"writes moved across a passive segment", string(module(customSec("a", "x"), memSec, exportMem, dataCountSec(4),
			dataSec(active(0x20, "zz"), passive("pp"), active(0x10, "ab"), active(0x30, "cd")))), "memory at 0x10"},
		{"passive changed", string(module(customSec("a", "x"), memSec, exportMem, dataCountSec(4),
			dataSec(active(0x20, "zz"), active(0x10, "ab"), passive("pq"), active(0x30, "cd")))), "kept as it is"},
		{"data count wrong", string(module(customSec("a", "x"), memSec, exportMem, dataCountSec(4),
			dataSec(active(0x20, "zz"), active(0x10, "ab"), passive("pp"), active(0x30, "cd"), passive("")))), "data count"},
		{"data count dropped", string(module(customSec("a", "x"), memSec, exportMem,
			dataSec(active(0x20, "zz"), active(0x10, "ab"), passive("pp"), active(0x30, "cd")))), "sections"},
		{"garbage", "\x00asm\x01\x00\x00\x00\x0b\x05", "past the end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify(in, []byte(tc.out))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Verify: %v, want an error with %q", err, tc.err)
			}
		})
	}
	if err := Verify(in, in); err != nil {
		t.Errorf("Verify(in, in): %v", err)
	}
	// With memory 0 imported, filling a gap with zeros changes memory.
	imp := module(importMem, dataSec(active(0x10, "ab"), active(0x13, "cd")))
	filled := module(importMem, dataSec(active(0x10, "ab\x00cd")))
	if err := Verify(imp, filled); err == nil || !strings.Contains(err.Error(), "other addresses") {
		t.Errorf("Verify with an imported memory: %v", err)
	}
}

func TestLEB(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 63, 64, -64, -65, 127, 128, 1 << 20, -1 << 31, 1<<31 - 1} {
		b := appendS32(nil, v)
		got, n, err := readS32(append(b, 0xff))
		if err != nil || got != v || n != len(b) {
			t.Errorf("s32 %d: %x read as %d, %d bytes, %v", v, b, got, n, err)
		}
	}
	for _, v := range []uint32{0, 1, 127, 128, 1 << 28, 1<<32 - 1} {
		b := appendU32(nil, v)
		got, n, err := readU32(b)
		if err != nil || got != v || n != len(b) {
			t.Errorf("u32 %d: %x read as %d, %d bytes, %v", v, b, got, n, err)
		}
	}
	for _, tc := range []struct {
		in     string
		signed bool
		want   int64
		err    bool
	}{
		{"\x80\x00", false, 0, false}, // not minimal, allowed
		{"\xff\xff\xff\xff\x0f", false, 1<<32 - 1, false},
		{"\xff\xff\xff\xff\x1f", false, 0, true},     // bit 32 set
		{"\x80\x80\x80\x80\x80\x00", false, 0, true}, // six bytes
		{"\x80", false, 0, true},                     // runs out
		{"\x80\x80\x80\x80\x78", true, -1 << 31, false},
		{"\xff\xff\xff\xff\x77", true, 0, true}, // sign bit 0, bits past it 1
		{"\xff\xff\xff\xff\x07", true, 1<<31 - 1, false},
		{"\xff\xff\xff\xff\x17", true, 0, true}, // bits past the sign differ
		{"\x7f", true, -1, false},
		{"\xff\x7f", true, -1, false},
	} {
		var got int64
		var err error
		if tc.signed {
			var v int32
			v, _, err = readS32([]byte(tc.in))
			got = int64(v)
		} else {
			var v uint32
			v, _, err = readU32([]byte(tc.in))
			got = int64(v)
		}
		if (err != nil) != tc.err || err == nil && got != tc.want {
			t.Errorf("%x (signed %v): %d, %v; want %d, error %v", tc.in, tc.signed, got, err, tc.want, tc.err)
		}
	}
}

// TestMergedModulesUnderNode instantiates every hand-made module before
// and after merging in Node and compares the exported memory byte for byte
// (an imported memory is filled with 0xaa first, so a gap wrongly filled
// with zeros shows).
func TestMergedModulesUnderNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	type pair struct {
		Name, In, Out string
		Global        int32
	}
	var pairs []pair
	for i, tc := range mergeCases() {
		if !tc.node {
			continue
		}
		out, _, err := Merge(tc.in, tc.gap)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		p := pair{Name: tc.name, In: filepath.Join(dir, fmt.Sprintf("%d-in.wasm", i)), Out: filepath.Join(dir, fmt.Sprintf("%d-out.wasm", i)), Global: tc.global}
		os.WriteFile(p.In, tc.in, 0o644)
		os.WriteFile(p.Out, out, 0o644)
		pairs = append(pairs, p)
	}
	// A control: a gap wrongly filled over an imported memory must show.
	control := pair{Name: "control", In: filepath.Join(dir, "control-in.wasm"), Out: filepath.Join(dir, "control-out.wasm")}
	os.WriteFile(control.In, module(importMem, exportMem, dataSec(active(0x10, "ab"), active(0x13, "cd"))), 0o644)
	os.WriteFile(control.Out, module(importMem, exportMem, dataSec(active(0x10, "ab\x00cd"))), 0o644)
	pairs = append(pairs, control)
	list, _ := json.Marshal(pairs)
	script := `
const fs = require("fs");
const pairs = JSON.parse(process.argv[1]);
(async () => {
  for (const p of pairs) {
    const dump = async (file) => {
      const mem = new WebAssembly.Memory({initial: 1});
      new Uint8Array(mem.buffer).fill(0xaa);
      const env = {mem, g: new WebAssembly.Global({value: "i32", mutable: false}, p.Global)};
      const {instance} = await WebAssembly.instantiate(fs.readFileSync(file), {env});
      return Buffer.from(instance.exports.mem.buffer).toString("hex");
    };
    const a = await dump(p.In), b = await dump(p.Out);
    console.log(p.Name + ": " + (a === b ? "same" : "DIFFERENT"));
  }
})().catch((e) => { console.log("error: " + e); process.exit(1); });
`
	out, err := exec.Command(node, "-e", script, string(list)).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(pairs) {
		t.Fatalf("node printed\n%s", out)
	}
	for _, l := range lines {
		if want := ": same"; strings.HasPrefix(l, "control:") && l != "control: DIFFERENT" || !strings.HasPrefix(l, "control:") && !strings.HasSuffix(l, want) {
			t.Errorf("%s", l)
		}
	}
}
