package scenario

import (
	"errors"
	"testing"
)

// FuzzParse: Parse never panics, returns a *MalformedError or a scenario
// whose structure (Meta, Lesson, Invariants, Options) can be read.
func FuzzParse(f *testing.F) {
	f.Add([]byte(lessonSrc))
	f.Add([]byte(playLessonSrc))
	f.Add([]byte(exercise("kubectl get ds agent\nstdout '^agent\\s+3\\s'\nexpect ds/agent on all\n", "always ds/agent unavailable <= 1\n", "kubectl apply -f tolerant.yaml\nwait rollout ds/agent\n")))
	f.Add([]byte("cluster empty\ncluster seed 3\nnode add w-{1..3} --label a=b\nexpect node/w-1 taint a=b:NoSchedule\n! expect ds/x pods >= 1\nfile a b\n-- b --\nx\n"))
	f.Add([]byte("# kind: exercise\n## goal\nkubectl -n x get pods\n## solution\nk get ds\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse("f.txtar", data)
		if err != nil {
			var me *MalformedError
			if !errors.As(err, &me) {
				t.Fatalf("error %v is not a MalformedError", err)
			}
			return
		}
		sc.Meta()
		sc.Options()
		sc.Invariants()
		if ls := sc.Lesson(); len(ls) == 0 || ls[0].Title != "Setup" {
			t.Fatalf("Lesson() = %+v", ls)
		}
	})
}
