package kubelet

import (
	"fmt"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// Registry is the simulated image registry the kubelets pull from.
//
// By default it is open: every image reference exists (so any manifest a
// learner writes, and every seed and example, pulls fine). A scenario (or
// the page) makes pulls fail in one of two ways:
//   - Lack(refs...) removes references from an open registry
//     (`registry lacks nginx:1.233`);
//   - Have(refs...) declares the registry's content: from the first call on,
//     only the declared references exist (`registry has nginx:1.23 nginx:1.23.3`).
//
// Apart from the registry, every node holds the preloaded images (Preload,
// SetPreloaded; by default SeedPreloadedImages) without pulling them, and
// each image it has pulled (its status.images): imagePullPolicy Never runs
// only those.
//
// References are compared normalized as the container runtime does
// (docker/distribution reference.ParseNormalizedNamed plus the kubelet's
// applyDefaultImageTag): "nginx" is docker.io/library/nginx:latest,
// "bitnami/nginx:1" is docker.io/bitnami/nginx:1.
type Registry struct {
	// preloaded lists the images every node holds without pulling them
	// (imported by hand), normalized; order keeps them in the order given.
	preloaded map[string]bool
	order     []string
	declared  bool
	have      map[string]bool
	lack      map[string]bool
	repos     map[string]bool // repositories with a declared reference
}

// Preloaded reports whether every node holds image without pulling it, as
// when it was imported by hand (`ctr image import`): what the runtime's
// image store answers imageManager.EnsureImageExists (GetImageRef) for it.
// Only imagePullPolicy Never looks at it (an image a node pulled is in its
// status.images). A new
// registry preloads only SeedPreloadedImages, so Never with any other image
// fails with ErrImageNeverPull until the node has pulled it, as on a fresh
// real node, whose image store holds nothing a pod could ask for.
func (r *Registry) Preloaded(image string) bool {
	return r.preloaded[NormalizeImage(image)]
}

// PreloadedImages returns the preloaded references, as given (SetPreloaded,
// Preload), in order.
func (r *Registry) PreloadedImages() []string { return append([]string(nil), r.order...) }

// SeedPreloadedImages are the images the seed tutorial's author imported on
// every node by hand (its DaemonSets use imagePullPolicy: Never with them):
// a new Registry preloads them, and nothing else.
var SeedPreloadedImages = []string{"nginx:1.23", "nginx:1.23.3"}

// SetPreloaded sets the images every node holds from the start (none when
// refs is empty), replacing the previous list.
func (r *Registry) SetPreloaded(refs ...string) {
	r.preloaded, r.order = map[string]bool{}, nil
	r.Preload(refs...)
}

// Preload adds images to those every node holds, as if imported by hand on
// each node; a reference already preloaded is not added twice.
func (r *Registry) Preload(refs ...string) {
	if r.preloaded == nil {
		r.preloaded = map[string]bool{}
	}
	for _, ref := range refs {
		if n := NormalizeImage(ref); !r.preloaded[n] {
			r.preloaded[n] = true
			r.order = append(r.order, ref)
		}
	}
}

// NewRegistry returns an open registry (every reference exists) whose
// nodes hold SeedPreloadedImages.
func NewRegistry() *Registry {
	r := &Registry{have: map[string]bool{}, lack: map[string]bool{}, repos: map[string]bool{}}
	r.SetPreloaded(SeedPreloadedImages...)
	return r
}

// Have declares references that exist; the registry then holds only the
// declared references.
func (r *Registry) Have(refs ...string) {
	r.declared = true
	for _, ref := range refs {
		n := NormalizeImage(ref)
		r.have[n] = true
		delete(r.lack, n)
		r.repos[repository(n)] = true
	}
}

// Lack removes references from the registry.
func (r *Registry) Lack(refs ...string) {
	for _, ref := range refs {
		n := NormalizeImage(ref)
		r.lack[n] = true
		delete(r.have, n)
	}
}

// Exists reports whether the registry holds the image reference.
func (r *Registry) Exists(ref string) bool {
	n := NormalizeImage(ref)
	if r.lack[n] {
		return false
	}
	return !r.declared || r.have[n]
}

// pullError is the error containerd returns for a reference the registry
// does not hold, as the kubelet prints it (a gRPC status from the CRI):
// "not found" for a missing tag of a known repository, "pull access
// denied" for a repository the registry does not have at all.
func (r *Registry) pullError(ref string) string {
	n := NormalizeImage(ref)
	if !r.declared || r.repos[repository(n)] {
		return fmt.Sprintf("rpc error: code = NotFound desc = failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", n, n, n)
	}
	return fmt.Sprintf("rpc error: code = Unknown desc = failed to pull and unpack image %q: failed to resolve reference %q: pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed", n, n)
}

// NormalizeImage returns the fully qualified form of an image reference:
// docker.io as the default registry, library/ for official images, and
// the tag latest when neither tag nor digest is given.
func NormalizeImage(ref string) string {
	name, digest, hasDigest := strings.Cut(ref, "@")
	tag := ""
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name, tag = name[:i], name[i+1:]
	}
	first, _, hasSlash := strings.Cut(name, "/")
	switch {
	case !hasSlash:
		name = "docker.io/library/" + name
	case !strings.ContainsAny(first, ".:") && first != "localhost":
		name = "docker.io/" + name
	}
	if tag == "" && !hasDigest {
		tag = "latest"
	}
	out := name
	if tag != "" {
		out += ":" + tag
	}
	if hasDigest {
		out += "@" + digest
	}
	return out
}

