package manifest

import (
	"strings"
	"testing"
)

// TestDiagnosticsOrder: Diagnostics are sorted by line then column while
// Error() keeps kubectl's order (the API server's field-error order), and
// a hint repeated by the next diagnostic is given once.
func TestDiagnosticsOrder(t *testing.T) {
	text := `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: web
spec:
  minReadySeconds: -1
  template:
    metadata:
      labels: {app: web}
    spec:
      restartPolicy: OnFailure
      containers:
      - name: a
      - name: b
`
	_, err := Decode("ds.yaml", text)
	me, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %T %v", err, err)
	}
	// ValidateDaemonSetSpec's order: the selector mismatch (a missing
	// selector: no Required error), the pod spec, restartPolicy, minReadySeconds
	wantKubectl := "The DaemonSet \"web\" is invalid: \n" +
		"* spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`\n" +
		"* spec.template.spec.containers[0].image: Required value\n" +
		"* spec.template.spec.containers[1].image: Required value\n" +
		"* spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"\n" +
		"* spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0"
	if me.Error() != wantKubectl {
		t.Errorf("kubectl lines\n%s\nwant\n%s", me.Error(), wantKubectl)
	}
	var got []string
	for _, d := range me.Diagnostics {
		got = append(got, d.Field)
	}
	want := []string{"spec.minReadySeconds", "spec.template.metadata.labels", "spec.template.spec.restartPolicy",
		"spec.template.spec.containers[0].image", "spec.template.spec.containers[1].image"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("diagnostics in order\n%v\nwant\n%v", got, want)
	}
	for i := 1; i < len(me.Diagnostics); i++ {
		a, b := me.Diagnostics[i-1], me.Diagnostics[i]
		if a.Line > b.Line || (a.Line == b.Line && a.Column > b.Column) {
			t.Errorf("diagnostic %d (%d:%d) before %d (%d:%d)", i-1, a.Line, a.Column, i, b.Line, b.Column)
		}
	}
	if h := me.Diagnostics[1].Hint; h != missingSelectorHint ||
		!strings.Contains(h, "add spec.selector.matchLabels with the same labels as spec.template.metadata.labels") {
		t.Errorf("missing-selector hint %q", h)
	}

	// the same hint on consecutive diagnostics is given once
	e := newError([]Diagnostic{
		{File: "f", Line: 3, Column: 1, Message: "c", Hint: "h"},
		{File: "f", Line: 1, Column: 5, Message: "a", Hint: "h"},
		{File: "f", Line: 1, Column: 2, Message: "a0", Hint: "other"},
		{File: "f", Line: 2, Column: 1, Message: "b", Hint: "h"},
		{File: "g", Line: 1, Column: 1, Message: "g", Hint: "h"},
	})
	var hints []string
	for _, d := range e.Diagnostics {
		hints = append(hints, d.Message+"="+d.Hint)
	}
	if got := strings.Join(hints, " "); got != "a0=other a=h b= c= g=" {
		t.Errorf("hints %s", got)
	}
	if e.Error() != "error: c\nerror: a\nerror: a0\nerror: b\nerror: g" {
		t.Errorf("kubectl order lost: %q", e.Error())
	}
}
