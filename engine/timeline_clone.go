package engine

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/dsplayground/dsplay/engine/kubectl"
)

// Deep copy of a Simulation for timeline checkpoints.
//
// The copy is generic (reflection over every field, exported or not), so a
// component that gains state is copied without anyone updating a Clone
// method: what cannot be copied faithfully makes the copy fail instead of
// silently sharing state. Rules:
//   - pointers, maps and slices are copied deeply; a pointer, map or slice
//     reached twice is copied once and shared again in the copy (aliasing
//     is kept, e.g. the store's pods in its indexes and the components'
//     *cluster.Cluster);
//   - *time.Location is shared (immutable);
//   - non-nil funcs, channels, unsafe.Pointers and uintptrs are refused with
//     the path to them (a closure or a channel would tie the copy to the
//     original); TestCloneCoversEveryType walks the types statically.
//
// Not handled: a pointer into the middle of a struct, array or slice element
// that is also reached as part of its parent becomes a separate copy. The
// byte-identical replay tests (TestCheckpointReplayIsIdentical) would show
// it if a component relied on such aliasing.

type cloner struct {
	// seen maps the address of a pointer's target, a map or a slice's
	// array to its copy (checked for the same type on a hit: a struct and
	// its first field share an address).
	seen map[uintptr]reflect.Value
}

// flat caches whether values of a type hold no reference that needs a deep
// copy (only scalars, strings, arrays and structs of them, and
// *time.Location), so they are copied in one assignment.
var flat sync.Map // reflect.Type -> bool

func isFlat(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Pointer:
		return t == locationType
	case reflect.Array, reflect.Struct:
	default:
		return false
	}
	if f, ok := flat.Load(t); ok {
		return f.(bool)
	}
	f := false
	switch t.Kind() {
	case reflect.Array:
		f = isFlat(t.Elem())
	case reflect.Struct:
		f = true
		for i := 0; i < t.NumField() && f; i++ {
			f = isFlat(t.Field(i).Type)
		}
	}
	flat.Store(t, f)
	return f
}

// lookup returns the copy made for address p of type t.
func (c *cloner) lookup(p uintptr, t reflect.Type) (reflect.Value, bool) {
	n, ok := c.seen[p]
	if ok && n.Type() == t {
		return n, true
	}
	return reflect.Value{}, false
}

func (c *cloner) remember(p uintptr, n reflect.Value) {
	if _, ok := c.seen[p]; !ok {
		c.seen[p] = n
	}
}

var locationType = reflect.TypeOf((*time.Location)(nil))

// deepCopy returns a deep copy of *p.
func deepCopy[T any](p *T) (*T, error) {
	c := &cloner{seen: map[uintptr]reflect.Value{}}
	v := reflect.ValueOf(p)
	out := reflect.New(v.Type().Elem())
	c.remember(v.Pointer(), out)
	if err := c.copy(out.Elem(), v.Elem()); err != nil {
		return nil, err
	}
	return out.Interface().(*T), nil
}

