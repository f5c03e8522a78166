package podstatus

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
)

var fastNow = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

// drawFastTime draws times that stress the keys: zero, shared seconds,
// log2 bucket edges, the future, and the extremes of time.Time.
func drawFastTime(t *rapid.T, label string, now time.Time) time.Time {
	ref := now
	if ref.IsZero() {
		ref = fastNow
	}
	switch rapid.IntRange(0, 7).Draw(t, label) {
	case 0:
		return time.Time{}
	case 1:
		return ref.Add(-time.Duration(rapid.IntRange(0, 5).Draw(t, label+"s")) * time.Second)
	case 2:
		d := int64(1)<<rapid.IntRange(0, 62).Draw(t, label+"p") + rapid.Int64Range(-3, 3).Draw(t, label+"d")
		return ref.Add(-time.Duration(d))
	case 3:
		return ref.Add(time.Duration(rapid.Int64Range(0, 3).Draw(t, label+"f")) * time.Second)
	case 4:
		return rapid.SampledFrom([]time.Time{
			time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
			time.Unix(math.MaxInt64/2, 999999999), time.Unix(math.MinInt64/2, 0), time.Unix(0, 0).In(time.FixedZone("x", 3600)),
			ref.In(time.FixedZone("y", -7200)),
		}).Draw(t, label+"x")
	case 5:
		return ref.Add(-time.Duration(rapid.Int64Range(0, math.MaxInt64).Draw(t, label+"r")))
	}
	return ref.Add(-time.Duration(rapid.IntRange(0, 3).Draw(t, label+"n")))
}

func drawFastPod(t *rapid.T, now time.Time) *Pod {
	if rapid.IntRange(0, 15).Draw(t, "nil") == 0 {
		return nil
	}
	p := &Pod{}
	long := strings.Repeat("u", 16)
	p.Name = rapid.SampledFrom([]string{"a", "b", "c", "", "a\x00"}).Draw(t, "name")
	p.UID = rapid.SampledFrom([]string{"", "a", "b", "a\x00", long + "1", long + "2", long, long + "\x00", "ffffffffffffffffff"}).Draw(t, "uid")
	p.Spec.NodeName = rapid.SampledFrom([]string{"", "n"}).Draw(t, "node")
	p.Status.Phase = rapid.SampledFrom([]Phase{"", Pending, Running, Unknown, Failed}).Draw(t, "phase")
	switch rapid.IntRange(0, 3).Draw(t, "ready") {
	case 1, 2:
		p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionTrue, LastTransitionTime: drawFastTime(t, "readyAt", now)}}
	case 3:
		p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionFalse, LastTransitionTime: drawFastTime(t, "notReadyAt", now)}}
	}
	if c := rapid.SampledFrom([]string{"", "0", "-1", "1", "2147483647", "-2147483648", "x"}).Draw(t, "cost"); c != "" {
		p.Annotations = map[string]string{DeletionCostAnnotation: c}
	}
	p.Status.ContainerStatuses = []ContainerStatus{{Name: "c", RestartCount: int32(rapid.SampledFrom([]int{0, 1, 2, math.MaxInt32}).Draw(t, "restarts"))}}
	if rapid.Bool().Draw(t, "sidecar") {
		always := RestartAlways
		p.Spec.InitContainers = []Container{{Name: "s", RestartPolicy: &always}}
		p.Status.InitContainerStatuses = []ContainerStatus{{Name: "s", RestartCount: int32(rapid.IntRange(0, 2).Draw(t, "sideRestarts"))}}
	}
	p.CreationTimestamp = drawFastTime(t, "created", now)
	return p
}

// checkRankMatchesReference: RankForDeletion gives exactly the order and the
// ties of the reference implementation (rankref_test.go).
func checkRankMatchesReference(t *rapid.T) {
	now := rapid.SampledFrom([]time.Time{{}, fastNow, fastNow.Add(1), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)}).Draw(t, "now")
	n := rapid.SampledFrom([]int{rapid.IntRange(0, 12).Draw(t, "small"), rapid.IntRange(13, 300).Draw(t, "large")}).Draw(t, "n")
	pods := make([]*Pod, n)
	var ranks []int
	if rapid.Bool().Draw(t, "hasRanks") {
		ranks = make([]int, rapid.IntRange(0, n+1).Draw(t, "ranksLen"))
		for i := range ranks {
			ranks[i] = rapid.SampledFrom([]int{0, 1, 2, -1, math.MaxInt, math.MinInt}).Draw(t, "rank")
		}
	}
	for i := range pods {
		if i > 0 && rapid.IntRange(0, 5).Draw(t, "copy") == 0 {
			pods[i] = pods[rapid.IntRange(0, i-1).Draw(t, "of")]
			continue
		}
		pods[i] = drawFastPod(t, now)
	}
	cost := CostMode(!rapid.Bool().Draw(t, "noCost"))
	got := RankForDeletion(pods, ranks, now, cost)
	want := refRankForDeletion(pods, ranks, now, cost)
	if !slicesEqual(got.Order, want.Order) || !slicesEqual(got.start, want.start) {
		t.Fatalf("RankForDeletion = %v %v; want %v %v", got.Order, got.start, want.Order, want.start)
	}
}

