package api

import "testing"

func TestToleratesTaint(t *testing.T) {
	taint := Taint{Key: "dedicated", Value: "user1", Effect: TaintEffectNoSchedule}
	cases := []struct {
		name string
		tol  Toleration
		want bool
	}{
		{"Equal same value", Toleration{Key: "dedicated", Operator: "Equal", Value: "user1", Effect: "NoSchedule"}, true},
		{"empty operator means Equal", Toleration{Key: "dedicated", Value: "user1", Effect: "NoSchedule"}, true},
		{"Equal other value", Toleration{Key: "dedicated", Operator: "Equal", Value: "user2", Effect: "NoSchedule"}, false},
		{"Exists any value", Toleration{Key: "dedicated", Operator: "Exists", Effect: "NoSchedule"}, true},
		{"empty effect matches all effects", Toleration{Key: "dedicated", Operator: "Exists"}, true},
		{"other effect", Toleration{Key: "dedicated", Operator: "Exists", Effect: "NoExecute"}, false},
		{"other key", Toleration{Key: "gpu", Operator: "Exists", Effect: "NoSchedule"}, false},
		{"empty key with Exists tolerates everything", Toleration{Operator: "Exists"}, true},
		{"Equal with empty value does not match a valued taint", Toleration{Key: "dedicated", Operator: "Equal", Effect: "NoSchedule"}, false},
		{"unknown operator", Toleration{Key: "dedicated", Operator: "Like", Value: "user1"}, false},
	}
	for _, tc := range cases {
		if got := tc.tol.ToleratesTaint(&taint); got != tc.want {
			t.Errorf("%s: ToleratesTaint = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Equal with empty values on both sides
	noValue := Taint{Key: "node-role.kubernetes.io/control-plane", Effect: TaintEffectNoSchedule}
	if !(&Toleration{Key: noValue.Key, Operator: "Equal", Effect: "NoSchedule"}).ToleratesTaint(&noValue) {
		t.Error("empty == empty should match")
	}
}

func TestComparisonOperatorsGated(t *testing.T) {
	taint := Taint{Key: "level", Value: "5", Effect: TaintEffectNoSchedule}
	lt := Toleration{Key: "level", Operator: TolerationOpLt, Value: "10", Effect: "NoSchedule"}
	gt := Toleration{Key: "level", Operator: TolerationOpGt, Value: "3", Effect: "NoSchedule"}
	if lt.ToleratesTaint(&taint) || gt.ToleratesTaint(&taint) {
		t.Error("Lt/Gt must not match while the feature gate is off")
	}
	TaintTolerationComparisonOperators = true
	defer func() { TaintTolerationComparisonOperators = false }()
	if !lt.ToleratesTaint(&taint) || !gt.ToleratesTaint(&taint) {
		t.Error("Lt/Gt should match with the gate on (5 < 10, 5 > 3)")
	}
	bad := Taint{Key: "level", Value: "five", Effect: TaintEffectNoSchedule}
	if lt.ToleratesTaint(&bad) {
		t.Error("non-integer taint value must not match")
	}
}

func TestFindMatchingUntoleratedTaint(t *testing.T) {
	taints := []Taint{
		{Key: "soft", Effect: TaintEffectPreferNoSchedule},
		{Key: "a", Effect: TaintEffectNoSchedule},
		{Key: "b", Effect: TaintEffectNoExecute},
	}
	tols := []Toleration{{Key: "a", Operator: "Exists"}}
	got, ok := FindMatchingUntoleratedTaint(taints, tols, DoNotScheduleTaintsFilter)
	if !ok || got.Key != "b" {
		t.Errorf("got %v %v, want taint b", got, ok)
	}
	got, ok = FindMatchingUntoleratedTaint(taints, nil, nil)
	if !ok || got.Key != "soft" {
		t.Errorf("without filter got %v, want soft", got)
	}
	if _, ok := FindMatchingUntoleratedTaint(taints, []Toleration{{Operator: "Exists"}}, nil); ok {
		t.Error("wildcard toleration should tolerate all")
	}
}

func TestAddOrUpdateTolerationInPodSpec(t *testing.T) {
	secs := int64(60)
	spec := PodSpec{Tolerations: []Toleration{
		{Key: TaintNodeNotReady, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs},
		{Key: "user", Operator: "Exists"},
	}}
	def := Toleration{Key: TaintNodeNotReady, Operator: "Exists", Effect: "NoExecute"}
	if !AddOrUpdateTolerationInPodSpec(&spec, &def) {
		t.Fatal("should report a change")
	}
	if len(spec.Tolerations) != 2 || spec.Tolerations[0].TolerationSeconds != nil {
		t.Errorf("user toleration with seconds not replaced: %+v", spec.Tolerations)
	}
	if AddOrUpdateTolerationInPodSpec(&spec, &def) {
		t.Error("second add should change nothing")
	}
	other := Toleration{Key: "x", Operator: "Equal", Value: "1", Effect: "NoSchedule"}
	AddOrUpdateTolerationInPodSpec(&spec, &other)
	if len(spec.Tolerations) != 3 || spec.Tolerations[2].Key != "x" {
		t.Errorf("not appended: %+v", spec.Tolerations)
	}
}

func TestAddDefaultTolerationSeconds(t *testing.T) {
	var spec PodSpec
	AddDefaultTolerationSeconds(&spec)
	if len(spec.Tolerations) != 2 || *spec.Tolerations[0].TolerationSeconds != 300 || spec.Tolerations[1].Key != TaintNodeUnreachable {
		t.Fatalf("tolerations = %+v", spec.Tolerations)
	}
	spec = PodSpec{Tolerations: []Toleration{{Operator: "Exists"}}}
	AddDefaultTolerationSeconds(&spec)
	if len(spec.Tolerations) != 1 {
		t.Errorf("a pod tolerating everything gets no defaults: %+v", spec.Tolerations)
	}
}

func TestTaintAndTolerationStrings(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{(&Taint{Key: "k", Value: "v", Effect: "NoSchedule"}).ToString(), "k=v:NoSchedule"},
		{(&Taint{Key: "k", Effect: "NoExecute"}).ToString(), "k:NoExecute"},
		{(&Toleration{Key: "k", Operator: "Exists", Effect: "NoSchedule"}).String(), "k:NoSchedule op=Exists"},
		{(&Toleration{Key: "k", Operator: "Equal", Value: "v"}).String(), "k=v"},
		{(&Toleration{Operator: "Exists"}).String(), "op=Exists"},
		{(&Toleration{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: Int64Ptr(300)}).String(), "k:NoExecute op=Exists for 300s"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestGetPodQOS(t *testing.T) {
	q := func(s string) Quantity { return MustParseQuantity(s) }
	cases := []struct {
		name string
		res  ResourceRequirements
		want string
	}{
		{"none", ResourceRequirements{}, PodQOSBestEffort},
		{"requests only", ResourceRequirements{Requests: ResourceList{"cpu": q("100m")}}, PodQOSBurstable},
		{"limits equal requests", ResourceRequirements{Requests: ResourceList{"cpu": q("100m"), "memory": q("64Mi")}, Limits: ResourceList{"cpu": q("100m"), "memory": q("64Mi")}}, PodQOSGuaranteed},
		{"limits only", ResourceRequirements{Limits: ResourceList{"cpu": q("1"), "memory": q("1Gi")}}, PodQOSGuaranteed},
		{"limits differ", ResourceRequirements{Requests: ResourceList{"cpu": q("100m"), "memory": q("64Mi")}, Limits: ResourceList{"cpu": q("200m"), "memory": q("64Mi")}}, PodQOSBurstable},
		// a zero limit is not a limit: upstream finds no cpu limit
		{"zero cpu limit", ResourceRequirements{Limits: ResourceList{"cpu": q("0"), "memory": q("1Gi")}}, PodQOSBurstable},
	}
	for _, tc := range cases {
		spec := PodSpec{Containers: []Container{{Name: "c", Resources: tc.res}}}
		if got := GetPodQOS(&spec); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// requests and limits are compared as sums over all containers
	// (ComputePodQOS), so per-container differences that cancel out still
	// make the pod Guaranteed; a container without limits never does.
	c := func(reqCPU, limCPU string) Container {
		return Container{Resources: ResourceRequirements{
			Requests: ResourceList{"cpu": q(reqCPU), "memory": q("64Mi")},
			Limits:   ResourceList{"cpu": q(limCPU), "memory": q("64Mi")}}}
	}
	if got := GetPodQOS(&PodSpec{Containers: []Container{c("100m", "200m"), c("200m", "100m")}}); got != PodQOSGuaranteed {
		t.Errorf("sums equal: %s, want Guaranteed", got)
	}
	if got := GetPodQOS(&PodSpec{Containers: []Container{c("100m", "100m")}, InitContainers: []Container{{}}}); got != PodQOSBurstable {
		t.Errorf("init container without limits: %s, want Burstable", got)
	}
}
