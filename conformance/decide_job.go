package conformance

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

// jobOptions is job.Options as vectors write it: the cap as a Go duration
// string.
type jobOptions struct {
	BackoffCap             string `json:"backoffCap,omitempty"`
	BackoffBase            string `json:"backoffBase,omitempty"`
	KeepStartTimeOnSuspend bool   `json:"keepStartTimeOnSuspend,omitempty"`
}

func (o jobOptions) decode() (job.Options, error) {
	out := job.Options{KeepStartTimeOnSuspend: o.KeepStartTimeOnSuspend}
	if o.BackoffCap != "" {
		d, err := time.ParseDuration(o.BackoffCap)
		if err != nil {
			return out, field.New("options.backoffCap", o.BackoffCap, field.ErrInvalid)
		}
		out.BackoffCap = d
	}
	if o.BackoffBase != "" {
		d, err := time.ParseDuration(o.BackoffBase)
		if err != nil {
			return out, field.New("options.backoffBase", o.BackoffBase, field.ErrInvalid)
		}
		out.BackoffBase = d
	}
	return out, nil
}

func timeOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func intervalsOut(x job.Indexes) [][2]int {
	out := make([][2]int, len(x))
	for i, v := range x {
		out[i] = [2]int{v.First, v.Last}
	}
	return out
}

func intervalsIn(x [][2]int) job.Indexes {
	out := make(job.Indexes, len(x))
	for i, v := range x {
		out[i] = job.Interval{First: v[0], Last: v[1]}
	}
	return out
}

func backoffOut(r job.BackoffRecord) map[string]any {
	return map[string]any{"failuresAfterLastSuccess": r.FailuresAfterLastSuccess, "lastFailureTime": timeOrNil(r.LastFailureTime)}
}

func nonNilPods(pods []*podstatus.Pod) error {
	for i, p := range pods {
		if p == nil {
			return field.New(field.Index("pods", i), "", field.ErrRequired)
		}
	}
	return nil
}

