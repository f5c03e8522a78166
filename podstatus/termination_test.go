package podstatus_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func i64(v int64) *int64 { return &v }

func TestDisruptionCondition(t *testing.T) {
	t.Parallel()
	c := podstatus.DisruptionCondition(podstatus.ReasonDeletionByPodGC, "orphaned", now)
	want := podstatus.Condition{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue, Reason: podstatus.ReasonDeletionByPodGC, Message: "orphaned", LastTransitionTime: now}
	if c != want {
		t.Errorf("DisruptionCondition = %+v; want %+v", c, want)
	}
}

func TestGracefulDelete(t *testing.T) {
	t.Parallel()
	scheduled := func(grace *int64) *podstatus.Pod {
		p := &podstatus.Pod{}
		p.Spec.NodeName, p.Spec.TerminationGracePeriodSeconds, p.Status.Phase = "n1", grace, podstatus.Running
		return p
	}
	terminating := func(at time.Time, grace *int64) *podstatus.Pod {
		p := scheduled(i64(30))
		p.DeletionTimestamp, p.DeletionGracePeriodSeconds = &at, grace
		return p
	}
	unscheduled := scheduled(i64(30))
	unscheduled.Spec.NodeName = ""
	succeeded := scheduled(i64(30))
	succeeded.Status.Phase = podstatus.Succeeded
	sec := time.Second
	tests := []struct {
		name      string
		pod       *podstatus.Pod
		requested *int64
		outcome   podstatus.DeleteOutcome
		grace     int64
		at        time.Time
	}{
		{"spec grace", scheduled(i64(30)), nil, podstatus.DeleteGraceful, 30, now.Add(30 * sec)},
		{"no spec grace: 0, at once", scheduled(nil), nil, podstatus.DeleteImmediately, 0, now},
		{"requested grace", scheduled(i64(30)), i64(5), podstatus.DeleteGraceful, 5, now.Add(5 * sec)},
		{"requested 0: force", scheduled(i64(30)), i64(0), podstatus.DeleteImmediately, 0, now},
		{"requested negative: 1", scheduled(i64(30)), i64(-7), podstatus.DeleteGraceful, 1, now.Add(sec)},
		{"spec grace negative: 1", scheduled(i64(-3)), nil, podstatus.DeleteGraceful, 1, now.Add(sec)},
		{"unscheduled: at once", unscheduled, i64(30), podstatus.DeleteImmediately, 0, now},
		{"terminal: at once", succeeded, nil, podstatus.DeleteImmediately, 0, now},
		{"terminating, longer request: pending", terminating(now.Add(20*sec), i64(30)), i64(60), podstatus.DeletePending, 30, now.Add(20 * sec)},
		{"terminating, same request: pending", terminating(now.Add(20*sec), i64(30)), i64(30), podstatus.DeletePending, 30, now.Add(20 * sec)},
		{"terminating, no request: pending", terminating(now.Add(20*sec), i64(30)), nil, podstatus.DeletePending, 30, now.Add(20 * sec)},
		{"terminating, negative old grace counts as 1", terminating(now.Add(20*sec), i64(-5)), i64(2), podstatus.DeletePending, 1, now.Add(20 * sec)},
		{"terminating, shorter request: moved earlier", terminating(now.Add(20*sec), i64(30)), i64(25), podstatus.DeleteShortened, 25, now.Add(15 * sec)},
		{"terminating, shorter request before now: now, grace 1", terminating(now.Add(20*sec), i64(30)), i64(5), podstatus.DeleteShortened, 1, now},
		{"terminating, request 0: now, grace 0", terminating(now.Add(20*sec), i64(30)), i64(0), podstatus.DeleteShortened, 0, now},
		{"terminating with grace 0: at once", terminating(now.Add(-sec), i64(0)), i64(10), podstatus.DeleteImmediately, 0, now.Add(-sec)},
		{"terminating without grace: at once", terminating(now.Add(-sec), nil), nil, podstatus.DeleteImmediately, 0, now.Add(-sec)},
		{"nil pod", nil, nil, podstatus.DeleteImmediately, 0, time.Time{}},
	}
	for _, tc := range tests {
		d := podstatus.GracefulDelete(tc.pod, tc.requested, now)
		if d.Outcome != tc.outcome || d.GracePeriodSeconds != tc.grace || !d.DeletionTimestamp.Equal(tc.at) {
			t.Errorf("GracefulDelete(%s) = %+v; want %s, %d, %v", tc.name, d, tc.outcome, tc.grace, tc.at)
		}
	}
}

