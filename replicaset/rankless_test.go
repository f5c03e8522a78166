package replicaset_test

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// This file checks RankForDeletion against upstream's comparator, spelled
// out below as ActivePodsWithRanks.Less reads (v1.36.3), and sorted with
// sort.SliceStable. Upstream's comparator is a strict weak order when no
// two pods hold the same non-zero time for a rule (see
// podstatus.RankForDeletion), so the pods drawn here have times of their
// own, or zero ones, and UIDs of their own; everything else ties often.

// upstreamLess is ActivePodsWithRanks.Less with the PodDeletionCost and
// LogarithmicScaleDown gates on.
func upstreamLess(a, b *podstatus.Pod, rankA, rankB int, now time.Time) bool {
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if pa, pb := upstreamPhaseOrdinal(a.Status.Phase), upstreamPhaseOrdinal(b.Status.Phase); pa != pb {
		return pa < pb
	}
	readyA, readyB := upstreamReady(a), upstreamReady(b)
	if readyA != readyB {
		return !readyA
	}
	if ca, cb := upstreamCost(a), upstreamCost(b); ca != cb {
		return ca < cb
	}
	if rankA != rankB {
		return rankA > rankB
	}
	if readyA && readyB {
		ta, tb := upstreamReadyTime(a), upstreamReadyTime(b)
		if !ta.Equal(tb) {
			return upstreamNewer(ta, tb, a.UID, b.UID, now)
		}
	}
	ra, sa := upstreamRestarts(a)
	rb, sb := upstreamRestarts(b)
	if ra != rb {
		return ra > rb
	}
	if sa != sb {
		return sa > sb
	}
	if !a.CreationTimestamp.Equal(b.CreationTimestamp) {
		return upstreamNewer(a.CreationTimestamp, b.CreationTimestamp, a.UID, b.UID, now)
	}
	return false
}

func upstreamPhaseOrdinal(p podstatus.Phase) int {
	return map[podstatus.Phase]int{podstatus.Pending: 0, podstatus.Unknown: 1, podstatus.Running: 2}[p]
}

func upstreamReady(p *podstatus.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == podstatus.Ready {
			return c.Status == meta.ConditionTrue
		}
	}
	return false
}

func upstreamReadyTime(p *podstatus.Pod) time.Time {
	for _, c := range p.Status.Conditions {
		if c.Type == podstatus.Ready && c.Status == meta.ConditionTrue {
			return c.LastTransitionTime
		}
	}
	return time.Time{}
}

// upstreamCost reads the pod-deletion-cost annotation as upstream does,
// for the plain values drawn here: an invalid one counts as 0.
func upstreamCost(p *podstatus.Pod) int64 {
	c, err := strconv.ParseInt(p.Annotations[podstatus.DeletionCostAnnotation], 10, 32)
	if err != nil {
		return 0
	}
	return c
}

func upstreamRestarts(p *podstatus.Pod) (regular, sidecar int) {
	for _, c := range p.Status.ContainerStatuses {
		regular = max(regular, int(c.RestartCount))
	}
	sidecars := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == podstatus.RestartAlways {
			sidecars[c.Name] = true
		}
	}
	for _, c := range p.Status.InitContainerStatuses {
		if sidecars[c.Name] {
			sidecar = max(sidecar, int(c.RestartCount))
		}
	}
	return regular, sidecar
}

// upstreamNewer is rules 6 and 8 for two different times: afterOrZero with
// a zero now or time, else logarithmicRankDiff, and UIDs within a bucket.
func upstreamNewer(ta, tb time.Time, uidA, uidB string, now time.Time) bool {
	if now.IsZero() || ta.IsZero() || tb.IsZero() {
		if ta.IsZero() || tb.IsZero() {
			return ta.IsZero()
		}
		return ta.After(tb)
	}
	bucket := func(t time.Time) int64 {
		if d := now.Sub(t); d > 0 {
			return int64(math.Log2(float64(d)))
		}
		return -1
	}
	if diff := bucket(ta) - bucket(tb); diff != 0 {
		return diff < 0
	}
	return uidA < uidB
}

