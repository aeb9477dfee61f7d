package kubelet

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
)

// What a container's status says once the runtime has created it
// (pkg/kubelet/kubelet_pods.go convertToAPIContainerStatuses,
// convertContainerStatus): the runtime's container ID, image and image
// reference, and — InPlacePodVerticalScaling being on in v1.37 — the
// container's resources and allocated requests. A container the runtime
// has not created yet (ContainerCreating, a pull) keeps the default
// waiting status: the spec's image and none of these.

// containerRuntimeID is the ID of the run number restarts (0 for the
// first) of container name of pod p, as kubecontainer.ContainerID.String()
// prints it: "containerd://" and 64 hex digits, the ID containerd gives
// each container it creates (a new one at every restart). Here it is
// derived from the pod's UID (itself drawn from the store's seeded
// generator), the container's name and the run number, so that a run of
// the same inputs gives the same IDs.
func containerRuntimeID(p *api.Pod, name string, restarts int32) string {
	return "containerd://" + hex64(string(p.UID)+"/"+name+"/"+strconv.Itoa(int(restarts)))
}

// runtimeImage is the status.image of a container running image ref:
// containerd's CRI ContainerStatus reports the image's first repo tag,
// normalized ("nginx:1.23" -> "docker.io/library/nginx:1.23"), and the
// kubelet copies it (convertContainerStatus: Image: cs.Image). An image
// pulled by digest has no repo tag: containerd then reports the image
// spec the kubelet created the container with, the image ID
// ("sha256:..."; kuberuntime startContainer passes the resolved imageRef).
func runtimeImage(ref string) string {
	n := NormalizeImage(ref)
	if strings.Contains(n, "@") {
		return "sha256:" + hex64("image-config:"+repository(n)+"@"+digestOf(n))
	}
	return n
}

// runtimeImageID is the status.imageID of a container running image ref:
// the image's repo digest (containerd reports the first RepoDigest as the
// ImageRef, which convertContainerStatus copies into ImageID), as
// "docker.io/library/nginx@sha256:<64 hex>". A reference by digest keeps
// its digest (a tag next to it is dropped, as containerd's reference
// parsing does); a tag's digest is derived from the normalized reference,
// so every node reports the same digest for the same tag.
func runtimeImageID(ref string) string {
	n := NormalizeImage(ref)
	if d := digestOf(n); d != "" {
		return repository(n) + "@" + d
	}
	return repository(n) + "@sha256:" + hex64("manifest:"+n)
}

// digestOf is the "@sha256:..." part of a normalized reference, "" when
// it has none.
func digestOf(n string) string {
	_, d, _ := strings.Cut(n, "@")
	return d
}

// setRuntimeStatus fills the fields of container status st that come from
// the runtime for run number st.RestartCount of container c
// (convertContainerStatus and, for InPlacePodVerticalScaling,
// convertContainerStatusResources: the allocated resources, which the
// runtime's cgroup values match for the resources the playground knows;
// AllocatedResources: the container's requests).
func setRuntimeStatus(p *api.Pod, c *api.Container, st *api.ContainerStatus) {
	st.ContainerID = containerRuntimeID(p, st.Name, st.RestartCount)
	image := st.Image
	if c != nil {
		image = c.Image
	}
	st.Image = runtimeImage(image)
	st.ImageID = runtimeImageID(image)
	if c == nil {
		return
	}
	res := api.ResourceRequirements{Limits: copyResources(c.Resources.Limits), Requests: copyResources(c.Resources.Requests)}
	st.Resources = &res
	st.AllocatedResources = copyResources(c.Resources.Requests)
	st.User = containerUser(p, c)
}

