package daemonset

import (
	"testing"
)

func TestStrategyDefaults(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Spec.UpdateStrategy = UpdateStrategy{}
	st := ds.Spec.strategy()
	if st.Type != RollingUpdate || st.RollingUpdate.MaxUnavailable.String() != "1" || st.RollingUpdate.MaxSurge.String() != "0" {
		t.Errorf("strategy() = %+v", st)
	}
	if ds.Spec.UpdateStrategy.RollingUpdate != nil || ds.Spec.UpdateStrategy.Type != "" {
		t.Error("strategy() modified the spec")
	}
	ds.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete}
	if st := ds.Spec.strategy(); st.RollingUpdate != nil {
		t.Errorf("OnDelete gains a rollingUpdate: %+v", st)
	}
	ds.Spec.UpdateStrategy = UpdateStrategy{Type: RollingUpdate, RollingUpdate: &RollingParams{MaxSurge: iv(2)}}
	if st := ds.Spec.strategy(); st.RollingUpdate.MaxSurge.String() != "2" || st.RollingUpdate.MaxUnavailable.String() != "1" || ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable != nil {
		t.Errorf("strategy() = %+v, spec %+v", st.RollingUpdate, ds.Spec.UpdateStrategy.RollingUpdate)
	}
}
