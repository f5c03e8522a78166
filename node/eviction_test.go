package node

import (
	"math"
	"testing"
	"time"
)

// TestMinTolerationTimeLimits pins getMinTolerationTime's arithmetic at
// the int64 limit: MaxInt64 seconds mean "no limit", and seconds become
// nanoseconds by a wrapping int64 product.
func TestMinTolerationTimeLimits(t *testing.T) {
	t.Parallel()
	wrap := func(s int64) time.Duration { return time.Duration(s) * time.Second }
	cases := []struct {
		name string
		tols []Toleration
		want time.Duration
	}{
		{"max is forever", []Toleration{{TolerationSeconds: i64(math.MaxInt64)}}, Forever},
		{"max and nil", []Toleration{{TolerationSeconds: i64(math.MaxInt64)}, {}}, Forever},
		{"max then ten", []Toleration{{TolerationSeconds: i64(math.MaxInt64)}, {TolerationSeconds: i64(10)}}, 10 * time.Second},
		{"ten then max", []Toleration{{TolerationSeconds: i64(10)}, {TolerationSeconds: i64(math.MaxInt64)}}, 10 * time.Second},
		{"max-1 wraps to -2s", []Toleration{{TolerationSeconds: i64(math.MaxInt64 - 1)}}, -2 * time.Second},
		{"last that fits", []Toleration{{TolerationSeconds: i64(9223372036)}}, 9223372036 * time.Second},
		{"first that wraps", []Toleration{{TolerationSeconds: i64(9223372037)}}, wrap(9223372037)},
		{"2^55 wraps to 0", []Toleration{{TolerationSeconds: i64(1 << 55)}}, 0},
		{"2^55+1 wraps to 1s", []Toleration{{TolerationSeconds: i64(1<<55 + 1)}}, time.Second},
		{"min of large values", []Toleration{{TolerationSeconds: i64(1<<55 + 1)}, {TolerationSeconds: i64(1 << 55)}}, 0},
		{"negative wins over max", []Toleration{{TolerationSeconds: i64(math.MaxInt64)}, {TolerationSeconds: i64(math.MinInt64)}}, 0},
		{"one second", []Toleration{{TolerationSeconds: i64(1)}}, time.Second},
	}
	for _, c := range cases {
		if got := MinTolerationTime(c.tols); got != c.want {
			t.Errorf("%s: MinTolerationTime = %v, want %v", c.name, got, c.want)
		}
	}
	if wrap(9223372037) >= 0 {
		t.Fatal("the test's wrap case does not wrap")
	}
}

// TestEvictionForLimits: the wrapped toleration time decides: negative →
// never, 0 → now, positive → that long after seen.
func TestEvictionForLimits(t *testing.T) {
	t.Parallel()
	seen := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	taints := []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	tol := func(s int64) []Toleration {
		return []Toleration{{Key: TaintUnreachable, Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: i64(s)}}
	}
	if e := EvictionFor(tol(math.MaxInt64), taints, seen, Options{}); e.Kind != NotEvicted {
		t.Errorf("MaxInt64: %+v", e)
	}
	if e := EvictionFor(tol(9223372037), taints, seen, Options{}); e.Kind != NotEvicted {
		t.Errorf("wrapped negative: %+v", e)
	}
	if e := EvictionFor(tol(1<<55), taints, seen, Options{}); e.Kind != EvictNow || !e.At.Equal(seen) || e.After != 0 {
		t.Errorf("wrapped to zero: %+v", e)
	}
	if e := EvictionFor(tol(1<<55+1), taints, seen, Options{}); e.Kind != EvictAt || e.After != time.Second || !e.At.Equal(seen.Add(time.Second)) {
		t.Errorf("wrapped to 1s: %+v", e)
	}
	if e := EvictionFor(tol(-3), taints, seen, Options{}); e.Kind != EvictNow {
		t.Errorf("negative seconds: %+v", e)
	}
	// only NoExecute taints count; an untolerated NoSchedule taint is ignored
	mixed := append([]Taint{{Key: "other", Effect: NoSchedule}}, taints...)
	if e := EvictionFor(tol(60), mixed, seen, Options{}); e.Kind != EvictAt || e.After != time.Minute {
		t.Errorf("NoSchedule taint counted: %+v", e)
	}
	// a later, shorter toleration is not the one used for a taint
	tols := append(tol(600), Toleration{Operator: OpExists, TolerationSeconds: i64(0)})
	if e := EvictionFor(tols, taints, seen, Options{}); e.After != 10*time.Minute {
		t.Errorf("first matching toleration: %+v", e)
	}
	// two taints: the minimum of the tolerations used
	two := append(taints, Taint{Key: TaintNotReady, Effect: NoExecute})
	tols = append(tol(600), Toleration{Key: TaintNotReady, Operator: OpExists, TolerationSeconds: i64(30)})
	if e := EvictionFor(tols, two, seen, Options{}); e.After != 30*time.Second {
		t.Errorf("minimum over taints: %+v", e)
	}
	// one taint without a toleration: now, whatever the others say
	tols = tol(600)
	if e := EvictionFor(tols, two, seen, Options{}); e.Kind != EvictNow {
		t.Errorf("untolerated second taint: %+v", e)
	}
	if _, untolerated := evictionFor(tols, two, seen, Options{}); !untolerated {
		t.Error("evictionFor does not report the untolerated taint")
	}
	if _, untolerated := evictionFor(tol(0), taints, seen, Options{}); untolerated {
		t.Error("a toleration time of 0 reported as untolerated")
	}
}

