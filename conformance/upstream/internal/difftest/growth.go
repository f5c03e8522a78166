package difftest

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The growth benchmarks (issue 24, "how cost grows"): each kind's package
// has a BenchmarkGrowth that runs its Step and the upstream sync it states
// side by side on the same state at each size of [GrowthSizes], through
// [Growth], as sub-benchmarks named
//
//	BenchmarkGrowth/<step>/n=<n>/kubesem
//	BenchmarkGrowth/<step>/n=<n>/upstream
//
// so that one -bench regexp picks them all (scripts/bench does, and
// internal/benchtables turns them into the table of how each Step's cost
// grows).

// GrowthSizes are the object counts the growth benchmarks run at:
// KUBESEM_BENCH_SIZES (comma-separated, as BenchmarkWholeClusterSync reads
// it), by default 100, 1000 and 10000 (100000 is opt-in: it takes minutes).
func GrowthSizes(tb testing.TB) []int {
	spec := os.Getenv("KUBESEM_BENCH_SIZES")
	if spec == "" {
		spec = "100,1000,10000"
	}
	var out []int
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			tb.Fatalf("KUBESEM_BENCH_SIZES: %q is not a positive count", f)
		}
		out = append(out, n)
	}
	return out
}

// GrowthSkipAfter is the longest one op of either side may take for that
// side to be timed: a slower one is timed once (the check run) and its
// benchmark skipped with that time, so that a full run at 10^5 objects
// stays within minutes. KUBESEM_GROWTH_SKIP_AFTER (a Go duration)
// overrides it.
const GrowthSkipAfter = 10 * time.Second

func growthSkipAfter(tb testing.TB) time.Duration {
	s := os.Getenv("KUBESEM_GROWTH_SKIP_AFTER")
	if s == "" {
		return GrowthSkipAfter
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		tb.Fatalf("KUBESEM_GROWTH_SKIP_AFTER: %v", err)
	}
	return d
}

// GrowthSide is one side of a growth case.
type GrowthSide struct {
	// Op is one timed operation: one Step, or one upstream sync with
	// whatever reset the harness needs to make every sync start from the
	// same state (said in the kind's benchmark).
	Op func() error
	// Prepare, when set, runs before each Op with the timer stopped (an
	// upstream harness rebuilt for each sync).
	Prepare func()
	// Outcome describes the main outcome of the Op just run, in the same
	// words on both sides ("deletes=10 status=true"); it is called outside
	// the timed loops: after the check run, where both sides must describe
	// it alike, and after the last timed op, which must have had the same
	// outcome as the check run.
	Outcome func() string
}

// GrowthCase is one Step and its upstream sync at one size, built once
// for both sides (the state converted outside the timed loops).
type GrowthCase struct {
	Kubesem, Upstream GrowthSide
	// Close releases what the case built (upstream controllers); may be nil.
	Close func()
}

// Growth runs the growth benchmark of one Step: at each size of
// [GrowthSizes] it builds the case (build), runs each side once and
// fails unless both describe the same outcome, then times each side as
// <step>/n=<n>/kubesem and <step>/n=<n>/upstream (failing unless its last
// op had the check run's outcome too) with allocations and
// cpu-ns/op (the process's CPU time per op, which other processes on a
// shared machine disturb less than wall time). A side whose op took
// longer than [GrowthSkipAfter] in the check run is not timed again: its
// benchmark is skipped with the time that op took.
func Growth(b *testing.B, step string, build func(b *testing.B, n int) *GrowthCase) {
	skipAfter := growthSkipAfter(b)
	for _, n := range GrowthSizes(b) {
		start := time.Now()
		c := build(b, n)
		built := time.Since(start)
		once := func(side string, s GrowthSide) (string, time.Duration) {
			if s.Prepare != nil {
				s.Prepare()
			}
			t := time.Now()
			if err := s.Op(); err != nil {
				b.Fatalf("%s n=%d %s: %v", step, n, side, err)
			}
			d := time.Since(t)
			return s.Outcome(), d
		}
		ko, kd := once("kubesem", c.Kubesem)
		uo, ud := once("upstream", c.Upstream)
		if ko != uo {
			b.Fatalf("%s n=%d: the sides disagree: kubesem %s; upstream %s", step, n, ko, uo)
		}
		// (a line internal/benchtables reads: run with -test.v to keep it)
		b.Logf("growth outcome %s n=%d: %s (built in %v; check run: kubesem %v, upstream %v)", step, n, ko, built.Round(time.Millisecond), kd, ud)
		name := fmt.Sprintf("%s/n=%d/", step, n)
		for _, side := range []struct {
			name string
			s    GrowthSide
			took time.Duration
			want string
		}{{"kubesem", c.Kubesem, kd, ko}, {"upstream", c.Upstream, ud, uo}} {
			if side.took > skipAfter {
				b.Run(name+side.name, func(b *testing.B) {
					b.Skipf("growth skip %s: >%v/op (one op took %v in the check run)", b.Name(), skipAfter, side.took.Round(time.Millisecond))
				})
				continue
			}
			b.Run(name+side.name, func(b *testing.B) { growthLoop(b, n, side.s, side.want) })
		}
		if c.Close != nil {
			c.Close()
		}
		c = nil
		runtime.GC()
	}
}

// growthLoop times s.Op, and checks that the last op had the outcome of
// the check run (want): every op did the same work.
func growthLoop(b *testing.B, n int, s GrowthSide, want string) {
	b.ReportAllocs()
	var cpu time.Duration
	if s.Prepare == nil {
		c0 := ProcessCPU()
		for b.Loop() {
			if err := s.Op(); err != nil {
				b.Fatal(err)
			}
		}
		cpu = ProcessCPU() - c0
	} else {
		for b.Loop() {
			b.StopTimer()
			s.Prepare()
			c0 := ProcessCPU()
			b.StartTimer()
			if err := s.Op(); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			cpu += ProcessCPU() - c0
			b.StartTimer()
		}
	}
	if got := s.Outcome(); got != want {
		b.Fatalf("the last timed op: %s; the check run: %s", got, want)
	}
	if cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(n), "objects")
}
