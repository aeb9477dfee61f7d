package engine

import (
	"errors"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
	"github.com/dsplayground/dsplay/engine/kubectl"
	"github.com/dsplayground/dsplay/engine/kubelet"
	"github.com/dsplayground/dsplay/engine/manifest"
	"github.com/dsplayground/dsplay/engine/nodelifecycle"
)

// What the shells (wasm/, site/, cmd/) need beside Snapshot and Scene:
// values they pass through (type aliases), the console's and the editor's
// pure helpers, and small reads of the store, each a copy the caller may
// keep. The shells never hold the store itself.

// Decision is one component's decision (cluster.Decision), as Decisions
// returns them.
type Decision = cluster.Decision

// Watch is a running `kubectl get -w` or streaming `rollout status`
// (kubectl.Watch), as Output.Watch hands it out.
type Watch = kubectl.Watch

// EditSession is an open `kubectl edit` (kubectl.EditSession), as
// Output.Edit hands it out; FinishEdit saves it.
type EditSession = kubectl.EditSession

// Diagnostic is one problem found in a manifest (manifest.Diagnostic):
// file, 1-based line and column (0 when unknown), field path, message in
// the API server's or kubectl's words, and a hint.
type Diagnostic = manifest.Diagnostic

// MaxManifestBytes is the largest manifest text Apply and CheckManifest
// accept (manifest.MaxInputBytes).
const MaxManifestBytes = manifest.MaxInputBytes

// Node condition types and statuses the node panel reads and sets
// (core/v1 NodeConditionType, ConditionStatus).
const (
	NodeReady        = api.NodeReady
	ConditionTrue    = api.ConditionTrue
	ConditionFalse   = api.ConditionFalse
	ConditionUnknown = api.ConditionUnknown
)

// ManifestDiagnostics returns the diagnostics of err when it is, or
// wraps, a manifest decoding error (as Apply, Recorder.Apply and
// CheckManifest return: one per problem, sorted by position); ok is false
// for any other error.
func ManifestDiagnostics(err error) (ds []Diagnostic, ok bool) {
	var me *manifest.Error
	if errors.As(err, &me) {
		return me.Diagnostics, true
	}
	return nil, false
}

// ManifestRepair is one fix of damage pasted from a web page
// (manifest.Repair: its kind, a title naming the lines, the fixed text).
type ManifestRepair = manifest.Repair

// ManifestRepairs lists the one-click fixes text needs, one per kind of
// damage (manifest.Repairs: unusual spaces, tabs in the indentation,
// bullets, curly quotes, full-width punctuation), and the text with all of
// them applied ("" when nothing needs repair).
func ManifestRepairs(text string) ([]ManifestRepair, string) { return manifest.Repairs(text) }

// CheckManifest decodes and validates text, the file named file, as Apply
// does before it writes (manifest.Decode: strict field validation,
// defaulting, the API server's validation), touching no store. It returns
// nil when every document decodes, else the error Apply would return (its
// diagnostics through ManifestDiagnostics). An empty file is not an error
// here.
func CheckManifest(file, text string) error {
	_, err := manifest.Decode(file, text)
	return err
}

// ManifestObject is one object of a decoded manifest.
type ManifestObject struct {
	// Kind is as written; Namespace is metadata.namespace as written,
	// defaulted to "default" for the namespaced kinds the engine
	// simulates; Name is metadata.name ("" when only
	// metadata.generateName is set).
	Kind, Namespace, Name string
	// Inert is true for kinds the playground stores as the API server
	// does but no component acts on (Deployment, Service, ClusterRole,
	// PodDisruptionBudget ...): they are applied, listed and deleted, and
	// nothing happens because of them.
	Inert bool
}

