package cronjob

import (
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

// CronJob is the subset of a batch/v1 CronJob that the CronJob controller
// reads and writes.
type CronJob struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// Spec is a CronJob spec. Pointer fields are optional in the API; nil takes
// the API server's default, stated on each field.
type Spec struct {
	// Schedule is a cron expression, a macro such as "@daily", or
	// "@every <duration>"; see [ParseSchedule].
	Schedule string `json:"schedule"`
	// TimeZone is an IANA zone name; nil means the controller manager's
	// zone (Options.LocalTimeZone).
	TimeZone *string `json:"timeZone,omitempty"`
	// StartingDeadlineSeconds bounds how late a start may be; nil means no
	// deadline.
	StartingDeadlineSeconds *int64 `json:"startingDeadlineSeconds,omitempty"`
	// ConcurrencyPolicy is Allow (also when empty), Forbid or Replace.
	ConcurrencyPolicy ConcurrencyPolicy `json:"concurrencyPolicy,omitempty"`
	// Suspend stops new starts; nil means false.
	Suspend *bool `json:"suspend,omitempty"`
	// JobTemplate is copied into every Job the CronJob starts.
	JobTemplate JobTemplate `json:"jobTemplate"`
	// SuccessfulJobsHistoryLimit is how many succeeded Jobs are kept; nil
	// means 3.
	SuccessfulJobsHistoryLimit *int32 `json:"successfulJobsHistoryLimit,omitempty"`
	// FailedJobsHistoryLimit is how many failed Jobs are kept; nil means 1.
	FailedJobsHistoryLimit *int32 `json:"failedJobsHistoryLimit,omitempty"`
}

// JobTemplate is the metadata and spec of the Jobs a CronJob creates.
type JobTemplate struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            job.Spec `json:"spec"`
}

// ConcurrencyPolicy says what happens when a start time comes while a Job
// started earlier is still running.
type ConcurrencyPolicy string

// Concurrency policies.
const (
	Allow   ConcurrencyPolicy = "Allow"   // start another Job
	Forbid  ConcurrencyPolicy = "Forbid"  // skip this start time
	Replace ConcurrencyPolicy = "Replace" // delete the running Jobs, then start
)

// Status is a CronJob status.
type Status struct {
	// Active lists the Jobs the controller believes are running.
	Active []ObjectReference `json:"active,omitempty"`
	// LastScheduleTime is the start time of the last Job created.
	LastScheduleTime *time.Time `json:"lastScheduleTime,omitempty"`
	// LastSuccessfulTime is the latest completion time of a succeeded Job.
	LastSuccessfulTime *time.Time `json:"lastSuccessfulTime,omitempty"`
}

// ObjectReference points at a Job from Status.Active.
type ObjectReference struct {
	Kind       string `json:"kind,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name,omitempty"`
	UID        string `json:"uid,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// Default history limits (batch/v1 defaults.go).
const (
	DefaultSuccessfulJobsHistoryLimit = 3
	DefaultFailedJobsHistoryLimit     = 1
)

// historyLimits returns the successful and failed history limits with the
// API defaults applied.
func historyLimits(cj *CronJob) (successful, failed int32) {
	successful, failed = DefaultSuccessfulJobsHistoryLimit, DefaultFailedJobsHistoryLimit
	if cj.Spec.SuccessfulJobsHistoryLimit != nil {
		successful = *cj.Spec.SuccessfulJobsHistoryLimit
	}
	if cj.Spec.FailedJobsHistoryLimit != nil {
		failed = *cj.Spec.FailedJobsHistoryLimit
	}
	return successful, failed
}
