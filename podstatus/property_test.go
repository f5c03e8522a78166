package podstatus_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"pgregory.net/rapid"
)

// podGen draws pods with the fields the rules read: conditions (Ready
// first or not, any status, transition times around now or zero), phase,
// deletion timestamp, container statuses and the deletion-cost annotation.
func podGen() *rapid.Generator[*podstatus.Pod] {
	return rapid.Custom(func(t *rapid.T) *podstatus.Pod {
		p := &podstatus.Pod{}
		p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}).Draw(t, "phase")
		if rapid.Bool().Draw(t, "deleting") {
			ts := now.Add(-time.Duration(rapid.IntRange(0, 100).Draw(t, "deletedAgo")) * time.Second)
			p.DeletionTimestamp = &ts
		}
		n := rapid.IntRange(0, 3).Draw(t, "conditions")
		for range n {
			c := podstatus.Condition{
				Type:   rapid.SampledFrom([]podstatus.ConditionType{podstatus.Ready, podstatus.ContainersReady, podstatus.PodScheduled}).Draw(t, "type"),
				Status: rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown, ""}).Draw(t, "status"),
			}
			if !rapid.Bool().Draw(t, "zeroLTT") {
				ms := rapid.Int64Range(-120_000, 120_000).Draw(t, "lttOffsetMs")
				c.LastTransitionTime = now.Add(time.Duration(ms) * time.Millisecond)
			}
			p.Status.Conditions = append(p.Status.Conditions, c)
		}
		for i := range rapid.IntRange(0, 3).Draw(t, "containers") {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, podstatus.ContainerStatus{Name: "c" + strconv.Itoa(i), RestartCount: rapid.Int32().Draw(t, "restarts")})
		}
		if rapid.Bool().Draw(t, "annotated") {
			p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: rapid.OneOf(rapid.String(), rapid.Map(rapid.Int64(), func(n int64) string { return strconv.FormatInt(n, 10) })).Draw(t, "cost")}
		}
		return p
	})
}

func minReadyGen() *rapid.Generator[int32] {
	return rapid.OneOf(rapid.SampledFrom([]int32{0, 1, 10, 30, 51}), rapid.Int32Range(-5, 200))
}

// checkAvailableImpliesReady: an available pod is ready.
func checkAvailableImpliesReady(t *rapid.T) {
	p := podGen().Draw(t, "pod")
	m := minReadyGen().Draw(t, "minReadySeconds")
	if podstatus.IsAvailable(p, m, now) && !podstatus.IsReady(p) {
		t.Fatalf("IsAvailable = true but IsReady = false for %+v", p.Status.Conditions)
	}
}

func TestAvailableImpliesReady(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkAvailableImpliesReady)
}

// checkAvailableMonotone: once available, a pod stays available as now
// moves on.
func checkAvailableMonotone(t *rapid.T) {
	p := podGen().Draw(t, "pod")
	m := minReadyGen().Draw(t, "minReadySeconds")
	later := now.Add(time.Duration(rapid.Int64Range(0, int64(time.Hour)).Draw(t, "later")))
	if podstatus.IsAvailable(p, m, now) && !podstatus.IsAvailable(p, m, later) {
		t.Fatalf("available at %v but not at %v", now, later)
	}
}

func TestAvailableMonotone(t *testing.T) { t.Parallel(); rapid.Check(t, checkAvailableMonotone) }