// DecodeManifest decodes and validates text, the file named file, as
// CheckManifest does, and returns its objects in order (a `kind: List`'s
// items unpacked; empty documents left out). With ignoreUnknownFields an
// unknown field is dropped instead of refused (field validation Ignore,
// kubectl --validate=false). The error is the one Apply would return
// (its diagnostics through ManifestDiagnostics); no objects then.
func DecodeManifest(file, text string, ignoreUnknownFields bool) ([]ManifestObject, error) {
	var o manifest.DecodeOptions
	if ignoreUnknownFields {
		o.FieldValidation = manifest.FieldValidationIgnore
	}
	docs, err := manifest.DecodeWith(file, text, o)
	if err != nil {
		return nil, err
	}
	objs := make([]ManifestObject, len(docs))
	for i, d := range docs {
		_, inert := d.Object.(*api.GenericObject)
		objs[i] = ManifestObject{Kind: d.Kind, Namespace: d.Namespace, Name: d.Name, Inert: inert}
	}
	return objs, nil
}

// NoObjectsError is kubectl's error for a manifest file that holds no
// object (manifest.NoObjectsError): `error: no objects passed to apply`
// for verb "apply", one Diagnostic at 1:1 (ManifestDiagnostics).
func NoObjectsError(file, verb string) error { return manifest.NoObjectsError(file, verb) }

// SplitCommands splits pasted console text into command lines
// (kubectl.SplitCommands): commands is every finished line, rest an
// unfinished last line (an open quote, a trailing backslash) to keep in
// the input.
func SplitCommands(text string) (commands []string, rest string) {
	return kubectl.SplitCommands(text)
}

// MayWait reports whether the command line may block on a real cluster,
// waiting for objects to go (kubectl.MayWait: `delete` unless
// --wait=false, `drain`), so that a shell plays its wait as it happens
// (Recorder.RunWatched).
func MayWait(line string) bool { return kubectl.MayWait(line) }

// NotSimulated lists the kubectl commands the playground answers as not
// simulated (logs, exec, port-forward, ...), in a new slice.
func NotSimulated() []string { return kubectl.NotSimulated() }

// CommonPrefix is the longest prefix all of words share ("" for none),
// for completing a word as far as the candidates agree.
func CommonPrefix(words []string) string { return kubectl.CommonPrefix(words) }

// EditTarget names what an open edit holds, as kubectl names objects
// ("daemonset/x"), from its text and the edit command line
// (kubectl.EditTarget).
func EditTarget(text, line string) string { return kubectl.EditTarget(text, line) }

// EditErrors reads the reasons kubectl wrote at the top of a reopened
// edit file (kubectl.EditErrors): one Diagnostic in file per named field,
// on the field's line of text, and the header's other lines.
func EditErrors(text, file string) (ds []Diagnostic, heads []string) {
	return kubectl.EditErrors(text, file)
}

// PressureConditions are the node conditions the kubelet's eviction
// manager reports (pkg/kubelet/eviction): MemoryPressure, DiskPressure,
// PIDPressure, in that order.
var PressureConditions = []string{api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure}

// PressureTaint returns the key of the NoSchedule taint the node
// lifecycle controller adds while pressure condition typ is True
// (nodelifecycle.ConditionTaintKey: node.kubernetes.io/memory-pressure,
// disk-pressure, pid-pressure); "" when typ is not one of
// PressureConditions.
func PressureTaint(typ string) string {
	for _, c := range PressureConditions {
		if c == typ {
			return nodelifecycle.ConditionTaintKey(typ)
		}
	}
	return ""
}

// ResourceVersion returns the store's change counter: it increases on
// every write, so a shell redraws only when it moved.
func (s *Simulation) ResourceVersion() int64 { return s.store.ResourceVersion() }

// LastDecisionSeq returns the Seq of the newest decision (0 if none).
func (s *Simulation) LastDecisionSeq() int64 { return s.store.LastDecisionSeq() }

// NodeCount returns the number of nodes.
func (s *Simulation) NodeCount() int { return s.store.NodeCount() }

// HasNode reports whether node name exists.
func (s *Simulation) HasNode(name string) bool { return s.store.Node(name) != nil }

// NodeCondition returns the status ("True", "False", "Unknown") of
// condition typ of node name, "" when the node or the condition is
// missing.
func (s *Simulation) NodeCondition(name, typ string) string {
	n := s.store.Node(name)
	if n == nil {
		return ""
	}
	if c := n.Condition(typ); c != nil {
		return c.Status
	}
	return ""
}

