package engine

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestCloneCoversEveryType walks the types reachable from Simulation
// (every field, exported or not, of every component) and fails on a kind
// the checkpoint copy refuses (func, chan, unsafe.Pointer, uintptr): a
// component that gains such a field must make it copyable or the timeline
// must stop using checkpoints. Interface fields are checked at run time
// by the copy (TestTimelineReplayIsIdentical with checkpoints).
func TestCloneCoversEveryType(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var bad []string
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		if seen[ty] || ty == locationType {
			return
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Uintptr:
			bad = append(bad, path+" ("+ty.String()+")")
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(ty.Elem(), path+"[]")
		case reflect.Map:
			walk(ty.Key(), path+"[key]")
			walk(ty.Elem(), path+"[]")
		case reflect.Struct:
			for i := 0; i < ty.NumField(); i++ {
				f := ty.Field(i)
				walk(f.Type, path+"."+f.Name)
			}
		}
	}
	walk(reflect.TypeOf(Simulation{}), "Simulation")
	if len(bad) > 0 {
		t.Errorf("fields the timeline checkpoints cannot copy:\n%s", strings.Join(bad, "\n"))
	}
	if len(seen) < 50 {
		t.Errorf("walked only %d types: the walk is broken", len(seen))
	}
}

// TestCloneIsIndependent: a clone shows the same cluster, writes to it do
// not reach the original (no shared pod, map or slice), and the original
// and a fresh clone given the same actions stay byte-identical.
func TestCloneIsIndependent(t *testing.T) {
	r := NewRecorder(Options{})
	tlScript(t, r, func() {})
	s := r.Live()
	before := stateOf(s)
	c, err := s.clone()
	if err != nil {
		t.Fatal(err)
	}
	if got := stateOf(c); got != before {
		t.Fatalf("clone differs:\n%s", firstDiff(before, got))
	}
	c.Run("kubectl set image ds/web nginx=nginx:9")
	c.Run("kubectl label node node-2 a=b")
	c.Run("kubectl delete pods --all --wait=false")
	c.Advance(time.Minute)
	if got := stateOf(s); got != before {
		t.Fatalf("writes to the clone reached the original:\n%s", firstDiff(before, got))
	}
	c2, err := s.clone()
	if err != nil {
		t.Fatal(err)
	}
	for _, sim := range []*Simulation{s, c2} {
		sim.Run("kubectl set image ds/web nginx=nginx:9")
		sim.Run("kubectl cordon node-2")
		sim.Advance(90 * time.Second)
	}
	if a, b := stateOf(s), stateOf(c2); a != b {
		t.Fatalf("original and clone diverged:\n%s", firstDiff(a, b))
	}
}
