package kubelet

import (
	"fmt"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// Volume mounts mirror the kubelet's volume manager
// (pkg/kubelet/volumemanager): before SyncPod creates the sandbox and pulls
// images it waits for the pod's volumes (WaitForAttachAndMount), and the
// reconciler mounts each one, retrying a failed mount with exponential
// back-off (pkg/util/goroutinemap/exponentialbackoff: 500 ms doubling up to
// 2m2s). A configMap or secret volume that is not optional and names a
// missing object fails its SetUp (pkg/volume/configmap, pkg/volume/secret:
// the object's NotFound error, `configmap "x" not found`), and each failure
// is a Warning FailedMount event on the pod with the operation executor's
// text (pkg/volume/util/operationexecutor, GenerateMountVolumeFunc:
// `MountVolume.SetUp failed for volume "c" : configmap "missing-cm" not
// found`). Meanwhile the pod shows ContainerCreating. Once every volume
// mounts, the pod starts as usual (admit).

// Mount retry back-off (exponentialbackoff initialDurationBeforeRetry and
// maxDurationBeforeRetry).
const (
	MountInitialBackoff = 500 * time.Millisecond
	MountMaxBackoff     = 2*time.Minute + 2*time.Second
)

// mountWait is the volume manager's state for a pod whose volumes do not
// all mount yet.
type mountWait struct {
	namespace, name string
	// next is when the reconciler tries again; backoff the last wait.
	next    time.Time
	backoff time.Duration
}

// volumeSetUpError returns the SetUp error of one volume of pod p, or ""
// when it mounts: a configMap or secret volume (optional false or unset)
// whose object is missing, or whose items name a key the object lacks
// (`configmap references non-existent config key: k`, `secret references
// non-existent secret key: k`).
func (k *Kubelets) volumeSetUpError(p *api.Pod, v api.Volume) string {
	if src, ok := v.Source["configMap"].(map[string]any); ok {
		name, _ := src["name"].(string)
		optional, _ := src["optional"].(bool)
		cm := k.c.ConfigMap(p.Namespace, name)
		if cm == nil {
			if optional {
				return ""
			}
			return fmt.Sprintf("configmap %q not found", name)
		}
		for _, key := range itemKeys(src) {
			_, inData := cm.Data[key]
			_, inBinary := cm.BinaryData[key]
			if !inData && !inBinary && !optional {
				return "configmap references non-existent config key: " + key
			}
		}
	}
	if src, ok := v.Source["secret"].(map[string]any); ok {
		name, _ := src["secretName"].(string)
		optional, _ := src["optional"].(bool)
		s := k.c.Secret(p.Namespace, name)
		if s == nil {
			if optional {
				return ""
			}
			return fmt.Sprintf("secret %q not found", name)
		}
		for _, key := range itemKeys(src) {
			if _, ok := s.Data[key]; !ok && !optional {
				return "secret references non-existent secret key: " + key
			}
		}
	}
	return ""
}

// itemKeys returns the keys of a configMap or secret volume's items.
func itemKeys(src map[string]any) []string {
	items, _ := src["items"].([]any)
	var keys []string
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			if key, ok := m["key"].(string); ok {
				keys = append(keys, key)
			}
		}
	}
	return keys
}

// volumesPending is the volume manager's gate before a pod starts
// (WaitForAttachAndMount): it reports whether some volume of p still fails
// to mount. The first failure writes the pod's waiting status
// (ContainerCreating); each mount attempt that fails records a Warning
// FailedMount per failing volume and queues the next attempt with the
// back-off. p is an accepted pod not started yet.
func (k *Kubelets) volumesPending(n *api.Node, p *api.Pod) bool {
	k.pruneMountWaits()
	now := k.c.Now()
	w := k.mountWaits[p.UID]
	if w != nil && now.Before(w.next) {
		k.c.WakeAt(w.next)
		return true
	}
	var failed []string
	for _, v := range p.Spec.Volumes {
		if msg := k.volumeSetUpError(p, v); msg != "" {
			failed = append(failed, v.Name)
			k.event(p, n, "", api.EventTypeWarning, "FailedMount", fmt.Sprintf("MountVolume.SetUp failed for volume %q : %s", v.Name, msg))
		}
	}
	if len(failed) == 0 {
		if w != nil {
			delete(k.mountWaits, p.UID)
			k.decide(p, "WaitForAttachAndMount", "mount", "every volume of the pod is mounted now: the pod starts")
		}
		return false
	}
	if w == nil {
		if k.mountWaits == nil {
			k.mountWaits = map[string]*mountWait{}
		}
		w = &mountWait{namespace: p.Namespace, name: p.Name}
		k.mountWaits[p.UID] = w
		k.writeWaitingForVolumes(n, p, now)
		w.backoff = MountInitialBackoff
	} else {
		w.backoff = min(2*w.backoff, MountMaxBackoff)
	}
	w.next = now.Add(w.backoff)
	k.c.WakeAt(w.next)
	k.decide(p, "WaitForAttachAndMount", "wait", fmt.Sprintf(
		"volume(s) %s of the pod cannot be mounted on %s (FailedMount): the pod stays ContainerCreating; the volume manager retries in %s (back-off doubling from 500ms up to 2m2s)",
		strings.Join(failed, ", "), n.Name, w.backoff))
	return true
}

// writeWaitingForVolumes writes the status the pod worker posts before the
// volumes are mounted (generateAPIPodStatus): Pending with every container
// waiting in ContainerCreating (init containers: PodInitializing),
// PodReadyToStartContainers False (no sandbox yet), not Ready.
func (k *Kubelets) writeWaitingForVolumes(n *api.Node, p *api.Pod, now time.Time) {
	setCreatingStatus(n, p, api.ConditionFalse, now)
	k.setContainersCreating(p, now)
	_ = k.writeStatus(p)
}

// pruneMountWaits forgets the waits of pods that are gone.
func (k *Kubelets) pruneMountWaits() {
	for uid, w := range k.mountWaits {
		if p := k.c.Pod(w.namespace, w.name); p == nil || p.UID != uid || p.DeletionTimestamp != nil {
			delete(k.mountWaits, uid)
		}
	}
}
