package manifest

import (
	"encoding/json"
	"fmt"
	apischema "github.com/dsplayground/dsplay/engine/schema"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/dsplayground/dsplay/engine/api"
)

// fieldErr mirrors apimachinery's field.Error: a path and the body printed
// after it (`Invalid value: "x": detail`, `Required value`, ...). pos, when
// set, is a finer path used only to find the YAML node.
type fieldErr struct {
	path, body, pos string
	// hint, when set, replaces validationHint's for this error.
	hint string
}

type errList []fieldErr

// renderValue mirrors field.Error.ErrorBody's rendering of a bad value
// (apimachinery pkg/util/validation/field/errors.go, v1.34+): int32, int64,
// float and bool values with %v, strings quoted (%q), anything else as
// JSON (maps and structs; a nil map is null). Internal API types have no
// JSON tags, so a struct the API server renders from its internal type is
// passed here as a struct with Go field names.
func renderValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case nil:
		return "null"
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case *api.IntOrString:
		// intstr.IntOrString.MarshalJSON
		if x == nil {
			return "null"
		}
		if x.IsString {
			return strconv.Quote(x.StrVal)
		}
		return strconv.Itoa(int(x.IntVal))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func (l *errList) invalid(path string, v any, detail string) {
	*l = append(*l, fieldErr{path: path, body: "Invalid value: " + renderValue(v) + ": " + detail})
}

func (l *errList) required(path, detail string) {
	b := "Required value"
	if detail != "" {
		b += ": " + detail
	}
	*l = append(*l, fieldErr{path: path, body: b})
}

func (l *errList) notSupported(path string, v any, valid ...string) {
	q := make([]string, len(valid))
	for i, s := range valid {
		q[i] = strconv.Quote(s)
	}
	*l = append(*l, fieldErr{path: path, body: "Unsupported value: " + renderValue(v) + ": supported values: " + strings.Join(q, ", ")})
}

func (l *errList) forbidden(path, detail string) {
	*l = append(*l, fieldErr{path: path, body: "Forbidden: " + detail})
}

func (l *errList) duplicate(path string, v any, detail string) {
	b := "Duplicate value: " + renderValue(v)
	if detail != "" {
		b += ": " + detail
	}
	*l = append(*l, fieldErr{path: path, body: b})
}

func (l *errList) notFound(path string, v any) {
	*l = append(*l, fieldErr{path: path, body: "Not found: " + renderValue(v)})
}

// withHint sets the learner's hint of the last error.
func (l *errList) withHint(h string) {
	if len(*l) > 0 {
		(*l)[len(*l)-1].hint = h
	}
}

// at sets the position path of the last error.
func (l *errList) at(pos string) {
	if len(*l) > 0 {
		(*l)[len(*l)-1].pos = pos
	}
}

// atFrom sets the position path of the errors added since the list had n
// entries (a map key's errors are reported at the map, found at the key).
func (l *errList) atFrom(n int, pos string) {
	for i := n; i < len(*l); i++ {
		if (*l)[i].pos == "" {
			(*l)[i].pos = pos
		}
	}
}

// key mirrors field.Path.Key: a map key in square brackets
// (resources.limits[cpu]).
func key(path, k string) string { return path + "[" + k + "]" }

var percentRE = regexp.MustCompile(`^[0-9]+%$`)

// nonNegative mirrors ValidateNonnegativeField.
func (l *errList) nonNegative(v int64, path string) {
	if v < 0 {
		l.invalid(path, v, "must be greater than or equal to 0")
	}
}

// validateLabels mirrors unversioned ValidateLabels.
func (l *errList) validateLabels(m map[string]string, path string) {
	l.validateLabelsAt(m, path, path)
}

// validateLabelsAt is validateLabels for a map written at posPath in the
// manifest while the API server names it path: a pod template's labels are
// reported as spec.template.labels (ValidatePodTemplateSpec uses
// fldPath.Child("labels")) but are written under spec.template.metadata.labels.
func (l *errList) validateLabelsAt(m map[string]string, path, posPath string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		for _, msg := range api.IsQualifiedName(k) {
			l.invalid(path, k, msg)
			l.at(join(posPath, k) + "#key")
		}
		for _, msg := range api.IsValidLabelValue(m[k]) {
			l.invalid(path, m[k], msg)
			l.at(join(posPath, k))
		}
	}
}

// TotalAnnotationSizeLimitB is the most bytes an object's annotations may
// hold, keys and values summed (apimachinery api/validation
// TotalAnnotationSizeLimitB, 256 KiB).
const TotalAnnotationSizeLimitB = 256 * (1 << 10)

// AnnotationsTooLong mirrors ValidateAnnotationsSize: whether the keys and
// values of m sum to more than TotalAnnotationSizeLimitB bytes.
func AnnotationsTooLong(m map[string]string) bool {
	total := 0
	for k, v := range m {
		total += len(k) + len(v)
	}
	return total > TotalAnnotationSizeLimitB
}

// AnnotationsTooLongCause is the field error of AnnotationsTooLong as
// kubectl prints the Invalid cause (field.TooLong).
var AnnotationsTooLongCause = fmt.Sprintf("metadata.annotations: Too long: may not be more than %d bytes", TotalAnnotationSizeLimitB)

// validateAnnotations mirrors ValidateAnnotations: every key a qualified
// name (case-insensitive), then the total size (ValidateAnnotationsSize).
func (l *errList) validateAnnotations(m map[string]string, path string) {
	l.validateAnnotationsAt(m, path, path)
}

// validateAnnotationsAt is validateAnnotations with the manifest position
// taken under posPath (see validateLabelsAt).
func (l *errList) validateAnnotationsAt(m map[string]string, path, posPath string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		for _, msg := range api.IsQualifiedName(strings.ToLower(k)) {
			l.invalid(path, k, msg)
			l.at(join(posPath, k) + "#key")
		}
	}
	if AnnotationsTooLong(m) {
		*l = append(*l, fieldErr{path: path, body: fmt.Sprintf("Too long: may not be more than %d bytes", TotalAnnotationSizeLimitB)})
		l.at(posPath)
	}
}

// maskTrailingDash mirrors apimachinery's maskTrailingDash (api/validation
// generic.go): a generateName ending in '-' is checked as if a generated
// suffix followed it. Upstream drops the two last characters and appends
// "a"; that quirk is kept so the same prefixes pass.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// validateObjectMeta mirrors apimachinery ValidateObjectMetaAccessor with a
// DNS-1123 subdomain name (NameIsDNSSubdomain): generateName (checked as a
// prefix), name (`name or generateName is required` when both are empty;
// a name the server generates from generateName is not checked, as it is
// valid when the prefix is), namespace (a DNS-1123 label, or Forbidden on
// cluster-scoped kinds), labels, annotations.
func (l *errList) validateObjectMeta(m *api.ObjectMeta, namespaced bool, path string) {
	if m.GenerateName != "" {
		for _, msg := range api.IsDNS1123Subdomain(maskTrailingDash(m.GenerateName)) {
			l.invalid(join(path, "generateName"), m.GenerateName, msg)
		}
	}
	switch {
	case m.Name == "" && m.GenerateName == "":
		l.required(join(path, "name"), "name or generateName is required")
	case m.Name != "":
		for _, msg := range api.IsDNS1123Subdomain(m.Name) {
			l.invalid(join(path, "name"), m.Name, msg)
		}
	}
	if namespaced {
		if m.Namespace == "" {
			l.required(join(path, "namespace"), "")
		} else {
			for _, msg := range api.IsDNS1123Label(m.Namespace) {
				l.invalid(join(path, "namespace"), m.Namespace, msg)
			}
		}
	} else if m.Namespace != "" {
		l.forbidden(join(path, "namespace"), "not allowed on this type")
	}
	l.validateLabels(m.Labels, join(path, "labels"))
	l.validateAnnotations(m.Annotations, join(path, "annotations"))
	l.validateOwnerReferences(m.OwnerReferences, join(path, "ownerReferences"))
}

