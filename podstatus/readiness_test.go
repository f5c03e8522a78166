package podstatus_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

var now = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// readyPod returns a pod whose Ready condition has the given status and
// changed ago before now; ago < 0 leaves the transition time zero.
func readyPod(status meta.ConditionStatus, ago time.Duration) *podstatus.Pod {
	c := podstatus.Condition{Type: podstatus.Ready, Status: status}
	if ago >= 0 {
		c.LastTransitionTime = now.Add(-ago)
	}
	return &podstatus.Pod{Status: podstatus.Status{Conditions: []podstatus.Condition{c}}}
}

func TestIsReady(t *testing.T) {
	t.Parallel()
	twoReady := &podstatus.Pod{Status: podstatus.Status{Conditions: []podstatus.Condition{
		{Type: podstatus.ContainersReady, Status: meta.ConditionTrue},
		{Type: podstatus.Ready, Status: meta.ConditionFalse},
		{Type: podstatus.Ready, Status: meta.ConditionTrue},
	}}}
	tests := []struct {
		name string
		pod  *podstatus.Pod
		want bool
	}{
		{"Ready True", readyPod(meta.ConditionTrue, 0), true},
		{"Ready False", readyPod(meta.ConditionFalse, 0), false},
		{"Ready Unknown", readyPod(meta.ConditionUnknown, 0), false},
		{"no conditions", &podstatus.Pod{}, false},
		{"first Ready condition decides", twoReady, false},
		{"nil pod", nil, false},
	}
	for _, tc := range tests {
		if got := podstatus.IsReady(tc.pod); got != tc.want {
			t.Errorf("IsReady(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
}

func TestReadyTime(t *testing.T) {
	t.Parallel()
	if got := podstatus.ReadyTime(readyPod(meta.ConditionTrue, 5*time.Second)); !got.Equal(now.Add(-5 * time.Second)) {
		t.Errorf("ReadyTime(ready 5s) = %v; want %v", got, now.Add(-5*time.Second))
	}
	if got := podstatus.ReadyTime(readyPod(meta.ConditionFalse, 5*time.Second)); !got.IsZero() {
		t.Errorf("ReadyTime(not ready) = %v; want zero", got)
	}
	if got := podstatus.ReadyTime(nil); !got.IsZero() {
		t.Errorf("ReadyTime(nil) = %v; want zero", got)
	}
}

func TestIsAvailable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		pod      *podstatus.Pod
		minReady int32
		want     bool
	}{
		// upstream TestIsPodAvailable, in order.
		{"not ready, min 0", readyPod(meta.ConditionFalse, 0), 0, false},
		{"just ready, min 1", readyPod(meta.ConditionTrue, 0), 1, false},
		{"zero transition time, min 1", readyPod(meta.ConditionTrue, -1), 1, false},
		{"just ready, min 0", readyPod(meta.ConditionTrue, 0), 0, true},
		{"ready 51s, min 50", readyPod(meta.ConditionTrue, 51*time.Second), 50, true},
		{"ready 51s, min 51: inclusive", readyPod(meta.ConditionTrue, 51*time.Second), 51, true},
		{"ready 51s, min 52", readyPod(meta.ConditionTrue, 51*time.Second), 52, false},
		// Pairs around the boundary.
		{"ready 10s-1ns, min 10", readyPod(meta.ConditionTrue, 10*time.Second-1), 10, false},
		{"ready 10s+1ns, min 10", readyPod(meta.ConditionTrue, 10*time.Second+1), 10, true},
		{"zero transition time, min 0", readyPod(meta.ConditionTrue, -1), 0, true},
		{"negative min, zero transition time", readyPod(meta.ConditionTrue, -1), -1, false},
		{"negative min, just ready", readyPod(meta.ConditionTrue, 0), -1, true},
		{"negative min, ready 2s in the future", readyPod(meta.ConditionTrue, -2*time.Second), -1, false},
		{"nil pod", nil, 0, false},
	}
	for _, tc := range tests {
		if got := podstatus.IsAvailable(tc.pod, tc.minReady, now); got != tc.want {
			t.Errorf("IsAvailable(%s, %d) = %v; want %v", tc.name, tc.minReady, got, tc.want)
		}
	}
}

// namedReady is upstream's testutil.NewPod: Ready True with a zero
// transition time, set ago before now when ready.
func namedReady(name string, ready bool, ago time.Duration) *podstatus.Pod {
	p := readyPod(meta.ConditionTrue, -1)
	p.Name = name
	if ready {
		p.Status.Conditions[0].LastTransitionTime = now.Add(-ago)
	} else {
		p.Status.Conditions[0].Status = meta.ConditionFalse
	}
	return p
}

func TestNextAvailabilityCheck(t *testing.T) {
	t.Parallel()
	mixed := []*podstatus.Pod{
		namedReady("pod1", false, 0), namedReady("pod2", true, 2*time.Second), namedReady("pod3", true, 0),
		namedReady("pod4", true, 4*time.Second), namedReady("pod5", false, 0),
	}
	tests := []struct {
		name     string
		pods     []*podstatus.Pod
		minReady int32
		want     time.Duration
		ok       bool
	}{
		// upstream TestNextPodAvailabilityCheck.
		{"not ready", []*podstatus.Pod{readyPod(meta.ConditionFalse, 0)}, 0, 0, false},
		{"no minReadySeconds", []*podstatus.Pod{readyPod(meta.ConditionTrue, 0)}, 0, 0, false},
		{"zero transition time", []*podstatus.Pod{readyPod(meta.ConditionTrue, -1)}, 1, 0, false},
		{"just ready", []*podstatus.Pod{readyPod(meta.ConditionTrue, 0)}, 1, time.Second, true},
		{"ready 20s of 30s", []*podstatus.Pod{readyPod(meta.ConditionTrue, 20*time.Second)}, 30, 10 * time.Second, true},
		{"available", []*podstatus.Pod{readyPod(meta.ConditionTrue, 51*time.Second)}, 50, 0, false},
		// upstream TestFindMinNextPodAvailabilitySimpleCheck.
		{"no pods", nil, 0, 0, false},
		{"mixed", mixed, 10, 6 * time.Second, true},
		{"unready and available", []*podstatus.Pod{
			namedReady("pod1", false, 0), namedReady("pod2", true, 15*time.Second), namedReady("pod3", true, 11*time.Second),
			namedReady("pod4", true, 10*time.Second), namedReady("pod5", false, 0),
		}, 10, 0, false},
		// kubesem: nil pods are skipped.
		{"nil pod skipped", []*podstatus.Pod{nil, readyPod(meta.ConditionTrue, 3*time.Second)}, 10, 7 * time.Second, true},
		{"negative min", []*podstatus.Pod{readyPod(meta.ConditionTrue, 0)}, -3, 0, false},
	}
	for _, tc := range tests {
		got, ok := podstatus.NextAvailabilityCheck(tc.pods, tc.minReady, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("NextAvailabilityCheck(%s, %d) = %v, %v; want %v, %v", tc.name, tc.minReady, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNextAvailabilityCheckSince(t *testing.T) {
	t.Parallel()
	mixed := []*podstatus.Pod{
		namedReady("pod1", false, 0), namedReady("pod2", true, 2*time.Second), namedReady("pod3", true, 0),
		namedReady("pod4", true, 4*time.Second), namedReady("pod5", false, 0),
	}
	tests := []struct {
		name  string
		delay time.Duration
		want  time.Duration
		ok    bool
	}{
		// upstream TestFindMinNextPodAvailability.
		{"status evaluated 2s ago", 2 * time.Second, 4 * time.Second, true},
		{"status evaluated 7s ago", 7 * time.Second, 0, true},
		// Same clock as TestFindMinNextPodAvailabilitySimpleCheck.
		{"same time", 0, 6 * time.Second, true},
		{"exactly at the check", 6 * time.Second, 0, true},
	}
	for _, tc := range tests {
		got, ok := podstatus.NextAvailabilityCheckSince(mixed, 10, now, now.Add(tc.delay))
		if got != tc.want || ok != tc.ok {
			t.Errorf("NextAvailabilityCheckSince(%s) = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	done := []*podstatus.Pod{namedReady("a", true, 2*time.Second), namedReady("b", true, 4*time.Second)}
	if got, ok := podstatus.NextAvailabilityCheckSince(done, 2, now, now.Add(-time.Hour)); ok {
		t.Errorf("NextAvailabilityCheckSince(all available at evaluation) = %v, true; want false", got)
	}
}