// jobDecisions returns the job decisions the vectors in testdata/job name.
func jobLegacy() map[string]decider {
	return map[string]decider{
		// {"job", "pods", "now", "backoff"?} → plan (see testdata/job/README.md)
		"job.Step": rule(func(in struct {
			Job     job.Job            `json:"job"`
			Pods    []*podstatus.Pod   `json:"pods"`
			Now     time.Time          `json:"now"`
			Backoff *job.BackoffRecord `json:"backoff"`
		}, o jobOptions) (any, error) {
			opts, err := o.decode()
			if err != nil {
				return nil, err
			}
			var prev job.BackoffRecord
			if in.Backoff != nil {
				prev = *in.Backoff
			}
			p, err := job.StepFrom(&in.Job, in.Pods, prev, in.Now, opts)
			if err != nil {
				return nil, err
			}
			out := planOut(p)
			out["podPatches"] = podPatches(p, in.Pods)
			return out, nil
		}),
		// {"job", "succeeded", "active"} → {"wantActive"}
		"job.WantActive": rule(func(in struct {
			Job       job.Job `json:"job"`
			Succeeded int32   `json:"succeeded"`
			Active    int32   `json:"active"`
		}, _ struct{}) (any, error) {
			if err := job.Validate(&in.Job, nil); err != nil {
				return nil, err
			}
			return map[string]int32{"wantActive": job.WantActive(&in.Job, in.Succeeded, in.Active)}, nil
		}),
		// {"indexes": "1,3-5", "completions": 6} → {"intervals": [[1,1],[3,5]], "string", "total"}
		"job.ParseIndexes": rule(func(in struct {
			Indexes     string `json:"indexes"`
			Completions int    `json:"completions"`
		}, _ struct{}) (any, error) {
			x := job.ParseIndexes(in.Indexes, in.Completions)
			return map[string]any{"intervals": intervalsOut(x), "string": x.String(), "total": x.Total()}, nil
		}),
		// {"intervals": [[1,1],[3,5]]} → {"string": "1,3-5"}
		"job.FormatIndexes": rule(func(in struct {
			Intervals [][2]int `json:"intervals"`
		}, _ struct{}) (any, error) {
			return map[string]string{"string": intervalsIn(in.Intervals).String()}, nil
		}),
		// {"intervals": [[2,4]], "index": 3} → {"has": true}
		"job.HasIndex": rule(func(in struct {
			Intervals [][2]int `json:"intervals"`
			Index     int      `json:"index"`
		}, _ struct{}) (any, error) {
			return map[string]bool{"has": intervalsIn(in.Intervals).Has(in.Index)}, nil
		}),
		// {"count", "completions", "succeeded": [[2,4]], "activePods": [pod], "failed": [[6,7]]} → {"indexes": [0,1]}
		"job.FirstPendingIndexes": rule(func(in struct {
			Count       int              `json:"count"`
			Completions int              `json:"completions"`
			Succeeded   [][2]int         `json:"succeeded"`
			ActivePods  []*podstatus.Pod `json:"activePods"`
			Failed      [][2]int         `json:"failed"`
		}, _ struct{}) (any, error) {
			if err := nonNilPods(in.ActivePods); err != nil {
				return nil, field.At(err, "activePods")
			}
			var busy []int
			seen := map[int]bool{}
			for _, p := range in.ActivePods {
				if ix := job.CompletionIndex(p); ix >= 0 && !seen[ix] {
					seen[ix] = true
					busy = append(busy, ix)
				}
			}
			sortInts(busy)
			ix := job.FirstPendingIndexes(in.Count, in.Completions, intervalsIn(in.Succeeded), busy, intervalsIn(in.Failed))
			if ix == nil {
				ix = []int{}
			}
			return map[string]any{"indexes": ix}, nil
		}),
		// {"job", "pods"} → {"previous": "1", "succeeded": "1-3", "total": 3}
		"job.SucceededIndexes": rule(func(in struct {
			Job  job.Job          `json:"job"`
			Pods []*podstatus.Pod `json:"pods"`
		}, _ struct{}) (any, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return nil, err
			}
			if in.Job.Spec.Completions == nil {
				return nil, field.New("job.spec.completions", "", field.ErrRequired)
			}
			prev, now := job.SucceededIndexes(&in.Job, in.Pods)
			return map[string]any{"previous": prev.String(), "succeeded": now.String(), "total": now.Total()}, nil
		}),
		// {"job", "pods"} → {"failedIndexes": "1,3"}
		"job.FailedIndexes": rule(func(in struct {
			Job  job.Job          `json:"job"`
			Pods []*podstatus.Pod `json:"pods"`
		}, _ struct{}) (any, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return nil, err
			}
			if in.Job.Spec.Completions == nil || in.Job.Spec.BackoffLimitPerIndex == nil {
				return nil, field.New("job.spec.backoffLimitPerIndex", "", field.ErrRequired)
			}
			return map[string]any{"failedIndexes": job.FailedIndexes(&in.Job, in.Pods).String()}, nil
		}),
		// {"policy", "pod"} → {"action": "FailJob", "countFailed": true, "message": "..."}
		"job.MatchPodFailurePolicy": rule(func(in struct {
			Policy *job.PodFailurePolicy `json:"policy"`
			Pod    podstatus.Pod         `json:"pod"`
		}, _ struct{}) (any, error) {
			m := job.MatchPodFailurePolicy(in.Policy, &in.Pod)
			var action any
			if m.Action != "" {
				action = string(m.Action)
			}
			return map[string]any{"action": action, "countFailed": m.CountFailed, "message": m.Message}, nil
		}),
		// {"policy", "completions", "succeededIndexes": [[0,2]]} → {"matched": true, "message": "Matched rules at index 0"}
		"job.MatchSuccessPolicy": rule(func(in struct {
			Policy           *job.SuccessPolicy `json:"policy"`
			Completions      int32              `json:"completions"`
			SucceededIndexes [][2]int           `json:"succeededIndexes"`
		}, _ struct{}) (any, error) {
			msg, ok := job.MatchSuccessPolicy(in.Policy, in.Completions, intervalsIn(in.SucceededIndexes))
			return map[string]any{"matched": ok, "message": msg}, nil
		}),
		// {"previous"?, "succeeded": [pod], "failed": [pod]} → {"failuresAfterLastSuccess", "lastFailureTime"}
		"job.NewBackoffRecord": rule(func(in struct {
			Previous  job.BackoffRecord `json:"previous"`
			Succeeded []*podstatus.Pod  `json:"succeeded"`
			Failed    []*podstatus.Pod  `json:"failed"`
		}, _ struct{}) (any, error) {
			return backoffOut(job.NewBackoffRecord(in.Previous, in.Succeeded, in.Failed)), nil
		}),
		// {"pod"} → {"finishedTime"}
		"job.FinishedTime": rule(func(in struct {
			Pod podstatus.Pod `json:"pod"`
		}, _ struct{}) (any, error) {
			t := job.FinishedTime(&in.Pod)
			return map[string]any{"finishedTime": timeOrNil(&t)}, nil
		}),
		// {"failures": 3} → {"delay": "40s"}
		"job.BackoffDelay": rule(func(in struct {
			Failures int32 `json:"failures"`
		}, o jobOptions) (any, error) {
			opts, err := o.decode()
			if err != nil {
				return nil, err
			}
			return map[string]string{"delay": job.BackoffDelay(in.Failures, opts).String()}, nil
		}),
		// {"failures", "lastFailureTime", "now"} → {"remaining": "5s"}
		"job.RemainingBackoff": rule(func(in struct {
			Failures        int32      `json:"failures"`
			LastFailureTime *time.Time `json:"lastFailureTime"`
			Now             time.Time  `json:"now"`
		}, o jobOptions) (any, error) {
			opts, err := o.decode()
			if err != nil {
				return nil, err
			}
			return map[string]string{"remaining": job.RemainingBackoff(in.Failures, in.LastFailureTime, in.Now, opts).String()}, nil
		}),
		// {"pod"?, "now"} → {"remaining": "10s"}
		"job.RemainingIndexBackoff": rule(func(in struct {
			Pod *podstatus.Pod `json:"pod"`
			Now time.Time      `json:"now"`
		}, o jobOptions) (any, error) {
			opts, err := o.decode()
			if err != nil {
				return nil, err
			}
			return map[string]string{"remaining": job.RemainingIndexBackoff(in.Pod, in.Now, opts).String()}, nil
		}),
		// {"job", "pods"} → {"past": true}
		"job.PastBackoffLimitOnFailure": rule(func(in struct {
			Job  job.Job          `json:"job"`
			Pods []*podstatus.Pod `json:"pods"`
		}, _ struct{}) (any, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return nil, err
			}
			return map[string]bool{"past": job.PastBackoffLimitOnFailure(&in.Job, in.Pods)}, nil
		}),
		// {"job", "now"} → {"past": true}
		"job.PastActiveDeadline": rule(func(in struct {
			Job job.Job   `json:"job"`
			Now time.Time `json:"now"`
		}, _ struct{}) (any, error) {
			if err := job.Validate(&in.Job, nil); err != nil {
				return nil, err
			}
			return map[string]bool{"past": job.PastActiveDeadline(&in.Job, in.Now)}, nil
		}),
		// {"job", "pod"} → {"failed": true}
		"job.IsPodFailed": rule(func(in struct {
			Job job.Job       `json:"job"`
			Pod podstatus.Pod `json:"pod"`
		}, _ struct{}) (any, error) {
			return map[string]bool{"failed": job.IsPodFailed(&in.Job, &in.Pod)}, nil
		}),
		// {"job", "pods", "rmAtLeast"} → {"remove": [{"name", "reason"}]}
		"job.PodsForRemoval": rule(func(in struct {
			Job       job.Job          `json:"job"`
			Pods      []*podstatus.Pod `json:"pods"`
			RmAtLeast int              `json:"rmAtLeast"`
		}, _ struct{}) (any, error) {
			if err := job.Validate(&in.Job, in.Pods); err != nil {
				return nil, err
			}
			out := []map[string]string{}
			for _, r := range job.PodsForRemoval(&in.Job, in.Pods, in.RmAtLeast) {
				out = append(out, map[string]string{"name": r.Pod.Name, "reason": string(r.Reason)})
			}
			return map[string]any{"remove": out}, nil
		}),
		// {"jobName", "index"} → {"generateName"}
		"job.GenerateNameWithIndex": rule(func(in struct {
			JobName string `json:"jobName"`
			Index   int    `json:"index"`
		}, _ struct{}) (any, error) {
			return map[string]string{"generateName": job.GenerateNameWithIndex(in.JobName, in.Index)}, nil
		}),
		// {"pod"} → {"index": 3}
		"job.CompletionIndex": rule(func(in struct {
			Pod podstatus.Pod `json:"pod"`
		}, _ struct{}) (any, error) {
			return map[string]int{"index": job.CompletionIndex(&in.Pod)}, nil
		}),
		// {"job", "pod"?} → {"indexFailureCount", "indexIgnoredFailureCount"}
		"job.NewIndexFailureCounts": rule(func(in struct {
			Job job.Job        `json:"job"`
			Pod *podstatus.Pod `json:"pod"`
		}, _ struct{}) (any, error) {
			f, i := job.NewIndexFailureCounts(&in.Job, in.Pod)
			return map[string]int32{"indexFailureCount": f, "indexIgnoredFailureCount": i}, nil
		}),
		// {"job"} → {"succeeded": true}
		"job.IsSucceeded": rule(func(in struct {
			Job job.Job `json:"job"`
		}, _ struct{}) (any, error) {
			return map[string]bool{"succeeded": job.IsSucceeded(&in.Job)}, nil
		}),
		// {"job"} → {"finished": true, "type": "Complete"}
		"job.FinishedCondition": rule(func(in struct {
			Job job.Job `json:"job"`
		}, _ struct{}) (any, error) {
			c := job.FinishedCondition(&in.Job)
			if c == nil {
				return map[string]any{"finished": false, "type": ""}, nil
			}
			return map[string]any{"finished": true, "type": string(c.Type)}, nil
		}),
		// {"job", "now"} → {"expired", "remaining", "expireAt", "finishTime", "reason"}
		"job.TimeLeft": rule(func(in struct {
			Job job.Job   `json:"job"`
			Now time.Time `json:"now"`
		}, _ struct{}) (any, error) {
			t, err := job.TimeLeft(&in.Job, in.Now)
			if err != nil {
				return nil, err
			}
			return map[string]any{"expired": t.Expired, "remaining": t.Remaining.String(),
				"expireAt": timeOrNil(&t.ExpireAt), "finishTime": timeOrNil(&t.FinishTime), "reason": string(t.Reason)}, nil
		}),
	}
}

