package conformance

import (
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

// jobOptions is job.Options as vectors write it: durations as Go duration
// strings.
type jobOptions struct {
	BackoffCap             string `json:"backoffCap,omitempty"`
	BackoffBase            string `json:"backoffBase,omitempty"`
	KeepStartTimeOnSuspend bool   `json:"keepStartTimeOnSuspend,omitempty"`
}

func (o jobOptions) decode() (job.Options, error) {
	out := job.Options{KeepStartTimeOnSuspend: o.KeepStartTimeOnSuspend}
	var err error
	if out.BackoffCap, err = parseDuration("options.backoffCap", o.BackoffCap); err != nil {
		return out, err
	}
	out.BackoffBase, err = parseDuration("options.backoffBase", o.BackoffBase)
	return out, err
}

// parseDuration parses a Go duration string; "" is 0.
func parseDuration(path, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, field.New(path, s, field.ErrInvalid)
	}
	return d, nil
}

// intervals is job.Indexes as vectors write it: [[first, last], ...].
type intervals [][2]int

func (x intervals) indexes() job.Indexes {
	out := make(job.Indexes, len(x))
	for i, v := range x {
		out[i] = job.Interval{First: v[0], Last: v[1]}
	}
	return out
}

func toIntervals(x job.Indexes) intervals {
	out := make(intervals, len(x))
	for i, v := range x {
		out[i] = [2]int{v.First, v.Last}
	}
	return out
}

type (
	jobStepIn struct {
		Job     job.Job            `json:"job"`
		Pods    []*podstatus.Pod   `json:"pods"`
		Now     time.Time          `json:"now"`
		Backoff *job.BackoffRecord `json:"memory"`
	}
	jobIn struct {
		Job job.Job `json:"job"`
	}
	jobPodsIn struct {
		Job  job.Job          `json:"job"`
		Pods []*podstatus.Pod `json:"pods"`
	}
	jobPodIn struct {
		Job job.Job       `json:"job"`
		Pod podstatus.Pod `json:"pod"`
	}
	jobNowIn struct {
		Job job.Job   `json:"job"`
		Now time.Time `json:"now"`
	}
	wantActiveIn struct {
		Job       job.Job `json:"job"`
		Succeeded int32   `json:"succeeded"`
		Active    int32   `json:"active"`
	}
	wantActiveOut struct {
		WantActive int32 `json:"wantActive"`
	}
	parseIndexesIn struct {
		Indexes     string `json:"indexes"`
		Completions int    `json:"completions"`
	}
	parseIndexesOut struct {
		Intervals intervals `json:"intervals"`
		String    string    `json:"string"`
		Total     int       `json:"total"`
	}
	intervalsIn struct {
		Intervals intervals `json:"intervals"`
	}
	stringOut struct {
		String string `json:"string"`
	}
	hasIndexIn struct {
		Intervals intervals `json:"intervals"`
		Index     int       `json:"index"`
	}
	hasOut struct {
		Has bool `json:"has"`
	}
	pendingIndexIn struct {
		Count       int              `json:"count"`
		Completions int              `json:"completions"`
		Succeeded   intervals        `json:"succeeded"`
		ActivePods  []*podstatus.Pod `json:"activePods"`
		Failed      intervals        `json:"failed,omitempty"`
	}
	indexesOut struct {
		Indexes []int `json:"indexes"`
	}
	succeededOut struct {
		Previous  string `json:"previous"`
		Succeeded string `json:"succeeded"`
		Total     int    `json:"total"`
	}
	failedIndexesOut struct {
		FailedIndexes string `json:"failedIndexes"`
	}
	podFailureIn struct {
		Policy *job.PodFailurePolicy `json:"policy"`
		Pod    podstatus.Pod         `json:"pod"`
	}
	podFailureOut struct {
		Action      *job.PodFailurePolicyAction `json:"action"`
		CountFailed bool                        `json:"countFailed"`
		Message     string                      `json:"message"`
	}
	successPolicyIn struct {
		Policy           *job.SuccessPolicy `json:"policy"`
		Completions      int32              `json:"completions"`
		SucceededIndexes intervals          `json:"succeededIndexes"`
	}
	successPolicyOut struct {
		Matched bool   `json:"matched"`
		Message string `json:"message"`
	}
	backoffRecordIn struct {
		Previous  job.BackoffRecord `json:"previous,omitempty"`
		Succeeded []*podstatus.Pod  `json:"succeeded"`
		Failed    []*podstatus.Pod  `json:"failed"`
	}
	backoffRecordOut struct {
		FailuresAfterLastSuccess int32      `json:"failuresAfterLastSuccess"`
		LastFailureTime          *time.Time `json:"lastFailureTime"`
	}
	finishedTimeOut struct {
		FinishedTime time.Time `json:"finishedTime"`
	}
	backoffDelayIn struct {
		Failures int32 `json:"failures"`
	}
	delayOut struct {
		Delay time.Duration `json:"delay"`
	}
	remainingIn struct {
		Failures        int32      `json:"failures"`
		LastFailureTime *time.Time `json:"lastFailureTime"`
		Now             time.Time  `json:"now"`
	}
	remainingOut struct {
		Remaining time.Duration `json:"remaining"`
	}
	remainingIndexIn struct {
		Pod *podstatus.Pod `json:"pod"`
		Now time.Time      `json:"now"`
	}
	pastOut struct {
		Past bool `json:"past"`
	}
	failedOut struct {
		Failed bool `json:"failed"`
	}
	removalIn struct {
		Job       job.Job          `json:"job"`
		Pods      []*podstatus.Pod `json:"pods"`
		RmAtLeast int              `json:"rmAtLeast"`
	}
	removalOut struct {
		Remove []removedPod `json:"remove"`
	}
	removedPod struct {
		Name   string     `json:"name"`
		Reason job.Reason `json:"reason"`
	}
	generateNameIn struct {
		JobName string `json:"jobName"`
		Index   int    `json:"index"`
	}
	generateNameOut struct {
		GenerateName string `json:"generateName"`
	}
	podOnlyIn struct {
		Pod podstatus.Pod `json:"pod"`
	}
	indexOut struct {
		Index int `json:"index"`
	}
	indexCountsIn struct {
		Job job.Job        `json:"job"`
		Pod *podstatus.Pod `json:"pod"`
	}
	indexCountsOut struct {
		IndexFailureCount        int32 `json:"indexFailureCount"`
		IndexIgnoredFailureCount int32 `json:"indexIgnoredFailureCount"`
	}
	succeededBoolOut struct {
		Succeeded bool `json:"succeeded"`
	}
	finishedOut struct {
		Finished bool              `json:"finished"`
		Type     job.ConditionType `json:"type"`
	}
)

