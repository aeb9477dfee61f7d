package kubelet

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// What stops a container before it is created. kuberuntime's
// startContainer first makes sure of the image (imageManager.
// EnsureImageExists: the reference must parse — InvalidImageName — and
// with imagePullPolicy Never the image must be on the node —
// ErrImageNeverPull), then builds the container's configuration
// (generateContainerConfig → Kubelet.GenerateRunContainerOptions →
// makeEnvironmentVariables: a Secret or ConfigMap the environment names
// must exist — CreateContainerConfigError). Each failure records a Warning
// Failed "Error: ..." event, leaves the container waiting with that
// reason, and fails the sync; the pod worker syncs the pod again
// podWorkerResync later (podWorkers.completeWork), when every check runs
// again, so a pod starts once the image was preloaded or the object
// created. These waiting reasons are the ones kubectl get shows in STATUS
// (Init:CreateContainerConfigError for an init container).
const (
	ReasonErrImageNeverPull          = "ErrImageNeverPull"
	ReasonInvalidImageName           = "InvalidImageName"
	ReasonCreateContainerConfigError = "CreateContainerConfigError"
)

// Patterns of distribution/reference (regexp.go), the grammar
// ParseNormalizedNamed checks a reference against.
var (
	refPathComponent = `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
	refDomainComp    = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	refDomain        = `(?:` + refDomainComp + `(?:\.` + refDomainComp + `)*|\[(?:[a-fA-F0-9:]+)\])(?::[0-9]+)?`
	refName          = `(?:` + refDomain + `/)?` + refPathComponent + `(?:/` + refPathComponent + `)*`
	refTag           = `[\w][\w.-]{0,127}`
	refDigest        = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
	referenceRegexp  = regexp.MustCompile(`^(` + refName + `)(?::(` + refTag + `))?(?:@(` + refDigest + `))?$`)
	nameRegexp       = regexp.MustCompile(`^(?:(` + refDomain + `)/)?(` + refPathComponent + `(?:/` + refPathComponent + `)*)$`)
	identifierRegexp = regexp.MustCompile(`^[a-f0-9]{64}$`)
	// digestLengths are the hex lengths of the digest algorithms the
	// kubelet links (go-digest: sha256, and sha384/sha512 through its
	// crypto/sha512 import in pkg/util/parsers).
	digestLengths = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
)

// parseImageReference returns the error distribution/reference's
// ParseNormalizedNamed gives for image, or nil when it parses: a 64-hex
// identifier, an upper-case repository ("invalid reference format:
// repository name (library/NGINX) must be lowercase"), anything off the
// grammar ("invalid reference format"), a repository path over 255
// characters, or a digest go-digest rejects.
func parseImageReference(image string) error {
	if identifierRegexp.MatchString(image) {
		return fmt.Errorf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", image)
	}
	domain, remainder := splitDockerDomain(image)
	remote := remainder
	if i := strings.IndexByte(remainder, ':'); i >= 0 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return fmt.Errorf("invalid reference format: repository name (%s) must be lowercase", remote)
	}
	// reference.Parse
	s := domain + "/" + remainder
	m := referenceRegexp.FindStringSubmatch(s)
	if m == nil {
		if referenceRegexp.MatchString(strings.ToLower(s)) {
			return fmt.Errorf("repository name must be lowercase")
		}
		return fmt.Errorf("invalid reference format")
	}
	path := m[1]
	if nm := nameRegexp.FindStringSubmatch(m[1]); nm != nil {
		path = nm[2]
	}
	if len(path) > 255 {
		return fmt.Errorf("repository name must not be more than 255 characters")
	}
	if d := m[3]; d != "" {
		// digest.Parse
		alg, hex, _ := strings.Cut(d, ":")
		want, ok := digestLengths[alg]
		switch {
		case !ok:
			return fmt.Errorf("unsupported digest algorithm")
		case len(hex) != want:
			return fmt.Errorf("invalid checksum digest length")
		case strings.ToLower(hex) != hex:
			return fmt.Errorf("invalid checksum digest format")
		}
	}
	return nil
}

// splitDockerDomain mirrors distribution/reference's splitDockerDomain:
// a first component with a dot or colon, localhost, or upper case is a
// registry; otherwise the reference is on docker.io, under library/ when
// it has a single component.
func splitDockerDomain(name string) (domain, remainder string) {
	first, rest, ok := strings.Cut(name, "/")
	switch {
	case !ok:
		return "docker.io", "library/" + name
	case first == "localhost":
		domain, remainder = first, rest
	case first == "index.docker.io":
		domain, remainder = "docker.io", rest
	case strings.ContainsAny(first, ".:"), strings.ToLower(first) != first:
		domain, remainder = first, rest
	default:
		domain, remainder = "docker.io", name
	}
	if domain == "docker.io" && !strings.Contains(remainder, "/") {
		remainder = "library/" + remainder
	}
	return domain, remainder
}

// invalidImageMessage is the message EnsureImageExists gives an image
// reference that does not parse (applyDefaultImageTag, whose error is
// parsers.ParseImageName's), or "" when it parses:
// `Failed to apply default image tag "NGINX:Latest": couldn't parse image
// name "NGINX:Latest": invalid reference format: repository name
// (library/NGINX) must be lowercase`.
func invalidImageMessage(image string) string {
	err := parseImageReference(image)
	if err == nil {
		return ""
	}
	return fmt.Sprintf("Failed to apply default image tag %q: couldn't parse image name %q: %v", image, image, err)
}

// containerEnvFrom returns the envFrom list of container i of pod p
// (init: of spec.initContainers), kept as written in the pod's unmodeled
// fields.
func containerEnvFrom(p *api.Pod, init bool, i int) []any {
	base := "spec.containers"
	if init {
		base = "spec.initContainers"
	}
	l, _ := p.Extra[fmt.Sprintf("%s[%d]", base, i)]["envFrom"].([]any)
	return l
}

// envConfigError mirrors the errors of Kubelet.makeEnvironmentVariables
// for container c (index i, an init container when init) of pod p: envFrom
// first, then env in order, the first error wins. A configMapRef or
// secretRef (envFrom), or a configMapKeyRef or secretKeyRef (env), naming
// an object that does not exist gives the object's NotFound error
// (`secret "x" not found`, `configmap "x" not found`, as the kubelet's
// secret and configMap managers return it); a key the object lacks gives
// `couldn't find key k in Secret default/x` (ConfigMap: only data counts,
// not binaryData). optional: true skips the reference instead. "" means
// the environment can be built.
func (k *Kubelets) envConfigError(p *api.Pod, c *api.Container, init bool, i int) string {
	optional := func(m map[string]any) bool { b, _ := m["optional"].(bool); return b }
	for _, e := range containerEnvFrom(p, init, i) {
		ef, _ := e.(map[string]any)
		if ref, ok := ef["configMapRef"].(map[string]any); ok {
			name, _ := ref["name"].(string)
			if k.c.ConfigMap(p.Namespace, name) == nil && !optional(ref) {
				return fmt.Sprintf("configmap %q not found", name)
			}
		}
		if ref, ok := ef["secretRef"].(map[string]any); ok {
			name, _ := ref["name"].(string)
			if k.c.Secret(p.Namespace, name) == nil && !optional(ref) {
				return fmt.Sprintf("secret %q not found", name)
			}
		}
	}
	for _, env := range c.Env {
		if env.Value != "" || env.ValueFrom == nil {
			continue
		}
		if ref, ok := env.ValueFrom["configMapKeyRef"].(map[string]any); ok {
			if msg := k.keyRefError(p.Namespace, "ConfigMap", ref, optional(ref)); msg != "" {
				return msg
			}
		}
		if ref, ok := env.ValueFrom["secretKeyRef"].(map[string]any); ok {
			if msg := k.keyRefError(p.Namespace, "Secret", ref, optional(ref)); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// keyRefError is makeEnvironmentVariables' error for a configMapKeyRef or
// secretKeyRef (kind "ConfigMap" or "Secret") in namespace ns: the
// object's NotFound (`configmap "x" not found`) or the missing key
// (`couldn't find key k in ConfigMap ns/x`; a ConfigMap's binaryData does
// not count), "" when it resolves or is optional.
func (k *Kubelets) keyRefError(ns, kind string, ref map[string]any, optional bool) string {
	name, _ := ref["name"].(string)
	key, _ := ref["key"].(string)
	if optional {
		return ""
	}
	found, hasKey := false, false
	switch kind {
	case "ConfigMap":
		if cm := k.c.ConfigMap(ns, name); cm != nil {
			_, hasKey = cm.Data[key]
			found = true
		}
	default:
		if s := k.c.Secret(ns, name); s != nil {
			_, hasKey = s.Data[key]
			found = true
		}
	}
	switch {
	case !found:
		return fmt.Sprintf("%s %q not found", strings.ToLower(kind), name)
	case !hasKey:
		return fmt.Sprintf("couldn't find key %s in %s %s/%s", key, kind, ns, name)
	}
	return ""
}

// configErrors checks, as startContainer's generateContainerConfig does
// for each app container it starts, the environment of every app
// container of p, and for each that cannot be configured records Warning
// Failed "Error: <message>" and leaves it waiting with reason
// CreateContainerConfigError. It returns the failing containers' names
// (sorted) and the first message, or nil when every container can start.
func (k *Kubelets) configErrors(n *api.Node, p *api.Pod) (names []string, first string) {
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		msg := k.envConfigError(p, c, false, i)
		if msg == "" {
			continue
		}
		k.event(p, n, containerFieldPath(c.Name), api.EventTypeWarning, "Failed", "Error: "+msg)
		if cs := containerStatus(p, c.Name); cs != nil {
			cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: ReasonCreateContainerConfigError, Message: msg}}
		}
		if first == "" {
			first = msg
		}
		names = append(names, c.Name)
	}
	sort.Strings(names)
	return names, first
}

// blockReason reports whether a waiting reason is one of a failed
// startContainer the pod worker retries at its next sync.
func blockReason(r string) bool {
	return r == ReasonErrImageNeverPull || r == ReasonInvalidImageName || r == ReasonCreateContainerConfigError
}

// blockedWords says in the decision log why the image checks failed.
func blockedWords(reasons []string, node string) string {
	var parts []string
	seen := map[string]bool{}
	for _, r := range reasons {
		if seen[r] {
			continue
		}
		seen[r] = true
		switch r {
		case ReasonErrImageNeverPull:
			parts = append(parts, "an image is not on "+node+" and its imagePullPolicy is Never (ErrImageNeverPull)")
		case ReasonInvalidImageName:
			parts = append(parts, "an image reference does not parse (InvalidImageName)")
		}
	}
	return strings.Join(parts, "; ")
}

// retryBlocked is the pod worker's next sync of a pod whose app
// containers' image checks failed (podWorkers.completeWork requeues it
// podWorkerResync after the failure): SyncPod runs EnsureImageExists for
// each container again (planMainPulls, which records the events again),
// so a pod whose image was preloaded meanwhile starts. A pull still
// under way finishes first. It reports whether the pod status may have
// changed.
func (k *Kubelets) retryBlocked(n *api.Node, p *api.Pod, t *timeline, now time.Time) bool {
	if now.Before(t.nextSync) {
		k.c.WakeAt(t.nextSync)
		return false
	}
	for _, pl := range t.pulls {
		if pl.container != "" {
			return false // stepPull wakes the kubelet when it ends
		}
	}
	how := k.planMainPulls(n, p, t, now)
	if !t.blocked {
		k.decide(p, "SyncPod", "retry", "the image checks pass now: "+how)
	}
	return true
}

// configured is startContainer's generateContainerConfig for the app
// containers of p, whose images are there: it reports whether they may
// start now. When an environment cannot be built (configErrors) the
// containers wait with CreateContainerConfigError and the pod worker
// tries again podWorkerResync later, running EnsureImageExists again
// first (Pulled "already present", or a new pull under imagePullPolicy
// Always); once the Secret or ConfigMap is there they start.
func (k *Kubelets) configured(n *api.Node, p *api.Pod, t *timeline, now time.Time) bool {
	if t.configBlocked {
		if now.Before(t.nextSync) {
			k.c.WakeAt(t.nextSync)
			return false
		}
		for i := range p.Spec.Containers {
			c := &p.Spec.Containers[i]
			if cs := containerStatus(p, c.Name); cs == nil || cs.State.Waiting == nil || cs.State.Waiting.Reason != ReasonCreateContainerConfigError {
				continue
			}
			fp := containerFieldPath(c.Name)
			if pullPolicy(c) == "Always" {
				d := pullDelay(hash32(p.UID+"/"+c.Name+"/"+now.String()), true)
				k.event(p, n, fp, api.EventTypeNormal, "Pulling", fmt.Sprintf("Pulling image %q", c.Image))
				k.event(p, n, fp, api.EventTypeNormal, "Pulled", fmt.Sprintf("Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.", c.Image, d, d, imageSize(c.Image)))
			} else {
				k.event(p, n, fp, api.EventTypeNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", c.Image))
			}
		}
	}
	before := waitingKey(p)
	names, msg := k.configErrors(n, p)
	if names == nil {
		if t.configBlocked {
			t.configBlocked = false
			t.started = now
			t.ready = now.Add(readinessDelay(&p.Spec))
			k.c.WakeAt(t.ready)
			k.decide(p, "SyncPod", "retry", "the containers' environment can be built now: they start")
		}
		return true
	}
	first := !t.configBlocked
	t.configBlocked = true
	t.nextSync = now.Add(podWorkerResync(p, names[0]))
	k.c.WakeAt(t.nextSync)
	if waitingKey(p) != before {
		_ = k.writeStatus(p)
	}
	if first {
		k.decide(p, "SyncPod", "wait", fmt.Sprintf("container(s) %s cannot be configured (CreateContainerConfigError: %s): they wait, and the pod worker tries again in %s",
			strings.Join(names, ", "), msg, t.nextSync.Sub(now)))
	}
	return false
}

// waitingKey sums up the waiting states of p's app containers.
func waitingKey(p *api.Pod) string {
	var b strings.Builder
	for _, cs := range p.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil {
			b.WriteString(cs.Name + "\x00" + w.Reason + "\x00" + w.Message + "\x00")
		}
	}
	return b.String()
}

// ValidImageReference returns the error the kubelet would give image as a
// container's image (parsers.ParseImageName: `couldn't parse image name
// "X": invalid reference format`), nil when it parses.
func ValidImageReference(image string) error {
	if err := parseImageReference(image); err != nil {
		return fmt.Errorf("couldn't parse image name %q: %v", image, err)
	}
	return nil
}
