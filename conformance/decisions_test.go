package conformance_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

// upstreamCheck says how a decision is checked against v1.36.3: by the
// differential or replay tests of conformance/upstream that exercise it
// (Tests), or, when there is none, why none is needed — the decision is a
// pure composition of decisions that are checked (Composes), or v1.36.3 has
// nothing to compare it with (NoCounterpart).
type upstreamCheck struct {
	Tests         []string
	Composes      []string
	NoCounterpart string
}

// by lists the tests that check a decision.
func by(names ...string) upstreamCheck { return upstreamCheck{Tests: names} }

// generator marks the test that computes a package's vector wants with
// upstream: it recomputes them on every run and fails when a file differs.
const cronjobGenerator = "TestGenerateCronJobVectors"

// upstreamChecks maps every registered decision to its check. It was made
// by reading conformance/upstream/*/*_test.go: a test is listed when it
// compares the decision (or the library function the decision binds) with
// v1.36.3 on random states or replays the decision's vectors through
// v1.36.3.
var upstreamChecks = map[string]upstreamCheck{
	"job.BackoffDelay":             by("TestJobBackoffDelayDifferential", "TestJobHelperVectorsUpstream"),
	"job.CompletionIndex":          by("TestJobCompletionIndexDifferential", "TestJobHelperVectorsUpstream"),
	"job.FailedIndexes":            by("TestJobFailedIndexesDifferential", "TestJobHelperVectorsUpstream"),
	"job.FinishedCondition":        by("TestJobFinishedConditionDifferential", "TestJobHelperVectorsUpstream"),
	"job.FirstPendingIndexes":      by("TestJobFirstPendingIndexesDifferential", "TestJobHelperVectorsUpstream"),
	"job.Indexes.String":           by("TestJobFormatIndexesDifferential", "TestJobParseIndexesDifferential", "TestJobHelperVectorsUpstream"),
	"job.GenerateNameWithIndex":    by("TestJobGenerateNameWithIndexDifferential", "TestJobHelperVectorsUpstream"),
	"job.Indexes.Has":              by("TestJobHasIndexDifferential", "TestJobHelperVectorsUpstream"),
	"job.IsSucceeded":              by("TestJobFinishedConditionDifferential", "TestJobHelperVectorsUpstream"),
	"job.NewIndexFailureCounts":    by("TestJobNewIndexFailureCountsDifferential", "TestJobHelperVectorsUpstream"),
	"job.PastActiveDeadline":       by("TestJobPastActiveDeadlineDifferential", "TestJobHelperVectorsUpstream"),
	"job.RemainingIndexBackoff":    by("TestJobRemainingIndexBackoffDifferential", "TestJobHelperVectorsUpstream"),
	"job.SucceededIndexes":         by("TestJobSucceededIndexesDifferential", "TestJobHelperVectorsUpstream"),
	"job.WantActive":               by("TestJobWantActiveDifferential", "TestJobHelperVectorsUpstream"),
	"rollout.Rollback":             by("TestRolloutRollbackDifferential", "TestRolloutRollbackVectorsUpstream"),
	"statefulset.ClaimIsStale":     by("TestStatefulSetClaimIsStaleDifferential", "TestStatefulSetHelperVectorsUpstream", "TestStatefulSetRuleVectorsUpstream"),
	"statefulset.Ordinals":         by("TestStatefulSetOrdinalsDifferential", "TestStatefulSetHelperVectorsUpstream", "TestStatefulSetIdentityVectorsUpstream"),
	"statefulset.ParentAndOrdinal": by("TestStatefulSetParentAndOrdinalDifferential", "TestStatefulSetHelperVectorsUpstream", "TestStatefulSetIdentityVectorsUpstream"),
	"cronjob.ExcessHistory":        by("TestCronJobExcessHistoryDifferential"),
	"cronjob.IsTooLate":            by("TestCronJobIsTooLateDifferential"),
	"daemonset.IsPodUpdated":       by("TestDaemonSetIsPodUpdatedDifferential"),
	"daemonset.NewPod":             by("TestDaemonSetNewPodDifferential"),
	"daemonset.PinToNode":          by("TestDaemonSetPinToNodeDifferential"),
	"daemonset.TargetNodeName":     by("TestDaemonSetTargetNodeNameDifferential"),
	"node.DefaultTolerations":      by("TestNodeDefaultTolerationsDifferential"),
	"node.ZoneRate":                by("TestNodeZoneRateDifferential"),
	"pdb.DisruptionsAllowed":       by("TestPDBDisruptionsAllowedDifferential"),
	"pdb.ExpectedPods":             by("TestPDBExpectedPodsDifferential"),
	"pdb.StaleDisruptionTarget":    by("TestPDBStaleDisruptionTargetDifferential"),
	"pdb.Validate":                 by("TestPDBValidationParity"),
	"cronjob.ByStartTime":          by(cronjobGenerator),
	"cronjob.Count":                by(cronjobGenerator),
	"cronjob.JobFromTemplate":      by(cronjobGenerator),
	"cronjob.JobName":              by("TestCronJobStepDifferential", cronjobGenerator),
	"cronjob.MostRecent":           by("TestCronJobMostRecentDifferential", "TestCronJobZonesDifferential", "TestCronJobNeverEndsVectorsUpstream", cronjobGenerator),
	"cronjob.Next":                 by("TestCronJobZonesDifferential", cronjobGenerator),
	"cronjob.RequeueAfter":         by("TestCronJobMostRecentDifferential", "TestCronJobZonesDifferential", "TestCronJobNeverEndsVectorsUpstream", cronjobGenerator),
	"cronjob.ScheduledTime":        by(cronjobGenerator),
	"cronjob.Step":                 by("TestCronJobStepDifferential", "TestCronJobStepVectorsUpstream", "TestCronJobZoneStepVectorsUpstream", "TestAdapterCronJobJobDifferential", cronjobGenerator),
	"cronjob.Validate":             by("TestCronJobValidationParity", cronjobGenerator),

	"daemonset.NodeShouldRunDaemonPod": by("TestDaemonSetDiffEligibility"),
	"daemonset.PodTolerations":         by("TestDaemonSetDiffTolerations"),
	"daemonset.Step":                   by("TestDaemonSetDiffSync", "TestDaemonSetVectorsUpstream", "TestAdapterRealDaemonSetUpstream"),
	"daemonset.UnavailableNumbers":     by("TestDaemonSetDiffUnavailableNumbers", "TestDaemonSetNumbersVectorsUpstream"),
	"daemonset.Validate":               by("TestDaemonSetValidationParity", "TestDaemonSetVectorsValidation"),
	"daemonset.ValidateUpdate":         by("TestDaemonSetUpdateValidationParity", "TestDaemonSetUpdateVectorsUpstream"),

	"intstr.Scaled": by("TestIntstrScaledDifferential", "TestIntstrVectorsUpstream"),

	"meta.Conditions.Find":   by("TestRolloutUtilVectorsUpstream"),
	"meta.Conditions.Set":    by("TestRolloutUtilVectorsUpstream"),
	"meta.Conditions.Remove": by("TestRolloutUtilVectorsUpstream"),

	"job.FinishedTime":              by("TestJobBackoffRecordDifferential"),
	"job.IsPodFailed":               by("TestJobPodRulesDifferential"),
	"job.MatchPodFailurePolicy":     by("TestJobMatchPodFailurePolicyDifferential"),
	"job.MatchSuccessPolicy":        by("TestJobMatchSuccessPolicyDifferential"),
	"job.NewBackoffRecord":          by("TestJobBackoffRecordDifferential"),
	"job.ParseIndexes":              by("TestJobParseIndexesDifferential", "TestJobMatchSuccessPolicyDifferential"),
	"job.PastBackoffLimitOnFailure": by("TestJobPodRulesDifferential"),
	"job.PodsForRemoval":            by("TestJobPodsForRemovalDifferential"),
	"job.RemainingBackoff":          by("TestJobRemainingBackoffDifferential"),
	"job.Step":                      by("TestJobStepDifferential", "TestJobStepSequenceDifferential", "TestJobStepVectorsUpstream"),
	"job.TimeLeft":                  by("TestJobTimeLeftDifferential"),
	"job.ValidateUpdate":            by("TestValidationJobUpdateDifferential", "TestJobUpdateVectorsUpstream"),

	"node.ComputeZoneState":      by("TestNodeDiffZoneState", "TestNodeVectorsUpstream"),
	"node.ConditionTaints":       by("TestNodeDiffConditionTaints"),
	"node.EvictionFor":           by("TestNodeDiffEvictionTime"),
	"node.EvictionStep":          by("TestNodeDiffEvictionStep", "TestNodeEvictionStepWritesUpstream"),
	"node.FindUntoleratedTaint":  by("TestNodeDiffTolerations", "TestNodeVectorsUpstream"),
	"node.GroupForPriority":      by("TestNodeDiffShutdownGroups", "TestNodeKubeletVectorsUpstream"),
	"node.LeaseRenewInterval":    by("TestNodeDiffLeaseRenewInterval", "TestNodeDiffHeartbeatDefaults", "TestNodeKubeletVectorsUpstream"),
	"node.LeaseRetryBackoff":     by("TestNodeDiffLeaseRetryBackoff", "TestNodeDiffLeaseRetryTiming", "TestNodeKubeletVectorsUpstream"),
	"node.MatchesNodeSelector":   by("TestNodeDiffAffinity", "TestNodeVectorsUpstream"),
	"node.MigrateShutdownConfig": by("TestNodeDiffShutdownMigrate", "TestNodeKubeletVectorsUpstream"),
	"node.MinTolerationTime":     by("TestNodeDiffEvictionTime", "TestNodeVectorsUpstream"),
	"node.ParseTaints":           by("TestNodeDiffParseTaints"),
	"node.PlanShutdown":          by("TestNodeDiffShutdownManager", "TestNodeDiffShutdownGroups", "TestNodeKubeletVectorsUpstream"),
	"node.StatusReportFrequency": by("TestNodeDiffStatusReportFrequency", "TestNodeDiffHeartbeatDefaults", "TestNodeKubeletVectorsUpstream"),
	"node.StatusUpdate":          by("TestNodeDiffStatusUpdate", "TestNodeKubeletVectorsUpstream"),
	"node.Step":                  by("TestNodeStepDifferential", "TestNodeStepDifferentialFlags", "TestNodeStepVectorsReplay", "TestNodeStepVectorsUpstream"),
	"node.ToleratesTaint":        by("TestNodeDiffTolerations", "TestNodeVectorsUpstream"),
	"node.UpdateHealth":          by("TestNodeDiffHealth"),
	"node.ValidateTaints":        by("TestNodeDiffValidation"),
	"node.ValidateTolerations":   by("TestNodeDiffValidation"),
	"node.Zone":                  by("TestNodeDiffZoneKeys", "TestNodeVectorsUpstream"),
	"node.ZoneStates":            by("TestNodeDiffZoneKeys"),

	"pdb.Drain": {Composes: []string{"pdb.Evict", "pdb.Step"}},
	"pdb.Evict": by("TestPDBEvictDifferential", "TestPDBEvictVectorsUpstream"),
	"pdb.Step":  by("TestPDBSyncDifferential", "TestPDBStepVectorsUpstream"),

	"podgc.Step": by("TestPodGCStepDifferential", "TestPodGCQuarantineDifferential", "TestPodGCVectorsUpstream"),

	"podstatus.AllContainersRestartingCondition": by("TestPodStatusStatusVectorsUpstream"),
	"podstatus.BackoffKey":                       by("TestPodStatusBackoffKey"),
	"podstatus.CanRestartAll":                    by("TestPodStatusStatusVectorsUpstream"),
	"podstatus.ContainersReadyCondition":         by("TestPodStatusVectorsUpstream"),
	"podstatus.CrashLoopBounds":                  by("TestPodStatusCrashLoopVectorsUpstream", "TestPodStatusBackoffDifferential"),
	"podstatus.CrashLoopDelays":                  by("TestPodStatusCrashLoopVectorsUpstream"),
	"podstatus.DeletesBefore":                    by("TestReplicaSetDeletesBeforeDifferential", "TestReplicaSetDeletesBeforeNoCostDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.DeletionCost":                     by("TestPodstatusDeletionCostDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.GracefulDelete":                   by("TestPodStatusGracefulDeleteDifferential"),
	"podstatus.InitializedCondition":             by("TestPodStatusVectorsUpstream"),
	"podstatus.IsActive":                         by("TestPodstatusLifecycleDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.IsAvailable":                      by("TestPodstatusAvailableDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.IsReady":                          by("TestPodstatusAvailableDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.IsTerminal":                       by("TestPodstatusLifecycleDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.IsTerminating":                    by("TestPodstatusLifecycleDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.KubeletPhase":                     by("TestPodStatusPhaseDifferential", "TestPodStatusVectorsUpstream"),
	"podstatus.MatchRule":                        by("TestPodStatusVectorsUpstream"),
	"podstatus.MaxRestarts":                      by("TestPodstatusMaxRestartsDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.NextAvailabilityCheck":            by("TestPodstatusNextCheckDifferential", "TestPodstatusVectorsUpstream"),
	"podstatus.PlanKill": {NoCounterpart: "the kubelet's stop timing (kuberuntime killContainer) runs only against a live container runtime; " +
		"there is no callable pure counterpart (see replayedElsewhere in conformance/upstream/podstatus/pod_test.go)"},
	"podstatus.RankActive":     by("TestPodstatusVectorsUpstream"),
	"podstatus.ReadyCondition": by("TestPodStatusVectorsUpstream"),
	"podstatus.RestartBackoff": by("TestPodStatusBackoffDifferential"),
	"podstatus.ShouldRestart":  by("TestPodStatusVectorsUpstream"),
	"podstatus.Generate":       by("TestPodStatusStatusVectorsUpstream", "TestPodStatusGenerateDifferential"),
	"podstatus.ValidateUpdate": by("TestPodStatusUpdateDifferential", "TestPodStatusUpdateVectorsUpstream"),

	"replicaset.ClaimPod":        by("TestReplicaSetClaimVectorsUpstream"),
	"replicaset.Diff":            by("TestReplicaSetDiffVectorsUpstream"),
	"replicaset.ComputeStatus":   by("TestReplicaSetStatusDifferential"),
	"replicaset.PodsToDelete":    by("TestReplicaSetPodsToDeleteDifferential"),
	"replicaset.RankForDeletion": by("TestReplicaSetRankingDifferential", "TestReplicaSetPairwiseDifferential"),
	"replicaset.SlowStart":       by("TestReplicaSetSlowStartDifferential"),
	"replicaset.Step":            by("TestReplicaSetStepVectorsUpstream"),
	"replicaset.ValidateUpdate":  by("TestReplicaSetUpdateValidationParity", "TestReplicaSetUpdateVectorsUpstream"),

	"rollout.IsComplete":                    by("TestRolloutUtilVectorsUpstream"),
	"rollout.IsProgressing":                 by("TestRolloutUtilVectorsUpstream"),
	"rollout.IsTimedOut":                    by("TestRolloutUtilVectorsUpstream"),
	"rollout.Revision":                      by("TestRolloutUtilVectorsUpstream"),
	"rollout.MaxRevision":                   by("TestRolloutUtilVectorsUpstream"),
	"rollout.LastRevision":                  by("TestRolloutUtilVectorsUpstream"),
	"rollout.SortByRevision":                by("TestRolloutUtilVectorsUpstream"),
	"rollout.FindNewReplicaSet":             by("TestRolloutUtilVectorsUpstream", "TestTemplateEqualityDifferential", "TestTemplateEqualityVectorsUpstream"),
	"rollout.FindOldReplicaSets":            by("TestRolloutUtilVectorsUpstream"),
	"rollout.ReplicasAnnotation":            by("TestRolloutUtilVectorsUpstream"),
	"rollout.ReplicasAnnotationsNeedUpdate": by("TestRolloutUtilVectorsUpstream"),
	"rollout.Proportion":                    by("TestRolloutUtilVectorsUpstream"),
	"rollout.NewReplicaSetAnnotations":      by("TestRolloutUtilVectorsUpstream"),
	"rollout.PausedCondition":               by("TestRolloutUtilVectorsUpstream"),
	"rollout.Bounds":                        by("TestRolloutFencepostsDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.CleanupUnhealthy":              by("TestRolloutRollingDifferential"),
	"rollout.ComputeStatus":                 by("TestRolloutStatusDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.Fenceposts":                    by("TestRolloutFencepostsDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.HistoryToDelete":               by("TestRolloutHistoryDifferential"),
	"rollout.IsSaturated":                   by("TestRolloutProportionalDifferential"),
	"rollout.IsScalingEvent":                by("TestRolloutProportionalDifferential"),
	"rollout.NewReplicaSetReplicas":         by("TestRolloutNewReplicaSetReplicasDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.OldPodsRunning":                by("TestRolloutOldPodsRunningDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.Proportional":                  by("TestRolloutProportionalDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.ReconcileNewReplicaSet":        by("TestRolloutRollingDifferential"),
	"rollout.ReconcileOldReplicaSets":       by("TestRolloutRollingDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.ReplicaSetName":                by("TestRolloutOldPodsRunningDifferential"),
	"rollout.RequeueStuck":                  by("TestRolloutStatusDifferential"),
	"rollout.ScaleDownOld":                  by("TestRolloutRollingDifferential", "TestRolloutWrapVectorsUpstream"),
	"rollout.Step":                          by("TestRolloutStepDifferential", "TestRolloutStepVectorsUpstream", "TestAdapterRealObjectsUpstream"),
	"rollout.SyncStatus":                    by("TestRolloutStatusDifferential"),
	"rollout.ValidateUpdate":                by("TestDeploymentUpdateValidationParity", "TestRolloutUpdateVectorsUpstream"),

	"rolloutstatus.DaemonSet":   by("TestRolloutViewerDifferential", "TestRolloutStatusVectorsUpstream"),
	"rolloutstatus.Deployment":  by("TestRolloutViewerDifferential", "TestRolloutStatusVectorsUpstream"),
	"rolloutstatus.StatefulSet": by("TestRolloutViewerDifferential", "TestRolloutStatusVectorsUpstream"),

	"statefulset.ClaimOwnerRefs":     by("TestStatefulSetClaimRulesDifferential", "TestStatefulSetRuleVectorsUpstream"),
	"statefulset.ClaimOwnerUpToDate": by("TestStatefulSetClaimRulesDifferential", "TestStatefulSetRuleVectorsUpstream"),
	// PodName and ClaimName, which k8s.ToStatefulSetWrites names its pods
	// and claims with; the adapter differentials compare those names.
	"statefulset.Identity":       by("TestAdapterStatefulSetPodDifferential", "TestAdapterStatefulSetClaimsDifferential", "TestStatefulSetIdentityVectorsUpstream"),
	"statefulset.MaxUnavailable": by("TestStatefulSetMaxUnavailableDifferential"),
	"statefulset.Step":           by("TestStatefulSetStepDifferential", "TestStatefulSetStepDifferentialMaxUnavailable", "TestStatefulSetVectorsUpstream", "TestStatefulSetCheckVectorsUpstream", "TestAdapterStatefulSetPodsDifferential", "TestAdapterRealStatefulSetUpstream"),
	// ValidateUpdate validates the new set with ValidateCreate first: the
	// update differential draws new sets with and without a selector that
	// selects the template.
	"statefulset.ValidateCreate": by("TestStatefulSetUpdateValidationParity", "TestStatefulSetCreateVectorsUpstream"),
	"statefulset.ValidateUpdate": by("TestStatefulSetUpdateValidationParity", "TestStatefulSetUpdateVectorsUpstream"),
}

// noDifferentialYet lists the decisions no test of conformance/upstream
// checks against v1.36.3 yet, each with the upstream counterpart a
// differential would call. Their vectors come from upstream test tables,
// seeds or sources, not from executing upstream.
//
// It is empty: every decision has a check. An entry is a known gap, shown
// in DECISIONS.md, and fails TestDecisionsTable until its differential
// lands; a decision listed here that upstreamChecks also maps fails too.
var noDifferentialYet = map[string]string{}

const decisionsDoc = "DECISIONS.md"

// TestDecisionsTable: every registered decision is checked against v1.36.3
// by a test of conformance/upstream that exists, or says why it needs none;
// and DECISIONS.md, the table of decisions, vectors and checks generated
// from the registry, is up to date. KUBESEM_WRITE_DECISIONS=1 rewrites it.
func TestDecisionsTable(t *testing.T) {
	t.Parallel()
	vectors, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	defined, err := upstreamTests(filepath.Join("upstream"))
	if err != nil {
		t.Fatal(err)
	}
	reg := conformance.Registry()
	for _, p := range checkProblems(reg, upstreamChecks, noDifferentialYet, defined) {
		t.Error(p)
	}
	for name, counterpart := range noDifferentialYet {
		t.Errorf("%s: no differential in conformance/upstream yet (counterpart: %s)", name, counterpart)
	}
	doc := decisionsTable(reg, vectors, upstreamChecks, noDifferentialYet)
	if os.Getenv("KUBESEM_WRITE_DECISIONS") == "1" {
		if err := os.WriteFile(decisionsDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(decisionsDoc)
	if err != nil || string(have) != doc {
		t.Errorf("conformance/%s is stale (%v); regenerate: KUBESEM_WRITE_DECISIONS=1 go test ./conformance -run TestDecisionsTable", decisionsDoc, err)
	}
}

// TestDecisionChecksCanFail shows the check failing for a decision without
// an entry, a named test that does not exist, and a composition of an
// unchecked decision.
func TestDecisionChecksCanFail(t *testing.T) {
	t.Parallel()
	reg := []conformance.Decision{{Name: "x.A"}, {Name: "x.B"}, {Name: "x.C"}, {Name: "x.D"}}
	checks := map[string]upstreamCheck{
		"x.A": by("TestThere"),
		"x.B": by("TestGone"),
		"x.C": {Composes: []string{"x.D"}},
	}
	got := checkProblems(reg, checks, nil, map[string]bool{"TestThere": true})
	want := []string{"x.B: TestGone", "x.C: composes x.D", "x.D: no differential"}
	if len(got) != len(want) {
		t.Fatalf("checkProblems = %q; want %d problems", got, len(want))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("problem %d = %q; want it to mention %q", i, got[i], w)
		}
	}
}

// upstreamTests returns the names of the test functions defined in the
// *_test.go files of dir and its subdirectories (one package per kind).
func upstreamTests(dir string) (map[string]bool, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no test files in %s", dir)
	}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	out := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			out[string(m[1])] = true
		}
	}
	return out, nil
}

// checkProblems reports decisions of reg with neither a check nor a
// temporary gap, checks naming tests not in defined, compositions of
// decisions that are not themselves checked by tests, entries of
// unregistered decisions, and decisions both checked and listed as gaps.
func checkProblems(reg []conformance.Decision, checks map[string]upstreamCheck, gaps map[string]string, defined map[string]bool) []string {
	var problems []string
	registered := map[string]bool{}
	for _, d := range reg {
		registered[d.Name] = true
		c, ok := checks[d.Name]
		_, gap := gaps[d.Name]
		switch {
		case ok && gap:
			problems = append(problems, d.Name+": has a check; remove it from noDifferentialYet")
		case !ok && !gap:
			problems = append(problems, d.Name+": no differential in conformance/upstream and no reason why none is needed")
		}
		if !ok {
			continue
		}
		kinds := 0
		for _, set := range []bool{len(c.Tests) > 0, len(c.Composes) > 0, c.NoCounterpart != ""} {
			if set {
				kinds++
			}
		}
		if kinds != 1 {
			problems = append(problems, d.Name+": give exactly one of Tests, Composes, NoCounterpart")
		}
		for _, name := range c.Tests {
			if !defined[name] {
				problems = append(problems, fmt.Sprintf("%s: %s is not defined in conformance/upstream (no `func %s(`)", d.Name, name, name))
			}
		}
		for _, part := range c.Composes {
			if len(checks[part].Tests) == 0 {
				problems = append(problems, fmt.Sprintf("%s: composes %s, which no differential checks", d.Name, part))
			}
		}
	}
	for _, m := range []map[string]bool{keysOf(checks), keysOf(gaps)} {
		for name := range m {
			if !registered[name] {
				problems = append(problems, name+": listed but not registered")
			}
		}
	}
	slices.Sort(problems)
	return problems
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// decisionsTable renders DECISIONS.md.
func decisionsTable(reg []conformance.Decision, vectors []conformance.Vector, checks map[string]upstreamCheck, gaps map[string]string) string {
	count := map[string]int{}
	for _, v := range vectors {
		count[v.Decision]++
	}
	var tested, composed, none, missing int
	var rows strings.Builder
	for _, d := range reg {
		c := checks[d.Name]
		var how string
		switch {
		case len(c.Tests) > 0:
			tested++
			how = strings.Join(c.Tests, ", ")
		case len(c.Composes) > 0:
			composed++
			how = "none needed: a composition of " + strings.Join(c.Composes, " and ")
		case c.NoCounterpart != "":
			none++
			how = "none possible: " + c.NoCounterpart
		default:
			missing++
			how = "**no differential yet** (counterpart: " + gaps[d.Name] + ")"
		}
		fmt.Fprintf(&rows, "| %s | %d | %s |\n", d.Name, count[d.Name], how)
	}
	var b strings.Builder
	b.WriteString("# Decisions, vectors and their upstream checks\n\n")
	b.WriteString("Generated by `TestDecisionsTable` (conformance/decisions_test.go) from `conformance.Registry()`,\n")
	b.WriteString("the vectors in testdata/ and the table `upstreamChecks`; do not edit. Regenerate with\n")
	b.WriteString("`KUBESEM_WRITE_DECISIONS=1 go test ./conformance -run TestDecisionsTable`.\n\n")
	b.WriteString("The last column names the tests of conformance/upstream that compare the decision with\n")
	b.WriteString("Kubernetes v1.36.3 (on random states, or by replaying its vectors), or says why there is none.\n")
	fmt.Fprintf(&b, "TestGenerateCronJobVectors recomputes the cronjob wants with upstream on every run and fails when a file differs (KUBESEM_GEN_CRONJOB=1 rewrites them).\n\n")
	fmt.Fprintf(&b, "%d decisions, %d vectors: %d checked by a differential, %d compositions of checked decisions, "+
		"%d without an upstream counterpart, %d without a differential yet.\n\n",
		len(reg), len(vectors), tested, composed, none, missing)
	b.WriteString("| Decision | Vectors | Checked against v1.36.3 by |\n|---|---:|---|\n")
	b.WriteString(rows.String())
	return b.String()
}
