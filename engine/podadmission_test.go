package engine

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// TestPriorityAdmission: priorityClassName resolves to spec.priority at pod
// creation (plugin/pkg/admission/priority); an unknown class is Forbidden,
// for a DaemonSet as a FailedCreate event naming the generateName prefix,
// retried on the work queue's backoff, and for a bare pod as kubectl's
// Error from server (Forbidden) line.
func TestPriorityAdmission(t *testing.T) {
	for _, tc := range []struct {
		class    string
		priority int32
	}{{"", 0}, {"system-node-critical", 2000001000}, {"system-cluster-critical", 2000000000}} {
		s := New(Options{})
		ds := newTestDS("d")
		ds.Spec.Template.Spec.PriorityClassName = tc.class
		createDS(t, s, ds)
		p := podOn(s, ds, "node-1")
		if p == nil || p.Spec.Priority == nil || *p.Spec.Priority != tc.priority || p.Spec.PreemptionPolicy == nil || *p.Spec.PreemptionPolicy != "PreemptLowerPriority" {
			t.Fatalf("class %q: pod %+v", tc.class, p)
		}
		out := s.Run("kubectl describe pod " + p.Name).Stdout
		if !strings.Contains(out, fmt.Sprintf("\nPriority:         %d\n", tc.priority)) && !strings.Contains(out, fmt.Sprintf("\nPriority:             %d\n", tc.priority)) {
			t.Errorf("describe lacks Priority:\n%s", out)
		}
		if got := strings.Contains(out, "\nPriority Class Name:"); got != (tc.class != "") {
			t.Errorf("class %q: Priority Class Name shown=%v\n%s", tc.class, got, out)
		}
	}

	s := New(Options{})
	ds := newTestDS("d")
	ds.Spec.Template.Spec.PriorityClassName = "high"
	createDS(t, s, ds)
	if n := len(s.store.PodsOwnedBy(ds.UID)); n != 0 {
		t.Fatalf("%d pods created", n)
	}
	count := func() int32 {
		var n int32
		for _, e := range s.store.EventsFor("DaemonSet", ds.UID) {
			if e.Reason == "FailedCreate" {
				eq(t, "message", e.Message, `Error creating: pods "d-" is forbidden: no PriorityClass with name high was found`)
				n += e.Count
			}
		}
		return n
	}
	eq(t, "FailedCreate attempts after the first sync (one slow-start batch)", count(), 1)
	s.Advance(time.Second)
	// requeued at +5ms, +15ms, +35ms, ... +635ms
	eq(t, "FailedCreate attempts after 1s of backoff", count(), 8)

	bare := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  priorityClassName: high\n  containers:\n  - name: c\n    image: nginx\n"
	s.Files["p.yaml"] = bare
	out := s.Run("kubectl apply -f p.yaml")
	eq(t, "apply stderr", out.Stderr, "Error from server (Forbidden): error when creating \"p.yaml\": pods \"p\" is forbidden: no PriorityClass with name high was found\n")
	if s.store.Pod("default", "p") != nil {
		t.Error("the refused pod was stored")
	}
}

// TestServiceAccountAdmission: pods get serviceAccountName default and the
// kube-api-access-xxxxx projected token volume mounted read-only in every
// container (plugin/pkg/admission/serviceaccount), unless
// automountServiceAccountToken is false; describe pod shows them as kubectl
// does, and re-applying the pod's manifest keeps them (unchanged).
func TestServiceAccountAdmission(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("d")
	createDS(t, s, ds)
	p := podOn(s, ds, "node-1")
	eq(t, "serviceAccountName", p.Spec.ServiceAccountName, "default")
	if len(p.Spec.Volumes) != 1 || !strings.HasPrefix(p.Spec.Volumes[0].Name, "kube-api-access-") || len(p.Spec.Volumes[0].Name) != len("kube-api-access-")+5 {
		t.Fatalf("volumes %+v", p.Spec.Volumes)
	}
	vol := p.Spec.Volumes[0].Name
	eq(t, "mounts", p.Spec.Containers[0].VolumeMounts, []api.VolumeMount{{Name: vol, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}})
	out := s.Run("kubectl describe pod " + p.Name).Stdout
	for _, want := range []string{
		"\nService Account:  default\n",
		"    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from " + vol + " (ro)\n",
		"Volumes:\n  " + vol + ":\n" +
			"    Type:                    Projected (a volume that contains injected data from multiple sources)\n" +
			"    TokenExpirationSeconds:  3607\n" +
			"    ConfigMapName:           kube-root-ca.crt\n" +
			"    Optional:                false\n" +
			"    DownwardAPI:             true\n" +
			"QoS Class:                   BestEffort\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe pod lacks %q:\n%s", want, out)
		}
	}

	s.Files["p.yaml"] = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n"
	s.Files["q.yaml"] = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: q\nspec:\n  automountServiceAccountToken: false\n  containers:\n  - name: c\n    image: nginx\n"
	eq(t, "apply p", s.Run("kubectl apply -f p.yaml").Stdout, "pod/p created\n")
	eq(t, "re-apply p", s.Run("kubectl apply -f p.yaml").Stdout, "pod/p unchanged\n")
	// an image change keeps what admission added (the patch does not name it)
	s.Files["r1.yaml"] = strings.NewReplacer("name: p", "name: r", "image: nginx", "image: nginx:1.25").Replace(s.Files["p.yaml"])
	s.Files["r2.yaml"] = strings.NewReplacer("name: p", "name: r", "image: nginx", "image: nginx:1.26").Replace(s.Files["p.yaml"])
	// nginx -> nginx:1.25 keeps the defaulted imagePullPolicy Always (immutable)
	eq(t, "apply p with a tag", s.Run("kubectl apply -f "+func() string {
		s.Files["p4.yaml"] = strings.Replace(s.Files["p.yaml"], "image: nginx", "image: nginx:1.25", 1)
		return "p4.yaml"
	}()).Stdout, "pod/p configured\n")
	eq(t, "apply r1", s.Run("kubectl apply -f r1.yaml").Stdout, "pod/r created\n")
	eq(t, "apply r2", s.Run("kubectl apply -f r2.yaml").Stdout, "pod/r configured\n")
	if live := s.store.Pod("default", "r"); len(live.Spec.Volumes) != 1 || len(live.Spec.Containers[0].VolumeMounts) != 1 || live.Spec.ServiceAccountName != "default" {
		t.Errorf("after an image change: %+v", live.Spec)
	}
	eq(t, "apply q", s.Run("kubectl apply -f q.yaml").Stdout, "pod/q created\n")
	q := s.store.Pod("default", "q")
	eq(t, "q serviceAccountName", q.Spec.ServiceAccountName, "default")
	eq(t, "q volumes", len(q.Spec.Volumes), 0)
	eq(t, "q mounts", len(q.Spec.Containers[0].VolumeMounts), 0)
}

