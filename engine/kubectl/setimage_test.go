package kubectl

import (
	"testing"

	"github.com/dsplayground/dsplay/engine/api"
	"github.com/dsplayground/dsplay/engine/cluster"
)

// addSidecar gives the fixture DaemonSet a second container and an init
// container, so that `set image` has several names to find.
func addSidecar(c *cluster.Cluster) {
	ds := c.DaemonSet("default", "fluentd")
	ds.Spec.Template.Spec.Containers = append(ds.Spec.Template.Spec.Containers, api.Container{Name: "reloader", Image: "reloader:v1"})
	ds.Spec.Template.Spec.InitContainers = []api.Container{{Name: "init", Image: "busybox:1.36"}}
	_ = c.UpdateDaemonSet(ds)
}

// TestSetImageGolden is the transcript of kubectl set image: success,
// "*", several pairs, an unknown container, an unchanged template (no
// output, no write), dry runs, -o name and the usage errors of
// SetImageOptions.Validate and cmdutil.GetResourcesAndPairs.
func TestSetImageGolden(t *testing.T) {
	c := fixture()
	addSidecar(c)
	env := testEnv(c, nil)
	checkGolden(t, "set_image", transcript(env, []string{
		"kubectl set image ds/fluentd fluentd=fluentd:v1.17",
		"kubectl set image ds/fluentd fluentd=fluentd:v1.17",
		"kubectl set image daemonset fluentd fluentd=fluentd:v1.18 reloader=reloader:v2",
		"kubectl set image ds/fluentd nope=x:1",
		"kubectl set image ds/fluentd fluentd=fluentd:v1.19 nope=x:1",
		"kubectl set image ds/fluentd *=fluentd:v2",
		"kubectl set image ds/fluentd init=busybox:1.37 --dry-run=client",
		"kubectl set image ds/fluentd init=busybox:1.37 --dry-run=server -o name",
		"kubectl set image ds/fluentd init=busybox:1.37 -o name",
		"kubectl set image ds/fluentd init=busybox:1.38 --record",
		"kubectl get ds fluentd -o jsonpath='{.metadata.annotations.kubernetes\\.io/change-cause}'",
		"kubectl set image ds/fluentd init=busybox:1.38 -n default",
		"kubectl get ds fluentd -o jsonpath='{.metadata.annotations.kubernetes\\.io/change-cause}'",
		"kubectl set image ds/fluentd init=busybox:1.39 --record=false",
		"kubectl get ds fluentd -o jsonpath='{.metadata.annotations.kubernetes\\.io/change-cause}'",
		"kubectl set image ds/fluentd *=a:1 fluentd=b:2",
		"kubectl set image ds/fluentd",
		"kubectl set image fluentd=x:1",
		"kubectl set image ds/fluentd fluentd=x:1 ds/other",
		"kubectl set image ds/nope fluentd=x:1",
		"kubectl set image pod/fluentd-7xkq2 fluentd=x:1",
		"kubectl set env ds/fluentd A=1",
		"kubectl set",
	}))
}

