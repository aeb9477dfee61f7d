// Package enginetest holds fixtures that the engine packages' tests share.
package enginetest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DaemonSetYAML returns the smallest DaemonSet manifest: name, selected
// and labelled app=name, with one container named name running image. The
// namespace line is left out when namespace is empty.
func DaemonSetYAML(namespace, name, image string) string {
	ns := ""
	if namespace != "" {
		ns = "  namespace: " + namespace + "\n"
	}
	return `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: ` + name + "\n" + ns + `spec:
  selector:
    matchLabels: {app: ` + name + `}
  template:
    metadata:
      labels: {app: ` + name + `}
    spec:
      containers:
      - name: ` + name + `
        image: ` + image + "\n" + command(image)
}

// command keeps a container of a shell-only base image running: busybox
// or alpine with no command runs `sh`, which exits at once without a TTY
// (the pod would crash-loop, as on a real node).
func command(image string) string {
	for _, base := range []string{"busybox", "alpine"} {
		if image == base || strings.HasPrefix(image, base+":") {
			return "        command: [\"sleep\", \"infinity\"]\n"
		}
	}
	return ""
}

// Golden compares got with the golden file at path; with update it
// rewrites the file instead (creating its directory). A missing file
// fails, saying how to create it.
func Golden(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}
