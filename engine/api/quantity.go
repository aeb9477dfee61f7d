package api

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Quantity mirrors resource.Quantity (k8s.io/apimachinery/pkg/api/resource):
// a decimal number with an optional suffix (m, k, M, G, T, P, E, Ki, Mi, Gi,
// Ti, Pi, Ei, or an exponent e3/E3). The simulator keeps the text as written
// and the value in thousandths (milli-units) for arithmetic: "100m" CPU is
// 100, "1" CPU is 1000, "200Mi" memory is 200*2^20*1000.
type Quantity struct {
	// Text is the quantity as written in the manifest (or canonical form when built in code).
	Text string
	// Milli is the value in thousandths of a unit, rounded up like resource.Quantity.MilliValue.
	Milli int64
}

// ResourceList mirrors core/v1 ResourceList: resource name -> quantity.
type ResourceList map[string]Quantity

// quantitySuffixes maps a suffix to its decimal exponent and binary
// exponent: "k" is 10^3, "Mi" is 2^20, "m" is 10^-3.
var quantitySuffixes = map[string]struct{ dec, bin int }{
	"": {0, 0}, "n": {-9, 0}, "u": {-6, 0}, "m": {-3, 0},
	"k": {3, 0}, "M": {6, 0}, "G": {9, 0}, "T": {12, 0}, "P": {15, 0}, "E": {18, 0},
	"Ki": {0, 10}, "Mi": {0, 20}, "Gi": {0, 30}, "Ti": {0, 40}, "Pi": {0, 50}, "Ei": {0, 60},
}

// ErrFormatWrong is the message resource.ParseQuantity returns for text that
// is not a quantity; the API server reports it for a bad value.
const ErrFormatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

// ParseQuantity parses s as resource.ParseQuantity does. The error text is
// the upstream one (ErrFormatWrong). Values beyond int64 milli-units
// saturate at math.MaxInt64 (no node or request in a playground is that big).
func ParseQuantity(s string) (Quantity, error) {
	str := strings.TrimSpace(s)
	bad := fmt.Errorf("%s", ErrFormatWrong)
	i, neg := 0, false
	if i < len(str) && (str[i] == '+' || str[i] == '-') {
		neg = str[i] == '-'
		i++
	}
	start := i
	var digits []byte // significant digits of the number, without the point
	scale, dot := 0, false
	for ; i < len(str) && (str[i] >= '0' && str[i] <= '9' || str[i] == '.'); i++ {
		switch {
		case str[i] == '.':
			if dot {
				return Quantity{}, bad
			}
			dot = true
		default:
			digits = append(digits, str[i])
			if dot {
				scale--
			}
		}
	}
	if i == start || len(digits) == 0 {
		return Quantity{}, bad
	}
	suffix := str[i:]
	mult, ok := quantitySuffixes[suffix]
	if !ok {
		if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
			exp, err := strconv.Atoi(suffix[1:])
			if err != nil || exp > 30 || exp < -30 {
				return Quantity{}, bad
			}
			mult.dec = exp
		} else {
			return Quantity{}, fmt.Errorf("unable to parse quantity's suffix")
		}
	}
	milli := scaledMilli(digits, scale+mult.dec+3, mult.bin)
	if neg {
		milli = -milli
	}
	return Quantity{Text: str, Milli: milli}, nil
}

// scaledMilli returns ceil(digits × 10^exp10 × 2^exp2) as an int64,
// saturating at math.MaxInt64 (resource.Quantity.MilliValue rounds up).
// It works on a 128-bit value, so it is exact for every quantity that fits.
func scaledMilli(digits []byte, exp10, exp2 int) int64 {
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	// Keep 18 significant digits (they fit in a uint64); the rest only
	// matter for rounding up.
	inexact := false
	for len(digits) > 18 {
		if digits[len(digits)-1] != '0' {
			inexact = true
		}
		digits = digits[:len(digits)-1]
		exp10++
	}
	var lo uint64
	for _, d := range digits {
		lo = lo*10 + uint64(d-'0')
	}
	hi := uint64(0)
	if exp2 > 0 { // < 2^60 × 2^60: fits in 128 bits
		hi, lo = lo>>(64-exp2), lo<<exp2
	}
	const limit = math.MaxInt64
	for ; exp10 > 0 && (hi|lo) != 0; exp10-- {
		h1, l1 := bits.Mul64(lo, 10)
		if hi > (math.MaxUint64-h1)/10 {
			return limit
		}
		hi, lo = hi*10+h1, l1
	}
	for ; exp10 < 0 && (hi|lo) != 0; exp10++ {
		var r uint64
		hi, r = hi/10, hi%10
		lo, r = bits.Div64(r, lo, 10)
		if r != 0 {
			inexact = true
		}
	}
	if hi != 0 || lo > limit {
		return limit
	}
	if inexact && lo < limit {
		lo++
	}
	return int64(lo)
}

// MustParseQuantity is ParseQuantity for constants in code; it panics on bad input.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

// String returns the quantity as written.
func (q Quantity) String() string {
	if q.Text != "" {
		return q.Text
	}
	if q.Milli%1000 == 0 {
		return strconv.FormatInt(q.Milli/1000, 10)
	}
	return strconv.FormatInt(q.Milli, 10) + "m"
}

// Value returns the quantity in whole units, rounded up (resource.Quantity.Value).
func (q Quantity) Value() int64 {
	if q.Milli >= 0 {
		return (q.Milli + 999) / 1000
	}
	return q.Milli / 1000
}

// MilliQuantity builds a quantity from thousandths of a unit.
func MilliQuantity(milli int64) Quantity {
	q := Quantity{Milli: milli}
	q.Text = q.String()
	return q
}

// AddMilli adds two milli-unit values, saturating at math.MaxInt64 (and
// math.MinInt64): a 1Ei memory request is already MaxInt64 milli-units,
// and the sums the scheduler and kubectl describe make must not wrap to a
// negative that fits any node.
func AddMilli(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return math.MinInt64
	}
	return s
}
