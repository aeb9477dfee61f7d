package api

import (
	"fmt"
	"math"
	"math/big"
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

var quantitySuffixes = map[string]*big.Rat{
	"":   big.NewRat(1, 1),
	"n":  big.NewRat(1, 1_000_000_000),
	"u":  big.NewRat(1, 1_000_000),
	"m":  big.NewRat(1, 1000),
	"k":  big.NewRat(1000, 1),
	"M":  big.NewRat(1_000_000, 1),
	"G":  big.NewRat(1_000_000_000, 1),
	"T":  new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(12), nil)),
	"P":  new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(15), nil)),
	"E":  new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)),
	"Ki": new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 10)),
	"Mi": new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 20)),
	"Gi": new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 30)),
	"Ti": new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 40)),
	"Pi": new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 50)),
	"Ei": new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 60)),
}

// ErrFormatWrong is the message resource.ParseQuantity returns for text that
// is not a quantity; the API server reports it for a bad value.
const ErrFormatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

// ParseQuantity parses s as resource.ParseQuantity does. The error text is
// the upstream one (ErrFormatWrong).
func ParseQuantity(s string) (Quantity, error) {
	str := strings.TrimSpace(s)
	if str == "" {
		return Quantity{}, fmt.Errorf("%s", ErrFormatWrong)
	}
	// split number and suffix
	i := 0
	if i < len(str) && (str[i] == '+' || str[i] == '-') {
		i++
	}
	start := i
	for i < len(str) && (str[i] >= '0' && str[i] <= '9' || str[i] == '.') {
		i++
	}
	if i == start {
		return Quantity{}, fmt.Errorf("%s", ErrFormatWrong)
	}
	num, suffix := str[:i], str[i:]
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return Quantity{}, fmt.Errorf("%s", ErrFormatWrong)
	}
	mult, ok := quantitySuffixes[suffix]
	if !ok {
		if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
			exp, err := strconv.Atoi(suffix[1:])
			if err != nil || exp > 30 || exp < -30 {
				return Quantity{}, fmt.Errorf("%s", ErrFormatWrong)
			}
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
			if exp >= 0 {
				mult = new(big.Rat).SetInt(p)
			} else {
				mult = new(big.Rat).SetFrac(big.NewInt(1), p)
			}
		} else {
			return Quantity{}, fmt.Errorf("unable to parse quantity's suffix")
		}
	}
	r.Mul(r, mult)
	r.Mul(r, big.NewRat(1000, 1))
	// round up to an integer number of milli-units (MilliValue rounds up)
	q, rem := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if rem.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return Quantity{Text: s, Milli: math.MaxInt64}, nil
	}
	return Quantity{Text: str, Milli: q.Int64()}, nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
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
