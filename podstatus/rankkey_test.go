package podstatus

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
)

// wordsBefore reports whether (ahi, alo) sorts before (bhi, blo).
func wordsBefore(ahi, alo, bhi, blo uint64) bool { return ahi < bhi || ahi == bhi && alo < blo }

func TestPhaseOrdinal(t *testing.T) {
	t.Parallel()
	want := map[Phase]uint64{Pending: 0, Succeeded: 0, Failed: 0, "": 0, "Other": 0, Unknown: 1, Running: 2}
	for p, w := range want {
		if got := phaseOrdinal(p); got != w {
			t.Errorf("phaseOrdinal(%q) = %d; want %d", p, got, w)
		}
	}
}

func TestFlipSign(t *testing.T) {
	t.Parallel()
	vs := []int64{math.MinInt64, -2, -1, 0, 1, 2, math.MaxInt64}
	for i := 1; i < len(vs); i++ {
		if flipSign(vs[i-1]) >= flipSign(vs[i]) {
			t.Errorf("flipSign(%d) = %d >= flipSign(%d) = %d; want order kept", vs[i-1], flipSign(vs[i-1]), vs[i], flipSign(vs[i]))
		}
	}
}

func TestPrefixWord(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    string
		off  int
		want uint64
	}{
		{"abcdefghij", 0, 0x6162636465666768},
		{"abcdefghij", 8, 0x696a000000000000},
		{"abcdefghij", 2, 0x636465666768696a},
		{"a", 0, 0x61 << 56},
		{"", 0, 0},
		{"abc", 8, 0},
		{"\xff\xff\xff\xff\xff\xff\xff\xff", 0, math.MaxUint64},
	}
	for _, tc := range tests {
		if got := prefixWord(tc.s, tc.off); got != tc.want {
			t.Errorf("prefixWord(%q, %d) = %#x; want %#x", tc.s, tc.off, got, tc.want)
		}
	}
	// Prefixes order as their strings do: a proper prefix first.
	ordered := []string{"", "a", "a\x00", "ab", "abcdefgh", "b"}
	for i := 1; i < len(ordered); i++ {
		if prefixWord(ordered[i-1], 0) > prefixWord(ordered[i], 0) {
			t.Errorf("prefixWord(%q) > prefixWord(%q)", ordered[i-1], ordered[i])
		}
	}
}

func TestDurationBucket(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want int64
	}{
		{math.MinInt64, -1}, {-1, -1}, {0, -1},
		{1, 0}, {2, 1}, {3, 1}, {4, 2}, {7, 2}, {8, 3},
		{time.Second, 29}, {1<<30 - 1, 29}, {1 << 30, 30},
		{1<<53 + 1, 53},
		{1<<62 - 1, 62}, // float64 rounds it up to 2^62: upstream's 62
		{math.MaxInt64, 63},
	}
	for _, tc := range tests {
		if got := durationBucket(tc.d); got != tc.want {
			t.Errorf("durationBucket(%d) = %d; want %d", int64(tc.d), got, tc.want)
		}
	}
	if got := logBucket(now0.Add(-time.Second), now0); got != 29 {
		t.Errorf("logBucket(1s ago) = %d; want 29", got)
	}
	if got := logBucket(now0, now0); got != -1 {
		t.Errorf("logBucket(now) = %d; want -1", got)
	}
}

var now0 = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func TestClockWords(t *testing.T) {
	t.Parallel()
	for _, c := range []*clock{ptrClock(newClock(now0)), ptrClock(newClock(time.Time{}))} {
		if hi, lo, b := c.words(time.Time{}); hi != 0 || lo != 0 || b != 0 {
			t.Errorf("words(zero) = %d, %d, %d; want 0, 0, 0", hi, lo, b)
		}
		// The latest time.Time there is: its high word is 0, its low word
		// must still put it after the zero time.
		last := time.Unix(math.MaxInt64-unixToInternal, 999_999_999)
		times := []time.Time{last, now0.Add(time.Hour), now0.Add(time.Nanosecond), now0, now0.Add(-time.Nanosecond),
			now0.Add(-999_999_999), now0.Add(-time.Second), time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)}
		// Later first: each time's words sort before the next's, and after
		// the zero time's.
		for i := range times {
			hi, lo, _ := c.words(times[i])
			if !wordsBefore(0, 0, hi, lo) {
				t.Errorf("words(%v) = %d, %d; want after the zero time's", times[i], hi, lo)
			}
			if i == 0 {
				continue
			}
			phi, plo, _ := c.words(times[i-1])
			if !wordsBefore(phi, plo, hi, lo) {
				t.Errorf("words(%v) does not sort before words(%v)", times[i-1], times[i])
			}
		}
	}
	c := newClock(now0)
	for _, tc := range []struct {
		t      time.Time
		bucket int8
	}{{now0.Add(-time.Second), 29}, {now0, -1}, {now0.Add(time.Second), -1}, {now0.Add(-time.Nanosecond), 0}} {
		if _, _, b := c.words(tc.t); b != tc.bucket {
			t.Errorf("words(%v).bucket = %d; want %d", tc.t, b, tc.bucket)
		}
	}
	if _, _, b := ptrClock(newClock(time.Time{})).words(now0); b != 0 {
		t.Errorf("exact mode bucket = %d; want 0", b)
	}
}

