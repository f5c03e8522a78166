package rollout_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/rollout"
)

var (
	stT0 = time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)
	stT1 = stT0.Add(time.Minute)
)

func stCond(t rollout.ConditionType, s meta.ConditionStatus, reason string, at time.Time) rollout.Condition {
	return rollout.Condition{Type: t, Status: s, Reason: reason, LastUpdateTime: at, LastTransitionTime: at}
}

func TestSetCondition(t *testing.T) {
	t.Parallel()
	avail := stCond(rollout.Available, meta.ConditionTrue, "A", stT0)
	prog := stCond(rollout.Progressing, meta.ConditionFalse, "P", stT0)
	tests := []struct {
		name string
		in   []rollout.Condition
		set  rollout.Condition
		want []rollout.Condition
	}{
		{"first", nil, avail, []rollout.Condition{avail}},
		{"same status and reason is a no-op", []rollout.Condition{avail, prog}, stCond(rollout.Available, meta.ConditionTrue, "A", stT1), []rollout.Condition{avail, prog}},
		{"new reason keeps transition time and moves last", []rollout.Condition{avail, prog}, stCond(rollout.Available, meta.ConditionTrue, "B", stT1),
			[]rollout.Condition{prog, {Type: rollout.Available, Status: meta.ConditionTrue, Reason: "B", LastUpdateTime: stT1, LastTransitionTime: stT0}}},
		{"new status transitions", []rollout.Condition{avail, prog}, stCond(rollout.Available, meta.ConditionFalse, "A", stT1), []rollout.Condition{prog, stCond(rollout.Available, meta.ConditionFalse, "A", stT1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := append([]rollout.Condition(nil), tt.in...)
			got := setCond(tt.in, tt.set)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SetCondition(%v, %v) (-want +got):\n%s", tt.in, tt.set, diff)
			}
			if diff := cmp.Diff(before, tt.in); diff != "" {
				t.Errorf("SetCondition modified its input (-before +after):\n%s", diff)
			}
		})
	}
}

func TestRemoveCondition(t *testing.T) {
	t.Parallel()
	avail := stCond(rollout.Available, meta.ConditionTrue, "A", stT0)
	prog := stCond(rollout.Progressing, meta.ConditionFalse, "P", stT0)
	if got := meta.Conditions([]rollout.Condition{avail, prog, avail}).Remove(rollout.Available); !cmp.Equal([]rollout.Condition(got), []rollout.Condition{prog}) {
		t.Errorf("RemoveCondition(Available) = %v; want [%v]", got, prog)
	}
	if got := meta.Conditions([]rollout.Condition{prog}).Remove(rollout.Progressing); got != nil {
		t.Errorf("RemoveCondition(only) = %v; want nil", got)
	}
}

func TestPausedCondition(t *testing.T) {
	t.Parallel()
	pds := int32(30)
	created := stCond(rollout.Progressing, meta.ConditionTrue, rollout.ReasonNewReplicaSetCreated, stT0)
	paused := stCond(rollout.Progressing, meta.ConditionUnknown, rollout.ReasonDeploymentPaused, stT0)
	failed := stCond(rollout.Progressing, meta.ConditionFalse, rollout.ReasonProgressDeadlineExceeded, stT0)
	tests := []struct {
		name       string
		paused     bool
		conds      []rollout.Condition
		wantReason string
		wantLTT    time.Time
		changed    bool
	}{
		{"pause", true, []rollout.Condition{created}, rollout.ReasonDeploymentPaused, stT1, true},
		{"resume keeps transition time", false, []rollout.Condition{paused}, rollout.ReasonDeploymentResumed, stT0, true},
		{"already paused", true, []rollout.Condition{paused}, rollout.ReasonDeploymentPaused, stT0, false},
		{"deadline exceeded is kept", true, []rollout.Condition{failed}, rollout.ReasonProgressDeadlineExceeded, stT0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := &rollout.Deployment{}
			d.Spec.ProgressDeadlineSeconds, d.Spec.Paused, d.Status.Conditions = &pds, tt.paused, tt.conds
			got, changed := rollout.PausedCondition(d, stT1)
			c, _ := meta.Conditions(got).Find(rollout.Progressing)
			if changed != tt.changed || c.Reason != tt.wantReason || !c.LastTransitionTime.Equal(tt.wantLTT) {
				t.Errorf("PausedCondition = %v, %v; want reason %s, LTT %v, changed %v", c, changed, tt.wantReason, tt.wantLTT, tt.changed)
			}
		})
	}
}

// setCond records c as the Deployment controller does (meta.Conditions.Set).
func setCond(cs []rollout.Condition, c rollout.Condition) []rollout.Condition {
	out, _ := meta.Conditions(cs).Set(c)
	return out
}