func TestMatchingTolerations(t *testing.T) {
	t.Parallel()
	taints := []Taint{{Key: "a", Effect: NoExecute}, {Key: "b", Effect: NoExecute}}
	a := Toleration{Key: "a", Operator: OpExists}
	all := Toleration{Operator: OpExists}
	used, ok := MatchingTolerations(taints, []Toleration{a, all}, Options{})
	if !ok || len(used) != 2 || used[0].Key != "a" || used[1].Key != "" {
		t.Fatalf("%+v %v", used, ok)
	}
	used, ok = MatchingTolerations(taints, []Toleration{a}, Options{})
	if ok || used != nil {
		t.Fatalf("b untolerated: %+v %v", used, ok)
	}
	used, ok = MatchingTolerations(nil, nil, Options{})
	if !ok || used == nil || len(used) != 0 {
		t.Fatalf("no taints: %+v %v", used, ok)
	}
}

func TestMinTolerationTime(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tols []Toleration
		want time.Duration
	}{
		{nil, 0},
		{[]Toleration{{}}, Forever},
		{[]Toleration{{TolerationSeconds: i64(10)}, {TolerationSeconds: i64(5)}, {}}, 5 * time.Second},
		{[]Toleration{{TolerationSeconds: i64(10)}, {TolerationSeconds: i64(-1)}}, 0},
		{[]Toleration{{TolerationSeconds: i64(0)}}, 0},
	}
	for i, c := range cases {
		if got := MinTolerationTime(c.tols); got != c.want {
			t.Errorf("%d: got %v want %v", i, got, c.want)
		}
	}
}

func TestEvictionFor(t *testing.T) {
	t.Parallel()
	seen := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	unreach := []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	if e := EvictionFor(nil, unreach, seen, Options{}); e.Kind != EvictNow || !e.At.Equal(seen) {
		t.Errorf("no tolerations: %+v", e)
	}
	def := DefaultTolerations(nil, -1)
	if e := EvictionFor(def, unreach, seen, Options{}); e.Kind != EvictAt || e.After != 300*time.Second {
		t.Errorf("default tolerations: %+v", e)
	}
	if e := EvictionFor([]Toleration{{Operator: OpExists}}, unreach, seen, Options{}); e.Kind != NotEvicted {
		t.Errorf("forever: %+v", e)
	}
	if e := EvictionFor(nil, []Taint{{Key: "x", Effect: NoSchedule}}, seen, Options{}); e.Kind != NotEvicted {
		t.Errorf("NoSchedule only: %+v", e)
	}
	// the first matching toleration is the one used, as upstream.
	two := []Toleration{{Key: TaintUnreachable, Operator: OpExists, TolerationSeconds: i64(600)}, {Operator: OpExists, TolerationSeconds: i64(10)}}
	if e := EvictionFor(two, unreach, seen, Options{}); e.After != 600*time.Second {
		t.Errorf("first match: %+v", e)
	}
}