// settable returns v (addressable) as a settable value even when it was
// reached through an unexported field.
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// copy copies src into dst (settable, of the same type, zero).
func (c *cloner) copy(dst, src reflect.Value) error {
	if src.CanAddr() && !src.CanInterface() {
		// reached through an unexported field: a read-write view
		src = reflect.NewAt(src.Type(), unsafe.Pointer(src.UnsafeAddr())).Elem()
	}
	if isFlat(src.Type()) && src.CanInterface() {
		dst.Set(src)
		return nil
	}
	switch src.Kind() {
	case reflect.Bool:
		dst.SetBool(src.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		dst.SetInt(src.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		dst.SetUint(src.Uint())
	case reflect.Float32, reflect.Float64:
		dst.SetFloat(src.Float())
	case reflect.Complex64, reflect.Complex128:
		dst.SetComplex(src.Complex())
	case reflect.String:
		dst.SetString(src.String())
	case reflect.Array:
		for i := 0; i < src.Len(); i++ {
			if err := c.copy(dst.Index(i), src.Index(i)); err != nil {
				return fmt.Errorf("[%d]%w", i, err)
			}
		}
	case reflect.Struct:
		for i := 0; i < src.NumField(); i++ {
			if err := c.copy(settable(dst.Field(i)), src.Field(i)); err != nil {
				return fmt.Errorf(".%s%w", src.Type().Field(i).Name, err)
			}
		}
	case reflect.Pointer:
		if src.IsNil() {
			return nil
		}
		if src.Type() == locationType {
			dst.Set(reflect.NewAt(locationType.Elem(), src.UnsafePointer()))
			return nil
		}
		if n, ok := c.lookup(src.Pointer(), src.Type()); ok {
			dst.Set(n)
			return nil
		}
		n := reflect.New(src.Type().Elem())
		c.remember(src.Pointer(), n)
		dst.Set(n)
		if err := c.copy(n.Elem(), src.Elem()); err != nil {
			return fmt.Errorf("(*)%w", err)
		}
	case reflect.Slice:
		if src.IsNil() {
			return nil
		}
		if n, ok := c.lookup(src.Pointer(), src.Type()); ok && n.Len() == src.Len() && src.Len() > 0 {
			dst.Set(n)
			return nil
		}
		n := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		if src.Len() > 0 {
			c.remember(src.Pointer(), n)
		}
		dst.Set(n)
		if isFlat(src.Type().Elem()) {
			reflect.Copy(n, reflect.NewAt(reflect.ArrayOf(src.Len(), src.Type().Elem()), src.UnsafePointer()).Elem())
			return nil
		}
		for i := 0; i < src.Len(); i++ {
			if err := c.copy(n.Index(i), src.Index(i)); err != nil {
				return fmt.Errorf("[%d]%w", i, err)
			}
		}
	case reflect.Map:
		if src.IsNil() {
			return nil
		}
		if n, ok := c.lookup(src.Pointer(), src.Type()); ok {
			dst.Set(n)
			return nil
		}
		n := reflect.MakeMapWithSize(src.Type(), src.Len())
		c.remember(src.Pointer(), n)
		dst.Set(n)
		it := src.MapRange()
		if src.CanInterface() && isFlat(src.Type().Key()) && isFlat(src.Type().Elem()) {
			for it.Next() {
				n.SetMapIndex(it.Key(), it.Value())
			}
			return nil
		}
		for it.Next() {
			nk := reflect.New(src.Type().Key()).Elem()
			if err := c.copy(nk, it.Key()); err != nil {
				return fmt.Errorf("[key]%w", err)
			}
			nv := reflect.New(src.Type().Elem()).Elem()
			if err := c.copy(nv, it.Value()); err != nil {
				return fmt.Errorf("[%v]%w", nk, err)
			}
			n.SetMapIndex(nk, nv)
		}
	case reflect.Interface:
		if src.IsNil() {
			return nil
		}
		e := src.Elem()
		n := reflect.New(e.Type()).Elem()
		if err := c.copy(n, e); err != nil {
			return fmt.Errorf("(%s)%w", e.Type(), err)
		}
		dst.Set(n)
	default: // Func, Chan, UnsafePointer, Uintptr
		if src.IsZero() {
			return nil
		}
		return fmt.Errorf(": cannot copy a non-nil %s (%s)", src.Kind(), src.Type())
	}
	return nil
}

// clone returns an independent deep copy of the simulation (see deepCopy).
func (s *Simulation) clone() (*Simulation, error) {
	n, err := deepCopy(s)
	if err != nil {
		return nil, fmt.Errorf("cannot checkpoint the simulation: Simulation%w", err)
	}
	return n, nil
}

// fork returns a second Recorder in the same state as r: a deep copy of
// the live simulation (clone) with copies of the input log, the steps and
// the editor sessions' index, so that the two then record independently
// and each Seeks through the whole log (as if the log had been replayed
// into a new Recorder, which is what fork saves: NewComparison's second
// side). The replay cursor is not copied (the fork rebuilds its own);
// checkpoints are shared (never written: a restore clones them).
// Editor sessions: finished ones are shared (finishing a done session only
// reports an error and changes nothing); a session still open is tied to
// r's simulation (kubectl.Env closures), so it makes fork fail, as does a
// simulation clone refuses. The fork's FinishEdit accepts no session
// (none of the Outputs that opened them came from the fork), as for a
// Recorder that replayed the log; FinishEdit inputs (Do) still reach the
// finished sessions by index.
func (r *Recorder) fork() (*Recorder, error) {
	for i, e := range r.edits {
		if !e.Done() {
			return nil, fmt.Errorf("cannot fork the recorder: the editor session opened by input %d is still open", i)
		}
	}
	live, err := r.live.clone()
	if err != nil {
		return nil, err
	}
	n := &Recorder{
		opts:          r.opts,
		live:          live,
		liveEdits:     map[*kubectl.EditSession]int{},
		edits:         maps.Clone(r.edits),
		inputs:        slices.Clip(slices.Clone(r.inputs)),
		steps:         slices.Clip(slices.Clone(r.steps)),
		lastSeq:       r.lastSeq,
		Replays:       r.Replays,
		Restores:      r.Restores,
		ckpts:         slices.Clip(slices.Clone(r.ckpts)),
		ckMax:         r.ckMax,
		ckEvery:       r.ckEvery,
		ckLast:        r.ckLast,
		ckNodes:       r.ckNodes,
		CheckpointErr: r.CheckpointErr,
	}
	return n, nil
}