// TestSetImageWrites checks what set image stores: the images, and the
// template generation and generation bumped once per real change.
func TestSetImageWrites(t *testing.T) {
	for _, tc := range []struct {
		line       string
		images     []string // fluentd, reloader, init
		generation int64
	}{
		{"kubectl set image ds/fluentd fluentd=fluentd:v2", []string{"fluentd:v2", "reloader:v1", "busybox:1.36"}, 2},
		{"kubectl set image ds/fluentd fluentd=fluentd:v1.16", []string{"fluentd:v1.16", "reloader:v1", "busybox:1.36"}, 1},
		{"kubectl set image ds/fluentd *=x:1", []string{"x:1", "x:1", "x:1"}, 2},
		{"kubectl set image ds/fluentd reloader=r:2 init=i:2", []string{"fluentd:v1.16", "r:2", "i:2"}, 2},
		{"kubectl set image ds/fluentd reloader=r:2 nope=i:2", []string{"fluentd:v1.16", "r:2", "busybox:1.36"}, 2},
		{"kubectl set image ds/fluentd reloader=r:2 --dry-run=client", []string{"fluentd:v1.16", "reloader:v1", "busybox:1.36"}, 1},
	} {
		t.Run(tc.line, func(t *testing.T) {
			c := fixture()
			addSidecar(c)
			gen0 := c.DaemonSet("default", "fluentd").Generation
			args, err := ParseCommandLine(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			Run(testEnv(c, nil), args)
			ds := c.DaemonSet("default", "fluentd")
			s := ds.Spec.Template.Spec
			got := []string{s.Containers[0].Image, s.Containers[1].Image, s.InitContainers[0].Image}
			for i := range got {
				if got[i] != tc.images[i] {
					t.Fatalf("images %v, want %v", got, tc.images)
				}
			}
			if ds.Generation-gen0+1 != tc.generation {
				t.Errorf("generation moved by %d, want %d", ds.Generation-gen0, tc.generation-1)
			}
			if want := tc.generation > 1; want != (ds.Annotations[api.DeprecatedTemplateGenerationAnnotation] != "" && ds.Generation != gen0) {
				t.Errorf("template generation annotation %q", ds.Annotations[api.DeprecatedTemplateGenerationAnnotation])
			}
		})
	}
}

// TestRolloutStatusBoundGolden: without --timeout, a watch on a rollout
// that does not move gives up after RolloutStuckAfter with kubectl's
// timeout error and a note saying why.
func TestRolloutStatusBoundGolden(t *testing.T) {
	c := fixture()
	rolloutSetup(c)
	env := testEnv(c, nil)
	start := c.Now()
	got := transcript(env, []string{"kubectl rollout status ds/fluentd"})
	checkGolden(t, "rollout_status_bound", got)
	if waited := c.Now().Sub(start); waited != RolloutStuckAfter {
		t.Errorf("waited %s of virtual time, want %s", waited, RolloutStuckAfter)
	}
}

// TestSetImageChangeCause: --record writes the command line into
// kubernetes.io/change-cause; without --record an existing change-cause is
// rewritten (ChangeCauseUpdateRecorder), never created; --record=false
// leaves it alone.
func TestSetImageChangeCause(t *testing.T) {
	for _, tc := range []struct {
		existing, line, want string
	}{
		{"", "kubectl set image ds/fluentd fluentd=f:2", ""},
		{"", "kubectl set image ds/fluentd fluentd=f:2 --record", "kubectl set image ds/fluentd fluentd=f:2 --record=true"},
		{"old", "kubectl set image ds/fluentd fluentd=f:2", "kubectl set image ds/fluentd fluentd=f:2"},
		{"old", "kubectl -n default set image ds/fluentd fluentd=f:2", "kubectl set image ds/fluentd fluentd=f:2 --namespace=default"},
		{"old", "kubectl set image ds/fluentd fluentd=f:2 --record=false", "old"},
		{"old", "kubectl set image ds/fluentd fluentd=f:2 --dry-run=client", "old"},
	} {
		t.Run(tc.line, func(t *testing.T) {
			c := fixture()
			ds := c.DaemonSet("default", "fluentd")
			if tc.existing != "" {
				ds.Annotations = map[string]string{api.ChangeCauseAnnotation: tc.existing}
				_ = c.UpdateDaemonSet(ds)
			}
			args, err := ParseCommandLine(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			if r := Run(testEnv(c, nil), args); r.ExitCode != 0 {
				t.Fatalf("exit %d: %s", r.ExitCode, r.Stderr)
			}
			if got := c.DaemonSet("default", "fluentd").Annotations[api.ChangeCauseAnnotation]; got != tc.want {
				t.Errorf("change-cause %q, want %q", got, tc.want)
			}
		})
	}
}
