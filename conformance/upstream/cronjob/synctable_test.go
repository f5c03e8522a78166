package cronjob_test

import (
	"time"

	"k8s.io/utils/ptr"
)

// syncCase is one row of upstream's TestControllerV2SyncCronJob table
// (pkg/controller/cronjob/cronjob_controllerv2_test.go, v1.36.3), the rows
// that a pure Step can express: rows that inject API errors
// (jobCreateError, jobGetErr) or a lagging lister are left out.
type syncCase struct {
	name                       string
	concurrencyPolicy          string
	suspend                    bool
	schedule                   string
	timeZone                   *string
	deadline                   int64
	successfulJobsHistoryLimit *int32
	ranPreviously, stillActive bool
	cronjobCreationTime        time.Time
	jobCreationTime            time.Time
	lastScheduleTime           time.Time
	now                        time.Time
	expectCreate               bool
	expectDelete               bool
	expectCompleted            bool
	expectActive               int
	expectedWarnings           int
	expectErr                  bool
	expectRequeueAfter         bool
	expectedRequeueDuration    time.Duration
	expectUpdateStatus         bool
	jobPresentInCJActiveStatus bool
}

var (
	shortDead  int64 = 10
	mediumDead int64 = 2 * 60 * 60
	longDead   int64 = 1000000
	noDead     int64 = -12345

	errorSchedule = "obvious error schedule"
	onTheHour     = "0 * * * ?"
	everyHour     = "@every 1h"
	errorTimeZone = "bad timezone"
	newYork       = "America/New_York"

	nextScheduleDelta = 100 * time.Millisecond
)

func rfc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func topOfTheHour() *time.Time { t := rfc("2016-05-19T10:00:00Z"); return &t }

func justAfterThePriorHour() time.Time { return rfc("2016-05-19T09:01:00Z") }

func justBeforeThePriorHour() time.Time { return rfc("2016-05-19T08:59:00Z") }

func justAfterTheHour() *time.Time { t := rfc("2016-05-19T10:01:00Z"); return &t }

func justBeforeTheHour() time.Time { return rfc("2016-05-19T09:59:00Z") }

func justBeforeTheNextHour() time.Time { return rfc("2016-05-19T10:59:00Z") }

func weekAfterTheHour() time.Time { return rfc("2016-05-26T10:00:00Z") }

func justAfterTheHourInZone(tz string) time.Time {
	loc, err := time.LoadLocation(tz)
	if err != nil {
		panic(err)
	}
	t, err := time.ParseInLocation(time.RFC3339, "2016-05-19T10:01:00Z", loc)
	if err != nil {
		panic(err)
	}
	return t
}

var _ = ptr.To[int32]

