package kubelet_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/dsplayground/dsplay/engine"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/internal/simstore"
)

// stampManifests exercises every component that writes a time into an
// object: a crash-looping container (restarts: lastState.terminated,
// CrashLoopBackOff), a container killed by a failing liveness probe, a
// readiness probe, a pod the scheduler cannot place (PodScheduled False,
// lastProbeTime) and a pod with a short unreachable toleration (taint
// eviction: DisruptionTarget) once its node fails.
const stampManifests = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: crasher
spec:
  selector:
    matchLabels: {app: crasher}
  template:
    metadata:
      labels: {app: crasher}
    spec:
      containers:
      - name: crash
        image: busybox:1.36
        command: ["sh", "-c", "sleep 3; exit 1"]
      - name: probed
        image: nginx:1.27
        readinessProbe:
          httpGet: {path: /, port: 80}
          periodSeconds: 3
        livenessProbe:
          httpGet: {path: /healthz, port: 8080}
          periodSeconds: 3
          failureThreshold: 2
---
apiVersion: v1
kind: Pod
metadata:
  name: evictable
spec:
  nodeSelector: {kubernetes.io/hostname: node-2}
  tolerations:
  - key: node.kubernetes.io/unreachable
    operator: Exists
    effect: NoExecute
    tolerationSeconds: 7
  containers:
  - name: app
    image: nginx:1.27
---
apiVersion: v1
kind: Pod
metadata:
  name: unplaceable
spec:
  nodeSelector: {disk: none}
  containers:
  - name: app
    image: nginx:1.27
`

// TestStoredTimesAreWholeSeconds checks that every time the components
// write into an object is a metav1.Time as the API server keeps it: whole
// seconds (Cluster.Stamp), both in `kubectl get -o json` and in the stored
// objects, after restarts, probes, a node failure and a taint eviction run
// at virtual instants with sub-second parts.
func TestStoredTimesAreWholeSeconds(t *testing.T) {
	s := engine.New(engine.Options{})
	if _, err := s.Apply("stamp.yaml", stampManifests); err != nil {
		t.Fatal(err)
	}
	for _, d := range []time.Duration{1300 * time.Millisecond, 2700 * time.Millisecond, 9100 * time.Millisecond, 31*time.Second + 400*time.Millisecond} {
		s.Advance(d)
	}
	if err := s.FailNode("node-2"); err != nil {
		t.Fatal(err)
	}
	s.Advance(50*time.Second + 300*time.Millisecond) // node monitor grace, then tolerationSeconds
	s.Advance(20*time.Second + 700*time.Millisecond)
	if s.Now().Nanosecond() == 0 {
		t.Fatal("the scenario should end at a sub-second instant")
	}

	c := simstore.Cluster(s)
	// The scenario did what it is meant to: restarts, a taint eviction,
	// an unschedulable pod.
	if p := c.Pod("default", "evictable"); p == nil || p.DeletionTimestamp == nil || p.Condition("DisruptionTarget") == nil ||
		p.Condition("DisruptionTarget").Reason != "DeletionByTaintManager" {
		t.Fatalf("evictable: want a taint eviction (DisruptionTarget DeletionByTaintManager), got %+v", p)
	}
	restarts := 0
	for _, p := range c.Pods() {
		for _, cs := range p.Status.ContainerStatuses {
			restarts += int(cs.RestartCount)
		}
	}
	if restarts == 0 {
		t.Fatal("no container restarted")
	}

	// kubectl renders times as RFC 3339 (render.go); what it prints must
	// be whole seconds whatever the store holds.
	out := s.Run("kubectl get pods,nodes -A -o json")
	if out.ExitCode != 0 {
		t.Fatalf("get: %s", out.Stderr)
	}
	var doc any
	if err := json.Unmarshal([]byte(out.Stdout), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	walkJSON(doc, "", func(path, key string, ts time.Time) {
		seen[key]++
		if ts.Nanosecond() != 0 {
			t.Errorf("-o json %s = %s: not whole seconds", path, ts.Format(time.RFC3339Nano))
		}
	})
	// The scenario must have produced every kind of time field, or the
	// check above proves nothing about it.
	for _, key := range []string{"creationTimestamp", "deletionTimestamp", "startTime", "startedAt", "finishedAt",
		"lastTransitionTime", "lastProbeTime", "lastHeartbeatTime", "timeAdded"} {
		if seen[key] == 0 {
			t.Errorf("-o json has no %s: the scenario does not exercise it", key)
		}
	}

	// The stored objects: what ages (RESTARTS "(9s ago)", describe's
	// Started:, AGE) are computed from must be the printed second.
	var objs []any
	for _, p := range c.Pods() {
		objs = append(objs, p)
	}
	for _, n := range c.Nodes() {
		objs = append(objs, n)
	}
	for _, ds := range c.DaemonSets() {
		objs = append(objs, ds)
	}
	for _, e := range c.Events() {
		objs = append(objs, e)
	}
	count := 0
	for _, o := range objs {
		walkTimes(reflect.ValueOf(o), fmt.Sprintf("%T", o), func(path string, ts time.Time) {
			count++
			if ts.Nanosecond() != 0 {
				t.Errorf("stored %s = %s: not whole seconds", path, ts.Format(time.RFC3339Nano))
			}
		})
	}
	if count == 0 {
		t.Fatal("no time fields found in the stored objects")
	}
}

// walkJSON calls f for every string value of v that parses as an RFC 3339
// time, with its JSON path and its key.
func walkJSON(v any, path string, f func(path, key string, ts time.Time)) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok {
				if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
					f(path+"."+k, k, ts)
				}
				continue
			}
			walkJSON(e, path+"."+k, f)
		}
	case []any:
		for i, e := range x {
			walkJSON(e, fmt.Sprintf("%s[%d]", path, i), f)
		}
	}
}

var timeType = reflect.TypeOf(time.Time{})

// walkTimes calls f for every non-zero time.Time reachable from v through
// fields, pointers, slices and maps.
func walkTimes(v reflect.Value, path string, f func(path string, ts time.Time)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkTimes(v.Elem(), path, f)
		}
	case reflect.Struct:
		if v.Type() == timeType {
			if ts := v.Interface().(time.Time); !ts.IsZero() {
				f(path, ts)
			}
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkTimes(v.Field(i), path+"."+v.Type().Field(i).Name, f)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkTimes(v.Index(i), fmt.Sprintf("%s[%d]", path, i), f)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walkTimes(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), f)
		}
	}
}

// Cluster.Stamp is what the components store; it is the virtual clock
// truncated to the second.
func TestStampTruncatesNow(t *testing.T) {
	c := cluster.New(1)
	c.SetNow(cluster.Epoch.Add(90*time.Second + 999*time.Millisecond))
	if got, want := c.Stamp(), cluster.Epoch.Add(90*time.Second); !got.Equal(want) {
		t.Fatalf("Stamp = %s, want %s", got, want)
	}
	if !c.Now().Equal(cluster.Epoch.Add(90*time.Second + 999*time.Millisecond)) {
		t.Fatal("Now must keep full precision")
	}
}