func slicesEqual[E comparable](a, b []E) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// drawUniquePod draws a pod like drawFastPod, never nil, with a UID of its
// own: prefixes long and short, shared by many pods, so that the UIDs'
// first 16 bytes often agree.
func drawUniquePod(t *rapid.T, i int, now time.Time) *Pod {
	p := &Pod{}
	long := strings.Repeat("u", 16)
	p.Name = rapid.SampledFrom([]string{"a", "b", "c", "", "a\x00"}).Draw(t, "name")
	p.UID = rapid.SampledFrom([]string{"", "a", long, long + "1", "ffffffffffffffff", "\x00"}).Draw(t, "uidPrefix") + "-" + strconv.Itoa(i)
	p.Spec.NodeName = rapid.SampledFrom([]string{"", "n"}).Draw(t, "node")
	p.Status.Phase = rapid.SampledFrom([]Phase{"", Pending, Running, Unknown, Failed}).Draw(t, "phase")
	switch rapid.IntRange(0, 3).Draw(t, "ready") {
	case 1, 2:
		p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionTrue, LastTransitionTime: drawFastTime(t, "readyAt", now)}}
	case 3:
		p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionFalse, LastTransitionTime: drawFastTime(t, "notReadyAt", now)}}
	}
	if c := rapid.SampledFrom([]string{"", "0", "-1", "1", "2147483647", "-2147483648", "x"}).Draw(t, "cost"); c != "" {
		p.Annotations = map[string]string{DeletionCostAnnotation: c}
	}
	p.Status.ContainerStatuses = []ContainerStatus{{Name: "c", RestartCount: int32(rapid.SampledFrom([]int{0, 1, 2, math.MaxInt32}).Draw(t, "restarts"))}}
	if rapid.Bool().Draw(t, "sidecar") {
		always := RestartAlways
		p.Spec.InitContainers = []Container{{Name: "s", RestartPolicy: &always}}
		p.Status.InitContainerStatuses = []ContainerStatus{{Name: "s", RestartCount: int32(rapid.IntRange(0, 2).Draw(t, "sideRestarts"))}}
	}
	p.CreationTimestamp = drawFastTime(t, "created", now)
	return p
}

// checkRankUniqueMatchesReference: with every UID its own, no two cells
// share their smallest UID, so RankForDeletion never falls back to
// comparing pods; it must still give exactly the reference's order and
// ties, over pods that tie often otherwise.
func checkRankUniqueMatchesReference(t *rapid.T) {
	// time.Now carries a monotonic reading, and so do the times drawn
	// from it.
	now := rapid.SampledFrom([]time.Time{fastNow, fastNow.Add(1), time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), time.Now()}).Draw(t, "now")
	n := rapid.SampledFrom([]int{rapid.IntRange(0, 12).Draw(t, "small"), rapid.IntRange(13, 300).Draw(t, "large")}).Draw(t, "n")
	pods := make([]*Pod, n)
	ranks := make([]int, n)
	for i := range pods {
		pods[i] = drawUniquePod(t, i, now)
		ranks[i] = rapid.SampledFrom([]int{0, 1, 2, -1, math.MaxInt, math.MinInt}).Draw(t, "rank")
	}
	cost := CostMode(!rapid.Bool().Draw(t, "noCost"))
	got := RankForDeletion(pods, ranks, now, cost)
	want := refRankForDeletion(pods, ranks, now, cost)
	if !slicesEqual(got.Order, want.Order) || !slicesEqual(got.start, want.start) {
		t.Fatalf("RankForDeletion = %v %v; want %v %v", got.Order, got.start, want.Order, want.start)
	}
}

func TestRankUniqueMatchesReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkRankUniqueMatchesReference)
}