// repository strips the tag and digest of a normalized reference.
func repository(n string) string {
	n, _, _ = strings.Cut(n, "@")
	if i := strings.LastIndex(n, ":"); i > strings.LastIndex(n, "/") {
		n = n[:i]
	}
	return n
}

// Image pull back-off (kubelet.go: imageBackOff = flowcontrol.NewBackOff(
// backOffPeriod 10s, MaxImageBackOff 300s)), keyed by pod UID and image
// (imageManager.EnsureImageExists: backOffKey "<uid>_<image>").
const (
	ImageBackOffInitial = 10 * time.Second
	ImageBackOffMax     = 300 * time.Second
)

// podWorkerResync is when the kubelet syncs a pod again after a sync that
// failed (a pull error, an image or container in back-off): the pod
// worker requeues it after wait.Jitter(backOffPeriod 10s, 0.5)
// (podWorkers.completeWork), here 10-15 s in 0.5 s steps, fixed per pod
// and container so that runs repeat.
func podWorkerResync(p *api.Pod, container string) time.Duration {
	return 10*time.Second + time.Duration(hash32(p.UID+"/"+container)%11)*500*time.Millisecond
}

// nextBackOff mirrors flowcontrol.Backoff.Next: the first failure, or one
// more than twice the maximum after the last, starts at initial; each
// further one doubles, up to max.
func nextBackOff(cur time.Duration, lastUpdate, now time.Time, initial, maxDelay time.Duration) time.Duration {
	if cur == 0 || now.Sub(lastUpdate) > 2*maxDelay {
		return initial
	}
	return min(2*cur, maxDelay)
}

// fieldPath is the field path of the pulled container's events.
func (pl *pull) fieldPath() string {
	if pl.init {
		return initFieldPath(pl.container)
	}
	return containerFieldPath(pl.container)
}

// status is the status of the pulled container in pod p, or nil.
func (pl *pull) status(p *api.Pod) *api.ContainerStatus {
	if !pl.init {
		return containerStatus(p, pl.container)
	}
	for i := range p.Status.InitContainerStatuses {
		if p.Status.InitContainerStatuses[i].Name == pl.container {
			return &p.Status.InitContainerStatuses[i]
		}
	}
	return nil
}

