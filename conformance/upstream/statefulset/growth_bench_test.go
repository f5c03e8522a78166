package statefulset_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	upsts "k8s.io/kubernetes/pkg/controller/statefulset"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/statefulset"
)

// BenchmarkGrowth (issue 24, how cost grows): statefulset.Step against
// the StatefulSet control's UpdateStatefulSet (what the controller's sync
// calls with the set's pods once it has listed and claimed them, as in
// BenchmarkStatefulSetSync) over n pods (benchInput): every pod Running
// and Ready at web-v1, the template at web-v2, OrderedReady with a rolling
// update; one sync walks every pod, deletes the highest ordinal to
// replace it and writes the status. Upstream runs on the harness's fakes
// (newFake: pods, revisions and claims in maps; writes recorded, not
// applied), its recorded writes cleared before each sync. Both must
// create and delete the same number of pods and agree whether to write the
// status.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "statefulset", func(b *testing.B, n int) *difftest.GrowthCase {
		c, _ := caseFromVector(benchInput(n))
		var p statefulset.Plan
		f := &newFake{pods: map[string]*v1.Pod{}, claims: c.upClaims, revs: c.upRevs}
		for _, q := range c.upPods {
			f.pods[q.Name] = q
		}
		ctl := upsts.NewDefaultStatefulSetControl(upsts.NewStatefulPodControlFromManager(f, &record.FakeRecorder{}), f, f)
		pods := slices.Clone(c.upPods)
		outcome := func(creates, deletes int, status bool) string {
			return fmt.Sprintf("creates=%d deletes=%d status write %v", creates, deletes, status)
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op: func() (err error) {
					p, err = statefulset.Step(c.set, c.pods, c.revs, c.claims, t0, statefulset.Options{})
					return err
				},
				Outcome: func() string { return outcome(len(p.Create.Objects), len(p.Delete), p.UpdateStatus) },
			},
			Upstream: difftest.GrowthSide{
				Op: func() error {
					f.created, f.newPods, f.deleted, f.deletedP, f.updated, f.updatedP = f.created[:0], f.newPods[:0], f.deleted[:0], f.deletedP[:0], f.updated[:0], f.updatedP[:0]
					f.claimW, f.revW, f.acts, f.status, f.createdN = f.claimW[:0], f.revW[:0], f.acts[:0], nil, nil
					_, err := ctl.UpdateStatefulSet(context.Background(), c.upSet, pods, t0)
					return err
				},
				Outcome: func() string { return outcome(len(f.created), len(f.deleted), f.status != nil) },
			},
		}
	})
}
