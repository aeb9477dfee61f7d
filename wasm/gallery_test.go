//go:build js && wasm

package main

import (
	"reflect"
	"testing"
)

func TestParseProgress(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		ex       map[string]exerciseProgress
		ls       map[string]lessonProgress
	}{
		{name: "empty", in: ""},
		{name: "not JSON", in: "{exercises"},
		{name: "wrong shape", in: `[1,2]`},
		{name: "wrong field types", in: `{"exercises": "x", "lessons": 3}`},
		{name: "good", in: `{"exercises":{"01-a":{"solved":true,"hints":2},"02-b":{"solution":true}},"lessons":{"01-x":{"done":true,"step":6}}}`,
			ex: map[string]exerciseProgress{"01-a": {Solved: true, Hints: 2}, "02-b": {Solution: true}},
			ls: map[string]lessonProgress{"01-x": {Done: true, Step: 6}}},
		{name: "one bad entry keeps the others", in: `{"exercises":{"01-a":{"solved":"yes"},"02-b":{"hints":1},"":{"solved":true}},"lessons":{"01-x":[]}}`,
			ex: map[string]exerciseProgress{"02-b": {Hints: 1}}},
		{name: "negative counts", in: `{"exercises":{"a":{"hints":-3}},"lessons":{"b":{"step":-1}}}`,
			ex: map[string]exerciseProgress{"a": {}}, ls: map[string]lessonProgress{"b": {}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parseProgress(tc.in)
			gotEx := map[string]exerciseProgress{}
			for k, v := range p.Exercises {
				gotEx[k] = *v
			}
			gotLs := map[string]lessonProgress{}
			for k, v := range p.Lessons {
				gotLs[k] = *v
			}
			if tc.ex == nil {
				tc.ex = map[string]exerciseProgress{}
			}
			if tc.ls == nil {
				tc.ls = map[string]lessonProgress{}
			}
			if !reflect.DeepEqual(gotEx, tc.ex) || !reflect.DeepEqual(gotLs, tc.ls) {
				t.Errorf("parseProgress(%q) = %v %v, want %v %v", tc.in, gotEx, gotLs, tc.ex, tc.ls)
			}
			// what is stored reads back the same
			back := parseProgress(p.String())
			if !reflect.DeepEqual(back, p) {
				t.Errorf("round trip: %v, want %v", back, p)
			}
		})
	}
}

func TestProgressAccessorsCreate(t *testing.T) {
	p := parseProgress("")
	p.exercise("e").Hints = 2
	p.lesson("l").Done = true
	if got := p.String(); got != `{"exercises":{"e":{"hints":2}},"lessons":{"l":{"done":true}}}` {
		t.Errorf("stored %s", got)
	}
}

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
