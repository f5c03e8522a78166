// Package cronjob computes what the CronJob controller does: when a
// schedule fires, which start time is due after a gap, whether it is too
// late, which Jobs are created, replaced, skipped or cleaned up, and when the
// controller looks again.
//
// Reference semantics: Kubernetes v1.36.3 (controller v2; CronJob has no
// feature gates) with robfig/cron v3.0.1 as its schedule parser. [Options]
// changes them: RefuseTooManyMissed reproduces the documented refusal to
// start after more than 100 missed times, and LocalTimeZone names the zone
// kube-controller-manager runs in (UTC when empty).
//
// # Rules
//
//   - Schedules: [ParseSchedule], [Schedule.Next], [Schedule.Count],
//     [Validate]
//   - Due times: [MostRecent], [ScheduledTime], [RequeueAfter],
//     [IsTooLate]
//   - Jobs: [JobName], [JobFromTemplate], [ByStartTime], [ExcessHistory]
//   - One sync: [Step], with the events it records (Plan.Events, reasons
//     the Reason… constants) and the API requests it sends
//     ([Plan.Writes]: Job deletes with background propagation, the Job
//     create, the status update); a window of syncs: [Replay]
//
// # Time zones and daylight saving
//
// A schedule runs in spec.timeZone, else in Options.LocalTimeZone. The IANA
// database is compiled in (time/tzdata), so names resolve on any machine;
// package time prefers the system's copy when present, so results follow
// the host's tzdata version where it has one, as kube-controller-manager
// does. Across a daylight-saving change start times follow robfig/cron: in
// America/New_York "30 2 * * *" does not fire on the spring-forward day and
// "30 1 * * *" fires twice on the fall-back day (vectors dst/...).
//
// # Missed start times
//
// [MostRecent] reproduces upstream's estimate exactly, quirks included: the
// estimate divides the elapsed time by the first interval t2 − t1, so with
// irregular schedules it can find no start time at all although some were
// missed (kubernetes/kubernetes#118706), and "many" (> 100) only warns in
// v1.36.3. [Schedule.Count] is the exact number, computed arithmetically
// from the schedule's bit sets, stepping robfig/cron only around changes of
// offset it does not step as the wall clock.
//
// # Bounded work
//
// Every computation is bounded whatever the instants, from year 0 to
// 9999, in every zone: counting and upstream's stepping from its estimate
// jump over each stretch of one offset (the era of local mean time before
// a zone's first change included) and repeat whole 400-year cycles once a
// zone's offsets follow its rule, so their work grows with the changes of
// offset in the listed transitions, not with the start times or the
// years. v1.36.3 itself steps every start time from its estimate, which
// for a CronJob created more than 292 years before now (a missing
// creationTimestamp reads as 0001-01-01T00:00:00Z) starts 292 years after
// the creation: kubesem gives its answer without the steps.
//
// # Divergences
//
//   - Seed 000:L3470 says more than 100 missed start times prevent a start;
//     v1.36.3 starts the most recent one and warns TooManyMissedTimes.
//     Default v1.36.3; Options.RefuseTooManyMissed gives the seed.
//   - Seed 000:L3480 says with startingDeadlineSeconds 200 and an outage
//     08:29–10:21 the Job starts at 10:22 after 3 misses; v1.36.3, syncing
//     at 10:21:00, starts the 10:21 Job at once and counts 4 start times in
//     the last 200 s (vectors seed/outage...).
//   - nil history limits take the API defaults 3 and 1 (the API server sets
//     them; upstream's controller alone would skip cleanup).
//   - Where v1.36.3's sync never finishes (start times more than five
//     years apart, stepping that cycles as after Pacific/Chatham's change,
//     robfig/cron's Next in Pacific/Apia and Pacific/Fakaofo around the day
//     they skipped, 2011-12-30), kubesem returns an error wrapping
//     [ErrNeverEnds] instead of looping.
//   - In every zone whose offset changes, [Schedule.Next] is robfig/cron's
//     own walk, as v1.36.3 uses it: after Australia/Lord_Howe's 30-minute
//     change "0 3 * * *" skips a day, in Pacific/Chatham it can answer a
//     time before its argument, and around midnight changes
//     (America/Santiago, Asia/Beirut) it can drift (vectors zones/...).
//     Options.WallClockNext answers by the wall clock instead. Count is
//     the number of steps of that walk.
//   - [Step] takes the Jobs given as the truth (upstream re-reads the API
//     server before dropping an active entry or reporting UnexpectedJob) and
//     assumes creates and deletes succeed.
//
// # Inputs
//
// Time is the now argument; there is no I/O and no global state beyond the
// compiled-in zone database; all functions are safe for concurrent use and
// never modify their inputs.
//
// # Errors
//
// Functions return a *field.Error: spec.schedule and spec.timeZone
// (field.ErrInvalid, with [ErrNoInterval] for schedules whose first two
// times are under a second apart), metadata.name, the non-negative fields
// (field.ErrNegative), spec.concurrencyPolicy (field.ErrUnsupported), and
// nil inputs (field.ErrRequired).
//
// Vectors: testdata/cronjob.
package cronjob