// containerUser is the identity container c of p runs as, as the kubelet
// reports what the runtime says (convertContainerStatus: status.User from
// the CRI's ContainerUser). The uid and gid are the container's
// securityContext runAsUser and runAsGroup, else the pod's, else root (the
// playground's images have no USER); the supplemental groups are the
// primary gid, the pod's supplementalGroups and its fsGroup (the kubelet
// passes the last two: determineEffectiveSecurityContext; the Merge
// policy; the image's /etc/group gives root no other group), in ascending
// order, as the documented outputs show them (kubernetes.io, "Configure a
// Security Context": groups=2000,3000,4000 and [3000, 4000, 50000]).
func containerUser(p *api.Pod, c *api.Container) *api.ContainerUser {
	podSC, _ := p.Extra["spec"]["securityContext"].(map[string]any)
	var sc map[string]any
	for _, list := range []struct {
		name string
		cs   []api.Container
	}{{"initContainers", p.Spec.InitContainers}, {"containers", p.Spec.Containers}} {
		for i := range list.cs {
			if &list.cs[i] == c {
				sc, _ = p.Extra["spec."+list.name+"["+strconv.Itoa(i)+"]"]["securityContext"].(map[string]any)
			}
		}
	}
	id := func(key string) int64 {
		if v, ok := asInt64(sc[key]); ok {
			return v
		}
		v, _ := asInt64(podSC[key])
		return v
	}
	u := &api.LinuxContainerUser{UID: id("runAsUser"), GID: id("runAsGroup")}
	u.SupplementalGroups = []int64{u.GID}
	if gs, ok := podSC["supplementalGroups"].([]any); ok {
		for _, g := range gs {
			if v, ok := asInt64(g); ok {
				u.SupplementalGroups = append(u.SupplementalGroups, v)
			}
		}
	}
	if v, ok := asInt64(podSC["fsGroup"]); ok {
		u.SupplementalGroups = append(u.SupplementalGroups, v)
	}
	slices.Sort(u.SupplementalGroups)
	u.SupplementalGroups = slices.Compact(u.SupplementalGroups)
	return &api.ContainerUser{Linux: u}
}

// asInt64 reads a number kept as written (the decoder's int64, an int, or
// a JSON float64).
func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case float64:
		return int64(x), x == float64(int64(x))
	}
	return 0, false
}

// copyResources copies a resource list, nil for an empty one.
func copyResources(l api.ResourceList) api.ResourceList {
	if len(l) == 0 {
		return nil
	}
	out := make(api.ResourceList, len(l))
	for k, v := range l {
		out[k] = v
	}
	return out
}

// containerNamed returns the container (or init container) of p named
// name, nil if there is none.
func containerNamed(p *api.Pod, name string) *api.Container {
	for _, list := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// hex64 is 64 hex digits derived from s: four rounds of 64-bit FNV-1a,
// each over the previous round's value and s (a stand-in for the SHA-256
// digests and container IDs a runtime reports; deterministic, and no
// cryptographic package in the browser build).
func hex64(s string) string {
	const offset, prime = 14695981039346656037, 1099511628211
	var b strings.Builder
	b.Grow(64)
	h := uint64(offset)
	for round := 0; round < 4; round++ {
		h ^= uint64(round + 1)
		h *= prime
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= prime
		}
		x := strconv.FormatUint(h, 16)
		b.WriteString(strings.Repeat("0", 16-len(x)))
		b.WriteString(x)
	}
	return b.String()
}

// kubeletConditions are the pod conditions the kubelet owns and
// regenerates at every status it posts (pkg/kubelet/types
// PodConditionByKubelet).
var kubeletConditions = map[string]bool{
	api.PodScheduled: true, api.PodReady: true, api.PodInitialized: true, api.ContainersReady: true,
	PodReadyToStartContainers: true,
}

// ObserveGeneration stamps the status the kubelet is about to post for p
// with the pod's generation, as the v1.37 kubelet does: status_manager
// SetPodStatus sets status.observedGeneration
// (CalculatePodStatusObservedGeneration), and generateAPIPodStatus
// regenerates every kubelet-owned condition with observedGeneration
// CalculatePodConditionObservedGeneration — pod.Generation, with
// PodObservedGenerationTracking on.
func ObserveGeneration(p *api.Pod) {
	p.Status.ObservedGeneration = p.Generation
	for i := range p.Status.Conditions {
		if c := &p.Status.Conditions[i]; kubeletConditions[c.Type] {
			c.ObservedGeneration = p.Generation
		}
	}
}

// writeStatus posts the kubelet's status of p (ObserveGeneration, then the
// write).
func (k *Kubelets) writeStatus(p *api.Pod) error {
	ObserveGeneration(p)
	return k.c.UpdatePod(p)
}
