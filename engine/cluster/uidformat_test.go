package cluster

import (
	"fmt"
	"hash/fnv"
	"math/rand"
	"testing"
)

// TestFormatUIDMatchesFmt checks the hand-written hex of formatUID against
// the fmt form it replaces, "%08x-%04x-%04x-%04x-%012x", on edge and
// random values.
func TestFormatUIDMatchesFmt(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	cases := [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {1, 1}, {0x0123456789abcdef, 0xfedcba9876543210}}
	for range 200 {
		cases = append(cases, [2]uint64{r.Uint64(), r.Uint64()})
	}
	for _, c := range cases {
		a, b := c[0], c[1]
		want := fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", uint32(a>>32), uint16(a>>16), uint16(a), uint16(b>>48), b&0xffffffffffff)
		if got := formatUID(a, b); got != want {
			t.Errorf("formatUID(%#x, %#x) = %q, want %q", a, b, got, want)
		}
	}
}

// TestNewUIDMatchesFmt checks NewUID against the fmt form it replaces,
// "%x-%x-%x-%x-%x" over the same 16 seeded random bytes.
func TestNewUIDMatchesFmt(t *testing.T) {
	c, ref := New(7), New(7)
	for range 50 {
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(ref.rand.Intn(256))
		}
		want := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
		if got := c.NewUID(); got != want {
			t.Fatalf("NewUID() = %q, want %q", got, want)
		}
	}
}

// TestFNV64aMatchesHashFNV checks fnv64a against hash/fnv's New64a, in one
// piece and continued over a second write, as RecordNodeEvent uses it.
func TestFNV64aMatchesHashFNV(t *testing.T) {
	for _, c := range [][2]string{{"", ""}, {"a", ""}, {"w-1|uid|Starting|kubelet|0|3", "Starting kubelet."}, {"\xff\x00x", "y\x80"}} {
		h := fnv.New64a()
		h.Write([]byte(c[0]))
		wantA := h.Sum64()
		h.Write([]byte(c[1]))
		wantB := h.Sum64()
		a := fnv64a(fnvOffset64, []byte(c[0]))
		if b := fnv64a(a, c[1]); a != wantA || b != wantB {
			t.Errorf("fnv64a(%q, %q) = %#x, %#x, want %#x, %#x", c[0], c[1], a, b, wantA, wantB)
		}
	}
}

// TestNodeAddressesMatchFmt checks PodCIDR and NewNode's InternalIP, built
// with strconv, against the fmt forms they replace, over every node index
// the CIDR wraps through.
func TestNodeAddressesMatchFmt(t *testing.T) {
	c := New(1)
	for index := range 8192 + 300 {
		k := (index + 20*256) % 8192
		if got, want := PodCIDR(index), fmt.Sprintf("10.%d.%d.0/24", 224+k/256, k%256); got != want {
			t.Fatalf("PodCIDR(%d) = %q, want %q", index, got, want)
		}
		if index%97 != 0 {
			continue
		}
		n := c.NewNode("n", index, NodeOptions{})
		if got, want := n.Status.Addresses[0].Address, fmt.Sprintf("172.18.%d.%d", index/250, index%250+2); got != want {
			t.Fatalf("NewNode(index %d) InternalIP = %q, want %q", index, got, want)
		}
	}
}
