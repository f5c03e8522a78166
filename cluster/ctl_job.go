package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// jobController runs job.Step on each Job with the pods it controls and
// the backoff record kept in the World (the Plan's Memory); job.Plan.Writes
// makes the writes.
func jobController() controller {
	return controller{
		name:  CtlJob,
		reads: []Kind{KindJob, KindPod},
		keys:  func(w *World) []Key { return w.State.Keys(KindJob) },
		step: func(w *World, k Key, now time.Time) stepOut {
			j, _ := w.State.Get(k).(*job.Job)
			if j == nil {
				return stepOut{}
			}
			pods := controlled[*podstatus.Pod](w.State, KindPod, j.UID)
			p, err := job.Step(j, pods, w.jobBackoff[k], now, w.Opts.Job)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			writes, err := p.Writes(j, pods)
			return stepOut{plan: p, writes: writes, err: err, events: p.Events, requeue: p.Requeue,
				after: func() { w.jobBackoff[k] = p.Memory }}
		},
	}
}

// cronJobController runs cronjob.Step on each CronJob with the Jobs it
// controls; cronjob.Plan.Writes makes the writes. The new status.active
// entry gets the UID the API server gave the created Job, as upstream
// builds it from the create's answer.
func cronJobController() controller {
	return controller{
		name:  CtlCronJob,
		reads: []Kind{KindCronJob, KindJob},
		keys:  func(w *World) []Key { return w.State.Keys(KindCronJob) },
		step: func(w *World, k Key, now time.Time) stepOut {
			cj, _ := w.State.Get(k).(*cronjob.CronJob)
			if cj == nil {
				return stepOut{}
			}
			jobs := controlled[*job.Job](w.State, KindJob, cj.UID)
			p, err := cronjob.Step(cj, jobs, now, w.Opts.CronJob)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			out, err := p.Writes(cj, jobs)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			// The new Active entry gets the UID the API server gave the Job.
			resolve := func(i int, results []Result, wr plan.Write) plan.Write {
				if wr.Subresource != "status" {
					return wr
				}
				for _, r := range results {
					if r.Key.Kind != KindJob || r.UID == "" {
						continue
					}
					c := *wr.Object.(*cronjob.CronJob)
					c.Status.Active = slices.Clone(c.Status.Active)
					for j := range c.Status.Active {
						if c.Status.Active[j].Name == r.Key.Name && c.Status.Active[j].UID == "" {
							c.Status.Active[j].UID = r.UID
						}
					}
					wr.Object = &c
				}
				return wr
			}
			return stepOut{plan: p, writes: out, events: p.Events, requeue: p.Requeue, resolve: resolve}
		},
	}
}
