package difftest

import (
	"bytes"
	"flag"
	"reflect"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"
)

// leakSlack is how many goroutines a harness family may leave behind
// after all its states (none were left when it was written; the slack is
// for runtime helpers). One leaked goroutine per state already exceeds it.
const leakSlack = 10

// leakStates is the number of rapid states each family runs.
const leakStates = 50

// A Family is a group of differential tests that build v1.36.3
// controllers the same way: a harness family for CheckNoLeak.
type Family struct {
	Name  string
	Tests []func(*testing.T)
}

// CheckNoLeak runs each family's tests with rapid.checks=50
// (KUBESEM_NODE_STEP_SEQUENCES=50, KUBESEM_WHOLE_SCENARIOS=10; vector
// replays replay their vectors once) and fails when the process holds more
// than leakSlack goroutines more afterwards than before: every state
// builds a v1.36.3 controller, whose constructor starts goroutines (work
// queues, event broadcasters, started informers) that only Stop ends
// (issue 20). Each package's TestHarnessesDoNotLeak calls it with the
// families of its harnesses.
func CheckNoLeak(t *testing.T, families ...Family) {
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	if err := f.Value.Set(strconv.Itoa(leakStates)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
	t.Setenv("KUBESEM_NODE_STEP_SEQUENCES", strconv.Itoa(leakStates))
	t.Setenv("KUBESEM_WHOLE_SCENARIOS", "10")

	for _, fam := range families {
		t.Run(fam.Name, func(t *testing.T) {
			before := settledGoroutines()
			for _, test := range fam.Tests {
				t.Run(testName(test), test)
			}
			after := goroutinesAtMost(before+leakSlack, 5*time.Second)
			t.Logf("goroutines before %d, after %d", before, after)
			if after > before+leakSlack {
				t.Errorf("%s leaks: %d goroutines before its tests, %d after (slack %d); the most frequent:\n%s",
					fam.Name, before, after, leakSlack, goroutineSummary(12))
			}
		})
	}
}

// testName is the name of the test function f without its package and
// its Test prefix.
func testName(f func(*testing.T)) string {
	n := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	return strings.TrimPrefix(n[strings.LastIndex(n, ".")+1:], "Test")
}

// settledGoroutines returns the number of goroutines once it stopped
// falling (unchanged over 50 ms, at most 2 s).
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m >= n {
			return m
		}
		n = m
	}
	return n
}

// goroutinesAtMost polls the number of goroutines until it is at most
// limit or wait passed, and returns the last count.
func goroutinesAtMost(limit int, wait time.Duration) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(wait); n > limit && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	return n
}

// goroutineSummary is the first lines of the goroutine profile: the
// most frequent stacks with their counts.
func goroutineSummary(stacks int) string {
	var b bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
	parts := strings.SplitN(b.String(), "\n\n", stacks+1)
	return strings.Join(parts[:min(stacks, len(parts))], "\n\n")
}
