// Package kubesem states, as pure functions, what the Kubernetes workload
// controllers decide. The rules live in the sub-packages (intstr, podstatus,
// replicaset, rollout, job, cronjob, ...); this package only carries the
// conformance vectors, so that any build of kubesem can run them.
//
// # Divergences
//
// kubesem follows Kubernetes v1.36.3 with its default feature gates. Where
// the documentation (the seeds in shared/seeds) and v1.36.3 disagree,
// v1.36.3 is the default and the documented behaviour, where it is worth
// having, is a named option, off by default. Each package's documentation
// lists its notes under Divergences, each naming its vectors' source. The
// options, by package:
//
//   - replicaset: DisablePodDeletionCost, DisableTerminatingReplicas (gates
//     on in v1.36.3), BurstReplicas (500)
//   - job: BackoffCap and BackoffBase (10m and 10s; the documentation says
//     a 6-minute cap), KeepStartTimeOnSuspend
//   - cronjob: RefuseTooManyMissed (the documented refusal after more than
//     100 missed start times), LocalTimeZone (UTC), WallClockNext (start
//     times by the wall clock, without robfig/cron's quirks at offset
//     changes)
//   - podstatus: DisableRestartAllContainersOnContainerExits (gate beta, on)
//   - statefulset: MaxUnavailableStatefulSet (gate beta, off),
//     RefuseOrdinalsPastInt32
//   - daemonset and node: TaintTolerationComparisonOperators (gate alpha,
//     off); daemonset: BurstReplicas (250), BackoffBase and BackoffCap (1s
//     and 15m); node: NodeMonitorGracePeriod (50s; the documentation says 40s)
//
// LogarithmicScaleDown, the Job GA gates (JobBackoffLimitPerIndex,
// JobSuccessPolicy, JobPodReplacementPolicy, JobManagedBy) and
// SidecarContainers are locked on in v1.36.3 and are not options.
//
// Where upstream is nondeterministic (unstable sorts, informer and Go map
// order, concurrent requests), kubesem pins an order (name, then UID) and,
// where the choice matters, reports the tie (vectors use wantOneOf).
package kubesem

import (
	"embed"
	"io/fs"
)

//go:embed testdata
var vectors embed.FS

// Vectors returns the conformance vectors shipped with this version of
// kubesem: a file system with one folder per package holding JSON arrays of
// vectors, as conformance.Load reads them.
func Vectors() fs.FS {
	sub, err := fs.Sub(vectors, "testdata")
	if err != nil {
		return vectors
	}
	return sub
}
