package pdb_test

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

func deleting(p *podstatus.Pod) *podstatus.Pod {
	t := now.Add(-time.Second)
	p.DeletionTimestamp = &t
	return p
}

func TestDisruptedPods(t *testing.T) {
	t.Parallel()
	timeout := pdb.DefaultDeletionTimeout
	pods := []*podstatus.Pod{
		readyPod("c", true, nil), readyPod("a", true, nil), readyPod("b", true, nil),
		deleting(readyPod("gone", true, nil)), readyPod("late", true, nil),
	}
	old := map[string]time.Time{
		"a":     now.Add(-timeout),                   // expires exactly now: kept
		"b":     now.Add(-timeout + time.Nanosecond), // kept, expires 1ns later
		"c":     now.Add(-timeout - time.Nanosecond), // expired: NotDeleted
		"late":  now.Add(-timeout - time.Hour),       // expired: NotDeleted
		"gone":  now,                                 // being deleted: dropped silently
		"ghost": now,                                 // no such pod: dropped silently
	}
	kept, recheck, notDeleted := pdb.DisruptedPods(old, pods, now, pdb.Options{})
	want := map[string]time.Time{"a": old["a"], "b": old["b"]}
	if !maps.Equal(kept, want) {
		t.Errorf("DisruptedPods kept = %v; want %v", kept, want)
	}
	if !recheck.Equal(now) {
		t.Errorf("DisruptedPods recheck = %v; want %v (the earliest expiry)", recheck, now)
	}
	if !slices.Equal(notDeleted, []string{"c", "late"}) {
		t.Errorf("DisruptedPods notDeleted = %v; want [c late] (sorted)", notDeleted)
	}
	if _, _, nd := pdb.DisruptedPods(old, slices.Clone(pods[:3]), now, pdb.Options{}); !slices.Equal(nd, []string{"c"}) {
		t.Errorf("DisruptedPods(three pods) notDeleted = %v; want [c]", nd)
	}
	// Nil memory: nothing kept, no recheck; a non-nil empty map is returned.
	kept, recheck, notDeleted = pdb.DisruptedPods(nil, pods, now, pdb.Options{})
	if kept == nil || len(kept) != 0 || !recheck.IsZero() || notDeleted != nil {
		t.Errorf("DisruptedPods(nil) = %v, %v, %v; want {}, zero, nil", kept, recheck, notDeleted)
	}
	// The timeout option moves the expiry.
	kept, recheck, _ = pdb.DisruptedPods(map[string]time.Time{"a": now.Add(-5 * time.Minute)}, pods, now, pdb.Options{DeletionTimeout: 10 * time.Minute})
	if len(kept) != 1 || !recheck.Equal(now.Add(5*time.Minute)) {
		t.Errorf("DisruptedPods(timeout 10m) = %v, %v; want a kept, recheck in 5m", kept, recheck)
	}
}

