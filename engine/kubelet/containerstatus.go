package kubelet

import (
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
