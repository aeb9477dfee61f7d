package controller

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"
	"strings"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// safeAlphabet is apimachinery rand's alphabet used by SafeEncodeString.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// SafeEncodeString mirrors rand.SafeEncodeString: every byte is mapped to
// safeAlphabet[b % 27], so a decimal number becomes characters from
// "456789bcdf".
func SafeEncodeString(s string) string {
	r := make([]byte, len(s))
	for i, b := range []byte(s) {
		r[i] = safeAlphabet[int(b)%len(safeAlphabet)]
	}
	return string(r)
}

// templateHashInput is what the template hash covers: the modelled template
// plus what the model keeps outside JSON (volume sources, probe handlers,
// fields not simulated).
type templateHashInput struct {
	Template  *api.PodTemplateSpec
	Volumes   []map[string]any
	Probes    []map[string]any
	Unmodeled map[string]map[string]any
}

func hashInput(ds *api.DaemonSet) []byte {
	in := templateHashInput{Template: &ds.Spec.Template}
	for _, v := range ds.Spec.Template.Spec.Volumes {
		in.Volumes = append(in.Volumes, v.Source)
	}
	for _, c := range append(append([]api.Container(nil), ds.Spec.Template.Spec.InitContainers...), ds.Spec.Template.Spec.Containers...) {
		for _, p := range []*api.Probe{c.ReadinessProbe, c.LivenessProbe} {
			if p != nil {
				in.Probes = append(in.Probes, p.Handler)
			} else {
				in.Probes = append(in.Probes, nil)
			}
		}
	}
	for k, v := range ds.Extra {
		if strings.HasPrefix(k, "spec.template") {
			if in.Unmodeled == nil {
				in.Unmodeled = map[string]map[string]any{}
			}
			in.Unmodeled[k] = v
		}
	}
	b, err := json.Marshal(in)
	if err != nil {
		b = []byte(fmt.Sprintf("%#v", in))
	}
	return b
}

// ComputeHash mirrors controller.ComputeHash: FNV-32a over the template
// (here its JSON form rather than Go's object dump, so values differ from a
// real cluster's), then the collision count as 4 little-endian bytes in an
// 8-byte buffer when not nil, printed in decimal and SafeEncodeString'd.
func ComputeHash(ds *api.DaemonSet, collisionCount *int32) string {
	h := fnv.New32a()
	h.Write(hashInput(ds))
	if collisionCount != nil {
		buf := make([]byte, 8)
		binary.LittleEndian.PutUint32(buf, uint32(*collisionCount))
		h.Write(buf)
	}
	return SafeEncodeString(fmt.Sprint(h.Sum32()))
}

// getPatch mirrors update.go getPatch: the JSON
// {"spec":{"template":{...,"$patch":"replace"}}} stored in a
// ControllerRevision. Volume sources, probe handlers and fields the engine
// does not model are merged back in, so the data shows the template as
// written and changes whenever the template does.
func getPatch(ds *api.DaemonSet) string {
	b, _ := json.Marshal(ds.Spec.Template)
	var tmpl map[string]any
	_ = json.Unmarshal(b, &tmpl)
	if tmpl == nil {
		tmpl = map[string]any{}
	}
	spec, _ := tmpl["spec"].(map[string]any)
	if spec != nil {
		if vols, ok := spec["volumes"].([]any); ok {
			for i, v := range vols {
				if m, ok := v.(map[string]any); ok && i < len(ds.Spec.Template.Spec.Volumes) {
					for k, x := range ds.Spec.Template.Spec.Volumes[i].Source {
						m[k] = x
					}
				}
			}
		}
		for _, list := range []struct {
			key string
			cs  []api.Container
		}{{"initContainers", ds.Spec.Template.Spec.InitContainers}, {"containers", ds.Spec.Template.Spec.Containers}} {
			arr, _ := spec[list.key].([]any)
			for i, c := range arr {
				m, ok := c.(map[string]any)
				if !ok || i >= len(list.cs) {
					continue
				}
				for name, p := range map[string]*api.Probe{"readinessProbe": list.cs[i].ReadinessProbe, "livenessProbe": list.cs[i].LivenessProbe} {
					if pm, ok := m[name].(map[string]any); ok && p != nil {
						for k, x := range p.Handler {
							pm[k] = x
						}
					}
				}
			}
		}
	}
	keys := make([]string, 0, len(ds.Extra))
	for k := range ds.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if k != "spec.template" && !strings.HasPrefix(k, "spec.template.") {
			continue
		}
		if m := lookupPath(tmpl, strings.TrimPrefix(strings.TrimPrefix(k, "spec.template"), ".")); m != nil {
			for f, x := range ds.Extra[k] {
				if _, exists := m[f]; !exists {
					m[f] = x
				}
			}
		}
	}
	tmpl["$patch"] = "replace"
	out, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": tmpl}})
	return string(out)
}

