package session

import (
	"reflect"
	"testing"
)

func TestEmphasisSpans(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Span
	}{
		{"at the *next* change", []Span{{Text: "at the "}, {Em: true, Text: "next"}, {Text: " change"}}},
		{"**strong** and *em*", []Span{{Strong: true, Text: "strong"}, {Text: " and "}, {Em: true, Text: "em"}}},
		{"2 * 3 * 4", []Span{{Text: "2 * 3 * 4"}}},
		{"a ** b **", []Span{{Text: "a ** b **"}}},
		{"an *unpaired one", []Span{{Text: "an *unpaired one"}}},
		{"*a b*", []Span{{Em: true, Text: "a b"}}},
		{"*x *", []Span{{Text: "*x *"}}},
		{"<b>*<i>x</i>*</b>", []Span{{Text: "<b>"}, {Em: true, Text: "<i>x</i>"}, {Text: "</b>"}}},
	} {
		if got := emphasisSpans(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("emphasisSpans(%q) =\n %+v\nwant\n %+v", tc.in, got, tc.want)
		}
	}
}

func TestParseMarkdownLiteEmphasis(t *testing.T) {
	got := ParseMarkdown("Under OnDelete a *new* pod\ntakes `*the* template`, **always**.")
	want := []Block{{Spans: []Span{
		{Text: "Under OnDelete a "}, {Em: true, Text: "new"}, {Text: " pod takes "},
		{Code: true, Text: "*the* template"}, {Text: ", "}, {Strong: true, Text: "always"}, {Text: "."},
	}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseMarkdown =\n %+v\nwant\n %+v", got, want)
	}
}

func TestParseMarkdownLite(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Block
	}{
		{"", nil},
		{"one line", []Block{{Spans: []Span{{Text: "one line"}}}}},
		{"A `kubectl get ds` shows\nDESIRED.\n\nSecond `x`", []Block{
			{Spans: []Span{{Text: "A "}, {Code: true, Text: "kubectl get ds"}, {Text: " shows DESIRED."}}},
			{Spans: []Span{{Text: "Second "}, {Code: true, Text: "x"}}},
		}},
		{"an ` unpaired", []Block{{Spans: []Span{{Text: "an ` unpaired"}}}}},
		{"``empty code`` ok", []Block{{Spans: []Span{{Text: "empty code"}, {Text: " ok"}}}}},
		{"Intro:\n- first `a`\n  more\n* second\n\nafter", []Block{
			{Spans: []Span{{Text: "Intro:"}}},
			{Item: true, Spans: []Span{{Text: "first "}, {Code: true, Text: "a"}, {Text: " more"}}},
			{Item: true, Spans: []Span{{Text: "second"}}},
			{Spans: []Span{{Text: "after"}}},
		}},
		{"\n\n  spaced  \n\n\n", []Block{{Spans: []Span{{Text: "spaced"}}}}},
	} {
		if got := ParseMarkdown(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseMarkdown(%q) =\n %+v\nwant\n %+v", tc.in, got, tc.want)
		}
	}
}
