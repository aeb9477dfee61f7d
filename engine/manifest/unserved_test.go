package manifest

import (
	"errors"
	"strings"
	"testing"
)

// TestUnservedKinds: a kind/version pair the v1.37 API server does not
// serve is a mapping error at the apiVersion with a hint; served kinds the
// engine does not simulate still decode.
func TestUnservedKinds(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		wantHint         string // "" = decodes
	}{
		{"policy/v1beta1", "PodSecurityPolicy", "policy/v1beta1 PodSecurityPolicy was removed in Kubernetes 1.25 and has no replacement in the API"},
		{"rbac.authorization.k8s.io/v1beta1", "Role", "rbac.authorization.k8s.io/v1beta1 Role was removed in Kubernetes 1.22; write `apiVersion: rbac.authorization.k8s.io/v1`"},
		{"apps/v1", "DeamonSet", "no API serves a kind DeamonSet: did you mean `kind: DaemonSet`?"},
		{"apps/v1", "DaemonSett", "no API serves a kind DaemonSett: did you mean `kind: DaemonSet`?"},
		{"apps/v1", "daemonset", "kinds are case-sensitive: write `kind: DaemonSet`"},
		{"apps/v1beta1", "Deployment", "apps/v1beta1 Deployment was removed in Kubernetes 1.16; write `apiVersion: apps/v1`"},
		{"example.com/v1", "Widget", "a v1.37 cluster serves no kind Widget in example.com/v1 (a custom resource needs its CustomResourceDefinition applied first)"},
		{"rbac.authorization.k8s.io/v1", "Role", ""},
		{"apps/v1", "Deployment", ""},
		{"autoscaling/v1", "HorizontalPodAutoscaler", ""},
	}
	for _, tt := range tests {
		t.Run(tt.apiVersion+"/"+tt.kind, func(t *testing.T) {
			text := "apiVersion: " + tt.apiVersion + "\nkind: " + tt.kind + "\nmetadata:\n  name: x\n"
			docs, err := Decode("f.yaml", text)
			if tt.wantHint == "" {
				if err != nil || len(docs) != 1 {
					t.Fatalf("Decode: %v", err)
				}
				return
			}
			var me *Error
			if !errors.As(err, &me) || len(me.Diagnostics) != 1 {
				t.Fatalf("Decode: %v", err)
			}
			d := me.Diagnostics[0]
			if d.Hint != tt.wantHint || d.Line < 1 || d.Field != "apiVersion" {
				t.Errorf("diagnostic %+v, want hint %q", d, tt.wantHint)
			}
			want := `no matches for kind "` + tt.kind + `" in version "` + tt.apiVersion + `"`
			if !strings.Contains(me.Error(), want) {
				t.Errorf("Error() %q lacks %q", me.Error(), want)
			}
		})
	}
}