// lookupPath finds the map at a dotted path such as "spec.containers[0]"
// (or "spec.containers.0"), creating maps for missing plain keys.
func lookupPath(root map[string]any, path string) map[string]any {
	cur := root
	if path == "" {
		return cur
	}
	for _, part := range strings.Split(path, ".") {
		name, idx := part, -1
		if i := strings.IndexByte(part, '['); i >= 0 && strings.HasSuffix(part, "]") {
			name = part[:i]
			if _, err := fmt.Sscanf(part[i+1:len(part)-1], "%d", &idx); err != nil {
				return nil
			}
		}
		if idx < 0 {
			if n, err := fmt.Sscanf(name, "%d", &idx); err == nil && n == 1 {
				return nil // numeric path segment on a map: not supported
			}
			next, ok := cur[name].(map[string]any)
			if !ok {
				if _, exists := cur[name]; exists {
					return nil
				}
				next = map[string]any{}
				cur[name] = next
			}
			cur = next
			continue
		}
		arr, ok := cur[name].([]any)
		if !ok || idx >= len(arr) {
			return nil
		}
		next, ok := arr[idx].(map[string]any)
		if !ok {
			return nil
		}
		cur = next
	}
	return cur
}

// matchRevision mirrors update.go Match: the revision's data equals the
// DaemonSet's current patch.
func matchRevision(ds *api.DaemonSet, r *api.ControllerRevision, patch string) bool {
	return r.Data == patch
}

// constructHistory mirrors update.go constructHistory: claim the
// namespace's ControllerRevisions (adopt matching orphans, release owned
// ones that stopped matching), give revisions without a hash label their
// name as hash, split into current (data equals the template) and old, and
// create the current revision (`<ds>-<hash>`, revision max(old)+1) when
// missing, or dedup and renumber it. It returns the current revision, the
// old ones (sorted by revision), and an error when the sync must stop (a
// hash collision bumped status.collisionCount).
func (dsc *DaemonSetsController) constructHistory(ds *api.DaemonSet, sel api.Selector) (*api.ControllerRevision, []*api.ControllerRevision, error) {
	c := dsc.c
	var histories []*api.ControllerRevision
	for _, r := range c.ControllerRevisions() {
		if r.Namespace != ds.Namespace {
			continue
		}
		ref := r.ControllerRef()
		switch {
		case ref != nil && ref.UID == ds.UID:
			if sel.Matches(r.Labels) {
				histories = append(histories, r)
			} else {
				r.RemoveOwnerReference(ds.UID)
				_ = c.UpdateControllerRevision(r)
				dsc.decide(ds, "constructHistory", "ControllerRevision/"+r.Namespace+"/"+r.Name, "", "release",
					"its labels no longer match the DaemonSet's selector, so the controller gives it up")
			}
		case ref == nil && sel.Matches(r.Labels) && r.DeletionTimestamp == nil:
			r.OwnerReferences = append(r.OwnerReferences, newControllerRef(ds))
			_ = c.UpdateControllerRevision(r)
			dsc.decide(ds, "constructHistory", "ControllerRevision/"+r.Namespace+"/"+r.Name, "", "adopt",
				"an orphaned revision matching the DaemonSet's selector is adopted")
			histories = append(histories, r)
		}
	}
	for _, r := range histories {
		if _, ok := r.Labels[api.ControllerRevisionHashLabelKey]; !ok {
			if r.Labels == nil {
				r.Labels = map[string]string{}
			}
			r.Labels[api.ControllerRevisionHashLabelKey] = r.Name
			_ = c.UpdateControllerRevision(r)
		}
	}
	patch := getPatch(ds)
	var cur, old []*api.ControllerRevision
	for _, r := range histories {
		if matchRevision(ds, r, patch) {
			cur = append(cur, r)
		} else {
			old = append(old, r)
		}
	}
	sort.SliceStable(old, func(i, j int) bool { return old[i].Revision < old[j].Revision })
	next := int64(1)
	if len(old) > 0 {
		next = old[len(old)-1].Revision + 1
	}
	var current *api.ControllerRevision
	if len(cur) == 0 {
		r, err := dsc.snapshot(ds, next, patch)
		if err != nil {
			return nil, nil, err
		}
		current = r
	} else {
		current = dsc.dedupCurHistories(ds, sel, cur)
		if current.Revision < next {
			current.Revision = next
			_ = c.UpdateControllerRevision(current)
		}
	}
	return current, old, nil
}

