package cluster

import (
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
)

func priorityClassObject(name string, value int64, globalDefault bool, policy string) *api.GenericObject {
	f := map[string]any{"value": value}
	if globalDefault {
		f["globalDefault"] = true
	}
	if policy != "" {
		f["preemptionPolicy"] = policy
	}
	return &api.GenericObject{TypeMeta: api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
		ObjectMeta: api.ObjectMeta{Name: name}, Fields: f, Group: "scheduling.k8s.io", Resource: "priorityclasses"}
}

// TestAdmitPodPriorityClasses: the Priority admission resolves applied
// PriorityClass objects beside the built-in ones, and a globalDefault
// class for pods that name none (admitPod, getDefaultPriorityClass).
func TestAdmitPodPriorityClasses(t *testing.T) {
	tests := []struct {
		name       string
		classes    []*api.GenericObject
		className  string
		wantErr    string
		wantClass  string
		wantPrio   int32
		wantPolicy string
	}{
		{name: "no class", wantPrio: 0, wantPolicy: "PreemptLowerPriority"},
		{name: "built-in", className: "system-node-critical", wantClass: "system-node-critical", wantPrio: SystemNodeCritical, wantPolicy: "PreemptLowerPriority"},
		{name: "applied class", classes: []*api.GenericObject{priorityClassObject("high", 1000, false, "Never")},
			className: "high", wantClass: "high", wantPrio: 1000, wantPolicy: "Never"},
		{name: "missing class", className: "nope", wantErr: `pods "p" is forbidden: no PriorityClass with name nope was found`},
		{name: "global default", classes: []*api.GenericObject{priorityClassObject("low", 10, true, ""), priorityClassObject("lower", 5, true, "")},
			wantClass: "low", wantPrio: 10, wantPolicy: "PreemptLowerPriority"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(1)
			for _, pc := range tt.classes {
				if err := c.CreateGenericObject(pc); err != nil {
					t.Fatal(err)
				}
			}
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}}
			p.Spec.PriorityClassName = tt.className
			err := c.AdmitPodPriority(p)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Spec.PriorityClassName != tt.wantClass || *p.Spec.Priority != tt.wantPrio || *p.Spec.PreemptionPolicy != tt.wantPolicy {
				t.Errorf("class %q priority %d policy %s", p.Spec.PriorityClassName, *p.Spec.Priority, *p.Spec.PreemptionPolicy)
			}
		})
	}
}

// TestGenericStore: created with metadata filled, cluster-scoped kinds
// without a namespace, AlreadyExists and NotFound as the API server says.
func TestGenericStore(t *testing.T) {
	c := New(1)
	pc := priorityClassObject("high", 1, false, "")
	if err := c.CreateGenericObject(pc); err != nil || pc.UID == "" || pc.ResourceVersion == "" || pc.Namespace != "" {
		t.Fatalf("create: %v %+v", err, pc.ObjectMeta)
	}
	if err := c.CreateGenericObject(priorityClassObject("high", 2, false, "")); err == nil || err.Error() != `priorityclasses.scheduling.k8s.io "high" already exists` {
		t.Errorf("second create: %v", err)
	}
	if got := c.GenericObjects(PriorityClassGroupResource); len(got) != 1 || got[0] != pc {
		t.Errorf("list %v", got)
	}
	if err := c.DeleteGenericObject(PriorityClassGroupResource, "", "high"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteGenericObject(PriorityClassGroupResource, "", "high"); err == nil || err.Error() != `priorityclasses.scheduling.k8s.io "high" not found` {
		t.Errorf("second delete: %v", err)
	}
}