// TestClockBucket: the bucket words gives, with its inline common case, is
// the log2 bucket of now.Sub(t), around every power of two, far apart, with
// monotonic readings and at the extremes of time.Time.
func TestClockBucket(t *testing.T) {
	t.Parallel()
	mono := time.Now()
	extremes := []time.Time{time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), time.Unix(math.MaxInt64-unixToInternal, 999_999_999),
		time.Unix(math.MinInt64/2, 0), now0.AddDate(-300, 0, 0), mono.Add(-time.Minute), mono.Add(-time.Minute).Round(0)}
	for _, n := range []time.Time{now0, mono, now0.Add(987654321), time.Unix(math.MaxInt64-unixToInternal, 0)} {
		c := newClock(n)
		check := func(at time.Time) {
			if _, _, got := c.words(at); at.IsZero() || got != int8(logBucket(at, n)) {
				t.Fatalf("words(%v).bucket with now %v = %d; want %d", at, n, got, logBucket(at, n))
			}
		}
		for _, at := range extremes {
			check(at)
		}
		rnd := rand.New(rand.NewPCG(11, uint64(n.UnixNano())))
		for range 20_000 {
			d := time.Duration(rnd.Int64() >> rnd.IntN(63))
			check(n.Add(-d))
			check(n.Add(d))
		}
		for l := range 63 {
			for _, d := range []int64{1<<l - 1, 1 << l, 1<<l + 1, 1<<l + 1<<l>>10, 1<<l + 1<<l>>10 - 1, 2<<l - 1<<l>>9, 2<<l - 1<<l>>9 - 1} {
				if d > 0 {
					check(n.Add(-time.Duration(d)))
					check(n.Add(time.Duration(d)))
				}
			}
		}
	}
}

func TestClockSince(t *testing.T) {
	t.Parallel()
	mono := time.Now() // carries a monotonic reading
	far := []time.Time{time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		now0.AddDate(-300, 0, 0), now0.Add(-time.Nanosecond), now0.Add(123456789)}
	for _, n := range []time.Time{now0, mono, now0.Add(987654321)} {
		c := newClock(n)
		for _, at := range append(far, mono.Add(-time.Minute).Round(0)) {
			sec, nsec := at.Unix()+unixToInternal, int64(at.Nanosecond())
			if got, want := c.since(at, sec, nsec), n.Sub(at); got != want {
				t.Errorf("since(now %v, %v) = %v; want %v", n, at, got, want)
			}
		}
	}
}

func TestBucketWord(t *testing.T) {
	t.Parallel()
	if got, want := bucketWord(-1), uint64(1<<63); got != want {
		t.Errorf("bucketWord(-1) = %#x; want %#x", got, want)
	}
	if got, want := bucketWord(29), uint64(1<<63|30); got != want {
		t.Errorf("bucketWord(29) = %#x; want %#x", got, want)
	}
	for b := int8(-1); b < 62; b++ {
		if bucketWord(b) >= bucketWord(b+1) {
			t.Errorf("bucketWord(%d) does not sort before bucketWord(%d)", b, b+1)
		}
	}
}

func keyPod(mut func(p *Pod)) *Pod {
	p := &Pod{}
	p.Name, p.UID = "p", "u"
	p.Spec.NodeName = "n1"
	p.Status.Phase = Running
	p.Status.Conditions = []Condition{{Type: Ready, Status: meta.ConditionTrue, LastTransitionTime: now0.Add(-time.Hour)}}
	p.CreationTimestamp = now0.Add(-2 * time.Hour)
	if mut != nil {
		mut(p)
	}
	return p
}

