package wasmdata

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goBuild builds pkg (a path relative to the module root) with
// GOOS=js GOARCH=wasm -trimpath -ldflags="-s -w", as site.Build does, and
// returns the module.
func goBuild(t *testing.T, pkg string) []byte {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a wasm module (-short)")
	}
	root := moduleRoot(t)
	out := filepath.Join(t.TempDir(), "m.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=js GOARCH=wasm go build %s: %v\n%s", pkg, err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Skipf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(b)))
}

// flatImage is memory 0 after instantiation, as far as the data segments
// make it: zeros, then every active segment copied in order (they all have
// constant addresses in the Go linker's output).
func flatImage(t *testing.T, m []byte) []byte {
	t.Helper()
	segs, err := Segments(m)
	if err != nil {
		t.Fatal(err)
	}
	var mem []byte
	for i, s := range segs {
		if s.Mode != Active || s.Memory != 0 || !s.ConstOffset {
			t.Fatalf("segment %d is not active in memory 0 at a constant address", i)
		}
		if end := int(s.end()); end > len(mem) {
			mem = append(mem, make([]byte, end-len(mem))...)
		}
		copy(mem[s.Offset:], s.Init)
	}
	return mem
}

// TestPlaygroundModule merges the playground's wasm (./wasm) and compares
// the memory image before and after byte for byte, and every other section.
func TestPlaygroundModule(t *testing.T) {
	in := goBuild(t, "./wasm")
	out, st, err := Merge(in, DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d segments → %d, %d → %d bytes, %d zero bytes filled in", st.SegmentsIn, st.SegmentsOut, st.SizeIn, st.SizeOut, st.ZeroFill)
	a, b := flatImage(t, in), flatImage(t, out)
	if !bytes.Equal(a, b) {
		i := 0
		for i < min(len(a), len(b)) && a[i] == b[i] {
			i++
		}
		t.Fatalf("memory images differ from 0x%x (%d and %d bytes long)", i, len(a), len(b))
	}
	secsA, _ := parseSections(in)
	secsB, _ := parseSections(out)
	if len(secsA) != len(secsB) {
		t.Fatalf("%d sections, %d before", len(secsB), len(secsA))
	}
	for i := range secsA {
		if secsA[i].id != secData && !bytes.Equal(secsA[i].raw, secsB[i].raw) {
			t.Errorf("section %d (id %d) changed", i, secsA[i].id)
		}
	}
	if st.SegmentsOut*10 > st.SegmentsIn {
		t.Errorf("%d segments merged into %d: expected far fewer", st.SegmentsIn, st.SegmentsOut)
	}
}

// TestMergedProgramRunsUnderNode builds a small GOOS=js program, merges
// it, and runs it under Node with Go's wasm_exec_node.js: it must start
// and print the line the native build prints.
func TestMergedProgramRunsUnderNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	in := goBuild(t, "./site/internal/wasmdata/testdata/hello")
	out, st, err := Merge(in, DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	if st.SegmentsOut >= st.SegmentsIn {
		t.Fatalf("nothing merged: %+v", st)
	}
	native := exec.Command("go", "run", "./site/internal/wasmdata/testdata/hello")
	native.Dir = moduleRoot(t)
	want, err := native.Output()
	if err != nil || !strings.HasPrefix(string(want), "wasmdata hello: ") {
		t.Fatalf("native run: %q %v", want, err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	runner := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	dir := t.TempDir()
	for name, m := range map[string][]byte{"linked": in, "merged": out} {
		f := filepath.Join(dir, name+".wasm")
		if err := os.WriteFile(f, m, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := exec.Command(node, runner, f).CombinedOutput()
		if err != nil || string(got) != string(want) {
			t.Errorf("%s module under node: %q %v, want %q", name, got, err, want)
		}
	}
}