// requirePods reports the first nil pod of pods as path[i].
func requirePods(path string, pods []*podstatus.Pod) error {
	for i, p := range pods {
		if p == nil {
			return field.New(field.Index(path, i), "", field.ErrRequired)
		}
	}
	return nil
}

// jobDecisions returns the job decisions the vectors in testdata/job name.
func jobDecisions() []Decision {
	return []Decision{
		// backoff is the controller's record from the previous sync (absent: a fresh controller).
		Bind("job.Step", func(in jobStepIn, o jobOptions) (job.Plan, error) {
			opts, err := o.decode()
			if err != nil {
				return job.Plan{}, err
			}
			var prev job.BackoffRecord
			if in.Backoff != nil {
				prev = *in.Backoff
			}
			return job.Step(&in.Job, in.Pods, prev, in.Now, opts)
		}),
		Bind("job.WantActive", func(in wantActiveIn, _ struct{}) (wantActiveOut, error) {
			if err := job.Validate(&in.Job, nil); err != nil {
				return wantActiveOut{}, err
			}
			return wantActiveOut{job.WantActive(&in.Job, in.Succeeded, in.Active)}, nil
		}),
		Bind("job.ParseIndexes", func(in parseIndexesIn, _ struct{}) (parseIndexesOut, error) {
			x := job.ParseIndexes(in.Indexes, in.Completions)
			return parseIndexesOut{toIntervals(x), x.String(), x.Total()}, nil
		}),
		// intervals must be well-formed (job.ValidateIndexes, checked first).
		Bind("job.Indexes.String", func(in intervalsIn, _ struct{}) (stringOut, error) {
			return stringOut{in.Intervals.indexes().String()}, nil
		}),
		Bind("job.Indexes.Has", func(in hasIndexIn, _ struct{}) (hasOut, error) {
			return hasOut{in.Intervals.indexes().Has(in.Index)}, nil
		}),
		Bind("job.FirstPendingIndexes", func(in pendingIndexIn, _ struct{}) (indexesOut, error) {
			if err := requirePods("activePods", in.ActivePods); err != nil {
				return indexesOut{}, err
			}
			ix, err := job.FirstPendingIndexes(in.Count, in.Completions, in.Succeeded.indexes(), in.ActivePods, in.Failed.indexes())
			return indexesOut{ix}, err
		}),
		Bind("job.SucceededIndexes", func(in jobPodsIn, _ struct{}) (succeededOut, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return succeededOut{}, err
			}
			if in.Job.Spec.Completions == nil {
				return succeededOut{}, field.New("job.spec.completions", "", field.ErrRequired)
			}
			prev, now := job.SucceededIndexes(&in.Job, in.Pods)
			return succeededOut{prev.String(), now.String(), now.Total()}, nil
		}),
		Bind("job.FailedIndexes", func(in jobPodsIn, _ struct{}) (failedIndexesOut, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return failedIndexesOut{}, err
			}
			if in.Job.Spec.Completions == nil || in.Job.Spec.BackoffLimitPerIndex == nil {
				return failedIndexesOut{}, field.New("job.spec.backoffLimitPerIndex", "", field.ErrRequired)
			}
			return failedIndexesOut{job.FailedIndexes(&in.Job, in.Pods).String()}, nil
		}),
		// action is null when no rule matches.
		Bind("job.MatchPodFailurePolicy", func(in podFailureIn, _ struct{}) (podFailureOut, error) {
			m := job.MatchPodFailurePolicy(in.Policy, &in.Pod)
			out := podFailureOut{CountFailed: m.CountFailed, Message: m.Message}
			if m.Action != "" {
				out.Action = &m.Action
			}
			return out, nil
		}),
		Bind("job.MatchSuccessPolicy", func(in successPolicyIn, _ struct{}) (successPolicyOut, error) {
			msg, ok := job.MatchSuccessPolicy(in.Policy, in.Completions, in.SucceededIndexes.indexes())
			return successPolicyOut{ok, msg}, nil
		}),
		Bind("job.NewBackoffRecord", func(in backoffRecordIn, _ struct{}) (backoffRecordOut, error) {
			r := job.NewBackoffRecord(in.Previous, in.Succeeded, in.Failed)
			return backoffRecordOut{r.FailuresAfterLastSuccess, r.LastFailureTime}, nil
		}),
		Bind("job.FinishedTime", func(in podOnlyIn, _ struct{}) (finishedTimeOut, error) {
			return finishedTimeOut{job.FinishedTime(&in.Pod)}, nil
		}),
		Bind("job.BackoffDelay", func(in backoffDelayIn, o jobOptions) (delayOut, error) {
			opts, err := o.decode()
			return delayOut{job.BackoffDelay(in.Failures, opts)}, err
		}),
		Bind("job.RemainingBackoff", func(in remainingIn, o jobOptions) (remainingOut, error) {
			opts, err := o.decode()
			return remainingOut{job.RemainingBackoff(in.Failures, in.LastFailureTime, in.Now, opts)}, err
		}),
		Bind("job.RemainingIndexBackoff", func(in remainingIndexIn, o jobOptions) (remainingOut, error) {
			opts, err := o.decode()
			return remainingOut{job.RemainingIndexBackoff(in.Pod, in.Now, opts)}, err
		}),
		Bind("job.PastBackoffLimitOnFailure", func(in jobPodsIn, _ struct{}) (pastOut, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return pastOut{}, err
			}
			return pastOut{job.PastBackoffLimitOnFailure(&in.Job, in.Pods)}, nil
		}),
		Bind("job.PastActiveDeadline", func(in jobNowIn, _ struct{}) (pastOut, error) {
			if err := job.Validate(&in.Job, nil); err != nil {
				return pastOut{}, err
			}
			return pastOut{job.PastActiveDeadline(&in.Job, in.Now)}, nil
		}),
		Bind("job.IsPodFailed", func(in jobPodIn, _ struct{}) (failedOut, error) {
			return failedOut{job.IsPodFailed(&in.Job, &in.Pod)}, nil
		}),
		Bind("job.PodsForRemoval", func(in removalIn, _ struct{}) (removalOut, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return removalOut{}, err
			}
			out := removalOut{Remove: []removedPod{}}
			for _, r := range job.PodsForRemoval(&in.Job, in.Pods, in.RmAtLeast) {
				out.Remove = append(out.Remove, removedPod{r.Pod.Name, r.Reason})
			}
			return out, nil
		}),
		Bind("job.GenerateNameWithIndex", func(in generateNameIn, _ struct{}) (generateNameOut, error) {
			return generateNameOut{job.GenerateNameWithIndex(in.JobName, in.Index)}, nil
		}),
		Bind("job.CompletionIndex", func(in podOnlyIn, _ struct{}) (indexOut, error) {
			return indexOut{job.CompletionIndex(&in.Pod)}, nil
		}),
		Bind("job.NewIndexFailureCounts", func(in indexCountsIn, _ struct{}) (indexCountsOut, error) {
			f, i := job.NewIndexFailureCounts(&in.Job, in.Pod)
			return indexCountsOut{f, i}, nil
		}),
		Bind("job.IsSucceeded", func(in jobIn, _ struct{}) (succeededBoolOut, error) {
			return succeededBoolOut{in.Job.IsSucceeded()}, nil
		}),
		Bind("job.FinishedCondition", func(in jobIn, _ struct{}) (finishedOut, error) {
			if c := in.Job.FinishedCondition(); c != nil {
				return finishedOut{true, c.Type}, nil
			}
			return finishedOut{}, nil
		}),
		Bind("job.TimeLeft", func(in jobNowIn, _ struct{}) (job.TTL, error) {
			return job.TimeLeft(&in.Job, in.Now)
		}),
		// A refused update is the error ValidateUpdate returns, under "new".
		Bind("job.ValidateUpdate", func(in jobUpdateIn, _ struct{}) (validOut, error) {
			if err := job.ValidateUpdate(&in.Old, &in.New); err != nil {
				return validOut{}, field.Under("new", err)
			}
			return validOut{Valid: true}, nil
		}),
	}
}