func TestKillGracePeriod(t *testing.T) {
	t.Parallel()
	p := &podstatus.Pod{}
	if got := podstatus.KillGracePeriod(p, nil); got != podstatus.MinimumKillGracePeriodSeconds {
		t.Errorf("KillGracePeriod(empty) = %d; want 2", got)
	}
	p.Spec.TerminationGracePeriodSeconds = i64(30)
	if got := podstatus.KillGracePeriod(p, nil); got != 30 {
		t.Errorf("KillGracePeriod(spec 30) = %d; want 30", got)
	}
	p.DeletionGracePeriodSeconds = i64(10)
	if got := podstatus.KillGracePeriod(p, nil); got != 10 {
		t.Errorf("KillGracePeriod(deletion 10, spec 30) = %d; want 10", got)
	}
	if got := podstatus.KillGracePeriod(p, i64(0)); got != 0 {
		t.Errorf("KillGracePeriod(override 0) = %d; want 0", got)
	}
	if got := podstatus.KillGracePeriod(nil, nil); got != 2 {
		t.Errorf("KillGracePeriod(nil) = %d; want 2", got)
	}
}

func TestPlanKill(t *testing.T) {
	t.Parallel()
	sec := time.Second
	d := func(v time.Duration) *time.Duration { return &v }
	tests := []struct {
		name                   string
		grace                  int64
		preStop                *time.Duration
		hook, sigterm, sigkill time.Duration
	}{
		{"no hook", 30, nil, 0, 0, 30 * sec},
		{"hook within grace", 30, d(5 * sec), 5 * sec, 5 * sec, 30 * sec},
		{"hook of 5.9s: whole seconds subtracted", 30, d(5900 * time.Millisecond), 5900 * time.Millisecond, 5900 * time.Millisecond, 5900*time.Millisecond + 25*sec},
		{"hook over-runs grace: cut, 2s more", 10, d(time.Minute), 10 * sec, 10 * sec, 12 * sec},
		{"hook leaves 1s: at least 2s", 10, d(9 * sec), 9 * sec, 9 * sec, 11 * sec},
		{"grace 0 skips the hook", 0, d(5 * sec), 0, 0, 2 * sec},
		{"grace 1, no hook: 2s", 1, nil, 0, 0, 2 * sec},
		{"negative hook: 0", 30, d(-sec), 0, 0, 30 * sec},
		{"huge grace saturates", math.MaxInt64, nil, 0, 0, math.MaxInt64},
	}
	for _, tc := range tests {
		k := podstatus.PlanKill(tc.grace, tc.preStop)
		if k.PreStop != tc.hook || k.SIGTERM != tc.sigterm || k.SIGKILL != tc.sigkill {
			t.Errorf("PlanKill(%s) = %+v; want %v, %v, %v", tc.name, k, tc.hook, tc.sigterm, tc.sigkill)
		}
	}
}

