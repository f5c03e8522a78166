package pdb_test

import (
	"context"
	"fmt"
	"testing"

	policyv1 "k8s.io/api/policy/v1"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/pdb"
)

// BenchmarkGrowth (issue 24, how cost grows): pdb.Step against the
// disruption controller's sync of one budget (its listers filled, its
// status writes to a no-op updater) over n pods of four ReplicaSets, every
// tenth not Ready, maxUnavailable 10% (benchCluster). The budget's status
// is empty, so both write it on every sync; they must agree on it
// (expected pods, desired and current healthy, disruptions allowed).
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "pdb", func(b *testing.B, n int) *difftest.GrowthCase {
		up, ups, urs, kb, kps, kcs := benchCluster(n)
		ctx := context.Background()
		dc, written := newBenchDisruption(b, up, ups, urs)
		var p pdb.Plan
		status := func(write bool, expected, desired, current, allowed int32) string {
			return fmt.Sprintf("status write %v: expected=%d desired=%d current=%d allowed=%d", write, expected, desired, current, allowed)
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op: func() (err error) { p, err = pdb.Step(kb, kps, kcs, syncNow, pdb.Options{}); return err },
				Outcome: func() string {
					s := p.Status
					return status(p.UpdateStatus, s.ExpectedPods, s.DesiredHealthy, s.CurrentHealthy, s.DisruptionsAllowed)
				},
			},
			Upstream: difftest.GrowthSide{
				Op: func() error { *written = nil; return difftest.DisruptionSync(dc, ctx, "default/b") },
				Outcome: func() string {
					w := *written
					if w == nil {
						w = &policyv1.PodDisruptionBudget{Status: up.Status}
					}
					s := w.Status
					return status(*written != nil, s.ExpectedPods, s.DesiredHealthy, s.CurrentHealthy, s.DisruptionsAllowed)
				},
			},
			Close: func() { difftest.Stop(dc) },
		}
	})
}