func TestIsHealthy(t *testing.T) {
	t.Parallel()
	timeout := pdb.DefaultDeletionTimeout
	tests := []struct {
		name      string
		pod       *podstatus.Pod
		disrupted map[string]time.Time
		want      bool
	}{
		{"ready", readyPod("a", true, nil), nil, true},
		{"not ready", readyPod("a", false, nil), nil, false},
		{"ready, being deleted", deleting(readyPod("a", true, nil)), nil, false},
		{"ready, disrupted a nanosecond short of the timeout", readyPod("a", true, nil), map[string]time.Time{"a": now.Add(-timeout + time.Nanosecond)}, false},
		{"ready, disrupted exactly the timeout ago", readyPod("a", true, nil), map[string]time.Time{"a": now.Add(-timeout)}, true},
		{"ready, another pod disrupted", readyPod("a", true, nil), map[string]time.Time{"b": now}, true},
		{"nil pod", nil, nil, false},
	}
	for _, tc := range tests {
		if got := pdb.IsHealthy(tc.pod, tc.disrupted, now, pdb.Options{}); got != tc.want {
			t.Errorf("IsHealthy(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
	// A longer timeout keeps a pod unhealthy longer.
	if pdb.IsHealthy(readyPod("a", true, nil), map[string]time.Time{"a": now.Add(-timeout)}, now, pdb.Options{DeletionTimeout: timeout + time.Nanosecond}) {
		t.Errorf("IsHealthy(timeout+1ns) = true; want false")
	}
}

func TestCurrentHealthy(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{readyPod("a", true, nil), readyPod("b", false, nil), nil, readyPod("c", true, nil), deleting(readyPod("d", true, nil))}
	if got := pdb.CurrentHealthy(pods, map[string]time.Time{"c": now}, now, pdb.Options{}); got != 1 {
		t.Errorf("CurrentHealthy = %d; want 1", got)
	}
	if got := pdb.CurrentHealthy(nil, nil, now, pdb.Options{}); got != 0 {
		t.Errorf("CurrentHealthy(nil) = %d; want 0", got)
	}
}

func TestDisruptionsAllowed(t *testing.T) {
	t.Parallel()
	tests := []struct{ current, desired, expected, want int32 }{
		{5, 4, 5, 1},
		{4, 4, 5, 0},
		{3, 4, 5, 0},
		{5, 0, 5, 5},
		{5, 4, 0, 0},  // no expected pods: nothing allowed
		{5, 4, -1, 0}, // negative expected (wrapped sums upstream)
		{1, -2147483648, 1, 2147483647},
		{2147483647, -2147483648, 1, 2147483647}, // saturates, never wraps
		{-5, -3, 1, 0},
	}
	for _, tc := range tests {
		if got := pdb.DisruptionsAllowed(tc.current, tc.desired, tc.expected); got != tc.want {
			t.Errorf("DisruptionsAllowed(%d, %d, %d) = %d; want %d", tc.current, tc.desired, tc.expected, got, tc.want)
		}
	}
}

func TestAllowedCondition(t *testing.T) {
	t.Parallel()
	tests := []struct {
		allowed int32
		status  meta.ConditionStatus
		reason  pdb.Reason
	}{
		{1, meta.ConditionTrue, pdb.ReasonSufficientPods},
		{0, meta.ConditionFalse, pdb.ReasonInsufficientPods},
		{-1, meta.ConditionFalse, pdb.ReasonInsufficientPods},
	}
	for _, tc := range tests {
		c := pdb.AllowedCondition(tc.allowed)
		if c.Type != pdb.DisruptionAllowed || c.Status != tc.status || c.Reason != string(tc.reason) || c.Message != "" || !c.LastTransitionTime.IsZero() {
			t.Errorf("AllowedCondition(%d) = %+v; want %s/%s", tc.allowed, c, tc.status, tc.reason)
		}
	}
}

func TestConditionsUpToDate(t *testing.T) {
	t.Parallel()
	mk := func(gen, observed int64, allowed int32, conds ...meta.Condition) *pdb.PodDisruptionBudget {
		b := budget(ptr(intstr.Int(1)), nil)
		b.Generation = gen
		b.Status.ObservedGeneration, b.Status.DisruptionsAllowed, b.Status.Conditions = observed, allowed, conds
		return b
	}
	sufficient := meta.Condition{Type: pdb.DisruptionAllowed, Status: meta.ConditionTrue, Reason: "SufficientPods"}
	insufficient := meta.Condition{Type: pdb.DisruptionAllowed, Status: meta.ConditionFalse, Reason: "InsufficientPods"}
	failed := meta.Condition{Type: pdb.DisruptionAllowed, Status: meta.ConditionFalse, Reason: "SyncFailed"}
	tests := []struct {
		name string
		b    *pdb.PodDisruptionBudget
		want bool
	}{
		{"allowed, sufficient", mk(1, 1, 1, sufficient), true},
		{"none allowed, insufficient", mk(1, 1, 0, insufficient), true},
		{"allowed, insufficient", mk(1, 1, 1, insufficient), false},
		{"none allowed, sufficient", mk(1, 1, 0, sufficient), false},
		{"none allowed, SyncFailed", mk(1, 1, 0, failed), false},
		{"generation not observed", mk(2, 1, 1, sufficient), false},
		{"no condition", mk(1, 1, 1), false},
		{"other condition only", mk(1, 1, 1, meta.Condition{Type: "Other", Status: meta.ConditionTrue, Reason: "SufficientPods"}), false},
	}
	for _, tc := range tests {
		if got := pdb.ConditionsUpToDate(tc.b); got != tc.want {
			t.Errorf("ConditionsUpToDate(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
}

func targetPod(status meta.ConditionStatus, reason string, since time.Time) *podstatus.Pod {
	p := readyPod("a", true, nil)
	p.Status.Conditions = append(p.Status.Conditions, podstatus.Condition{Type: podstatus.DisruptionTarget, Status: status, Reason: reason, LastTransitionTime: since})
	return p
}

func TestStaleDisruptionTarget(t *testing.T) {
	t.Parallel()
	timeout := pdb.DefaultStalePodDisruptionTimeout
	terminal := func(phase podstatus.Phase) *podstatus.Pod {
		p := targetPod(meta.ConditionTrue, podstatus.ReasonEvictionByEvictionAPI, now.Add(-time.Hour))
		p.Status.Phase = phase
		return p
	}
	tests := []struct {
		name  string
		pod   *podstatus.Pod
		stale bool
		after time.Duration
	}{
		{"exactly the timeout old: reset now", targetPod(meta.ConditionTrue, podstatus.ReasonEvictionByEvictionAPI, now.Add(-timeout)), true, 0},
		{"a nanosecond past the timeout: reset now", targetPod(meta.ConditionTrue, podstatus.ReasonEvictionByEvictionAPI, now.Add(-timeout-time.Nanosecond)), true, 0},
		{"a nanosecond short of the timeout: 1ns to wait", targetPod(meta.ConditionTrue, podstatus.ReasonEvictionByEvictionAPI, now.Add(-timeout+time.Nanosecond)), true, time.Nanosecond},
		{"set now: the whole timeout to wait", targetPod(meta.ConditionTrue, podstatus.ReasonDeletionByPodGC, now), true, timeout},
		{"set in the future: more than the timeout", targetPod(meta.ConditionTrue, podstatus.ReasonDeletionByPodGC, now.Add(time.Second)), true, timeout + time.Second},
		{"status False", targetPod(meta.ConditionFalse, podstatus.ReasonEvictionByEvictionAPI, now.Add(-time.Hour)), false, 0},
		{"reason TerminationByKubelet", targetPod(meta.ConditionTrue, podstatus.ReasonTerminationByKubelet, now.Add(-time.Hour)), false, 0},
		{"being deleted", deleting(targetPod(meta.ConditionTrue, podstatus.ReasonEvictionByEvictionAPI, now.Add(-time.Hour))), false, 0},
		{"Succeeded", terminal(podstatus.Succeeded), false, 0},
		{"Failed", terminal(podstatus.Failed), false, 0},
		{"Pending", terminal(podstatus.Pending), true, 0},
		{"no condition", readyPod("a", true, nil), false, 0},
		{"nil pod", nil, false, 0},
	}
	for _, tc := range tests {
		stale, after := pdb.StaleDisruptionTarget(tc.pod, now, pdb.Options{})
		if stale != tc.stale || after != tc.after {
			t.Errorf("StaleDisruptionTarget(%s) = %v, %v; want %v, %v", tc.name, stale, after, tc.stale, tc.after)
		}
	}
	p := targetPod(meta.ConditionTrue, podstatus.ReasonEvictionByEvictionAPI, now.Add(-timeout))
	if stale, after := pdb.StaleDisruptionTarget(p, now, pdb.Options{StalePodDisruptionTimeout: timeout + time.Minute}); !stale || after != time.Minute {
		t.Errorf("StaleDisruptionTarget(timeout option +1m) = %v, %v; want true, 1m", stale, after)
	}
}