// containerStatus returns the status of the container named name.
func containerStatus(p *api.Pod, name string) *api.ContainerStatus {
	for i := range p.Status.ContainerStatuses {
		if p.Status.ContainerStatuses[i].Name == name {
			return &p.Status.ContainerStatuses[i]
		}
	}
	return nil
}

// pullFailed records a pull that failed because the registry lacks the
// image (imageManager.EnsureImageExists, then kuberuntime startContainer):
// Warning Failed "Failed to pull image ...: <error>" and "Error:
// ErrImagePull", the container waiting with reason ErrImagePull, and the
// image back-off moved on (backOff.Next). The pod worker syncs the pod
// again podWorkerResync later.
func (k *Kubelets) pullFailed(n *api.Node, p *api.Pod, pl *pull) {
	fp := pl.fieldPath()
	pl.err = k.Registry.pullError(pl.image)
	k.event(p, n, fp, api.EventTypeWarning, "Failed", fmt.Sprintf("Failed to pull image %q: %s", pl.image, pl.err))
	k.event(p, n, fp, api.EventTypeWarning, "Failed", "Error: ErrImagePull")
	if cs := pl.status(p); cs != nil {
		cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ErrImagePull", Message: pl.err}}
	}
	pl.backoff = nextBackOff(pl.backoff, pl.lastUpdate, pl.done, ImageBackOffInitial, ImageBackOffMax)
	pl.lastUpdate = pl.done
	pl.failed = true
	pl.nextSync = pl.done.Add(podWorkerResync(p, pl.container))
	k.c.WakeAt(pl.nextSync)
	k.decide(p, "EnsureImageExists", "pull-failed", fmt.Sprintf("pulling %q failed (the registry does not have it): ErrImagePull; image back-off %s, next sync in %s", pl.image, pl.backoff, pl.nextSync.Sub(pl.done)))
}

// pullBackOff runs the pod worker's syncs of a pod whose pull failed: a
// sync within the back-off since the last failure
// (IsInBackOffSinceUpdate) records Normal BackOff "Back-off pulling image
// ..." and Warning Failed "Error: ImagePullBackOff" and leaves the
// container waiting with reason ImagePullBackOff (message "Back-off
// pulling image ...: ErrImagePull: <error>"); the first sync after it
// pulls again (Pulling). It reports whether the pod status changed.
func (k *Kubelets) pullBackOff(n *api.Node, p *api.Pod, pl *pull, now time.Time) bool {
	changed := false
	fp := pl.fieldPath()
	for pl.failed && !pl.nextSync.After(now) {
		at := pl.nextSync
		if at.Sub(pl.lastUpdate) < pl.backoff {
			msg := fmt.Sprintf("Back-off pulling image %q", pl.image)
			k.event(p, n, fp, api.EventTypeNormal, "BackOff", msg)
			k.event(p, n, fp, api.EventTypeWarning, "Failed", "Error: ImagePullBackOff")
			if cs := pl.status(p); cs != nil && (cs.State.Waiting == nil || cs.State.Waiting.Reason != "ImagePullBackOff") {
				cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: msg + ": ErrImagePull: " + pl.err}}
				changed = true
			}
			pl.nextSync = at.Add(podWorkerResync(p, pl.container))
			continue
		}
		h := hash32(p.UID + "/" + pl.container + "/" + pl.lastUpdate.String())
		d := pullDelay(h, !k.Registry.Exists(pl.image))
		pl.failed = false
		pl.done, pl.took = at.Add(d), d
		k.event(p, n, fp, api.EventTypeNormal, "Pulling", fmt.Sprintf("Pulling image %q", pl.image))
		k.decide(p, "EnsureImageExists", "pull-retry", fmt.Sprintf("the image back-off (%s) has passed: pulling %q again", pl.backoff, pl.image))
		k.c.WakeAt(pl.done)
		return changed
	}
	k.c.WakeAt(pl.nextSync)
	return changed
}