// Complete completes the console line at byte offset cursor against the
// live objects and Files (kubectl.Complete): the candidates for the word
// being typed, and the byte offset where that word starts.
func (s *Simulation) Complete(line string, cursor int) (candidates []string, replaceFrom int) {
	return kubectl.Complete(&kubectl.Env{Cluster: s.store, Files: s.Files}, line, cursor)
}

// Summary is a brief state of the cluster, copied out of the store: what
// an embedding page (postMessage dsplay:state) or a test hook reads.
// Unlike a Snapshot it computes no verdicts, so it is linear in objects.
type Summary struct {
	// Pods are sorted by namespace then name.
	Pods []PodSummary
	// Nodes are sorted by name.
	Nodes []NodeSummary
	// DaemonSets are sorted by namespace then name.
	DaemonSets []DaemonSetSummary
}

// PodSummary is one pod of a Summary.
type PodSummary struct {
	Namespace, Name string
	// Node is spec.nodeName ("" while unbound); Phase is status.phase.
	Node, Phase string
	// Owner is the controller's name ("" for a bare pod).
	Owner string
	// Ready is the pod's Ready condition being True.
	Ready bool
	// Terminating is true once deletionTimestamp is set.
	Terminating bool
}

// NodeSummary is one node of a Summary.
type NodeSummary struct {
	Name string
	// Ready is the Ready condition's status ("True", "False", "Unknown";
	// "Unknown" when the node has none).
	Ready         string
	Unschedulable bool
	// Taints are key=value:Effect (key:Effect without a value), in
	// spec.taints order.
	Taints []string
}

// DaemonSetSummary is one DaemonSet of a Summary: its status counts as
// the controller last wrote them.
type DaemonSetSummary struct {
	Namespace, Name                                            string
	Desired, Current, Ready, UpToDate, Available, Misscheduled int32
}

// Summary returns the brief state of the cluster now.
func (s *Simulation) Summary() Summary {
	c := s.store
	var sum Summary
	for _, p := range c.Pods() {
		owner := ""
		if r := p.ControllerRef(); r != nil {
			owner = r.Name
		}
		sum.Pods = append(sum.Pods, PodSummary{Namespace: p.Namespace, Name: p.Name, Node: p.Spec.NodeName, Phase: p.Status.Phase,
			Owner: owner, Ready: p.IsReady(), Terminating: p.DeletionTimestamp != nil})
	}
	for _, n := range c.Nodes() {
		v := NodeSummary{Name: n.Name, Ready: api.ConditionUnknown, Unschedulable: n.Spec.Unschedulable, Taints: []string{}}
		if cond := n.Condition(api.NodeReady); cond != nil {
			v.Ready = cond.Status
		}
		for _, t := range n.Spec.Taints {
			v.Taints = append(v.Taints, t.ToString())
		}
		sum.Nodes = append(sum.Nodes, v)
	}
	for _, d := range c.DaemonSets() {
		st := d.Status
		sum.DaemonSets = append(sum.DaemonSets, DaemonSetSummary{Namespace: d.Namespace, Name: d.Name,
			Desired: st.DesiredNumberScheduled, Current: st.CurrentNumberScheduled, Ready: st.NumberReady,
			UpToDate: st.UpdatedNumberScheduled, Available: st.NumberAvailable, Misscheduled: st.NumberMisscheduled})
	}
	return sum
}

// DaemonSetSpec is what a form prefilled from a DaemonSet shows: its
// template's containers and its rolling-update parameters as written.
type DaemonSetSpec struct {
	// Containers are the template's containers (init containers not
	// included), in order.
	Containers []ContainerSpec
	// MaxUnavailable and MaxSurge are spec.updateStrategy.rollingUpdate's
	// values as written ("1", "10%"), "" when unset.
	MaxUnavailable, MaxSurge string
}

// ContainerSpec is one container of a DaemonSetSpec.
type ContainerSpec struct{ Name, Image string }

