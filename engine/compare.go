package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dsplayground/dsplay/engine/api"
)

// Compare view: the same cluster and the same template change under two
// update strategies — RollingUpdate and OnDelete, or RollingUpdate with
// maxSurge 0 and with maxSurge 1 — side by side on one clock.

// Side names one side of a Comparison: the left (SideRollingUpdate) and
// the right (SideOnDelete), named after the default comparison's
// strategies.
type Side int

// The two sides of a Comparison.
const (
	SideRollingUpdate Side = iota
	SideOnDelete
)

// Strategy is the update strategy one side of a Comparison runs.
type Strategy struct {
	// Type is spec.updateStrategy.type: api.RollingUpdateDaemonSetStrategyType
	// or api.OnDeleteDaemonSetStrategyType.
	Type string
	// MaxUnavailable and MaxSurge are a RollingUpdate side's values, an
	// integer ("1") or a percentage ("10%"); "" as in CompareOptions.
	MaxUnavailable, MaxSurge string
}

// SurgeStrategies are the two sides of the maxSurge comparison: stop one
// pod, then start its replacement (maxUnavailable 1, maxSurge 0), against
// start the replacement, then stop the old pod (maxUnavailable 0,
// maxSurge 1).
var SurgeStrategies = [2]Strategy{
	{Type: api.RollingUpdateDaemonSetStrategyType, MaxUnavailable: "1", MaxSurge: "0"},
	{Type: api.RollingUpdateDaemonSetStrategyType, MaxUnavailable: "0", MaxSurge: "1"},
}

func (s Side) String() string {
	if s == SideOnDelete {
		return "OnDelete"
	}
	return "RollingUpdate"
}

// CompareOptions describe a comparison.
type CompareOptions struct {
	// Options create both simulations (same seed: same names on both
	// sides until their histories differ).
	Options Options
	// Base is replayed on both sides first, e.g. Recorder.Inputs() of the
	// learner's session: it must leave DaemonSet Namespace/Name running.
	// The inputs' At and End are ignored (time passes through their
	// Advance inputs).
	Base []Input
	// Namespace ("" = default) and Name are the DaemonSet compared.
	Namespace, Name string
	// MaxUnavailable and MaxSurge are the RollingUpdate side's
	// spec.updateStrategy.rollingUpdate values, an integer ("1") or a
	// percentage ("10%"); "" means the API defaults (1 and 0), except that
	// MaxUnavailable "" with a non-zero MaxSurge means 0 (upstream
	// validateRollingUpdateDaemonSet refuses two non-zero values).
	MaxUnavailable, MaxSurge string
	// Strategies, when set (a Type on either side), are the two sides'
	// strategies instead (e.g. SurgeStrategies); MaxUnavailable and
	// MaxSurge are then ignored. Zero: RollingUpdate with MaxUnavailable
	// and MaxSurge against OnDelete.
	Strategies [2]Strategy
	// Change is the template change made on both sides once their
	// strategies are set, e.g. Input{Kind: InputRun, Line: "kubectl set
	// image ds/web nginx=nginx:1.25"} or an InputApply of a manifest. It
	// must not set spec.updateStrategy itself (NewComparison checks).
	Change Input
}

// Comparison is two recorded simulations (Recorder, so each side has its
// own timeline) that went through the same Base inputs, then got their
// DaemonSet's update strategy set (`kubectl patch`, which changes no pod)
// and the same Change. Actions on one side keep the clocks together: the
// other side is advanced to the same virtual time afterwards.
type Comparison struct {
	Namespace, Name string
	// Strategies are the two sides' update strategies.
	Strategies [2]Strategy
	sides      [2]*Recorder
	// ChangeAt is the virtual time (since cluster.Epoch) of the change.
	ChangeAt time.Duration
}

// NewComparison builds the two sides. Errors: the DaemonSet does not exist
// after Base, a bad MaxUnavailable/MaxSurge, the strategy patch or the
// change failing (with kubectl's message), or the change resetting the
// strategy.
//
// Base is replayed once; the OnDelete side starts from a deep copy of the
// RollingUpdate side's Recorder after Base (Recorder.fork: the same
// simulation, input log and steps, so each side still Seeks through the
// whole log), which costs about a third of a replay at 1,000 nodes
// (BenchmarkNewComparison1000). When the copy is refused (an editor
// session Base left open, or state the copy cannot duplicate) Base is
// replayed a second time instead.
func NewComparison(o CompareOptions) (*Comparison, error) {
	return newComparison(o, false)
}

