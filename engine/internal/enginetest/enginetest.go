// Package enginetest holds fixtures that the engine packages' tests share.
package enginetest

import "strings"

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
