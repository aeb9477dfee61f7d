package wasmdata

// coverage is a sparse set of addresses of a 32-bit memory: one bit per
// byte, in pages of 64 KiB.
type coverage map[uint32]*[1 << pageBits / 8]byte

// add records [addr, addr+n) (addr+n is at most 2^32).
func (c coverage) add(addr uint32, n uint64) {
	a, end := uint64(addr), uint64(addr)+n
	for a < end {
		k := uint32(a >> pageBits)
		pg := c[k]
		if pg == nil {
			pg = new([1 << pageBits / 8]byte)
			c[k] = pg
		}
		pageEnd := min(end, uint64(k+1)<<pageBits)
		for ; a < pageEnd; a++ {
			i := a & (1<<pageBits - 1)
			if i%8 == 0 && a+8 <= pageEnd {
				pg[i/8] = 0xff
				a += 7
				continue
			}
			pg[i/8] |= 1 << (i % 8)
		}
	}
}

// any reports whether some address of [addr, addr+n) is in the set.
func (c coverage) any(addr uint32, n uint64) bool {
	for a, end := uint64(addr), uint64(addr)+n; a < end; a++ {
		pg := c[uint32(a>>pageBits)]
		if pg == nil {
			a |= 1<<pageBits - 1 // skip the page
			continue
		}
		i := a & (1<<pageBits - 1)
		if pg[i/8]&(1<<(i%8)) != 0 {
			return true
		}
	}
	return false
}
