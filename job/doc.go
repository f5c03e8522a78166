// Package job computes what the Kubernetes Job controller and the
// TTL-after-finished controller decide: how many pods a Job runs, which to
// create and delete, how failures are counted and backed off, when a Job
// succeeds or fails, and when a finished Job is deleted.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates
// (JobBackoffLimitPerIndex, JobSuccessPolicy, JobPodReplacementPolicy,
// JobManagedBy GA; MutableSchedulingDirectivesForSuspendedJobs Beta on;
// SidecarContainers GA). [Options] names the deviations: BackoffCap (the
// documented 6 minutes instead of 10) and KeepStartTimeOnSuspend.
//
// # Rules
//
// Pod counts: [WantActive], [PodsForRemoval],
// [IsPodFailed], [Job.ReplacesOnlyFailed].
//
// Indexed jobs: [ParseIndexes], [ValidateIndexes], [Indexes.String],
// [Indexes.Total], [Indexes.Has], [CompletionIndex], [GenerateNameWithIndex],
// [FirstPendingIndexes] (at most [MaxPendingIndexes]), [SucceededIndexes],
// [FailedIndexes], [NewIndexFailureCounts].
//
// Failures: [BackoffDelay], [RemainingBackoff], [RemainingIndexBackoff],
// [NewBackoffRecord], [FinishedTime], [PastBackoffLimitOnFailure],
// [PastActiveDeadline], [MatchPodFailurePolicy], [FailJobMessage].
//
// Success: [MatchSuccessPolicy], [Job.FinishedCondition], [Job.IsFinished],
// [Job.IsSucceeded].
//
// TTL-after-finished: [Job.NeedsCleanup], [TimeLeft].
//
// One sync: [Step] (with the backoff record as controller memory,
// Plan.Memory), [Validate]. The Plan lists the events the sync records
// (Plan.Events: the pod control's SuccessfulCreate and SuccessfulDelete,
// Suspended, Resumed, Completed, TooManySucceededPods, and the Failed
// condition's reason as a warning), the status written before finalizers
// are removed (Plan.FlushStatus) and the one after ([Plan.StatusWrites]);
// [Plan.Writes] turns it into the API requests the sync sends (pod
// creates from the template with the tracking finalizer, the index
// annotation, label and hostname; finalizer patches; deletes; status
// updates).
//
// # Divergences
//
//   - Backoff cap: v1.36.3 caps the pod failure backoff at 10m; the
//     documentation (seed 000:L3032, seed 004) says 6m. Options.BackoffCap
//     (zero: 10m) takes 6m for the documented cap, Options.BackoffBase
//     (zero: 10s) changes the base (vectors with "backoffCap" and
//     "backoffBase" in testdata/job/backoff.json and step.json).
//   - Options.KeepStartTimeOnSuspend (off by default; v1.36.3 has gate
//     MutableSchedulingDirectivesForSuspendedJobs on) keeps status.startTime
//     when a Job is suspended (vectors with "keepStartTimeOnSuspend" in
//     testdata/job/step.json).
//   - Ties: where upstream's unstable sort leaves the order of equally ranked
//     pods open (which active pods to delete), podstatus.RankActive orders them
//     by name, then UID.
//   - Informer order: upstream walks pods in its informer's order, which is
//     arbitrary; [Step] walks them by name, then UID, so its Plan is
//     independent of the input's order (a property test). This fixes which
//     pod a FailJob message names when several match, and which failed pod
//     of an index keeps its finalizer when a pod with a higher failure count
//     finished earlier than another (upstream keeps either, by its list's
//     order).
//   - None in arithmetic: counters that upstream sums in int32 (status.failed
//     plus new failures, OnFailure restart sums, index failure counts) wrap
//     as upstream's do, and durations computed in int64 nanoseconds wrap as
//     upstream's do: activeDeadlineSeconds × 1s (9223372037 is past at
//     once), and a backoff whose last failure lies centuries ahead comes
//     out negative (vectors "wrap: …" in testdata/job/wrap.json, replayed
//     through upstream's syncJob by conformance/upstream
//     TestJobStepVectorsUpstream). Where status.succeeded would wrap,
//     v1.36.3's Job controller panics (its pods-finished Prometheus counter
//     cannot decrease): there is no upstream answer, and [Step] returns a
//     field.ErrOverflow error at status.succeeded saying so (checked against
//     the panic by TestJobStepDifferential).
//   - RemainingBackoff with failures but no last failure time is 0 (upstream
//     dereferences a nil pointer).
//   - A pod's unparsable completion index is not a validation error: as in
//     upstream, the pod has no index and is deleted.
//   - Step assumes the controller's expectations are met and every API call
//     succeeds, as upstream's unit tests do with FakePodControl.
//   - Upstream creates, deletes and patches pods concurrently; Plan.Events
//     and Plan.Writes give them in the Plan's order, one of the orders the
//     API server may see. A SuccessfulCreate event carries no object and
//     no message: the pod's name is the API server's (upstream's message
//     is "Created pod: <name>").
//   - Writes leaves out the JOB_COMPLETION_INDEX environment variable
//     upstream adds to an Indexed job's containers (containers' env is not
//     modelled).
//
// # Inputs
//
// Time is the now argument; there is no I/O and no global state; functions
// are safe for concurrent use and never modify their inputs. API defaults
// that the controller relies on are applied where read: parallelism 1,
// backoffLimit 6 (MaxInt32 with backoffLimitPerIndex), completionMode
// NonIndexed, onPodConditions status True. Cost is bounded by the number of
// pods and intervals and the length of index strings, never by completions;
// the one answer whose size is an input number, FirstPendingIndexes, refuses
// a count above MaxPendingIndexes.
//
// # Errors
//
// Validate and Step return a *field.Error naming the field path
// (spec.completions, spec.podFailurePolicy.rules[0].action, pods[2].metadata.uid)
// and wrapping field.ErrNegative, ErrInvalid, ErrRequired, ErrUnsupported or
// ErrDuplicate. TimeLeft returns field.ErrRequired for a job it cannot time.
// ValidateIndexes and FirstPendingIndexes report malformed intervals and
// out-of-range counts the same way (count, completions, succeeded[i]).
//
// Writes returns a *field.Error when the Plan names a pod the inputs do not
// hold (delete[i].name, removeFinalizers[i]).
//
// Vectors live in testdata/job.
package job