// dedupCurHistories mirrors update.go dedupCurHistories: keep the current
// revision with the highest revision number (the last of equal ones); for
// each duplicate, first relabel every pod of the DaemonSet whose
// controller-revision-hash differs from the kept revision's (upstream
// patches them all, old-revision pods included), then delete the
// duplicate (IT TestDSCUpdatesPodLabelAfterDedupCurHistories).
func (dsc *DaemonSetsController) dedupCurHistories(ds *api.DaemonSet, sel api.Selector, cur []*api.ControllerRevision) *api.ControllerRevision {
	if len(cur) == 1 {
		return cur[0]
	}
	keep := cur[0]
	for _, r := range cur[1:] {
		if r.Revision >= keep.Revision {
			keep = r
		}
	}
	keepHash := keep.Labels[api.ControllerRevisionHashLabelKey]
	for _, r := range cur {
		if r == keep {
			continue
		}
		for _, p := range dsc.claimPods(ds, sel) {
			if p.Labels[api.ControllerRevisionHashLabelKey] == keepHash {
				continue
			}
			if p.Labels == nil {
				p.Labels = map[string]string{}
			}
			p.Labels[api.ControllerRevisionHashLabelKey] = keepHash
			if err := dsc.c.UpdatePod(p); err == nil {
				dsc.decide(ds, "dedupCurHistories", podObject(p), p.Spec.NodeName, "relabel", fmt.Sprintf(
					"ControllerRevisions %s and %s hold the same template: the pod is relabelled with the kept one's hash %s", keep.Name, r.Name, keepHash))
			}
		}
		if err := dsc.c.RemoveControllerRevision(r.Namespace, r.Name); err == nil {
			dsc.decide(ds, "dedupCurHistories", "ControllerRevision/"+r.Namespace+"/"+r.Name, "", "delete",
				fmt.Sprintf("it duplicates %s (same template, lower revision %d)", keep.Name, r.Revision))
		}
	}
	return keep
}

// snapshot mirrors update.go snapshot: create the ControllerRevision for the
// current template. An existing revision of that name with the same data is
// reused; with different data the hash collided, status.collisionCount is
// incremented and the sync stops (the next one hashes with the new count).
func (dsc *DaemonSetsController) snapshot(ds *api.DaemonSet, revision int64, patch string) (*api.ControllerRevision, error) {
	hash := ComputeHash(ds, ds.Status.CollisionCount)
	name := ds.Name + "-" + hash
	labels := copyMap(ds.Spec.Template.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[api.ControllerRevisionHashLabelKey] = hash
	r := &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ds.Namespace, Labels: labels,
			Annotations:     copyMap(ds.Annotations),
			OwnerReferences: []api.OwnerReference{newControllerRef(ds)}},
		Data:     patch,
		Revision: revision,
	}
	err := dsc.c.CreateControllerRevision(r)
	if cluster.IsAlreadyExists(err) {
		existing := dsc.c.ControllerRevision(ds.Namespace, name)
		if existing != nil && matchRevision(ds, existing, patch) {
			return existing, nil
		}
		if ds.Status.CollisionCount == nil {
			ds.Status.CollisionCount = new(int32)
		}
		*ds.Status.CollisionCount++
		_ = dsc.c.UpdateDaemonSet(ds)
		dsc.decide(ds, "snapshot", "ControllerRevision/"+ds.Namespace+"/"+name, "", "collision",
			fmt.Sprintf("a different ControllerRevision is already named %s: hash collision, status.collisionCount is now %d", name, *ds.Status.CollisionCount))
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	dsc.decide(ds, "snapshot", "ControllerRevision/"+ds.Namespace+"/"+name, "", "create",
		fmt.Sprintf("new pod template: recorded as revision %d with hash %s", revision, hash))
	return r, nil
}

// cleanupHistory mirrors update.go cleanupHistory: delete old revisions
// beyond spec.revisionHistoryLimit (default 10), lowest revision first,
// skipping any whose hash a pod of the DaemonSet still carries.
func (dsc *DaemonSetsController) cleanupHistory(ds *api.DaemonSet, old []*api.ControllerRevision, nodeToDaemonPods map[string][]*api.Pod) {
	limit := int32(10)
	if ds.Spec.RevisionHistoryLimit != nil {
		limit = *ds.Spec.RevisionHistoryLimit
	}
	toKill := len(old) - int(limit)
	if toKill <= 0 {
		return
	}
	live := map[string]bool{}
	for _, pods := range nodeToDaemonPods {
		for _, p := range pods {
			if h := p.Labels[api.ControllerRevisionHashLabelKey]; h != "" {
				live[h] = true
			}
		}
	}
	for _, r := range old {
		if toKill <= 0 {
			break
		}
		if live[r.Labels[api.ControllerRevisionHashLabelKey]] {
			continue
		}
		_ = dsc.c.RemoveControllerRevision(r.Namespace, r.Name)
		dsc.decide(ds, "cleanupHistory", "ControllerRevision/"+r.Namespace+"/"+r.Name, "", "delete",
			fmt.Sprintf("more old revisions than revisionHistoryLimit %d", limit))
		toKill--
	}
}
