package manifest

import (
	"strings"
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

const unknownFieldsDS = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  foo: bar
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - name: agent
        image: agent:v1
        imagePullPolic: Always
`

// TestDecodeWithFieldValidation checks the three field validation
// directives and the decode error's verb.
func TestDecodeWithFieldValidation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     DecodeOptions
		wantErr  string
		wantWarn []string
	}{
		{name: "strict default", wantErr: `Error from server (BadRequest): error when creating "ds.yaml": DaemonSet in version "v1" cannot be handled as a DaemonSet: strict decoding error: unknown field "spec.foo", unknown field "spec.template.spec.containers[0].imagePullPolic"`},
		{name: "strict replacing", opts: DecodeOptions{Verb: "replacing"}, wantErr: `error when replacing "ds.yaml"`},
		{name: "warn", opts: DecodeOptions{FieldValidation: FieldValidationWarn}, wantWarn: []string{"spec.foo", "spec.template.spec.containers[0].imagePullPolic"}},
		{name: "ignore", opts: DecodeOptions{FieldValidation: FieldValidationIgnore}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := DecodeWith("ds.yaml", unknownFieldsDS, tc.opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(docs) != 1 {
				t.Fatalf("%d docs", len(docs))
			}
			if strings.Join(docs[0].UnknownFields, ",") != strings.Join(tc.wantWarn, ",") {
				t.Errorf("unknown fields %q, want %q", docs[0].UnknownFields, tc.wantWarn)
			}
			ds := docs[0].Object.(*api.DaemonSet)
			if ds.Extra != nil {
				t.Errorf("unknown fields kept in Extra: %v", ds.Extra)
			}
			if !strings.Contains(docs[0].LastAppliedConfiguration(), `"foo":"bar"`) {
				t.Errorf("last-applied %q lacks the field as written", docs[0].LastAppliedConfiguration())
			}
		})
	}
}

// TestAnnotationsSizeLimit checks ValidateAnnotationsSize at the limit.
func TestAnnotationsSizeLimit(t *testing.T) {
	node := func(n int) string {
		return "apiVersion: v1\nkind: Node\nmetadata:\n  name: big\n  annotations:\n    k: " + strings.Repeat("x", n) + "\n"
	}
	if _, err := Decode("n.yaml", node(TotalAnnotationSizeLimitB-1)); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	_, err := Decode("n.yaml", node(TotalAnnotationSizeLimitB))
	want := `The Node "big" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("over the limit: %v, want %q", err, want)
	}
}
