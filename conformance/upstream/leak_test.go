package upstream_test

import (
	"bytes"
	"flag"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"testing"
	"time"
)

// upLeakSlack is how many goroutines a harness family may leave behind
// after all its states (none were left when it was written; the slack is
// for runtime helpers). One leaked goroutine per state already exceeds it.
const upLeakSlack = 10

// upLeakStates is the number of rapid states each family runs.
const upLeakStates = 50

// TestHarnessesDoNotLeak runs each harness family's differential tests
// with rapid.checks=50 (KUBESEM_NODE_STEP_SEQUENCES=50,
// KUBESEM_WHOLE_SCENARIOS=10; vector replays replay their vectors once)
// and fails when the process holds more than upLeakSlack goroutines more
// afterwards than before: every state builds a v1.36.3 controller, whose
// constructor starts goroutines (work queues, event broadcasters, started
// informers) that only upStop ends (issue 20).
func TestHarnessesDoNotLeak(t *testing.T) {
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	if err := f.Value.Set(strconv.Itoa(upLeakStates)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
	t.Setenv("KUBESEM_NODE_STEP_SEQUENCES", strconv.Itoa(upLeakStates))
	t.Setenv("KUBESEM_WHOLE_SCENARIOS", "10")

	type test struct {
		name string
		run  func(*testing.T)
	}
	families := []struct {
		name  string
		tests []test
	}{
		{"deployment", []test{
			{"RolloutStepDifferential", TestRolloutStepDifferential},
			{"RolloutStatusDifferential", TestRolloutStatusDifferential},
			{"RolloutStepVectorsUpstream", TestRolloutStepVectorsUpstream},
			{"AdapterRealObjectsUpstream", TestAdapterRealObjectsUpstream},
		}},
		{"replicaset", []test{
			{"ReplicaSetStepVectorsUpstream", TestReplicaSetStepVectorsUpstream},
		}},
		{"daemonset", []test{
			{"DaemonSetVectorsUpstream", TestDaemonSetVectorsUpstream},
			{"AdapterRealDaemonSetUpstream", TestAdapterRealDaemonSetUpstream},
		}},
		{"job", []test{
			{"JobStepDifferential", TestJobStepDifferential},
			{"JobStepSequenceDifferential", TestJobStepSequenceDifferential},
		}},
		{"cronjob", []test{
			{"GenerateCronJobVectors", TestGenerateCronJobVectors},
			{"CronJobExcessHistoryDifferential", TestCronJobExcessHistoryDifferential},
			{"CronJobIsTooLateDifferential", TestCronJobIsTooLateDifferential},
		}},
		{"disruption", []test{
			{"PDBSyncDifferential", TestPDBSyncDifferential},
			{"PDBDisruptionsAllowedDifferential", TestPDBDisruptionsAllowedDifferential},
			{"PDBStaleDisruptionTargetDifferential", TestPDBStaleDisruptionTargetDifferential},
		}},
		{"podgc", []test{
			{"PodGCStepDifferential", TestPodGCStepDifferential},
			{"PodGCQuarantineDifferential", TestPodGCQuarantineDifferential},
			{"PodGCVectorsUpstream", TestPodGCVectorsUpstream},
		}},
		{"nodelifecycle", []test{
			{"NodeDiffHealth", TestNodeDiffHealth},
			{"NodeDiffConditionTaints", TestNodeDiffConditionTaints},
			{"NodeStepDifferential", TestNodeStepDifferential},
			{"NodeStepVectorsUpstream", TestNodeStepVectorsUpstream},
			{"NodeZoneRateDifferential", TestNodeZoneRateDifferential},
		}},
		{"tainteviction", []test{
			{"NodeDiffEvictionStep", TestNodeDiffEvictionStep},
			{"ClusterDiffTaintEvictionTriggers", TestClusterDiffTaintEvictionTriggers},
		}},
		{"heartbeat", []test{
			{"NodeDiffLeaseRetryTiming", TestNodeDiffLeaseRetryTiming},
		}},
		{"wholecluster", []test{
			{"WholeClusterSmall", TestWholeClusterSmall},
			{"WholeClusterDifferential", TestWholeClusterDifferential},
		}},
	}
	for _, fam := range families {
		t.Run(fam.name, func(t *testing.T) {
			before := upSettledGoroutines()
			for _, tc := range fam.tests {
				t.Run(tc.name, tc.run)
			}
			after := upGoroutinesAtMost(before+upLeakSlack, 5*time.Second)
			t.Logf("goroutines before %d, after %d", before, after)
			if after > before+upLeakSlack {
				t.Errorf("%s leaks: %d goroutines before its tests, %d after (slack %d); the most frequent:\n%s",
					fam.name, before, after, upLeakSlack, upGoroutineSummary(12))
			}
		})
	}
}

// upSettledGoroutines returns the number of goroutines once it stopped
// falling (unchanged over 50 ms, at most 2 s).
func upSettledGoroutines() int {
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

// upGoroutinesAtMost polls the number of goroutines until it is at most
// limit or wait passed, and returns the last count.
func upGoroutinesAtMost(limit int, wait time.Duration) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(wait); n > limit && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	return n
}

// upGoroutineSummary is the first lines of the goroutine profile: the
// most frequent stacks with their counts.
func upGoroutineSummary(stacks int) string {
	var b bytes.Buffer
	_ = pprof.Lookup("goroutine").WriteTo(&b, 1)
	parts := strings.SplitN(b.String(), "\n\n", stacks+1)
	return strings.Join(parts[:min(stacks, len(parts))], "\n\n")
}
