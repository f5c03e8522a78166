package cluster

import (
	"slices"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// jobController runs job.Step on each Job with the pods it controls and
// the backoff record kept in the World (the Plan's Memory); job.Plan.Writes
// makes the writes. After the Jobs it syncs the orphan pods that still
// carry the tracking finalizer (orphanPods), removing it, as upstream's
// orphan queue does.
func jobController() controller {
	return controller{
		name:  CtlJob,
		reads: []Kind{KindJob, KindPod},
		keys: func(w *World) []Key {
			return append(w.State.Keys(KindJob), w.orphanPods()...)
		},
		step: func(w *World, k Key, now time.Time) stepOut {
			if k.Kind == KindPod {
				return w.releaseOrphan(k)
			}
			j, _ := w.State.Get(k).(*job.Job)
			if j == nil {
				return stepOut{}
			}
			pods := listedBy(controlled[*podstatus.Pod](w.State, KindPod, j.UID), j.Namespace, KindJob, j.Name)
			p, err := job.Step(j, pods, w.jobBackoff[k], now, w.Opts.Job)
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "job.Step", Options: w.Opts.Job,
					Input: map[string]any{"job": j, "pods": pods, "memory": w.jobBackoff[k], "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := p.Writes(j, pods)
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: p.Requeue, call: call,
				after: func() { w.jobBackoff[k] = p.Memory }}
		},
	}
}

// orphanPods lists, by namespace and name, the pods that carry the Job
// tracking finalizer and that no running Job controls: no controller
// reference, or one to a batch/v1 Job that does not exist (by name and
// UID) or is finished and not managed by another controller. A pod
// controlled by another kind keeps its finalizer.
//
// Source: upstream pkg/controller/job/job_controller.go
// handleSingleOrphanPod, enqueued by addPod, updatePod, deletePod and
// deleteJob's enqueueLabelSelector (v1.36.3). The simplification: the
// world looks at every pod carrying the finalizer (the State's index of
// them) each time pods or Jobs change, where upstream enqueues the pods
// its informer events name.
func (w *World) orphanPods() []Key {
	var out []Key
	for _, p := range w.State.jobTrackedPods() {
		if w.isOrphan(p) {
			out = append(out, Key{KindPod, p.Namespace, p.Name})
		}
	}
	return out
}

func (w *World) isOrphan(p *podstatus.Pod) bool {
	if !slices.Contains(p.Finalizers, job.TrackingFinalizer) {
		return false
	}
	ref := p.ControllerRef()
	if ref == nil {
		return true
	}
	if ref.Kind != "Job" || ref.APIVersion != "batch/v1" {
		return false
	}
	j, _ := w.State.Get(Key{KindJob, p.Namespace, ref.Name}).(*job.Job)
	if j == nil || j.UID != ref.UID {
		return true
	}
	if j.Spec.ManagedBy != nil && *j.Spec.ManagedBy != jobControllerName {
		return false
	}
	return j.IsFinished()
}

// jobControllerName is spec.managedBy of Jobs the built-in controller
// manages.
const jobControllerName = "kubernetes.io/job-controller"

// releaseOrphan is the Job controller's sync of orphan pod k: a patch
// removing the tracking finalizer (upstream removeTrackingFinalizerPatch,
// a strategic-merge $deleteFromPrimitiveList), the pod after the patch.
func (w *World) releaseOrphan(k Key) stepOut {
	p, _ := w.State.Get(k).(*podstatus.Pod)
	if p == nil || !w.isOrphan(p) {
		return stepOut{}
	}
	after := deepcopy.Copy(*p)
	after.Finalizers = slices.DeleteFunc(after.Finalizers, func(f string) bool { return f == job.TrackingFinalizer })
	return stepOut{writes: []plan.Write{{Verb: plan.VerbPatch, Resource: "pods", Namespace: p.Namespace, Name: p.Name,
		UID: p.UID, Object: &after, Reason: job.ReasonRemoveTrackingFinalizer}}}
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
		// A CronJob syncs when it or one of its Jobs changed (its
		// handlers enqueue the owner of a Job added, updated or
		// deleted), or at its requeue (the next schedule time + 100 ms):
		// an unrelated Job's change does not make it create a Job
		// early.
		wake: func(w *World, k Key, b []byte) []byte {
			cj, _ := w.State.Get(k).(*cronjob.CronJob)
			if cj == nil {
				return b
			}
			b = strconv.AppendUint(b, w.State.stamp(k), 10)
			for _, j := range w.State.ctl[ctlIdx{cj.UID, KindJob}] {
				m := metaOf(j)
				b = append(b, ' ')
				b = strconv.AppendUint(b, w.State.stamp(Key{KindJob, m.Namespace, m.Name}), 10)
			}
			return b
		},
		step: func(w *World, k Key, now time.Time) stepOut {
			cj, _ := w.State.Get(k).(*cronjob.CronJob)
			if cj == nil {
				return stepOut{}
			}
			jobs := controlled[*job.Job](w.State, KindJob, cj.UID)
			p, err := cronjob.Step(cj, jobs, now, w.Opts.CronJob)
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "cronjob.Step", Options: w.Opts.CronJob,
					Input: map[string]any{"cronJob": cj, "jobs": jobs, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			out, err := p.Writes(cj, jobs)
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
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
			return stepOut{plan: keepPlan(w, p), writes: out, events: p.Events, requeue: p.Requeue, resolve: resolve, call: call}
		},
	}
}