func TestRankMatchesReference(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkRankMatchesReference)
}

// TestRankMatchesReferenceLarge compares big random lists, shaped like a
// real fleet, that take the radix sorts: UIDs repeated (the ranking then
// compares pods) and UIDs of their own, with times at one-second and
// one-nanosecond resolution, and a now with a monotonic reading.
func TestRankMatchesReferenceLarge(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{100, 1000, 5000} {
		for _, unique := range []bool{false, true} {
			for _, now := range []time.Time{fastNow, {}, time.Now()} {
				ref := now
				if ref.IsZero() {
					ref = fastNow
				}
				tick := time.Second
				if r.IntN(2) == 0 {
					tick = time.Nanosecond
				}
				pods := make([]*Pod, n)
				ranks := make([]int, n)
				for i := range pods {
					p := &Pod{}
					p.Name = "pod-" + strconv.Itoa(r.IntN(n))
					p.UID = strconv.FormatUint(r.Uint64()%uint64(2*n), 16)
					if unique {
						p.UID = strconv.FormatUint(r.Uint64(), 16) + "-" + strconv.Itoa(i)
					}
					p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(5))
					p.Status.Phase = Running
					p.CreationTimestamp = ref.Add(-time.Duration(r.IntN(600)) * tick)
					if r.IntN(4) > 0 {
						p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionTrue,
							LastTransitionTime: p.CreationTimestamp.Add(time.Duration(r.IntN(30)) * tick)}}
					}
					p.Status.ContainerStatuses = []ContainerStatus{{Name: "c", RestartCount: int32(r.IntN(2))}}
					pods[i], ranks[i] = p, r.IntN(3)
				}
				got := RankForDeletion(pods, ranks, now, WithCost)
				want := refRankForDeletion(pods, ranks, now, WithCost)
				if !slicesEqual(got.Order, want.Order) || !slicesEqual(got.start, want.start) {
					t.Fatalf("RankForDeletion(%d pods, unique UIDs %v, now %v) differs from the reference", n, unique, now)
				}
			}
		}
	}
}

// TestLogBucketMatchesFloat checks the integer fast path of logBucket
// against upstream's float formula around every power of two and every
// edge of the fast path, and on random durations.
func TestLogBucketMatchesFloat(t *testing.T) {
	t.Parallel()
	check := func(d int64) {
		if d <= 0 {
			return
		}
		at := time.Unix(0, 0).Add(-time.Duration(d))
		now := time.Unix(0, 0)
		if got, want := logBucket(at, now), refLogBucket(at, now); got != want {
			t.Fatalf("logBucket(d=%d) = %d; want %d", d, got, want)
		}
	}
	for l := range 63 {
		p := int64(1) << l
		for _, c := range []int64{p, 2*p - p>>9, p + p>>10} {
			for delta := int64(-1 << 12); delta <= 1<<12; delta++ {
				check(c + delta)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 1_000_000 {
		check(r.Int64() >> r.IntN(63))
	}
	check(math.MaxInt64)
}

// TestRankBlocksBeyondSortedBits: the blocks sort orders by the first
// logPrefixBits bits of the blocks' prefixes and expand by the bits below
// them. UIDs whose leading varying bits barely vary (two first bytes, then
// a common stretch) put many blocks in runs equal in those bits that
// differ below; the ranking is still the reference's.
func TestRankBlocksBeyondSortedBits(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{300, 3000} {
		pods := make([]*Pod, n)
		for i := range pods {
			p := &Pod{}
			p.Name = "pod-" + strconv.Itoa(i)
			p.UID = string(rune('a'+r.IntN(2))) + "0000" + strconv.FormatUint(r.Uint64(), 16)
			p.Spec.NodeName = "node"
			p.Status.Phase = Running
			p.CreationTimestamp = fastNow.Add(-time.Duration(r.Int64N(int64(24 * time.Hour))))
			p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionTrue,
				LastTransitionTime: p.CreationTimestamp.Add(time.Duration(r.Int64N(int64(time.Minute))))}}
			pods[i] = p
		}
		var rk Ranker
		got := rk.RankForDeletion(pods, nil, fastNow, WithoutCost)
		want := refRankForDeletion(pods, nil, fastNow, WithoutCost)
		if !slicesEqual(got.Order, want.Order) || !slicesEqual(got.start, want.start) {
			t.Fatalf("RankForDeletion(%d pods) differs from the reference", n)
		}
	}
}
