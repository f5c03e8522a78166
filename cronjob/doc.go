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
//   - Seed 000:L3470 says more than 100 missed start times prevent a start
//     (not started, error logged); v1.36.3 starts the most recent one and
//     warns TooManyMissedTimes. Default v1.36.3; Options.RefuseTooManyMissed
//     (off by default) gives the documented refusal, under which the CronJob
//     never catches up, as kubernetes/kubernetes#42649 reported (vectors
//     "seed/outage … documented refusal" in testdata/cronjob/step.json,
//     ExampleStep).
//   - Seed 000:L3480 says with startingDeadlineSeconds 200 and an outage
//     08:29–10:21 the Job starts at 10:22 after 3 misses; v1.36.3, syncing
//     at 10:21:00, starts the 10:21 Job at once and counts 4 start times in
//     the last 200 s (vectors "seed/outage …" in testdata/cronjob/step.json;
//     the exact answer of mostRecentScheduleTime and tooLate). Without a
//     deadline it counts 112 ("many") and still starts the 10:21 Job.
//   - Options.LocalTimeZone (UTC when empty) is the zone
//     kube-controller-manager runs in, for schedules without spec.timeZone
//     (TestZones).
//   - Time zones resolve as kube-controller-manager resolves them: from the
//     machine's zone database (ZONEINFO, /usr/share/zoneinfo), falling back
//     to the copy compiled in with time/tzdata, so a zone name works on any
//     machine; answers about future offset changes follow the tzdata
//     version in use, as upstream's do.
//   - In every zone whose offset changes, [Schedule.Next] (and so every
//     start time the controller computes: most recent, missed class,
//     requeue, [Step], [Replay], kubesem simulate cronjob) is robfig/cron
//     v3.0.1's own walk, as v1.36.3 uses it, quirks included: after
//     Australia/Lord_Howe's 30-minute change "0 3 * * *" skips a day (after
//     2026-04-04T15:00Z it answers 2026-04-05T16:30Z), in Pacific/Chatham
//     (02:45 change) it can answer a time before its argument, around
//     midnight changes (America/Santiago, Asia/Beirut) it can skip a day,
//     and a start time in a spring-forward gap does not fire that day.
//     Options.WallClockNext (off by default) answers by the wall clock
//     instead: each matching wall reading fires once per offset it occurs
//     in, without robfig's quirks after 30-minute, 02:45 and midnight
//     changes. Vectors: testdata/cronjob/zones.json (the WallClockNext ones
//     named so) and zones_step.json (Steps replayed through upstream's
//     controller). conformance/upstream TestCronJobZonesDifferential
//     compares Next, MostRecent (with and without the starting deadline),
//     RequeueAfter and a whole sync with v1.36.3 on 10,000 states drawn from
//     all 598 zones of the zone database, within 48 h of every offset change
//     from 2000 to 2037.
//   - [Schedule.Count](after, until) is the number of start times stepping
//     Next from after visits up to until, quirks included (a Lord_Howe week
//     the walk skips is not counted), stopping where a step does not move
//     forward or never returns. Upstream has no such count (it stops at
//     100). It counts on each offset period's wall clock and, at each change
//     robfig does not step as the wall clock, follows robfig's walk across
//     it on a model of the zone with that one change (or shows in a few
//     operations that the schedule crosses it as the wall clock), taking
//     robfig's own steps only where the model cannot follow, so its cost
//     grows with the offset changes in the window (each read from the
//     schedule's table of its zone's changes from 1970 to 2037, else two
//     zone lookups, and a run of changes the schedule crosses as the wall
//     clock does summed from a per-schedule table; about 0.2 µs over ten
//     years in New York, Lord Howe or Santiago), not
//     with the start times (TestCountMatchesRobfig and
//     TestCountAcrossChanges: random schedules in zones with 30- and
//     45-minute and midnight changes, against robfig/cron's own Next;
//     TestCountNearChanges: 26 zones with such changes, against stepping).
//   - Where v1.36.3 never finishes a CronJob sync: upstream's loops have no
//     bound in three cases: a schedule whose start times are more than five
//     years apart ("0 0 29 2 *" across 2100: robfig answers the zero time
//     and the walk restarts from year 1), stepping that comes back to a time
//     it visited (the same restart after robfig's walk derails at
//     America/Asuncion's midnight change), and robfig's Next itself in
//     Pacific/Apia and Pacific/Fakaofo around 2011-12-30, the day they
//     skipped (package time resolves that day's midnight to the one before,
//     and robfig asks again for ever). There is no upstream answer;
//     [MostRecent], [RequeueAfter], [Step] and [Schedule.TryNext] return an
//     error wrapping [ErrNeverEnds] (spec.schedule, field.ErrUnsupported),
//     and Next the zero time. Vectors: testdata/cronjob/never.json
//     (upstream's loop is shown to repeat an argument of Next, hence never
//     to end, by TestCronJobNeverEndsVectorsUpstream) and the Apia case in
//     zones.json.
//   - CronJob name already taken: when the Job for the due time already
//     exists, v1.36.3 reads it back with an empty namespace, gets "not
//     found" and ends the sync with an error, so it never adopts it; [Step]
//     returns Outcome AlreadyExists and changes nothing.
//   - Informer order: upstream walks Jobs in its informer's order, which is
//     arbitrary; [Step] walks them by name, then UID, so its Plan (and the
//     order of its events) is independent of the input's order.
//   - nil history limits take the API defaults 3 and 1 (the API server sets
//     them; upstream's controller alone would skip cleanup).
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
