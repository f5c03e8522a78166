package rollout_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func FuzzRollingBounds(f *testing.F)         { fuzzlimit.Rapid(f, checkRollingBounds) }
func FuzzProportionalConserves(f *testing.F) { fuzzlimit.Rapid(f, checkProportionalConserves) }
func FuzzStepTotal(f *testing.F)             { fuzzlimit.Rapid(f, checkStepTotal) }
func FuzzClaims(f *testing.F)                { fuzzlimit.Rapid(f, checkClaims) }

// FuzzFenceposts checks that Fenceposts never panics and fails only with a
// *field.Error.
func FuzzFenceposts(f *testing.F) {
	for _, s := range []string{"25%", "0%", "1", "oops", "-5%", "99999999999%"} {
		f.Add(s, "25%", int32(10))
	}
	f.Fuzz(func(t *testing.T, surge, unavailable string, replicas int32) {
		s, err := intstr.Parse(surge)
		if err != nil {
			s = intstr.String(surge)
		}
		u, err := intstr.Parse(unavailable)
		if err != nil {
			u = intstr.String(unavailable)
		}
		if _, _, err := rollout.Fenceposts(s, u, replicas); err != nil {
			var fe *field.Error
			if !errors.As(err, &fe) {
				t.Fatalf("Fenceposts error %v is not a *field.Error", err)
			}
		}
	})
}

// FuzzStep drives Step with fuzzed sizes and bounds: no panic, only
// *field.Error failures.
func FuzzStep(f *testing.F) {
	f.Add(int32(10), "3", "2", int32(8), int32(5), int32(8), uint8(0), false)
	f.Add(int32(5), "25%", "25%", int32(5), int32(0), int32(3), uint8(1), true)
	f.Fuzz(func(t *testing.T, replicas int32, surge, unavailable string, oldSize, newSize, available int32, strategy uint8, paused bool) {
		d := deploy(replicas, surge, unavailable)
		d.Spec.Paused = paused
		d.TemplateHash = "new"
		if strategy%3 == 1 {
			d.Spec.Strategy.Type = rollout.RecreateStrategy
		} else if strategy%3 == 2 {
			d.Spec.Strategy.Type = "Other"
		}
		o, n := rs("foo-old", oldSize, available, 0), rs("foo-new", newSize, available, 1)
		o.Spec.Template.Labels = map[string]string{rollout.HashLabel: "old"}
		n.Spec.Template.Labels = map[string]string{rollout.HashLabel: "new"}
		p, err := rollout.Step(d, []*replicaset.ReplicaSet{o, n}, nil, t0.Add(time.Hour), rollout.Options{})
		if err != nil {
			var fe *field.Error
			if !errors.As(err, &fe) {
				t.Fatalf("Step error %v is not a *field.Error", err)
			}
			return
		}
		_ = p.Apply([]*replicaset.ReplicaSet{o, n}, t0)
	})
}