// drawOwnTime draws zero or a time no other pod draws: i nanoseconds
// past a power of two of seconds before or after now.
func drawOwnTime(t *rapid.T, label string, i int) time.Time {
	switch rapid.IntRange(0, 4).Draw(t, label) {
	case 0:
		return time.Time{}
	case 1:
		return now.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, label+"f"))*time.Second + time.Duration(i))
	}
	return now.Add(-time.Duration(int64(1)<<rapid.IntRange(0, 40).Draw(t, label+"p"))*time.Second - time.Duration(i))
}

func drawOwnPod(t *rapid.T, i int) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name = rapid.SampledFrom([]string{"a", "b", ""}).Draw(t, "name")
	p.UID = rapid.SampledFrom([]string{"", "u", "uuuuuuuuuuuuuuuuuu"}).Draw(t, "uidPrefix") + strconv.Itoa(i) + "."
	p.Spec.NodeName = rapid.SampledFrom([]string{"", "n1", "n2"}).Draw(t, "node")
	p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Unknown, podstatus.Failed}).Draw(t, "phase")
	switch rapid.IntRange(0, 3).Draw(t, "ready") {
	case 1, 2:
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: drawOwnTime(t, "readySince", i)}}
	case 3:
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionFalse}}
	}
	if c := rapid.SampledFrom([]string{"", "0", "1", "-1", "x"}).Draw(t, "cost"); c != "" {
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: c}
	}
	p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "c", RestartCount: int32(rapid.IntRange(0, 2).Draw(t, "restarts"))}}
	if rapid.Bool().Draw(t, "sidecar") {
		always := podstatus.RestartAlways
		p.Spec.InitContainers = []podstatus.Container{{Name: "s", RestartPolicy: &always}}
		p.Status.InitContainerStatuses = []podstatus.ContainerStatus{{Name: "s", RestartCount: int32(rapid.IntRange(0, 1).Draw(t, "sideRestarts"))}}
	}
	p.CreationTimestamp = drawOwnTime(t, "created", i)
	return p
}

// checkRankingMatchesUpstreamLess: RankForDeletion's order is
// sort.SliceStable's with upstream's comparator, ties pinned by name, UID
// and position, and its ties are the runs the comparator cannot separate.
func checkRankingMatchesUpstreamLess(t *rapid.T) {
	n := rapid.IntRange(0, 120).Draw(t, "n")
	at := now
	if rapid.IntRange(0, 3).Draw(t, "zeroNow") == 0 {
		at = time.Time{}
	}
	pods := make([]*podstatus.Pod, n)
	ranks := make([]int, n)
	for i := range pods {
		pods[i], ranks[i] = drawOwnPod(t, i), rapid.IntRange(0, 2).Draw(t, "rank")
	}
	less := func(a, b int) bool { return upstreamLess(pods[a], pods[b], ranks[a], ranks[b], at) }
	want := make([]int, n)
	for i := range want {
		want[i] = i
	}
	sort.SliceStable(want, func(x, y int) bool {
		a, b := want[x], want[y]
		if less(a, b) || less(b, a) {
			return less(a, b)
		}
		if pods[a].Name != pods[b].Name {
			return pods[a].Name < pods[b].Name
		}
		return pods[a].UID < pods[b].UID // UIDs are the pods' own
	})
	var wantTies [][]int
	for i := 0; i < n; {
		j := i + 1
		for j < n && !less(want[i], want[j]) && !less(want[j], want[i]) {
			j++
		}
		if j-i > 1 {
			wantTies = append(wantTies, want[i:j])
		}
		i = j
	}
	got := replicaset.RankForDeletion(pods, ranks, at, replicaset.Options{})
	if !slices.Equal(got.Order, want) {
		t.Fatalf("RankForDeletion order %v; upstream's comparator sorts %v", got.Order, want)
	}
	if ties := got.Ties(); !slices.EqualFunc(ties, wantTies, slices.Equal) {
		t.Fatalf("RankForDeletion ties %v; upstream's comparator cannot separate %v", ties, wantTies)
	}
}

func TestRankingMatchesUpstreamLess(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkRankingMatchesUpstreamLess)
}