// jobUpdateIn is an update of a Job: old as stored, new as sent.
type jobUpdateIn struct {
	Old job.Job `json:"old"`
	New job.Job `json:"new"`
}

// The stored Job is one the API server accepted.
func (in *jobUpdateIn) validate() error { return field.Under("old", job.Validate(&in.Old, nil)) }

// Inputs holding a Job are checked with job.Validate (the API's rules for
// the fields kubesem models) before the rule runs; bare counts are checked
// as the API checks the spec field they stand for.
func (in *jobIn) validate() error          { return job.Validate(&in.Job, nil) }
func (in *jobPodsIn) validate() error      { return job.Validate(&in.Job, in.Pods) }
func (in *jobPodIn) validate() error       { return job.Validate(&in.Job, []*podstatus.Pod{&in.Pod}) }
func (in *jobNowIn) validate() error       { return job.Validate(&in.Job, nil) }
func (in *wantActiveIn) validate() error   { return job.Validate(&in.Job, nil) }
func (in *removalIn) validate() error      { return job.Validate(&in.Job, in.Pods) }
func (in *parseIndexesIn) validate() error { return nonNegative("completions", int64(in.Completions)) }
func (in *pendingIndexIn) validate() error { return nonNegative("completions", int64(in.Completions)) }
func (in *intervalsIn) validate() error {
	return job.ValidateIndexes("intervals", in.Intervals.indexes())
}
func (in *hasIndexIn) validate() error {
	return job.ValidateIndexes("intervals", in.Intervals.indexes())
}
func (in *successPolicyIn) validate() error {
	if err := nonNegative("completions", int64(in.Completions)); err != nil {
		return err
	}
	return job.ValidateIndexes("succeededIndexes", in.SucceededIndexes.indexes())
}
func (in *indexCountsIn) validate() error {
	var pods []*podstatus.Pod
	if in.Pod != nil {
		pods = append(pods, in.Pod)
	}
	return job.Validate(&in.Job, pods)
}

// nonNegative is the API's rule for a count field standing alone.
func nonNegative(path string, n int64) error {
	if n < 0 {
		return field.Int(path, n, field.ErrNegative)
	}
	return nil
}
