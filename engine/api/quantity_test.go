package api

import (
	"math"
	"testing"
)

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		in    string
		milli int64
	}{
		{"1", 1000},
		{"100m", 100},
		{"0.1", 100},
		{"1.5", 1500},
		{"2", 2000},
		{"200Mi", 200 << 20 * 1000},
		{"4Gi", 4 << 30 * 1000},
		{"1.5Ki", 1536000},
		{"0.0001Ki", 103}, // 102.4 rounds up
		{"1k", 1000000},
		{"128974848", 128974848000},
		{"129e6", 129000000000},
		{"129M", 129000000000},
		{"123Mi", 123 << 20 * 1000},
		{"1n", 1},    // 0.000001 milli rounds up to 1
		{"1u", 1},    // 0.001 milli rounds up
		{"1500u", 2}, // 1.5 milli rounds up
		{"0", 0},
		{"-1", -1000},
		{"+3", 3000},
		{"0.000000000000000000000001", 1},
		{"1.00000000000000000000001", 1001},
		{"100Ei", math.MaxInt64},
		{"1e30", math.MaxInt64},
		{"9223372036854775", 9223372036854775000},
		{"1e-3", 1},
		{"1E3", 1000000},
	}
	for _, tt := range tests {
		q, err := ParseQuantity(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if q.Milli != tt.milli {
			t.Errorf("%q = %d milli, want %d", tt.in, q.Milli, tt.milli)
		}
		if q.String() != tt.in {
			t.Errorf("%q prints as %q", tt.in, q.String())
		}
	}
	for _, bad := range []string{"", "abc", "1..2", ".", "1Zi", "1e", "1e99", "--1", "m"} {
		if _, err := ParseQuantity(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if got := MilliQuantity(1500).String(); got != "1500m" {
		t.Errorf("MilliQuantity(1500) = %q", got)
	}
	if got := MustParseQuantity("3").Value(); got != 3 {
		t.Errorf("Value() = %d", got)
	}
}