// DaemonSetSpec returns the spec view of DaemonSet namespace/name; ok is
// false when there is no such DaemonSet.
func (s *Simulation) DaemonSetSpec(namespace, name string) (spec DaemonSetSpec, ok bool) {
	ds := s.store.DaemonSet(namespace, name)
	if ds == nil {
		return DaemonSetSpec{}, false
	}
	for _, c := range ds.Spec.Template.Spec.Containers {
		spec.Containers = append(spec.Containers, ContainerSpec{Name: c.Name, Image: c.Image})
	}
	if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if ru.MaxUnavailable != nil {
			spec.MaxUnavailable = ru.MaxUnavailable.String()
		}
		if ru.MaxSurge != nil {
			spec.MaxSurge = ru.MaxSurge.String()
		}
	}
	return spec, true
}

// DecisionAt returns the virtual time of decision d: its Time since
// virtual time zero (cluster.Epoch), as Elapsed counts.
func DecisionAt(d Decision) time.Duration { return d.Time.Sub(cluster.Epoch) }

// exportSkippedNamespaces are the namespaces every cluster has, left out
// of ExportObjects.
var exportSkippedNamespaces = map[string]bool{"default": true, "kube-system": true, "kube-public": true, "kube-node-lease": true}

// ExportObjects returns the objects a YAML export of the cluster holds,
// as the store holds them (*api.Namespace, *api.Node, ...; the caller
// must not modify them), kinds in this order, each sorted by namespace
// and name: namespaces but the four every cluster has, nodes,
// ServiceAccounts but "default", ConfigMaps but those the control plane
// makes (kube-root-ca.crt, the legacy token tracking one), Secrets, the
// objects of kinds nothing here acts on (RBAC, Deployments, Services ...:
// Cluster.AllGenericObjects), DaemonSets, and pods without a controller that are not
// terminating (a DaemonSet's pods are made again by its controller).
func (s *Simulation) ExportObjects() []any {
	c := s.store
	var objs []any
	for _, n := range c.Namespaces() {
		if !exportSkippedNamespaces[n.Name] {
			objs = append(objs, n)
		}
	}
	for _, n := range c.Nodes() {
		objs = append(objs, n)
	}
	for _, s := range c.ServiceAccounts() {
		if s.Name != "default" {
			objs = append(objs, s)
		}
	}
	for _, m := range c.ConfigMaps() {
		if m.Name != api.RootCAConfigMapName && !(m.Namespace == api.NamespaceSystem && m.Name == cluster.LegacyTokenTrackingConfigMapName) {
			objs = append(objs, m)
		}
	}
	for _, s := range c.Secrets() {
		objs = append(objs, s)
	}
	for _, o := range c.AllGenericObjects() {
		objs = append(objs, o)
	}
	for _, d := range c.DaemonSets() {
		objs = append(objs, d)
	}
	for _, p := range c.Pods() {
		if p.ControllerRef() == nil && p.DeletionTimestamp == nil {
			objs = append(objs, p)
		}
	}
	return objs
}

// IsInfoLine reports whether a stderr chunk is one of kubectl's
// informational lines rather than an error: "No resources found." and
// "No resources found in NS namespace." (kubectl get's printer writes
// them to stderr, kubectl/pkg/cmd/get/get.go).
func IsInfoLine(s string) bool {
	s = strings.TrimSpace(s)
	return s == "No resources found." ||
		strings.HasPrefix(s, "No resources found in ") && strings.HasSuffix(s, " namespace.") && !strings.Contains(s, "\n")
}

// PreloadedImages returns the images every node holds without pulling them
// (imported by hand), in the order given: by default
// kubelet.SeedPreloadedImages. imagePullPolicy Never runs only these and
// the images a node has pulled.
func (s *Simulation) PreloadedImages() []string { return s.comps.kubelets.Registry.PreloadedImages() }

// PreloadImage imports image on every node, as `ctr image import` on each
// would, then settles: a pod waiting in ErrImageNeverPull for it starts at
// its pod worker's next sync (10-15 s later). An image already preloaded
// changes nothing. Errors: image does not parse as a reference (the
// kubelet's InvalidImageName text). Recorder.PreloadImage records it.
func (s *Simulation) PreloadImage(image string) error {
	if err := kubelet.ValidImageReference(image); err != nil {
		return err
	}
	s.comps.kubelets.Registry.Preload(image)
	s.Settle()
	return nil
}
