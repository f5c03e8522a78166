package job

import (
	"time"

	"github.com/kubesem/kubesem/field"
)

// TTL is what the TTL-after-finished controller decides for one job.
type TTL struct {
	// Expired says the job should be deleted now.
	Expired bool `json:"expired"`
	// FinishTime is when the job finished; ExpireAt is FinishTime plus
	// ttlSecondsAfterFinished.
	FinishTime time.Time `json:"finishTime"`
	ExpireAt   time.Time `json:"expireAt"`
	// Remaining is ExpireAt - now; at or below 0 the job has expired,
	// otherwise the controller looks again after Remaining.
	Remaining time.Duration `json:"remaining"`
	Reason    Reason        `json:"reason"`
}

// NeedsCleanup reports whether the TTL-after-finished controller watches the
// job: it has ttlSecondsAfterFinished and is finished.
//
// Source: upstream pkg/controller/ttlafterfinished/ttlafterfinished_controller.go
// needsCleanup (v1.36.3).
func (j *Job) NeedsCleanup() bool {
	return j.Spec.TTLSecondsAfterFinished != nil && j.IsFinished()
}

// TimeLeft returns the TTL decision for a finished job at now: the finish
// time is the lastTransitionTime of the first True Complete or Failed
// condition; the job expires at finish + ttlSecondsAfterFinished and is
// expired when now is at or past that (remaining <= 0, inclusive). A finish
// time after now (clock skew) is accepted as is.
//
// It returns a *field.Error: spec.ttlSecondsAfterFinished ErrRequired when it
// is unset, status.conditions ErrRequired when the job has not finished,
// status.conditions[i].lastTransitionTime ErrRequired when the finish
// condition has a zero time.
//
// Source: upstream pkg/controller/ttlafterfinished/ttlafterfinished_controller.go
// timeLeft, jobFinishTime, processTTL (v1.36.3); seed 000 "TTL-after-finished
// controller" (000:L3357-3384).
func TimeLeft(j *Job, now time.Time) (TTL, error) {
	if j.Spec.TTLSecondsAfterFinished == nil {
		return TTL{}, field.New("spec.ttlSecondsAfterFinished", "", field.ErrRequired)
	}
	c := j.FinishedCondition()
	if c == nil {
		return TTL{}, field.New("status.conditions", "", field.ErrRequired)
	}
	if c.LastTransitionTime.IsZero() {
		i := 0
		for k := range j.Status.Conditions {
			if &j.Status.Conditions[k] == c {
				i = k
			}
		}
		return TTL{}, field.New(field.Child(field.Index("status.conditions", i), "lastTransitionTime"), "", field.ErrRequired)
	}
	t := TTL{FinishTime: c.LastTransitionTime}
	t.ExpireAt = t.FinishTime.Add(seconds(int64(*j.Spec.TTLSecondsAfterFinished)))
	t.Remaining = t.ExpireAt.Sub(now)
	t.Expired = t.Remaining <= 0
	t.Reason = ReasonTTLPending
	if t.Expired {
		t.Reason = ReasonTTLExpired
	}
	return t, nil
}