func TestValidateUpdate(t *testing.T) {
	t.Parallel()
	base := func() *podstatus.Pod {
		p := &podstatus.Pod{}
		p.Spec.Containers = []podstatus.Container{{Name: "a", Image: "img:1"}}
		p.Spec.InitContainers = []podstatus.Container{{Name: "i", Image: "init:1"}}
		p.Spec.ActiveDeadlineSeconds = i64(100)
		p.Spec.TerminationGracePeriodSeconds = i64(-5)
		p.Spec.Tolerations = []podstatus.Toleration{{Key: "k", Operator: "Exists", Effect: "NoExecute", TolerationSeconds: i64(10)}}
		return p
	}
	edit := func(f func(p *podstatus.Pod)) *podstatus.Pod { p := base(); f(p); return p }
	tests := []struct {
		name string
		new  *podstatus.Pod
		path string // "" when allowed
		err  error
	}{
		{"unchanged", base(), "", nil},
		{"new image", edit(func(p *podstatus.Pod) { p.Spec.Containers[0].Image = "img:2" }), "", nil},
		{"new init image", edit(func(p *podstatus.Pod) { p.Spec.InitContainers[0].Image = "init:2" }), "", nil},
		{"deadline lowered", edit(func(p *podstatus.Pod) { p.Spec.ActiveDeadlineSeconds = i64(99) }), "", nil},
		{"deadline kept", edit(func(p *podstatus.Pod) { p.Spec.ActiveDeadlineSeconds = i64(100) }), "", nil},
		{"toleration seconds changed", edit(func(p *podstatus.Pod) { p.Spec.Tolerations[0].TolerationSeconds = i64(20) }), "", nil},
		{"toleration added", edit(func(p *podstatus.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, podstatus.Toleration{Key: "x", Operator: "Exists"})
		}), "", nil},
		{"negative grace to 1: no change", edit(func(p *podstatus.Pod) { p.Spec.TerminationGracePeriodSeconds = i64(1) }), "", nil},
		{"negative grace to -1: no change", edit(func(p *podstatus.Pod) { p.Spec.TerminationGracePeriodSeconds = i64(-1) }), "", nil},
		{"container added", edit(func(p *podstatus.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, podstatus.Container{Name: "b", Image: "x"})
		}), "spec.containers", field.ErrForbidden},
		{"init container removed", edit(func(p *podstatus.Pod) { p.Spec.InitContainers = nil }), "spec.initContainers", field.ErrForbidden},
		{"image emptied", edit(func(p *podstatus.Pod) { p.Spec.Containers[0].Image = "" }), "spec.containers[0].image", field.ErrRequired},
		{"image with a space", edit(func(p *podstatus.Pod) { p.Spec.Containers[0].Image = "img:2 " }), "spec.containers[0].image", field.ErrInvalid},
		{"deadline raised", edit(func(p *podstatus.Pod) { p.Spec.ActiveDeadlineSeconds = i64(101) }), "spec.activeDeadlineSeconds", field.ErrInvalid},
		{"deadline removed", edit(func(p *podstatus.Pod) { p.Spec.ActiveDeadlineSeconds = nil }), "spec.activeDeadlineSeconds", field.ErrInvalid},
		{"deadline 0", edit(func(p *podstatus.Pod) { p.Spec.ActiveDeadlineSeconds = i64(0) }), "spec.activeDeadlineSeconds", field.ErrOverflow},
		{"toleration removed", edit(func(p *podstatus.Pod) { p.Spec.Tolerations = nil }), "spec.tolerations", field.ErrForbidden},
		{"container renamed", edit(func(p *podstatus.Pod) { p.Spec.Containers[0].Name = "b" }), "spec", field.ErrForbidden},
		{"node name set", edit(func(p *podstatus.Pod) { p.Spec.NodeName = "n1" }), "spec", field.ErrForbidden},
		{"grace changed", edit(func(p *podstatus.Pod) { p.Spec.TerminationGracePeriodSeconds = i64(2) }), "spec", field.ErrForbidden},
	}
	old := base()
	for _, tc := range tests {
		err := podstatus.ValidateUpdate(old, tc.new)
		if tc.path == "" {
			if err != nil {
				t.Errorf("ValidateUpdate(%s) = %v; want nil", tc.name, err)
			}
			continue
		}
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != tc.path || !errors.Is(err, tc.err) {
			t.Errorf("ValidateUpdate(%s) = %v; want %v at %s", tc.name, err, tc.err, tc.path)
		}
	}
	// A deadline may be set where there was none.
	noDeadline := base()
	noDeadline.Spec.ActiveDeadlineSeconds = nil
	if err := podstatus.ValidateUpdate(noDeadline, base()); err != nil {
		t.Errorf("ValidateUpdate(deadline set) = %v; want nil", err)
	}
	if err := podstatus.ValidateUpdate(nil, base()); !errors.Is(err, field.ErrRequired) {
		t.Errorf("ValidateUpdate(nil old) = %v; want Required", err)
	}
}