// validateOwnerReferences mirrors apimachinery ValidateOwnerReferences and
// validateOwnerReference: apiVersion must carry a version, kind, name and
// uid must not be empty, an Event cannot own anything, and only one
// reference may have controller: true. Errors name the list's path, as
// upstream's fldPath has no index.
func (l *errList) validateOwnerReferences(refs []api.OwnerReference, path string) {
	firstController := ""
	for _, r := range refs {
		group, version := "", r.APIVersion
		if i := strings.LastIndex(r.APIVersion, "/"); i >= 0 {
			group, version = r.APIVersion[:i], r.APIVersion[i+1:]
		}
		if version == "" {
			l.invalid(join(path, "apiVersion"), r.APIVersion, "version must not be empty")
		}
		if r.Kind == "" {
			l.invalid(join(path, "kind"), r.Kind, "must not be empty")
		}
		if r.Name == "" {
			l.invalid(join(path, "name"), r.Name, "must not be empty")
		}
		if r.UID == "" {
			l.invalid(join(path, "uid"), r.UID, "must not be empty")
		}
		if group == "" && version == "v1" && r.Kind == "Event" {
			l.invalid(path, r, "/v1, Kind=Event is disallowed from being an owner")
		}
		if r.Controller != nil && *r.Controller {
			name := r.Kind + "/" + r.Name
			if firstController != "" {
				l.invalid(path, refs, fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %s and %s", firstController, name))
			} else {
				firstController = name
			}
		}
	}
}

// ---- label selectors (metav1 validation ValidateLabelSelector) ----

// validateLabelSelector mirrors unversioned ValidateLabelSelector:
// matchLabels, then each expression (ValidateLabelSelectorRequirement:
// operator, key, values).
func (l *errList) validateLabelSelector(s *api.LabelSelector, path string) {
	if s == nil {
		return
	}
	l.validateLabels(s.MatchLabels, join(path, "matchLabels"))
	for i, r := range s.MatchExpressions {
		ip := index(join(path, "matchExpressions"), i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				l.required(join(ip, "values"), "must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				l.forbidden(join(ip, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		default:
			l.invalid(join(ip, "operator"), r.Operator, "not a valid selector operator")
		}
		for _, msg := range api.IsQualifiedName(r.Key) {
			l.invalid(join(ip, "key"), r.Key, msg)
		}
		for j, v := range r.Values {
			for _, msg := range api.IsValidLabelValue(v) {
				l.invalid(index(join(ip, "values"), j), v, msg)
			}
		}
	}
}

// ---- pod spec (core validation ValidatePodSpec, the simulated subset) ----

// podOpts are the PodValidationOptions that change what ValidatePodSpec
// checks (isPod is ResourceIsPod: a Pod, not a pod template), and the
// object's fields kept as written (dnsConfig, lifecycle, startupProbe ...),
// which some rules read.
type podOpts struct {
	isPod bool
	extra api.Unmodeled
}

// kept returns the field key written in the map at path and kept as written.
func (o podOpts) kept(path, key string) any { return o.extra[path][key] }

// volumeTypes are the VolumeSource members in the order validateVolumeSource
// checks them; the first one set counts, each further one is "may not
// specify more than 1 volume type" at its own field (two of which upstream
// names oddly: cephFS and downwarAPI).
var volumeTypes = []struct{ json, field string }{
	{"emptyDir", "emptyDir"}, {"hostPath", "hostPath"}, {"gitRepo", "gitRepo"},
	{"gcePersistentDisk", "gcePersistentDisk"}, {"awsElasticBlockStore", "awsElasticBlockStore"},
	{"secret", "secret"}, {"nfs", "nfs"}, {"iscsi", "iscsi"}, {"glusterfs", "glusterfs"},
	{"flocker", "flocker"}, {"persistentVolumeClaim", "persistentVolumeClaim"}, {"rbd", "rbd"},
	{"cinder", "cinder"}, {"cephfs", "cephFS"}, {"quobyte", "quobyte"}, {"downwardAPI", "downwarAPI"},
	{"fc", "fc"}, {"flexVolume", "flexVolume"}, {"configMap", "configMap"}, {"azureFile", "azureFile"},
	{"vsphereVolume", "vsphereVolume"}, {"photonPersistentDisk", "photonPersistentDisk"},
	{"portworxVolume", "portworxVolume"}, {"azureDisk", "azureDisk"}, {"storageos", "storageos"},
	{"projected", "projected"}, {"scaleIO", "scaleIO"}, {"csi", "csi"}, {"ephemeral", "ephemeral"},
	{"image", "image"},
}

// hostPathTypes are the supported HostPathType values, sorted as
// sets.List sorts them for the NotSupported message.
var hostPathTypes = []string{"", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"}

// validatePathNoBacksteps mirrors validatePathNoBacksteps.
func (l *errList) validatePathNoBacksteps(p, fld string) {
	if slices.Contains(strings.Split(p, "/"), "..") {
		l.invalid(fld, p, "must not contain '..'")
	}
}

// validateLocalDescendingPath mirrors validateLocalDescendingPath.
func (l *errList) validateLocalDescendingPath(p, fld string) {
	if path.IsAbs(p) {
		l.invalid(fld, p, "must be a relative path")
	}
	l.validatePathNoBacksteps(p, fld)
}

// str returns m[k] as a string ("" when absent or not a string).
func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// validateVolumeSource mirrors validateVolumeSource for the simulated
// sources: the number of types, then hostPath (path, backsteps, type),
// configMap (name), secret (secretName) and persistentVolumeClaim
// (claimName). A member written as null is not set, as in JSON.
func (l *errList) validateVolumeSource(src map[string]any, path string) {
	n := 0
	for _, t := range volumeTypes {
		v, ok := src[t.json]
		if !ok || v == nil {
			continue
		}
		if n > 0 {
			l.forbidden(join(path, t.field), "may not specify more than 1 volume type")
			continue
		}
		n++
		m, _ := v.(map[string]any)
		tp := join(path, t.json)
		switch t.json {
		case "hostPath":
			p := str(m, "path")
			if p == "" {
				l.required(join(tp, "path"), "")
				break
			}
			l.validatePathNoBacksteps(p, join(tp, "path"))
			if typ, set := m["type"].(string); set && !slices.Contains(hostPathTypes, typ) {
				l.notSupported(join(tp, "type"), typ, hostPathTypes...)
			}
		case "configMap":
			if str(m, "name") == "" {
				l.required(join(tp, "name"), "")
			}
			l.validateFileMode(m, join(tp, "defaultMode"))
		case "secret":
			if str(m, "secretName") == "" {
				l.required(join(tp, "secretName"), "")
			}
			l.validateFileMode(m, join(tp, "defaultMode"))
		case "persistentVolumeClaim":
			if str(m, "claimName") == "" {
				l.required(join(tp, "claimName"), "")
			}
		}
	}
	if n == 0 {
		l.required(path, "must specify a volume type")
	}
}

// validateFileMode mirrors the defaultMode check of
// validateConfigMapVolumeSource and validateSecretVolumeSource: 0 to 0777
// (YAML 0644 is octal; JSON has only the decimal 420).
func (l *errList) validateFileMode(m map[string]any, path string) {
	if mode, ok := asInt(m["defaultMode"]); ok && (mode < 0 || mode > 0o777) {
		l.invalid(path, int32(mode), "must be a number between 0 and 0777 (octal), both inclusive")
	}
}

// validateVolumes mirrors ValidateVolumes: each volume's source, then its
// name (a DNS-1123 label, unique). Only valid volumes can be mounted.
func (l *errList) validateVolumes(vs []api.Volume, path string) map[string]bool {
	vols := map[string]bool{}
	seen := map[string]bool{}
	for i, v := range vs {
		ip := index(path, i)
		var el errList
		el.validateVolumeSource(v.Source, ip)
		if v.Name == "" {
			el.required(join(ip, "name"), "")
		} else {
			for _, msg := range api.IsDNS1123Label(v.Name) {
				el.invalid(join(ip, "name"), v.Name, msg)
			}
		}
		if seen[v.Name] {
			el.duplicate(join(ip, "name"), v.Name, "")
		}
		if len(el) == 0 {
			seen[v.Name] = true
			vols[v.Name] = true
		} else {
			*l = append(*l, el...)
		}
	}
	return vols
}

// validatePodSpec mirrors ValidatePodSpec in its order: volumes,
// containers, init containers, hostNetwork ports, restartPolicy,
// dnsPolicy, nodeSelector, affinity, dnsConfig, serviceAccountName,
// nodeName, activeDeadlineSeconds, tolerations, priorityClassName (then,
// for a Pod, validateContainersOnlyForPod). Of the fields the engine keeps
// as written, dnsConfig, lifecycle hooks and startupProbe are checked;
// securityContext, hostname ... are not; pod (anti-)affinity and
// topologySpreadConstraints are (validate_affinity.go).
func (l *errList) validatePodSpec(s *api.PodSpec, path string, opts podOpts) {
	vols := l.validateVolumes(s.Volumes, join(path, "volumes"))
	l.validateContainers(s.Containers, vols, join(path, "containers"), opts)
	l.validateInitContainers(s.InitContainers, s.Containers, vols, join(path, "initContainers"), opts)
	// validatePodHostNetworkDeps: with hostNetwork a hostPort must equal
	// its containerPort (0 is allowed in templates: the pod gets it).
	if s.HostNetwork {
		for i, c := range s.Containers {
			for j, p := range c.Ports {
				if (opts.isPod || p.HostPort != 0) && p.HostPort != p.ContainerPort {
					l.invalid(join(index(join(index(join(path, "containers"), i), "ports"), j), "hostPort"), p.HostPort, "must match `containerPort` when `hostNetwork` is true")
				}
			}
		}
	}
	switch s.RestartPolicy {
	case "Always", "OnFailure", "Never":
	case "":
		l.required(join(path, "restartPolicy"), "")
	default:
		l.notSupported(join(path, "restartPolicy"), s.RestartPolicy, "Always", "OnFailure", "Never")
	}
	switch s.DNSPolicy {
	case "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None":
	case "":
		l.required(join(path, "dnsPolicy"), "")
	default:
		l.notSupported(join(path, "dnsPolicy"), s.DNSPolicy, "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
	}
	l.validateLabels(s.NodeSelector, join(path, "nodeSelector"))
	if s.Affinity != nil && s.Affinity.NodeAffinity != nil {
		l.validateNodeAffinity(s.Affinity.NodeAffinity, join(join(path, "affinity"), "nodeAffinity"))
	}
	l.validatePodAffinities(s.Affinity, join(path, "affinity")) // validate_affinity.go
	// validatePodDNSConfig: dnsPolicy None takes its servers from dnsConfig
	if s.DNSPolicy == "None" {
		dc, _ := opts.kept(path, "dnsConfig").(map[string]any)
		if servers, _ := dc["nameservers"].([]any); dc == nil {
			l.required(join(path, "dnsConfig"), "must provide `dnsConfig` when `dnsPolicy` is None")
			l.at(join(path, "dnsPolicy"))
		} else if len(servers) == 0 {
			l.required(join(join(path, "dnsConfig"), "nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")
		}
	}
	l.validateTopologySpreadConstraints(s.TopologySpreadConstraints, join(path, "topologySpreadConstraints")) // validate_affinity.go
	if s.ServiceAccountName != "" {
		for _, msg := range api.IsDNS1123Subdomain(s.ServiceAccountName) {
			l.invalid(join(path, "serviceAccountName"), s.ServiceAccountName, msg)
		}
	}
	if s.NodeName != "" {
		for _, msg := range api.IsDNS1123Subdomain(s.NodeName) {
			l.invalid(join(path, "nodeName"), s.NodeName, msg)
		}
	}
	if s.ActiveDeadlineSeconds != nil {
		if v := *s.ActiveDeadlineSeconds; v < 1 || v > 2147483647 {
			l.invalid(join(path, "activeDeadlineSeconds"), v, "must be between 1 and 2147483647, inclusive")
		}
	}
	l.validateTolerations(s.Tolerations, join(path, "tolerations"))
	if s.PriorityClassName != "" {
		for _, msg := range api.IsDNS1123Subdomain(s.PriorityClassName) {
			l.invalid(join(path, "priorityClassName"), s.PriorityClassName, msg)
		}
	}
	if opts.isPod {
		// validateContainersOnlyForPod
		for _, group := range []struct {
			name string
			cs   []api.Container
		}{{"containers", s.Containers}, {"initContainers", s.InitContainers}} {
			for i, c := range group.cs {
				if len(c.Image) != len(strings.TrimSpace(c.Image)) {
					l.invalid(join(index(join(path, group.name), i), "image"), c.Image, "must not have leading or trailing whitespace")
				}
			}
		}
	}
}

// validateContainers mirrors validateContainers: at least one container;
// each one's common checks, a unique name, its probes, no restartPolicy;
// then host ports unique across the containers.
func (l *errList) validateContainers(cs []api.Container, vols map[string]bool, path string, opts podOpts) {
	if len(cs) == 0 {
		l.required(path, "")
		return
	}
	names := map[string]bool{}
	for i := range cs {
		c := &cs[i]
		ip := index(path, i)
		l.validateContainerCommon(c, vols, ip)
		if names[c.Name] {
			l.duplicate(join(ip, "name"), c.Name, "")
		} else {
			names[c.Name] = true
		}
		l.validateLifecycle(opts.kept(ip, "lifecycle"), join(ip, "lifecycle"))
		l.validateProbe(c.LivenessProbe, join(ip, "livenessProbe"), true)
		l.validateProbe(c.ReadinessProbe, join(ip, "readinessProbe"), false)
		l.validateProbe(keptProbe(opts.kept(ip, "startupProbe")), join(ip, "startupProbe"), true)
		if c.RestartPolicy != "" {
			l.forbidden(join(ip, "restartPolicy"), "may not be set for non-init containers")
		}
	}
	l.checkHostPortConflicts(cs, path)
}

// keptProbe reads a probe kept as written (startupProbe) with
// SetDefaults_Probe's defaults; nil when absent.
func keptProbe(v any) *api.Probe {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	p := &api.Probe{Handler: map[string]any{}, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	for k, v := range m {
		if probeHandlers[k] {
			p.Handler[k] = v
		}
	}
	for k, f := range map[string]*int32{"initialDelaySeconds": &p.InitialDelaySeconds, "timeoutSeconds": &p.TimeoutSeconds,
		"periodSeconds": &p.PeriodSeconds, "successThreshold": &p.SuccessThreshold, "failureThreshold": &p.FailureThreshold} {
		if n, ok := asInt(m[k]); ok && n != 0 {
			*f = int32(n)
		}
	}
	return p
}

// validateLifecycle mirrors validateLifecycle: each of postStart and
// preStop needs exactly one handler (exec with a command, httpGet or
// tcpSocket with a valid port, or sleep).
func (l *errList) validateLifecycle(v any, path string) {
	m, _ := v.(map[string]any)
	for _, hook := range []string{"postStart", "preStop"} {
		h, ok := m[hook].(map[string]any)
		if !ok {
			continue
		}
		l.validateHandler(h, join(path, hook), []string{"exec", "httpGet", "tcpSocket", "sleep"})
	}
}

// validateInitContainers mirrors validateInitContainers: common checks,
// restartPolicy only Always (a sidecar), names unique across regular and
// init containers, host ports unique within the container (upstream names
// it index 0 whatever the init container's index), and probes only for
// sidecars.
func (l *errList) validateInitContainers(cs, regular []api.Container, vols map[string]bool, path string, opts podOpts) {
	names := map[string]bool{}
	for _, c := range regular {
		names[c.Name] = true
	}
	for i := range cs {
		c := &cs[i]
		ip := index(path, i)
		l.validateContainerCommon(c, vols, ip)
		sidecar := false
		if c.RestartPolicy != "" {
			if c.RestartPolicy != "Always" {
				l.notSupported(join(ip, "restartPolicy"), c.RestartPolicy, "Always")
			}
			sidecar = c.RestartPolicy == "Always"
		}
		if names[c.Name] {
			l.duplicate(join(ip, "name"), c.Name, "")
		} else if c.Name != "" {
			names[c.Name] = true
		}
		l.checkHostPortConflicts([]api.Container{*c}, path)
		startup := keptProbe(opts.kept(ip, "startupProbe"))
		if sidecar {
			l.validateLifecycle(opts.kept(ip, "lifecycle"), join(ip, "lifecycle"))
			l.validateProbe(c.LivenessProbe, join(ip, "livenessProbe"), true)
			l.validateProbe(c.ReadinessProbe, join(ip, "readinessProbe"), false)
			l.validateProbe(startup, join(ip, "startupProbe"), true)
			continue
		}
		if opts.kept(ip, "lifecycle") != nil {
			l.forbidden(join(ip, "lifecycle"), "may not be set for init containers without restartPolicy=Always")
		}
		if c.LivenessProbe != nil {
			l.forbidden(join(ip, "livenessProbe"), "may not be set for init containers without restartPolicy=Always")
		}
		if c.ReadinessProbe != nil {
			l.forbidden(join(ip, "readinessProbe"), "may not be set for init containers without restartPolicy=Always")
		}
		if startup != nil {
			l.forbidden(join(ip, "startupProbe"), "may not be set for init containers without restartPolicy=Always")
		}
	}
}

// checkHostPortConflicts mirrors AccumulateUniqueHostPorts: a second
// container port with the same protocol, hostIP and hostPort is a
// Duplicate of "TCP//9100".
func (l *errList) checkHostPortConflicts(cs []api.Container, path string) {
	seen := map[string]bool{}
	for i, c := range cs {
		for j, p := range c.Ports {
			if p.HostPort == 0 {
				continue
			}
			s := fmt.Sprintf("%s/%s/%d", p.Protocol, p.HostIP, p.HostPort)
			if seen[s] {
				l.duplicate(join(index(join(index(path, i), "ports"), j), "hostPort"), s, "")
				continue
			}
			seen[s] = true
		}
	}
}

// validateContainerCommon mirrors validateContainerCommon: name (a
// DNS-1123 label), image (required; spaces are allowed in templates),
// ports, env, volumeMounts, imagePullPolicy, resources.
func (l *errList) validateContainerCommon(c *api.Container, vols map[string]bool, path string) {
	if c.Name == "" {
		l.required(join(path, "name"), "")
	} else {
		for _, msg := range api.IsDNS1123Label(c.Name) {
			l.invalid(join(path, "name"), c.Name, msg)
		}
	}
	if c.Image == "" {
		l.required(join(path, "image"), "")
	}
	l.validateContainerPorts(c.Ports, join(path, "ports"))
	l.validateEnv(c.Env, join(path, "env"))
	l.validateVolumeMounts(c.VolumeMounts, vols, join(path, "volumeMounts"))
	switch c.ImagePullPolicy {
	case "Always", "IfNotPresent", "Never":
	case "":
		l.required(join(path, "imagePullPolicy"), "")
	default:
		l.notSupported(join(path, "imagePullPolicy"), c.ImagePullPolicy, "Always", "IfNotPresent", "Never")
	}
	l.validateResources(&c.Resources, join(path, "resources"))
}

var (
	portNameCharsetRE = regexp.MustCompile(`^[-a-z0-9]+$`)
	portNameLetterRE  = regexp.MustCompile(`[a-z]`)
)

// isValidPortName mirrors validation.IsValidPortName (an IANA_SVC_NAME).
func isValidPortName(s string) []string {
	var errs []string
	if len(s) > 15 {
		errs = append(errs, "must be no more than 15 characters")
	}
	if !portNameCharsetRE.MatchString(s) {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	} else if !portNameLetterRE.MatchString(s) {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(s, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if len(s) > 0 && (s[0] == '-' || s[len(s)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

const portRangeMsg = "must be between 1 and 65535, inclusive"

// validateContainerPorts mirrors validateContainerPorts: name (an
// IANA_SVC_NAME, unique), containerPort (required, 1-65535), hostPort
// (1-65535 when set), protocol.
func (l *errList) validateContainerPorts(ps []api.ContainerPort, path string) {
	names := map[string]bool{}
	for i, p := range ps {
		ip := index(path, i)
		if p.Name != "" {
			if msgs := isValidPortName(p.Name); len(msgs) > 0 {
				for _, msg := range msgs {
					l.invalid(join(ip, "name"), p.Name, msg)
				}
			} else if names[p.Name] {
				l.duplicate(join(ip, "name"), p.Name, "")
			} else {
				names[p.Name] = true
			}
		}
		if p.ContainerPort == 0 {
			l.required(join(ip, "containerPort"), "")
		} else if p.ContainerPort < 1 || p.ContainerPort > 65535 {
			l.invalid(join(ip, "containerPort"), p.ContainerPort, portRangeMsg)
		}
		if p.HostPort != 0 && (p.HostPort < 1 || p.HostPort > 65535) {
			l.invalid(join(ip, "hostPort"), p.HostPort, portRangeMsg)
		}
		switch p.Protocol {
		case "TCP", "UDP", "SCTP":
		case "":
			l.required(join(ip, "protocol"), "")
		default:
			l.notSupported(join(ip, "protocol"), p.Protocol, "SCTP", "TCP", "UDP")
		}
	}
}

// envFieldPaths are the fieldRef paths an env var may name
// (validEnvDownwardAPIFieldPathExpressions), sorted.
var envFieldPaths = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
	"spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}

// downwardLabels are the field labels ConvertDownwardAPIFieldLabel accepts for v1.
var downwardLabels = []string{"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace",
	"metadata.uid", "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
	"status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}

var subscriptRE = regexp.MustCompile(`^(metadata\.[a-z]+)\['(.*)'\]$`)

// envResourceFields are validContainerResourceFieldPathExpressions, sorted.
var envResourceFields = []string{"limits.cpu", "limits.ephemeral-storage", "limits.memory",
	"requests.cpu", "requests.ephemeral-storage", "requests.memory"}

// validateEnv mirrors ValidateEnv with relaxed names (the
// RelaxedEnvironmentVariableValidation gate, GA) and validateEnvVarValueFrom.
func (l *errList) validateEnv(env []api.EnvVar, path string) {
	for i, e := range env {
		ip := index(path, i)
		if e.Name == "" {
			l.required(join(ip, "name"), "")
		} else {
			for _, r := range e.Name {
				if r > unicode.MaxASCII || !unicode.IsPrint(r) || r == '=' {
					l.invalid(join(ip, "name"), e.Name, "a valid environment variable name must consist only of printable ASCII characters other than '='")
					break
				}
			}
		}
		if e.ValueFrom == nil {
			continue
		}
		vp := join(ip, "valueFrom")
		n := 0
		if fr, ok := e.ValueFrom["fieldRef"].(map[string]any); ok {
			n++
			l.validateObjectFieldSelector(fr, join(vp, "fieldRef"))
		}
		if rr, ok := e.ValueFrom["resourceFieldRef"].(map[string]any); ok {
			n++
			rp := join(vp, "resourceFieldRef")
			res := str(rr, "resource")
			switch {
			case res == "":
				l.required(join(rp, "resource"), "")
			case !slices.Contains(envResourceFields, res) && !strings.HasPrefix(res, "requests.hugepages-") && !strings.HasPrefix(res, "limits.hugepages-"):
				l.notSupported(join(rp, "resource"), res, envResourceFields...)
			}
		}
		for _, k := range []string{"configMapKeyRef", "secretKeyRef"} {
			if kr, ok := e.ValueFrom[k].(map[string]any); ok {
				n++
				kp := join(vp, k)
				for _, msg := range api.IsDNS1123Subdomain(str(kr, "name")) {
					l.invalid(join(kp, "name"), str(kr, "name"), msg)
				}
				if str(kr, "key") == "" {
					l.required(join(kp, "key"), "")
				}
			}
		}
		switch {
		case n == 0:
			l.invalid(vp, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`")
		case e.Value != "":
			l.invalid(vp, "", "may not be specified when `value` is not empty")
		case n > 1:
			l.invalid(vp, "", "may not have more than one field specified at a time")
		}
	}
}

// validateObjectFieldSelector mirrors validateObjectFieldSelector for env
// vars (apiVersion defaults to v1).
func (l *errList) validateObjectFieldSelector(fr map[string]any, path string) {
	version := "v1"
	if v, set := fr["apiVersion"]; set {
		version, _ = v.(string)
	}
	fp := str(fr, "fieldPath")
	switch {
	case version == "":
		l.required(join(path, "apiVersion"), "")
		return
	case fp == "":
		l.required(join(path, "fieldPath"), "")
		return
	}
	// podshelper.ConvertDownwardAPIFieldLabel
	var convErr string
	sub := subscriptRE.FindStringSubmatch(fp)
	switch {
	case version != "v1":
		convErr = "unsupported pod version: " + version
	case sub != nil:
		if sub[1] != "metadata.annotations" && sub[1] != "metadata.labels" {
			convErr = "field label does not support subscript: " + fp
		}
	case fp == "spec.host":
		fp = "spec.nodeName"
	case !slices.Contains(downwardLabels, fp):
		convErr = "field label not supported: " + fp
	}
	if convErr != "" {
		l.invalid(join(path, "fieldPath"), fp, "error converting fieldPath: "+convErr)
		return
	}
	switch {
	case sub != nil && sub[1] == "metadata.annotations":
		for _, msg := range api.IsQualifiedName(strings.ToLower(sub[2])) {
			l.invalid(path, strings.ToLower(sub[2]), msg)
		}
	case sub != nil:
		for _, msg := range api.IsQualifiedName(sub[2]) {
			l.invalid(path, sub[2], msg)
		}
	case !slices.Contains(envFieldPaths, fp):
		l.notSupported(join(path, "fieldPath"), fp, envFieldPaths...)
	}
}

// validateVolumeMounts mirrors ValidateVolumeMounts: name (required, and a
// valid volume of the pod), mountPath (required, unique), subPath (a
// relative path without '..'; upstream names the list, not the item).
func (l *errList) validateVolumeMounts(ms []api.VolumeMount, vols map[string]bool, path string) {
	paths := map[string]bool{}
	for i, m := range ms {
		ip := index(path, i)
		if m.Name == "" {
			l.required(join(ip, "name"), "")
		}
		if !vols[m.Name] {
			l.notFound(join(ip, "name"), m.Name)
		}
		if m.MountPath == "" {
			l.required(join(ip, "mountPath"), "")
		}
		if paths[m.MountPath] {
			l.invalid(join(ip, "mountPath"), m.MountPath, "must be unique")
		}
		paths[m.MountPath] = true
		if m.SubPath != "" {
			n := len(*l)
			l.validateLocalDescendingPath(m.SubPath, join(path, "subPath"))
			l.atFrom(n, join(ip, "subPath"))
		}
	}
}

// validateProbe mirrors validateProbe (and validateLivenessProbe): one
// handler (validateHandler: exec needs a command, httpGet and tcpSocket a
// valid port number or name, httpGet an HTTP or HTTPS scheme, grpc a port
// number), non-negative times and thresholds, and, with successOne
// (validateLivenessProbe, validateStartupProbe), successThreshold 1.
func (l *errList) validateProbe(p *api.Probe, path string, successOne bool) {
	if p == nil {
		return
	}
	l.validateHandler(p.Handler, path, []string{"exec", "httpGet", "tcpSocket", "grpc"})
	l.nonNegative(int64(p.InitialDelaySeconds), join(path, "initialDelaySeconds"))
	l.nonNegative(int64(p.TimeoutSeconds), join(path, "timeoutSeconds"))
	l.nonNegative(int64(p.PeriodSeconds), join(path, "periodSeconds"))
	l.nonNegative(int64(p.SuccessThreshold), join(path, "successThreshold"))
	l.nonNegative(int64(p.FailureThreshold), join(path, "failureThreshold"))
	if successOne && p.SuccessThreshold != 1 {
		l.invalid(join(path, "successThreshold"), p.SuccessThreshold, "must be 1")
	}
}

// validateHandler mirrors validateHandler for the handler kinds a probe or
// a lifecycle hook takes, in upstream's order (exec, httpGet, tcpSocket,
// grpc, sleep): the first one set is checked, any further one is
// Forbidden, none is Required.
func (l *errList) validateHandler(handler map[string]any, path string, kinds []string) {
	n := 0
	for _, h := range kinds {
		v, ok := handler[h]
		if !ok || v == nil {
			continue
		}
		hp := join(path, h)
		if n > 0 {
			l.forbidden(hp, "may not specify more than 1 handler type")
			continue
		}
		n++
		m, _ := v.(map[string]any)
		switch h {
		case "exec":
			if cmd, _ := m["command"].([]any); len(cmd) == 0 {
				l.required(join(hp, "command"), "")
			}
		case "httpGet":
			l.validatePortNumOrName(m["port"], join(hp, "port"))
			if s, set := m["scheme"].(string); set && s != "HTTP" && s != "HTTPS" {
				l.notSupported(join(hp, "scheme"), s, "HTTP", "HTTPS")
			}
		case "tcpSocket":
			l.validatePortNumOrName(m["port"], join(hp, "port"))
		case "grpc":
			port, _ := asInt(m["port"])
			l.validatePortNumOrName(port, join(hp, "port"))
		}
	}
	if n == 0 {
		l.required(path, "must specify a handler type")
	}
}

// validatePortNumOrName mirrors ValidatePortNumOrName for a port written
// as a number or a name (absent is the number 0).
func (l *errList) validatePortNumOrName(v any, path string) {
	switch x := v.(type) {
	case string:
		for _, msg := range isValidPortName(x) {
			l.invalid(path, x, msg)
		}
	default:
		n, _ := asInt(x)
		if n < 1 || n > 65535 {
			l.invalid(path, n, portRangeMsg)
		}
	}
}

// asInt reads a number of a field kept as written (the decoder's int64,
// or an int).
func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	}
	return 0, false
}

// ---- resources (validateResourceRequirements, helper.Is*ResourceName) ----

// standardResources is helper.standardResources: the names without a
// domain prefix that IsStandardResourceName accepts.
var standardResources = []string{"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
	"requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods",
	"resourcequotas", "services", "replicationcontrollers", "secrets", "persistentvolumeclaims",
	"configmaps", "services.nodeports", "services.loadbalancers", "requests.storage"}

// integerResources is helper.integerResources.
var integerResources = []string{"pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
	"configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"}

func isHugePages(name string) bool { return strings.HasPrefix(name, "hugepages-") }

// isNativeResource mirrors helper.IsNativeResource: no domain, or a
// kubernetes.io one.
func isNativeResource(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
}

// isExtendedResource mirrors helper.IsExtendedResourceName (nvidia.com/gpu).
func isExtendedResource(name string) bool {
	if isNativeResource(name) || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(api.IsQualifiedName("requests."+name)) == 0
}

// validateContainerResourceName mirrors validateContainerResourceName
// (after validateResourceName).
func (l *errList) validateContainerResourceName(name, path string) {
	qerrs := api.IsQualifiedName(name)
	for _, msg := range qerrs {
		l.invalid(path, name, msg)
	}
	prefixed := strings.Contains(name, "/")
	if len(qerrs) == 0 && !prefixed && !slices.Contains(standardResources, name) &&
		!isHugePages(name) && !strings.HasPrefix(name, "requests.hugepages-") {
		l.invalid(path, name, "must be a standard resource type or fully qualified")
	}
	switch {
	case !prefixed:
		if name != "cpu" && name != "memory" && name != "ephemeral-storage" && !isHugePages(name) {
			l.invalid(path, name, "must be a standard resource for containers")
		}
	case !isNativeResource(name) && !isExtendedResource(name):
		l.invalid(path, name, "doesn't follow extended resource name standard")
	}
}

// validateQuantity mirrors ValidateResourceQuantityValue: not negative,
// and whole for integer resources (pods, extended resources such as
// nvidia.com/gpu).
func (l *errList) validateQuantity(name string, q api.Quantity, path string) {
	if q.Milli < 0 {
		l.invalid(path, canonicalQuantity(q), "must be greater than or equal to 0")
	}
	if (slices.Contains(integerResources, name) || isExtendedResource(name)) && q.Milli%1000 != 0 {
		l.invalid(path, canonicalQuantity(q), "must be an integer")
	}
}

// validateResources mirrors validateResourceRequirements for a container:
// each limit and request (name, quantity, at limits[cpu]), a request above
// its limit (reported at resources.requests, as upstream does), and for
// resources that cannot be overcommitted (extended resources, hugepages) a
// request equal to a limit that must be set.
func (l *errList) validateResources(r *api.ResourceRequirements, path string) {
	limPath, reqPath := join(path, "limits"), join(path, "requests")
	for _, name := range slices.Sorted(maps.Keys(r.Limits)) {
		n := len(*l)
		l.validateContainerResourceName(name, key(limPath, name))
		l.validateQuantity(name, r.Limits[name], key(limPath, name))
		l.atFrom(n, join(limPath, name))
	}
	for _, name := range slices.Sorted(maps.Keys(r.Requests)) {
		n := len(*l)
		q := r.Requests[name]
		l.validateContainerResourceName(name, key(reqPath, name))
		l.validateQuantity(name, q, key(reqPath, name))
		overcommit := isNativeResource(name) && !isHugePages(name)
		if lim, ok := r.Limits[name]; ok {
			if q.Milli != lim.Milli && !overcommit {
				l.invalid(reqPath, canonicalQuantity(q), fmt.Sprintf("must be equal to %s limit of %s", name, canonicalQuantity(lim)))
			} else if q.Milli > lim.Milli {
				l.invalid(reqPath, canonicalQuantity(q), fmt.Sprintf("must be less than or equal to %s limit of %s", name, canonicalQuantity(lim)))
			}
		} else if !overcommit {
			l.required(limPath, "Limit must be set for non overcommitable resources")
		}
		l.atFrom(n, join(reqPath, name))
	}
}

var binarySuffixes = []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
var decimalSuffixes = []string{"", "k", "M", "G", "T", "P", "E"}

// canonicalQuantity mirrors resource.Quantity.String for the quantities a
// manifest holds (thousandths are the finest unit kept): the format the
// text was written in (binary Ki..Ei, a decimal exponent e3, or decimal
// SI), the largest unit that keeps the number whole: "0.5" -> "500m",
// "2000" -> "2k", "1024Mi" -> "1Gi", "1.5Gi" -> "1536Mi". Binary values
// below 1024 or not whole are shown in decimal SI, as upstream does.
func canonicalQuantity(q api.Quantity) string {
	m := q.Milli
	if m == 0 {
		return "0"
	}
	text := strings.TrimLeft(q.Text, "+-")
	binary := false
	for _, s := range binarySuffixes[1:] {
		binary = binary || strings.HasSuffix(text, s)
	}
	exponent := strings.ContainsAny(strings.TrimRight(text, "0123456789+-"), "eE") &&
		!strings.HasSuffix(text, "E") && !strings.HasSuffix(text, "Ei")
	neg := m < 0
	if neg {
		m = -m
	}
	sign := ""
	if neg {
		sign = "-"
	}
	if binary && m%1000 == 0 && m/1000 >= 1024 {
		v, i := m/1000, 0
		for v%1024 == 0 && i < len(binarySuffixes)-1 {
			v /= 1024
			i++
		}
		return sign + strconv.FormatInt(v, 10) + binarySuffixes[i]
	}
	if m%1000 != 0 {
		if exponent {
			return sign + strconv.FormatInt(m, 10) + "e-3"
		}
		return sign + strconv.FormatInt(m, 10) + "m"
	}
	v, i := m/1000, 0
	for v%1000 == 0 && i < len(decimalSuffixes)-1 {
		v /= 1000
		i++
	}
	if exponent {
		if i == 0 {
			return sign + strconv.FormatInt(v, 10)
		}
		return sign + strconv.FormatInt(v, 10) + "e" + strconv.Itoa(3*i)
	}
	return sign + strconv.FormatInt(v, 10) + decimalSuffixes[i]
}

// ---- node affinity and tolerations ----

// validateNodeAffinity mirrors validateNodeAffinity: the required node
// selector (ValidateNodeSelector: at least one term; label values checked)
// and the preferred terms (weight 1-100; label values not checked).
func (l *errList) validateNodeAffinity(na *api.NodeAffinity, path string) {
	if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		tp := join(join(path, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms")
		if len(r.NodeSelectorTerms) == 0 {
			l.required(tp, "must have at least one node selector term")
		}
		for i, t := range r.NodeSelectorTerms {
			l.validateNodeSelectorTerm(t, index(tp, i), false)
		}
	}
	for i, p := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		ip := index(join(path, "preferredDuringSchedulingIgnoredDuringExecution"), i)
		if p.Weight <= 0 || p.Weight > 100 {
			l.invalid(join(ip, "weight"), p.Weight, "must be in the range 1-100")
		}
		l.validateNodeSelectorTerm(p.Preference, join(ip, "preference"), true)
	}
}

// validateNodeSelectorTerm mirrors ValidateNodeSelectorTerm:
// ValidateNodeSelectorRequirement (operator, key, values) for each
// expression and ValidateNodeFieldSelectorRequirement (operator, then
// metadata.name with node-name values) for each field.
func (l *errList) validateNodeSelectorTerm(t api.NodeSelectorTerm, path string, allowInvalidValues bool) {
	for i, r := range t.MatchExpressions {
		ip := index(join(path, "matchExpressions"), i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				l.required(join(ip, "values"), "must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				l.forbidden(join(ip, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		case "Gt", "Lt":
			if len(r.Values) != 1 {
				l.required(join(ip, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'")
			}
		default:
			l.invalid(join(ip, "operator"), r.Operator, "not a valid selector operator")
		}
		for _, msg := range api.IsQualifiedName(r.Key) {
			l.invalid(join(ip, "key"), r.Key, msg)
		}
		if !allowInvalidValues {
			for j, v := range r.Values {
				for _, msg := range api.IsValidLabelValue(v) {
					l.invalid(index(join(ip, "values"), j), v, msg)
				}
			}
		}
	}
	for i, r := range t.MatchFields {
		ip := index(join(path, "matchFields"), i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) != 1 {
				l.required(join(ip, "values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector")
			}
		default:
			l.invalid(join(ip, "operator"), r.Operator, "not a valid selector operator")
		}
		if r.Key != "metadata.name" {
			l.invalid(join(ip, "key"), r.Key, "not a valid field selector key")
			continue
		}
		for j, v := range r.Values {
			for _, msg := range api.IsDNS1123Subdomain(v) {
				l.invalid(index(join(ip, "values"), j), v, msg)
			}
		}
	}
}

// validateTolerations mirrors core validation ValidateTolerations: key,
// Exists for an empty key, NoExecute for tolerationSeconds, the operator
// with its value (Equal: a label value; Exists: none), the effect.
func (l *errList) validateTolerations(ts []api.Toleration, path string) {
	for i, t := range ts {
		ip := index(path, i)
		if t.Key != "" {
			for _, msg := range api.IsQualifiedName(t.Key) {
				l.invalid(join(ip, "key"), t.Key, msg)
			}
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			l.invalid(join(ip, "operator"), t.Operator, "operator must be Exists when `key` is empty, which means \"match all values and all keys\"")
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			l.invalid(join(ip, "effect"), t.Effect, "effect must be 'NoExecute' when `tolerationSeconds` is set")
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			if errs := api.IsValidLabelValue(t.Value); len(errs) > 0 {
				l.invalid(join(ip, "operator"), t.Value, strings.Join(errs, ";"))
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				l.invalid(join(ip, "operator"), t.Value, "value must be empty when `operator` is 'Exists'")
				l.at(join(ip, "value"))
			}
		default:
			l.notSupported(join(ip, "operator"), t.Operator, api.TolerationOpEqual, api.TolerationOpExists)
		}
		if t.Effect != "" {
			l.validateTaintEffect(t.Effect, join(ip, "effect"))
		}
	}
}

func (l *errList) validateTaintEffect(effect, path string) {
	switch effect {
	case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
	default:
		l.notSupported(path, effect, api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute)
	}
}

// ---- objects ----

// missingSelectorHint is the hint for a DaemonSet without spec.selector
// (an extensions/v1beta1 manifest defaulted it from the template labels;
// apps/v1 requires it).
const missingSelectorHint = "spec.selector is missing (apps/v1 requires it): add spec.selector.matchLabels with the same labels as spec.template.metadata.labels"

// validateDaemonSet mirrors apps validation ValidateDaemonSet: object meta
// (ValidateDaemonSetName is NameIsDNSSubdomain), then ValidateDaemonSetSpec
// in its order: the selector (ValidateLabelSelector), the selector against
// the template labels, the empty selector, ValidatePodTemplateSpec (labels
// and annotations under spec.template, then ValidatePodSpec), restartPolicy
// Always, no activeDeadlineSeconds, minReadySeconds,
// ValidateDaemonSetUpdateStrategy, revisionHistoryLimit. It returns the
// field errors as kubectl prints them after `The DaemonSet "x" is invalid: `.
func validateDaemonSet(ds *api.DaemonSet) errList {
	var l errList
	l.validateObjectMeta(&ds.ObjectMeta, true, "metadata")
	spec := &ds.Spec
	l.validateLabelSelector(spec.Selector, "spec.selector")
	// upstream skips the match check when the selector does not convert;
	// a nil selector converts to Nothing, which matches no labels
	if sel, err := api.LabelSelectorAsSelector(spec.Selector); err == nil && !sel.Matches(spec.Template.Labels) {
		// template.Labels as the API server holds it: absent labels are null
		l.invalid("spec.template.metadata.labels", spec.Template.Labels, "`selector` does not match template `labels`")
		if spec.Selector == nil {
			// ValidateDaemonSetSpec has no Required error for a missing
			// selector: a nil selector matches nothing, so this mismatch
			// is all the API server reports.
			l.withHint(missingSelectorHint)
		}
	}
	if api.IsEmptyLabelSelector(spec.Selector) {
		l.invalid("spec.selector", spec.Selector, "empty selector is invalid for daemonset")
	}
	// ValidatePodTemplateSpec: labels and annotations (under spec.template), then the pod spec
	l.validateLabelsAt(spec.Template.Labels, "spec.template.labels", "spec.template.metadata.labels")
	l.validateAnnotationsAt(spec.Template.Annotations, "spec.template.annotations", "spec.template.metadata.annotations")
	l.validatePodSpec(&spec.Template.Spec, "spec.template.spec", podOpts{extra: ds.Extra})
	if rp := spec.Template.Spec.RestartPolicy; rp != "Always" {
		l.notSupported("spec.template.spec.restartPolicy", rp, "Always")
		l.withHint("a DaemonSet's pods run for as long as their node does: leave restartPolicy out (it defaults to Always) or set it to Always")
	}
	if spec.Template.Spec.ActiveDeadlineSeconds != nil {
		l.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in DaemonSet is not Supported")
	}
	l.nonNegative(int64(spec.MinReadySeconds), "spec.minReadySeconds")
	l.validateUpdateStrategy(&spec.UpdateStrategy, "spec.updateStrategy")
	if spec.RevisionHistoryLimit != nil {
		// zero is a valid RevisionHistoryLimit
		l.nonNegative(int64(*spec.RevisionHistoryLimit), "spec.revisionHistoryLimit")
	}
	return l
}

// updateStrategyHint is the learner's hint for an unsupported
// spec.updateStrategy.type t: values are case-sensitive, so a value that
// matches a supported one ignoring case ("Ondelete", "rollingupdate") gets
// "did you mean OnDelete?"; anything else lists the two types.
func updateStrategyHint(t string) string {
	for _, s := range []string{api.RollingUpdateDaemonSetStrategyType, api.OnDeleteDaemonSetStrategyType} {
		if strings.EqualFold(strings.TrimSpace(t), s) {
			return "did you mean " + s + "? updateStrategy.type is case-sensitive: RollingUpdate (the default) or OnDelete"
		}
	}
	return "updateStrategy.type is RollingUpdate (the default) or OnDelete; Recreate is a Deployment strategy"
}

// rollingUpdateInternal is apps.RollingUpdateDaemonSet, the internal type
// field.NotSupported renders (no JSON tags, IntOrString values: an unset
// field is 0).
type rollingUpdateInternal struct{ MaxUnavailable, MaxSurge any }

// validateUpdateStrategy mirrors ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet.
func (l *errList) validateUpdateStrategy(s *api.DaemonSetUpdateStrategy, path string) {
	switch s.Type {
	case api.OnDeleteDaemonSetStrategyType:
		return
	case api.RollingUpdateDaemonSetStrategyType:
	default:
		// field.NotSupported renders the whole internal strategy struct.
		v := struct {
			Type          string
			RollingUpdate *rollingUpdateInternal
		}{Type: s.Type}
		if s.RollingUpdate != nil {
			v.RollingUpdate = &rollingUpdateInternal{intOrStringJSON(s.RollingUpdate.MaxUnavailable), intOrStringJSON(s.RollingUpdate.MaxSurge)}
		}
		l.notSupported(path, v, api.RollingUpdateDaemonSetStrategyType, api.OnDeleteDaemonSetStrategyType)
		l.withHint(updateStrategyHint(s.Type))
		return
	}
	ru := s.RollingUpdate
	rp := join(path, "rollingUpdate")
	if ru == nil {
		l.required(rp, "")
		return
	}
	mu, ms := join(rp, "maxUnavailable"), join(rp, "maxSurge")
	l.validatePositiveIntOrPercent(ru.MaxUnavailable, mu)
	l.validatePositiveIntOrPercent(ru.MaxSurge, ms)
	l.notMoreThan100Percent(ru.MaxUnavailable, mu)
	l.notMoreThan100Percent(ru.MaxSurge, ms)
	hasUnavailable := intOrPercentValue(ru.MaxUnavailable) != 0
	hasSurge := intOrPercentValue(ru.MaxSurge) != 0
	switch {
	case hasUnavailable && hasSurge:
		l.invalid(ms, ru.MaxSurge, "may not be set when maxUnavailable is non-zero")
		l.withHint("maxUnavailable defaults to 1: to surge, set maxUnavailable: 0 next to maxSurge")
	case !hasUnavailable && !hasSurge:
		l.required(mu, "cannot be 0 when maxSurge is 0")
	}
}

// intOrStringJSON is an IntOrString as the internal type holds it (a
// value: unset is the integer 0).
func intOrStringJSON(v *api.IntOrString) any {
	if v == nil {
		return 0
	}
	if v.IsString {
		return v.StrVal
	}
	return v.IntVal
}

func (l *errList) validatePositiveIntOrPercent(v *api.IntOrString, path string) {
	if v == nil {
		return
	}
	if v.IsString {
		if !percentRE.MatchString(v.StrVal) {
			l.invalid(path, v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")
		}
		return
	}
	if v.IntVal < 0 {
		l.invalid(path, v, "must be greater than or equal to 0")
	}
}

func percentValue(v *api.IntOrString) (int, bool) {
	if v == nil || !v.IsString || !percentRE.MatchString(v.StrVal) {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	if err != nil {
		return 0, false
	}
	return n, true
}

func (l *errList) notMoreThan100Percent(v *api.IntOrString, path string) {
	if p, ok := percentValue(v); ok && p > 100 {
		l.invalid(path, v, "must not be greater than 100%")
	}
}

// intOrPercentValue mirrors getIntOrPercentValue: a percent's number, an
// int, or IntOrString.IntValue of another string (its number, else 0).
func intOrPercentValue(v *api.IntOrString) int {
	if v == nil {
		return 0
	}
	if p, ok := percentValue(v); ok {
		return p
	}
	if v.IsString {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// validatePod mirrors ValidatePodCreate (validatePodMetadataAndSpec, the
// simulated subset): object meta, then the pod spec with ResourceIsPod.
func validatePod(p *api.Pod) errList {
	var l errList
	l.validateObjectMeta(&p.ObjectMeta, true, "metadata")
	l.validatePodSpec(&p.Spec, "spec", podOpts{isPod: true, extra: p.Extra})
	return l
}

// taintInternal is core.Taint, the internal type field.Duplicate renders.
type taintInternal struct {
	Key, Value, Effect string
	TimeAdded          any
}

// validateNode mirrors ValidateNode: object meta (NameIsDNSSubdomain, no
// namespace), taints (validateNodeTaints: key, value, effect required,
// unique by key and effect), capacity and allocatable
// (ValidateNodeResources). Upstream passes metadata's path to
// validateNodeTaints, so a taint error is reported at
// metadata.taints[0]...; its position is the spec.taints entry written.
func validateNode(n *api.Node) errList {
	var l errList
	l.validateObjectMeta(&n.ObjectMeta, false, "metadata")
	type ke struct{ key, effect string }
	seen := map[ke]bool{}
	for i, t := range n.Spec.Taints {
		ip, pp := index("metadata.taints", i), index("spec.taints", i)
		for _, msg := range api.IsQualifiedName(t.Key) {
			l.invalid(join(ip, "key"), t.Key, msg)
			l.at(join(pp, "key"))
		}
		if errs := api.IsValidLabelValue(t.Value); len(errs) > 0 {
			l.invalid(join(ip, "value"), t.Value, strings.Join(errs, ";"))
			l.at(join(pp, "value"))
		}
		n := len(l)
		if t.Effect == "" {
			l.required(join(ip, "effect"), "")
		} else {
			l.validateTaintEffect(t.Effect, join(ip, "effect"))
		}
		l.atFrom(n, join(pp, "effect"))
		if seen[ke{t.Key, t.Effect}] {
			l.duplicate(ip, taintInternal{Key: t.Key, Value: t.Value, Effect: t.Effect}, "taints must be unique by key and effect pair")
			l.at(pp)
			continue
		}
		seen[ke{t.Key, t.Effect}] = true
	}
	for _, field := range []struct {
		name string
		rl   api.ResourceList
	}{{"capacity", n.Status.Capacity}, {"allocatable", n.Status.Allocatable}} {
		for _, name := range slices.Sorted(maps.Keys(field.rl)) {
			l.validateQuantity(name, field.rl[name], join(join("status", field.name), name))
		}
	}
	return l
}

// validateNamespace mirrors ValidateNamespace: the name is a DNS-1123
// label (ValidateNamespaceName), labels and annotations as everywhere.
func validateNamespace(ns *api.Namespace) errList {
	var l errList
	if ns.GenerateName != "" {
		for _, msg := range api.IsDNS1123Label(maskTrailingDash(ns.GenerateName)) {
			l.invalid("metadata.generateName", ns.GenerateName, msg)
		}
	}
	switch {
	case ns.Name == "" && ns.GenerateName == "":
		l.required("metadata.name", "name or generateName is required")
	case ns.Name != "":
		for _, msg := range api.IsDNS1123Label(ns.Name) {
			l.invalid("metadata.name", ns.Name, msg)
		}
	}
	l.validateLabels(ns.Labels, "metadata.labels")
	l.validateAnnotations(ns.Annotations, "metadata.annotations")
	return l
}

// validate runs the kind's validation on a decoded, defaulted document and
// returns its diagnostics (empty when valid).
func (doc *Document) validate() []Diagnostic {
	var l errList
	var kind, name string
	switch o := doc.Object.(type) {
	case *api.DaemonSet:
		l, kind, name = validateDaemonSet(o), "DaemonSet", o.Name
	case *api.Pod:
		l, kind, name = validatePod(o), "Pod", o.Name
	case *api.Node:
		l, kind, name = validateNode(o), "Node", o.Name
	case *api.Namespace:
		l, kind, name = validateNamespace(o), "Namespace", o.Name
	case *api.GenericObject:
		l, kind, name = validateGenericObject(o), o.Kind, o.Name
	default:
		var ok bool
		if l, kind, name, ok = validateConfigObject(o); !ok {
			return nil
		}
	}
	return doc.diagnostics(l, kind, name)
}

// diagnostics turns field errors into an Invalid group with positions.
func (doc *Document) diagnostics(l errList, kind, name string) []Diagnostic {
	if len(l) == 0 {
		return nil
	}
	group := fmt.Sprintf("The %s %q is invalid", kind, name)
	qualified := kind
	if r, ok := apischema.ServedKind(doc.APIVersion, kind); ok {
		qualified = r.QualifiedKind()
	}
	verb := doc.verb
	if verb == "" {
		verb = "creating"
	}
	status := fmt.Sprintf("error when %s %q: %s %q is invalid", verb, doc.file, qualified, name)
	out := make([]Diagnostic, 0, len(l))
	for _, e := range l {
		p := e.pos
		if p == "" {
			p = e.path
		}
		pos := doc.position(p)
		hint := e.hint
		if hint == "" {
			hint = validationHint(e)
		}
		out = append(out, Diagnostic{File: doc.file, Line: pos.line, Column: pos.col, Field: e.path,
			Message: e.body, Hint: hint, group: group, status: status})
	}
	return out
}

// position finds the node of path or of its nearest recorded parent.
func (doc *Document) position(path string) position {
	if pos, ok := doc.pos[path]; ok {
		return pos
	}
	path = strings.TrimSuffix(path, "#key")
	for p := path; ; {
		if pos, ok := doc.pos[p]; ok {
			return pos
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	if pos, ok := doc.pos[""]; ok {
		return pos
	}
	return position{doc.Line, 1}
}

func validationHint(e fieldErr) string {
	switch {
	case strings.Contains(e.body, "`selector` does not match template `labels`"):
		return "every label in spec.selector.matchLabels must appear, with the same value, in spec.template.metadata.labels"
	case e.path == "spec.selector" && strings.Contains(e.body, "empty selector"):
		return "give spec.selector.matchLabels the labels of the pod template"
	case strings.HasSuffix(e.path, "containers") && strings.HasPrefix(e.body, "Required value"):
		return "a pod needs at least one container: `containers:` then `- name: ...` and `image: ...`"
	case e.path == "metadata.name" && (strings.Contains(e.body, "RFC 1123 label") || strings.Contains(e.body, "must not contain dots")):
		return "a namespace name uses lower-case letters, digits and '-' only, and starts and ends with a letter or digit (no '.')"
	case strings.HasSuffix(e.path, "metadata.name") && strings.Contains(e.body, "RFC 1123"):
		return "names use lower-case letters, digits, '-' and '.', and start and end with a letter or digit"
	case strings.HasSuffix(e.path, ".name") && (strings.Contains(e.body, "RFC 1123 label") || strings.Contains(e.body, "must not contain dots")):
		return "use lower-case letters, digits and '-' only (e.g. config-path)"
	case strings.Contains(e.path, ".ports[") && strings.HasSuffix(e.path, ".name") && strings.HasPrefix(e.body, "Invalid value"):
		return "a port name is an IANA service name: at most 15 lower-case letters, digits and '-', with at least one letter (e.g. metrics)"
	case strings.Contains(e.body, "when `hostNetwork` is true"):
		return "with hostNetwork the container listens on the node itself: leave hostPort out or make it equal to containerPort"
	case strings.Contains(e.body, "Limit must be set for non overcommitable resources") || strings.Contains(e.body, "must be equal to") && strings.Contains(e.path, "resources"):
		return "extended resources such as nvidia.com/gpu cannot be overcommitted: set them under resources.limits (requests default to the same quantity)"
	case strings.Contains(e.body, "must be less than or equal to") && strings.Contains(e.body, " limit of "):
		return "a container's request may not exceed its limit: raise the limit or lower the request"
	case strings.HasSuffix(e.path, "fieldRef.fieldPath"):
		return "an env var can read metadata.name, metadata.namespace, metadata.uid, metadata.labels['key'], metadata.annotations['key'], spec.nodeName, spec.serviceAccountName, status.hostIP, status.hostIPs, status.podIP or status.podIPs"
	case strings.HasSuffix(e.path, ".operator") && strings.Contains(e.body, "value must be empty when `operator` is 'Exists'"):
		return "`operator: Exists` matches any value: remove `value:`, or use `operator: Equal` to match that value"
	}
	return ""
}

// validateGenericObject is the metadata validation every kind's
// ValidateObjectMeta call does, for the kinds the playground stores as
// written: the name is a DNS-1123 subdomain, or for RBAC kinds a path
// segment name (rbac validation ValidateRBACName: path.IsValidPathSegmentName,
// so `system:aggregate-to-edit` is valid). The namespace is the builder's
// (set after decoding) and is not checked here.
func validateGenericObject(o *api.GenericObject) errList {
	var l errList
	m := o.ObjectMeta
	m.Namespace = ""
	if o.Group == "rbac.authorization.k8s.io" && m.Name != "" {
		name := m.Name
		m.Name = "x" // checked below
		l.validateObjectMeta(&m, false, "metadata")
		switch {
		case name == "." || name == "..":
			l.invalid("metadata.name", name, fmt.Sprintf("may not be '%s'", name))
		case strings.ContainsAny(name, "/%"):
			for _, c := range []string{"/", "%"} {
				if strings.Contains(name, c) {
					l.invalid("metadata.name", name, fmt.Sprintf("may not contain '%s'", c))
				}
			}
		}
		return l
	}
	l.validateObjectMeta(&m, false, "metadata")
	return l
}
