package wasmdata

import "errors"

// LEB128 integers (5.2.2): uN and sN take at most ceil(N/7) bytes, and the
// bits of the last byte beyond N must be zero (uN) or copies of the sign
// bit (sN).

var (
	errLEBShort = errors.New("integer runs past the end")
	errLEBLong  = errors.New("integer too long or out of range")
)

// readULEB reads a uN of at most bits bits, returning it and its length.
func readULEB(b []byte, bits uint) (uint64, int, error) {
	var v uint64
	maxLen := int((bits + 6) / 7)
	for i := 0; ; i++ {
		if i >= len(b) {
			return 0, 0, errLEBShort
		}
		if i >= maxLen {
			return 0, 0, errLEBLong
		}
		c := b[i]
		shift := uint(7 * i)
		if i == maxLen-1 && bits-shift < 7 && uint64(c&0x7f)>>(bits-shift) != 0 {
			return 0, 0, errLEBLong
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, i + 1, nil
		}
	}
}

// readU32 reads a u32.
func readU32(b []byte) (uint32, int, error) {
	v, n, err := readULEB(b, 32)
	return uint32(v), n, err
}

// readSLEB reads an sN of at most bits bits, returning it and its length.
func readSLEB(b []byte, bits uint) (int64, int, error) {
	var v int64
	maxLen := int((bits + 6) / 7)
	for i := 0; ; i++ {
		if i >= len(b) {
			return 0, 0, errLEBShort
		}
		if i >= maxLen {
			return 0, 0, errLEBLong
		}
		c := b[i]
		shift := uint(7 * i)
		if i == maxLen-1 && bits-shift < 7 {
			// The bits from the sign bit up must all be equal.
			rest := int8(c<<1) >> (bits - shift) // the 7 payload bits, sign-extended from bit bits-shift-1
			if rest != 0 && rest != -1 || c&0x80 != 0 {
				return 0, 0, errLEBLong
			}
		}
		v |= int64(c&0x7f) << shift
		if c&0x80 == 0 {
			if shift+7 < 64 && c&0x40 != 0 {
				v |= -1 << (shift + 7)
			}
			return v, i + 1, nil
		}
	}
}

// readS32 reads an s32 (the immediate of i32.const).
func readS32(b []byte) (int32, int, error) {
	v, n, err := readSLEB(b, 32)
	return int32(v), n, err
}

// appendU32 appends v as a minimal u32.
func appendU32(b []byte, v uint32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// appendS32 appends v as a minimal s32.
func appendS32(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if x == 0 && c&0x40 == 0 || x == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
