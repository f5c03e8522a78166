package rollout_test

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/rollout"
)

func TestFenceposts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		surge, unavailable string
		replicas           int32
		wantS, wantU       int32
		wantPath           string
	}{
		{"25%", "25%", 3, 1, 0, ""},  // seed 000:L1983: 3..4 pods
		{"25%", "25%", 4, 1, 1, ""},  // 3..5 pods
		{"39%", "39%", 10, 4, 3, ""}, // surge up, unavailable down
		{"0%", "0%", 0, 0, 1, ""},    // both zero → unavailable 1 (#22516)
		{"0%", "1%", 2, 0, 1, ""},    // 1% of 2 floors to 0: fencepost
		{"1%", "1%", 2, 1, 0, ""},    // surge 1 → no fencepost
		{"5", "150%", 10, 5, 15, ""}, // not capped here
		{"oops", "1", 10, 0, 0, "spec.strategy.rollingUpdate.maxSurge"},
		{"1", "urg", 10, 0, 0, "spec.strategy.rollingUpdate.maxUnavailable"},
	} {
		s, u := intstr.String(c.surge), intstr.String(c.unavailable)
		if v, err := intstr.Parse(c.surge); err == nil {
			s = v
		}
		if v, err := intstr.Parse(c.unavailable); err == nil {
			u = v
		}
		gs, gu, err := rollout.Fenceposts(s, u, c.replicas)
		if c.wantPath != "" {
			var fe *field.Error
			if !errors.As(err, &fe) || fe.Path != c.wantPath || !errors.Is(err, field.ErrInvalid) {
				t.Errorf("Fenceposts(%s, %s, %d) error = %v; want Invalid at %s", c.surge, c.unavailable, c.replicas, err, c.wantPath)
			}
			continue
		}
		if err != nil || gs != c.wantS || gu != c.wantU {
			t.Errorf("Fenceposts(%s, %s, %d) = %d, %d, %v; want %d, %d", c.surge, c.unavailable, c.replicas, gs, gu, err, c.wantS, c.wantU)
		}
	}
}

func TestBounds(t *testing.T) {
	t.Parallel()
	recreate := deploy(10, "", "")
	recreate.Spec.Strategy.Type = rollout.RecreateStrategy
	unset := deploy(10, "", "")
	unset.Spec.Strategy.RollingUpdate = nil
	for _, c := range []struct {
		name                         string
		d                            *rollout.Deployment
		maxSurge, maxUnavail, minAvl int32
	}{
		{"defaults 25%", unset, 3, 2, 8},
		{"capped at replicas", deploy(5, "1", "10"), 1, 5, 0},
		{"zero replicas", deploy(0, "1", "10"), 1, 0, 0},
		{"recreate", recreate, 0, 0, 0},
		{"30% keeps 70%", deploy(10, "30%", "30%"), 3, 3, 7},
		{"invalid counts as 0", deploy(10, "x", "2"), 0, 0, 10},
	} {
		if g := c.d.MaxSurge(); g != c.maxSurge {
			t.Errorf("%s: MaxSurge = %d; want %d", c.name, g, c.maxSurge)
		}
		if g := c.d.MaxUnavailable(); g != c.maxUnavail {
			t.Errorf("%s: MaxUnavailable = %d; want %d", c.name, g, c.maxUnavail)
		}
		if g := c.d.MinAvailable(); g != c.minAvl {
			t.Errorf("%s: MinAvailable = %d; want %d", c.name, g, c.minAvl)
		}
		if s, u, m := c.d.Bounds(); s != c.maxSurge || u != c.maxUnavail || m != c.minAvl {
			t.Errorf("%s: Bounds = %d, %d, %d; want %d, %d, %d", c.name, s, u, m, c.maxSurge, c.maxUnavail, c.minAvl)
		}
	}
}