// checkNextCheck: the delay is positive, nothing becomes available before
// it, and some pod becomes available exactly at it; without a delay no pod
// ever changes.
func checkNextCheck(t *rapid.T) {
	pods := rapid.SliceOfN(podGen(), 0, 6).Draw(t, "pods")
	m := minReadyGen().Draw(t, "minReadySeconds")
	d, ok := podstatus.NextAvailabilityCheck(pods, m, now)
	if !ok {
		far := now.Add(1000 * time.Hour)
		for i, p := range pods {
			if m > 0 && podstatus.IsAvailable(p, m, now) != podstatus.IsAvailable(p, m, far) {
				t.Fatalf("no check but pods[%d] becomes available later", i)
			}
		}
		return
	}
	if d <= 0 {
		t.Fatalf("NextAvailabilityCheck = %v; want > 0", d)
	}
	changed := false
	for i, p := range pods {
		before := podstatus.IsAvailable(p, m, now.Add(d-1))
		if before != podstatus.IsAvailable(p, m, now) {
			t.Fatalf("pods[%d] becomes available before the check at %v", i, d)
		}
		if podstatus.IsAvailable(p, m, now.Add(d)) != before {
			changed = true
		}
	}
	if !changed {
		t.Fatalf("no pod becomes available at the check %v", d)
	}
	if d2, ok2 := podstatus.NextAvailabilityCheckSince(pods, m, now, now); d2 != d || !ok2 {
		t.Fatalf("NextAvailabilityCheckSince(now, now) = %v, %v; want %v, true", d2, ok2, d)
	}
}

func TestNextCheck(t *testing.T) { t.Parallel(); rapid.Check(t, checkNextCheck) }

// checkLifecyclePartition: every pod is exactly one of active, terminating
// and terminal.
func checkLifecyclePartition(t *rapid.T) {
	p := podGen().Draw(t, "pod")
	n := 0
	for _, b := range []bool{podstatus.IsActive(p), podstatus.IsTerminating(p), podstatus.IsTerminal(p)} {
		if b {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("phase %q deleting %v: %d of active/terminating/terminal; want 1", p.Status.Phase, p.DeletionTimestamp != nil, n)
	}
}

func TestLifecyclePartition(t *testing.T) { t.Parallel(); rapid.Check(t, checkLifecyclePartition) }

// checkDeletionCost: every int32 written in decimal is its own cost; an
// invalid annotation costs 0; a valid one is what strconv reads.
func checkDeletionCost(t *rapid.T) {
	n := rapid.Int32().Draw(t, "n")
	p := &podstatus.Pod{}
	p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: strconv.Itoa(int(n))}
	if cost, valid := podstatus.DeletionCost(p); cost != n || !valid {
		t.Fatalf("DeletionCost(%d) = %d, %v", n, cost, valid)
	}
	q := podGen().Draw(t, "pod")
	cost, valid := podstatus.DeletionCost(q)
	s, annotated := q.Annotations[podstatus.DeletionCostAnnotation]
	switch {
	case !annotated && (cost != 0 || !valid):
		t.Fatalf("DeletionCost(no annotation) = %d, %v", cost, valid)
	case !valid && cost != 0:
		t.Fatalf("DeletionCost(%q) = %d, false; want 0", s, cost)
	case annotated && valid:
		if got, err := strconv.ParseInt(s, 10, 32); err != nil || int32(got) != cost {
			t.Fatalf("DeletionCost(%q) = %d; strconv reads %d, %v", s, cost, got, err)
		}
	}
}

func TestDeletionCostProperty(t *testing.T) { t.Parallel(); rapid.Check(t, checkDeletionCost) }

// checkMaxRestarts: the regular maximum bounds every container's count and
// is 0 or one of them.
func checkMaxRestarts(t *rapid.T) {
	p := podGen().Draw(t, "pod")
	r, s := podstatus.MaxRestarts(p)
	found := r == 0
	for _, c := range p.Status.ContainerStatuses {
		if c.RestartCount > r {
			t.Fatalf("MaxRestarts = %d < %d", r, c.RestartCount)
		}
		found = found || c.RestartCount == r
	}
	if !found || s != 0 {
		t.Fatalf("MaxRestarts = %d, %d; not a container's count, or a sidecar without init containers", r, s)
	}
}

func TestMaxRestartsProperty(t *testing.T) { t.Parallel(); rapid.Check(t, checkMaxRestarts) }
