package cluster

import (
	"fmt"
	"sort"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// Component names used as event sources and decision components.
const (
	ComponentDaemonSetController = "daemonset-controller"
	ComponentScheduler           = "default-scheduler"
	ComponentKubelet             = "kubelet"
	ComponentTaintEviction       = "taint-eviction-controller"
	ComponentNodeLifecycle       = "node-controller"
	ComponentGarbageCollector    = "garbage-collector"
	ComponentUser                = "kubectl"
)

// Record appends an event about obj as the client-go recorder does: an
// identical event (same object, type, reason, message, source) bumps count
// and lastTimestamp instead of adding a row. kind is the involved object's
// kind ("DaemonSet", "Pod", "Node"); fieldPath may be empty.
func (c *Cluster) Record(kind string, meta *api.ObjectMeta, fieldPath, eventType, reason, message, component, host string) {
	ref := api.ObjectReference{Kind: kind, Namespace: meta.Namespace, Name: meta.Name, UID: meta.UID, FieldPath: fieldPath}
	switch kind {
	case "DaemonSet", "ControllerRevision":
		ref.APIVersion = "apps/v1"
	default:
		ref.APIVersion = "v1"
	}
	ns := meta.Namespace
	if ns == "" {
		ns = api.DefaultNamespace
	}
	aggKey := fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s|%s", kind, ns, meta.Name, meta.UID, eventType, reason, message, component)
	if e, ok := c.eventIdx[aggKey]; ok {
		e.Count++
		e.LastTimestamp = c.now
		c.bump(&e.ObjectMeta)
		return
	}
	e := &api.Event{
		TypeMeta:       api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta:     api.ObjectMeta{Name: fmt.Sprintf("%s.%x", meta.Name, c.now.UnixNano()+int64(len(c.events))), Namespace: ns, CreationTimestamp: c.now, UID: c.NewUID()},
		InvolvedObject: ref,
		Reason:         reason,
		Message:        message,
		Source:         api.EventSource{Component: component, Host: host},
		FirstTimestamp: c.now,
		LastTimestamp:  c.now,
		Count:          1,
		Type:           eventType,
	}
	c.bump(&e.ObjectMeta)
	c.events = append(c.events, e)
	c.eventIdx[aggKey] = e
}

// Events returns all events in the order they were first recorded.
func (c *Cluster) Events() []*api.Event { return c.events }

// EventsFor returns the events whose involved object has this kind and UID,
// sorted by lastTimestamp then first recording (describe's Events table).
func (c *Cluster) EventsFor(kind, uid string) []*api.Event {
	var out []*api.Event
	for _, e := range c.events {
		if e.InvolvedObject.Kind == kind && e.InvolvedObject.UID == uid {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastTimestamp.Before(out[j].LastTimestamp) })
	return out
}

// Decision is one thing a component did or chose not to do, with the upstream
// function it mirrors and the reason in words a learner can read. The UI's
// explanations and the transcript's decision log derive from these.
type Decision struct {
	// Seq numbers decisions in the order they were made, from 1.
	Seq int64
	// Time is the virtual time of the decision.
	Time time.Time
	// Component is one of the Component* constants.
	Component string
	// Func is the upstream function mirrored, e.g. "podsShouldBeOnNode".
	Func string
	// Object is "<kind>/<namespace>/<name>" (cluster-scoped: "<kind>/<name>").
	Object string
	// Node is the node concerned, if any.
	Node string
	// Action is a verb: create, delete, skip, bind, unschedulable, start, ready, evict, remove, taint.
	Action string
	// Reason explains the action.
	Reason string
}

// Decide appends a decision at the current virtual time. The log keeps the
// most recent 20,000 decisions.
func (c *Cluster) Decide(d Decision) {
	c.decisionSeq++
	d.Seq = c.decisionSeq
	d.Time = c.now
	if len(c.decisions) >= c.maxDecisions {
		n := copy(c.decisions, c.decisions[len(c.decisions)/2:])
		c.decisions = c.decisions[:n]
	}
	c.decisions = append(c.decisions, d)
}

// Decisions returns the decisions with Seq > after, oldest first.
func (c *Cluster) Decisions(after int64) []Decision {
	i := sort.Search(len(c.decisions), func(i int) bool { return c.decisions[i].Seq > after })
	return c.decisions[i:]
}

// LastDecisionSeq returns the Seq of the newest decision (0 if none).
func (c *Cluster) LastDecisionSeq() int64 { return c.decisionSeq }
