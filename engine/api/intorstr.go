package api

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IntOrString mirrors intstr.IntOrString (k8s.io/apimachinery/pkg/util/intstr):
// either an integer or a string such as "10%".
type IntOrString struct {
	// IsString is true when the value was written as a string.
	IsString bool
	IntVal   int32
	StrVal   string
}

// FromInt returns an integer IntOrString.
func FromInt(i int32) *IntOrString { return &IntOrString{IntVal: i} }

// FromString returns a string IntOrString.
func FromString(s string) *IntOrString { return &IntOrString{IsString: true, StrVal: s} }

// String renders the value as kubectl does: 1, 10%.
func (v *IntOrString) String() string {
	if v == nil {
		return "<nil>"
	}
	if v.IsString {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// ScaledValue mirrors intstr.GetScaledValueFromIntOrPercent: an int is
// returned as is; "N%" is N*total/100, rounded up when roundUp is true and
// down otherwise. Errors are upstream's: "invalid value for IntOrString:
// invalid type: string is not a percentage" for a string without "%", and
// `invalid value for IntOrString: invalid value "x%": <strconv error>` for
// a percentage that is not an integer.
func (v *IntOrString) ScaledValue(total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, fmt.Errorf("nil value for IntOrString")
	}
	if !v.IsString {
		return int(v.IntVal), nil
	}
	s := v.StrVal
	if !strings.HasSuffix(s, "%") {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	p, err := strconv.Atoi(strings.TrimSuffix(s, "%"))
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", s, err)
	}
	if roundUp {
		return int(math.Ceil(float64(p) * float64(total) / 100)), nil
	}
	return int(math.Floor(float64(p) * float64(total) / 100)), nil
}