func sortInts(x []int) {
	for i := 1; i < len(x); i++ {
		for k := i; k > 0 && x[k] < x[k-1]; k-- {
			x[k], x[k-1] = x[k-1], x[k]
		}
	}
}

// podPatches counts the pods whose tracking finalizer the controller
// removes with a patch: those it releases after counting them, and the pods
// it deletes (each is patched before its deletion).
func podPatches(p job.Plan, pods []*podstatus.Pod) int {
	seen := map[string]bool{}
	for _, uid := range p.RemoveFinalizers {
		seen[uid] = true
	}
	for _, d := range p.Delete {
		for _, q := range pods {
			if q.UID == d.UID && slices.Contains(q.Finalizers, job.TrackingFinalizer) {
				seen[d.UID] = true
			}
		}
	}
	return len(seen)
}

// planOut renders a job.Plan with durations as Go duration strings.
func planOut(p job.Plan) map[string]any {
	del := []map[string]string{}
	for _, d := range p.Delete {
		del = append(del, map[string]string{"name": d.Name, "uid": d.UID, "reason": string(d.Reason)})
	}
	req := []map[string]string{}
	for _, r := range p.Requeue {
		req = append(req, map[string]string{"after": r.After.String(), "reason": string(r.Reason)})
	}
	var create any
	if p.Create != nil {
		pods := []map[string]any{}
		for _, np := range p.Create.Pods {
			m := map[string]any{"index": np.Index, "generateName": np.GenerateName, "hostname": np.Hostname}
			if np.IndexFailureCount != nil {
				m["indexFailureCount"] = *np.IndexFailureCount
			}
			if np.IndexIgnoredFailureCount != nil {
				m["indexIgnoredFailureCount"] = *np.IndexIgnoredFailureCount
			}
			pods = append(pods, m)
		}
		create = map[string]any{"count": p.Create.Count, "reason": string(p.Create.Reason), "pods": pods}
	}
	rf := p.RemoveFinalizers
	if rf == nil {
		rf = []string{}
	}
	return map[string]any{
		"skip":             string(p.Skip),
		"create":           create,
		"delete":           del,
		"removeFinalizers": rf,
		"status":           statusOut(p.Status),
		"statusChanged":    p.StatusChanged,
		"requeue":          req,
		"backoff":          backoffOut(p.Backoff),
	}
}

