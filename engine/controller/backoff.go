package controller

import "time"

// Backoff mirrors client-go flowcontrol.Backoff without jitter: per key, a
// delay that starts at Initial, doubles on every Next, is capped at Max, and
// starts over when the key was last updated more than 2*Max ago. Times are
// virtual.
type Backoff struct {
	Initial, Max time.Duration
	entries      map[string]*backoffEntry
}

type backoffEntry struct {
	backoff    time.Duration
	lastUpdate time.Time
}

// NewBackoff returns a Backoff (flowcontrol.NewBackOff).
func NewBackoff(initial, max time.Duration) *Backoff {
	return &Backoff{Initial: initial, Max: max, entries: map[string]*backoffEntry{}}
}

func (b *Backoff) hasExpired(now, lastUpdate time.Time) bool {
	return now.Sub(lastUpdate) > 2*b.Max
}

// Get returns the key's current delay (0 if unknown).
func (b *Backoff) Get(key string) time.Duration {
	if e, ok := b.entries[key]; ok {
		return e.backoff
	}
	return 0
}

// Next advances the key's delay at time now (flowcontrol.Backoff.Next).
func (b *Backoff) Next(key string, now time.Time) {
	e, ok := b.entries[key]
	if !ok || b.hasExpired(now, e.lastUpdate) {
		e = &backoffEntry{backoff: b.Initial}
		b.entries[key] = e
	} else {
		e.backoff = min(2*e.backoff, b.Max)
	}
	e.lastUpdate = now
}

// IsInBackOffSinceUpdate reports whether now is still within the key's delay
// after its last update (flowcontrol.Backoff.IsInBackOffSinceUpdate).
func (b *Backoff) IsInBackOffSinceUpdate(key string, now time.Time) bool {
	e, ok := b.entries[key]
	if !ok || b.hasExpired(now, e.lastUpdate) {
		return false
	}
	return now.Sub(e.lastUpdate) < e.backoff
}

// until returns when the key's current delay ends.
func (b *Backoff) until(key string) time.Time {
	e := b.entries[key]
	return e.lastUpdate.Add(e.backoff)
}

// Reset forgets the key (the rate limiter's Forget after a sync without errors).
func (b *Backoff) Reset(key string) { delete(b.entries, key) }

// has reports whether the key has a delay recorded (not yet Reset).
func (b *Backoff) has(key string) bool {
	_, ok := b.entries[key]
	return ok
}
