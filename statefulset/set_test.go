package statefulset

import (
	"testing"

	"github.com/kubesem/kubesem/intstr"
)

func TestSetDefaults(t *testing.T) {
	t.Parallel()
	var s StatefulSet
	if s.Replicas() != 1 || s.Start() != 0 || s.Policy() != OrderedReady || s.HistoryLimit() != 10 || s.Strategy() != RollingUpdate {
		t.Errorf("defaults: replicas %d start %d policy %s history %d strategy %s", s.Replicas(), s.Start(), s.Policy(), s.HistoryLimit(), s.Strategy())
	}
	if r := s.Retention(); r.WhenDeleted != Retain || r.WhenScaled != Retain {
		t.Errorf("retention %+v", r)
	}
	s.Spec.Replicas, s.Spec.RevisionHistoryLimit = i32(0), i32(0)
	s.Spec.Ordinals = &OrdinalsSpec{Start: 7}
	s.Spec.PodManagementPolicy = Parallel
	s.Spec.UpdateStrategy.Type = OnDelete
	if s.Replicas() != 0 || s.Start() != 7 || s.Policy() != Parallel || s.HistoryLimit() != 0 || s.Strategy() != OnDelete {
		t.Errorf("set values: replicas %d start %d policy %s history %d strategy %s", s.Replicas(), s.Start(), s.Policy(), s.HistoryLimit(), s.Strategy())
	}
	s.Spec.PersistentVolumeClaimRetentionPolicy = &RetentionPolicy{WhenScaled: Delete}
	if r := s.Retention(); r.WhenDeleted != Retain || r.WhenScaled != Delete {
		t.Errorf("retention %+v", r)
	}
}

// TestUpdateStrategyDefaulted: SetDefaults_StatefulSet's rules, shape by
// shape.
func TestUpdateStrategyDefaulted(t *testing.T) {
	t.Parallel()
	mu := intstr.Percent(50)
	for _, c := range []struct {
		name          string
		in            UpdateStrategy
		gate          bool
		typ           UpdateStrategyType
		block         bool
		partition     int32
		maxUnavailble string // "" when unset
	}{
		{"absent", UpdateStrategy{}, false, RollingUpdate, true, 0, ""},
		{"absent, gate on", UpdateStrategy{}, true, RollingUpdate, true, 0, "1"},
		{"empty type, block with partition", UpdateStrategy{RollingUpdate: &RollingUpdateStrategy{Partition: i32(3)}}, false, RollingUpdate, true, 3, ""},
		{"empty type, block with maxUnavailable, gate on", UpdateStrategy{RollingUpdate: &RollingUpdateStrategy{MaxUnavailable: &mu}}, true, RollingUpdate, true, 0, "50%"},
		{"RollingUpdate without block", UpdateStrategy{Type: RollingUpdate}, true, RollingUpdate, false, 0, ""},
		{"RollingUpdate with empty block", UpdateStrategy{Type: RollingUpdate, RollingUpdate: &RollingUpdateStrategy{}}, false, RollingUpdate, true, 0, ""},
		{"RollingUpdate with empty block, gate on", UpdateStrategy{Type: RollingUpdate, RollingUpdate: &RollingUpdateStrategy{}}, true, RollingUpdate, true, 0, "1"},
		{"OnDelete", UpdateStrategy{Type: OnDelete}, true, OnDelete, false, 0, ""},
		{"OnDelete with a block (API-invalid) is left alone", UpdateStrategy{Type: OnDelete, RollingUpdate: &RollingUpdateStrategy{}}, true, OnDelete, true, -1, ""},
	} {
		in := c.in
		var before *RollingUpdateStrategy
		if in.RollingUpdate != nil {
			b := *in.RollingUpdate
			before = &b
		}
		got := in.Defaulted(Options{MaxUnavailableStatefulSet: c.gate})
		if got.Type != c.typ || (got.RollingUpdate != nil) != c.block {
			t.Errorf("%s: type %s, block %v; want %s, %v", c.name, got.Type, got.RollingUpdate != nil, c.typ, c.block)
			continue
		}
		if ru := got.RollingUpdate; ru != nil {
			switch {
			case c.partition < 0 && ru.Partition != nil:
				t.Errorf("%s: partition %d; want unset", c.name, *ru.Partition)
			case c.partition >= 0 && (ru.Partition == nil || *ru.Partition != c.partition):
				t.Errorf("%s: partition %v; want %d", c.name, ru.Partition, c.partition)
			}
			m := ""
			if ru.MaxUnavailable != nil {
				m = ru.MaxUnavailable.String()
			}
			if m != c.maxUnavailble {
				t.Errorf("%s: maxUnavailable %q; want %q", c.name, m, c.maxUnavailble)
			}
		}
		// The input is not modified.
		if in.RollingUpdate != nil && *in.RollingUpdate != *before || c.in.Type != in.Type {
			t.Errorf("%s: input modified: %+v", c.name, in.RollingUpdate)
		}
		if c.in.RollingUpdate == nil && in.RollingUpdate != nil {
			t.Errorf("%s: input given a block", c.name)
		}
	}
}

func TestPartition(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		u    UpdateStrategy
		p    int32
		ok   bool
	}{
		{"absent: partition 0 after defaulting", UpdateStrategy{}, 0, true},
		{"RollingUpdate without block", UpdateStrategy{Type: RollingUpdate}, 0, false},
		{"RollingUpdate, partition 4", UpdateStrategy{Type: RollingUpdate, RollingUpdate: &RollingUpdateStrategy{Partition: i32(4)}}, 4, true},
		{"empty type, partition 2", UpdateStrategy{RollingUpdate: &RollingUpdateStrategy{Partition: i32(2)}}, 2, true},
		{"OnDelete", UpdateStrategy{Type: OnDelete}, 0, false},
	} {
		s := StatefulSet{Spec: Spec{UpdateStrategy: c.u}}
		if p, ok := s.Partition(); p != c.p || ok != c.ok {
			t.Errorf("%s: Partition() = %d, %v; want %d, %v", c.name, p, ok, c.p, c.ok)
		}
	}
}