// TestHostPathTypeDefaulted: the API server defaults hostPath.type to ""
// (SetDefaults_HostPathVolumeSource), so describe prints an empty
// HostPathType, not <none> (printHostPathVolumeSource).
func TestHostPathTypeDefaulted(t *testing.T) {
	s := New(Options{})
	s.Files["ds.yaml"] = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: d
spec:
  selector:
    matchLabels: {app: d}
  template:
    metadata:
      labels: {app: d}
    spec:
      containers:
      - name: c
        image: nginx
        volumeMounts:
        - {name: varlog, mountPath: /var/log}
      volumes:
      - name: varlog
        hostPath:
          path: /var/log
`
	if out := s.Run("kubectl apply -f ds.yaml"); out.ExitCode != 0 {
		t.Fatal(out.Stderr)
	}
	for _, cmd := range []string{"kubectl describe ds d", "kubectl describe pods", "kubectl rollout history ds/d --revision=1"} {
		out := s.Run(cmd).Stdout
		if !strings.Contains(out, "    Path:          /var/log\n    HostPathType:  \n") && !strings.Contains(out, "    HostPathType:\t\n") {
			t.Errorf("%s: want an empty HostPathType:\n%s", cmd, out)
		}
	}
}

// TestApplyWarnsMissingLastApplied: kubectl apply over an object it did not
// create (a default node; an object from kubectl create) warns on stderr
// before the result line (apply.go warningNoLastAppliedConfigAnnotation);
// a second apply does not.
func TestApplyWarnsMissingLastApplied(t *testing.T) {
	s := New(Options{})
	s.Files["n.yaml"] = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n  labels:\n    disk: ssd\n"
	s.Files["p.yaml"] = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx\n"
	warn := func(res string) string {
		return "Warning: resource " + res + " is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n"
	}
	out := s.Run("kubectl apply -f n.yaml")
	eq(t, "chunks", fmt.Sprint(out.Chunks), fmt.Sprint([]Chunk{{Stderr: true, Text: warn("nodes/node-1")}, {Text: "node/node-1 configured\n"}}))
	out = s.Run("kubectl apply -f n.yaml")
	eq(t, "second apply", fmt.Sprint(out.Chunks), fmt.Sprint([]Chunk{{Text: "node/node-1 unchanged\n"}}))
	s.Run("kubectl create -f p.yaml")
	out = s.Run("kubectl apply -f p.yaml")
	eq(t, "stderr", out.Stderr, warn("pods/p"))
}

// TestTaintNoExecuteBothControllers: after `kubectl taint nodes node-1
// k=v:NoExecute` both the DaemonSet controller (SuccessfulDelete on the
// DaemonSet) and the taint eviction controller (TaintManagerEviction
// "Marking for deletion Pod ..." on the pod, once) act on the daemon pod.
func TestTaintNoExecuteBothControllers(t *testing.T) {
	s := New(Options{})
	ds := newTestDS("d")
	createDS(t, s, ds)
	p := podOn(s, ds, "node-1")
	if out := s.Run("kubectl taint nodes node-1 k=v:NoExecute"); out.ExitCode != 0 {
		t.Fatal(out.Stderr)
	}
	s.Advance(5 * time.Second)
	var marks, deletes int
	for _, e := range s.store.Events() {
		if e.Reason == "TaintManagerEviction" && e.Message == "Marking for deletion Pod default/"+p.Name {
			marks += int(e.Count)
		}
		if e.Reason == "SuccessfulDelete" && e.Message == "Deleted pod: "+p.Name {
			deletes += int(e.Count)
		}
	}
	eq(t, "TaintManagerEviction events", marks, 1)
	eq(t, "SuccessfulDelete events", deletes, 1)
}