// TestMakeKey: each rule's word orders a contrasting pair the right way
// round, and only that word differs.
func TestMakeKey(t *testing.T) {
	t.Parallel()
	restarts := func(regular, sidecar int32) func(p *Pod) {
		return func(p *Pod) {
			p.Spec.InitContainers = []Container{{Name: "side", RestartPolicy: ptrPolicy(RestartAlways)}}
			p.Status.ContainerStatuses = []ContainerStatus{{Name: "c", RestartCount: regular}}
			p.Status.InitContainerStatuses = []ContainerStatus{{Name: "side", RestartCount: sidecar}}
		}
	}
	cost := func(v string) func(p *Pod) {
		return func(p *Pod) { p.Annotations = map[string]string{"controller.kubernetes.io/pod-deletion-cost": v} }
	}
	tests := []struct {
		name        string
		first, then *Pod // first must sort before then
		rankF       int
		rankT       int
		word        int
	}{
		{"unscheduled first", keyPod(func(p *Pod) { p.Spec.NodeName = "" }), keyPod(nil), 0, 0, wordHead},
		{"Pending before Unknown", keyPod(func(p *Pod) { p.Status.Phase = Pending }), keyPod(func(p *Pod) { p.Status.Phase = Unknown }), 0, 0, wordHead},
		{"Unknown before Running", keyPod(func(p *Pod) { p.Status.Phase = Unknown }), keyPod(nil), 0, 0, wordHead},
		{"not ready first", keyPod(func(p *Pod) { p.Status.Conditions[0].Status = meta.ConditionFalse }), keyPod(nil), 0, 0, wordHead},
		{"lower cost first", keyPod(cost("-5")), keyPod(cost("5")), 0, 0, wordHead},
		{"lowest cost first", keyPod(cost("-2147483648")), keyPod(cost("-2147483647")), 0, 0, wordHead},
		{"invalid cost counts as 0", keyPod(cost("-1")), keyPod(cost("x")), 0, 0, wordHead},
		{"higher rank first", keyPod(nil), keyPod(nil), 2, 1, wordRank},
		{"negative rank last", keyPod(nil), keyPod(nil), 0, -1, wordRank},
		{"ready more recently first", keyPod(func(p *Pod) { p.Status.Conditions[0].LastTransitionTime = now0.Add(-time.Minute) }), keyPod(nil), 0, 0, wordReadyHi},
		{"ready a nanosecond later first", keyPod(func(p *Pod) { p.Status.Conditions[0].LastTransitionTime = now0.Add(-time.Hour + time.Nanosecond) }), keyPod(nil), 0, 0, wordReadyLo},
		{"more regular restarts first", keyPod(restarts(3, 0)), keyPod(restarts(2, 9)), 0, 0, wordRestarts},
		{"then more sidecar restarts", keyPod(restarts(2, 1)), keyPod(restarts(2, 0)), 0, 0, wordRestarts},
		{"newer first", keyPod(func(p *Pod) { p.CreationTimestamp = now0.Add(-time.Minute) }), keyPod(nil), 0, 0, wordCreatedHi},
		{"zero creation time first", keyPod(func(p *Pod) { p.CreationTimestamp = time.Time{} }), keyPod(nil), 0, 0, wordCreatedHi},
	}
	c := newClock(time.Time{})
	for _, tc := range tests {
		a, b := keyOf(tc.first, tc.rankF, &c, WithCost), keyOf(tc.then, tc.rankT, &c, WithCost)
		if !a.less(&b) || b.less(&a) {
			t.Errorf("makeKey(%s): first does not sort before then: %x vs %x", tc.name, a.words(), b.words())
		}
		if !a.same(&b, tc.word) || a.same(&b, tc.word+1) {
			t.Errorf("makeKey(%s): want the first difference in word %d: %x vs %x", tc.name, tc.word, a.words(), b.words())
		}
	}
	// Without cost the annotation is not read.
	a, b := keyOf(keyPod(cost("-5")), 0, &c, WithoutCost), keyOf(keyPod(cost("5")), 0, &c, WithoutCost)
	if a.words() != b.words() {
		t.Errorf("makeKey(WithoutCost) reads the deletion cost")
	}
	// The buckets round-trip through the key, up to 63 (now.Sub(t)
	// saturates at 2^63-1 ns, whose float log2 is 63) and down to -1.
	lc := newClock(now0)
	for _, tc := range []struct {
		at     time.Time
		bucket int8
	}{{time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), 63}, {now0.Add(time.Hour), -1}, {now0.Add(-time.Second), 29}} {
		k := keyOf(keyPod(func(p *Pod) { p.CreationTimestamp, p.Status.Conditions[0].LastTransitionTime = tc.at, tc.at }), 0, &lc, WithCost)
		if k.createdBucket() != tc.bucket || k.readyBucket() != tc.bucket {
			t.Errorf("makeKey(times %v): buckets %d, %d; want %d", tc.at, k.readyBucket(), k.createdBucket(), tc.bucket)
		}
	}
	// A nil pod is an empty pod.
	if keyOf(nil, 0, &c, WithCost) != keyOf(&Pod{}, 0, &c, WithCost) {
		t.Errorf("makeKey(nil) differs from makeKey(empty pod)")
	}
}