var syncCases = []syncCase{
	{name: "never ran, not valid schedule, A", concurrencyPolicy: "Allow", schedule: errorSchedule, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectedWarnings: 1, jobPresentInCJActiveStatus: true},
	{name: "never ran, not valid schedule, F", concurrencyPolicy: "Forbid", schedule: errorSchedule, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectedWarnings: 1, jobPresentInCJActiveStatus: true},
	{name: "never ran, not valid schedule, R", concurrencyPolicy: "Forbid", schedule: errorSchedule, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectedWarnings: 1, jobPresentInCJActiveStatus: true},
	{name: "never ran, not valid time zone", concurrencyPolicy: "Allow", schedule: onTheHour, timeZone: &errorTimeZone, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectedWarnings: 1, jobPresentInCJActiveStatus: true},
	{name: "never ran, not time, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "never ran, not time, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "never ran, not time, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "never ran, not time in zone", concurrencyPolicy: "Allow", schedule: onTheHour, timeZone: &newYork, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time in zone, but time zone disabled", concurrencyPolicy: "Allow", schedule: onTheHour, timeZone: &newYork, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justAfterTheHourInZone(newYork), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time in zone", concurrencyPolicy: "Allow", schedule: onTheHour, timeZone: &newYork, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justAfterTheHourInZone(newYork), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time in zone, but TZ is also set in schedule", concurrencyPolicy: "Allow", schedule: "TZ=UTC " + onTheHour, timeZone: &newYork, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: justAfterTheHourInZone(newYork), expectCreate: true, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time, suspended", concurrencyPolicy: "Allow", suspend: true, schedule: onTheHour, deadline: noDead, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), jobPresentInCJActiveStatus: true},
	{name: "never ran, is time, past deadline", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: shortDead, jobCreationTime: justAfterThePriorHour(), now: justAfterTheHour().Add(time.Minute * time.Duration(shortDead+1)), expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute - time.Minute*time.Duration(shortDead+1) + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "never ran, is time, not past deadline", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, not time, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectCompleted: true, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, not time, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectCompleted: true, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, not time, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectCompleted: true, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, is time, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, is time, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, is time, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, is time, suspended", concurrencyPolicy: "Allow", suspend: true, schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCompleted: true, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, is time, past deadline", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: shortDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCompleted: true, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, is time, not past deadline", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "still active, not time, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "still active, not time, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "still active, not time, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: justBeforeTheHour(), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "still active, is time, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectActive: 2, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "still active, is time, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "still active, is time, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectDelete: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "still active, is time, suspended", concurrencyPolicy: "Allow", suspend: true, schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectActive: 1, jobPresentInCJActiveStatus: true},
	{name: "still active, is time, past deadline", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: shortDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "still active, is time, not past deadline", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectActive: 2, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, not past deadline, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, not past deadline, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: longDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, not past deadline, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: longDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, no deadline, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, no deadline, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, no deadline, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: noDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, past medium deadline, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: mediumDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, past short deadline, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: shortDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, past medium deadline, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: mediumDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, past short deadline, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: shortDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, past medium deadline, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: mediumDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "prev ran but done, long overdue, past short deadline, F", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: shortDead, ranPreviously: true, jobCreationTime: justAfterThePriorHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "this started but is not present in cronjob active list, not past deadline, A", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true, jobCreationTime: topOfTheHour().Add(time.Millisecond * 100), now: justAfterTheHour().Add(time.Millisecond * 100), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute - time.Millisecond*100 + nextScheduleDelta},
	{name: "this started but is not present in cronjob active list, not past deadline, f", concurrencyPolicy: "Forbid", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true, jobCreationTime: topOfTheHour().Add(time.Millisecond * 100), now: justAfterTheHour().Add(time.Millisecond * 100), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute - time.Millisecond*100 + nextScheduleDelta},
	{name: "this started but is not present in cronjob active list, not past deadline, R", concurrencyPolicy: "Replace", schedule: onTheHour, deadline: longDead, ranPreviously: true, stillActive: true, jobCreationTime: topOfTheHour().Add(time.Millisecond * 100), now: justAfterTheHour().Add(time.Millisecond * 100), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute - time.Millisecond*100 + nextScheduleDelta},
	{name: "with @every schedule, never ran, not time", concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, cronjobCreationTime: justBeforeTheHour(), jobCreationTime: justBeforeTheHour(), now: *topOfTheHour(), expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, never ran, is time", concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeThePriorHour(), now: justBeforeTheHour(), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, never ran, is time, past deadline", concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeThePriorHour(), now: justBeforeTheHour().Add(time.Second * time.Duration(shortDead+1)), expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - time.Second*time.Duration(shortDead+1) + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, never ran, is time, not past deadline", concurrencyPolicy: "Allow", schedule: everyHour, deadline: longDead, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeThePriorHour(), now: justBeforeTheHour().Add(time.Second * time.Duration(shortDead-1)), expectCreate: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - time.Second*time.Duration(shortDead-1) + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, prev ran but done, not time", concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeThePriorHour(), lastScheduleTime: justBeforeTheHour(), now: *topOfTheHour(), expectCompleted: true, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, prev ran but done, is time", concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeThePriorHour(), lastScheduleTime: justBeforeTheHour(), now: topOfTheHour().Add(1 * time.Hour), expectCreate: true, expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, prev ran but done, is time, past deadline", concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, ranPreviously: true, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeThePriorHour(), lastScheduleTime: justBeforeTheHour(), now: justBeforeTheNextHour().Add(time.Second * time.Duration(shortDead+1)), expectCompleted: true, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - time.Second*time.Duration(shortDead+1) + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, still active, not time", concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, stillActive: true, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeTheHour(), lastScheduleTime: justBeforeTheHour(), now: *topOfTheHour(), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 1*time.Minute + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, still active, is time", concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, stillActive: true, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeThePriorHour(), lastScheduleTime: justBeforeThePriorHour(), now: *justAfterTheHour(), expectCreate: true, expectActive: 2, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - 2*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, still active, is time, past deadline", concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, ranPreviously: true, stillActive: true, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeTheHour(), lastScheduleTime: justBeforeTheHour(), now: justBeforeTheNextHour().Add(time.Second * time.Duration(shortDead+1)), expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - time.Second*time.Duration(shortDead+1) + nextScheduleDelta, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, still active, is time, not past deadline", concurrencyPolicy: "Allow", schedule: everyHour, deadline: longDead, ranPreviously: true, stillActive: true, cronjobCreationTime: justBeforeThePriorHour(), jobCreationTime: justBeforeTheHour(), lastScheduleTime: justBeforeTheHour(), now: justBeforeTheNextHour().Add(time.Second * time.Duration(shortDead-1)), expectCreate: true, expectActive: 2, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - time.Second*time.Duration(shortDead-1) + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, prev ran but done, long overdue, no deadline", concurrencyPolicy: "Allow", schedule: everyHour, deadline: noDead, ranPreviously: true, cronjobCreationTime: justAfterThePriorHour(), jobCreationTime: justAfterThePriorHour(), lastScheduleTime: *justAfterTheHour(), now: weekAfterTheHour(), expectCreate: true, expectCompleted: true, expectActive: 1, expectedWarnings: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Minute + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "with @every schedule, prev ran but done, long overdue, past deadline", concurrencyPolicy: "Allow", schedule: everyHour, deadline: shortDead, ranPreviously: true, cronjobCreationTime: justAfterThePriorHour(), jobCreationTime: justAfterThePriorHour(), lastScheduleTime: *justAfterTheHour(), now: weekAfterTheHour().Add(1 * time.Minute).Add(time.Second * time.Duration(shortDead+1)), expectCompleted: true, expectActive: 1, expectRequeueAfter: true, expectedRequeueDuration: 1*time.Hour - time.Second*time.Duration(shortDead+1) + nextScheduleDelta, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "do nothing if the namespace is terminating", concurrencyPolicy: "Allow", schedule: onTheHour, deadline: noDead, ranPreviously: true, stillActive: true, jobCreationTime: justAfterThePriorHour(), now: *justAfterTheHour(), expectActive: 0, expectErr: true, expectRequeueAfter: false, expectUpdateStatus: false, jobPresentInCJActiveStatus: false},
	{name: "set lastsuccessfultime if successfulJobHistoryLimit is zero", schedule: onTheHour, successfulJobsHistoryLimit: ptr.To[int32](0), ranPreviously: true, expectCompleted: true, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "set lastsuccessfultime if successfulJobHistoryLimit is ten", schedule: onTheHour, successfulJobsHistoryLimit: ptr.To[int32](10), ranPreviously: true, expectCompleted: true, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
	{name: "set lastsuccessfultime if successfulJobHistoryLimit is nil", schedule: onTheHour, ranPreviously: true, expectCompleted: true, expectUpdateStatus: true, jobPresentInCJActiveStatus: true},
}
