package daemonset

import (
	"math"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// Budget is the rolling update's allowance for a number of nodes.
type Budget struct {
	MaxUnavailable int32 `json:"maxUnavailable"`
	MaxSurge       int32 `json:"maxSurge"`
}

// SurgeCount returns maxSurge scaled against desired nodes, a percentage
// rounded up; 0 unless the strategy is RollingUpdate. The strategy is read
// as apps/v1 defaulting leaves it: an empty type is RollingUpdate, a
// missing maxSurge 0.
//
// Source: upstream pkg/controller/daemon/util SurgeCount;
// pkg/apis/apps/v1 SetDefaults_DaemonSet (v1.36.3).
func SurgeCount(ds *DaemonSet, desired int32) (int32, error) {
	s := ds.Spec.strategy()
	if s.Type != RollingUpdate {
		return 0, nil
	}
	n, err := intstr.ScaledInt(*s.RollingUpdate.MaxSurge, desired, intstr.Up)
	if err != nil {
		return 0, field.Under("spec.updateStrategy.rollingUpdate.maxSurge", err)
	}
	return saturate(n), nil
}

// UnavailableCount returns maxUnavailable scaled against desired nodes, a
// percentage rounded up (a Deployment rounds down); 0 unless the strategy
// is RollingUpdate. The strategy is read as apps/v1 defaulting leaves it:
// an empty type is RollingUpdate, a missing rollingUpdate or
// maxUnavailable 1.
//
// Source: upstream pkg/controller/daemon/util UnavailableCount;
// pkg/apis/apps/v1 SetDefaults_DaemonSet (v1.36.3).
func UnavailableCount(ds *DaemonSet, desired int32) (int32, error) {
	s := ds.Spec.strategy()
	if s.Type != RollingUpdate {
		return 0, nil
	}
	n, err := intstr.ScaledInt(*s.RollingUpdate.MaxUnavailable, desired, intstr.Up)
	if err != nil {
		return 0, field.Under("spec.updateStrategy.rollingUpdate.maxUnavailable", err)
	}
	return saturate(n), nil
}

// AllowsSurge reports whether ds may run two pods on a node during an
// update: SurgeCount of 1 node is positive.
//
// Source: upstream pkg/controller/daemon/util AllowsSurge (v1.36.3).
func AllowsSurge(ds *DaemonSet) bool {
	n, err := SurgeCount(ds, 1)
	return err == nil && n > 0
}

// UnavailableNumbers returns the rolling update's budget over desired
// nodes: [UnavailableCount] and [SurgeCount], and when desired > 0 and
// both are 0, maxUnavailable 1.
//
// Source: upstream pkg/controller/daemon updatedDesiredNodeCounts
// (v1.36.3); TestGetUnavailableNumbers.
func UnavailableNumbers(ds *DaemonSet, desired int32) (Budget, error) {
	u, err := UnavailableCount(ds, desired)
	if err != nil {
		return Budget{}, err
	}
	s, err := SurgeCount(ds, desired)
	if err != nil {
		return Budget{}, err
	}
	if desired > 0 && u == 0 && s == 0 {
		u = 1
	}
	return Budget{MaxUnavailable: u, MaxSurge: s}, nil
}

// saturate converts an untruncated count to int32, saturating: upstream
// keeps it as a Go int, and every comparison it enters is against counts
// of nodes, which a saturated value orders the same way.
func saturate(n int64) int32 {
	switch {
	case n > math.MaxInt32:
		return math.MaxInt32
	case n < math.MinInt32:
		return math.MinInt32
	}
	return int32(n)
}