// keyOf returns the key makeKey sets.
func keyOf(p *Pod, rank int, c *clock, cost CostMode) sortKey {
	var k sortKey
	makeKey(&k, p, rank, c, cost)
	return k
}

func ptrPolicy(p RestartPolicy) *RestartPolicy { return &p }

func ptrClock(c clock) *clock { return &c }

func TestSortKeyLessSame(t *testing.T) {
	t.Parallel()
	var a, b sortKey
	if a.less(&b) || !a.same(&b, keyWords) {
		t.Errorf("equal keys: less or not same")
	}
	b.r[rawLo] = 1 // the last word
	if !a.less(&b) || b.less(&a) || !a.same(&b, keyWords-1) || a.same(&b, keyWords) {
		t.Errorf("keys differing in the last word compare wrongly")
	}
	a.r[rawHead] = 1
	if a.less(&b) || !b.less(&a) || a.same(&b, 1) || !a.same(&b, 0) {
		t.Errorf("the first word does not decide first")
	}
}

// TestMakeKeysMatchesMakeKey: the chunked key build (makeKeys: a chunk of
// pods read by readPod, then their keys finished) sets every pod's key as
// makeKey does alone, with the pod's own rank, and gathers the plan the
// per-pod loop gathered, in both modes and across chunk boundaries.
func TestMakeKeysMatchesMakeKey(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		now := rapid.SampledFrom([]time.Time{{}, fastNow, fastNow.Add(1)}).Draw(t, "now")
		n := rapid.SampledFrom([]int{rapid.IntRange(1, 3).Draw(t, "few"), rapid.IntRange(keyChunk-2, 3*keyChunk+2).Draw(t, "chunks")}).Draw(t, "n")
		pods := make([]*Pod, n)
		ranks := make([]int, rapid.IntRange(0, n).Draw(t, "ranks"))
		for i := range pods {
			pods[i] = drawFastPod(t, now)
		}
		for i := range ranks {
			ranks[i] = rapid.IntRange(-2, 2).Draw(t, "rank")
		}
		cost := CostMode(rapid.Bool().Draw(t, "cost"))
		c := newClock(now)
		want := make([]sortKey, n)
		for i, p := range pods {
			makeKey(&want[i], p, rankOf(ranks, i), &c, cost)
		}
		r := ranker{pods: pods, keys: make([]sortKey, n)}
		for i := range r.keys {
			r.keys[i].r[rawUIDLo] = 0x5555 // poisoned
		}
		wp, we := newPlan(&want[0]), exactPlan{first: want[0]}
		for i := range want {
			wp.add(&want[i])
			we.add(&want[i])
		}
		if c.log {
			p := newPlan(&want[0])
			r.makeKeys(ranks, &c, cost, &p, nil)
			if p != wp {
				t.Fatalf("makeKeys plan %+v; want %+v", p, wp)
			}
		} else {
			e := exactPlan{first: want[0]}
			r.makeKeys(ranks, &c, cost, nil, &e)
			if e != we {
				t.Fatalf("makeKeys exact plan %+v; want %+v", e, we)
			}
		}
		for i := range want {
			if r.keys[i] != want[i] {
				t.Fatalf("pod %d of %d: makeKeys %x; makeKey %x", i, n, r.keys[i].r, want[i].r)
			}
		}
	})
}