// newComparison is NewComparison; replayTwice builds the OnDelete side by
// replaying Base a second time instead of forking the RollingUpdate side's
// Recorder after Base (the path NewComparison falls back to when the fork
// fails; kept reachable so tests can compare the two).
func newComparison(o CompareOptions, replayTwice bool) (*Comparison, error) {
	ns := o.Namespace
	if ns == "" {
		ns = api.DefaultNamespace
	}
	c := &Comparison{Namespace: ns, Name: o.Name, Strategies: o.Strategies}
	if c.Strategies[0].Type == "" && c.Strategies[1].Type == "" {
		c.Strategies = [2]Strategy{
			{Type: api.RollingUpdateDaemonSetStrategyType, MaxUnavailable: o.MaxUnavailable, MaxSurge: o.MaxSurge},
			{Type: api.OnDeleteDaemonSetStrategyType},
		}
	}
	var patches [2]string
	for i, st := range c.Strategies {
		switch st.Type {
		case api.RollingUpdateDaemonSetStrategyType:
			p, err := strategyPatch(st.MaxUnavailable, st.MaxSurge)
			if err != nil {
				if c.Strategies[0].Type == c.Strategies[1].Type {
					return nil, fmt.Errorf("%s side: %w", c.Label(Side(i)), err)
				}
				return nil, err
			}
			patches[i] = p
		case api.OnDeleteDaemonSetStrategyType:
			patches[i] = `{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}`
		default:
			return nil, fmt.Errorf("strategy %q: want RollingUpdate or OnDelete", st.Type)
		}
	}
	for i := range c.sides {
		var r *Recorder
		if i > 0 && !replayTwice {
			// Base replayed once: the other side starts from a deep copy
			// of the first side's Recorder after Base (same state, input
			// log and steps); a second replay only when it cannot be
			// copied (an editor session still open, see fork).
			r, _ = c.sides[0].fork()
		}
		if r == nil {
			r = replayBase(o.Options, o.Base)
		}
		c.sides[i] = r
		if r.live.store.DaemonSet(ns, o.Name) == nil {
			return nil, fmt.Errorf("daemonset %s/%s does not exist after the base inputs", ns, o.Name)
		}
	}
	for i, r := range c.sides {
		line := fmt.Sprintf("kubectl patch daemonset %s -n %s --type=merge -p '%s'", o.Name, ns, patches[i])
		if out := r.Run(line); out.ExitCode != 0 {
			return nil, fmt.Errorf("%s side: setting the strategy: %s", c.Label(Side(i)), strings.TrimSpace(out.Stderr))
		}
	}
	c.ChangeAt = c.sides[0].live.Elapsed()
	for i, r := range c.sides {
		res := r.Do(o.Change)
		label := c.Label(Side(i))
		if res.Err != nil {
			return nil, fmt.Errorf("%s side: the change: %w", label, res.Err)
		}
		if res.Output.ExitCode != 0 {
			return nil, fmt.Errorf("%s side: the change: %s", label, strings.TrimSpace(res.Output.Stderr))
		}
		ds := r.live.store.DaemonSet(ns, o.Name)
		if ds == nil {
			return nil, fmt.Errorf("%s side: the change deleted daemonset %s/%s", label, ns, o.Name)
		}
		if want := c.Strategies[i].Type; ds.Spec.UpdateStrategy.Type != want {
			return nil, fmt.Errorf("%s side: after the change spec.updateStrategy.type is %s, not %s: leave the strategy out of the change", label, ds.Spec.UpdateStrategy.Type, want)
		}
	}
	c.Sync()
	return c, nil
}