// statusOut renders a job status with every counter present, so vectors can
// check zeros.
func statusOut(s job.Status) map[string]any {
	conds := []map[string]any{}
	for _, c := range s.Conditions {
		conds = append(conds, map[string]any{"type": string(c.Type), "status": string(c.Status),
			"reason": c.Reason, "message": c.Message, "lastTransitionTime": timeOrNil(&c.LastTransitionTime)})
	}
	unc := map[string][]string{"succeeded": {}, "failed": {}}
	if u := s.UncountedTerminatedPods; u != nil {
		unc["succeeded"] = append(unc["succeeded"], u.Succeeded...)
		unc["failed"] = append(unc["failed"], u.Failed...)
	}
	var failedIndexes, ready, terminating any
	if s.FailedIndexes != nil {
		failedIndexes = *s.FailedIndexes
	}
	if s.Ready != nil {
		ready = *s.Ready
	}
	if s.Terminating != nil {
		terminating = *s.Terminating
	}
	return map[string]any{
		"conditions": conds, "startTime": timeOrNil(s.StartTime), "completionTime": timeOrNil(s.CompletionTime),
		"active": s.Active, "succeeded": s.Succeeded, "failed": s.Failed, "ready": ready, "terminating": terminating,
		"completedIndexes": s.CompletedIndexes, "failedIndexes": failedIndexes, "uncountedTerminatedPods": unc,
	}
}

// jobDecisions returns the job decisions.
func jobDecisions() []Decision { return legacyTable(jobLegacy()) }
