package manifest

import (
	"strconv"
	"strings"
	"testing"
)

// TestParseIntV2FastPath checks parseIntV2's early rejection of
// non-numbers against plain strconv.ParseInt(base 0) after removing
// underscores, on numbers, near-numbers and ordinary strings.
func TestParseIntV2FastPath(t *testing.T) {
	for _, s := range []string{"", "+", "-", "_", "0", "-0", "+7", "42", "1_000", "0x1F", "-0x1f", "0o17", "0b101", "017", "08",
		"+-1", "-+1", "--1", "x1", "Node", "v1", "w-1", "1e3", "1.5", ".5", "+.5", "-x", "9223372036854775807", "9223372036854775808", " 1", "1 ", "_1", "+_1"} {
		var want int64
		var wantOK bool
		if plain := strings.ReplaceAll(s, "_", ""); plain != "" && plain != "+" && plain != "-" {
			i, err := strconv.ParseInt(plain, 0, 64)
			want, wantOK = i, err == nil
			if !wantOK {
				want = 0
			}
		}
		if got, ok := parseIntV2(s); got != want || ok != wantOK {
			t.Errorf("parseIntV2(%q) = %d, %v; want %d, %v", s, got, ok, want, wantOK)
		}
	}
}