// Label names side s for a learner: its strategy's type when the two
// sides' types differ ("RollingUpdate", "OnDelete"), else the setting
// that tells them apart ("maxSurge 1", "maxUnavailable 10%"), else
// "left"/"right".
func (c *Comparison) Label(s Side) string {
	a, b := c.Strategies[s], c.Strategies[1-s]
	switch {
	case a.Type != b.Type:
		return a.Type
	case a.MaxSurge != b.MaxSurge:
		return "maxSurge " + orZero(a.MaxSurge)
	case a.MaxUnavailable != b.MaxUnavailable:
		return "maxUnavailable " + orZero(a.MaxUnavailable)
	case s == SideRollingUpdate:
		return "left"
	default:
		return "right"
	}
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// replayBase returns a Recorder that went through base (At and End reset,
// FinishEdit inputs renumbered to this Recorder's log, which merges
// consecutive Advances).
func replayBase(opts Options, base []Input) *Recorder {
	r := NewRecorder(opts)
	idx := map[int]int{} // base index -> r's index
	for j, in := range base {
		in.At, in.End = 0, 0
		if in.Kind == InputFinishEdit {
			in.Edit = idx[in.Edit]
		}
		r.Do(in)
		idx[j] = len(r.inputs) - 1
	}
	return r
}

// strategyPatch is the merge patch setting RollingUpdate with the given
// values ("" = maxUnavailable 1 (0 beside a non-zero maxSurge), maxSurge 0).
func strategyPatch(maxUnavailable, maxSurge string) (string, error) {
	val := func(field, v, def string) (string, error) {
		if v == "" {
			v = def
		}
		if p, ok := strings.CutSuffix(v, "%"); ok {
			if _, err := strconv.Atoi(p); err != nil {
				return "", fmt.Errorf("%s %q: want an integer or a percentage", field, v)
			}
			return strconv.Quote(v), nil
		}
		if _, err := strconv.Atoi(v); err != nil {
			return "", fmt.Errorf("%s %q: want an integer or a percentage", field, v)
		}
		return v, nil
	}
	defUnavailable := "1"
	if maxSurge != "" && strings.Trim(maxSurge, "0%") != "" {
		// a surge with maxUnavailable left out: 0, since upstream
		// (validateRollingUpdateDaemonSet) allows only one non-zero
		defUnavailable = "0"
	}
	mu, err := val("maxUnavailable", maxUnavailable, defUnavailable)
	if err != nil {
		return "", err
	}
	ms, err := val("maxSurge", maxSurge, "0")
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(`{"spec":{"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":%s,"maxSurge":%s}}}}`, mu, ms), nil
}

// Side returns one side's Recorder: read its Live simulation, its Steps,
// Seek it. Act through the Comparison (Do, Run, Advance) to keep the clocks
// together.
func (c *Comparison) Side(s Side) *Recorder { return c.sides[s] }

// Elapsed is the shared virtual time since cluster.Epoch.
func (c *Comparison) Elapsed() time.Duration { return c.sides[0].live.Elapsed() }

// Advance moves both sides forward by d.
func (c *Comparison) Advance(d time.Duration) {
	for _, r := range c.sides {
		r.Advance(d)
	}
	c.Sync()
}

// Do performs in on side s only (e.g. deleting a pod on the OnDelete
// side), then brings the other side to the same virtual time.
func (c *Comparison) Do(s Side, in Input) Result {
	res := c.sides[s].Do(in)
	c.Sync()
	return res
}

// Run is Do with a kubectl command line.
func (c *Comparison) Run(s Side, line string) Output {
	return c.Do(s, Input{Kind: InputRun, Line: line}).Output
}

// Sync advances the side that is behind (a kubectl command that waited
// moved only its own side's clock) to the other's virtual time.
func (c *Comparison) Sync() {
	a, b := c.sides[0], c.sides[1]
	if d := b.live.Elapsed() - a.live.Elapsed(); d > 0 {
		a.Advance(d)
	} else if d < 0 {
		b.Advance(-d)
	}
}

// Seek returns both sides at virtual time at (see Recorder.Seek).
func (c *Comparison) Seek(at time.Duration) (rolling, onDelete *Simulation, err error) {
	if rolling, err = c.sides[0].Seek(at); err != nil {
		return nil, nil, err
	}
	if onDelete, err = c.sides[1].Seek(at); err != nil {
		return nil, nil, err
	}
	return rolling, onDelete, nil
}

// Progress is a side's rollout in kubectl rollout status's numbers
// (status.desiredNumberScheduled, updatedNumberScheduled, numberAvailable).
type Progress struct {
	Desired, Updated, Available int32
	// Done is kubectl rollout status's success condition: the controller
	// observed the latest generation and every desired pod is updated and
	// available (for OnDelete too, though rollout status refuses it).
	Done bool
}

// Progress returns side s's rollout progress now; zero when the DaemonSet
// is gone.
func (c *Comparison) Progress(s Side) Progress {
	return ProgressOf(c.sides[s].live, c.Namespace, c.Name)
}

// ProgressOf is Progress for DaemonSet namespace/name of any Simulation
// (e.g. one returned by Seek).
func ProgressOf(s *Simulation, namespace, name string) Progress {
	ds := s.store.DaemonSet(namespace, name)
	if ds == nil {
		return Progress{}
	}
	st := ds.Status
	return Progress{
		Desired: st.DesiredNumberScheduled, Updated: st.UpdatedNumberScheduled, Available: st.NumberAvailable,
		Done: st.ObservedGeneration >= ds.Generation && st.UpdatedNumberScheduled == st.DesiredNumberScheduled && st.NumberAvailable == st.DesiredNumberScheduled,
	}
}
