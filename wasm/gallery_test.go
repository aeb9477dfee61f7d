//go:build js && wasm

package main

import (
	"reflect"
	"testing"
)

func TestParseMarkdownLite(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []mdBlock
	}{
		{"", nil},
		{"one line", []mdBlock{{spans: []mdSpan{{text: "one line"}}}}},
		{"A `kubectl get ds` shows\nDESIRED.\n\nSecond `x`", []mdBlock{
			{spans: []mdSpan{{text: "A "}, {code: true, text: "kubectl get ds"}, {text: " shows DESIRED."}}},
			{spans: []mdSpan{{text: "Second "}, {code: true, text: "x"}}},
		}},
		{"an ` unpaired", []mdBlock{{spans: []mdSpan{{text: "an ` unpaired"}}}}},
		{"``empty code`` ok", []mdBlock{{spans: []mdSpan{{text: "empty code"}, {text: " ok"}}}}},
		{"Intro:\n- first `a`\n  more\n* second\n\nafter", []mdBlock{
			{spans: []mdSpan{{text: "Intro:"}}},
			{item: true, spans: []mdSpan{{text: "first "}, {code: true, text: "a"}, {text: " more"}}},
			{item: true, spans: []mdSpan{{text: "second"}}},
			{spans: []mdSpan{{text: "after"}}},
		}},
		{"\n\n  spaced  \n\n\n", []mdBlock{{spans: []mdSpan{{text: "spaced"}}}}},
	} {
		if got := parseMarkdownLite(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseMarkdownLite(%q) =\n %+v\nwant\n %+v", tc.in, got, tc.want)
		}
	}
}
