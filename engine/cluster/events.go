package cluster

import (
	"sort"
	"strconv"
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
	ComponentPodGC               = "pod-garbage-collector"
	ComponentUser                = "kubectl"
)

// Event recording follows client-go's EventCorrelator
// (k8s.io/client-go/tools/record/events_cache.go) and the API server's
// event TTL:
//   - the aggregator: once an object has had EventAggregateMaxEvents events
//     of the same source, type and reason with different messages within
//     EventAggregateInterval, further ones are folded into one event whose
//     message is "(combined from similar events): <latest message>";
//   - the logger: an event identical to one already recorded (same source,
//     object, field path, type, reason and message) bumps its count and
//     lastTimestamp instead of adding a row;
//   - the spam filter: each source+object may write EventSpamBurst events,
//     then one more every EventSpamRefill; the rest are dropped;
//   - the API server deletes an event EventTTL after its last update
//     (kube-apiserver --event-ttl=1h).
//
// Together they keep the event list bounded however long a simulation runs.
const (
	EventAggregateMaxEvents = 10
	EventAggregateInterval  = 600 * time.Second
	EventSpamBurst          = 25
	EventSpamRefill         = 300 * time.Second
	EventTTL                = time.Hour
)

// aggregateRecord mirrors client-go's aggregateRecord: the distinct
// messages seen for one aggregate key, and when the last one arrived.
type aggregateRecord struct {
	localKeys map[string]bool
	last      time.Time
}

// spamRecord is one source+object's token bucket.
type spamRecord struct {
	tokens float64
	last   time.Time
}

// Record records an event about an object as the client-go recorder and the
// API server do (see above). kind is the involved object's kind
// ("DaemonSet", "Pod", "Node"); fieldPath may be empty; host is the
// reporting node for kubelet events. Dropped events write nothing.
func (c *Cluster) Record(kind string, meta *api.ObjectMeta, fieldPath, eventType, reason, message, component, host string) {
	c.record(kind, meta, fieldPath, eventType, reason, message, component, host, c.NewUID)
}

// record is Record with the generator of the new event's own UID.
func (c *Cluster) record(kind string, meta *api.ObjectMeta, fieldPath, eventType, reason, message, component, host string, newUID func() string) {
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
	c.expireEvents()
	object := component + "|" + host + "|" + kind + "|" + ns + "|" + meta.Name + "|" + meta.UID

	// EventAggregator.EventAggregate
	aggKey := object + "|" + eventType + "|" + reason
	rec := c.eventAgg[aggKey]
	if rec == nil || c.now.Sub(rec.last) > EventAggregateInterval {
		rec = &aggregateRecord{localKeys: map[string]bool{}}
		c.eventAgg[aggKey] = rec
	}
	rec.last = c.now
	rec.localKeys[message] = true
	key := object + "|" + fieldPath + "|" + eventType + "|" + reason + "|" + message
	if len(rec.localKeys) >= EventAggregateMaxEvents {
		key = aggKey
		message = "(combined from similar events): " + message
	}

	// EventSourceObjectSpamFilter.Filter
	spam := c.eventSpam[object]
	if spam == nil {
		spam = &spamRecord{tokens: EventSpamBurst, last: c.now}
		c.eventSpam[object] = spam
	}
	spam.tokens = min(EventSpamBurst, spam.tokens+c.now.Sub(spam.last).Seconds()/EventSpamRefill.Seconds())
	spam.last = c.now
	if spam.tokens < 1 {
		return
	}
	spam.tokens--

	// eventLogger.eventObserve
	if e, ok := c.eventIdx[key]; ok {
		e.Count++
		e.LastTimestamp = c.stamp()
		e.Message = message
		c.bump(&e.ObjectMeta)
		return
	}
	e := &api.Event{
		TypeMeta:       api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta:     api.ObjectMeta{Name: meta.Name + "." + strconv.FormatInt(c.now.UnixNano()+c.eventSeq, 16), Namespace: ns, CreationTimestamp: c.stamp(), UID: newUID()},
		InvolvedObject: ref,
		Reason:         reason,
		Message:        message,
		Source:         api.EventSource{Component: component, Host: host},
		FirstTimestamp: c.stamp(),
		LastTimestamp:  c.stamp(),
		Count:          1,
		Type:           eventType,
	}
	c.eventSeq++
	c.bump(&e.ObjectMeta)
	c.events = append(c.events, e)
	c.eventIdx[key] = e
	c.eventKeys[e] = key
}

// removeEvents drops the events drop selects, with their index entries,
// keeping the others in order.
func (c *Cluster) removeEvents(drop func(*api.Event) bool) {
	kept := c.events[:0]
	for _, e := range c.events {
		if drop(e) {
			delete(c.eventIdx, c.eventKeys[e])
			delete(c.eventKeys, e)
			continue
		}
		kept = append(kept, e)
	}
	clear(c.events[len(kept):])
	c.events = kept
}

// expireEvents deletes events EventTTL after their last update and forgets
// aggregation and spam records that no longer matter. It runs at most once
// per virtual minute.
func (c *Cluster) expireEvents() {
	if c.now.Sub(c.eventsSwept) < time.Minute {
		return
	}
	c.eventsSwept = c.now
	c.removeEvents(func(e *api.Event) bool { return c.now.Sub(e.LastTimestamp) >= EventTTL })
	for k, r := range c.eventAgg {
		if c.now.Sub(r.last) > EventAggregateInterval {
			delete(c.eventAgg, k)
		}
	}
	for k, r := range c.eventSpam {
		if c.now.Sub(r.last).Seconds() >= EventSpamBurst*EventSpamRefill.Seconds() {
			delete(c.eventSpam, k) // its bucket would be full again
		}
	}
}

// Events returns the events that have not expired, in the order they were
// first recorded.
func (c *Cluster) Events() []*api.Event {
	out := make([]*api.Event, 0, len(c.events))
	for _, e := range c.events {
		if c.now.Sub(e.LastTimestamp) < EventTTL {
			out = append(out, e)
		}
	}
	return out
}

// NumEvents returns how many events the store holds, expired ones not yet
// deleted included (what the events cost in memory).
func (c *Cluster) NumEvents() int { return len(c.events) }

// EventsFor returns the events whose involved object has this kind and UID,
// sorted by lastTimestamp then first recording (describe's Events table).
func (c *Cluster) EventsFor(kind, uid string) []*api.Event {
	var out []*api.Event
	for _, e := range c.Events() {
		if e.InvolvedObject.Kind == kind && e.InvolvedObject.UID == uid {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].LastTimestamp.Before(out[j].LastTimestamp) })
	return out
}

// LastEvent returns the unexpired event with this reason about the object
// of this kind and UID that was updated last (the latest lastTimestamp),
// nil when there is none. It allocates nothing.
func (c *Cluster) LastEvent(kind, uid, reason string) *api.Event {
	var last *api.Event
	for _, e := range c.events {
		if e.Reason == reason && e.InvolvedObject.UID == uid && e.InvolvedObject.Kind == kind &&
			c.now.Sub(e.LastTimestamp) < EventTTL && (last == nil || !e.LastTimestamp.Before(last.LastTimestamp)) {
			last = e
		}
	}
	return last
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

// Decide appends a decision at the current virtual time. The log holds at
// most 20,000 decisions: when it is full, the older half is dropped.
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

// NumDecisions returns how many decisions the log holds (at most
// maxDecisions).
func (c *Cluster) NumDecisions() int { return len(c.decisions) }

// LastDecisionSeq returns the Seq of the newest decision (0 if none).
func (c *Cluster) LastDecisionSeq() int64 { return c.decisionSeq }
