//go:build js && wasm

package main

import (
	"reflect"
	"testing"
)

func TestEmphasisSpans(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []mdSpan
	}{
		{"at the *next* change", []mdSpan{{text: "at the "}, {em: true, text: "next"}, {text: " change"}}},
		{"**strong** and *em*", []mdSpan{{strong: true, text: "strong"}, {text: " and "}, {em: true, text: "em"}}},
		{"2 * 3 * 4", []mdSpan{{text: "2 * 3 * 4"}}},
		{"a ** b **", []mdSpan{{text: "a ** b **"}}},
		{"an *unpaired one", []mdSpan{{text: "an *unpaired one"}}},
		{"*a b*", []mdSpan{{em: true, text: "a b"}}},
		{"*x *", []mdSpan{{text: "*x *"}}},
		{"<b>*<i>x</i>*</b>", []mdSpan{{text: "<b>"}, {em: true, text: "<i>x</i>"}, {text: "</b>"}}},
	} {
		if got := emphasisSpans(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("emphasisSpans(%q) =\n %+v\nwant\n %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseMarkdownLiteEmphasis(t *testing.T) {
	got := parseMarkdownLite("Under OnDelete a *new* pod\ntakes `*the* template`, **always**.")
	want := []mdBlock{{spans: []mdSpan{
		{text: "Under OnDelete a "}, {em: true, text: "new"}, {text: " pod takes "},
		{code: true, text: "*the* template"}, {text: ", "}, {strong: true, text: "always"}, {text: "."},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseMarkdownLite =\n %+v\nwant\n %+v", got, want)
	}
}
