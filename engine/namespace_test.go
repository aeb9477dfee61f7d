package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/internal/enginetest"
)

var loggingInstall = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: logging\n---\n" +
	enginetest.DaemonSetYAML("logging", "fluentd", "fluentd:v1")

// TestNamespaceLifecycle runs a namespace through create (an install file
// with its Namespace first), deletion while its pods terminate gracefully
// (Terminating, new content refused), and removal with its last pod.
func TestNamespaceLifecycle(t *testing.T) {
	s := New(Options{})
	r, err := s.Apply("install.yaml", loggingInstall)
	if err != nil || strings.Join(r.Lines, "\n") != "namespace/logging created\ndaemonset.apps/fluentd created" {
		t.Fatalf("apply: %+v %v", r, err)
	}
	s.Advance(30 * time.Second)
	if n := len(s.store.Pods()); n != 2 {
		t.Fatalf("%d pods in logging, want 2 (node-1, node-2)", n)
	}
	s.Files["install.yaml"] = loggingInstall
	run := func(line, stdout, stderr string, exit int) {
		t.Helper()
		out := s.Run(line)
		if out.Stdout != stdout || out.Stderr != stderr || out.ExitCode != exit {
			t.Errorf("%s:\n%q\n%q\nexit %d", line, out.Stdout, out.Stderr, out.ExitCode)
		}
	}
	run("kubectl delete namespace logging --wait=false", "namespace \"logging\" deleted\n", "", 0)
	run("kubectl get ns logging --no-headers", "logging   Terminating   30s\n", "", 0)
	// the Namespace document is applied on its own (nothing to patch)
	run("kubectl apply -f install.yaml", "namespace/logging unchanged\n",
		"Error from server (Forbidden): error when creating \"install.yaml\": daemonsets.apps \"fluentd\" is forbidden: unable to create new content in namespace logging because it is being terminated\n", 1)
	if _, err := s.Apply("install.yaml", loggingInstall); err == nil {
		t.Errorf("engine Apply into a terminating namespace succeeded")
	}
	s.Advance(40 * time.Second) // more than the pods' 30 s grace period
	run("kubectl get ns logging", "", "Error from server (NotFound): namespaces \"logging\" not found\n", 1)
	run("kubectl get pods,ds,controllerrevisions,events -n logging", "", "No resources found in logging namespace.\n", 0)

	// kubectl delete waits until the namespace is gone
	run("kubectl apply -f install.yaml", "namespace/logging created\ndaemonset.apps/fluentd created\n", "", 0)
	s.Advance(30 * time.Second)
	start := s.store.Now()
	run("kubectl delete ns logging", "namespace \"logging\" deleted\n", "", 0)
	if s.store.Namespace("logging") != nil || !s.store.Now().After(start) {
		t.Errorf("delete returned after %s with the namespace %+v", s.store.Now().Sub(start), s.store.Namespace("logging"))
	}
}
