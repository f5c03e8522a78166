package cronjob

import (
	"github.com/kubesem/kubesem/internal/deepcopy"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/internal/stable"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

// ScheduledTimestampAnnotation records, on every Job a CronJob creates, the
// start time it was created for (RFC 3339, in the CronJob's zone).
const ScheduledTimestampAnnotation = "batch.kubernetes.io/cronjob-scheduled-timestamp"

// MaxNameLength is the longest CronJob name validation accepts: Job names
// are at most 63 characters and the controller appends 11 ("-" and the
// start time in Unix minutes).
const MaxNameLength = 52

// JobName returns the name of the Job started for a start time:
// "<cronjob>-<start time in whole minutes since the Unix epoch>".
//
// Source: upstream pkg/controller/cronjob/cronjob_controllerv2.go
// getJobName, utils.go getTimeHashInMinutes (v1.36.3).
func JobName(cronJobName string, scheduled time.Time) string {
	return cronJobName + "-" + strconv.FormatInt(scheduled.Unix()/60, 10)
}

// JobFromTemplate returns the Job the controller creates for a start time:
// the template's labels, annotations and spec, named by [JobName], in the
// CronJob's namespace, created at the start time, controlled by the CronJob
// (meta.NewControllerRef: controller and blockOwnerDeletion true), and annotated with
// [ScheduledTimestampAnnotation] in spec.timeZone (UTC when unset). It
// returns a *field.Error at spec.timeZone when the zone is unknown.
//
// Source: upstream pkg/controller/cronjob/utils.go getJobFromTemplate2
// (v1.36.3).
func JobFromTemplate(cj *CronJob, scheduled time.Time, opts Options) (*job.Job, error) {
	loc, err := zoneOf(cj, opts)
	if err != nil {
		return nil, err
	}
	labels := maps.Clone(cj.Spec.JobTemplate.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	annotations := maps.Clone(cj.Spec.JobTemplate.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[ScheduledTimestampAnnotation] = scheduled.In(loc).Format(time.RFC3339)
	j := &job.Job{
		ObjectMeta: meta.ObjectMeta{
			Name:              JobName(cj.Name, scheduled),
			Namespace:         cj.Namespace,
			CreationTimestamp: scheduled,
			Labels:            labels,
			Annotations:       annotations,
			OwnerReferences:   []meta.OwnerReference{meta.NewControllerRef("batch/v1", "CronJob", cj.Name, cj.UID)},
		},
		Spec: deepcopy.Copy(cj.Spec.JobTemplate.Spec),
	}
	return j, nil
}

// ByStartTime returns the jobs sorted oldest first by status.startTime, a
// Job without a start time after every Job with one, equal start times by
// name. The input is not modified; nil entries sort last.
//
// Source: upstream pkg/controller/cronjob/utils.go byJobStartTime (v1.36.3).
func ByStartTime(jobs []*job.Job) []*job.Job {
	out := slices.Clone(jobs)
	stable.Sort(out, compareStartTime)
	return out
}

func compareStartTime(a, b *job.Job) int {
	switch {
	case a == nil || b == nil:
		return boolCmp(a == nil, b == nil)
	case (a.Status.StartTime == nil) != (b.Status.StartTime == nil):
		return boolCmp(a.Status.StartTime == nil, b.Status.StartTime == nil)
	case a.Status.StartTime != nil && !a.Status.StartTime.Equal(*b.Status.StartTime):
		return a.Status.StartTime.Compare(*b.Status.StartTime)
	}
	if a.Name < b.Name {
		return -1
	} else if a.Name > b.Name {
		return 1
	}
	return 0
}

// boolCmp orders false before true.
func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// ExcessHistory returns the finished Jobs history cleanup deletes: of the
// succeeded (Complete) Jobs all but the newest successfulJobsHistoryLimit
// (default 3), then of the failed ones all but the newest
// failedJobsHistoryLimit (default 1), each list oldest first by
// [ByStartTime]. A Job is classified by its first True Complete or Failed
// condition.
//
// Source: upstream pkg/controller/cronjob/cronjob_controllerv2.go
// cleanupFinishedJobs, removeOldestJobs (v1.36.3).
func ExcessHistory(cj *CronJob, jobs []*job.Job) []*job.Job {
	var succeeded, failed []*job.Job
	for _, j := range jobs {
		if j == nil {
			continue
		}
		if c := j.FinishedCondition(); c != nil {
			if c.Type == job.Complete {
				succeeded = append(succeeded, j)
			} else {
				failed = append(failed, j)
			}
		}
	}
	okLimit, failLimit := historyLimits(cj)
	var out []*job.Job
	for _, g := range []struct {
		jobs  []*job.Job
		limit int32
	}{{succeeded, okLimit}, {failed, failLimit}} {
		if n := min(len(g.jobs)-int(g.limit), len(g.jobs)); n > 0 {
			out = append(out, ByStartTime(g.jobs)[:n]...)
		}
	}
	return out
}
